"""Preflight: read a PDF back and check what a print shop will check, before it costs money.

Per page: TrimBox and BleedBox present, the bleed the profile asks for on every side, the trim one of
the shop's products (card files), images at the profile's resolution where they are placed, and for
CMYK profiles no RGB colour operators or images and no fill or stroke over the ink limit; with
`transparency: false`, no soft masks or alpha. Per file: no font left unembedded; card files in the
profile's page order (read from the page labels the build writes: "back 1", "front 1", ...), every
card complete; booklets a multiple of four pages; PDF/X files with their output intent and keys.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import PdfReadError
from pypdf.generic import ContentStream

from printshop.model import Media, Profile
from printshop.units import to_mm


@dataclass(frozen=True)
class Problem:
    page: int  # 1-based; 0 for the file as a whole
    message: str

    def format(self, path: str) -> str:
        return f"{path}: page {self.page}: {self.message}" if self.page else f"{path}: {self.message}"


def preflight(path: Path, profile: Profile | None = None,
              trims: list[tuple[float, float]] | None = None) -> list[Problem]:
    """`trims`: the sizes (points) of the shop's products, which every page of a card file must have."""
    try:
        reader = PdfReader(str(path))
        pages = list(reader.pages)
        kind = str((reader.metadata or {}).get("/Keywords") or "")
        labels = list(reader.page_labels) if kind == "printshop:cards" else []
    except (PdfReadError, OSError, ValueError, KeyError) as error:
        return [Problem(0, f"not a readable PDF: {error}")]
    problems: list[Problem] = []
    for number, page in enumerate(pages, start=1):
        problems.extend(Problem(number, message) for message in _page_problems(reader, page, profile))
        if profile is not None and kind == "printshop:cards" and trims:
            problems.extend(Problem(number, message) for message in _trim_problems(page, trims))
    problems.extend(Problem(0, f"font {name} is not embedded") for name in _unembedded_fonts(pages))
    if profile is not None:
        if kind == "printshop:cards":
            problems.extend(_order_problems(labels, profile))
        elif kind == "printshop:booklet" and len(pages) % 4:
            problems.append(Problem(0, f"a booklet of {len(pages)} pages: saddle stitching needs a multiple of 4"))
        if profile.pdfx is not None:
            problems.extend(Problem(0, message) for message in _pdfx_problems(reader, profile))
    return problems


def shop_trims(media: Media, profile: Profile) -> list[tuple[float, float]]:
    """The trims a shop makes: its products' sizes, or every card size when it lists none."""
    names = [product.trim for product in profile.products.values()] or list(media.card_sizes)
    return sorted({(media.card_sizes[n].width, media.card_sizes[n].height) for n in names if n in media.card_sizes})


def _trim_problems(page, trims: list[tuple[float, float]]) -> list[str]:
    trim = page.get("/TrimBox")
    if trim is None:
        return []
    t = [float(v) for v in trim]
    width, height = t[2] - t[0], t[3] - t[1]
    if any(abs(width - w) < 0.5 and abs(height - h) < 0.5 for w, h in trims):
        return []
    sizes = ", ".join(f"{to_mm(w):.1f} × {to_mm(h):.1f}" for w, h in trims)
    return [f"trim is {to_mm(width):.1f} × {to_mm(height):.1f} mm; the shop makes {sizes} mm"]


_LABEL = re.compile(r"^(front|back) (\d+)$")


