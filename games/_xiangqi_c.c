/* The compiled xiangqi rules core: the same rules as games/xiangqi_moves.py and the end-of-game
 * checks of games/xiangqi.py, on the same flat board (90 squares, rank * 9 + file, +code Red,
 * -code Black), for the hot paths of search and perft. The Python modules stay the reference;
 * tests/test_xiangqi_compiled.py checks that the two agree move for move.
 *
 * The API is coarse (one call per position: all legal moves, a move made, a perft, an exchange
 * search), so Python's per-call cost is paid once per position, not once per square. A board
 * crosses the boundary as a sequence of 90 ints and lives here as 90 signed bytes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* bumped whenever a function's meaning or signature changes: games/native.py refuses a stale build */
#define API_VERSION 1

enum { GENERAL = 1, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER };
#define FILES 9
#define RANKS 10
#define NSQ 90
#define MAX_MOVES 256          /* more than any position's pseudo-legal moves (xiangqi's maximum is ~ 120) */
#define NO_CAPTURE_LIMIT 120
#define GENERAL_VALUE 10000

typedef int8_t board_t[NSQ];
typedef struct { uint8_t f, t; } move_t;

/* --- tables (built once, as games/xiangqi_moves.py builds its own) ------------------------ */
/* rays[s][d]: squares from s, nearest first; d: 0 rank+1, 1 rank-1 (vertical), 2 file+1, 3 file-1 */
static uint8_t rays[NSQ][4][RANKS];
static uint8_t ray_len[NSQ][4];
static uint8_t horse_leg[NSQ][8], horse_dst[NSQ][8], horse_n[NSQ];
static uint8_t hatt_leg[NSQ][8], hatt_src[NSQ][8], hatt_n[NSQ];    /* horses that attack s: (leg, source) */
static uint8_t gen_dst[2][NSQ][4], gen_n[2][NSQ];
static uint8_t adv_dst[2][NSQ][4], adv_n[2][NSQ];
static uint8_t ele_eye[2][NSQ][4], ele_dst[2][NSQ][4], ele_n[2][NSQ];
static uint8_t sol_dst[2][NSQ][3], sol_n[2][NSQ];
static uint8_t satt_src[2][NSQ][3], satt_n[2][NSQ];   /* [p][s]: soldiers of the player opposing p that attack s */
static uint8_t relevant[NSQ][NSQ];                  /* [g][s]: s on g's file or rank, or diagonally next to it */
static uint8_t horse_checks[NSQ][NSQ];              /* [g][s]: a horse on s would attack g (its leg aside) */
static int16_t action_of[2][NSQ][NSQ];              /* [player][from][to]: the policy action, -1 where none */
static const int capture_values[8] = {0, GENERAL_VALUE, 20, 20, 40, 90, 45, 10};
static const int sign_of[2] = {1, -1};

static int on_board(int f, int r) { return f >= 0 && f < FILES && r >= 0 && r < RANKS; }
static int in_palace(int p, int f, int r) { return f >= 3 && f <= 5 && (p == 0 ? r <= 2 : r >= 7); }
static int own_half(int p, int r) { return p == 0 ? r <= 4 : r >= 5; }
static int sq(int f, int r) { return r * FILES + f; }

