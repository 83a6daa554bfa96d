// zlib behind two calls with every buffer sized and bounded here.
#include "wi_zlib.h"

#include <stdlib.h>
#include <zlib.h>

wi_zlib_status wi_zlib_inflate(const uint8_t *data, size_t length, size_t limit,
                               uint8_t **out, size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    z_stream stream = {0};
    if (inflateInit(&stream) != Z_OK) return WI_ZLIB_NO_MEMORY;
    size_t capacity = length * 4 < 4096 ? 4096 : length * 4;
    if (capacity > limit) capacity = limit > 0 ? limit : 1;
    uint8_t *buffer = malloc(capacity);
    if (!buffer) {
        inflateEnd(&stream);
        return WI_ZLIB_NO_MEMORY;
    }
    stream.next_in = (Bytef *)data;
    wi_zlib_status status = WI_ZLIB_OK;
    size_t consumed = 0, produced = 0;
    for (;;) {
        // zlib counts in 32 bits: feed and drain at most 1 GiB a call.
        size_t in_chunk = length - consumed > (1u << 30) ? (1u << 30) : length - consumed;
        size_t out_room = capacity - produced > (1u << 30) ? (1u << 30) : capacity - produced;
        stream.next_in = (Bytef *)data + consumed;
        stream.avail_in = (uInt)in_chunk;
        stream.next_out = buffer + produced;
        stream.avail_out = (uInt)out_room;
        int result = inflate(&stream, Z_NO_FLUSH);
        consumed += in_chunk - stream.avail_in;
        produced += out_room - stream.avail_out;
        if (result == Z_STREAM_END) break;
        if (result == Z_MEM_ERROR) { status = WI_ZLIB_NO_MEMORY; break; }
        if (result != Z_OK && result != Z_BUF_ERROR) { status = WI_ZLIB_CORRUPT; break; }
        if (produced == capacity) {
            if (capacity >= limit) { status = WI_ZLIB_TOO_LARGE; break; }
            size_t grown = capacity * 2 > limit ? limit : capacity * 2;
            uint8_t *bigger = realloc(buffer, grown);
            if (!bigger) { status = WI_ZLIB_NO_MEMORY; break; }
            buffer = bigger;
            capacity = grown;
        } else if (consumed == length) {
            status = WI_ZLIB_CORRUPT;  // the input ended before the stream did
            break;
        }
    }
    inflateEnd(&stream);
    if (status != WI_ZLIB_OK) {
        free(buffer);
        return status;
    }
    *out = buffer;
    *out_length = produced;
    return WI_ZLIB_OK;
}

wi_zlib_status wi_zlib_deflate(const uint8_t *data, size_t length, uint8_t **out, size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    uLong bound = compressBound((uLong)length);
    uint8_t *buffer = malloc(bound ? bound : 1);
    if (!buffer) return WI_ZLIB_NO_MEMORY;
    uLongf written = bound;
    int result = compress2(buffer, &written, data, (uLong)length, Z_DEFAULT_COMPRESSION);
    if (result != Z_OK) {
        free(buffer);
        return result == Z_MEM_ERROR ? WI_ZLIB_NO_MEMORY : WI_ZLIB_CORRUPT;
    }
    *out = buffer;
    *out_length = written;
    return WI_ZLIB_OK;
}
