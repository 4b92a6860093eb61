"""Kremlin's board as a picture (issue 51): every tile of the print-and-play board carries part of it
(none is more than 40 % bare ground), and the words on its banners and chips keep 1.5 mm from the
edges of the band they sit in, in both languages. Each guard is shown to catch the board as the
issue found it (tests/fixtures/kremlin-old-board/, put back in a copy of the data)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from printshop.pipeline.build import build
from printshop.project.paths import DEFAULT_TEMPLATES_DIR
from tests.conftest import FIXTURES, copy_data, kit_view, real_project, tiled_sheet, tiling_of
from tests.pdfinspect import page_drawing

MM = 72 / 25.4
BARE_MOST = 40  # percent of a tile's area in cells of bare ground
CELL = 10.0  # mm: a cell is bare when all but a speck of it is the board's ground colour
INSET = 1.5  # mm: from a band's edge to its words


@pytest.fixture(scope="module")
def kremlin_kit(tmp_path_factory):
    return kit_view(tmp_path_factory, ["kremlin"])


@pytest.fixture(scope="module")
def old_board(tmp_path_factory) -> Path:
    """The French kit on A4 built with the board issue 51 found, in a copy of the data."""
    root = tmp_path_factory.mktemp("old-board")
    data = copy_data(root / "data", ["kremlin"])
    templates = root / "templates"
    shutil.copytree(DEFAULT_TEMPLATES_DIR, templates)
    faces = data / "kremlin" / "faces.yaml"
    text = faces.read_text(encoding="utf-8")
    start = text.index("  board:\n")
    end = text.index("\n  # -----", start)
    old = (FIXTURES / "kremlin-old-board" / "board-face.yaml").read_text(encoding="utf-8")
    faces.write_text(text[:start] + old + text[end:], encoding="utf-8")
    shutil.copy(FIXTURES / "kremlin-old-board" / "board.j2", templates / "kremlin" / "board.j2")
    result = build(
        data,
        root / "out",
        templates_dir=templates,
        games=["kremlin"],
        langs=["fr"],
        papers=["a4"],
    )
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    return root / "out"


def _board():
    game = real_project(["kremlin"]).games["kremlin"]
    return game.game.sheets["board"], game.faces["board"]


def _rgb(name: str) -> np.ndarray:
    """A colour of Kremlin's palette (the project's and its own) as 0-255 RGB."""
    project = real_project(["kremlin"])
    hex_value = project.view(project.games["kremlin"]).colours.palette[name]
    return np.array([int(hex_value[i : i + 2], 16) for i in (1, 3, 5)])


def bare_shares(path: Path, tiling, px: float = 4.0) -> dict[str, float]:
    """Each tile's share of bare ground, in percent: the tile's window (the board it prints, its
    cut edges) rasterised and cut into CELL-mm squares; a square is bare when 98 % of its pixels are
    the board's background colour. Text, art, slots and bands all count as used."""
    from printshop.render.sheet_pages import ASSEMBLY_PAGE

    _, face = _board()
    ground = _rgb(face.background or "paper")
    scale = px / MM
    pdf = pdfium.PdfDocument(str(path))
    shares = {}
    for tile, index in zip(tiling.tiles(), range(ASSEMBLY_PAGE, len(pdf)), strict=True):
        ox, oy = tiling.origin_of(tile)
        image = np.asarray(pdf[index].render(scale=scale).to_pil().convert("RGB")).astype(int)
        height = image.shape[0]
        window = image[
            round(height - (oy + tile.height) * scale) : round(height - oy * scale),
            round(ox * scale) : round((ox + tile.width) * scale),
        ]
        bare = np.abs(window - ground).max(axis=2) <= 6
        side = round(CELL * px)
        rows, columns = bare.shape[0] // side, bare.shape[1] // side
        cells = bare[: rows * side, : columns * side].reshape(rows, side, columns, side)
        shares[tile.label] = float((cells.mean(axis=(1, 3)) >= 0.98).mean() * 100)
    pdf.close()
    return shares


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_board_tile_carries_part_of_the_picture(kremlin_kit, lang, paper):
    shares = bare_shares(
        kremlin_kit / "kremlin" / lang / f"kremlin-{lang}-board-{paper}.pdf",
        tiling_of(*tiled_sheet("kremlin", lang, "board"), paper),
    )
    assert len(shares) >= 8
    bare = {label: round(share) for label, share in shares.items() if share > BARE_MOST}
    assert not bare, f"tiles more than {BARE_MOST} % bare ground: {bare}"


