"""A short table and the page before it (docs/design.md, "Tables whole, unless that empties a
page"; typeset/tables.py): a table of up to KEEP_WHOLE_ROWS rows goes whole to the next page unless
that would leave more than ROOM_LEFT of the page's text area empty; then it starts there, split
where SHORT_SPLIT_ROWS rows at least stay on each side, its header repeated. A table of fewer than
twice SHORT_SPLIT_ROWS rows never splits.

The guard on the PDFs (`emptied_before_tables`) reads the text's baselines: a page followed by one
that opens with a table's header, whose lowest line stands more than ROOM_LEFT of the text area
above the lowest line of the booklet's fullest page."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame

from printshop import memo
from printshop.pipeline.build import build
from printshop.typeset import tables
from printshop.typeset.tables import ROOM_LEFT, SHORT_SPLIT_ROWS, KeptTable
from tests.conftest import fixture_project, kit_view
from tests.test_tables import _kept


# --- the rule on one table -------------------------------------------------------------------------
def _split_in_frame(table: KeptTable, room: float, frame_height: float = 400) -> list:
    """`table` split by a frame `frame_height` high with `room` left, as ReportLab's frame splits
    a flowable at a page's end."""
    frame = Frame(0, 0, 100, frame_height, 0, 0, 0, 0)
    frame._y = room  # (what is left under the text already set)
    return frame.split(table, Canvas(None))


@pytest.mark.parametrize("room_rows", range(1, 9))
def test_a_short_table_starts_on_a_page_it_would_leave_a_quarter_empty(room_rows):
    """Must-catch: 8 rows, room for the header and `room_rows` of them on a page 20 rows high."""
    room = (room_rows + 1) * 20 + 1
    parts = _split_in_frame(_kept(8), room)
    if room <= ROOM_LEFT * 400 or room_rows < SHORT_SPLIT_ROWS:
        assert parts == []  # little room, or too few rows for it: whole to the next page
        return
    if len(parts) == 1:  # it fits
        assert room_rows == 8
        return
    first, rest = parts
    assert len(first._cellvalues) - 1 >= SHORT_SPLIT_ROWS
    assert len(rest._cellvalues) - 1 >= SHORT_SPLIT_ROWS
    assert rest._cellvalues[0][0].text == "Head"  # the header again on the next page
    assert len(first._cellvalues) + len(rest._cellvalues) == 8 + 2


@pytest.mark.parametrize("rows", [2, 3, 5])
def test_a_table_of_fewer_than_six_rows_never_splits_whatever_the_room(rows):
    for room_rows in range(1, rows + 1):
        assert _split_in_frame(_kept(rows), room_rows * 20 + 1) == []


def test_the_part_carried_over_is_judged_by_its_own_rows():
    """Must-pass: the 4 rows carried over from a split of 8 never split again (fewer than six)."""
    first, rest = _split_in_frame(_kept(8), 5 * 20 + 1 + 0.0, frame_height=200)
    assert len(rest._cellvalues) - 1 == 4
    for room_rows in range(1, 5):
        assert _split_in_frame(rest, room_rows * 20 + 1, frame_height=200) == []


# --- on the page: the guard ------------------------------------------------------------------------
def _lines(page) -> dict[float, str]:
    """The page's text by baseline (points from the page's foot)."""
    found: dict[float, str] = {}

    def visit(text, cm, tm, font, size):
        if text.strip():
            y = round(tm[5] * cm[3] + cm[5], 1)
            found[y] = found.get(y, "") + text

    page.extract_text(visitor_text=visit)
    return found


def emptied_before_tables(path: Path, headers: list[str]) -> list[int]:
    """The pages (1-based) that a page opening with one of `headers` (a table's header row)
    follows, and whose last line stands more than ROOM_LEFT of the text area above the booklet's
    lowest line of text."""
    pages = [_lines(page) for page in PdfReader(path).pages]
    text_pages = [lines for lines in pages if len(lines) > 3]
    # the foot (folio, file name): baselines every page of text has
    foot = set.intersection(*(set(lines) for lines in text_pages))
    body = [{y: t for y, t in lines.items() if y not in foot} for lines in pages]
    ys = [y for lines in body for y in lines]
    top, bottom = max(ys), min(ys)
    found = []
    for number, (before, after) in enumerate(zip(body, body[1:]), start=1):
        if not before or not after:
            continue
        opening = after[max(after)]
        if any(opening.strip().startswith(header) for header in headers):
            if (min(before) - bottom) / (top - bottom) > ROOM_LEFT:
                found.append(number)
    return found


