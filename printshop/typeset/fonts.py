"""Registering the data's font families with ReportLab, and asking which characters they have.

Faces are registered under the names layouts use (`serif`, `serif-bold`, ...) and grouped as
families, so `<b>` and `<i>` in text pick the right face. ReportLab embeds and subsets TrueType
outlines only: an .otf with PostScript outlines, a WOFF or a WOFF2 file is made TrueType on load
(font_files.py); nothing falls back to an unembedded standard font.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from printshop import memos
from printshop.diagnostics import Report
from printshop.memo import file_stamp
from printshop.project.models.art import Fonts
from printshop.typeset.font_files import FontFileError
from printshop.typeset.fontcache import read_font

VARIANTS = {"regular": "", "bold": "-bold", "italic": "-italic", "bold_italic": "-bold-italic"}
FALLBACK_FACE = "fallback"
_registered: dict[str, tuple[Path, tuple[int, ...]]] = {}  # face name -> its file and its stamp
# the characters the fallback face prints; set when fonts are registered (ReportLab's font registry
# is process-wide too), read where paragraphs are built
_fallback_characters: str = ""


# the face names of the project whose fonts were registered last (register_games_fonts), or None
# (every name)
_active: frozenset[str] | None = None


def state() -> tuple:
    """The font files registered under each face name of the project (with their modified time and
    size) and the fallback's characters: what the metrics of a name depend on, so what a fit or a
    broken line is remembered by (a session registers the fonts again when their files change). In
    the order of the names, and without the names another project registered in the same process (a
    game's own family, a font file of its data/fonts): the test suite reads many projects in one
    process, and each such name, or a name registered again in another order, made every fit, layout
    and booklet remembered before it count for nothing (about 2 s of CPU to lay out and draw the
    catalogue again, several times a run)."""
    return (
        tuple(
            sorted(
                (name, stamp)
                for name, stamp in _registered.items()
                if _active is None or name in _active
            )
        ),
        _fallback_characters,
    )


def with_fallback(markup: str) -> str:
    """Wrap each character the families lack in the fallback face (text only, never inside tags)."""
    if not _fallback_characters or not any(ch in markup for ch in _fallback_characters):
        return markup
    import re

    def swap(match: re.Match) -> str:
        if match.group(1):
            return match.group(1)
        return "".join(
            f'<font face="{FALLBACK_FACE}">{ch}</font>' if ch in _fallback_characters else ch
            for ch in match.group(2)
        )

    return re.sub(r"(<[^>]*>|&[#\w]+;)|([^<&]+)", swap, markup)


@dataclass
class FontSet:
    """The faces of a project by name, each with the set of characters it can print."""

    faces: dict[str, TTFont]

    def has(self, face: str) -> bool:
        return face in self.faces

    fallback: str = ""  # characters printed with the fallback face
    _missing: dict = field(default_factory=dict, repr=False, compare=False)

    def missing_characters(self, face: str, text: str) -> list[str]:
        known = self._missing.get(
            (face, text)
        )  # the same texts are checked again for every variant and frame
        if known is None:
            font = self.faces[face]
            known = _LACKING.get(
                (font, self.fallback, text)
            )  # asked by an earlier check of this process
            if known is None:
                lacking = set(text) - coverage(font)
                known = (
                    tuple(sorted(ch for ch in lacking if ord(ch) >= 32 and ch not in self.fallback))
                    if lacking
                    else ()
                )
                _LACKING.put((font, self.fallback, text), known, len(text))
            self._missing[face, text] = known
        return list(known)


def coverage(font: TTFont) -> frozenset[str]:
    """The characters a face has glyphs for, worked out once per font object: `register_font` keeps
    a font while its file is unchanged, so every check and build of a process that registers it
    shares the set."""
    covered = _COVERAGE.get(font)
    if covered is None:
        covered = _COVERAGE[font] = frozenset(map(chr, font.face.charToGlyph))
    return covered


_COVERAGE = memos.COVERAGE  # a replaced font goes
# what each text lacks in each font object (a font file changed is another object), with the
# fallback's characters: every check of a copy of the same data asked again for thousands of texts
# (bounded by the characters of the texts kept, the least recently used forgotten first)
_LACKING = memos.LACKING


def register_fonts(fonts: Fonts, font_dirs: list[Path], report: Report) -> FontSet:
    faces: dict[str, TTFont] = {}
    for family, spec in fonts.families.items():
        names = {}
        for variant, suffix in VARIANTS.items():
            name = family + suffix
            file_name = getattr(spec, variant)
            path = _find(file_name, font_dirs, spec.where(variant), report)
            if path is None:
                continue
            face = _register_checked(name, path, file_name, spec.where(variant), report)
            if face is None:
                continue
            faces[name] = face
            names[variant] = name
        if len(names) == len(VARIANTS):
            pdfmetrics.registerFontFamily(
                family,
                normal=names["regular"],
                bold=names["bold"],
                italic=names["italic"],
                boldItalic=names["bold_italic"],
            )
    global _fallback_characters, _active
    fallback = fonts.fallback
    _fallback_characters, _active = "", None
    if fallback is not None:
        path = _find(fallback.file, font_dirs, fallback.where("file"), report)
        face = (
            _register_checked(FALLBACK_FACE, path, fallback.file, fallback.where("file"), report)
            if path is not None
            else None
        )
        if face is not None:
            lacking = [ch for ch in fallback.characters if ord(ch) not in face.face.charToGlyph]
            if lacking:
                report.add(
                    "missing-glyph",
                    fallback.where("characters"),
                    f"the fallback font has no {', '.join(lacking)}",
                )
            _fallback_characters = "".join(ch for ch in fallback.characters if ch not in lacking)
    return FontSet(faces, _fallback_characters)


def _find(file_name: str, font_dirs: list[Path], where, report: Report) -> Path | None:
    """The first font folder's file of that name; a name that leads out of its folder ('..', an
    absolute path, a symlink to elsewhere) is refused, never read."""
    from printshop.project.paths import BUNDLED_FONTS_DIR
    from printshop.write.commit import inside

    for folder in font_dirs:
        path = folder / file_name
        if _is_file(path):
            if not (
                _inside_bundled(str(path)) if folder == BUNDLED_FONTS_DIR else inside(path, folder)
            ):
                plain = (
                    Path(file_name).name == file_name
                )  # not '..', a sub-folder or an absolute path: a link
                report.add(
                    "unsafe-path",
                    where,
                    f"font file '{file_name}' resolves to {path.resolve()}, outside "
                    f"{folder}: fonts are read only from the font folders",
                    hint=f"copy the font file itself into {folder} in place of the link"
                    if plain
                    else f"name a font file by its name alone and put the file in {folder}",
                )
                return None
            return path
    report.add(
        "file-missing",
        where,
        f"font file '{file_name}' is in none of: {', '.join(str(d) for d in font_dirs)}",
        hint=f"put the font file in {font_dirs[0]} (its licence beside it), or name one of the files there",
    )
    return None


def _register_checked(
    name: str, path: Path, file_name: str, where, report: Report
) -> TTFont | None:
    """Register a face, reporting a file that is not a whole TrueType font (truncated, another
    format) against the data that names it, with the file, instead of ReportLab's bare exception."""
    try:
        face = register_font(name, path)
        face.face.charToGlyph  # noqa: B018 - read now: a damaged table fails here, not while drawing
        return face
    except FontFileError as error:  # an .otf, WOFF or WOFF2 that cannot be made TrueType
        _registered.pop(name, None)
        report.add(
            "wrong-type",
            where,
            f"'{file_name}' ({path}) cannot be used: {error}",
            hint="export the font as a single static .otf or .ttf, or name another font",
        )
        return None
    except Exception as error:  # noqa: BLE001 - TTFError, struct.error, IndexError...: all mean "not a font"
        _registered.pop(name, None)
        report.add(
            "wrong-type",
            where,
            f"'{file_name}' ({path}) is not a usable TrueType font: "
            f"{type(error).__name__}: {error}",
            hint="replace the file with a complete .ttf (TrueType outlines), or name another font",
        )
        return None


