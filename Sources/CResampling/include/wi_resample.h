// The inner loops of WebImage's separable convolution (SeparableConvolution.swift): RGBA8 rows
// to Float pixels, a row filtered along its length, rows summed into one, Float pixels back to
// opaque RGBA8. A pixel is four Floats (R, G, B, A on 0…255) side by side.
//
// On x86-64 each function is built twice, for the baseline and for x86-64-v3 (AVX2 and FMA),
// and the loader picks the one the CPU runs; elsewhere once, for the target.
#ifndef WI_RESAMPLE_H
#define WI_RESAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// `count` RGBA8 pixels as Float pixels in `pixels`, not premultiplied; whether every alpha is 255.
bool wi_resample_load_row(const uint8_t *rgba, float *pixels, size_t count);

/// `row`'s pixels filtered into `outCount` pixels in `out`: output pixel `x` is the sum of
/// `counts[x]` pixels from `starts[x]`, weighted by the `stride` weights from
/// `weights + x * stride * 4`, each written four times (once a channel) so that two taps are
/// one vector multiplication.
void wi_resample_filter_row(const float *row, float *out, size_t outCount, const ptrdiff_t *starts,
                            const ptrdiff_t *counts, const float *weights, size_t stride);

#if defined(__x86_64__)
/// Whether all `count` RGBA8 pixels at `rgba` have alpha 255: whether a row takes
/// wi_resample_filter_row_bytes.
bool wi_resample_row_is_opaque(const uint8_t *rgba, size_t count);
/// The fixed-point scale of the weights wi_resample_filter_row_bytes takes: 14 fractional bits.
#define WI_RESAMPLE_FIXED_ONE 16384
/// wi_resample_filter_row for an opaque RGBA8 row, read as bytes rather than widened to Floats
/// first (x86-64 only: elsewhere the Float loop runs): the weights are fixed-point
/// (WI_RESAMPLE_FIXED_ONE is 1), in pairs of taps, each pair written four times (w0, w1, w0, w1,
/// …: 8 values) so that one multiply-add of 16-bit lanes takes two taps of a pixel's four
/// channels; an odd last tap pairs with a zero. Output pixel `x`'s pairs start at
/// `pairs + x * pairStride * 8`, and `counts[x]` is at most `2 * pairStride`. The sums are
/// integers, exact while 255 times the sum of a position's |weights| fits 32 bits, written as
/// Floats on the same 0…255 scale as wi_resample_filter_row's.
void wi_resample_filter_row_bytes(const uint8_t *row, float *out, size_t outCount, const ptrdiff_t *starts,
                                  const ptrdiff_t *counts, const int16_t *pairs, size_t pairStride);
/// wi_resample_filter_row_bytes in SSE2, which every x86-64 CPU runs: what the dispatch picks
/// when AVX2 is missing; exposed so tests compare the two.
void wi_resample_filter_row_bytes_baseline(const uint8_t *row, float *out, size_t outCount, const ptrdiff_t *starts,
                                           const ptrdiff_t *counts, const int16_t *pairs, size_t pairStride);
#endif
/// The weighted sum of `count` rows of `width` pixels into `sum`: row `k` is slot
/// `(firstSlot + k) % ringRows` of `ring` and weighs `weights[k]`.
void wi_resample_sum_rows(const float *ring, size_t ringRows, size_t firstSlot, size_t count,
                          const float *weights, size_t width, float *sum);

/// `count` Float pixels, made of opaque pixels only, as opaque RGBA8: each colour rounded and
/// clamped to 0…255, alpha 255.
void wi_resample_store_opaque(const float *pixels, uint8_t *rgba, size_t count);

#endif
