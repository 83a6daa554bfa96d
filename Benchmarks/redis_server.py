"""The Redis of the scale-out benchmarks: a redis-server on a free loopback port, persisting
nothing, 512 MB with allkeys-lru (as deploy/README.md advises), in a temporary folder.

`serve()` is a context manager yielding its URL, redis://127.0.0.1:PORT/0; it raises
RuntimeError when redis-server is not installed or does not answer.
"""
import contextlib, os, shutil, socket, subprocess, tempfile, time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port):
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1) as s:
        s.sendall(b"PING\r\n")
        return s.recv(16).startswith(b"+PONG")
    return False


@contextlib.contextmanager
def serve():
    exe = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.access(exe, os.X_OK):
        raise RuntimeError("redis-server is not installed")
    with tempfile.TemporaryDirectory(prefix="webimage-bench-redis-") as root:
        port = free_port()
        server = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                   "--dir", root, "--maxmemory", "512mb", "--maxmemory-policy", "allkeys-lru"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 10
            while not answers(port):
                if server.poll() is not None:
                    raise RuntimeError(f"redis-server exited: {server.stderr.read().decode().strip()}")
                if time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not answer PING")
                time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            server.terminate()
            server.wait(timeout=10)
