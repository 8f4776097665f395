/* games._xiangqi_c: the compiled xiangqi rules (games/csrc/xiangqi_rules.c) for Python.
 *
 * The API is coarse (one call per position: all legal moves, a move made, the end-of-game
 * checks, the network's input, a perft, an exchange search), so Python's per-call cost is paid
 * once per position, not once per square. A board crosses the boundary as a sequence of 90 ints
 * (the state's tuple) and lives in C as 90 signed bytes. games/native.py loads this module and
 * falls back to the Python rules without it; tests/test_xiangqi_compiled.py compares the two.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "xiangqi_rules.h"

/* bumped whenever a function's meaning or signature changes: games/native.py refuses a stale build */
#define API_VERSION 6
#define NSQ XQ_SQUARES

/* the end reasons as games.xiangqi names them, by XQ_CHECKMATE ... XQ_NO_CAPTURE */
static PyObject *reasons[6];

/* 90 ints in -7..7 from a tuple or list, or 90 signed bytes (a packed board, as child() gives it),
 * into b; 0 with an exception set on bad input */
static int read_board(PyObject *obj, int8_t *b)
{
    if (PyBytes_CheckExact(obj)) {
        if (PyBytes_GET_SIZE(obj) != NSQ) {
            PyErr_Format(PyExc_ValueError, "a packed xiangqi board has 90 bytes, not %zd", PyBytes_GET_SIZE(obj));
            return 0;
        }
        memcpy(b, PyBytes_AS_STRING(obj), NSQ);
        for (int i = 0; i < NSQ; i++)
            if (b[i] < -XQ_SOLDIER || b[i] > XQ_SOLDIER) {
                PyErr_Format(PyExc_ValueError, "square %d holds %d, not a piece code (-7..7)", i, b[i]);
                return 0;
            }
        return 1;
    }
    PyObject *seq = PySequence_Fast(obj, "a xiangqi board must be a sequence of 90 ints");
    if (seq == NULL)
        return 0;
    if (PySequence_Fast_GET_SIZE(seq) != NSQ) {
        PyErr_Format(PyExc_ValueError, "a xiangqi board has 90 squares, not %zd", PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return 0;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (int i = 0; i < NSQ; i++) {
        long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return 0;
        }
        if (v < -XQ_SOLDIER || v > XQ_SOLDIER) {
            PyErr_Format(PyExc_ValueError, "square %d holds %ld, not a piece code (-7..7)", i, v);
            Py_DECREF(seq);
            return 0;
        }
        b[i] = (int8_t)v;
    }
    Py_DECREF(seq);
    return 1;
}

static int check_player(int player)
{
    if (player == 0 || player == 1)
        return 1;
    PyErr_Format(PyExc_ValueError, "player must be 0 (Red) or 1 (Black), not %d", player);
    return 0;
}

static int check_square(int s)
{
    if (s >= 0 && s < NSQ)
        return 1;
    PyErr_Format(PyExc_ValueError, "square must be 0..89, not %d", s);
    return 0;
}

#define BOARD_AND_PLAYER(args, name, b, player)                                  \
    PyObject *board_obj;                                                         \
    int player;                                                                  \
    int8_t b[NSQ];                                                               \
    if (!PyArg_ParseTuple(args, "Oi:" name, &board_obj, &player) || !check_player(player) || !read_board(board_obj, b)) \
        return NULL;

static PyObject *py_legal_moves(PyObject *self, PyObject *args)
{
    BOARD_AND_PLAYER(args, "legal_moves", b, player)
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_legal_moves(b, player, moves);
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *mv = Py_BuildValue("(ii)", moves[i].f, moves[i].t);
        if (mv == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, mv);
    }
    return out;
}

/* the actions in increasing order (distinct values); insertion sort: the moves come roughly
 * ordered already and are few (at most a few dozen), where qsort's calls and buffer cost more */
