/* games._gomoku_c: the compiled gomoku rules (games/csrc/gomoku_rules.c: free-style, the threat
 * search under every rule set; games/csrc/renju_rules.c: exactly five and renju's forbidden points)
 * for Python.
 *
 * A side's stones cross the boundary as the Python state's bitboard (an int, bit row * size +
 * column) and live in C as 64-bit words; every function takes the board size first (5..26) and
 * builds that size's tables on first use. games/gomoku.py calls these where it would run its own
 * code or games/renju.py's (games/native.py loads the module; without it the Python runs);
 * tests/test_gomoku_compiled.py and tests/test_renju_compiled.py compare the two.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "gomoku_rules.h"
#include "renju_rules.h"

/* bumped whenever a function's meaning or signature changes: games/native.py refuses a stale build */
#define API_VERSION 2

/* a search that may try this many moves or more lets other threads run meanwhile; shorter ones
 * (the VCF at every visit) keep the GIL, whose release and re-take would cost more than they do */
#define RELEASE_BUDGET 256

static gk_geom *geoms[GK_MAX_SIZE + 1];

/* the tables of a size x size board, built on first use (under the GIL); NULL with an exception set */
static const gk_geom *geometry(int size)
{
    if (size < GK_MIN_SIZE || size > GK_MAX_SIZE) {
        PyErr_Format(PyExc_ValueError, "gomoku size must be %d..%d, not %d", GK_MIN_SIZE, GK_MAX_SIZE, size);
        return NULL;
    }
    if (geoms[size] == NULL) {
        gk_geom *g = PyMem_Malloc(sizeof *g);
        if (g == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        gk_geom_init(g, size);
        geoms[size] = g;
    }
    return geoms[size];
}

/* a bitboard from a Python int of at most g->cells bits; 0 with an exception set otherwise */
static int read_bb(const gk_geom *g, PyObject *obj, gk_bb *out, const char *what)
{
    unsigned char bytes[GK_WORDS * 8];
    size_t n = (size_t)g->nw * 8;
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int bitboard, not %.60s", what, Py_TYPE(obj)->tp_name);
        return 0;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(obj, bytes, (Py_ssize_t)n, Py_ASNATIVEBYTES_LITTLE_ENDIAN
                                           | Py_ASNATIVEBYTES_UNSIGNED_BUFFER | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    int bad = need < 0 || (size_t)need > n;
#else
    int bad = _PyLong_AsByteArray((PyLongObject *)obj, bytes, n, 1, 0) < 0;
#endif
    if (bad) {   /* negative, or wider than the board's words */
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s is not a bitboard of the %dx%d board (negative, or points off it)", what, g->size, g->size);
        return 0;
    }
    memset(out, 0, sizeof *out);
    for (int i = 0; i < g->nw; i++) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; b--)
            w = w << 8 | bytes[i * 8 + b];
        out->w[i] = w;
    }
    for (int i = 0; i < g->nw; i++)
        if (out->w[i] & ~g->full.w[i]) {
            PyErr_Format(PyExc_ValueError, "%s is not a bitboard of the %dx%d board (negative, or points off it)", what, g->size, g->size);
            return 0;
        }
    return 1;
}

