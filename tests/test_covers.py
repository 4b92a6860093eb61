"""Issue 50 item 4 and issue 51's booklet findings: covers and pages. Every rules booklet of every
game of data/ (discovered), in both languages, as printed at home (A5), imposed for saddle
stitching (A4) and for a shop (eu-3mm, with bleed): its cover and back cover filled to the page's
edge and bleed, their titles and blurbs balanced (no word alone on a last line), no file name on
either cover, the back cover the last page; a page style's background on the pages of rules; and
booklet.yaml's `pages` refused where they name what is not there.
"""

from __future__ import annotations

import ctypes
import re
import struct
import zlib
from pathlib import Path

import numpy as np
import pypdfium2
import pypdfium2.raw as raw
import pytest

from printshop.layout.plan import BookletLayout
from printshop.pipeline.build import check
from printshop.project.paths import DEFAULT_DATA_DIR, discover_games
from printshop.render.booklet import render_booklet
from printshop.render.booklet_covers import contrast
from printshop.render.colour import Paints
from tests.conftest import copy_data, kit_view, press_view
from tests.pdfinspect import char_boxes

GAMES = discover_games(DEFAULT_DATA_DIR)
LANGS = ("en", "fr")
DPI = 40


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    return kit_view(tmp_path_factory, GAMES, ["a4"])


@pytest.fixture(scope="module")
def press(tmp_path_factory) -> Path:
    return press_view(tmp_path_factory, ["eu-3mm"])


@pytest.fixture(scope="module")
def checked():
    report, checked = check(DEFAULT_DATA_DIR, games=GAMES, variant=None)
    assert checked is not None and not report.has_errors
    return checked


def _home(kit: Path) -> list[Path]:
    found = sorted(kit.rglob("*-rules-a5.pdf"))
    assert {p.parent.name for p in found} == set(LANGS) and len(found) >= 2 * 4
    return found


def _image(page) -> np.ndarray:
    return np.asarray(page.render(scale=DPI / 72).to_pil().convert("RGB")).astype(int)


def _border(image: np.ndarray) -> np.ndarray:
    """The outermost pixels of an image: its first and last rows and columns."""
    return np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])


def _white_share(pixels: np.ndarray) -> float:
    return float((pixels.min(axis=1) > 245).mean())


# --- 1. the covers filled to the edge and the bleed ---------------------------------------------
def _ring(image: np.ndarray, inset_px: int) -> np.ndarray:
    """The pixels of the rectangle `inset_px` inside the image's edge."""
    return _border(
        image[inset_px : image.shape[0] - inset_px, inset_px : image.shape[1] - inset_px]
    )


def test_covers_are_filled_to_the_bleed_or_to_the_frame_home_prints_keep(kit, press, checked):
    """The first and last page of every booklet: a press booklet's filled to its page's very edge
    (its bleed box: the fill reaches the bleed); a home print's filled to the even frame of paper
    that home printers leave (booklet.yaml's `pages.inset`) and white outside it; an imposed sheet's
    first side holds the back cover (left) and the cover (right), filled up to the fold."""
    inset = checked.project.booklet.pages.inset * DPI / 72
    assert inset > 5 / 25.4 * DPI  # wider than the band home printers leave (5 mm)
    for path in sorted(press.rglob("*-rules.pdf")):
        document = pypdfium2.PdfDocument(str(path))
        for number in (0, len(document) - 1):
            share = _white_share(_border(_image(document[number])))
            assert share == 0, f"{path.name} p{number + 1}: {share:.0%} of its edge is white"
        document.close()
    for path in _home(kit):
        document = pypdfium2.PdfDocument(str(path))
        for number in (0, len(document) - 1):
            image = _image(document[number])
            assert _white_share(_ring(image, round(inset) + 2)) == 0, (path.name, number + 1)
            assert _white_share(_ring(image, round(inset) - 2)) == 1, (path.name, number + 1)
        document.close()
    for path in sorted(kit.rglob("*-rules-booklet-a4.pdf")):
        document = pypdfium2.PdfDocument(str(path))
        image = _image(document[0])
        document.close()
        middle = image.shape[1] // 2  # the fold: both covers reach it
        rows = slice(round(inset) + 2, image.shape[0] - round(inset) - 2)
        fold = image[rows, middle - 3 : middle + 3].reshape(-1, 3)
        assert _white_share(fold) < 0.2, path.name  # (a hairline seam where the pages meet)
        assert _white_share(_ring(image, round(inset) + 2)) == 0, path.name


