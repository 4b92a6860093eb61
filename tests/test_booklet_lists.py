"""Lists over page breaks in rules booklets (review 2, Assassin FR: step 5 of 5 alone on p4): a
list never leaves fewer than `least_items` items on either side of a break, and a short list stays
whole with the paragraph and heading that lead into it (booklet.yaml `lists`, BookletLists). Each
case is set by the booklet renderer and read back from the PDF it writes."""

from __future__ import annotations

import re

import pypdfium2
import pytest

from printshop.layout.plan import BookletLayout
from printshop.pipeline.build import check
from printshop.project.models.booklet import BookletLists
from printshop.project.paths import DEFAULT_DATA_DIR
from printshop.render.booklet import render_booklet
from printshop.typeset.richtext import Para, Spacer
from tests.conftest import shared_build


@pytest.fixture(scope="module")
def checked():
    report, checked = check(DEFAULT_DATA_DIR, games=["assassin"], variant=None)
    assert checked is not None and not report.has_errors
    return checked


def items_by_page(data: bytes, count: int) -> list[int]:
    """How many of the items 'Step 1' … 'Step <count>' each page holds, pages without any left
    out."""
    document = pypdfium2.PdfDocument(data)
    found = []
    for page in document:
        text = page.get_textpage().get_text_range()
        found.append(sum(1 for k in range(1, count + 1) if re.search(rf"Step {k}\b", text)))
    document.close()
    return [number for number in found if number]


def lone_items(counts: list[int]) -> bool:
    """A list split with a single item on one side of a page break."""
    return len(counts) > 1 and min(counts) < 2


def set_blocks(checked, paints, blocks, **update) -> bytes:
    """`blocks` set as the English rules booklet's pages on A5, with the booklet style's fields
    `update` changed; the PDF's bytes."""
    layout = next(layout for layout in checked.layouts if layout.booklet and layout.lang == "en")
    style = layout.booklet.style
    if update:
        changed = style.model_copy(update=update)
        changed.__pydantic_private__ = style.__pydantic_private__
        style = changed
    booklet = BookletLayout(blocks, style, (), cover=False)
    paper = checked.project.media.papers["a5"]
    return render_booklet(
        layout, booklet, paper, paints, checked.project.motifs.motifs, "booklet.pdf"
    )[0]


def _set(checked, paints, blocks, lists: BookletLists | None = None) -> bytes:
    return set_blocks(checked, paints, blocks, **({"lists": lists} if lists else {}))


def _list(count: int, room: str, lead: str | None = None) -> list:
    """A spacer leaving `room` of an A5 page's 180 mm frame, then a list of `count` one-line items
    (about 5.5 mm each), led by the paragraph `lead`."""
    blocks: list = [Spacer(f"{180 - float(room.removesuffix('mm'))}mm")]
    if lead:
        blocks.append(Para("p", lead))
    blocks += [Para("li", f"Step {k}: a short line.", bullet=f"{k}.") for k in range(1, count + 1)]
    return blocks


# room for four items and not five
FOUR_FIT = "24mm"
# room for five items and not six
FIVE_FIT = "29mm"
ANY_SPLIT = BookletLists(least_items=1, keep_items=0)  # the rule off: a list breaks where it must


def test_the_measure_catches_a_list_split_four_and_one(checked, paints):
    """must-catch: without the rule, the fifth step is alone on the next page."""
    counts = items_by_page(_set(checked, paints, _list(5, FOUR_FIT), ANY_SPLIT), 5)
    assert counts == [4, 1] and lone_items(counts)


def test_a_short_list_is_never_split_it_moves_whole(checked, paints):
    assert items_by_page(_set(checked, paints, _list(5, FOUR_FIT)), 5) == [5]


def _tall_list(count: int, room: str) -> list:
    """As `_list`, of items two lines long each (about 10 mm)."""
    blocks: list = [Spacer(f"{180 - float(room.removesuffix('mm'))}mm")]
    words = "a step of the setup that runs on over a second line of the page, as many do in rules"
    blocks += [Para("li", f"Step {k}: {words}.", bullet=f"{k}.") for k in range(1, count + 1)]
    return blocks


def test_a_short_list_splits_rather_than_leave_a_quarter_page_empty(checked, paints):
    """Review 4: a page of Comrade Stalin's booklet ended mid-sentence, 35 % empty, before a short
    list moved whole. Six items of two lines (a short list) with room for four on a page whose
    frame is 180 mm: moving it would leave 50 mm (28 %) empty, more than `room_left`; it splits
    four and two. With `room_left` 1 (never), it moves whole (must-catch)."""
    data = _set(checked, paints, _tall_list(6, "50mm"))
    assert items_by_page(data, 6) == [4, 2]
    never = BookletLists(room_left=1.0)
    assert items_by_page(_set(checked, paints, _tall_list(6, "50mm"), never), 6) == [6]
    # must-pass: with 30 mm (17 %) left, the list moves whole as before
    assert items_by_page(_set(checked, paints, _tall_list(6, "30mm")), 6) == [6]


def test_a_long_list_splits_five_and_five(checked, paints):
    """must-pass: ten items with room for five split 5 + 5, not moved whole."""
    data = _set(checked, paints, _list(10, FIVE_FIT))
    assert items_by_page(data, 10) == [5, 5]
    assert len(pypdfium2.PdfDocument(data)) == 2


def test_a_long_list_leaves_at_least_two_items_on_the_next_page(checked, paints):
    """must-catch: eight items with room for seven would leave the eighth alone; the break comes
    after the sixth instead."""
    assert items_by_page(_set(checked, paints, _list(8, "38mm"), ANY_SPLIT), 8) == [7, 1]
    assert items_by_page(_set(checked, paints, _list(8, "38mm")), 8) == [6, 2]


def test_a_short_list_goes_with_the_paragraph_that_introduces_it(checked, paints):
    lead = "Do as follows, in this order:"
    for rule, together in ((ANY_SPLIT, False), (None, True)):
        data = _set(checked, paints, _list(4, "15mm", lead), rule)
        document = pypdfium2.PdfDocument(data)
        pages = [page.get_textpage().get_text_range() for page in document]
        lead_page = next(i for i, text in enumerate(pages) if "in this order" in text)
        last_page = next(i for i, text in enumerate(pages) if "Step 4" in text)
        assert (lead_page == last_page) is together, rule
        document.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_callers_scripts_of_assassin_are_never_split(tmp_path_factory, lang):
    """Review 2: 'Night: the Assassin strikes' was split 4 + 1 in French. Every step of each of
    the two caller's scripts is on one page, in the A5 rules."""
    out, _ = shared_build(tmp_path_factory, games=["assassin"], papers=["a4"])
    path = out / "assassin" / lang / f"assassin-{lang}-rules-a5.pdf"
    document = pypdfium2.PdfDocument(str(path))
    pages = [page.get_textpage().get_text_range() for page in document]
    document.close()
    for script in ("identify", "assassinate"):
        steps = [n for n, text in enumerate(pages) if _script_step(text, script, lang)]
        assert steps and len(set(steps)) == 1, (script, steps)


def _script_step(text: str, script: str, lang: str) -> bool:
    heads = {
        ("identify", "en"): "Night one: the Mafia meet",
        ("identify", "fr"): "Première nuit : les Mafieux se reconnaissent",
        ("assassinate", "en"): "Night: the Assassin strikes",
        ("assassinate", "fr"): "Nuit : Assassin, à vous de frapper",
    }
    head = heads[(script, lang)].replace(" :", "\u202f:")
    if head not in text:
        return False
    after = text[text.index(head) :]
    return all(f"{k}." in after for k in range(1, 6))
