/* games._connect4_c: Connect Four's compiled rules and endgame solvers (games/csrc/connect4_rules.c)
 * for Python.
 *
 * A bitboard crosses the boundary as the Python state's int (7 bits per column, the sentinel
 * included) and lives in C as one 64-bit word. games/connect4.py calls these where it would run its
 * own code (games/native.py loads the module; without it the Python runs);
 * tests/test_connect4_compiled.py compares the two.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>

#include "connect4_rules.h"

/* bumped whenever a function's meaning or signature changes: games/native.py refuses a stale build */
#define API_VERSION 2

/* a solve with this many empty cells or more, a distance solve allowed this many positions or
 * more, or a perft this deep, lets other threads run meanwhile; shorter ones keep the GIL, whose
 * release and re-take would cost more than they do */
#define RELEASE_EMPTIES 12
#define RELEASE_BUDGET 4096
#define RELEASE_DEPTH 6

/* a bitboard from a Python int with no bit off the 42 cells; 0 with an exception set otherwise */
static int read_bb(PyObject *obj, uint64_t *out, const char *what)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int bitboard, not %.60s", what, Py_TYPE(obj)->tp_name);
        return 0;
    }
    uint64_t x = PyLong_AsUnsignedLongLong(obj);
    int bad = x == (uint64_t)-1 && PyErr_Occurred();   /* negative, or wider than 64 bits */
    if (bad)
        PyErr_Clear();
    if (bad || (x & ~C4_BOARD)) {
        PyErr_Format(PyExc_ValueError, "%s is not a Connect Four bitboard (negative, or bits off the 7x6 cells)",
                     what);
        return 0;
    }
    *out = x;
    return 1;
}

/* the side to move's stones and all stones of a position, as every position function starts: the
 * columns filled from the bottom up, the mover's stones among them; 0 with an exception set otherwise */
static int read_position(PyObject *co, PyObject *mo, uint64_t *cur, uint64_t *mask)
{
    if (!read_bb(co, cur, "cur") || !read_bb(mo, mask, "mask"))
        return 0;
    if (!c4_valid_mask(*mask)) {
        PyErr_SetString(PyExc_ValueError, "mask is not a Connect Four position (a stone above an empty cell)");
        return 0;
    }
    if (*cur & ~*mask) {
        PyErr_SetString(PyExc_ValueError, "cur has stones where mask has none");
        return 0;
    }
    return 1;
}

/* has_four(stones) -> four in a row somewhere (games.connect4.has_four) */
static PyObject *py_has_four(PyObject *self, PyObject *arg)
{
    uint64_t stones;
    if (!read_bb(arg, &stones, "stones"))
        return NULL;
    return PyBool_FromLong(c4_has_four(stones));
}

/* winning_cells(stones, mask) -> the empty cells where one more stone makes four (games.connect4.winning_cells) */
static PyObject *py_winning_cells(PyObject *self, PyObject *args)
{
    PyObject *so, *mo;
    uint64_t stones, mask;
    if (!PyArg_ParseTuple(args, "OO:winning_cells", &so, &mo) || !read_bb(so, &stones, "stones")
        || !read_bb(mo, &mask, "mask"))
        return NULL;
    return PyLong_FromUnsignedLongLong(c4_winning_cells(stones, mask));
}

/* play(cur, mask, column) -> (cur, mask, won): the position after a stone in the column, the
 * opponent to move, and whether the stone made four (Connect4State.apply) */
static PyObject *py_play(PyObject *self, PyObject *args)
{
    PyObject *co, *mo;
    int column;
    uint64_t cur, mask;
    if (!PyArg_ParseTuple(args, "OOi:play", &co, &mo, &column) || !read_position(co, mo, &cur, &mask))
        return NULL;
    if (column < 0 || column >= C4_WIDTH || mask >> (column * C4_STRIDE + C4_HEIGHT - 1) & 1) {
        PyErr_Format(PyExc_ValueError, "column must be an open column 0..6, not %d", column);
        return NULL;
    }
    uint64_t new_mask = mask | (mask + ((uint64_t)1 << (column * C4_STRIDE)));
    uint64_t mover = cur | (new_mask ^ mask);
    return Py_BuildValue("(KKO)", (unsigned long long)(mover ^ new_mask), (unsigned long long)new_mask,
                         c4_has_four(mover) ? Py_True : Py_False);
}

