// libpng behind setjmp: see wi_png.h. Every entry point creates its libpng structures, sets
// the jump buffer before the first call that can fail, and destroys them on both paths.
#include "wi_png.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wi_png_fast.h"
#include "wi_png_rows.h"

/// What the error handler fills in: the status to return and the caller's message buffer.
typedef struct wi_png_context {
    wi_png_status status;
    wi_png_error *error;
} wi_png_context;

/// The bytes libpng reads from, for the whole-file reader.
typedef struct wi_png_source {
    const uint8_t *data;
    size_t size;
    size_t offset;
} wi_png_source;

/// Where the progressive reader puts its rows.
typedef struct wi_png_progress {
    uint8_t *rgba;
    uint32_t width;
    uint32_t height;
    int complete;
} wi_png_progress;

static void wi_png_set_message(wi_png_error *error, const char *message) {
    if (error != NULL) snprintf(error->message, sizeof error->message, "%s", message);
}

/// libpng's fatal error handler: records the message and jumps back to the entry point.
static void wi_png_on_error(png_structp png, png_const_charp message) {
    wi_png_context *context = png_get_error_ptr(png);
    if (context->status == WI_PNG_OK) context->status = WI_PNG_CORRUPT;
    wi_png_set_message(context->error, message);
    png_longjmp(png, 1);
}

/// Warnings (and benign errors, which are made warnings) are not reported: like Pillow, the
/// decoder accepts what it can read.
static void wi_png_on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

/// Fails the current call with `status`.
static void wi_png_fail(png_structp png, wi_png_status status, const char *message) {
    wi_png_context *context = png_get_error_ptr(png);
    context->status = status;
    png_error(png, message);
}

static void wi_png_read(png_structp png, png_bytep out, size_t length) {
    wi_png_source *source = png_get_io_ptr(png);
    if (length > source->size - source->offset) {
        wi_png_fail(png, WI_PNG_TRUNCATED, "the data ends before the image does");
    }
    memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

/// Whether the tRNS chunk, if any, turns pixels transparent: always, as the PNG spec says
/// (libpng compares the tRNS value with the samples before scaling them), except for grey of
/// 2 or 4 bits. There Pillow, whose decodes are the corpus's reference, compares the tRNS
/// value with samples already scaled to 8 bits, so only a tRNS grey of 0 ever matches a pixel
/// (PngSuite's ftbbn0g04, tRNS grey 15, is opaque in the reference). 1-bit grey is honoured
/// whatever its tRNS value: Pillow reads it as a bilevel image and gets it right.
static int wi_png_wants_trns_alpha(png_structp png, png_infop info) {
    png_color_16p gray = NULL;
    if (!png_get_valid(png, info, PNG_INFO_tRNS)) return 0;
    int depth = png_get_bit_depth(png, info);
    if (png_get_color_type(png, info) != PNG_COLOR_TYPE_GRAY || depth == 1 || depth >= 8) return 1;
    png_get_tRNS(png, info, NULL, NULL, &gray);
    return gray != NULL && gray->gray == 0;
}

/// Asks libpng for 8-bit RGBA rows whatever the file stores, then checks that it agreed.
static void wi_png_request_rgba8(png_structp png, png_infop info, uint32_t width, uint32_t height) {
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) {
        png_error(png, "IHDR does not state the expected size");
    }
    // Not png_set_expand: it (like png_set_palette_to_rgb) also turns every tRNS into alpha.
    if (png_get_color_type(png, info) == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    png_set_expand_gray_1_2_4_to_8(png);
    if (wi_png_wants_trns_alpha(png, info)) png_set_tRNS_to_alpha(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4 || png_get_bit_depth(png, info) != 8) {
        png_error(png, "libpng cannot produce 8-bit RGBA for this image");
    }
}

static png_structp wi_png_create_reader(wi_png_context *context) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, context, wi_png_on_error,
                                             wi_png_on_warning);
    if (png != NULL) png_set_benign_errors(png, 1);
    return png;
}

static wi_png_status wi_png_no_memory(wi_png_error *error) {
    wi_png_set_message(error, "out of memory");
    return WI_PNG_NO_MEMORY;
}

wi_png_status wi_png_decode(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                            uint8_t *rgba, wi_png_error *error) {
    wi_png_context context = {WI_PNG_OK, error};
    wi_png_source source = {data, size, 0};
    if (width == 0 || height == 0) {
        wi_png_set_message(error, "the image has no pixels");
        return WI_PNG_CORRUPT;
    }
    wi_png_fast *fast = wi_png_fast_open(data, size, width, height, 0);
    if (fast != NULL) {
        int decoded = wi_png_fast_read(fast, rgba, height);
        wi_png_fast_close(fast);
        if (decoded) return WI_PNG_OK;
    }
    png_bytep *rows = malloc(sizeof(png_bytep) * height);
    if (rows == NULL) return wi_png_no_memory(error);
    for (uint32_t y = 0; y < height; y++) rows[y] = rgba + (size_t)y * width * 4;

    png_structp png = wi_png_create_reader(&context);
    png_infop info = png == NULL ? NULL : png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        free(rows);
        return wi_png_no_memory(error);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(rows);
        return context.status;
    }
    png_set_read_fn(png, &source, wi_png_read);
    png_read_info(png, info);
    wi_png_request_rgba8(png, info, width, height);
    png_read_image(png, rows);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    return WI_PNG_OK;
}

