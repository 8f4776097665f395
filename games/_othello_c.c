/* games._othello_c: othello's compiled rules and endgame solvers (games/csrc/othello_rules.c) for Python.
 *
 * A side's discs cross the boundary as the Python state's bitboard (an int, bit row * size +
 * column) and live in C as one 64-bit word; every function takes the board size first (2..8) and
 * builds that size's tables on first use. games/othello.py calls these where it would run its own
 * code (games/native.py loads the module; without it the Python runs); tests/test_othello_compiled.py
 * compares the two.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>

#include "othello_rules.h"

/* bumped whenever a function's meaning or signature changes: games/native.py refuses a stale build */
#define API_VERSION 1

/* a margin solve allowed this many positions or more, or a perft this deep, lets other threads
 * run meanwhile; shorter ones keep the GIL, whose release and re-take would cost more than they do */
#define RELEASE_BUDGET 4096
#define RELEASE_DEPTH 5

static ot_geom *geoms[OT_MAX_SIZE + 1];

/* the tables of a size x size board, built on first use (under the GIL); NULL with an exception set */
static const ot_geom *geometry(int size)
{
    if (size < OT_MIN_SIZE || size > OT_MAX_SIZE) {
        PyErr_Format(PyExc_ValueError, "othello size must be %d..%d, not %d", OT_MIN_SIZE, OT_MAX_SIZE, size);
        return NULL;
    }
    if (geoms[size] == NULL) {
        ot_geom *g = PyMem_Malloc(sizeof *g);
        if (g == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        ot_geom_init(g, size);
        geoms[size] = g;
    }
    return geoms[size];
}

/* a bitboard from a Python int of at most g->cells bits; 0 with an exception set otherwise */
static int read_bb(const ot_geom *g, PyObject *obj, uint64_t *out, const char *what)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int bitboard, not %.60s", what, Py_TYPE(obj)->tp_name);
        return 0;
    }
    uint64_t x = PyLong_AsUnsignedLongLong(obj);
    int bad = x == (uint64_t)-1 && PyErr_Occurred();   /* negative, or wider than 64 bits */
    if (bad)
        PyErr_Clear();
    if (bad || (x & ~g->full)) {
        PyErr_Format(PyExc_ValueError, "%s is not a bitboard of the %dx%d board (negative, or squares off it)",
                     what, g->size, g->size);
        return 0;
    }
    *out = x;
    return 1;
}

static int check_square(const ot_geom *g, int sq)
{
    if (sq >= 0 && sq < g->cells)
        return 1;
    PyErr_Format(PyExc_ValueError, "square must be 0..%d on a %dx%d board, not %d", g->cells - 1, g->size, g->size, sq);
    return 0;
}

/* the tables and both sides' discs of a parsed (size, me, opp), as every function starts; 0 with an
 * exception set when one is bad */
static int read_position(int size, PyObject *mo, PyObject *oo, const ot_geom **g, uint64_t *me, uint64_t *opp)
{
    return (*g = geometry(size)) != NULL && read_bb(*g, mo, me, "me") && read_bb(*g, oo, opp, "opp");
}

/* move_mask(size, me, opp) -> the squares where me flips a disc (games.othello.move_mask) */
static PyObject *py_move_mask(PyObject *self, PyObject *args)
{
    int size;
    PyObject *mo, *oo;
    uint64_t me, opp;
    const ot_geom *g;
    if (!PyArg_ParseTuple(args, "iOO:move_mask", &size, &mo, &oo)
        || !read_position(size, mo, oo, &g, &me, &opp))
        return NULL;
    return PyLong_FromUnsignedLongLong(ot_move_mask(g, me, opp));
}

/* flips(size, me, opp, square) -> the discs me flips there (games.othello.flips) */
static PyObject *py_flips(PyObject *self, PyObject *args)
{
    int square;
    int size;
    PyObject *mo, *oo;
    uint64_t me, opp;
    const ot_geom *g;
    if (!PyArg_ParseTuple(args, "iOOi:flips", &size, &mo, &oo, &square)
        || !read_position(size, mo, oo, &g, &me, &opp))
        return NULL;
    if (!check_square(g, square))
        return NULL;
    return PyLong_FromUnsignedLongLong(ot_flips(g, me, opp, square));
}

/* play(size, me, opp, square) -> (me, opp) of the position after it, the opponent to move
 * (OthelloState.apply of a square) */
