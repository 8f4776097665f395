/* Gomoku's hot parts (see gomoku_rules.h): the free-style rules, and the threat search under every
 * rule set (the standard and renju rules' own tests are in renju_rules.c). Each function follows
 * the Python one it mirrors in games/gomoku.py step by step, down to the order moves are tried and
 * the budget counted, so that a bounded search gives the very answer of the reference. */
#include "gomoku_rules.h"
#include "renju_rules.h"

#include <string.h>

/* --- bitboards of g->nw words ----------------------------------------------------------------- */

static inline int bb_any(const gk_geom *g, const gk_bb *x)
{
    for (int i = 0; i < g->nw; i++)
        if (x->w[i])
            return 1;
    return 0;
}

static inline int bb_count(const gk_geom *g, const gk_bb *x)
{
    int n = 0;
    for (int i = 0; i < g->nw; i++)
        n += gk_popcount(x->w[i]);
    return n;
}


static inline void bb_and(const gk_geom *g, gk_bb *out, const gk_bb *x, const gk_bb *y)
{
    for (int i = 0; i < g->nw; i++)
        out->w[i] = x->w[i] & y->w[i];
}

static inline void bb_or_into(const gk_geom *g, gk_bb *out, const gk_bb *x)
{
    for (int i = 0; i < g->nw; i++)
        out->w[i] |= x->w[i];
}

/* the lowest set point, or -1 */
static inline int bb_lowest(const gk_geom *g, const gk_bb *x)
{
    for (int i = 0; i < g->nw; i++)
        if (x->w[i])
            return i * 64 + gk_ctz(x->w[i]);
    return -1;
}

/* the only set point of x, which has exactly one */
#define bb_single bb_lowest

/* --- geometry -------------------------------------------------------------------------------- */

static const int DIRS[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};

int gk_geom_init(gk_geom *g, int size)
{
    if (size < GK_MIN_SIZE || size > GK_MAX_SIZE)
        return 0;
    memset(g, 0, sizeof *g);
    int n = size;
    g->size = n;
    g->cells = n * n;
    g->nw = (g->cells + 63) / 64;
    for (int p = 0; p < g->cells; p++)
        gk_set(&g->full, p);
    for (int j = 0; j < 4; j++) {   /* Gomoku._segment_starts */
        int dr = DIRS[j][0], dc = DIRS[j][1];
        g->seg_step[j] = dr * n + dc;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++)
                if (r + 4 * dr >= 0 && r + 4 * dr < n && c + 4 * dc >= 0 && c + 4 * dc < n)
                    gk_set(&g->seg_starts[j], r * n + c);
    }
    for (int p = 0; p < g->cells; p++) {   /* Gomoku._windows and .lines */
        int r0 = p / n, c0 = p % n, k = 0;
        for (int j = 0; j < 4; j++) {
            gk_window w = {0};
            for (int s = -(GK_WIN - 1); s < GK_WIN; s++) {
                int r = r0 + s * DIRS[j][0], c = c0 + s * DIRS[j][1];
                if (r >= 0 && r < n && c >= 0 && c < n)
                    w.cell[w.len++] = (int16_t)(r * n + c);
            }
            if (w.len >= GK_WIN) {
                g->win[p][k++] = w;
                for (int i = 0; i < w.len; i++)
                    gk_set(&g->lines[p], w.cell[i]);
            }
        }
        g->nwin[p] = (uint8_t)k;
    }
    rj_geom_init(g);
    return 1;
}

/* --- fives ----------------------------------------------------------------------------------- */

/* five in a row of stones (plus the point extra, or -1) along the window */
static inline int window_five(const gk_window *w, const gk_bb *stones, int extra)
{
    int run = 0;
    for (int i = 0; i < w->len; i++) {
        int q = w->cell[i];
        if (q == extra || gk_test(stones, q)) {
            if (++run >= GK_WIN)
                return 1;
        } else {
            run = 0;
        }
    }
    return 0;
}

