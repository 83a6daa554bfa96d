// See wi_resample.h. Plain C over vector types: the compiler turns each loop into SSE, AVX2
// with FMA (the x86-64-v3 clone) or NEON, whichever the build and the CPU allow.
#include "wi_resample.h"

#include <string.h>

#if defined(__x86_64__) && defined(__ELF__)
#define WI_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define WI_CLONES
#endif

typedef float wi_pixel __attribute__((vector_size(16), aligned(4)));
typedef int32_t wi_pixel_int __attribute__((vector_size(16)));
typedef uint8_t wi_pixel_bytes __attribute__((vector_size(4)));

static inline wi_pixel wi_load(const float *p) {
    wi_pixel v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void wi_store(float *p, wi_pixel v) { memcpy(p, &v, sizeof v); }

/// Two pixels side by side.
typedef float wi_two_pixels __attribute__((vector_size(32), aligned(4)));

/// A macro, not a function: a function returning eight Floats would change its ABI between the
/// baseline and the AVX build.
#define wi_load_two(p) ({ wi_two_pixels two_; memcpy(&two_, (p), sizeof two_); two_; })

WI_CLONES
bool wi_resample_load_row(const uint8_t *rgba, float *pixels, size_t count) {
    uint8_t alphas = 255;
    for (size_t i = 0; i < count * 4; i++) pixels[i] = rgba[i];
    for (size_t x = 0; x < count; x++) alphas &= rgba[x * 4 + 3];
    return alphas == 255;
}

WI_CLONES
void wi_resample_filter_row(const float *row, float *out, size_t outCount, const ptrdiff_t *starts,
                            const ptrdiff_t *counts, const float *weights, size_t stride) {
    for (size_t x = 0; x < outCount; x++) {
        const float *pixel = row + starts[x] * 4;
        const float *weight = weights + x * stride * 4;
        // Two taps a step, as eight Floats (one AVX register); four sums break the chain of
        // dependent additions.
        wi_two_pixels a = {0}, b = a, c = a, d = a;
        ptrdiff_t k = 0, n = counts[x];
        for (; k + 8 <= n; k += 8) {
            a += wi_load_two(pixel + k * 4) * wi_load_two(weight + k * 4);
            b += wi_load_two(pixel + k * 4 + 8) * wi_load_two(weight + k * 4 + 8);
            c += wi_load_two(pixel + k * 4 + 16) * wi_load_two(weight + k * 4 + 16);
            d += wi_load_two(pixel + k * 4 + 24) * wi_load_two(weight + k * 4 + 24);
        }
        for (; k + 2 <= n; k += 2) a += wi_load_two(pixel + k * 4) * wi_load_two(weight + k * 4);
        wi_two_pixels pairs = (a + b) + (c + d);
        wi_pixel total = __builtin_shufflevector(pairs, pairs, 0, 1, 2, 3) + __builtin_shufflevector(pairs, pairs, 4, 5, 6, 7);
        if (k < n) total += wi_load(pixel + k * 4) * wi_load(weight + k * 4);
        wi_store(out + x * 4, total);
    }
}

WI_CLONES
void wi_resample_sum_rows(const float *ring, size_t ringRows, size_t firstSlot, size_t count,
                          const float *weights, size_t width, float *sum) {
    const size_t floats = width * 4;
    if (count == 0) {
        memset(sum, 0, floats * sizeof *sum);
        return;
    }
#define WI_ROW(k) (ring + ((firstSlot + (k)) % ringRows) * floats)
    // The first rows set the sums; the rest are added four at a time, so each sum is loaded
    // and stored once for four rows.
    const float *first = WI_ROW(0);
    const float w0 = weights[0];
    for (size_t i = 0; i < floats; i++) sum[i] = first[i] * w0;
    size_t k = 1;
    for (; k + 4 <= count; k += 4) {
        const float *r0 = WI_ROW(k), *r1 = WI_ROW(k + 1), *r2 = WI_ROW(k + 2), *r3 = WI_ROW(k + 3);
        const float a = weights[k], b = weights[k + 1], c = weights[k + 2], d = weights[k + 3];
        for (size_t i = 0; i < floats; i++) sum[i] += (r0[i] * a + r1[i] * b) + (r2[i] * c + r3[i] * d);
    }
    for (; k < count; k++) {
        const float *r = WI_ROW(k);
        const float a = weights[k];
        for (size_t i = 0; i < floats; i++) sum[i] += r[i] * a;
    }
#undef WI_ROW
}

WI_CLONES
void wi_resample_store_opaque(const float *pixels, uint8_t *rgba, size_t count) {
    const wi_pixel zero = {0, 0, 0, 0}, top = {255, 255, 255, 255}, half = {0.5f, 0.5f, 0.5f, 0.5f};
    for (size_t x = 0; x < count; x++) {
        wi_pixel v = __builtin_elementwise_min(__builtin_elementwise_max(wi_load(pixels + x * 4), zero), top);
        wi_pixel_bytes bytes = __builtin_convertvector(__builtin_convertvector(v + half, wi_pixel_int), wi_pixel_bytes);
        bytes[3] = 255;
        memcpy(rgba + x * 4, &bytes, sizeof bytes);
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

WI_CLONES
bool wi_resample_row_is_opaque(const uint8_t *rgba, size_t count) {
    uint8_t alphas = 255;
    for (size_t x = 0; x < count; x++) alphas &= rgba[x * 4 + 3];
    return alphas == 255;
}

/// 1 / WI_RESAMPLE_FIXED_ONE: a sum of pixels times fixed-point weights back on 0…255.
static const float wi_fixed_scale = 1.0f / WI_RESAMPLE_FIXED_ONE;

/// Two pixels' eight bytes (the low half of `eight`) as 16-bit lanes channel by channel,
/// R0 R1 G0 G1 B0 B1 A0 A1: the order a multiply-add with a pair of weights takes.
static inline __m128i wi_pair_lanes(__m128i eight) {
    __m128i wide = _mm_unpacklo_epi8(eight, _mm_setzero_si128());
    return _mm_unpacklo_epi16(wide, _mm_srli_si128(wide, 8));
}

/// `sum` plus taps `k` to `n` of one output pixel, two at a time, then a last odd one.
static inline __m128i wi_filter_taps_sse2(const uint8_t *pixel, const int16_t *pairs, ptrdiff_t k, ptrdiff_t n,
                                          __m128i sum) {
    for (; k + 2 <= n; k += 2) {
        __m128i lanes = wi_pair_lanes(_mm_loadl_epi64((const __m128i *)(pixel + k * 4)));
        sum = _mm_add_epi32(sum, _mm_madd_epi16(lanes, _mm_loadu_si128((const __m128i *)(pairs + k * 4))));
    }
    if (k < n) {
        int32_t one;
        memcpy(&one, pixel + k * 4, sizeof one);
        __m128i lanes = wi_pair_lanes(_mm_cvtsi32_si128(one));
        sum = _mm_add_epi32(sum, _mm_madd_epi16(lanes, _mm_loadu_si128((const __m128i *)(pairs + k * 4))));
    }
    return sum;
}

/// A pixel's four integer sums as Floats on 0…255, into `out`.
static inline void wi_store_fixed(float *out, __m128i sum) {
    _mm_storeu_ps(out, _mm_mul_ps(_mm_cvtepi32_ps(sum), _mm_set1_ps(wi_fixed_scale)));
}

void wi_resample_filter_row_bytes_baseline(const uint8_t *row, float *out, size_t outCount, const ptrdiff_t *starts,
                                           const ptrdiff_t *counts, const int16_t *pairs, size_t pairStride) {
    for (size_t x = 0; x < outCount; x++) {
        __m128i sum = wi_filter_taps_sse2(row + starts[x] * 4, pairs + x * pairStride * 8, 0, counts[x], _mm_setzero_si128());
        wi_store_fixed(out + x * 4, sum);
    }
}

/// Taps `k` to `k + 3` of one output pixel in one multiply-add: the four pixels' 16 bytes in
/// both halves of a vector, pixels 0 and 1 spread into the low half's lanes and 2 and 3 into
/// the high half's (`order`), against the two pairs of weights.
__attribute__((target("avx2"), always_inline)) static inline __m256i
wi_four_taps_avx2(const uint8_t *pixel, const int16_t *pairs, ptrdiff_t k, __m256i order) {
    __m256i lanes = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(pixel + k * 4))), order);
    return _mm256_madd_epi16(lanes, _mm256_loadu_si256((const __m256i *)(pairs + k * 4)));
}