static PyObject *py_play(PyObject *self, PyObject *args)
{
    int square;
    int size;
    PyObject *mo, *oo;
    uint64_t me, opp;
    const ot_geom *g;
    if (!PyArg_ParseTuple(args, "iOOi:play", &size, &mo, &oo, &square)
        || !read_position(size, mo, oo, &g, &me, &opp))
        return NULL;
    if (!check_square(g, square))
        return NULL;
    uint64_t f = ot_flips(g, me, opp, square);
    return Py_BuildValue("(KK)", (unsigned long long)(opp ^ f), (unsigned long long)(me | f | (uint64_t)1 << square));
}

/* legal(size, me, opp) -> (move mask, legal actions): the squares ascending, (pass,) when only the
 * opponent can move, () when neither can (OthelloState.legal_mask and _legal_tuple) */
static PyObject *py_legal(PyObject *self, PyObject *args)
{
    int size;
    PyObject *mo, *oo;
    uint64_t me, opp;
    const ot_geom *g;
    if (!PyArg_ParseTuple(args, "iOO:legal", &size, &mo, &oo)
        || !read_position(size, mo, oo, &g, &me, &opp))
        return NULL;
    uint64_t mask = ot_move_mask(g, me, opp);
    PyObject *acts;
    if (mask) {
        acts = PyTuple_New(ot_popcount(mask));
        if (acts == NULL)
            return NULL;
        Py_ssize_t k = 0;
        for (uint64_t m = mask; m; m &= m - 1) {
            PyObject *v = PyLong_FromLong(ot_ctz(m));
            if (v == NULL) {
                Py_DECREF(acts);
                return NULL;
            }
            PyTuple_SET_ITEM(acts, k++, v);
        }
    } else if (ot_move_mask(g, opp, me)) {
        acts = Py_BuildValue("(i)", g->cells);
    } else {
        acts = PyTuple_New(0);
    }
    if (acts == NULL)
        return NULL;
    return Py_BuildValue("(KN)", (unsigned long long)mask, acts);
}

/* wins_at_once(size, me, opp) -> a move takes every opposing disc, or fills the last square with
 * a majority (the shortcut of OthelloState.proven_value) */
static PyObject *py_wins_at_once(PyObject *self, PyObject *args)
{
    int size;
    PyObject *mo, *oo;
    uint64_t me, opp;
    const ot_geom *g;
    if (!PyArg_ParseTuple(args, "iOO:wins_at_once", &size, &mo, &oo)
        || !read_position(size, mo, oo, &g, &me, &opp))
        return NULL;
    uint64_t mask = ot_move_mask(g, me, opp);
    int fills = ot_popcount(me | opp) == g->cells - 1;
    for (; mask; mask &= mask - 1) {
        int sq = ot_ctz(mask);
        uint64_t f = ot_flips(g, me, opp, sq);
        if (f == opp || (fills && 2 * ot_popcount(me | f | (uint64_t)1 << sq) > g->cells))
            Py_RETURN_TRUE;
    }
    Py_RETURN_FALSE;
}

/* solve's table of solved positions is shared between calls, so solves take this lock; one with
 * RELEASE_EMPTIES empty squares or more lets other threads run meanwhile (a short one keeps the GIL) */
static PyThread_type_lock solve_lock;
#define RELEASE_EMPTIES 10

