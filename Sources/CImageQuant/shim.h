// libimagequant (libimagequant-dev), the palette quantizer of pngquant and libvips.
#include <libimagequant.h>
