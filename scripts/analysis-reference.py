#!/usr/bin/env python3
"""Reference outputs for the image-analysis tests, from the Python libraries they follow.

    scripts/analysis-reference.py generate [OUT]         decode the fixtures, write raw RGBA and manifest.json
    scripts/analysis-reference.py decode-blurhash HASH W H OUT
    scripts/analysis-reference.py decode-thumbhash HEX W H OUT

`generate` writes into OUT (default /tmp/analysis-ref), for each image NAME:
  NAME.full.rgba   the image as Pillow decodes it, RGBA8, row-major (EXIF orientation applied)
  NAME.thumb.rgba  that image shrunk by Pillow's thumbnail() to fit 100 x 100
and manifest.json with the sizes and, for the same pixels, the outputs of blurhash-python
(woltapp's C encoder), thumbhash (a Python port) and fast-thumbhash (evanw's Rust crate),
imagehash.phash and numpy's channel means.

The decode commands write what the reference decoders make of a hash, as raw bytes: BlurHash
as W x H RGB; ThumbHash as RGBA, the decoder's small image resized to W x H (bilinear).

The fixtures are read from $WEBIMAGE_FIXTURES (default ../shared/fixtures). The tests in
Tests/WebImageTests (AnalysisReferences.swift) run `generate` themselves.
Needs Pillow, numpy, scipy, imagehash, blurhash-python, thumbhash and fast-thumbhash.
"""

import json
import os
import sys

import blurhash
import fast_thumbhash
import imagehash
import numpy
import thumbhash
from PIL import Image, ImageOps

FIXTURES = os.environ.get("WEBIMAGE_FIXTURES", os.path.join(os.path.dirname(__file__), "..", "..", "shared", "fixtures"))

# name, path below the fixtures folder, whether to write a thumbnail (the full-size 12 MP
# photo is for the pHash and the average only).
IMAGES = [
    ("testjfif", "bench/testjfif_1024.jpg", True),
    ("testimagelarge", "bench/testimagelarge_1024.jpg", True),
    ("hopper", "images/jpeg/pil_hopper.jpg", True),
    ("testorig", "images/jpeg/ljt_testorig.jpg", True),
    ("iccprofile", "images/jpeg/sd_TestICCProfile.jpg", True),
    ("staticwebp", "images/webp/sd_TestImageStatic.webp", True),
    ("transparent", "images/webp/pil_transparent.webp", True),
    ("basn6a08", "images/png/pngsuite_basn6a08.png", True),
    ("testjfif_full", "bench/testjfif_full.jpg", False),
]

BLURHASH_COMPONENTS = [(4, 3), (9, 9), (1, 1), (5, 2)]


def means(image):
    pixels = numpy.asarray(image).reshape(-1, 4).astype(numpy.float64)
    visible = pixels[pixels[:, 3] != 0]
    return pixels.mean(axis=0).tolist(), (visible.mean(axis=0).tolist() if len(visible) else None)


def python_thumbhash(image):
    """The Python port's hash; None for images with alpha, where the port fails (its alpha branch
    parses as a tuple)."""
    try:
        return thumbhash.rgba_to_thumb_hash(image.width, image.height, list(image.tobytes()))
    except TypeError:
        return None


def generate(out):
    os.makedirs(out, exist_ok=True)
    manifest = []
    for name, path, with_thumbnail in IMAGES:
        full = ImageOps.exif_transpose(Image.open(os.path.join(FIXTURES, path))).convert("RGBA")
        with open(os.path.join(out, name + ".full.rgba"), "wb") as f:
            f.write(full.tobytes())
        mean_all, mean_visible = means(full)
        entry = {
            "name": name, "source": path, "width": full.width, "height": full.height,
            "phash": str(imagehash.phash(full)), "mean": mean_all, "meanVisible": mean_visible,
        }
        if with_thumbnail:
            thumb = full.copy()
            thumb.thumbnail((100, 100), Image.LANCZOS)
            with open(os.path.join(out, name + ".thumb.rgba"), "wb") as f:
                f.write(thumb.tobytes())
            entry.update({
                "thumbWidth": thumb.width, "thumbHeight": thumb.height,
                "thumbPhash": str(imagehash.phash(thumb)),
                "blurhash": [{"x": x, "y": y, "hash": blurhash.encode(thumb, x, y)} for x, y in BLURHASH_COMPONENTS],
                "thumbhashPython": python_thumbhash(thumb),
                "thumbhashRust": list(fast_thumbhash.rgba_to_thumb_hash(thumb.width, thumb.height, thumb.tobytes())),
            })
        manifest.append(entry)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


def decode_blurhash(hash_, width, height, out):
    with open(out, "wb") as f:
        f.write(blurhash.decode(hash_, int(width), int(height)).tobytes())


def decode_thumbhash(hex_, width, height, out):
    w, h, rgba = fast_thumbhash.thumb_hash_to_rgba(bytes.fromhex(hex_))
    small = Image.frombytes("RGBA", (w, h), bytes(rgba))
    with open(out, "wb") as f:
        f.write(small.resize((int(width), int(height)), Image.BILINEAR).tobytes())


if __name__ == "__main__":
    command, arguments = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("generate", [])
    if command == "generate":
        generate(arguments[0] if arguments else "/tmp/analysis-ref")
    elif command == "decode-blurhash":
        decode_blurhash(*arguments)
    elif command == "decode-thumbhash":
        decode_thumbhash(*arguments)
    else:
        sys.exit(__doc__)
