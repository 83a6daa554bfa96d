#!/usr/bin/env python3
"""Writes Tests/Fixtures/color: small images with embedded ICC profiles, and their references.

usage: .build/venv/bin/python scripts/make-color-fixtures.py   (Pillow and numpy in the venv)

The profiles are made here with lcms2 (the system's liblcms2, through ctypes), so they carry no
one else's licence; their dates are pinned and IDs zeroed, so a run writes the same bytes.

profiles/ (each also embedded in the images below):
  swapped-red-green-v4.icc   ICC v4 (`mluc` description), sRGB's primaries with red and green
                             exchanged, sRGB's curve: ignoring it shows red and green swapped
  wide-gamut-v2.icc          ICC v2 (`desc` description), Wide Gamut RGB primaries, D50, gamma 2.2
  gray-gamma18.icc           grey, gamma 1.8
  cmyk-lut.icc               CMYK through a 5-point CLUT in A2B0 (perceptual), Lab PCS
  cmyk-lut-colorimetric.icc  the same CLUT in A2B1 only: no perceptual rendering, so a decoder
                             must fall back to relative colorimetric
  srgb.icc                   lcms2's own sRGB: converting through it changes nothing

images (48 x 36, from Tests/Fixtures/bench/testjfif_256.png turned into sRGB, then INTO each
space with Pillow's ImageCms, perceptual):
  swapped_rgba.png           swapped profile, with alpha (alpha is not colour-converted)
  swapped_lossless.webp      the same as lossless WebP (ICCP chunk)
  swapped_animated.png       APNG, 2 frames (the second flipped), swapped profile
  swapped_animated.webp      animated WebP, 2 frames, swapped profile
  swapped.jpg                swapped profile, JPEG q90 (APP2), opaque: a browser or server that
                             ignores the profile shows red and green swapped, unmistakably
  wide_gamut.jpg             wide-gamut profile, JPEG q90 (APP2)
  wide_gamut_split.jpg       wide_gamut.jpg with its profile cut into 3 APP2 markers stored out of
                             order (3, 1, 2): the same image once reassembled
  gray_gamma18.jpg           greyscale JPEG with the grey profile
  cmyk_lut.jpg               Adobe (inverted) CMYK JPEG, Pillow's naive CMYK, cmyk-lut profile
  cmyk_lut_colorimetric.jpg  the same pixels with cmyk-lut-colorimetric
  srgb.jpg                   the picture with srgb.icc embedded
  broken_profile.png         12 x 9, an iCCP chunk holding 600 bytes that are not ICC
  damaged_iccp.png           12 x 9, an iCCP chunk whose zlib stream is cut short

ref/NAME.png: Pillow's decode of NAME converted to sRGB as the shared fixtures' references are:
ImageCms.profileToProfile(image, embedded, createProfile("sRGB"), PERCEPTUAL (relative
colorimetric for cmyk_lut_colorimetric), outputMode RGB), alpha carried over; ref/NAME.last.png
for the last frame of an animation. The four swapped PNG and WebP files share ref/swapped.png and
ref/swapped.last.png (they differ only in the colour of fully transparent pixels). No
references for srgb, broken_profile and damaged_iccp, whose tests compare decodes with each other.
"""
import ctypes, io, os, struct, zlib
import numpy as np
from PIL import Image, ImageCms

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "color")
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "bench", "testjfif_256.png")
SIZE = (48, 36)
DATE = struct.pack(">6H", 2024, 1, 1, 0, 0, 0)

