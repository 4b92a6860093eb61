"""Issue 14: two-sided sheets (a `back:` on a sheet or an item) printed like card backs, and lists
in card and sheet frames drawn with their numbers and bullets. Built from the sampler fixture game
(tests/fixtures/sampler), so nothing here depends on the games of data/."""

from __future__ import annotations

import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from printshop.pipeline.build import build
from printshop.project.models.booklet import TextStyle
from printshop.project.units import POINTS_PER
from printshop.typeset.fitting import fit
from printshop.typeset.richtext import parse_blocks
from tests.conftest import edit, fixture_project, line_of
from tests.pdfinspect import page_drawing

MM = POINTS_PER["mm"]
TOLERANCE = 0.1 * MM  # a back lands within 0.1 mm of where its front's mirror image is
OFFSET = (1.5 * MM, -2 * MM)  # --back-offset 1.5,-2


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """The sampler in English on A4, flipped on the long edge and, with a back offset, on the short
    edge."""
    root = tmp_path_factory.mktemp("two-sided")
    data, templates = fixture_project(root)
    built = {}
    for flip, offset in (("long-edge", (0.0, 0.0)), ("short-edge", OFFSET)):
        out = root / flip
        result = build(
            data,
            out,
            templates_dir=templates,
            langs=["en"],
            papers=["a4"],
            flip=flip,
            back_offset=offset,
            jobs=1,
        )
        assert not result.report.has_errors, [d.format() for d in result.report.errors]
        built[flip] = out / "sampler" / "en"
    return built


def expected_back(
    page, front, width: float, height: float, flip: str, offset=(0.0, 0.0)
) -> tuple[float, float]:
    """Where the back of a sheet placed at `front` (its size `width` x `height` at the trim)
    belongs: the printer turns the paper about its long or its short edge; on a landscape page the
    long edge lies across."""
    page_width, page_height = float(page.mediabox.width), float(page.mediabox.height)
    w, h = width * front.scale, height * front.scale
    turned_left_to_right = (flip == "long-edge") == (page_height >= page_width)
    x, y = (
        (page_width - front.x - w, front.y)
        if turned_left_to_right
        else (front.x, page_height - front.y - h)
    )
    return x + offset[0], y + offset[1]


