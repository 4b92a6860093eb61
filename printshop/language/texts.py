"""Per-language text catalogues: loading, the markup allowed in them, and language typography.

A catalogue is one YAML file per game and language (`data/<game>/text/<lang>.yaml`): nested
mappings whose leaves are strings, addressed by dotted ids (`card.informer.name`). Texts may
use <b>, <i>, <br/> and <icon name="…"/> (typeset/icons.py); everything else in them is escaped, so data can never inject
ReportLab markup. Texts are never evaluated as templates: `{name}` placeholders are filled
by plain substitution.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass, field
from html import escape, unescape
from pathlib import Path
from typing import Any

from markupsafe import Markup
from ruamel.yaml.comments import CommentedMap

from printshop import memos
from printshop.diagnostics import Location, Report, display_path
from printshop.project.models.language import Typography
from printshop.project.schema import kind_of
from printshop.project.source import Document, items_of, locate, read_yaml
from printshop.typeset.icons import WRITTEN as ICON_WRITTEN
from printshop.typeset.icons import icon_tag_problems
from printshop.typeset.richtext import FORCED_BREAK, TAG_OR_TEXT

ALLOWED_TAGS = {"b", "i", "br"}
# tags open at once in one text: <b> and <i> need two at most; past this they are a markup error,
# printed as written (2,000 of them nested ran the layout out of Python's stack)
MAX_NESTING = 8
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)\s*(/?)>")
# a name in braces, in any alphabet: "{âge}" written by a French translator is a placeholder the
# template does not give (an error that names it), not braces printed on the card
PLACEHOLDER = re.compile(r"\{([^\W\d]\w*)\}")
# a text key, as ids are (models/values.py's Identifier): a card's texts are often found by its id
# or kind (t.card[card.id].name), and ids may hold '-'
_KEY = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


@dataclass(frozen=True)
class TextEntry:
    id: str
    text: str
    location: Location


@dataclass
class Catalogue:
    """The texts of one game in one language, in file order."""

    lang: str
    document: Document
    entries: dict[str, TextEntry] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return self.document.path

    def where_missing(self, text_id: str) -> Location:
        """For an id absent here: the key of the deepest enclosing mapping that exists, else the
        file's start."""
        keys, node = [], self.document.root
        for key in text_id.split(".")[:-1]:
            if not isinstance(node, CommentedMap) or key not in node:
                break
            keys.append(key)
            node = node[key]
        if not keys:
            return Location.of(self.path, 1, 1)
        return locate(self.path, self.document.root, tuple(keys), key_itself=True)


def load_catalogue(path: Path, lang: str, report: Report) -> Catalogue | None:
    document = read_yaml(path, report)
    if document is None:
        return None
    catalogue = Catalogue(lang, document)
    root = document.root
    if root is None:
        return catalogue
    if not isinstance(root, CommentedMap):
        report.add("wrong-type", document.where(), "a text file is a mapping of ids to texts")
        return catalogue
    _flatten(root, (), catalogue, report)
    return catalogue


OBSOLETE_SECTION = "obsolete"  # texts the source dropped, kept by `i18n sync` for reference only


def _flatten(
    node: CommentedMap,
    prefix: tuple,
    catalogue: Catalogue,
    report: Report,
    shown: str | None = None,
) -> None:
    path = catalogue.path
    shown = display_path(path) if shown is None else shown  # (once per file, not once per text)
    # where each value is written, from the map that holds it (`locate` from the root gives the
    # same, walking down again for each text)
    positions = (
        node.lc.data
        if getattr(node, "origins", None) is None and node.lc.data is not None
        else None
    )
    for key, value in items_of(node):
        if not prefix and key == OBSOLETE_SECTION:
            continue
        keys = prefix + (key,)
        if not isinstance(key, str) or not _KEY.match(key):
            report.add(
                "wrong-type",
                locate(path, catalogue.document.root, keys, key_itself=True),
                f"'{key}' is not a valid text key: use lower-case letters, digits, '-' and '_'",
            )
            continue
        text_id = ".".join(keys)
        if isinstance(value, CommentedMap):
            _flatten(value, keys, catalogue, report, shown)
        elif isinstance(value, str):
            position = positions.get(key) if positions is not None else None
            where = (
                Location(shown, position[2] + 1, position[3] + 1)
                if position is not None
                else locate(path, catalogue.document.root, keys)
            )
            catalogue.entries[text_id] = TextEntry(text_id, str(value), where)
        else:
            report.add(
                "wrong-type",
                locate(path, catalogue.document.root, keys),
                f"'{text_id}' must be a text (a string in quotes), not {kind_of(value)}",
                hint='write the text in quotes: key: "text"',
            )


