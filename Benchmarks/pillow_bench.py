#!/usr/bin/env python3
"""The Pillow side of Benchmarks/run: pillow_bench.py FIXTURES CASE [SECONDS].

Prints "<case> <median seconds per operation>" for the Pillow operation a Python user would
write for the same job as the Swift case of the same name.
"""
import io, os, sys, time
from PIL import Image

fixtures, case = sys.argv[1], sys.argv[2]
budget = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
bench = os.path.join(fixtures, "bench")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def decode(path):
    data = read(path)

    def op():
        with Image.open(io.BytesIO(data)) as im:
            if getattr(im, "n_frames", 1) > 1:  # every frame, as WebImage decodes them all
                for i in range(im.n_frames):
                    im.seek(i)
                    im.convert("RGBA")
            else:
                im.load()
    return op


def thumbnail(path, size):
    data = read(path)

    def op():
        with Image.open(io.BytesIO(data)) as im:
            im.draft("RGB", (size, size))
            im.thumbnail((size, size), Image.LANCZOS)
    return op


def resize(long_edge):
    im = Image.open(os.path.join(bench, "testjfif_full.jpg")).convert("RGBA")
    scale = long_edge / max(im.size)
    size = (round(im.size[0] * scale), round(im.size[1] * scale))
    return lambda: im.resize(size, Image.LANCZOS)


cases = {
    "decode.jpeg.full": lambda: decode(os.path.join(bench, "testjfif_full.jpg")),
    "decode.jpeg.progressive": lambda: decode(os.path.join(bench, "testjfif_full.progressive.jpg")),
    "decode.png.1024": lambda: decode(os.path.join(bench, "testjfif_1024.png")),
    "decode.webp.full": lambda: decode(os.path.join(bench, "testjfif_full.webp")),
    "decode.gif.animated": lambda: decode(os.path.join(fixtures, "images/gif/sd_1@2x.gif")),
    "thumbnail.jpeg.256": lambda: thumbnail(os.path.join(bench, "testjfif_full.jpg"), 256),
    "resize.1024": lambda: resize(1024),
    "resize.256": lambda: resize(256),
}
if case not in cases:
    sys.exit(f"unknown case {case}")
op = cases[case]()
op()
samples, start = [], time.perf_counter()
while len(samples) < 3 or time.perf_counter() - start < budget:
    t0 = time.perf_counter()
    op()
    samples.append(time.perf_counter() - t0)
samples.sort()
print(case, samples[len(samples) // 2])
