/* The search tree's walk down and backup in plain C: see tree.h.
 *
 * Exactness: each step below names the numpy or Python expression it repeats. No product is
 * followed by an addition in one expression (so no compiler may fuse them into an FMA), and
 * every intermediate has the type numpy or Python gives it. */
#include "tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint16_t zb_half_from_double(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    uint16_t sign = (uint16_t)((b >> 48) & 0x8000u);
    int exp = (int)((b >> 52) & 0x7ff);
    uint64_t man = b & 0xfffffffffffffull;
    if (exp == 0x7ff)
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0u));   /* inf, nan */
    int e = exp - 1023;
    if (e > 15)
        return (uint16_t)(sign | 0x7c00u);   /* beyond float16's range */
    if (e < -25)
        return sign;                          /* below half the smallest subnormal: zero */
    uint64_t m = man | (1ull << 52);
    /* a normal float16 keeps 11 significant bits; a subnormal counts units of 2^-24 */
    int shift = e >= -14 ? 42 : 28 - e;
    uint64_t h = m >> shift;
    uint64_t rest = m & ((1ull << shift) - 1);
    uint64_t half = 1ull << (shift - 1);
    if (rest > half || (rest == half && (h & 1)))
        h++;
    if (e < -14)
        return (uint16_t)(sign | h);          /* a carry into 0x400 is the smallest normal, rightly */
    /* a carry out of the significand moves into the exponent, as it should */
    uint32_t r = ((uint32_t)(e + 15) << 10) + (uint32_t)(h - 1024);
    return (uint16_t)(sign | (r >= 0x7c00u ? 0x7c00u : r));
}

float zb_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t bits;
    float f;
    if (exp == 0) {
        f = (float)man * (1.0f / 16777216.0f);   /* exact: man < 2^10, times 2^-24 */
        return sign ? -f : f;
    }
    if (exp == 31)
        bits = sign | 0x7f800000u | (man << 13);
    else   /* rebias the exponent: 15 -> 127 */
        bits = sign | (((uint32_t)(h & 0x7fffu) << 13) + 0x38000000u);
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* A float rounded to the nearest float16 value (ties to even), returned as a float. The fast
 * path covers float16's normal range; the rest goes through zb_half_from_double. */
