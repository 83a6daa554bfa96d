// WebImage's reader of the common PNG: see wi_png_rows.h for what it takes and why, and
// wi_png_fast.h for its calls. It parses the chunks itself, inflates the IDAT stream (in one
// call with libdeflate when the image data is small enough, else with zlib a batch of rows at a
// time), unfilters with wi_png_unfilter_row (two Paeth rows at once with
// wi_png_unfilter_paeth_pair) and widens to RGBA8. Whatever libpng might answer
// differently about is refused at open or ends a read with 0.
#include "wi_png_fast.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <zlib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <tmmintrin.h>
#define WI_HAVE_SSSE3_DISPATCH 1
#endif

#include "wi_png_rows.h"

/// libpng's default limits on width and height (PNG_USER_WIDTH_MAX, PNG_USER_HEIGHT_MAX).
#define WI_PNG_USER_LIMIT 1000000u
/// Inflated bytes aimed at per batch: big enough that zlib's per-call cost vanishes, small
/// enough to stay in the cache.
#define WI_PNG_BATCH_BYTES 65536u
/// Image data (filter bytes and rows) up to this size is inflated in one call by libdeflate,
/// about twice as fast as zlib 1.2 (a 1024 × 768 RGB photo: 2.3 MB); a larger image streams
/// through zlib a batch at a time, so that a thumbnail of a huge PNG never holds all of it.
#define WI_PNG_WHOLE_BYTES (8u << 20)

struct wi_png_fast {
    const uint8_t *data;
    size_t size;
    /// Where the next IDAT chunk to feed zlib starts; `size` when there is none left.
    size_t next_chunk;
    z_stream zlib;
    int zlib_ready;
    int stream_ended;
    /// Where the data of the IDAT chunk zlib is reading starts, to find the Adler-32 trailer.
    const uint8_t *chunk_data;
    /// The Adler-32 of the bytes inflated so far, when WebImage checks it instead of zlib.
    uint32_t adler;
    int checks_adler;
    uint32_t width;
    uint32_t height;
    /// The colour type (0, 2, 4 or 6) and its bytes per pixel.
    int color_type;
    unsigned channels;
    size_t row_bytes;
    /// Filter byte + row, for `batch_rows` rows; `prior` is the unfiltered row above the batch.
    uint8_t *batch;
    uint8_t *prior;
    uint32_t batch_rows;
    uint32_t rows_inflated;
    /// Rows of the batch not handed out yet, and the index of the next one.
    uint32_t pending;
    uint32_t next_in_batch;
};

static uint32_t wi_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static int wi_is_type(const uint8_t *p, const char *type) {
    return memcmp(p, type, 4) == 0;
}

/// Whether the chunk at `offset` fits in the file; sets its data length.
static int wi_chunk_at(const uint8_t *data, size_t size, size_t offset, uint32_t *length) {
    if (offset > size || size - offset < 12) return 0;
    uint32_t n = wi_be32(data + offset);
    if (n > 0x7FFFFFFFu || size - offset - 12 < n) return 0;
    *length = n;
    return 1;
}

/// Whether the CRC of the chunk at `offset` (data `length` bytes) is right: libdeflate's CRC,
/// with carry-less multiplication, runs several times as fast as zlib's over a photo's IDATs.
static int wi_crc_ok(const uint8_t *data, size_t offset, uint32_t length) {
    return libdeflate_crc32(0, data + offset + 4, (size_t)length + 4) == wi_be32(data + offset + 8 + length);
}