static void build_tables(void)
{
    static const int ortho[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};   /* (drank, dfile), the RAYS order */
    static const int step[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};    /* ORTHO in xiangqi_moves */
    static const int jumps[8][2] = {{2, -1}, {2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}};
    static const int diag[4][2] = {{1, -1}, {1, 1}, {-1, 1}, {-1, -1}};
    memset(hatt_n, 0, sizeof hatt_n);
    memset(satt_n, 0, sizeof satt_n);
    for (int s = 0; s < NSQ; s++) {
        int f = s % FILES, r = s / FILES;
        for (int d = 0; d < 4; d++) {
            int n = 0;
            for (int ff = f + ortho[d][1], rr = r + ortho[d][0]; on_board(ff, rr); ff += ortho[d][1], rr += ortho[d][0])
                rays[s][d][n++] = (uint8_t)sq(ff, rr);
            ray_len[s][d] = (uint8_t)n;
        }
        int n = 0;
        for (int j = 0; j < 8; j++) {
            int dr = jumps[j][0], df = jumps[j][1];
            if (!on_board(f + df, r + dr))
                continue;
            horse_leg[s][n] = (uint8_t)(abs(dr) == 2 ? sq(f, r + dr / 2) : sq(f + df / 2, r));
            horse_dst[s][n++] = (uint8_t)sq(f + df, r + dr);
        }
        horse_n[s] = (uint8_t)n;
        for (int p = 0; p < 2; p++) {
            int k = 0;
            for (int d = 0; d < 4; d++)
                if (on_board(f + step[d][1], r + step[d][0]) && in_palace(p, f + step[d][1], r + step[d][0]))
                    gen_dst[p][s][k++] = (uint8_t)sq(f + step[d][1], r + step[d][0]);
            gen_n[p][s] = (uint8_t)k;
            k = 0;
            for (int d = 0; d < 4; d++)
                if (on_board(f + diag[d][1], r + diag[d][0]) && in_palace(p, f + diag[d][1], r + diag[d][0]))
                    adv_dst[p][s][k++] = (uint8_t)sq(f + diag[d][1], r + diag[d][0]);
            adv_n[p][s] = (uint8_t)k;
            k = 0;
            for (int d = 0; d < 4; d++) {
                int tf = f + 2 * diag[d][1], tr = r + 2 * diag[d][0];
                if (on_board(tf, tr) && own_half(p, tr)) {
                    ele_eye[p][s][k] = (uint8_t)sq(f + diag[d][1], r + diag[d][0]);
                    ele_dst[p][s][k++] = (uint8_t)sq(tf, tr);
                }
            }
            ele_n[p][s] = (uint8_t)k;
            int fwd = p == 0 ? 1 : -1;
            k = 0;
            if (on_board(f, r + fwd))
                sol_dst[p][s][k++] = (uint8_t)sq(f, r + fwd);
            if (!own_half(p, r)) {
                if (on_board(f - 1, r)) sol_dst[p][s][k++] = (uint8_t)sq(f - 1, r);
                if (on_board(f + 1, r)) sol_dst[p][s][k++] = (uint8_t)sq(f + 1, r);
            }
            sol_n[p][s] = (uint8_t)k;
        }
    }
    for (int src = 0; src < NSQ; src++) {
        for (int i = 0; i < horse_n[src]; i++) {
            int dst = horse_dst[src][i];
            hatt_leg[dst][hatt_n[dst]] = horse_leg[src][i];
            hatt_src[dst][hatt_n[dst]++] = (uint8_t)src;
        }
        for (int p = 0; p < 2; p++)   /* a soldier of player p attacks dst: it threatens the general of 1 - p */
            for (int i = 0; i < sol_n[p][src]; i++) {
                int dst = sol_dst[p][src][i];
                satt_src[1 - p][dst][satt_n[1 - p][dst]++] = (uint8_t)src;
            }
    }
    memset(horse_checks, 0, sizeof horse_checks);
    for (int g = 0; g < NSQ; g++) {
        int gf = g % FILES, gr = g / FILES;
        for (int s = 0; s < NSQ; s++) {
            int sf = s % FILES, sr = s / FILES;
            relevant[g][s] = sf == gf || sr == gr || (abs(sf - gf) == 1 && abs(sr - gr) == 1);
        }
        for (int i = 0; i < hatt_n[g]; i++)
            horse_checks[g][hatt_src[g][i]] = 1;
    }
    /* policy actions, as games/xiangqi.py's PLANE_DELTAS: (drow, dcol) in the mover's frame, row 0 the far rank */
    int deltas[52][2], np = 0;
    static const int o_frame[4][2] = {{-1, 0}, {0, 1}, {1, 0}, {0, -1}};
    static const int h_frame[8][2] = {{-2, -1}, {-2, 1}, {-1, 2}, {1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}};
    static const int d_frame[4][2] = {{-1, -1}, {-1, 1}, {1, 1}, {1, -1}};
    for (int d = 0; d < 4; d++)
        for (int dist = 1; dist <= 9; dist++, np++) { deltas[np][0] = o_frame[d][0] * dist; deltas[np][1] = o_frame[d][1] * dist; }
    for (int j = 0; j < 8; j++, np++) { deltas[np][0] = h_frame[j][0]; deltas[np][1] = h_frame[j][1]; }
    for (int d = 0; d < 4; d++, np++) { deltas[np][0] = d_frame[d][0]; deltas[np][1] = d_frame[d][1]; }
    for (int d = 0; d < 4; d++, np++) { deltas[np][0] = 2 * d_frame[d][0]; deltas[np][1] = 2 * d_frame[d][1]; }
    memset(action_of, 0xff, sizeof action_of);
    for (int p = 0; p < 2; p++)
        for (int plane = 0; plane < 52; plane++)
            for (int cell = 0; cell < NSQ; cell++) {
                int row = cell / FILES, col = cell % FILES;
                int tr = row + deltas[plane][0], tc = col + deltas[plane][1];
                if (tr < 0 || tr >= RANKS || tc < 0 || tc >= FILES)
                    continue;
                int from = p == 0 ? (9 - row) * FILES + col : row * FILES + (8 - col);
                int to = p == 0 ? (9 - tr) * FILES + tc : tr * FILES + (8 - tc);
                action_of[p][from][to] = (int16_t)(plane * NSQ + cell);
            }
}

