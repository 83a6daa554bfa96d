#!/usr/bin/env python3
"""Renders the references of Tests/Fixtures/vector with CairoSVG, a renderer independent of
librsvg (run with the venv scripts/test makes: .build/venv/bin/python scripts/make-svg-references.py).

Tests/Fixtures/vector/svg/ holds small SVG documents written by hand for this project (shapes,
gradients, paths, <use> with transforms, a viewBox without a size, physical units, Illustrator's
namespace entities, clipping and group opacity, a style sheet) and hostile ones that must be refused
(bomb_*: nested entities, an external entity, 5000 nested groups, 30 groups each using the one
before twice, 200 blurs on 5 megapixel rectangles; truncated.svg). For each
drawable document this writes ref/NAME.f0.png, CairoSVG's drawing at the intrinsic size, and
manifest.json in the layout ../shared/tools/conformance.py reads. Both renderers draw with cairo
but lay out the document themselves, so a few anti-aliased edge pixels differ by up to 255
(a stroke's end or join placed a pixel apart): the tolerance is held by the mean, at most 0.5
per channel, with any maximum (measured: mean 0.38 on gradients.svg, at most 0.2 elsewhere).
There is no <mask>: CairoSVG's differ from librsvg's (and the spec's) in colour space and
extent, so a mask would compare the renderers' readings of the spec.
"""
import json
import pathlib

import cairosvg
from PIL import Image

root = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "Fixtures" / "vector"
(root / "ref").mkdir(exist_ok=True)
images = []
for path in sorted((root / "svg").glob("*.svg")):
    entry = {"file": f"svg/{path.name}", "format": "svg", "frames": 1, "loop": None, "durations_ms": [None]}
    if path.name.startswith("bomb_") or path.name == "truncated.svg":
        entry.update(decodes=False)
    else:
        ref = root / "ref" / f"{path.name}.f0.png"
        # CairoSVG refuses entities unless told the file is trusted: these are written here.
        cairosvg.svg2png(url=str(path), write_to=str(ref), unsafe=path.name == "entities.svg")
        with Image.open(ref) as image:
            width, height = image.size
        entry.update(decodes=True, width=width, height=height, tolerance={"max": 255, "mean": 0.5})
    images.append(entry)
manifest = {"oracle": f"CairoSVG {cairosvg.__version__}", "check_format": True, "images": images}
(root / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
