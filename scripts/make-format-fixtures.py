#!/usr/bin/env python3
"""Writes Tests/Fixtures/formats/: small HEIC, AVIF and JPEG XL files for the unit tests of
HEIFCoder, AVIFCoder and JXLCoder, and the PNG sources they are made from.

Needs Debian's encoders: heif-enc (libheif-examples), avifenc (libavif-bin), cjxl
(libjxl-tools) and a C compiler with libheif-dev for format-fixtures/make_heif.c. The tests only
read the files; run this again to remake them (`scripts/make-format-fixtures.py`).

Sources (written with the standard library):
  quadrants.png   64x48 RGB: red, green / blue, white quadrants (orientation shows at a glance)
  alpha.png       64x48 RGBA: the quadrants with alpha falling from 255 (left) to 0 (right)
  gradient16.png  64x48 16-bit RGB: smooth ramps (red across, green down, blue their mean) whose
                  8-bit rounding is checked exactly
  frames/f0..f2.png  32x24 RGB: three flat frames (red, green, blue) for animations

Files:
  heic/quadrants.heic        8-bit 4:2:0, heif-enc -q 90
  heic/alpha.heic            alpha as an auxiliary image
  heic/gradient10.heic       10-bit (heix) from gradient16.png
  heic/irot_exif6.heic       make_heif: irot 90° clockwise + EXIF orientation 6, shown 48x64
  heic/thumbnail_differs.heic make_heif: a 16x12 thumbnail item that is flat magenta
  heic/sequence.heic         an image sequence (msf1, ffmpeg + libx265, no still item):
                             frames/f0..f2 at 120, 200 and 40 ms (timescale 1000: ffmpeg
                             gives the last sample one tick of its 25 fps input)
  heic/sequence_photo.heic   an image sequence of the first 6 frames of
                             ../images/gif/sd_1@2x.gif at 100x100 (not a multiple of 8: the
                             coded pictures are cropped), B-frames, 90 ms each
  heic/sequence_photo_ref/   frames 0, 3 and 5 of it as ffmpeg's HEVC decoder shows them
  heic/still_and_sequence.heic quadrants.heic with sequence.heic's track appended (its chunk
                             offsets moved): a still item and a sequence in one file
  avif/quadrants.avif        8-bit 4:2:0, avifenc --min 10 --max 10
  avif/alpha.avif            alpha
  avif/gradient10.avif       10-bit 4:4:4 from gradient16.png
  avif/irot1_imir0.avif      irot 1 (90° anticlockwise) + imir 0: EXIF orientation 5, 48x64
  avif/animated.avif         frames/f0..f2 at 100, 200, 300 ms (timescale 1000)
  avif/thumbnail_differs.avif make_heif: thumbnail_differs.heic in AV1
  jxl/quadrants_lossless.jxl lossless: decodes to quadrants.png exactly
  jxl/alpha_lossless.jxl     lossless RGBA: decodes to alpha.png exactly
  jxl/gradient16_lossless.jxl lossless 16-bit: decodes to gradient16.png rounded to 8 bits
  jxl/quadrants_d1.jxl       lossy, distance 1
  jxl/animated.jxl           frames/f0..f2 from an APNG at 100, 200, 300 ms, looping forever
  jxl/orientation6.jxl       ../images/jpeg/pil_hopper_orientation_6.jpg transcoded losslessly
"""
import os, pathlib, shutil, struct, subprocess, tempfile, zlib

