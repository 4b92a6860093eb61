"""Diagnostics are values: where (file, line, column), how bad, which check, what to do.

Every stage reports problems as `Diagnostic`s; one formatter prints them as
`path:line:col: severity[code]: message`. The catalogue below gives each check a stable
code, a default severity and a one-line hint on how to fix it.
"""
from __future__ import annotations

import enum
import functools
import json
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
    return _display_path(str(path), os.getcwd())


@functools.lru_cache(maxsize=4096)
def _display_path(path: str, cwd: str) -> str:  # a deck names the same few files thousands of times
    as_path = Path(path)
    try:
        return os.path.relpath(as_path, cwd) if as_path.is_absolute() and Path(cwd) in as_path.parents else path
    except ValueError:  # another drive on Windows
        return path


@dataclass(frozen=True)
class Check:
    code: str
    severity: Severity
    summary: str
    hint: str
    example: str


CATALOGUE: dict[str, Check] = {}


def _check(code: str, severity: Severity, summary: str, hint: str, example: str) -> None:
    CATALOGUE[code] = Check(code, severity, summary, hint, example)


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO
# Data shape
_check("yaml-syntax", E, "a data file is not valid YAML", "fix the syntax at the place shown (indentation, quotes, colons)",
       "data/comrade/text/fr.yaml:4:3: error[yaml-syntax]: YAML syntax: while scanning a quoted scalar found unexpected end of stream")
_check("file-missing", E, "a required data file or folder is missing", "create the file, or pass the right folder with --data",
       "data/print/fonts.yaml:8:14: error[file-missing]: font file 'NotoSans-Bold.ttf' is in none of: data/fonts, printshop/fonts")
_check("unknown-key", E, "a key that the schema does not know", "correct the spelling or remove the key",
       "data/comrade/game.yaml:21:45: error[unknown-key]: unknown key 'cuont'; did you mean 'count'?")
_check("wrong-type", E, "a value of the wrong type", "write the kind of value the message names",
       "data/comrade/game.yaml:21:52: error[wrong-type]: 'decks.cards.cards.3.count': input should be a valid integer")
_check("missing-field", E, "a required field is absent", "add the field",
       "data/comrade/game.yaml:1:1: error[missing-field]: 'minutes' is required but missing")
_check("duplicate-key", E, "the same key twice in one mapping", "keep one of the two keys",
       "data/comrade/text/en.yaml:5:3: error[duplicate-key]: the key 'title' appears twice in one mapping (first at line 4); the second is ignored")
_check("duplicate-id", E, "the same id twice in one list", "give each entry its own id",
       "data/comrade/game.yaml:23:14: error[duplicate-id]: card id 'chairman' is used twice in deck 'cards' (first at data/comrade/game.yaml:22:14)")
_check("unknown-reference", E, "a reference to something that does not exist", "use one of the names the message lists",
       "data/comrade/game.yaml:22:46: error[unknown-reference]: no face 'chairmen' in faces.yaml (faces: card, role, comrade, …)")
# Decks and rules
_check("composition", E, "a deck does not hold the cards the game declares", "add or remove cards, or correct the declared composition",
       "data/comrade/game.yaml:33:12: error[composition]: deck 'cards' should hold 1 'informer' card(s) but holds 0")
_check("setup-impossible", E, "a supported player count cannot be set up with the cards there are", "add cards, or change the setup rule or the player range",
       "data/comrade/game.yaml:41:46: error[setup-impossible]: deck 'cards' has 6 'comrade' card(s): 9 players need 7; 10 players need 8")
_check("tie", W, "two cards share a value that a rule uses to break ties", "check with the publisher which card goes first",
       "data/kremlin/game.yaml:40:7: warning[tie]: cards 'h' and 'i' share age 69 (i at data/kremlin/game.yaml:41:7); the rule needs distinct ages")
_check("succession", E, "a phase's order of who acts is not complete or names an office twice", "list every office once, as the rules give it",
       "data/kremlin/game.yaml:60:18: error[succession]: phase 5 (funeral): 'ideology' appears twice")
_check("rule-expression", E, "a rule's expression cannot be evaluated", "use whole numbers, the variable, + - * // % and parentheses",
       "data/comrade/game.yaml:43:44: error[rule-expression]: 'n ** 2' may only use whole numbers, n, + - * // % and parentheses")