struct wi_png_rows {
    /// WebImage's reader, or NULL when libpng's reads.
    wi_png_fast *fast;
    png_structp png;
    png_infop info;
    wi_png_context context;
    wi_png_source source;
    uint32_t width;
};

wi_png_status wi_png_rows_open(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                               wi_png_rows_mode mode, wi_png_rows **reader, wi_png_error *error) {
    *reader = NULL;
    if (width == 0 || height == 0) {
        wi_png_set_message(error, "the image has no pixels");
        return WI_PNG_CORRUPT;
    }
    wi_png_rows *rows = calloc(1, sizeof *rows);
    if (rows == NULL) return wi_png_no_memory(error);
    rows->width = width;
    rows->source = (wi_png_source){data, size, 0};
    rows->context = (wi_png_context){WI_PNG_OK, error};
    if (mode != WI_PNG_ROWS_LIBPNG) rows->fast = wi_png_fast_open(data, size, width, height, mode == WI_PNG_ROWS_STREAMED);
    if (rows->fast != NULL) {
        *reader = rows;
        return WI_PNG_OK;
    }
    rows->png = wi_png_create_reader(&rows->context);
    rows->info = rows->png == NULL ? NULL : png_create_info_struct(rows->png);
    if (rows->info == NULL) {
        wi_png_rows_close(rows);
        return wi_png_no_memory(error);
    }
    if (setjmp(png_jmpbuf(rows->png))) {
        wi_png_status status = rows->context.status;
        wi_png_rows_close(rows);
        return status;
    }
    png_set_read_fn(rows->png, &rows->source, wi_png_read);
    png_read_info(rows->png, rows->info);
    if (png_get_interlace_type(rows->png, rows->info) != PNG_INTERLACE_NONE) {
        wi_png_set_message(error, "an interlaced image is not read row by row");
        wi_png_rows_close(rows);
        return WI_PNG_INTERLACED;
    }
    wi_png_request_rgba8(rows->png, rows->info, width, height);
    *reader = rows;
    return WI_PNG_OK;
}

wi_png_status wi_png_rows_read(wi_png_rows *rows, uint8_t *rgba, uint32_t count,
                               wi_png_error *error) {
    if (rows->fast != NULL) {
        if (wi_png_fast_read(rows->fast, rgba, count)) return WI_PNG_OK;
        wi_png_set_message(error, "left to libpng");
        return WI_PNG_FALLBACK;
    }
    rows->context.error = error;
    if (setjmp(png_jmpbuf(rows->png))) return rows->context.status;
    for (uint32_t y = 0; y < count; y++) png_read_row(rows->png, rgba + (size_t)y * rows->width * 4, NULL);
    return WI_PNG_OK;
}

int wi_png_rows_is_fast(const wi_png_rows *rows) {
    return rows->fast != NULL;
}

void wi_png_rows_close(wi_png_rows *rows) {
    if (rows == NULL) return;
    wi_png_fast_close(rows->fast);
    if (rows->png != NULL) png_destroy_read_struct(&rows->png, rows->info == NULL ? NULL : &rows->info, NULL);
    free(rows);
}

static void wi_png_on_info(png_structp png, png_infop info) {
    wi_png_progress *progress = png_get_progressive_ptr(png);
    wi_png_request_rgba8(png, info, progress->width, progress->height);
}

static void wi_png_on_row(png_structp png, png_bytep row, png_uint_32 index, int pass) {
    (void)pass;
    wi_png_progress *progress = png_get_progressive_ptr(png);
    if (row == NULL || index >= progress->height) return;
    png_progressive_combine_row(png, progress->rgba + (size_t)index * progress->width * 4, row);
}

static void wi_png_on_end(png_structp png, png_infop info) {
    (void)info;
    wi_png_progress *progress = png_get_progressive_ptr(png);
    progress->complete = 1;
}

wi_png_status wi_png_decode_partial(const uint8_t *data, size_t size, uint32_t width,
                                    uint32_t height, uint8_t *rgba, int *complete,
                                    wi_png_error *error) {
    wi_png_context context = {WI_PNG_OK, error};
    wi_png_progress progress = {rgba, width, height, 0};
    *complete = 0;
    png_structp png = wi_png_create_reader(&context);
    png_infop info = png == NULL ? NULL : png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return wi_png_no_memory(error);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        return context.status;
    }
    png_set_progressive_read_fn(png, &progress, wi_png_on_info, wi_png_on_row, wi_png_on_end);
    // libpng's prototype is not const-qualified, but the progressive reader only reads the buffer.
    png_process_data(png, info, (png_bytep)data, size);
    png_destroy_read_struct(&png, &info, NULL);
    *complete = progress.complete;
    return WI_PNG_OK;
}