def test_the_bare_tile_guard_catches_the_board_issue_51_found(old_board):
    from printshop.pipeline.build import check

    root = old_board.parent
    _, checked = check(
        root / "data", games=["kremlin"], langs=["fr"], templates_dir=root / "templates"
    )
    assert checked is not None
    [layout] = checked.layouts
    [sheet] = [sheet for sheet in layout.sheets if sheet.id == "board"]
    tiling = tiling_of(checked, layout, sheet, "a4")
    shares = bare_shares(old_board / "kremlin" / "fr" / "kremlin-fr-board-a4.pdf", tiling)
    assert shares["A1"] > 60 and shares["A3"] > 60, shares  # the review's "about 70 % empty"


def band_insets(path: Path, face, px: float = 8.0) -> dict[str, float]:
    """For each band (a rect shape named `*-band`) and chip (`*-chip_N`) of the board that a frame
    sits on, the least distance in mm from the ink of its words to the band's edges, read on the
    one-page board (the press file) rasterised: ink is what differs from the band's fill, a 0.6 mm
    ring inside its edge left out (its outline, its round corners). `face`: the board's face."""
    page = PdfReader(path).pages[0]
    trim_left, trim_top = float(page.trimbox.left), float(page.mediabox.top - page.trimbox.top)
    scale = px / MM
    pdf = pdfium.PdfDocument(str(path))
    image = np.asarray(pdf[0].render(scale=scale).to_pil().convert("RGB")).astype(int)
    pdf.close()
    found = {}
    for name, shape in face.shapes.items():
        if shape.kind != "rect" or not (name.endswith("-band") or "-chip_" in name):
            continue
        if not any(
            shape.x <= frame.x + frame.width / 2 <= shape.x + shape.width
            and shape.y <= frame.y + frame.height / 2 <= shape.y + shape.height
            for frame in face.frames.values()
        ):
            continue
        ring = 0.6 * MM
        left, top = trim_left + shape.x + ring, trim_top + shape.y + ring
        right = trim_left + shape.x + shape.width - ring
        bottom = trim_top + shape.y + shape.height - ring
        box = image[
            round(top * scale) : round(bottom * scale), round(left * scale) : round(right * scale)
        ]
        fill = np.median(box.reshape(-1, 3), axis=0)
        ys, xs = np.nonzero(np.abs(box - fill).max(axis=2) > 100)
        assert len(xs), f"{path.name}: nothing written on {name}"
        ring_px = ring * scale
        gaps = (
            xs.min() + ring_px,
            box.shape[1] - 1 - xs.max() + ring_px,
            ys.min() + ring_px,
            box.shape[0] - 1 - ys.max() + ring_px,
        )
        found[name] = min(gaps) / px
    return found


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_words_on_the_board_s_banners_and_chips_keep_off_their_edges(kremlin_kit, lang):
    path = kremlin_kit / "kremlin" / lang / f"kremlin-{lang}-board-press.pdf"
    insets = band_insets(path, _board()[1])
    assert {f"place_{rank}-band" for rank in range(1, 9)} <= set(insets)
    assert sum("-chip_" in name for name in insets) == sum(
        len(office["roles"]) for office in _offices()
    )  # a chip for every code the data gives, none empty
    tight = {name: round(inset, 2) for name, inset in insets.items() if inset < INSET}
    assert not tight, f"words closer than {INSET} mm to their band's edge: {tight}"


def test_the_inset_guard_catches_the_french_banners_issue_51_found(old_board):
    from printshop.project.loader import load_project

    root = old_board.parent
    face = load_project(root / "data", root / "templates", games=["kremlin"]).games["kremlin"]
    insets = band_insets(
        old_board / "kremlin" / "fr" / "kremlin-fr-board-press.pdf", face.faces["board"]
    )
    tight = [name for name, inset in insets.items() if inset < INSET]
    assert "place_6-band" in tight, insets  # "Industrie": four lines, down to the band's foot