int gk_five_through(const gk_geom *g, const gk_bb *stones, int point)
{
    for (int k = 0; k < g->nwin[point]; k++)
        if (window_five(&g->win[point][k], stones, -1))
            return 1;
    return 0;
}

void gk_winning_points(const gk_geom *g, const gk_bb *stones, const gk_bb *empty, int point, gk_bb *out)
{
    memset(out, 0, sizeof *out);
    for (int k = 0; k < g->nwin[point]; k++) {
        const gk_window *w = &g->win[point][k];
        int have = 0;
        for (int i = 0; i < w->len; i++)
            have += gk_test(stones, w->cell[i]);
        if (have < GK_WIN - 1)
            continue;
        for (int i = 0; i < w->len; i++) {
            int q = w->cell[i];
            if (gk_test(empty, q) && window_five(w, stones, q))
                gk_set(out, q);
        }
    }
}

/* --- segment counts -------------------------------------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
#define GK_INLINE static inline __attribute__((always_inline))
#else
#define GK_INLINE static __forceinline
#endif

/* out = x >> s over n words, bits past the last word zero as a Python int's would be (n a constant
 * where inlined: the loops unroll) */
GK_INLINE void shr_n(uint64_t *out, const uint64_t *x, int s, const int n)
{
    int q = s >> 6, r = s & 63;
    for (int i = 0; i < n; i++) {
        uint64_t lo = i + q < n ? x[i + q] : 0;
        uint64_t hi = i + q + 1 < n ? x[i + q + 1] : 0;
        out[i] = r ? (lo >> r) | (hi << (64 - r)) : lo;
    }
}

/* out = x << s over n words, cut at the last word (callers mask with a board anyway) */
GK_INLINE void shl_n(uint64_t *out, const uint64_t *x, int s, const int n)
{
    int q = s >> 6, r = s & 63;
    for (int i = n - 1; i >= 0; i--) {
        uint64_t lo = i - q >= 0 ? x[i - q] : 0;
        uint64_t lower = i - q - 1 >= 0 ? x[i - q - 1] : 0;
        out[i] = r ? (lo << r) | (lower >> (64 - r)) : lo;
    }
}

/* the points of both counts in one pass over the segments: out3 (count 3) and out2 (count 2), either
 * NULL; the words beyond n are left alone (callers zero them) */
GK_INLINE void segment_points_n(const gk_geom *g, const gk_bb *mine, const gk_bb *theirs, const gk_bb *empty,
                                gk_bb *out3, gk_bb *out2, const int n)
{
    uint64_t o3[GK_WORDS] = {0}, o2[GK_WORDS] = {0};
    for (int j = 0; j < 4; j++) {
        int d = g->seg_step[j];
        const uint64_t *starts = g->seg_starts[j].w;
        uint64_t ones[GK_WORDS] = {0}, twos[GK_WORDS] = {0}, fours[GK_WORDS] = {0}, blocked[GK_WORDS] = {0};
        uint64_t x[GK_WORDS], y[GK_WORDS];
        for (int k = 0; k < GK_WIN; k++) {
            shr_n(x, mine->w, k * d, n);
            shr_n(y, theirs->w, k * d, n);
            for (int i = 0; i < n; i++) {
                uint64_t xi = x[i] & starts[i];
                uint64_t carry = ones[i] & xi;
                ones[i] ^= xi;
                fours[i] |= twos[i] & carry;
                twos[i] ^= carry;
                blocked[i] |= y[i];
            }
        }
        for (int c = 3; c >= 2; c--) {
            if ((c == 3 ? out3 : out2) == NULL)
                continue;
            uint64_t *o = c == 3 ? o3 : o2, hit[GK_WORDS], any = 0;
            for (int i = 0; i < n; i++) {
                hit[i] = (c == 3 ? ones[i] : ~ones[i]) & twos[i] & ~fours[i] & ~blocked[i] & starts[i];
                any |= hit[i];
            }
            if (!any)
                continue;
            for (int k = 0; k < GK_WIN; k++) {
                shl_n(x, hit, k * d, n);
                for (int i = 0; i < n; i++)
                    o[i] |= x[i] & empty->w[i];
            }
        }
    }
    if (out3)
        memcpy(out3->w, o3, sizeof o3);
    if (out2)
        memcpy(out2->w, o2, sizeof o2);
}

