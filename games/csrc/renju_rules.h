/* Gomoku's rule sets beyond free-style in plain C, without Python: "exactly five" (the standard
 * rule, and black under renju) and renju's forbidden points for black (overline, double four,
 * double three with the recursive test of a real three). They mirror games/renju.py, which stays
 * the reference (tests/test_renju_compiled.py compares the two on many positions), down to the
 * quirks: each function reads the same cells the Python one reads.
 *
 * Boards and geometries are gomoku_rules.h's (the tables of reach 5 and 6 are built with the rest).
 */
#ifndef ZEROBOARD_RENJU_RULES_H
#define ZEROBOARD_RENJU_RULES_H

#include "gomoku_rules.h"

#define RJ_MAX_DEPTH 12        /* games.renju.MAX_DEPTH: how deep "is this three's point forbidden" recurses */

/* what forbidden_kind answers: allowed, or the shape that forbids the point */
enum { RJ_ALLOWED = 0, RJ_OVERLINE = 1, RJ_DOUBLE_FOUR = 2, RJ_DOUBLE_THREE = 3 };

/* a row of exactly five of stones (plus the point extra, or -1) through point's windows of reach
 * 5: one of them holds a run of five and none of six or more (games.renju.exact_five_through with
 * windows6[point]) */
int rj_exact_five_through(const gk_geom *g, const gk_bb *stones, int extra, int point);
/* the points of empty & near where one more stone gives stones exactly five (exact_winning_points) */
void rj_exact_winning_points(const gk_geom *g, const gk_bb *stones, const gk_bb *empty, const gk_bb *near,
                             gk_bb *out);
/* wins (a side's exact five points) after stones gained action, in place (update_exact_wins) */
void rj_update_exact_wins(const gk_geom *g, gk_bb *wins, const gk_bb *stones, const gk_bb *empty, int action);
/* the empty points on action's windows of reach 5 where one more stone makes exactly five, judged
 * on those windows (exact_new_wins) */
void rj_exact_new_wins(const gk_geom *g, const gk_bb *stones, const gk_bb *empty, int action, gk_bb *out);

/* the empty points that may be forbidden to black (forbidden_candidates, a superset) */
void rj_forbidden_candidates(const gk_geom *g, const gk_bb *black, const gk_bb *empty, gk_bb *out);
/* why black may not play point: RJ_ALLOWED or the shape (forbidden_kind with depth) */
int rj_forbidden_kind(const gk_geom *g, const gk_bb *black, const gk_bb *white, int point, int depth);
/* the empty points black may not play (forbidden_points) */
void rj_forbidden_points(const gk_geom *g, const gk_bb *black, const gk_bb *white, gk_bb *out);
/* whether black may play point now and whatever white stones are added (stable_open_four) */
int rj_stable_open_four(const gk_geom *g, const gk_bb *black, const gk_bb *white, int point);

/* fills the tables of reach 5 and 6 of g (gk_geom_init calls it) */
void rj_geom_init(gk_geom *g);

#endif
