/* The xiangqi rules in plain C, without Python: the same rules as games/xiangqi_moves.py and the
 * end-of-game checks and network encoding of games/xiangqi.py, which stay the reference
 * (tests/test_xiangqi_compiled.py compares the two). games/_xiangqi_c.c binds them to Python; a
 * compiled search can call them directly.
 *
 * A board is 90 signed bytes indexed rank * 9 + file (absolute ICCS coordinates: files a..i from
 * Red's left, ranks 0..9 from Red's back rank), +code a Red piece, -code a Black one, 0 empty.
 * A player is 0 (Red) or 1 (Black). Functions taking a non-const board change it while they work
 * and restore it before returning. Call xq_init() once before anything else; after it every
 * function is reentrant.
 */
#ifndef ZEROBOARD_XIANGQI_RULES_H
#define ZEROBOARD_XIANGQI_RULES_H

#include <stdint.h>

enum { XQ_GENERAL = 1, XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE, XQ_CHARIOT, XQ_CANNON, XQ_SOLDIER };
#define XQ_FILES 9
#define XQ_RANKS 10
#define XQ_SQUARES 90
#define XQ_MAX_MOVES 256            /* more than any position's pseudo-legal moves (at most ~120) */
#define XQ_NO_CAPTURE_LIMIT 120     /* plies without a capture that draw the game */
#define XQ_NUM_PLANES 20            /* planes of the network's input */

typedef struct { uint8_t f, t; } xq_move;

/* why a game ended (xq_outcome) */
enum { XQ_GOES_ON = 0, XQ_CHECKMATE, XQ_STALEMATE, XQ_PERPETUAL_CHECK, XQ_REPETITION, XQ_NO_CAPTURE };

void xq_init(void);
/* is the general of sign s (+1 Red, -1 Black) standing on g attacked, or facing the other general? */
int xq_attacked(const int8_t *b, int g, int s);
/* where player's general stands, -1 when it is missing */
int xq_general_square(const int8_t *b, int player);
int xq_in_check(const int8_t *b, int player);
/* player's legal moves into out (XQ_MAX_MOVES long), in games.xiangqi_moves.legal_moves's order */
int xq_legal_moves(int8_t *b, int player, xq_move *out);
int xq_count_legal(int8_t *b, int player);
int xq_has_legal_move(int8_t *b, int player);
/* the policy action of player's move from -> to (games.xiangqi's layout), -1 where it has none */
int xq_action(int player, int from, int to);
/* can player mate at once: a legal move that gives check and leaves no legal reply */
int xq_mate_in_one(int8_t *b, int player);
/* xq_mate_in_one with player's legal moves already listed (moves[0..n), from xq_legal_moves) */
int xq_mate_among(int8_t *b, int player, const xq_move *moves, int n);
/* counts[k] += positions k + 1 plies deep, for k < depth (no end-of-game rules) */
void xq_perft(int8_t *b, int player, int depth, long long *counts);
/* what player wins by captures alone (games.xiangqi_moves.capture_gain); *first = from * 90 + to
 * of the capture that starts it, or -1 */
int xq_capture_gain(int8_t *b, int player, int depth, long budget, int *first);
/* the end of the game (XQ_GOES_ON, XQ_CHECKMATE, ...) and *winner (0, 1, or -1 for a draw or none):
 * check is whether player is in check, clock the plies since the last capture, hashes[0..len) the
 * positions since the last capture (the current one last) and checks[i] whether hashes[i]'s side
 * to move was in check */
int xq_outcome(int8_t *b, int player, int check, int clock, const uint64_t *hashes, const uint8_t *checks,
               int len, int *winner);
/* Red's material minus Black's in soldiers, the generals left out (games.xiangqi's
 * _material_balance: chariot 9, cannon 4.5, horse 4, advisor and elephant 2, soldier 1, 2 once
 * across the river); every value is a multiple of 0.5, so any order of summing gives the same */
double xq_material(const int8_t *b);
/* the first `planes` (0..20) planes of the network's input, planes x 10 x 9 floats in player's frame */
void xq_encode(const int8_t *b, int player, int clock, int repeated, int planes, float *out);

#endif