static PyObject *bb_to_int(const gk_geom *g, const gk_bb *x)
{
    unsigned char bytes[GK_WORDS * 8];
    for (int i = 0; i < g->nw; i++)
        for (int b = 0; b < 8; b++)
            bytes[i * 8 + b] = (unsigned char)(x->w[i] >> (8 * b));
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(bytes, (size_t)g->nw * 8, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(bytes, (size_t)g->nw * 8, 1, 0);
#endif
}

static int check_point(const gk_geom *g, int p)
{
    if (p >= 0 && p < g->cells)
        return 1;
    PyErr_Format(PyExc_ValueError, "point must be 0..%d on a %dx%d board, not %d", g->cells - 1, g->size, g->size, p);
    return 0;
}

/* segment_points(size, mine, theirs, empty, count) -> int (Gomoku._segment_points) */
static PyObject *py_segment_points(PyObject *self, PyObject *args)
{
    int size, count;
    PyObject *mo, *to, *eo;
    gk_bb mine, theirs, empty, out;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOOOi:segment_points", &size, &mo, &to, &eo, &count) || !(g = geometry(size))
        || !read_bb(g, mo, &mine, "mine") || !read_bb(g, to, &theirs, "theirs") || !read_bb(g, eo, &empty, "empty"))
        return NULL;
    if (count != 2 && count != 3) {
        PyErr_Format(PyExc_ValueError, "count must be 2 or 3, not %d", count);
        return NULL;
    }
    gk_segment_points(g, &mine, &theirs, &empty, count, &out);
    return bb_to_int(g, &out);
}

/* five_through(size, stones, point) -> bool */
static PyObject *py_five_through(PyObject *self, PyObject *args)
{
    int size, point;
    PyObject *so;
    gk_bb stones;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOi:five_through", &size, &so, &point) || !(g = geometry(size))
        || !check_point(g, point) || !read_bb(g, so, &stones, "stones"))
        return NULL;
    return PyBool_FromLong(gk_five_through(g, &stones, point));
}

/* winning_points(size, stones, empty, point) -> int */
static PyObject *py_winning_points(PyObject *self, PyObject *args)
{
    int size, point;
    PyObject *so, *eo;
    gk_bb stones, empty, out;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOOi:winning_points", &size, &so, &eo, &point) || !(g = geometry(size))
        || !check_point(g, point) || !read_bb(g, so, &stones, "stones") || !read_bb(g, eo, &empty, "empty"))
        return NULL;
    gk_winning_points(g, &stones, &empty, point, &out);
    return bb_to_int(g, &out);
}

/* place(size, stones, empty, point) -> (five, new winning points): the stone on point is already in
 * stones; five in a row through it, else the points where stones now make five (0 when five) */
static PyObject *py_place(PyObject *self, PyObject *args)
{
    int size, point;
    PyObject *so, *eo;
    gk_bb stones, empty, out;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOOi:place", &size, &so, &eo, &point) || !(g = geometry(size))
        || !check_point(g, point) || !read_bb(g, so, &stones, "stones") || !read_bb(g, eo, &empty, "empty"))
        return NULL;
    if (gk_five_through(g, &stones, point))
        return Py_BuildValue("(Oi)", Py_True, 0);
    gk_winning_points(g, &stones, &empty, point, &out);
    return Py_BuildValue("(ON)", Py_False, bb_to_int(g, &out));
}

/* empty_points(size, occupied) -> the points not in occupied, ascending */
static PyObject *py_empty_points(PyObject *self, PyObject *args)
{
    int size;
    PyObject *oo;
    gk_bb occupied;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iO:empty_points", &size, &oo) || !(g = geometry(size))
        || !read_bb(g, oo, &occupied, "occupied"))
        return NULL;
    int count = 0;
    for (int i = 0; i < g->nw; i++)
        count += gk_popcount(g->full.w[i] & ~occupied.w[i]);
    PyObject *out = PyList_New(count);
    if (out == NULL)
        return NULL;
    int k = 0;
    for (int i = 0; i < g->nw; i++) {
        uint64_t w = g->full.w[i] & ~occupied.w[i];
        while (w) {
            PyObject *v = PyLong_FromLong(i * 64 + gk_ctz(w));
            if (v == NULL) {
                Py_DECREF(out);
                return NULL;
            }
            PyList_SET_ITEM(out, k++, v);
            w &= w - 1;
        }
    }
    return out;
}

/* the threat search's view of a rule set (0 free-style, 1 standard, 2 renju) with attacker (0 black,
 * 1 white) attacking (games.gomoku.ThreatRules); 0 with an exception set for a bad value */
