// The PNG encoder (see wi_png.h): truecolour rows filtered as libpng and Pillow filter them by
// default (palette rows unfiltered), then the whole image deflated in one call by libdeflate at
// level 6, zlib's default level and Pillow's. libdeflate reaches that level's compression (its output is a little smaller
// than zlib's) in about a third of zlib's time, and PNG encoding is mostly deflate.
#include "wi_png.h"
#include "wi_png_paeth.h"

#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The deflate level: zlib's Z_DEFAULT_COMPRESSION, as libpng and Pillow use by default.
enum { WI_PNG_DEFLATE_LEVEL = 6 };
/// The PNG filter types, in the order the heuristic tries them (a tie keeps the earlier).
enum { FILTER_NONE, FILTER_SUB, FILTER_UP, FILTER_AVERAGE, FILTER_PAETH, FILTER_COUNT };
/// The largest chunk length PNG allows.
#define WI_PNG_MAX_CHUNK 0x7FFFFFFFu

static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};

static void put32(uint8_t *p, uint32_t value) {
    p[0] = (uint8_t)(value >> 24);
    p[1] = (uint8_t)(value >> 16);
    p[2] = (uint8_t)(value >> 8);
    p[3] = (uint8_t)value;
}

/// Fills in the length and CRC of the chunk at `chunk` whose `length` data bytes follow its type.
static void seal_chunk(uint8_t *chunk, uint32_t length) {
    put32(chunk, length);
    put32(chunk + 8 + length, libdeflate_crc32(0, chunk + 4, (size_t)length + 4));
}

static uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
    int p = a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

/// The sum of `length` filtered bytes taken as signed magnitudes, the measure libpng's and
/// Pillow's heuristic minimises. With SSE2, 16 bytes at a time: a byte's magnitude is the
/// smaller of it and its negation (both unsigned), and `psadbw` against zero adds them up.
static uint64_t magnitude(const uint8_t *filtered, size_t length) {
    uint64_t sum = 0;
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    __m128i sums = zero;
    for (; i + 16 <= length; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(filtered + i));
        sums = _mm_add_epi64(sums, _mm_sad_epu8(_mm_min_epu8(x, _mm_sub_epi8(zero, x)), zero));
    }
    sum = (uint64_t)_mm_cvtsi128_si64(sums) + (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums));
#endif
    for (; i < length; i++) sum += filtered[i] < 128 ? filtered[i] : 256 - filtered[i];
    return sum;
}

/// Paeth from byte `bpp` on: every input is a known byte of the image, so unlike the reader's
/// unfilter nothing waits on the byte before, and with SSE2 16 bytes are filtered at once.
/// Returns where the bytes left to the scalar loop begin.
static size_t paeth_simd(const uint8_t *row, const uint8_t *above, size_t length, size_t bpp, uint8_t *out) {
    size_t i = bpp;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= length; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(row + i - bpp));
        __m128i b = _mm_loadu_si128((const __m128i *)(above + i));
        __m128i c = _mm_loadu_si128((const __m128i *)(above + i - bpp));
        __m128i low = wi_paeth_predictor_simd(_mm_unpacklo_epi8(a, zero), _mm_unpacklo_epi8(b, zero), _mm_unpacklo_epi8(c, zero));
        __m128i high = wi_paeth_predictor_simd(_mm_unpackhi_epi8(a, zero), _mm_unpackhi_epi8(b, zero), _mm_unpackhi_epi8(c, zero));
        __m128i x = _mm_loadu_si128((const __m128i *)(row + i));
        _mm_storeu_si128((__m128i *)(out + i), _mm_sub_epi8(x, _mm_packus_epi16(low, high)));
    }
#endif
    return i;
}

/// Writes `row` (`length` bytes, `bpp` per pixel, `above` the row before it, all zero for the
/// first) filtered with `type` into `out`: one plain loop a filter, which the compiler
/// vectorises, and Paeth in SSE2 (paeth_simd).
static void filter_row(int type, const uint8_t *row, const uint8_t *above, size_t length, size_t bpp, uint8_t *out) {
    size_t first = bpp < length ? bpp : length;
    switch (type) {
    case FILTER_NONE:
        memcpy(out, row, length);
        break;
    case FILTER_SUB:
        memcpy(out, row, first);
        for (size_t i = bpp; i < length; i++) out[i] = (uint8_t)(row[i] - row[i - bpp]);
        break;
    case FILTER_UP:
        for (size_t i = 0; i < length; i++) out[i] = (uint8_t)(row[i] - above[i]);
        break;
    case FILTER_AVERAGE:
        for (size_t i = 0; i < first; i++) out[i] = (uint8_t)(row[i] - (above[i] >> 1));
        for (size_t i = bpp; i < length; i++) out[i] = (uint8_t)(row[i] - ((row[i - bpp] + above[i]) >> 1));
        break;
    default:
        // Paeth with nothing to the left predicts the byte above.
        for (size_t i = 0; i < first; i++) out[i] = (uint8_t)(row[i] - above[i]);
        for (size_t i = paeth_simd(row, above, length, bpp, out); i < length; i++) {
            out[i] = (uint8_t)(row[i] - paeth(row[i - bpp], above[i], above[i - bpp]));
        }
        break;
    }
}

