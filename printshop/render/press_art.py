"""Raster art for CMYK press files: converted by Pillow's ImageCms to the profile's CMYK (an ICC
profile shipped in printshop/icc/), transparency flattened over what lies beneath, total ink
limited.

A shop that forbids transparency (PDF/X-1a) refuses an image with an alpha channel, and a CMYK shop
refuses RGB images; the publisher should not have to convert art by hand, so the press files do it.

Flattening happens in CMYK, against the CMYK the vector paints give the colour beneath (the topmost
plain filled rectangle under the image that covers it, else the face's background, else paper
white): where the art is transparent its pixels are exactly that colour, so no box shows round an
icon. Art lying over anything else (a motif, a rectangle that covers it only in part) would hide
what is under its transparent parts; `validate` says so (`press-art`), as it does for art too small
for the shop's resolution at its placed size and for colours the shop's CMYK cannot print.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageCms, ImageMath

from printshop import memos
from printshop.project.models.faces import Face
from printshop.project.models.profile import Profile

ICC_DIR = Path(__file__).resolve().parents[1] / "icc"
DEFAULT_ICC = "fogra39l-300.icc"
WHITE = (0.0, 0.0, 0.0, 0.0)
CLIP_DELTA_E = 10.0  # a colour that moves further than this (CIE76) in CMYK is said to clip
CLIP_SHARE = 0.02  # and art with more than this share of such pixels is reported


def icc_file(name: str | None) -> Path:
    return ICC_DIR / (name or DEFAULT_ICC)


# every conversion to and from a shop's CMYK (art here, flat colours in render/press_colour.py):
# relative colorimetric, paper white to paper white, with black point compensation, so that the
# screen's black maps to the press's deepest black and the rest of the tones follow it
INTENT = ImageCms.Intent.RELATIVE_COLORIMETRIC


@memos.CMYK_PROFILES
def cmyk_profile(name: str | None):
    """The ICC profile `name` (printshop/icc/; None: the FOGRA39 one), read into memory."""
    # read into memory: opened from its path, littleCMS reads tags lazily through a file offset that
    # forked build workers share, and conversions fail at random
    return ImageCms.ImageCmsProfile(io.BytesIO(icc_file(name).read_bytes()))


@memos.TO_CMYK
def to_cmyk(name: str | None, source_icc: bytes | None, intent: ImageCms.Intent = INTENT):
    """The transform from RGB (`source_icc`'s, else sRGB) to the CMYK of profile `name`."""
    source = (
        ImageCms.ImageCmsProfile(io.BytesIO(source_icc))
        if source_icc
        else ImageCms.createProfile("sRGB")
    )
    return ImageCms.buildTransform(
        source,
        cmyk_profile(name),
        "RGB",
        "CMYK",
        renderingIntent=intent,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )


@memos.BACK_TO_RGB
def back_to_rgb(name: str | None, intent: ImageCms.Intent = INTENT):
    """CMYK back to sRGB with black point compensation both ways, so that the press's paper white
    and deepest black map back to the screen's: what differs after the round trip is what the press
    cannot print."""
    return ImageCms.buildTransform(
        cmyk_profile(name),
        ImageCms.createProfile("sRGB"),
        "CMYK",
        "RGB",
        renderingIntent=intent,
        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )


@memos.TO_LAB
def to_lab():
    """sRGB to CIE L*a*b* (D50)."""
    return ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"),
        ImageCms.createProfile("LAB"),
        "RGB",
        "LAB",
        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
    )


def limit_ink(image: Image.Image, limit: float | None) -> Image.Image:
    """Each pixel's cyan, magenta and yellow scaled down until C+M+Y+K fits `limit` percent (black
    kept; flat colours are limited by it too, render/press_colour.py); truncated, so never above
    the limit."""
    if limit is None or limit >= 400:
        return image
    total = limit * 255 / 100
    c, m, y, k = (band.convert("F") for band in image.split())

    def scaled(args):
        room = args["max"](args["total"] - args["k"], 0.0)
        return args["v"] * args["min"](
            room / args["max"](args["c"] + args["m"] + args["y"], 0.001), 1.0
        )

    bands = [
        ImageMath.lambda_eval(scaled, c=c, m=m, y=y, k=k, v=v, total=total).convert("L")
        for v in (c, m, y)
    ]
    return Image.merge("CMYK", (*bands, image.getchannel("K")))


def applied(image: Image.Image, transform: ImageCms.ImageCmsTransform) -> Image.Image:
    """ImageCms.applyTransform: a new image (its type allows None, which only a change in place
    gives)."""
    converted = ImageCms.applyTransform(image, transform)
    assert converted is not None
    return converted


def _rgba(image: Image.Image) -> tuple[Image.Image, Image.Image | None]:
    """The image as RGB and its alpha (None when fully opaque)."""
    rgba = image.convert("RGBA")
    alpha = rgba.getchannel("A")
    return rgba.convert("RGB"), (None if alpha.getextrema()[0] == 255 else alpha)


