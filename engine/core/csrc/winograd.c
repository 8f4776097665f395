/* Winograd F(4x4, 3x3) and F(5x5, 3x3) convolutions in float32: see winograd.h. The kernels are written once
 * with GCC/Clang vector types (8 floats) and compiled twice: for AVX2 with FMA, chosen at run
 * time where the processor has them, and for the compiler's baseline (SSE2 on x86-64). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "winograd.h"

#define TB ZB_WINO_TILES
/* the widest input whose last K % 8 columns the dense kernel takes as dot products along c */
#define DENSE_DOT_MAX 1024
/* the dense kernel's row n */
#define DENSE_ROW(n) (rows ? in + rows[n] : in + (size_t)(n) * C)
#define PAD ZB_WINO_PAD

int zb_wino_tile(int H, int W) {
    /* the transformed elements a board needs: tiles times (m + 2)^2, the smaller taken (4 on a tie) */
    long e4 = (long)((H + 3) / 4) * ((W + 3) / 4) * 36, e5 = (long)((H + 4) / 5) * ((W + 4) / 5) * 49;
    return e5 < e4 ? 5 : 4;
}

#if defined(__GNUC__) || defined(__clang__)

typedef float v8 __attribute__((vector_size(32)));
typedef int v8i __attribute__((vector_size(32)));
/* the same, at any float's address: loads and stores of whole vectors (vmovups), which a memcpy
 * through an array of vectors did not always give (it split some into halves through the stack) */
typedef float v8u __attribute__((vector_size(32), aligned(4), may_alias));

/* one float in all eight lanes */
#define BC(f) (__extension__({ float f_ = (f); (v8){f_, f_, f_, f_, f_, f_, f_, f_}; }))
#define LD(dst, src) ((dst) = *(const v8u *)(src))
#define ST(dst, src) (*(v8u *)(dst) = (src))

/* The transforms of F(4x4, 3x3) (points 0, 1, -1, 2, -2, infinity) and F(5x5, 3x3) (points 0,
 * 1, -1, 2, -2, 1/2, infinity), each applied to one column or row of a tile: B^T to n = m + 2
 * vectors d[] into r[0..n-1], A^T to n vectors into r[0..m-1]. The matrices: tools/winograd_matrices.py. */
#define DEF_TRANSFORMS(SUF, ATTR) \
ATTR static inline __attribute__((always_inline)) void bt_4_##SUF(v8 *r, const v8 *d) { \
    r[0] = 4.0f * d[0] - 5.0f * d[2] + d[4]; \
    r[1] = -4.0f * (d[1] + d[2]) + d[3] + d[4]; \
    r[2] = 4.0f * (d[1] - d[2]) - d[3] + d[4]; \
    r[3] = -2.0f * (d[1] - d[3]) - d[2] + d[4]; \
    r[4] = 2.0f * (d[1] - d[3]) - d[2] + d[4]; \
    r[5] = 4.0f * d[1] - 5.0f * d[3] + d[5]; \
} \
ATTR static inline __attribute__((always_inline)) void at_4_##SUF(v8 *r, const v8 *m) { \
    v8 a = m[1] + m[2], s = m[1] - m[2], a2 = m[3] + m[4], s2 = m[3] - m[4]; \
    r[0] = m[0] + a + a2; \
    r[1] = s + 2.0f * s2; \
    r[2] = a + 4.0f * a2; \
    r[3] = s + 8.0f * s2 + m[5]; \
} \
ATTR static inline __attribute__((always_inline)) void bt_5_##SUF(v8 *r, const v8 *d) { \
    r[0] = -2.0f * d[0] + 4.0f * d[1] + 2.5f * d[2] - 5.0f * d[3] - 0.5f * d[4] + d[5]; \
    r[1] = 2.0f * (d[1] - d[2]) - 4.5f * d[3] + 0.5f * d[4] + d[5]; \
    r[2] = -2.0f * d[1] + 6.0f * d[2] - 3.5f * d[3] - 1.5f * d[4] + d[5]; \
    r[3] = d[1] - 1.5f * (d[2] - d[4]) - 2.0f * d[3] + d[5]; \
    r[4] = -d[1] + 2.5f * (d[2] - d[4]) + d[5]; \
    r[5] = 4.0f * d[1] - 5.0f * d[3] + d[5]; \
    r[6] = -2.0f * d[1] + 4.0f * d[2] + 2.5f * d[3] - 5.0f * d[4] - 0.5f * d[5] + d[6]; \
} \
ATTR static inline __attribute__((always_inline)) void at_5_##SUF(v8 *r, const v8 *m) { \
    v8 a = m[1] + m[2], s = m[1] - m[2], a2 = m[3] + m[4], s2 = m[3] - m[4]; \
    r[0] = m[0] + a + a2 + m[5]; \
    r[1] = s + 2.0f * s2 + 0.5f * m[5]; \
    r[2] = a + 4.0f * a2 + 0.25f * m[5]; \
    r[3] = s + 8.0f * s2 + 0.125f * m[5]; \
    r[4] = a + 16.0f * a2 + 0.0625f * m[5] + m[6]; \
}

