/* Connect Four's rules and endgame solvers (see connect4_rules.h). Each function follows the Python
 * one it mirrors in games/connect4.py step by step; the distance solver down to the order moves are
 * tried and the positions its table keeps, so that a bounded solve stops where the reference's does.
 * Shifts left may push bits past bit 63 where Python's ints keep them: those bits lie off the board
 * and the reference masks them away, so dropping them changes nothing. */
#include "connect4_rules.h"

#include <stdlib.h>
#include <string.h>

#define S C4_STRIDE
#define COLUMN_CELLS(c) ((uint64_t)0x3F << ((c) * S))

int c4_has_four(uint64_t stones)
{
    uint64_t m = stones & (stones >> S);   /* horizontal */
    if (m & (m >> 2 * S))
        return 1;
    m = stones & (stones >> (S - 1));      /* diagonal going down to the right */
    if (m & (m >> 2 * (S - 1)))
        return 1;
    m = stones & (stones >> (S + 1));      /* diagonal going up to the right */
    if (m & (m >> 2 * (S + 1)))
        return 1;
    m = stones & (stones >> 1);            /* vertical */
    return (m & (m >> 2)) != 0;
}

uint64_t c4_winning_cells(uint64_t stones, uint64_t mask)
{
    uint64_t r = (stones << 1) & (stones << 2) & (stones << 3);   /* vertical: only three below */
    static const int dirs[3] = {S, S - 1, S + 1};
    for (int i = 0; i < 3; i++) {
        int d = dirs[i];
        uint64_t p = (stones << d) & (stones << 2 * d);
        r |= p & (stones << 3 * d);
        r |= p & (stones >> d);
        p = (stones >> d) & (stones >> 2 * d);
        r |= p & (stones << d);
        r |= p & (stones >> 3 * d);
    }
    return r & (C4_BOARD ^ mask);
}

static inline uint64_t playable_cells(uint64_t mask) { return (mask + C4_BOTTOM_ROW) & C4_BOARD; }

int c4_shortcut(uint64_t cur, uint64_t mask)
{
    uint64_t playable = playable_cells(mask), opp = cur ^ mask;
    int threats = 0;
    while (playable) {
        uint64_t cell = playable & (0 - playable);
        playable ^= cell;
        if (c4_has_four(cur | cell))
            return 1;
        threats += c4_has_four(opp | cell);
    }
    return threats >= 2 ? -1 : 0;
}

int c4_valid_mask(uint64_t mask)
{
    if (mask & ~C4_BOARD)
        return 0;
    for (int c = 0; c < C4_WIDTH; c++) {
        uint64_t col = (mask >> (c * S)) & 0x3F;
        if (col & (col + 1))   /* not of the form 0..01..1: a hole under a stone */
            return 0;
    }
    return 1;
}

/* --- perft ------------------------------------------------------------------------------------ */

static void walk(uint64_t cur, uint64_t mask, int ply, int last, uint64_t *nodes)
{
    uint64_t open = playable_cells(mask);   /* the lowest empty cell of each open column */
    int n = c4_popcount(open);
    nodes[ply] += (uint64_t)n;
    if (ply == last)
        return;
    uint64_t opp = cur ^ mask, wins = c4_winning_cells(cur, mask);
    if (ply + 1 == last) {   /* the children are the last ply's parents: count their open columns */
        uint64_t leaves = 0;
        for (uint64_t m = open; m; m &= m - 1) {
            uint64_t cell = m & (0 - m);
            if (!(cell & wins) && (mask | cell) != C4_BOARD)
                leaves += (uint64_t)(cell & ((uint64_t)0x20 * C4_BOTTOM_ROW) ? n - 1 : n);
        }
        nodes[last] += leaves;
        return;
    }
    for (uint64_t m = open; m; m &= m - 1) {
        uint64_t cell = m & (0 - m);
        if (!(cell & wins) && (mask | cell) != C4_BOARD)
            walk(opp, mask | cell, ply + 1, last, nodes);
    }
}

void c4_perft(uint64_t cur, uint64_t mask, int depth, uint64_t *nodes)
{
    for (int i = 0; i < depth; i++)
        nodes[i] = 0;
    if (depth > 0)
        walk(cur, mask, 0, depth - 1, nodes);
}