float zb_round_to_half(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    uint32_t exp = (b >> 23) & 0xffu;
    if (exp < 113 || exp > 142)   /* below 2^-14 (subnormal in float16), or from 2^16 up */
        return zb_half_to_float(zb_half_from_double((double)x));
    b = (b + 0xfffu + ((b >> 13) & 1u)) & ~0x1fffu;   /* keep 10 fraction bits, ties to even */
    if ((b & 0x7fffffffu) >= 0x47800000u)             /* rounded up to 2^16: beyond float16 */
        return (b >> 31) ? -INFINITY : INFINITY;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* the slot numpy reads for child index ``kid`` (-1: the spare at the end); -1 when outside */
static inline int64_t slot(const zb_tree *t, int32_t kid)
{
    if (kid < 0)
        return t->nodes - 1;
    return kid < t->nodes ? kid : -1;
}

/* np.maximum / np.minimum on float32: nan if either is nan */
static inline float np_max(float a, float b) { return (isnan(a) || isnan(b)) ? NAN : (a >= b ? a : b); }
static inline float np_min(float a, float b) { return (isnan(a) || isnan(b)) ? NAN : (a <= b ? a : b); }

/* Tree._pick_wide: numpy's float32 arithmetic. Written once, compiled twice: with the float16
 * conversions in software (any processor), and with the F16C instructions where the processor has
 * them, chosen at run time. Both convert exactly as numpy does: half to float is exact, and float
 * to half rounds to nearest, ties to even, into float16's subnormals and up to infinity. */
#define DEF_PICK_WIDE(SUF, ATTR, HALF_TO_FLOAT, ROUND_TO_HALF) \
ATTR static int pick_wide_##SUF(const zb_tree *t, int32_t node, int64_t s, int32_t k, double fpu, double parent_n, \
                                double cpuct, double *nj, double *qj) \
{ \
    float fpu32 = (float)fpu;                          /* np.where(..., fpu): float32 */ \
    double c = cpuct * sqrt(parent_n + 1e-8); \
    float c16 = zb_half_to_float(zb_half_from_double(c));   /* c * e_prior: a float16 product */ \
    int floored = t->n_floored[node] != 0; \
    int done = t->n_done[node]; \
    int skip_known = 0 < done && done < k; \
    int j = 0; \
    float best = 0.0f; \
    for (int32_t i = 0; i < k; i++) { \
        int32_t kid = t->e_child[s + i]; \
        int64_t x = slot(t, kid); \
        if (x < 0) \
            return -1; \
        float n = t->n_visits[x]; \
        float w = t->n_wsum[x]; \
        float q = n > 0.0f ? w / (n >= 1.0f ? n : 1.0f) : fpu32;   /* w / np.maximum(n, 1.0) */ \
        if (floored) { \
            float floor = t->n_best[x]; \
            q = t->n_owner[x] == t->n_player[x] ? np_max(q, floor) : np_min(q, -floor); \
        } \
        /* float16 times float16 is exact in float32; numpy rounds it to float16 */ \
        float u = ROUND_TO_HALF(c16 * HALF_TO_FLOAT(t->e_prior[s + i])); \
        float bonus = u / (1.0f + n); \
        float score = q + bonus; \
        if (skip_known && kid >= 0 && !isnan(t->n_term[x])) \
            score = -INFINITY; \
        /* np.argmax: the first maximum, a nan counting as the maximum */ \
        if (i == 0) { \
            best = score; \
            if (isnan(score)) \
                break; \
        } else if (isnan(score)) { \
            j = i; \
            break; \
        } else if (score > best) { \
            best = score; \
            j = i; \
        } \
    } \
    int64_t x = slot(t, t->e_child[s + j]); \
    float n = t->n_visits[x]; \
    *nj = (double)n; \
    *qj = n > 0.0f ? (double)t->n_wsum[x] / (double)n : fpu; \
    return j; \
}

DEF_PICK_WIDE(soft, , zb_half_to_float, zb_round_to_half)

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_F16C_PICK 1
#define F16C_TO_FLOAT(h) _cvtsh_ss(h)
#define F16C_ROUND(f) _cvtsh_ss(_cvtss_sh((f), _MM_FROUND_TO_NEAREST_INT))
DEF_PICK_WIDE(f16c, __attribute__((target("f16c"))), F16C_TO_FLOAT, F16C_ROUND)
#endif

static int have_f16c(void)
{
#ifdef HAVE_F16C_PICK
    /* F16C's bit of CPUID leaf 1 (ECX bit 29), read directly: compilers' __builtin_cpu_supports
     * learnt the name "f16c" late. Its instructions are VEX-encoded, so the system must also save
     * the vector registers' upper halves, which __builtin_cpu_supports("avx") checks. */
    static int known = -1;
    if (known < 0) {
        unsigned a, b, c, d;
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) && (c >> 29 & 1u);
    }
    return known;
#else
    return 0;
#endif
}

#ifdef HAVE_F16C_PICK
__attribute__((target("f16c"))) static float round_to_half_f16c(float x) { return F16C_ROUND(x); }
#endif

int zb_round_to_half_f16c(float x, float *out)
{
#ifdef HAVE_F16C_PICK
    if (have_f16c()) {
        *out = round_to_half_f16c(x);
        return 1;
    }
#endif
    (void)x;
    (void)out;
    return 0;
}

const char *zb_pick_kernels(void) { return have_f16c() ? "f16c" : "software"; }

static int pick_wide(const zb_tree *t, int32_t node, int64_t s, int32_t k, double fpu, double parent_n,
                     double cpuct, double *nj, double *qj)
{
#ifdef HAVE_F16C_PICK
    if (have_f16c())
        return pick_wide_f16c(t, node, s, k, fpu, parent_n, cpuct, nj, qj);
#endif
    return pick_wide_soft(t, node, s, k, fpu, parent_n, cpuct, nj, qj);
}

