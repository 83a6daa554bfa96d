// libjpeg-turbo behind setjmp. libjpeg reports a fatal error by calling error_exit, whose
// default calls exit(); ours formats the message and longjmps back to the shim function that
// made the libjpeg call, which returns a status to Swift. Every object whose fields change
// between setjmp and longjmp lives in malloc'd memory, so its values survive the jump.
#include "wi_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

/// A progressive JPEG has about ten scans; thousands are a denial-of-service file.
#define WI_JPEG_MAX_SCANS 1000

/// Rows handed to jpeg_read_scanlines at once.
#define WI_JPEG_ROW_BATCH 16

typedef struct {
    struct jpeg_error_mgr pub;  // first, so that cinfo->err converts to this type
    jmp_buf jump;
    int allow_truncated;
    int saw_eof;
    wi_jpeg_status status;
    char message[WI_JPEG_MESSAGE_CAPACITY];
} wi_jpeg_error;

struct wi_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    wi_jpeg_error error;
    /// Whether the output is CMYK that wi_jpeg_read_rows converts to RGBA (not when the caller
    /// asked for raw CMYK, which a colour profile converts).
    int cmyk;
    struct jpeg_progress_mgr progress;
    /// The reassembled ICC profile, malloc'd by libjpeg.
    JOCTET *icc;
    int created;
    int failed;
    wi_jpeg_status failure;
};

static void set_message(wi_jpeg_error *error, const char *text) {
    snprintf(error->message, sizeof error->message, "%s", text);
}

static wi_jpeg_status classify(wi_jpeg_error *error) {
    switch (error->pub.msg_code) {
    case JERR_BAD_PRECISION:
        snprintf(error->message, sizeof error->message, "%d-bit samples", error->pub.msg_parm.i[0]);
        return WI_JPEG_UNSUPPORTED;
    case JERR_SOF_UNSUPPORTED:
    case JERR_IMAGE_TOO_BIG:
    case JERR_CONVERSION_NOTIMPL:
        return WI_JPEG_UNSUPPORTED;
    case JERR_NO_BACKING_STORE:
    case JERR_OUT_OF_MEMORY:
        return WI_JPEG_TOO_LARGE;
    default:
        return error->saw_eof ? WI_JPEG_TRUNCATED : WI_JPEG_CORRUPT;
    }
}

/// Jumps back to the shim function that made the libjpeg call, leaving `status` for it.
static void fail(wi_jpeg_error *error, wi_jpeg_status status) {
    error->status = status;
    longjmp(error->jump, 1);
}

static void on_error_exit(j_common_ptr cinfo) {
    wi_jpeg_error *error = (wi_jpeg_error *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, error->message);
    fail(error, classify(error));
}

/// Whether a warning means the entropy-coded data is damaged, so that what follows is libjpeg's
/// filler rather than the image. "Extraneous bytes before a marker" is not among them: that is
/// padding some writers leave between segments, and the image itself is intact.
static int is_damage(int msg_code) {
    switch (msg_code) {
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_MUST_RESYNC:
        return 1;
    default:
        return 0;
    }
}

/// Warnings (level -1) about the end of the data or damaged data end the decode at once, unless
/// allow_truncated asks for whatever libjpeg can make of a partial download. Others are ignored.
static void on_emit_message(j_common_ptr cinfo, int msg_level) {
    wi_jpeg_error *error = (wi_jpeg_error *)cinfo->err;
    if (msg_level >= 0) return;
    cinfo->err->num_warnings++;
    int code = cinfo->err->msg_code;
    if (code == JWRN_JPEG_EOF) error->saw_eof = 1;
    if (error->allow_truncated || (code != JWRN_JPEG_EOF && !is_damage(code))) return;
    (*cinfo->err->format_message)(cinfo, error->message);
    fail(error, code == JWRN_JPEG_EOF ? WI_JPEG_TRUNCATED : WI_JPEG_CORRUPT);
}

static void install_error_manager(wi_jpeg_error *error) {
    jpeg_std_error(&error->pub);
    error->pub.error_exit = on_error_exit;
    error->pub.emit_message = on_emit_message;
}

static void on_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    if (((j_decompress_ptr)cinfo)->input_scan_number > WI_JPEG_MAX_SCANS) {
        wi_jpeg_error *error = (wi_jpeg_error *)cinfo->err;
        set_message(error, "too many scans (more than 1000)");
        fail(error, WI_JPEG_CORRUPT);
    }
}

