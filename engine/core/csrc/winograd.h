/* The residual tower's 3x3 convolutions by Winograd's minimal filtering, F(4x4, 3x3), in float32
 * (plain C, no Python; engine/core/_winograd_c.c binds it, engine/core/winograd.py drives it).
 *
 * A 3x3 convolution with padding 1 over a board of H x W cells is computed on 6x6 input tiles
 * whose 4x4 centres tile the board: each tile is transformed (B^T d B), the 36 transformed
 * elements multiply the transformed weights (U = G g G^T, made once per network by the caller)
 * as 36 matrix products over the channels, and each product is transformed back (A^T m A):
 * 36 multiply-adds per 16 outputs per channel pair, against 144 for the direct convolution
 * (2.25 to 4 times fewer, less the tiles' overhang of the board). The transforms use the points
 * 0, +-1, +-2 and infinity (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks",
 * 2015), whose float32 rounding stays near 1e-6 of the outputs' size.
 *
 * Activations are NHWC in zero-bordered buffers: [B][4*th + 2][4*tw + 2][C] with th = ceil(H/4),
 * tw = ceil(W/4), the board's cell (y, x) at (y + 1, x + 1); the border and the overhang stay
 * zero (only the board's cells of an output are written), so every tile reads without bounds.
 */
#ifndef ZB_WINOGRAD_H
#define ZB_WINOGRAD_H

/* tiles transformed and multiplied together: their transforms stay in the first cache levels */
#define ZB_WINO_TILES 8

/* floats of the two scratch buffers a call needs: 36 * ZB_WINO_TILES * channels */
#define ZB_WINO_SCRATCH(channels) (36 * ZB_WINO_TILES * (channels))

/* out = conv(in) + bias [+ res], then max(0, .) if relu; Cp input channels, K output channels,
 * both multiples of 8; U: [36][Cp][K]; Vb: ZB_WINO_SCRATCH(Cp) floats; Mb: ZB_WINO_SCRATCH(K).
 * in and out must not overlap (res may be in). 0 on success, -1 for channels that are not
 * multiples of 8 or a bad size, -2 where this compiler built no kernels (not GCC or Clang). */
int zb_wino_conv(int B, int H, int W, int Cp, int K, const float *in, const float *U, const float *bias,
                 const float *res, int relu, float *out, float *Vb, float *Mb);

/* out = in Wt + bias, then max(0, .) if relu: in [N][C], Wt [C][K], out [N][K] (a 1x1 convolution
 * over cells, or a linear layer). Done here rather than by numpy's BLAS, whose threads would spin
 * on the other cores between the calls. 0 on success, -1 for bad sizes, -2 without kernels. */
int zb_dense(int N, int C, int K, const float *in, const float *Wt, const float *bias, int relu, float *out);

/* which kernels run on this processor: "avx2" (AVX2 and FMA), "generic" or "none" (no kernels built) */
const char *zb_wino_kernels(void);

#endif
