/* engine.core._winograd_c: the residual tower's 3x3 convolutions by Winograd's F(4x4, 3x3) or
 * F(5x5, 3x3) in float32 (engine/core/csrc/winograd.c) for Python, on numpy arrays through the buffer protocol
 * (no copies). engine/core/winograd.py loads it and drives a whole network; where it is missing
 * the other runtimes serve, and tests/test_winograd.py compares it with torch's convolutions.
 *
 * Three functions: the whole tower (stem and residual blocks) in one call, a dense layer for the
 * heads, and the tile size a board takes (which fixes the activations' layout and U's size). Threads: the tower and the dense layer release the GIL while they compute (tens of microseconds to milliseconds);
 * each caller passes its own activation and scratch arrays, and the weights are only read.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "winograd.h"

/* bumped whenever a function's meaning or signature changes: winograd.py refuses a stale build */
#define API_VERSION 6

/* a C-contiguous float32 buffer of at least `need` floats (writable if asked) into view */
static int float_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t need, int writable, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if (view->itemsize != 4 || view->format == NULL || strcmp(view->format, "f") != 0) {
        PyErr_Format(PyExc_TypeError, "%s must hold float32 values", what);
        PyBuffer_Release(view);
        return -1;
    }
    if (view->len / 4 < need) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd floats, fewer than the %zd needed", what, view->len / 4, need);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* 1 where a kernel's return code says it ran, else 0 with the Python error set */
static int kernel_ran(int rc, const char *what)
{
    if (rc == -2)
        PyErr_Format(PyExc_RuntimeError, "%s: this build has no kernels (compiled without GCC or Clang)", what);
    else if (rc != 0)
        PyErr_Format(PyExc_ValueError, "%s: bad sizes", what);
    return rc == 0;
}

/* the whole tower in one call: the stem (in -> a), then each block's two convolutions (a -> t ->
 * b with a as the residual, the two buffers swapping); returns 0 or 1, the buffer (a or b) holding
 * the output */
