"""Preflight: read a press file back and check what a print shop will check, before it costs money.
It reads any PDF (not only the ones printshop writes) and PNG or JPEG card faces.

PDF, per page: the boxes as PDF/X states them (a TrimBox, or an ArtBox with a warning; the BleedBox
defaults to the CropBox, which defaults to the MediaBox; trim inside bleed inside media), the
profile's bleed on every side, the trim one of the shop's products and no /Rotate (card files:
printshop's Keywords say so, or every page's trim is within 20 mm of the shop's largest product's
size), and every way the
page sets colour and ink, followed through the graphics state into forms and patterns: colour
operators and spaces (Device*, ICCBased by its component count, Indexed,
Separation and DeviceN with their alternates, Lab and the Cal spaces), shadings, images and inline
images (colour space, bits, total ink at the worst pixel, resolution where placed), text render
modes, overprint (the ink in effect), blend modes, soft masks, opacity and transparency groups,
halftones, LZW and JBIG2 images and PostScript XObjects under PDF/X.
Per file: encryption, no font left unembedded, and for PDF/X profiles the trailer's /ID, the
output intent's keys (an embedded ICC profile for PDF/X-4), XMP metadata (PDF/X-4), the document
information keys and the PDF version; annotations inside the BleedBox, form fields, JavaScript and
actions, optional content (forbidden in PDF/X-1a); card files in the profile's page order (read
from page labels: "back 1", "front 1", ...; a warning when there are none), every card complete;
booklets a multiple of four pages. docs/preflight.md is the table of requirements and their tests.
Not read: annotations' appearance streams, Type 3 glyph procedures, and what a soft mask draws
(soft masks are refused as such where the shop forbids transparency).

Images (PNG, JPEG): pixel size (an image profile's exact size), resolution metadata, the physical
size it gives against the shop's cards with bleed, colour mode, alpha, and total ink of CMYK JPEGs.

Rules follow the profile: `colour.space` (RGB refused in CMYK files), `colour.ink_limit`,
`transparency`, `pdfx` (device-independent colour, 16-bit and JPEG 2000 images, transfer functions
and structure keys), `min_dpi`, `pixels` and `image_alpha`; and the shop-dependent `rules`, each a
warning or an error as the profile says: spot colours, thin lines and small text in several inks
(`shop_rules.py`, read as the content is walked), blank faces and art short of the bleed
(`rendered.py`, on the page rendered or the face image).
"""

from __future__ import annotations

from pathlib import Path

import pikepdf

from printshop.checks.preflight.boxes import (
    box_problems,
    is_card_file,
    rotate_problems,
    trim_problems,
)
from printshop.checks.preflight.fonts import unembedded_fonts
from printshop.checks.preflight.images import image_file_problems
from printshop.checks.preflight.ink import FileInks, PageInk
from printshop.checks.preflight.problem import Problem
from printshop.checks.preflight.rendered import pdf_rendered_problems
from printshop.checks.preflight.structure import (
    interactive_problems,
    order_problems,
    structure_problems,
)
from printshop.project.models.media import Media
from printshop.project.models.profile import Profile


def preflight(
    path: Path, profile: Profile | None = None, trims: list[tuple[float, float]] | None = None
) -> list[Problem]:
    """`trims`: the sizes (points) of the shop's products, which every page of a card file (and
    every face image, with the bleed) must have. Without a profile only what any printer needs is
    checked."""
    path = Path(path)
    with open(path, "rb") as handle:
        magic = handle.read(8)
    if magic.startswith(b"\x89PNG") or magic.startswith(b"\xff\xd8\xff"):
        return image_file_problems(path, profile, trims)
    try:
        pdf = pikepdf.open(path)
    except pikepdf.PasswordError:
        return [
            Problem(
                0, "encrypted with a password: the shop cannot open it (PDF/X forbids encryption)"
            )
        ]
    except (pikepdf.PdfError, OSError, ValueError) as error:
        return [Problem(0, f"not a readable PDF: {error}")]
    with pdf:
        return _pdf_problems(pdf, profile, trims, path)


def shop_trims(media: Media, profile: Profile) -> list[tuple[float, float]]:
    """The trims a shop makes: its products' sizes, or every card size when it lists none."""
    names = [product.trim for product in profile.products.values()] or list(media.card_sizes)
    return sorted(
        {
            (media.card_sizes[n].width, media.card_sizes[n].height)
            for n in names
            if n in media.card_sizes
        }
    )


def _pdf_problems(pdf: pikepdf.Pdf, profile: Profile | None, trims, path: Path) -> list[Problem]:
    kind = str(pdf.docinfo.get("/Keywords", "")) if pdf.docinfo is not None else ""
    problems: list[Problem] = []
    cards = profile is not None and is_card_file(pdf, trims or [], kind)
    if profile is not None:
        problems.extend(Problem(0, message) for message in structure_problems(pdf, profile))
        problems.extend(interactive_problems(pdf, profile))
    inks = FileInks(path)
    for number, page in enumerate(pdf.pages, start=1):
        if profile is None:
            continue
        problems.extend(
            Problem(number, message, warning) for message, warning in box_problems(page, profile)
        )
        if cards and trims:
            problems.extend(Problem(number, message) for message in trim_problems(page, trims))
        if cards:
            problems.extend(Problem(number, m, warning) for m, warning in rotate_problems(page))
        reading = PageInk(pdf, page, profile, inks)
        problems.extend(Problem(number, message) for message in reading.read())
        problems.extend(reading.rules.problems(number))
    problems.extend(Problem(0, f"font {name} is not embedded") for name in unembedded_fonts(pdf))
    if profile is not None:
        problems.extend(pdf_rendered_problems(path, pdf, profile, cards))
        if cards:
            problems.extend(order_problems(pdf, profile))
        elif kind == "printshop:booklet" and len(pdf.pages) % 4:
            problems.append(
                Problem(
                    0,
                    f"a booklet of {len(pdf.pages)} pages: saddle stitching needs a multiple of 4",
                )
            )
    return problems