def test_a_press_booklets_cover_has_its_bleed_and_its_text_inside_the_margins(press, checked):
    """A shop's booklet: the page is the trim plus the bleed on every side, the fill reaches the
    bleed's corner, and no character of the cover is nearer the trim than the booklet's margins."""
    margins = checked.project.booklet.margins
    least = min(margins.top, margins.bottom, margins.inner, margins.outer)
    for path in sorted(press.rglob("*-rules.pdf")):
        document = pypdfium2.PdfDocument(str(path))
        page = document[0]
        trim = [float(v) for v in page.get_trimbox()]
        media = [float(v) for v in page.get_mediabox()]
        assert trim[0] - media[0] > 8, path.name  # 3 mm of bleed
        for left, bottom, right, top in char_boxes(page):
            assert left - trim[0] >= least - 1 and trim[2] - right >= least - 1, path.name
            assert bottom - trim[1] >= least - 1 and trim[3] - top >= least - 1, path.name
        document.close()


# --- 2. balanced titles, no file name, the back cover last --------------------------------------
def _paragraph_lines(page) -> list[list[str]]:
    """The page's text as paragraphs of lines, top down: a line is the characters of one baseline;
    a paragraph the lines of one type size that follow one another at its leading."""
    text = page.get_textpage()
    rows: dict[float, list[tuple[float, str, float]]] = {}
    for index in range(text.count_chars()):
        character = text.get_text_range(index, 1)
        if character in "\r\n":
            continue
        x, y = ctypes.c_double(), ctypes.c_double()
        raw.FPDFText_GetCharOrigin(text.raw, index, x, y)
        size = round(raw.FPDFText_GetFontSize(text.raw, index), 1)
        row = next((key for key in rows if abs(key - y.value) < 1), round(y.value, 1))
        rows.setdefault(row, []).append((x.value, character, size))
    paragraphs: list[list[str]] = []
    last: tuple[float, float] | None = None  # (baseline, size) of the line before
    for row in sorted(rows, reverse=True):
        line = sorted(rows[row])
        size = max(size for _, _, size in line)
        words = "".join(character for _, character, _ in line)
        if last is not None and last[1] == size and last[0] - row < size * 1.6:
            paragraphs[-1].append(words)
        else:
            paragraphs.append([words])
        last = (row, size)
    return paragraphs


def _words(line: str) -> int:
    return len([word for word in line.split() if re.search(r"[^\W_]", word)])


def test_no_paragraph_of_a_cover_or_back_cover_ends_with_one_word(kit):
    """Titles, subtitles and blurbs on both covers: each paragraph of two lines or more (and three
    words or more) ends with two words at least (issue 51: the French Comrade cover's subtitle ended with "veille.")."""
    checked_paragraphs = 0
    for path in _home(kit):
        document = pypdfium2.PdfDocument(str(path))
        for number in (0, len(document) - 1):
            for lines in _paragraph_lines(document[number]):
                # (a title of two words set on two lines is balanced: one word each, as
                # typeset.runts counts no runt in a paragraph of fewer than three words)
                if len(lines) > 1 and _words(" ".join(lines)) > 2:
                    checked_paragraphs += 1
                    assert _words(lines[-1]) > 1, f"{path.name} p{number + 1}: {lines}"
        document.close()
    assert checked_paragraphs >= 8  # subtitles and blurbs of several lines were looked at


