"""The image-server benchmarks: `webimage serve` against thumbor and against nginx, every server
started and stopped here, on loopback only. Sources come from the HTTP origin that
bench_server runs (its large/ folder holds the 12 MP testjfif_full.jpg).

- cold(which): a fresh `webimage serve` or thumbor (no result cache; thumbor with
  ALLOW_UNSAFE_URL, no result storage, its default file storage for originals in a temporary
  folder, one process per core) makes 120 distinct `fit-in` resizes of the 12 MP JPEG, asked
  with the same thumbor URLs by 8 concurrent clients over keep-alive connections. Returns the
  seconds for all 120; for `webimage serve` its peak resident memory (VmHWM) goes to `peaks`.
- warm(which): requests per second that wrk measures on one result `webimage serve` has made
  and cached, against nginx (a worker per core) serving the same bytes as a static file.
  Returns seconds per request; the server's CPU per request, in user space and in the kernel
  (utime and stime from /proc, nginx's workers summed), goes to `warm_cpu`.

Each raises RuntimeError when a server or tool is missing or an answer is not the image asked for.
"""
import concurrent.futures, contextlib, http.client, os, re, shutil, signal, subprocess, sys, tempfile, time
import bench_server

COLD_COUNT, CLIENTS = 120, 8
# The sizes of the cold case: 120 distinct boxes from 100 to 1290 pixels.
COLD_PATHS = [f"/unsafe/fit-in/{100 + 10 * i}x{100 + 10 * i}/" for i in range(COLD_COUNT)]
WARM_PATH = "/unsafe/fit-in/300x300/"
here = os.path.dirname(os.path.abspath(__file__))
# Peak resident memory of `webimage serve` in each cold run, in MiB.
peaks = []
# CPU seconds per request of each warm run, as (user, kernel), by "webimage" and "nginx".
warm_cpu = {"webimage": [], "nginx": []}
_warm_result = {}


def webimage(binaries):
    """The release `webimage` binary in the folder `binaries`."""
    path = os.path.join(binaries, "webimage")
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"{path} is not built (scripts/build-release webimage)")
    return path


def source():
    """The 12 MP JPEG on the origin, as thumbor URLs carry it."""
    base = os.environ.get("WEBIMAGE_BENCH_SERVER_URL")
    if not base:
        raise RuntimeError("no origin server")
    return base + "large/000.jpg"


@contextlib.contextmanager
def started(command, port, name):
    """Runs `command` until the block ends; yields the process once `port` accepts connections."""
    # A session of its own, so that thumbor's forked workers stop with it.
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        bench_server.wait_listening(process, port, name, timeout=60)
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@contextlib.contextmanager
def serving(which, binaries):
    """`webimage serve` (from the folder `binaries`) or thumbor on a free loopback port, fresh:
    yields (port, process)."""
    port = bench_server.free_port()
    with tempfile.TemporaryDirectory(prefix=f"webimage-bench-{which}-") as root:
        if which == "webimage":
            command = [webimage(binaries), "serve", "--bind", f"127.0.0.1:{port}", "--cache-dir", root,
                       "--allow-loopback-sources", "--log-level", "warn"]
        else:
            exe = os.path.join(os.path.dirname(sys.executable), "thumbor")
            if not os.access(exe, os.X_OK):
                raise RuntimeError("thumbor is not installed in the benchmark venv (pip install thumbor==7.8.0)")
            config = os.path.join(root, "thumbor.conf")
            with open(config, "w") as f:
                f.write(f"ALLOW_UNSAFE_URL = True\nRESULT_STORAGE = None\nQUALITY = 80\n"
                        f"STORAGE = 'thumbor.storages.file_storage'\nFILE_STORAGE_ROOT_PATH = '{root}/storage'\n")
            command = [exe, "--ip", "127.0.0.1", "--port", str(port), "--conf", config, "--log-level", "error",
                       "--processes", str(os.cpu_count())]
        with started(command, port, which) as process:
            yield port, process


