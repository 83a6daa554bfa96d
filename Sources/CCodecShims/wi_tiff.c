#include "wi_tiff.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

/// Bytes read or written through libtiff's client I/O, and the last message it reported.
typedef struct {
    uint8_t *data;
    uint64_t size;
    uint64_t capacity;
    uint64_t position;
    /// Whether the bytes belong to the caller (reading) rather than to this stream (writing).
    int borrowed;
    char message[256];
} wi_tiff_stream;

struct wi_tiff_file {
    TIFF *tiff;
    wi_tiff_stream stream;
};

static int wi_tiff_on_error(TIFF *tiff, void *user, const char *module, const char *format, va_list arguments) {
    (void)tiff;
    wi_tiff_stream *stream = user;
    int used = module ? snprintf(stream->message, sizeof stream->message, "%s: ", module) : 0;
    if (used < 0 || (size_t)used >= sizeof stream->message) used = 0;
    vsnprintf(stream->message + used, sizeof stream->message - (size_t)used, format, arguments);
    return 1;
}

static int wi_tiff_on_warning(TIFF *tiff, void *user, const char *module, const char *format, va_list arguments) {
    (void)tiff; (void)user; (void)module; (void)format; (void)arguments;
    return 1;
}

static tmsize_t wi_tiff_read(thandle_t handle, void *buffer, tmsize_t count) {
    wi_tiff_stream *stream = (wi_tiff_stream *)handle;
    if (count <= 0 || stream->position >= stream->size) return 0;
    uint64_t available = stream->size - stream->position;
    uint64_t length = (uint64_t)count < available ? (uint64_t)count : available;
    memcpy(buffer, stream->data + stream->position, (size_t)length);
    stream->position += length;
    return (tmsize_t)length;
}

/// Grows a written stream to hold at least `needed` bytes, the new ones zero.
static int wi_tiff_reserve(wi_tiff_stream *stream, uint64_t needed) {
    if (needed <= stream->capacity) return 1;
    if (needed > (uint64_t)1 << 40) return 0;
    uint64_t capacity = stream->capacity ? stream->capacity : 65536;
    while (capacity < needed) capacity *= 2;
    uint8_t *grown = realloc(stream->data, (size_t)capacity);
    if (!grown) return 0;
    memset(grown + stream->capacity, 0, (size_t)(capacity - stream->capacity));
    stream->data = grown;
    stream->capacity = capacity;
    return 1;
}

static tmsize_t wi_tiff_write_bytes(thandle_t handle, void *buffer, tmsize_t count) {
    wi_tiff_stream *stream = (wi_tiff_stream *)handle;
    if (stream->borrowed || count < 0 || !wi_tiff_reserve(stream, stream->position + (uint64_t)count)) return -1;
    memcpy(stream->data + stream->position, buffer, (size_t)count);
    stream->position += (uint64_t)count;
    if (stream->position > stream->size) stream->size = stream->position;
    return count;
}

static toff_t wi_tiff_seek(thandle_t handle, toff_t offset, int whence) {
    wi_tiff_stream *stream = (wi_tiff_stream *)handle;
    uint64_t base = whence == SEEK_CUR ? stream->position : whence == SEEK_END ? stream->size : 0;
    if (offset > UINT64_MAX - base) return (toff_t)-1;
    stream->position = base + offset;
    return stream->position;
}

static int wi_tiff_close_stream(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t wi_tiff_size(thandle_t handle) {
    return ((wi_tiff_stream *)handle)->size;
}

static int wi_tiff_map(thandle_t handle, void **base, toff_t *size) {
    (void)handle; (void)base; (void)size;
    return 0;
}

static void wi_tiff_unmap(thandle_t handle, void *base, toff_t size) {
    (void)handle; (void)base; (void)size;
}

/// libtiff over `stream` in `mode`, its messages kept in the stream, its allocations bounded.
static TIFF *wi_tiff_client(wi_tiff_stream *stream, const char *mode, uint64_t max_allocation) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) {
        snprintf(stream->message, sizeof stream->message, "out of memory");
        return NULL;
    }
    TIFFOpenOptionsSetErrorHandlerExtR(options, wi_tiff_on_error, stream);
    TIFFOpenOptionsSetWarningHandlerExtR(options, wi_tiff_on_warning, stream);
    if (max_allocation > 0) TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_allocation);
    TIFF *tiff = TIFFClientOpenExt("memory", mode, (thandle_t)stream, wi_tiff_read, wi_tiff_write_bytes, wi_tiff_seek,
                                   wi_tiff_close_stream, wi_tiff_size, wi_tiff_map, wi_tiff_unmap, options);
    TIFFOpenOptionsFree(options);
    if (!tiff && !stream->message[0]) snprintf(stream->message, sizeof stream->message, "libtiff could not open the file");
    return tiff;
}