/* Tiles t0 .. t0+n-1 of the batch (t = (b * th + ty) * tw + tx) of F(MxM, 3x3), N = M + 2, into
 * Vb[N*N][TB][Cp] (each element's block TB * Cp + PAD floats long), and their products Mb[N*N][TB][K]
 * back to the board: out = [relu](A^T m A + bias [+ res]), only the board's cells written. */
#define DEF_TILES(SUF, ATTR, M, N) \
ATTR static void in_tiles_##M##_##SUF(int th, int tw, int Hp, int Wp, int Cp, const float *in, int t0, int n, \
                                      float *Vb) { \
    size_t rs = (size_t)Wp * Cp, xs = (size_t)TB * Cp + PAD; \
    for (int q = 0; q < n; q++) { \
        int t = t0 + q, tx = t % tw, ty = (t / tw) % th, b = t / (tw * th); \
        const float *base = in + (((size_t)b * Hp + ty * M) * Wp + tx * M) * Cp; \
        for (int c = 0; c < Cp; c += 8) { \
            v8 m[N][N]; \
            for (int j = 0; j < N; j++) { \
                v8 d[N], col[N]; \
                const float *p = base + (size_t)j * Cp + c; \
                for (int i = 0; i < N; i++) LD(d[i], p + i * rs); \
                bt_##M##_##SUF(col, d); \
                for (int i = 0; i < N; i++) m[i][j] = col[i]; \
            } \
            for (int i = 0; i < N; i++) { \
                v8 r[N]; \
                bt_##M##_##SUF(r, m[i]); \
                for (int j = 0; j < N; j++) ST(Vb + (size_t)(i * N + j) * xs + (size_t)q * Cp + c, r[j]); \
            } \
        } \
    } \
} \
\
ATTR static void out_tiles_##M##_##SUF(int th, int tw, int H, int W, int Hp, int Wp, int K, const float *Mb, \
                                       int t0, int n, const float *bias, const float *res, int relu, float *out) { \
    const v8 zero = {0}; \
    const size_t xs = (size_t)TB * K + PAD; \
    for (int q = 0; q < n; q++) { \
        int t = t0 + q, tx = t % tw, ty = (t / tw) % th, b = t / (tw * th); \
        for (int k = 0; k < K; k += 8) { \
            v8 h[M][N], col[M], bv; \
            for (int j = 0; j < N; j++) { \
                const float *mp = Mb + (size_t)j * xs + (size_t)q * K + k; \
                v8 mm[N]; \
                for (int i = 0; i < N; i++) LD(mm[i], mp + (size_t)i * N * xs); \
                at_##M##_##SUF(col, mm); \
                for (int i = 0; i < M; i++) h[i][j] = col[i]; \
            } \
            LD(bv, bias + k); \
            for (int i = 0; i < M && ty * M + i < H; i++) { \
                v8 r[M]; \
                at_##M##_##SUF(r, h[i]); \
                for (int j = 0; j < M && tx * M + j < W; j++) { \
                    size_t off = (((size_t)b * Hp + ty * M + i + 1) * Wp + tx * M + j + 1) * K + k; \
                    v8 o = r[j] + bv; \
                    if (res) { v8 rv; LD(rv, res + off); o += rv; } \
                    if (relu) o = (v8)((v8i)o & (v8i)(o > zero)); \
                    ST(out + off, o); \
                } \
            } \
        } \
    } \
}