lcms = ctypes.CDLL("liblcms2.so.2")
lcms.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
lcms.cmsBuildParametricToneCurve.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
lcms.cmsBuildGamma.restype = ctypes.c_void_p
lcms.cmsBuildGamma.argtypes = [ctypes.c_void_p, ctypes.c_double]
lcms.cmsCreateRGBProfile.restype = ctypes.c_void_p
lcms.cmsCreateRGBProfile.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
lcms.cmsCreateGrayProfile.restype = ctypes.c_void_p
lcms.cmsCreateGrayProfile.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
lcms.cmsCreate_sRGBProfile.restype = ctypes.c_void_p
lcms.cmsCreateProfilePlaceholder.restype = ctypes.c_void_p
lcms.cmsCreateProfilePlaceholder.argtypes = [ctypes.c_void_p]
lcms.cmsMLUalloc.restype = ctypes.c_void_p
lcms.cmsMLUalloc.argtypes = [ctypes.c_void_p, ctypes.c_uint]
lcms.cmsMLUsetASCII.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
lcms.cmsMLUfree.argtypes = [ctypes.c_void_p]
lcms.cmsWriteTag.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p]
lcms.cmsSetProfileVersion.argtypes = [ctypes.c_void_p, ctypes.c_double]
lcms.cmsSetDeviceClass.argtypes = [ctypes.c_void_p, ctypes.c_uint]
lcms.cmsSetColorSpace.argtypes = [ctypes.c_void_p, ctypes.c_uint]
lcms.cmsSetPCS.argtypes = [ctypes.c_void_p, ctypes.c_uint]
lcms.cmsSaveProfileToMem.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint)]
lcms.cmsCloseProfile.argtypes = [ctypes.c_void_p]
lcms.cmsPipelineAlloc.restype = ctypes.c_void_p
lcms.cmsPipelineAlloc.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint]
lcms.cmsStageAllocCLut16bit.restype = ctypes.c_void_p
lcms.cmsStageAllocCLut16bit.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                                        ctypes.POINTER(ctypes.c_uint16)]
lcms.cmsPipelineInsertStage.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
lcms.cmsStageAllocToneCurves.restype = ctypes.c_void_p
lcms.cmsStageAllocToneCurves.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p]
lcms.cmsPipelineFree.argtypes = [ctypes.c_void_p]
lcms.cmsD50_XYZ.restype = ctypes.c_void_p
lcms.cmsD50_xyY.restype = ctypes.c_void_p


def sig(text):
    return int.from_bytes(text.encode("ascii"), "big")


class xyY(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]


def describe(handle, text):
    mlu = lcms.cmsMLUalloc(None, 1)
    lcms.cmsMLUsetASCII(mlu, b"en", b"US", text.encode("ascii"))
    lcms.cmsWriteTag(handle, sig("desc"), mlu)
    lcms.cmsMLUfree(mlu)


def save(handle):
    size = ctypes.c_uint(0)
    lcms.cmsSaveProfileToMem(handle, None, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    lcms.cmsSaveProfileToMem(handle, buffer, ctypes.byref(size))
    lcms.cmsCloseProfile(handle)
    data = bytearray(buffer.raw[:size.value])
    data[24:36] = DATE
    data[84:100] = bytes(16)
    return bytes(data)


def rgb_profile(white, primaries, curve, version, text):
    triple = (xyY * 3)(*(xyY(x, y, 1.0) for x, y in primaries))
    curves = (ctypes.c_void_p * 3)(curve, curve, curve)
    handle = lcms.cmsCreateRGBProfile(ctypes.byref(xyY(white[0], white[1], 1.0)), triple, curves)
    lcms.cmsSetProfileVersion(handle, version)
    describe(handle, text)
    return save(handle)


def cmyk_profile(tag, text):
    """CMYK to Lab through a 5-point CLUT of a simple subtractive model (ink over paper)."""
    grid = 5
    handle = lcms.cmsCreateProfilePlaceholder(None)
    lcms.cmsSetProfileVersion(handle, 4.3)
    lcms.cmsSetDeviceClass(handle, sig("prtr"))
    lcms.cmsSetColorSpace(handle, sig("CMYK"))
    lcms.cmsSetPCS(handle, sig("Lab "))
    srgb_to_lab = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB", 5000),
                                          "RGB", "LAB")
    steps = np.linspace(0, 1, grid)
    c, m, y, k = np.meshgrid(steps, steps, steps, steps, indexing="ij")
    rgb = np.stack([(1 - 0.9 * c) * (1 - 0.85 * k), (1 - 0.9 * m) * (1 - 0.85 * k), (1 - 0.9 * y) * (1 - 0.85 * k)], -1)
    rgb = (rgb.reshape(-1, 1, 3) * 255).round().astype(np.uint8)
    lab = np.asarray(ImageCms.applyTransform(Image.fromarray(rgb, "RGB"), srgb_to_lab)).reshape(-1, 3).astype(np.float64)
    # Pillow's LAB mode holds L as 0..255 and a, b as signed bytes; lcms2's v4 16-bit Lab is
    # L/100, (a+128)/255, (b+128)/255.
    signed = np.where(lab >= 128, lab - 256, lab)
    L, a, b = lab[:, 0] / 255 * 100, signed[:, 1], signed[:, 2]
    table = np.stack([L / 100, (a + 128) / 255, (b + 128) / 255], -1).clip(0, 1) * 65535
    values = (ctypes.c_uint16 * table.size)(*table.round().astype(np.uint16).ravel().tolist())
    # lutAtoBType stores A curves, CLUT, B curves: identity curves around the table.
    pipeline = lcms.cmsPipelineAlloc(None, 4, 3)
    lcms.cmsPipelineInsertStage(pipeline, 1, lcms.cmsStageAllocToneCurves(None, 4, None))
    lcms.cmsPipelineInsertStage(pipeline, 1, lcms.cmsStageAllocCLut16bit(None, grid, 4, 3, values))
    lcms.cmsPipelineInsertStage(pipeline, 1, lcms.cmsStageAllocToneCurves(None, 3, None))
    lcms.cmsWriteTag(handle, sig(tag), pipeline)
    lcms.cmsPipelineFree(pipeline)
    lcms.cmsWriteTag(handle, sig("wtpt"), lcms.cmsD50_XYZ())
    describe(handle, text)
    return save(handle)


