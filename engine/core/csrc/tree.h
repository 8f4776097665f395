/* The search tree's walk down and its backup in plain C (no Python), over the arrays of
 * engine.core.mcts.Tree. engine/core/_tree_c.c binds it; the Python methods it mirrors
 * (Tree.select_leaf, _pick_wide, _pick_small, apply_virtual_loss, backup, child_tree's walk) stay the reference,
 * and every operation here repeats theirs in the same floating-point types and order, so the
 * two paths choose the same children and hold the same statistics, bit for bit. */
#ifndef ZB_TREE_H
#define ZB_TREE_H

#include <stdint.h>

/* The Tree's arrays (numpy's memory, not copied). ``nodes`` and ``edges`` are the arrays'
 * lengths; node ``nodes - 1`` is the spare, all-zero slot that an edge without a child (-1)
 * reads its statistics from, as numpy's index -1 does. */
typedef struct {
    const int32_t *n_start, *n_count;
    const int8_t *n_player, *n_owner, *n_floored;
    const float *n_term, *n_best;
    const int16_t *n_done;
    float *n_visits, *n_wsum;
    const uint16_t *e_prior;   /* float16 bits */
    const int32_t *e_child;
    int64_t nodes, edges;
} zb_tree;

/* what ends a walk down (zb_descend) */
enum {
    ZB_TERMINAL = 0,   /* at a node with a known value (finished or proven) */
    ZB_LEAF = 1,       /* at a node not expanded yet (to evaluate, or pending) */
    ZB_NEW = 2,        /* the chosen edge has no child node yet: Python creates it */
    ZB_ROOT = 3,       /* at the root, which Python chooses for (Gumbel, forced playouts) */
    ZB_BAD = -1,       /* an index outside the arrays, or a walk longer than the tree */
    ZB_FULL = -2       /* the path buffer is full */
};

/* Where a walk stopped: the node, the edge index chosen there (ZB_NEW), and the chosen child's
 * visits and mean value for the node's mover (the next level's parent_n and q_node). */
typedef struct {
    int32_t node;
    int32_t edge;
    double parent_n;
    double q_node;
} zb_stop;

/* The PUCT choice at an expanded ``node`` whose unvisited children are worth ``fpu``: the edge
 * index; *nj and *qj get the child's visits and mean value (``fpu`` when unvisited). Nodes with
 * at most ``small_node`` edges score in double precision (Tree._pick_small), wider ones as numpy
 * does in Tree._pick_wide (float32, the prior term through float16). -1 on a bad index. */
int zb_pick(const zb_tree *t, int32_t node, double fpu, double parent_n, double cpuct, int small_node,
            double *nj, double *qj);

/* Walk down from ``node`` (reached with ``parent_n`` visits and mean ``q_node`` for its mover)
 * as Tree.select_leaf does, appending each child entered to ``path`` (``*len`` used of ``cap``).
 * ``root_win`` >= 0 is the root child to follow; ``root_python`` stops at the root with ZB_ROOT.
 * Returns one of the ZB_ codes and fills ``stop``. */
int zb_descend(const zb_tree *t, int32_t node, double parent_n, double q_node, double cpuct, double fpu_reduction,
               int small_node, int32_t root_win, int root_python, int32_t *path, int64_t *len, int64_t cap,
               zb_stop *stop);

/* Tree.apply_virtual_loss on the nodes of ``path`` (the root's counts stay Python's). 0 on a bad index. */
int zb_virtual_loss(zb_tree *t, const int32_t *path, int64_t len, double vl);

/* Tree.backup on the nodes of ``path``: ``value`` for ``leaf_player``, virtual loss ``vl`` taken off. */
int zb_backup(zb_tree *t, const int32_t *path, int64_t len, double value, int leaf_player, double vl);

/* Tree.child_tree's breadth-first order of the subtree below ``root``: its nodes into ``nodes``
 * (room for ``cap``), each node's children in edge order after the nodes before it. Returns the
 * count, ZB_BAD on an index outside the arrays or a node met twice (more than ``cap``). */
int64_t zb_subtree_nodes(const zb_tree *t, int32_t root, int64_t *nodes, int64_t cap);

/* The edge indices of ``nodes`` (``n`` of them, checked by zb_subtree_nodes), each node's
 * n_start .. n_start + n_count - 1 in turn, into ``edges``; returns how many. */
int64_t zb_subtree_edges(const zb_tree *t, const int64_t *nodes, int64_t n, int64_t *edges);

/* The batch priors' softmax around numpy's exponential (engine.core.evaluators.BatchNetEvaluator._priors),
 * rows[r] = the lens[r] legal actions of row r, their indices idx[] concatenated:
 * zb_softmax_shift: z[k] = logits[r * actions + idx[k]] - the row's largest (np.maximum's order,
 * a NaN kept); 0 when an index is outside 0 .. actions - 1.
 * zb_softmax_scale: each row of z divided by its sum, summed as numpy sums a float32 array
 * (zb_pairwise_sum: its pairwise order, from 0). */
int zb_softmax_shift(const float *logits, int64_t rows, int64_t actions, const int64_t *idx, const int64_t *lens,
                     float *z);
void zb_softmax_scale(float *z, int64_t rows, const int64_t *lens);
float zb_pairwise_sum(const float *a, int64_t n);

/* engine.core.mcts.with_floors on float32 priors pri[0..n): each of the ``m`` floors (an index
 * j[i] into pri, -1 for an action the node does not have, and its floor f[i]) raises pri[j] to at
 * least f (the largest floor of an index counts, the indices in the order first met); the
 * raised floors together take at most 0.9, the others are scaled to keep the sum, and the whole is
 * divided by its sum, all in float64 in numpy's order (its pairwise sums) and rounded to float32
 * into out. Returns 0 when no floor raises anything (out untouched), 1 otherwise, -1 for more than
 * ZB_MAX_FLOORS floors or no memory. */
#define ZB_MAX_FLOORS 64
int zb_floor_priors(const float *pri, int64_t n, const int64_t *j, const double *f, int64_t m, float *out);
double zb_pairwise_sum_d(const double *a, int64_t n);

/* ``x`` rounded to the nearest float16 (ties to even), as its 16 bits; and back */
uint16_t zb_half_from_double(double x);
float zb_half_to_float(uint16_t h);
/* the float ``x`` rounded to the nearest float16 value (ties to even), as a float */
float zb_round_to_half(float x);

/* the same rounding by the processor's F16C instructions (the walk's choice where it has them):
 * 1 with *out set, 0 where they are missing */
int zb_round_to_half_f16c(float x, float *out);

/* how the walk converts its float16 priors here: "f16c" or "software" */
const char *zb_pick_kernels(void);

#endif
