/* Othello's rules and endgame solvers (see othello_rules.h). Each function follows the Python one
 * it mirrors in games/othello.py step by step; the margin solver down to the order children are
 * tried and the positions its table keeps, so that a bounded solve stops where the reference's does. */
#include "othello_rules.h"

#include <stdlib.h>
#include <string.h>

/* nodes with at least this many empty squares keep their bounds and order their children by the
 * opponent's replies (games.othello._ORDER_EMPTIES) */
#define ORDER_EMPTIES 6

/* --- geometry -------------------------------------------------------------------------------- */

/* the rays' directions in the reference's order (Othello._rays) */
static const int RAY_DIRS[8][2] = {{0, 1}, {1, -1}, {1, 0}, {1, 1}, {0, -1}, {-1, 1}, {-1, 0}, {-1, -1}};

int ot_geom_init(ot_geom *g, int size)
{
    if (size < OT_MIN_SIZE || size > OT_MAX_SIZE)
        return 0;
    memset(g, 0, sizeof *g);
    g->size = size;
    g->cells = size * size;
    g->full = g->cells == 64 ? ~(uint64_t)0 : ((uint64_t)1 << g->cells) - 1;
    uint64_t edges = 0;
    for (int r = 0; r < size; r++)
        edges |= (uint64_t)1 << (r * size) | (uint64_t)1 << (r * size + size - 1);
    uint64_t inner = g->full ^ edges;
    const int shifts[4] = {1, size, size - 1, size + 1};
    for (int d = 0; d < 4; d++) {
        g->shift[d] = shifts[d];
        g->inner[d] = d == 1 ? g->full : inner;
    }
    int last = g->cells - 1;
    g->corners = (uint64_t)1 | (uint64_t)1 << (size - 1) | (uint64_t)1 << (last - size + 1) | (uint64_t)1 << last;
    for (int sq = 0; sq < g->cells; sq++) {
        int r0 = sq / size, c0 = sq % size;
        for (int k = 0; k < 8; k++) {
            uint64_t ray = 0;
            for (int r = r0 + RAY_DIRS[k][0], c = c0 + RAY_DIRS[k][1]; r >= 0 && r < size && c >= 0 && c < size;
                 r += RAY_DIRS[k][0], c += RAY_DIRS[k][1])
                ray |= (uint64_t)1 << (r * size + c);
            if (ot_popcount(ray) < 2)   /* a flip needs an opponent disc and one of mine beyond it */
                continue;
            if (ray > ((uint64_t)1 << sq))
                g->up[sq][g->nup[sq]++] = ray;
            else
                g->down[sq][g->ndown[sq]++] = ray;
        }
    }
    return 1;
}

/* --- moves ------------------------------------------------------------------------------------ */

uint64_t ot_move_mask(const ot_geom *g, uint64_t me, uint64_t opp)
{
    uint64_t moves = 0;
    for (int k = 0; k < 4; k++) {   /* the reference's flood fill: runs of 1-2 discs, then two doublings */
        int d = g->shift[k], d2 = d + d;
        uint64_t o = opp & g->inner[k];
        uint64_t x = o & (me << d);
        x |= o & (x << d);
        uint64_t pairs = o & (o << d);
        x |= pairs & (x << d2);
        x |= pairs & (x << d2);
        moves |= x << d;
        x = o & (me >> d);
        x |= o & (x >> d);
        pairs = o & (o >> d);
        x |= pairs & (x >> d2);
        x |= pairs & (x >> d2);
        moves |= x >> d;
    }
    return moves & (g->full ^ (me | opp));
}

uint64_t ot_flips(const ot_geom *g, uint64_t me, uint64_t opp, int square)
{
    uint64_t flipped = 0, not_opp = ~opp;
    for (int i = 0; i < g->nup[square]; i++) {   /* the nearest blocker is the lowest bit */
        uint64_t ray = g->up[square][i];
        uint64_t b = ray & not_opp;
        b &= (uint64_t)0 - b;
        if (b & me)
            flipped |= ray & (b - 1);
    }
    for (int i = 0; i < g->ndown[square]; i++) {   /* the nearest blocker is the highest bit */
        uint64_t ray = g->down[square][i];
        uint64_t b = ray & not_opp;
        if (b) {
            b = (uint64_t)1 << ot_msb(b);
            if (b & me)
                flipped |= ray & ((uint64_t)0 - (b << 1));
        }
    }
    return flipped;
}