/// Reads the IHDR and the chunks before the first IDAT; returns the offset of that IDAT, or 0
/// when the file is not for this reader.
static size_t wi_png_fast_scan(wi_png_fast *r) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    const uint8_t *d = r->data;
    uint32_t length = 0;
    if (r->size < 8 || memcmp(d, signature, 8) != 0) return 0;
    if (!wi_chunk_at(d, r->size, 8, &length) || length != 13 || !wi_is_type(d + 12, "IHDR")) return 0;
    if (!wi_crc_ok(d, 8, length)) return 0;
    const uint8_t *ihdr = d + 16;
    if (wi_be32(ihdr) != r->width || wi_be32(ihdr + 4) != r->height) return 0;
    if (r->width == 0 || r->height == 0 || r->width > WI_PNG_USER_LIMIT || r->height > WI_PNG_USER_LIMIT) return 0;
    // 8 bits, not interlaced, standard compression and filtering.
    if (ihdr[8] != 8 || ihdr[10] != 0 || ihdr[11] != 0 || ihdr[12] != 0) return 0;
    r->color_type = ihdr[9];
    switch (r->color_type) {
    case 0: r->channels = 1; break;
    case 2: r->channels = 3; break;
    case 4: r->channels = 2; break;
    case 6: r->channels = 4; break;
    default: return 0;
    }
    size_t offset = 8 + 12 + 13;
    int palette_seen = 0;
    while (wi_chunk_at(d, r->size, offset, &length)) {
        const uint8_t *type = d + offset + 4;
        for (int i = 0; i < 4; i++) {
            uint8_t letter = type[i] | 0x20;
            if (letter < 'a' || letter > 'z') return 0;  // not a chunk type: libpng stops
        }
        if (wi_is_type(type, "IDAT")) return offset;
        // tRNS changes the pixels; a palette in a grey image is an error to libpng.
        if (wi_is_type(type, "tRNS") || wi_is_type(type, "IEND") || wi_is_type(type, "IHDR")) return 0;
        if (wi_is_type(type, "PLTE")) {
            if (palette_seen || r->color_type == 0 || r->color_type == 4 || !wi_crc_ok(d, offset, length)) return 0;
            palette_seen = 1;
        } else if ((type[0] & 0x20) == 0) {
            return 0;  // an unknown critical chunk: libpng refuses it
        }
        // Other ancillary chunks do not change the pixels WebImage asks libpng for (no gamma,
        // no shift, no background), and a damaged one is only a warning to libpng.
        offset += 12 + (size_t)length;
    }
    return 0;
}

/// Adler-32 (RFC 1950) of `length` bytes after `adler`: zlib's checksum, 16 bytes a step with
/// SSE2 (zlib 1.2's own loop costs a tenth of the whole decode).
static uint32_t wi_adler32(uint32_t adler, const uint8_t *bytes, size_t length) {
    const uint32_t base = 65521;
    uint64_t s1 = adler & 0xFFFF, s2 = adler >> 16;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    const __m128i high_weights = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9);
    const __m128i low_weights = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
    while (length >= 16) {
        // At most 5552 bytes between reductions, as zlib: no 32-bit lane can overflow.
        size_t run = (length < 5552 ? length : 5552) & ~(size_t)15;
        length -= run;
        s2 += s1 * run;
        __m128i sums = zero, earlier = zero, weighted = zero;
        for (size_t i = 0; i < run; i += 16, bytes += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)bytes);
            earlier = _mm_add_epi32(earlier, sums);
            sums = _mm_add_epi32(sums, _mm_sad_epu8(v, zero));
            weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpacklo_epi8(v, zero), high_weights));
            weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpackhi_epi8(v, zero), low_weights));
        }
        uint32_t lanes[4];
        _mm_storeu_si128((__m128i *)lanes, sums);
        s1 += (uint64_t)lanes[0] + lanes[2];
        _mm_storeu_si128((__m128i *)lanes, earlier);
        s2 += 16 * ((uint64_t)lanes[0] + lanes[1] + lanes[2] + lanes[3]);
        _mm_storeu_si128((__m128i *)lanes, weighted);
        s2 += (uint64_t)lanes[0] + lanes[1] + lanes[2] + lanes[3];
        s1 %= base;
        s2 %= base;
    }
#endif
    while (length > 0) {
        size_t run = length < 5552 ? length : 5552;
        length -= run;
        while (run--) {
            s1 += *bytes++;
            s2 += s1;
        }
        s1 %= base;
        s2 %= base;
    }
    return (uint32_t)(s1 | (s2 << 16));
}

#if defined(WI_HAVE_SSSE3_DISPATCH)
/// RGB to RGBA, 4 pixels a step with SSSE3's byte shuffle; the last pixels, whose 16-byte load
/// would pass the row's end, by the scalar loop.
__attribute__((target("ssse3"))) static uint32_t wi_widen_rgb_ssse3(const uint8_t *in, uint8_t *out, uint32_t width) {
    const __m128i shuffle = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i opaque = _mm_set1_epi32((int)0xFF000000u);
    uint32_t x = 0;
    for (; x + 6 <= width; x += 4, in += 12, out += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)in);
        _mm_storeu_si128((__m128i *)out, _mm_or_si128(_mm_shuffle_epi8(v, shuffle), opaque));
    }
    return x;
}

