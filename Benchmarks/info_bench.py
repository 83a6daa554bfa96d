"""The `/info` benchmarks: `webimage serve`'s imgproxy-style `/info` endpoint on the 12 MP JPEG
against the cheapest way a user gets the same answer today, a Python function with Pillow and
blurhash-python (woltapp's C encoder) on the same file.

- info.jpeg.header: size, format, dimensions, orientation and the EXIF fields, read from the
  header (`/info/insecure/iptc:0/xmp:0/cb:N/…`) against `Image.open` (which reads the header
  only), `os.path.getsize` and `getexif()` with its EXIF directory.
- info.jpeg.blurhash: the same and a 4 x 3 BlurHash (`bh:4:3`), against Pillow's shrink-on-load
  (`draft`, as the server's decode shrinks), `thumbnail` to 100 px and `blurhash.encode`.

Ours is timed over HTTP (one keep-alive connection, each request with a new cachebuster, so
each is made and none is a cache hit), so its figure includes the request and the JSON; the
reference is timed in process (`pillow`), reading the file each time, and, as a user would
offer the same endpoint, over HTTP too (`pillow_http`: the same function behind Python's
ThreadingHTTPServer with keep-alive, in a process of its own, JSON answers). Both are medians of single requests
or calls. Before timing, our answer is checked against Pillow's: the same sides, the same EXIF
field count, and a BlurHash whose decoded 8 x 8 picture is within 8 levels of Pillow's.
"""
import http.client, http.server, json, os, subprocess, statistics, sys, time
import bench_server, serve_bench

PHOTO = "testjfif_full.jpg"
CALLS = 30
OPTIONS = {"header": "iptc:0/xmp:0", "blurhash": "iptc:0/xmp:0/bh:4:3"}


def _pillow_answer(path, case):
    from PIL import Image
    answer = {"size": os.path.getsize(path)}
    with Image.open(path) as im:
        exif = im.getexif()
        fields = {**dict(exif), **dict(exif.get_ifd(0x8769))}
        answer.update(format=im.format.lower(), width=im.width, height=im.height,
                      orientation=exif.get(0x0112, 1), exif=len(fields))
        if case == "blurhash":
            import blurhash
            im.draft("RGB", (256, 256))
            im = im.convert("RGB")
            im.thumbnail((100, 100), Image.LANCZOS)
            answer["blurhash"] = blurhash.encode(im, 4, 3)
    return answer


def _median_seconds(call):
    call()
    samples = []
    for i in range(CALLS):
        started = time.perf_counter()
        call(i)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def pillow(fixtures, case):
    """Median seconds of the Pillow function for `case`."""
    path = os.path.join(fixtures, "bench", PHOTO)
    return _median_seconds(lambda i=0: _pillow_answer(path, case))


def _timed_requests(port, path_of):
    """Median seconds of one GET of `path_of(i)` on a keep-alive connection to `port`, after a
    check of the first answer against Pillow's."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(i=-1):
        connection.request("GET", path_of(i))
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"{path_of(i)} answered {response.status}: {body[:200]!r}")
        return json.loads(body)

    try:
        return request, _median_seconds(request)
    finally:
        connection.close()


def pillow_http(fixtures, case):
    """Median seconds of one request to the Pillow function behind a Python HTTP server."""
    port = bench_server.free_port()
    command = [sys.executable, os.path.abspath(__file__), "serve", str(port), os.path.join(fixtures, "bench", PHOTO), case]
    with serve_bench.started(command, port, "the Pillow info server"):
        return _timed_requests(port, lambda i: f"/{i}")[1]


def _serve(port, path, case):
    """The Pillow side as a server: every GET answers `_pillow_answer` as JSON."""
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out as two writes: without this, Nagle's algorithm holds the body
        # for the client's delayed acknowledgement (40 ms a request).
        disable_nagle_algorithm = True

        def do_GET(self):
            body = json.dumps(_pillow_answer(path, case)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


def _checked(answer, reference):
    if [answer.get("width"), answer.get("height"), answer.get("format")] != \
            [reference["width"], reference["height"], reference["format"]]:
        raise RuntimeError(f"/info answered {answer.get('width')} x {answer.get('height')} {answer.get('format')}")
    if len(answer.get("exif", {})) < reference["exif"]:
        raise RuntimeError(f"/info has {len(answer.get('exif', {}))} EXIF fields, Pillow {reference['exif']}")
    if "blurhash" in reference:
        import blurhash
        # blurhash-python decodes to a Pillow image.
        ours = blurhash.decode(answer.get("blurhash", ""), 8, 8).tobytes()
        theirs = blurhash.decode(reference["blurhash"], 8, 8).tobytes()
        difference = statistics.mean(abs(a - b) for a, b in zip(ours, theirs))
        if difference > 8:
            raise RuntimeError(f"/info's BlurHash decodes {difference:.1f} levels from Pillow's")


def ours(binaries, fixtures, case):
    """Median seconds of one `/info` request for `case` to a fresh `webimage serve`."""
    bench = os.path.realpath(os.path.join(fixtures, "bench"))
    port = bench_server.free_port()
    command = [serve_bench.webimage(binaries), "serve", "--bind", f"127.0.0.1:{port}", "--local-root", bench,
               "--log-level", "warn"]
    with serve_bench.started(command, port, "webimage serve"):
        request, seconds = _timed_requests(port, lambda i: f"/info/insecure/{OPTIONS[case]}/cb:{i}/plain/local:///{PHOTO}")
        _checked(request(), _pillow_answer(os.path.join(bench, PHOTO), case))
        return seconds


if __name__ == "__main__" and sys.argv[1:2] == ["serve"]:
    _serve(int(sys.argv[2]), sys.argv[3], sys.argv[4])
