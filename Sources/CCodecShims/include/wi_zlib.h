// zlib for the compressed ICC profile of a PNG's iCCP chunk, with a bound on the inflated size
// so that a small chunk cannot expand into gigabytes.
#ifndef WI_ZLIB_H
#define WI_ZLIB_H

#include <stddef.h>
#include <stdint.h>

/// How a zlib call ended.
typedef enum {
    /// Success.
    WI_ZLIB_OK = 0,
    /// The stream is damaged or ends early.
    WI_ZLIB_CORRUPT = 1,
    /// The inflated data would exceed the limit the caller set.
    WI_ZLIB_TOO_LARGE = 2,
    /// Memory ran out.
    WI_ZLIB_NO_MEMORY = 3,
} wi_zlib_status;

/// Inflates the zlib stream `data` (`length` bytes) into a malloc'd buffer of at most `limit`
/// bytes; on success `*out` (freed by the caller with free()) holds `*out_length` bytes.
wi_zlib_status wi_zlib_inflate(const uint8_t *data, size_t length, size_t limit,
                               uint8_t **out, size_t *out_length);

/// Deflates `length` bytes of `data` as a zlib stream at the default level into a malloc'd
/// buffer `*out` (freed by the caller with free()) of `*out_length` bytes.
wi_zlib_status wi_zlib_deflate(const uint8_t *data, size_t length, uint8_t **out, size_t *out_length);

#endif
