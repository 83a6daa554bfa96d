#!/usr/bin/env python3
"""libvips's side of the thumbnail.*.vips comparisons, through pyvips (pyvips-binary carries
libvips 8.18): `pyvips.Image.thumbnail_buffer` of a bench file to 256 px on its long side,
written in the file's own format (JPEG and WebP at quality 80, PNG lossless), as imgproxy runs
libvips: one thread (VIPS_CONCURRENCY=1, set before pyvips loads) and the operation cache off.

usage: vips_bench.py FIXTURES CASE SECONDS MIN_RUNS   prints "<case> <median seconds per thumbnail>"
       vips_bench.py FIXTURES CASE peak [OUTPUT]      one thumbnail in this fresh process (written to
                                                      OUTPUT if given), then
                                                      "<case> <peak resident MiB> <output bytes>"
"""
import os, statistics, sys, time

from thumbnail_cases import CASES

os.environ["VIPS_CONCURRENCY"] = "1"
import pyvips  # noqa: E402

pyvips.cache_set_max(0)
fixtures, case = sys.argv[1], sys.argv[2]
bench = os.path.join(fixtures, "bench")
if case not in CASES:
    sys.exit(f"unknown case {case}")
name, suffix, options = CASES[case]
with open(os.path.join(bench, name), "rb") as f:
    data = f.read()


def thumbnail():
    return pyvips.Image.thumbnail_buffer(data, 256).write_to_buffer(suffix, **options)


if sys.argv[3] == "peak":
    output = thumbnail()
    if len(sys.argv) > 4:
        with open(sys.argv[4], "wb") as f:
            f.write(output)
    # VmHWM, not ru_maxrss, which Linux carries over exec from the (possibly large) parent.
    with open("/proc/self/status") as f:
        peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    print(case, peak / 1024, len(output))
    sys.exit(0)
budget, min_runs = float(sys.argv[3]), int(sys.argv[4])
thumbnail()
samples, start = [], time.perf_counter()
while len(samples) < min_runs or time.perf_counter() - start < budget:
    t0 = time.perf_counter()
    thumbnail()
    samples.append(time.perf_counter() - t0)
print(case, statistics.median(samples))
