/* Gomoku's hot parts in plain C, without Python: five in a row through a stone, the points that
 * make five, the points that make a four or a three (segment counts), the victory-by-continuous-
 * threats search (VCF and VCT, under every rule set: gk_rules) and the network's input planes.
 * They mirror games/gomoku.py (five_through, winning_points, Gomoku._segment_points,
 * _vct/_defend/_threats with ThreatRules, GomokuState.encode), which stays the reference
 * (tests/test_gomoku_compiled.py and tests/test_renju_compiled.py compare the two bit for bit);
 * renju_rules.h has the standard and renju rules' own tests. games/_gomoku_c.c binds them to
 * Python; a compiled search can call them directly.
 *
 * A board is a bitboard per side: bit row * size + column, row 0 at the top (the Python side's
 * action numbering), held in GK_WORDS 64-bit words, least significant first; only the first
 * geometry->nw words are used. Sizes 5..26 (the Python game's). A geometry (gk_geom_init) holds
 * the per-size tables; after it is built every function is reentrant.
 */
#ifndef ZEROBOARD_GOMOKU_RULES_H
#define ZEROBOARD_GOMOKU_RULES_H

#include <stdint.h>

#define GK_MIN_SIZE 5
#define GK_MAX_SIZE 26
#define GK_MAX_CELLS (GK_MAX_SIZE * GK_MAX_SIZE)
#define GK_WORDS ((GK_MAX_CELLS + 63) / 64)
#define GK_WIN 5               /* stones in a row that win */
#define GK_NUM_PLANES 8        /* planes of the network's input */

typedef struct { uint64_t w[GK_WORDS]; } gk_bb;

/* set bits of a word, and the index of its lowest set bit (x != 0) */
#ifdef _MSC_VER
#include <intrin.h>
static inline int gk_popcount(uint64_t x) { return (int)__popcnt64(x); }
static inline int gk_ctz(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
#else
static inline int gk_popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int gk_ctz(uint64_t x) { return __builtin_ctzll(x); }
#endif

/* a point's bit: read, set, flipped */
static inline int gk_test(const gk_bb *x, int p) { return (int)(x->w[p >> 6] >> (p & 63) & 1); }
static inline void gk_set(gk_bb *x, int p) { x->w[p >> 6] |= (uint64_t)1 << (p & 63); }
static inline void gk_flip(gk_bb *x, int p) { x->w[p >> 6] ^= (uint64_t)1 << (p & 63); }

/* one line through a point clipped to four points either side: its cells in line order */
typedef struct { int8_t len; int16_t cell[2 * GK_WIN - 1]; } gk_window;
/* the same clipped to five points either side (what "exactly five" reads: games.renju's windows6) */
typedef struct { int8_t len; int16_t cell[2 * GK_WIN + 1]; } gk_window6;

#define GK_REACH 6             /* a renju line: the cells at offsets -6..6 from a point (games.renju.REACH) */
#define GK_RAY (2 * GK_REACH + 1)

typedef struct {
    int size, cells, nw;
    gk_bb full;
    int seg_step[4];                      /* per direction: bit step between neighbours */
    gk_bb seg_starts[4];                  /* and the points where a five-point segment starts */
    uint8_t nwin[GK_MAX_CELLS];           /* per point: its windows with at least five points */
    gk_window win[GK_MAX_CELLS][4];
    gk_bb lines[GK_MAX_CELLS];            /* per point: its windows' points together */
    /* the tables of the standard and renju rules (renju_rules.c) */
    uint8_t nwin6[GK_MAX_CELLS];          /* per point: its windows of reach 5 with at least five points */
    gk_window6 win6[GK_MAX_CELLS][4];
    int16_t ray[GK_MAX_CELLS][4][GK_RAY]; /* per point, per direction: the cells at -6..6, -1 off the board */
    gk_bb nb_valid[4][8];                 /* per direction, per offset -4..-1, 1..4: the points whose */
                                          /* neighbour at that offset is on the board */
} gk_geom;

/* what the threat search needs to know of a rule set, one side attacking (games.gomoku.ThreatRules):
 * whether the attacker's and the defender's five must be exactly five, and whether it is black
 * under renju (its forbidden points are neither its threats nor its blocks) */
typedef struct { int8_t exact_a, exact_d, renju_a, renju_d; } gk_rules;

/* fills g for a size x size board; 0 when the size is out of range */
int gk_geom_init(gk_geom *g, int size);

/* five (or more) of stones in a row inside one of point's windows (games.gomoku.five_through) */
int gk_five_through(const gk_geom *g, const gk_bb *stones, int point);
/* the empty points on point's windows where one more stone gives stones five (winning_points) */
void gk_winning_points(const gk_geom *g, const gk_bb *stones, const gk_bb *empty, int point, gk_bb *out);
/* the empty points of the five-point segments holding exactly count (2 or 3) of mine and none of
 * theirs (Gomoku._segment_points: count 3 gives four_points, 2 three_points) */
void gk_segment_points(const gk_geom *g, const gk_bb *mine, const gk_bb *theirs, const gk_bb *empty, int count,
                       gk_bb *out);
/* a victory by continuous threats for a (to move) against d under rules (games.gomoku._vct): the
 * point of its first move, or -1; *budget counts down the moves tried, as the reference's budget[0] */
int gk_vct(const gk_geom *g, const gk_rules *rules, const gk_bb *a, const gk_bb *d, const gk_bb *a_wins,
           const gk_bb *d_wins, const gk_bb *empty, int threes, int fours, long *budget);
/* the network's planes (GomokuState.encode): 8 x cells floats; wins_* are each side's five points
 * (filled points are masked out here), last the last move or -1, black_to_move 0 or 1 */
void gk_encode(const gk_geom *g, const gk_bb *me, const gk_bb *opp, const gk_bb *wins_me, const gk_bb *wins_opp,
               int last, int black_to_move, float *out);

#endif
