/* engine.core._tree_c: the search tree's walk down and backup (engine/core/csrc/tree.c) for
 * Python, working on the numpy arrays of an engine.core.mcts.Tree through the buffer protocol
 * (no copies), and the walk that Tree.child_tree copies a subtree by. engine/core/native_tree.py loads it; Tree falls back to its Python methods
 * without it, and tests/test_tree_compiled.py compares the two paths.
 *
 * Threads: every function holds the GIL throughout. The tree's arrays are shared by the search
 * threads (engine/core/parallel.py), which touch them only under one lock and with the GIL;
 * a walk here takes microseconds, so releasing the GIL would buy nothing and would need that
 * lock's protection to be proven for the arrays as well.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tree.h"

/* bumped whenever a function's meaning or signature changes: native_tree.py refuses a stale build */
#define API_VERSION 10
/* path entries a walk collects before handing them to the Python list */
#define PATH_CHUNK 256

/* the arrays read from a Tree: name, element kind ('i' signed integer, 'f' float32, 'e' float16),
 * size, whether written, whether an edge array (else a node array) */
typedef struct {
    const char *name;
    char kind;
    int size;
    int writable;
    int edge;
} array_spec;

enum { A_START, A_COUNT, A_PLAYER, A_OWNER, A_FLOORED, A_TERM, A_BEST, A_DONE, A_VISITS, A_WSUM, A_PRIOR, A_CHILD, A_ALL };

static const array_spec SPECS[A_ALL] = {
    {"n_start", 'i', 4, 0, 0}, {"n_count", 'i', 4, 0, 0}, {"n_player", 'i', 1, 0, 0},
    {"n_owner", 'i', 1, 0, 0}, {"n_floored", 'i', 1, 0, 0}, {"n_term", 'f', 4, 0, 0},
    {"n_best", 'f', 4, 0, 0}, {"n_done", 'i', 2, 0, 0}, {"n_visits", 'f', 4, 1, 0},
    {"n_wsum", 'f', 4, 1, 0}, {"e_prior", 'e', 2, 0, 1}, {"e_child", 'i', 4, 0, 1},
};

static PyObject *names[A_ALL];

/* the buffers of one call, released together */
typedef struct {
    Py_buffer views[A_ALL];
    int held[A_ALL];
} held_arrays;

static void release(held_arrays *h)
{
    for (int i = 0; i < A_ALL; i++)
        if (h->held[i]) {
            PyBuffer_Release(&h->views[i]);
            h->held[i] = 0;
        }
}

static int format_matches(const char *format, char kind)
{
    if (format == NULL)
        return kind == 'i';   /* plain bytes: only the 1-byte arrays could be given so */
    if (*format == '<' || *format == '=' || *format == '@')
        format++;
    if (format[0] == '\0' || format[1] != '\0')
        return 0;
    if (kind == 'i')
        return strchr("bhilq", format[0]) != NULL;
    return format[0] == kind;
}

/* Fill ``t`` from the arrays of ``tree`` named by ``mask`` (bits of the A_ indices); 0 with a
 * TypeError or ValueError set when one is missing, of the wrong type, or of the wrong length. */
static int read_tree_rw(PyObject *tree, unsigned mask, unsigned writable, zb_tree *t, held_arrays *h);

static int read_tree(PyObject *tree, unsigned mask, zb_tree *t, held_arrays *h)
{
    return read_tree_rw(tree, mask, 0u, t, h);
}

/* read_tree, the arrays of ``writable`` (bits of the A_ indices) asked for writable too */
static int read_tree_rw(PyObject *tree, unsigned mask, unsigned writable, zb_tree *t, held_arrays *h)
{
    memset(h, 0, sizeof *h);
    memset(t, 0, sizeof *t);
    Py_ssize_t nodes = -1, edges = -1;
    void *data[A_ALL] = {0};
    for (int i = 0; i < A_ALL; i++) {
        if (!(mask & (1u << i)))
            continue;
        const array_spec *sp = &SPECS[i];
        PyObject *obj = PyObject_GetAttr(tree, names[i]);
        if (obj == NULL)
            goto fail;
        int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | (sp->writable || (writable & (1u << i)) ? PyBUF_WRITABLE : 0);
        int got = PyObject_GetBuffer(obj, &h->views[i], flags);
        Py_DECREF(obj);
        if (got < 0)
            goto fail;
        h->held[i] = 1;
        Py_buffer *v = &h->views[i];
        if (v->ndim != 1 || v->itemsize != sp->size || !format_matches(v->format, sp->kind)) {
            PyErr_Format(PyExc_TypeError, "Tree.%s is not a one-dimensional array of the expected type", sp->name);
            goto fail;
        }
        Py_ssize_t len = v->len / v->itemsize;
        Py_ssize_t *want = sp->edge ? &edges : &nodes;
        if (*want < 0)
            *want = len;
        else if (*want != len) {
            PyErr_Format(PyExc_ValueError, "Tree.%s has %zd entries, its sibling arrays %zd", sp->name, len, *want);
            goto fail;
        }
        data[i] = v->buf;
    }
    if (nodes == 0) {
        PyErr_SetString(PyExc_ValueError, "a Tree's node arrays hold at least the spare node");
        goto fail;
    }
    t->n_start = data[A_START];
    t->n_count = data[A_COUNT];
    t->n_player = data[A_PLAYER];
    t->n_owner = data[A_OWNER];
    t->n_floored = data[A_FLOORED];
    t->n_term = data[A_TERM];
    t->n_best = data[A_BEST];
    t->n_done = data[A_DONE];
    t->n_visits = data[A_VISITS];
    t->n_wsum = data[A_WSUM];
    t->e_prior = data[A_PRIOR];
    t->e_child = data[A_CHILD];
    t->nodes = nodes;
    t->edges = edges < 0 ? 0 : edges;
    return 1;
fail:
    release(h);
    return 0;
}

/* a path (a list of node indices) into ``buf`` of ``cap`` entries, else a new allocation that
 * *owned points at; NULL with an exception set on bad input */
static int32_t *read_path(PyObject *path, int32_t *buf, Py_ssize_t cap, Py_ssize_t *len, int32_t **owned)
{
    *owned = NULL;
    if (!PyList_Check(path)) {
        PyErr_SetString(PyExc_TypeError, "a path must be a list of node indices");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(path);
    int32_t *out = buf;
    if (n > cap) {
        out = *owned = PyMem_Malloc((size_t)n * sizeof *out);
        if (out == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(path, i));
        if (v == -1 && PyErr_Occurred()) {
            PyMem_Free(*owned);
            *owned = NULL;
            return NULL;
        }
        if (v < 0 || v > INT32_MAX) {
            PyErr_Format(PyExc_ValueError, "node index %ld in a path", v);
            PyMem_Free(*owned);
            *owned = NULL;
            return NULL;
        }
        out[i] = (int32_t)v;
    }
    *len = n;
    return out;
}

static int append_nodes(PyObject *list, const int32_t *nodes, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(nodes[i]);
        if (v == NULL)
            return 0;
        int bad = PyList_Append(list, v);
        Py_DECREF(v);
        if (bad)
            return 0;
    }
    return 1;
}