# Texts
_check("missing-text", E, "a text id of the source language has no text in a translation", "add the text to the translation file (printshop i18n sync adds it for you)",
       "data/comrade/text/fr.yaml:19:3: error[missing-text]: 'card.informer.name' has no French text (source: data/comrade/text/en.yaml:20:11)")
_check("orphan-text", W, "a text id in a translation that the source does not have", "remove it, or run printshop i18n sync to move it to the obsolete section",
       "data/comrade/text/fr.yaml:30:5: warning[orphan-text]: 'card.informer.title' is not in the source language")
_check("untranslated", W, "a translation identical to a source text that is unlikely to stay the same", "translate the text",
       "data/comrade/text/fr.yaml:21:11: warning[untranslated]: 'card.informer.goal' is the same as the English source")
_check("stale-translation", W, "the source text changed after the translation was made", "update the translation, then run printshop i18n sync",
       "data/comrade/text/fr.yaml:20:11: warning[stale-translation]: 'card.informer.name': the English source changed from \"Informer\" to \"Informant\" since this was translated")
_check("markup", E, "text markup that is not well formed or uses an unknown tag", "use only <b>, <i> and <br/>, each opened tag closed",
       "data/comrade/text/en.yaml:20:11: error[markup]: 'card.informer.name': <b> is never closed")
_check("markup-mismatch", W, "a translation's inline markup differs from the source's", "use the same <b> and <i> as the source",
       "data/comrade/text/fr.yaml:88:8: warning[markup-mismatch]: 'rules.interrogation.p1': the source uses <b> ×2, the translation <b> ×1")
_check("line-breaks", W, "a translation has a different number of line breaks than the source", "break the lines as the source does",
       "data/comrade/text/fr.yaml:12:14: warning[line-breaks]: 'rules.credits.design': the source has 1 line break(s), the translation 0")
_check("placeholder", E, "a placeholder a template does not provide, or one that differs from the source", "use the placeholders of the source text",
       "data/comrade/text/fr.yaml:5:12: error[placeholder]: 'game.players' uses {maximum}, {min} but the source uses {max}, {min}")
_check("template", E, "a template cannot be rendered", "fix the template at the place shown",
       "templates/comrade/faces/role.j2:3:1: error[template]: there is no text 'card.comrade.gaol' in language 'en' (face 'comrade', language en)")
# Print
_check("text-overflow", E, "text does not fit its frame at the layout's minimum size", "shorten the text, or enlarge the frame in the layout",
       "data/comrade/faces.yaml:26:14: error[text-overflow]: card 'informer', frame 'title', language fr: the text does not fit at the minimum size 10 pt: overflows by 37.5 pt (about 4 lines)")
_check("missing-glyph", E, "a character that the font cannot print", "replace the character, or choose a font that has it",
       "data/comrade/faces.yaml:107:14: error[missing-glyph]: card 'back', frame 'motto', language fr: the font 'serif-italic' has no '☭' (U+262D)")
_check("image-resolution", E, "an image that prints below 300 dpi at its placed size", "supply a larger image, or print it smaller",
       "data/comrade/faces.yaml:40:14: error[image-resolution]: image 'images/seal.png' prints at 150 × 150 dpi (needs 300)")
_check("press-bleed", E, "card faces drawn with less bleed than a print shop needs", "raise the deck's bleed in game.yaml",
       "data/comrade/game.yaml:12:12: error[press-bleed]: deck 'cards' is drawn with 2.00 mm of bleed; EU print shops, 3 mm bleed needs 3.00 mm")
_check("press-trim", E, "a deck's card size is too far from the print shop's trim to be scaled to it",
       "give the profile a product of this card size in data/print/profiles/, or leave the size out of its products",
       "data/kremlin/game.yaml:163:16: error[press-trim]: deck 'markers' (chit-16) would be scaled by 3.969 to DriveThruCards's trim 'poker-us'; give the profile a product of this size")
_check("outside-safe-zone", W, "a text frame or icon reaches beyond the safe zone of the card or of a print shop", "move the frame or icon inside the safe zone (for a shop's, the narrowest zone named)",
       "data/comrade/faces.yaml:26:14: warning[outside-safe-zone]: frame 'title' of face 'informer' comes 1.5 mm closer to the trim than the deck's safe zone of 4.0 mm; 0.7 mm closer to the trim than The Game Crafter's safe zone of 3.2 mm")
