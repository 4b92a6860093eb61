"""Reading back what a PDF draws: where forms are placed and which lines are stroked on a page."""
from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import ContentStream

from printshop.preflight import multiply


@dataclass
class Placement:
    name: str
    x: float  # where the form's origin lies on the page
    y: float
    scale: float = 1.0  # how much the form is scaled where it is placed (sheets two to a page are shrunk)
    turn: int = 0  # how far it is turned, in degrees counter-clockwise (cards on their side)

    def box(self, width: float, height: float) -> tuple[float, float, float, float]:
        """The box (x, y, width, height) on the page that a form of `width` x `height` placed here covers."""
        w, h = width * self.scale, height * self.scale
        return {0: (self.x, self.y, w, h), 90: (self.x - h, self.y, h, w), 180: (self.x - w, self.y - h, w, h),
                270: (self.x, self.y - w, h, w)}[self.turn]


def page_drawing(reader: PdfReader, page_number: int) -> tuple[list[Placement], list[tuple[float, float, float, float]]]:
    """Faces placed on the page (Form XObjects, and faces drawn in the page's content inside a `/Face`
    marked-content sequence, named by its /Name), with their origin, and the straight line segments
    stroked on the page outside any face."""
    page = reader.pages[page_number]
    content = ContentStream(page.get_contents(), reader)
    ctm = (1, 0, 0, 1, 0, 0)
    stack, placements, segments, current = [], [], [], None
    pending: list[tuple[float, float, float, float]] = []
    marked: list[bool] = []  # the open marked-content sequences: True for a face's
    for operands, operator in content.operations:
        op = operator.decode()
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            ctm = multiply(tuple(float(v) for v in operands), ctm)
        elif op in ("BDC", "BMC"):
            marked.append(op == "BDC" and operands[0] == "/Face")
            if marked[-1]:
                placements.append(_placement(str(operands[1]["/Name"]), ctm))
        elif op == "EMC":
            marked.pop()
        elif any(marked):
            continue  # what a face draws is the face's, not the page's marks
        elif op == "Do":
            placements.append(_placement(str(operands[0]), ctm))
        elif op == "m":
            current = (float(operands[0]) + ctm[4], float(operands[1]) + ctm[5])
        elif op == "l" and current is not None:
            end = (float(operands[0]) + ctm[4], float(operands[1]) + ctm[5])
            pending.append((*current, *end))
            current = end
        elif op in ("S", "s"):
            segments.extend(pending)
            pending = []
        elif op in ("n", "f", "f*", "B", "b", "W", "W*"):
            pending = [] if op != "W" and op != "W*" else pending
    return placements, segments


def _placement(name: str, ctm: tuple) -> Placement:
    return Placement(name, ctm[4], ctm[5], math.hypot(ctm[0], ctm[1]), round(math.degrees(math.atan2(ctm[1], ctm[0]))) % 360)


def fonts(reader: PdfReader) -> list:
    """Every font dictionary reachable from the pages and the forms they use, once each."""
    found, seen = [], set()

    def visit(resources):
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            if id(font) not in seen:
                seen.add(id(font))
                found.append(font)
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form" and id(xobject) not in seen:
                seen.add(id(xobject))
                visit(xobject.get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return found


def embedded_font_problems(reader: PdfReader) -> list[str]:
    """The names of fonts that are not embedded TrueType outlines."""
    problems = []
    for font in fonts(reader):
        descriptor = font.get("/FontDescriptor")
        if font.get("/Subtype") == "/Type0":
            descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
        if descriptor is None or "/FontFile2" not in descriptor.get_object():
            problems.append(str(font.get("/BaseFont")))
    return problems


def font_names(reader: PdfReader) -> set[str]:
    return {str(font.get("/BaseFont")) for font in fonts(reader)}


def page_texts(source: Path | str | bytes) -> list[str]:
    """The text of each page of a PDF file (or of its bytes) as PDFium reads it, lines ending in a newline.
    PDFium reads a page of forms scores of times faster than pypdf's extract_text, which parses every font's
    ToUnicode map again for each form; a file is read once per process while it stays the same."""
    if isinstance(source, bytes):
        return list(_page_texts_of(source))
    status = os.stat(source)
    return list(_page_texts(str(source), status.st_mtime_ns, status.st_size))


@functools.lru_cache(maxsize=256)
def _page_texts(path: str, mtime_ns: int, size: int) -> tuple[str, ...]:
    return _page_texts_of(path)


def _page_texts_of(source: str | bytes) -> tuple[str, ...]:
    import pypdfium2

    document = pypdfium2.PdfDocument(source)
    try:
        texts = []
        for page in document:
            text_page = page.get_textpage()
            text = text_page.get_text_range().replace("\r\n", "\n").replace("\r", "\n")
            texts.append(text.replace("\ufffe", "-\n"))  # PDFium's mark for a hyphen that ends a line
            text_page.close()
            page.close()
        return tuple(texts)
    finally:
        document.close()


def pdf_text(source: Path | str | bytes, separator: str = " ") -> str:
    """Every page's text joined by `separator`."""
    return separator.join(page_texts(source))


def words(source: Path | str | bytes) -> str:
    """Every page's text with each run of white space (line ends too) made one space."""
    return " ".join(" ".join(text.split()) for text in page_texts(source))
