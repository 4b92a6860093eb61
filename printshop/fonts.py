"""Registering the data's font families with ReportLab, and asking which characters they have.

Faces are registered under the names layouts use (`serif`, `serif-bold`, ...) and grouped as
families, so `<b>` and `<i>` in text pick the right face. Only TrueType outlines are accepted
(ReportLab embeds and subsets them); nothing falls back to an unembedded standard font.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from printshop.diagnostics import Report
from printshop.model import Fonts

VARIANTS = {"regular": "", "bold": "-bold", "italic": "-italic", "bold_italic": "-bold-italic"}
FALLBACK_FACE = "fallback"
_registered: dict[str, Path] = {}
# the characters the fallback face prints; set when fonts are registered (ReportLab's font registry
# is process-wide too), read where paragraphs are built
_fallback_characters: str = ""


def with_fallback(markup: str) -> str:
    """Wrap each character the families lack in the fallback face (text only, never inside tags)."""
    if not _fallback_characters or not any(ch in markup for ch in _fallback_characters):
        return markup
    import re

    def swap(match: re.Match) -> str:
        if match.group(1):
            return match.group(1)
        return "".join(f'<font face="{FALLBACK_FACE}">{ch}</font>' if ch in _fallback_characters else ch
                       for ch in match.group(2))

    return re.sub(r"(<[^>]*>|&[#\w]+;)|([^<&]+)", swap, markup)


@dataclass
class FontSet:
    """The faces of a project by name, each with the set of characters it can print."""

    faces: dict[str, TTFont]

    def has(self, face: str) -> bool:
        return face in self.faces

    fallback: str = ""  # characters printed with the fallback face

    def missing_characters(self, face: str, text: str) -> list[str]:
        glyphs = self.faces[face].face.charToGlyph
        return sorted({ch for ch in text if ord(ch) >= 32 and ord(ch) not in glyphs and ch not in self.fallback})


def register_fonts(fonts: Fonts, font_dirs: list[Path], report: Report) -> FontSet:
    faces: dict[str, TTFont] = {}
    for family, spec in fonts.families.items():
        names = {}
        for variant, suffix in VARIANTS.items():
            name = family + suffix
            file_name = getattr(spec, variant)
            path = next((d / file_name for d in font_dirs if _is_file(d / file_name)), None)
            if path is None:
                report.add("file-missing", spec.where(variant),
                           f"font file '{file_name}' is in none of: {', '.join(str(d) for d in font_dirs)}")
                continue
            try:
                faces[name] = _register(name, path)
            except TTFError as error:
                report.add("wrong-type", spec.where(variant), f"'{file_name}' is not a usable TrueType font: {error}")
                continue
            names[variant] = name
        if len(names) == len(VARIANTS):
            pdfmetrics.registerFontFamily(family, normal=names["regular"], bold=names["bold"],
                                          italic=names["italic"], boldItalic=names["bold_italic"])
    global _fallback_characters
    fallback = fonts.fallback
    _fallback_characters = ""
    if fallback is not None:
        path = next((d / fallback.file for d in font_dirs if _is_file(d / fallback.file)), None)
        if path is None:
            report.add("file-missing", fallback.where("file"), f"font file '{fallback.file}' not found")
        else:
            face = _register(FALLBACK_FACE, path)
            lacking = [ch for ch in fallback.characters if ord(ch) not in face.face.charToGlyph]
            if lacking:
                report.add("missing-glyph", fallback.where("characters"),
                           f"the fallback font has no {', '.join(lacking)}")
            _fallback_characters = "".join(ch for ch in fallback.characters if ch not in lacking)
    return FontSet(faces, _fallback_characters)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the file system, say: no such font
        return False


def _register(name: str, path: Path) -> TTFont:
    if _registered.get(name) != path:
        pdfmetrics.registerFont(TTFont(name, str(path)))
        _registered[name] = path
    return pdfmetrics.getFont(name)
