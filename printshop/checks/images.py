"""Art files: an image a face names is inside the project, readable whole, within the pixel limit
and fine enough for a home print. Each file is read once per build (and again when it changes).
An SVG file is read as render/images.py draws it (svglib); a .png or .jpg file must be one.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from printshop import memos
from printshop.diagnostics import Report
from printshop.memo import file_stamp
from printshop.project.loader import GameData

# The most pixels an image may have: a 600 × 540 mm board at 300 dpi has 45 million. Larger images
# are refused from their header, before anything is decoded (a 20,000 × 20,000 PNG would need 1.6
# GB).
MAX_IMAGE_PIXELS = 60_000_000


def image_path(game: GameData, src: str | None) -> Path | None:
    """The file an image shape names, if check_image accepts it: inside the project's data folder
    (symlinks followed), within the pixel limit and decoding whole; None otherwise (and then
    check_image has said why). Every reader of art goes through here."""
    if not src:
        return None
    path = game.dir / src
    verdict = _inspect_image(str(path), str(game.dir.parent), file_stamp(path))
    return Path(verdict[0]) if verdict[1] is None else None


# what a file's name says it holds, as Pillow names the format it finds
FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}


def inspect_file(path: Path, root: Path) -> tuple[str, tuple[str, str] | None, tuple[float, float]]:
    """(resolved path, None or (code, problem), its size: pixels, or an SVG's points) of the image
    file at `path`, which must lie inside `root`: read as the art of faces is, once per change."""
    return _inspect_image(str(path), str(root), file_stamp(path))


@memos.IMAGES_INSPECTED
def _inspect_image(
    path: str, data_dir: str, stamp: tuple[int, ...]
) -> tuple[str, tuple[str, str] | None, tuple[float, float]]:
    """(resolved path, None or (code, problem), pixels): the image read once per build, header
    first."""
    import warnings

    from PIL import Image, UnidentifiedImageError

    from printshop.write.commit import inside

    resolved = os.path.realpath(path)
    if not inside(Path(path), Path(data_dir)):
        return (
            resolved,
            (
                "unsafe-path",
                f"resolves to {resolved}, outside the data folder {data_dir}: art is read "
                "only from inside the project",
            ),
            (0, 0),
        )
    try:
        exists = Path(resolved).is_file()
    except OSError:
        exists = False
    if not exists:
        return resolved, ("file-missing", "not found"), (0, 0)
    if resolved.lower().endswith(".svg"):
        from printshop.render.images import read_svg

        drawing = read_svg(resolved)
        if isinstance(drawing, str):
            return resolved, ("wrong-type", f"is not an SVG printshop can draw: {drawing}"), (0, 0)
        return resolved, None, (drawing.width, drawing.height)
    expected = FORMATS.get(os.path.splitext(resolved)[1].lower())
    limit, Image.MAX_IMAGE_PIXELS = (
        Image.MAX_IMAGE_PIXELS,
        None,
    )  # our own limit, from the header, says it below
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(resolved) as image:
                pixels = image.size
                if pixels[0] * pixels[1] > MAX_IMAGE_PIXELS:
                    return (
                        resolved,
                        (
                            "too-large",
                            f"has {pixels[0]} × {pixels[1]} pixels "
                            f"({pixels[0] * pixels[1] / 1e6:.0f} million); printshop reads at "
                            f"most {MAX_IMAGE_PIXELS // 1_000_000} million",
                        ),
                        pixels,
                    )
                if expected is not None and image.format != expected:
                    return (
                        resolved,
                        (
                            "wrong-type",
                            f"is a {image.format} file, not the {expected} its name says: "
                            "convert it, or give it the name of what it is",
                        ),
                        pixels,
                    )
                # decoded whole now, so a truncated file fails here and not in the middle of a build
                image.load()
    except Image.DecompressionBombError as error:
        return resolved, ("too-large", str(error)), (0, 0)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as error:
        return resolved, ("wrong-type", f"is not an image Pillow can read whole: {error}"), (0, 0)
    finally:
        Image.MAX_IMAGE_PIXELS = limit
    return resolved, None, pixels


def check_image(game: GameData, shape, min_dpi: float, report: Report) -> None:
    if not shape.src:
        report.add(
            "file-missing", shape.where("src"), f"an image shape needs a src (a file in {game.dir})"
        )
        return
    path = game.dir / shape.src
    _, problem, pixels = _inspect_image(str(path), str(game.dir.parent), file_stamp(path))
    if problem is not None:
        code, message = problem
        report.add(
            code,
            shape.where("src"),
            f"image '{shape.src}' {message}"
            if code != "file-missing"
            else f"image '{shape.src}' not found in {game.dir}",
        )
        return
    if shape.width <= 0 or shape.height <= 0:
        report.add("wrong-type", shape.where(), "an image needs a width and a height")
        return
    if shape.src.lower().endswith(".svg"):
        return  # vectors: fine at any size
    dpi = (pixels[0] / (shape.width / 72), pixels[1] / (shape.height / 72))
    if min(dpi) < min_dpi - 0.5:
        wanted = (math.ceil(min_dpi * shape.width / 72), math.ceil(min_dpi * shape.height / 72))
        report.add(
            "image-resolution",
            shape.where("src"),
            f"image '{shape.src}' ({pixels[0]} × {pixels[1]} px) prints at {dpi[0]:.0f} × {dpi[1]:.0f} dpi "
            f"(a home print needs {min_dpi:.0f}: print_and_play.min_dpi)",
            hint=f"supply the image with at least {wanted[0]} × {wanted[1]} px, or place it smaller; print "
            "shops need more, about twice that (each profile's min_dpi)",
        )