def profiles():
    srgb_curve = lcms.cmsBuildParametricToneCurve(None, 4, (ctypes.c_double * 5)(2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045))
    gamma22, gamma18 = lcms.cmsBuildGamma(None, 2.2), lcms.cmsBuildGamma(None, 1.8)
    d65, d50 = (0.3127, 0.3290), (0.3457, 0.3585)
    gray = lcms.cmsCreateGrayProfile(lcms.cmsD50_xyY(), gamma18)
    lcms.cmsSetProfileVersion(gray, 2.1)
    describe(gray, "WebImage Gray gamma 1.8")
    return {
        "swapped-red-green-v4": rgb_profile(d65, [(0.30, 0.60), (0.64, 0.33), (0.15, 0.06)], srgb_curve, 4.3,
                                            "WebImage Swapped Red and Green"),
        "wide-gamut-v2": rgb_profile(d50, [(0.7347, 0.2653), (0.1152, 0.8264), (0.1566, 0.0177)], gamma22, 2.1,
                                     "WebImage Wide Gamut (gamma 2.2)"),
        "gray-gamma18": save(gray),
        "cmyk-lut": cmyk_profile("A2B0", "WebImage CMYK (perceptual CLUT)"),
        "cmyk-lut-colorimetric": cmyk_profile("A2B1", "WebImage CMYK (colorimetric CLUT only)"),
        "srgb": save(lcms.cmsCreate_sRGBProfile()),
    }


def cms(data):
    return ImageCms.ImageCmsProfile(io.BytesIO(data))


def into(image, profile):
    """`image` (sRGB, RGB or RGBA) converted into `profile`'s space, alpha kept."""
    converted = ImageCms.profileToProfile(image.convert("RGB"), ImageCms.createProfile("sRGB"), cms(profile),
                                          renderingIntent=ImageCms.Intent.PERCEPTUAL, outputMode="RGB")
    if image.mode == "RGBA":
        converted.putalpha(image.getchannel("A"))
    return converted


def reference(path, intent=ImageCms.Intent.PERCEPTUAL):
    """Frames of `path` converted to sRGB through their embedded profile, as RGBA arrays."""
    image = Image.open(path)
    profile = image.info["icc_profile"]
    frames = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        frame = image.convert("RGBA") if image.mode not in ("CMYK", "L", "RGB") else image
        mode = "CMYK" if frame.mode == "CMYK" else "L" if frame.mode == "L" else "RGB"
        out = ImageCms.profileToProfile(frame.convert(mode), cms(profile), ImageCms.createProfile("sRGB"),
                                        renderingIntent=intent, outputMode="RGB").convert("RGBA")
        if frame.mode == "RGBA":
            out.putalpha(frame.getchannel("A"))
        frames.append(np.asarray(out))
    return frames


def write_reference(name, intent=ImageCms.Intent.PERCEPTUAL, stem=None):
    frames = reference(os.path.join(ROOT, name), intent)
    stem = stem or name
    Image.fromarray(frames[0], "RGBA").save(os.path.join(ROOT, "ref", stem + ".png"))
    if len(frames) > 1:
        Image.fromarray(frames[-1], "RGBA").save(os.path.join(ROOT, "ref", stem + ".last.png"))