def test_a_rules_booklet_names_its_file_on_no_page_a_how_to_page_does(kit):
    """Review 3: the file's name under every page of a bound rule book read as a proof left over;
    a booklet's running foot names the game. A sheet (the how-to page) still names its file."""
    for path in [*_home(kit), *sorted(kit.rglob("*-rules-booklet-a4.pdf"))]:
        document = pypdfium2.PdfDocument(str(path))
        texts = [" ".join(page.get_textpage().get_text_range().split()) for page in document]
        document.close()
        assert not any(path.name in text for text in texts), path.name
    for path in sorted(kit.rglob("*-how-to-print-a4.pdf")):
        document = pypdfium2.PdfDocument(str(path))
        assert path.name in document[0].get_textpage().get_text_range(), path.name
        document.close()


MM = 72 / 25.4


def _text_bottoms(path: Path) -> list[float]:
    """Each page's share of its height, from the top margin (15 mm) down to 20 mm above the foot
    (the folio's band), that its lowest line of text reaches: 1 a full page, 0 an empty one."""
    document = pypdfium2.PdfDocument(str(path))
    shares = []
    for page in document:
        height = page.get_size()[1]
        text = page.get_textpage()
        bottoms = [text.get_rect(k)[1] for k in range(text.count_rects())]
        low = min((b for b in bottoms if b > 20 * MM), default=height)
        shares.append((height - 15 * MM - low) / (height - 35 * MM))
    document.close()
    return shares


def test_the_a5_rules_have_an_even_page_count_and_full_pages(kit):
    """Review 3: printed double-sided, a booklet of an odd page count puts its back cover face up
    on a leaf of its own. Every A5 rules file has an even number of pages, its back cover last (an
    even, left-hand page); and each page of rules but the last is at least two-thirds full (a list
    or table moved whole leaves at most a quarter page: no page ends after two lines)."""
    for path in _home(kit):
        shares = _text_bottoms(path)
        assert len(shares) % 2 == 0, (path.name, len(shares))
        rules = shares[1:-1]
        while rules and rules[-1] < 0.05:  # notes pages before the back cover
            rules.pop()
        short = [(n + 2, round(s, 2)) for n, s in enumerate(rules[:-1]) if s < 2 / 3]
        assert not short, (path.name, short)


def test_the_fill_measure_catches_a_page_that_ends_early(tmp_path):
    """must-catch: a page whose text stops a third of the way down is measured as such."""
    from reportlab.lib.pagesizes import A5
    from reportlab.pdfgen.canvas import Canvas

    path = tmp_path / "short.pdf"
    canvas = Canvas(str(path), pagesize=A5)
    for bottom in (25 * MM, A5[1] - 70 * MM):
        y = A5[1] - 20 * MM
        while y >= bottom:
            canvas.drawString(20 * MM, y, "a line of rules")
            y -= 12
        canvas.showPage()
    canvas.save()
    full, short = _text_bottoms(path)
    assert full > 0.9 and short < 0.4, (full, short)


def test_every_booklet_ends_with_its_back_cover(kit, press, checked):
    """The last page of every booklet, home, imposed or press: the game's title and the back
    cover's blurb from the language files, no running head (issue 50: a back cover)."""
    for layout in checked.layouts:
        if layout.booklet is None:
            continue
        blurb = str(layout.localized.texts.get("rules.back_cover.blurb") or "")
        assert blurb, (layout.game_id, layout.lang)
        rules = layout.localized.label("rules")
        for path in [
            *kit.rglob(f"{layout.game_id}-{layout.lang}-rules-a5.pdf"),
            *press.rglob(f"{layout.game_id}-{layout.lang}-rules.pdf"),
        ]:
            document = pypdfium2.PdfDocument(str(path))
            last = " ".join(document[len(document) - 1].get_textpage().get_text_range().split())
            document.close()
            assert layout.title.upper() in last.upper(), (path.name, last)
            assert " ".join(blurb.split()[:3]) in last and f"· {rules}" not in last, path.name
            # what the kit holds and whose game it is (a back cover, not a second front)
            contents = str(layout.localized.texts.get("rules.back_cover.contents") or "")
            assert contents and " ".join(contents.split()[-3:]) in last, (path.name, last)