/* --- attacks and moves ---------------------------------------------------------------------- */
/* Is the general of sign s standing on g attacked (or facing the other general)? */
static int attacked(const int8_t *b, int g, int s)
{
    int chariot = -CHARIOT * s, cannon = -CANNON * s, general = -GENERAL * s;
    for (int d = 0; d < 4; d++) {
        const uint8_t *ray = rays[g][d];
        int n = ray_len[g][d], i = 0;
        for (; i < n; i++)
            if (b[ray[i]])
                break;
        if (i == n)
            continue;
        int q = b[ray[i]];
        if (q == chariot || (d < 2 && q == general))
            return 1;
        for (i++; i < n; i++)   /* beyond the screen: only a cannon can strike */
            if (b[ray[i]]) {
                if (b[ray[i]] == cannon)
                    return 1;
                break;
            }
    }
    int horse = -HORSE * s;
    for (int i = 0; i < hatt_n[g]; i++)
        if (b[hatt_src[g][i]] == horse && !b[hatt_leg[g][i]])
            return 1;
    int soldier = -SOLDIER * s, p = s > 0 ? 0 : 1;
    for (int i = 0; i < satt_n[p][g]; i++)
        if (b[satt_src[p][g][i]] == soldier)
            return 1;
    return 0;
}

static int general_square(const int8_t *b, int player)
{
    int8_t general = (int8_t)(GENERAL * sign_of[player]);
    for (int s = 0; s < NSQ; s++)
        if (b[s] == general)
            return s;
    return -1;
}

/* pseudo-legal moves (movement rules, checks ignored) in games.xiangqi_moves.pseudo_moves's order;
 * returns their number and sets *gen to the mover's general square (-1 if none) */
static int pseudo_moves(const int8_t *b, int player, move_t *out, int *gen)
{
    int s = sign_of[player], n = 0, g = -1;
#define ADD(ff, tt) do { out[n].f = (uint8_t)(ff); out[n].t = (uint8_t)(tt); n++; } while (0)
    for (int f = 0; f < NSQ; f++) {
        int k = b[f] * s;
        if (k <= 0)
            continue;
        switch (k) {
        case CHARIOT:
            for (int d = 0; d < 4; d++)
                for (int i = 0; i < ray_len[f][d]; i++) {
                    int t = rays[f][d][i], q = b[t];
                    if (!q) { ADD(f, t); continue; }
                    if (q * s < 0) ADD(f, t);
                    break;
                }
            break;
        case CANNON:
            for (int d = 0; d < 4; d++) {
                int i = 0, len = ray_len[f][d];
                for (; i < len && !b[rays[f][d][i]]; i++)
                    ADD(f, rays[f][d][i]);
                for (i++; i < len; i++) {
                    int t = rays[f][d][i], q = b[t];
                    if (q) {
                        if (q * s < 0) ADD(f, t);
                        break;
                    }
                }
            }
            break;
        case HORSE:
            for (int i = 0; i < horse_n[f]; i++) {
                int t = horse_dst[f][i];
                if (!b[horse_leg[f][i]] && b[t] * s <= 0) ADD(f, t);
            }
            break;
        case SOLDIER:
            for (int i = 0; i < sol_n[player][f]; i++) {
                int t = sol_dst[player][f][i];
                if (b[t] * s <= 0) ADD(f, t);
            }
            break;
        case ELEPHANT:
            for (int i = 0; i < ele_n[player][f]; i++) {
                int t = ele_dst[player][f][i];
                if (!b[ele_eye[player][f][i]] && b[t] * s <= 0) ADD(f, t);
            }
            break;
        case ADVISOR:
            for (int i = 0; i < adv_n[player][f]; i++) {
                int t = adv_dst[player][f][i];
                if (b[t] * s <= 0) ADD(f, t);
            }
            break;
        default:   /* the general */
            g = f;
            for (int i = 0; i < gen_n[player][f]; i++) {
                int t = gen_dst[player][f][i];
                if (b[t] * s <= 0) ADD(f, t);
            }
        }
    }
#undef ADD
    *gen = g;
    return n;
}

/* Does the pseudo-legal move f -> t leave the mover's general (on g, sign s) safe? b is restored. */
static inline int safe_move(int8_t *b, int f, int t, int g, int s, int in_check)
{
    /* without check, only a move touching the general's lines or horse legs can expose it */
    if (!in_check && f != g && !relevant[g][f] && !relevant[g][t])
        return 1;
    int8_t q = b[t];
    b[t] = b[f];
    b[f] = 0;
    int ok = !attacked(b, f == g ? t : g, s);
    b[f] = b[t];
    b[t] = q;
    return ok;
}

/* the legal moves of player, in pseudo_moves's order; b is restored */
static int legal_moves(int8_t *b, int player, move_t *out)
{
    move_t pseudo[MAX_MOVES];
    int g, n = pseudo_moves(b, player, pseudo, &g), k = 0;
    if (g < 0)
        return 0;
    int s = sign_of[player], check = attacked(b, g, s);
    for (int i = 0; i < n; i++)
        if (safe_move(b, pseudo[i].f, pseudo[i].t, g, s, check))
            out[k++] = pseudo[i];
    return k;
}

static int count_legal(int8_t *b, int player)
{
    move_t pseudo[MAX_MOVES];
    int g, n = pseudo_moves(b, player, pseudo, &g), k = 0;
    if (g < 0)
        return 0;
    int s = sign_of[player], check = attacked(b, g, s);
    for (int i = 0; i < n; i++)
        k += safe_move(b, pseudo[i].f, pseudo[i].t, g, s, check);
    return k;
}