root = pathlib.Path(__file__).resolve().parent.parent
out = root / "Tests/Fixtures/formats"
W, H = 64, 48
QUADRANTS = [(230, 20, 20), (20, 200, 40), (30, 40, 220), (240, 240, 240)]


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width, height, rows, colour_type, depth=8, extra=b""):
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    raw = b"".join(b"\0" + row for row in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def quadrant(x, y, width=W, height=H):
    return QUADRANTS[(y >= height // 2) * 2 + (x >= width // 2)]


def apng(frames, delays_ms, width, height):
    """An APNG of flat RGB frames: every frame an fcTL plus IDAT/fdAT, looping forever."""
    parts, sequence = [chunk(b"acTL", struct.pack(">II", len(frames), 0))], 0
    for index, (colour, delay) in enumerate(zip(frames, delays_ms)):
        parts.append(chunk(b"fcTL", struct.pack(">IIIIIHHBB", sequence, width, height, 0, 0, delay, 1000, 0, 0)))
        sequence += 1
        data = zlib.compress(b"".join(b"\0" + bytes(colour) * width for _ in range(height)), 9)
        if index == 0:
            parts.append(chunk(b"IDAT", data))
        else:
            parts.append(chunk(b"fdAT", struct.pack(">I", sequence) + data))
            sequence += 1
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + b"".join(parts) + chunk(b"IEND", b"")


def run(*args):
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, args))} failed:\n{result.stderr}")


def heic_sequences(src, heic):
    """The HEIF image sequences: ffmpeg writes an MP4 of HEVC (hvc1) with the msf1 brand."""
    x265 = ["-c:v", "libx265", "-tag:v", "hvc1", "-brand", "msf1", "-video_track_timescale", "1000", "-an", "-f", "mp4"]
    single = "pools=none:frame-threads=1:log-level=error"
    with tempfile.TemporaryDirectory() as scratch:
        listing = pathlib.Path(scratch) / "frames.txt"
        listing.write_text("".join(f"file '{src / f'frames/f{i}.png'}'\nduration {d / 1000}\n"
                                   for i, d in enumerate([120, 200, 280])))
        run("ffmpeg", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i", listing, "-fps_mode", "vfr",
            "-pix_fmt", "yuv420p", *x265, "-x265-params", f"crf=8:{single}", heic / "sequence.heic")
    photo = heic / "sequence_photo.heic"
    run("ffmpeg", "-loglevel", "error", "-y", "-i", root / "Tests/Fixtures/images/gif/sd_1@2x.gif", "-frames:v", "6",
        "-vf", "scale=100:100,format=yuv420p", *x265, "-x265-params", f"crf=24:keyint=4:bframes=2:{single}", photo)
    (heic / "sequence_photo_ref").mkdir()
    run("ffmpeg", "-loglevel", "error", "-y", "-i", photo, "-vf", "select='eq(n\\,0)+eq(n\\,3)+eq(n\\,5)'",
        "-fps_mode", "passthrough", "-pix_fmt", "rgb24", heic / "sequence_photo_ref/%d.png")
    for index, frame in enumerate([0, 3, 5]):
        (heic / f"sequence_photo_ref/{index + 1}.png").rename(heic / f"sequence_photo_ref/f{frame}.png")
    (heic / "still_and_sequence.heic").write_bytes(appending_track((heic / "sequence.heic").read_bytes(),
                                                                   to=(heic / "quadrants.heic").read_bytes()))


def appending_track(sequence, to):
    """`to` followed by the mdat and moov boxes of `sequence`, the moov's chunk offsets moved."""
    boxes, offset = {}, 0
    while offset < len(sequence):
        size, kind = struct.unpack(">I4s", sequence[offset:offset + 8])
        boxes[kind] = (offset, sequence[offset:offset + size])
        offset += size
    mdat_at, mdat = boxes[b"mdat"]
    shift = len(to) - mdat_at
    moov = bytearray(boxes[b"moov"][1])
    at = moov.find(b"stco")
    count = struct.unpack(">I", moov[at + 8:at + 12])[0]
    for entry in range(count):
        place = at + 12 + 4 * entry
        moov[place:place + 4] = struct.pack(">I", struct.unpack(">I", moov[place:place + 4])[0] + shift)
    return to + mdat + bytes(moov)