wi_jpeg_decoder *wi_jpeg_decoder_create(void) {
    wi_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    install_error_manager(&decoder->error);
    decoder->cinfo.err = &decoder->error.pub;
    if (setjmp(decoder->error.jump)) {
        jpeg_destroy_decompress(&decoder->cinfo);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
    decoder->progress.progress_monitor = on_progress;
    decoder->cinfo.progress = &decoder->progress;
    return decoder;
}

void wi_jpeg_decoder_destroy(wi_jpeg_decoder *decoder) {
    if (!decoder) return;
    if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder->icc);
    free(decoder);
}

const char *wi_jpeg_decoder_message(const wi_jpeg_decoder *decoder) {
    return decoder->error.message;
}

/// Records a failure so that later calls on the same decoder refuse to touch libjpeg again.
static wi_jpeg_status failed(wi_jpeg_decoder *decoder, wi_jpeg_status status) {
    decoder->failed = 1;
    decoder->failure = status;
    return status;
}

/// The payload of the first saved APP1 marker that starts with `prefix` (of `prefix_length`
/// bytes), after the prefix; NULL if there is none.
static const uint8_t *find_app1(struct jpeg_decompress_struct *cinfo, const char *prefix,
                                size_t prefix_length, size_t *length) {
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length > prefix_length
            && memcmp(m->data, prefix, prefix_length) == 0) {
            *length = m->data_length - prefix_length;
            return m->data + prefix_length;
        }
    }
    return NULL;
}

wi_jpeg_status wi_jpeg_read_header(wi_jpeg_decoder *decoder, const uint8_t *data, size_t length,
                                   int allow_truncated, wi_jpeg_info *info) {
    if (decoder->failed) return decoder->failure;
    memset(info, 0, sizeof *info);
    decoder->error.allow_truncated = allow_truncated;
    if (setjmp(decoder->error.jump)) return failed(decoder, decoder->error.status);
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    jpeg_mem_src(cinfo, data, (unsigned long)length);
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(cinfo, TRUE);
    info->width = (int)cinfo->image_width;
    info->height = (int)cinfo->image_height;
    info->components = cinfo->num_components;
    info->color_space = (int)cinfo->jpeg_color_space;
    info->data_precision = cinfo->data_precision;
    info->progressive = cinfo->progressive_mode ? 1 : 0;
    info->adobe = cinfo->saw_Adobe_marker ? 1 : 0;
    static const char exif[] = "Exif\0";  // with the string's own NUL: "Exif\0\0"
    static const char xmp[] = "http://ns.adobe.com/xap/1.0/";
    info->exif = find_app1(cinfo, exif, sizeof exif, &info->exif_length);
    info->xmp = find_app1(cinfo, xmp, sizeof xmp, &info->xmp_length);
    // Inconsistent markers make libjpeg warn (ignored by on_emit_message) and return FALSE.
    unsigned int icc_length = 0;
    if (!decoder->icc && jpeg_read_icc_profile(cinfo, &decoder->icc, &icc_length)) {
        info->icc = decoder->icc;
        info->icc_length = icc_length;
    }
    return WI_JPEG_OK;
}

/// a * b / 255 for 0...255 values, rounded as Pillow's MULDIV255 rounds it.
static inline int muldiv255(int a, int b) {
    int t = a * b + 128;
    return ((t >> 8) + t) >> 8;
}

/// Turns rows of CMYK as libjpeg returns it into RGBA in place. Like Pillow, this assumes the
/// Adobe convention (stored inverted) for every CMYK JPEG, and uses the arithmetic of Pillow's
/// "CMYK;I" unpacking followed by its CMYK to RGB conversion.
static void cmyk_rows_to_rgba(JSAMPROW *rows, JDIMENSION count, JDIMENSION width) {
    for (JDIMENSION r = 0; r < count; r++) {
        uint8_t *p = rows[r];
        for (JDIMENSION x = 0; x < width; x++, p += 4) {
            int k = p[3];
            for (int c = 0; c < 3; c++) {
                int v = k - muldiv255(255 - p[c], k);
                p[c] = (uint8_t)(v < 0 ? 0 : v);
            }
            p[3] = 255;
        }
    }
}

static int select_output(struct jpeg_decompress_struct *cinfo, wi_jpeg_error *error, int *cmyk) {
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE:
    case JCS_YCbCr:
    case JCS_RGB:
        cinfo->out_color_space = JCS_EXT_RGBA;
        *cmyk = 0;
        return 1;
    case JCS_CMYK:
    case JCS_YCCK:
        cinfo->out_color_space = JCS_CMYK;
        *cmyk = 1;
        return 1;
    default:
        snprintf(error->message, sizeof error->message, "%d-component colour space",
                 cinfo->num_components);
        return 0;
    }
}

