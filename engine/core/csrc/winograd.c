/* Winograd F(4x4, 3x3) convolutions in float32: see winograd.h. The kernels are written once
 * with GCC/Clang vector types (8 floats) and compiled twice: for AVX2 with FMA, chosen at run
 * time where the processor has them, and for the compiler's baseline (SSE2 on x86-64). */
#include <string.h>

#include "winograd.h"

#define TB ZB_WINO_TILES

#if defined(__GNUC__) || defined(__clang__)

typedef float v8 __attribute__((vector_size(32)));
typedef int v8i __attribute__((vector_size(32)));

/* one float in all eight lanes */
#define BC(f) (__extension__({ float f_ = (f); (v8){f_, f_, f_, f_, f_, f_, f_, f_}; }))
#define LD(dst, src) memcpy(&(dst), (src), 32)
#define ST(dst, src) memcpy((dst), &(src), 32)

/* B^T applied to six vectors d0..d5 (one column or row of a tile), into r[0..5] */
#define BT6(r, d0, d1, d2, d3, d4, d5) do { \
        r[0] = 4.0f * d0 - 5.0f * d2 + d4; \
        r[1] = -4.0f * (d1 + d2) + d3 + d4; \
        r[2] = 4.0f * (d1 - d2) - d3 + d4; \
        r[3] = -2.0f * (d1 - d3) - d2 + d4; \
        r[4] = 2.0f * (d1 - d3) - d2 + d4; \
        r[5] = 4.0f * d1 - 5.0f * d3 + d5; \
    } while (0)

/* A^T applied to six vectors m0..m5, into r[0..3] */
#define AT6(r, m0, m1, m2, m3, m4, m5) do { \
        v8 a_ = m1 + m2, s_ = m1 - m2, a2_ = m3 + m4, s2_ = m3 - m4; \
        r[0] = m0 + a_ + a2_; \
        r[1] = s_ + 2.0f * s2_; \
        r[2] = a_ + 4.0f * a2_; \
        r[3] = s_ + 8.0f * s2_ + m5; \
    } while (0)

