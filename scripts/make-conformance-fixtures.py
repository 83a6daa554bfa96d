#!/usr/bin/env python3
"""Writes the small PNG, APNG and GIF files of the conformance tests (issue 18) into
Tests/Fixtures/generated/. Only the standard library is needed: the chunks and the GIF blocks
are written by hand, because the cases are ones no encoder makes on purpose.

usage: python3 scripts/make-conformance-fixtures.py   (from anywhere; the output is deterministic)

PNG and APNG (the APNG ones follow the recipes of the APNG conformance suite,
https://philip.html5.org/tests/apng/tests.html, at 16x8 instead of 128x64):
  grey1_trns.png          1-bit grey, tRNS grey 1: white is transparent, black opaque.
  apng_16bit.png          16-bit RGBA: red, then opaque black, then blue at alpha 0x8000 OVER it.
  apng_grey_alpha.png     8-bit grey + alpha: transparent, then grey 255 at alpha 128 twice OVER.
  apng_palette1_trns.png  1-bit palette, tRNS 255/128: index 0 (opaque black), then index 1
                          (blue at alpha 128) OVER it.
  apng_over_faint.png     opaque green, then 60 frames of green at alpha 3 OVER the left half.
  apng_over_clear.png     a canvas at alpha 1 (blue), then green at alpha 128 OVER it, then
                          red at alpha 1 OVER that.
  apng_fctl_first.png     fcTL before acTL: red default image is frame 0, green frame 1.
  apng_two_actl.png       two acTL chunks: invalid, the green default image alone.
GIF (4x4 screen, global palette black, white, red, green):
  gif_wide_first.gif      frame 0 (6x5 at 1,1) reaches past the screen; frame 1 fills 2x2.
  gif_wide_later.gif      frame 0 fills the screen; frame 1 (3x3 at 2,2) reaches past it.
  gif_trailing_junk.gif   two frames, then bytes that start no block, and no trailer.
  gif_cut_frame.gif       32x32: a red frame, then a noisy one cut in its LZW data.
  gif_bad_block.gif       two frames, then an extension whose sub-block runs past the end.
"""
import os
import struct
import zlib

out = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests/Fixtures/generated")
os.makedirs(out, exist_ok=True)
W, H = 16, 8


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def ihdr(width, height, depth, colour):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0))


def pixels(width, height, row):
    """Zlib data of `height` copies of the packed row `row` (filter 0)."""
    return zlib.compress(b"".join(b"\0" + row for _ in range(height)))


def actl(frames, plays):
    return chunk(b"acTL", struct.pack(">II", frames, plays))


def fctl(seq, width, height, x=0, y=0, delay=(10, 100), dispose=0, blend=1):
    return chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, width, height, x, y, delay[0], delay[1], dispose, blend))


def fdat(seq, data):
    return chunk(b"fdAT", struct.pack(">I", seq) + data)


