// The C side of WebImage's JPEG and PNG coders. libjpeg and libpng report fatal errors with
// longjmp, which Swift cannot unwind through; every call that can fail runs here, behind
// setjmp, and comes back to Swift as an error code with a message. zlib, for PNG's iCCP;
// librsvg, loaded when an SVG is first drawn; libtiff over memory, its messages kept.
#include "wi_jpeg.h"
#include "wi_png.h"
#include "wi_zlib.h"
#include "wi_png_rows.h"
#include "wi_svg.h"
#include "wi_tiff.h"
