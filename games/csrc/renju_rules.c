/* Gomoku's standard and renju rules (see renju_rules.h). Each function follows the Python one it
 * mirrors in games/renju.py step by step, so that both answer alike on every board, reachable or
 * not. */
#include "renju_rules.h"

#include <string.h>

static const int DIRS[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};

/* a renju line's cells (games.renju's _EMPTY, _BLACK, _BLOCKED: white or off the board) */
enum { EMPTY = 0, BLACK = 1, BLOCKED = 2 };
#define CENTRE GK_REACH

void rj_geom_init(gk_geom *g)
{
    int n = g->size;
    for (int p = 0; p < g->cells; p++) {
        int r0 = p / n, c0 = p % n, k = 0;
        for (int j = 0; j < 4; j++) {
            gk_window6 w = {0};
            for (int s = -GK_REACH; s <= GK_REACH; s++) {
                int r = r0 + s * DIRS[j][0], c = c0 + s * DIRS[j][1];
                int on = r >= 0 && r < n && c >= 0 && c < n;
                g->ray[p][j][s + GK_REACH] = (int16_t)(on ? r * n + c : -1);
                if (on && s >= -GK_WIN && s <= GK_WIN)
                    w.cell[w.len++] = (int16_t)(r * n + c);
            }
            if (w.len >= GK_WIN)   /* RuleGeometry._windows: lines with room for five only */
                g->win6[p][k++] = w;
        }
        g->nwin6[p] = (uint8_t)k;
    }
    for (int j = 0; j < 4; j++) {   /* RuleGeometry._valid, offsets -4..-1, 1..4 */
        for (int i = 0; i < 8; i++) {
            int k = i < 4 ? i - 4 : i - 3;
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) {
                    int r2 = r + k * DIRS[j][0], c2 = c + k * DIRS[j][1];
                    if (r2 >= 0 && r2 < n && c2 >= 0 && c2 < n)
                        gk_set(&g->nb_valid[j][i], r * n + c);
                }
        }
    }
}

/* --- exactly five ---------------------------------------------------------------------------- */

/* the longest run of stones (plus extra) along the window is exactly five */
static int window_exact_five(const gk_window6 *w, const gk_bb *stones, int extra)
{
    int run = 0, best = 0;
    for (int i = 0; i < w->len; i++) {
        int q = w->cell[i];
        if (q == extra || gk_test(stones, q)) {
            if (++run > GK_WIN)
                return 0;   /* six or more in the window: the shift test's "six start" */
            if (run > best)
                best = run;
        } else {
            run = 0;
        }
    }
    return best == GK_WIN;
}

static int window_count(const gk_window6 *w, const gk_bb *stones)
{
    int n = 0;
    for (int i = 0; i < w->len; i++)
        n += gk_test(stones, w->cell[i]);
    return n;
}

int rj_exact_five_through(const gk_geom *g, const gk_bb *stones, int extra, int point)
{
    for (int k = 0; k < g->nwin6[point]; k++)
        if (window_exact_five(&g->win6[point][k], stones, extra))
            return 1;
    return 0;
}

void rj_exact_winning_points(const gk_geom *g, const gk_bb *stones, const gk_bb *empty, const gk_bb *near,
                             gk_bb *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < g->nw; i++) {
        uint64_t cand = empty->w[i] & near->w[i];
        while (cand) {
            int q = i * 64 + gk_ctz(cand);
            cand &= cand - 1;
            if (rj_exact_five_through(g, stones, q, q))
                gk_set(out, q);
        }
    }
}

void rj_update_exact_wins(const gk_geom *g, gk_bb *wins, const gk_bb *stones, const gk_bb *empty, int action)
{
    for (int k = 0; k < g->nwin6[action]; k++) {
        const gk_window6 *w = &g->win6[action][k];
        int old = 0;
        for (int i = 0; i < w->len && !old; i++)
            old = gk_test(wins, w->cell[i]) && gk_test(empty, w->cell[i]);
        if (!old && window_count(w, stones) < 4)
            continue;   /* neither a five to lose nor four stones to make one with */
        for (int i = 0; i < w->len; i++) {
            int q = w->cell[i];
            wins->w[q >> 6] &= ~((uint64_t)1 << (q & 63));
            if (gk_test(empty, q) && rj_exact_five_through(g, stones, q, q))
                gk_set(wins, q);
        }
    }
}

