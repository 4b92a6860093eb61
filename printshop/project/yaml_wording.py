"""A YAML syntax error as a publisher reads it: the parser's problem said plainly with what to do,
and the quote that opened a text where the parser only noticed it lines later.

source.py words every syntax error it reports through these.
"""

from __future__ import annotations

import re

# What the parser says, as a person would say it, with what to do ({problem}: the parser's own
# words, kept)
_PLAINLY = (
    ("'\\t'", "a tab: YAML indents with spaces only ({problem})", "replace the tab with spaces"),
    (
        "mapping values are not allowed here",
        "a colon the parser cannot read here ({problem})",
        "put a text holding ': ' in quotes (\"Phase 1: vote\"), or check this line's indentation against its key's",
    ),
    (
        "expected <block end>",
        "this line is indented unlike the lines of its block ({problem})",
        "indent it as the keys beside it are (with spaces), or check the line above for a missing or extra space",
    ),
    (
        "could not find expected ':'",
        "a key without its colon, or a line that should belong to the one above ({problem})",
        "write 'key: value', or indent a continued text under its key",
    ),
)


def plainly(problem: str) -> tuple[str, str]:
    for needle, said, hint in _PLAINLY:
        if needle in problem:
            return said.format(problem=problem), hint
    return problem, ""


_QUOTED_VALUE = re.compile(r"""^(\s*(?:-\s+)?(?:[^#'"\s][^#]*?:\s+)?)(["'])""")


def unclosed_quote(text: str, error_line: int) -> tuple[int, int] | None:
    """(line, column) of a quoted value that runs on past its line and ends on `error_line`, where
    the parser stopped: `name: "Braise` with the quote forgotten reads on to the next line's first
    quote. A text in quotes may run over lines in YAML, and one that does and parses is never
    blamed: only the one the error ends."""
    lines = text.splitlines()
    number = 0
    while number < min(error_line, len(lines)):
        line = lines[number]
        match = _QUOTED_VALUE.match(line)
        number += 1
        if match is None:
            continue
        quote, start = match.group(2), match.end()
        end = _quote_end(line, start, quote)
        opened_at = (
            number,
            start,
        )  # (start, the index after the quote, is the quote's column counted from 1)
        while end is None and number < len(lines):  # runs over the next lines, as YAML lets it
            end = _quote_end(lines[number], 0, quote)
            number += 1
            if end is not None and number == error_line:
                return opened_at
    return None


def _quote_end(line: str, start: int, quote: str) -> int | None:
    """Where in `line`, from `start`, a quoted scalar opened before ends (a double-quoted one
    escapes with a backslash, a single-quoted one by doubling the quote); None: it runs on."""
    index = start
    while index < len(line):
        character = line[index]
        if quote == '"' and character == "\\":
            index += 2
            continue
        if character == quote:
            if quote == "'" and line[index + 1 : index + 2] == "'":
                index += 2
                continue
            return index
        index += 1
    return None
