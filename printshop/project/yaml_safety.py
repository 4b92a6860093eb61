"""What a data file's text may not hold, checked before and while it is read: nesting deeper than
MAX_DEPTH, aliases, control characters, bidirectional controls, lone surrogates, texts longer than
MAX_TEXT.

source.py calls these on every file it reads; a file that fails is refused as a whole, with a
diagnostic at the place of the first fault.
"""

from __future__ import annotations

import re
from pathlib import Path

from printshop.diagnostics import Location, Report

MAX_DEPTH = 100


MAX_TEXT = 20_000  # characters in one value or key


# bidirectional embeddings, overrides and isolates: invisible, they reorder what is printed and
# shown
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


# characters that print nothing: a value holding one (an escape in quotes, "\\0" or "\\x07", makes
# it) broke the markup a template gives ReportLab, reported at the template
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


# in the file itself: controls YAML refuses (reported at 1:1 by the reader), and the three line
# breaks YAML counts that editors do not (U+0085, U+2028, U+2029), after which every line the parser
# named was off by one
RAW_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")


_SURROGATE = re.compile("[\ud800-\udfff]")


# a character any of the three finds (source._values_are_safe's first look: a text without one
# passes at one search)
ANY_UNREADABLE = re.compile(
    "[\ud800-\udfff\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


_BIDI_NAMES = {
    0x202A: "left-to-right embedding",
    0x202B: "right-to-left embedding",
    0x202C: "pop directional formatting",
    0x202D: "left-to-right override",
    0x202E: "right-to-left override",
    0x2066: "left-to-right isolate",
    0x2067: "right-to-left isolate",
    0x2068: "first strong isolate",
    0x2069: "pop directional isolate",
}


# A block collection nested in another starts further right (a list may sit at its key's column, but
# what it holds starts two columns further), so the block nesting of a file is at most the widest
# run of indentation, dashes and question marks that opens a line, plus two. Flow nesting is at most
# the number of opening brackets: a closing one may be text (in a quoted value, in a comment), so no
# count of closings bounds it; a look for two openings with no closing between was fooled by `[ "]",
# [ "]", …`.
_LINE_OPENING = re.compile(r"^[ ?-]+", re.MULTILINE)


def may_be_deep_or_aliased(text: str) -> bool:
    """False when the raw text alone shows the file nests at most MAX_DEPTH levels and has no alias
    (an alias needs a '*'): then the event pass of `structure_is_safe` has nothing to find."""
    if "*" in text:
        return True
    openings = text.count("[") + text.count("{")
    if (
        openings > MAX_DEPTH
    ):  # (the sum below exceeds it too: a large file is spared the scan of its lines)
        return True
    widest = max(map(len, _LINE_OPENING.findall(text)), default=0)
    return widest + 2 + openings > MAX_DEPTH


# characters a value could smuggle a bidirectional control or a lone surrogate with: the controls
# themselves, or an escape in a double-quoted scalar
UNSAFE_RAW = re.compile(
    "[\u202a-\u202e\u2066-\u2069]" r"|\\[uUx0abvfreNLP]"
)  # (escapes making controls)


def structure_is_safe(path: Path, text: str, report: Report) -> bool:
    """Refuse nesting deeper than MAX_DEPTH and aliases (scalar ones too) before any composer sees
    the file. libyaml's event parser keeps its own stack (no recursion) and is as quick as
    composing; a file it cannot parse is left to ruamel.yaml, whose pure-Python composer stops at
    Python's recursion limit."""
    try:
        import yaml as pyyaml

        parser = pyyaml.CSafeLoader
    except (ImportError, AttributeError):
        return True
    starts = (pyyaml.MappingStartEvent, pyyaml.SequenceStartEvent)
    ends = (pyyaml.MappingEndEvent, pyyaml.SequenceEndEvent)
    depth = 0
    try:
        for event in pyyaml.parse(text, Loader=parser):
            if isinstance(event, starts):
                depth += 1
                if depth > MAX_DEPTH:
                    _too_deep(path, event.start_mark, report)
                    return False
            elif isinstance(event, ends):
                depth -= 1
            elif isinstance(event, pyyaml.AliasEvent):
                mark = event.start_mark
                report.add(
                    "yaml-syntax",
                    Location.of(path, mark.line + 1, mark.column + 1),
                    "YAML aliases (*name) are not supported in printshop data: write the value out",
                )
                return False
    except pyyaml.YAMLError as error:
        # libyaml from 0.2.6 (PyYAML 6.0.4's wheels) stops at its own limit of nesting, 1,000 flow
        # levels, as its scanner reads ahead of the events above: that is this file's nesting, not
        # its syntax
        mark = getattr(error, "problem_mark", None)
        if mark is not None and "nesting depth" in str(getattr(error, "problem", "")):
            _too_deep(path, mark, report)
            return False
        return True  # the readers below word the syntax error
    return True


def _too_deep(path: Path, mark, report: Report) -> None:
    report.add(
        "too-large",
        Location.of(path, mark.line + 1, mark.column + 1),
        f"the data is nested more than {MAX_DEPTH} levels deep here",
        hint="a data file needs a few levels: look for a runaway indentation or brackets",
    )


_CONTROL_NAMES = {
    "\x00": "NULL",
    "\x07": "BELL",
    "\x08": "BACKSPACE",
    "\x0b": "LINE TABULATION",
    "\x0c": "FORM FEED",
    "\r": "CARRIAGE RETURN",
    "\x1b": "ESCAPE",
    "\x7f": "DELETE",
    "\x85": "NEXT LINE",
}


CONTROL_SAYS = "a control character that prints nothing and that printshop does not read"


def character_name(character: str) -> str:
    import unicodedata

    name = unicodedata.name(character, "") or _CONTROL_NAMES.get(character, "a control")
    return f"U+{ord(character):04X} ({name})"


# (pattern, code, what the character found is, hint): what a key or value may not hold
_UNREADABLE = (
    (
        _SURROGATE,
        "yaml-syntax",
        lambda c: f"U+{ord(c):04X}, half of a UTF-16 pair, which is not a character",
        "write the character itself, or its \\U escape with eight digits",
    ),
    (
        _CONTROL,
        "yaml-syntax",
        lambda c: f"{character_name(c)}, {CONTROL_SAYS}",
        "take out the escape that makes it (\\0, \\a, \\x.., \\u....); \\n and \\t are kept",
    ),
    (
        _BIDI,
        "bidi-control",
        lambda c: (
            f"U+{ord(c):04X} ({_BIDI_NAMES[ord(c)]}), an invisible control that reorders the text"
        ),
        "",
    ),
)


def string_is_safe(value: str, where: Location, what: str, report: Report) -> bool:
    if len(value) > MAX_TEXT:
        report.add(
            "too-large",
            where,
            f"this {what} is {len(value):,} characters long; printshop reads at most {MAX_TEXT:,}",
            hint="split the text, or shorten it",
        )
        return False
    for pattern, code, says, hint in _UNREADABLE:
        found = pattern.search(value)
        if found:
            report.add(
                code,
                where,
                f"this {what} holds {says(found.group())}, at character {found.start() + 1}",
                hint=hint,
            )
            return False
    return True
