"""Every change printshop makes to ReportLab's internals (and PyYAML's), each a named function
saying what it replaces and why, installed from one place: `install()`, which printshop/__init__.py
runs.

ReportLab is not imported by `install()`: a command that never sets type (`--help`, `new`) would pay
for it. `install()` puts a finder first in `sys.meta_path` that finds nothing itself, but asks the
finders after it and, for the modules named here, runs each module's patches as soon as the module
has run (a module imported before `install()` is patched at once). The same finder compiles a few
large patterns of those libraries lazily (see "Patterns compiled when first used" below). Each patch
marks the module it changed, so that a second `install()` (a reloaded module) changes nothing twice.

`PATCHES` lists them all: the function, the module it changes, the attributes it replaces or reads,
and whether it is installed when that module is imported (else its function is called where it is
needed: fontcache.py). tests/test_reportlab_patches.py checks that each of those attributes is still
there in the installed library, so that a new ReportLab that renames one fails there and not in a
build; pyproject.toml bounds the versions.

Patterns compiled when first used. A few modules printshop imports on every build compile, as they
are imported, a regular expression over a wide range of Unicode (`[\\xa1-\\uffff]`), which Python's
`re` takes milliseconds to compile, and which a build never or seldom uses: ReportLab's pattern for
the addresses of links (about 30 ms, more than the rest of its paragraph module), its CJK wrapping
pattern, and PyYAML's pure-Python reader's check for printable characters (printshop reads YAML with
the C reader). Together they are a tenth of a cold build of a small deck. While one of the `MODULES`
runs its top level, `re.compile` gives, for a pattern with such a range, a stand-in that compiles
the pattern the first time one of its methods or attributes is asked for, and then puts the compiled
pattern where the module (or one of its classes) keeps it, so that later uses find the pattern
itself. Every other pattern is compiled as it would have been. The stand-in answers every attribute
of a compiled pattern; what it is not is an instance of `re.Pattern` (none of these modules asks).

Other code leans on these libraries' internals without replacing anything (tested here too):
project/source.py subclasses PyYAML's CBaseLoader (its resolver hooks), typeset/justify.py
ReportLab's Paragraph (breakLines).
"""

from __future__ import annotations

import copy
import hashlib
import re
import sys
import threading
import zlib
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from printshop import memos

NO_BREAK_SPACES = "\u00a0\u202f"


@dataclass(frozen=True)
class Patch:
    """A change to a library's internals: `function` changes `module`'s `replaces` (attributes,
    dotted from the module, that it replaces or reads); `on_import`: installed as the module is
    imported (function(module): the module typed Any, as ReportLab ships no types)."""

    function: Callable
    module: str
    replaces: tuple[str, ...]
    on_import: bool = True


PATCHES: dict[str, Patch] = {}


def _patch_of(module: str, *replaces: str, on_import: bool = True, name: str = ""):
    def declare(function):
        PATCHES[name or function.__name__] = Patch(function, module, replaces, on_import)
        return function

    return declare


def _first_time(module: ModuleType, name: str) -> bool:
    """Whether the patch `name` is not yet on `module` (and note that it now is)."""
    done = module.__dict__.setdefault("_printshop_patches", set())
    if name in done:
        return False
    done.add(name)
    return True


# -- PDF streams
# -------------------------------------------------------------------------------------------------
@_patch_of("reportlab.rl_config", "useA85")
def streams_without_ascii85(rl_config: Any) -> None:
    """rl_config.useA85 (ReportLab's default 1) set to 0: streams are Flate-compressed binary, not
    also ASCII85-encoded, which made every stream a quarter larger and took time to encode. Read
    when a document is formatted, so it is set for the process: every PDF printshop writes goes
    through render/pdf.py."""
    if _first_time(rl_config, "streams_without_ascii85"):
        rl_config.useA85 = 0