/* count_legal(b, player) > 0, the general's own steps tried first; b is restored */
static int has_legal_move(int8_t *b, int player)
{
    int s = sign_of[player], g = general_square(b, player);
    if (g < 0)
        return 0;
    int8_t general = b[g];
    for (int i = 0; i < gen_n[player][g]; i++) {
        int t = gen_dst[player][g][i];
        int8_t q = b[t];
        if (q * s > 0)
            continue;
        b[t] = general;
        b[g] = 0;
        int safe = !attacked(b, t, s);
        b[g] = general;
        b[t] = q;
        if (safe)
            return 1;
    }
    move_t pseudo[MAX_MOVES];
    int n = pseudo_moves(b, player, pseudo, &g);
    int check = attacked(b, g, s);
    for (int i = 0; i < n; i++)
        if (safe_move(b, pseudo[i].f, pseudo[i].t, g, s, check))
            return 1;
    return 0;
}

static void perft_walk(int8_t *b, int player, int ply, int depth, long long *counts)
{
    if (ply == depth - 1) {
        counts[ply] += count_legal(b, player);
        return;
    }
    move_t moves[MAX_MOVES];
    int n = legal_moves(b, player, moves);
    counts[ply] += n;
    for (int i = 0; i < n; i++) {
        int f = moves[i].f, t = moves[i].t;
        int8_t q = b[t];
        b[t] = b[f];
        b[f] = 0;
        perft_walk(b, 1 - player, ply + 1, depth, counts);
        b[f] = b[t];
        b[t] = q;
    }
}

/* may_give_check of games.xiangqi_moves: false only where the move cannot attack the general on g */
static int may_give_check(const int8_t *b, int f, int t, int g)
{
    return relevant[g][f] || relevant[g][t] || (horse_checks[g][t] && (b[f] == HORSE || b[f] == -HORSE));
}

/* Can player mate at once (a legal move that checks and leaves no legal reply)? b is restored. */
static int mate_in_one(int8_t *b, int player)
{
    int other = 1 - player, target = general_square(b, other);
    if (target < 0)
        return 0;
    move_t moves[MAX_MOVES];
    int n = legal_moves(b, player, moves), so = sign_of[other];
    for (int i = 0; i < n; i++) {
        int f = moves[i].f, t = moves[i].t;
        if (!may_give_check(b, f, t, target))
            continue;
        int8_t p = b[f], q = b[t];
        b[t] = p;
        b[f] = 0;
        int mate = attacked(b, target, so) && !has_legal_move(b, other);
        b[f] = p;
        b[t] = q;
        if (mate)
            return 1;
    }
    return 0;
}

/* --- captures and their exchanges (games.xiangqi_moves.capture_gain) ------------------------ */
typedef struct { int64_t key; } capture_t;   /* gain * 8192 + from * 90 + to: sorts as Python's (gain, f, t) */

static int capture_cmp_desc(const void *a, const void *b)
{
    int64_t x = ((const capture_t *)a)->key, y = ((const capture_t *)b)->key;
    return (x < y) - (x > y);
}

static int pseudo_captures(const int8_t *b, int player, capture_t *out)
{
    int s = sign_of[player], n = 0;
#define CAP(score, ff, tt) do { out[n++].key = (int64_t)(score) * 8192 + (ff) * NSQ + (tt); } while (0)
    for (int f = 0; f < NSQ; f++) {
        int k = b[f] * s;
        if (k <= 0)
            continue;
        if (k == CHARIOT) {
            for (int d = 0; d < 4; d++)
                for (int i = 0; i < ray_len[f][d]; i++) {
                    int t = rays[f][d][i], q = b[t];
                    if (q) {
                        if (q * s < 0) CAP(capture_values[-q * s] * 100 - k, f, t);
                        break;
                    }
                }
        } else if (k == CANNON) {
            for (int d = 0; d < 4; d++) {
                int screen = 0;
                for (int i = 0; i < ray_len[f][d]; i++) {
                    int t = rays[f][d][i], q = b[t];
                    if (!q)
                        continue;
                    if (!screen) { screen = 1; continue; }
                    if (q * s < 0) CAP(capture_values[-q * s] * 100 - k, f, t);
                    break;
                }
            }
        } else if (k == HORSE) {
            for (int i = 0; i < horse_n[f]; i++) {
                int t = horse_dst[f][i];
                if (!b[horse_leg[f][i]] && b[t] * s < 0) CAP(capture_values[-b[t] * s] * 100 - k, f, t);
            }
        } else if (k == ELEPHANT) {
            for (int i = 0; i < ele_n[player][f]; i++) {
                int t = ele_dst[player][f][i];
                if (!b[ele_eye[player][f][i]] && b[t] * s < 0) CAP(capture_values[-b[t] * s] * 100 - k, f, t);
            }
        } else {
            const uint8_t *dst = k == SOLDIER ? sol_dst[player][f] : k == ADVISOR ? adv_dst[player][f] : gen_dst[player][f];
            int m = k == SOLDIER ? sol_n[player][f] : k == ADVISOR ? adv_n[player][f] : gen_n[player][f];
            for (int i = 0; i < m; i++) {
                int t = dst[i];
                if (b[t] * s < 0) CAP(capture_values[-b[t] * s] * 100 - k, f, t);
            }
            if (k == GENERAL)   /* generals may not face each other: the first piece up or down the file */
                for (int d = 0; d < 2; d++)
                    for (int i = 0; i < ray_len[f][d]; i++) {
                        int t = rays[f][d][i];
                        if (b[t]) {
                            if (b[t] == -GENERAL * s) CAP(GENERAL_VALUE * 100, f, t);
                            break;
                        }
                    }
        }
    }
#undef CAP
    qsort(out, (size_t)n, sizeof *out, capture_cmp_desc);
    return n;
}