def test_a_back_cover_whose_text_does_not_fit_is_refused_not_left_blank(data_copy, tmp_path):
    """A back cover taller than its page was dropped whole without a word: the booklet ended on
    a bare page of art. It is a text-overflow with the way out; nothing is written."""
    from printshop.pipeline.build import build

    templates, rules = _comrade_rules_copy(tmp_path)
    text = rules.read_text(encoding="utf-8")
    head, back = text.split('<spacer height="back-cover"/>')
    assert '<spacer height="106mm"/>' in back
    back = back.replace('<spacer height="106mm"/>', '<spacer height="170mm"/>')
    rules.write_text(head + '<spacer height="back-cover"/>' + back, "utf-8")
    result = build(
        data_copy,
        tmp_path / "out",
        games=["comrade"],
        langs=["en"],
        papers=["a4"],
        templates_dir=templates,
    )
    found = [d for d in result.report.errors if "does not fit on the back cover" in d.message]
    assert found and found[0].code == "text-overflow" and "back-cover" in found[0].hint
    assert not (tmp_path / "out" / "comrade").exists()


# --- 3. a background per page style -------------------------------------------------------------
def _pixel(data: bytes, page: int, x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y), shares of the page's width and height from its top-left corner."""
    document = pypdfium2.PdfDocument(data)
    image = _image(document[page])
    document.close()
    return tuple(image[int(y * (image.shape[0] - 1)), int(x * (image.shape[1] - 1))])


def _rendered(checked, blocks: list | None, **options) -> tuple[bytes, int, dict]:
    """The checked game's booklet (or one of `blocks` in its style) rendered, its pages and the
    palette it was drawn with."""
    layout = next(l for l in checked.layouts if l.booklet is not None)
    project = checked.project.view(layout.localized.data)
    booklet = layout.booklet if blocks is None else BookletLayout(blocks, layout.booklet.style)
    paper = project.media.papers[project.booklet.paper]
    palette = project.colours.palette
    pdf, pages = render_booklet(
        layout, booklet, paper, Paints(palette), project.motifs.motifs, "b.pdf", **options
    )
    return pdf, pages, palette