# Flate compression remembered by content, for the process. The same streams are compressed again
# and again: a card face's form, a font subset, a rules page, in the A4 and the Letter kit of one
# build (838 of a catalogue build's 1,644 streams, 8 of its 13.6 MB), and in every build a
# long-running process makes again (a session writing after an edit, a program building twice).
# zlib.compress gives the same bytes for the same input, so an input met before is given its bytes
# again: a digest costs a seventh (a page of form references) to a thirtieth (a font subset) of
# compressing. The last 48 MB of compressed streams are kept (a catalogue build makes about 2 MB);
# streams under 512 bytes are compressed.
_SMALL_STREAM = 512


def _flate(self, text) -> bytes:
    """PDFStreamFilterZCompress.encode (zlib.compress of the UTF-8 bytes), remembered (see above)."""
    data = text.encode("utf8") if isinstance(text, str) else text
    if len(data) < _SMALL_STREAM:
        return zlib.compress(data)
    return memos.COMPRESSED.remembered(
        hashlib.blake2b(data, digest_size=20).digest(), lambda: zlib.compress(data)
    )


@_patch_of("reportlab.pdfbase.pdfdoc", "PDFStreamFilterZCompress.encode")
def remember_compressed_streams(pdfdoc: Any) -> None:
    """PDFStreamFilterZCompress.encode replaced by `_flate`: the same bytes, remembered by content
    (above)."""
    if _first_time(pdfdoc, "remember_compressed_streams"):
        pdfdoc.PDFStreamFilterZCompress.encode = _flate


# -- font subsets
# ------------------------------------------------------------------------------------------------
# Font subset tags. A subset's name is six capitals, '+', the font's name ("AAAAAA+NotoSans-Bold");
# ReportLab numbers a font's subsets AAAAAA, AAAAAB, ... in every document, so the French and the
# English cards both embed an "AAAAAA+NotoSans-Bold" holding other glyphs under other codes. A print
# shop that gangs files on one sheet, or a RIP that keeps fonts by name, can then print one file's
# text with the other's subset: wrong letters. The tag is made from what the subset holds instead
# (the font, its version, the characters at their codes, as pdfTeX does): the same name always
# stands for the same subset, in any file, and the bytes stay reproducible.
_TAGS = threading.local()


def subset_tag(face, codes) -> bytes:
    """Six capitals from a digest of the face (its name, version and glyph count) and the subset's
    characters in code order."""
    key = repr((face.name, getattr(face, "uniqueFontID", ""), face.numGlyphs, tuple(codes))).encode(
        "utf-8"
    )
    number = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")
    letters = bytearray()
    for _ in range(6):
        number, letter = divmod(number, 26)
        letters.append(65 + letter)
    return bytes(letters)


@_patch_of("reportlab.pdfbase.ttfonts", "SUBSETN", "TTFont.addObjects")
def subset_tags_by_content(ttfonts: Any) -> None:
    """ttfonts.SUBSETN (a subset's tag by its number) and TTFont.addObjects (which names a
    document's subsets) replaced: addObjects works out each subset's tag from what it holds
    (`subset_tag`, above), and SUBSETN gives that tag for the subset's number while it runs
    (ReportLab's own tag otherwise)."""
    if not _first_time(ttfonts, "subset_tags_by_content"):
        return
    subset_number, add_objects = ttfonts.SUBSETN, ttfonts.TTFont.addObjects

    def _subset_tag(number: int) -> bytes:
        tags = getattr(_TAGS, "tags", None)
        return tags[number] if tags is not None and number < len(tags) else subset_number(number)

    def _add_objects(self, doc) -> None:
        state = self.state.get(doc)
        _TAGS.tags = (
            [subset_tag(self.face, codes) for codes in state.subsets] if state is not None else None
        )
        try:
            add_objects(self, doc)
        finally:
            _TAGS.tags = None

    ttfonts.SUBSETN = _subset_tag
    ttfonts.TTFont.addObjects = _add_objects