#define DEF_KERNELS(SUF, ATTR) \
DEF_TRANSFORMS(SUF, ATTR) \
DEF_TILES(SUF, ATTR, 4, 6) \
DEF_TILES(SUF, ATTR, 5, 7) \
\
/* Mb[x][q][k] = sum over c of Vb[x][q][c] * U[x][c][k] for each of the E elements x, for q < n4 (a multiple of 4) */ \
ATTR static inline __attribute__((always_inline)) void products_##SUF(int E, int n4, int Cp, int K, const float *Vb, \
                                                                      const float *U, float *Mb) { \
    int wide = K % 24 == 0 ? 24 : 16; \
    for (int x = 0; x < E; x++) { \
        const float *Vx = Vb + (size_t)x * (TB * Cp + PAD), *Ux = U + (size_t)x * Cp * K; \
        float *Mx = Mb + (size_t)x * (TB * K + PAD); \
        int k0 = 0; \
        for (; wide == 24 && k0 + 24 <= K; k0 += 24) \
            for (int t = 0; t < n4; t += 4) { \
                v8 a00 = {0}, a01 = {0}, a02 = {0}, a10 = {0}, a11 = {0}, a12 = {0}; \
                v8 a20 = {0}, a21 = {0}, a22 = {0}, a30 = {0}, a31 = {0}, a32 = {0}; \
                const float *v0 = Vx + (size_t)t * Cp, *v1 = v0 + Cp, *v2 = v1 + Cp, *v3 = v2 + Cp; \
                const float *up = Ux + k0; \
                const size_t ahead = x + 1 < E && t == 0 ? (size_t)Cp * K : 0; \
                for (int c = 0; c < Cp; c++, up += K) { \
                    v8 u0, u1, u2, s; \
                    if (ahead) { __builtin_prefetch(up + ahead); __builtin_prefetch(up + ahead + 23); } \
                    LD(u0, up); LD(u1, up + 8); LD(u2, up + 16); \
                    s = BC(v0[c]); a00 += s * u0; a01 += s * u1; a02 += s * u2; \
                    s = BC(v1[c]); a10 += s * u0; a11 += s * u1; a12 += s * u2; \
                    s = BC(v2[c]); a20 += s * u0; a21 += s * u1; a22 += s * u2; \
                    s = BC(v3[c]); a30 += s * u0; a31 += s * u1; a32 += s * u2; \
                } \
                float *mp = Mx + (size_t)t * K + k0; \
                ST(mp, a00); ST(mp + 8, a01); ST(mp + 16, a02); mp += K; \
                ST(mp, a10); ST(mp + 8, a11); ST(mp + 16, a12); mp += K; \
                ST(mp, a20); ST(mp + 8, a21); ST(mp + 16, a22); mp += K; \
                ST(mp, a30); ST(mp + 8, a31); ST(mp + 16, a32); \
            } \
        for (; k0 + 16 <= K; k0 += 16) \
            for (int t = 0; t < n4; t += 4) { \
                v8 a00 = {0}, a01 = {0}, a10 = {0}, a11 = {0}, a20 = {0}, a21 = {0}, a30 = {0}, a31 = {0}; \
                const float *v0 = Vx + (size_t)t * Cp, *v1 = v0 + Cp, *v2 = v1 + Cp, *v3 = v2 + Cp; \
                const float *up = Ux + k0; \
                const size_t ahead = x + 1 < E && t == 0 ? (size_t)Cp * K : 0; \
                for (int c = 0; c < Cp; c++, up += K) { \
                    v8 u0, u1, s; \
                    if (ahead) { __builtin_prefetch(up + ahead); __builtin_prefetch(up + ahead + 15); } \
                    LD(u0, up); LD(u1, up + 8); \
                    s = BC(v0[c]); a00 += s * u0; a01 += s * u1; \
                    s = BC(v1[c]); a10 += s * u0; a11 += s * u1; \
                    s = BC(v2[c]); a20 += s * u0; a21 += s * u1; \
                    s = BC(v3[c]); a30 += s * u0; a31 += s * u1; \
                } \
                float *mp = Mx + (size_t)t * K + k0; \
                ST(mp, a00); ST(mp + 8, a01); mp += K; \
                ST(mp, a10); ST(mp + 8, a11); mp += K; \
                ST(mp, a20); ST(mp + 8, a21); mp += K; \
                ST(mp, a30); ST(mp + 8, a31); \
            } \
        for (; k0 < K; k0 += 8) \
            for (int t = 0; t < n4; t += 4) { \
                v8 a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}; \
                const float *v0 = Vx + (size_t)t * Cp, *v1 = v0 + Cp, *v2 = v1 + Cp, *v3 = v2 + Cp; \
                const float *up = Ux + k0; \
                for (int c = 0; c < Cp; c++, up += K) { \
                    v8 u0; \
                    LD(u0, up); \
                    a0 += BC(v0[c]) * u0; a1 += BC(v1[c]) * u0; \
                    a2 += BC(v2[c]) * u0; a3 += BC(v3[c]) * u0; \
                } \
                float *mp = Mx + (size_t)t * K + k0; \
                ST(mp, a0); ST(mp + K, a1); ST(mp + 2 * K, a2); ST(mp + 3 * K, a3); \
            } \
    } \
} \
\
/* out[n][k] = [relu](sum over c of row_n[c] * Wt[c][k] + bias[k]), row_n = in + rows[n] (in + n * C \
 * without rows): rows in fours, columns in 24s, 16s and 8s, the last K % 8 columns one at a time, four \
 * rows at once (as dot products along c, 8 channels a vector, where C is a multiple of 8) */ \