def _offices() -> list[dict]:
    from printshop.language.resolve import board_view

    return board_view(real_project(["kremlin"]).games["kremlin"])["offices"]


# --- seams: no cut edge of a tile runs through a line of text (the review's KREM|MLIN, the phases)
def text_runs(press: Path) -> list[tuple[float, float, float, float, str]]:
    """The text runs (a line, or a cell's line) of a sheet's one-page press file, as (left, bottom,
    right, top, text) in the sheet's own coordinates (its trim's bottom-left corner)."""
    trim = [float(v) for v in PdfReader(press).pages[0].trimbox]
    pdf = pdfium.PdfDocument(str(press))
    page = pdf[0].get_textpage()
    runs = []
    for index in range(page.count_rects()):
        left, bottom, right, top = page.get_rect(index)
        text = page.get_text_bounded(left, bottom, right, top).strip()
        if text:
            runs.append((left - trim[0], bottom - trim[1], right - trim[0], top - trim[1], text))
    pdf.close()
    return runs


def crossed(tiling, runs) -> list[str]:
    """The runs a seam crosses: a column's left cut edge (the board's whole height) or a row's top
    cut edge (its whole width), the first column's and row's excepted (the board's own edges)."""
    found = []
    for x in tiling.xs[1:-1]:
        found += [f"x={x / MM:.1f} mm: {r[4]}" for r in runs if r[0] < x < r[2]]
    for y in tiling.tops[1:-1]:
        found += [f"y={y / MM:.1f} mm: {r[4]}" for r in runs if r[1] < y < r[3]]
    return found


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_seam_runs_through_a_line_of_text(kremlin_kit, lang, paper):
    from printshop.render.sheet_pages import ASSEMBLY_PAGE

    checked, layout, sheet = tiled_sheet("kremlin", lang, "board")
    tiling = tiling_of(checked, layout, sheet, paper)
    path = kremlin_kit / "kremlin" / lang / f"kremlin-{lang}-board-{paper}.pdf"
    reader = PdfReader(path)
    for index, tile in enumerate(tiling.tiles(), start=ASSEMBLY_PAGE):  # the file is tiled so
        [placement], _ = page_drawing(reader, index)
        ox, oy = tiling.origin_of(tile)
        assert (placement.x, placement.y) == pytest.approx((ox - tile.left, oy - tile.bottom))
    press = kremlin_kit / "kremlin" / lang / f"kremlin-{lang}-board-press.pdf"
    runs = text_runs(press)
    assert any("KREMLIN" in r[4] for r in runs) and len(runs) > 60
    assert not crossed(tiling, runs)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_seam_guard_catches_tiles_that_step_evenly(kremlin_kit, paper):
    from dataclasses import replace

    checked, layout, sheet = tiled_sheet("kremlin", "fr", "board")
    even = replace(tiling_of(checked, layout, sheet, paper), cuts_x=(), cuts_y=())
    runs = text_runs(kremlin_kit / "kremlin" / "fr" / "kremlin-fr-board-press.pdf")
    found = crossed(even, runs)
    assert len(found) >= 5, found  # the phases' lines, the candidates' heading, the banners...


# --- the strip each tile gives away (review 2: "SE" and a lone "K" at a tile's edge): what the
# neighbour covers once taped prints veiled, so that a word cut at the window's edge reads as the
# margin to glue under; and the panel's tables, each whole on one tile with its heading
VEILED = 0.45  # the darkest grey (0-1) in a veiled strip (its hatching on the veiled ink: 0.48;
# the board's ink and red unveiled: 0.1-0.3)