static void segment_points2(const gk_geom *g, const gk_bb *mine, const gk_bb *theirs, const gk_bb *empty,
                            gk_bb *out3, gk_bb *out2)
{
    switch (g->nw) {   /* the usual sizes with their word count fixed at compile time */
    case 1: segment_points_n(g, mine, theirs, empty, out3, out2, 1); break;     /* up to 8x8 */
    case 2: segment_points_n(g, mine, theirs, empty, out3, out2, 2); break;     /* 9x9 to 11x11 */
    case 4: segment_points_n(g, mine, theirs, empty, out3, out2, 4); break;     /* 15x15, 16x16 */
    default: segment_points_n(g, mine, theirs, empty, out3, out2, g->nw); break;
    }
}

void gk_segment_points(const gk_geom *g, const gk_bb *mine, const gk_bb *theirs, const gk_bb *empty, int count,
                       gk_bb *out)
{
    segment_points2(g, mine, theirs, empty, count == 3 ? out : NULL, count == 3 ? NULL : out);
}

static inline void four_points(const gk_geom *g, const gk_bb *mine, const gk_bb *theirs, const gk_bb *empty,
                               gk_bb *out)
{
    gk_segment_points(g, mine, theirs, empty, 3, out);
}

/* --- victory by continuous threats (games.gomoku._vct, _threats, _defend) -------------------- */

static int defend(const gk_geom *g, const gk_rules *rules, const gk_bb *a, const gk_bb *d, const gk_bb *a_wins,
                  const gk_bb *d_wins, const gk_bb *empty, const gk_bb *replies, int threes, int fours, long *budget);

/* the position after the stone p joins stones: both sets copied, p placed */
static inline void place(const gk_bb *stones, const gk_bb *empty, int p, gk_bb *stones2, gk_bb *empty2)
{
    *stones2 = *stones;
    gk_set(stones2, p);
    *empty2 = *empty;
    gk_flip(empty2, p);
}

/* the points on the lines through the new stone at where stones now make the rule's five
 * (ThreatRules.win_a and win_d: exactly five, or five or more) */
static inline void new_wins(const gk_geom *g, int exact, const gk_bb *stones, const gk_bb *empty, int at, gk_bb *out)
{
    if (exact)
        rj_exact_new_wins(g, stones, empty, at, out);
    else
        gk_winning_points(g, stones, empty, at, out);
}

/* black (under renju) may not play at (ThreatRules.bad_a and bad_d) */
static inline int forbidden(const gk_geom *g, const gk_bb *black, const gk_bb *white, int at)
{
    return rj_forbidden_kind(g, black, white, at, RJ_MAX_DEPTH) != RJ_ALLOWED;
}

/* the attacker's moves among near that would leave it two points to make five, with those points;
 * under renju only black's threats that no white stone can make forbidden (rj_stable_open_four) */
static void threats(const gk_geom *g, const gk_rules *rules, const gk_bb *a, const gk_bb *d, const gk_bb *empty,
                    const gk_bb *near, gk_bb *out)
{
    gk_bb cand, a2, e2, w;
    memset(out, 0, sizeof *out);
    four_points(g, a, d, empty, &cand);
    bb_and(g, &cand, &cand, near);
    for (int q = bb_lowest(g, &cand); q >= 0; gk_flip(&cand, q), q = bb_lowest(g, &cand)) {
        place(a, empty, q, &a2, &e2);
        new_wins(g, rules->exact_a, &a2, &e2, q, &w);
        if (bb_count(g, &w) >= 2 && (!rules->renju_a || rj_stable_open_four(g, a, d, q))) {
            gk_set(out, q);
            bb_or_into(g, out, &w);
        }
    }
}