ATTR static void dense_##SUF(int N, int C, int K, const float *in, const int32_t *rows, const float *Wt, \
                             const float *bias, int relu, float *out) { \
    const v8 zero = {0}; \
    int tail = K % 8, k8 = K - tail; \
    /* the last columns' weights side by side along c, for the dot products */ \
    float wcol[7 * DENSE_DOT_MAX]; \
    int dot = tail && C % 8 == 0 && C <= DENSE_DOT_MAX; \
    for (int j = 0; dot && j < tail; j++) \
        for (int c = 0; c < C; c++) \
            wcol[j * C + c] = Wt[(size_t)c * K + k8 + j]; \
    int n = 0; \
    for (; n + 4 <= N; n += 4) { \
        const float *i0 = DENSE_ROW(n), *i1 = DENSE_ROW(n + 1), *i2 = DENSE_ROW(n + 2), *i3 = DENSE_ROW(n + 3); \
        int k0 = 0; \
        for (; k0 + 24 <= K; k0 += 24) { \
            v8 a00 = {0}, a01 = {0}, a02 = {0}, a10 = {0}, a11 = {0}, a12 = {0}; \
            v8 a20 = {0}, a21 = {0}, a22 = {0}, a30 = {0}, a31 = {0}, a32 = {0}, b0, b1, b2; \
            const float *wp = Wt + k0; \
            for (int c = 0; c < C; c++, wp += K) { \
                v8 w0, w1, w2, s; \
                LD(w0, wp); LD(w1, wp + 8); LD(w2, wp + 16); \
                s = BC(i0[c]); a00 += s * w0; a01 += s * w1; a02 += s * w2; \
                s = BC(i1[c]); a10 += s * w0; a11 += s * w1; a12 += s * w2; \
                s = BC(i2[c]); a20 += s * w0; a21 += s * w1; a22 += s * w2; \
                s = BC(i3[c]); a30 += s * w0; a31 += s * w1; a32 += s * w2; \
            } \
            LD(b0, bias + k0); LD(b1, bias + k0 + 8); LD(b2, bias + k0 + 16); \
            v8 r[12] = {a00 + b0, a01 + b1, a02 + b2, a10 + b0, a11 + b1, a12 + b2, \
                        a20 + b0, a21 + b1, a22 + b2, a30 + b0, a31 + b1, a32 + b2}; \
            for (int j = 0; j < 12; j++) { \
                if (relu) r[j] = (v8)((v8i)r[j] & (v8i)(r[j] > zero)); \
                ST(out + (size_t)(n + j / 3) * K + k0 + (j % 3) * 8, r[j]); \
            } \
        } \
        for (; k0 + 16 <= K; k0 += 16) { \
            v8 a00 = {0}, a01 = {0}, a10 = {0}, a11 = {0}, a20 = {0}, a21 = {0}, a30 = {0}, a31 = {0}, b0, b1; \
            const float *wp = Wt + k0; \
            for (int c = 0; c < C; c++, wp += K) { \
                v8 w0, w1, s; \
                LD(w0, wp); LD(w1, wp + 8); \
                s = BC(i0[c]); a00 += s * w0; a01 += s * w1; \
                s = BC(i1[c]); a10 += s * w0; a11 += s * w1; \
                s = BC(i2[c]); a20 += s * w0; a21 += s * w1; \
                s = BC(i3[c]); a30 += s * w0; a31 += s * w1; \
            } \
            LD(b0, bias + k0); LD(b1, bias + k0 + 8); \
            v8 r[8] = {a00 + b0, a01 + b1, a10 + b0, a11 + b1, a20 + b0, a21 + b1, a30 + b0, a31 + b1}; \
            for (int j = 0; j < 8; j++) { \
                if (relu) r[j] = (v8)((v8i)r[j] & (v8i)(r[j] > zero)); \
                ST(out + (size_t)(n + j / 2) * K + k0 + (j % 2) * 8, r[j]); \
            } \
        } \
        for (; k0 + 8 <= K; k0 += 8) { \
            v8 a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}, b0; \
            const float *wp = Wt + k0; \
            for (int c = 0; c < C; c++, wp += K) { \
                v8 w0; \
                LD(w0, wp); \
                a0 += BC(i0[c]) * w0; a1 += BC(i1[c]) * w0; a2 += BC(i2[c]) * w0; a3 += BC(i3[c]) * w0; \
            } \
            LD(b0, bias + k0); \
            v8 r[4] = {a0 + b0, a1 + b0, a2 + b0, a3 + b0}; \
            for (int j = 0; j < 4; j++) { \
                if (relu) r[j] = (v8)((v8i)r[j] & (v8i)(r[j] > zero)); \
                ST(out + (size_t)(n + j) * K + k0, r[j]); \
            } \
        } \
        if (dot) \
            for (int j = 0; j < tail; j++, k0++) { \
                /* four rows' dot products with the column, 8 channels a step, summed across at the end */ \
                v8 a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}; \
                const float *wc = wcol + j * C; \
                for (int c = 0; c < C; c += 8) { \
                    v8 w, x; \
                    LD(w, wc + c); \
                    LD(x, i0 + c); a0 += x * w; \
                    LD(x, i1 + c); a1 += x * w; \
                    LD(x, i2 + c); a2 += x * w; \
                    LD(x, i3 + c); a3 += x * w; \
                } \
                v8 acc[4] = {a0, a1, a2, a3}; \
                for (int r = 0; r < 4; r++) { \
                    v8 v = acc[r]; \
                    float a = bias[k0] + (((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]))); \
                    out[(size_t)(n + r) * K + k0] = relu && a < 0.0f ? 0.0f : a; \
                } \
            } \
        for (; k0 < K; k0++) { \
            /* the four rows' sums side by side (each in the order a row alone would take): \
             * four chains of multiply-adds in flight rather than one */ \
            float a0 = bias[k0], a1 = a0, a2 = a0, a3 = a0; \
            const float *wp = Wt + k0; \
            for (int c = 0; c < C; c++, wp += K) { \
                float w = *wp; \
                a0 += i0[c] * w; a1 += i1[c] * w; a2 += i2[c] * w; a3 += i3[c] * w; \
            } \
            float r[4] = {a0, a1, a2, a3}; \
            for (int j = 0; j < 4; j++) out[(size_t)(n + j) * K + k0] = relu && r[j] < 0.0f ? 0.0f : r[j]; \
        } \
    } \
    for (; n < N; n++) { \
        const float *ip = DENSE_ROW(n); \
        for (int k = 0; k < K; k++) { \
            float a = bias[k]; \
            for (int c = 0; c < C; c++) a += ip[c] * Wt[(size_t)c * K + k]; \
            out[(size_t)n * K + k] = relu && a < 0.0f ? 0.0f : a; \
        } \
    } \
} \
\
ATTR static void conv_##SUF(int B, int H, int W, int Cp, int K, const float *in, const float *U, const float *bias, \
                            const float *res, int relu, float *out, float *Vb, float *Mb) { \
    int m = zb_wino_tile(H, W), E = (m + 2) * (m + 2); \
    int th = (H + m - 1) / m, tw = (W + m - 1) / m, Hp = th * m + 2, Wp = tw * m + 2, T = B * th * tw; \
    /* the fewest groups of at most TB tiles, evened out (in fours, the products' rows): gomoku's 72 \
     * tiles at batch 8 go three groups of 24, xiangqi's and othello's 32 two of 16 */ \
    if (T == 0) \
        return; \
    int groups = (T + TB - 1) / TB, per = ((T + groups - 1) / groups + 3) & ~3; \
    for (int t0 = 0; t0 < T; t0 += per) { \
        int n = T - t0 < per ? T - t0 : per; \
        if (m == 5) in_tiles_5_##SUF(th, tw, Hp, Wp, Cp, in, t0, n, Vb); \
        else in_tiles_4_##SUF(th, tw, Hp, Wp, Cp, in, t0, n, Vb); \
        int n4 = (n + 3) & ~3; \
        /* the common towers' widths as constants: the rows' and weights' strides become immediates */ \
        if (Cp == 32 && K == 32) products_##SUF(E, n4, 32, 32, Vb, U, Mb); \
        else if (Cp == 48 && K == 48) products_##SUF(E, n4, 48, 48, Vb, U, Mb); \
        else if (Cp == 64 && K == 64) products_##SUF(E, n4, 64, 64, Vb, U, Mb); \
        else if (Cp == 96 && K == 96) products_##SUF(E, n4, 96, 96, Vb, U, Mb); \
        else if (Cp == 128 && K == 128) products_##SUF(E, n4, 128, 128, Vb, U, Mb); \
        else products_##SUF(E, n4, Cp, K, Vb, U, Mb); \
        if (m == 5) out_tiles_5_##SUF(th, tw, H, W, Hp, Wp, K, Mb, t0, n, bias, res, relu, out); \
        else out_tiles_4_##SUF(th, tw, H, W, Hp, Wp, K, Mb, t0, n, bias, res, relu, out); \
    } \
}

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_AVX2_KERNELS 1
DEF_KERNELS(avx2, __attribute__((target("avx2,fma"))))
#endif
DEF_KERNELS(base, )

