// WebImage's own reader of the common PNG (see wi_png_rows.h); internal to the shim.
#ifndef WI_PNG_FAST_H
#define WI_PNG_FAST_H

#include <stddef.h>
#include <stdint.h>

/// A PNG read by WebImage's reader; opaque.
typedef struct wi_png_fast wi_png_fast;

/// A reader for `data` (an IHDR stating `width` × `height`), or NULL when the file is not
/// one it reads exactly as libpng does (or memory ran out): then use libpng. Unless `streamed`
/// is set, image data of at most 8 MiB is inflated at once here (a damaged stream then gives
/// NULL); otherwise the reads inflate it a batch at a time.
wi_png_fast *wi_png_fast_open(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                              int streamed);

/// Decodes the next `count` rows into `rgba` (`width * 4` bytes a row). Returns 1 on success,
/// 0 when the reader gives up (the caller starts again with libpng). After the last row, the
/// zlib stream must have ended cleanly, or the last call returns 0.
int wi_png_fast_read(wi_png_fast *reader, uint8_t *rgba, uint32_t count);

/// Releases the reader.
void wi_png_fast_close(wi_png_fast *reader);

#endif