static void sort_actions(int *a, int n)
{
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i;
        for (; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

static PyObject *py_legal_actions(PyObject *self, PyObject *args)
{
    BOARD_AND_PLAYER(args, "legal_actions", b, player)
    xq_move moves[XQ_MAX_MOVES];
    int actions[XQ_MAX_MOVES];
    int n = xq_legal_moves(b, player, moves);
    for (int i = 0; i < n; i++)
        actions[i] = xq_action(player, moves[i].f, moves[i].t);
    sort_actions(actions, n);
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *a = PyLong_FromLong(actions[i]);
        if (a == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, a);
    }
    return out;
}

static PyObject *py_count_legal(PyObject *self, PyObject *args)
{
    BOARD_AND_PLAYER(args, "count_legal", b, player)
    return PyLong_FromLong(xq_count_legal(b, player));
}

static PyObject *py_has_legal_move(PyObject *self, PyObject *args)
{
    BOARD_AND_PLAYER(args, "has_legal_move", b, player)
    return PyBool_FromLong(xq_has_legal_move(b, player));
}

static PyObject *py_in_check(PyObject *self, PyObject *args)
{
    BOARD_AND_PLAYER(args, "in_check", b, player)
    return PyBool_FromLong(xq_in_check(b, player));
}

static PyObject *py_mate_in_one(PyObject *self, PyObject *args)
{
    BOARD_AND_PLAYER(args, "mate_in_one", b, player)
    return PyBool_FromLong(xq_mate_in_one(b, player));
}

static PyObject *py_attacked(PyObject *self, PyObject *args)
{
    PyObject *board_obj;
    int g, s;
    int8_t b[NSQ];
    if (!PyArg_ParseTuple(args, "Oii:attacked", &board_obj, &g, &s) || !check_square(g) || !read_board(board_obj, b))
        return NULL;
    if (s != 1 && s != -1) {
        PyErr_Format(PyExc_ValueError, "the side's sign must be +1 or -1, not %d", s);
        return NULL;
    }
    return PyBool_FromLong(xq_attacked(b, g, s));
}

static PyObject *py_perft(PyObject *self, PyObject *args)
{
    PyObject *board_obj;
    int player, depth;
    int8_t b[NSQ];
    if (!PyArg_ParseTuple(args, "Oii:perft", &board_obj, &player, &depth) || !check_player(player)
        || !read_board(board_obj, b))
        return NULL;
    if (depth > 64) {
        PyErr_Format(PyExc_ValueError, "perft depth must be at most 64, not %d", depth);
        return NULL;
    }
    if (depth < 0)   /* as games.xiangqi_moves.perft_counts: no plies, no counts */
        depth = 0;
    long long counts[64] = {0};
    Py_BEGIN_ALLOW_THREADS
    xq_perft(b, player, depth, counts);
    Py_END_ALLOW_THREADS
    PyObject *out = PyList_New(depth);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < depth; i++) {
        PyObject *c = PyLong_FromLongLong(counts[i]);
        if (c == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, c);
    }
    return out;
}

/* make_move(board, from, to) -> (the board after it as a tuple, the captured code, is the side to move next in check) */
static PyObject *py_make_move(PyObject *self, PyObject *args)
{
    PyObject *board_obj;
    int f, t;
    int8_t b[NSQ];
    if (!PyArg_ParseTuple(args, "Oii:make_move", &board_obj, &f, &t) || !check_square(f) || !check_square(t)
        || !read_board(board_obj, b))
        return NULL;
    if (!b[f]) {
        PyErr_Format(PyExc_ValueError, "no piece on square %d to move", f);
        return NULL;
    }
    int8_t p = b[f], q = b[t];
    b[t] = p;
    b[f] = 0;
    int check = xq_in_check(b, p > 0 ? 1 : 0);
    PyObject *tuple = PyTuple_New(NSQ);
    if (tuple == NULL)
        return NULL;
    for (int i = 0; i < NSQ; i++)
        PyTuple_SET_ITEM(tuple, i, PyLong_FromLong(b[i]));   /* -7..7: CPython's cached small ints, never NULL */
    PyObject_GC_UnTrack(tuple);   /* ints only: no cycle to look for (as child() does) */
    return Py_BuildValue("(NiO)", tuple, (int)q, check ? Py_True : Py_False);
}

