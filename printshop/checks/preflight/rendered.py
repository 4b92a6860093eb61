"""The shop rules read from a page as it prints, rendered (pypdfium2, 72 dpi), or from a face image:
a blank card face (everything inside the trim one flat colour) and art that stops at the trim (inked
just inside the trim, blank paper in the bleed beside it). Each is a warning or an error as the
profile's `rules` say (docs/shops.md)."""

from __future__ import annotations

from pathlib import Path

from printshop.checks.preflight.problem import Problem
from printshop.project.models.profile import Profile

DPI = 72  # a bleed of 1/8 in is 9 pixels, 3 mm 8.5: enough to see paper in it
_MOST_PIXELS = 16_000_000  # a larger page (a 1.4 m board) is rendered coarser
_FLAT = 6  # levels (of 255) a blank face's pixels may spread over, in each channel
_PAPER = 250  # every channel at least this: blank paper
_INKED = 230  # some channel below this: ink
_GAP_SHARE = 0.05  # a side is refused when this share of its length is inked inside, paper outside
_SIDES = ("left", "bottom", "right", "top")


def page_boxes(page) -> tuple[list[float], list[float]] | None:
    """(trim, bleed) of a pikepdf page as [x0, y0, x1, y1], or None without a trim."""
    trim_box = page.obj.get("/TrimBox", page.obj.get("/ArtBox"))
    if trim_box is None:
        return None
    bleed_box = page.obj.get("/BleedBox", page.cropbox)
    return _rect(trim_box), _rect(bleed_box)


def _rect(box) -> list[float]:
    x0, y0, x1, y1 = (float(v) for v in box)
    return [min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)]


def rendered_pages(path: Path, wanted):
    """(number, pixels, to_pixel) of each page numbered in `wanted`,
    rendered at 72 dpi on white; `to_pixel(x, y)` maps PDF points to (column, row)."""
    import pypdfium2

    document = pypdfium2.PdfDocument(str(path))
    try:
        for number in sorted(wanted):
            page = document[number - 1]
            left, bottom, right, top = page.get_cropbox()
            area = max(1.0, (right - left) * (bottom - top if top < bottom else top - bottom))
            scale = min(DPI / 72, (_MOST_PIXELS / area) ** 0.5)
            pixels = page.render(scale=scale, fill_color=(255, 255, 255, 255)).to_numpy()
            page.close()

            def to_pixel(x: float, y: float, left=left, top=top, scale=scale):
                return (x - left) * scale, (top - y) * scale

            yield number, pixels[:, :, :3], to_pixel
    finally:
        document.close()


def face_problems(number: int, pixels, trim_px, bleed_px, profile: Profile, card: bool):
    """The rules of one face: `pixels` an RGB array, `trim_px` and `bleed_px` the boxes in pixels
    as (column0, row0, column1, row1)."""
    rules, found = profile.rules, []
    if card and rules.blank_faces.check and _blank(pixels, trim_px):
        found.append(
            Problem(
                number,
                "a blank face: everything inside the trim is one flat colour (its art missing?)",
                rules.blank_faces.severity == "warning",
                "preflight-blank-face",
            )
        )
    if rules.bleed_art.check:
        sides = _short_sides(pixels, trim_px, bleed_px)
        if sides:
            found.append(
                Problem(
                    number,
                    f"the art stops at the trim on the {', '.join(sides)} side(s): inked inside "
                    f"the trim, blank paper in the bleed beside it ({profile.label} cuts within "
                    "the bleed, so a white edge may show); extend the art to the bleed",
                    rules.bleed_art.severity == "warning",
                    "preflight-bleed-art",
                )
            )
    return found


def pdf_rendered_problems(path: Path, pdf, profile: Profile, cards: bool) -> list[Problem]:
    """The rendered rules of every unrotated page of a PDF with a trim (blank faces: card files)."""
    rules = profile.rules
    if not (rules.bleed_art.check or (cards and rules.blank_faces.check)):
        return []
    wanted = {}
    for number, page in enumerate(pdf.pages, start=1):
        boxes = page_boxes(page)
        if boxes is not None and int(page.obj.get("/Rotate", 0)) % 360 == 0:
            wanted[number] = boxes
    import pypdfium2

    found = []
    try:
        for number, pixels, to_pixel in rendered_pages(path, wanted):
            trim, bleed = wanted[number]
            trim_px = (*to_pixel(trim[0], trim[3]), *to_pixel(trim[2], trim[1]))
            bleed_px = (*to_pixel(bleed[0], bleed[3]), *to_pixel(bleed[2], bleed[1]))
            found.extend(face_problems(number, pixels, trim_px, bleed_px, profile, cards))
    except pypdfium2.PdfiumError as error:
        found.append(
            Problem(
                0,
                f"the pages cannot be rendered ({error}): blank faces and art short of the bleed "
                "are not checked",
                True,
            )
        )
    return found


def image_rendered_problems(pixels, profile: Profile, dpi: float) -> list[Problem]:
    """The rendered rules of a face image (RGB pixels) with the profile's bleed at the resolution
    it states (or, without one, the profile's `min_dpi`)."""
    dpi = dpi or profile.min_dpi
    step = max(1, int(dpi // DPI))  # read at about 72 dpi, as pages are
    pixels = pixels[::step, ::step]
    height, width = pixels.shape[:2]
    bleed = profile.bleed / 72 * dpi / step
    trim_px = (bleed, bleed, width - bleed, height - bleed)
    return face_problems(0, pixels, trim_px, (0, 0, width, height), profile, True)


def _blank(pixels, trim_px) -> bool:
    c0, r0, c1, r1 = (int(round(v)) for v in trim_px)
    inside = pixels[r0 + 1 : r1 - 1, c0 + 1 : c1 - 1].reshape(-1, 3)
    if not len(inside):
        return False
    spread = inside.max(axis=0).astype(int) - inside.min(axis=0)
    return bool(spread.max() <= _FLAT)


def _short_sides(pixels, trim_px, bleed_px) -> list[str]:
    """The sides where the art stops at the trim: the pixels 2 inside the trim inked where those 1
    inside the bleed's edge are blank paper, on more than 5 % of the side (corners left out)."""
    t0, s0, t1, s1 = trim_px  # columns and rows of the trim
    b0, u0, b1, u1 = bleed_px
    height, width = pixels.shape[:2]
    bands = (t0 - b0, u1 - s1, b1 - t1, s0 - u0)  # left, bottom, right, top, in pixels
    short = []
    for side, band in zip(_SIDES, bands):
        if band < 2.5:  # no bleed to speak of: the box check says so
            continue
        rows = slice(max(0, int(s0 + band)), min(height, int(s1 - band)))
        columns = slice(max(0, int(t0 + band)), min(width, int(t1 - band)))
        column, row = (
            (lambda v: min(width - 1, max(0, int(v)))),
            (lambda v: min(height - 1, max(0, int(v)))),
        )
        if side == "left":
            inner, outer = pixels[rows, column(t0 + 2)], pixels[rows, column(b0 + 1)]
        elif side == "right":
            inner, outer = pixels[rows, column(t1 - 3)], pixels[rows, column(b1 - 2)]
        elif side == "top":
            inner, outer = pixels[row(s0 + 2), columns], pixels[row(u0 + 1), columns]
        else:
            inner, outer = pixels[row(s1 - 3), columns], pixels[row(u1 - 2), columns]
        if not len(inner):
            continue
        gap = (inner.min(axis=1) < _INKED) & (outer.min(axis=1) >= _PAPER)
        if gap.mean() > _GAP_SHARE:
            short.append(side)
    return short