typedef struct { int8_t *b; int depth; long budget, nodes; int first; } qsearch_t;

static int qsearch(qsearch_t *q, int side, int alpha, int beta, int ply)
{
    if (alpha < 0)
        alpha = 0;
    if (alpha >= beta || ply >= q->depth)
        return alpha;
    int8_t *b = q->b;
    int s = sign_of[side];
    capture_t caps[MAX_MOVES];
    int n = pseudo_captures(b, side, caps);
    for (int i = 0; i < n; i++) {
        int packed = (int)(caps[i].key % 8192), f = packed / NSQ, t = packed % NSQ;
        int8_t victim = b[t];
        int gain = capture_values[-victim * s];
        if (gain <= alpha)   /* most valuable victim first: nothing further beats alpha */
            break;
        if (++q->nodes > q->budget)
            break;
        if (gain >= GENERAL_VALUE) {
            if (ply == 0)
                q->first = f * NSQ + t;
            return gain;
        }
        b[t] = b[f];
        b[f] = 0;
        int value = gain - qsearch(q, 1 - side, -beta + gain, -alpha + gain, ply + 1);
        b[f] = b[t];
        b[t] = victim;
        if (value > alpha) {
            alpha = value;
            if (ply == 0)
                q->first = f * NSQ + t;
            if (alpha >= beta)
                break;
        }
    }
    return alpha;
}

/* --- network input (games.xiangqi.XiangqiState.encode_planes) ---------------------------- */
/* games.xiangqi_moves.attack_map: for each player and square, how many of its pieces attack it
 * (by the movement rules, whoever stands there) and the capture value of the cheapest of them */
static void attack_map(const int8_t *b, int counts[2][NSQ], int cheapest[2][NSQ])
{
    memset(counts, 0, 2 * NSQ * sizeof(int));
    memset(cheapest, 0, 2 * NSQ * sizeof(int));
    for (int f = 0; f < NSQ; f++) {
        int p = b[f];
        if (!p)
            continue;
        int player = p > 0 ? 0 : 1, k = p > 0 ? p : -p, value = capture_values[k], n = 0;
        uint8_t hits[40];
        if (k == CHARIOT) {
            for (int d = 0; d < 4; d++)
                for (int i = 0; i < ray_len[f][d]; i++) {
                    hits[n++] = rays[f][d][i];
                    if (b[rays[f][d][i]])
                        break;
                }
        } else if (k == CANNON) {
            for (int d = 0; d < 4; d++) {
                int screen = 0;
                for (int i = 0; i < ray_len[f][d]; i++) {
                    int t = rays[f][d][i];
                    if (screen) {
                        hits[n++] = (uint8_t)t;
                        if (b[t])
                            break;
                    } else if (b[t]) {
                        screen = 1;
                    }
                }
            }
        } else if (k == HORSE) {
            for (int i = 0; i < horse_n[f]; i++)
                if (!b[horse_leg[f][i]]) hits[n++] = horse_dst[f][i];
        } else if (k == ELEPHANT) {
            for (int i = 0; i < ele_n[player][f]; i++)
                if (!b[ele_eye[player][f][i]]) hits[n++] = ele_dst[player][f][i];
        } else {
            const uint8_t *dst = k == SOLDIER ? sol_dst[player][f] : k == ADVISOR ? adv_dst[player][f] : gen_dst[player][f];
            int m = k == SOLDIER ? sol_n[player][f] : k == ADVISOR ? adv_n[player][f] : gen_n[player][f];
            for (int i = 0; i < m; i++) hits[n++] = dst[i];
        }
        for (int i = 0; i < n; i++) {
            int t = hits[i];
            counts[player][t]++;
            if (!cheapest[player][t] || value < cheapest[player][t])
                cheapest[player][t] = value;
        }
    }
}

#define NUM_PLANES 20
#define BOARD_PLANES 16

static int read_board(PyObject *obj, int8_t *b);
static int check_player(int player);

/* encode(board, player, clock, repeated, planes) -> bytearray of planes x 10 x 9 float32: the first
 * `planes` planes of games.xiangqi's encoding, in the mover's frame (row 0 the rank farthest from it) */