void rj_exact_new_wins(const gk_geom *g, const gk_bb *stones, const gk_bb *empty, int action, gk_bb *out)
{
    memset(out, 0, sizeof *out);
    for (int k = 0; k < g->nwin6[action]; k++) {
        const gk_window6 *w = &g->win6[action][k];
        if (window_count(w, stones) < 4)
            continue;   /* a five point needs four stones on the line already */
        for (int i = 0; i < w->len; i++) {
            int q = w->cell[i];
            if (gk_test(empty, q) && window_exact_five(w, stones, q))
                gk_set(out, q);
        }
    }
}

/* --- renju's forbidden points ---------------------------------------------------------------- */

/* out = x >> s (s > 0) or x << -s over g->nw words, bits past the last word zero */
static void shift_bb(const gk_geom *g, const gk_bb *x, int s, gk_bb *out)
{
    int n = g->nw, right = s > 0, q = (right ? s : -s) >> 6, r = (right ? s : -s) & 63;
    for (int i = 0; i < n; i++) {
        uint64_t v;
        if (right) {
            uint64_t lo = i + q < n ? x->w[i + q] : 0, hi = i + q + 1 < n ? x->w[i + q + 1] : 0;
            v = r ? (lo >> r) | (hi << (64 - r)) : lo;
        } else {
            uint64_t lo = i - q >= 0 ? x->w[i - q] : 0, lower = i - q - 1 >= 0 ? x->w[i - q - 1] : 0;
            v = r ? (lo << r) | (lower >> (64 - r)) : lo;
        }
        out->w[i] = v;
    }
}

void rj_forbidden_candidates(const gk_geom *g, const gk_bb *black, const gk_bb *empty, gk_bb *out)
{
    int n = g->nw;
    gk_bb seen = {{0}}, twice = {{0}}, ge4 = {{0}}, x;
    for (int j = 0; j < 4; j++) {
        uint64_t ones[GK_WORDS] = {0}, twos[GK_WORDS] = {0}, fours[GK_WORDS] = {0};
        for (int i = 0; i < 8; i++) {   /* per point, the black stones at offset k counted in three bit planes */
            int k = i < 4 ? i - 4 : i - 3;
            shift_bb(g, black, k * g->seg_step[j], &x);
            for (int w = 0; w < n; w++) {
                uint64_t v = x.w[w] & g->nb_valid[j][i].w[w];
                uint64_t carry = ones[w] & v;
                ones[w] ^= v;
                fours[w] |= twos[w] & carry;
                twos[w] ^= carry;
            }
        }
        for (int w = 0; w < n; w++) {
            uint64_t ge2 = twos[w] | fours[w];
            ge4.w[w] |= fours[w];
            twice.w[w] |= seen.w[w] & ge2;
            seen.w[w] |= ge2;
        }
    }
    memset(out, 0, sizeof *out);
    for (int w = 0; w < n; w++)
        out->w[w] = (ge4.w[w] | twice.w[w]) & empty->w[w];
}

/* first and last index of the black run through line[i] (line[i] itself is not read, as
 * games.renju._run) */
static inline void run_through(const int8_t *line, int i, int *s, int *e)
{
    int a = i, b = i;
    while (a > 0 && line[a - 1] == BLACK)
        a--;
    while (b < GK_RAY - 1 && line[b + 1] == BLACK)
        b++;
    *s = a;
    *e = b;
}

/* games.renju._fours: how many fours the centre stone makes on this line */
static int line_fours(int8_t *line)
{
    int points[9], np = 0, s, e;
    for (int q = CENTRE - 4; q <= CENTRE + 4; q++) {
        if (line[q] != EMPTY)
            continue;
        line[q] = BLACK;
        run_through(line, q, &s, &e);
        line[q] = EMPTY;
        if (e - s == 4 && s <= CENTRE && CENTRE <= e)
            points[np++] = q;
    }
    int count = np;
    for (int i = 0; i < np; i++)
        for (int j = i + 1; j < np; j++)
            if (points[j] == points[i] + 5) {   /* the two ends of one straight four */
                count--;
                break;
            }
    return count;
}

/* games.renju._straight_four_points: the offsets where one more stone makes a straight four with
 * the centre stone; returns how many (0..2) */
static int line_straight_points(int8_t *line, int out[2])
{
    int s, e, s2, e2, k = 0;
    run_through(line, CENTRE, &s, &e);
    int ends[2] = {s - 1, e + 1};
    for (int i = 0; i < 2; i++) {
        int q = ends[i];
        if (q < 2 || q > GK_RAY - 3 || line[q] != EMPTY)
            continue;
        line[q] = BLACK;
        run_through(line, q, &s2, &e2);
        line[q] = EMPTY;
        if (e2 - s2 == 3 && s2 - 2 >= 0 && e2 + 2 < GK_RAY && line[s2 - 1] == EMPTY && line[e2 + 1] == EMPTY
            && line[s2 - 2] != BLACK && line[e2 + 2] != BLACK)
            out[k++] = q - CENTRE;
    }
    return k;
}

