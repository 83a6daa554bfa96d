#!/usr/bin/env python3
"""Runs each benchmark case against its reference in the same run, alternating A/B over
several rounds, and prints a table and one `ratio <name> <value>` line per comparison
(our throughput divided by the reference's: above 1 means WebImage is faster). References are
Pillow, tjbench, a requests + Pillow pipeline, or plain Swift doing the same job (the case
`ref.<name>` of our binary). Times are per operation; a cache operation is a batch (10,000
memory hits, 1,000 disk hits, one trim of 100,000 files to half), a download or pipeline
operation a whole set (2,000 downloads, a gallery of 300 images), a scale operation 200 HTTP
requests to a fresh `webimage serve` (Benchmarks/redis_server.py starts its Redis, s3_server.py its object storage). A memory case runs once per
round in a fresh process and reports its peak resident memory (the largest of the rounds) as a
`peak <name> <MiB>` line; `webimage serve`'s peak during serve.cold.thumbor is `serve.cold.rss`.

The ratio is the medians' ratio; beside it stand the smallest and largest ratio of one round
(each round times both sides back to back), and the machine's load average is printed before
and after, so that a run disturbed by other work shows as a wide spread or a high load. The
file system of the temporary folder (TMPDIR), where both sides write, is printed too: ext4
without a journal makes every file creation slower (see `temporary_files`).

usage: compare.py OURS_BINARY FIXTURES [--quick] [NAME...]   (NAMEs: only those comparisons)
"""
import contextlib, os, shutil, statistics, subprocess, sys, tempfile, time
import bench_server, info_bench, redis_server, s3_server, serve_bench, serve_harness
from thumbnail_cases import CASES as THUMBNAIL_CASES

ours_binary, fixtures = sys.argv[1], sys.argv[2]
# Stand-ins from make_inputs.py instead of the corpus's photos: said before and after the table.
generated = os.path.exists(os.path.join(fixtures, "GENERATED"))
GENERATED_NOTE = (f"note: GENERATED inputs in {fixtures} (no shared corpus): these figures are not comparable "
                  "with runs on the real corpus at ../shared/fixtures")
if generated:
    print(GENERATED_NOTE, file=sys.stderr)
quick = "--quick" in sys.argv
# --quick: fewer rounds, a shorter time budget and one timed run after the warm-up at least.
rounds, budget, min_runs = (3, 0.5, 1) if quick else (5, 1.5, 3)
here = os.path.dirname(os.path.abspath(__file__))
# The folder of the release binaries (`webimage serve` for the serve cases) and wrk's seconds a measurement.
binaries = os.path.dirname(os.path.abspath(ours_binary))
wrk_seconds = 1 if quick else 4
python = sys.executable


def output(cmd, env=None):
    """What `cmd` prints (`env` laid over ours); RuntimeError with its standard error when it fails."""
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                         env=None if env is None else {**os.environ, **env})
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip() or f"exit {out.returncode}")
    return out.stdout


def run(cmd, env=None):
    """The number a case prints last (seconds per operation, or MiB)."""
    return float(output(cmd, env).split()[-1])


def fields(cmd):
    """The numbers a peak run prints after its case name."""
    return [float(x) for x in output(cmd).split()[1:]]


def ours(case, env=None):
    return run([ours_binary, fixtures, case, str(budget), str(min_runs)], env)


# glibc settings under which a freed 48 MB decode is reused from the heap instead of being
# unmapped and faulted in again (Sources/WebImage/WebImage.docc/FormatsAndColour.md, "Large decodes and glibc's malloc").
WARM_HEAP = {"MALLOC_MMAP_THRESHOLD_": str(256 << 20), "MALLOC_TRIM_THRESHOLD_": str(512 << 20)}


def swift_reference(case):
    """The plain-Swift reference `ref.<case>` of the same binary."""
    return ours("ref." + case)


def pillow(case):
    return run([python, os.path.join(here, "pillow_bench.py"), fixtures, case, str(budget), str(min_runs)])


