"""Writes the BMP conformance folder (argv[1]): bitmaps saved by Pillow, and bitmaps in the
layouts Pillow reads but does not write (4 and 16 bits, bit fields with alpha, RLE4, RLE8,
top-down rows, OS/2 core headers), built byte by byte here. BMPConformanceTests decodes each
and compares with Pillow's decode of the same file."""
import os
import struct
import sys

from PIL import Image

folder = sys.argv[1]
W, H = 13, 7  # odd sizes: rows need padding, nibbles and bits end mid-byte


def colour(x, y):
    return ((x * 37 + y * 11) % 256, (x * 5 + y * 53) % 256, (x * y * 7 + 90) % 256)


def save(name, data):
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def bitmap(info, palette, pixels):
    offset = 14 + len(info) + len(palette)
    return b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset) + info + palette + pixels


def info40(width, height, bits, compression, colours=0, size=0):
    return struct.pack("<IiiHHIIiiII", 40, width, height, 1, bits, compression, size, 2835, 2835, colours, 0)


def padded(row):
    return row + b"\0" * (-len(row) % 4)


def rows(height, top_down, make_row):
    order = range(height) if top_down else reversed(range(height))
    return b"".join(padded(make_row(y)) for y in order)


palette16 = [(i * 16, 255 - i * 16, (i * 40) % 256) for i in range(16)]
pal16 = b"".join(struct.pack("BBBB", b, g, r, 0) for r, g, b in palette16)

# Saved by Pillow: 1, 8 (grey and palette), 24 and 32 bits.
rgb = Image.new("RGB", (W, H))
rgb.putdata([colour(x, y) for y in range(H) for x in range(W)])
rgb.save(os.path.join(folder, "pillow-rgb24.bmp"))
rgb.convert("L").save(os.path.join(folder, "pillow-grey8.bmp"))
rgb.convert("1").save(os.path.join(folder, "pillow-mono1.bmp"))
rgb.convert("P", palette=Image.ADAPTIVE, colors=50).save(os.path.join(folder, "pillow-palette8.bmp"))
rgba = rgb.copy()
rgba.putalpha(Image.new("L", (W, H), 128))
rgba.save(os.path.join(folder, "pillow-rgba32.bmp"))

# 4 bits, bottom-up, and 8 bits top-down.
index = lambda x, y: (x + 3 * y) % 16
nibbles = lambda y: bytes((index(x, y) << 4) | (index(x + 1, y) if x + 1 < W else 0) for x in range(0, W, 2))
save("pal4-bottom-up.bmp", bitmap(info40(W, H, 4, 0, 16), pal16, rows(H, False, nibbles)))
save("pal8-top-down.bmp", bitmap(info40(W, -H, 8, 0, 16), pal16, rows(H, True, lambda y: bytes(index(x, y) for x in range(W)))))

# 24 bits top-down.
bgr = lambda y: b"".join(struct.pack("BBB", *reversed(colour(x, y))) for x in range(W))
save("rgb24-top-down.bmp", bitmap(info40(W, -H, 24, 0), b"", rows(H, True, bgr)))

# 16 bits: 5-5-5 without bit fields, 5-6-5 with them.
def pack16(y, red_bits):
    out = b""
    for x in range(W):
        r, g, b = colour(x, y)
        if red_bits == 5:
            out += struct.pack("<H", (r >> 3) << 10 | (g >> 3) << 5 | b >> 3)
        else:
            out += struct.pack("<H", (r >> 3) << 11 | (g >> 2) << 5 | b >> 3)
    return out
save("rgb16-555.bmp", bitmap(info40(W, H, 16, 0), b"", rows(H, False, lambda y: pack16(y, 5))))
masks565 = struct.pack("<III", 0xF800, 0x07E0, 0x001F)
save("rgb16-565-bitfields.bmp", bitmap(info40(W, H, 16, 3), masks565, rows(H, False, lambda y: pack16(y, 6))))

# 32 bits with an alpha mask in a V4 header.
v4 = struct.pack("<IiiHHIIiiII", 108, W, H, 1, 32, 3, 0, 2835, 2835, 0, 0) \
    + struct.pack("<IIII", 0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000) + b"sRGB" + b"\0" * 48
bgra = lambda y: b"".join(struct.pack("BBBB", *reversed(colour(x, y)), (x * 20) % 256) for x in range(W))
save("rgba32-v4-bitfields.bmp", bitmap(v4, b"", rows(H, False, bgra)))

# OS/2 core header, 8 bits, three-byte palette entries.
core = struct.pack("<IHHHH", 12, W, H, 1, 8)
pal16core = b"".join(struct.pack("BBB", b, g, r) for r, g, b in palette16)
save("core-pal8.bmp", bitmap(core, pal16core, rows(H, False, lambda y: bytes(index(x, y) for x in range(W)))))

# RLE8: runs, an absolute run (odd length, padded), a delta, end of line and end of bitmap.
rle8 = b""
for y in range(H):
    if y == 3:
        rle8 += bytes([0, 2, 4, 1]) + bytes([3, 9]) + bytes([0, 0])  # delta right 4, up 1, then a run
        continue
    if y == 4:
        continue  # skipped by the delta above
    rle8 += bytes([5, index(0, y)]) + bytes([0, 3, 1, 2, 3, 0]) + bytes([W - 8, index(5, y)]) + bytes([0, 0])
rle8 += bytes([0, 1])
save("rle8.bmp", bitmap(info40(W, H, 8, 1, 16, len(rle8)), pal16, rle8))

# RLE4: alternating nibble runs, an absolute run of 6 nibbles (3 bytes, padded to 4), end of line.
# An even count: Pillow reads count // 2 bytes, so it misreads an odd count (the last nibble
# and the padding after it), which BMPCoderTests checks against the format's own rule instead.
rle4 = b""
for y in range(H):
    rle4 += bytes([6, 0x1F]) + bytes([0, 6, 0x23, 0x45, 0x67, 0]) + bytes([W - 12, 0x7A]) + bytes([0, 0])
rle4 += bytes([0, 1])
save("rle4.bmp", bitmap(info40(W, H, 4, 2, 16, len(rle4)), pal16, rle4))