# --- markup ---------------------------------------------------------------------------------
def markup_problems(text: str) -> list[str]:
    """What is wrong with the inline markup of `text` (empty when well formed)."""
    problems: list[str] = []
    open_tags: list[str] = []
    too_deep = False
    outside = _NOT_TEXT.sub(
        lambda match: " " * len(match.group()), text
    )  # a tag in a comment is the comment's
    for match in _ANY_TAG.finditer(outside):
        closing, name, attributes, self_closing = (
            match.group(1),
            match.group(2).lower(),
            match.group(3),
            match.group(4),
        )
        if name == "icon":  # <icon name="coin"/>: the one tag with an attribute
            problems.extend(icon_tag_problems(match.group()))
            continue
        if attributes:  # not a tag to printshop: it would print as written
            shown = _clipped(match.group())
            if name not in ALLOWED_TAGS:
                problems.append(
                    f"{shown} would print as written: texts are plain text, and their only tags are "
                    f"<b>, <i> and <br/>"
                )
                continue
            problems.append(
                f"{shown}: printshop's tags take nothing after their name: write "
                + ("<br/>" if name == "br" else f"<{closing}{name}>")
            )
        if name not in ALLOWED_TAGS:
            problems.append(f"unknown tag <{match.group(2)}> (allowed: <b>, <i>, <br/>)")
        elif name == "br":
            if closing:
                problems.append("</br> is not a tag: write <br/>")
        elif self_closing:
            problems.append(f"<{name}/> is empty: remove it")
        elif closing:
            if not open_tags or open_tags[-1] != name:
                problems.append(
                    f"</{name}> closes nothing open"
                    if name not in open_tags
                    else f"</{name}> closes <{name}> before <{open_tags[-1]}> is closed"
                )
            else:
                open_tags.pop()
        else:
            open_tags.append(name)
            if len(open_tags) == MAX_NESTING + 1 and not too_deep:
                too_deep = True
                problems.append(
                    f"tags nested {MAX_NESTING + 1} deep (at character {match.start() + 1}): printshop "
                    f"keeps {MAX_NESTING} open at once, and <b> and <i> need no more than one inside the other"
                )
    problems.extend(f"<{name}> is never closed" for name in open_tags)
    for match in _NOT_TEXT.finditer(text):
        kind = _NOT_TEXT_NAMES[next(opening for opening in match.groups() if opening)]
        problems.append(
            f"{_clipped(match.group())} would print as written: texts are plain text, with no {kind} "
            f"(a note for translators goes in a # comment on its own line)"
        )
    for match in _ENTITY.finditer(
        text
    ):  # written as in HTML, printed as written ("R&D;" stands for nothing: left)
        character = unescape(match.group())
        if character != match.group():
            problems.append(
                f"{match.group()} would print as written: texts are plain text, not HTML; type the "
                f"character itself ({_character_name(character)})"
            )
    return problems


# a tag as printshop reads it (group 3 empty), or with attributes, which printshop does not read
# (printed as written)
_ANY_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)(\s+[^\s<>/][^<>]*?)?\s*(/?)>")
_NOT_TEXT = re.compile(
    r"(<!--)(?:.*?-->)?|(<!\[CDATA\[)(?:.*?\]\]>)?|(<\?)(?:[^>]*>)?|(<!)(?=[A-Za-z])[^>]*>?", re.S
)
_NOT_TEXT_NAMES = {
    "<!--": "HTML comments",
    "<![CDATA[": "CDATA sections",
    "<?": "processing instructions",
    "<!": "declarations",
}


def _clipped(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);")


def _character_name(character: str) -> str:
    names = "".join(f"U+{ord(c):04X} {unicodedata.name(c, '').lower()}".rstrip() for c in character)
    return (
        f"'{character}', {names}" if character.isprintable() and not character.isspace() else names
    )


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def to_markup(text: str, typography: Typography) -> Markup:
    """Turn a data text into safe ReportLab paragraph markup: allowed, balanced tags kept, the rest
    escaped (the validator reports what was not well formed; the text still lays out). Remembered
    for the process by the text and what `apply_typography` reads of the language's typography:
    every check and build turns every text of a game again (a session after each save, the test
    suite on hundreds of copies)."""
    key = (
        text,
        typography.space,
        typography.space_before,
        typography.space_after,
        tuple(typography.replace.items()),
    )
    known = _MARKUPS.get(key)
    if known is None:
        known = _to_markup(text, typography)
        _MARKUPS.put(key, known, len(text) + len(known))
    return known


