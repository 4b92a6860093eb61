"""Fonts: every font a page, form, pattern or Type 3 glyph uses is embedded in the file."""

from __future__ import annotations

import pikepdf

from printshop.checks.preflight.graphics import inherited


# --- fonts
# -----------------------------------------------------------------------------------------
def unembedded_fonts(pdf: pikepdf.Pdf) -> list[str]:
    names, seen = set(), set()
    stack = [inherited(page.obj, "/Resources") for page in pdf.pages]
    while stack:
        resources = stack.pop()
        if resources is None:
            continue
        for font in resources.get("/Font", {}).values():
            if font.objgen in seen and font.objgen != (0, 0):
                continue
            seen.add(font.objgen)
            if font.get("/Subtype") == "/Type3":  # its glyphs are content streams in the file
                stack.append(font.get("/Resources"))
                continue
            descriptor = font.get("/FontDescriptor")
            if font.get("/Subtype") == "/Type0":
                descriptor = font.DescendantFonts[0].get("/FontDescriptor")
            if descriptor is None or not any(
                key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")
            ):
                names.add(str(font.get("/BaseFont", "(unnamed)")).lstrip("/"))
        for xobject in resources.get("/XObject", {}).values():
            if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                seen.add(xobject.objgen)
                stack.append(xobject.get("/Resources"))
        for pattern in resources.get("/Pattern", {}).values():
            if isinstance(pattern, pikepdf.Stream) and pattern.objgen not in seen:
                seen.add(pattern.objgen)
                stack.append(pattern.get("/Resources"))
    return sorted(names)