@_patch_of("reportlab.pdfbase.ttfonts", "TTFontFace.makeSubset", on_import=False)
def remember_subsets(font, digest):
    """`font`, its face's makeSubset (ReportLab's TTFontFile.makeSubset, which builds a subset a
    table at a time in Python) remembered in memos.SUBSETS by the file's digest and the glyphs (an
    attribute of this face alone: ReportLab's class is left as it is). A subset depends on the
    file's bytes and the glyphs asked for, nothing else: makeSubset reads the face and sets nothing
    on it. Called by typeset/fontcache.py for each font."""
    face, prefix = font.face, digest.digest()
    make = face.makeSubset

    def remembered(subset) -> bytes:
        return memos.SUBSETS.remembered((prefix, tuple(subset)), lambda: make(subset))

    face.makeSubset = remembered
    return font


@_patch_of("reportlab.pdfbase.ttfonts", "TTFontFace", "TTFont.__init__", on_import=False)
@contextmanager
def faces_given(face):
    """While the block runs, ReportLab's ttfonts.TTFontFace (which TTFont's constructor calls with
    the file's name to read the face) gives `face`: a face typeset/fontcache.py took from its cache
    instead of reading the file. The caller holds fontcache's lock: no other thread makes a TTFont
    meanwhile."""
    from reportlab.pdfbase import ttfonts

    real = ttfonts.TTFontFace
    ttfonts.TTFontFace = lambda *args, **kwargs: face
    try:
        yield
    finally:
        ttfonts.TTFontFace = real


# -- line breaking
# -----------------------------------------------------------------------------------------------
@_patch_of("reportlab.platypus.paragraph", "_wsc", "_wsc_re_split", "_wsc_end_search", "split")
def keep_no_break_spaces(paragraph: Any) -> None:
    """Make ReportLab's word splitting respect U+202F NARROW NO-BREAK SPACE, as it does U+00A0.

    ReportLab breaks lines at every Unicode space but the no-break space, so French text would
    break before ; : ! ? at the narrow no-break space the typography puts there. Its module-level
    splitting helpers are replaced with ones that leave both no-break spaces inside words.
    """
    if not _first_time(paragraph, "keep_no_break_spaces"):
        return
    breaking = "".join(ch for ch in paragraph._wsc if ch not in NO_BREAK_SPACES)
    split_re = re.compile(f"[{re.escape(breaking)}]+")
    paragraph._wsc = breaking
    paragraph._wsc_re_split = split_re.split
    paragraph._wsc_end_search = re.compile(f"[{re.escape(breaking)}]+$").search

    def split(text: str, delim: str | None = None) -> list[str]:
        # as ReportLab's own: its regex split where no-break spaces occur, str.split() elsewhere
        if delim is None and any(ch in text for ch in NO_BREAK_SPACES):
            return split_re.split(text)
        return text.split(delim)

    paragraph.split = split


@_patch_of("reportlab.platypus.paragraph", "_split_blParaHard")
def split_without_changing_lines(paragraph: Any) -> None:
    """Let a paragraph split over two pages leave its broken lines as they were.

    To make the two parts, ReportLab gathers the words of the lines each part keeps and gives the
    last word of every line but the part's last a trailing space, changing that word in place. The
    words belong to the paragraph's lines, which typeset/justify.py remembers and hands to every
    paragraph of the same text, style and width: a booklet set again in the same process then drew
    'un ' where a new process drew 'un' (other bytes, and builds that depended on what the process
    had built before). The space now goes on a copy of the word.
    """
    if not _first_time(paragraph, "split_without_changing_lines"):
        return

    def _split_blParaHard(blPara: Any, start: int, stop: int) -> list:
        words: list = []
        lines = blPara.lines[start:stop]
        for line in lines:
            words.extend(line.words)
            if line is lines[-1]:
                continue
            index = len(words) - 1  # the line's last word, past zero-width callbacks
            while (
                index >= 0
                and hasattr(words[index], "cbDefn")
                and not getattr(words[index].cbDefn, "width", 0)
            ):
                index -= 1
            text = words[index].text if index >= 0 else " "
            if not (text or "").endswith(" "):
                spaced = copy.copy(words[index])
                spaced.text = (text or "") + " "
                words[index] = spaced
        return words

    paragraph._split_blParaHard = _split_blParaHard


