"""A page's boxes as PDF/X states them: a TrimBox (or an ArtBox), trim inside bleed inside media,
the profile's bleed on every side; which files are card files, and a card page's trim one of the
shop's products, unrotated."""

from __future__ import annotations

import pikepdf

from printshop.checks.preflight.graphics import inherited
from printshop.project.models.profile import Profile
from printshop.project.units import to_mm


# --- boxes
# -----------------------------------------------------------------------------------------
def _rect(box) -> list[float]:
    x0, y0, x1, y1 = (float(v) for v in box)
    return [min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)]


def _inside(inner, outer, slack=0.05) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def box_problems(page: pikepdf.Page, profile: Profile) -> list[tuple[str, bool]]:
    """(message, warning) pairs. PDF/X: a TrimBox (or an ArtBox) on every page; the BleedBox
    defaults to the CropBox, which defaults to the MediaBox; trim within bleed within media."""
    obj = page.obj
    media = _rect(page.mediabox)
    crop = _rect(page.cropbox)  # pikepdf: the MediaBox when absent
    trim_box, art_box, bleed_box = obj.get("/TrimBox"), obj.get("/ArtBox"), obj.get("/BleedBox")
    problems = []
    if trim_box is None and art_box is None:
        return [
            (
                "no TrimBox and BleedBox: nothing tells the shop where to cut (PDF/X needs a TrimBox or an ArtBox)",
                False,
            )
        ]
    if trim_box is not None and art_box is not None and profile.pdfx is not None:
        problems.append(
            (f"both a TrimBox and an ArtBox: {profile.pdfx.version} wants one of them", False)
        )
    if trim_box is None:
        problems.append(
            (
                "no TrimBox: the ArtBox stands for the trim (PDF/X allows it, but shops cut on the TrimBox)",
                True,
            )
        )
    trim = _rect(trim_box if trim_box is not None else art_box)
    bleed = _rect(bleed_box) if bleed_box is not None else crop
    if not _inside(bleed, media):
        problems.append(("the BleedBox reaches outside the MediaBox", False))
    if not _inside(trim, bleed):
        problems.append(
            (
                "the TrimBox reaches outside the BleedBox (or the CropBox or MediaBox it defaults to)",
                False,
            )
        )
        return problems
    sides = (trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
    if any(abs(side - profile.bleed) > 0.05 for side in sides):
        problems.append(
            (
                f"bleed is {', '.join(f'{to_mm(s):.2f}' for s in sides)} mm; "
                f"{profile.label} needs {to_mm(profile.bleed):.2f} mm on every side",
                False,
            )
        )
    if any(abs(m - b) > 0.05 for m, b in zip(media, bleed)):
        problems.append(
            ("the page is larger than its BleedBox: nothing may lie outside the bleed", False)
        )
    return problems


# a page is a card's when its trim is no more than this beyond the shop's largest product on each
# side: an A6 or A5 booklet page or a board is larger; a card at a wrong size (64 × 89 mm for 63 × 88)
# is not
CARD_SLACK = 20 * 72 / 25.4


def trim_size(page: pikepdf.Page) -> tuple[float, float] | None:
    box = page.obj.get("/TrimBox", page.obj.get("/ArtBox"))
    if box is None:
        return None
    t = _rect(box)
    return t[2] - t[0], t[3] - t[1]


def is_card_file(pdf: pikepdf.Pdf, trims: list[tuple[float, float]], keywords: str) -> bool:
    """A file of cards, whoever made it: printshop's Keywords say so, or (unless they say it is
    something else) every page's trim, turned either way, is within CARD_SLACK of the size of the
    shop's largest product."""
    if keywords == "printshop:cards":
        return True
    if keywords.startswith("printshop:") or not trims or not len(pdf.pages):
        return False
    short = max(min(w, h) for w, h in trims) + CARD_SLACK
    long = max(max(w, h) for w, h in trims) + CARD_SLACK
    for page in pdf.pages:
        size = trim_size(page)
        if size is None:
            x0, y0, x1, y1 = _rect(page.mediabox)
            size = (x1 - x0, y1 - y0)
        if min(size) > short or max(size) > long:
            return False
    return True


def rotate_problems(page: pikepdf.Page) -> list[tuple[str, bool]]:
    """(message, warning) for a card page turned by /Rotate: a quarter turn stands the card on its
    side (an error); a half turn prints it upside down against its other side (a warning: what
    Ghostscript's pdfwrite does to a page of mostly upside-down text unless told
    -dAutoRotatePages=/None)."""
    rotate = int(inherited(page.obj, "/Rotate") or 0) % 360
    if rotate in (90, 270):
        return [
            (
                f"the page is rotated {rotate}° (/Rotate): the card stands on its side; "
                "turn the art, not the page",
                False,
            )
        ]
    if rotate:
        return [
            (
                f"the page is rotated {rotate}° (/Rotate): the card prints upside down against "
                "its other side",
                True,
            )
        ]
    return []


def trim_problems(page: pikepdf.Page, trims: list[tuple[float, float]]) -> list[str]:
    size = trim_size(page)
    if size is None:
        return []
    width, height = size
    if any(abs(width - w) < 0.5 and abs(height - h) < 0.5 for w, h in trims):
        return []
    sizes = ", ".join(f"{to_mm(w):.1f} × {to_mm(h):.1f}" for w, h in trims)
    return [f"trim is {to_mm(width):.1f} × {to_mm(height):.1f} mm; the shop makes {sizes} mm"]
