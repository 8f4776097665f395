/* Othello's rules and endgame solvers in plain C, without Python: the legal-move mask, the
 * flipped discs, perft, the network's planes, the win/draw/loss endgame solver and the exact
 * disc-margin solver with its node budget. They mirror games/othello.py (move_mask, flips,
 * OthelloState.perft_counts and encode, solve/_negamax, solve_margin/_margin), which stays the
 * reference (tests/test_othello_compiled.py compares the two). games/_othello_c.c binds them to
 * Python; a compiled search can call them directly.
 *
 * A side's discs are one 64-bit word: bit row * size + column, row 0 at the top (the Python
 * side's action numbering). Square boards of 2..8 (the game plays 4, 6 and 8). A geometry
 * (ot_geom_init) holds the per-size tables; after it is built every function is reentrant except
 * ot_solve, which shares one table of solved positions between calls (see ot_solve).
 */
#ifndef ZEROBOARD_OTHELLO_RULES_H
#define ZEROBOARD_OTHELLO_RULES_H

#include <stdint.h>

#define OT_MIN_SIZE 2
#define OT_MAX_SIZE 8
#define OT_NUM_PLANES 3          /* planes of the network's input */
#define OT_MAX_PLIES 128         /* a game lasts at most 2 * (cells - 4) plies: 120 on 8x8 */

#ifdef _MSC_VER
#include <intrin.h>
static inline int ot_popcount(uint64_t x) { return (int)__popcnt64(x); }
static inline int ot_ctz(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
static inline int ot_msb(uint64_t x) { unsigned long i; _BitScanReverse64(&i, x); return (int)i; }
#else
static inline int ot_popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int ot_ctz(uint64_t x) { return __builtin_ctzll(x); }
static inline int ot_msb(uint64_t x) { return 63 - __builtin_clzll(x); }
#endif

typedef struct {
    int size, cells;
    uint64_t full, corners;
    int shift[4];                /* bit distances of E, S, SW and SE (their opposites shift right) */
    uint64_t inner[4];           /* and the squares an opponent run may occupy along each */
    uint8_t nup[64], ndown[64];  /* per square: its rays towards higher and lower bits (>= 2 squares) */
    uint64_t up[64][4], down[64][4];
} ot_geom;

/* fills g for a size x size board; 0 when the size is out of range */
int ot_geom_init(ot_geom *g, int size);

/* the empty squares where me flips at least one of opp's discs (games.othello.move_mask) */
uint64_t ot_move_mask(const ot_geom *g, uint64_t me, uint64_t opp);
/* the discs of opp that me flips by playing on square (games.othello.flips; any square 0..cells-1) */
uint64_t ot_flips(const ot_geom *g, uint64_t me, uint64_t opp, int square);
/* perft counts (OthelloState.perft_counts): nodes[ply] for ply < depth (depth <= OT_MAX_PLIES);
 * a pass is a ply, a finished position has none */
void ot_perft(const ot_geom *g, uint64_t me, uint64_t opp, int depth, uint64_t *nodes);
/* the network's planes (OthelloState.encode): 3 x cells floats, me, opp, legal */
void ot_encode(const ot_geom *g, uint64_t me, uint64_t opp, uint64_t legal, float *out);

/* the exact result for the side to move with perfect play: 1 a win, 0 a draw, -1 a loss
 * (games.othello.solve). Keeps bounds of solved positions in one table shared between calls
 * (made on first use; when it cannot be allocated the search runs without it): not reentrant,
 * so callers serialise it (the binding takes a lock). */
int ot_solve(const ot_geom *g, uint64_t me, uint64_t opp);
/* forgets the solved positions ot_solve keeps */
void ot_solve_clear(void);

/* the final disc margin for the side to move with perfect play (games.othello.solve_margin):
 * the same positions searched in the same order with the same table, so *budget counts down
 * exactly as the reference's counter. Returns OT_BUDGET_EXCEEDED when *budget goes below 0
 * (*budget is then what the reference's counter holds when it raises) and OT_NO_MEMORY when its
 * table cannot grow. Reentrant. */
#define OT_BUDGET_EXCEEDED (-1000)
#define OT_NO_MEMORY (-1001)
int ot_solve_margin(const ot_geom *g, uint64_t me, uint64_t opp, long long *budget);

#endif