static int wi_has_ssse3(void) {
    static int known = -1;
    if (known < 0) known = __builtin_cpu_supports("ssse3") ? 1 : 0;
    return known;
}
#endif

/// Inflates the IDAT chunks from `offset` on in one libdeflate call into `out`, which must
/// receive exactly `count` bytes. 1 when it did; 0 when a CRC is wrong or the stream is damaged,
/// ends early, runs long or leaves compressed bytes over (libpng then judges the file, as after
/// a streamed read); -1 when the stream's header states a window under 32 KiB, where zlib (and
/// libpng) refuse a distance that reaches further back and libdeflate does not: such a stream
/// is streamed through zlib instead.
static int wi_inflate_whole(const uint8_t *data, size_t size, size_t offset, uint8_t *out, size_t count) {
    size_t total = 0, chunks = 0, first_data = 0, at = offset;
    uint32_t length = 0;
    while (wi_chunk_at(data, size, at, &length) && wi_is_type(data + at + 4, "IDAT")) {
        if (!wi_crc_ok(data, at, length)) return 0;
        if (length > 0) {
            if (chunks++ == 0) first_data = at + 8;
            total += length;
        }
        at += 12 + (size_t)length;
    }
    if (total < 2) return 0;
    if ((data[first_data] >> 4) != 7) return -1;
    const uint8_t *stream = data + first_data;
    uint8_t *joined = NULL;
    if (chunks > 1) {
        joined = malloc(total);
        if (joined == NULL) return 0;
        size_t filled = 0;
        for (size_t chunk = offset; chunk < at; chunk += 12 + (size_t)wi_be32(data + chunk)) {
            memcpy(joined + filled, data + chunk + 8, wi_be32(data + chunk));
            filled += wi_be32(data + chunk);
        }
        stream = joined;
    }
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    size_t used = 0, made = 0;
    int ok = inflater != NULL
        && libdeflate_zlib_decompress_ex(inflater, stream, total, out, count, &used, &made) == LIBDEFLATE_SUCCESS
        && used == total && made == count;
    if (inflater != NULL) libdeflate_free_decompressor(inflater);
    free(joined);
    return ok;
}

/// `size` bytes for a whole image's inflated rows. Past 2 MiB, aligned to 2 MiB and the whole
/// 2 MiB pages within `size` advised as huge pages, as WebImage's pixel buffers are
/// (PixelBuffer+HugePages.swift): a new mapping is then faulted in a few huge pages rather than
/// thousands of small ones, and the tail stays in small pages, so that a 2.4 MB image holds
/// 2.4 MB resident rather than two huge pages' 4 MiB. Released with free().
static uint8_t *wi_png_fast_alloc_whole(size_t size) {
    const size_t huge = (size_t)2 << 20;
    if (size < huge) return malloc(size);
    void *block = NULL;
    if (posix_memalign(&block, huge, size) != 0) return NULL;
    madvise(block, size / huge * huge, MADV_HUGEPAGE);
    return block;
}

/// A reader whose rows are all in `whole` (the inflated image data and, after it, a zeroed
/// row for the one above the first): every row pending, the stream ended.
static wi_png_fast *wi_png_fast_from_whole(const wi_png_fast *probe, uint8_t *whole) {
    wi_png_fast *r = malloc(sizeof *r);
    if (r == NULL) return NULL;
    *r = *probe;
    r->batch = whole;
    r->batch_rows = r->height;
    r->prior = whole + (size_t)r->height * (r->row_bytes + 1);
    memset(r->prior, 0, r->row_bytes);
    r->rows_inflated = r->height;
    r->pending = r->height;
    r->stream_ended = 1;
    // Past the IDAT chunks, which the whole stream used up.
    r->next_chunk = r->size;
    return r;
}