/* The hashes and check flags of a position's history (tuples of equal length, not empty) into
 * C arrays: *hashes and *flags point at the caller's 256-long space, or at the heap past that
 * (*on_heap, to free with free_history). 0 with an exception set on bad input. */
static int read_history(PyObject *history, PyObject *checks, uint64_t *hash_space, uint8_t *flag_space,
                        uint64_t **hashes, uint8_t **flags, Py_ssize_t *len, int *on_heap)
{
    *len = PyTuple_GET_SIZE(history);
    *on_heap = 0;
    if (*len == 0 || PyTuple_GET_SIZE(checks) != *len || *len > 100000) {
        PyErr_SetString(PyExc_ValueError, "history and checks must be equally long and not empty");
        return 0;
    }
    /* a game's history since the last capture is at most ~121 positions: the heap only past that */
    *on_heap = *len > 256;
    *hashes = *on_heap ? PyMem_Malloc((size_t)*len * sizeof **hashes) : hash_space;
    *flags = *on_heap ? PyMem_Malloc((size_t)*len) : flag_space;
    if (*hashes == NULL || *flags == NULL) {
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t i = 0; i < *len; i++) {
        (*hashes)[i] = PyLong_AsUnsignedLongLongMask(PyTuple_GET_ITEM(history, i));
        int c = PyObject_IsTrue(PyTuple_GET_ITEM(checks, i));
        if (((*hashes)[i] == (uint64_t)-1 && PyErr_Occurred()) || c < 0)
            return 0;
        (*flags)[i] = (uint8_t)c;
    }
    return 1;
}

static void free_history(uint64_t *hashes, uint8_t *flags, int on_heap)
{
    if (on_heap) {
        PyMem_Free(hashes);
        PyMem_Free(flags);
    }
}

/* (over, winner or None, end reason or None) as games.xiangqi names them */
static PyObject *goes_on;   /* (False, None, None), made once: most positions a search meets */

static PyObject *outcome_tuple(int reason, int winner)
{
    if (reason == XQ_GOES_ON) {
        Py_INCREF(goes_on);
        return goes_on;
    }
    if (winner < 0)
        return Py_BuildValue("(OOO)", Py_True, Py_None, reasons[reason]);
    return Py_BuildValue("(OiO)", Py_True, winner, reasons[reason]);
}

/* A position as outcome() and leaf() take it, read and judged (xq_outcome) */
typedef struct {
    int8_t b[NSQ];
    int player, reason, winner;
} judged_t;

/* Read (board, player, check, clock, history, checks) from args (``format`` names the caller) and
 * judge the position into *j; 0 with an exception set on bad input. */
static int judge_args(PyObject *args, const char *format, judged_t *j)
{
    PyObject *board_obj, *history, *checks;
    int check, clock;
    if (!PyArg_ParseTuple(args, format, &board_obj, &j->player, &check, &clock, &PyTuple_Type, &history,
                          &PyTuple_Type, &checks) || !check_player(j->player) || !read_board(board_obj, j->b))
        return 0;
    uint64_t hash_space[256], *hashes = NULL;
    uint8_t flag_space[256], *flags = NULL;
    Py_ssize_t len;
    int on_heap, ok = read_history(history, checks, hash_space, flag_space, &hashes, &flags, &len, &on_heap);
    if (ok)
        j->reason = xq_outcome(j->b, j->player, check, clock, hashes, flags, (int)len, &j->winner);
    free_history(hashes, flags, on_heap);
    return ok;
}