#define WALK_ARRAYS ((1u << A_ALL) - 1u)
#define BACKUP_ARRAYS ((1u << A_OWNER) | (1u << A_VISITS) | (1u << A_WSUM))

/* read_tree for a walk down, with root_win (-1, or the root's known winning child) checked */
static int read_walk_tree(PyObject *tree, int root_win, zb_tree *t, held_arrays *h)
{
    if (!read_tree(tree, WALK_ARRAYS, t, h))
        return 0;
    if (root_win < t->nodes - 1)
        return 1;
    release(h);
    PyErr_Format(PyExc_ValueError, "root_win %d is not a node of the tree", root_win);
    return 0;
}

static PyObject *py_descend(PyObject *self, PyObject *args)
{
    PyObject *tree, *path;
    int node, small_node, root_win, root_python;
    double parent_n, q_node, cpuct, fpu_reduction;
    if (!PyArg_ParseTuple(args, "OiddddiipO!:descend", &tree, &node, &parent_n, &q_node, &cpuct, &fpu_reduction,
                          &small_node, &root_win, &root_python, &PyList_Type, &path))
        return NULL;
    zb_tree t;
    held_arrays h;
    if (!read_walk_tree(tree, root_win, &t, &h))
        return NULL;
    int32_t buf[PATH_CHUNK];
    zb_stop stop;
    int code;
    for (;;) {
        int64_t len = 0;
        code = zb_descend(&t, node, parent_n, q_node, cpuct, fpu_reduction, small_node, root_win, root_python,
                          buf, &len, PATH_CHUNK, &stop);
        if (!append_nodes(path, buf, len)) {
            release(&h);
            return NULL;
        }
        if (code != ZB_FULL)
            break;
        node = stop.node;
        parent_n = stop.parent_n;
        q_node = stop.q_node;
        root_win = -1;   /* the root is behind us */
        root_python = 0;
    }
    release(&h);
    if (code == ZB_BAD)
        return PyErr_Format(PyExc_ValueError, "the tree's arrays are inconsistent at node %d", (int)stop.node);
    return Py_BuildValue("(iiidd)", code, (int)stop.node, (int)stop.edge, stop.parent_n, stop.q_node);
}

/* a number attribute of the tree (root_n, root_w) into *out; 0 with an exception set */
static int read_double(PyObject *tree, const char *name, double *out)
{
    PyObject *obj = PyObject_GetAttrString(tree, name);
    if (obj == NULL)
        return 0;
    *out = PyFloat_AsDouble(obj);
    Py_DECREF(obj);
    return !(*out == -1.0 && PyErr_Occurred());
}

static int write_double(PyObject *tree, const char *name, double value)
{
    PyObject *obj = PyFloat_FromDouble(value);
    if (obj == NULL)
        return 0;
    int bad = PyObject_SetAttrString(tree, name, obj);
    Py_DECREF(obj);
    return !bad;
}

/* settle(tree, cpuct, fpu_reduction, small_node, root_win, draw_value, walks, path[, vl_path, vl])
 * -> (settled, code, node, edge, parent_n, q_node)
 *
 * First, where ``vl_path`` is given, the virtual loss ``vl`` on its nodes and the root's count, as
 * Tree.apply_virtual_loss puts it on the leaf MCTS.gather queued last (one call fewer a leaf).
 * Up to ``walks`` walks down from the root, as MCTS.gather makes them with Tree.select_leaf at a
 * root that PUCT chooses for: each walk that ends at a known position (TERMINAL) is backed up at
 * once as gather backs it up (the draw's value ``draw_value`` for the player who chose the edge
 * to a drawn end, where it is not 0; no virtual loss; the root's root_n and root_w too), and the
 * next walk starts. The first walk that ends elsewhere stops the loop: its nodes go into
 * ``path`` and its code (LEAF, NEW) and stop are returned as descend returns them. ``settled``
 * counts the walks backed up; code DONE: all ``walks`` were; code DEEP: a walk went deeper than
 * the path buffer, and Python makes that walk itself (nothing of it was changed). */
#define SETTLE_DONE (-3)
#define SETTLE_DEEP (-4)

static PyObject *py_settle(PyObject *self, PyObject *args)
{
    PyObject *tree, *path, *vl_path = NULL;
    int small_node, root_win, walks;
    double cpuct, fpu_reduction, draw_value, vl = 0.0;
    if (!PyArg_ParseTuple(args, "OddiidiO!|O!d:settle", &tree, &cpuct, &fpu_reduction, &small_node, &root_win,
                          &draw_value, &walks, &PyList_Type, &path, &PyList_Type, &vl_path, &vl))
        return NULL;
    double root_n, root_w;
    if (!read_double(tree, "root_n", &root_n) || !read_double(tree, "root_w", &root_w))
        return NULL;
    /* the virtual loss of the leaf gathered before (Tree.apply_virtual_loss), where given */
    int32_t vl_buf[PATH_CHUNK], *vl_owned = NULL, *vl_nodes = NULL;
    Py_ssize_t vl_len = 0;
    if (vl_path != NULL && (vl_nodes = read_path(vl_path, vl_buf, PATH_CHUNK, &vl_len, &vl_owned)) == NULL)
        return NULL;
    zb_tree t;
    held_arrays h;
    if (!read_walk_tree(tree, root_win, &t, &h)) {
        PyMem_Free(vl_owned);
        return NULL;
    }
    int lossed = vl_nodes != NULL;
    if (lossed) {
        int ok = zb_virtual_loss(&t, vl_nodes, vl_len, vl);
        PyMem_Free(vl_owned);
        if (!ok) {
            release(&h);
            return PyErr_Format(PyExc_ValueError, "a path node is outside the tree");
        }
        root_n += vl;   /* Tree.apply_virtual_loss: root_n += vl */
    }
    int32_t buf[PATH_CHUNK];
    zb_stop stop = {0, -1, 0.0, 0.0};
    int code = SETTLE_DONE, settled = 0, failed = 0;
    while (settled < walks) {
        int64_t len = 0;
        double parent_n = root_n, q_node = root_n > 0 ? root_w / root_n : 0.0;
        code = zb_descend(&t, 0, parent_n, q_node, cpuct, fpu_reduction, small_node, root_win, 0, buf, &len,
                          PATH_CHUNK, &stop);
        if (code == ZB_FULL) {
            code = SETTLE_DEEP;
            break;
        }
        if (code != ZB_TERMINAL) {
            failed = code != ZB_BAD && !append_nodes(path, buf, len);   /* the exception is set */
            break;
        }
        /* MCTS.gather: v = float(t.n_term[node]); a draw worth draw_value to the edge's chooser */
        double v = (double)t.n_term[stop.node], value = v;
        int leaf_player = t.n_player[stop.node];
        if (v == 0.0 && draw_value != 0.0) {
            value = draw_value;
            leaf_player = t.n_owner[stop.node];
        }
        if (!zb_backup(&t, buf, len, value, leaf_player, 0.0)) {
            code = ZB_BAD;
            break;
        }
        root_n += 1.0 - 0.0;   /* Tree.backup: root_n += 1.0 - vl */
        root_w += t.n_player[0] == leaf_player ? value : -value;
        settled++;
        code = SETTLE_DONE;   /* unless a later walk ends elsewhere */
    }
    release(&h);
    if ((settled > 0 || lossed) && (!write_double(tree, "root_n", root_n) || !write_double(tree, "root_w", root_w)))
        return NULL;
    if (failed)
        return NULL;
    if (code == ZB_BAD)
        return PyErr_Format(PyExc_ValueError, "the tree's arrays are inconsistent at node %d", (int)stop.node);
    return Py_BuildValue("(iiiidd)", settled, code, (int)stop.node, (int)stop.edge, stop.parent_n, stop.q_node);
}