wi_jpeg_status wi_jpeg_start(wi_jpeg_decoder *decoder, int scale_denom, long max_memory, int raw_cmyk,
                             int draft, int width, int height) {
    if (decoder->failed) return decoder->failure;
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    wi_jpeg_error *error = &decoder->error;
    if (setjmp(error->jump)) return failed(decoder, error->status);
    if (!select_output(cinfo, error, &decoder->cmyk)) return failed(decoder, WI_JPEG_UNSUPPORTED);
    if (raw_cmyk) decoder->cmyk = 0;
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned int)scale_denom;
    if (draft) {
        cinfo->do_fancy_upsampling = FALSE;
        cinfo->dct_method = JDCT_IFAST;
    }
    cinfo->mem->max_memory_to_use = max_memory;
    jpeg_calc_output_dimensions(cinfo);
    if ((int)cinfo->output_width != width || (int)cinfo->output_height != height) {
        snprintf(error->message, sizeof error->message, "libjpeg would decode %ux%u, not %dx%d",
                 cinfo->output_width, cinfo->output_height, width, height);
        return failed(decoder, WI_JPEG_CORRUPT);
    }
    jpeg_start_decompress(cinfo);
    return WI_JPEG_OK;
}

wi_jpeg_status wi_jpeg_read_rows(wi_jpeg_decoder *decoder, uint8_t *rgba, int count) {
    if (decoder->failed) return decoder->failure;
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    wi_jpeg_error *error = &decoder->error;
    if (setjmp(error->jump)) return failed(decoder, error->status);
    if (count < 0 || (JDIMENSION)count > cinfo->output_height - cinfo->output_scanline) {
        set_message(error, "more rows asked for than the image has");
        return failed(decoder, WI_JPEG_CORRUPT);
    }
    size_t stride = (size_t)cinfo->output_width * 4;
    JSAMPROW rows[WI_JPEG_ROW_BATCH];
    for (JDIMENSION done = 0; done < (JDIMENSION)count;) {
        JDIMENSION batch = (JDIMENSION)count - done;
        if (batch > WI_JPEG_ROW_BATCH) batch = WI_JPEG_ROW_BATCH;
        for (JDIMENSION i = 0; i < batch; i++) rows[i] = rgba + (size_t)(done + i) * stride;
        JDIMENSION got = jpeg_read_scanlines(cinfo, rows, batch);
        if (got == 0) {
            set_message(error, "libjpeg returned no rows");
            return failed(decoder, WI_JPEG_CORRUPT);
        }
        if (decoder->cmyk) cmyk_rows_to_rgba(rows, got, cinfo->output_width);
        done += got;
    }
    return WI_JPEG_OK;
}

wi_jpeg_status wi_jpeg_finish(wi_jpeg_decoder *decoder, int *incomplete) {
    if (decoder->failed) return decoder->failure;
    wi_jpeg_error *error = &decoder->error;
    if (setjmp(error->jump)) return failed(decoder, error->status);
    // Reads on to the EOI marker, so that data missing after the last row still counts as
    // truncation (Pillow rejects a file without its EOI).
    jpeg_finish_decompress(&decoder->cinfo);
    *incomplete = error->saw_eof;
    return WI_JPEG_OK;
}

wi_jpeg_status wi_jpeg_decode(wi_jpeg_decoder *decoder, int scale_denom, long max_memory, int raw_cmyk,
                              uint8_t *rgba, int width, int height, int *incomplete) {
    wi_jpeg_status status = wi_jpeg_start(decoder, scale_denom, max_memory, raw_cmyk, 0, width, height);
    if (status == WI_JPEG_OK) status = wi_jpeg_read_rows(decoder, rgba, height);
    if (status == WI_JPEG_OK) status = wi_jpeg_finish(decoder, incomplete);
    return status;
}

/// A compression writing into one malloc'd buffer that grows as needed. jpeg_mem_dest is not
/// used because after an error its current buffer is out of reach (it leaks).
typedef struct {
    struct jpeg_compress_struct cinfo;  // first, so that the cinfo pointer converts to this type
    struct jpeg_destination_mgr dest;
    wi_jpeg_error error;
    uint8_t *buffer;
    size_t capacity;
    size_t length;
    uint8_t *row;
} wi_jpeg_encoder;

static void destination_init(j_compress_ptr cinfo) {
    wi_jpeg_encoder *encoder = (wi_jpeg_encoder *)cinfo;
    size_t guess = (size_t)cinfo->image_width * cinfo->image_height / 4;
    encoder->capacity = guess < 65536 ? 65536 : guess;
    encoder->buffer = malloc(encoder->capacity);
    if (!encoder->buffer) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    encoder->dest.next_output_byte = encoder->buffer;
    encoder->dest.free_in_buffer = encoder->capacity;
}

