// Row-by-row PNG decoding to RGBA8, for callers that consume an image a band of rows at a time
// (a thumbnail's resampler) and for whole-image decodes alike.
//
// The common web PNG (8-bit grey, grey + alpha, RGB or RGBA, not interlaced, no tRNS) is read
// by WebImage itself: libdeflate inflates the IDAT stream in one call when the image data is at
// most 8 MiB (twice zlib's speed), zlib a batch of rows at a time when it is larger (a thumbnail
// of a huge PNG never holds it all), and the rows are unfiltered with SSE2 (libpng as packaged by Debian has no SIMD filters, and its Paeth filter
// costs more than inflating). Every other PNG is read by libpng's sequential reader.
//
// The fast reader takes a file only when it decodes it exactly as libpng would: anything it
// does not expect (a CRC mismatch, a zlib error, too little or too much image data) ends it
// with WI_PNG_FALLBACK, and the caller starts again with libpng, whose verdict (an image, or
// its error) is then the answer.
#ifndef WI_PNG_ROWS_H
#define WI_PNG_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "wi_png.h"

/// A PNG being read row by row; opaque.
typedef struct wi_png_rows wi_png_rows;

/// Which reader wi_png_rows_open may use.
typedef enum wi_png_rows_mode {
    /// WebImage's reader when the file qualifies, else libpng's.
    WI_PNG_ROWS_ANY = 0,
    /// libpng's reader only (after the fast one answered WI_PNG_FALLBACK).
    WI_PNG_ROWS_LIBPNG = 1,
    /// WebImage's reader inflating with zlib a batch at a time whatever the size (for tests,
    /// which compare both ways of inflating with libpng).
    WI_PNG_ROWS_STREAMED = 2,
} wi_png_rows_mode;

/// Opens the complete PNG `data` (which must outlive the reader) whose IHDR states `width` ×
/// `height`, for rows of RGBA8 as wi_png_decode produces them. An interlaced PNG cannot be read
/// row by row: opening it fails with WI_PNG_INTERLACED (decode it whole with wi_png_decode).
wi_png_status wi_png_rows_open(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                               wi_png_rows_mode mode, wi_png_rows **reader, wi_png_error *error);

/// Decodes the next `count` rows into `rgba`, `width * 4` bytes a row. WI_PNG_FALLBACK means
/// the fast reader gave up: close this reader and read the file again with WI_PNG_ROWS_LIBPNG.
wi_png_status wi_png_rows_read(wi_png_rows *reader, uint8_t *rgba, uint32_t count,
                               wi_png_error *error);

/// Whether `reader` is WebImage's own reader rather than libpng's (for tests).
int wi_png_rows_is_fast(const wi_png_rows *reader);

/// Releases the reader.
void wi_png_rows_close(wi_png_rows *reader);

/// Reverses the PNG filter `type` (0–4) of one row of `length` bytes in place, given the row
/// above (already unfiltered; all zero for the first row) and `bpp` bytes per pixel (1–8).
/// Returns 0 for an unknown filter type. Exposed so that tests can compare the SIMD filters
/// with the specification's arithmetic.
int wi_png_unfilter_row(uint8_t type, uint8_t *row, const uint8_t *prior, size_t length,
                        unsigned bpp);

/// Reverses the Paeth filter of two rows of `length` bytes in place, `row` and `next` just below
/// it, both Paeth-filtered, given the row above `row`: as two wi_png_unfilter_row calls, in
/// little more than the time of one. Returns 0, touching nothing, where it does not apply
/// (`bpp` other than 3 or 4, or no SSE4.1): unfilter the rows one at a time then.
int wi_png_unfilter_paeth_pair(uint8_t *row, uint8_t *next, const uint8_t *prior, size_t length, unsigned bpp);

/// wi_png_unfilter_row without the SSE4.1 Paeth filter, as on a processor without it: so that
/// tests cover that path on any x86-64.
int wi_png_unfilter_row_baseline(uint8_t type, uint8_t *row, const uint8_t *prior, size_t length,
                                 unsigned bpp);

#endif
