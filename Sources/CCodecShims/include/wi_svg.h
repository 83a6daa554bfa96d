#ifndef WI_SVG_H
#define WI_SVG_H
// librsvg, loaded on first use (dlopen) rather than linked: it brings glib, gio, cairo, pango,
// harfbuzz, fontconfig and X11's client libraries, about 10 MiB of every process's resident
// memory once linked, for the few processes that ever draw an SVG.
#include <stddef.h>
#include <stdint.h>

/// A loaded document (librsvg's RsvgHandle).
typedef struct wi_svg_document wi_svg_document;

/// A one-line reason, NUL-terminated.
typedef struct wi_svg_error {
    char message[200];
} wi_svg_error;

/// Whether librsvg (librsvg-2.so.2) could be loaded with every function used here; loads it on
/// the first call, once per process.
int wi_svg_available(void);

/// The document the `size` bytes at `data` hold, read from memory with no base file, its
/// absolute units (in, cm, mm, pt, pc) counted at `dpi` pixels an inch; NULL with `error` set
/// when librsvg cannot read it or is not available.
wi_svg_document *wi_svg_load(const void *data, size_t size, double dpi, wi_svg_error *error);

/// Releases `document`.
void wi_svg_free(wi_svg_document *document);

/// The size `document` asks for in CSS pixels: its width and height in pixels, else its
/// viewBox's, else 300 × 150.
void wi_svg_intrinsic_size(wi_svg_document *document, double *width, double *height);

/// Draws `document` scaled from `intrinsic_width` × `intrinsic_height` onto a transparent
/// `width` × `height` canvas, written to `argb` as cairo's premultiplied native-endian ARGB words,
/// `width` × 4 bytes a row; 0 on success, -1 with `error` set.
int wi_svg_render(wi_svg_document *document, double intrinsic_width, double intrinsic_height,
                  int width, int height, uint8_t *argb, wi_svg_error *error);

#endif