void c4_encode(uint64_t cur, uint64_t mask, float *out)
{
    uint64_t opp = cur ^ mask;
    for (int r = 0; r < C4_HEIGHT; r++)
        for (int c = 0; c < C4_WIDTH; c++) {
            int bit = c * S + C4_HEIGHT - 1 - r, i = r * C4_WIDTH + c;
            out[i] = (float)(cur >> bit & 1);
            out[C4_CELLS + i] = (float)(opp >> bit & 1);
        }
}

/* --- the win/draw/loss solver ----------------------------------------------------------------- */

/* the bounds of solved positions, shared between calls: buckets of two one-word entries, the
 * key (49 bits: each column's stones plus its height) with the bounds and the empty cells above
 * it; the first slot keeps the position with the most empty cells (the costliest to search
 * again), the second the newest. Any bound stored is a true bound of its position, so a lost or
 * replaced entry costs only time. 2^19 words, 4 MB: a larger table saves a few positions but,
 * missing the processor's cache, costs more time than it saves (2026-12-02). */
#define SOLVED_BITS 19
#define LO_SHIFT 49                          /* the word's fields above the key's 49 bits */
#define HI_SHIFT 51
#define EMPTIES_SHIFT 53
#define KEY_BITS ((1ULL << LO_SHIFT) - 1)
static uint64_t *solved;
static int solved_tried;

static inline uint64_t mix(uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ULL;
    return h ^ h >> 29;
}

static inline uint64_t entry_word(uint64_t key, int lo, int hi, int empties)
{
    return key | (uint64_t)(lo + 1) << LO_SHIFT | (uint64_t)(hi + 1) << HI_SHIFT | (uint64_t)empties << EMPTIES_SHIFT;
}

void c4_solve_clear(void)
{
    if (solved != NULL)
        memset(solved, 0, sizeof(uint64_t) << SOLVED_BITS);
}

static const int centre_first[C4_WIDTH] = {3, 2, 4, 1, 5, 0, 6};

/* the positions a bounded solve (c4_solve_within) may still visit; negative: the solve is
 * unbounded. Past it, solve_stopped is set and every call returns at once, storing nothing. */
static long long solve_budget = -1;
static int solve_stopped;