static PyObject *py_encode(PyObject *self, PyObject *args)
{
    PyObject *board_obj;
    int player, clock, repeated, planes;
    int8_t b[NSQ];
    if (!PyArg_ParseTuple(args, "Oiipi:encode", &board_obj, &player, &clock, &repeated, &planes)
        || !check_player(player) || !read_board(board_obj, b))
        return NULL;
    int count = planes < 0 ? 0 : planes > NUM_PLANES ? NUM_PLANES : planes;
    PyObject *out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)count * NSQ * (Py_ssize_t)sizeof(float));
    if (out == NULL)
        return NULL;
    float *x = (float *)PyByteArray_AS_STRING(out);
    memset(x, 0, (size_t)count * NSQ * sizeof(float));
    int s = sign_of[player];
    int square_of[NSQ];   /* cell (row * 9 + col) of the mover's frame -> absolute square */
    for (int cell = 0; cell < NSQ; cell++) {
        int row = cell / FILES, col = cell % FILES;
        square_of[cell] = player == 0 ? (9 - row) * FILES + col : row * FILES + (8 - col);
    }
    for (int cell = 0; cell < NSQ; cell++) {
        int v = b[square_of[cell]] * s;
        int plane = v > 0 ? v - 1 : v < 0 ? 6 - v : -1;   /* the mover's pieces 0..6, the opponent's 7..13 */
        if (plane >= 0 && plane < count)
            x[plane * NSQ + cell] = 1.0f;
    }
    if (count > 14) {
        float fraction = (float)((double)clock / NO_CAPTURE_LIMIT);
        for (int cell = 0; cell < NSQ; cell++)
            x[14 * NSQ + cell] = fraction;
    }
    if (count > 15 && repeated)
        for (int cell = 0; cell < NSQ; cell++)
            x[15 * NSQ + cell] = 1.0f;
    if (count > BOARD_PLANES) {
        int counts[2][NSQ], cheapest[2][NSQ];
        attack_map(b, counts, cheapest);
        for (int cell = 0; cell < NSQ; cell++) {
            int t = square_of[cell];
            for (int j = 0; j < 4 && BOARD_PLANES + j < count; j++) {
                int side = (j % 2 == 0) ? player : 1 - player;   /* 16, 18: the mover's; 17, 19: the opponent's */
                float value;
                if (j < 2) {   /* how many of side's pieces attack the point: 1/3 a piece, at most 1 */
                    int c = counts[side][t] < 3 ? counts[side][t] : 3;
                    value = (float)c / 3.0f;
                } else {       /* side's piece the other side can win: attacked, and undefended or by a cheaper piece */
                    int q = b[t] * sign_of[side], other = 1 - side;
                    value = q > 0 && counts[other][t] && (!counts[side][t] || cheapest[other][t] < capture_values[q]);
                }
                x[(BOARD_PLANES + j) * NSQ + cell] = value;
            }
        }
    }
    return out;
}

/* --- the Python boundary ---------------------------------------------------------------------- */
static PyObject *str_checkmate, *str_stalemate, *str_perpetual, *str_repetition, *str_no_capture;

/* 90 ints in -7..7 from a tuple or list into b; 0 with an exception set on bad input */
static int read_board(PyObject *obj, int8_t *b)
{
    PyObject *seq = PySequence_Fast(obj, "a xiangqi board must be a sequence of 90 ints");
    if (seq == NULL)
        return 0;
    if (PySequence_Fast_GET_SIZE(seq) != NSQ) {
        PyErr_Format(PyExc_ValueError, "a xiangqi board has 90 squares, not %zd", PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return 0;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (int i = 0; i < NSQ; i++) {
        long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return 0;
        }
        if (v < -SOLDIER || v > SOLDIER) {
            PyErr_Format(PyExc_ValueError, "square %d holds %ld, not a piece code (-7..7)", i, v);
            Py_DECREF(seq);
            return 0;
        }
        b[i] = (int8_t)v;
    }
    Py_DECREF(seq);
    return 1;
}

static int check_player(int player)
{
    if (player == 0 || player == 1)
        return 1;
    PyErr_Format(PyExc_ValueError, "player must be 0 (Red) or 1 (Black), not %d", player);
    return 0;
}

static int check_square(int s)
{
    if (s >= 0 && s < NSQ)
        return 1;
    PyErr_Format(PyExc_ValueError, "square must be 0..89, not %d", s);
    return 0;
}

#define BOARD_AND_PLAYER(args, name, b, player)                                  \
    PyObject *board_obj;                                                         \
    int player;                                                                  \
    int8_t b[NSQ];                                                               \
    if (!PyArg_ParseTuple(args, "Oi:" name, &board_obj, &player) || !check_player(player) || !read_board(board_obj, b)) \
        return NULL;

static PyObject *py_legal_moves(PyObject *self, PyObject *args)
{
    BOARD_AND_PLAYER(args, "legal_moves", b, player)
    move_t moves[MAX_MOVES];
    int n = legal_moves(b, player, moves);
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *mv = Py_BuildValue("(ii)", moves[i].f, moves[i].t);
        if (mv == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, mv);
    }
    return out;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static PyObject *py_legal_actions(PyObject *self, PyObject *args)
{
    BOARD_AND_PLAYER(args, "legal_actions", b, player)
    move_t moves[MAX_MOVES];
    int actions[MAX_MOVES];
    int n = legal_moves(b, player, moves);
    for (int i = 0; i < n; i++)
        actions[i] = action_of[player][moves[i].f][moves[i].t];
    qsort(actions, (size_t)n, sizeof *actions, cmp_int);
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *a = PyLong_FromLong(actions[i]);
        if (a == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, a);
    }
    return out;
}