wi_tiff_file *wi_tiff_open(const uint8_t *data, size_t size, uint64_t max_allocation, char *error, size_t error_size) {
    wi_tiff_file *file = calloc(1, sizeof *file);
    if (!file) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    file->stream.data = (uint8_t *)data;
    file->stream.size = size;
    file->stream.capacity = size;
    file->stream.borrowed = 1;
    file->tiff = wi_tiff_client(&file->stream, "rm", max_allocation);
    if (!file->tiff) {
        snprintf(error, error_size, "%s", file->stream.message);
        free(file);
        return NULL;
    }
    char reason[1024];
    if (!TIFFRGBAImageOK(file->tiff, reason)) {
        snprintf(error, error_size, "%s", reason);
        wi_tiff_close(file);
        return NULL;
    }
    return file;
}

void wi_tiff_geometry(wi_tiff_file *file, uint32_t *width, uint32_t *height, uint16_t *orientation) {
    *width = 0;
    *height = 0;
    *orientation = ORIENTATION_TOPLEFT;
    TIFFGetField(file->tiff, TIFFTAG_IMAGEWIDTH, width);
    TIFFGetField(file->tiff, TIFFTAG_IMAGELENGTH, height);
    TIFFGetFieldDefaulted(file->tiff, TIFFTAG_ORIENTATION, orientation);
    if (*orientation < 1 || *orientation > 8) *orientation = ORIENTATION_TOPLEFT;
}

const uint8_t *wi_tiff_icc_profile(wi_tiff_file *file, uint32_t *length) {
    uint32_t count = 0;
    void *profile = NULL;
    if (!TIFFGetField(file->tiff, TIFFTAG_ICCPROFILE, &count, &profile) || !profile) count = 0;
    *length = count;
    return count ? profile : NULL;
}

/// Whether the first image is 8-bit RGB, or RGBA with unassociated alpha, in strips of
/// interleaved samples: read row by row, its samples come exactly as stored, where libtiff's
/// RGBA interface would premultiply the alpha and lose colour in translucent pixels.
static int wi_tiff_is_plain_rgb(TIFF *tiff) {
    uint16_t bits = 0, samples = 0, photometric = 0, planar = 0, extra_count = 0;
    uint16_t *extra = NULL;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    if (!TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &photometric)) return 0;
    return !TIFFIsTiled(tiff) && bits == 8 && planar == PLANARCONFIG_CONTIG && photometric == PHOTOMETRIC_RGB
        && ((samples == 3 && extra_count == 0) || (samples == 4 && extra_count == 1 && extra && extra[0] == EXTRASAMPLE_UNASSALPHA));
}