def vips(case):
    return run([python, os.path.join(here, "vips_bench.py"), fixtures, case, str(budget), str(min_runs)])


def thumbnail_peaks(case):
    """One thumbnail in a fresh process each side, once a round: (our MiB, our bytes, our PSNR,
    libvips's MiB, its bytes, its PSNR), each PSNR against an exact Lanczos downscale of the source."""
    source = os.path.join(fixtures, "bench", THUMBNAIL_CASES[case][0])
    with tempfile.TemporaryDirectory() as tmp:
        ours_file, vips_file = os.path.join(tmp, "ours"), os.path.join(tmp, "vips")
        ours_mib, ours_bytes = fields([ours_binary, fixtures, "peak." + case, ours_file])
        vips_mib, vips_bytes = fields([python, os.path.join(here, "vips_bench.py"), fixtures, case, "peak", vips_file])
        with open(ours_file, "rb") as f:
            ours_psnr = serve_harness.psnr(f.read(), source)
        with open(vips_file, "rb") as f:
            vips_psnr = serve_harness.psnr(f.read(), source)
    return ours_mib, ours_bytes, ours_psnr, vips_mib, vips_bytes, vips_psnr


def tjbench(path):
    """libjpeg-turbo's own decode speed for `path`, as seconds per image."""
    exe = shutil.which("tjbench")
    if exe is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "image.jpg")
        shutil.copy(path, copy)
        out = subprocess.run([exe, copy, "-rgbx", "-benchtime", str(budget), "-warmup", "0.2", "-quiet"],
                             capture_output=True, text=True, timeout=600, cwd=tmp)
    for line in out.stdout.splitlines():
        fields = line.split()
        if fields[:2] == ["RGBX", "(TD)"]:
            width, height, mpps = int(fields[4]), int(fields[5]), float(fields[-1])
            return width * height / 1e6 / mpps
    return None