wi_png_fast *wi_png_fast_open(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                              int streamed) {
    wi_png_fast probe;
    memset(&probe, 0, sizeof probe);
    probe.data = data;
    probe.size = size;
    probe.width = width;
    probe.height = height;
    size_t first_idat = wi_png_fast_scan(&probe);
    if (first_idat == 0) return NULL;
    probe.row_bytes = (size_t)width * probe.channels;
    size_t stride = probe.row_bytes + 1;
    size_t inflated = (size_t)height * stride;
    if (!streamed && inflated <= WI_PNG_WHOLE_BYTES) {
        uint8_t *whole = wi_png_fast_alloc_whole(inflated + probe.row_bytes);
        int outcome = whole == NULL ? 0 : wi_inflate_whole(data, size, first_idat, whole, inflated);
        wi_png_fast *r = outcome == 1 ? wi_png_fast_from_whole(&probe, whole) : NULL;
        if (r != NULL) return r;
        free(whole);
        if (outcome != -1) return NULL;
    }
    size_t rows = WI_PNG_BATCH_BYTES / stride;
    if (rows < 1) rows = 1;
    if (rows > height) rows = height;
    probe.batch_rows = (uint32_t)rows;
    wi_png_fast *r = malloc(sizeof *r);
    uint8_t *buffers = malloc(rows * stride + probe.row_bytes);
    if (r == NULL || buffers == NULL) {
        free(r);
        free(buffers);
        return NULL;
    }
    *r = probe;
    r->batch = buffers;
    r->prior = buffers + rows * stride;
    memset(r->prior, 0, r->row_bytes);
    r->next_chunk = first_idat;
    // Window bits 0: the size the stream's header states, as libpng inflates.
    if (inflateInit2(&r->zlib, 0) != Z_OK) {
        wi_png_fast_close(r);
        return NULL;
    }
    r->zlib_ready = 1;
#if ZLIB_VERNUM >= 0x1290
    // zlib's Adler-32 loop is slow: WebImage checks the trailer itself (wi_adler32).
    r->checks_adler = inflateValidate(&r->zlib, 0) == Z_OK;
    r->adler = 1;
#endif
    return r;
}

/// Gives zlib the next IDAT chunk's data; 0 when there is none (or its CRC is wrong).
static int wi_feed_next_idat(wi_png_fast *r) {
    uint32_t length = 0;
    while (wi_chunk_at(r->data, r->size, r->next_chunk, &length) && wi_is_type(r->data + r->next_chunk + 4, "IDAT")) {
        size_t offset = r->next_chunk;
        if (!wi_crc_ok(r->data, offset, length)) return 0;
        r->next_chunk = offset + 12 + length;
        if (length == 0) continue;
        r->chunk_data = r->data + offset + 8;
        r->zlib.next_in = (Bytef *)r->chunk_data;
        r->zlib.avail_in = length;
        return 1;
    }
    r->next_chunk = r->size;
    return 0;
}

/// At the end of the stream, whether the Adler-32 trailer zlib just read (the 4 bytes before
/// its input position) matches the bytes inflated; a trailer split between two IDAT chunks is
/// left to libpng.
static int wi_trailer_ok(const wi_png_fast *r) {
    if (!r->checks_adler) return 1;
    const uint8_t *end = r->zlib.next_in;
    if (end - r->chunk_data < 4) return 0;
    uint32_t stated = ((uint32_t)end[-4] << 24) | ((uint32_t)end[-3] << 16) | ((uint32_t)end[-2] << 8) | end[-1];
    return stated == r->adler;
}

/// One call of inflate into `out` (`count` bytes free); `*made` is what it wrote. 0 on a
/// damaged stream, a wrong checksum, or no IDAT data left.
static int wi_inflate_step(wi_png_fast *r, uint8_t *out, size_t count, size_t *made) {
    *made = 0;
    if (r->zlib.avail_in == 0 && !wi_feed_next_idat(r)) return 0;
    r->zlib.next_out = out;
    r->zlib.avail_out = (uInt)count;
    int status = inflate(&r->zlib, Z_NO_FLUSH);
    *made = count - r->zlib.avail_out;
    if (r->checks_adler) r->adler = wi_adler32(r->adler, out, *made);
    if (status == Z_STREAM_END) {
        r->stream_ended = 1;
        return wi_trailer_ok(r);
    }
    return status == Z_OK;
}