# Provenance
_check("reconstructed", I, "content that the sources lack and the project designed", "review it against the publisher's wishes",
       "data/comrade/game.yaml:52:7: info[reconstructed]: rules.committee.p1: the seed does not say whether character cards are shown")
_check("internal", E, "an unexpected failure while reading a file", "report it with the file named here",
       "data/comrade: error[internal]: reading this game failed unexpectedly: …")
del E, W, I


@dataclass(frozen=True)
class Diagnostic:
    location: Location
    severity: Severity
    code: str
    message: str
    hint: str = ""
    acknowledged: str = ""  # why the data accepts this warning; it then does not fail --strict

    def format(self) -> str:
        note = f" (acknowledged: {self.acknowledged})" if self.acknowledged else ""
        return f"{self.location}: {self.severity.value}[{self.code}]: {self.message}{note}"


def diagnostic(code: str, location: Location, message: str, severity: Severity | None = None,
               acknowledged: str = "") -> Diagnostic:
    check = CATALOGUE[code]
    return Diagnostic(location, severity or check.severity, code, message, check.hint, acknowledged)


@dataclass
class Report:
    """The diagnostics gathered by a run, in the order found."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, code: str, location: Location, message: str, severity: Severity | None = None,
            acknowledged: str = "") -> None:
        self.items.append(diagnostic(code, location, message, severity, acknowledged))

    def fails(self, *, strict: bool) -> bool:
        """Errors fail; with `strict`, so do warnings the data has not acknowledged."""
        return self.has_errors or strict and any(
            d.severity is Severity.WARNING and not d.acknowledged for d in self.items)

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


FORMATS = ("text", "json", "github")


def format_report(report: Report, *, style: str = "text", hints: bool = True) -> str:
    """`text`: path:line:col: severity[code]: message (+ hint); `json`: a list of objects;
    `github`: GitHub Actions workflow commands, which annotate the files in a pull request."""
    items = report.sorted()
    if style == "json":
        return json.dumps([{"path": d.location.path, "line": d.location.line, "col": d.location.col,
                            "severity": d.severity.value, "code": d.code, "message": d.message, "hint": d.hint,
                            "acknowledged": d.acknowledged}
                           for d in items], ensure_ascii=False, indent=2)
    lines = []
    for item in items:
        if style == "github":
            level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}[item.severity]
            where = f"file={_gh(item.location.path)}"
            if item.location.line:
                where += f",line={item.location.line}"
            if item.location.col:
                where += f",col={item.location.col}"
            lines.append(f"::{level} {where},title={_gh(item.code)}::{_gh(item.message, data=True)}")
            continue
        lines.append(item.format())
        if hints and item.hint and item.severity is not Severity.INFO:
            lines.append(f"  hint: {item.hint}")
    return "\n".join(lines)


def _gh(value: str, *, data: bool = False) -> str:
    """Escape a value for a GitHub workflow command (properties also escape ':' and ',')."""
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return value if data else value.replace(":", "%3A").replace(",", "%2C")


def catalogue_markdown() -> str:
    """docs/checks.md, generated from the catalogue (`printshop checks --markdown`)."""
    lines = ["# Checks", "",
             "Every problem `printshop validate` reports has a stable code, a severity and a hint. Errors fail",
             "the run; warnings fail it only with `--strict`; infos never do. This page is generated by",
             "`printshop checks --markdown > docs/checks.md`; a test keeps it in step with the code.", "",
             "| code | severity | what it means | how to fix it |", "|---|---|---|---|"]
    for check in CATALOGUE.values():
        lines.append(f"| `{check.code}` | {check.severity.value} | {check.summary} | {check.hint} |")
    lines += ["", "## Examples", ""]
    for check in CATALOGUE.values():
        lines += [f"### `{check.code}`", "", "```", check.example, "```", ""]
    return "\n".join(lines)


class StageFailed(Exception):
    """Raised by a stage that cannot go on; carries everything found so far."""

    def __init__(self, report: Report):
        super().__init__(f"{len(report.errors)} error(s)")
        self.report = report