@memos.INSIDE_BUNDLED
def _inside_bundled(path: str) -> bool:
    """`write.inside` for a file of printshop's own fonts folder, worked out once per process: the
    folder is part of the installed package, which does not change under a running program (a
    project's own font folder is looked at every time it is read: a symlink put there later is still
    refused)."""
    from printshop.project.paths import BUNDLED_FONTS_DIR
    from printshop.write.commit import inside

    return inside(Path(path), BUNDLED_FONTS_DIR)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the file system, say: no such font
        return False


def register_font(name: str, path: Path) -> TTFont:
    """The face `name` read from `path`, read again when the file is another or has changed since (a
    session registers the fonts again after an edit: a font file replaced under the same name must
    take effect)."""
    stamp = (path, file_stamp(path))
    if _registered.get(name) != stamp:
        face = read_font(name, path)  # (its tables kept between runs: fontcache.py)
        # ReportLab keeps the first font registered under a name, and gives a later name whose file
        # has the same PostScript name that first font (one face per PostScript name in a PDF, or
        # two subsets would take the same name). Let go of the old font, or the new file would be
        # ignored; the other names that shared it are read again from their own files after this
        # one, as a new process would.
        old = pdfmetrics._fonts.pop(name, None)
        sharing = (
            [other for other, font in pdfmetrics._fonts.items() if font is old]
            if old is not None
            else []
        )
        for other in sharing:
            del pdfmetrics._fonts[other]
        if old is not None and pdfmetrics._dynFaceNames.get(old.face.name) is old:
            del pdfmetrics._dynFaceNames[old.face.name]
        pdfmetrics.registerFont(face)
        _registered[name] = stamp
        for other in sharing:
            if other in _registered:
                try:
                    pdfmetrics.registerFont(read_font(other, _registered[other][0]))
                except Exception:  # noqa: BLE001 - damaged since: read, and reported, when next asked for
                    del _registered[other]
    return pdfmetrics.getFont(name)


def register_games_fonts(project, report: Report) -> FontSet:
    """The project's fonts, and the families games add in their own print/fonts.yaml (from the
    game's fonts/ folder, then the project's and printshop's). Face names are global to the
    renderer, so a game may add a family but not give an existing one other files."""
    fonts = register_fonts(project.fonts, project.font_dirs(), report)
    for game in project.games.values():
        own = game.look.get("fonts")
        if own is None:
            continue
        added = {
            family: spec
            for family, spec in own.families.items()
            if family not in project.fonts.families
        }
        for family, spec in own.families.items():
            # by the files they name (model_dump): pydantic's == also weighs private values, such as
            # where each was read
            if (
                family in project.fonts.families
                and spec.model_dump() != project.fonts.families[family].model_dump()
            ):
                report.add(
                    "unknown-reference",
                    spec.where(),
                    f"{game.id} gives the font family '{family}' other files than the project's: "
                    f"name the game's family differently",
                )
        if added:
            global _fallback_characters
            # the project's fallback stays: a game's families do not replace it
            kept = _fallback_characters
            extra = register_fonts(
                own.model_copy(update={"families": added, "fallback": None}),
                [game.dir / "fonts", *project.font_dirs()],
                report,
            )
            _fallback_characters = kept
            fonts.faces.update(extra.faces)
    global _active
    _active = frozenset({*fonts.faces, FALLBACK_FACE})
    return fonts