bench = os.path.join(fixtures, "bench")
VIPS_THUMBNAILS = list(THUMBNAIL_CASES)
# (ratio name, case of ours, reference label, reference function[, environment of ours])
comparisons = [
    ("decode.jpeg.full", "decode.jpeg.full", "Pillow", lambda: pillow("decode.jpeg.full")),
    ("decode.jpeg.full.tjbench", "decode.jpeg.full", "tjbench",
     lambda: tjbench(os.path.join(bench, "testjfif_full.jpg"))),
    # tjbench decodes again and again into one warm buffer; ours hands back a fresh 48 MB image
    # each time. The same decode with glibc keeping freed memory (WARM_HEAP) compares like with like.
    ("decode.jpeg.full.tjbench.warm", "decode.jpeg.full", "tjbench",
     lambda: tjbench(os.path.join(bench, "testjfif_full.jpg")), WARM_HEAP),
    ("decode.jpeg.progressive", "decode.jpeg.progressive", "Pillow", lambda: pillow("decode.jpeg.progressive")),
    ("decode.jpeg.progressive.tjbench", "decode.jpeg.progressive", "tjbench",
     lambda: tjbench(os.path.join(bench, "testjfif_full.progressive.jpg"))),
    ("decode.png.1024", "decode.png.1024", "Pillow", lambda: pillow("decode.png.1024")),
    # The 12 MP JPEG with a wide-gamut ICC profile (converted to sRGB) against the same bytes
    # without it: the goal is a ratio of 0.77 or more (at most 1.3 times the time).
    ("decode.jpeg.icc", "decode.jpeg.icc", "no ICC", lambda: swift_reference("decode.jpeg.icc")),
    ("decode.webp.full", "decode.webp.full", "Pillow", lambda: pillow("decode.webp.full")),
    ("decode.gif.animated", "decode.gif.animated", "Pillow", lambda: pillow("decode.gif.animated")),
    # AVIF through libavif: Debian's 0.11 (dav1d, libaom) against Pillow's bundled libavif.
    ("decode.avif.photo", "decode.avif.photo", "Pillow", lambda: pillow("decode.avif.photo")),
    ("encode.avif.1024", "encode.avif.1024", "Pillow", lambda: pillow("encode.avif.1024")),
    ("thumbnail.jpeg.256", "thumbnail.jpeg.256", "Pillow", lambda: pillow("thumbnail.jpeg.256")),
    # A bench file to 256 px in its own format (JPEG and WebP at quality 80, PNG lossless)
    # against libvips 8.18's thumbnail (pyvips, one thread, no operation cache): time here,
    # peak resident memory and output bytes in the "thumbnail peaks" table.
    *[(case, case, "libvips", lambda case=case: vips(case)) for case in VIPS_THUMBNAILS],
    ("resize.1024", "resize.1024", "Pillow", lambda: pillow("resize.1024")),
    ("resize.256", "resize.256", "Pillow", lambda: pillow("resize.256")),
    # Smart gravity's search on the 12 MP photo (scoring a ≤256 copy, sliding the crop) against
    # Pillow making the 256 px copy alone, and against our own 256 px resize.
    ("smartcrop.full", "smartcrop.full", "Pillow", lambda: pillow("resize.256")),
    ("smartcrop.full.resize", "smartcrop.full", "resize", lambda: ours("resize.256")),
    # Swift references: a Mutex<[String: Image]> lookup, a Data(contentsOf:) read, and a
    # plain list + lstat + sort + unlink trim of the same folder (refilled with 100,000 files
    # before every run, so it is left out of --quick).
    ("cache.memory.hit", "cache.memory.hit", "dict", lambda: swift_reference("cache.memory.hit")),
    ("manager.memory.hit", "manager.memory.hit", "dict", lambda: swift_reference("cache.memory.hit")),
    ("manager.memory.hit.callback", "manager.memory.hit.callback", "dict", lambda: swift_reference("cache.memory.hit")),
    # The manager's own cost over the cache lookup it makes (by the URL's string): a URL to
    # its request and key, the failed-URL check, an async call, the result.
    ("manager.memory.hit.overhead", "manager.memory.hit", "cache", lambda: ours("cache.memory.hit")),
    # The same hits against the least an async load by URL can do (the URL's string as the
    # key, the bare dictionary lookup, a result back): what is left of the manager's own cost.
    ("manager.memory.hit.floor", "manager.memory.hit", "async", lambda: swift_reference("manager.memory.hit.floor")),
    ("cache.disk.hit", "cache.disk.hit", "Data()", lambda: swift_reference("cache.disk.hit")),
    ("cache.disk.trim", "cache.disk.trim", "naive", lambda: swift_reference("cache.disk.trim")),
    # 2,000 small PNGs from nginx on loopback, 6 at a time: the downloader (decoding) against
    # bare AsyncHTTPClient GETs.
    ("download.2000", "download.2000", "AHC", lambda: swift_reference("download.2000")),
    # The same downloads against the least the downloader's model can do: every caller waiting in
    # a queue of 6, each GET through AsyncHTTPClient's delegate API, its body handed to the caller.
    ("download.2000.floor", "download.2000", "delegate", lambda: swift_reference("download.2000.floor")),
    # 300 corpus images cold from nginx on loopback through ImageManager (download, 256 px
    # thumbnail, disk cache) against requests + Pillow in a pool of 6 threads.
    ("pipeline.gallery", "pipeline.gallery", "Python", lambda: pillow("pipeline.gallery")),
    # `webimage serve` (the release binary beside ours) as a server, against thumbor 7.8: 120
    # distinct fit-in resizes of the 12 MP JPEG from the nginx origin, 8 clients at once, on a
    # fresh server each round (serve_bench.py); and against nginx serving one cached result
    # as a static file, in requests per second by wrk.
    ("serve.cold.thumbor", lambda: serve_bench.cold("webimage", binaries), "thumbor",
     lambda: serve_bench.cold("thumbor", binaries)),
    ("serve.warm.nginx", lambda: serve_bench.warm("webimage", binaries, wrk_seconds), "nginx",
     lambda: serve_bench.warm("nginx", binaries, wrk_seconds)),
    # HTTP requests for 200 gallery images as 300 px WebP results, 8 at a time, to a fresh
    # `webimage serve` process: results from a warm Redis against the same results from its
    # warm local disk (goal: a ratio of 0.5 or more), and against an empty Redis, where every
    # source is fetched and every result made (the speed-up a second instance gets from the first).
    # imgproxy's harness shape (Benchmarks/serve_harness.py): 24 photos of 2040 x 1360 to
    # rs:fit:512:512/q:80, 2 clients, every URL new, sources warm; `webimage serve` against a
    # libvips server doing imgproxy's pipeline and savers (vips_server.py). JPEG sources, or with
    # .same sources in the output's own format. Latency, CPU, memory, bytes and PSNR of both
    # sides go to the "serve.harness" table.
    *[(f"serve.harness.{kind}{output}", lambda output=output, source=source: serve_harness.harness(
        "webimage", binaries, fixtures, output, source), "libvips",
       lambda output=output, source=source: serve_harness.harness("libvips", binaries, fixtures, output, source))
      for kind, outputs, same in [("", ["jpeg", "webp", "png", "avif"], False), ("same.", ["webp", "png", "avif"], True)]
      for output in outputs for source in [output if same else "jpeg"]],
    # imgproxy's /info on the 12 MP JPEG (Benchmarks/info_bench.py): header facts and EXIF, and
    # with a 4 x 3 BlurHash, over HTTP from a fresh `webimage serve`, against a Pillow (+
    # blurhash-python) function doing the same in process.
    # The same Pillow function behind Python's HTTP server (.http), as a user would offer it.
    *[(f"info.jpeg.{kind}{served}", lambda kind=kind: info_bench.ours(binaries, fixtures, kind), "Pillow",
       lambda kind=kind, reference=reference: reference(fixtures, kind))
      for kind in ["header", "blurhash"] for served, reference in [("", info_bench.pillow), (".http", info_bench.pillow_http)]],
    ("scale.redis.hit", "scale.redis.hit", "disk", lambda: swift_reference("scale.redis.hit")),
    ("scale.redis.speedup", lambda: measured_again("scale.redis.hit"), "cold", lambda: ours("scale.redis.cold")),
    # The same results from object storage (moto's S3 server, Benchmarks/s3_server.py) as the
    # tier below the local disk, without Redis, against the same warm local disk.
    ("scale.s3.hit", "scale.s3.hit", "disk", lambda: swift_reference("scale.redis.hit")),
]