static PyObject *py_count_legal(PyObject *self, PyObject *args)
{
    BOARD_AND_PLAYER(args, "count_legal", b, player)
    return PyLong_FromLong(count_legal(b, player));
}

static PyObject *py_has_legal_move(PyObject *self, PyObject *args)
{
    BOARD_AND_PLAYER(args, "has_legal_move", b, player)
    return PyBool_FromLong(has_legal_move(b, player));
}

static PyObject *py_in_check(PyObject *self, PyObject *args)
{
    BOARD_AND_PLAYER(args, "in_check", b, player)
    int g = general_square(b, player);
    return PyBool_FromLong(g >= 0 && attacked(b, g, sign_of[player]));
}

static PyObject *py_mate_in_one(PyObject *self, PyObject *args)
{
    BOARD_AND_PLAYER(args, "mate_in_one", b, player)
    return PyBool_FromLong(mate_in_one(b, player));
}

static PyObject *py_attacked(PyObject *self, PyObject *args)
{
    PyObject *board_obj;
    int g, s;
    int8_t b[NSQ];
    if (!PyArg_ParseTuple(args, "Oii:attacked", &board_obj, &g, &s) || !check_square(g) || !read_board(board_obj, b))
        return NULL;
    if (s != 1 && s != -1) {
        PyErr_Format(PyExc_ValueError, "the side's sign must be +1 or -1, not %d", s);
        return NULL;
    }
    return PyBool_FromLong(attacked(b, g, s));
}

static PyObject *py_perft(PyObject *self, PyObject *args)
{
    PyObject *board_obj;
    int player, depth;
    int8_t b[NSQ];
    if (!PyArg_ParseTuple(args, "Oii:perft", &board_obj, &player, &depth) || !check_player(player)
        || !read_board(board_obj, b))
        return NULL;
    if (depth > 64) {
        PyErr_Format(PyExc_ValueError, "perft depth must be at most 64, not %d", depth);
        return NULL;
    }
    if (depth < 0)   /* as games.xiangqi_moves.perft_counts: no plies, no counts */
        depth = 0;
    long long counts[64] = {0};
    if (depth > 0) {
        Py_BEGIN_ALLOW_THREADS
        perft_walk(b, player, 0, depth, counts);
        Py_END_ALLOW_THREADS
    }
    PyObject *out = PyList_New(depth);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < depth; i++) {
        PyObject *c = PyLong_FromLongLong(counts[i]);
        if (c == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, c);
    }
    return out;
}

/* make_move(board, from, to) -> (the board after it as a tuple, the captured code, is the side to move next in check) */
static PyObject *py_make_move(PyObject *self, PyObject *args)
{
    PyObject *board_obj;
    int f, t;
    int8_t b[NSQ];
    if (!PyArg_ParseTuple(args, "Oii:make_move", &board_obj, &f, &t) || !check_square(f) || !check_square(t)
        || !read_board(board_obj, b))
        return NULL;
    if (!b[f]) {
        PyErr_Format(PyExc_ValueError, "no piece on square %d to move", f);
        return NULL;
    }
    int8_t p = b[f], q = b[t];
    b[t] = p;
    b[f] = 0;
    int other = p > 0 ? 1 : 0, g = general_square(b, other);
    int check = g >= 0 && attacked(b, g, sign_of[other]);
    PyObject *tuple = PyTuple_New(NSQ);
    if (tuple == NULL)
        return NULL;
    for (int i = 0; i < NSQ; i++)
        PyTuple_SET_ITEM(tuple, i, PyLong_FromLong(b[i]));   /* -7..7: CPython's cached small ints, never NULL */
    return Py_BuildValue("(NiO)", tuple, (int)q, check ? Py_True : Py_False);
}

/* outcome(board, player, check, clock, history, checks) -> (over, winner or None, end reason or None):
 * games.xiangqi.XiangqiState._judge, with history the position hashes since the last capture (the
 * current one last) and checks whether each one's side to move was in check */