def unveiled(path: Path, tiling, runs, px: float = 3.0) -> list[str]:
    """For each tile, the text runs its window's far edges (the right or lower edge of a strip its
    neighbour lies over) cut where that strip prints darker than VEILED, as 'tile: text'."""
    from printshop.render.sheet_pages import ASSEMBLY_PAGE

    scale = px / MM
    pdf = pdfium.PdfDocument(str(path))
    found = []
    for tile, index in zip(tiling.tiles(), range(ASSEMBLY_PAGE, len(pdf)), strict=True):
        ox, oy = tiling.origin_of(tile)
        image = np.asarray(pdf[index].render(scale=scale).to_pil().convert("L")) / 255
        height = image.shape[0]
        for left, bottom, width, tall in tiling.covered(tile):
            x0, y0 = ox + left - tile.left, oy + bottom - tile.bottom  # on the page
            strip = image[
                round(height - (y0 + tall) * scale) + 1 : round(height - y0 * scale) - 1,
                round(x0 * scale) + 1 : round((x0 + width) * scale) - 1,
            ]
            if strip.size and strip.min() >= VEILED:
                continue
            if tall == tile.height:  # the right neighbour's: cut at the window's right edge
                x = left + width
                cut = [
                    r[4] for r in runs if r[0] < x < r[2] and r[1] < bottom + tall and r[3] > bottom
                ]
            else:  # the lower neighbour's: cut at the window's bottom edge
                end = tile.left + tile.width
                cut = [r[4] for r in runs if r[1] < bottom < r[3] and r[0] < end and r[2] > left]
            found += [f"{tile.label}: {text}" for text in cut]
    pdf.close()
    return found


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_strip_a_tile_gives_away_is_veiled(kremlin_kit, lang, paper):
    tiling = tiling_of(*tiled_sheet("kremlin", lang, "board"), paper)
    runs = text_runs(kremlin_kit / "kremlin" / lang / f"kremlin-{lang}-board-press.pdf")
    path = kremlin_kit / "kremlin" / lang / f"kremlin-{lang}-board-{paper}.pdf"
    assert not unveiled(path, tiling, runs)


def test_the_veil_guard_catches_a_board_printed_twice_at_full_strength(tmp_path):
    """Must-catch: `tile_cover: 0` prints the strips as the review saw them: words cut at the
    window's edge, a level's heading among them."""
    from printshop.pipeline.build import check

    data = copy_data(tmp_path / "data", ["kremlin"])
    (data / "print").mkdir(exist_ok=True)
    (data / "print" / "media.yaml").write_text("print_and_play:\n  tile_cover: 0\n", "utf-8")
    result = build(data, tmp_path / "out", games=["kremlin"], langs=["fr"], papers=["a4"])
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    _, checked = check(data, games=["kremlin"], variant=None)
    [layout] = [gl for gl in checked.layouts if gl.lang == "fr"]
    [sheet] = [sheet for sheet in layout.sheets if sheet.id == "board"]
    tiling = tiling_of(checked, layout, sheet, "a4")
    runs = text_runs(tmp_path / "out" / "kremlin" / "fr" / "kremlin-fr-board-press.pdf")
    found = unveiled(tmp_path / "out" / "kremlin" / "fr" / "kremlin-fr-board-a4.pdf", tiling, runs)
    assert any("NIVEAU" in text for text in found), found
    assert any("KREMLIN" in text for text in found), found


PANEL_HEADINGS = {
    "en": ("A YEAR IN EIGHT PHASES", "HEALTH: D20 ROLL"),
    "fr": ("UNE ANNÉE, HUIT PHASES", "SANTÉ\u202f: JET DE D20"),
}


def panel_sections(runs, headings) -> dict[str, tuple[float, float, float, float]]:
    """The panel's sections (right of the board's seats, x > 410 mm): each heading with every run
    under it down to the next heading (or the panel's foot), as its box (left, bottom, right,
    top) in the sheet's coordinates."""
    column = sorted((r for r in runs if r[0] > 410 * MM), key=lambda r: -r[3])
    tops = sorted((r[3] for r in column if r[4] in headings), reverse=True)
    assert len(tops) == len(headings), [r[4] for r in column]
    sections = {}
    for top, below in zip(tops, [*tops[1:], -1.0], strict=True):
        members = [r for r in column if below < r[3] <= top]
        heading = next(r[4] for r in members if r[3] == top)
        sections[heading] = (
            min(r[0] for r in members),
            min(r[1] for r in members),
            max(r[2] for r in members),
            max(r[3] for r in members),
        )
    return sections