/// Packs row `y` of `rgba` into `row` (RGB drops the alpha byte), filters it against `above`
/// with the filter of the smallest sum and writes the filter byte and the filtered bytes to `out`.
static void write_row(const uint8_t *rgba, uint32_t width, uint32_t y, size_t bpp, const uint8_t *above,
                      uint8_t *row, uint8_t *candidates, uint8_t *out) {
    const uint8_t *source = rgba + (size_t)y * width * 4;
    size_t length = (size_t)width * bpp;
    if (bpp == 4) {
        memcpy(row, source, length);
    } else {
        for (uint32_t x = 0; x < width; x++) memcpy(row + (size_t)x * 3, source + (size_t)x * 4, 3);
    }
    int best = FILTER_NONE;
    uint64_t best_sum = UINT64_MAX;
    for (int type = FILTER_NONE; type < FILTER_COUNT; type++) {
        uint8_t *candidate = candidates + (size_t)type * length;
        filter_row(type, row, above, length, bpp, candidate);
        uint64_t sum = magnitude(candidate, length);
        if (sum < best_sum) {
            best_sum = sum;
            best = type;
        }
    }
    out[0] = (uint8_t)best;
    memcpy(out + 1, candidates + (size_t)best * length, length);
}

/// The filtered image data (a filter byte before each row) in a malloc'd buffer, or NULL.
static uint8_t *filter_image(const uint8_t *rgba, uint32_t width, uint32_t height, size_t bpp, size_t *size) {
    size_t length = (size_t)width * bpp;
    *size = (length + 1) * height;
    uint8_t *filtered = malloc(*size);
    // Two packed rows (the one before and this one) and one candidate row per filter.
    uint8_t *scratch = calloc(length, 2 + FILTER_COUNT);
    if (filtered == NULL || scratch == NULL) {
        free(filtered);
        free(scratch);
        return NULL;
    }
    uint8_t *above = scratch, *row = scratch + length, *candidates = scratch + 2 * length;
    for (uint32_t y = 0; y < height; y++) {
        write_row(rgba, width, y, bpp, above, row, candidates, filtered + (size_t)y * (length + 1));
        uint8_t *previous = above;
        above = row;
        row = previous;
    }
    free(scratch);
    return filtered;
}

/// Adam7's passes: the first column and row of each, and its steps across and down.
static const uint32_t adam7[7][4] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};

/// How many of `count` columns (or rows) a pass starting at `first` and stepping by `step` takes.
static uint32_t pass_extent(uint32_t count, uint32_t first, uint32_t step) {
    return count > first ? (count - first + step - 1) / step : 0;
}

/// The filtered data of an interlaced image: each Adam7 pass that holds pixels, as an image of
/// its own (its first row filtered against zeros), one after the other; in a malloc'd buffer, or NULL.
static uint8_t *filter_interlaced(const uint8_t *rgba, uint32_t width, uint32_t height, size_t bpp, size_t *size) {
    *size = 0;
    for (int pass = 0; pass < 7; pass++) {
        uint32_t w = pass_extent(width, adam7[pass][0], adam7[pass][2]), h = pass_extent(height, adam7[pass][1], adam7[pass][3]);
        if (w > 0 && h > 0) *size += ((size_t)w * bpp + 1) * h;
    }
    uint8_t *filtered = malloc(*size);
    // The largest pass is the last: every other row at full width.
    uint8_t *pixels = malloc((size_t)width * ((height + 1) / 2) * 4);
    if (filtered == NULL || pixels == NULL) {
        free(filtered);
        free(pixels);
        return NULL;
    }
    size_t offset = 0;
    for (int pass = 0; pass < 7; pass++) {
        uint32_t x0 = adam7[pass][0], y0 = adam7[pass][1], dx = adam7[pass][2], dy = adam7[pass][3];
        uint32_t w = pass_extent(width, x0, dx), h = pass_extent(height, y0, dy);
        if (w == 0 || h == 0) continue;
        for (uint32_t y = 0; y < h; y++) {
            const uint8_t *source = rgba + ((size_t)(y0 + (size_t)y * dy) * width) * 4;
            for (uint32_t x = 0; x < w; x++) memcpy(pixels + ((size_t)y * w + x) * 4, source + ((size_t)x0 + (size_t)x * dx) * 4, 4);
        }
        size_t pass_size = 0;
        uint8_t *pass_data = filter_image(pixels, w, h, bpp, &pass_size);
        if (pass_data == NULL) {
            free(filtered);
            free(pixels);
            return NULL;
        }
        memcpy(filtered + offset, pass_data, pass_size);
        offset += pass_size;
        free(pass_data);
    }
    free(pixels);
    return filtered;
}

