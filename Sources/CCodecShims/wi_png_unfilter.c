// PNG's five row filters, reversed (PNG specification §9): SSE2 for 3 and 4 bytes per pixel
// (8-bit RGB and RGBA, the web's PNGs), the specification's arithmetic for the rest.
#include "wi_png_rows.h"
#include "wi_png_paeth.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The Paeth predictor of the specification: whichever of left, above and upper-left is
/// nearest to left + above − upper-left, ties going in that order.
static uint8_t wi_paeth_predictor(int a, int b, int c) {
    int p = a + b - c;
    int pa = p > a ? p - a : a - p;
    int pb = p > b ? p - b : b - p;
    int pc = p > c ? p - c : c - p;
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

static void wi_unfilter_scalar(uint8_t type, uint8_t *row, const uint8_t *prior, size_t length,
                               unsigned bpp) {
    switch (type) {
    case 1:
        for (size_t i = bpp; i < length; i++) row[i] = (uint8_t)(row[i] + row[i - bpp]);
        break;
    case 2:
        for (size_t i = 0; i < length; i++) row[i] = (uint8_t)(row[i] + prior[i]);
        break;
    case 3:
        for (size_t i = 0; i < length; i++) {
            unsigned left = i >= bpp ? row[i - bpp] : 0;
            row[i] = (uint8_t)(row[i] + ((left + prior[i]) >> 1));
        }
        break;
    case 4:
        for (size_t i = 0; i < length; i++) {
            int left = i >= bpp ? row[i - bpp] : 0;
            int upperLeft = i >= bpp ? prior[i - bpp] : 0;
            row[i] = (uint8_t)(row[i] + wi_paeth_predictor(left, prior[i], upperLeft));
        }
        break;
    default:
        break;
    }
}

#if defined(__SSE2__)

/// Every SSE2 filter below is inlined with a constant `bpp`, so that its 3- or 4-byte copies
/// compile to plain loads and stores instead of calls to memcpy.
#define WI_INLINE static inline __attribute__((always_inline))

/// The `bpp` (3 or 4) bytes at `p` in the low lanes of a vector. Reads exactly `bpp` bytes.
WI_INLINE __m128i wi_load_pixel(const uint8_t *p, unsigned bpp) {
    uint32_t v = 0;
    memcpy(&v, p, bpp);
    return _mm_cvtsi32_si128((int)v);
}

/// Writes the low `bpp` (3 or 4) bytes of `v` to `p`.
WI_INLINE void wi_store_pixel(uint8_t *p, __m128i v, unsigned bpp) {
    uint32_t x = (uint32_t)_mm_cvtsi128_si32(v);
    memcpy(p, &x, bpp);
}

/// Up: every byte plus the byte above, 16 at a time.
static void wi_unfilter_up(uint8_t *row, const uint8_t *prior, size_t length) {
    size_t i = 0;
    for (; i + 16 <= length; i += 16) {
        __m128i r = _mm_loadu_si128((const __m128i *)(row + i));
        __m128i p = _mm_loadu_si128((const __m128i *)(prior + i));
        _mm_storeu_si128((__m128i *)(row + i), _mm_add_epi8(r, p));
    }
    for (; i < length; i++) row[i] = (uint8_t)(row[i] + prior[i]);
}

/// Sub: every pixel plus the pixel to its left, one pixel's bytes at a time.
WI_INLINE void wi_unfilter_sub(uint8_t *row, size_t length, unsigned bpp) {
    __m128i a = _mm_setzero_si128();
    for (size_t i = 0; i < length; i += bpp) {
        a = _mm_add_epi8(a, wi_load_pixel(row + i, bpp));
        wi_store_pixel(row + i, a, bpp);
    }
}

/// Average: every pixel plus the floor of the mean of left and above.
WI_INLINE void wi_unfilter_average(uint8_t *row, const uint8_t *prior, size_t length, unsigned bpp) {
    __m128i a = _mm_setzero_si128();
    const __m128i one = _mm_set1_epi8(1);
    for (size_t i = 0; i < length; i += bpp) {
        __m128i b = wi_load_pixel(prior + i, bpp);
        // _mm_avg_epu8 rounds up; subtracting the lost low bit rounds down instead.
        __m128i mean = _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), one));
        a = _mm_add_epi8(wi_load_pixel(row + i, bpp), mean);
        wi_store_pixel(row + i, a, bpp);
    }
}