@_patch_of("reportlab.platypus.paragraph", "_hy_letters_pat", "_hy_letters")
def hyphenate_whole_words(paragraph: Any) -> None:
    """Let ReportLab offer the hyphenator words with an apostrophe or a no-break space in them.

    ReportLab hyphenates only words made of letters, so French "d’identification" or "assemblée :"
    (a narrow no-break space before the colon) would never break. Its test is widened to those
    characters; the function `hyphenator` makes breaks the letters only and keeps the rest as it
    was.
    """
    if _first_time(paragraph, "hyphenate_whole_words"):
        paragraph._hy_letters_pat = re.compile(
            f"^[{paragraph._hy_letters}’'«»‹›„{NO_BREAK_SPACES}]+$"
        )


# -- inline icons (typeset/icons.py)
# -----------------------------------------------------------------------------------------------
@_patch_of("reportlab.platypus.paraparser", "ParaParser.start_img", "ParaParser._push")
def icon_tag(paraparser: Any) -> None:
    """ParaParser given an `<icon/>` tag (it has none): a resolved icon (typeset/icons.py) made an
    image fragment as `<img/>` makes one (its cbDefn: kind img, width, height, valign), sized by
    the font and coloured by the text it sits in, which `<img/>` cannot be."""
    if not _first_time(paraparser, "icon_tag"):
        return

    def start_icon(self, attributes) -> None:
        from printshop.typeset.icons import icon_fragment

        frag = self._stack[-1]
        self._push("icon", cbDefn=icon_fragment(attributes, frag))
        self.handle_data("")
        self._pop("icon")

    def end_icon(self) -> None:
        pass

    paraparser.ParaParser.start_icon = start_icon
    paraparser.ParaParser.end_icon = end_icon


@_patch_of("reportlab.platypus.paragraph", "_getFragWords", "_HSFrag", "_SHYWord", "_SplitFrag")
def keep_icons_with_their_words(paragraph: Any) -> None:
    """_getFragWords (a paragraph's words, each [width, (frag, text), …]) keeps an inline image
    (an icon) in one word with the text or image it touches, as a glyph is: ReportLab made each
    image a word of its own, so a line could break between "(" and the icon, or between two icons
    side by side, where no space is. Words with soft hyphens or split by the hyphenator are left as
    they are; with no image in the paragraph, the words are ReportLab's."""
    if not _first_time(paragraph, "keep_icons_with_their_words"):
        return
    get_frag_words = paragraph._getFragWords
    spaced, shy, split = paragraph._HSFrag, paragraph._SHYWord, paragraph._SplitFrag

    def image(word) -> bool:
        return any(getattr(getattr(f, "cbDefn", None), "width", 0) for f, _ in word[1:])

    def glued(before, word) -> bool:
        if isinstance(before, (spaced, shy, split)) or isinstance(word, (shy, split)):
            return False
        if any(hasattr(f, "lineBreak") for f, _ in (*before[1:], *word[1:])):
            return False
        return image(before) or image(word)

    def _getFragWords(frags, maxWidth=None):
        words = get_frag_words(frags, maxWidth)
        if not any(getattr(getattr(f, "cbDefn", None), "width", 0) for f in frags):
            return words
        kept: list = []
        for word in words:
            if kept and type(word) in (list, spaced) and glued(kept[-1], word):
                before = kept.pop()
                word = type(word)([before[0] + word[0], *before[1:], *word[1:]])
            kept.append(word)
        return kept

    paragraph._getFragWords = _getFragWords


