// The libpng side of WebImage's PNG coder. libpng reports fatal errors with longjmp, which
// Swift cannot unwind through: every libpng call runs in wi_png.c behind setjmp and comes
// back as a wi_png_status with a message.
#ifndef WI_PNG_H
#define WI_PNG_H

#include <stddef.h>
#include <stdint.h>

/// How a shim call ended.
typedef enum wi_png_status {
    /// Success.
    WI_PNG_OK = 0,
    /// libpng rejected the data; the message says why.
    WI_PNG_CORRUPT = 1,
    /// The data ended before the image did.
    WI_PNG_TRUNCATED = 2,
    /// A buffer could not be allocated.
    WI_PNG_NO_MEMORY = 3,
    /// The image is interlaced: it cannot be read row by row (see wi_png_rows.h).
    WI_PNG_INTERLACED = 4,
    /// WebImage's own reader met something it leaves to libpng (see wi_png_rows.h).
    WI_PNG_FALLBACK = 5,
} wi_png_status;

/// The message of a failed call (libpng's own wording), NUL-terminated.
typedef struct wi_png_error {
    char message[192];
} wi_png_error;

/// Decodes the complete PNG `data` to RGBA8 (non-premultiplied, no gamma applied, 16-bit
/// channels reduced to their high byte, tRNS turned into alpha, Adam7 de-interlaced), writing
/// rows straight into `rgba`, which holds `width * height * 4` bytes. The file's IHDR must
/// state `width` × `height` (the caller parsed it to size the buffer).
wi_png_status wi_png_decode(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                            uint8_t *rgba, wi_png_error *error);

/// Decodes as much of the PNG prefix `data` as has arrived, with libpng's progressive reader,
/// into `rgba` (`width * height * 4` bytes, cleared by the caller): the rows, or the interlace
/// passes, seen so far. Sets `*complete` to 1 when the image data was read to its end.
wi_png_status wi_png_decode_partial(const uint8_t *data, size_t size, uint32_t width,
                                    uint32_t height, uint8_t *rgba, int *complete,
                                    wi_png_error *error);

/// Bytes written by the encoder, owned by the shim: release them with wi_png_buffer_free.
typedef struct wi_png_buffer {
    uint8_t *bytes;
    size_t size;
    size_t capacity;
} wi_png_buffer;

/// Encodes `rgba` (`width * height * 4` bytes, non-premultiplied) as an 8-bit PNG: RGBA when
/// `keep_alpha` is non-zero, otherwise RGB (the alpha bytes are dropped). On success `output`
/// holds the file; free it with wi_png_buffer_free whatever the status. Each row gets the filter
/// whose output has the smallest sum of magnitudes (libpng's and Pillow's default heuristic) and
/// the whole image is deflated at level 6 (their default level) by libdeflate, in one IDAT chunk.
/// With `interlaced` non-zero the rows are stored in Adam7's seven passes, each filtered on its
/// own, so that a reader can show the whole image coarse first.
wi_png_status wi_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int keep_alpha, int interlaced,
                            wi_png_buffer *output, wi_png_error *error);

/// Encodes `indices` (`width * height` bytes, each an entry of `palette`) as a palette PNG of
/// `bit_depth` bits a pixel (1, 2, 4 or 8; each index must fit): PLTE holds the `count`
/// colours of `palette` (`count * 4` bytes, RGBA, non-premultiplied), tRNS their alphas up to
/// the last translucent one, if any. Rows are unfiltered (filter type 0, as libpng advises and
/// libvips writes palette images) and deflated as wi_png_encode's; Adam7 with `interlaced`.
wi_png_status wi_png_encode_indexed(const uint8_t *indices, uint32_t width, uint32_t height, const uint8_t *palette,
                                    uint32_t count, int bit_depth, int interlaced, wi_png_buffer *output,
                                    wi_png_error *error);

/// Releases the bytes of `buffer` and empties it.
void wi_png_buffer_free(wi_png_buffer *buffer);

#endif