def split_sections(tiling, sections) -> list[str]:
    """The sections no tile shows whole between its cut edges (what stays of it once taped)."""
    xs, tops = tiling.xs, tiling.tops
    shown = [(xs[t.column], tops[t.row + 1], xs[t.column + 1], tops[t.row]) for t in tiling.tiles()]
    return [
        heading
        for heading, (left, bottom, right, top) in sections.items()
        if not any(a <= left and b <= bottom and right <= c and top <= d for a, b, c, d in shown)
    ]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_table_of_the_panel_stands_whole_on_one_tile_with_its_heading(
    kremlin_kit, lang, paper
):
    tiling = tiling_of(*tiled_sheet("kremlin", lang, "board"), paper)
    runs = text_runs(kremlin_kit / "kremlin" / lang / f"kremlin-{lang}-board-press.pdf")
    sections = panel_sections(runs, PANEL_HEADINGS[lang])
    assert len(sections) == 2
    assert not split_sections(tiling, sections)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_panel_guard_catches_the_phases_cut_from_their_heading(paper):
    """Must-catch: review 2's board (EN), its panel's sections as measured on it (mm from the top:
    the phases 252-398, the health table 405-501) under the seams it had (A4: one row seam at
    263.2 mm, under the phases' heading; Letter: 174.8 and 353.1 mm, through phase 6)."""
    from dataclasses import replace

    tiling = tiling_of(*tiled_sheet("kremlin", "en", "board"), paper)
    height = tiling.sheet_height
    sections = {
        name: (416 * MM, height - bottom * MM, 588 * MM, height - top * MM)
        for name, (top, bottom) in {"phases": (252, 398), "health": (405, 501)}.items()
    }
    review = {"a4": (0.0, 263.2 * MM), "letter": (0.0, 174.8 * MM, 353.1 * MM)}[paper]
    assert split_sections(replace(tiling, cuts_y=review), sections) == ["phases"]


# --- review 3: each tile named on its page as the assembly diagram names it --------------------
def tile_names(path: Path) -> list[str | None]:
    """Each tile page's name (A1, B3…) set in 7.5 pt or more (bold capitals) and at least 5 mm from the paper's
    edges; None for a page without one."""
    document = pdfium.PdfDocument(str(path))
    names: list[str | None] = []
    for index in range(1, len(document)):
        page = document[index]
        width, height = page.get_size()
        text = page.get_textpage()
        found = None
        for rect_index in range(text.count_rects()):
            left, bottom, right, top = text.get_rect(rect_index)
            words = text.get_text_bounded(left, bottom, right, top).strip()
            large = top - bottom >= 7.5 * 0.68  # a capital's height
            inside = min(left, bottom, width - right, height - top) >= 5 * 72 / 25.4
            if re.fullmatch(r"[A-C][1-4]", words) and large and inside:
                found = words
        names.append(found)
    document.close()
    return names


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_each_tile_page_names_its_tile_large(kremlin_kit, paper):
    """Review 3: a tile's name was only in the 6 pt footer, so eight beige sheets were sorted by
    reading it. Each tile page carries its name (A1, A2…) in 7.5 pt or more (11 pt where the margin allows), in the margin by the
    window's top-left corner, at least 5 mm from the paper's edge; each name once."""
    names = tile_names(kremlin_kit / "kremlin" / "en" / f"kremlin-en-board-{paper}.pdf")
    assert None not in names and len(set(names)) == len(names) and "A1" in names, names


def test_the_tile_name_guard_catches_a_name_in_the_footer_only(tmp_path, monkeypatch):
    """Must-catch: tiles without the pill (the footer's 6 pt "tile A1" alone) have no name."""
    from printshop.render import sheet_pages

    monkeypatch.setattr(sheet_pages, "_tile_name", lambda *args: None)
    data = copy_data(tmp_path / "data", ["kremlin"])
    result = build(data, tmp_path / "out", games=["kremlin"], langs=["en"], papers=["a4"])
    assert not result.report.has_errors
    names = tile_names(tmp_path / "out" / "kremlin" / "en" / "kremlin-en-board-a4.pdf")
    assert names and all(name is None for name in names), names
