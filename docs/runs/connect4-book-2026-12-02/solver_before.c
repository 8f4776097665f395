/* The win/draw/loss solver as it was before 2026-12-02 (VARIANT 0: one search with the whole
 * window, a direct-mapped table of 16-byte entries, the newest kept), with the variants tried on
 * the way (1: two-entry buckets; 2: and a position keyed with its mirror; 3: and two null-window
 * searches). BITS: the table's size. Reads "name cur mask" lines, prints name, result, CPU
 * seconds, positions visited. See run.sh. */
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
#define BITS 19
#endif
#ifndef VARIANT
#define VARIANT 0
#endif
/* variant 0: as shipped. 1: two-slot buckets (deep-preferred + newest), 2: +mirror key, 3: +null window root */
typedef struct { uint64_t key; int8_t lo, hi, used, empties; } entry;
static entry *tab;
static inline uint64_t mix(uint64_t key){ uint64_t h = key * 0x9E3779B97F4A7C15ULL; return h ^ h >> 29; }
static inline uint64_t mirror(uint64_t k){ uint64_t r=0; for(int c=0;c<7;c++) r |= ((k>>(c*S))&0x7F) << ((6-c)*S); return r; }
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
    uint64_t key = cur + mask;
#if VARIANT >= 2
    { uint64_t m = mirror(key); if (m < key) key = m; }
#endif
    int empties = 42 - c4_popcount(mask);
    entry *e = NULL; int lo=-1, hi=1;
#if VARIANT >= 1
    entry *b = &tab[(mix(key) >> (64 - BITS)) & ~1ULL];
    if (b[0].used && b[0].key == key) e = &b[0]; else if (b[1].used && b[1].key == key) e = &b[1];
#else
    e = &tab[mix(key) >> (64 - BITS)];
    if (!(e->used && e->key == key)) e = NULL;
#endif
    if (e) { lo=e->lo; hi=e->hi; if (lo >= beta || lo == hi) return lo; if (hi <= alpha) return hi; if (lo>alpha) alpha=lo; if (hi<beta) beta=hi; }
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
    if (best <= first_alpha) { if (best < hi) hi = best; }
    else if (best >= beta) { if (best > lo) lo = best; }
    else lo = hi = best;
#if VARIANT >= 1
    entry *slot;
    if (e) slot = e;
    else if (!b[0].used || b[0].empties <= empties) { b[1] = b[0]; slot = &b[0]; }
    else slot = &b[1];
#else
    entry *slot = &tab[mix(key) >> (64 - BITS)];
#endif
    slot->key=key; slot->used=1; slot->lo=lo; slot->hi=hi; slot->empties=empties;
    return best;
}
int main(int argc, char **argv){
    tab = calloc((size_t)1<<BITS, sizeof(entry));
    unsigned long long cur, mask; char name[64];
    while (scanf("%63s %llu %llu", name, &cur, &mask)==3){
        memset(tab,0,sizeof(entry)<<BITS); nodes=0;
        clock_t t0=clock();
        uint64_t w=c4_winning_cells(cur,mask), ow=c4_winning_cells(cur^mask,mask);
        int r;
#if VARIANT >= 3
        r = negamax(cur,mask,0,1,w,ow); /* win? */
        if (r < 1) r = negamax(cur,mask,-1,0,w,ow) >= 0 ? 0 : -1;
#else
        r = negamax(cur,mask,-1,1,w,ow);
#endif
        printf("%s %d %.2f %lld\n", name, r, (double)(clock()-t0)/CLOCKS_PER_SEC, nodes); fflush(stdout);
    }
}