# texts as markup (a Markup is a string, never changed), the least recently used forgotten once the
# texts and their markup hold more than this many characters: a session's every saved version of a
# long text stays bounded
_MARKUPS = memos.MARKUPS


def _to_markup(text: str, typography: Typography) -> Markup:
    """The markup of `text`; a well-formed icon is kept as written (typeset.icons), set aside as
    an object replacement character while the rest is escaped and spaced."""
    if "<icon" not in text:
        return _tags_to_markup(text, typography)
    names: list[str] = []

    def set_aside(match: re.Match) -> str:
        names.append(match.group(1))
        return _ICON_STANDS_IN

    markup = _tags_to_markup(
        ICON_WRITTEN.sub(set_aside, text.replace(_ICON_STANDS_IN, "")), typography
    )
    back = iter(names)
    return Markup(re.sub(_ICON_STANDS_IN, lambda _: f'<icon name="{next(back)}"/>', str(markup)))


_ICON_STANDS_IN = "\ufffc"  # U+FFFC OBJECT REPLACEMENT CHARACTER


def _tags_to_markup(text: str, typography: Typography) -> Markup:
    matches = list(_TAG.finditer(text))
    kept = _balanced(matches)
    pieces, last, before = (
        [],
        0,
        "",
    )  # before: the character printed before the next piece, tags aside
    for index, match in enumerate(matches):
        piece = text[last : match.start()]
        pieces.append(escape(apply_typography(piece, typography, before), quote=False))
        before = piece[-1:] or before
        name = match.group(2).lower()
        if index not in kept:
            pieces.append(escape(match.group(0), quote=False))
            before = ">"
        elif name == "br":
            pieces.append("<br/>")
            before = ""  # a new line: what follows starts it
        else:
            pieces.append(f"<{match.group(1)}{name}>")
        last = match.end()
    pieces.append(escape(apply_typography(text[last:], typography, before), quote=False))
    return Markup("".join(pieces))


def _balanced(matches: list[re.Match]) -> set[int]:
    """Indices of the tag matches that are allowed and properly nested, at most MAX_NESTING open at
    once."""
    kept: set[int] = set()
    stack: list[tuple[int, str, bool]] = []  # (index, name, within MAX_NESTING)
    for index, match in enumerate(matches):
        closing, name, self_closing = match.group(1), match.group(2).lower(), match.group(3)
        if name not in ALLOWED_TAGS:
            continue
        if name == "br":
            if not closing:
                kept.add(index)
        elif closing:
            if stack and stack[-1][1] == name:
                opened, _, within = stack.pop()
                if within:
                    kept.update({opened, index})
        elif not self_closing:
            stack.append((index, name, len(stack) < MAX_NESTING))
    return kept


def apply_typography(text: str, typography: Typography, before: str = "") -> str:
    """The language's typographic conventions, e.g. French narrow no-break spaces before ; : ! ?.
    `before`: the character printed before `text` (a piece of a text between tags: "<b>Feu</b>»" is
    "Feu" then "»")."""
    for old, new in typography.replace.items():
        text = text.replace(old, new)
    space = typography.space
    # (each rule below looks for one of its marks: a text without any, most of them, is left as it
    # is)
    if typography.space_before and any(mark in text for mark in typography.space_before):
        spaced, others, other, close = _spacing_before(typography.space_before)
        # a space (of any kind) before the mark becomes the language's space...
        text = spaced.sub(space, text)
        # ...and one is added where the writer left none: before a closing quote always ("«Phare»!"
        # is "« Phare » !", "Qui?»" is "Qui ? »"); before another mark, not inside "10:30",
        # "http://" or "?!"
        if other is not None:
            text = other.sub(
                lambda found: space if found.start() or _spaced(before, others) else "", text
            )
        if close is not None:
            text = close.sub(
                lambda found: space if found.start() or _spaced(before, "") else "", text
            )
    if typography.space_after and any(mark in text for mark in typography.space_after):
        text = _spacing_after(typography.space_after).sub(space, text)
    return text


@memos.SPACING_BEFORE
def _spacing_before(space_before: str):
    """apply_typography's patterns for the marks a language spaces before: (the spaces before a
    mark, the marks that are not closing ones, the place before one of those, the place before a
    closing mark), made once per language."""
    marks = re.escape(space_before)
    closing = "".join(mark for mark in space_before if unicodedata.category(mark) in ("Pf", "Pe"))
    others = "".join(mark for mark in space_before if mark not in closing)
    after_none = "\\s«(\\[{"  # no space is added after a space or an opening bracket or quote
    other = (
        re.compile(
            rf"(?:(?<=[^{after_none}{re.escape(others)}])|^)(?=[{re.escape(others)}](?:\s|$|[{marks}]|<))"
        )
        if others
        else None
    )
    close = (
        re.compile(rf"(?:(?<=[^{after_none}])|^)(?=[{re.escape(closing)}])") if closing else None
    )
    return re.compile(rf"[ \u00a0\u202f]+(?=[{marks}])"), others, other, close