/// Inflates exactly `count` bytes into `out`; 0 when the stream ends early or is damaged.
static int wi_inflate_exactly(wi_png_fast *r, uint8_t *out, size_t count) {
    while (count > 0) {
        size_t made = 0;
        if (r->stream_ended || !wi_inflate_step(r, out, count, &made)) return 0;
        out += made;
        count -= made;
    }
    return 1;
}

/// After the last row: the stream must end with no more image data and no bytes left over.
static int wi_finish_stream(wi_png_fast *r) {
    uint8_t extra[16];
    while (!r->stream_ended) {
        size_t made = 0;
        if (!wi_inflate_step(r, extra, sizeof extra, &made) || made > 0) return 0;
    }
    // Leftover compressed bytes, or more IDAT chunks, are left for libpng to judge.
    uint32_t length = 0;
    return r->zlib.avail_in == 0
        && !(wi_chunk_at(r->data, r->size, r->next_chunk, &length) && wi_is_type(r->data + r->next_chunk + 4, "IDAT"));
}

/// One unfiltered row widened to RGBA8 as libpng's transforms make it.
static void wi_widen_row(const wi_png_fast *r, const uint8_t *in, uint8_t *out) {
    uint32_t width = r->width;
    switch (r->color_type) {
    case 6:
        memcpy(out, in, (size_t)width * 4);
        break;
    case 2: {
        uint32_t x = 0;
#if defined(WI_HAVE_SSSE3_DISPATCH)
        if (wi_has_ssse3()) {
            x = wi_widen_rgb_ssse3(in, out, width);
            in += (size_t)x * 3;
            out += (size_t)x * 4;
        }
#endif
        for (; x < width; x++, in += 3, out += 4) {
            out[0] = in[0];
            out[1] = in[1];
            out[2] = in[2];
            out[3] = 0xFF;
        }
        break;
    }
    case 4:
        for (uint32_t x = 0; x < width; x++, in += 2, out += 4) {
            out[0] = out[1] = out[2] = in[0];
            out[3] = in[1];
        }
        break;
    default:
        for (uint32_t x = 0; x < width; x++, in += 1, out += 4) {
            out[0] = out[1] = out[2] = in[0];
            out[3] = 0xFF;
        }
        break;
    }
}

int wi_png_fast_read(wi_png_fast *r, uint8_t *rgba, uint32_t count) {
    size_t stride = r->row_bytes + 1;
    size_t rgba_stride = (size_t)r->width * 4;
    for (; count > 0; count--, rgba += rgba_stride) {
        if (r->pending == 0) {
            if (r->rows_inflated == r->height) return 0;
            if (r->rows_inflated > 0) {
                memcpy(r->prior, r->batch + (size_t)(r->batch_rows - 1) * stride + 1, r->row_bytes);
            }
            uint32_t rows = r->height - r->rows_inflated;
            if (rows > r->batch_rows) rows = r->batch_rows;
            if (!wi_inflate_exactly(r, r->batch, (size_t)rows * stride)) return 0;
            r->rows_inflated += rows;
            r->pending = rows;
            r->next_in_batch = 0;
        }
        uint8_t *row = r->batch + (size_t)r->next_in_batch * stride;
        const uint8_t *above = r->next_in_batch == 0 ? r->prior : row - stride + 1;
        // Two Paeth rows in a row, both wanted and both inflated, are unfiltered together.
        if (count >= 2 && r->pending >= 2 && row[0] == 4 && row[stride] == 4
            && wi_png_unfilter_paeth_pair(row + 1, row + stride + 1, above, r->row_bytes, r->channels)) {
            wi_widen_row(r, row + 1, rgba);
            row += stride;
            rgba += rgba_stride;
            count--;
            r->next_in_batch++;
            r->pending--;
        } else if (!wi_png_unfilter_row(row[0], row + 1, above, r->row_bytes, r->channels)) {
            return 0;
        }
        wi_widen_row(r, row + 1, rgba);
        r->next_in_batch++;
        r->pending--;
    }
    if (r->rows_inflated == r->height && r->pending == 0) return wi_finish_stream(r);
    return 1;
}

void wi_png_fast_close(wi_png_fast *r) {
    if (r == NULL) return;
    if (r->zlib_ready) inflateEnd(&r->zlib);
    free(r->batch);
    free(r);
}
