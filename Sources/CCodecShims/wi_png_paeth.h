// The Paeth predictor in SSE2, shared by the PNG reader's unfilter and the encoder's filter;
// internal to the shim.
#ifndef WI_PNG_PAETH_H
#define WI_PNG_PAETH_H

#if defined(__SSE2__)
#include <emmintrin.h>

/// The Paeth predictors of one pixel's channels (16-bit lanes) from left `a`, above `b` and
/// upper-left `c`, without branches: with p = a + b − c, |p − a| = |b − c|, |p − b| = |a − c|
/// and |p − c| = |(b − c) + (a − c)|; ties go to a, then b.
static inline __attribute__((always_inline)) __m128i wi_paeth_predictor_simd(__m128i a, __m128i b, __m128i c) {
    const __m128i zero = _mm_setzero_si128();
    __m128i dbc = _mm_sub_epi16(b, c);
    __m128i dac = _mm_sub_epi16(a, c);
    __m128i sum = _mm_add_epi16(dbc, dac);
    __m128i pa = _mm_max_epi16(dbc, _mm_sub_epi16(zero, dbc));
    __m128i pb = _mm_max_epi16(dac, _mm_sub_epi16(zero, dac));
    __m128i pc = _mm_max_epi16(sum, _mm_sub_epi16(zero, sum));
    __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
    // c, replaced by b where b is nearest, then by a where a is.
    __m128i predictor = c;
    predictor = _mm_xor_si128(predictor, _mm_and_si128(_mm_cmpeq_epi16(smallest, pb), _mm_xor_si128(b, predictor)));
    predictor = _mm_xor_si128(predictor, _mm_and_si128(_mm_cmpeq_epi16(smallest, pa), _mm_xor_si128(a, predictor)));
    return predictor;
}

#endif

#endif