/// Paeth from byte `i` of the row to its end, `a` and `c` holding the pixels left of `i` in
/// this row and the row above, one pixel's bytes at a time.
WI_INLINE void wi_unfilter_paeth_from(uint8_t *row, const uint8_t *prior, size_t i, size_t length, unsigned bpp,
                                      __m128i a, __m128i c) {
    const __m128i zero = _mm_setzero_si128();
    for (; i < length; i += bpp) {
        __m128i b = _mm_unpacklo_epi8(wi_load_pixel(prior + i, bpp), zero);
        __m128i x = _mm_unpacklo_epi8(wi_load_pixel(row + i, bpp), zero);
        a = _mm_add_epi8(x, wi_paeth_predictor_simd(a, b, c));
        c = b;
        wi_store_pixel(row + i, _mm_packus_epi16(a, a), bpp);
    }
}

/// Paeth: every pixel plus its Paeth predictor, the channels of one pixel computed together
/// in 16-bit lanes. Bytes wrap modulo 256 (_mm_add_epi8; each lane's high byte stays 0).
WI_INLINE void wi_unfilter_paeth(uint8_t *row, const uint8_t *prior, size_t length, unsigned bpp) {
    const __m128i zero = _mm_setzero_si128();
    __m128i a = zero, c = zero;
    size_t i = 0;
    if (bpp == 3) {
        // 4-byte loads while the 4th byte is still inside the row (its lane is masked out);
        // 3-byte stores, so that no load overlaps the store just before it (see the SSE4.1 one).
        const __m128i three = _mm_setr_epi16(-1, -1, -1, 0, 0, 0, 0, 0);
        for (; i + 3 < length; i += 3) {
            __m128i b = _mm_unpacklo_epi8(wi_load_pixel(prior + i, 4), zero);
            __m128i x = _mm_unpacklo_epi8(wi_load_pixel(row + i, 4), zero);
            a = _mm_add_epi8(x, _mm_and_si128(wi_paeth_predictor_simd(a, b, c), three));
            c = b;
            wi_store_pixel(row + i, _mm_packus_epi16(a, a), 3);
        }
    }
    wi_unfilter_paeth_from(row, prior, i, length, bpp, a, c);
}

#if defined(__x86_64__) || defined(__i386__)
#include <smmintrin.h>
#define WI_HAVE_SSE41_DISPATCH 1

/// The Paeth predictors (16-bit lanes) from left `a`, above `b` and upper-left `c`, with
/// SSSE3's abs and SSE4.1's blend: the chain from one pixel to the next (left `a` feeds the next
/// predictor) is about two thirds as long as with SSE2 alone (wi_png_paeth.h), and that chain,
/// not the instruction count, bounds the filter. `pa` = |b − c| does not depend on `a` at all;
/// `a` wins where pa ≤ pb and pa ≤ pc, else `b` where pb ≤ pc, else `c`.
__attribute__((target("sse4.1"), always_inline)) static inline __m128i
wi_paeth_predictor_sse41(__m128i a, __m128i b, __m128i c) {
    __m128i dbc = _mm_sub_epi16(b, c);
    __m128i dac = _mm_sub_epi16(a, c);
    __m128i pa = _mm_abs_epi16(dbc);
    __m128i pb = _mm_abs_epi16(dac);
    __m128i pc = _mm_abs_epi16(_mm_add_epi16(dbc, dac));
    __m128i notA = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
    __m128i bc = _mm_blendv_epi8(b, c, _mm_cmpgt_epi16(pb, pc));
    return _mm_blendv_epi8(a, bc, notA);
}