static int use_avx2(void) {
#ifdef HAVE_AVX2_KERNELS
    static int known = -1;
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }
    return known;
#else
    return 0;
#endif
}

int zb_wino_conv(int B, int H, int W, int Cp, int K, const float *in, const float *U, const float *bias,
                 const float *res, int relu, float *out, float *Vb, float *Mb) {
    if (B < 0 || H <= 0 || W <= 0 || Cp <= 0 || K <= 0 || Cp % 8 || K % 8)
        return -1;
#ifdef HAVE_AVX2_KERNELS
    if (use_avx2()) {
        conv_avx2(B, H, W, Cp, K, in, U, bias, res, relu, out, Vb, Mb);
        return 0;
    }
#endif
    conv_base(B, H, W, Cp, K, in, U, bias, res, relu, out, Vb, Mb);
    return 0;
}

int zb_dense(int N, int C, int K, const float *in, const int32_t *rows, const float *Wt, const float *bias, int relu,
             float *out) {
    if (N < 0 || C <= 0 || K <= 0)
        return -1;
#ifdef HAVE_AVX2_KERNELS
    if (use_avx2()) {
        dense_avx2(N, C, K, in, rows, Wt, bias, relu, out);
        return 0;
    }
#endif
    dense_base(N, C, K, in, rows, Wt, bias, relu, out);
    return 0;
}