# Each comparison's own timings, round by round, so that a later comparison with the same side
# (scale.redis.speedup's warm Redis is scale.redis.hit's) reads them instead of measuring again.
measured = {}


def measured_again(case):
    """Round by round, the timings `case` took in this run; measured anew when it did not run."""
    earlier = measured.get(case)
    return earlier.pop(0) if earlier else ours(case)

# Peak resident memory, in MiB, with the goal: 100 12 MP JPEGs from nginx through ImageManager
# as 256 px thumbnails.
peaks = [("memory.thumbnails", 150)]
# What needs the nginx server, and what needs Redis too.
scale = {"scale.redis.hit", "scale.redis.speedup"}
stored = {"scale.s3.hit"}
networked = {"download.2000", "download.2000.floor", "pipeline.gallery", "memory.thumbnails", "serve.cold.thumbor",
             "serve.warm.nginx"} | scale | stored


def rounds_of(name):
    """The rounds of comparison `name`: in --quick, two for the networked cases, whose rounds
    take seconds each (a server started per round, hundreds of requests), so the run stays
    under three minutes."""
    return min(rounds, 2) if quick and (name in networked or name.startswith("serve.harness")) else rounds


chosen = [a for a in sys.argv[3:] if not a.startswith("--")]
if chosen:
    comparisons = [c for c in comparisons if c[0] in chosen]
    peaks = [p for p in peaks if p[0] in chosen]