/* Tree._pick_small: Python floats (double) throughout */
static int pick_small(const zb_tree *t, int32_t node, int64_t s, int32_t k, double fpu, double parent_n,
                      double cpuct, double *nj, double *qj)
{
    double c = cpuct * sqrt(parent_n + 1e-8);
    int floored = t->n_floored[node] != 0;
    int done = t->n_done[node];
    int skip_known = 0 < done && done < k;
    double best = -INFINITY;
    int j = 0;
    for (int32_t i = 0; i < k; i++) {
        int32_t kid = t->e_child[s + i];
        int64_t x = slot(t, kid);
        if (x < 0)
            return -1;
        if (skip_known && kid >= 0 && !isnan(t->n_term[x]))
            continue;
        double n = (double)t->n_visits[x];
        double q = n > 0.0 ? (double)t->n_wsum[x] / n : fpu;
        if (floored) {
            double floor = (double)t->n_best[x];
            if (t->n_owner[x] == t->n_player[x])
                q = floor > q ? floor : q;          /* max(q, floor) */
            else
                q = -floor < q ? -floor : q;        /* min(q, -floor) */
        }
        double bonus = c * (double)zb_half_to_float(t->e_prior[s + i]);
        bonus = bonus / (1.0 + n);
        double score = q + bonus;
        if (score > best) {
            best = score;
            j = i;
        }
    }
    int64_t x = slot(t, t->e_child[s + j]);
    double n = (double)t->n_visits[x];
    *nj = n;
    *qj = n > 0.0 ? (double)t->n_wsum[x] / n : fpu;
    return j;
}

int zb_pick(const zb_tree *t, int32_t node, double fpu, double parent_n, double cpuct, int small_node,
            double *nj, double *qj)
{
    if (node < 0 || node >= t->nodes)
        return -1;
    int64_t s = t->n_start[node];
    int32_t k = t->n_count[node];
    if (k <= 0 || s < 0 || s + k > t->edges)
        return -1;
    if (k <= small_node)
        return pick_small(t, node, s, k, fpu, parent_n, cpuct, nj, qj);
    return pick_wide(t, node, s, k, fpu, parent_n, cpuct, nj, qj);
}

int zb_descend(const zb_tree *t, int32_t node, double parent_n, double q_node, double cpuct, double fpu_reduction,
               int small_node, int32_t root_win, int root_python, int32_t *path, int64_t *len, int64_t cap,
               zb_stop *stop)
{
    /* a tree has fewer levels than nodes: a longer walk means the arrays hold a cycle */
    for (int64_t steps = 0; steps <= t->nodes; steps++) {
        stop->node = node;
        stop->edge = -1;
        stop->parent_n = parent_n;
        stop->q_node = q_node;
        if (node < 0 || node >= t->nodes - 1)
            return ZB_BAD;
        if (!isnan(t->n_term[node]))
            return ZB_TERMINAL;
        int32_t k = t->n_count[node];
        if (k == 0)
            return ZB_LEAF;
        if (*len >= cap)
            return ZB_FULL;
        if (node == 0 && root_win >= 0) {   /* a proven win: nothing else is worth a visit */
            path[(*len)++] = root_win;
            node = root_win;
            continue;
        }
        if (node == 0 && root_python)
            return ZB_ROOT;
        double nj, qj;
        int j = zb_pick(t, node, q_node - fpu_reduction, parent_n, cpuct, small_node, &nj, &qj);
        if (j < 0)
            return ZB_BAD;
        int32_t child = t->e_child[t->n_start[node] + j];
        if (child < 0) {
            stop->edge = j;
            stop->parent_n = nj;
            stop->q_node = qj;
            return ZB_NEW;
        }
        if (child >= t->nodes - 1)
            return ZB_BAD;
        path[(*len)++] = child;
        parent_n = nj;
        q_node = t->n_player[child] != t->n_player[node] ? -qj : qj;
        node = child;
    }
    return ZB_BAD;
}

int zb_virtual_loss(zb_tree *t, const int32_t *path, int64_t len, double vl)
{
    float v = (float)vl;   /* arr += vl: the scalar in float32, a float32 sum */
    for (int64_t i = 0; i < len; i++)
        if (path[i] < 0 || path[i] >= t->nodes)
            return 0;
    for (int64_t i = 0; i < len; i++) {
        t->n_visits[path[i]] += v;
        t->n_wsum[path[i]] -= v;
    }
    return 1;
}