#define DEF_KERNELS(SUF, ATTR) \
/* tiles t0 .. t0+n-1 of the batch (t = (b * th + ty) * tw + tx) into Vb[36][TB][Cp] */ \
ATTR static void in_tiles_##SUF(int th, int tw, int Hp, int Wp, int Cp, const float *in, int t0, int n, float *Vb) { \
    size_t rs = (size_t)Wp * Cp; \
    for (int q = 0; q < n; q++) { \
        int t = t0 + q, tx = t % tw, ty = (t / tw) % th, b = t / (tw * th); \
        const float *base = in + (((size_t)b * Hp + ty * 4) * Wp + tx * 4) * Cp; \
        for (int c = 0; c < Cp; c += 8) { \
            v8 m[6][6], col[6]; \
            for (int j = 0; j < 6; j++) { \
                v8 d0, d1, d2, d3, d4, d5; \
                const float *p = base + (size_t)j * Cp + c; \
                LD(d0, p); LD(d1, p + rs); LD(d2, p + 2 * rs); LD(d3, p + 3 * rs); LD(d4, p + 4 * rs); LD(d5, p + 5 * rs); \
                BT6(col, d0, d1, d2, d3, d4, d5); \
                for (int i = 0; i < 6; i++) m[i][j] = col[i]; \
            } \
            for (int i = 0; i < 6; i++) { \
                v8 r[6]; \
                BT6(r, m[i][0], m[i][1], m[i][2], m[i][3], m[i][4], m[i][5]); \
                for (int j = 0; j < 6; j++) ST(Vb + ((size_t)(i * 6 + j) * TB + q) * Cp + c, r[j]); \
            } \
        } \
    } \
} \
\
/* Mb[x][q][k] = sum over c of Vb[x][q][c] * U[x][c][k], for q < n4 (a multiple of 4) */ \
ATTR static inline __attribute__((always_inline)) void products_##SUF(int n4, int Cp, int K, const float *Vb, \
                                                                      const float *U, float *Mb) { \
    int wide = K % 24 == 0 ? 24 : 16; \
    for (int x = 0; x < 36; x++) { \
        const float *Vx = Vb + (size_t)x * TB * Cp, *Ux = U + (size_t)x * Cp * K; \
        float *Mx = Mb + (size_t)x * TB * K; \
        int k0 = 0; \
        for (; wide == 24 && k0 + 24 <= K; k0 += 24) \
            for (int t = 0; t < n4; t += 4) { \
                v8 a00 = {0}, a01 = {0}, a02 = {0}, a10 = {0}, a11 = {0}, a12 = {0}; \
                v8 a20 = {0}, a21 = {0}, a22 = {0}, a30 = {0}, a31 = {0}, a32 = {0}; \
                const float *v0 = Vx + (size_t)t * Cp, *v1 = v0 + Cp, *v2 = v1 + Cp, *v3 = v2 + Cp; \
                const float *up = Ux + k0; \
                for (int c = 0; c < Cp; c++, up += K) { \
                    v8 u0, u1, u2, s; \
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
                for (int c = 0; c < Cp; c++, up += K) { \
                    v8 u0, u1, s; \
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
/* the products of tiles t0 .. t0+n-1 back to the board: out = [relu](A^T m A + bias [+ res]) */ \
ATTR static void out_tiles_##SUF(int th, int tw, int H, int W, int Hp, int Wp, int K, const float *Mb, int t0, int n, \
                                 const float *bias, const float *res, int relu, float *out) { \
    const v8 zero = {0}; \
    for (int q = 0; q < n; q++) { \
        int t = t0 + q, tx = t % tw, ty = (t / tw) % th, b = t / (tw * th); \
        for (int k = 0; k < K; k += 8) { \
            v8 m[6][6], h[4][6], col[4], bv; \
            for (int x = 0; x < 36; x++) LD(m[x / 6][x % 6], Mb + ((size_t)x * TB + q) * K + k); \
            for (int j = 0; j < 6; j++) { \
                AT6(col, m[0][j], m[1][j], m[2][j], m[3][j], m[4][j], m[5][j]); \
                for (int i = 0; i < 4; i++) h[i][j] = col[i]; \
            } \
            LD(bv, bias + k); \
            for (int i = 0; i < 4 && ty * 4 + i < H; i++) { \
                v8 r[4]; \
                AT6(r, h[i][0], h[i][1], h[i][2], h[i][3], h[i][4], h[i][5]); \
                for (int j = 0; j < 4 && tx * 4 + j < W; j++) { \
                    size_t off = (((size_t)b * Hp + ty * 4 + i + 1) * Wp + tx * 4 + j + 1) * K + k; \
                    v8 o = r[j] + bv; \
                    if (res) { v8 rv; LD(rv, res + off); o += rv; } \
                    if (relu) o = (v8)((v8i)o & (v8i)(o > zero)); \
                    ST(out + off, o); \
                } \
            } \
        } \
    } \
} \
\
/* out[n][k] = [relu](sum over c of in[n][c] * Wt[c][k] + bias[k]): rows in fours, columns in 16s and 8s, \
 * the last K % 8 columns one at a time */ \
ATTR static void dense_##SUF(int N, int C, int K, const float *in, const float *Wt, const float *bias, int relu, \
                             float *out) { \
    const v8 zero = {0}; \
    int n = 0; \
    for (; n + 4 <= N; n += 4) { \
        const float *i0 = in + (size_t)n * C, *i1 = i0 + C, *i2 = i1 + C, *i3 = i2 + C; \
        int k0 = 0; \
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
        for (; k0 < K; k0++) \
            for (int j = 0; j < 4; j++) { \
                const float *ip = in + (size_t)(n + j) * C; \
                float a = bias[k0]; \
                for (int c = 0; c < C; c++) a += ip[c] * Wt[(size_t)c * K + k0]; \
                out[(size_t)(n + j) * K + k0] = relu && a < 0.0f ? 0.0f : a; \
            } \
    } \
    for (; n < N; n++) { \
        const float *ip = in + (size_t)n * C; \
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
    int th = (H + 3) / 4, tw = (W + 3) / 4, Hp = th * 4 + 2, Wp = tw * 4 + 2, T = B * th * tw; \
    for (int t0 = 0; t0 < T; t0 += TB) { \
        int n = T - t0 < TB ? T - t0 : TB; \
        in_tiles_##SUF(th, tw, Hp, Wp, Cp, in, t0, n, Vb); \
        int n4 = (n + 3) & ~3; \
        /* the common towers' widths as constants: the rows' and weights' strides become immediates */ \
        if (Cp == 32 && K == 32) products_##SUF(n4, 32, 32, Vb, U, Mb); \
        else if (Cp == 48 && K == 48) products_##SUF(n4, 48, 48, Vb, U, Mb); \
        else if (Cp == 64 && K == 64) products_##SUF(n4, 64, 64, Vb, U, Mb); \
        else if (Cp == 96 && K == 96) products_##SUF(n4, 96, 96, Vb, U, Mb); \
        else if (Cp == 128 && K == 128) products_##SUF(n4, 128, 128, Vb, U, Mb); \
        else products_##SUF(n4, Cp, K, Vb, U, Mb); \
        out_tiles_##SUF(th, tw, H, W, Hp, Wp, K, Mb, t0, n, bias, res, relu, out); \
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

int zb_dense(int N, int C, int K, const float *in, const float *Wt, const float *bias, int relu, float *out) {
    if (N < 0 || C <= 0 || K <= 0)
        return -1;
#ifdef HAVE_AVX2_KERNELS
    if (use_avx2()) {
        dense_avx2(N, C, K, in, Wt, bias, relu, out);
        return 0;
    }
#endif
    dense_base(N, C, K, in, Wt, bias, relu, out);
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

int zb_dense(int N, int C, int K, const float *in, const float *Wt, const float *bias, int relu, float *out) {
    (void)N; (void)C; (void)K; (void)in; (void)Wt; (void)bias; (void)relu; (void)out;
    return -2;
}

const char *zb_wino_kernels(void) { return "none"; }

#endif
