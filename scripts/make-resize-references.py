#!/usr/bin/env python3
"""Regenerates the Pillow references the resize-quality tests compare against.

usage: scripts/make-resize-references.py   (from the package root, with Pillow installed:
       python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pillow
       /tmp/venv/bin/python scripts/make-resize-references.py)

For every Tests/Fixtures/bench/*_256.png it writes to Tests/WebImageCodecsTests/References/resize/:
  <name>_64.png        the RGB image resized to a 64-pixel long edge with Image.LANCZOS;
  <name>_64_rgba.png   the same with alpha (x + y) * 255 // (w + h - 2) added first, resized
                       as RGBA (Pillow premultiplies internally), to check transparent edges.
The long edge becomes 64 and the short edge round(short * 64 / long), as the tests compute it.
"""
import glob, os
from PIL import Image

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out_dir = os.path.join(root, "Tests/WebImageCodecsTests/References/resize")
os.makedirs(out_dir, exist_ok=True)


def target(size, long_edge=64):
    w, h = size
    if w >= h:
        return long_edge, int(h * long_edge / w + 0.5)
    return int(w * long_edge / h + 0.5), long_edge


def with_alpha(im):
    w, h = im.size
    alpha = Image.new("L", im.size)
    alpha.putdata([(x + y) * 255 // (w + h - 2) for y in range(h) for x in range(w)])
    rgba = im.convert("RGBA")
    rgba.putalpha(alpha)
    return rgba


for path in sorted(glob.glob(os.path.join(root, "Tests/Fixtures/bench/*_256.png"))):
    name = os.path.basename(path)[: -len(".png")]
    with Image.open(path) as im:
        rgb = im.convert("RGB")
    size = target(rgb.size)
    rgb.resize(size, Image.LANCZOS).save(os.path.join(out_dir, f"{name}_64.png"), optimize=True)
    with_alpha(rgb).resize(size, Image.LANCZOS).save(os.path.join(out_dir, f"{name}_64_rgba.png"), optimize=True)
    print(name, rgb.size, "->", size)
