"""A language's punctuation, as the translation checks read it: where its sentences end, the opening
marks its questions and exclamations need, and the straight quotes it does not print.

The rules, each read from the language file's `typography` (none is written here for one language):

- **Sentences.** A sentence ends at `.`, `?`, `!` or `…` (or `...`), closing quotes and brackets
  after it included, when a space or a line break and then anything but a lower-case letter follows,
  or the text ends there. A line break (`<br/>` or a new line) ends one too. A full stop ends no
  sentence when it closes
  - an abbreviation the language lists (`typography.abbreviations`: `etc.`, `z. B.`, `EE. UU.`,
    `p. ex.`), each of its inner full stops included (the `EE.` of `EE. UU.`);
  - a capital letter alone: an initial (`J. Stalin`, `J. R. R.`); a lower-case letter alone is a word
    (Italian "Non lo è.") unless the language lists it (`p.`, `z. B.`);
  - a number, in a language whose ordinals take a full stop (`typography.ordinal_full_stop`:
    German `am 3. Tag`), when it starts its line or follows a lower-case word; after a capitalised
    word, a noun, it is a cardinal that ends its sentence (`in Spalte 1. Jedes Blatt`).
  A text that ends with an abbreviation ends a sentence as well as the abbreviation (Spanish "en EE.
  UU." writes one full stop for both): its end is a full stop, or no mark, whichever its source has.
- **Opening marks** (`typography.opening_marks`, closing mark to opening mark; Spanish `?: ¿`,
  `!: ¡`). In a language that declares them, each `?` closes a question that a `¿` opened earlier in
  the same sentence (not necessarily at its start: "Si ganas, ¿quién pierde?"), and each `¿` is
  closed by a `?` before the sentence ends. `¡¿…?!` nests; a question mark closing an exclamation
  that `¡` opened is a mistake. They are not a pair of quotes: they never span two sentences.
- **Straight quotes.** A language names the quotes it prints (`typography.quotes`) and its apostrophe
  (`typography.apostrophe`, `’` by default). A straight `"` where no pair of its quotes is straight,
  or a straight `'` where its apostrophe is not, is reported, unless `typography.replace` turns that
  character into another at print (English, French and German replace `'` with `’`: there a straight
  apostrophe is right in the file and typographic on paper). `replace` maps one character to one, so
  it can never tell an opening `"` from a closing one: a straight double quote is always reported
  where the language's quotes are typographic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from printshop.project.models.language import Typography

_TAG = re.compile(r"<[^>]*>")
_BREAK = re.compile(r"<br\s*/?>|\n", re.IGNORECASE)
# a run of end marks with the closing quotes and brackets after it, then a space or the text's end
_END = re.compile(r"(\.\.\.|[.?!…])+([»”’\"')\]›]*)(?=\s|$)")
_LETTER = re.compile(r"[^\W\d_]")
# a capital letter alone just before a full stop: an initial (a lower-case one is a word: Italian
# "Non lo è.", French "Il y en a." end sentences; "p." or "z." are abbreviations a language lists)
_INITIAL = re.compile(r"(?:^|[^\w])([^\W\d_])\.$")
_NUMBER_BEFORE = re.compile(r"(?:^|[^\w])\d+$")
_LETTER_RUN = re.compile(r"[^\W\d_]+")
_STRAIGHT = {'"': "double", "'": "single"}


@dataclass(frozen=True)
class Rules:
    """What these checks read of a language's typography, hashable (a key of the checks' memos)."""

    abbreviations: tuple[str, ...] = ()
    ordinal_full_stop: bool = False
    opening_marks: tuple[tuple[str, str], ...] = ()
    quotes: tuple[tuple[str, str], ...] = (("\u201c", "\u201d"),)
    apostrophe: str = "\u2019"
    replaced: tuple[str, ...] = ()

    @staticmethod
    def of(typography: Typography | None) -> "Rules":
        if typography is None:
            return Rules()
        return Rules(
            tuple(typography.abbreviations),
            typography.ordinal_full_stop,
            tuple(sorted(typography.opening_marks.items())),
            tuple(tuple(pair) for pair in typography.quotes),  # type: ignore[misc]
            typography.apostrophe,
            tuple(sorted(typography.replace)),
        )


def _abbreviation_ends(rules: Rules) -> tuple[str, ...]:
    """Every piece of an abbreviation that ends with one of its full stops ("EE." and "EE. UU.")."""
    pieces = {
        abbreviation[: index + 1]
        for abbreviation in rules.abbreviations
        for index, char in enumerate(abbreviation)
        if char == "."
    }
    return tuple(sorted(pieces, key=len, reverse=True))


def _ends_abbreviation(before: str, rules: Rules) -> bool:
    """Whether the full stop that ends `before` closes an abbreviation or an initial."""
    initial = _INITIAL.search(before)
    if initial and initial.group(1).isupper():
        return True
    for piece in _abbreviation_ends(rules):
        # as listed, or with its first letter capitalised where it starts a sentence ("Z. B.")
        if before.endswith(piece) or before.endswith(piece[:1].upper() + piece[1:]):
            start = len(before) - len(piece)
            if start == 0 or not before[start - 1].isalnum():
                return True
    return False


def plain_lines(text: str) -> list[str]:
    """The text a reader sees, line by line: tags out, each line break a new line."""
    return [_TAG.sub("", line) for line in _BREAK.split(text)]


def sentences(text: str, rules: Rules) -> list[str]:
    """The sentences of `text` (markup aside), by the rules of the module's docstring."""
    found: list[str] = []
    for line in plain_lines(text):
        start = 0
        for match in _END.finditer(line):
            end = match.end()
            if end < len(line) and not _boundary(line, match, rules):
                continue
            found.append(line[start:end])
            start = end
        found.append(line[start:])
    return [
        sentence.strip()
        for sentence in found
        if _LETTER.search(sentence) or any(char.isdigit() for char in sentence)
    ]