int zb_backup(zb_tree *t, const int32_t *path, int64_t len, double value, int leaf_player, double vl)
{
    float visits = (float)(1.0 - vl);   /* n_visits += 1.0 - vl: float32 */
    for (int64_t i = 0; i < len; i++)
        if (path[i] < 0 || path[i] >= t->nodes)
            return 0;
    for (int64_t i = 0; i < len; i++) {
        int32_t x = path[i];
        /* n_wsum += np.where(owner == leaf_player, value, -value) + vl: float64, then stored as float32 */
        double add = (t->n_owner[x] == leaf_player ? value : -value) + vl;
        t->n_wsum[x] = (float)((double)t->n_wsum[x] + add);
        t->n_visits[x] += visits;
    }
    return 1;
}

int64_t zb_subtree_nodes(const zb_tree *t, int32_t root, int64_t *nodes, int64_t cap)
{
    /* nodes = [child]; for each n in order: nodes.extend(kids[kids >= 0]) */
    if (root < 0 || root >= t->nodes - 1 || cap < 1)
        return ZB_BAD;
    int64_t n = 0;
    nodes[n++] = root;
    for (int64_t i = 0; i < n; i++) {
        int64_t node = nodes[i];
        int32_t k = t->n_count[node], s = t->n_start[node];
        if (k == 0)
            continue;
        if (k < 0 || s < 0 || (int64_t)s + k > t->edges)
            return ZB_BAD;
        for (int32_t j = 0; j < k; j++) {
            int32_t c = t->e_child[s + j];
            if (c < 0)
                continue;
            if (c >= t->nodes - 1 || n >= cap)
                return ZB_BAD;
            nodes[n++] = c;
        }
    }
    return n;
}

int64_t zb_subtree_edges(const zb_tree *t, const int64_t *nodes, int64_t n, int64_t *edges)
{
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) {
        int32_t k = t->n_count[nodes[i]], s = t->n_start[nodes[i]];
        for (int32_t j = 0; j < k; j++)
            edges[m++] = (int64_t)s + j;
    }
    return m;
}

/* --- the batch priors' softmax -------------------------------------------------------------- */

/* numpy's pairwise summation (numpy/_core/src/umath/loops_utils.h.src, pairwise_sum), for float32
 * and float64: under 8 one by one, up to 128 in eight running sums added in pairs then the rest
 * one by one, past that the two halves (split at a multiple of 8) summed apart */
#define DEF_PAIRWISE(NAME, T)                                                                     \
    static T NAME(const T *a, int64_t n)                                                          \
    {                                                                                             \
        if (n < 8) {                                                                              \
            T res = 0;                                                                            \
            for (int64_t i = 0; i < n; i++)                                                       \
                res += a[i];                                                                      \
            return res;                                                                           \
        }                                                                                         \
        if (n <= 128) {                                                                           \
            T r[8];                                                                               \
            for (int j = 0; j < 8; j++)                                                           \
                r[j] = a[j];                                                                      \
            int64_t i;                                                                            \
            for (i = 8; i < n - (n % 8); i += 8)                                                  \
                for (int j = 0; j < 8; j++)                                                       \
                    r[j] += a[i + j];                                                             \
            T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));             \
            for (; i < n; i++)                                                                    \
                res += a[i];                                                                      \
            return res;                                                                           \
        }                                                                                         \
        int64_t n2 = n / 2;                                                                       \
        n2 -= n2 % 8;                                                                             \
        return NAME(a, n2) + NAME(a + n2, n - n2);                                                \
    }

DEF_PAIRWISE(pairwise, float)
DEF_PAIRWISE(pairwise_d, double)

/* np.add.reduce of a contiguous float32 array: the identity 0 plus the pairwise sum */
float zb_pairwise_sum(const float *a, int64_t n)
{
    float zero = 0.0f;
    return zero + pairwise(a, n);
}