/// The plain RGB(A) image read row by row into RGBA `pixels`.
static int wi_tiff_read_rows(wi_tiff_file *file, uint32_t width, uint32_t height, uint8_t *pixels) {
    uint16_t samples = 0;
    TIFFGetFieldDefaulted(file->tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    tmsize_t row_bytes = TIFFScanlineSize(file->tiff);
    if (row_bytes < (tmsize_t)width * samples) {
        snprintf(file->stream.message, sizeof file->stream.message, "the rows are shorter than the image is wide");
        return -1;
    }
    uint8_t *row = malloc((size_t)row_bytes);
    if (!row) {
        snprintf(file->stream.message, sizeof file->stream.message, "out of memory");
        return -1;
    }
    for (uint32_t y = 0; y < height; y++) {
        if (TIFFReadScanline(file->tiff, row, y, 0) != 1) {
            free(row);
            if (!file->stream.message[0]) snprintf(file->stream.message, sizeof file->stream.message, "row %u cannot be read", y);
            return -1;
        }
        uint8_t *out = pixels + (size_t)y * width * 4;
        for (uint32_t x = 0; x < width; x++) {
            out[x * 4] = row[x * samples];
            out[x * 4 + 1] = row[x * samples + 1];
            out[x * 4 + 2] = row[x * samples + 2];
            out[x * 4 + 3] = samples == 4 ? row[x * samples + 3] : 255;
        }
    }
    free(row);
    return 0;
}

int wi_tiff_read_rgba(wi_tiff_file *file, uint8_t *pixels) {
    uint32_t width, height;
    uint16_t orientation;
    wi_tiff_geometry(file, &width, &height, &orientation);
    if (wi_tiff_is_plain_rgb(file->tiff)) return wi_tiff_read_rows(file, width, height, pixels) == 0 ? 0 : -1;
    // Asked in the file's own orientation, libtiff flips nothing: rows come as stored.
    if (!TIFFReadRGBAImageOriented(file->tiff, width, height, (uint32_t *)pixels, orientation, 1)) {
        if (!file->stream.message[0]) snprintf(file->stream.message, sizeof file->stream.message, "libtiff could not read the image");
        return -1;
    }
    uint32_t *packed = (uint32_t *)pixels;
    for (size_t index = 0, count = (size_t)width * height; index < count; index++) {
        uint32_t value = packed[index];
        uint8_t *pixel = pixels + index * 4;
        pixel[0] = (uint8_t)TIFFGetR(value);
        pixel[1] = (uint8_t)TIFFGetG(value);
        pixel[2] = (uint8_t)TIFFGetB(value);
        pixel[3] = (uint8_t)TIFFGetA(value);
    }
    return 1;
}

const char *wi_tiff_message(wi_tiff_file *file) {
    return file->stream.message;
}

void wi_tiff_close(wi_tiff_file *file) {
    if (!file) return;
    if (file->tiff) TIFFClose(file->tiff);
    free(file);
}

int wi_tiff_write(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                  const uint8_t *icc, uint32_t icc_length, uint8_t **out, size_t *out_size,
                  char *error, size_t error_size) {
    *out = NULL;
    *out_size = 0;
    if ((channels != 3 && channels != 4) || width == 0 || height == 0) {
        snprintf(error, error_size, "nothing to write");
        return -1;
    }
    wi_tiff_stream stream = {0};
    TIFF *tiff = wi_tiff_client(&stream, "w", 0);
    if (!tiff) {
        snprintf(error, error_size, "%s", stream.message);
        free(stream.data);
        return -1;
    }
    int ok = TIFFSetField(tiff, TIFFTAG_IMAGEWIDTH, width) && TIFFSetField(tiff, TIFFTAG_IMAGELENGTH, height)
        && TIFFSetField(tiff, TIFFTAG_BITSPERSAMPLE, 8) && TIFFSetField(tiff, TIFFTAG_SAMPLESPERPIXEL, channels)
        && TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB)
        && TIFFSetField(tiff, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG)
        && TIFFSetField(tiff, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT)
        && TIFFSetField(tiff, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE)
        && TIFFSetField(tiff, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL)
        && TIFFSetField(tiff, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tiff, 0));
    if (ok && channels == 4) {
        uint16_t extra = EXTRASAMPLE_UNASSALPHA;
        ok = TIFFSetField(tiff, TIFFTAG_EXTRASAMPLES, 1, &extra);
    }
    if (ok && icc && icc_length) ok = TIFFSetField(tiff, TIFFTAG_ICCPROFILE, icc_length, icc);
    // libtiff's predictor works on the row in place: each row is copied before it is written.
    size_t row_bytes = (size_t)width * (size_t)channels;
    uint8_t *row = ok ? malloc(row_bytes) : NULL;
    if (ok && !row) snprintf(stream.message, sizeof stream.message, "out of memory");
    ok = ok && row;
    for (uint32_t y = 0; ok && y < height; y++) {
        memcpy(row, pixels + (size_t)y * row_bytes, row_bytes);
        ok = TIFFWriteScanline(tiff, row, y, 0) == 1;
    }
    free(row);
    if (ok) ok = TIFFWriteDirectory(tiff);
    TIFFClose(tiff);
    if (!ok) {
        snprintf(error, error_size, "%s", stream.message[0] ? stream.message : "libtiff could not write the image");
        free(stream.data);
        return -1;
    }
    *out = stream.data;
    *out_size = (size_t)stream.size;
    return 0;
}