/* outcome(board, player, check, clock, history, checks) -> (over, winner or None, end reason or None):
 * games.xiangqi.XiangqiState._judge, with history the position hashes (64-bit ints) since the last
 * capture, the current one last, and checks whether each one's side to move was in check */
static PyObject *py_outcome(PyObject *self, PyObject *args)
{
    judged_t j;
    if (!judge_args(args, "OiiiO!O!:outcome", &j))
        return NULL;
    return outcome_tuple(j.reason, j.winner);
}

/* the attribute names encode_states reads (made at module init) */
static PyObject *attr_board, *attr_packed, *attr_player, *attr_clock, *attr_hash, *attr_history;

/* one state's encoding into row: its board, side to move, clock and whether its position occurred
 * before (its hash more than once in its history); 0 with an exception set */
static int encode_state(PyObject *state, int count, float *row)
{
    /* the packed board where the state has one (its tuple is made only when Python asks for it) */
    PyObject *board = PyObject_GetAttr(state, attr_packed);
    if (board == Py_None) {
        Py_DECREF(board);
        board = PyObject_GetAttr(state, attr_board);
    } else if (board == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
        PyErr_Clear();
        board = PyObject_GetAttr(state, attr_board);
    }
    PyObject *player_obj = NULL, *clock_obj = NULL, *hash = NULL,
             *history = NULL;
    int ok = 0;
    int8_t b[NSQ];
    if (board == NULL || (player_obj = PyObject_GetAttr(state, attr_player)) == NULL
        || (clock_obj = PyObject_GetAttr(state, attr_clock)) == NULL || (hash = PyObject_GetAttr(state, attr_hash)) == NULL
        || (history = PyObject_GetAttr(state, attr_history)) == NULL || !read_board(board, b))
        goto done;
    long player = PyLong_AsLong(player_obj), clock = PyLong_AsLong(clock_obj);
    if (PyErr_Occurred() || !check_player((int)player))
        goto done;
    if (!PyTuple_Check(history)) {
        PyErr_SetString(PyExc_TypeError, "a state's history must be a tuple");
        goto done;
    }
    Py_ssize_t seen = 0;   /* history.count(hash) */
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(history) && seen < 2; i++) {
        int same = PyObject_RichCompareBool(PyTuple_GET_ITEM(history, i), hash, Py_EQ);
        if (same < 0)
            goto done;
        seen += same;
    }
    xq_encode(b, (int)player, (int)clock, seen > 1, count, row);
    ok = 1;
done:
    Py_XDECREF(board);
    Py_XDECREF(player_obj);
    Py_XDECREF(clock_obj);
    Py_XDECREF(hash);
    Py_XDECREF(history);
    return ok;
}

/* encode_states(out, states, planes): encode()'s first ``planes`` planes of each of the XiangqiStates
 * ``states`` (their board, _player, _clock, _hash and _history) into rows 0.. of out, a C-contiguous
 * float32 buffer, in one call for a batch */
static PyObject *py_encode_states(PyObject *self, PyObject *args)
{
    PyObject *out_obj, *states;
    int planes;
    if (!PyArg_ParseTuple(args, "OO!i:encode_states", &out_obj, &PyList_Type, &states, &planes))
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(out_obj, &view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT) < 0)
        return NULL;
    PyObject *out = NULL;
    int count = planes < 0 ? 0 : planes > XQ_NUM_PLANES ? XQ_NUM_PLANES : planes;
    Py_ssize_t row = (Py_ssize_t)count * NSQ, n = PyList_GET_SIZE(states);
    if (view.itemsize != (Py_ssize_t)sizeof(float) || view.format == NULL || strcmp(view.format, "f") != 0) {
        PyErr_SetString(PyExc_ValueError, "encode_states writes into a C-contiguous float32 buffer");
        goto done;
    }
    if (n * row * (Py_ssize_t)sizeof(float) > view.len) {
        PyErr_Format(PyExc_ValueError, "%zd rows of %d planes do not fit a buffer of %zd bytes", n, count, view.len);
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (!encode_state(PyList_GET_ITEM(states, i), count, (float *)view.buf + i * row))
            goto done;
    Py_INCREF(Py_None);
    out = Py_None;
done:
    PyBuffer_Release(&view);
    return out;
}

