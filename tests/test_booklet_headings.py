"""A heading at the foot of a rules page (review 2: a heading kept with a long paragraph moved it
whole and left a fifth of Assassin FR's p4 empty). The rule, from book typography: a heading never
ends a page, and carries at least `heading_lines` lines of its text with it (booklet.yaml,
BookletStyle, 3 by default); where they fit, the paragraph breaks after the lines that fit rather
than move whole; where fewer fit, the heading goes over with its paragraph. Each case is set by
the booklet renderer and read back from the PDF it writes."""

from __future__ import annotations

import pypdfium2
import pytest

from printshop.pipeline.build import check
from printshop.project.paths import DEFAULT_DATA_DIR
from printshop.typeset.richtext import Para, Spacer
from tests.test_booklet_lists import set_blocks

WORDS = 240  # a paragraph of about 20 lines of the A5 measure


@pytest.fixture(scope="module")
def checked():
    report, checked = check(DEFAULT_DATA_DIR, games=["assassin"], variant=None)
    assert checked is not None and not report.has_errors
    return checked


def _pages(checked, paints, room: str, heading_lines: int | None = None) -> list[str]:
    """The text of each page of a booklet of a spacer leaving `room` of the A5 page's 180 mm frame,
    a heading and a long paragraph of numbered words."""
    text = " ".join(f"w{k:03d}" for k in range(WORDS))
    blocks = [
        Spacer(f"{180 - float(room.removesuffix('mm'))}mm"),
        Para("h2", "Section heading"),
        Para("p", text),
    ]
    update = {} if heading_lines is None else {"heading_lines": heading_lines}
    data = set_blocks(checked, paints, blocks, **update)
    document = pypdfium2.PdfDocument(data)
    pages = [page.get_textpage().get_text_range() for page in document]
    document.close()
    return pages


def _lines_under_heading(pages: list[str]) -> tuple[int, int]:
    """(the page the heading is on, how many lines of the paragraph that page holds)."""
    at = next(n for n, text in enumerate(pages) if "Section heading" in text)
    lines = [
        line for line in pages[at].splitlines() if "w" in line and any(c.isdigit() for c in line)
    ]
    return at, len(lines)


def test_a_heading_at_a_page_foot_keeps_the_lines_that_fit_with_it(checked, paints):
    """must-pass: room for the heading and about six lines: they stay on the first page, the rest
    of the paragraph goes over."""
    pages = _pages(checked, paints, "35mm")
    at, lines = _lines_under_heading(pages)
    assert at == 0 and lines >= 3, (at, lines)
    assert "w000" in pages[0] and f"w{WORDS - 1:03d}" in pages[1]


def test_a_heading_with_room_for_fewer_lines_goes_over_with_its_paragraph(checked, paints):
    """must-pass: room for the heading and one or two lines: the heading moves to the next page
    with its paragraph's first lines."""
    pages = _pages(checked, paints, "15mm")
    at, lines = _lines_under_heading(pages)
    assert at == 1 and "w000" in pages[1] and "w000" not in pages[0], (at, lines)


def test_the_measure_catches_a_heading_that_moves_a_long_paragraph_whole(checked, paints):
    """must-catch: with a rule asking for more lines than the page holds, the heading and its whole
    first lines move on and the first page ends empty (what review 2 saw)."""
    pages = _pages(checked, paints, "35mm", heading_lines=40)
    at, _ = _lines_under_heading(pages)
    assert at == 1 and "w000" not in pages[0]


@pytest.mark.parametrize("room", ["18mm", "22mm", "26mm", "30mm", "45mm", "60mm"])
def test_a_heading_never_stands_with_fewer_than_its_lines(checked, paints, room):
    """Whatever the room left: the heading's page holds at least three lines of its paragraph (or
    all of it), and a heading is never a page's last line."""
    pages = _pages(checked, paints, room)
    at, lines = _lines_under_heading(pages)
    assert lines >= 3, (room, at, lines)