@pytest.mark.parametrize("flip", ["long-edge", "short-edge"])
def test_each_page_of_sheets_is_followed_by_its_backs_mirrored_for_the_flip(kits, flip):
    offset = OFFSET if flip == "short-edge" else (0.0, 0.0)
    for name, width, height, items, per_page in (
        ("aid", 148 * MM, 210 * MM, 3, 2),
        ("reference", 180 * MM, 250 * MM, 1, 1),
    ):
        reader = PdfReader(kits[flip] / f"sampler-en-{name}-a4.pdf")
        sheet_pages = -(-items // per_page)
        assert len(reader.pages) == 2 * sheet_pages, name
        for number in range(sheet_pages):
            fronts, _ = page_drawing(reader, 2 * number)
            backs, _ = page_drawing(reader, 2 * number + 1)
            # fronts, then backs: each item's back behind its own front, in the same order
            shown = range(number * per_page, min(items, (number + 1) * per_page))
            assert [p.name.rsplit(".", 1)[-1] for p in fronts] == [f"sheet{i}" for i in shown]
            assert [p.name.rsplit(".", 1)[-1] for p in backs] == [f"back{i}" for i in shown]
            for front, back in zip(fronts, backs):
                x, y = expected_back(reader.pages[2 * number], front, width, height, flip, offset)
                assert back.x == pytest.approx(x, abs=TOLERANCE) and back.y == pytest.approx(
                    y, abs=TOLERANCE
                ), (name, number, front, back)
                assert back.scale == pytest.approx(front.scale)
        texts = [page.extract_text() for page in reader.pages]
        assert all("fronts" in text for text in texts[::2]) and all(
            "backs" in text for text in texts[1::2]
        )
        assert all("The other side" in text and "Player aid" not in text for text in texts[1::2])


def test_short_edge_pairs_put_a_lone_sheets_back_on_the_other_half(kits):
    """The aid's third item sits alone on the left half of its landscape page: turned about the
    short edge, its back must be printed on the right half, behind it."""
    reader = PdfReader(kits["short-edge"] / "sampler-en-aid-a4.pdf")
    [front], _ = page_drawing(reader, 2)
    [back], _ = page_drawing(reader, 3)
    middle = float(reader.pages[2].mediabox.width) / 2
    assert front.x < middle < back.x


def test_the_press_file_has_each_items_front_then_its_back(kits):
    reader = PdfReader(kits["long-edge"] / "sampler-en-aid-press.pdf")
    texts = [page.extract_text() for page in reader.pages]
    assert len(texts) == 6
    assert all("Player aid" in text for text in texts[::2]) and all(
        "The other side" in text for text in texts[1::2]
    )


@pytest.mark.parametrize("flip, edge", [("long-edge", "long"), ("short-edge", "short")])
def test_how_to_print_calls_two_sided_sheets_double_sided(kits, flip, edge):
    text = " ".join(
        PdfReader(kits[flip] / "sampler-en-how-to-print-a4.pdf").pages[0].extract_text().split()
    )
    assert f"sampler-en-reference-a4.pdf 2 double-sided, flipping on the {edge} edge" in text
    assert (
        f"sampler-en-aid-a4.pdf 4 double-sided, flipping on the {edge} edge; two sheets to a page"
        in text
    )
    assert "one-sided" not in text
    assert "print duplex-calibration-en-a4.pdf double-sided" in text


def test_a_sheets_back_is_checked_like_a_decks(tmp_path):
    data, templates = fixture_project(tmp_path)
    game = data / "sampler" / "game.yaml"
    edit(game, "    back: aid-back\n    width: 148mm", "    back: aid-bak\n    width: 148mm")
    [unknown] = [d for d in _found(data, templates, "unknown-reference") if "aid-bak" in d.message]
    assert unknown.location.path == str(game) and unknown.location.line == line_of(game, "aid-bak")
    assert "no face 'aid-bak'" in unknown.message


def test_a_tiled_sheet_with_a_back_is_refused(tmp_path):
    data, templates = fixture_project(tmp_path)
    game = data / "sampler" / "game.yaml"
    edit(game, "    bleed: 0mm\n", "    bleed: 0mm\n    tiled: true\n    overlap: 10mm\n")
    [refused] = [d for d in _found(data, templates, "wrong-type") if "tiled" in d.message]
    assert (
        refused.location.line == line_of(game, "reference:") + 2
    )  # at the reference sheet's `back:`
    assert "sheet 'reference' is tiled and has a back" in refused.message


def test_an_item_without_a_back_in_a_two_sided_set_is_reported(tmp_path):
    data, templates = fixture_project(tmp_path)
    game = data / "sampler" / "game.yaml"
    edit(game, "    back: aid-back\n    width: 148mm", "    width: 148mm")
    edit(game, "{id: red, vars: {colour: red}}", "{id: red, back: aid-back, vars: {colour: red}}")
    missing = _found(data, templates, "missing-field")
    assert sorted(d.message.split("'")[3] for d in missing) == ["gold", "grey"]
    assert all(d.location.path == str(game) for d in missing)


def _found(data, templates, code: str) -> list:
    from printshop.pipeline.build import check

    report, _ = check(data, templates_dir=templates)
    return [d for d in report.items if d.code == code]


# --- lists in frames
# --------------------------------------------------------------------------------
def test_lists_in_a_card_frame_print_their_numbers_and_bullets(kits):
    text = PdfReader(kits["long-edge"] / "sampler-en-tokens-a4.pdf").pages[0].extract_text()
    assert (
        "1. Draw a token." in text
        and "2. Place it face up." in text
        and "3. Pass to the left." in text
    )
    assert "• Never show your hand." in text and "• Ties go to the youngest." in text


def test_fitting_counts_a_list_items_indent(paints):
    """A word that just fits the frame's width as a paragraph does not fit as a list item: its
    indent (room for the number) takes from the width, and the validator sees the same as the
    renderer."""
    word = "Parteiversammlung"
    style = TextStyle(font="serif", size="9pt")
    width = stringWidth(word, "serif", 9.0) + 1
    assert fit(parse_blocks(f"<p>{word}</p>"), style, width, 100, paints).fits
    listed = fit(parse_blocks(f"<ol><li>{word}</li></ol>"), style, width, 100, paints)
    assert not listed.fits and listed.too_wide
    # and a list item's lines are shorter: a line that just fits as a paragraph takes two as a list
    # item
    text = "Draw a token and pass it to the left"
    width = stringWidth(text, "serif", 9.0) + 1
    plain = fit(parse_blocks(f"<p>{text}</p>"), style, width, 1000, paints)
    item = fit(parse_blocks(f"<ul><li>{text}</li></ul>"), style, width, 1000, paints)
    assert plain.height == pytest.approx(9 * 1.2) and item.height == pytest.approx(2 * 9 * 1.2)


def test_a_frames_indent_is_the_list_indent(paints):
    from printshop.typeset.fitting import make_flowables
    from printshop.typeset.measuring import list_indent

    blocks = parse_blocks("<ol>" + "<li>step</li>" * 10 + "</ol>")
    automatic = list_indent(blocks, TextStyle(font="serif", size="9pt"), 9.0)
    assert automatic > stringWidth("10.", "serif", 9.0)  # room for the widest number
    given = TextStyle(font="serif", size="9pt", indent="14pt")
    [first, *_] = make_flowables(
        parse_blocks("<ol>" + "<li>step</li>" * 9 + "</ol>"), given, 9.0, paints, 100
    )
    assert first.style.leftIndent == 14 and first.bulletText == "1."
    # "10." and the 0.6 em ReportLab leaves after it do not hang in 14 pt: the list's indent is
    # widened, every item's
    [first, *_, tenth] = make_flowables(blocks, given, 9.0, paints, 100)
    assert (
        first.style.leftIndent
        == tenth.style.leftIndent
        == stringWidth("10.", "serif", 9.0) + 0.6 * 9.0
        > 14
    )