@memos.SPACING_AFTER
def _spacing_after(space_after: str):
    return re.compile(rf"(?<=[{re.escape(space_after)}])[ \u00a0\u202f]*")


def keep_with_next(markup: str, typography: Typography) -> str:
    """`markup` (a paragraph's text and tags) with the breaking space after each of the typography's
    short words (`keep_with_next`) and, with `numbers_with_next`, after a number followed by a word,
    made a no-break space, so that no line ends with one ("« La / lampe", "perd 1 / lumière", "sur
    <b>13</b> / ou plus"). The text is read across its tags (a <br/> ends a line); a word is one
    only where it starts (after a space, an opening quote or bracket), not at the end of
    "<b>Ca</b>de". For ragged and centred text: in a justified paragraph a tie can open the spaces
    of the line before it wide, and only a runt's last words are tied (fitting.py). Remembered per
    text and typography: a check lays out the same texts again, and a session after every edit."""
    key = (markup, tuple(typography.keep_with_next), typography.numbers_with_next)
    known = _KEPT.get(key)
    if known is None:
        known = _KEPT[key] = _keep_with_next(markup, _tie_pattern(key[1], key[2]))
    return known


def _keep_with_next(markup: str, pattern: re.Pattern | None) -> str:
    if pattern is None:
        return markup
    pieces, starts, texts = (
        [],
        [],
        [],
    )  # the text as printed; where each of its pieces starts in it and in markup
    length = 0
    for match in TAG_OR_TEXT.finditer(markup):
        piece = match.group()
        if not piece.startswith("<"):
            starts.append(length)
            texts.append(match.start())
            pieces.append(piece)
            length += len(piece)
        elif FORCED_BREAK.fullmatch(piece):
            pieces.append("\n")
            length += 1
    tied: dict[
        int, str
    ] = {}  # index in markup -> what replaces it: a run of spaces becomes one no-break space
    for found in pattern.finditer("".join(pieces)):
        start, end = found.span("spaces")
        for offset in range(start, end):  # (a run may go on across a tag: "de <b> x</b>")
            which = bisect_right(starts, offset) - 1  # the piece the offset is in
            tied[texts[which] + offset - starts[which]] = "" if offset > start else "\u00a0"
    if not tied:
        return markup
    out, last = [], 0
    for index in sorted(tied):
        out.append(markup[last:index])
        out.append(tied[index])
        last = index + 1
    out.append(markup[last:])
    return "".join(out)


_KEPT = memos.KEPT_WITH_NEXT


@memos.TIE_PATTERNS
def _tie_pattern(words: tuple[str, ...], numbers: bool) -> re.Pattern | None:
    """What `keep_with_next` ties: one of `words` as a whole word, and with `numbers`, a number (its
    letters too: "5F", "1er") before a word; each with the breaking spaces after it."""
    kinds = []
    if words:
        kinds.append(
            "(?:{})(?![^\\W_])".format(
                "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
            )
        )
    if numbers:
        kinds.append(r"\d+(?:[.,]\d+)*[^\W\d_]*(?=[ ]+[^\W\d_])")  # 12, 3,5, 5F, 1er
    if not kinds:
        return None
    return re.compile(
        rf"(?:(?<=[\s«‹„“‘(\[{{])|^)(?:{'|'.join(kinds)})(?P<spaces>[ ]+)(?=\S)", re.IGNORECASE
    )


def _spaced(before: str, marks: str) -> bool:
    """Whether a mark opening a piece of text takes a space from the character printed before it."""
    return bool(before) and not before.isspace() and before not in "«([{" and before not in marks


def fill(text: Markup | str, **values: Any) -> Markup:
    """Substitute `{name}` placeholders with escaped values; an unknown name is an error."""

    def substitute(match: re.Match) -> str:
        name = match.group(1)
        if name not in values:
            raise PlaceholderError(name, sorted(values))
        return str(escape(str(values[name]), quote=False))

    return Markup(PLACEHOLDER.sub(substitute, str(text)))


class PlaceholderError(Exception):
    def __init__(self, name: str, given: list[str]):
        super().__init__(
            f"the text uses the placeholder {{{name}}}, which the template does not provide "
            f"(it provides: {', '.join(given) or 'none'})"
        )
        self.name = name
        self.given = given
