"""Diagnostics are values: where (file, line, column), how bad, which check, what to do.

Every stage reports problems as `Diagnostic`s; one formatter prints them as
`path:line:col: severity[code]: message`. The catalogue (check_codes.py) gives each check a
stable code, a default severity and a one-line hint on how to fix it.
"""

from __future__ import annotations

import enum
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from printshop import memos


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
        # a whole file (a link, an image too large) is named alone, a line without its column when
        # that is not known: "file:0:0" read as a place no editor can go to
        if self.line <= 0:
            return self.path
        return (
            f"{self.path}:{self.line}" if self.col <= 0 else f"{self.path}:{self.line}:{self.col}"
        )


def no_game_yet(data_dir: Path | str) -> str:
    """What a command says of a data folder with no game in it (a project just made by `printshop
    init`)."""
    return f"no game in {display_path(data_dir)}/ yet: 'printshop new GAME' adds one"


_UNUSUAL = re.compile(r"//|/\.\.?(/|$)|/$")  # a part that is empty, '.' or '..', or a trailing '/'


def display_path(path: Path | str) -> str:
    """A path as a user wants to read it: relative to the working directory when below it."""
    return _display_path(str(path), os.getcwd())


@memos.DISPLAY_PATHS
def _display_path(path: str, cwd: str) -> str:  # a deck names the same few files thousands of times
    if os.sep == "/" and path.startswith("/") and not _UNUSUAL.search(path):
        # a path written plainly (no '.', '..' or empty part): below the folder when its text begins
        # with the folder's, and then the rest of it; what the general way below gives, in a
        # thirtieth of the time (a copy of a project is a few hundred new files, each shown once)
        below = cwd.rstrip("/") + "/"
        return path[len(below) :] if path.startswith(below) else path
    as_path = Path(path)
    try:
        return (
            os.path.relpath(as_path, cwd)
            if as_path.is_absolute() and Path(cwd) in as_path.parents
            else path
        )
    except ValueError:  # another drive on Windows
        return path


@dataclass(frozen=True)
class Diagnostic:
    location: Location
    severity: Severity
    code: str
    message: str
    hint: str = ""
    acknowledged: str = ""  # why the data accepts this warning; it then does not fail --strict
    also: str = (
        ""  # a second place that matters, for another reader ("frame at faces.yaml:26:14: ...")
    )
    # for a fault reported once however many faces, cards and languages meet it
    # (problems.report_once): the fault without where it was met; another with the same code, place
    # and `once` is the same fault
    once: str = field(default="", compare=False, repr=False)

    def format(self) -> str:
        note = f" (acknowledged: {self.acknowledged})" if self.acknowledged else ""
        return printable(
            f"{self.location}: {self.severity.value}[{self.code}]: {self.message}{note}"
        )


# What must never reach a terminal raw: C0 and C1 controls (escape sequences could rewrite the
# screen or fake a line), DEL, bidirectional controls (they reorder what is shown) and lone
# surrogates.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def printable(text: str) -> str:
    """`text` with every control character written as an escape (\\x1b, \\u202e), for terminals and
    logs."""
    if not _UNPRINTABLE.search(text):
        return text
    return _UNPRINTABLE.sub(
        lambda match: match.group().encode("unicode_escape").decode("ascii"), text
    )


def diagnostic(
    code: str,
    location: Location,
    message: str,
    severity: Severity | None = None,
    acknowledged: str = "",
    *,
    hint: str = "",
    also: str = "",
    once: str = "",
) -> Diagnostic:
    # (imported here: the catalogue's entries are written with this module's `Severity`)
    from printshop.check_codes import CATALOGUE

    check = CATALOGUE[code]
    return Diagnostic(
        location,
        severity or check.severity,
        code,
        message,
        hint or check.hint,
        acknowledged,
        also,
        once,
    )