class PressArt:
    """The raster art of one press file, converted for one CMYK profile; each conversion made once."""

    def __init__(self, profile: Profile | None = None, *, icc=None, ink_limit=None):
        """For `profile`'s colours, or (without one) for `icc` within `ink_limit`."""
        self.icc = profile.colour.icc if profile is not None else icc
        self.ink_limit = profile.colour.ink_limit if profile is not None else ink_limit
        self._done: dict[tuple[str, tuple[float, ...]], Image.Image] = {}

    def convert(self, path: Path, beneath: tuple[float, float, float, float]) -> Image.Image:
        """`path`'s pixels in CMYK (or grey, which every shop takes as it is), opaque: transparent
        pixels take the `beneath` colour (C, M, Y, K from 0 to 1)."""
        key = (str(path), tuple(beneath))
        if key not in self._done:
            self._done[key] = self._convert(path, beneath)
        return self._done[key]

    def _convert(self, path: Path, beneath: tuple[float, float, float, float]) -> Image.Image:
        with Image.open(path) as source:
            source.load()
            icc = source.info.get("icc_profile") if source.mode not in ("CMYK", "L", "1") else None
            if source.mode in ("L", "1"):
                return source.convert("L")
            if source.mode == "CMYK":
                return limit_ink(source.copy(), self.ink_limit)
            rgb, alpha = _rgba(source)
        cmyk = limit_ink(applied(rgb, to_cmyk(self.icc, icc)), self.ink_limit)
        if alpha is None:
            return cmyk
        under = Image.new("CMYK", cmyk.size, tuple(round(v * 255) for v in beneath))
        return Image.composite(cmyk, under, alpha)


# --- what validate checks -------------------------------------------------------------------------
@dataclass(frozen=True)
class Beneath:
    fill: str | None  # a palette colour; None: paper white
    background: bool  # the face's background (painted with paints.background), not a shape's fill
    plain: bool  # False: something else (a motif, a partial rectangle) lies under part of the image


def beneath(face: Face, image_name: str) -> Beneath:
    """What the image `image_name` of `face` lies on: see the module's docstring."""
    shapes = sorted(face.shapes.items(), key=lambda item: item[1].layer)
    names = [name for name, _ in shapes]
    image = face.shapes[image_name]
    box = (image.x, image.y, image.x + image.width, image.y + image.height)
    plain = True
    for name, shape in reversed(shapes[: names.index(image_name)]):
        inner = _box(shape, inset=shape.radius if shape.kind == "rect" else 0.0)
        if shape.kind == "rect" and shape.fill and not shape.rotate and _contains(inner, box):
            return Beneath(shape.fill, False, plain)
        if shape.kind == "line" or not _overlaps(_box(shape), box):
            continue
        if shape.kind == "rect" and not shape.fill:
            continue  # an outline: it shows only where the image is transparent, at its edge
        plain = False
    return Beneath(face.background, face.background is not None, plain)


def _box(shape, inset: float = 0.0) -> tuple[float, float, float, float]:
    if shape.kind in ("circle", "rays"):
        return (
            shape.x - shape.radius,
            shape.y - shape.radius,
            shape.x + shape.radius,
            shape.y + shape.radius,
        )
    return (
        shape.x + inset,
        shape.y + inset,
        shape.x + shape.width - inset,
        shape.y + shape.height - inset,
    )


def _contains(outer, inner) -> bool:
    return (
        outer[0] <= inner[0] + 0.01
        and outer[1] <= inner[1] + 0.01
        and outer[2] >= inner[2] - 0.01
        and outer[3] >= inner[3] - 0.01
    )


def _overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@memos.CLIPPED_SHARES
def clipped_share(
    path: str, stamp: tuple[int, int], icc: str | None, ink_limit: float | None
) -> tuple[float, float]:
    """(share of the opaque pixels that move more than CLIP_DELTA_E, the largest move) when the art
    at `path` is converted to `icc` within `ink_limit`. `stamp` (mtime, size) keys the cache."""
    with Image.open(path) as source:
        source.load()
        if source.mode in ("L", "1", "CMYK"):
            return 0.0, 0.0  # grey prints as black ink; CMYK art was made for press
        source.thumbnail(
            (256, 256)
        )  # the share of clipped colours, not their places: a sample is enough
        icc_bytes = source.info.get("icc_profile")
        rgb, alpha = _rgba(source)
    cmyk = limit_ink(applied(rgb, to_cmyk(icc, icc_bytes)), ink_limit)
    printed = applied(applied(cmyk, back_to_rgb(icc)), to_lab())
    wanted = applied(rgb, to_lab())
    bands = [(a.convert("F"), b.convert("F")) for a, b in zip(wanted.split(), printed.split())]
    (l1, l2), (a1, a2), (b1, b2) = bands
    delta = ImageMath.lambda_eval(
        lambda args: (
            ((args["l1"] - args["l2"]) / 2.55) ** 2
            + (args["a1"] - args["a2"]) ** 2
            + (args["b1"] - args["b2"]) ** 2
        ),
        l1=l1,
        l2=l2,
        a1=a1,
        a2=a2,
        b1=b1,
        b2=b2,
    )
    opaque = ImageMath.lambda_eval(
        lambda args: args["min"](args["max"](args["a"] - 127, 0) * 255, 255),
        a=(alpha or Image.new("L", rgb.size, 255)).convert("F"),
    )
    counted = opaque.convert("L").histogram()[255]
    if not counted:
        return 0.0, 0.0
    # 255 where an opaque pixel moved further than CLIP_DELTA_E, else 0
    far = ImageMath.lambda_eval(
        lambda args: (
            args["min"](args["max"](args["d"] - CLIP_DELTA_E**2, 0) * 1e6, 255) * args["o"] / 255
        ),
        d=delta,
        o=opaque,
    ).convert("L")
    worst = ImageMath.lambda_eval(
        lambda args: args["d"] * args["o"] / 255, d=delta, o=opaque
    ).getextrema()[1]
    return far.histogram()[255] / counted, worst**0.5