/* leaf(board, player, check, clock, history, checks) -> (outcome, actions, mate, gain, capture, material):
 * what a search asks of a new position, from one reading of the board: `outcome` as outcome() gives
 * it; then, where the game goes on (else b"", False, 0, -1): the legal actions, sorted, as the bytes
 * of unsigned 16-bit ints; whether the side to move mates at once (mate_in_one); capture_gain's gain
 * at its default depth and budget and the legal action of the capture that starts it (-1: none);
 * and Red's material minus Black's (material). */
static PyObject *leaf_tuple(judged_t *j)
{
    int8_t *b = j->b;
    int player = j->player;
    uint16_t actions[XQ_MAX_MOVES];
    int n = 0, mate = 0, gain = 0, capture = -1;
    if (j->reason == XQ_GOES_ON) {
        xq_move moves[XQ_MAX_MOVES];
        int sorted[XQ_MAX_MOVES];
        n = xq_legal_moves(b, player, moves);
        for (int i = 0; i < n; i++)
            sorted[i] = xq_action(player, moves[i].f, moves[i].t);
        sort_actions(sorted, n);
        for (int i = 0; i < n; i++)
            actions[i] = (uint16_t)sorted[i];
        mate = xq_mate_among(b, player, moves, n);
        int first;
        gain = xq_capture_gain(b, player, 6, 200, &first);
        if (first >= 0) {
            int a = xq_action(player, first / NSQ, first % NSQ);
            for (int i = 0; i < n && a >= 0; i++)
                if (sorted[i] == a) {
                    capture = a;
                    break;
                }
        }
    }
    PyObject *result = outcome_tuple(j->reason, j->winner);
    if (result == NULL)
        return NULL;
    return Py_BuildValue("(Ny#Oiid)", result, (const char *)actions, (Py_ssize_t)n * 2, mate ? Py_True : Py_False,
                         gain, capture, xq_material(b));
}

static PyObject *py_leaf(PyObject *self, PyObject *args)
{
    judged_t j;
    if (!judge_args(args, "OiiiO!O!:leaf", &j))
        return NULL;
    return leaf_tuple(&j);
}

/* the Zobrist keys of games.xiangqi (set_zobrist): [code + 7][square], and Black to move */
static uint64_t zobrist[15][NSQ], zobrist_black;
static int zobrist_set = 0;

/* set_zobrist(keys, black): keys 15 x 90 64-bit ints as a flat sequence ([code + 7][square]) */
static PyObject *py_set_zobrist(PyObject *self, PyObject *args)
{
    PyObject *keys;
    unsigned long long black;
    if (!PyArg_ParseTuple(args, "OK:set_zobrist", &keys, &black))
        return NULL;
    PyObject *seq = PySequence_Fast(keys, "the keys must be a sequence of 1350 ints");
    if (seq == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 15 * NSQ) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "15 x 90 keys, not %zd", PySequence_Fast_GET_SIZE(seq));
    }
    uint64_t read[15][NSQ];
    for (int i = 0; i < 15 * NSQ; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyLong_Check(item)) {
            Py_DECREF(seq);
            return PyErr_Format(PyExc_TypeError, "key %d is not an int", i);
        }
        read[i / NSQ][i % NSQ] = PyLong_AsUnsignedLongLongMask(item);
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    memcpy(zobrist, read, sizeof zobrist);
    zobrist_black = black;
    zobrist_set = 1;
    Py_RETURN_NONE;
}