const char *zb_wino_kernels(void) { return use_avx2() ? "avx2" : "generic"; }

#else   /* another compiler: no kernels; the module says so and the other runtimes serve */

int zb_wino_conv(int B, int H, int W, int Cp, int K, const float *in, const float *U, const float *bias,
                 const float *res, int relu, float *out, float *Vb, float *Mb) {
    (void)B; (void)H; (void)W; (void)Cp; (void)K; (void)in; (void)U; (void)bias; (void)res; (void)relu;
    (void)out; (void)Vb; (void)Mb;
    return -2;
}

int zb_dense(int N, int C, int K, const float *in, const int32_t *rows, const float *Wt, const float *bias, int relu,
             float *out) {
    (void)N; (void)C; (void)K; (void)in; (void)rows; (void)Wt; (void)bias; (void)relu; (void)out;
    return -2;
}

const char *zb_wino_kernels(void) { return "none"; }

#endif

/* the heads: plain C around zb_dense, whichever kernels it has */
size_t zb_heads_scratch(int B, int H, int W, int C, const zb_heads *h)
{
    size_t n = (size_t)B * H * W;
    return n + n * (size_t)(h->hidden + 1) + n * (size_t)h->planes + n + (size_t)B * h->value_hidden + (size_t)B
        + (size_t)B * C + (size_t)B * h->extra;
}