/* Shared by virtual_loss and backup: read the path and the tree's backup arrays, then walk the
 * path with zb_backup (is_backup) or zb_virtual_loss. */
static PyObject *walk_path(PyObject *tree, PyObject *path, int is_backup, double value,
                           int leaf_player, double vl)
{
    int32_t buf[PATH_CHUNK], *owned;
    Py_ssize_t len;
    int32_t *nodes = read_path(path, buf, PATH_CHUNK, &len, &owned);
    if (nodes == NULL)
        return NULL;
    zb_tree t;
    held_arrays h;
    int ok = 0;
    if (read_tree(tree, BACKUP_ARRAYS, &t, &h)) {
        ok = is_backup ? zb_backup(&t, nodes, len, value, leaf_player, vl)
                       : zb_virtual_loss(&t, nodes, len, vl);
        if (!ok)
            PyErr_SetString(PyExc_ValueError, "a path node is outside the tree");
        release(&h);
    }
    PyMem_Free(owned);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_virtual_loss(PyObject *self, PyObject *args)
{
    PyObject *tree, *path;
    double vl;
    if (!PyArg_ParseTuple(args, "OO!d:virtual_loss", &tree, &PyList_Type, &path, &vl))
        return NULL;
    return walk_path(tree, path, 0, 0.0, 0, vl);
}

static PyObject *py_backup(PyObject *self, PyObject *args)
{
    PyObject *tree, *path;
    double value, vl;
    int leaf_player;
    if (!PyArg_ParseTuple(args, "OO!did:backup", &tree, &PyList_Type, &path, &value, &leaf_player, &vl))
        return NULL;
    return walk_path(tree, path, 1, value, leaf_player, vl);
}

#define EXPAND_ARRAYS ((1u << A_START) | (1u << A_COUNT) | (1u << A_PLAYER) | (1u << A_OWNER) | (1u << A_VISITS) \
                       | (1u << A_WSUM) | (1u << A_PRIOR))
#define EXPAND_WRITTEN ((1u << A_START) | (1u << A_COUNT) | (1u << A_PRIOR))

/* expand_many(tree, nodes, paths, legal, priors, values, vl) -> the tree's new num_edges, or None
 *
 * MCTS.expand for a tree's evaluated leaves other than the root, in their order: each node gets
 * its edges (Tree.expand: its priors stored as float16 from tree.num_edges on, as numpy rounds),
 * then its value is backed up along its path with the virtual loss ``vl`` taken off (Tree.backup,
 * the root's root_n and root_w too). ``legal``: each node's legal actions; ``priors``: one 1-D
 * float32 array a node. None, with nothing changed, where the Python path must do it: the edge
 * arrays lack room, a node's priors are not a contiguous float32 array as long as its legal
 * actions, or one is NaN (numpy keeps a NaN's payload in float16). */