@_patch_of("reportlab.platypus.paragraph", "Paragraph.breakLines", "_wsc_re_split")
def count_spaces_beside_icons(paragraph: Any) -> None:
    """Paragraph.breakLines gives a line holding an inline image (an icon) the word count its
    spaces make. ReportLab counts the pieces of text on each side of an image as words of their
    own, so "two (<icon/><icon/>) a" counted one word too many: justification spread the line's
    room over one space more than it has, and left that share at the line's end, not flush. A line
    with no image is left as ReportLab made it."""
    if not _first_time(paragraph, "count_spaces_beside_icons"):
        return
    break_lines = paragraph.Paragraph.breakLines

    def breakLines(self, width):
        lines = break_lines(self, width)
        if getattr(lines, "kind", 0) == 1:
            for line in lines.lines:
                if any(getattr(getattr(w, "cbDefn", None), "width", 0) for w in line.words):
                    printed = "".join(
                        "\x00" if hasattr(w, "cbDefn") else (getattr(w, "text", "") or "")
                        for w in line.words
                    )
                    words = [part for part in paragraph._wsc_re_split(printed) if part]
                    line.wordCount = max(1, len(words))
        return lines

    paragraph.Paragraph.breakLines = breakLines


@_patch_of("reportlab.platypus.paragraph", "_justifyDrawParaLine", "_justifyDrawParaLineX")
def tracked_justified_lines(paragraph: Any) -> None:
    """Draw a justified line given a `tracking` (typeset/justify.py: a line too loose for its word
    spaces alone) with its letters that far apart (the PDF's character spacing, Tc), the inline
    images of the line placed after the letters as they move: while the line is drawn, the
    canvas's widths of its texts count the spacing too. Other lines are drawn as before."""
    if not _first_time(paragraph, "tracked_justified_lines"):
        return
    simple_line, frag_line = paragraph._justifyDrawParaLine, paragraph._justifyDrawParaLineX

    def _justifyDrawParaLine(tx, offset, extraspace, words, last=0):
        tracking = getattr(words, "tracking", 0.0)
        if not tracking:
            return simple_line(tx, offset, extraspace, words, last)
        tx.setCharSpace(tracking)
        try:
            return simple_line(tx, offset, extraspace, words, last)
        finally:
            tx.setCharSpace(0)

    def _justifyDrawParaLineX(tx, offset, line, last=0):
        tracking = getattr(line, "tracking", 0.0)
        if not tracking:
            return frag_line(tx, offset, line, last)
        canvas = tx._canvas
        width = canvas.stringWidth

        def tracked_width(text, *args, **kwargs):
            return width(text, *args, **kwargs) + tracking * len(text)

        canvas.stringWidth = tracked_width
        tx.setCharSpace(tracking)
        try:
            return frag_line(tx, offset, line, last)
        finally:
            tx.setCharSpace(0)
            del canvas.stringWidth

    paragraph._justifyDrawParaLine = _justifyDrawParaLine
    paragraph._justifyDrawParaLineX = _justifyDrawParaLineX


@_patch_of("reportlab.pdfgen.canvas", "Canvas.drawImage")
def inline_drawings(canvas: Any) -> None:
    """Canvas.drawImage draws an icon's motif (an InlineMotif, typeset/icons.py) as vector paths
    where a paragraph's line puts an image; every other image as before."""
    if not _first_time(canvas, "inline_drawings"):
        return
    draw_image = canvas.Canvas.drawImage

    def drawImage(self, image, x, y, width=None, height=None, *args, **options):
        draw = getattr(image, "draw_inline", None)
        if draw is not None:
            draw(self, x, y, width, height)
            return width, height
        return draw_image(self, image, x, y, width, height, *args, **options)

    canvas.Canvas.drawImage = drawImage


# -- patterns compiled when first used (see the module's docstring)
# ----------------------------------------------
@_patch_of("yaml.reader", "Reader.NON_PRINTABLE", on_import=False, name="lazy_yaml_printable")
@_patch_of("reportlab.lib.textsplit", "rx", on_import=False, name="lazy_cjk_pattern")
@_patch_of("reportlab.platypus.paragraph", "uri_pat", on_import=False, name="lazy_link_pattern")
def _compiling_lazily(pattern, flags=0):
    """re.compile while one of the MODULES runs its top level: a LazyPattern for a wide pattern."""
    if is_wide(pattern):
        return LazyPattern(pattern, flags)
    return _compile(pattern, flags)