/* what a line says of its centre (games.renju._analyse after _line_bits) */
typedef struct { int dir, run, fours, nstraight, straight[2]; } line_info;

/* does the line through point in direction j matter (two black stones within four points, not
 * counting point), and if so its analysis with b's stones */
static int read_line(const gk_geom *g, const gk_bb *black, const gk_bb *b, const gk_bb *white, int point, int j,
                     line_info *out)
{
    const int16_t *ray = g->ray[point][j];
    int near = 0;
    for (int i = CENTRE - 4; i <= CENTRE + 4; i++)
        if (i != CENTRE && ray[i] >= 0)
            near += gk_test(black, ray[i]);
    if (near < 2)
        return 0;   /* no five, four or three needs fewer than two more stones within four points */
    int8_t line[GK_RAY];
    for (int i = 0; i < GK_RAY; i++) {
        int q = ray[i];
        line[i] = (int8_t)(q < 0 || gk_test(white, q) ? BLOCKED : gk_test(b, q) ? BLACK : EMPTY);
    }
    int s, e;
    run_through(line, CENTRE, &s, &e);
    out->dir = j;
    out->run = e - s + 1;
    out->fours = out->nstraight = 0;
    if (e - s < 4) {
        out->fours = line_fours(line);
        out->nstraight = line_straight_points(line, out->straight);
    }
    return 1;
}

int rj_forbidden_kind(const gk_geom *g, const gk_bb *black, const gk_bb *white, int point, int depth)
{
    gk_bb b = *black;
    gk_set(&b, point);
    line_info found[4];
    int nf = 0;
    for (int j = 0; j < 4; j++) {
        if (!read_line(g, black, &b, white, point, j, &found[nf]))
            continue;
        if (found[nf].run == GK_WIN)
            return RJ_ALLOWED;   /* five wins, whatever else the move makes */
        nf++;
    }
    int fours = 0, threes = 0;
    for (int i = 0; i < nf; i++) {
        if (found[i].run >= 6)
            return RJ_OVERLINE;
        fours += found[i].fours;
        threes += !found[i].fours && found[i].nstraight;
    }
    if (fours >= 2)
        return RJ_DOUBLE_FOUR;
    if (threes < 2)
        return RJ_ALLOWED;
    int real = 0;
    for (int i = 0; i < nf; i++) {
        const line_info *t = &found[i];
        if (t->fours || !t->nstraight)
            continue;
        for (int k = 0; k < t->nstraight; k++) {
            int q = g->ray[point][t->dir][CENTRE + t->straight[k]];
            if (rj_exact_five_through(g, &b, q, q))
                continue;   /* that move is a five, not a straight four (the referees' reading) */
            if (depth <= 0 || rj_forbidden_kind(g, &b, white, q, depth - 1) == RJ_ALLOWED) {
                real++;
                break;
            }
        }
        if (real >= 2)
            return RJ_DOUBLE_THREE;
    }
    return RJ_ALLOWED;
}

void rj_forbidden_points(const gk_geom *g, const gk_bb *black, const gk_bb *white, gk_bb *out)
{
    gk_bb empty, cand;
    for (int i = 0; i < GK_WORDS; i++)
        empty.w[i] = g->full.w[i] & ~(black->w[i] | white->w[i]);
    rj_forbidden_candidates(g, black, &empty, &cand);
    memset(out, 0, sizeof *out);
    for (int i = 0; i < g->nw; i++) {
        uint64_t w = cand.w[i];
        while (w) {
            int p = i * 64 + gk_ctz(w);
            w &= w - 1;
            if (rj_forbidden_kind(g, black, white, p, RJ_MAX_DEPTH) != RJ_ALLOWED)
                gk_set(out, p);
        }
    }
}

int rj_stable_open_four(const gk_geom *g, const gk_bb *black, const gk_bb *white, int point)
{
    gk_bb b = *black;
    gk_set(&b, point);
    int fours = 0, threes = 0;
    line_info info;
    for (int j = 0; j < 4; j++) {
        if (!read_line(g, black, &b, white, point, j, &info))
            continue;
        if (info.run == GK_WIN)
            return 1;
        if (info.run >= 6)
            return 0;
        fours += info.fours;
        threes += info.nstraight > 0;
    }
    return fours < 2 && threes < 2;
}
