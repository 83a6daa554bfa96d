"""The thumbnail.*.256.vips cases, shared by vips_bench.py (libvips's side) and compare.py (the
quality check): case name -> (source file in the bench folder, the suffix libvips writes, its
saver's options). ThumbnailCases.swift lists the same files for our side."""
CASES = {
    "thumbnail.jpeg.256.vips": ("testjfif_full.jpg", ".jpg", {"Q": 80}),
    "thumbnail.jpeg.progressive.256.vips": ("testjfif_full.progressive.jpg", ".jpg", {"Q": 80}),
    "thumbnail.webp.256.vips": ("testjfif_full.webp", ".webp", {"Q": 80}),
    "thumbnail.png.256.vips": ("testjfif_1024.png", ".png", {}),
}
