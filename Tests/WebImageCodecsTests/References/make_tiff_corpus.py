"""Writes TIFF files of the layouts WebImage's TIFF decoder must read, with Pillow, into the
folder given as the first argument: one picture (a 61 x 37 gradient with a transparent corner,
odd sizes so that strips and rows do not divide evenly) in each colour mode, compression and
byte order Pillow writes, plus an orientation tag and a second page.

usage: python make_tiff_corpus.py FOLDER   (Pillow installed)
"""
import os
import sys

from PIL import Image

folder = sys.argv[1]
width, height = 61, 37
rgba = Image.new("RGBA", (width, height))
rgba.putdata([
    (x * 255 // (width - 1), y * 255 // (height - 1), (x + y) * 4 % 256, 0 if x < 8 and y < 6 else 255 - x)
    for y in range(height) for x in range(width)
])
rgb = rgba.convert("RGB")


def save(image, name, **options):
    image.save(os.path.join(folder, name), "TIFF", **options)


save(rgb, "rgb_raw.tif")
save(rgb, "rgb_lzw.tif", compression="tiff_lzw")
save(rgb, "rgb_deflate.tif", compression="tiff_adobe_deflate")
save(rgb, "rgb_packbits.tif", compression="packbits")
save(rgba, "rgba_lzw.tif", compression="tiff_lzw")
save(rgb.convert("L"), "grey.tif", compression="tiff_lzw")
save(rgb.convert("1"), "bilevel_g4.tif", compression="group4")
save(rgb.convert("P"), "palette.tif")
save(rgb.convert("CMYK"), "cmyk.tif")
grey16 = Image.new("I;16", (width, height))
grey16.putdata([x * 1000 + y * 10 for y in range(height) for x in range(width)])
save(grey16, "grey16_little.tif")
save(Image.frombytes("I;16B", (width, height), b"".join(
    (x * 1000 + y * 10).to_bytes(2, "big") for y in range(height) for x in range(width))), "grey16_big.tif")
save(rgb, "oriented6.tif", tiffinfo={274: 6})
save(rgb, "two_pages.tif", save_all=True, append_images=[rgb.transpose(Image.Transpose.FLIP_LEFT_RIGHT)])
