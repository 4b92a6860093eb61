"""Kremlin's board as a picture (issue 51): every tile of the print-and-play board carries part of it
(none is more than 40 % bare ground), and the words on its banners and chips keep 1.5 mm from the
edges of the band they sit in, in both languages. Each guard is shown to catch the board as the
issue found it (tests/fixtures/kremlin-old-board/, put back in a copy of the data)."""

from __future__ import annotations

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
