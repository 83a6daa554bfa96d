#!/usr/bin/env python3
"""A small image server over libvips 8.18 (pyvips) doing what imgproxy does for the URLs of the
serve.harness.* comparisons, `/insecure/rs:fit:W:H/q:Q/cb:N/plain/SOURCE@EXT`: the source
fetched from the origin once and kept in memory (warm sources, as the other side's source
cache keeps them), `thumbnail_buffer` to fit W × H (shrink on load, no enlarging), then
imgproxy's savers: JPEG with optimised Huffman tables, WebP at effort 4, PNG with every filter
tried, AVIF at speed 8 (libvips's effort 1). As imgproxy runs libvips: one libvips thread per
request (VIPS_CONCURRENCY=1), twice as many requests at once as cores, the operation cache off.

usage: vips_server.py PORT
"""
import http.server, os, re, sys, threading, urllib.request

os.environ["VIPS_CONCURRENCY"] = "1"
import pyvips  # noqa: E402

pyvips.cache_set_max(0)
PATH = re.compile(r"^/insecure/rs:fit:(\d+):(\d+)/q:(\d+)(?:/cb:[^/]*)?/plain/(.+)@(\w+)$")
SAVERS = {
    "jpg": (".jpg", lambda q: {"Q": q, "optimize_coding": True}, "image/jpeg"),
    "webp": (".webp", lambda q: {"Q": q, "effort": 4}, "image/webp"),
    "png": (".png", lambda q: {"filter": "all"}, "image/png"),
    "avif": (".avif", lambda q: {"Q": q, "compression": "av1", "effort": 1}, "image/avif"),
}
workers = threading.BoundedSemaphore(2 * (os.cpu_count() or 1))
sources, sources_lock = {}, threading.Lock()


def source(url):
    with sources_lock:
        data = sources.get(url)
    if data is None:
        with urllib.request.urlopen(url, timeout=30) as response:
            data = response.read()
        with sources_lock:
            sources[url] = data
    return data


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        match = PATH.match(self.path)
        if match is None or match.group(5) not in SAVERS:
            self.send_error(404)
            return
        width, height, quality, url, extension = match.groups()
        suffix, options, content_type = SAVERS[extension]
        with workers:
            image = pyvips.Image.thumbnail_buffer(source(url), int(width), height=int(height), size="down")
            body = image.write_to_buffer(suffix, **options(int(quality)))
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