BOOKLET = """<title>Tables</title>
<p>Roomy. {filler}</p>
<table widths="1,3"><tr><th>Key</th><th>Value</th></tr>
{eight}
</table>
<pagebreak/>
<p>Whole. {filler}</p>
<table widths="1,3"><tr><th>Short</th><th>Value</th></tr>
{five}
</table>
"""


def _rows(count: int, name: str) -> str:
    tall = " ".join(["a long cell that wraps over several lines of the column"] * 3)
    return "\n".join(f"<tr><td>{name} {n}</td><td>{tall}</td></tr>" for n in range(1, count + 1))


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, Path]:
    data, templates = fixture_project(tmp_path_factory.mktemp("pagination"))
    with (data / "sampler" / "game.yaml").open("a", encoding="utf-8") as game:
        game.write("\nbooklet:\n  template: sampler/rules.xml.j2\n")
    filler = " ".join(["Words that fill about half of the page before the table."] * 22)
    (templates / "sampler" / "rules.xml.j2").write_text(
        BOOKLET.replace("{filler}", filler)
        .replace("{eight}", _rows(8, "cell"))
        .replace("{five}", _rows(5, "short")),
        encoding="utf-8",
    )
    return data, templates


def _booklet(project: tuple[Path, Path], out: Path) -> Path:
    data, templates = project
    result = build(
        data, out, templates_dir=templates, games=["sampler"], langs=["en"], papers=["a4"], jobs=1
    )
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    return out / "sampler" / "en" / "sampler-en-rules-a5.pdf"


def test_a_table_that_would_empty_a_page_starts_on_it_and_the_guard_sees_the_gap(
    project, tmp_path, monkeypatch
):
    """Must-pass: the 8-row table starts under "Roomy." and goes on with its header repeated; the
    5-row table goes whole to the next page. Must-catch: with the rule off (ROOM_LEFT 1), the
    8-row table leaves the page under "Roomy." more than a quarter empty, and the guard says so."""
    path = _booklet(project, tmp_path / "out")
    pages = [page.extract_text() for page in PdfReader(path).pages]
    roomy = next(i for i, text in enumerate(pages) if "Roomy." in text)
    assert "cell 1" in pages[roomy] and "Key" in pages[roomy]
    assert "Key" in pages[roomy + 1] and "cell 8" in pages[roomy + 1]
    assert sum(f"cell {n}" in pages[roomy] for n in range(1, 9)) >= SHORT_SPLIT_ROWS
    whole = next(i for i, text in enumerate(pages) if "short 1" in text)
    assert all(f"short {n}" in pages[whole] for n in range(1, 6))
    assert emptied_before_tables(path, ["Key", "Short"]) == []

    monkeypatch.setattr(tables, "ROOM_LEFT", 1.0)
    memo.clear_all()  # (the process remembers booklets it set and measured)
    try:
        moved = _booklet(project, tmp_path / "moved")
    finally:
        memo.clear_all()
    pages = [page.extract_text() for page in PdfReader(moved).pages]
    roomy = next(i for i, text in enumerate(pages) if "Roomy." in text)
    assert "cell 1" not in pages[roomy]
    assert emptied_before_tables(moved, ["Key", "Short"]) == [roomy + 1]


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> Path:
    return kit_view(tmp_path_factory, ["kremlin"], ["a4"])


# the Kremlin booklets' tables (each of six rows or more): the first cell of their header row
KREMLIN_HEADERS = {
    "en": ["Politburo", "A year in eight phases", "d20"],
    "fr": ["Politburo", "Une année, huit", "d20"],
}


@pytest.mark.parametrize("lang", sorted(KREMLIN_HEADERS))
def test_no_kremlin_rules_page_is_left_a_quarter_empty_before_a_table(kits, lang):
    path = kits / "kremlin" / lang / f"kremlin-{lang}-rules-a5.pdf"
    assert emptied_before_tables(path, KREMLIN_HEADERS[lang]) == []