/// Eight taps a step in two sums, so that the additions do not wait on each other, then four,
/// then the rest as the baseline takes them.
__attribute__((target("avx2"))) static void
wi_filter_row_bytes_avx2(const uint8_t *row, float *out, size_t outCount, const ptrdiff_t *starts,
                         const ptrdiff_t *counts, const int16_t *pairs, size_t pairStride) {
    const char z = (char)0x80;
    const __m256i order = _mm256_setr_epi8(0, z, 4, z, 1, z, 5, z, 2, z, 6, z, 3, z, 7, z,
                                           8, z, 12, z, 9, z, 13, z, 10, z, 14, z, 11, z, 15, z);
    for (size_t x = 0; x < outCount; x++) {
        const uint8_t *pixel = row + starts[x] * 4;
        const int16_t *weights = pairs + x * pairStride * 8;
        __m256i a = _mm256_setzero_si256(), b = a;
        ptrdiff_t k = 0, n = counts[x];
        for (; k + 8 <= n; k += 8) {
            a = _mm256_add_epi32(a, wi_four_taps_avx2(pixel, weights, k, order));
            b = _mm256_add_epi32(b, wi_four_taps_avx2(pixel, weights, k + 4, order));
        }
        if (k + 4 <= n) {
            a = _mm256_add_epi32(a, wi_four_taps_avx2(pixel, weights, k, order));
            k += 4;
        }
        a = _mm256_add_epi32(a, b);
        __m128i sum = _mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
        wi_store_fixed(out + x * 4, wi_filter_taps_sse2(pixel, weights, k, n, sum));
    }
}

void wi_resample_filter_row_bytes(const uint8_t *row, float *out, size_t outCount, const ptrdiff_t *starts,
                                  const ptrdiff_t *counts, const int16_t *pairs, size_t pairStride) {
    if (__builtin_cpu_supports("avx2")) wi_filter_row_bytes_avx2(row, out, outCount, starts, counts, pairs, pairStride);
    else wi_resample_filter_row_bytes_baseline(row, out, outCount, starts, counts, pairs, pairStride);
}
#endif