def _order_problems(labels: list[str], profile: Profile) -> list[Problem]:
    """Each card's pages together, in the profile's order, cards numbered 1, 2, 3 ..."""
    first = "back" if profile.page_order == "back-front" else "front"
    problems, cards = [], []  # cards: (number, [sides]) in file order
    for page, label in enumerate(labels, start=1):
        match = _LABEL.match(label)
        if match is None:
            problems.append(Problem(page, f"page label '{label}' does not say which side of which card it is"))
            continue
        side, number = match.group(1), int(match.group(2))
        if cards and cards[-1][0] == number:
            cards[-1][1].append((page, side))
        else:
            if number != (cards[-1][0] + 1 if cards else 1):
                problems.append(Problem(page, f"card {number} follows card {cards[-1][0] if cards else 0}: "
                                              "a card is missing or out of order"))
            cards.append((number, [(page, side)]))
    for number, sides in cards:
        names = [side for _, side in sides]
        if len(names) == 2 and names[0] != first:
            problems.append(Problem(sides[0][0], f"card {number}: {names[0]} before {names[1]}; "
                                                 f"{profile.label} wants {profile.page_order.replace('-', ' then ')}"))
        elif len(names) > 2 or len(set(names)) != len(names):
            problems.append(Problem(sides[0][0], f"card {number} has pages {', '.join(names)}"))
    two_sided = {len(sides) for _, sides in cards}
    if len(two_sided) > 1:
        problems.append(Problem(0, "some cards have a back and some do not: the page count is odd for a two-sided deck"))
    return problems


def _pdfx_problems(reader: PdfReader, profile: Profile) -> list[str]:
    problems, info = [], reader.metadata or {}
    wanted = profile.pdfx.version
    if str(info.get("/GTS_PDFXVersion")) != wanted:
        problems.append(f"no GTS_PDFXVersion '{wanted}' in the document information")
    if str(info.get("/Trapped")) not in ("/True", "/False"):
        problems.append("Trapped is neither True nor False (PDF/X requires one)")
    if not info.get("/Title"):
        problems.append("no Title in the document information (PDF/X requires one)")
    intents = reader.trailer["/Root"].get("/OutputIntents") or []
    if not any(intent.get_object().get("/S") == "/GTS_PDFX" for intent in intents):
        problems.append(f"no PDF/X output intent: {profile.label} wants {wanted} for {profile.pdfx.condition}")
    if reader.pdf_header > "%PDF-1.4":
        problems.append(f"{reader.pdf_header[1:]}: {wanted} allows at most PDF 1.4")
    return problems


def _page_problems(reader: PdfReader, page, profile: Profile | None) -> list[str]:
    problems = []
    trim, bleed = page.get("/TrimBox"), page.get("/BleedBox")
    if profile is not None:
        if trim is None or bleed is None:
            problems.append("no TrimBox and BleedBox: the shop cannot tell where to cut")
        else:
            t, b = [float(v) for v in trim], [float(v) for v in bleed]
            sides = (t[0] - b[0], t[1] - b[1], b[2] - t[2], b[3] - t[3])
            if any(abs(side - profile.bleed) > 0.05 for side in sides):
                problems.append(f"bleed is {', '.join(f'{to_mm(s):.2f}' for s in sides)} mm; "
                                f"{profile.label} needs {to_mm(profile.bleed):.2f} mm on every side")
            media = [float(v) for v in page.mediabox]
            if any(abs(m - x) > 0.05 for m, x in zip(media, b)):
                problems.append("the page is larger than its BleedBox: nothing may lie outside the bleed")
        if profile.colour.space == "cmyk":
            problems.extend(_colour_problems(reader, page, profile))
        if not profile.transparency:
            problems.extend(_transparency_problems(reader, page))
        problems.extend(_resolution_problems(page, profile.min_dpi))
    return problems


def _transparency_problems(reader: PdfReader, page) -> list[str]:
    problems = set()
    group = page.get("/Group")
    if group is not None and group.get_object().get("/S") == "/Transparency":
        problems.add("a transparency group on the page (the shop allows no transparency)")
    for stream, resources in _streams(reader, page):
        if stream is None or resources is None:  # an image on its own: its parent's resources list it too
            continue
        resources = resources.get_object()
        for state in (resources.get("/ExtGState") or {}).values():
            state = state.get_object()
            if any(float(state.get(key, 1)) < 1 for key in ("/CA", "/ca")) or state.get("/SMask", "/None") != "/None":
                problems.add("transparency (alpha or a soft mask) in a graphics state")
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Image" and ("/SMask" in xobject or "/Mask" in xobject):
                problems.add("an image with an alpha channel or mask (a PNG with transparency?)")
    return sorted(problems)