static int read_rules(int rule, int attacker, gk_rules *out)
{
    static const int8_t exact[3][2] = {{0, 0}, {1, 1}, {1, 0}};   /* per rule, per player: exactly five */
    if (rule < 0 || rule > 2 || attacker < 0 || attacker > 1) {
        PyErr_Format(PyExc_ValueError, "rule must be 0..2 (free-style, standard, renju) and attacker 0 or 1, not %d "
                     "and %d", rule, attacker);
        return 0;
    }
    out->exact_a = exact[rule][attacker];
    out->exact_d = exact[rule][1 - attacker];
    out->renju_a = (int8_t)(rule == 2 && attacker == 0);
    out->renju_d = (int8_t)(rule == 2 && attacker == 1);
    return 1;
}

/* vct(size, a, d, a_wins, d_wins, empty, threes, fours, budget, rule=0, attacker=0) -> (first point or
 * -1, budget left): games.gomoku._vct with budget[0] given and returned, under the rule set with
 * attacker (0 black, 1 white) attacking */
static PyObject *py_vct(PyObject *self, PyObject *args)
{
    int size, threes, fours, rule = 0, attacker = 0;
    long budget;
    PyObject *ao, *dobj, *awo, *dwo, *eo;
    gk_bb a, d, aw, dw, empty;
    gk_rules rules;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOOOOOiil|ii:vct", &size, &ao, &dobj, &awo, &dwo, &eo, &threes, &fours, &budget,
                          &rule, &attacker)
        || !(g = geometry(size)) || !read_bb(g, ao, &a, "a") || !read_bb(g, dobj, &d, "d")
        || !read_bb(g, awo, &aw, "a_wins") || !read_bb(g, dwo, &dw, "d_wins") || !read_bb(g, eo, &empty, "empty")
        || !read_rules(rule, attacker, &rules))
        return NULL;
    if (threes > 64 || fours > 1024) {   /* the recursion's depth: the budget bounds it too */
        PyErr_Format(PyExc_ValueError, "threes (%d) and fours (%d) must be at most 64 and 1024", threes, fours);
        return NULL;
    }
    int first;
    if (budget >= RELEASE_BUDGET) {
        Py_BEGIN_ALLOW_THREADS
        first = gk_vct(g, &rules, &a, &d, &aw, &dw, &empty, threes, fours, &budget);
        Py_END_ALLOW_THREADS
    } else {
        first = gk_vct(g, &rules, &a, &d, &aw, &dw, &empty, threes, fours, &budget);
    }
    return Py_BuildValue("(il)", first, budget);
}

/* --- exactly five and renju's forbidden points (games.renju) --------------------------------- */

/* exact_five_through(size, stones, point) -> bool (games.renju.exact_five_through with windows6[point]) */
static PyObject *py_exact_five_through(PyObject *self, PyObject *args)
{
    int size, point;
    PyObject *so;
    gk_bb stones;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOi:exact_five_through", &size, &so, &point) || !(g = geometry(size))
        || !check_point(g, point) || !read_bb(g, so, &stones, "stones"))
        return NULL;
    return PyBool_FromLong(rj_exact_five_through(g, &stones, -1, point));
}

/* exact_winning_points(size, stones, empty, near) -> int */
static PyObject *py_exact_winning_points(PyObject *self, PyObject *args)
{
    int size;
    PyObject *so, *eo, *no;
    gk_bb stones, empty, near, out;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOOO:exact_winning_points", &size, &so, &eo, &no) || !(g = geometry(size))
        || !read_bb(g, so, &stones, "stones") || !read_bb(g, eo, &empty, "empty") || !read_bb(g, no, &near, "near"))
        return NULL;
    rj_exact_winning_points(g, &stones, &empty, &near, &out);
    return bb_to_int(g, &out);
}