elif quick:
    comparisons = [c for c in comparisons if c[0] != "cache.disk.trim"]
servers = contextlib.ExitStack()
if any(c[0] in networked for c in comparisons) or any(p[0] in networked for p in peaks):
    try:  # both sides find the server through the environment they inherit
        url, folder = servers.enter_context(bench_server.serve(bench))
        os.environ.update(WEBIMAGE_BENCH_SERVER_URL=url, WEBIMAGE_BENCH_SERVER_DIR=folder)
    except (RuntimeError, OSError) as e:
        print(f"skip {', '.join(sorted(networked))}: {e}", file=sys.stderr)
        comparisons = [c for c in comparisons if c[0] not in networked]
        peaks = [p for p in peaks if p[0] not in networked]
for needing, variable, start in [(scale, "WEBIMAGE_BENCH_REDIS_URL", redis_server.serve),
                                 (stored, "WEBIMAGE_BENCH_S3_ENDPOINT", s3_server.serve)]:
    # The store those cases need, started once for the run, named in the environment they inherit.
    if any(c[0] in needing for c in comparisons):
        try:
            os.environ[variable] = servers.enter_context(start())
        except (RuntimeError, OSError) as e:
            print(f"skip {', '.join(sorted(needing))}: {e}", file=sys.stderr)
            comparisons = [c for c in comparisons if c[0] not in needing]


def load_average():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def temporary_files():
    """Where both sides write their files (TMPDIR) and, on ext4, whether that file system keeps
    a journal. Without one, ext4 steps over every inode deleted in the last minutes each time it
    creates a file, so pipeline.gallery's 600 new files a run (and the previous run's deleted
    ones) cost both sides far more than on a journaled disk."""
    folder = os.path.realpath(tempfile.gettempdir())
    try:
        with open("/proc/mounts") as f:
            mounts = [line.split()[:3] for line in f]
    except OSError:
        return folder
    inside = [m for m in mounts if folder == m[1] or folder.startswith(m[1].rstrip("/") + "/")]
    if not inside:
        return folder
    device, _, kind = max(inside, key=lambda m: len(m[1]))
    described = f"{folder} on {kind} ({device})"
    journal = f"/sys/fs/ext4/{os.path.basename(device)}/journal_task"
    if kind == "ext4" and os.path.exists(journal):
        with open(journal) as f:
            described += ", without a journal" if f.read().strip() == "<none>" else ", with a journal"
    return described


load_before = load_average()
results = []
for name, case, label, reference, *environment in comparisons:
    a, b = [], []
    started = time.monotonic()
    try:
        for _ in range(rounds_of(name)):  # alternate A/B so drift hits both sides alike
            a.append(case() if callable(case) else ours(case, *environment))
            r = reference()
            if r is None:
                raise RuntimeError(f"{label} is not available")
            b.append(r)
    except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        print(f"skip {name}: {e}", file=sys.stderr)
        continue
    measured[name] = list(a)
    ours_s, ref_s = statistics.median(a), statistics.median(b)
    print(f"{name}: {time.monotonic() - started:.0f} s", file=sys.stderr)
    per_round = [r / o for o, r in zip(a, b)]
    results.append((name, ours_s, label, ref_s, ref_s / ours_s, min(per_round), max(per_round)))
peak_results = []
for name, goal in peaks:
    started = time.monotonic()
    try:
        peak_results.append((name, max(ours(name) for _ in range(rounds_of(name))), goal))
        print(f"{name}: {time.monotonic() - started:.0f} s", file=sys.stderr)
    except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        print(f"skip {name}: {e}", file=sys.stderr)
thumbnail_peak_results = []
for name in [c[0] for c in comparisons if c[0] in VIPS_THUMBNAILS]:
    try:
        rows = [thumbnail_peaks(name) for _ in range(rounds_of(name))]
        # The largest peaks and bytes of the rounds; the PSNR is the same every round.
        thumbnail_peak_results.append((name, *[max(r[i] for r in rows) for i in range(6)]))
    except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        print(f"skip peak {name}: {e}", file=sys.stderr)
