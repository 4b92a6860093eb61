"""The image files a template's `<img>` and `<figure>` blocks name (typeset/images.py), read at
layout: each must lie inside the game's folder and be the PNG, JPEG or SVG its name says (SVG as
svglib draws it); each fault is said at the template's line, and nothing is drawn. Raster images
must be fine enough where they are placed: a home print's `min_dpi` (image-resolution) and each
shop's (press-art), at the width the image takes in its frame or booklet page. A CMYK shop's files
flatten a frame's picture over paper white (render/images.py): one with transparent parts is said
(press-art); a booklet's pages are white, so there it prints as it shows.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from printshop.checks.images import inspect_file
from printshop.diagnostics import Location, Report
from printshop.layout.problems import report_once
from printshop.memo import file_stamp
from printshop.typeset.images import placed_size
from printshop.typeset.richtext import Block, Figure, ImageFile, Img

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
SOURCES = re.compile(r"""<img\b[^>]*?\bsrc\s*=\s*["']([^"']*)["']""")


def image_stamps(markup: str, game_dir: Path) -> tuple:
    """What tells apart the files the `<img>`s of `markup` name as they are now (each one's path,
    modification time and size): a part of what a laid-out text is remembered by. (A copied
    project's files keep their times: the path tells its texts from the original's.)"""
    if "<img" not in markup:
        return ()
    return tuple(
        (str(game_dir / src), file_stamp(game_dir / src)) for src in SOURCES.findall(markup)
    )


def has_images(blocks: list[Block]) -> bool:
    return any(isinstance(block, (Img, Figure)) for block in blocks)


def read_images(
    blocks: list[Block],
    game_dir: Path,
    where: Callable[[str], Location],
    what: str,
    report: Report,
) -> list[Block] | None:
    """`blocks` with each image's file read (`Img.file`) and its place in the template noted; None
    when one cannot be drawn (said at `where(needle)`, the template's place of `needle`)."""
    read: list[Block] = []
    for block in blocks:
        if isinstance(block, Img):
            img = _read(block, game_dir, where, what, report)
            if img is None:
                return None
            read.append(img)
        elif isinstance(block, Figure):
            img = _read(block.img, game_dir, where, what, report)
            if img is None:
                return None
            read.append(replace(block, img=img))
        else:
            read.append(block)
    return read


def _read(
    img: Img, game_dir: Path, where: Callable[[str], Location], what: str, report: Report
) -> Img | None:
    needle = f'src="{img.src}"'
    place = where(needle)
    named = f'<img src="{img.src}">'
    if not img.src.lower().endswith(IMAGE_SUFFIXES):
        report_once(
            report,
            "wrong-type",
            place,
            f"{named}: an <img> draws a PNG, JPEG or SVG file ({what})",
            hint="save the picture as .png, .jpg or .svg in the game's folder",
            cause=f"{named}: an <img> draws a PNG, JPEG or SVG file",
        )
        return None
    resolved, problem, size = inspect_file(game_dir / img.src, game_dir)
    if problem is not None:
        code, message = problem
        if code == "file-missing":
            message = f"not found in {game_dir}"
            hint = "put the file in the game's folder (images/…), or correct the path"
        elif code == "unsafe-path":
            message = f"leaves the game's folder ({resolved}): images are read from {game_dir} only"
            hint = "copy the picture into the game's folder and name it from there (images/…)"
        else:
            hint = (
                "save the picture again from a drawing or image program, as the type its name says"
            )
        report_once(
            report, code, place, f"{named}: {message} ({what})", hint=hint, cause=f"{named} {code}"
        )
        return None
    kind = "svg" if resolved.lower().endswith(".svg") else "raster"
    file = ImageFile(resolved, kind, size, file_stamp(resolved))
    return replace(img, file=file, where=place)


def images_of(blocks: list[Block]) -> list[Img]:
    """The images among `blocks` (a figure's too)."""
    return [
        block.img if isinstance(block, Figure) else block
        for block in blocks
        if isinstance(block, (Img, Figure))
    ]


def check_resolution(
    img: Img, available: float, home_dpi: float, shops: list[tuple[str, float]], report: Report
) -> None:
    """A raster image placed in `available` width prints at `home_dpi` or more (image-resolution,
    an error) and at each shop's `min_dpi` (press-art, a warning): (label, min_dpi) in `shops`."""
    if img.file is None or img.file.kind != "raster" or not isinstance(img.where, Location):
        return
    width, height = placed_size(img, available)
    pixels = img.file.size
    dpi = min(pixels[0] / (width / 72), pixels[1] / (height / 72))
    named = f"image '{img.src}' ({pixels[0]:.0f} × {pixels[1]:.0f} px)"
    placed = f"placed {width * 25.4 / 72:.0f} × {height * 25.4 / 72:.0f} mm"

    def wanted(dpi_needed: float) -> str:
        return f"{math.ceil(dpi_needed * width / 72)} × {math.ceil(dpi_needed * height / 72)} px"

    if dpi < home_dpi - 0.5:
        report_once(
            report,
            "image-resolution",
            img.where,
            f"{named} prints at {dpi:.0f} dpi {placed} (a home print needs {home_dpi:.0f}: "
            "print_and_play.min_dpi)",
            hint=f"supply the image with at least {wanted(home_dpi)}, or give its <img> a "
            "smaller width",
        )
        return
    for label, shop_dpi in shops:
        if dpi < shop_dpi - 0.5:
            report_once(
                report,
                "press-art",
                img.where,
                f"{named} prints at {dpi:.0f} dpi {placed} in {label}'s files; the shop needs "
                f"{shop_dpi:.0f}",
                hint=f"supply the image with at least {wanted(shop_dpi)}",
            )


def shops_dpi(project) -> list[tuple[str, float]]:
    """(label, min_dpi) of each print-shop profile, in the order of their ids."""
    return [
        (profile.label or profile_id, profile.min_dpi)
        for profile_id, profile in sorted(project.profiles.items())
    ]


def read_booklet_images(
    blocks: list[Block], project, game_dir: Path, template: Location, report: Report
) -> list[Block] | None:
    """The booklet's blocks with their images read (`read_images`), each fine enough at the width
    it takes on the page and no taller than a page holds; None when one cannot be drawn."""
    from printshop.layout.problems import found_in_template
    from printshop.project.units import to_mm

    read = read_images(
        blocks,
        game_dir,
        lambda needle: found_in_template(template, needle),
        "rules booklet",
        report,
    )
    paper = project.media.papers.get(project.booklet.paper)
    if read is None or paper is None:
        return read  # (an unknown paper is reported by the validator)
    margins = project.booklet.margins
    width = paper.width - margins.inner - margins.outer
    height = paper.height - margins.top - margins.bottom
    shops = shops_dpi(project)
    for img in images_of(read):
        check_resolution(img, width, project.media.print_and_play.min_dpi, shops, report)
        if placed_size(img, width)[1] > height + 0.01 and isinstance(img.where, Location):
            report_once(
                report,
                "text-overflow",
                img.where,
                f'<img src="{img.src}"> is taller than any page can hold: a booklet page holds '
                f"{to_mm(height):.0f} mm inside its margins (rules booklet)",
                hint="give the image a smaller width or height",
            )
            return None
    return read


def frames_images(layout, project, report: Report) -> None:
    """Each raster image of the game's card and sheet frames, fine enough at the width it takes in
    its frame (`check_resolution`), said once per image and place."""
    shops = shops_dpi(project)
    home = project.media.print_and_play.min_dpi
    cmyk = [
        profile.label or profile_id
        for profile_id, profile in sorted(project.profiles.items())
        if profile.colour.space == "cmyk"
    ]
    faces = [face for deck in layout.decks for face in deck.faces.values()]
    faces += [face for sheet in layout.sheets for face in (*sheet.faces, *sheet.backs)]
    for face in faces:
        for laid in face.frames:
            for img in images_of(laid.blocks):
                check_resolution(img, laid.frame.width, home, shops, report)
                if cmyk and _transparent(img) and isinstance(img.where, Location):
                    report_once(
                        report,
                        "press-art",
                        img.where,
                        f"image '{img.src}' has transparent parts; in {', '.join(cmyk)}'s CMYK "
                        "files a frame's picture is flattened over paper white",
                        hint="make the picture opaque, with the colour it stands on, or draw it "
                        "as an SVG",
                    )


def _transparent(img: Img) -> bool:
    """Whether a raster image's file has an alpha channel or a transparent colour."""
    if img.file is None or img.file.kind != "raster":
        return False
    from PIL import Image

    try:
        with Image.open(img.file.path) as picture:
            return picture.mode in ("RGBA", "LA", "PA") or "transparency" in picture.info
    except (OSError, ValueError):
        return False  # (read whole at layout: not met)
