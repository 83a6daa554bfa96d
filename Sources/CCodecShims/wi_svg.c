// librsvg through dlopen: see wi_svg.h. The declarations below are the few of librsvg's, GLib's
// and cairo's ABIs used here, as their headers state them.
#include "wi_svg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

typedef struct { double x, y, width, height; } rsvg_rectangle;
typedef struct { unsigned int domain; int code; char *message; } g_error;

static struct {
    void *(*memory_input_stream_new_from_data)(const void *, ssize_t, void *);
    void (*object_unref)(void *);
    void (*error_free)(g_error *);
    void *(*handle_new_from_stream_sync)(void *, void *, int, void *, g_error **);
    void (*handle_set_dpi)(void *, double);
    int (*handle_get_intrinsic_size_in_pixels)(void *, double *, double *);
    void (*handle_get_intrinsic_dimensions)(void *, int *, void *, int *, void *, int *, rsvg_rectangle *);
    int (*handle_render_document)(void *, void *, const rsvg_rectangle *, g_error **);
    void *(*image_surface_create)(int, int, int);
    int (*surface_status)(void *);
    void (*surface_flush)(void *);
    void (*surface_destroy)(void *);
    unsigned char *(*image_surface_get_data)(void *);
    int (*image_surface_get_stride)(void *);
    void *(*create)(void *);
    void (*scale)(void *, double, double);
    void (*destroy)(void *);
} api;

static int loaded;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

// Every symbol from the library and its dependencies (GLib, GIO, cairo), or none.
static void load(void) {
    void *library = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define FIND(field, name) if (!(*(void **)&api.field = dlsym(library, name))) return;
    FIND(memory_input_stream_new_from_data, "g_memory_input_stream_new_from_data")
    FIND(object_unref, "g_object_unref")
    FIND(error_free, "g_error_free")
    FIND(handle_new_from_stream_sync, "rsvg_handle_new_from_stream_sync")
    FIND(handle_set_dpi, "rsvg_handle_set_dpi")
    FIND(handle_get_intrinsic_size_in_pixels, "rsvg_handle_get_intrinsic_size_in_pixels")
    FIND(handle_get_intrinsic_dimensions, "rsvg_handle_get_intrinsic_dimensions")
    FIND(handle_render_document, "rsvg_handle_render_document")
    FIND(image_surface_create, "cairo_image_surface_create")
    FIND(surface_status, "cairo_surface_status")
    FIND(surface_flush, "cairo_surface_flush")
    FIND(surface_destroy, "cairo_surface_destroy")
    FIND(image_surface_get_data, "cairo_image_surface_get_data")
    FIND(image_surface_get_stride, "cairo_image_surface_get_stride")
    FIND(create, "cairo_create")
    FIND(scale, "cairo_scale")
    FIND(destroy, "cairo_destroy")
#undef FIND
    loaded = 1;
}

int wi_svg_available(void) {
    pthread_once(&load_once, load);
    return loaded;
}

// Sets `error` to `fallback`, or to the GError's message, which is freed.
static void fail(wi_svg_error *error, g_error *reason, const char *fallback) {
    snprintf(error->message, sizeof error->message, "%s", reason && reason->message ? reason->message : fallback);
    if (reason) api.error_free(reason);
}

wi_svg_document *wi_svg_load(const void *data, size_t size, double dpi, wi_svg_error *error) {
    if (!wi_svg_available()) {
        fail(error, NULL, "librsvg (librsvg-2.so.2) is not installed");
        return NULL;
    }
    void *stream = api.memory_input_stream_new_from_data(data, (ssize_t)size, NULL);
    g_error *reason = NULL;
    // RSVG_HANDLE_FLAGS_NONE: libxml2 keeps its safety limits.
    void *handle = api.handle_new_from_stream_sync(stream, NULL, 0, NULL, &reason);
    api.object_unref(stream);
    if (!handle) {
        fail(error, reason, "librsvg could not read the document");
        return NULL;
    }
    api.handle_set_dpi(handle, dpi);
    return handle;
}

void wi_svg_free(wi_svg_document *document) {
    api.object_unref(document);
}

void wi_svg_intrinsic_size(wi_svg_document *document, double *width, double *height) {
    if (api.handle_get_intrinsic_size_in_pixels(document, width, height)) return;
    int has_view_box = 0;
    rsvg_rectangle view_box = {0, 0, 0, 0};
    api.handle_get_intrinsic_dimensions(document, NULL, NULL, NULL, NULL, &has_view_box, &view_box);
    *width = has_view_box ? view_box.width : 300;
    *height = has_view_box ? view_box.height : 150;
}

int wi_svg_render(wi_svg_document *document, double intrinsic_width, double intrinsic_height,
                  int width, int height, uint8_t *argb, wi_svg_error *error) {
    void *surface = api.image_surface_create(0 /* CAIRO_FORMAT_ARGB32 */, width, height);
    if (!surface || api.surface_status(surface) != 0 /* CAIRO_STATUS_SUCCESS */) {
        if (surface) api.surface_destroy(surface);
        fail(error, NULL, "cairo could not make the surface");
        return -1;
    }
    void *context = api.create(surface);
    api.scale(context, width / intrinsic_width, height / intrinsic_height);
    rsvg_rectangle viewport = {0, 0, intrinsic_width, intrinsic_height};
    g_error *reason = NULL;
    int drawn = api.handle_render_document(document, context, &viewport, &reason);
    api.destroy(context);
    int status = -1;
    if (!drawn) {
        fail(error, reason, "librsvg could not draw the document");
    } else {
        api.surface_flush(surface);
        unsigned char *pixels = api.image_surface_get_data(surface);
        int stride = api.image_surface_get_stride(surface);
        if (!pixels) {
            fail(error, NULL, "cairo kept no pixels");
        } else {
            for (int y = 0; y < height; y++) memcpy(argb + (size_t)y * width * 4, pixels + (size_t)y * stride, (size_t)width * 4);
            status = 0;
        }
    }
    api.surface_destroy(surface);
    return status;
}