servers.close()
if serve_bench.peaks:  # measured during serve.cold.thumbor: no goal yet
    peak_results.append(("serve.cold.rss", max(serve_bench.peaks), None))

if generated:
    print(GENERATED_NOTE)
print(f"load average (1, 5, 15 min): {load_before} before, {load_average()} after")
print(f"temporary files: {temporary_files()}")
print(f"{'benchmark':34} {'WebImage':>12} {'reference':>12}  {'ref':8} {'ratio':>6}  {'rounds min–max':>14}")
for name, ours_s, label, ref_s, ratio, low, high in results:
    print(f"{name:34} {ours_s * 1e3:9.2f} ms {ref_s * 1e3:9.2f} ms  {label:8} {ratio:6.2f}  {low:6.2f}–{high:<6.2f}")
for name, mib, goal in peak_results:
    print(f"{name:34} {mib:8.1f} MiB {'peak RSS':>12}  " + (f"goal  ≤ {goal} MiB" if goal else "no goal"))
if thumbnail_peak_results:
    print(f"{'thumbnail peaks':34} {'ours MiB':>12} {'libvips MiB':>12}  {'ours bytes':>10} {'libvips bytes':>13}"
          f" {'ours PSNR':>10} {'libvips PSNR':>12}")
for name, ours_mib, ours_bytes, ours_psnr, vips_mib, vips_bytes, vips_psnr in thumbnail_peak_results:
    print(f"{name:34} {ours_mib:12.1f} {vips_mib:12.1f}  {ours_bytes:10.0f} {vips_bytes:13.0f}"
          f" {ours_psnr:10.2f} {vips_psnr:12.2f}")
if serve_harness.stats:
    print(f"{'serve.harness (ours / libvips)':34} {'median ms':>13} {'p95 ms':>13} {'CPU ms/req':>13} {'peak MiB':>11}"
          f" {'bytes':>13} {'PSNR dB':>13}")
for (output, source), sides in sorted({(o, s): None for o, s, _ in serve_harness.stats}.items()):
    def both(key, scale=1, digits=0):
        values = [statistics.median(r[key] for r in serve_harness.stats[(output, source, side)]) * scale
                  for side in ("webimage", "libvips") if (output, source, side) in serve_harness.stats]
        return " / ".join(f"{v:.{digits}f}" for v in values)
    label = f"{source} -> {output}"
    print(f"{label:34} {both('median', 1e3, 1):>13} {both('p95', 1e3, 1):>13} {both('cpu', 1e3, 1):>13}"
          f" {both('peak'):>11} {both('bytes'):>13} {both('psnr', 1, 2):>13}")
if all(serve_bench.warm_cpu.values()):
    # Where serve.warm.nginx's gap lies: the kernel's share of a request against user space's.
    print(f"{'serve.warm.nginx CPU (ours / nginx)':34} {'user µs/req':>17} {'kernel µs/req':>17}")
    user, kernel = [" / ".join(f"{statistics.median(r[i] for r in serve_bench.warm_cpu[side]) * 1e6:.1f}"
                               for side in ("webimage", "nginx")) for i in (0, 1)]
    print(f"{'':34} {user:>17} {kernel:>17}")
for name, _, _, _, ratio, low, high in results:
    print(f"ratio {name} {ratio:.3f} min {low:.3f} max {high:.3f}")
for name, mib, _ in peak_results:
    print(f"peak {name} {mib:.1f}")
for name, ours_mib, ours_bytes, ours_psnr, vips_mib, vips_bytes, vips_psnr in thumbnail_peak_results:
    print(f"peak {name} {ours_mib:.1f} libvips {vips_mib:.1f} bytes {ours_bytes:.0f} libvips {vips_bytes:.0f}"
          f" psnr {ours_psnr:.2f} libvips {vips_psnr:.2f}")
