"""The object storage of the scale.s3.* benchmarks: moto's S3-compatible server
(`python -m moto.server`, the moto[server] package Benchmarks/run installs in the bench venv)
on a free loopback port, with the bucket `bench` made.

`serve()` is a context manager yielding its endpoint, http://127.0.0.1:PORT; it raises
RuntimeError when moto is not installed or does not answer. moto here checks no signature:
the benchmark measures reading results, not moto's authentication.
"""
import contextlib, importlib.util, socket, subprocess, sys, tempfile, time, urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve():
    if importlib.util.find_spec("moto") is None:
        raise RuntimeError("moto is not installed (pip install 'moto[server]')")
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    # Its log goes to a file: moto writes a line a request, which would fill a pipe and stop it.
    log = tempfile.TemporaryFile()
    server = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=log)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(urllib.request.Request(f"{endpoint}/bench", method="PUT"), timeout=2).close()
                break
            except OSError:
                if server.poll() is not None:
                    log.seek(0)
                    raise RuntimeError(f"moto exited: {log.read().decode(errors='replace').strip()[-500:]}")
                if time.monotonic() > deadline:
                    raise RuntimeError("moto did not answer")
                time.sleep(0.1)
        yield endpoint
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