/// The file around `filtered` deflated into `output`: signature, IHDR (of `bit_depth` and
/// `colour_type`), the `extra_size` bytes of whole chunks at `extra` (a palette's PLTE and
/// tRNS), one IDAT, IEND.
static wi_png_status write_file(const uint8_t *filtered, size_t size, uint32_t width, uint32_t height, int bit_depth,
                                int colour_type, int interlaced, const uint8_t *extra, size_t extra_size,
                                wi_png_buffer *output, wi_png_error *error) {
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(WI_PNG_DEFLATE_LEVEL);
    if (compressor == NULL) return WI_PNG_NO_MEMORY;
    size_t bound = libdeflate_zlib_compress_bound(compressor, size);
    const size_t header = sizeof signature + 25 + extra_size, trailer = 12 + 12;
    output->bytes = malloc(header + 8 + bound + trailer);
    if (output->bytes == NULL) {
        libdeflate_free_compressor(compressor);
        return WI_PNG_NO_MEMORY;
    }
    output->capacity = header + 8 + bound + trailer;
    uint8_t *p = output->bytes;
    memcpy(p, signature, sizeof signature);
    uint8_t *ihdr = p + sizeof signature;
    memcpy(ihdr + 4, "IHDR", 4);
    put32(ihdr + 8, width);
    put32(ihdr + 12, height);
    // Deflate, adaptive filtering, none or Adam7.
    const uint8_t rest[5] = {(uint8_t)bit_depth, (uint8_t)colour_type, 0, 0, interlaced ? 1 : 0};
    memcpy(ihdr + 16, rest, sizeof rest);
    seal_chunk(ihdr, 13);
    if (extra_size > 0) memcpy(ihdr + 25, extra, extra_size);
    uint8_t *idat = p + header;
    memcpy(idat + 4, "IDAT", 4);
    size_t compressed = libdeflate_zlib_compress(compressor, filtered, size, idat + 8, bound);
    libdeflate_free_compressor(compressor);
    if (compressed == 0 || compressed > WI_PNG_MAX_CHUNK) {
        snprintf(error->message, sizeof error->message, "the encoded image is too large");
        return WI_PNG_NO_MEMORY;
    }
    seal_chunk(idat, (uint32_t)compressed);
    uint8_t *iend = idat + 12 + compressed;
    memcpy(iend + 4, "IEND", 4);
    seal_chunk(iend, 0);
    output->size = (size_t)(iend + 12 - p);
    return WI_PNG_OK;
}

wi_png_status wi_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int keep_alpha, int interlaced,
                            wi_png_buffer *output, wi_png_error *error) {
    error->message[0] = 0;
    if (width == 0 || height == 0 || width > WI_PNG_MAX_CHUNK || height > WI_PNG_MAX_CHUNK) {
        snprintf(error->message, sizeof error->message, "PNG cannot store a %ux%u image", width, height);
        return WI_PNG_CORRUPT;
    }
    size_t size = 0;
    size_t bpp = keep_alpha ? 4 : 3;
    uint8_t *filtered = interlaced ? filter_interlaced(rgba, width, height, bpp, &size) : filter_image(rgba, width, height, bpp, &size);
    if (filtered == NULL) {
        snprintf(error->message, sizeof error->message, "out of memory");
        return WI_PNG_NO_MEMORY;
    }
    // Bit depth 8; colour type RGBA (6) or RGB (2).
    wi_png_status status = write_file(filtered, size, width, height, 8, keep_alpha ? 6 : 2, interlaced, NULL, 0, output, error);
    if (status == WI_PNG_NO_MEMORY && error->message[0] == 0) {
        snprintf(error->message, sizeof error->message, "out of memory");
    }
    free(filtered);
    return status;
}

/// Packs `width` indices of `bit_depth` bits each into `out` after a filter byte 0, the first
/// index in the highest bits of the first byte, as PNG stores them.
static void pack_row(const uint8_t *indices, uint32_t width, int bit_depth, uint8_t *out) {
    out[0] = FILTER_NONE;
    uint8_t *bytes = out + 1;
    if (bit_depth == 8) {
        memcpy(bytes, indices, width);
        return;
    }
    int per_byte = 8 / bit_depth;
    memset(bytes, 0, ((size_t)width * (size_t)bit_depth + 7) / 8);
    for (uint32_t x = 0; x < width; x++) {
        int shift = 8 - bit_depth * (int)(x % (uint32_t)per_byte + 1);
        bytes[x / (uint32_t)per_byte] |= (uint8_t)(indices[x] << shift);
    }
}

