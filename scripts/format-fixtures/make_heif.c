// Writes the two HEIF fixtures heif-enc cannot make (scripts/make-format-fixtures.py runs it):
//   irot_exif6.heic       a 64x48 picture stored with irot (90° clockwise, as libheif's
//                         orientation 6) and an EXIF block saying orientation 6, as an iPhone
//                         writes them: shown 48x64, rotated once
//   thumbnail_differs.heic a 64x48 picture whose 16x12 thumbnail item is a different, flat
//                         magenta picture: what a decoder shows for a small box tells which
//                         item it decoded
//   thumbnail_differs.avif the same in AV1 (libheif's aom encoder): an AVIF with a thumbnail
//                         item, which avifenc cannot write
// The 64x48 picture is quadrants.png's: red, green / blue, white quadrants.
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(struct heif_error error, const char* what) {
    if (error.code != heif_error_Ok) {
        fprintf(stderr, "%s: %s\n", what, error.message);
        exit(1);
    }
}

static struct heif_image* picture(int width, int height, int flat) {
    struct heif_image* image;
    check(heif_image_create(width, height, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image), "create");
    check(heif_image_add_plane(image, heif_channel_interleaved, width, height, 8), "plane");
    int stride;
    uint8_t* rows = heif_image_get_plane(image, heif_channel_interleaved, &stride);
    static const uint8_t quadrant[4][3] = {{230, 20, 20}, {20, 200, 40}, {30, 40, 220}, {240, 240, 240}};
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            const uint8_t* colour = quadrant[(y >= height / 2) * 2 + (x >= width / 2)];
            static const uint8_t magenta[3] = {220, 30, 220};
            memcpy(rows + y * stride + x * 3, flat ? magenta : colour, 3);
        }
    }
    return image;
}

static struct heif_encoder* encoder_for(enum heif_compression_format format) {
    struct heif_encoder* encoder;
    check(heif_context_get_encoder_for_format(NULL, format, &encoder), "encoder");
    check(heif_encoder_set_lossy_quality(encoder, 90), "quality");
    return encoder;
}

static struct heif_encoder* encoder(void) { return encoder_for(heif_compression_HEVC); }

static void write_irot_exif6(const char* path) {
    struct heif_context* context = heif_context_alloc();
    struct heif_encoder* hevc = encoder();
    struct heif_encoding_options* options = heif_encoding_options_alloc();
    options->image_orientation = heif_orientation_rotate_90_cw;
    struct heif_image* image = picture(64, 48, 0);
    struct heif_image_handle* handle;
    check(heif_context_encode_image(context, image, hevc, options, &handle), "encode");
    // A little-endian TIFF with one IFD entry, Orientation (0x0112) = 6; libheif stores it
    // behind the 4-byte offset HEIF's Exif items start with.
    static const uint8_t exif[] = {
        'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0};
    check(heif_context_add_exif_metadata(context, handle, exif, sizeof exif), "exif");
    check(heif_context_write_to_file(context, path), "write");
    heif_image_handle_release(handle);
    heif_image_release(image);
    heif_encoding_options_free(options);
    heif_encoder_release(hevc);
    heif_context_free(context);
}

static void write_thumbnail_differs(const char* path, enum heif_compression_format format) {
    struct heif_context* context = heif_context_alloc();
    struct heif_encoder* hevc = encoder_for(format);
    struct heif_image* image = picture(64, 48, 0);
    struct heif_image* small = picture(16, 12, 1);
    struct heif_image_handle *handle, *thumbnail;
    check(heif_context_encode_image(context, image, hevc, NULL, &handle), "encode");
    check(heif_context_encode_image(context, small, hevc, NULL, &thumbnail), "encode thumbnail");
    // libheif 1.15 takes the two handles the other way round from its header's names.
    check(heif_context_assign_thumbnail(context, thumbnail, handle), "assign thumbnail");
    check(heif_context_set_primary_image(context, handle), "primary");
    check(heif_context_write_to_file(context, path), "write");
    heif_image_handle_release(thumbnail);
    heif_image_handle_release(handle);
    heif_image_release(small);
    heif_image_release(image);
    heif_encoder_release(hevc);
    heif_context_free(context);
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_heif HEIC-FOLDER (the AVIF goes to its sibling avif/)\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/irot_exif6.heic", argv[1]);
    write_irot_exif6(path);
    snprintf(path, sizeof path, "%s/thumbnail_differs.heic", argv[1]);
    write_thumbnail_differs(path, heif_compression_HEVC);
    snprintf(path, sizeof path, "%s/../avif/thumbnail_differs.avif", argv[1]);
    write_thumbnail_differs(path, heif_compression_AV1);
    return 0;
}
