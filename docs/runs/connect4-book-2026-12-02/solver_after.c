/* The win/draw/loss solver as games/csrc/connect4_rules.c has it since 2026-12-02: two
 * null-window searches, buckets of two one-word entries (the most empty cells kept first, the
 * newest second). BITS: the table's size (the project's: 19); MINE: use the table only from
 * that many empty cells (tried: far more positions); MIRROR: key positions with that many empty
 * cells or more with their mirror (tried: no gain). See run.sh. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "connect4_rules.h"
#define S 7
#define COLUMN_CELLS(c) ((uint64_t)0x3F << ((c) * S))
uint64_t c4_winning_cells(uint64_t stones, uint64_t mask);
static inline uint64_t playable_cells(uint64_t mask) { return (mask + C4_BOTTOM_ROW) & C4_BOARD; }
static long long nodes;
#ifndef BITS
#define BITS 21
#endif
#ifndef MINE
#define MINE 0
#endif
#ifndef MIRROR
#define MIRROR 0
#endif
/* one word an entry: key (49 bits) | lo+1 (2 bits) << 49 | hi+1 << 51 | empties << 53; 0 = unused */
static uint64_t *tab;
static inline uint64_t mix(uint64_t key){ uint64_t h = key * 0x9E3779B97F4A7C15ULL; return h ^ h >> 29; }
static inline uint64_t mirror(uint64_t k){ uint64_t r=0; for(int c=0;c<7;c++) r |= ((k>>(c*S))&0x7F) << ((6-c)*S); return r; }
#define KEYMASK ((1ULL<<49)-1)
static const int centre_first[7] = {3, 2, 4, 1, 5, 0, 6};
static int negamax(uint64_t cur, uint64_t mask, int alpha, int beta, uint64_t wins, uint64_t opp_wins)
{
    nodes++;
    if (mask == C4_BOARD) return 0;
    uint64_t playable = playable_cells(mask);
    if (wins & playable) return 1;
    uint64_t moves = opp_wins & playable;
    if (moves & (moves - 1)) return -1;
    if (!moves) moves = playable;
    moves &= ~(opp_wins >> 1);
    if (!moves) return -1;
    int empties = 42 - c4_popcount(mask);
    uint64_t key = cur + mask, *b = NULL, *e = NULL;
    int lo=-1, hi=1;
    if (empties >= MINE) {
#if MIRROR
        if (empties >= MIRROR) { uint64_t m = mirror(key); if (m < key) key = m; }
#endif
        b = &tab[(mix(key) >> (64 - BITS)) & ~1ULL];
        if ((b[0] & KEYMASK) == key && b[0]) e = &b[0]; else if ((b[1] & KEYMASK) == key && b[1]) e = &b[1];
        if (e) { lo=(int)((*e>>49)&3)-1; hi=(int)((*e>>51)&3)-1; if (lo >= beta || lo == hi) return lo; if (hi <= alpha) return hi; if (lo>alpha) alpha=lo; if (hi<beta) beta=hi; }
    }
    int first_alpha = alpha;
    uint64_t cells[7], threats[7]; int counts[7], n = 0;
    for (int i = 0; i < 7; i++) {
        uint64_t cell = moves & COLUMN_CELLS(centre_first[i]);
        if (!cell) continue;
        uint64_t w = c4_winning_cells(cur | cell, mask | cell);
        int k = c4_popcount(w), j = n++;
        while (j > 0 && counts[j - 1] < k) { cells[j] = cells[j - 1]; threats[j] = threats[j - 1]; counts[j] = counts[j - 1]; j--; }
        cells[j] = cell; threats[j] = w; counts[j] = k;
    }
    uint64_t opp = cur ^ mask; int best = -1;
    for (int i = 0; i < n; i++) {
        int v = -negamax(opp, mask | cells[i], -beta, -alpha, opp_wins & ~cells[i], threats[i]);
        if (v > best) { best = v; if (v > alpha) { alpha = v; if (alpha >= beta) break; } }
    }
    if (b) {
        if (best <= first_alpha) { if (best < hi) hi = best; }
        else if (best >= beta) { if (best > lo) lo = best; }
        else lo = hi = best;
        uint64_t word = key | (uint64_t)(lo+1) << 49 | (uint64_t)(hi+1) << 51 | (uint64_t)empties << 53;
        if (e) *e = word;
        else if (!b[0] || (int)(b[0] >> 53) <= empties) { b[1] = b[0]; b[0] = word; }
        else b[1] = word;
    }
    return best;
}
int main(int argc, char **argv){
    tab = calloc((size_t)1<<BITS, 8);
    unsigned long long cur, mask; char name[64];
    while (scanf("%63s %llu %llu", name, &cur, &mask)==3){
        memset(tab,0,(size_t)8<<BITS); nodes=0;
        clock_t t0=clock();
        uint64_t w=c4_winning_cells(cur,mask), ow=c4_winning_cells(cur^mask,mask);
        int r = negamax(cur,mask,0,1,w,ow);
        if (r < 1) r = negamax(cur,mask,-1,0,w,ow) >= 0 ? 0 : -1;
        printf("%s %d %.2f %lld\n", name, r, (double)(clock()-t0)/CLOCKS_PER_SEC, nodes); fflush(stdout);
    }
}