/* tup + (item,), item's reference stolen; NULL with an exception set */
static PyObject *tuple_plus(PyObject *tup, PyObject *item)
{
    if (item == NULL)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(tup);
    PyObject *out = PyTuple_New(n + 1);
    if (out == NULL) {
        Py_DECREF(item);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyTuple_GET_ITEM(tup, i);
        Py_INCREF(x);
        PyTuple_SET_ITEM(out, i, x);
    }
    PyTuple_SET_ITEM(out, n, item);
    return out;
}

/* child(board, player, from, to, hash, clock, history, checks, moves, action) -> (board, hash, clock,
 * history, checks, check, moves, outcome, actions, mate, gain, capture, material):
 * games.xiangqi.XiangqiState.apply of the move from -> to, whose policy action is ``action`` (the
 * board as 90 signed bytes, the Zobrist hash, the plies since a capture, the history and check flags since
 * then, is the side to move in check, the actions played: ``moves`` and ``action``, or None where
 * ``moves`` is None) and leaf() of
 * the position it makes, in one call that reads the board once (set_zobrist first). */
static PyObject *py_child(PyObject *self, PyObject *args)
{
    PyObject *board_obj, *history, *checks, *moves;
    int player, f, t, clock, action;
    unsigned long long parent_hash;
    judged_t j;
    if (!PyArg_ParseTuple(args, "OiiiKiO!O!Oi:child", &board_obj, &player, &f, &t, &parent_hash, &clock, &PyTuple_Type,
                          &history, &PyTuple_Type, &checks, &moves, &action)
        || !check_player(player) || !check_square(f) || !check_square(t) || !read_board(board_obj, j.b))
        return NULL;
    if (!zobrist_set)
        return PyErr_Format(PyExc_RuntimeError, "child() needs the Zobrist keys (set_zobrist)");
    if (moves != Py_None && !PyTuple_Check(moves))
        return PyErr_Format(PyExc_TypeError, "moves must be a tuple or None");
    int8_t *b = j.b, p = b[f], q = b[t];
    if (p * (player == 0 ? 1 : -1) <= 0 || q * (player == 0 ? 1 : -1) > 0)
        return PyErr_Format(PyExc_ValueError, "%d -> %d is not a move of player %d", f, t, player);
    Py_ssize_t len = PyTuple_GET_SIZE(history);
    if (len == 0 || PyTuple_GET_SIZE(checks) != len)
        return PyErr_Format(PyExc_ValueError, "history and checks must be equally long and not empty");
    b[t] = p;
    b[f] = 0;
    int other = 1 - player, check = xq_in_check(b, other);
    uint64_t h = (uint64_t)parent_hash ^ zobrist[p + 7][f] ^ zobrist[p + 7][t] ^ zobrist[q + 7][t] ^ zobrist_black;
    int new_clock = q ? 0 : clock + 1;
    /* the child's history: the parent's (none after a capture) and this position */
    PyObject *flag = check ? Py_True : Py_False, *none = PyTuple_New(0);   /* () is CPython's one empty tuple */
    if (none == NULL)
        return NULL;
    Py_INCREF(flag);
    PyObject *new_history = tuple_plus(q ? none : history, PyLong_FromUnsignedLongLong(h));
    PyObject *new_checks = tuple_plus(q ? none : checks, flag);
    Py_DECREF(none);
    /* the actions played, or None where the caller keeps them itself (a search's nodes) */
    PyObject *new_moves = moves == Py_None ? (Py_INCREF(Py_None), Py_None) : tuple_plus(moves, PyLong_FromLong(action));
    PyObject *board = NULL, *leaf = NULL, *out = NULL;
    if (new_history == NULL || new_checks == NULL || new_moves == NULL)
        goto done;
    uint64_t hash_space[256], *hashes = NULL;
    uint8_t flag_space[256], *flags = NULL;
    Py_ssize_t n;
    int on_heap, ok = read_history(new_history, new_checks, hash_space, flag_space, &hashes, &flags, &n, &on_heap);
    if (ok) {
        j.player = other;
        j.reason = xq_outcome(b, other, check, new_clock, hashes, flags, (int)n, &j.winner);
    }
    free_history(hashes, flags, on_heap);
    if (!ok || (leaf = leaf_tuple(&j)) == NULL || (board = PyBytes_FromStringAndSize((const char *)b, NSQ)) == NULL)
        goto done;
    /* tuples of ints and bools cannot be part of a reference cycle: untracked, Python's cyclic
     * collector need not walk them (it would untrack them itself, after walking a search's
     * thousands of them once) */
    PyObject_GC_UnTrack(new_history);
    PyObject_GC_UnTrack(new_checks);
    if (new_moves != Py_None) {
        int all_ints = 1;   /* the actions played: ints too, as a state's always are */
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(new_moves) && all_ints; i++)
            all_ints = PyLong_CheckExact(PyTuple_GET_ITEM(new_moves, i));
        if (all_ints)
            PyObject_GC_UnTrack(new_moves);
    }
    out = Py_BuildValue("(OKiOOOOOOOOOO)", board, (unsigned long long)h, new_clock, new_history, new_checks,
                        check ? Py_True : Py_False, new_moves, PyTuple_GET_ITEM(leaf, 0), PyTuple_GET_ITEM(leaf, 1),
                        PyTuple_GET_ITEM(leaf, 2), PyTuple_GET_ITEM(leaf, 3), PyTuple_GET_ITEM(leaf, 4),
                        PyTuple_GET_ITEM(leaf, 5));