_AFTER_IMPORT: dict[str, list[Callable]] = {}
for _declared in PATCHES.values():
    if _declared.on_import:
        _AFTER_IMPORT.setdefault(_declared.module, []).append(_declared.function)


def _patch(module: ModuleType) -> None:
    """Run the patches of `module`, which has just run its top level."""
    for function in _AFTER_IMPORT.get(module.__name__, ()):
        function(module)


MODULES = frozenset({"reportlab.platypus.paragraph", "reportlab.lib.textsplit", "yaml.reader"})

_compile = re.compile
_RANGE = _compile(r"(?s)(.)-(.)")
# a character range spanning more code points than this is what makes a pattern slow to compile
WIDE = 0x1000


def is_wide(pattern) -> bool:
    """Whether a pattern has a character range spanning more than WIDE code points, such as
    \\xa1-\\uffff."""
    return isinstance(pattern, str) and any(
        ord(last) - ord(first) > WIDE for first, last in _RANGE.findall(pattern)
    )


class LazyPattern:
    """A pattern compiled when first used (see the module's docstring)."""

    __slots__ = ("_arguments", "_compiled", "_homes")

    def __init__(self, pattern: str, flags=0):
        self._arguments = (pattern, flags)
        self._compiled: re.Pattern | None = None
        self._homes: list[tuple[object, str]] = []  # (module or class, name) holding this stand-in

    def compiled(self) -> re.Pattern:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = _compile(*self._arguments)
            for home, name in self._homes:
                if getattr(home, name, None) is self:
                    setattr(home, name, compiled)
            self._homes = []
        return compiled

    def __getattr__(self, name: str):
        return getattr(self.compiled(), name)

    def __repr__(self) -> str:
        return f"LazyPattern({self._arguments[0]!r})"


def _adopt(module) -> None:
    """Tell each stand-in where the module keeps it: a global, or an attribute of one of its
    classes."""
    for name, value in list(vars(module).items()):
        if isinstance(value, LazyPattern):
            value._homes.append((module, name))
        elif isinstance(value, type) and value.__module__ == module.__name__:
            for attribute, held in list(vars(value).items()):
                if isinstance(held, LazyPattern):
                    held._homes.append((value, attribute))


_finding: set[str] = set()  # the modules a finder is asking the others for, now


class _Finder:
    """Finds nothing itself: for the MODULES, wraps what the finders after it find."""

    def find_spec(self, name, path, target=None):
        if (
            name not in MODULES and name not in _AFTER_IMPORT
        ) or name in _finding:  # (another of these finders is asking: a reloaded module)
            return None
        _finding.add(name)
        try:
            for finder in sys.meta_path:
                find = getattr(finder, "find_spec", None)
                if finder is self or find is None:
                    continue
                spec = find(name, path, target)
                if spec is not None:
                    break
            else:
                return None
        finally:
            _finding.discard(name)
        loader = spec.loader
        exec_module = getattr(loader, "exec_module", None)
        if exec_module is None or getattr(loader, "name", None) != name:
            # not a loader made for this module alone (a zip's is shared): loaded as it would be
            return spec

        def exec_lazily(module):
            if name not in MODULES:
                exec_module(module)
            else:
                before = re.compile
                re.compile = _compiling_lazily
                try:
                    exec_module(module)
                finally:
                    re.compile = before
                _adopt(module)
            _patch(module)

        try:
            loader.exec_module = exec_lazily
        except (
            AttributeError
        ):  # a loader that takes no attributes: the module loads as it would have
            pass
        return spec


def install() -> None:
    """Install every patch: the finder that runs each module's patches as it is imported (and
    compiles the MODULES' wide patterns lazily), and the patches of the modules imported already."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
    for name in _AFTER_IMPORT:
        module = sys.modules.get(name)
        if module is not None:
            _patch(module)