/// Paeth on one row with wi_paeth_predictor_sse41.
__attribute__((target("sse4.1"), always_inline)) static inline void
wi_unfilter_paeth_sse41_bpp(uint8_t *row, const uint8_t *prior, size_t length, unsigned bpp) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i three = _mm_setr_epi16(-1, -1, -1, 0, 0, 0, 0, 0);
    __m128i a = zero, c = zero;
    size_t i = 0;
    // With 3 bytes a pixel, 4-byte loads while the 4th byte is inside the row (its lane is
    // masked out). Stores stay 3 bytes: a 4-byte store would overlap the next pixel's load,
    // which the processor cannot forward from a store, and would stall on every pixel.
    const unsigned step = bpp == 3 ? 4 : bpp;
    const __m128i keep = bpp == 3 ? three : _mm_set1_epi16(-1);
    for (; i + step <= length; i += bpp) {
        __m128i b = _mm_unpacklo_epi8(wi_load_pixel(prior + i, step), zero);
        __m128i x = _mm_unpacklo_epi8(wi_load_pixel(row + i, step), zero);
        __m128i predictor = _mm_and_si128(wi_paeth_predictor_sse41(a, b, c), keep);
        a = _mm_add_epi8(x, predictor);
        c = b;
        wi_store_pixel(row + i, _mm_packus_epi16(a, a), bpp);
    }
    wi_unfilter_paeth_from(row, prior, i, length, bpp, a, c);
}

__attribute__((target("sse4.1"))) static void wi_unfilter_paeth3_sse41(uint8_t *row, const uint8_t *prior, size_t length) {
    wi_unfilter_paeth_sse41_bpp(row, prior, length, 3);
}

__attribute__((target("sse4.1"))) static void wi_unfilter_paeth4_sse41(uint8_t *row, const uint8_t *prior, size_t length) {
    wi_unfilter_paeth_sse41_bpp(row, prior, length, 4);
}

/// One step of the paired Paeth filter: pixel `k` of `row` in the low half of the vectors and
/// pixel `k − 1` of `next` in the high half. `out` holds the previous step's results (row's
/// pixel k − 1, next's pixel k − 2): the left neighbours of both, and in its low half the pixel
/// above next's; `c` holds the previous step's `b`, the upper-left neighbours of both. A side
/// without a pixel (`low`/`high` 0) reads and writes nothing; `lowLoad`/`highLoad` are the
/// bytes loaded (4 for 3-byte pixels while a 4th byte is still inside the row).
__attribute__((target("sse4.1"), always_inline)) static inline void
wi_paeth_pair_step(uint8_t *row, uint8_t *next, const uint8_t *prior, size_t k, unsigned bpp, int low, int high,
                   unsigned lowLoad, unsigned highLoad, __m128i keep, __m128i *out, __m128i *c) {
    const __m128i zero = _mm_setzero_si128();
    __m128i above = low ? _mm_unpacklo_epi8(wi_load_pixel(prior + k * bpp, lowLoad), zero) : zero;
    __m128i x0 = low ? _mm_unpacklo_epi8(wi_load_pixel(row + k * bpp, lowLoad), zero) : zero;
    __m128i x1 = high ? _mm_unpacklo_epi8(wi_load_pixel(next + (k - 1) * bpp, highLoad), zero) : zero;
    __m128i a = *out;
    __m128i b = _mm_unpacklo_epi64(above, a);
    __m128i predictor = _mm_and_si128(wi_paeth_predictor_sse41(a, b, *c), keep);
    *out = _mm_add_epi8(_mm_unpacklo_epi64(x0, x1), predictor);
    *c = b;
    __m128i packed = _mm_packus_epi16(*out, *out);
    if (low) {
        uint32_t v = (uint32_t)_mm_cvtsi128_si32(packed);
        memcpy(row + k * bpp, &v, bpp);
    }
    if (high) {
        uint32_t v = (uint32_t)_mm_extract_epi32(packed, 1);
        memcpy(next + (k - 1) * bpp, &v, bpp);
    }
}