def split_app2(jpeg, parts=3, order=(3, 1, 2)):
    """`jpeg` with its one ICC_PROFILE APP2 marker cut into `parts` markers stored in `order`."""
    start = jpeg.index(b"\xff\xe2")
    length = int.from_bytes(jpeg[start + 2:start + 4], "big")
    profile = jpeg[start + 4 + 14:start + 2 + length]
    size = -(-len(profile) // parts)
    pieces = [profile[i * size:(i + 1) * size] for i in range(parts)]
    markers = {}
    for number, piece in enumerate(pieces, 1):
        body = b"ICC_PROFILE\0" + bytes([number, parts]) + piece
        markers[number] = b"\xff\xe2" + (len(body) + 2).to_bytes(2, "big") + body
    return jpeg[:start] + b"".join(markers[n] for n in order) + jpeg[start + 2 + length:]


def png_with_iccp(png, chunk_data):
    """`png` with its iCCP chunk's data replaced by `chunk_data`."""
    start = png.index(b"iCCP") - 4
    length = int.from_bytes(png[start:start + 4], "big")
    chunk = b"iCCP" + chunk_data
    new = len(chunk_data).to_bytes(4, "big") + chunk + zlib.crc32(chunk).to_bytes(4, "big")
    return png[:start] + new + png[start + 12 + length:]


def main():
    os.makedirs(os.path.join(ROOT, "profiles"), exist_ok=True)
    os.makedirs(os.path.join(ROOT, "ref"), exist_ok=True)
    made = profiles()
    for name, data in made.items():
        with open(os.path.join(ROOT, "profiles", name + ".icc"), "wb") as f:
            f.write(data)
    source = Image.open(SOURCE)
    srgb = ImageCms.profileToProfile(source.convert("RGB"), cms(source.info["icc_profile"]),
                                     ImageCms.createProfile("sRGB"), outputMode="RGB").resize(SIZE, Image.LANCZOS)
    yy, xx = np.mgrid[0:SIZE[1], 0:SIZE[0]]
    alpha = np.clip(255 - np.hypot(xx - SIZE[0] / 2, yy - SIZE[1] / 2) * 5, 0, 255).astype(np.uint8)
    rgba = srgb.copy()
    rgba.putalpha(Image.fromarray(alpha, "L"))
    path = lambda name: os.path.join(ROOT, name)

    swapped = made["swapped-red-green-v4"]
    into(rgba, swapped).save(path("swapped_rgba.png"), icc_profile=swapped)
    into(rgba, swapped).save(path("swapped_lossless.webp"), lossless=True, exact=True, icc_profile=swapped)
    frames = [into(rgba, swapped), into(rgba.transpose(Image.FLIP_LEFT_RIGHT), swapped)]
    frames[0].save(path("swapped_animated.png"), save_all=True, append_images=frames[1:], duration=100, loop=0,
                   icc_profile=swapped)
    frames[0].save(path("swapped_animated.webp"), save_all=True, append_images=frames[1:], duration=100, loop=0,
                   lossless=True, exact=True, icc_profile=swapped)
    into(srgb, swapped).save(path("swapped.jpg"), quality=90, icc_profile=swapped)
    into(srgb, made["wide-gamut-v2"]).save(path("wide_gamut.jpg"), quality=90, icc_profile=made["wide-gamut-v2"])
    with open(path("wide_gamut.jpg"), "rb") as f:
        split = split_app2(f.read())
    with open(path("wide_gamut_split.jpg"), "wb") as f:
        f.write(split)
    gray = ImageCms.profileToProfile(srgb, ImageCms.createProfile("sRGB"), cms(made["gray-gamma18"]), outputMode="L")
    gray.save(path("gray_gamma18.jpg"), quality=90, icc_profile=made["gray-gamma18"])
    cmyk = srgb.convert("CMYK")
    cmyk.save(path("cmyk_lut.jpg"), quality=90, icc_profile=made["cmyk-lut"])
    cmyk.save(path("cmyk_lut_colorimetric.jpg"), quality=90, icc_profile=made["cmyk-lut-colorimetric"])
    srgb.save(path("srgb.jpg"), quality=90, icc_profile=made["srgb"])
    tiny = io.BytesIO()
    into(rgba.resize((12, 9)), swapped).save(tiny, "PNG", icc_profile=swapped)
    png = tiny.getvalue()
    with open(path("broken_profile.png"), "wb") as f:
        f.write(png_with_iccp(png, b"ICC Profile\0\0" + zlib.compress(bytes(range(256)) * 2 + bytes(88))))
    with open(path("damaged_iccp.png"), "wb") as f:
        f.write(png_with_iccp(png, b"ICC Profile\0\0" + zlib.compress(swapped)[:200]))

    write_reference("swapped_animated.png", stem="swapped")
    for name in ["swapped.jpg", "wide_gamut.jpg", "gray_gamma18.jpg", "cmyk_lut.jpg"]:
        write_reference(name)
    write_reference("cmyk_lut_colorimetric.jpg", ImageCms.Intent.RELATIVE_COLORIMETRIC)
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(ROOT) for f in fs)
    print(f"wrote {ROOT}: {total} bytes")


if __name__ == "__main__":
    main()