static PyObject *py_expand_many(PyObject *self, PyObject *args)
{
    PyObject *tree, *nodes, *paths, *legal, *priors, *values_obj;
    double vl;
    if (!PyArg_ParseTuple(args, "OO!O!O!O!Od:expand_many", &tree, &PyList_Type, &nodes, &PyList_Type, &paths,
                          &PyList_Type, &legal, &PyList_Type, &priors, &values_obj, &vl))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(nodes);
    if (PyList_GET_SIZE(paths) != n || PyList_GET_SIZE(priors) != n || PyList_GET_SIZE(legal) != n)
        return PyErr_Format(PyExc_ValueError, "nodes, paths, legal and priors differ in length");
    PyObject *values = PySequence_Fast(values_obj, "values must be a sequence");
    if (values == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(values) != n) {
        Py_DECREF(values);
        return PyErr_Format(PyExc_ValueError, "values and nodes differ in length");
    }
    PyObject *num_obj = PyObject_GetAttrString(tree, "num_edges");
    long long num_edges = num_obj == NULL ? -1 : PyLong_AsLongLong(num_obj);
    Py_XDECREF(num_obj);
    double root_n, root_w;
    if ((num_edges == -1 && PyErr_Occurred()) || !read_double(tree, "root_n", &root_n)
        || !read_double(tree, "root_w", &root_w)) {
        Py_DECREF(values);
        return NULL;
    }
    zb_tree t;
    held_arrays h;
    if (!read_tree_rw(tree, EXPAND_ARRAYS, EXPAND_WRITTEN, &t, &h)) {
        Py_DECREF(values);
        return NULL;
    }
    Py_buffer *views = PyMem_Calloc(n ? (size_t)n : 1, sizeof *views);
    double *vals = PyMem_Malloc((n ? (size_t)n : 1) * sizeof *vals);
    int32_t *node_of = PyMem_Malloc((n ? (size_t)n : 1) * sizeof *node_of);
    Py_ssize_t held = 0;
    PyObject *result = NULL;
    if (views == NULL || vals == NULL || node_of == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* everything checked before anything changes */
    long long total = 0;
    int room = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        long node = PyLong_AsLong(PyList_GET_ITEM(nodes, i));
        if (node == -1 && PyErr_Occurred())
            goto done;
        if (node <= 0 || node >= t.nodes - 1) {
            PyErr_Format(PyExc_ValueError, "node %ld is not a leaf below the root", node);
            goto done;
        }
        node_of[i] = (int32_t)node;
        vals[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(values, i));
        if (vals[i] == -1.0 && PyErr_Occurred())
            goto done;
        Py_ssize_t k = PyObject_Length(PyList_GET_ITEM(legal, i));
        if (k < 0)
            goto done;
        if (PyObject_GetBuffer(PyList_GET_ITEM(priors, i), &views[i], PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
            PyErr_Clear();   /* not an array: the Python path's */
            room = 0;
            break;
        }
        held++;
        if (views[i].ndim != 1 || views[i].itemsize != 4 || !format_matches(views[i].format, 'f')
            || views[i].len / 4 != k) {
            room = 0;
            break;
        }
        const float *p = views[i].buf;
        for (Py_ssize_t j = 0; j < views[i].len / 4; j++)
            if (p[j] != p[j])
                room = 0;   /* a NaN: the Python path's */
        total += views[i].len / 4;
        PyObject *path = PyList_GET_ITEM(paths, i);
        if (!PyList_Check(path)) {
            PyErr_SetString(PyExc_TypeError, "a path must be a list of node indices");
            goto done;
        }
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(path); j++) {
            long x = PyLong_AsLong(PyList_GET_ITEM(path, j));
            if (x == -1 && PyErr_Occurred())
                goto done;
            if (x < 0 || x >= t.nodes) {
                PyErr_Format(PyExc_ValueError, "node index %ld in a path", x);
                goto done;
            }
        }
    }
    if (num_edges < 0 || num_edges + total > t.edges || !room) {
        Py_INCREF(Py_None);
        result = Py_None;
        goto done;
    }
    int32_t *n_start = (int32_t *)t.n_start, *n_count = (int32_t *)t.n_count;
    uint16_t *e_prior = (uint16_t *)t.e_prior;
    for (Py_ssize_t i = 0; i < n; i++) {
        /* Tree.expand */
        const float *p = views[i].buf;
        int64_t k = views[i].len / 4;
        for (int64_t j = 0; j < k; j++)
            e_prior[num_edges + j] = zb_half_from_double((double)p[j]);
        n_start[node_of[i]] = (int32_t)num_edges;
        n_count[node_of[i]] = (int32_t)k;
        num_edges += k;
        /* Tree.backup(path, value, n_player[node], vl) */
        PyObject *path = PyList_GET_ITEM(paths, i);
        Py_ssize_t len = PyList_GET_SIZE(path);
        int32_t buf[PATH_CHUNK];
        for (Py_ssize_t j = 0; j < len; j++) {
            int32_t x = (int32_t)PyLong_AsLong(PyList_GET_ITEM(path, j));
            if (j < PATH_CHUNK) {
                buf[j] = x;
                continue;
            }
            /* a path past the buffer: backed up node by node, as zb_backup does */
            double add = (t.n_owner[x] == t.n_player[node_of[i]] ? vals[i] : -vals[i]) + vl;
            t.n_wsum[x] = (float)((double)t.n_wsum[x] + add);
            t.n_visits[x] += (float)(1.0 - vl);
        }
        zb_backup(&t, buf, len < PATH_CHUNK ? len : PATH_CHUNK, vals[i], t.n_player[node_of[i]], vl);
        root_n += 1.0 - vl;
        root_w += t.n_player[0] == t.n_player[node_of[i]] ? vals[i] : -vals[i];
    }
    result = PyLong_FromLongLong(num_edges);
    if (result != NULL && (!write_double(tree, "root_n", root_n) || !write_double(tree, "root_w", root_w)))
        Py_CLEAR(result);
done:
    for (Py_ssize_t i = 0; i < held; i++)
        PyBuffer_Release(&views[i]);
    PyMem_Free(views);
    PyMem_Free(vals);
    PyMem_Free(node_of);
    release(&h);
    Py_DECREF(values);
    return result;
}

#define SUBTREE_ARRAYS ((1u << A_START) | (1u << A_COUNT) | (1u << A_CHILD))

static PyObject *py_subtree(PyObject *self, PyObject *args)
{
    PyObject *tree;
    int root;
    if (!PyArg_ParseTuple(args, "Oi:subtree", &tree, &root))
        return NULL;
    zb_tree t;
    held_arrays h;
    if (!read_tree(tree, SUBTREE_ARRAYS, &t, &h))
        return NULL;
    PyObject *result = NULL, *nodes_bytes = NULL, *edges_bytes = NULL;
    int64_t cap = t.nodes - 1;   /* every node but the spare, each at most once */
    int64_t *nodes = PyMem_Malloc((size_t)(cap > 0 ? cap : 1) * sizeof *nodes);
    if (nodes == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t n = zb_subtree_nodes(&t, root, nodes, cap);
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "the tree's arrays are inconsistent below node %d", root);
        goto done;
    }
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
        m += t.n_count[nodes[i]];
    nodes_bytes = PyBytes_FromStringAndSize((const char *)nodes, (Py_ssize_t)(n * (int64_t)sizeof *nodes));
    edges_bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(m * (int64_t)sizeof(int64_t)));
    if (nodes_bytes == NULL || edges_bytes == NULL)
        goto done;
    zb_subtree_edges(&t, nodes, n, (int64_t *)PyBytes_AS_STRING(edges_bytes));
    result = PyTuple_Pack(2, nodes_bytes, edges_bytes);
done:
    Py_XDECREF(nodes_bytes);
    Py_XDECREF(edges_bytes);
    PyMem_Free(nodes);
    release(&h);
    return result;
}

/* the node arrays tree reuse copies (Tree._NODE_FILLS), n_start first: it is renumbered, the
 * others copied element by element whatever their type */
static const char *COPIED_NODE_ARRAYS[] = {"n_start", "n_count", "n_player", "n_owner", "n_term", "n_done", "n_best",
                                           "n_floored", "n_visits", "n_wsum", "n_depth"};
#define COPIED_NODES ((int)(sizeof COPIED_NODE_ARRAYS / sizeof *COPIED_NODE_ARRAYS))

/* obj's one-dimensional, C-contiguous buffer (writable if asked); 0 with an exception set */
static int get_array(PyObject *obj, const char *what, int writable, Py_buffer *view)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return 0;
    if (view->ndim != 1 || view->itemsize <= 0) {
        PyErr_Format(PyExc_TypeError, "%s is not a one-dimensional array", what);
        PyBuffer_Release(view);
        return 0;
    }
    return 1;
}

