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