static PyObject *py_outcome(PyObject *self, PyObject *args)
{
    PyObject *board_obj, *history, *checks;
    int player, check, clock;
    int8_t b[NSQ];
    if (!PyArg_ParseTuple(args, "OiiiO!O!:outcome", &board_obj, &player, &check, &clock, &PyTuple_Type, &history,
                          &PyTuple_Type, &checks) || !check_player(player) || !read_board(board_obj, b))
        return NULL;
    Py_ssize_t len = PyTuple_GET_SIZE(history);
    if (len == 0 || PyTuple_GET_SIZE(checks) != len) {
        PyErr_SetString(PyExc_ValueError, "history and checks must be equally long and not empty");
        return NULL;
    }
    if (!has_legal_move(b, player))
        return Py_BuildValue("(OiO)", Py_True, 1 - player, check ? str_checkmate : str_stalemate);
    PyObject *current = PyTuple_GET_ITEM(history, len - 1);
    Py_ssize_t count = 0, first = -1;
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *h = PyTuple_GET_ITEM(history, i);
        int same = h == current ? 1 : PyObject_RichCompareBool(h, current, Py_EQ);
        if (same < 0)
            return NULL;
        if (same) {
            if (first < 0)
                first = i;
            count++;
        }
    }
    if (count >= 3) {
        Py_ssize_t last = len - 1;
        int mine = 1, theirs = 1;   /* did every move of the side to move (of the other side) give check? */
        for (Py_ssize_t i = first + 1; i < last; i += 2) {
            int c = PyObject_IsTrue(PyTuple_GET_ITEM(checks, i));
            if (c < 0) return NULL;
            mine &= c;
        }
        for (Py_ssize_t i = first + 2; i < last + 1; i += 2) {
            int c = PyObject_IsTrue(PyTuple_GET_ITEM(checks, i));
            if (c < 0) return NULL;
            theirs &= c;
        }
        if (mine && !theirs)
            return Py_BuildValue("(OiO)", Py_True, 1 - player, str_perpetual);
        if (theirs && !mine)
            return Py_BuildValue("(OiO)", Py_True, player, str_perpetual);
        return Py_BuildValue("(OOO)", Py_True, Py_None, str_repetition);
    }
    if (clock >= NO_CAPTURE_LIMIT)
        return Py_BuildValue("(OOO)", Py_True, Py_None, str_no_capture);
    return Py_BuildValue("(OOO)", Py_False, Py_None, Py_None);
}

static PyObject *py_capture_gain(PyObject *self, PyObject *args)
{
    PyObject *board_obj;
    int player, depth = 6;
    long budget = 200;
    int8_t b[NSQ];
    if (!PyArg_ParseTuple(args, "Oi|il:capture_gain", &board_obj, &player, &depth, &budget) || !check_player(player)
        || !read_board(board_obj, b))
        return NULL;
    if (depth < 0 || depth > 64) {
        PyErr_Format(PyExc_ValueError, "capture depth must be 0..64, not %d", depth);
        return NULL;
    }
    qsearch_t q = {b, depth, budget, 0, -1};
    int gain = qsearch(&q, player, 0, 1 << 30, 0);
    if (gain > 0 && q.first >= 0)
        return Py_BuildValue("(i(ii))", gain, q.first / NSQ, q.first % NSQ);
    return Py_BuildValue("(iO)", gain, Py_None);
}

static PyMethodDef methods[] = {
    {"legal_moves", py_legal_moves, METH_VARARGS, "legal_moves(board, player) -> [(from, to), ...] in generation order"},
    {"legal_actions", py_legal_actions, METH_VARARGS, "legal_actions(board, player) -> the legal policy actions, sorted"},
    {"count_legal", py_count_legal, METH_VARARGS, "count_legal(board, player) -> the number of legal moves"},
    {"has_legal_move", py_has_legal_move, METH_VARARGS, "has_legal_move(board, player) -> bool"},
    {"in_check", py_in_check, METH_VARARGS, "in_check(board, player) -> is player's general attacked (or facing)"},
    {"attacked", py_attacked, METH_VARARGS, "attacked(board, square, sign) -> is the general of sign on square attacked"},
    {"mate_in_one", py_mate_in_one, METH_VARARGS, "mate_in_one(board, player) -> can player mate with one move"},
    {"perft", py_perft, METH_VARARGS, "perft(board, player, depth) -> positions at plies 1..depth"},
    {"make_move", py_make_move, METH_VARARGS, "make_move(board, from, to) -> (board tuple, captured code, next side in check)"},
    {"outcome", py_outcome, METH_VARARGS,
     "outcome(board, player, check, clock, history, checks) -> (over, winner, end reason)"},
    {"encode", py_encode, METH_VARARGS,
     "encode(board, player, clock, repeated, planes) -> bytearray of planes x 10 x 9 float32 (the network input)"},
    {"capture_gain", py_capture_gain, METH_VARARGS,
     "capture_gain(board, player, depth=6, budget=200) -> (gain, (from, to) or None)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_xiangqi_c",
                                    "The compiled xiangqi rules core (games.xiangqi_moves is its reference).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__xiangqi_c(void)
{
    build_tables();
    str_checkmate = PyUnicode_InternFromString("checkmate");
    str_stalemate = PyUnicode_InternFromString("stalemate");
    str_perpetual = PyUnicode_InternFromString("perpetual check");
    str_repetition = PyUnicode_InternFromString("repetition");
    str_no_capture = PyUnicode_InternFromString("no capture in 120 plies");
    if (!str_checkmate || !str_stalemate || !str_perpetual || !str_repetition || !str_no_capture)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