int gk_vct(const gk_geom *g, const gk_rules *rules, const gk_bb *a, const gk_bb *d, const gk_bb *a_wins,
           const gk_bb *d_wins, const gk_bb *empty, int threes, int fours, long *budget)
{
    gk_bb x, a2, e2, e3, d2, nw, aw, dw, replies;
    bb_and(g, &x, a_wins, empty);
    if (bb_any(g, &x))
        return bb_lowest(g, &x);
    gk_bb forced;
    bb_and(g, &forced, d_wins, empty);
    if (bb_any(g, &forced)) {   /* the attacker must stop the defender's five, and its threats must survive that */
        if (bb_count(g, &forced) >= 2)
            return -1;
        if (--*budget < 0)
            return -1;
        int f = bb_single(g, &forced);
        if (rules->renju_a && forbidden(g, a, d, f))
            return -1;   /* black may not block there */
        place(a, empty, f, &a2, &e2);
        new_wins(g, rules->exact_a, &a2, &e2, f, &nw);
        int new_count = bb_count(g, &nw);
        if (new_count >= 2)
            return f;
        memset(&replies, 0, sizeof replies);
        if (!new_count && threes > 0)
            threats(g, rules, &a2, d, &e2, &g->full, &replies);
        int have_replies = bb_any(g, &replies);
        if (new_count || (have_replies && threes > 0)) {
            aw = *a_wins;
            bb_or_into(g, &aw, &nw);
            if (defend(g, rules, &a2, d, &aw, d_wins, &e2, &replies, threes - (new_count ? 0 : 1), fours - 1, budget))
                return f;
        }
        return -1;
    }
    gk_bb four_moves = {{0}}, three_moves = {{0}};
    if (fours > 0 || threes > 0)
        segment_points2(g, a, d, empty, fours > 0 ? &four_moves : NULL, threes > 0 ? &three_moves : NULL);
    if (threes > 0)
        for (int i = 0; i < g->nw; i++)
            three_moves.w[i] &= ~four_moves.w[i];
    for (int p = bb_lowest(g, &four_moves); p >= 0; gk_flip(&four_moves, p), p = bb_lowest(g, &four_moves)) {
        if (--*budget < 0)
            return -1;
        place(a, empty, p, &a2, &e2);
        new_wins(g, rules->exact_a, &a2, &e2, p, &nw);
        int new_count = bb_count(g, &nw);
        if (!new_count || (rules->renju_a && forbidden(g, a, d, p)))
            continue;
        if (new_count >= 2)
            return p;   /* two points to make five: the defender stops one */
        int q = bb_single(g, &nw);
        if (rules->renju_d && forbidden(g, d, &a2, q))
            return p;   /* black may not stop this five */
        place(d, &e2, q, &d2, &e3);
        new_wins(g, rules->exact_d, &d2, &e3, q, &dw);
        bb_or_into(g, &dw, d_wins);
        aw = *a_wins;
        gk_set(&aw, q);
        if (gk_vct(g, rules, &a2, &d2, &aw, &dw, &e3, threes, fours - 1, budget) >= 0)
            return p;
    }
    for (int p = bb_lowest(g, &three_moves); p >= 0; gk_flip(&three_moves, p), p = bb_lowest(g, &three_moves)) {
        if (--*budget < 0)
            return -1;
        if (rules->renju_a && forbidden(g, a, d, p))
            continue;
        place(a, empty, p, &a2, &e2);
        threats(g, rules, &a2, d, &e2, &g->lines[p], &replies);
        if (bb_any(g, &replies)
            && defend(g, rules, &a2, d, a_wins, d_wins, &e2, &replies, threes - 1, fours, budget))
            return p;
    }
    return -1;
}

