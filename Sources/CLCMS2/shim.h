#include <lcms2.h>

// lcms2's pixel formats are macros built from other macros, which Swift does not import:
// the ones WebImage transforms are spelt out here as constants.

/// RGB with one extra (alpha) byte after it: WebImage's RGBA8 pixels.
static const cmsUInt32Number WI_LCMS_TYPE_RGBA_8 = TYPE_RGBA_8;
/// One grey byte followed by three bytes lcms2 skips: grey pixels held as RGBA8 (R = G = B),
/// read through their red byte.
static const cmsUInt32Number WI_LCMS_TYPE_GRAY_IN_RGBA_8 = COLORSPACE_SH(PT_GRAY) | EXTRA_SH(3) | CHANNELS_SH(1) | BYTES_SH(1);
/// CMYK stored inverted (0 = full ink), as Adobe's JPEGs hold it.
static const cmsUInt32Number WI_LCMS_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
