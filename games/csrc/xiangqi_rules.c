/* The xiangqi rules in plain C (see xiangqi_rules.h): tables, attacks, moves, perft, the capture
 * search, the end-of-game checks and the network's input. Each part follows the Python it mirrors
 * (named beside it), in the same order, so that the two can be read side by side.
 */
#include "xiangqi_rules.h"

#include <stdlib.h>
#include <string.h>

/* short names inside this file */
enum { GENERAL = XQ_GENERAL, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER };
#define FILES XQ_FILES
#define RANKS XQ_RANKS
#define NSQ XQ_SQUARES
#define MAX_MOVES XQ_MAX_MOVES
#define NO_CAPTURE_LIMIT XQ_NO_CAPTURE_LIMIT
#define GENERAL_VALUE 10000
#define BOARD_PLANES 16     /* the planes before the attack planes */

typedef xq_move move_t;

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
/* is one of player's legal moves moves[0..n) a mate (a check that leaves no legal reply)? b is restored */
static int mate_among(int8_t *b, int player, const move_t *moves, int n)
{
    int other = 1 - player, target = general_square(b, other);
    if (target < 0)
        return 0;
    int so = sign_of[other];
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

static int mate_in_one(int8_t *b, int player)
{
    if (general_square(b, 1 - player) < 0)
        return 0;
    move_t moves[MAX_MOVES];
    int n = legal_moves(b, player, moves);
    return mate_among(b, player, moves, n);
}

/* --- captures and their exchanges (games.xiangqi_moves.capture_gain) ------------------------ */
typedef struct { int64_t key; } capture_t;   /* gain * 8192 + from * 90 + to: sorts as Python's (gain, f, t) */


/* player's captures by the pieces on squares[0..count) (every one of player's pieces, in any
 * order: the captures come out sorted), most valuable victim first */
static int pseudo_captures(const int8_t *b, int player, const uint8_t *squares, int count, capture_t *out)
{
    int s = sign_of[player], n = 0;
#define CAP(score, ff, tt) do { out[n++].key = (int64_t)(score) * 8192 + (ff) * NSQ + (tt); } while (0)
    for (int c = 0; c < count; c++) {
        int f = squares[c], k = b[f] * s;
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
    /* largest key first (the keys are distinct, so any sort gives this order); insertion: a
     * position has a handful of captures, and qsort's calls and buffer cost more than they save */
    for (int i = 1; i < n; i++) {
        capture_t c = out[i];
        int j = i;
        for (; j > 0 && out[j - 1].key < c.key; j--)
            out[j] = out[j - 1];
        out[j] = c;
    }
    return n;
}

/* the exchange search's state: the board, each side's piece squares (kept as captures are made
 * and taken back, so that a node lists its captures without reading the 90 squares), the limits */
typedef struct {
    int8_t *b;
    int depth;
    long budget, nodes;
    int first;
    uint8_t squares[2][NSQ];
    int count[2];
    uint8_t at[NSQ];   /* a piece's index in its side's squares */
} qsearch_t;

static int qsearch(qsearch_t *q, int side, int alpha, int beta, int ply)
{
    if (alpha < 0)
        alpha = 0;
    if (alpha >= beta || ply >= q->depth)
        return alpha;
    int8_t *b = q->b;
    int s = sign_of[side], other = 1 - side;
    capture_t caps[MAX_MOVES];
    int n = pseudo_captures(b, side, q->squares[side], q->count[side], caps);
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
        /* make the capture: the victim leaves its side's list (the last one takes its place), the
         * capturer's entry moves to t */
        int vi = q->at[t], last = --q->count[other], mi = q->at[f];
        uint8_t moved = q->squares[other][last];
        q->squares[other][vi] = moved;
        q->at[moved] = (uint8_t)vi;
        q->squares[side][mi] = (uint8_t)t;
        q->at[t] = (uint8_t)mi;
        b[t] = b[f];
        b[f] = 0;
        int value = gain - qsearch(q, 1 - side, -beta + gain, -alpha + gain, ply + 1);
        b[f] = b[t];
        b[t] = victim;
        /* and take it back */
        q->squares[side][mi] = (uint8_t)f;
        q->at[f] = (uint8_t)mi;
        q->squares[other][vi] = (uint8_t)t;
        q->at[t] = (uint8_t)vi;
        q->squares[other][last] = moved;
        q->at[moved] = (uint8_t)(moved == t ? vi : last);
        q->count[other]++;
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

/* --- the public functions (xiangqi_rules.h) ---------------------------------------------- */
void xq_init(void)
{
    static int ready = 0;
    if (!ready) {
        build_tables();
        ready = 1;
    }
}

int xq_attacked(const int8_t *b, int g, int s) { return attacked(b, g, s); }
int xq_general_square(const int8_t *b, int player) { return general_square(b, player); }
int xq_legal_moves(int8_t *b, int player, xq_move *out) { return legal_moves(b, player, out); }
int xq_count_legal(int8_t *b, int player) { return count_legal(b, player); }
int xq_has_legal_move(int8_t *b, int player) { return has_legal_move(b, player); }
int xq_mate_in_one(int8_t *b, int player) { return mate_in_one(b, player); }
int xq_mate_among(int8_t *b, int player, const xq_move *moves, int n) { return mate_among(b, player, moves, n); }
int xq_action(int player, int from, int to) { return action_of[player][from][to]; }

int xq_in_check(const int8_t *b, int player)
{
    int g = general_square(b, player);
    return g >= 0 && attacked(b, g, sign_of[player]);
}

void xq_perft(int8_t *b, int player, int depth, long long *counts)
{
    if (depth > 0)
        perft_walk(b, player, 0, depth, counts);
}

int xq_capture_gain(int8_t *b, int player, int depth, long budget, int *first)
{
    qsearch_t q;
    q.b = b;
    q.depth = depth;
    q.budget = budget;
    q.nodes = 0;
    q.first = -1;
    q.count[0] = q.count[1] = 0;
    for (int f = 0; f < NSQ; f++)
        if (b[f]) {
            int p = b[f] > 0 ? 0 : 1;
            q.at[f] = (uint8_t)q.count[p];
            q.squares[p][q.count[p]++] = (uint8_t)f;
        }
    int gain = qsearch(&q, player, 0, 1 << 30, 0);
    *first = gain > 0 ? q.first : -1;
    return gain;
}

/* games.xiangqi.XiangqiState._judge_by_checks: no legal move loses; a third occurrence since the
 * last capture loses for the side that gave every check, else draws (the Python rules then apply
 * the chase rule to that draw, games.xiangqi_chase); then the 120-ply rule */
int xq_outcome(int8_t *b, int player, int check, int clock, const uint64_t *hashes, const uint8_t *checks,
               int len, int *winner)
{
    *winner = -1;
    if (!has_legal_move(b, player)) {
        *winner = 1 - player;
        return check ? XQ_CHECKMATE : XQ_STALEMATE;
    }
    if (len > 0) {
        uint64_t current = hashes[len - 1];
        int count = 0, first = -1;
        for (int i = 0; i < len; i++)
            if (hashes[i] == current) {
                if (first < 0)
                    first = i;
                count++;
            }
        if (count >= 3) {
            int last = len - 1, mine = 1, theirs = 1;   /* did every move of the side to move (the other side) check? */
            for (int i = first + 1; i < last; i += 2)
                mine &= checks[i] != 0;
            for (int i = first + 2; i < last + 1; i += 2)
                theirs &= checks[i] != 0;
            if (mine != theirs) {
                *winner = mine ? 1 - player : player;
                return XQ_PERPETUAL_CHECK;
            }
            return XQ_REPETITION;
        }
    }
    return clock >= NO_CAPTURE_LIMIT ? XQ_NO_CAPTURE : XQ_GOES_ON;
}

/* games.xiangqi.XiangqiState.encode_planes: the mover's pieces (planes 0..6), the opponent's
 * (7..13), the no-capture clock (14), a repeated position (15), how many of the mover's and the
 * opponent's pieces attack each point (16, 17: 1/3 a piece, at most 1) and the mover's and the
 * opponent's pieces the other side can win (18, 19); row 0 is the rank farthest from the mover */
double xq_material(const int8_t *b)
{
    static const double value[8] = {0.0, 0.0, 2.0, 2.0, 4.0, 9.0, 4.5, 1.0};
    double total = 0.0;
    for (int sq = 0; sq < XQ_SQUARES; sq++) {
        int code = b[sq];
        if (!code)
            continue;
        int kind = code > 0 ? code : -code;
        double v = value[kind];
        if (kind == XQ_SOLDIER && ((code > 0 && sq / XQ_FILES >= 5) || (code < 0 && sq / XQ_FILES <= 4)))
            v = 2.0;
        total += code > 0 ? v : -v;
    }
    return total;
}

void xq_encode(const int8_t *b, int player, int clock, int repeated, int planes, float *x)
{
    int count = planes < 0 ? 0 : planes > XQ_NUM_PLANES ? XQ_NUM_PLANES : planes;
    memset(x, 0, (size_t)count * NSQ * sizeof(float));
    int s = sign_of[player];
    int square_of[NSQ];   /* cell (row * 9 + col) of the mover's frame -> absolute square */
    for (int cell = 0; cell < NSQ; cell++) {
        int row = cell / FILES, col = cell % FILES;
        square_of[cell] = player == 0 ? (9 - row) * FILES + col : row * FILES + (8 - col);
    }
    for (int cell = 0; cell < NSQ; cell++) {
        int v = b[square_of[cell]] * s;
        int plane = v > 0 ? v - 1 : v < 0 ? 6 - v : -1;
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
                int side = (j % 2 == 0) ? player : 1 - player;
                float value;
                if (j < 2) {
                    int c = counts[side][t] < 3 ? counts[side][t] : 3;
                    value = (float)c / 3.0f;
                } else {   /* attacked, and undefended or attacked by a cheaper piece */
                    int q = b[t] * sign_of[side], other = 1 - side;
                    value = q > 0 && counts[other][t] && (!counts[side][t] || cheapest[other][t] < capture_values[q]);
                }
                x[(BOARD_PLANES + j) * NSQ + cell] = value;
            }
        }
    }
}