def png(name, *chunks):
    with open(os.path.join(out, name), "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + b"".join(chunks) + chunk(b"IEND", b""))


def rgba8(r, g, b, a):
    return bytes([r, g, b, a])


# 1-bit grey, 16 columns alternating black and white, tRNS grey 1 (white).
png("grey1_trns.png", ihdr(W, H, 1, 0), chunk(b"tRNS", struct.pack(">H", 1)),
    chunk(b"IDAT", pixels(W, H, bytes([0b01010101, 0b01010101]))))

png("apng_16bit.png", ihdr(W, H, 16, 6), actl(2, 1),
    chunk(b"IDAT", pixels(W, H, b"\xff\xff\x00\x00\x00\x00\xff\xff" * W)),
    fctl(0, W, H), fdat(1, pixels(W, H, b"\x00\x00\x00\x00\x00\x00\xff\xff" * W)),
    fctl(2, W, H, delay=(100, 100)), fdat(3, pixels(W, H, b"\x00\x00\x00\x00\xff\xff\x80\x00" * W)))

png("apng_grey_alpha.png", ihdr(W, H, 8, 4), actl(3, 1),
    chunk(b"IDAT", pixels(W, H, b"\x00\xff" * W)),
    fctl(0, W, H), fdat(1, pixels(W, H, b"\x00\x00" * W)),
    fctl(2, W, H), fdat(3, pixels(W, H, b"\xff\x80" * W)),
    fctl(4, W, H, delay=(100, 100)), fdat(5, pixels(W, H, b"\xff\x80" * W)))

png("apng_palette1_trns.png", ihdr(W, H, 1, 3), chunk(b"PLTE", bytes([0, 0, 0, 0, 0, 255])),
    chunk(b"tRNS", bytes([255, 128])), actl(2, 1),
    chunk(b"IDAT", pixels(W, H, b"\x00" * (W // 8))),
    fctl(0, W, H), fdat(1, pixels(W, H, b"\x00" * (W // 8))),
    fctl(2, W, H, delay=(100, 100)), fdat(3, pixels(W, H, b"\xff" * (W // 8))))

faint = [fctl(2 + 2 * i, W // 2, H, delay=(1, 100)) + fdat(3 + 2 * i, pixels(W // 2, H, rgba8(0, 255, 0, 3) * (W // 2)))
         for i in range(60)]
png("apng_over_faint.png", ihdr(W, H, 8, 6), actl(61, 1),
    chunk(b"IDAT", pixels(W, H, rgba8(255, 0, 0, 255) * W)),
    fctl(0, W, H), fdat(1, pixels(W, H, rgba8(0, 255, 0, 255) * W)), *faint)

png("apng_over_clear.png", ihdr(W, H, 8, 6), actl(3, 1),
    chunk(b"IDAT", pixels(W, H, rgba8(255, 0, 0, 255) * W)),
    fctl(0, W, H, blend=0), fdat(1, pixels(W, H, rgba8(0, 0, 255, 1) * W)),
    fctl(2, W, H), fdat(3, pixels(W, H, rgba8(0, 255, 0, 128) * W)),
    fctl(4, W, H), fdat(5, pixels(W, H, rgba8(255, 0, 0, 1) * W)))

png("apng_fctl_first.png", ihdr(W, H, 8, 6), fctl(0, W, H), actl(2, 1),
    chunk(b"IDAT", pixels(W, H, rgba8(255, 0, 0, 255) * W)),
    fctl(1, W, H, delay=(100, 100)), fdat(2, pixels(W, H, rgba8(0, 255, 0, 255) * W)))

png("apng_two_actl.png", ihdr(W, H, 8, 6), actl(1, 0), actl(1, 0),
    chunk(b"IDAT", pixels(W, H, rgba8(0, 255, 0, 255) * W)),
    fctl(0, W, H, delay=(100, 100)), fdat(1, pixels(W, H, rgba8(255, 0, 0, 255) * W)))


def lzw(indices, min_size=2):
    """GIF LZW data of `indices`, as sub-blocks with their terminator."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    table = {(i,): i for i in range(clear)}
    size, next_code, bits, count = min_size + 1, end + 1, 0, 0
    data = bytearray()

    def emit(code):
        nonlocal bits, count
        bits |= code << count
        count += size
        while count >= 8:
            data.append(bits & 0xFF)
            bits >>= 8
            count -= 8

    emit(clear)
    run = ()
    for index in indices:
        if run + (index,) in table:
            run += (index,)
            continue
        emit(table[run])
        if next_code < 4096:
            table[run + (index,)] = next_code
            next_code += 1
            if next_code > (1 << size) and size < 12:
                size += 1
        run = (index,)
    emit(table[run])
    emit(end)
    if count:
        data.append(bits & 0xFF)
    blocks = b"".join(bytes([len(data[i:i + 255])]) + bytes(data[i:i + 255]) for i in range(0, len(data), 255))
    return bytes([min_size]) + blocks + b"\0"


def gif_frame(x, y, width, height, indices, delay=10):
    control = b"\x21\xf9\x04\x00" + struct.pack("<H", delay) + b"\x00\x00"
    return control + b"\x2c" + struct.pack("<HHHHB", x, y, width, height, 0) + lzw(indices)


def gif(name, *parts, screen=(4, 4), trailer=b"\x3b"):
    palette = bytes([0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 255, 0])
    header = b"GIF89a" + struct.pack("<HHBBB", screen[0], screen[1], 0xF1, 0, 0) + palette
    loop = b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    with open(os.path.join(out, name), "wb") as f:
        f.write(header + loop + b"".join(parts) + trailer)


# Frame 0: 6x5 at (1,1), rows of red, white, green, white, red; frame 1: 2x2 black at (0,0).
wide = [2] * 6 + [1] * 6 + [3] * 6 + [1] * 6 + [2] * 6
gif("gif_wide_first.gif", gif_frame(1, 1, 6, 5, wide), gif_frame(0, 0, 2, 2, [0] * 4))
# Frame 0: 4x4 white; frame 1: 3x3 green at (2,2), reaching one column and row past the screen.
gif("gif_wide_later.gif", gif_frame(0, 0, 4, 4, [1] * 16), gif_frame(2, 2, 3, 3, [3] * 9))
two = gif_frame(0, 0, 4, 4, [2] * 16) + gif_frame(0, 0, 4, 4, [3] * 8 + [1] * 8)
gif("gif_trailing_junk.gif", two, trailer=b"\x00\x00\xffjunk")
# Frame 1: noise from a linear congruential generator (its LZW data needs two sub-blocks), cut
# 50 bytes into the second sub-block.
seed, noise = 1, []
for _ in range(1024):
    seed = (seed * 1103515245 + 12345) % 2**31
    noise.append(seed >> 16 & 3)
second = gif_frame(0, 0, 32, 32, noise)
assert len(second) > 19 + 256 + 50
gif("gif_cut_frame.gif", gif_frame(0, 0, 32, 32, [2] * 1024), second[:19 + 256 + 50], screen=(32, 32), trailer=b"")
gif("gif_bad_block.gif", two, b"\x21\xfe\x40comment", trailer=b"")
