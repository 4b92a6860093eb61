"""Diagnostics are values: where (file, line, column), how bad, which check, what to do.

Every stage reports problems as `Diagnostic`s; one formatter prints them as
`path:line:col: severity[code]: message`. The catalogue below gives each check a stable
code, a default severity and a one-line hint on how to fix it.
"""
from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field
from pathlib import Path


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, order=True)
class Location:
    """A place in a source file; line and column count from 1 (0 means unknown)."""

    path: str
    line: int = 0
    col: int = 0

    @classmethod
    def of(cls, path: Path | str, line: int = 0, col: int = 0) -> "Location":
        return cls(display_path(path), line, col)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


def display_path(path: Path | str) -> str:
    """A path as a user wants to read it: relative to the working directory when below it."""
    path = Path(path)
    try:
        return os.path.relpath(path) if path.is_absolute() and Path.cwd() in path.parents else str(path)
    except ValueError:  # another drive on Windows
        return str(path)


@dataclass(frozen=True)
class Check:
    code: str
    severity: Severity
    summary: str
    hint: str


CATALOGUE: dict[str, Check] = {}


def _check(code: str, severity: Severity, summary: str, hint: str) -> None:
    CATALOGUE[code] = Check(code, severity, summary, hint)


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO
# Data shape
_check("yaml-syntax", E, "a data file is not valid YAML", "fix the syntax at the place shown (indentation, quotes, colons)")
_check("file-missing", E, "a required data file or folder is missing", "create the file, or pass the right folder with --data")
_check("unknown-key", E, "a key that the schema does not know", "correct the spelling or remove the key")
_check("wrong-type", E, "a value of the wrong type", "write the kind of value the message names")
_check("missing-field", E, "a required field is absent", "add the field")
_check("duplicate-key", E, "the same key twice in one mapping", "keep one of the two keys")
_check("duplicate-id", E, "the same id twice in one list", "give each entry its own id")
_check("unknown-reference", E, "a reference to something that does not exist", "use one of the names the message lists")
# Decks and rules
_check("composition", E, "a deck does not hold the cards the game declares", "add or remove cards, or correct the declared composition")
_check("setup-impossible", E, "a supported player count cannot be set up with the cards there are", "add cards, or change the setup rule or the player range")
_check("rule-expression", E, "a rule's expression cannot be evaluated", "use numbers, n, + - * // and parentheses")
# Texts
_check("missing-text", E, "a text id of the source language has no text in a translation", "add the text to the translation file")
_check("orphan-text", W, "a text id in a translation that the source does not have", "remove it, or add it to the source")
_check("markup", E, "text markup that is not well formed or uses an unknown tag", "use only <b>, <i> and <br/>, each opened tag closed")
_check("placeholder", E, "a placeholder a template does not provide, or one that differs from the source", "use the placeholders of the source text")
_check("template", E, "a template cannot be rendered", "fix the template at the place shown")
# Print
_check("text-overflow", E, "text does not fit its frame at the layout's minimum size", "shorten the text, or enlarge the frame in the layout")
_check("missing-glyph", E, "a character that the font cannot print", "replace the character, or choose a font that has it")
_check("outside-safe-zone", W, "a text frame reaches beyond the card's safe zone", "move the frame inside the safe zone")
_check("reconstructed", I, "content that the sources lack and the project designed", "review it against the publisher's wishes")
_check("internal", E, "an unexpected failure while reading a file", "report it with the file named here")
del E, W, I


@dataclass(frozen=True)
class Diagnostic:
    location: Location
    severity: Severity
    code: str
    message: str
    hint: str = ""

    def format(self) -> str:
        return f"{self.location}: {self.severity.value}[{self.code}]: {self.message}"


def diagnostic(code: str, location: Location, message: str, severity: Severity | None = None) -> Diagnostic:
    check = CATALOGUE[code]
    return Diagnostic(location, severity or check.severity, code, message, check.hint)


@dataclass
class Report:
    """The diagnostics gathered by a run, in the order found."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, code: str, location: Location, message: str, severity: Severity | None = None) -> None:
        self.items.append(diagnostic(code, location, message, severity))

    def extend(self, other: "Report | list[Diagnostic]") -> None:
        self.items.extend(other.items if isinstance(other, Report) else other)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity is Severity.ERROR]

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.items)

    def sorted(self) -> list[Diagnostic]:
        """Errors by file and position, duplicates removed (two stages may see the same fault)."""
        unique = dict.fromkeys(self.items)
        return sorted(unique, key=lambda d: (d.location, d.code, d.message))

    def counts(self) -> dict[Severity, int]:
        return {s: sum(1 for d in self.items if d.severity is s) for s in Severity}


def format_report(report: Report, *, hints: bool = True) -> str:
    lines = []
    for item in report.sorted():
        lines.append(item.format())
        if hints and item.hint and item.severity is not Severity.INFO:
            lines.append(f"  hint: {item.hint}")
    return "\n".join(lines)


class StageFailed(Exception):
    """Raised by a stage that cannot go on; carries everything found so far."""

    def __init__(self, report: Report):
        super().__init__(f"{len(report.errors)} error(s)")
        self.report = report