/* takes solve_lock without ever waiting for it while holding the GIL (its holder may need the GIL) */
static void take_solve_lock(void)
{
    if (!PyThread_acquire_lock(solve_lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(solve_lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
}

/* solve(size, me, opp) -> 1, 0 or -1 (games.othello.solve) */
static PyObject *py_solve(PyObject *self, PyObject *args)
{
    int size;
    PyObject *mo, *oo;
    uint64_t me, opp;
    const ot_geom *g;
    if (!PyArg_ParseTuple(args, "iOO:solve", &size, &mo, &oo)
        || !read_position(size, mo, oo, &g, &me, &opp))
        return NULL;
    int v;
    take_solve_lock();
    if (ot_popcount(g->full ^ (me | opp)) >= RELEASE_EMPTIES) {
        Py_BEGIN_ALLOW_THREADS
        v = ot_solve(g, me, opp);
        Py_END_ALLOW_THREADS
    } else {
        v = ot_solve(g, me, opp);
    }
    PyThread_release_lock(solve_lock);
    return PyLong_FromLong(v);
}

/* solve_clear() -> None: forgets the positions solve keeps */
static PyObject *py_solve_clear(PyObject *self, PyObject *args)
{
    take_solve_lock();
    ot_solve_clear();
    PyThread_release_lock(solve_lock);
    Py_RETURN_NONE;
}

/* solve_margin(size, me, opp, budget) -> (margin, budget left), (None, budget left) past the
 * budget (games.othello.solve_margin with its counter given and returned) */
static PyObject *py_solve_margin(PyObject *self, PyObject *args)
{
    long long budget;
    int size;
    PyObject *mo, *oo;
    uint64_t me, opp;
    const ot_geom *g;
    if (!PyArg_ParseTuple(args, "iOOL:solve_margin", &size, &mo, &oo, &budget)
        || !read_position(size, mo, oo, &g, &me, &opp))
        return NULL;
    int v;
    if (budget >= RELEASE_BUDGET) {
        Py_BEGIN_ALLOW_THREADS
        v = ot_solve_margin(g, me, opp, &budget);
        Py_END_ALLOW_THREADS
    } else {
        v = ot_solve_margin(g, me, opp, &budget);
    }
    if (v == OT_NO_MEMORY)
        return PyErr_NoMemory();
    if (v == OT_BUDGET_EXCEEDED)
        return Py_BuildValue("(OL)", Py_None, budget);
    return Py_BuildValue("(iL)", v, budget);
}

/* perft(size, me, opp, depth) -> [nodes at ply 1, 2, ..., depth] (OthelloState.perft_counts) */
static PyObject *py_perft(PyObject *self, PyObject *args)
{
    int depth;
    int size;
    PyObject *mo, *oo;
    uint64_t me, opp;
    const ot_geom *g;
    if (!PyArg_ParseTuple(args, "iOOi:perft", &size, &mo, &oo, &depth)
        || !read_position(size, mo, oo, &g, &me, &opp))
        return NULL;
    if (depth < 0)
        depth = 0;
    uint64_t nodes[OT_MAX_PLIES];
    int walked = depth < OT_MAX_PLIES ? depth : OT_MAX_PLIES;   /* no game is longer: the rest are 0 */
    if (walked >= RELEASE_DEPTH) {
        Py_BEGIN_ALLOW_THREADS
        ot_perft(g, me, opp, walked, nodes);
        Py_END_ALLOW_THREADS
    } else {
        ot_perft(g, me, opp, walked, nodes);
    }
    PyObject *out = PyList_New(depth);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < depth; i++) {
        PyObject *v = PyLong_FromUnsignedLongLong(i < walked ? nodes[i] : 0);
        if (v == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

/* encode(size, me, opp, legal) -> bytearray of 3 x size x size float32 (OthelloState.encode) */
static PyObject *py_encode(PyObject *self, PyObject *args)
{
    PyObject *lo;
    uint64_t legal;
    int size;
    PyObject *mo, *oo;
    uint64_t me, opp;
    const ot_geom *g;
    if (!PyArg_ParseTuple(args, "iOOO:encode", &size, &mo, &oo, &lo)
        || !read_position(size, mo, oo, &g, &me, &opp))
        return NULL;
    if (!read_bb(g, lo, &legal, "legal"))
        return NULL;
    Py_ssize_t bytes = (Py_ssize_t)OT_NUM_PLANES * g->cells * (Py_ssize_t)sizeof(float);
    PyObject *out = PyByteArray_FromStringAndSize(NULL, bytes);
    if (out != NULL)
        ot_encode(g, me, opp, legal, (float *)PyByteArray_AS_STRING(out));
    return out;
}

static PyMethodDef methods[] = {
    {"move_mask", py_move_mask, METH_VARARGS, "move_mask(size, me, opp) -> the squares where me flips a disc"},
    {"flips", py_flips, METH_VARARGS, "flips(size, me, opp, square) -> the discs of opp that me flips there"},
    {"play", py_play, METH_VARARGS, "play(size, me, opp, square) -> (me, opp) after it, the opponent to move"},
    {"legal", py_legal, METH_VARARGS,
     "legal(size, me, opp) -> (move mask, legal actions: the squares, (pass,) or () when the game is over)"},
    {"wins_at_once", py_wins_at_once, METH_VARARGS,
     "wins_at_once(size, me, opp) -> a move takes every opposing disc or fills the board with a majority"},
    {"solve", py_solve, METH_VARARGS, "solve(size, me, opp) -> 1 a win, 0 a draw, -1 a loss with perfect play"},
    {"solve_clear", py_solve_clear, METH_NOARGS, "solve_clear() -> forgets the positions solve keeps"},
    {"solve_margin", py_solve_margin, METH_VARARGS,
     "solve_margin(size, me, opp, budget) -> (final disc margin or None past the budget, budget left)"},
    {"perft", py_perft, METH_VARARGS, "perft(size, me, opp, depth) -> nodes at each ply"},
    {"encode", py_encode, METH_VARARGS, "encode(size, me, opp, legal) -> bytearray of 3 x size x size float32"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_othello_c",
                                    "The compiled othello rules and endgame solvers (games.othello: the reference).",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__othello_c(void)
{
    if (solve_lock == NULL && (solve_lock = PyThread_allocate_lock()) == NULL)
        return PyErr_NoMemory();
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