/// The unfiltered rows of the indexed image, each Adam7 pass in turn when `interlaced`, in a
/// malloc'd buffer, or NULL.
static uint8_t *pack_indexed(const uint8_t *indices, uint32_t width, uint32_t height, int bit_depth, int interlaced,
                             size_t *size) {
    const uint32_t whole[1][4] = {{0, 0, 1, 1}};
    const uint32_t (*passes)[4] = interlaced ? adam7 : whole;
    int pass_count = interlaced ? 7 : 1;
    *size = 0;
    for (int pass = 0; pass < pass_count; pass++) {
        uint32_t w = pass_extent(width, passes[pass][0], passes[pass][2]), h = pass_extent(height, passes[pass][1], passes[pass][3]);
        if (w > 0 && h > 0) *size += (((size_t)w * (size_t)bit_depth + 7) / 8 + 1) * h;
    }
    uint8_t *packed = malloc(*size);
    uint8_t *row = malloc(width);
    if (packed == NULL || row == NULL) {
        free(packed);
        free(row);
        return NULL;
    }
    size_t offset = 0;
    for (int pass = 0; pass < pass_count; pass++) {
        uint32_t x0 = passes[pass][0], y0 = passes[pass][1], dx = passes[pass][2], dy = passes[pass][3];
        uint32_t w = pass_extent(width, x0, dx), h = pass_extent(height, y0, dy);
        if (w == 0 || h == 0) continue;
        for (uint32_t y = 0; y < h; y++) {
            const uint8_t *source = indices + (size_t)(y0 + (size_t)y * dy) * width;
            for (uint32_t x = 0; x < w; x++) row[x] = source[x0 + (size_t)x * dx];
            pack_row(row, w, bit_depth, packed + offset);
            offset += ((size_t)w * (size_t)bit_depth + 7) / 8 + 1;
        }
    }
    free(row);
    return packed;
}

wi_png_status wi_png_encode_indexed(const uint8_t *indices, uint32_t width, uint32_t height, const uint8_t *palette,
                                    uint32_t count, int bit_depth, int interlaced, wi_png_buffer *output,
                                    wi_png_error *error) {
    error->message[0] = 0;
    if (width == 0 || height == 0 || width > WI_PNG_MAX_CHUNK || height > WI_PNG_MAX_CHUNK) {
        snprintf(error->message, sizeof error->message, "PNG cannot store a %ux%u image", width, height);
        return WI_PNG_CORRUPT;
    }
    if ((bit_depth != 1 && bit_depth != 2 && bit_depth != 4 && bit_depth != 8) || count == 0 || count > (1u << bit_depth)) {
        snprintf(error->message, sizeof error->message, "a palette of %u colours does not fit %d bits a pixel", count, bit_depth);
        return WI_PNG_CORRUPT;
    }
    for (size_t i = 0; i < (size_t)width * height; i++) {
        if (indices[i] >= count) {
            snprintf(error->message, sizeof error->message, "index %u is past the palette's %u colours", indices[i], count);
            return WI_PNG_CORRUPT;
        }
    }
    // PLTE, then tRNS up to the last colour that is not opaque.
    uint32_t translucent = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (palette[i * 4 + 3] != 255) translucent = i + 1;
    }
    uint8_t chunks[12 + 3 * 256 + 12 + 256];
    memcpy(chunks + 4, "PLTE", 4);
    for (uint32_t i = 0; i < count; i++) memcpy(chunks + 8 + i * 3, palette + i * 4, 3);
    seal_chunk(chunks, 3 * count);
    size_t extra = 12 + 3 * (size_t)count;
    if (translucent > 0) {
        uint8_t *trns = chunks + extra;
        memcpy(trns + 4, "tRNS", 4);
        for (uint32_t i = 0; i < translucent; i++) trns[8 + i] = palette[i * 4 + 3];
        seal_chunk(trns, translucent);
        extra += 12 + translucent;
    }
    size_t size = 0;
    uint8_t *packed = pack_indexed(indices, width, height, bit_depth, interlaced, &size);
    if (packed == NULL) {
        snprintf(error->message, sizeof error->message, "out of memory");
        return WI_PNG_NO_MEMORY;
    }
    // Colour type 3: palette.
    wi_png_status status = write_file(packed, size, width, height, bit_depth, 3, interlaced, chunks, extra, output, error);
    if (status == WI_PNG_NO_MEMORY && error->message[0] == 0) {
        snprintf(error->message, sizeof error->message, "out of memory");
    }
    free(packed);
    return status;
}

void wi_png_buffer_free(wi_png_buffer *buffer) {
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}