/* shortcut(cur, mask) -> 1 a win at once, -1 two threats against the mover, 0 neither (the
 * shortcut of Connect4State.proven_value) */
static PyObject *py_shortcut(PyObject *self, PyObject *args)
{
    PyObject *co, *mo;
    uint64_t cur, mask;
    if (!PyArg_ParseTuple(args, "OO:shortcut", &co, &mo) || !read_position(co, mo, &cur, &mask))
        return NULL;
    return PyLong_FromLong(c4_shortcut(cur, mask));
}

/* solve's table of solved positions is shared between calls, so solves take this lock */
static PyThread_type_lock solve_lock;

/* takes solve_lock without ever waiting for it while holding the GIL (its holder may need the GIL) */
static void take_solve_lock(void)
{
    if (!PyThread_acquire_lock(solve_lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(solve_lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
}

/* c4_solve, or with a budget (not NULL) c4_solve_within, under solve_lock */
static int locked_solve(uint64_t cur, uint64_t mask, long long *budget)
{
    int v;
    take_solve_lock();
    if (C4_CELLS - c4_popcount(mask) >= RELEASE_EMPTIES) {
        Py_BEGIN_ALLOW_THREADS
        v = budget != NULL ? c4_solve_within(cur, mask, budget) : c4_solve(cur, mask);
        Py_END_ALLOW_THREADS
    } else {
        v = budget != NULL ? c4_solve_within(cur, mask, budget) : c4_solve(cur, mask);
    }
    PyThread_release_lock(solve_lock);
    return v;
}

/* solve(cur, mask) -> 1, 0 or -1 (games.connect4.solve) */
static PyObject *py_solve(PyObject *self, PyObject *args)
{
    PyObject *co, *mo;
    uint64_t cur, mask;
    if (!PyArg_ParseTuple(args, "OO:solve", &co, &mo) || !read_position(co, mo, &cur, &mask))
        return NULL;
    return PyLong_FromLong(locked_solve(cur, mask, NULL));
}

/* solve_within(cur, mask, budget) -> (result, budget left), or (None, -1) past the budget
 * (games.connect4.solve_within) */
static PyObject *py_solve_within(PyObject *self, PyObject *args)
{
    PyObject *co, *mo;
    uint64_t cur, mask;
    long long budget;
    if (!PyArg_ParseTuple(args, "OOL:solve_within", &co, &mo, &budget) || !read_position(co, mo, &cur, &mask))
        return NULL;
    int v = locked_solve(cur, mask, &budget);
    if (v == C4_BUDGET_EXCEEDED)
        return Py_BuildValue("(OL)", Py_None, budget);
    return Py_BuildValue("(iL)", v, budget);
}

/* solve_clear() -> None: forgets the positions solve keeps */
static PyObject *py_solve_clear(PyObject *self, PyObject *args)
{
    take_solve_lock();
    c4_solve_clear();
    PyThread_release_lock(solve_lock);
    Py_RETURN_NONE;
}

/* solve_distance(cur, mask, budget) -> ((result, plies), budget left), (None, budget left) past the
 * budget (games.connect4.solve_distance with its counter given and returned) */
static PyObject *py_solve_distance(PyObject *self, PyObject *args)
{
    PyObject *co, *mo;
    long long budget;
    uint64_t cur, mask;
    if (!PyArg_ParseTuple(args, "OOL:solve_distance", &co, &mo, &budget) || !read_position(co, mo, &cur, &mask))
        return NULL;
    int result = locked_solve(cur, mask, NULL);
    if (result == 0)
        return Py_BuildValue("((ii)L)", 0, 0, budget);
    int plies;
    if (budget >= RELEASE_BUDGET) {
        Py_BEGIN_ALLOW_THREADS
        plies = c4_distance(cur, mask, result, &budget);
        Py_END_ALLOW_THREADS
    } else {
        plies = c4_distance(cur, mask, result, &budget);
    }
    if (plies == C4_NO_MEMORY)
        return PyErr_NoMemory();
    if (plies == C4_NOT_FOUND) {   /* the reference raises the same: no game reaches such a position */
        PyErr_SetString(PyExc_AssertionError, "a solved win or loss is within the empty cells");
        return NULL;
    }
    if (plies == C4_BUDGET_EXCEEDED)
        return Py_BuildValue("(OL)", Py_None, budget);
    return Py_BuildValue("((ii)L)", result, plies, budget);
}

/* perft(cur, mask, depth) -> [nodes at ply 1, 2, ..., depth] (Connect4State.perft_counts of a
 * position nobody has won) */
static PyObject *py_perft(PyObject *self, PyObject *args)
{
    PyObject *co, *mo;
    int depth;
    uint64_t cur, mask;
    if (!PyArg_ParseTuple(args, "OOi:perft", &co, &mo, &depth) || !read_position(co, mo, &cur, &mask))
        return NULL;
    if (depth < 0)
        depth = 0;
    uint64_t nodes[C4_CELLS];
    int walked = depth < C4_CELLS ? depth : C4_CELLS;   /* no game is longer: the rest are 0 */
    if (walked >= RELEASE_DEPTH) {
        Py_BEGIN_ALLOW_THREADS
        c4_perft(cur, mask, walked, nodes);
        Py_END_ALLOW_THREADS
    } else {
        c4_perft(cur, mask, walked, nodes);
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

/* encode(cur, mask) -> bytearray of 2 x 6 x 7 float32 (Connect4State.encode) */
static PyObject *py_encode(PyObject *self, PyObject *args)
{
    PyObject *co, *mo;
    uint64_t cur, mask;
    if (!PyArg_ParseTuple(args, "OO:encode", &co, &mo) || !read_position(co, mo, &cur, &mask))
        return NULL;
    PyObject *out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(C4_NUM_PLANES * C4_CELLS * sizeof(float)));
    if (out != NULL)
        c4_encode(cur, mask, (float *)PyByteArray_AS_STRING(out));
    return out;
}

static PyMethodDef methods[] = {
    {"has_four", py_has_four, METH_O, "has_four(stones) -> four in a row somewhere"},
    {"winning_cells", py_winning_cells, METH_VARARGS,
     "winning_cells(stones, mask) -> the empty cells where one more stone makes four"},
    {"play", py_play, METH_VARARGS,
     "play(cur, mask, column) -> (cur, mask, won) after a stone there, the opponent to move"},
    {"shortcut", py_shortcut, METH_VARARGS,
     "shortcut(cur, mask) -> 1 a win at once, -1 two threats against the mover, 0 neither"},
    {"solve", py_solve, METH_VARARGS, "solve(cur, mask) -> 1 a win, 0 a draw, -1 a loss with perfect play"},
    {"solve_within", py_solve_within, METH_VARARGS,
     "solve_within(cur, mask, budget) -> (result, budget left), or (None, -1) past the budget"},
    {"solve_clear", py_solve_clear, METH_NOARGS, "solve_clear() -> forgets the positions solve keeps"},
    {"solve_distance", py_solve_distance, METH_VARARGS,
     "solve_distance(cur, mask, budget) -> ((result, plies) or None past the budget, budget left)"},
    {"perft", py_perft, METH_VARARGS, "perft(cur, mask, depth) -> nodes at each ply"},
    {"encode", py_encode, METH_VARARGS, "encode(cur, mask) -> bytearray of 2 x 6 x 7 float32"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_connect4_c",
                                    "The compiled Connect Four rules and endgame solvers (games.connect4: the reference).",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__connect4_c(void)
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