static PyObject *py_tower(PyObject *self, PyObject *args)
{
    int B, H, W, Cp, C;
    PyObject *o_in, *o_layers, *o_a, *o_b, *o_t, *o_vb, *o_mb;
    if (!PyArg_ParseTuple(args, "iiiiiOO!OOOOO", &B, &H, &W, &Cp, &C, &o_in, &PyList_Type, &o_layers, &o_a, &o_b,
                          &o_t, &o_vb, &o_mb))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(o_layers);
    if (B < 0 || H <= 0 || W <= 0 || H > 64 || W > 64 || Cp <= 0 || C <= 0 || Cp % 8 || C % 8 || Cp > 4096 || C > 4096
        || n < 1 || n % 2 == 0 || n > 2 * 256 + 1) {
        PyErr_SetString(PyExc_ValueError, "tower: a batch of 0 or more, a board of 1-64 rows and columns, channels "
                        "that are multiples of 8 up to 4096, and a list of 1 + 2 * blocks (U, bias) pairs");
        return NULL;
    }
    int m = zb_wino_tile(H, W);
    Py_ssize_t cells = (Py_ssize_t)B * ((H + m - 1) / m * m + 2) * ((W + m - 1) / m * m + 2);
    Py_ssize_t nbuf = 6 + 2 * n;
    Py_buffer *v = PyMem_Calloc((size_t)nbuf, sizeof(Py_buffer));
    if (v == NULL)
        return PyErr_NoMemory();
    int got = 0, ok = 0, result = 0;
    int fine = float_buffer(o_in, &v[got], cells * Cp, 0, "in") == 0 && ++got
        && float_buffer(o_a, &v[got], cells * C, 1, "a") == 0 && ++got
        && float_buffer(o_b, &v[got], cells * C, 1, "b") == 0 && ++got
        && float_buffer(o_t, &v[got], cells * C, 1, "t") == 0 && ++got
        && float_buffer(o_vb, &v[got], ZB_WINO_SCRATCH((Py_ssize_t)(Cp > C ? Cp : C)), 1, "Vb") == 0 && ++got
        && float_buffer(o_mb, &v[got], ZB_WINO_SCRATCH((Py_ssize_t)C), 1, "Mb") == 0 && ++got;
    for (Py_ssize_t i = 0; fine && i < n; i++) {
        PyObject *pair = PyList_GET_ITEM(o_layers, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "tower: each layer is a (U, bias) tuple");
            fine = 0;
            break;
        }
        fine = float_buffer(PyTuple_GET_ITEM(pair, 0), &v[got], (Py_ssize_t)(m + 2) * (m + 2) * (i == 0 ? Cp : C) * C, 0,
                         "U") == 0
            && ++got && float_buffer(PyTuple_GET_ITEM(pair, 1), &v[got], C, 0, "bias") == 0 && ++got;
    }
    if (fine) {
        /* the four activation buffers must not overlap one another */
        for (int i = 0; fine && i < 4; i++)
            for (int j = i + 1; fine && j < 4; j++) {
                char *p = v[i].buf, *q = v[j].buf;
                if (p < q + v[j].len && q < p + v[i].len) {
                    PyErr_SetString(PyExc_ValueError, "tower: in, a, b and t must not overlap");
                    fine = 0;
                }
            }
    }
    if (fine) {
        int rc = 0;
        float *a = v[1].buf, *b = v[2].buf, *t = v[3].buf;
        Py_BEGIN_ALLOW_THREADS
        rc = zb_wino_conv(B, H, W, Cp, C, v[0].buf, v[6].buf, v[7].buf, NULL, 1, a, v[4].buf, v[5].buf);
        for (Py_ssize_t k = 1; rc == 0 && k < n; k += 2) {
            rc = zb_wino_conv(B, H, W, C, C, a, v[6 + 2 * k].buf, v[7 + 2 * k].buf, NULL, 1, t, v[4].buf, v[5].buf);
            if (rc == 0)
                rc = zb_wino_conv(B, H, W, C, C, t, v[8 + 2 * k].buf, v[9 + 2 * k].buf, a, 1, b, v[4].buf, v[5].buf);
            float *swap = a;
            a = b;
            b = swap;
            result ^= 1;
        }
        Py_END_ALLOW_THREADS
        ok = kernel_ran(rc, "tower");
    }
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&v[i]);
    PyMem_Free(v);
    if (!ok)
        return NULL;
    return PyLong_FromLong(result);
}

/* 1 where the buffers' memory does not overlap, else 0 with the Python error set */
static int apart(const Py_buffer *v, int count, const char *what)
{
    for (int i = 0; i < count; i++)
        for (int j = i + 1; j < count; j++) {
            const char *p = v[i].buf, *q = v[j].buf;
            if (p < q + v[j].len && q < p + v[i].len) {
                PyErr_Format(PyExc_ValueError, "%s: the output and scratch arrays must not overlap", what);
                return 0;
            }
        }
    return 1;
}

/* forward(B, H, W, P, Cp, C, planes, in, layers, a, b, t, Vb, Mb, heads, scratch, logits, values): the
 * whole network in one call: planes [B][P][H][W] copied into in's board cells (channels-last, the
 * border and channels P.. left as they are: zero), tower(), then the spatial heads (zb_heads_forward)
 * into logits and values. heads: (hidden, planes, value_hidden, extra, pv1_w, pv1_b, p2_w, p2_b, v2_w,
 * v2_b, v3_w, v3_b, extra_w, extra_b), the last two None where extra is 0; scratch: at least
 * heads_scratch(...) floats. */