@dataclass
class Report:
    """The diagnostics gathered by a run, in the order found."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(
        self,
        code: str,
        location: Location,
        message: str,
        severity: Severity | None = None,
        acknowledged: str = "",
        *,
        hint: str = "",
        also: str = "",
        once: str = "",
    ) -> None:
        self.items.append(
            diagnostic(
                code, location, message, severity, acknowledged, hint=hint, also=also, once=once
            )
        )

    def fails(self, *, strict: bool) -> bool:
        """Errors fail; with `strict`, so do warnings the data has not acknowledged."""
        return (
            self.has_errors
            or strict
            and any(d.severity is Severity.WARNING and not d.acknowledged for d in self.items)
        )

    def extend(self, other: "Report | list[Diagnostic]") -> None:
        self.items.extend(other.items if isinstance(other, Report) else other)

    def merge(self, other: "Report | list[Diagnostic]") -> None:
        """`extend`, leaving out a fault reported once (`Diagnostic.once`) that is here already:
        what a face laid out on its own reported, merged as if it had been laid out beside the
        others (session.py)."""
        items = other.items if isinstance(other, Report) else other
        if not any(d.once for d in items):
            self.items.extend(items)
            return
        seen = {(d.code, d.location, d.once) for d in self.items if d.once}
        for d in items:
            if d.once:
                if (d.code, d.location, d.once) in seen:
                    continue
                seen.add((d.code, d.location, d.once))
            self.items.append(d)

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
        """Per severity, of the diagnostics `sorted` lists (the same one met twice counted once)."""
        unique = dict.fromkeys(self.items)
        return {s: sum(1 for d in unique if d.severity is s) for s in Severity}


FORMATS = ("text", "json", "github", "gitlab")


def format_report(report: Report, *, style: str = "text", hints: bool = True) -> str:
    """`text`: path:line:col: severity[code]: message (+ hint), a whole file named alone; `json`: a
    list of objects; `github`: GitHub Actions workflow commands, which annotate the files in a pull
    request."""
    items = report.sorted()
    if style == "gitlab":
        return json.dumps([_code_quality(d) for d in items], ensure_ascii=False, indent=2)
    if style == "json":
        return json.dumps(
            [
                {
                    "path": d.location.path,
                    "line": d.location.line,
                    "col": d.location.col,
                    "severity": d.severity.value,
                    "code": d.code,
                    "message": d.message,
                    "hint": d.hint,
                    "acknowledged": d.acknowledged,
                    "also": d.also,
                }
                for d in items
            ],
            ensure_ascii=False,
            indent=2,
        )
    lines = []
    for item in items:
        if style == "github":
            level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}[
                item.severity
            ]
            if (
                item.acknowledged
            ):  # settled on purpose (it fails no --strict): a notice, not a pull request's warning
                level = "notice"
            where = f"file={_gh(item.location.path)}"
            if item.location.line:
                where += f",line={item.location.line}"
            if item.location.col:
                where += f",col={item.location.col}"
            message = (
                item.message
                + (f" ({item.also})" if item.also else "")
                + (f" (acknowledged: {item.acknowledged})" if item.acknowledged else "")
            )
            lines.append(f"::{level} {where},title={_gh(item.code)}::{_gh(message, data=True)}")
            continue
        lines.append(item.format())
        if item.acknowledged:
            continue  # settled on purpose: one line is enough
        if item.also:
            lines.append(printable(f"  {item.also}"))
        if hints and item.hint and item.severity is not Severity.INFO:
            lines.append(printable(f"  hint: {item.hint}"))
    return "\n".join(lines)


def _code_quality(item: Diagnostic) -> dict:
    """One finding of GitLab's code quality report (the Code Climate format GitLab reads): shown on
    the merge request at its file and line. Settled warnings and notes are `info`; a warning is
    `major`, an error `critical`. The fingerprint (what tells one finding from another across
    pipelines) is the code, the place and the message."""
    severity = {Severity.ERROR: "critical", Severity.WARNING: "major", Severity.INFO: "info"}[
        item.severity
    ]
    if item.acknowledged:
        severity = "info"
    path = display_path(item.location.path) if item.location.path else ""
    fingerprint = hashlib.sha256(
        f"{item.code}\n{path}\n{item.location.line}\n{item.message}".encode()
    ).hexdigest()
    description = f"[{item.code}] {item.message}" + (f" (hint: {item.hint})" if item.hint else "")
    return {
        "description": printable(description),
        "check_name": item.code,
        "fingerprint": fingerprint,
        "severity": severity,
        "location": {"path": path, "lines": {"begin": max(item.location.line, 1)}},
    }


def _gh(value: str, *, data: bool = False) -> str:
    """Escape a value for a GitHub workflow command (properties also escape ':' and ',')."""
    value = printable(value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))
    return value if data else value.replace(":", "%3A").replace(",", "%2C")


class StageFailed(Exception):
    """Raised by a stage that cannot go on; carries everything found so far."""

    def __init__(self, report: Report):
        super().__init__(f"{len(report.errors)} error(s)")
        self.report = report


def did_you_mean(name: str, names, cutoff: float = 0.6) -> str:
    """ "; did you mean 'white'?" for a name written close to one of `names` (a letter left out, two
    swapped, a name changed in one file and not in the other), else nothing: what a message naming
    an unknown key, colour, font, motif, card size, face or block says before it lists the names
    there are."""
    close = closest(name, names, cutoff)
    return f"; did you mean '{close}'?" if close else ""


def closest(name: str, names, cutoff: float = 0.6) -> str:
    """The one of `names` written closest to `name`, if close enough (difflib's ratio at least
    `cutoff`), else ''."""
    import difflib  # (only when a name is wrong: not on the way of every command's start)

    close = difflib.get_close_matches(
        str(name), [str(known) for known in names], n=1, cutoff=cutoff
    )
    return close[0] if close else ""
