// The JPEG half of the shim: libjpeg-turbo behind setjmp, so that a fatal libjpeg error comes
// back to Swift as a status code and a message instead of exit() or a longjmp through Swift.
#ifndef WI_JPEG_H
#define WI_JPEG_H

#include <stddef.h>
#include <stdint.h>

/// Room for a libjpeg message (JMSG_LENGTH_MAX), including the terminating NUL.
#define WI_JPEG_MESSAGE_CAPACITY 200

/// How a shim call ended.
typedef enum {
    /// Success.
    WI_JPEG_OK = 0,
    /// The data is damaged; the message says what libjpeg reported.
    WI_JPEG_CORRUPT = 1,
    /// The data ends before the image does.
    WI_JPEG_TRUNCATED = 2,
    /// A valid JPEG using a feature we do not decode (12-bit samples, lossless, odd colour).
    WI_JPEG_UNSUPPORTED = 3,
    /// Decoding needs more memory than the caller allowed (or than malloc gave).
    WI_JPEG_TOO_LARGE = 4,
} wi_jpeg_status;

/// What the frame header says, read by wi_jpeg_read_header.
typedef struct {
    /// Stored size (before EXIF orientation), in pixels.
    int width;
    int height;
    /// Number of colour components (1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK).
    int components;
    /// libjpeg's J_COLOR_SPACE of the stored data.
    int color_space;
    /// Bits per sample (always 8 here: 12-bit files fail with WI_JPEG_UNSUPPORTED).
    int data_precision;
    /// Nonzero for a progressive JPEG.
    int progressive;
    /// Nonzero when an Adobe APP14 marker was found.
    int adobe;
    /// The TIFF structure of the first `Exif\0\0` APP1 marker (without that header), or NULL.
    /// Valid until the decoder is destroyed.
    const uint8_t *exif;
    size_t exif_length;
    /// The XMP packet of the first `http://ns.adobe.com/xap/1.0/` APP1 marker (without that
    /// header), or NULL. Valid until the decoder is destroyed.
    const uint8_t *xmp;
    size_t xmp_length;
    /// The ICC profile of the `ICC_PROFILE` APP2 markers, reassembled in their sequence order
    /// by libjpeg, or NULL when there is none or the markers are inconsistent (one missing,
    /// repeated or miscounted). Valid until the decoder is destroyed.
    const uint8_t *icc;
    size_t icc_length;
} wi_jpeg_info;

/// One decompression: create, read the header, decode once, destroy.
typedef struct wi_jpeg_decoder wi_jpeg_decoder;

/// A new decoder, or NULL when memory is exhausted.
wi_jpeg_decoder *wi_jpeg_decoder_create(void);

/// Releases the decoder and everything libjpeg allocated for it. Accepts NULL.
void wi_jpeg_decoder_destroy(wi_jpeg_decoder *decoder);

/// The message of the last failed call (empty if none).
const char *wi_jpeg_decoder_message(const wi_jpeg_decoder *decoder);

/// Reads the markers up to the first scan of `data` (which must stay valid until the decoder is
/// destroyed) and fills `info`. With `allow_truncated` nonzero, the data may end anywhere after
/// the header and may be damaged: libjpeg fills in what is missing. Otherwise an early end is
/// WI_JPEG_TRUNCATED and damaged entropy-coded data WI_JPEG_CORRUPT, reported as soon as
/// libjpeg meets it.
wi_jpeg_status wi_jpeg_read_header(wi_jpeg_decoder *decoder, const uint8_t *data, size_t length,
                                   int allow_truncated, wi_jpeg_info *info);

/// Decodes the image scaled by 1/`scale_denom` (1, 2, 4 or 8) as RGBA8 into `rgba`, which holds
/// `width` * `height` * 4 bytes and must match libjpeg's output size at that scale exactly.
/// CMYK and YCCK are converted to RGB as Pillow does (assuming Adobe-inverted CMYK), unless
/// `raw_cmyk` is nonzero: then their four inverted CMYK bytes are left in each pixel for a
/// colour profile to convert. `max_memory` caps
/// the memory libjpeg may take for whole-image buffers (progressive coefficients); 0 = no cap.
/// `*incomplete` is set nonzero when the data ended early (only possible with allow_truncated).
wi_jpeg_status wi_jpeg_decode(wi_jpeg_decoder *decoder, int scale_denom, long max_memory, int raw_cmyk,
                              uint8_t *rgba, int width, int height, int *incomplete);

/// The steps of wi_jpeg_decode, for a caller that takes the rows a band at a time (a thumbnail's
/// resampler) instead of holding the whole image: start at 1/`scale_denom` (checking the
/// output size is `width` × `height`), read the next `count` rows (`width` * 4 bytes each)
/// as often as needed, then finish once every row was read. A failed step fails every later one.
/// `raw_cmyk` is as for wi_jpeg_decode. A nonzero `draft` decodes as Pillow's draft mode does,
/// for rows a resampler reduces further: chroma is upsampled by replication rather than
/// interpolation (which lets libjpeg-turbo merge it with the colour conversion) and the IDCT is
/// the fast integer one.
wi_jpeg_status wi_jpeg_start(wi_jpeg_decoder *decoder, int scale_denom, long max_memory, int raw_cmyk,
                             int draft, int width, int height);
wi_jpeg_status wi_jpeg_read_rows(wi_jpeg_decoder *decoder, uint8_t *rgba, int count);
wi_jpeg_status wi_jpeg_finish(wi_jpeg_decoder *decoder, int *incomplete);

/// Encodes `width` x `height` RGBA8 pixels (non-premultiplied, rows of width * 4 bytes) as a
/// JPEG of `quality` 1...100, baseline, or progressive (libjpeg's simple progression) when
/// `progressive` is not 0, chroma at full resolution (4:4:4) when `full_chroma` is not 0, else
/// halved both ways (4:2:0), its JFIF density `dpi` dots per inch when above 0 (else none stated).
/// Alpha is dropped by compositing over white. When `icc` is
/// not NULL, its `icc_length` bytes (at most 255 * 65519) are written as `ICC_PROFILE` APP2
/// markers. On success
/// `*out` is a malloc'd buffer of `*out_length` bytes that the caller frees with free().
/// On failure `message` (WI_JPEG_MESSAGE_CAPACITY bytes) says why.
wi_jpeg_status wi_jpeg_encode(const uint8_t *rgba, int width, int height, int quality, int progressive,
                              int full_chroma, int dpi, const uint8_t *icc, size_t icc_length,
                              uint8_t **out, size_t *out_length, char *message);

#endif