def fetch_all(port, paths):
    """GETs every path from 8 threads, each over its own keep-alive connection; returns the
    seconds from the first request to the last answer. Every answer must be a 200 JPEG."""
    def client(share):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        try:
            for path in share:
                connection.request("GET", path)
                response = connection.getresponse()
                body = response.read()
                if response.status != 200 or not body.startswith(b"\xff\xd8"):
                    raise RuntimeError(f"{path[:60]}: {response.status} {body[:80]!r}")
        except (http.client.HTTPException, OSError) as e:
            raise RuntimeError(f"the server failed: {e}") from e
        finally:
            connection.close()

    shares = [paths[i::CLIENTS] for i in range(CLIENTS)]
    started_at = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(CLIENTS) as pool:
        for future in [pool.submit(client, share) for share in shares]:
            future.result()
    return time.monotonic() - started_at


def peak_mib(process):
    with open(f"/proc/{process.pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


def cold(which, binaries):
    """Seconds for the 120 distinct resizes on a fresh `which` ("webimage" or "thumbor")."""
    paths = [p + source() for p in COLD_PATHS]
    with serving(which, binaries) as (port, process):
        seconds = fetch_all(port, paths)
        if which == "webimage":
            peaks.append(peak_mib(process))
    return seconds


def wrk(url, duration, pids):
    """Seconds per request wrk measures on `url` with 2 threads and 16 connections, and the CPU
    seconds per request, as (user, kernel), of the server processes `pids`."""
    exe = shutil.which("wrk")
    if exe is None:
        raise RuntimeError("wrk is not installed")
    before = cpu_split(pids)
    out = subprocess.run([exe, "-t2", "-c16", f"-d{duration}s", url], capture_output=True, text=True, timeout=120)
    after = cpu_split(pids)
    count = re.search(r"(\d+) requests in", out.stdout)
    rate = re.search(r"Requests/sec:\s*([\d.]+)", out.stdout)
    if out.returncode != 0 or count is None or rate is None or "Non-2xx" in out.stdout or "Socket errors" in out.stdout:
        raise RuntimeError(f"wrk on {url}: {out.stdout.strip() or out.stderr.strip()}")
    requests = int(count.group(1))
    return 1 / float(rate.group(1)), tuple((a - b) / requests for a, b in zip(after, before))


def cpu_split(pids):
    """The user and kernel CPU seconds (utime, stime) the processes `pids` have used so far."""
    user = kernel = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        user, kernel = user + int(fields[11]), kernel + int(fields[12])
    ticks = os.sysconf("SC_CLK_TCK")
    return user / ticks, kernel / ticks


def get(port, path):
    """The body of a 200 answer to GET `path`."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
    finally:
        connection.close()
    if response.status != 200:
        raise RuntimeError(f"{path[:60]}: {response.status}")
    return body


def warm(which, binaries, duration):
    """Seconds per request on one cached result from `which` ("webimage" or "nginx"). nginx
    serves the bytes `webimage serve` made for the URL (made again when it has not run yet)."""
    if which == "webimage" or "bytes" not in _warm_result:
        with serving("webimage", binaries) as (port, process):
            _warm_result["bytes"] = get(port, WARM_PATH + source())
            if which == "webimage":
                seconds, cpu = wrk(f"http://127.0.0.1:{port}{WARM_PATH}{source()}", duration, [process.pid])
                warm_cpu[which].append(cpu)
                return seconds
    with tempfile.TemporaryDirectory(prefix="webimage-bench-nginx-") as root:
        os.chmod(root, 0o755)
        images = os.path.join(root, "images")
        os.mkdir(images)
        with open(os.path.join(images, "result.jpg"), "wb") as f:
            f.write(_warm_result["bytes"])
        with bench_server.nginx_serving(root, images, workers="auto") as url:
            seconds, cpu = wrk(url + "result.jpg", duration, nginx_workers(root))
            warm_cpu[which].append(cpu)
            return seconds


def nginx_workers(root):
    """The worker processes of the nginx whose pid file is in `root`."""
    with open(os.path.join(root, "nginx.pid")) as f:
        master = int(f.read())
    with open(f"/proc/{master}/task/{master}/children") as f:
        workers = [int(pid) for pid in f.read().split()]
    if not workers:
        raise RuntimeError("nginx has no workers")
    return workers
