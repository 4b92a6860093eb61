"""Face images (PNG, JPEG): pixel size, resolution metadata and the physical size it gives against
the shop's cards with bleed, colour mode, alpha, and total ink of CMYK JPEGs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from printshop.checks.preflight.problem import Problem
from printshop.checks.preflight.rendered import image_rendered_problems
from printshop.project.models.profile import Profile
from printshop.project.units import to_mm


# --- face images: PNG and JPEG
# -----------------------------------------------------------------------
@dataclass(frozen=True)
class _Picture:
    """What the checks read of an image file, read whole once."""

    mode: str
    width: int
    height: int
    info: dict
    kind: str | None  # PIL's format: "PNG", "JPEG"
    worst: float | None  # total ink at the worst pixel of a CMYK image, when the profile limits it
    pixels: object = None  # RGB on white (numpy), for the rendered rules


def image_file_problems(path: Path, profile: Profile | None, trims) -> list[Problem]:
    from PIL import UnidentifiedImageError

    try:
        picture = _read_picture(path, profile)
    except (OSError, UnidentifiedImageError, ValueError) as error:
        return [Problem(0, f"not a readable image: {error}")]
    problems = []
    dpi = picture.info.get("dpi")
    stated = min(float(v) for v in dpi) if dpi else 0.0
    if stated <= 1:
        where = "pHYs chunk" if picture.kind == "PNG" else "JFIF density"
        problems.append(
            Problem(
                0,
                f"no resolution in the file (no {where}): shops and image tools read it as 72 dpi",
            )
        )
    if profile is None:
        return problems
    return (
        problems
        + _size_problems(picture, stated, profile, trims)
        + _colour_problems(picture, profile)
        + image_rendered_problems(picture.pixels, profile, stated if stated > 1 else 0)
    )


def _read_picture(path: Path, profile: Profile | None) -> _Picture:
    from PIL import Image

    with Image.open(path) as picture:
        picture.load()
        mode, (width, height), info = picture.mode, picture.size, dict(picture.info)
        kind = picture.format
        worst = None
        if mode == "CMYK" and profile is not None and profile.colour.ink_limit is not None:
            import numpy

            worst = float(numpy.asarray(picture, dtype=numpy.float64).sum(axis=2).max()) / 255 * 100
        pixels = None
        if profile is not None:
            import numpy

            white = Image.new("RGBA", picture.size, (255, 255, 255, 255))
            pixels = numpy.asarray(Image.alpha_composite(white, picture.convert("RGBA")))[:, :, :3]
    return _Picture(mode, width, height, info, kind, worst, pixels)


def _size_problems(picture: _Picture, stated: float, profile: Profile, trims) -> list[Problem]:
    """The resolution the file states, its pixels, and the size they give against the shop's cards."""
    problems = []
    width, height = picture.width, picture.height
    if stated > 1 and stated + 0.5 < profile.min_dpi:
        problems.append(
            Problem(
                0, f"the file says {stated:.0f} dpi; {profile.label} needs {profile.min_dpi:.0f}"
            )
        )
    if profile.pixels is not None and (width, height) != (
        profile.pixels.width,
        profile.pixels.height,
    ):
        problems.append(
            Problem(
                0,
                f"{width} × {height} px; {profile.label} wants {profile.pixels.width} × "
                f"{profile.pixels.height} px",
            )
        )
    if stated > 1 and trims:
        size = (width / stated * 72, height / stated * 72)
        wanted = [(w + 2 * profile.bleed, h + 2 * profile.bleed) for w, h in trims]
        if not any(abs(size[0] - w) < 1.5 and abs(size[1] - h) < 1.5 for w, h in wanted):
            shown = ", ".join(f"{to_mm(w):.1f} × {to_mm(h):.1f}" for w, h in wanted)
            problems.append(
                Problem(
                    0,
                    f"at the {stated:.0f} dpi it states the image is {to_mm(size[0]):.1f} × "
                    f"{to_mm(size[1]):.1f} mm; the shop's cards with bleed are {shown} mm",
                )
            )
    return problems


def _colour_problems(picture: _Picture, profile: Profile) -> list[Problem]:
    """Its colour mode against the profile's colour space, an alpha channel, and its ink at the
    worst pixel."""
    problems = []
    mode, kind, worst, limit = picture.mode, picture.kind, picture.worst, profile.colour.ink_limit
    base = mode[:-1] if mode in ("RGBA", "LA", "PA") else mode
    if profile.colour.space == "cmyk" and base != "CMYK":
        problems.append(
            Problem(
                0,
                f"colour mode {mode}: {profile.label} wants CMYK"
                + (" (a PNG cannot hold CMYK: send a CMYK JPEG or a PDF)" if kind == "PNG" else ""),
            )
        )
    elif profile.colour.space == "rgb" and base not in ("RGB", "L", "P", "1"):
        problems.append(Problem(0, f"colour mode {mode}: {profile.label} wants RGB"))
    if (mode in ("RGBA", "LA", "PA") or "transparency" in picture.info) and not profile.image_alpha:
        problems.append(
            Problem(
                0,
                f"an alpha channel (mode {mode}): transparent pixels print unpredictably; "
                f"{profile.label} wants opaque faces",
            )
        )
    if worst is not None and limit is not None and worst > limit + 0.5:
        problems.append(
            Problem(
                0,
                f"{worst:.0f} % total ink at the worst pixel (the limit is {limit:.0f} %)",
            )
        )
    return problems