/* exact_new_wins(size, stones, empty, point) -> int */
static PyObject *py_exact_new_wins(PyObject *self, PyObject *args)
{
    int size, point;
    PyObject *so, *eo;
    gk_bb stones, empty, out;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOOi:exact_new_wins", &size, &so, &eo, &point) || !(g = geometry(size))
        || !check_point(g, point) || !read_bb(g, so, &stones, "stones") || !read_bb(g, eo, &empty, "empty"))
        return NULL;
    rj_exact_new_wins(g, &stones, &empty, point, &out);
    return bb_to_int(g, &out);
}

/* exact_place(size, stones, empty, wins, point) -> (exact five through point, wins updated): the
 * stone on point is already in stones (games.renju.exact_five_through and update_exact_wins) */
static PyObject *py_exact_place(PyObject *self, PyObject *args)
{
    int size, point;
    PyObject *so, *eo, *wo;
    gk_bb stones, empty, wins;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOOOi:exact_place", &size, &so, &eo, &wo, &point) || !(g = geometry(size))
        || !check_point(g, point) || !read_bb(g, so, &stones, "stones") || !read_bb(g, eo, &empty, "empty")
        || !read_bb(g, wo, &wins, "wins"))
        return NULL;
    int five = rj_exact_five_through(g, &stones, -1, point);
    rj_update_exact_wins(g, &wins, &stones, &empty, point);
    return Py_BuildValue("(ON)", five ? Py_True : Py_False, bb_to_int(g, &wins));
}

/* forbidden_candidates(size, black, empty) -> int */
static PyObject *py_forbidden_candidates(PyObject *self, PyObject *args)
{
    int size;
    PyObject *bo, *eo;
    gk_bb black, empty, out;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOO:forbidden_candidates", &size, &bo, &eo) || !(g = geometry(size))
        || !read_bb(g, bo, &black, "black") || !read_bb(g, eo, &empty, "empty"))
        return NULL;
    rj_forbidden_candidates(g, &black, &empty, &out);
    return bb_to_int(g, &out);
}

/* forbidden_kind(size, black, white, point, depth=12) -> "overline", "double-four", "double-three" or None */
static PyObject *py_forbidden_kind(PyObject *self, PyObject *args)
{
    static const char *names[] = {NULL, "overline", "double-four", "double-three"};
    int size, point, depth = RJ_MAX_DEPTH;
    PyObject *bo, *wo;
    gk_bb black, white;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOOi|i:forbidden_kind", &size, &bo, &wo, &point, &depth) || !(g = geometry(size))
        || !check_point(g, point) || !read_bb(g, bo, &black, "black") || !read_bb(g, wo, &white, "white"))
        return NULL;
    if (depth > 64) {   /* each level adds a stone; games.renju.MAX_DEPTH is 12 */
        PyErr_Format(PyExc_ValueError, "depth must be at most 64, not %d", depth);
        return NULL;
    }
    int kind = rj_forbidden_kind(g, &black, &white, point, depth);
    if (kind == RJ_ALLOWED)
        Py_RETURN_NONE;
    return PyUnicode_FromString(names[kind]);
}

/* forbidden_points(size, black, white) -> int */
static PyObject *py_forbidden_points(PyObject *self, PyObject *args)
{
    int size;
    PyObject *bo, *wo;
    gk_bb black, white, out;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOO:forbidden_points", &size, &bo, &wo) || !(g = geometry(size))
        || !read_bb(g, bo, &black, "black") || !read_bb(g, wo, &white, "white"))
        return NULL;
    rj_forbidden_points(g, &black, &white, &out);
    return bb_to_int(g, &out);
}

/* stable_open_four(size, black, white, point) -> bool */
static PyObject *py_stable_open_four(PyObject *self, PyObject *args)
{
    int size, point;
    PyObject *bo, *wo;
    gk_bb black, white;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOOi:stable_open_four", &size, &bo, &wo, &point) || !(g = geometry(size))
        || !check_point(g, point) || !read_bb(g, bo, &black, "black") || !read_bb(g, wo, &white, "white"))
        return NULL;
    return PyBool_FromLong(rj_stable_open_four(g, &black, &white, point));
}