/// Paeth on two rows at once, `row` and `next` just below it: next runs one pixel behind row,
/// so the pixels it takes from row (above and upper-left) are already in registers. One row's
/// pixels wait on each other one after another, so a single row is bound by that chain's
/// latency, not by the work; here each step carries one pixel of each row down the same chain,
/// in the two halves of the vectors, and two rows take little more than the time of one.
__attribute__((target("sse4.1"), always_inline)) static inline void
wi_unfilter_paeth_pair_sse41_bpp(uint8_t *row, uint8_t *next, const uint8_t *prior, size_t length, unsigned bpp) {
    const size_t n = length / bpp;
    const unsigned wide = bpp == 3 ? 4 : bpp;
    const __m128i keep = bpp == 3 ? _mm_setr_epi16(-1, -1, -1, 0, -1, -1, -1, 0) : _mm_set1_epi16(-1);
    __m128i out = _mm_setzero_si128(), c = _mm_setzero_si128();
    wi_paeth_pair_step(row, next, prior, 0, bpp, 1, 0, bpp, bpp, keep, &out, &c);
    size_t k = 1;
    for (; k + 1 < n; k++) wi_paeth_pair_step(row, next, prior, k, bpp, 1, 1, wide, wide, keep, &out, &c);
    if (n > 1) wi_paeth_pair_step(row, next, prior, k++, bpp, 1, 1, bpp, wide, keep, &out, &c);
    wi_paeth_pair_step(row, next, prior, k, bpp, 0, 1, bpp, bpp, keep, &out, &c);
}

__attribute__((target("sse4.1"))) static void wi_unfilter_paeth3_pair_sse41(uint8_t *row, uint8_t *next, const uint8_t *prior,
                                                                            size_t length) {
    wi_unfilter_paeth_pair_sse41_bpp(row, next, prior, length, 3);
}

__attribute__((target("sse4.1"))) static void wi_unfilter_paeth4_pair_sse41(uint8_t *row, uint8_t *next, const uint8_t *prior,
                                                                            size_t length) {
    wi_unfilter_paeth_pair_sse41_bpp(row, next, prior, length, 4);
}

static int wi_has_sse41(void) { return __builtin_cpu_supports("sse4.1"); }
#endif

#endif

/// wi_png_unfilter_row, with SSE4.1 allowed or not.
static int wi_unfilter_row(uint8_t type, uint8_t *row, const uint8_t *prior, size_t length,
                           unsigned bpp, int sse41) {
    if (type > 4) return 0;
    if (type == 0) return 1;
#if defined(__SSE2__)
    if (type == 2) {
        wi_unfilter_up(row, prior, length);
        return 1;
    }
#if defined(WI_HAVE_SSE41_DISPATCH)
    if (sse41 && type == 4 && length % bpp == 0 && (bpp == 3 || bpp == 4) && wi_has_sse41()) {
        if (bpp == 3) wi_unfilter_paeth3_sse41(row, prior, length);
        else wi_unfilter_paeth4_sse41(row, prior, length);
        return 1;
    }
#endif
    if (bpp == 3 && length % 3 == 0) {
        switch (type) {
        case 1: wi_unfilter_sub(row, length, 3); return 1;
        case 3: wi_unfilter_average(row, prior, length, 3); return 1;
        default: wi_unfilter_paeth(row, prior, length, 3); return 1;
        }
    }
    if (bpp == 4 && length % 4 == 0) {
        switch (type) {
        case 1: wi_unfilter_sub(row, length, 4); return 1;
        case 3: wi_unfilter_average(row, prior, length, 4); return 1;
        default: wi_unfilter_paeth(row, prior, length, 4); return 1;
        }
    }
#endif
    wi_unfilter_scalar(type, row, prior, length, bpp);
    return 1;
}

int wi_png_unfilter_row(uint8_t type, uint8_t *row, const uint8_t *prior, size_t length,
                        unsigned bpp) {
    return wi_unfilter_row(type, row, prior, length, bpp, 1);
}

int wi_png_unfilter_row_baseline(uint8_t type, uint8_t *row, const uint8_t *prior, size_t length,
                                 unsigned bpp) {
    return wi_unfilter_row(type, row, prior, length, bpp, 0);
}

int wi_png_unfilter_paeth_pair(uint8_t *row, uint8_t *next, const uint8_t *prior, size_t length, unsigned bpp) {
#if defined(WI_HAVE_SSE41_DISPATCH)
    if (length == 0 || length % bpp != 0 || (bpp != 3 && bpp != 4) || !wi_has_sse41()) return 0;
    if (bpp == 3) wi_unfilter_paeth3_pair_sse41(row, next, prior, length);
    else wi_unfilter_paeth4_pair_sse41(row, next, prior, length);
    return 1;
#else
    (void)row; (void)next; (void)prior; (void)length; (void)bpp;
    return 0;
#endif
}
