// libtiff over bytes in memory, for WebImage's TIFF coder: files are read from and written to
// buffers (libtiff's client I/O), its errors and warnings are kept as a message instead of
// printed, and its single allocations are bounded, so that a hostile file fails with a message.
#ifndef WI_TIFF_H
#define WI_TIFF_H

#include <stddef.h>
#include <stdint.h>

/// A TIFF file opened over bytes the caller keeps alive until wi_tiff_close.
typedef struct wi_tiff_file wi_tiff_file;

/// Opens the first image of the `size` bytes at `data`; libtiff allocates at most
/// `max_allocation` bytes at once. Returns NULL with the reason in `error` (`error_size`
/// bytes, NUL-terminated) when the bytes are no TIFF libtiff reads.
wi_tiff_file *wi_tiff_open(const uint8_t *data, size_t size, uint64_t max_allocation, char *error, size_t error_size);

/// The first image's width and height in pixels, and its TIFF orientation (1–8; 1 when none is given).
void wi_tiff_geometry(wi_tiff_file *file, uint32_t *width, uint32_t *height, uint16_t *orientation);

/// The first image's ICC profile, owned by the file, or NULL with *length 0 when it has none.
const uint8_t *wi_tiff_icc_profile(wi_tiff_file *file, uint32_t *length);

/// Reads the first image as 8-bit RGBA, rows top to bottom as stored (the orientation is not
/// applied), into `pixels`: 8-bit RGB(A) with unassociated alpha exactly as stored, anything
/// else through libtiff's RGBA interface, premultiplied by alpha as it gives it
/// (width × height × 4 bytes). Returns 0 for straight colour, 1 for colour premultiplied by
/// alpha, or -1 with the reason in the file's message (wi_tiff_message).
int wi_tiff_read_rgba(wi_tiff_file *file, uint8_t *pixels);

/// The last error libtiff reported for `file`.
const char *wi_tiff_message(wi_tiff_file *file);

/// Closes `file`.
void wi_tiff_close(wi_tiff_file *file);

/// Writes `width` × `height` 8-bit pixels (`channels` 3 or 4, unassociated alpha when 4) as one
/// Deflate-compressed TIFF with horizontal prediction, and the ICC profile when `icc` is not
/// NULL, into a malloc'd buffer `*out` (freed by the caller with free()) of `*out_size` bytes.
/// Returns 0 on success, else -1 with the reason in `error`.
int wi_tiff_write(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                  const uint8_t *icc, uint32_t icc_length, uint8_t **out, size_t *out_size,
                  char *error, size_t error_size);

#endif
