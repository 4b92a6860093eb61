"""Fuzzing `check` with mutated copies of the real data: bad data must end as diagnostics, never as
a traceback.

Each example copies data/ to a temporary folder, picks one YAML file, applies one mutation
(deleted, duplicated or swapped lines, random unicode, a value of another type, truncation,
a huge string, invalid UTF-8, broken indentation) and runs `check`. Whatever the data says,
`check` must return a report whose every diagnostic is well formed, and none of them may be
`internal` (the net that turns an unforeseen exception into a diagnostic: a bug, not a check).

Fixed cases apply the same mutations to hand-picked places and expect one exact code. Known
library bugs are fixed cases marked as strict xfails (a fix makes them fail: then drop the mark
and the entry in KNOWN_INTERNAL, whose messages the fuzzer tolerates so as to find new bugs).
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from printshop.check_codes import CATALOGUE
from printshop.diagnostics import Diagnostic, Report
from printshop.pipeline.build import check
from printshop.project.paths import DEFAULT_DATA_DIR, PACKAGE_DEFAULTS_DIR
from tests.conftest import copy_data, with_defaults

GAME, FACES, EN, FR = (
    "comrade/game.yaml",
    "comrade/faces.yaml",
    "comrade/text/en.yaml",
    "comrade/text/fr.yaml",
)
# the shared files as a project that copied printshop's defaults in would have them
# (conftest.with_defaults)
FILES = sorted(
    {
        path.relative_to(root).as_posix()
        for root in (DEFAULT_DATA_DIR, PACKAGE_DEFAULTS_DIR)
        for pattern in ("print/*.yaml", "languages/*.yaml")
        for path in root.glob(pattern)
    }
    | {GAME, FACES, EN, FR}
)
ORIGINALS = {
    name: (
        DEFAULT_DATA_DIR / name
        if (DEFAULT_DATA_DIR / name).exists()
        else PACKAGE_DEFAULTS_DIR / name
    ).read_bytes()
    for name in FILES
}

HUGE = 200_000
# a value after ': ' on a line: a plain or double-quoted scalar, up to a flow separator or a comment
SCALAR = re.compile(
    r'(?<=: )(?:"[^"\n]*"|[^\s\[\]{},#"\'][^\[\]{},#\n]*?)(?=\s*(?:[,}\]]|\s#|$))', re.MULTILINE
)
OTHER_TYPES = ["[1, 2]", "{a: 1}", "null", "true", "-3", "1e309", '"x"']
INVALID_UTF8 = [b"\xff\xfe", b"\x80", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"]
INDENTS = ["", " ", "   ", "\t", "        ", " \t "]


# --- mutations: plain functions, so that the fixed cases apply them too ------------------------
def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def delete_line(text: str, index: int) -> str:
    lines = _lines(text)
    del lines[index % len(lines)]
    return "".join(lines)


def duplicate_line(text: str, index: int) -> str:
    lines = _lines(text)
    index %= len(lines)
    lines.insert(index, lines[index] if lines[index].endswith("\n") else lines[index] + "\n")
    return "".join(lines)


def swap_lines(text: str, first: int, second: int) -> str:
    lines = [line.rstrip("\n") for line in _lines(text)]
    first, second = first % len(lines), second % len(lines)
    lines[first], lines[second] = lines[second], lines[first]
    return "\n".join(lines) + "\n"


def insert_text(text: str, offset: int, inserted: str) -> str:
    offset %= len(text) + 1
    return text[:offset] + inserted + text[offset:]


def values(text: str) -> list[re.Match]:
    """The scalars written after ': ', outside comments."""
    return [
        m
        for m in SCALAR.finditer(text)
        if "#" not in text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
    ]


def replace_value(text: str, index: int, value: str) -> str:
    """Replace the `index`-th scalar written after ': ' (a no-op when the file has none)."""
    matches = values(text)
    if not matches:
        return text
    match = matches[index % len(matches)]
    return text[: match.start()] + value + text[match.end() :]


def truncate(text: str, offset: int) -> str:
    return text[: offset % (len(text) + 1)]


def reindent(text: str, index: int, indent: str) -> str:
    lines = _lines(text)
    index %= len(lines)
    lines[index] = indent + lines[index].lstrip(" \t")
    return "".join(lines)


def insert_bytes(data: bytes, offset: int, inserted: bytes) -> bytes:
    offset %= len(data) + 1
    return data[:offset] + inserted + data[offset:]


def replace_file(text: str, content: str) -> str:
    return content


def replace_text(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


@dataclass(frozen=True)
class Mutation:
    """One file of data/ and the bytes to write there instead; shown short in failure reports."""

    file: str
    description: str
    data: bytes

    def __repr__(self) -> str:
        return f"Mutation({self.file!r}, {self.description})"

    def _repr_pretty_(
        self, printer, cycle
    ) -> None:  # hypothesis prints falsifying examples with this
        printer.text(repr(self))

    @property
    def changed(self) -> bool:
        return self.data != ORIGINALS[self.file]


def mutate(file: str, function: Callable, *args, name: str | None = None) -> Mutation:
    original = ORIGINALS[file]
    if function is insert_bytes:
        data = function(original, *args)
    else:
        data = function(original.decode("utf-8"), *args).encode("utf-8")
    shown = ", ".join(
        repr(a) if len(repr(a)) <= 60 else f"<{type(a).__name__} of {len(a)}: {repr(a)[:40]}...>"
        for a in args
    )
    return Mutation(file, f"{name or function.__name__}({shown})", data)


# --- strategies -------------------------------------------------------------------------------
indices = st.integers(
    min_value=0, max_value=10_000
)  # taken modulo the number of lines, offsets or values
unicode_text = st.text(
    st.characters(codec="utf-8"), min_size=1, max_size=40
)  # control characters, no surrogates
huge_values = st.sampled_from(
    [
        "x" * HUGE,  # one enormous word
        '"' + "жé" * (HUGE // 2) + '"',  # quoted, non-ASCII
        "'" + "<b>" * (HUGE // 3) + "'",  # markup, never closed
        "[" + "1, " * (HUGE // 3) + "1]",  # a huge flow list
    ]
)
# (Not a huge text of many short words: fitting re-wraps it at every quarter point, ~15 s per
# check.)

MUTATIONS = {
    "delete_line": st.tuples(st.just(delete_line), indices),
    "duplicate_line": st.tuples(st.just(duplicate_line), indices),
    "swap_lines": st.tuples(st.just(swap_lines), indices, indices),
    "insert_unicode": st.tuples(st.just(insert_text), indices, unicode_text),
    "swap_type": st.tuples(st.just(replace_value), indices, st.sampled_from(OTHER_TYPES)),
    "truncate": st.tuples(st.just(truncate), indices),
    "huge_string": st.tuples(st.just(replace_value), indices, huge_values),
    "invalid_utf8": st.tuples(st.just(insert_bytes), indices, st.sampled_from(INVALID_UTF8)),
    "reindent": st.tuples(st.just(reindent), indices, st.sampled_from(INDENTS)),
}


@st.composite
def mutations(draw) -> Mutation:
    file = draw(st.sampled_from(FILES))
    name = draw(st.sampled_from(sorted(MUTATIONS)))
    function, *args = draw(MUTATIONS[name])
    return mutate(file, function, *args, name=name)


# --- running and judging ----------------------------------------------------------------------
def run_check(mutation: Mutation) -> Report:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        shutil.copytree(DEFAULT_DATA_DIR, data)
        with_defaults(data)
        (data / mutation.file).write_bytes(mutation.data)
        report, _ = check(
            data, games=["comrade"]
        )  # the mutated files are Comrade's and the shared ones
        return report


def assert_well_formed(diagnostic: Diagnostic) -> None:
    location = diagnostic.location
    assert isinstance(location.path, str) and location.path, diagnostic
    assert type(location.line) is int and location.line >= 0, diagnostic
    assert type(location.col) is int and location.col >= 0, diagnostic
    assert diagnostic.code in CATALOGUE, diagnostic
    text = diagnostic.format()
    assert isinstance(text, str) and f"[{diagnostic.code}]" in text, diagnostic


# `internal` diagnostics of known library bugs (each pinned by a strict xfail case below)
KNOWN_INTERNAL: dict[str, re.Pattern] = {}


def unexpected_internal(report: Report) -> list[str]:
    internal = [d.format() for d in report.items if d.code == "internal"]
    known = [m for m in internal if any(pattern.search(m) for pattern in KNOWN_INTERNAL.values())]
    if known:
        event("known bug")
    return [m for m in internal if m not in known]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation=mutations())
def test_mutated_data_gives_only_diagnostics(mutation: Mutation):
    report = run_check(mutation)  # must not raise
    for diagnostic in report.items:
        assert_well_formed(diagnostic)
    internal = unexpected_internal(report)
    assert not internal, internal
    if not mutation.changed:
        event("no-op mutation")
        return  # nothing is asserted about errors: the data is still the project's own
    event("errors" if report.has_errors else "no errors")


# --- fixed cases: the same mutations at hand-picked places, each with the code expected -------
def line_index(file: str, needle: str) -> int:
    """The index (for the line mutations) of the first line of `file` that holds `needle`."""
    return next(
        i for i, line in enumerate(_lines(ORIGINALS[file].decode("utf-8"))) if needle in line
    )


def value_index(file: str, value: str, after: str = "") -> int:
    """The index (for replace_value) of the first scalar of `file` written as `value`, after
    `after`."""
    text = ORIGINALS[file].decode("utf-8")
    start = text.index(after) if after else 0
    return next(
        i
        for i, match in enumerate(values(text))
        if match.group(0) == value and match.start() >= start
    )


def offset_after(file: str, needle: str) -> int:
    text = ORIGINALS[file].decode("utf-8")
    return text.index(needle) + len(needle)


def case(
    id: str,
    file: str,
    function: Callable,
    args: tuple,
    code: str,
    at: str | tuple[str, ...],
    says: str = "",
    bug: str = "",
):
    """`function(*args)` applied to `file` gives errors of `code` (pointing at `at`, saying `says`),
    and `at` has no errors of another code; `bug` marks a known library bug as a strict xfail."""
    marks = [pytest.mark.xfail(strict=True, raises=AssertionError, reason=bug)] if bug else []
    return pytest.param(file, function, args, code, at, says, id=id, marks=marks)


COLOURS, BOOKLET, MEDIA, FONTS = (
    "print/colours.yaml",
    "print/booklet.yaml",
    "print/media.yaml",
    "print/fonts.yaml",
)
CASES = [
    case("empty game.yaml", GAME, truncate, (0,), "missing-field", GAME, "'title' is required"),
    case(
        "game.yaml is a list",
        GAME,
        replace_file,
        ("- 1\n- 2\n",),
        "wrong-type",
        GAME,
        "must be a mapping",
    ),
    case(
        "a text file whose root is a number",
        FR,
        replace_file,
        ("42\n",),
        "wrong-type",
        FR,
        "a mapping of ids",
    ),
    case(
        "a face extends itself",
        FACES,
        replace_value,
        (value_index(FACES, "card", after="\n  role:"), "role"),
        "unknown-reference",
        FACES,
        "extends itself",
    ),
    case(
        "extends is a list",
        FACES,
        replace_value,
        (value_index(FACES, "card", after="\n  role:"), "[1, 2]"),
        "wrong-type",
        FACES,
        "'extends'",
    ),
    case("invalid UTF-8", COLOURS, insert_bytes, (0, b"\xff\xfe"), "yaml-syntax", COLOURS, "UTF-8"),
    case(
        "a control character",
        "languages/fr.yaml",
        insert_text,
        (0, "\x07"),
        "yaml-syntax",
        "languages/fr.yaml",
    ),
    case(
        "a truncated flow mapping",
        BOOKLET,
        truncate,
        (offset_after(BOOKLET, "margins: {top"),),
        "yaml-syntax",
        BOOKLET,
    ),
    case(
        "a deleted required line",
        GAME,
        delete_line,
        (line_index(GAME, "minutes: 15"),),
        "missing-field",
        GAME,
        "'minutes' is required",
    ),
    case(
        "a duplicated line",
        COLOURS,
        duplicate_line,
        (line_index(COLOURS, "red-deep"),),
        "duplicate-key",
        COLOURS,
        "'red-deep' appears twice",
    ),
    case(
        "swapped lines",
        GAME,
        swap_lines,
        (line_index(GAME, "title:"), line_index(GAME, "  cards:")),
        "yaml-syntax",
        GAME,
    ),
    case(
        "a number that overflows to inf",
        GAME,
        replace_value,
        (value_index(GAME, "15"), "1e309"),
        "wrong-type",
        GAME,
        "'minutes'",
    ),
    case(
        "a list for a string",
        BOOKLET,
        replace_value,
        (value_index(BOOKLET, "a5"), "[1, 2]"),
        "wrong-type",
        BOOKLET,
        "'paper'",
    ),
    case(
        "a mapping for a length",
        MEDIA,
        replace_value,
        (value_index(MEDIA, "88mm"), "{a: 1}"),
        "wrong-type",
        MEDIA,
        "expected a length",
    ),
    case(
        "null for a required string",
        GAME,
        replace_value,
        (value_index(GAME, "poker-eu"), "null"),
        "wrong-type",
        GAME,
        "card_size",
    ),
    case(
        "a line pulled out of its mapping",
        GAME,
        reindent,
        (line_index(GAME, "players: {min"), "   "),
        "yaml-syntax",
        GAME,
    ),
    case(
        "an unknown frame colour",
        FACES,
        replace_text,
        ("colour: white, align: center", "colour: x, align: center"),
        "unknown-reference",
        FACES,
        "no colour 'x'",
    ),
    case(
        "a colour deleted from the palette",
        COLOURS,
        delete_line,
        (line_index(COLOURS, "gold:"),),
        "unknown-reference",
        (
            FACES,
            BOOKLET,
        ),  # the faces and the covers' page styles (a game's print/booklet.yaml) use it
        "no colour 'gold'",
    ),
    case(
        "an unknown frame font",
        FACES,
        replace_text,
        ("font: sans-bold, size: 15pt", "font: x, size: 15pt"),
        "unknown-reference",
        FACES,
        "no font 'x'",
    ),
    case(
        "a font file name too long for the file system",
        FONTS,
        replace_value,
        (value_index(FONTS, "NotoSerif-Regular.ttf"), "x" * 256),
        "file-missing",
        FONTS,
    ),
    case(
        "a huge setup expression",
        GAME,
        replace_value,
        (value_index(GAME, '"n - 2"'), '"' + "n+" * HUGE + 'n"'),
        "too-large",
        GAME,
        "characters long",
    ),
    case(
        "a long setup expression",
        GAME,
        replace_value,
        (value_index(GAME, '"n - 2"'), '"' + "n+" * 9_000 + 'n"'),
        "rule-expression",
        GAME,
    ),
    # a text too long is reported at the text that does not fit (the frame follows on a second line)
    case(
        "a huge word as a text",
        EN,
        replace_value,
        (value_index(EN, '"Comrade"'), "x" * HUGE),
        "too-large",
        EN,
        "characters long",
    ),
    case(
        "a long word as a text",
        EN,
        replace_value,
        (value_index(EN, '"Comrade"'), "x" * 5_000),
        "text-overflow",
        EN,
        "a word is wider than the frame",
    ),
    case(
        "unclosed markup in a text",
        EN,
        insert_text,
        (offset_after(EN, 'motto: "'), "<b>"),
        "markup",
        EN,
        "<b> is never closed",
    ),
    case(
        "a top-level key named like a pydantic type",
        GAME,
        insert_text,
        (0, "str: 1\n"),
        "unknown-key",
        GAME,
        "'str'",
    ),
    case(
        "a top-level key containing [",
        COLOURS,
        insert_text,
        (0, "a[b]: 1\n"),
        "unknown-key",
        COLOURS,
        "'a[b]'",
    ),
    case(
        "a nested key named like a pydantic type",
        GAME,
        replace_text,
        ("max: 10}", "max: 10, dict: 1}"),
        "unknown-key",
        GAME,
        "'dict'",
    ),
    case(
        "a long word in a table cell",
        EN,
        replace_value,
        (value_index(EN, '"Cards"'), "x" * 62),
        "text-overflow",
        EN,
        "a word is wider than the frame",
    ),
]


@pytest.mark.parametrize("file, function, args, code, at, says", CASES)
def test_fixed_mutations_give_the_expected_diagnostic(file, function, args, code, at, says):
    mutation = mutate(file, function, *args)
    assert mutation.changed
    report = run_check(mutation)
    for diagnostic in report.items:
        assert_well_formed(diagnostic)
    shown = [d.format() for d in report.items]
    assert not [d for d in report.items if d.code == "internal"], shown
    found = [d for d in report.errors if d.code == code]
    assert found, shown
    assert all(d.location.path.endswith(at) and d.location.line > 0 for d in found), shown
    assert any(says in d.message for d in found), shown
    assert {d.code for d in report.errors if d.location.path.endswith(at)} == {code}, shown


# --- file names and ids (issue 15): names that become parts of output paths
# --------------------------
SAFE_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
# any character a file name may hold (not '/' or NUL); YAML keys are written as JSON strings, which
# YAML reads
names = st.text(
    st.characters(codec="utf-8", exclude_characters="/\x00"), min_size=1, max_size=24
).filter(lambda name: name not in (".", "..") and len(name.encode()) < 200)


def _check_with_name(where: str, name: str) -> Report:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        copy_data(data, ["comrade"])
        if where == "game folder":
            (data / "comrade").rename(data / name)
        elif where == "language file":
            shutil.copy(
                data / "comrade" / "text" / "fr.yaml", data / "comrade" / "text" / f"{name}.yaml"
            )
        else:  # a deck key, a paper key
            path, old = {
                "deck key": (data / GAME, "decks:\n  cards:"),
                "paper key": (data / MEDIA, "papers:\n  a4:"),
            }[where]
            text = path.read_text(encoding="utf-8")
            assert old in text
            key = json.dumps(name, ensure_ascii=False)
            path.write_text(
                text.replace(old, old.split(":")[0] + f":\n  {key}:", 1), encoding="utf-8"
            )
        report, _ = check(data, langs=["en"], variant=None)
        return report


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(where=st.sampled_from(["game folder", "language file", "deck key", "paper key"]), name=names)
def test_any_file_name_or_id_gives_only_diagnostics(where, name):
    """Whatever a game folder, a language file, a deck or a paper is called, `check` answers with
    diagnostics (never `internal`), and a name that is not a plain id is refused."""
    report = _check_with_name(where, name)
    for diagnostic in report.items:
        assert_well_formed(diagnostic)
    assert not unexpected_internal(report), [d.format() for d in report.items]
    ignored = (
        where == "language file" and "." in name
    )  # fr.sources.yaml and the like are records, not languages
    if not SAFE_ID.match(name) and not ignored:
        event("refused")
        assert report.has_errors, (where, name)
