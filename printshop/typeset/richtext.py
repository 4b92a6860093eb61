"""The small XML vocabulary that templates produce, parsed into blocks for layout.

A card frame's block or a booklet template renders (with autoescape) to a fragment such as
`<p>text with <b>bold</b></p><table><tr><th>…</th></tr></table>`. Text outside block tags
forms paragraphs split at blank lines. Inline tags (b, i, br, icon) are passed to ReportLab; an icon
(`<icon name="coin"/>`, typeset/icons.py) is checked here and resolved by layout.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from html import escape

from printshop import memos

INLINE = {"b", "i", "br", "icon"}
TAG_OR_TEXT = re.compile(
    r"<[^>]*>|[^<]+"
)  # a paragraph's markup as its tags and the pieces of text between them
FORCED_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)  # a tag that ends a line
# the spaces no line breaks at: the no-break space and the narrow one French puts before ; : ! ?
NO_BREAK_SPACES = "\u00a0\u202f"
PARAGRAPH_TAGS = {"p", "title", "subtitle", "meta", "h1", "h2", "box"}


class RichTextError(ValueError):
    """The template produced markup that is not well formed; `line` counts in the produced text."""

    def __init__(self, message: str, line: int = 0, needle: str = "", hint: str = ""):
        super().__init__(message)
        self.line = line
        self.hint = hint  # what to write instead, where the error knows
        self.needle = (
            needle  # what the template itself most likely writes there (an unknown tag: "<h3")
        )

    @classmethod
    def at(cls, message: str, fragment: str, needle: str, hint: str = "") -> "RichTextError":
        """The error about `needle`, at the line of the produced markup `fragment` where it first
        stands."""
        at = fragment.find(needle)
        return cls(message, fragment.count("\n", 0, at) + 1 if at >= 0 else 0, needle, hint)


@dataclass
class Para:
    style: str
    markup: str
    bullet: str | None = None


@dataclass(frozen=True)
class TableLook:
    """How a <table> asks to be drawn; None: as its place draws tables (a booklet's `tables` style,
    a frame's rows), typeset.tables."""

    rules: str | None = None  # grid, rows or none (RULES)
    header_fill: str | None = None  # a colour name of colours.yaml, or "none"
    column_rules: bool | None = None  # a line between columns
    last_rule: bool | None = None  # a line under the last row
    padding: str | None = None  # a length: the space above and below each cell's text


@dataclass
class Table:
    rows: list[list[tuple[bool, str]]]  # (is_header, markup)
    widths: list[float] | None = (
        None  # shares of the available width, e.g. [20, 80]; None: automatic
    )
    aligns: list[str] | None = None  # per column: left, center or right; None: every column centred
    look: TableLook = TableLook()
    writing_rows: int = 0  # empty rows added under the written ones (a score pad)
    row_height: str | None = None  # the writing rows' height (a length)
    foot_rows: int = 0  # the last rows, written in <tfoot>: set under the writing rows (a total)


@dataclass
class Spacer:
    height: str


@dataclass
class PageBreak:
    pass


@dataclass
class Art:
    motif: str
    size: str
    colour: str


@dataclass(frozen=True)
class ImageFile:
    """An image file as layout read it (layout/images.py): where it is, what it is, its own size
    (pixels for a raster image, points for an SVG drawing) and what tells a changed file apart."""

    path: str
    kind: str  # "raster" or "svg"
    size: tuple[float, float]
    stamp: tuple[int, ...]  # memo.file_stamp: a changed or another file is another block


@dataclass(frozen=True)
class Img:
    """An <img src="images/x.svg" width="90mm"/>: a file of the game's folder (typeset/images.py)."""

    src: str
    width: str | None = None  # a length; None: from `height`, or the width available
    height: str | None = None  # a length; with `width` too, the box the image fits in
    align: str = "center"  # left, center or right
    file: ImageFile | None = None  # set by layout once the file is read
    where: object = field(default=None, compare=False, repr=False)  # its place in the template


@dataclass(frozen=True)
class Figure:
    """A <figure>: one <img/> and its <caption> (paragraph markup), never split over two pages."""

    img: Img
    caption: str


Block = Para | Table | Spacer | PageBreak | Art | Img | Figure


@dataclass
class _Collector:
    blocks: list[Block] = field(default_factory=list)
    loose: list[str] = field(default_factory=list)

    def flush(self, style: str) -> None:
        text = "".join(self.loose)
        self.loose.clear()
        for chunk in re.split(r"\n\s*\n", text):
            if chunk.strip():
                self.blocks.append(Para(style, _squeeze(chunk)))


def parse_blocks(fragment: str, default_style: str = "p") -> list[Block]:
    """The blocks of a template's markup. The same markup (a deck's faces share their templates and
    many texts) is parsed once per process: the blocks are never changed once made, and each caller
    gets its own list of them."""
    key = (fragment, default_style)
    memo = _PARSED if len(fragment) <= _SMALL else _PARSED_LARGE
    known = memo.get(key)
    if known is None:
        known = memo[key] = tuple(_parse_blocks(fragment, default_style))
    return list(known)


# A face's texts are small and many repeat; a rule booklet is one fragment of tens of thousands of
# characters, and a session (watch, serve) that edits a rule gets a new one after every save: kept
# among the 8,192 small ones, each version stayed (with its blocks, 40 KB and more) until thousands
# of saves later.
_SMALL = 4096
_PARSED = memos.PARSED_BLOCKS
_PARSED_LARGE = memos.PARSED_LARGE_BLOCKS


def _unclosed(fragment: str) -> tuple[str, int, str] | None:
    """The innermost element still open where the markup has a closing tag that does not match it
    ("<h1>…<h1>" then "</ol>"): its tag, the line of its opening tag in `fragment`, and the closing
    tag met ("</ol>")."""
    from xml.parsers import expat

    parser, opened = expat.ParserCreate(), []
    parser.StartElementHandler = lambda name, attributes: opened.append(
        (name, parser.CurrentLineNumber)
    )
    parser.EndElementHandler = lambda name: opened.pop()
    wrapped = f"<root>{fragment}</root>"
    try:
        parser.Parse(wrapped, True)
    except expat.ExpatError as error:
        if len(opened) > 1:
            lines = wrapped.splitlines(keepends=True)
            at = sum(map(len, lines[: error.lineno - 1])) + error.offset
            closing = re.match(r"</\s*([\w-]+)\s*>", wrapped[at:])
            met = (
                "the end of the markup"
                if closing is None or closing.group(1) == "root"
                else f"</{closing.group(1)}>"
            )
            return opened[-1][0], opened[-1][1], met
    return None


def _parse_blocks(fragment: str, default_style: str) -> list[Block]:
    root = _parsed_root(fragment)
    out = _Collector()
    if root.text:
        out.loose.append(escape(root.text, quote=False))
    for child in root:
        if child.tag in INLINE:
            out.loose.append(_inline(child, 1, fragment))
        else:
            out.flush(default_style)
            out.blocks.extend(_blocks_of(child, default_style, fragment))
        if child.tail:
            out.loose.append(escape(child.tail, quote=False))
    out.flush(default_style)
    return out.blocks


def _parsed_root(fragment: str) -> ET.Element:
    """The markup's elements under one root; a RichTextError where it is not well formed."""
    try:
        return ET.fromstring(f"<root>{fragment}</root>")
    except ET.ParseError as error:
        line = error.position[0] if error.position else 0
        unclosed = _unclosed(fragment) if "mismatched tag" in str(error) else None
        if (
            unclosed is not None
        ):  # the fault is where the tag was opened, not where the parser noticed it
            tag, opened, closing = unclosed
            raise RichTextError(
                f"the template produced markup that is not well formed: a <{tag}> is not closed "
                f"before {closing}",
                opened,
                f"<{tag}",
            ) from None
        raise RichTextError(
            f"the template produced markup that is not well formed: {error}", line
        ) from None


def _blocks_of(child: ET.Element, default_style: str, fragment: str) -> list[Block]:
    """The blocks a top-level element that is not inline makes: a paragraph, a list's items, a
    table, a page break, a spacer or an art; a RichTextError for a tag there is not."""
    tag = child.tag
    if tag in PARAGRAPH_TAGS:
        return [Para(default_style if tag == "p" else tag, _squeeze(_inner(child, 0, fragment)))]
    if tag in ("ul", "ol"):
        _only(child, ("li",), fragment)
        return [
            Para("li", _squeeze(_inner(item, 0, fragment)), "•" if tag == "ul" else f"{number}.")
            for number, item in enumerate(child.findall("li"), start=1)
        ]
    if tag == "table":
        return [_table(child, fragment)]
    if tag == "pagebreak":
        return [PageBreak()]
    if tag == "spacer":
        height = child.get("height", "0mm")
        if height not in (HOME_ONLY, BACK_COVER):
            _length(tag, "height", height, fragment)
        return [Spacer(height)]
    if tag == "art":
        return [_art(child, fragment)]
    if tag in ("img", "figure", "caption"):
        from printshop.typeset.images import image_block

        return [image_block(child, fragment)]
    known = sorted(PARAGRAPH_TAGS | BLOCK_TAGS)
    from printshop.diagnostics import did_you_mean  # (only for a template in error)

    raise RichTextError.at(
        f"the template uses an unknown tag <{tag}>{did_you_mean(tag, known)} (tags: "
        f"{', '.join(known)}; inside a paragraph: {', '.join(sorted(INLINE))})",
        fragment,
        f"<{tag}",
    )


def _table(child: ET.Element, fragment: str) -> Table:
    """A <table>'s rows of header (th) and data (td) cells, its column widths and alignments; the
    rows of a closing <tfoot> (a total under a score pad's writing rows) come last."""
    _only(child, ("tr", "tfoot"), fragment)
    feet = child.findall("tfoot")
    if feet and (len(feet) > 1 or child[-1] is not feet[0]):
        raise RichTextError.at(
            "a <table> has one <tfoot>, after its other rows",
            fragment,
            "<tfoot",
            "move the <tfoot> to the end of the table and put all its rows in it",
        )
    for foot in feet:
        _only(foot, ("tr",), fragment)
    elements = child.findall("tr") + [row for foot in feet for row in foot.findall("tr")]
    for row in elements:
        _only(row, ("th", "td"), fragment)
    rows = [
        [
            (cell.tag == "th", _squeeze(_inner(cell, 0, fragment)))
            for cell in row
            if cell.tag in ("th", "td")
        ]
        for row in elements
    ]
    writing_rows = _writing_rows(child.get("rows"), fragment)
    row_height = child.get("row-height")
    if row_height is not None and _length("table", "row-height", row_height, fragment) <= 0:
        raise RichTextError.at(
            f'<table row-height="{row_height}">: a row\'s height must be more than 0',
            fragment,
            f'row-height="{row_height}"',
            'write a length with its unit, such as row-height="8mm"',
        )
    return Table(
        rows,
        _widths(child.get("widths")),
        _aligns(child.get("align")),
        _look(child, fragment),
        writing_rows,
        row_height,
        sum(len(foot.findall("tr")) for foot in feet),
    )


RULES = ("grid", "rows", "none")  # <table rules="…">: every line, lines between rows, none
YES_NO = {"yes": True, "no": False}
# writing rows a table may add (rows="12"): more than any page holds already
MAX_WRITING_ROWS = 200


def _look(child: ET.Element, fragment: str) -> TableLook:
    """The table's own look, its attributes checked: rules one of RULES, column-rules and last-rule
    yes or no, padding a length (header-fill is a colour name, checked where the palette is)."""
    from printshop.diagnostics import did_you_mean  # (only for a template in error)

    rules = child.get("rules")
    if rules is not None and rules not in RULES:
        raise RichTextError.at(
            f'<table rules="{rules}">: rules is one of {", ".join(RULES)}'
            f"{did_you_mean(rules, list(RULES))}",
            fragment,
            f'rules="{rules}"',
            'write rules="grid" (every line), "rows" (lines between rows) or "none"',
        )
    switches: dict[str, bool | None] = {}
    for attribute in ("column-rules", "last-rule"):
        value = child.get(attribute)
        if value is not None and value not in YES_NO:
            raise RichTextError.at(
                f'<table {attribute}="{value}">: write {attribute}="yes" or {attribute}="no"',
                fragment,
                f'{attribute}="{value}"',
                f'write {attribute}="yes" or leave it out',
            )
        switches[attribute] = None if value is None else YES_NO[value]
    padding = child.get("padding")
    if padding is not None and _length("table", "padding", padding, fragment) < 0:
        raise RichTextError.at(
            f'<table padding="{padding}">: a padding cannot be less than 0',
            fragment,
            f'padding="{padding}"',
            'write a length of 0 or more with its unit, such as padding="2mm"',
        )
    fill = child.get("header-fill")
    if fill is not None and not fill.strip():
        raise RichTextError.at(
            '<table header-fill="">: name a colour of colours.yaml, or write "none"',
            fragment,
            'header-fill=""',
            'write header-fill="none" for no fill, or a colour such as header-fill="grey"',
        )
    return TableLook(rules, fill, switches["column-rules"], switches["last-rule"], padding)


def _writing_rows(value: str | None, fragment: str) -> int:
    """rows="12": how many empty rows to add, a whole number from 1 to MAX_WRITING_ROWS."""
    if value is None:
        return 0
    count = int(value) if value.strip().isdigit() else 0
    if not 1 <= count <= MAX_WRITING_ROWS:
        raise RichTextError.at(
            f'<table rows="{value}">: rows is the number of empty writing rows to add, a whole '
            f"number from 1 to {MAX_WRITING_ROWS}",
            fragment,
            f'rows="{value}"',
            f'write rows="12" for twelve empty rows (at most {MAX_WRITING_ROWS})',
        )
    return count


def _art(child: ET.Element, fragment: str) -> Art:
    """An <art>: a motif of motifs.yaml drawn at a size (more than 0) in a colour."""
    art = Art(child.get("motif", ""), child.get("size", "20mm"), child.get("colour", "ink"))
    if not art.motif:
        raise RichTextError.at(
            '<art> names no motif: write <art motif="…"/> with a motif of motifs.yaml',
            fragment,
            "<art",
        )
    if _length("art", "size", art.size, fragment) <= 0:
        raise RichTextError.at(
            f'<art size="{art.size}">: a size must be more than 0',
            fragment,
            f'size="{art.size}"',
        )
    return art


BLOCK_TAGS = {
    "ul",
    "ol",
    "table",
    "pagebreak",
    "spacer",
    "art",
    "img",
    "figure",
}  # the blocks besides paragraphs (li, tr, th, td within)


# <spacer height="print-and-play"/>: a section for home prints only (render/booklet.py)
HOME_ONLY = "print-and-play"
# `<spacer height="back-cover"/>`: what follows is the booklet's back cover, set on its last page
BACK_COVER = "back-cover"


def _length(tag: str, attribute: str, value: str, fragment: str) -> float:
    """An attribute's length in points; a RichTextError at it when it is none (\"30\" for \"30mm\")."""
    from printshop.project.units import UnitError, parse_length

    try:
        return parse_length(value)
    except UnitError as error:
        needle = f'{attribute}="{value}"'
        raise RichTextError.at(
            f"<{tag} {needle}>: {error}",
            fragment,
            needle,
            f'write a length with its unit, such as {attribute}="8mm"',
        ) from None


def length_attribute(tag: str, attribute: str, value: str, fragment: str) -> float:
    """`_length`, for the modules that parse a block of their own (typeset/images.py)."""
    return _length(tag, attribute, value, fragment)


def only_tags(element: ET.Element, allowed: tuple[str, ...], fragment: str) -> None:
    """`_only`, for the modules that parse a block of their own (typeset/images.py)."""
    _only(element, allowed, fragment)


def paragraph_markup(element: ET.Element) -> str:
    """An element's text with its inline tags, as a paragraph holds it."""
    return _squeeze(_inner(element))


def _only(element: ET.Element, allowed: tuple[str, ...], fragment: str) -> None:
    """`element` holds only `allowed` tags (and white space between them): anything else was left
    out unseen."""
    for child in element:
        if child.tag not in allowed:
            raise RichTextError.at(
                f"<{child.tag}> cannot stand inside <{element.tag}>, which holds "
                + " and ".join(f"<{name}>" for name in allowed),
                fragment,
                f"<{child.tag}",
                f"put it inside a <{allowed[0]}>, or move it out of the <{element.tag}>",
            )
    stray = " ".join(
        part.strip()
        for part in [element.text or "", *(child.tail or "" for child in element)]
        if part.strip()
    )
    if stray:
        raise RichTextError.at(
            f"text directly inside <{element.tag}> ('{stray[:40]}') is left out: put it in "
            + " or ".join(f"<{name}>" for name in allowed),
            fragment,
            f"<{element.tag}",
        )


ALIGNS = ("left", "center", "right")


def _aligns(value: str | None) -> list[str] | None:
    """align="center,left,left": how each column's cells (and its header) are set."""
    if value is None:
        return None
    aligns = [part.strip() for part in value.split(",")]
    wrong = [part for part in aligns if part not in ALIGNS]
    if wrong:
        raise RichTextError(
            f'align="{value}": each column is one of {", ".join(ALIGNS)}, not {", ".join(wrong)}'
        )
    return aligns


def _widths(value: str | None) -> list[float] | None:
    if not value:
        return None
    try:
        shares = [float(part) for part in value.split(",")]
    except ValueError:
        raise RichTextError(f'widths="{value}" should be numbers separated by commas') from None
    if any(share <= 0 for share in shares):
        raise RichTextError(f'widths="{value}" should be positive')
    return shares


def header_fills(blocks: list[Block]) -> list[str]:
    """The colour names the tables among `blocks` fill their header with (for the palette check)."""
    return [
        block.look.header_fill
        for block in blocks
        if isinstance(block, Table) and block.look.header_fill not in (None, "none")
    ]


def column_widths(table: Table, available: float) -> list[float] | None:
    if not table.widths:
        return None
    total = sum(table.widths)
    return [available * share / total for share in table.widths]


def _inner(element: ET.Element, depth: int = 0, fragment: str = "") -> str:
    parts = [escape(element.text or "", quote=False)]
    for child in element:
        if child.tag not in INLINE:
            raise RichTextError(f"<{child.tag}> cannot stand inside <{element.tag}>")
        parts.append(_inline(child, depth + 1, fragment))
        parts.append(escape(child.tail or "", quote=False))
    return "".join(parts)


# inline tags open at once in a template's markup: a text keeps at most texts.MAX_NESTING of its
# own, and a template wraps it in a few; thousands, from a template's loop, would run this walk out
# of Python's stack
MAX_INLINE_DEPTH = 64


def _inline(element: ET.Element, depth: int = 1, fragment: str = "") -> str:
    if element.tag == "br":
        return "<br/>"
    if element.tag == "icon":
        return _icon(element, fragment)
    if depth > MAX_INLINE_DEPTH:
        raise RichTextError(
            f"the template's markup has inline tags nested more than {MAX_INLINE_DEPTH} deep "
            f"(<{element.tag}> inside <{element.tag}>…)"
        )
    return f"<{element.tag}>{_inner(element, depth, fragment)}</{element.tag}>"


def _icon(element: ET.Element, fragment: str) -> str:
    """An <icon name="…"/> as written: a name of letters, digits, _ and -, nothing else in it."""
    from printshop.typeset.icons import ICON_NAME

    name = element.get("name")
    extra = sorted(set(element.attrib) - {"name"})
    problem = hint = ""
    if extra:
        problem = "an icon takes only a name, not " + ", ".join(f"'{a}'" for a in extra)
        hint = 'write <icon name="coin"/>'
    elif name is None or not name.strip():
        problem = "<icon> names no icon"
        hint = 'write <icon name="coin"/> with a motif of motifs.yaml or an image of images/'
    elif not ICON_NAME.match(name):
        problem = f"'{name}' is not an icon's name (letters, digits, _ and -)"
        hint = "name a motif of motifs.yaml or an image of images/ (images/<name>.png)"
    elif len(element) or (element.text or "").strip():
        problem = 'an <icon> holds nothing: write it as one tag, <icon name="…"/>'
        hint = f'write <icon name="{name}"/>'
    if problem:
        needle = f'name="{name}"' if name and not extra else "<icon"
        at = fragment.find(needle) if fragment else -1
        raise RichTextError(
            f"the template writes an icon wrongly: {problem}",
            fragment.count("\n", 0, at) + 1 if at >= 0 else 0,
            needle if at >= 0 else "<icon",
            hint,
        )
    return f'<icon name="{name}"/>'


def _squeeze(markup: str) -> str:
    return re.sub(r"[ \t\r\n]+", " ", markup).strip()


_TEXT_OR_TAG = re.compile(r"(<[^>]*>|&[#\w]+;)|([^<&]+)")


def uppercase(markup: str) -> str:
    """Upper-case the text of `markup`, leaving tags and entities alone."""
    return _TEXT_OR_TAG.sub(lambda m: m.group(1) or m.group(2).upper(), markup)


_TAG = re.compile(r"<[^>]*>")


def plain_text(markup: str) -> str:
    """The characters a reader will see (for glyph checks)."""
    import html

    if "<" in markup:
        markup = _TAG.sub("", markup)
    return html.unescape(markup) if "&" in markup else markup
