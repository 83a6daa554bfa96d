#!/usr/bin/env python3
"""The Pillow side of Benchmarks/run: pillow_bench.py FIXTURES CASE [SECONDS [MIN_RUNS]].

Prints "<case> <median seconds per operation>" for the Pillow operation a Python user would
write for the same job as the Swift case of the same name.
"""
import io, os, shutil, sys, tempfile, threading, time
from concurrent.futures import ThreadPoolExecutor
from PIL import Image

fixtures, case = sys.argv[1], sys.argv[2]
budget = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
min_runs = int(sys.argv[4]) if len(sys.argv) > 4 else 3
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


def encode_avif(path):
    """encode.avif.1024: Pillow's AVIF plugin at the same settings as the Swift case: quality
    80, speed 8, one thread."""
    im = Image.open(path).convert("RGB")
    return lambda: im.save(io.BytesIO(), "AVIF", quality=80, speed=8, max_threads=1)


def resize(long_edge):
    im = Image.open(os.path.join(bench, "testjfif_full.jpg")).convert("RGBA")
    scale = long_edge / max(im.size)
    size = (round(im.size[0] * scale), round(im.size[1] * scale))
    return lambda: im.resize(size, Image.LANCZOS)


def gallery(workers=6, side=256):
    """pipeline.gallery: every file in gallery/ of the benchmark server (WEBIMAGE_BENCH_SERVER_URL,
    serving the folder WEBIMAGE_BENCH_SERVER_DIR) fetched by a pool of `workers` threads, each with its own
    keep-alive requests session: GET, open, draft + thumbnail, and both the downloaded bytes and
    the thumbnail, encoded in the file's format (JPEG and WebP at quality 90, WebImage's default),
    written to a new folder (what WebImage's disk cache stores: the original under its key, the
    thumbnail under its own)."""
    import requests
    base = os.environ["WEBIMAGE_BENCH_SERVER_URL"] + "gallery/"
    names = sorted(os.listdir(os.path.join(os.environ["WEBIMAGE_BENCH_SERVER_DIR"], "gallery")))
    local = threading.local()
    pool = ThreadPoolExecutor(max_workers=workers)
    folders = []

    def load(name, folder):
        if not hasattr(local, "session"):
            local.session = requests.Session()
        response = local.session.get(base + name, timeout=15)
        response.raise_for_status()
        with Image.open(io.BytesIO(response.content)) as im:
            im.draft("RGB", (side, side))
            im.thumbnail((side, side), Image.LANCZOS)
            if max(im.size) > side:
                raise RuntimeError(f"{name} thumbnailed to {im.size}")
            im.save(os.path.join(folder, name + ".thumbnail"), im.format, quality=90)
        with open(os.path.join(folder, name), "wb") as f:
            f.write(response.content)

    def reset():
        for folder in folders:
            shutil.rmtree(folder)
        folders[:] = [tempfile.mkdtemp(prefix="pillow-gallery-")]

    def op():
        folder = folders[0]
        for _ in pool.map(lambda name: load(name, folder), names):
            pass
    op.reset = reset
    op.cleanup = lambda: [shutil.rmtree(folder) for folder in folders]
    return op


cases = {
    "decode.jpeg.full": lambda: decode(os.path.join(bench, "testjfif_full.jpg")),
    "decode.jpeg.progressive": lambda: decode(os.path.join(bench, "testjfif_full.progressive.jpg")),
    "decode.png.1024": lambda: decode(os.path.join(bench, "testjfif_1024.png")),
    "decode.webp.full": lambda: decode(os.path.join(bench, "testjfif_full.webp")),
    "decode.avif.photo": lambda: decode(os.path.join(fixtures, "formats/avif/photo_8bit_420.avif")),
    "encode.avif.1024": lambda: encode_avif(os.path.join(bench, "testjfif_1024.png")),
    "decode.gif.animated": lambda: decode(os.path.join(fixtures, "images/gif/sd_1@2x.gif")),
    "thumbnail.jpeg.256": lambda: thumbnail(os.path.join(bench, "testjfif_full.jpg"), 256),
    "resize.1024": lambda: resize(1024),
    "resize.256": lambda: resize(256),
    "pipeline.gallery": gallery,
}
if case not in cases:
    sys.exit(f"unknown case {case}")
op = cases[case]()
reset = getattr(op, "reset", lambda: None)  # untimed preparation before each run
reset()
op()
samples, start = [], time.perf_counter()
while len(samples) < min_runs or time.perf_counter() - start < budget:
    reset()
    t0 = time.perf_counter()
    op()
    samples.append(time.perf_counter() - t0)
getattr(op, "cleanup", lambda: None)()
samples.sort()
print(case, samples[len(samples) // 2])