/* encode(size, me, opp, wins_me, wins_opp, last, black_to_move) -> bytearray of 8 x size x size
 * float32 (GomokuState.encode) */
static PyObject *py_encode(PyObject *self, PyObject *args)
{
    int size, last, black;
    PyObject *mo, *oo, *wmo, *woo;
    gk_bb me, opp, wme, wopp;
    const gk_geom *g;
    if (!PyArg_ParseTuple(args, "iOOOOip:encode", &size, &mo, &oo, &wmo, &woo, &last, &black)
        || !(g = geometry(size)) || !read_bb(g, mo, &me, "me") || !read_bb(g, oo, &opp, "opp")
        || !read_bb(g, wmo, &wme, "wins_me") || !read_bb(g, woo, &wopp, "wins_opp"))
        return NULL;
    if (last < -1 || last >= g->cells) {
        PyErr_Format(PyExc_ValueError, "last must be -1 or a point 0..%d, not %d", g->cells - 1, last);
        return NULL;
    }
    PyObject *out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)GK_NUM_PLANES * g->cells * (Py_ssize_t)sizeof(float));
    if (out != NULL)
        gk_encode(g, &me, &opp, &wme, &wopp, last, black, (float *)PyByteArray_AS_STRING(out));
    return out;
}

static PyMethodDef methods[] = {
    {"segment_points", py_segment_points, METH_VARARGS,
     "segment_points(size, mine, theirs, empty, count) -> the empty points of the five-point segments with count "
     "(2 or 3) of mine and none of theirs"},
    {"five_through", py_five_through, METH_VARARGS, "five_through(size, stones, point) -> five in a row through point"},
    {"winning_points", py_winning_points, METH_VARARGS,
     "winning_points(size, stones, empty, point) -> the empty points on point's lines that make five"},
    {"place", py_place, METH_VARARGS,
     "place(size, stones, empty, point) -> (five through point, new winning points or 0)"},
    {"empty_points", py_empty_points, METH_VARARGS, "empty_points(size, occupied) -> the other points, ascending"},
    {"vct", py_vct, METH_VARARGS,
     "vct(size, a, d, a_wins, d_wins, empty, threes, fours, budget, rule=0, attacker=0) -> (first point or -1, "
     "budget left); rule 0 free-style, 1 standard, 2 renju; attacker 0 black, 1 white"},
    {"exact_five_through", py_exact_five_through, METH_VARARGS,
     "exact_five_through(size, stones, point) -> a row of exactly five through point"},
    {"exact_winning_points", py_exact_winning_points, METH_VARARGS,
     "exact_winning_points(size, stones, empty, near) -> the points of empty & near that make exactly five"},
    {"exact_new_wins", py_exact_new_wins, METH_VARARGS,
     "exact_new_wins(size, stones, empty, point) -> the exact five points on point's lines"},
    {"exact_place", py_exact_place, METH_VARARGS,
     "exact_place(size, stones, empty, wins, point) -> (exactly five through point, the exact five points updated)"},
    {"forbidden_candidates", py_forbidden_candidates, METH_VARARGS,
     "forbidden_candidates(size, black, empty) -> the empty points that may be forbidden to black under renju"},
    {"forbidden_kind", py_forbidden_kind, METH_VARARGS,
     "forbidden_kind(size, black, white, point, depth=12) -> 'overline', 'double-four', 'double-three' or None"},
    {"forbidden_points", py_forbidden_points, METH_VARARGS,
     "forbidden_points(size, black, white) -> the empty points black may not play under renju"},
    {"stable_open_four", py_stable_open_four, METH_VARARGS,
     "stable_open_four(size, black, white, point) -> black may play point whatever white stones are added"},
    {"encode", py_encode, METH_VARARGS,
     "encode(size, me, opp, wins_me, wins_opp, last, black_to_move) -> bytearray of 8 x size x size float32"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_gomoku_c",
                                    "The compiled gomoku rules core (games.gomoku and games.renju: the reference).",
                                    -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__gomoku_c(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