static int same_kind(const Py_buffer *a, const Py_buffer *b)
{
    return a->itemsize == b->itemsize && ((a->format == NULL && b->format == NULL)
                                          || (a->format != NULL && b->format != NULL && strcmp(a->format, b->format) == 0));
}

/* Tree._copy_arrays: dst's arrays (allocated by Python, at least as long as the copy) from
 * src's at ``nodes`` and ``edges`` (int64 arrays, Tree._subtree's order). */
static PyObject *py_copy_subtree(PyObject *self, PyObject *args)
{
    PyObject *src, *dst, *nodes_obj, *edges_obj;
    if (!PyArg_ParseTuple(args, "OOOO:copy_subtree", &src, &dst, &nodes_obj, &edges_obj))
        return NULL;
    Py_buffer nv, ev, sv, dv;
    int have_nv = 0, have_ev = 0, ok = 0;
    int32_t *map = NULL;
    zb_tree t;
    held_arrays h;
    int have_tree = 0;
    if (!(have_nv = get_array(nodes_obj, "nodes", 0, &nv)) || !(have_ev = get_array(edges_obj, "edges", 0, &ev)))
        goto done;
    if (nv.itemsize != 8 || ev.itemsize != 8) {
        PyErr_SetString(PyExc_TypeError, "nodes and edges must be int64 arrays");
        goto done;
    }
    const int64_t *nodes = nv.buf, *edges = ev.buf;
    Py_ssize_t n = nv.len / 8, m = ev.len / 8;
    if (!read_tree(src, (1u << A_START) | (1u << A_COUNT) | (1u << A_CHILD) | (1u << A_PRIOR), &t, &h))
        goto done;
    have_tree = 1;
    for (Py_ssize_t i = 0; i < n; i++)
        if (nodes[i] < 0 || nodes[i] >= t.nodes) {
            PyErr_Format(PyExc_ValueError, "node %lld is not in the tree", (long long)nodes[i]);
            goto done;
        }
    for (Py_ssize_t k = 0; k < m; k++)
        if (edges[k] < 0 || edges[k] >= t.edges) {
            PyErr_Format(PyExc_ValueError, "edge %lld is not in the tree", (long long)edges[k]);
            goto done;
        }
    map = PyMem_Malloc((size_t)t.nodes * sizeof *map);
    if (map == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (int64_t i = 0; i < t.nodes; i++)
        map[i] = -1;
    for (Py_ssize_t i = 0; i < n; i++)
        map[nodes[i]] = (int32_t)i;
    for (int a = 0; a < COPIED_NODES + 2; a++) {
        const char *name = a < COPIED_NODES ? COPIED_NODE_ARRAYS[a] : (a == COPIED_NODES ? "e_prior" : "e_child");
        int edge = a >= COPIED_NODES;
        PyObject *so = PyObject_GetAttrString(src, name), *dobj = so ? PyObject_GetAttrString(dst, name) : NULL;
        int got = so && dobj && get_array(so, name, 0, &sv);
        if (got && !get_array(dobj, name, 1, &dv)) {
            PyBuffer_Release(&sv);
            got = 0;
        }
        Py_XDECREF(so);
        Py_XDECREF(dobj);
        if (!got)
            goto done;
        Py_ssize_t es = sv.itemsize, count = edge ? m : n;
        const int64_t *idx = edge ? edges : nodes;
        int64_t src_len = sv.len / es;
        int fits = same_kind(&sv, &dv) && dv.len / es >= count && src_len >= (edge ? t.edges : t.nodes);
        if (fits && a == 0 && es != 4)
            fits = 0;
        if (fits && a == COPIED_NODES + 1 && es != 4)
            fits = 0;
        if (!fits) {
            PyErr_Format(PyExc_ValueError, "Tree.%s cannot be copied (another type or too short)", name);
            PyBuffer_Release(&sv);
            PyBuffer_Release(&dv);
            goto done;
        }
        char *out = dv.buf;
        const char *in = sv.buf;
        if (a == 0) {   /* n_start: each node's edges after its predecessors' (0 where it has none) */
            int32_t *start = (int32_t *)out;
            int64_t at = 0;
            for (Py_ssize_t i = 0; i < n; i++) {
                int32_t k = t.n_count[nodes[i]];
                start[i] = k > 0 ? (int32_t)at : 0;
                at += k > 0 ? k : 0;
            }
        } else if (a == COPIED_NODES + 1) {   /* e_child: renumbered, -1 stays -1 */
            int32_t *child = (int32_t *)out;
            for (Py_ssize_t k = 0; k < m; k++) {
                int32_t c = t.e_child[edges[k]];
                child[k] = c >= 0 && c < t.nodes ? map[c] : -1;
            }
        } else {
            for (Py_ssize_t i = 0; i < count; i++)
                memcpy(out + i * es, in + idx[i] * es, (size_t)es);
        }
        PyBuffer_Release(&sv);
        PyBuffer_Release(&dv);
    }
    ok = 1;
done:
    PyMem_Free(map);
    if (have_tree)
        release(&h);
    if (have_nv)
        PyBuffer_Release(&nv);
    if (have_ev)
        PyBuffer_Release(&ev);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

/* a 1-D contiguous buffer of ``size``-byte elements of kind ``kind`` (as format_matches); 0 with an exception set */
static int get_typed(PyObject *obj, const char *what, char kind, int size, int writable, Py_buffer *view)
{
    if (!get_array(obj, what, writable, view))
        return 0;
    if (view->itemsize == size && format_matches(view->format, kind))
        return 1;
    PyErr_Format(PyExc_TypeError, "%s must be an array of %s", what, kind == 'f' ? "float32" : "int64");
    PyBuffer_Release(view);
    return 0;
}

/* priors(logits, legal, numpy) -> [float32 array per row] or None: BatchNetEvaluator._priors in
 * one call, softmax_shift, numpy's exponential and softmax_scale over one new array, returned as
 * one view of it per row; logits a C-contiguous float32 array of rows x actions, legal a list of
 * one sequence of action indices per row, numpy the tuple (numpy.empty, numpy.exp, numpy.float32)
 * (the exponential stays numpy's own, so the bits are those of the numpy path); None (nothing
 * computed) where a row has no legal action, which the Python path treats apart. */
static PyObject *py_priors(PyObject *self, PyObject *args)
{
    PyObject *logits_obj, *legal, *tools;
    if (!PyArg_ParseTuple(args, "OO!O!:priors", &logits_obj, &PyList_Type, &legal, &PyTuple_Type, &tools))
        return NULL;
    if (PyTuple_GET_SIZE(tools) != 3)
        return PyErr_Format(PyExc_TypeError, "numpy must be (empty, exp, float32)");
    Py_ssize_t rows = PyList_GET_SIZE(legal);
    Py_buffer lv;
    if (PyObject_GetBuffer(logits_obj, &lv, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    PyObject *result = NULL, *z = NULL;
    int64_t *lens = NULL, *idx = NULL;
    Py_ssize_t actions = lv.ndim == 2 ? lv.shape[1] : 0;
    if (lv.ndim != 2 || lv.itemsize != 4 || !format_matches(lv.format, 'f') || lv.shape[0] != rows) {
        PyErr_Format(PyExc_TypeError, "logits must be a float32 array of %zd rows", rows);
        goto done;
    }
    if ((lens = PyMem_Malloc((rows + 1) * sizeof *lens)) == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t total = 0;
    for (Py_ssize_t r = 0; r < rows; r++) {
        PyObject *acts = PyList_GET_ITEM(legal, r);
        Py_ssize_t n = PySequence_Length(acts);
        if (n < 0)
            goto done;
        if (n == 0) {   /* the Python path's business */
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
        lens[r] = n;
        total += n;
    }
    if (rows == 0) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    if ((idx = PyMem_Malloc(total * sizeof *idx)) == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t k = 0;
    for (Py_ssize_t r = 0; r < rows; r++) {
        PyObject *fast = PySequence_Fast(PyList_GET_ITEM(legal, r), "legal actions must be sequences");
        if (fast == NULL)
            goto done;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
        if (n != lens[r]) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "a row of legal actions changed its length");
            goto done;
        }
        PyObject **items = PySequence_Fast_ITEMS(fast);
        for (Py_ssize_t i = 0; i < n; i++) {
            long long a = PyLong_AsLongLong(items[i]);
            if (a == -1 && PyErr_Occurred()) {
                Py_DECREF(fast);
                goto done;
            }
            idx[k++] = a;
        }
        Py_DECREF(fast);
    }
    z = PyObject_CallFunction(PyTuple_GET_ITEM(tools, 0), "LO", (long long)total, PyTuple_GET_ITEM(tools, 2));
    if (z == NULL)
        goto done;
    Py_buffer zv;
    if (!get_typed(z, "z", 'f', 4, 1, &zv))
        goto done;
    int shifted = zv.len / 4 == total && zb_softmax_shift(lv.buf, rows, actions, idx, lens, zv.buf);
    PyBuffer_Release(&zv);
    if (!shifted) {
        PyErr_SetString(PyExc_ValueError, "an action index is outside the logits' rows");
        goto done;
    }
    PyObject *e = PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(tools, 1), z, z, NULL);   /* np.exp(z, out=z) */
    if (e == NULL)
        goto done;
    Py_DECREF(e);
    if (!get_typed(z, "z", 'f', 4, 1, &zv))
        goto done;
    zb_softmax_scale(zv.buf, rows, lens);
    PyBuffer_Release(&zv);
    PyObject *out = PyList_New(rows);
    if (out == NULL)
        goto done;
    int64_t start = 0;
    for (Py_ssize_t r = 0; r < rows; r++) {
        PyObject *view = PySequence_GetSlice(z, start, start + lens[r]);
        if (view == NULL) {
            Py_DECREF(out);
            goto done;
        }
        PyList_SET_ITEM(out, r, view);
        start += lens[r];
    }
    result = out;
done:
    PyBuffer_Release(&lv);
    Py_XDECREF(z);
    PyMem_Free(lens);
    PyMem_Free(idx);
    return result;
}

/* floor_priors(priors, actions, floors, out) -> bool: zb_floor_priors, priors and out float32 arrays
 * of one length, actions the node's legal actions (a list of ints, priors' order), floors a list of
 * (action, floor) pairs; False (out untouched) when no floor raises a prior */
/* the floors (a list of at most ZB_MAX_FLOORS (action, floor) pairs) as positions in actions (a
 * list; -1 where absent) and values: 1, or 0 with an exception set */
static int read_floors(PyObject *actions, PyObject *floors, int64_t *j, double *f)
{
    Py_ssize_t m = PyList_GET_SIZE(floors), n = PyList_GET_SIZE(actions);
    if (m > ZB_MAX_FLOORS) {
        PyErr_Format(PyExc_ValueError, "at most %d floors, not %zd", ZB_MAX_FLOORS, m);
        return 0;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *pair = PyList_GET_ITEM(floors, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "a floor is an (action, floor) pair");
            return 0;
        }
        long action = PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
        f[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(pair, 1));
        if ((action == -1 || f[i] == -1.0) && PyErr_Occurred())
            return 0;
        j[i] = -1;   /* actions.index(action), -1 where absent */
        for (Py_ssize_t a = 0; a < n; a++) {
            long v = PyLong_AsLong(PyList_GET_ITEM(actions, a));
            if (v == -1 && PyErr_Occurred())
                return 0;
            if (v == action) {
                j[i] = a;
                break;
            }
        }
    }
    return 1;
}

static PyObject *py_floor_priors(PyObject *self, PyObject *args)
{
    PyObject *pri_obj, *actions, *floors, *out_obj;
    if (!PyArg_ParseTuple(args, "OO!O!O:floor_priors", &pri_obj, &PyList_Type, &actions, &PyList_Type, &floors,
                          &out_obj))
        return NULL;
    Py_ssize_t m = PyList_GET_SIZE(floors), n = PyList_GET_SIZE(actions);
    int64_t j[ZB_MAX_FLOORS];
    double f[ZB_MAX_FLOORS];
    if (!read_floors(actions, floors, j, f))
        return NULL;
    Py_buffer pv, ov;
    if (!get_typed(pri_obj, "priors", 'f', 4, 0, &pv))
        return NULL;
    if (!get_typed(out_obj, "out", 'f', 4, 1, &ov)) {
        PyBuffer_Release(&pv);
        return NULL;
    }
    int raised = -2;
    if (pv.len != ov.len || pv.len / 4 != n)
        PyErr_Format(PyExc_ValueError, "priors (%zd), out (%zd) and actions (%zd) differ in length", pv.len / 4,
                     ov.len / 4, n);
    else if ((raised = zb_floor_priors(pv.buf, n, j, f, m, ov.buf)) < 0)
        PyErr_NoMemory();
    PyBuffer_Release(&pv);
    PyBuffer_Release(&ov);
    if (raised < 0)
        return NULL;
    return PyBool_FromLong(raised);
}

/* a float of a list of floats, or of a float64 buffer (values); -1.0 with an exception set on error */
static double item_double(PyObject *list, const Py_buffer *buf, Py_ssize_t i)
{
    if (buf != NULL)
        return ((const double *)buf->buf)[i];
    return PyFloat_AsDouble(PyList_GET_ITEM(list, i));
}

/* tactics(priors, legal, values, gains, reds, leads, players, floors, capture_scale, material_scale, numpy)
 * -> (priors, values) or None: engine.core.mcts.with_tactics's loop in one call, with each leaf's
 * terms asked of its state beforehand: gains (capture_gain, or None), reds and leads (each leaf's
 * heuristic for Red and its root's, with players the leaves' movers; or None), floors (each
 * leaf's tactical_priors, or None). Each value moves by tanh(atanh(v) + shift) with the shift
 * with_tactics adds up, in the same operations; each row with floors is with_floors's (a new
 * array where a floor is raised, numpy the tuple (numpy.empty, numpy.exp, numpy.float32)). None
 * (nothing computed) where a floored row is not what with_floors takes in C (a 1-D float32 array,
 * a list of actions, a list of at most ZB_MAX_FLOORS floors): the Python loop serves it. */
static PyObject *py_tactics(PyObject *self, PyObject *args)
{
    PyObject *priors, *legal, *values, *gains, *reds, *leads, *players, *floors, *tools;
    double capture_scale, material_scale;
    if (!PyArg_ParseTuple(args, "O!O!OOOOOOddO!:tactics", &PyList_Type, &priors, &PyList_Type, &legal, &values,
                          &gains, &reds, &leads, &players, &floors, &capture_scale, &material_scale, &PyTuple_Type,
                          &tools))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(priors);
    if (PyTuple_GET_SIZE(tools) != 3)
        return PyErr_Format(PyExc_TypeError, "numpy must be (empty, exp, float32)");
    if (PyList_GET_SIZE(legal) != n)
        return PyErr_Format(PyExc_ValueError, "%zd rows of priors and %zd of legal actions", n, PyList_GET_SIZE(legal));
    PyObject *lists[5] = {gains, reds, leads, players, floors};
    const char *names[5] = {"gains", "reds", "leads", "players", "floors"};
    for (int i = 0; i < 5; i++)
        if (lists[i] != Py_None && (!PyList_Check(lists[i]) || PyList_GET_SIZE(lists[i]) != n))
            return PyErr_Format(PyExc_TypeError, "%s must be None or a list of %zd", names[i], n);
    if ((reds == Py_None) != (leads == Py_None) || (reds == Py_None) != (players == Py_None))
        return PyErr_Format(PyExc_TypeError, "reds, leads and players go together");
    Py_buffer vb, *vbuf = NULL;
    if (!PyList_Check(values)) {   /* a float64 array; anything else goes the Python way */
        if (PyObject_GetBuffer(values, &vb, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        if (vb.ndim != 1 || vb.itemsize != 8 || !format_matches(vb.format, 'd') || vb.shape[0] != n) {
            PyBuffer_Release(&vb);
            Py_RETURN_NONE;
        }
        vbuf = &vb;
    } else if (PyList_GET_SIZE(values) != n) {
        return PyErr_Format(PyExc_ValueError, "%zd values for %zd rows", PyList_GET_SIZE(values), n);
    }
    PyObject *out_p = PyList_New(n), *out_v = PyList_New(n), *result = NULL;
    if (out_p == NULL || out_v == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        double v = item_double(values, vbuf, i), shift = 0.0;
        if (v == -1.0 && PyErr_Occurred())
            goto done;
        if (gains != Py_None) {
            double gain = PyFloat_AsDouble(PyList_GET_ITEM(gains, i));
            if (gain == -1.0 && PyErr_Occurred())
                goto done;
            if (gain > 0)
                shift += gain / capture_scale;
        }
        if (reds != Py_None) {
            double red = PyFloat_AsDouble(PyList_GET_ITEM(reds, i)), lead = PyFloat_AsDouble(PyList_GET_ITEM(leads, i));
            long player = PyLong_AsLong(PyList_GET_ITEM(players, i));
            if (PyErr_Occurred())
                goto done;
            double change = red - lead;   /* Red's view, then the leaf mover's */
            shift += (player == 0 ? change : -change) / material_scale;
        }
        if (shift != 0.0) {   /* shifted(): tanh(atanh(v) + shift), v kept inside (-1, 1) first */
            if (-0.999 > v)   /* min(max(v, -0.999), 0.999), nan passing through as in Python */
                v = -0.999;
            if (0.999 < v)
                v = 0.999;
            v = tanh(atanh(v) + shift);
        }
        PyObject *vo = PyFloat_FromDouble(v);
        if (vo == NULL)
            goto done;
        PyList_SET_ITEM(out_v, i, vo);
        PyObject *pri = PyList_GET_ITEM(priors, i), *row = pri;
        PyObject *raised = floors == Py_None ? NULL : PyList_GET_ITEM(floors, i);
        if (raised != NULL && !PyList_Check(raised)) {   /* None or empty: no floor; else the Python way */
            int truth = PyObject_IsTrue(raised);
            if (truth < 0)
                goto done;
            if (truth) {
                result = Py_None;
                goto done;
            }
        } else if (raised != NULL && PyList_GET_SIZE(raised) > 0) {
            PyObject *acts = PyList_GET_ITEM(legal, i);
            if (!PyList_Check(acts) || PyList_GET_SIZE(raised) > ZB_MAX_FLOORS) {
                result = Py_None;   /* with_floors's numpy path */
                goto done;
            }
            Py_buffer pv;
            if (PyObject_GetBuffer(pri, &pv, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
                PyErr_Clear();
                result = Py_None;
                goto done;
            }
            Py_ssize_t len = PyList_GET_SIZE(acts);
            if (pv.ndim != 1 || pv.itemsize != 4 || !format_matches(pv.format, 'f') || pv.shape[0] != len) {
                PyBuffer_Release(&pv);
                result = Py_None;
                goto done;
            }
            int64_t j[ZB_MAX_FLOORS];
            double f[ZB_MAX_FLOORS];
            Py_ssize_t m = PyList_GET_SIZE(raised);
            if (!read_floors(acts, raised, j, f)) {
                PyBuffer_Release(&pv);
                goto done;
            }
            const float *p = pv.buf;
            int any = 0;   /* zb_floor_priors raises a floor: one above its move's prior */
            for (Py_ssize_t k = 0; k < m && !any; k++)
                any = j[k] >= 0 && j[k] < len && f[k] > (double)p[j[k]];
            if (any) {
                PyObject *arr = PyObject_CallFunction(PyTuple_GET_ITEM(tools, 0), "nO", len, PyTuple_GET_ITEM(tools, 2));
                Py_buffer ov;
                if (arr == NULL || !get_typed(arr, "out", 'f', 4, 1, &ov)) {
                    Py_XDECREF(arr);
                    PyBuffer_Release(&pv);
                    goto done;
                }
                int ok = ov.len / 4 == len ? zb_floor_priors(p, len, j, f, m, ov.buf) : -1;
                PyBuffer_Release(&ov);
                if (ok < 0) {
                    Py_DECREF(arr);
                    PyBuffer_Release(&pv);
                    PyErr_NoMemory();
                    goto done;
                }
                row = arr;   /* a new reference */
            }
            PyBuffer_Release(&pv);
        }
        if (row == pri)
            Py_INCREF(row);
        PyList_SET_ITEM(out_p, i, row);
    }
    result = PyTuple_Pack(2, out_p, out_v);
done:
    if (vbuf != NULL)
        PyBuffer_Release(vbuf);
    Py_XDECREF(out_p);
    Py_XDECREF(out_v);
    if (result == Py_None)
        Py_INCREF(result);
    return result;
}

static PyObject *py_half_bits(PyObject *self, PyObject *arg)
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred())
        return NULL;
    return PyLong_FromLong(zb_half_from_double(x));
}

static PyObject *py_round_half(PyObject *self, PyObject *arg)
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred())
        return NULL;
    return PyFloat_FromDouble((double)zb_round_to_half((float)x));
}

static PyObject *py_round_half_f16c(PyObject *self, PyObject *arg)
{
    double x = PyFloat_AsDouble(arg);
    if (x == -1.0 && PyErr_Occurred())
        return NULL;
    float out;
    if (!zb_round_to_half_f16c((float)x, &out))
        Py_RETURN_NONE;
    return PyFloat_FromDouble((double)out);
}

static PyObject *py_pick_kernels(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString(zb_pick_kernels());
}

static PyMethodDef methods[] = {
    {"descend", py_descend, METH_VARARGS,
     "descend(tree, node, parent_n, q_node, cpuct, fpu_reduction, small_node, root_win, root_python, path)\n"
     "Walk down from node as Tree.select_leaf does, appending the nodes entered to path; returns\n"
     "(code, node, edge, parent_n, q_node): TERMINAL, LEAF, NEW (edge has no child yet) or ROOT."},
    {"settle", py_settle, METH_VARARGS,
     "settle(tree, cpuct, fpu_reduction, small_node, root_win, draw_value, walks, path[, vl_path, vl])\n"
     "-> (settled, code, node, edge, parent_n, q_node): up to walks walks from the root, each that\n"
     "ends at a known position backed up as MCTS.gather backs it up; the first that ends elsewhere\n"
     "returned as descend returns it (its nodes in path); code DONE when all were backed up, DEEP\n"
     "when a walk is longer than the buffer (Python walks it). First, where vl_path is given, the virtual\n"
     "loss vl on its nodes and the root's count (Tree.apply_virtual_loss)."},
    {"virtual_loss", py_virtual_loss, METH_VARARGS,
     "virtual_loss(tree, path, vl): Tree.apply_virtual_loss on the path's nodes (not the root's counts)."},
    {"backup", py_backup, METH_VARARGS,
     "backup(tree, path, value, leaf_player, vl): Tree.backup on the path's nodes (not the root's counts)."},
    {"expand_many", py_expand_many, METH_VARARGS,
     "expand_many(tree, nodes, paths, legal, priors, values, vl) -> the tree's new num_edges, or None (nothing\n"
     "done): MCTS.expand's Tree.expand and Tree.backup for leaves below the root, in order, the root's counts too."},
    {"subtree", py_subtree, METH_VARARGS,
     "subtree(tree, root) -> (nodes, edges): the int64 node indices of the subtree below root in\n"
     "Tree.child_tree's breadth-first order, and their edges' indices, as native-endian bytes."},
    {"copy_subtree", py_copy_subtree, METH_VARARGS,
     "copy_subtree(src, dst, nodes, edges): Tree._copy_arrays, dst's arrays (allocated, long enough) from\n"
     "src's at the int64 arrays nodes and edges, n_start and e_child renumbered."},
    {"priors", py_priors, METH_VARARGS,
     "priors(logits, legal, (numpy.empty, numpy.exp, numpy.float32)) -> a float32 softmax per row over its\n"
     "legal actions, views of one array (BatchNetEvaluator._priors, the same bits); None where a row has none."},
    {"floor_priors", py_floor_priors, METH_VARARGS,
     "floor_priors(priors, actions, floors, out) -> bool: engine.core.mcts.with_floors in C, the result in out\n"
     "(float32); False where no floor raises a prior."},
    {"half_bits", py_half_bits, METH_O, "half_bits(x): the 16 bits of x rounded to float16 (as numpy rounds)."},
    {"round_half", py_round_half, METH_O,
     "round_half(x): x as a float32, rounded to the nearest float16 value (the walk's fast rounding)."},
    {"tactics", py_tactics, METH_VARARGS,
     "tactics(priors, legal, values, gains, reds, leads, players, floors, capture_scale, material_scale, numpy)\n"
     "-> (priors, values) or None: engine.core.mcts.with_tactics's loop, the leaves' terms given."},
    {"round_half_f16c", py_round_half_f16c, METH_O,
     "round_half_f16c(x): the same by the processor's F16C instructions, or None where it has none."},
    {"pick_kernels", py_pick_kernels, METH_NOARGS,
     "pick_kernels() -> 'f16c' or 'software': how the walk converts its float16 priors on this processor."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.core._tree_c",
    "The search tree's walk down and backup in C (engine/core/csrc/tree.c); see engine/core/native_tree.py.",
    -1, methods,
};

PyMODINIT_FUNC PyInit__tree_c(void)
{
    for (int i = 0; i < A_ALL; i++)
        if (names[i] == NULL && (names[i] = PyUnicode_InternFromString(SPECS[i].name)) == NULL)
            return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0 || PyModule_AddIntConstant(m, "TERMINAL", ZB_TERMINAL) < 0
        || PyModule_AddIntConstant(m, "LEAF", ZB_LEAF) < 0 || PyModule_AddIntConstant(m, "NEW", ZB_NEW) < 0
        || PyModule_AddIntConstant(m, "ROOT", ZB_ROOT) < 0 || PyModule_AddIntConstant(m, "DONE", SETTLE_DONE) < 0
        || PyModule_AddIntConstant(m, "DEEP", SETTLE_DEEP) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