/* --- perft and planes ------------------------------------------------------------------------- */

static void perft_walk(const ot_geom *g, uint64_t me, uint64_t opp, int ply, int last, uint64_t *nodes)
{
    uint64_t moves = ot_move_mask(g, me, opp);
    if (moves) {
        nodes[ply] += (uint64_t)ot_popcount(moves);
        if (ply == last)
            return;
        while (moves) {
            int sq = ot_ctz(moves);
            moves &= moves - 1;
            uint64_t f = ot_flips(g, me, opp, sq);
            perft_walk(g, opp ^ f, me | f | (uint64_t)1 << sq, ply + 1, last, nodes);
        }
    } else if (ot_move_mask(g, opp, me)) {
        nodes[ply] += 1;
        if (ply != last)
            perft_walk(g, opp, me, ply + 1, last, nodes);
    }
}

void ot_perft(const ot_geom *g, uint64_t me, uint64_t opp, int depth, uint64_t *nodes)
{
    for (int i = 0; i < depth; i++)
        nodes[i] = 0;
    if (depth > 0)
        perft_walk(g, me, opp, 0, depth - 1, nodes);
}

void ot_encode(const ot_geom *g, uint64_t me, uint64_t opp, uint64_t legal, float *out)
{
    const uint64_t planes[OT_NUM_PLANES] = {me, opp, legal};
    for (int p = 0; p < OT_NUM_PLANES; p++)
        for (int i = 0; i < g->cells; i++)
            *out++ = (float)(planes[p] >> i & 1);
}

/* --- the win/draw/loss solver ----------------------------------------------------------------- */

static inline int sign(int x) { return (x > 0) - (x < 0); }

/* one child of a node: its order key (the opponent's replies, less 4 for a corner) and position */
typedef struct { int order; uint64_t me, opp; } child;

/* sorts children by order, keeping equal keys in ascending square order (Python's stable sort) */
static void sort_children(child *c, int n)
{
    for (int i = 1; i < n; i++) {
        child x = c[i];
        int j = i - 1;
        while (j >= 0 && c[j].order > x.order) {
            c[j + 1] = c[j];
            j--;
        }
        c[j + 1] = x;
    }
}

/* A stored bound pair [lo, hi] against the window (alpha, beta): 1 with *value set when it
 * decides the position, else 0 with the window narrowed to what it allows. */
static inline int narrow(int lo, int hi, int *alpha, int *beta, int *value)
{
    if (lo >= *beta || lo == hi) {
        *value = lo;
        return 1;
    }
    if (hi <= *alpha) {
        *value = hi;
        return 1;
    }
    if (lo > *alpha)
        *alpha = lo;
    if (hi < *beta)
        *beta = hi;
    return 0;
}

/* The positions after each move of ``mask`` (the opponent to move), into ``children``; with
 * ``ordered``, sorted fewest replies first (a corner counts four fewer). Returns how many. */
static int expand(const ot_geom *g, uint64_t me, uint64_t opp, uint64_t mask, child *children, int ordered)
{
    int n = 0;
    while (mask) {
        int sq = ot_ctz(mask);
        uint64_t bit = mask & ((uint64_t)0 - mask);
        mask ^= bit;
        uint64_t f = ot_flips(g, me, opp, sq);
        child *c = &children[n++];
        c->me = opp ^ f;
        c->opp = me | f | bit;
        c->order = ordered ? ot_popcount(ot_move_mask(g, c->me, c->opp)) - (bit & g->corners ? 4 : 0) : 0;
    }
    if (ordered)
        sort_children(children, n);
    return n;
}

/* the bounds of solved positions, shared between calls: direct-mapped, the newest entry kept.
 * Any bound stored is a true bound of its position, so a lost or replaced entry costs only time. */