def _boundary(line: str, match: re.Match, rules: Rules) -> bool:
    """Whether the end marks of `match`, with text after them on the line, end a sentence."""
    following = line[match.end() :].lstrip()
    if not following or following[0].islower():
        return False
    if match.group(0).rstrip("»”’\"')]›") == ".":
        before = line[: match.start() + 1]
        if _ends_abbreviation(before, rules):
            return False
        if rules.ordinal_full_stop and _ordinal(before[:-1]):
            return False
    return True


def _ordinal(before: str) -> bool:
    """Whether the number that ends `before` is an ordinal: one that starts its line, or follows a
    lower-case word ("am 3. Tag", "der 2. Runde"); after a capitalised word, a noun, it is a
    cardinal that ends its sentence ("in Spalte 1. Jedes Blatt…")."""
    number = _NUMBER_BEFORE.search(before)
    if not number:
        return False
    words = _LETTER_RUN.findall(before[: number.start() + 1])
    return not words or words[-1][0].islower()


def ends_with_abbreviation(text: str, rules: Rules) -> bool:
    """Whether the text's last full stop closes an abbreviation or an initial ("… en EE. UU.")."""
    lines = plain_lines(text)
    last = lines[-1].rstrip() if lines else ""
    last = last.rstrip("»”’\"')]›\u202f\u00a0 ")
    return last.endswith(".") and not last.endswith("...") and _ends_abbreviation(last, rules)


def opening_mark_problems(text: str, rules: Rules) -> list[str]:
    """Each question or exclamation in `text` that lacks the opening mark the language requires, or
    each opening mark its sentence never closes, said for a translator."""
    if not rules.opening_marks:
        return []
    closing_to_opening = dict(rules.opening_marks)
    openings = set(closing_to_opening.values())
    problems = []
    for sentence in sentences(text, rules):
        open_marks: list[str] = []
        for char in sentence:
            if char in openings:
                open_marks.append(char)
            elif char in closing_to_opening:
                wanted = closing_to_opening[char]
                if wanted in open_marks:
                    # the innermost one of its kind: "¡¿Qué?!" closes ¿ then ¡
                    del open_marks[len(open_marks) - 1 - open_marks[::-1].index(wanted)]
                else:
                    problems.append(
                        f"'{char}' ends a sentence that no '{wanted}' opens: \"{_short(sentence)}\""
                    )
        for mark in open_marks:
            closing = next(c for c, o in closing_to_opening.items() if o == mark)
            problems.append(
                f"'{mark}' opens what no '{closing}' closes in the same sentence: "
                f'"{_short(sentence)}"'
            )
    return problems


def straight_quote_problems(text: str, rules: Rules) -> list[str]:
    """Each kind of straight quote in `text` that the language prints otherwise and does not replace
    at print."""
    seen = _TAG.sub(" ", text)
    straight_pairs = {mark for pair in rules.quotes for mark in pair}
    problems = []
    for mark in ('"', "'"):
        if mark not in seen or mark in rules.replaced or mark in straight_pairs:
            continue
        if mark == "'" and rules.apostrophe == "'":
            continue
        at = seen.index(mark)
        wanted = (
            " or ".join(f"{opening}…{closing}" for opening, closing in rules.quotes)
            if mark == '"'
            else f"{rules.apostrophe} (or {' or '.join(o + '…' + c for o, c in rules.quotes)})"
        )
        problems.append(
            f'a straight {_STRAIGHT[mark]} quote {mark} at "{_around(seen, at)}" where the '
            f"language prints {wanted}"
        )
    return problems


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _around(text: str, index: int) -> str:
    return text[max(0, index - 12) : index + 14].replace("\n", " ")
