/* Connect Four's rules and endgame solvers in plain C, without Python: the four-in-a-row test,
 * the winning cells, perft, the network's planes, the win/draw/loss solver and the distance
 * solver with its node budget. They mirror games/connect4.py (has_four, winning_cells,
 * Connect4State.perft_counts and encode, solve/_negamax, solve_distance/_wins_within/_loses_within),
 * which stays the reference (tests/test_connect4_compiled.py compares the two). games/_connect4_c.c
 * binds them to Python; a compiled search can call them directly.
 *
 * A bitboard is one 64-bit word laid out as the Python ints: 7 bits per column, 6 cells from the
 * bottom up and an always-empty sentinel, bit column * 7 + row. Every function is reentrant except
 * c4_solve, which shares one table of solved positions between calls (see c4_solve).
 */
#ifndef ZEROBOARD_CONNECT4_RULES_H
#define ZEROBOARD_CONNECT4_RULES_H

#include <stdint.h>

#define C4_WIDTH 7
#define C4_HEIGHT 6
#define C4_STRIDE 7              /* bits per column, the sentinel included */
#define C4_CELLS 42
#define C4_NUM_PLANES 2          /* planes of the network's input */
#define C4_BOTTOM_ROW 0x0040810204081ULL   /* bit 0 of each column */
#define C4_BOARD 0x0FDFBF7EFDFBFULL        /* the 42 cells, sentinels excluded */

#ifdef _MSC_VER
#include <intrin.h>
static inline int c4_popcount(uint64_t x) { return (int)__popcnt64(x); }
#else
static inline int c4_popcount(uint64_t x) { return __builtin_popcountll(x); }
#endif

/* four in a row somewhere in stones (games.connect4.has_four) */
int c4_has_four(uint64_t stones);
/* the empty cells, any height, where one more stone gives stones four (games.connect4.winning_cells) */
uint64_t c4_winning_cells(uint64_t stones, uint64_t mask);
/* 1 when the side to move (cur) connects four at once, -1 when it cannot but the opponent could in
 * two columns, 0 otherwise (the shortcut of Connect4State.proven_value) */
int c4_shortcut(uint64_t cur, uint64_t mask);
/* a valid all-stones board: no cell off the board, each column filled from the bottom up */
int c4_valid_mask(uint64_t mask);

/* perft counts (Connect4State.perft_counts of a position nobody has won): nodes[ply] for
 * ply < depth, depth <= C4_CELLS */
void c4_perft(uint64_t cur, uint64_t mask, int depth, uint64_t *nodes);
/* the network's planes (Connect4State.encode): 2 x 6 x 7 floats, the mover's stones then the
 * opponent's, row 0 at the top */
void c4_encode(uint64_t cur, uint64_t mask, float *out);

/* the exact result for the side to move of a position nobody has won, with perfect play: 1 a
 * win, 0 a draw, -1 a loss (games.connect4.solve): a null-window search for a win, then, where
 * there is none, one for a loss. Keeps bounds of solved positions in one table
 * shared between calls (made on first use; when it cannot be allocated the search runs without
 * it): not reentrant, so callers serialise it (the binding takes a lock). */
int c4_solve(uint64_t cur, uint64_t mask);
/* forgets the solved positions c4_solve keeps */
void c4_solve_clear(void);

/* How many plies away the end is with best play, for a position whose c4_solve result is
 * ``result`` (1 or -1): the d of games.connect4.solve_distance, asked d = 1, 3, 5... (2, 4...) with
 * the same positions visited in the same order and the same per-call table, so *budget counts down
 * exactly as the reference's counter. Returns C4_BUDGET_EXCEEDED when *budget goes below 0
 * (*budget is then what the reference's counter holds when it raises), C4_NO_MEMORY when its table
 * cannot grow, C4_NOT_FOUND when no d up to the empty cells holds (the reference's AssertionError:
 * the result was not that position's). Reentrant. */
#define C4_BUDGET_EXCEEDED (-1000)
#define C4_NO_MEMORY (-1001)
#define C4_NOT_FOUND (-1002)
int c4_distance(uint64_t cur, uint64_t mask, int result, long long *budget);
/* c4_solve that visits at most *budget positions (each call of its search counts one, as
 * games.connect4.solve_within counts them): its result with *budget lowered by the positions
 * visited, or C4_BUDGET_EXCEEDED (*budget then -1) past it, with no bound of the unfinished
 * search kept in the table. Not reentrant, as c4_solve. */
int c4_solve_within(uint64_t cur, uint64_t mask, long long *budget);

#endif
