"""The server of the network benchmarks: nginx on a free loopback port, with a generated
configuration, serving a temporary folder with one subfolder per benchmark:

- gallery/  pipeline.gallery: 300 corpus images (1024 px and 256 px variants) under distinct names
- small/    download.2000: 2,000 distinct 24 × 24 PNGs
- large/    memory.thumbnails: 100 names for the 12 MP testjfif_full.jpg

`serve(bench)` is a context manager yielding (base URL, folder); it raises RuntimeError when
nginx is not installed or does not start. Corpus files are linked, not copied.
`nginx_serving(root, images, workers)` serves any folder (serve_bench's static reference).
"""
import contextlib, os, re, shutil, socket, subprocess, tempfile, time
from PIL import Image

GALLERY_COUNT, SMALL_COUNT, LARGE_COUNT = 300, 2000, 100
# The 1024 px and 256 px variants of each corpus photo: baseline and progressive JPEG, WebP, PNG.
CORPUS = re.compile(r".*_(1024|256)(\.progressive)?\.(jpg|png|webp)")

CONFIG = """daemon off;
worker_processes {workers};
pid {root}/nginx.pid;
error_log {root}/error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
    types {{ image/jpeg jpg; image/png png; image/webp webp; }}
    sendfile on;
    keepalive_requests 1000000;
    server {{
        listen 127.0.0.1:{port};
        root {images};
    }}
}}
"""


def nginx():
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
    if found is None:
        raise RuntimeError("nginx is not installed")
    return found


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fill(images, bench):
    """Fills gallery/, small/ and large/ under `images`."""
    bench = os.path.abspath(bench)
    corpus = sorted(f for f in os.listdir(bench) if CORPUS.fullmatch(f))
    if not corpus:
        raise RuntimeError(f"no corpus images in {bench}")
    for folder in ("gallery", "small", "large"):
        os.mkdir(os.path.join(images, folder))
    for i in range(GALLERY_COUNT):
        name = corpus[i % len(corpus)]
        os.symlink(os.path.join(bench, name), os.path.join(images, "gallery", f"{i:03d}-{name}"))
    for i in range(SMALL_COUNT):
        Image.new("RGB", (24, 24), (i % 256, i // 256 * 30, 128)).save(os.path.join(images, "small", f"{i:04d}.png"))
    for i in range(LARGE_COUNT):
        os.symlink(os.path.join(bench, "testjfif_full.jpg"), os.path.join(images, "large", f"{i:03d}.jpg"))


def wait_listening(process, port, name, timeout=10):
    """Returns once `port` on loopback accepts connections; raises RuntimeError when `process`
    exits first (with its standard error, when piped) or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            detail = process.stderr.read().decode().strip() if process.stderr else f"status {process.returncode}"
            raise RuntimeError(f"{name} exited: {detail}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name} did not start listening")
        time.sleep(0.05)


@contextlib.contextmanager
def nginx_serving(root, images, workers=1):
    """nginx with `workers` worker processes serving the folder `images`, its configuration and
    logs in `root`, on a free loopback port: yields its base URL."""
    exe = nginx()
    port = free_port()
    config = os.path.join(root, "nginx.conf")
    with open(config, "w") as f:
        f.write(CONFIG.format(root=root, port=port, images=images, workers=workers))
    server = subprocess.Popen([exe, "-p", root, "-e", os.path.join(root, "error.log"), "-c", config],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_listening(server, port, "nginx")
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextlib.contextmanager
def serve(bench):
    with tempfile.TemporaryDirectory(prefix="webimage-bench-server-") as root:
        os.chmod(root, 0o755)  # nginx workers may run as another user
        images = os.path.join(root, "images")
        os.mkdir(images)
        fill(images, bench)
        with nginx_serving(root, images) as url:
            yield url, images
