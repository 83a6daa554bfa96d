"""serve.harness.*: `webimage serve` against a libvips server doing imgproxy's pipeline
(Benchmarks/vips_server.py), in the shape of imgproxy's own benchmark harness: 24 distinct
photos of 2040 × 1360 (crops of the bench corpus's two 12 MP photos, written here in the source
format asked), `rs:fit:512:512/q:80` in the output format asked, 2 clients, every URL new (a
`cb:` cache buster; each photo asked 4 times), sources warm (each server fetched every photo
once before the timing and keeps it).

`harness(side, binaries, output, source)` starts a fresh server ("webimage" or "libvips"),
returns seconds per request, and adds to `stats[(output, source, side)]` the round's median and
95th-percentile latency, CPU seconds per request (the server's utime + stime from /proc),
peak resident memory (VmHWM), the mean output bytes and the mean PSNR of the 24 first results
against an exact downscale of their photo (Pillow's Lanczos on the decoded photo, no
shrink-on-load shortcut: `reducing_gap=None`).
"""
import concurrent.futures, contextlib, http.client, http.server, io, math, os, statistics, sys, tempfile, threading, time
import bench_server, serve_bench
from PIL import Image, ImageCms
import numpy

PHOTOS, REPEATS, CLIENTS, BOX, QUALITY = 24, 4, 2, 512, 80
EXTENSIONS = {"jpeg": "jpg", "webp": "webp", "png": "png", "avif": "avif"}
here = os.path.dirname(os.path.abspath(__file__))
stats = {}
_photos = {}  # source format -> folder


def photos(fixtures, source):
    """The folder of the 24 photos written as `source` (made once a process; their pixels are
    not kept, so that compare.py stays small)."""
    if source not in _photos:
        folder = tempfile.mkdtemp(prefix=f"webimage-harness-{source}-")
        bench = os.path.join(fixtures, "bench")
        for n in range(PHOTOS):
            name = "testjfif_full.jpg" if n % 2 == 0 else "testimagelarge_full.jpg"
            with Image.open(os.path.join(bench, name)) as whole:
                whole = whole.convert("RGB")
                step = n // 2
                x = (whole.width - 2040) * (step % 4) // 3
                y = (whole.height - 1360) * (step // 4) // 2
                image = whole.crop((x, y, x + 2040, y + 1360))
            options = {"jpeg": {"quality": 90}, "webp": {"quality": 90}, "png": {}, "avif": {"quality": 80, "speed": 8}}[source]
            image.save(os.path.join(folder, f"{n:02d}.{EXTENSIONS[source]}"), source.upper(), **options)
        _photos[source] = folder
    return _photos[source]


@contextlib.contextmanager
def origin(folder):
    """The photos over HTTP on a free loopback port: yields its base URL."""
    handler = lambda *a, **k: QuietHandler(*a, directory=folder, **k)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def server(side, binaries):
    """A fresh `webimage serve` or libvips server on a free loopback port: yields (port, process)."""
    port = bench_server.free_port()
    with tempfile.TemporaryDirectory(prefix=f"webimage-harness-{side}-") as root:
        if side == "webimage":
            command = [serve_bench.webimage(binaries), "serve", "--bind", f"127.0.0.1:{port}", "--cache-dir", root,
                       "--allow-loopback-sources", "--log-level", "warn"]
        else:
            command = [sys.executable, os.path.join(here, "vips_server.py"), str(port)]
        with serve_bench.started(command, port, side) as process:
            yield port, process


def cpu_seconds(process):
    """The CPU seconds, user and kernel together, `process` has used so far."""
    return sum(serve_bench.cpu_split([process.pid]))


def displayed(image):
    """`image` as RGB in sRGB, as a viewer shows it: converted from its embedded ICC profile, if
    any (a Display P3 source resized by one side into sRGB and kept in P3 by the other compares
    as the same picture, not as a colour error)."""
    profile = image.info.get("icc_profile")
    rgb = image.convert("RGB")
    if not profile:
        return rgb
    source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
    return ImageCms.profileToProfile(rgb, source, ImageCms.createProfile("sRGB"), outputMode="RGB")


def psnr(body, photo):
    with Image.open(io.BytesIO(body)) as decoded:
        ours = numpy.asarray(displayed(decoded), dtype=numpy.float64)
    with Image.open(photo) as reference:
        reference = displayed(reference)
    exact = numpy.asarray(reference.resize((ours.shape[1], ours.shape[0]), Image.LANCZOS, reducing_gap=None),
                          dtype=numpy.float64)
    mse = numpy.mean((ours - exact) ** 2)
    return 99.0 if mse == 0 else 10 * math.log10(255 ** 2 / mse)


def harness(side, binaries, fixtures, output, source):
    """Seconds per request of a fresh `side` server on the harness; records the round's stats."""
    folder = photos(fixtures, source)
    extension = EXTENSIONS[source]
    with origin(folder) as base, server(side, binaries) as (port, process):
        def path(n, buster):
            return (f"/insecure/rs:fit:{BOX}:{BOX}/q:{QUALITY}/cb:{buster}/plain/{base}{n:02d}.{extension}"
                    f"@{EXTENSIONS[output]}")
        for n in range(PHOTOS):  # sources warm: each server has fetched every photo once
            serve_bench.get(port, path(n, "warm"))
        requests = [(n, f"{r}") for r in range(REPEATS) for n in range(PHOTOS)]
        latencies, firsts = [], {}

        def client(share):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
            try:
                for n, buster in share:
                    started = time.monotonic()
                    connection.request("GET", path(n, buster))
                    response = connection.getresponse()
                    body = response.read()
                    latencies.append(time.monotonic() - started)
                    if response.status != 200:
                        raise RuntimeError(f"{side}: {response.status} {body[:80]!r}")
                    if buster == "0":
                        firsts[n] = body
            finally:
                connection.close()

        cpu_before, started_at = cpu_seconds(process), time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(CLIENTS) as pool:
            for future in [pool.submit(client, requests[i::CLIENTS]) for i in range(CLIENTS)]:
                future.result()
        seconds = time.monotonic() - started_at
        cpu = cpu_seconds(process) - cpu_before
        peak = serve_bench.peak_mib(process)
    latencies.sort()
    stats.setdefault((output, source, side), []).append({
        "median": statistics.median(latencies), "p95": latencies[int(len(latencies) * 0.95)],
        "cpu": cpu / len(requests), "peak": peak,
        "bytes": statistics.mean(len(b) for b in firsts.values()),
        "psnr": statistics.mean(psnr(firsts[n], os.path.join(folder, f"{n:02d}.{extension}")) for n in firsts),
    })
    return seconds / len(requests)
