"""Reading back what a PDF draws: where forms are placed and which lines are stroked on a page."""

from __future__ import annotations

import functools
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import ContentStream

from printshop.checks.preflight.graphics import multiply


@dataclass
class Placement:
    name: str
    x: float  # where the form's origin lies on the page
    y: float
    scale: float = (
        1.0  # how much the form is scaled where it is placed (sheets two to a page are shrunk)
    )
    turn: int = 0  # how far it is turned, in degrees counter-clockwise (cards on their side)

    def box(self, width: float, height: float) -> tuple[float, float, float, float]:
        """The box (x, y, width, height) on the page that a form of `width` x `height` placed here
        covers."""
        w, h = width * self.scale, height * self.scale
        return {
            0: (self.x, self.y, w, h),
            90: (self.x - h, self.y, h, w),
            180: (self.x - w, self.y - h, w, h),
            270: (self.x, self.y - w, h, w),
        }[self.turn]


def page_drawing(
    reader: PdfReader, page_number: int
) -> tuple[list[Placement], list[tuple[float, float, float, float]]]:
    """Faces placed on the page (Form XObjects, and faces drawn in the page's content inside a
    `/Face` marked-content sequence, named by its /Name), with their origin, and the straight line
    segments stroked on the page outside any face."""
    page = reader.pages[page_number]
    contents = page.get_contents()
    operations = _operations(contents.get_data()) if contents is not None else []
    if operations is None:  # something the quick reader leaves to pypdf (an inline image, say)
        operations = ContentStream(contents, reader).operations
    ctm = (1, 0, 0, 1, 0, 0)
    stack, placements, segments, current = [], [], [], None
    pending: list[tuple[float, float, float, float]] = []
    marked: list[bool] = []  # the open marked-content sequences: True for a face's
    for operands, operator in operations:
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


_TOKEN = re.compile(
    rb"""
    (?P<space>(?:[\x00\t\n\x0c\r ]|%[^\r\n]*)+)
  | (?P<string>\()
  | (?P<hex><[0-9A-Fa-f\x00\t\n\x0c\r ]*>)
  | (?P<open><<|\[)
  | (?P<close>>>|\])
  | (?P<name>/[^\x00\t\n\x0c\r ()<>\[\]{}/%]*)
  | (?P<number>[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?![^\x00\t\n\x0c\r ()<>\[\]{}/%]))
  | (?P<operator>[^\x00\t\n\x0c\r ()<>\[\]{}/%]+)
""",
    re.X,
)
_ESCAPES = {ord("n"): 0x0A, ord("r"): 0x0D, ord("t"): 0x09, ord("b"): 0x08, ord("f"): 0x0C}


def _text(raw: bytes) -> str:
    """A string's bytes as pypdf reads them: UTF-16 after its byte order mark, else one byte a
    character."""
    return raw[2:].decode("utf-16-be") if raw.startswith(b"\xfe\xff") else raw.decode("latin-1")


def _operations(data: bytes) -> list | None:
    """A content stream's (operands, operator) pairs as pypdf's ContentStream gives them (numbers as
    floats, names as "/Name", strings as text, arrays as lists, dictionaries as dicts), read by a
    regular expression many times faster; None for what it leaves to pypdf (an inline image,
    something malformed)."""
    operations, stack, position, end = [], [[]], 0, len(data)
    while position < end:
        match = _TOKEN.match(data, position)
        if match is None:
            return None
        kind, position = match.lastgroup, match.end()
        if kind == "space":
            continue
        if kind == "string":
            text, position = _string(data, position)
            if text is None:
                return None
            stack[-1].append(text)
        elif kind == "hex":
            digits = re.sub(rb"[^0-9A-Fa-f]", b"", match.group()[1:-1])
            stack[-1].append(_text(bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode())))
        elif kind == "open":
            stack.append([match.group()])
        elif kind == "close":
            items = stack.pop()
            if len(stack) == 0 or (items[0] == b"<<") != (match.group() == b">>"):
                return None
            stack[-1].append(
                dict(zip(items[1::2], items[2::2])) if items[0] == b"<<" else items[1:]
            )
        elif kind == "name":
            stack[-1].append(match.group().decode("latin-1"))
        elif kind == "number":
            stack[-1].append(float(match.group()))
        else:
            operator = match.group()
            if operator in (b"BI", b"ID", b"EI") or len(stack) != 1:
                return None
            operations.append((stack[0], operator))
            stack[0] = []
    return operations if len(stack) == 1 else None


def _string(data: bytes, position: int) -> tuple[str | None, int]:
    """A literal string's text, from just after its "(", and where it ends."""
    out, depth = bytearray(), 1
    while position < len(data):
        byte = data[position]
        position += 1
        if byte == 0x5C:  # backslash
            if position >= len(data):
                break
            code = data[position]
            position += 1
            if code in _ESCAPES:
                out.append(_ESCAPES[code])
            elif 0x30 <= code <= 0x37:
                digits = bytes([code])
                while len(digits) < 3 and position < len(data) and 0x30 <= data[position] <= 0x37:
                    digits += bytes([data[position]])
                    position += 1
                out.append(int(digits, 8) & 0xFF)
            elif code in (0x0A, 0x0D):  # a line continued
                if code == 0x0D and position < len(data) and data[position] == 0x0A:
                    position += 1
            else:
                out.append(code)
        else:
            depth += byte == 0x28
            depth -= byte == 0x29
            if depth == 0:
                return _text(bytes(out)), position
            out.append(byte)
    return None, position


def _placement(name: str, ctm: tuple) -> Placement:
    return Placement(
        name,
        ctm[4],
        ctm[5],
        math.hypot(ctm[0], ctm[1]),
        round(math.degrees(math.atan2(ctm[1], ctm[0]))) % 360,
    )


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
    """The text of each page of a PDF file (or of its bytes) as PDFium reads it, lines ending in a
    newline. PDFium reads a page of forms scores of times faster than pypdf's extract_text, which
    parses every font's ToUnicode map again for each form; a file is read once per process while it
    stays the same."""
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
            texts.append(
                text.replace("\ufffe", "-\n")
            )  # PDFium's mark for a hyphen that ends a line
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


def char_boxes(page) -> list[tuple[float, float, float, float]]:
    """Every printed character's box on a pypdfium2 page, as pdfium finds it: (left, bottom, right,
    top) in points from the page's bottom-left corner."""
    import ctypes

    import pypdfium2.raw as raw

    text = page.get_textpage()
    boxes = []
    for index in range(text.count_chars()):
        if text.get_text_range(index, 1).strip():
            left, right, bottom, top = (ctypes.c_double() for _ in range(4))
            raw.FPDFText_GetCharBox(text.raw, index, left, right, bottom, top)
            boxes.append((left.value, bottom.value, right.value, top.value))
    return boxes