#define SOLVED_BITS 19
typedef struct { uint64_t me, opp; int8_t lo, hi, used; } solved_entry;
static solved_entry *solved;
static int solved_tried;

static inline uint64_t mix(uint64_t me, uint64_t opp)
{
    uint64_t h = me * 0x9E3779B97F4A7C15ULL ^ (opp + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    return h ^ h >> 29;
}

void ot_solve_clear(void)
{
    if (solved != NULL)
        memset(solved, 0, sizeof(solved_entry) << SOLVED_BITS);
}

static int last_square(const ot_geom *g, uint64_t me, uint64_t opp)
{
    uint64_t empty = g->full ^ (me | opp);
    int sq = ot_msb(empty);
    uint64_t f = ot_flips(g, me, opp, sq);
    if (f)
        return sign(2 * (ot_popcount(me) + ot_popcount(f)) + 2 - g->cells);
    f = ot_flips(g, opp, me, sq);
    if (f)
        return sign(g->cells - 2 * (ot_popcount(opp) + ot_popcount(f)) - 2);
    return sign(ot_popcount(me) - ot_popcount(opp));
}

static int negamax(const ot_geom *g, uint64_t me, uint64_t opp, int alpha, int beta, int empties, int passed)
{
    if (empties == 1)
        return last_square(g, me, opp);
    uint64_t mask = ot_move_mask(g, me, opp);
    if (!mask) {
        if (passed || !ot_move_mask(g, opp, me))
            return sign(ot_popcount(me) - ot_popcount(opp));
        return -negamax(g, opp, me, -beta, -alpha, empties, 1);
    }
    if (empties < ORDER_EMPTIES) {
        int best = -2;
        while (mask) {
            int sq = ot_ctz(mask);
            mask &= mask - 1;
            uint64_t f = ot_flips(g, me, opp, sq);
            int v = -negamax(g, opp ^ f, me | f | (uint64_t)1 << sq, -beta, -alpha, empties - 1, 0);
            if (v > best) {
                if (v >= beta)
                    return v;
                best = v;
                if (v > alpha)
                    alpha = v;
            }
        }
        return best;
    }
    solved_entry *e = NULL;
    if (solved != NULL) {
        e = &solved[mix(me, opp) >> (64 - SOLVED_BITS)];
        int known;
        if (e->used && e->me == me && e->opp == opp && narrow(e->lo, e->hi, &alpha, &beta, &known))
            return known;
    }
    int first_alpha = alpha, first_beta = beta;
    child children[64];
    int n = expand(g, me, opp, mask, children, 1);
    int best = -2;
    for (int i = 0; i < n; i++) {
        int v = -negamax(g, children[i].me, children[i].opp, -beta, -alpha, empties - 1, 0);
        if (v > best) {
            best = v;
            if (v >= beta)
                break;
            if (v > alpha)
                alpha = v;
        }
    }
    if (e != NULL) {   /* the slot, looked up above, cannot have moved: the table never grows */
        e->me = me;
        e->opp = opp;
        e->used = 1;
        if (best <= first_alpha) {          /* failed low: an upper bound */
            e->lo = -1;
            e->hi = (int8_t)best;
        } else if (best >= first_beta) {    /* failed high: a lower bound */
            e->lo = (int8_t)best;
            e->hi = 1;
        } else {
            e->lo = e->hi = (int8_t)best;
        }
    }
    return best;
}

int ot_solve(const ot_geom *g, uint64_t me, uint64_t opp)
{
    if (solved == NULL && !solved_tried) {
        solved_tried = 1;
        solved = calloc((size_t)1 << SOLVED_BITS, sizeof(solved_entry));
    }
    int empties = ot_popcount(g->full ^ (me | opp));
    return negamax(g, me, opp, -1, 1, empties, 0);
}

/* --- the disc-margin solver ------------------------------------------------------------------- */

/* the reference's per-call dict: every position stored is kept (open addressing, grown at half full) */
typedef struct { uint64_t me, opp; int8_t lo, hi, used; } margin_entry;

typedef struct {
    const ot_geom *g;
    long long budget;
    int stop;                 /* 0, OT_BUDGET_EXCEEDED or OT_NO_MEMORY */
    margin_entry *table;
    size_t mask, count;       /* capacity - 1, entries */
} margin_ctx;

static margin_entry *margin_find(margin_ctx *ctx, uint64_t me, uint64_t opp)
{
    size_t i = (size_t)mix(me, opp) & ctx->mask;
    while (ctx->table[i].used && (ctx->table[i].me != me || ctx->table[i].opp != opp))
        i = (i + 1) & ctx->mask;
    return &ctx->table[i];
}

/* stores (lo, hi) for the position, replacing what it had; 0 when the table cannot grow */
static int margin_store(margin_ctx *ctx, uint64_t me, uint64_t opp, int lo, int hi)
{
    margin_entry *e = margin_find(ctx, me, opp);
    if (!e->used) {
        if (2 * (ctx->count + 1) > ctx->mask + 1) {
            size_t old_size = ctx->mask + 1;
            margin_entry *old = ctx->table;
            margin_entry *grown = calloc(2 * old_size, sizeof *grown);
            if (grown == NULL)
                return 0;
            ctx->table = grown;
            ctx->mask = 2 * old_size - 1;
            for (size_t i = 0; i < old_size; i++)
                if (old[i].used)
                    *margin_find(ctx, old[i].me, old[i].opp) = old[i];
            free(old);
            e = margin_find(ctx, me, opp);
        }
        ctx->count++;
        e->used = 1;
        e->me = me;
        e->opp = opp;
    }
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    return 1;
}

static int margin(margin_ctx *ctx, uint64_t me, uint64_t opp, int alpha, int beta, int empties, int passed)
{
    const ot_geom *g = ctx->g;
    if (--ctx->budget < 0) {
        ctx->stop = OT_BUDGET_EXCEEDED;
        return 0;
    }
    uint64_t mask = ot_move_mask(g, me, opp);
    if (!mask) {
        if (passed || !ot_move_mask(g, opp, me))
            return ot_popcount(me) - ot_popcount(opp);
        int v = margin(ctx, opp, me, -beta, -alpha, empties, 1);
        return ctx->stop ? 0 : -v;
    }
    int keyed = empties >= ORDER_EMPTIES;
    if (keyed) {
        margin_entry *e = margin_find(ctx, me, opp);
        int known;
        if (e->used && narrow(e->lo, e->hi, &alpha, &beta, &known))
            return known;
    }
    int first_alpha = alpha, first_beta = beta;
    child children[64];
    int n = expand(g, me, opp, mask, children, keyed);
    int best = -g->cells - 1;
    for (int i = 0; i < n; i++) {
        int v = margin(ctx, children[i].me, children[i].opp, -beta, -alpha, empties - 1, 0);
        if (ctx->stop)
            return 0;
        v = -v;
        if (v > best) {
            best = v;
            if (v >= beta)
                break;
            if (v > alpha)
                alpha = v;
        }
    }
    if (keyed) {   /* as the reference: failed low an upper bound, failed high a lower bound */
        int lo = best, hi = best;
        if (best <= first_alpha)
            lo = -g->cells;
        else if (best >= first_beta)
            hi = g->cells;
        if (!margin_store(ctx, me, opp, lo, hi)) {
            ctx->stop = OT_NO_MEMORY;
            return 0;
        }
    }
    return best;
}

int ot_solve_margin(const ot_geom *g, uint64_t me, uint64_t opp, long long *budget)
{
    margin_ctx ctx = {g, *budget, 0, NULL, 1023, 0};
    ctx.table = calloc(ctx.mask + 1, sizeof *ctx.table);
    if (ctx.table == NULL)
        return OT_NO_MEMORY;
    int empties = ot_popcount(g->full ^ (me | opp));
    int v = margin(&ctx, me, opp, -g->cells, g->cells, empties, 0);
    free(ctx.table);
    *budget = ctx.budget;
    return ctx.stop ? ctx.stop : v;
}