static PyObject *py_forward(PyObject *self, PyObject *args)
{
    int B, H, W, P, Cp, C;
    PyObject *o_planes, *o_in, *o_layers, *o_a, *o_b, *o_t, *o_vb, *o_mb, *o_heads, *o_scratch, *o_logits, *o_values;
    if (!PyArg_ParseTuple(args, "iiiiiiOOO!OOOOOO!OOO", &B, &H, &W, &P, &Cp, &C, &o_planes, &o_in, &PyList_Type,
                          &o_layers, &o_a, &o_b, &o_t, &o_vb, &o_mb, &PyTuple_Type, &o_heads, &o_scratch, &o_logits,
                          &o_values))
        return NULL;
    zb_heads h;
    if (PyTuple_GET_SIZE(o_heads) != 14) {
        PyErr_SetString(PyExc_TypeError, "forward: heads is a tuple of 4 ints and 10 arrays");
        return NULL;
    }
    int *sizes[4] = {&h.hidden, &h.planes, &h.value_hidden, &h.extra};
    for (int i = 0; i < 4; i++) {
        long value = PyLong_AsLong(PyTuple_GET_ITEM(o_heads, i));
        if (value == -1 && PyErr_Occurred())
            return NULL;
        *sizes[i] = value < -1 || value > (1 << 20) ? -1 : (int)value;
    }
    if (B < 0 || B > 4096 || H <= 0 || W <= 0 || H > 64 || W > 64 || P <= 0 || P > Cp || Cp > 4096 || C <= 0
        || C > 4096 || h.hidden <= 0 || h.hidden > 4096 || h.planes <= 0 || h.planes > 4096 || h.value_hidden <= 0
        || h.value_hidden > 65536 || h.extra < 0 || h.extra > 65536) {
        PyErr_SetString(PyExc_ValueError, "forward: sizes out of range");
        return NULL;
    }
    int m = zb_wino_tile(H, W), cells = H * W;
    Py_ssize_t Hp = (H + m - 1) / m * m + 2, Wp = (W + m - 1) / m * m + 2, padded = (Py_ssize_t)B * Hp * Wp;
    if (padded * C >= INT32_MAX || (Py_ssize_t)B * cells * (h.hidden + 1) >= INT32_MAX) {   /* the rows' offsets */
        PyErr_SetString(PyExc_ValueError, "forward: a batch too large for one call");
        return NULL;
    }
    /* the planes into in's board cells */
    Py_buffer pv, iv;
    if (float_buffer(o_planes, &pv, (Py_ssize_t)B * P * cells, 0, "planes") < 0)
        return NULL;
    if (float_buffer(o_in, &iv, padded * Cp, 1, "in") < 0) {
        PyBuffer_Release(&pv);
        return NULL;
    }
    const float *src = pv.buf;
    float *dst = iv.buf;
    for (int b = 0; b < B; b++)
        for (int c = 0; c < P; c++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++)
                    dst[(((size_t)b * Hp + y + 1) * Wp + x + 1) * Cp + c] = src[(((size_t)b * P + c) * H + y) * W + x];
    PyBuffer_Release(&pv);
    PyBuffer_Release(&iv);
    PyObject *targs = Py_BuildValue("(iiiiiOOOOOOO)", B, H, W, Cp, C, o_in, o_layers, o_a, o_b, o_t, o_vb, o_mb);
    if (targs == NULL)
        return NULL;
    PyObject *which = py_tower(self, targs);
    Py_DECREF(targs);
    if (which == NULL)
        return NULL;
    PyObject *o_out = PyLong_AsLong(which) == 0 ? o_a : o_b;
    Py_DECREF(which);
    /* the heads */
    Py_ssize_t hid = h.hidden, pp = h.planes, vh = h.value_hidden, ex = h.extra;
    Py_ssize_t need[10] = {C * (hid + 1), hid + 1, hid * pp, pp, cells * vh, vh, vh, 1, C * ex, ex};
    const char *names[10] = {"pv1_w", "pv1_b", "p2_w", "p2_b", "v2_w", "v2_b", "v3_w", "v3_b", "extra_w", "extra_b"};
    const float **dest[10] = {&h.pv1_w, &h.pv1_b, &h.p2_w, &h.p2_b, &h.v2_w, &h.v2_b, &h.v3_w, &h.v3_b, &h.extra_w,
                              &h.extra_b};
    Py_buffer v[14];
    int got = 0, ok = 0, fine = 1;
    for (int i = 0; i < 10 && fine; i++) {
        PyObject *arr = PyTuple_GET_ITEM(o_heads, 4 + i);
        if (i >= 8 && ex == 0) {
            *dest[i] = NULL;
            continue;
        }
        fine = float_buffer(arr, &v[got], need[i], 0, names[i]) == 0;
        if (fine)
            *dest[i] = v[got++].buf;
    }
    int first_out = got;
    fine = fine && float_buffer(o_out, &v[got], padded * C, 0, "tower output") == 0 && ++got
        && float_buffer(o_scratch, &v[got], (Py_ssize_t)zb_heads_scratch(B, H, W, C, &h), 1, "scratch") == 0 && ++got
        && float_buffer(o_logits, &v[got], (Py_ssize_t)B * (pp * cells + ex), 1, "logits") == 0 && ++got
        && float_buffer(o_values, &v[got], B, 1, "values") == 0 && ++got
        && apart(v + first_out, 4, "forward");
    if (fine) {
        int rc;
        const float *out = v[first_out].buf;
        float *scratch = v[first_out + 1].buf, *logits = v[first_out + 2].buf, *values = v[first_out + 3].buf;
        Py_BEGIN_ALLOW_THREADS
        rc = zb_heads_forward(B, H, W, C, out, &h, scratch, logits, values);
        Py_END_ALLOW_THREADS
        ok = kernel_ran(rc, "forward");
    }
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&v[i]);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_heads_scratch(PyObject *self, PyObject *args)
{
    int B, H, W, C;
    zb_heads h = {0};
    if (!PyArg_ParseTuple(args, "iiiiiiii", &B, &H, &W, &C, &h.hidden, &h.planes, &h.value_hidden, &h.extra))
        return NULL;
    if (B < 0 || H <= 0 || W <= 0 || C <= 0 || h.hidden <= 0 || h.planes <= 0 || h.value_hidden <= 0 || h.extra < 0) {
        PyErr_SetString(PyExc_ValueError, "heads_scratch: sizes out of range");
        return NULL;
    }
    return PyLong_FromSize_t(zb_heads_scratch(B, H, W, C, &h));
}