def main():
    for tool in ("heif-enc", "avifenc", "cjxl", "cc", "ffmpeg"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is missing: apt-get install libheif-examples libavif-bin libjxl-tools gcc ffmpeg")
    shutil.rmtree(out, ignore_errors=True)
    for folder in ("heic", "avif", "jxl", "sources/frames"):
        (out / folder).mkdir(parents=True)
    src = out / "sources"
    (src / "quadrants.png").write_bytes(png(W, H, [b"".join(bytes(quadrant(x, y)) for x in range(W)) for y in range(H)], 2))
    (src / "alpha.png").write_bytes(png(W, H, [
        b"".join(bytes(quadrant(x, y)) + bytes([255 - x * 255 // (W - 1)]) for x in range(W)) for y in range(H)], 6))
    (src / "gradient16.png").write_bytes(png(W, H, [
        b"".join(struct.pack(">HHH", x * 65535 // (W - 1), y * 65535 // (H - 1), (x * 65535 // (W - 1) + y * 65535 // (H - 1)) // 2)
                 for x in range(W)) for y in range(H)], 2, depth=16))
    colours, delays = [(220, 30, 30), (30, 200, 30), (30, 30, 220)], [100, 200, 300]
    for index, colour in enumerate(colours):
        (src / f"frames/f{index}.png").write_bytes(png(32, 24, [bytes(colour) * 32] * 24, 2))

    heic, avif, jxl = out / "heic", out / "avif", out / "jxl"
    run("heif-enc", "-q", "90", "-o", heic / "quadrants.heic", src / "quadrants.png")
    run("heif-enc", "-q", "90", "-o", heic / "alpha.heic", src / "alpha.png")
    run("heif-enc", "-q", "90", "-b", "10", "-o", heic / "gradient10.heic", src / "gradient16.png")
    with tempfile.TemporaryDirectory() as scratch:
        tool = pathlib.Path(scratch) / "make_heif"
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libheif"], check=True, capture_output=True, text=True).stdout.split()
        run("cc", "-O1", "-o", tool, root / "scripts/format-fixtures/make_heif.c", *flags)
        run(tool, heic)
        (pathlib.Path(scratch) / "animated.png").write_bytes(apng(colours, delays, 32, 24))
        run("cjxl", "-d", "0", "-e", "7", "--num_threads=0", pathlib.Path(scratch) / "animated.png", jxl / "animated.jxl")

    heic_sequences(src, heic)

    run("avifenc", "-j", "1", "--min", "10", "--max", "10", src / "quadrants.png", avif / "quadrants.avif")
    run("avifenc", "-j", "1", "--min", "10", "--max", "10", src / "alpha.png", avif / "alpha.avif")
    run("avifenc", "-j", "1", "-d", "10", "-y", "444", "--min", "4", "--max", "4", src / "gradient16.png", avif / "gradient10.avif")
    run("avifenc", "-j", "1", "--min", "10", "--max", "10", "--irot", "1", "--imir", "0", src / "quadrants.png", avif / "irot1_imir0.avif")
    frames = []
    for index, delay in enumerate(delays):
        frames += ["--duration", str(delay), src / f"frames/f{index}.png"]
    run("avifenc", "-j", "1", "--min", "10", "--max", "10", "--timescale", "1000", *frames, avif / "animated.avif")

    run("cjxl", "-d", "0", "--num_threads=0", src / "quadrants.png", jxl / "quadrants_lossless.jxl")
    run("cjxl", "-d", "0", "--num_threads=0", src / "alpha.png", jxl / "alpha_lossless.jxl")
    run("cjxl", "-d", "0", "--num_threads=0", src / "gradient16.png", jxl / "gradient16_lossless.jxl")
    run("cjxl", "-d", "1", "--num_threads=0", src / "quadrants.png", jxl / "quadrants_d1.jxl")
    run("cjxl", "--lossless_jpeg=1", "--num_threads=0", root / "Tests/Fixtures/images/jpeg/pil_hopper_orientation_6.jpg",
        jxl / "orientation6.jxl")
    total = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"wrote {sum(1 for f in out.rglob('*') if f.is_file())} files, {total} bytes, to {out}")


if __name__ == "__main__":
    main()