done:
    Py_XDECREF(board);
    Py_XDECREF(leaf);
    Py_XDECREF(new_history);
    Py_XDECREF(new_checks);
    Py_XDECREF(new_moves);
    return out;
}

/* material(board) -> Red's material minus Black's in soldiers, the generals left out */
static PyObject *py_material(PyObject *self, PyObject *args)
{
    PyObject *board_obj;
    int8_t b[NSQ];
    if (!PyArg_ParseTuple(args, "O:material", &board_obj) || !read_board(board_obj, b))
        return NULL;
    return PyFloat_FromDouble(xq_material(b));
}

static PyObject *py_capture_gain(PyObject *self, PyObject *args)
{
    PyObject *board_obj;
    int player, depth = 6;
    long budget = 200;
    int8_t b[NSQ];
    if (!PyArg_ParseTuple(args, "Oi|il:capture_gain", &board_obj, &player, &depth, &budget) || !check_player(player)
        || !read_board(board_obj, b))
        return NULL;
    if (depth < 0 || depth > 64) {
        PyErr_Format(PyExc_ValueError, "capture depth must be 0..64, not %d", depth);
        return NULL;
    }
    int first, gain = xq_capture_gain(b, player, depth, budget, &first);
    if (first >= 0)
        return Py_BuildValue("(i(ii))", gain, first / NSQ, first % NSQ);
    return Py_BuildValue("(iO)", gain, Py_None);
}

/* encode(board, player, clock, repeated, planes) -> bytearray of planes x 10 x 9 float32: the first
 * `planes` planes of the network's input (games.xiangqi.XiangqiState.encode_planes) */
static PyObject *py_encode(PyObject *self, PyObject *args)
{
    PyObject *board_obj;
    int player, clock, repeated, planes;
    int8_t b[NSQ];
    if (!PyArg_ParseTuple(args, "Oiipi:encode", &board_obj, &player, &clock, &repeated, &planes)
        || !check_player(player) || !read_board(board_obj, b))
        return NULL;
    int count = planes < 0 ? 0 : planes > XQ_NUM_PLANES ? XQ_NUM_PLANES : planes;
    PyObject *out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)count * NSQ * (Py_ssize_t)sizeof(float));
    if (out != NULL)
        xq_encode(b, player, clock, repeated, count, (float *)PyByteArray_AS_STRING(out));
    return out;
}