int zb_heads_forward(int B, int H, int W, int C, const float *out, const zb_heads *h, float *scratch, float *logits,
                     float *values)
{
    if (B < 0 || H <= 0 || W <= 0 || H > 64 || W > 64 || C <= 0 || h->hidden <= 0 || h->planes <= 0
        || h->value_hidden <= 0 || h->extra < 0)
        return -1;
    int m = zb_wino_tile(H, W), cells = H * W, hid = h->hidden, pp = h->planes;
    int Hp = (H + m - 1) / m * m + 2, Wp = (W + m - 1) / m * m + 2;
    int n = B * cells, width = pp * cells + h->extra;
    int32_t *rows = (int32_t *)scratch;
    float *both = scratch + n, *grid = both + (size_t)n * (hid + 1), *v = grid + (size_t)n * pp;
    float *hidden = v + n, *raw = hidden + (size_t)B * h->value_hidden, *pooled = raw + B, *extra = pooled + (size_t)B * C;
    if (n == 0)
        return 0;
    /* the policy's hidden channels and the value's channel (1x1 convolutions, ReLU) on the board's
     * cells, read where they lie in the bordered output */
    for (int b = 0, k = 0; b < B; b++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++, k++)
                rows[k] = (int32_t)((((size_t)b * Hp + y + 1) * Wp + x + 1) * C);
    int rc = zb_dense(n, C, hid + 1, out, rows, h->pv1_w, h->pv1_b, 1, both);
    /* the policy's planes from the hidden channels (rows hid + 1 apart), then cell by cell into the
     * logits, plane after plane */
    for (int k = 0; k < n; k++)
        rows[k] = k * (hid + 1);
    if (rc == 0)
        rc = zb_dense(n, hid, pp, both, rows, h->p2_w, h->p2_b, 0, grid);
    if (rc != 0)
        return rc;
    for (int b = 0; b < B; b++)
        for (int c = 0; c < cells; c++)
            for (int q = 0; q < pp; q++)
                logits[(size_t)b * width + (size_t)q * cells + c] = grid[((size_t)b * cells + c) * pp + q];
    if (h->extra > 0) {   /* the tower's output averaged over the board, then a linear layer */
        for (int b = 0; b < B; b++) {
            float *pb = pooled + (size_t)b * C;
            for (int c = 0; c < C; c++)
                pb[c] = 0.0f;
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    const float *cell = out + (((size_t)b * Hp + y + 1) * Wp + x + 1) * C;
                    for (int c = 0; c < C; c++)
                        pb[c] += cell[c];
                }
            for (int c = 0; c < C; c++)
                pb[c] /= (float)cells;
        }
        rc = zb_dense(B, C, h->extra, pooled, NULL, h->extra_w, h->extra_b, 0, extra);
        if (rc != 0)
            return rc;
        for (int b = 0; b < B; b++)
            for (int k = 0; k < h->extra; k++)
                logits[(size_t)b * width + (size_t)pp * cells + k] = extra[(size_t)b * h->extra + k];
    }
    /* the value: its channel over the board, two linear layers, tanh */
    for (int k = 0; k < n; k++)
        v[k] = both[(size_t)k * (hid + 1) + hid];
    rc = zb_dense(B, cells, h->value_hidden, v, NULL, h->v2_w, h->v2_b, 1, hidden);
    if (rc == 0)
        rc = zb_dense(B, h->value_hidden, 1, hidden, NULL, h->v3_w, h->v3_b, 0, raw);
    if (rc != 0)
        return rc;
    for (int b = 0; b < B; b++)
        values[b] = tanhf(raw[b]);
    return 0;
}