static int negamax(uint64_t cur, uint64_t mask, int alpha, int beta, uint64_t wins, uint64_t opp_wins)
{
    if (solve_budget >= 0 && --solve_budget < 0) {
        solve_stopped = 1;          /* the reference's _count: one more position, past the budget */
        return 0;
    }
    if (mask == C4_BOARD)
        return 0;
    uint64_t playable = playable_cells(mask);
    if (wins & playable)
        return 1;
    uint64_t moves = opp_wins & playable;
    if (moves & (moves - 1))
        return -1;                          /* two threats: one stone blocks one */
    if (!moves)
        moves = playable;
    moves &= ~(opp_wins >> 1);              /* a stone under the opponent's winning cell lets it win */
    if (!moves)
        return -1;
    uint64_t key = cur + mask;              /* unique: each column's stones plus its height */
    int empties = C4_CELLS - c4_popcount(mask);
    uint64_t *bucket = NULL, *e = NULL;
    int lo = -1, hi = 1;
    if (solved != NULL) {
        bucket = &solved[(mix(key) >> (64 - SOLVED_BITS)) & ~(uint64_t)1];
        if (bucket[0] && (bucket[0] & KEY_BITS) == key)
            e = &bucket[0];
        else if (bucket[1] && (bucket[1] & KEY_BITS) == key)
            e = &bucket[1];
        if (e != NULL) {
            lo = (int)(*e >> LO_SHIFT & 3) - 1;
            hi = (int)(*e >> HI_SHIFT & 3) - 1;
            if (lo >= beta || lo == hi)
                return lo;
            if (hi <= alpha)
                return hi;
            if (lo > alpha)
                alpha = lo;
            if (hi < beta)
                beta = hi;
        }
    }
    int first_alpha = alpha;
    /* the moves centre first, then sorted most new threats first (stable, as the reference) */
    uint64_t cells[C4_WIDTH], threats[C4_WIDTH];
    int counts[C4_WIDTH], n = 0;
    for (int i = 0; i < C4_WIDTH; i++) {
        uint64_t cell = moves & COLUMN_CELLS(centre_first[i]);
        if (!cell)
            continue;
        uint64_t w = c4_winning_cells(cur | cell, mask | cell);
        int k = c4_popcount(w), j = n++;
        while (j > 0 && counts[j - 1] < k) {
            cells[j] = cells[j - 1];
            threats[j] = threats[j - 1];
            counts[j] = counts[j - 1];
            j--;
        }
        cells[j] = cell;
        threats[j] = w;
        counts[j] = k;
    }
    uint64_t opp = cur ^ mask;
    int best = -1;
    for (int i = 0; i < n; i++) {
        int v = -negamax(opp, mask | cells[i], -beta, -alpha, opp_wins & ~cells[i], threats[i]);
        if (solve_stopped)
            return 0;               /* a bound from a search cut short would be no bound */
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    if (bucket != NULL) {   /* the bucket, looked up above, cannot have moved: the table never grows */
        if (best <= first_alpha) {
            if (best < hi)
                hi = best;                  /* failed low: at most this */
        } else if (best >= beta) {
            if (best > lo)
                lo = best;                  /* failed high: at least this */
        } else {
            lo = hi = best;
        }
        uint64_t word = entry_word(key, lo, hi, empties);
        if (e != NULL)
            *e = word;
        else if (!bucket[0] || (int)(bucket[0] >> EMPTIES_SHIFT) <= empties) {
            bucket[1] = bucket[0];
            bucket[0] = word;
        } else
            bucket[1] = word;
    }
    return best;
}

/* the result in two null-window searches, as the reference's solve: a win? if not, a loss? */
static int solve_root(uint64_t cur, uint64_t mask)
{
    uint64_t wins = c4_winning_cells(cur, mask), opp_wins = c4_winning_cells(cur ^ mask, mask);
    int v = negamax(cur, mask, 0, 1, wins, opp_wins);
    if (v >= 1 || solve_stopped)
        return v;
    v = negamax(cur, mask, -1, 0, wins, opp_wins);
    return v >= 0 ? 0 : -1;
}

int c4_solve(uint64_t cur, uint64_t mask)
{
    if (solved == NULL && !solved_tried) {
        solved_tried = 1;
        solved = calloc((size_t)1 << SOLVED_BITS, sizeof(uint64_t));
    }
    return solve_root(cur, mask);
}

int c4_solve_within(uint64_t cur, uint64_t mask, long long *budget)
{
    if (*budget < 0) {
        *budget = -1;
        return C4_BUDGET_EXCEEDED;
    }
    solve_budget = *budget;
    solve_stopped = 0;
    int v = c4_solve(cur, mask);
    int stopped = solve_stopped;
    *budget = stopped ? -1 : solve_budget;
    solve_budget = -1;
    solve_stopped = 0;
    return stopped ? C4_BUDGET_EXCEEDED : v;
}

/* --- the distance solver ---------------------------------------------------------------------- */

/* the reference's per-call dict ``known``: every answer stored is kept (open addressing, grown at
 * half full); keyed by the position and the plies asked, negative for "loses within" */
typedef struct { uint64_t key; int8_t plies, found, used; } known_entry;

typedef struct {
    long long budget;
    int stop;                 /* 0, C4_BUDGET_EXCEEDED or C4_NO_MEMORY */
    known_entry *table;
    size_t mask, count;       /* capacity - 1, entries */
} distance_ctx;

static known_entry *known_find(distance_ctx *ctx, uint64_t key, int plies)
{
    size_t i = (size_t)(mix(key) ^ (uint64_t)(plies + 64) * 0xC2B2AE3D27D4EB4FULL) & ctx->mask;
    while (ctx->table[i].used && (ctx->table[i].key != key || ctx->table[i].plies != plies))
        i = (i + 1) & ctx->mask;
    return &ctx->table[i];
}

/* stores the answer (never there before: each is asked once, then read); 0 when the table cannot grow */
static int known_store(distance_ctx *ctx, uint64_t key, int plies, int found)
{
    if (2 * (ctx->count + 1) > ctx->mask + 1) {
        size_t old_size = ctx->mask + 1;
        known_entry *old = ctx->table;
        known_entry *grown = calloc(2 * old_size, sizeof *grown);
        if (grown == NULL)
            return 0;
        ctx->table = grown;
        ctx->mask = 2 * old_size - 1;
        for (size_t i = 0; i < old_size; i++)
            if (old[i].used)
                *known_find(ctx, old[i].key, old[i].plies) = old[i];
        free(old);
    }
    known_entry *e = known_find(ctx, key, plies);
    if (!e->used)
        ctx->count++;
    e->key = key;
    e->plies = (int8_t)plies;
    e->found = (int8_t)found;
    e->used = 1;
    return 1;
}

/* the reference's _count: one more position searched, 0 (and stop set) past the budget */
static inline int count_node(distance_ctx *ctx)
{
    if (--ctx->budget < 0) {
        ctx->stop = C4_BUDGET_EXCEEDED;
        return 0;
    }
    return 1;
}

static int loses_within(distance_ctx *ctx, uint64_t cur, uint64_t mask, int plies);

/* can the side to move force four with its stone at most plies plies away? (_wins_within) */
static int wins_within(distance_ctx *ctx, uint64_t cur, uint64_t mask, int plies)
{
    uint64_t playable = playable_cells(mask);
    if (c4_winning_cells(cur, mask) & playable)
        return 1;
    if (plies < 3 || !playable)
        return 0;
    uint64_t key = cur + mask;
    known_entry *e = known_find(ctx, key, plies);
    if (e->used)
        return e->found;
    if (!count_node(ctx))
        return 0;
    uint64_t opp = cur ^ mask, opp_wins = c4_winning_cells(opp, mask);
    uint64_t moves = opp_wins & playable;
    int found = 0;
    if (!(moves & (moves - 1))) {   /* two threats: one stone blocks one, found stays 0 */
        moves = (moves ? moves : playable) & ~(opp_wins >> 1);   /* under its winning cell: it wins first */
        while (moves && !found) {
            uint64_t cell = moves & (0 - moves);
            moves ^= cell;
            found = loses_within(ctx, opp, mask | cell, plies - 1);
            if (ctx->stop)
                return 0;
        }
    }
    if (!known_store(ctx, key, plies, found)) {
        ctx->stop = C4_NO_MEMORY;
        return 0;
    }
    return found;
}

/* does every move of the side to move let the opponent make four at most plies plies away? (_loses_within) */
static int loses_within(distance_ctx *ctx, uint64_t cur, uint64_t mask, int plies)
{
    if (mask == C4_BOARD)
        return 0;
    uint64_t playable = playable_cells(mask);
    if (c4_winning_cells(cur, mask) & playable)
        return 0;
    uint64_t opp = cur ^ mask, opp_wins = c4_winning_cells(opp, mask);
    uint64_t forced = opp_wins & playable;
    if (forced & (forced - 1))
        return plies >= 2;                  /* one stone blocks one threat; the other wins next */
    if (plies < 2)
        return 0;
    uint64_t key = cur + mask;
    known_entry *e = known_find(ctx, key, -plies);
    if (e->used)
        return e->found;
    if (!count_node(ctx))
        return 0;
    uint64_t moves = forced ? forced : playable;
    int lost = 1;
    while (moves && lost) {
        uint64_t cell = moves & (0 - moves);
        moves ^= cell;
        if (opp_wins & (cell << 1))
            continue;                       /* a stone under its winning cell: it wins next ply */
        lost = wins_within(ctx, opp, mask | cell, plies - 1);
        if (ctx->stop)
            return 0;
    }
    if (!known_store(ctx, key, -plies, lost)) {
        ctx->stop = C4_NO_MEMORY;
        return 0;
    }
    return lost;
}

int c4_distance(uint64_t cur, uint64_t mask, int result, long long *budget)
{
    distance_ctx ctx = {*budget, 0, NULL, 1023, 0};
    ctx.table = calloc(ctx.mask + 1, sizeof *ctx.table);
    if (ctx.table == NULL)
        return C4_NO_MEMORY;
    int empties = C4_CELLS - c4_popcount(mask), found = C4_NOT_FOUND;
    for (int d = result > 0 ? 1 : 2; d <= empties; d += 2) {
        int held = result > 0 ? wins_within(&ctx, cur, mask, d) : loses_within(&ctx, cur, mask, d);
        if (ctx.stop) {
            found = ctx.stop;
            break;
        }
        if (held) {
            found = d;
            break;
        }
    }
    free(ctx.table);
    *budget = ctx.budget;
    return found;
}
