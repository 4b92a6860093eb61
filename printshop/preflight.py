"""Preflight: read a PDF back and check what a print shop will check, before it costs money.

Per page: TrimBox and BleedBox present, the bleed the profile asks for on every side, no fonts left
unembedded, and for CMYK profiles no RGB colour operators or images and no fill or stroke over the
ink limit. Page count: a two-sided press file has an even number of pages.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import PdfReadError
from pypdf.generic import ContentStream

from printshop.model import Profile
from printshop.units import to_mm


@dataclass(frozen=True)
class Problem:
    page: int  # 1-based; 0 for the file as a whole
    message: str

    def format(self, path: str) -> str:
        return f"{path}: page {self.page}: {self.message}" if self.page else f"{path}: {self.message}"


def preflight(path: Path, profile: Profile | None = None) -> list[Problem]:
    try:
        reader = PdfReader(str(path))
        pages = list(reader.pages)
    except (PdfReadError, OSError, ValueError) as error:
        return [Problem(0, f"not a readable PDF: {error}")]
    problems: list[Problem] = []
    for number, page in enumerate(pages, start=1):
        problems.extend(Problem(number, message) for message in _page_problems(reader, page, profile))
    problems.extend(Problem(0, f"font {name} is not embedded") for name in _unembedded_fonts(pages))
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
    return problems


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
