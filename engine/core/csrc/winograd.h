/* The residual tower's 3x3 convolutions by Winograd's minimal filtering, F(4x4, 3x3) or F(5x5, 3x3)
 * by the board's size, in float32 (plain C, no Python; engine/core/_winograd_c.c binds it,
 * engine/core/winograd.py drives it).
 *
 * A 3x3 convolution with padding 1 over a board of H x W cells is computed on (m+2)x(m+2) input
 * tiles whose m x m centres tile the board: each tile is transformed (B^T d B), the (m+2)^2
 * transformed elements multiply the transformed weights (U = G g G^T, made once per network by
 * the caller) as (m+2)^2 matrix products over the channels, and each product is transformed back
 * (A^T m A): 36 multiply-adds per 16 outputs per channel pair with m = 4, 49 per 25 with m = 5,
 * against 9 per output for the direct convolution, less the tiles' overhang of the board. Each
 * board takes the m whose tiles need fewer elements (zb_wino_tile): 5 for gomoku's 15x15 (9 tiles,
 * 441 elements, against 16 tiles and 576) and xiangqi's 10x9 (4 tiles, 196, against 324), 4 for
 * othello's 8x8 and Connect Four's 6x7. The points are 0, +-1, +-2 (and 1/2 for m = 5) and
 * infinity (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks", 2015); the float32
 * rounding stays near 1e-6 of the outputs' size with m = 4 and 1e-5 with m = 5.
 *
 * Activations are NHWC in zero-bordered buffers: [B][m*th + 2][m*tw + 2][C] with th = ceil(H/m),
 * tw = ceil(W/m), the board's cell (y, x) at (y + 1, x + 1); the border and the overhang stay
 * zero (only the board's cells of an output are written), so every tile reads without bounds.
 */
#ifndef ZB_WINOGRAD_H
#define ZB_WINOGRAD_H

#include <stdint.h>

/* the most tiles transformed and multiplied together (each group reads all of U once, and its
 * transforms stay in the second cache level) */
#define ZB_WINO_TILES 24

/* floats between the transformed elements' blocks of a scratch buffer beyond their own
 * ZB_WINO_TILES * channels: without them the blocks lie a power of two apart, in the same few
 * sets of the first-level cache */
#define ZB_WINO_PAD 16

/* the most transformed elements a tile has: (5 + 2)^2 */
#define ZB_WINO_ELEMENTS 49

/* floats of the two scratch buffers a call needs (for either tile size) */
#define ZB_WINO_SCRATCH(channels) (ZB_WINO_ELEMENTS * (ZB_WINO_TILES * (channels) + ZB_WINO_PAD))

/* the tile size m (4 or 5) of an H x W board: the activations' layout and U's first dimension,
 * (m + 2)^2, follow it */
int zb_wino_tile(int H, int W);

/* out = conv(in) + bias [+ res], then max(0, .) if relu; Cp input channels, K output channels,
 * both multiples of 8; U: [(m+2)^2][Cp][K] with m = zb_wino_tile(H, W); Vb: ZB_WINO_SCRATCH(Cp) floats; Mb: ZB_WINO_SCRATCH(K).
 * in and out must not overlap (res may be in). 0 on success, -1 for channels that are not
 * multiples of 8 or a bad size, -2 where this compiler built no kernels (not GCC or Clang). */
int zb_wino_conv(int B, int H, int W, int Cp, int K, const float *in, const float *U, const float *bias,
                 const float *res, int relu, float *out, float *Vb, float *Mb);

/* out = in Wt + bias, then max(0, .) if relu: in [N][C], Wt [C][K], out [N][K] (a 1x1 convolution
 * over cells, or a linear layer). With rows (else NULL), row n of in is the C floats from
 * in + rows[n]: the board's cells of a zero-bordered activation buffer, read where they lie. Done
 * here rather than by numpy's BLAS, whose threads would spin on the other cores between the calls.
 * 0 on success, -1 for bad sizes, -2 without kernels. */
int zb_dense(int N, int C, int K, const float *in, const int32_t *rows, const float *Wt, const float *bias, int relu,
             float *out);

/* a network's heads after its tower (spatial policy): the policy's hidden 1x1 convolution and the
 * value's one side by side (pv1_w [C][hidden + 1], ReLU), the policy's planes (p2_w [hidden][planes]),
 * where extra > 0 the tower's output averaged over the board through extra_w [C][extra], and the
 * value's two linear layers (v2_w [cells][value_hidden], ReLU; v3_w [value_hidden][1]) and tanh */
typedef struct {
    int hidden, planes, value_hidden, extra;
    const float *pv1_w, *pv1_b, *p2_w, *p2_b, *v2_w, *v2_b, *v3_w, *v3_b, *extra_w, *extra_b;
} zb_heads;

/* floats of scratch zb_heads_forward needs for a batch of B */
size_t zb_heads_scratch(int B, int H, int W, int C, const zb_heads *h);

/* the heads on a tower's zero-bordered output out [B][Hp][Wp][C] (the layout zb_wino_conv writes):
 * logits [B][planes * H * W + extra] (plane after plane, cell by cell, then the extra ones) and
 * values [B]. 0 on success, -1 for bad sizes, -2 without kernels. */
int zb_heads_forward(int B, int H, int W, int C, const float *out, const zb_heads *h, float *scratch, float *logits,
                     float *values);

/* which kernels run on this processor: "avx2" (AVX2 and FMA), "generic" or "none" (no kernels built) */
const char *zb_wino_kernels(void);

#endif