def _resolution_problems(page, min_dpi: float) -> list[str]:
    """Every image's resolution where it is placed: its pixels over the size the CTM gives it."""
    problems = set()
    for name, pixels, (a, b, c, d) in _placed_images(page):
        width_in = math.hypot(a, b) / 72
        height_in = math.hypot(c, d) / 72
        if not width_in or not height_in:
            continue
        dpi = min(pixels[0] / width_in, pixels[1] / height_in)
        if dpi + 0.5 < min_dpi:
            problems.add(f"image {name} is {dpi:.0f} dpi where it is placed; the shop needs {min_dpi:.0f}")
    return sorted(problems)


def _placed_images(page):
    """(name, (width, height) in pixels, CTM's linear part) for every image drawn, forms followed."""

    def walk(stream_owner, resources, ctm, depth):
        if depth > 12 or resources is None:
            return
        resources = resources.get_object()
        xobjects = resources.get("/XObject") or {}
        stack = []
        for operands, operator in ContentStream(stream_owner, page.pdf).operations:
            op = operator
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q" and stack:
                ctm = stack.pop()
            elif op == b"cm" and len(operands) == 6:
                ctm = multiply([float(v) for v in operands], ctm)
            elif op == b"Do" and operands and operands[0] in xobjects:
                xobject = xobjects[operands[0]].get_object()
                if xobject.get("/Subtype") == "/Image":
                    yield str(operands[0]), (int(xobject["/Width"]), int(xobject["/Height"])), tuple(ctm[:4])
                elif xobject.get("/Subtype") == "/Form":
                    matrix = [float(v) for v in xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    yield from walk(xobject, xobject.get("/Resources"), multiply(matrix, ctm), depth + 1)

    contents = page.get_contents()
    if contents is not None:
        yield from walk(contents, page.get("/Resources"), [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], 0)


def multiply(m, n):
    """m × n for PDF matrices [a b c d e f] (m applied first)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F]


def _streams(reader: PdfReader, page):
    """The page's content and that of every form it uses (and theirs)."""
    seen = set()
    yield ContentStream(page.get_contents(), reader), page.get("/Resources")
    stack = [page.get("/Resources")]
    while stack:
        resources = stack.pop()
        if resources is None:
            continue
        for xobject in (resources.get_object().get("/XObject") or {}).values():
            obj = xobject.get_object()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if obj.get("/Subtype") == "/Form":
                yield ContentStream(obj, reader), obj.get("/Resources")
                stack.append(obj.get("/Resources"))
            elif obj.get("/Subtype") == "/Image" and "RGB" in str(obj.get("/ColorSpace")):
                yield None, obj


def _colour_problems(reader: PdfReader, page, profile: Profile) -> list[str]:
    problems, limit = set(), profile.colour.ink_limit
    for stream, extra in _streams(reader, page):
        if stream is None:
            problems.add("an RGB image in a CMYK file")
            continue
        for operands, operator in stream.operations:
            op = operator.decode("latin-1")
            if op in ("rg", "RG"):
                problems.add("RGB colour in a CMYK file")
            elif op in ("k", "K") and limit is not None:
                total = sum(float(v) for v in operands) * 100
                if total > limit + 0.5:
                    problems.add(f"{total:.0f} % total ink (the limit is {limit:.0f} %)")
            elif op in ("cs", "CS") and "RGB" in str(operands[0]):
                problems.add("an RGB colour space in a CMYK file")
    return sorted(problems)


def _unembedded_fonts(pages) -> list[str]:
    names, seen = set(), set()
    stack = [page.get("/Resources") for page in pages]
    while stack:
        resources = stack.pop()
        if resources is None:
            continue
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            if id(font) in seen:
                continue
            seen.add(id(font))
            descriptor = font.get("/FontDescriptor")
            if font.get("/Subtype") == "/Type0":
                descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            if not any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")):
                names.add(re.sub(r"^/", "", str(font.get("/BaseFont"))))
        for xobject in (resources.get("/XObject") or {}).values():
            obj = xobject.get_object()
            if obj.get("/Subtype") == "/Form" and id(obj) not in seen:
                seen.add(id(obj))
                stack.append(obj.get("/Resources"))
    return sorted(names)