def _hex(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def _near(one, other) -> bool:
    return max(abs(a - b) for a, b in zip(one, other)) <= 6


@pytest.mark.parametrize("bleed", [0.0, 8.5], ids=["home", "press"])
def test_a_page_styles_background_fills_the_pages_of_rules_and_the_blank_ones(tmp_path, bleed):
    data = copy_data(tmp_path / "data", ["comrade"])
    booklet = data / "comrade" / "print" / "booklet.yaml"
    booklet.write_text(
        booklet.read_text(encoding="utf-8") + "  text: {background: paper-deep}\n",
        encoding="utf-8",
    )
    report, checked = check(data, games=["comrade"], langs=["en"])
    assert not report.has_errors and checked is not None
    blocks = next(l for l in checked.layouts if l.booklet is not None).booklet.blocks
    first_break = next(i for i, b in enumerate(blocks) if type(b).__name__ == "PageBreak")
    short = blocks[: first_break + 4] + blocks[-7:]  # a page of rules, then the back cover
    data_pdf, pages, palette = _rendered(checked, short, pad_to=4, bleed=bleed)
    assert pages == 4
    deep = _hex(palette["paper-deep"])
    # a home print stops its fill 6 mm inside the page's edge (pages.inset); a press page reaches
    # the bleed's edge
    edge = 0.0 if bleed else 0.06
    for page in (1, 2):  # the page of rules, then the notes page
        for corner in ((edge, edge), (1 - edge, 1 - edge), (0.5, 0.5)):
            assert _near(_pixel(data_pdf, page, *corner), deep), (page, corner)
    assert _near(_pixel(data_pdf, 0, edge, 1 - edge), _hex(palette["red"]))  # the cover's own fill
    assert _near(
        _pixel(data_pdf, 3, 1 - edge, 1 - edge), _hex(palette["red-deep"])
    )  # the back cover's


def test_text_on_a_background_takes_the_more_legible_of_ink_and_white(tmp_path):
    """A page style that names no colour for a style: its text in ink or white, whichever stands
    out more from the background (white on the party's red, ink on pale paper)."""
    from printshop.render.booklet_covers import legible_on

    palette = {"ink": "#000000", "white": "#ffffff", "red": "#b22a1e", "paper": "#f5eedc"}
    assert legible_on("red", palette) == "white" and legible_on("paper", palette) == "ink"
    assert contrast("#000000", "#ffffff") == pytest.approx(21)


# --- 4. bad values refused at their place, good ones pass --------------------------------------
def _mutated(tmp_path, old: str, new: str) -> tuple[Path, object]:
    data = copy_data(tmp_path / "data", ["comrade"])
    booklet = data / "comrade" / "print" / "booklet.yaml"
    text = booklet.read_text(encoding="utf-8")
    assert old in text
    booklet.write_text(text.replace(old, new, 1), encoding="utf-8")
    report, _ = check(data, games=["comrade"], langs=["en"])
    return booklet, report


BAD = [
    ("background: red\n", "background: redd\n", "unknown-reference", "redd", "no colour 'redd'"),
    ("motif: star", "motif: starr", "unknown-reference", "starr", "no motif 'starr'"),
    ("radius: 38mm", "radius: 38mq", "wrong-type", "38mq", "38mq"),
    ("fill: gold, layer: 2}", "fill: goldd, layer: 2}", "unknown-reference", "goldd", "goldd"),
    (
        "colours: {title: paper,",
        "colours: {titel: paper,",
        "unknown-reference",
        "{titel",
        "no paragraph style 'titel'",
    ),
    (
        "sizes: {title: 42pt,",
        "sizes: {title: 42pq,",
        "wrong-type",
        "42pq",
        "42pq",
    ),
    (
        "      band:",
        "      art: {kind: image, src: images/cover.png, x: 0mm, y: 0mm, width: 20mm, height: 20mm}\n"
        "      band:",
        "file-missing",
        "images/cover.png",
        "not found",
    ),
]


@pytest.mark.parametrize("old, new, code, value, said", BAD, ids=[b[2] + ":" + b[3] for b in BAD])
def test_a_bad_page_style_value_is_refused_at_its_place(tmp_path, old, new, code, value, said):
    booklet, report = _mutated(tmp_path, old, new)
    errors = [
        d for d in report.errors if str(d.location.path).endswith("comrade/print/booklet.yaml")
    ]
    assert len(errors) == 1, [d.format() for d in report.items]
    [error] = errors
    lines = booklet.read_text(encoding="utf-8").splitlines()
    line = next(n for n, row in enumerate(lines, start=1) if value in row)
    assert (error.code, error.location.line) == (code, line) and said in error.message, (
        error.format()
    )
    assert error.location.col <= lines[line - 1].index(value) + 1


def test_text_hard_to_read_on_its_background_is_a_warning_at_its_colours(tmp_path):
    booklet, report = _mutated(
        tmp_path,
        "colours: {title: paper, subtitle: paper",
        "colours: {title: red-deep, subtitle: paper",
    )
    [warning] = [d for d in report.items if d.code == "low-contrast"]
    line = next(
        n
        for n, row in enumerate(booklet.read_text(encoding="utf-8").splitlines(), start=1)
        if "title: red-deep" in row
    )
    assert warning.location.line == line and "'red-deep' on 'red'" in warning.message


def test_the_kits_page_styles_pass_with_no_problem_at_them(checked):
    """The must-pass side: the four kits' booklet.yaml files (colours, motifs, styles, contrast)
    say nothing."""
    report, _ = check(DEFAULT_DATA_DIR, games=GAMES, variant=None)
    assert not [d for d in report.items if "booklet.yaml" in str(d.location.path)], [
        d.format() for d in report.items if "booklet.yaml" in str(d.location.path)
    ]


def _png(path: Path, width: int, height: int, colour: tuple[int, int, int]) -> None:
    """A plain RGB PNG (no Pillow needed to write a test's art)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    rows = b"".join(b"\x00" + bytes(colour) * width for _ in range(height))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def test_an_image_of_the_games_folder_is_drawn_on_the_cover(tmp_path):
    """The must-pass side of a missing image: a file that is there validates and is drawn where
    the page style places it (here over the cover's top left corner, into the bleed)."""
    data = copy_data(tmp_path / "data", ["comrade"])
    _png(data / "comrade" / "images" / "cover.png", 600, 600, (20, 120, 60))
    booklet = data / "comrade" / "print" / "booklet.yaml"
    text = booklet.read_text(encoding="utf-8")
    booklet.write_text(
        text.replace(
            "      band:",
            "      art: {kind: image, src: images/cover.png, x: -3mm, y: -3mm, width: 50mm, "
            "height: 50mm, layer: 9}\n      band:",
            1,
        ),
        encoding="utf-8",
    )
    report, checked = check(data, games=["comrade"], langs=["en"])
    assert not report.has_errors and checked is not None, [d.format() for d in report.errors]
    pdf, _, palette = _rendered(checked, None, bleed=8.5)
    assert _near(_pixel(pdf, 0, 0, 0), (20, 120, 60))  # the bleed's corner: the image
    assert _near(_pixel(pdf, 0, 1, 1), _hex(palette["red"]))


def test_a_cover_whose_text_runs_onto_the_next_page_is_refused(data_copy, tmp_path):
    """Found with the worked example: a French title on two lines under a tall opening spacer ran
    the cover's last line onto page 2, in the cover's paper colour on a white page, and nothing
    said so. It is a text-overflow with the way out; nothing is written."""
    from printshop.pipeline.build import build

    templates, rules = _comrade_rules_copy(tmp_path)
    text = rules.read_text(encoding="utf-8")
    assert '<spacer height="105mm"/>' in text
    rules.write_text(text.replace('<spacer height="105mm"/>', '<spacer height="180mm"/>'), "utf-8")
    result = build(
        data_copy,
        tmp_path / "out",
        games=["comrade"],
        langs=["en"],
        papers=["a4"],
        templates_dir=templates,
    )
    found = [d for d in result.report.errors if "does not fit on the cover" in d.message]
    assert found and found[0].code == "text-overflow" and "spacer" in found[0].hint
    assert not (tmp_path / "out" / "comrade").exists()


@pytest.mark.parametrize(
    "part, old, new, said",
    [
        ("cover", '<spacer height="105mm"/>', '<spacer height="180mm"/>', "on the cover"),
        ("back", '<spacer height="106mm"/>', '<spacer height="170mm"/>', "on the back cover"),
    ],
)
def test_validate_refuses_a_cover_the_build_would_refuse(
    data_copy, tmp_path, capsys, part, old, new, said
):
    """What validates builds: a cover or back cover whose text its page cannot hold failed the
    build while `printshop validate` passed (booklets were set only when rendered). validate sets
    each booklet as the build does; the project's own pass (CI's validate --strict)."""
    from printshop.cli import main

    templates, rules = _comrade_rules_copy(tmp_path)
    head, back = rules.read_text(encoding="utf-8").split('<spacer height="back-cover"/>')
    if part == "cover":
        assert old in head
        head = head.replace(old, new, 1)
    else:
        assert old in back
        back = back.replace(old, new, 1)
    rules.write_text(head + '<spacer height="back-cover"/>' + back, "utf-8")
    code = main(
        ["validate", "--data", str(data_copy), "--templates", str(templates), "--game", "comrade"]
    )
    out = capsys.readouterr()
    assert code == 1 and "error[text-overflow]" in out.out + out.err
    assert f"does not fit {said}" in out.out + out.err


def _comrade_rules_copy(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the templates folder (the common ones in it) and its Comrade rules template, to
    alter."""
    import shutil

    from printshop.project.paths import COMMON_TEMPLATES_DIR, DEFAULT_TEMPLATES_DIR

    templates = tmp_path / "templates"
    shutil.copytree(DEFAULT_TEMPLATES_DIR, templates)
    shutil.copytree(COMMON_TEMPLATES_DIR / "common", templates / "common")
    return templates, templates / "comrade" / "rules.xml.j2"