/// Called when the buffer is full: doubles it.
static boolean destination_grow(j_compress_ptr cinfo) {
    wi_jpeg_encoder *encoder = (wi_jpeg_encoder *)cinfo;
    size_t used = encoder->capacity;
    uint8_t *grown = realloc(encoder->buffer, used * 2);
    if (!grown) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    encoder->buffer = grown;
    encoder->capacity = used * 2;
    encoder->dest.next_output_byte = grown + used;
    encoder->dest.free_in_buffer = used;
    return TRUE;
}

/// Records the length and gives back the unused tail of the buffer.
static void destination_term(j_compress_ptr cinfo) {
    wi_jpeg_encoder *encoder = (wi_jpeg_encoder *)cinfo;
    encoder->length = encoder->capacity - encoder->dest.free_in_buffer;
    uint8_t *shrunk = realloc(encoder->buffer, encoder->length ? encoder->length : 1);
    if (shrunk) encoder->buffer = shrunk;
}

/// Returns `pixels` if the row is opaque, else the row composited over white into `scratch`.
static const uint8_t *opaque_row(const uint8_t *pixels, uint8_t *scratch, int width) {
    int opaque = 1;
    for (int x = 0; x < width && opaque; x++) opaque = pixels[x * 4 + 3] == 255;
    if (opaque) return pixels;
    for (int x = 0; x < width; x++) {
        const uint8_t *s = pixels + x * 4;
        uint8_t *d = scratch + x * 4;
        int a = s[3];
        for (int c = 0; c < 3; c++) d[c] = (uint8_t)((s[c] * a + 255 * (255 - a) + 127) / 255);
        d[3] = 255;
    }
    return scratch;
}

static void encode_rows(wi_jpeg_encoder *encoder, const uint8_t *rgba, int width, int height,
                        int quality, int progressive, int full_chroma, int dpi, const uint8_t *icc, size_t icc_length) {
    struct jpeg_compress_struct *cinfo = &encoder->cinfo;
    jpeg_create_compress(cinfo);
    encoder->dest.init_destination = destination_init;
    encoder->dest.empty_output_buffer = destination_grow;
    encoder->dest.term_destination = destination_term;
    cinfo->dest = &encoder->dest;
    cinfo->image_width = (JDIMENSION)width;
    cinfo->image_height = (JDIMENSION)height;
    cinfo->input_components = 4;
    cinfo->in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    if (full_chroma) {
        cinfo->comp_info[0].h_samp_factor = 1;
        cinfo->comp_info[0].v_samp_factor = 1;
    }
    if (dpi > 0) {
        cinfo->density_unit = 1;
        cinfo->X_density = (UINT16)(dpi > 65535 ? 65535 : dpi);
        cinfo->Y_density = cinfo->X_density;
    }
    if (progressive) jpeg_simple_progression(cinfo);
    encoder->row = malloc((size_t)width * 4);
    if (!encoder->row) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    jpeg_start_compress(cinfo, TRUE);
    if (icc) jpeg_write_icc_profile(cinfo, icc, (unsigned int)icc_length);
    size_t stride = (size_t)width * 4;
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = (JSAMPROW)opaque_row(rgba + cinfo->next_scanline * stride, encoder->row, width);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
}

wi_jpeg_status wi_jpeg_encode(const uint8_t *rgba, int width, int height, int quality, int progressive,
                              int full_chroma, int dpi, const uint8_t *icc, size_t icc_length,
                              uint8_t **out, size_t *out_length, char *message) {
    *out = NULL;
    *out_length = 0;
    message[0] = 0;
    wi_jpeg_encoder *encoder = calloc(1, sizeof *encoder);
    if (!encoder) {
        snprintf(message, WI_JPEG_MESSAGE_CAPACITY, "out of memory");
        return WI_JPEG_TOO_LARGE;
    }
    install_error_manager(&encoder->error);
    encoder->cinfo.err = &encoder->error.pub;
    wi_jpeg_status status = WI_JPEG_OK;
    if (!setjmp(encoder->error.jump)) {
        encode_rows(encoder, rgba, width, height, quality, progressive, full_chroma, dpi, icc, icc_length);
        *out = encoder->buffer;
        *out_length = encoder->length;
    } else {
        status = encoder->error.status;
        snprintf(message, WI_JPEG_MESSAGE_CAPACITY, "%s", encoder->error.message);
        free(encoder->buffer);
    }
    jpeg_destroy_compress(&encoder->cinfo);
    free(encoder->row);
    free(encoder);
    return status;
}