static PyMethodDef methods[] = {
    {"legal_moves", py_legal_moves, METH_VARARGS, "legal_moves(board, player) -> [(from, to), ...] in generation order"},
    {"legal_actions", py_legal_actions, METH_VARARGS, "legal_actions(board, player) -> the legal policy actions, sorted"},
    {"count_legal", py_count_legal, METH_VARARGS, "count_legal(board, player) -> the number of legal moves"},
    {"has_legal_move", py_has_legal_move, METH_VARARGS, "has_legal_move(board, player) -> bool"},
    {"in_check", py_in_check, METH_VARARGS, "in_check(board, player) -> is player's general attacked (or facing)"},
    {"attacked", py_attacked, METH_VARARGS, "attacked(board, square, sign) -> is the general of sign on square attacked"},
    {"mate_in_one", py_mate_in_one, METH_VARARGS, "mate_in_one(board, player) -> can player mate with one move"},
    {"perft", py_perft, METH_VARARGS, "perft(board, player, depth) -> positions at plies 1..depth"},
    {"make_move", py_make_move, METH_VARARGS, "make_move(board, from, to) -> (board tuple, captured code, next side in check)"},
    {"outcome", py_outcome, METH_VARARGS,
     "outcome(board, player, check, clock, history, checks) -> (over, winner, end reason)"},
    {"encode", py_encode, METH_VARARGS,
     "encode(board, player, clock, repeated, planes) -> bytearray of planes x 10 x 9 float32 (the network input)"},
    {"leaf", py_leaf, METH_VARARGS,
     "leaf(board, player, check, clock, history, checks) -> (outcome, actions as uint16 bytes, mate in one, "
     "capture gain, its first capture's action or -1, material): one call for what a search asks of a new position"},
    {"material", py_material, METH_VARARGS, "material(board) -> Red's material minus Black's in soldiers"},
    {"encode_states", py_encode_states, METH_VARARGS,
     "encode_states(out, states, planes): encode()'s planes of each of a list of XiangqiStates into rows 0.. of out"},
    {"set_zobrist", py_set_zobrist, METH_VARARGS,
     "set_zobrist(keys, black): games.xiangqi's Zobrist keys (15 x 90, flat, [code + 7][square]) for child()"},
    {"child", py_child, METH_VARARGS,
     "child(board, player, from, to, hash, clock, history, checks, moves, action) -> (board, hash, clock, history,\n"
     "checks, check, moves, outcome, actions, mate, gain, capture, material): a move made (XiangqiState.apply)\n"
     "and leaf() of the result; the board comes back packed, 90 signed bytes (any function here reads those),\n"
     "and moves None where it went in None"},
    {"capture_gain", py_capture_gain, METH_VARARGS,
     "capture_gain(board, player, depth=6, budget=200) -> (gain, (from, to) or None)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_xiangqi_c",
                                    "The compiled xiangqi rules core (games.xiangqi_moves is its reference).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__xiangqi_c(void)
{
    xq_init();
    static const char *names[6] = {NULL, "checkmate", "stalemate", "perpetual check", "repetition",
                                   "no capture in 120 plies"};
    for (int i = 1; i < 6; i++)
        if (reasons[i] == NULL && (reasons[i] = PyUnicode_InternFromString(names[i])) == NULL)
            return NULL;
    if (goes_on == NULL && (goes_on = Py_BuildValue("(OOO)", Py_False, Py_None, Py_None)) == NULL)
        return NULL;
    if ((attr_board == NULL && (attr_board = PyUnicode_InternFromString("board")) == NULL)
        || (attr_packed == NULL && (attr_packed = PyUnicode_InternFromString("_packed")) == NULL)
        || (attr_player == NULL && (attr_player = PyUnicode_InternFromString("_player")) == NULL)
        || (attr_clock == NULL && (attr_clock = PyUnicode_InternFromString("_clock")) == NULL)
        || (attr_hash == NULL && (attr_hash = PyUnicode_InternFromString("_hash")) == NULL)
        || (attr_history == NULL && (attr_history = PyUnicode_InternFromString("_history")) == NULL))
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