/* does the attacker a still win by continuous threats with the defender d to move (games.gomoku._defend) */
static int defend(const gk_geom *g, const gk_rules *rules, const gk_bb *a, const gk_bb *d, const gk_bb *a_wins,
                  const gk_bb *d_wins, const gk_bb *empty, const gk_bb *replies, int threes, int fours, long *budget)
{
    gk_bb x, d2, e2, e3, a3, nw, an, aw, dw, rep;
    bb_and(g, &x, d_wins, empty);
    if (bb_any(g, &x))
        return 0;   /* the defender makes five */
    gk_bb pending;
    bb_and(g, &pending, a_wins, empty);
    if (bb_any(g, &pending)) {
        if (bb_count(g, &pending) >= 2)
            return 1;
        int q = bb_single(g, &pending);
        if (rules->renju_d && forbidden(g, d, a, q))
            return 1;   /* black may not stop this five */
        place(d, empty, q, &d2, &e2);
        new_wins(g, rules->exact_d, &d2, &e2, q, &nw);
        bb_or_into(g, &nw, d_wins);
        return gk_vct(g, rules, a, &d2, a_wins, &nw, &e2, threes, fours, budget) >= 0;
    }
    if (!bb_any(g, replies))
        return 0;
    gk_bb cand;
    four_points(g, d, a, empty, &cand);
    bb_or_into(g, &cand, replies);
    for (int r = bb_lowest(g, &cand); r >= 0; gk_flip(&cand, r), r = bb_lowest(g, &cand)) {
        if (--*budget < 0)
            return 0;
        if (rules->renju_d && forbidden(g, d, a, r))
            continue;   /* not a move black may make */
        place(d, empty, r, &d2, &e2);
        new_wins(g, rules->exact_d, &d2, &e2, r, &nw);
        int new_count = bb_count(g, &nw);
        if (new_count >= 2)
            return 0;   /* the defender's own open four */
        if (new_count) {   /* a four: the attacker must block it, then the defender moves again */
            int q = bb_single(g, &nw);
            if (rules->renju_a && forbidden(g, a, &d2, q))
                return 0;   /* black may not block it */
            place(a, &e2, q, &a3, &e3);
            new_wins(g, rules->exact_a, &a3, &e3, q, &an);
            aw = *a_wins;
            bb_or_into(g, &aw, &an);
            dw = *d_wins;
            gk_set(&dw, q);
            threats(g, rules, &a3, &d2, &e3, &g->full, &rep);
            if (!defend(g, rules, &a3, &d2, &aw, &dw, &e3, &rep, threes, fours, budget))
                return 0;
        } else if (gk_vct(g, rules, a, &d2, a_wins, d_wins, &e2, threes, fours, budget) < 0) {
            return 0;
        }
    }
    return 1;
}

/* --- the network's input --------------------------------------------------------------------- */

static void put_plane(const gk_geom *g, const gk_bb *x, float *plane)
{
    for (int p = 0; p < g->cells; p++)
        plane[p] = (float)gk_test(x, p);
}

void gk_encode(const gk_geom *g, const gk_bb *me, const gk_bb *opp, const gk_bb *wins_me, const gk_bb *wins_opp,
               int last, int black_to_move, float *out)
{
    int cells = g->cells;
    gk_bb empty, fives_me, fives_opp, f;
    for (int i = 0; i < g->nw; i++)
        empty.w[i] = g->full.w[i] & ~(me->w[i] | opp->w[i]);
    bb_and(g, &fives_me, wins_me, &empty);
    bb_and(g, &fives_opp, wins_opp, &empty);
    put_plane(g, me, out);
    put_plane(g, opp, out + cells);
    memset(out + 2 * cells, 0, (size_t)cells * sizeof *out);
    if (last >= 0 && last < cells)
        out[2 * cells + last] = 1.0f;
    for (int p = 0; p < cells; p++)
        out[3 * cells + p] = black_to_move ? 1.0f : 0.0f;
    put_plane(g, &fives_me, out + 4 * cells);
    put_plane(g, &fives_opp, out + 5 * cells);
    four_points(g, me, opp, &empty, &f);
    for (int i = 0; i < g->nw; i++)
        f.w[i] &= ~fives_me.w[i];
    put_plane(g, &f, out + 6 * cells);
    four_points(g, opp, me, &empty, &f);
    for (int i = 0; i < g->nw; i++)
        f.w[i] &= ~fives_opp.w[i];
    put_plane(g, &f, out + 7 * cells);
}