static PyObject *py_dense(PyObject *self, PyObject *args)
{
    int N, C, K, relu;
    PyObject *o_in, *o_w, *o_bias, *o_out, *o_rows = Py_None;
    if (!PyArg_ParseTuple(args, "iiiOOOpO|O", &N, &C, &K, &o_in, &o_w, &o_bias, &relu, &o_out, &o_rows))
        return NULL;
    if (N < 0 || C <= 0 || K <= 0 || C > (1 << 20) || K > (1 << 20) || N > (1 << 24)) {
        PyErr_SetString(PyExc_ValueError, "dense: 0 or more rows and 1 or more columns in and out");
        return NULL;
    }
    Py_buffer v[5];
    int got = 0, ok = 0;
    const int32_t *rows = NULL;
    Py_ssize_t need = (Py_ssize_t)N * C;   /* the floats of in the rows reach */
    if (o_rows != Py_None) {
        if (PyObject_GetBuffer(o_rows, &v[4], PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
            return NULL;
        if (v[4].itemsize != 4 || v[4].format == NULL || (strcmp(v[4].format, "i") != 0 && strcmp(v[4].format, "=i") != 0)
            || v[4].len / 4 < N) {
            PyErr_SetString(PyExc_ValueError, "dense: rows must be N int32 offsets");
            PyBuffer_Release(&v[4]);
            return NULL;
        }
        rows = v[4].buf;
        need = 0;
        for (int n = 0; n < N; n++) {
            if (rows[n] < 0) {
                PyErr_SetString(PyExc_ValueError, "dense: a row offset is negative");
                PyBuffer_Release(&v[4]);
                return NULL;
            }
            if ((Py_ssize_t)rows[n] + C > need)
                need = (Py_ssize_t)rows[n] + C;
        }
    }
    if (float_buffer(o_in, &v[got], need, 0, "in") == 0 && ++got
        && float_buffer(o_w, &v[got], (Py_ssize_t)C * K, 0, "W") == 0 && ++got
        && float_buffer(o_bias, &v[got], K, 0, "bias") == 0 && ++got
        && float_buffer(o_out, &v[got], (Py_ssize_t)N * K, 1, "out") == 0 && ++got) {
        char *out = v[3].buf, *in = v[0].buf;
        if (out < in + v[0].len && in < out + v[3].len) {
            PyErr_SetString(PyExc_ValueError, "dense: out must not overlap in");
        } else {
            int rc;
            Py_BEGIN_ALLOW_THREADS
            rc = zb_dense(N, C, K, v[0].buf, rows, v[1].buf, v[2].buf, relu, v[3].buf);
            Py_END_ALLOW_THREADS
            ok = kernel_ran(rc, "dense");
        }
    }
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&v[i]);
    if (rows != NULL)
        PyBuffer_Release(&v[4]);
    if (!ok)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_tile(PyObject *self, PyObject *args)
{
    int H, W;
    if (!PyArg_ParseTuple(args, "ii", &H, &W))
        return NULL;
    if (H <= 0 || W <= 0 || H > 64 || W > 64) {
        PyErr_SetString(PyExc_ValueError, "tile: a board of 1-64 rows and columns");
        return NULL;
    }
    return PyLong_FromLong(zb_wino_tile(H, W));
}

static PyObject *py_kernels(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString(zb_wino_kernels());
}

static PyMethodDef methods[] = {
    {"tower", py_tower, METH_VARARGS,
     "tower(B, H, W, Cp, C, in, layers, a, b, t, Vb, Mb) -> 0 or 1: the stem (in -> a) and each residual\n"
     "block's two convolutions with their ReLUs and skip connection, layers a list of 1 + 2 * blocks\n"
     "(U, bias) tuples; the output is in a (0) or b (1). One call, without the GIL."},
    {"forward", py_forward, METH_VARARGS,
     "forward(B, H, W, P, Cp, C, planes, in, layers, a, b, t, Vb, Mb, heads, scratch, logits, values): the planes\n"
     "copied into in, tower(), then the spatial heads into logits and values, in one call (the heads without the GIL)."},
    {"heads_scratch", py_heads_scratch, METH_VARARGS,
     "heads_scratch(B, H, W, C, hidden, planes, value_hidden, extra) -> the floats of scratch forward() needs."},
    {"dense", py_dense, METH_VARARGS,
     "dense(N, C, K, in, W, bias, relu, out[, rows]): out = [relu](in @ W + bias) for float32 in [N][C], W [C][K],\n"
     "out [N][K] (numpy's BLAS would spin threads on the other cores); with rows (N int32 offsets), row n of\n"
     "in is the C floats from in[rows[n]] on (the board's cells of a bordered activation buffer). Releases the GIL."},
    {"tile", py_tile, METH_VARARGS,
     "tile(H, W) -> 4 or 5: the tile size m an H x W board takes; activations are [B][m*ceil(H/m)+2]\n"
     "[m*ceil(W/m)+2][C] and U is [(m+2)^2][Cin][Cout]."},
    {"kernels", py_kernels, METH_NOARGS,
     "kernels() -> 'avx2', 'generic' or 'none': the kernels that run on this processor."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.core._winograd_c",
    "The residual tower's 3x3 convolutions by Winograd's F(4x4, 3x3) or F(5x5, 3x3) (engine/core/csrc/winograd.c); "
    "see engine/core/winograd.py.",
    -1, methods,
};

PyMODINIT_FUNC PyInit__winograd_c(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0
        || PyModule_AddIntConstant(m, "TILES", ZB_WINO_TILES) < 0
        || PyModule_AddIntConstant(m, "PAD", ZB_WINO_PAD) < 0
        || PyModule_AddIntConstant(m, "ELEMENTS", ZB_WINO_ELEMENTS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