int zb_softmax_shift(const float *logits, int64_t rows, int64_t actions, const int64_t *idx, const int64_t *lens,
                     float *z)
{
    int64_t k = 0;
    for (int64_t r = 0; r < rows; r++) {
        const float *row = logits + r * actions;
        int64_t start = k;
        for (int64_t i = 0; i < lens[r]; i++, k++) {
            if (idx[k] < 0 || idx[k] >= actions)
                return 0;
            z[k] = row[idx[k]];
        }
        if (k == start)
            continue;
        float m = z[start];   /* np.maximum.reduceat: m = maximum(m, x), a NaN kept */
        for (int64_t i = start + 1; i < k; i++)
            if (!(m >= z[i] || isnan(m)))
                m = z[i];
        for (int64_t i = start; i < k; i++)
            z[i] = z[i] - m;
    }
    return 1;
}

void zb_softmax_scale(float *z, int64_t rows, const int64_t *lens)
{
    for (int64_t r = 0; r < rows; r++) {
        float total = zb_pairwise_sum(z, lens[r]);
        for (int64_t i = 0; i < lens[r]; i++)
            z[i] = z[i] / total;
        z += lens[r];
    }
}

/* --- prior floors ---------------------------------------------------------------------------- */

double zb_pairwise_sum_d(const double *a, int64_t n)
{
    double zero = 0.0;
    return zero + pairwise_d(a, n);
}

/* the priors a node can have: its legal moves (xiangqi at most ~120, gomoku's board 225) */
#define FLOOR_STACK 512

int zb_floor_priors(const float *pri, int64_t n, const int64_t *j, const double *f, int64_t m, float *out)
{
    /* raised = {}: for action, floor: if floor > pri[j]: raised[j] = max(raised.get(j, 0.0), floor) */
    int64_t rj[ZB_MAX_FLOORS];
    double rf[ZB_MAX_FLOORS];
    int64_t k = 0;
    if (m > ZB_MAX_FLOORS)
        return -1;
    for (int64_t i = 0; i < m; i++) {
        if (j[i] < 0 || j[i] >= n || !(f[i] > (double)pri[j[i]]))
            continue;
        int64_t at = 0;
        while (at < k && rj[at] != j[i])
            at++;
        if (at == k) {
            rj[k] = j[i];
            rf[k++] = 0.0;
        }
        if (f[i] > rf[at])   /* max(raised.get(j, 0.0), floor): the floor only where larger */
            rf[at] = f[i];
    }
    if (k == 0)
        return 0;
    double total = 0.0;   /* sum(raised.values()), in insertion order */
    for (int64_t i = 0; i < k; i++)
        total += rf[i];
    if (total > 0.9) {
        for (int64_t i = 0; i < k; i++)
            rf[i] = rf[i] * 0.9 / total;
        total = 0.9;
    }
    double stack[FLOOR_STACK], others_stack[FLOOR_STACK];
    double *p = n <= FLOOR_STACK ? stack : malloc((size_t)n * sizeof *p);
    double *others = n <= FLOOR_STACK ? others_stack : malloc((size_t)n * sizeof *others);
    if (p == NULL || others == NULL) {
        if (p != stack)
            free(p);
        if (others != others_stack)
            free(others);
        return -1;
    }
    int64_t no = 0;
    for (int64_t i = 0; i < n; i++) {
        p[i] = (double)pri[i];
        int raised = 0;
        for (int64_t r = 0; r < k && !raised; r++)
            raised = rj[r] == i;
        if (!raised)
            others[no++] = p[i];
    }
    double rest = zb_pairwise_sum_d(others, no);   /* float(pri[mask].sum()) */
    double factor = rest > 0 ? (1.0 - total) / rest : 0.0;
    for (int64_t i = 0; i < n; i++) {
        int raised = 0;
        for (int64_t r = 0; r < k && !raised; r++)
            raised = rj[r] == i;
        if (!raised)
            p[i] = p[i] * factor;   /* pri[mask] *= factor */
    }
    for (int64_t r = 0; r < k; r++)
        p[rj[r]] = rf[r];
    double sum = zb_pairwise_sum_d(p, n);   /* (pri / pri.sum()).astype(np.float32) */
    for (int64_t i = 0; i < n; i++)
        out[i] = (float)(p[i] / sum);
    if (p != stack)
        free(p);
    if (others != others_stack)
        free(others);
    return 1;
}
