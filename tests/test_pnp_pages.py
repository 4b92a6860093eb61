"""Issue 16: the pages round the cards, as a player prints them. Every page of every print-and-play
kit keeps all ink 5 mm from the paper's edge (a pixel test), footers meet no mark nor cut line,
tiled boards keep their marks off the board, the player's pages name no command, and booklets end on
a real page.

One build of every game of data/ (discovered, never named), both papers, with gutterfold sheets, is
shared by the module; the press booklets come from one shop build.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pypdfium2
import pytest
from pypdf import PdfReader

from printshop.pipeline.build import check
from printshop.project.paths import DEFAULT_DATA_DIR, discover_games
from printshop.project.units import mm
from tests.conftest import press_view, shared_build, tiling_of
from tests.pdfinspect import page_drawing, page_texts, words

GAMES = discover_games(DEFAULT_DATA_DIR)
BAND = 5.0  # millimetres along each edge where home printers print nothing
DPI = 50


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    return shared_build(tmp_path_factory, games=GAMES, gutterfold=True)[0]


@pytest.fixture(scope="module")
def press(tmp_path_factory) -> Path:
    return press_view(
        tmp_path_factory, ["eu-3mm"]
    )  # the files `build(..., target="shop", profiles=["eu-3mm"])` writes


@pytest.fixture(scope="module")
def checked():
    report, checked = check(DEFAULT_DATA_DIR, games=GAMES, variant=None)
    assert checked is not None
    return checked


def _kit_files(kit: Path) -> list[Path]:
    """The files a player prints: every PDF of the kits and the calibration pages, not the press
    pages."""
    return sorted(
        p
        for p in kit.rglob("*.pdf")
        if ".printshop-cache" not in p.parts and not p.name.endswith("-press.pdf")
    )


def _render(page, dpi: int = DPI) -> np.ndarray:
    """The page in grey, as pdfium renders it: its grey is (30 R + 59 G + 11 B) / 100, rounded down,
    so a pixel with any ink in any channel is below 255 (Pillow's conversion of the colour picture
    rounded a faint tint up to white, and took a third more time)."""
    return page.render(scale=dpi / 72, grayscale=True).to_numpy()


def ink_near_the_edge(page, band_mm: float = BAND, dpi: int = DPI) -> list[str]:
    """Where `page` (pypdfium2) has ink within `band_mm` of the paper's edge: for each of the four
    strips along the edges with any, its name and how many pixels are inked. Only the strips are
    rendered (pdfium's crop), the bottom and top ones across the whole width, the side ones between
    them: an eighth of a page's pixels, and a quarter of the time the whole page took. A pixel that
    ink touches at all is below 255 (see _render)."""
    width, height = page.get_size()
    band = band_mm * 72 / 25.4
    strips = {
        "bottom": (0, 0, 0, height - band),
        "top": (0, height - band, 0, 0),  # (left, bottom, right, top) cut off
        "left": (0, band, width - band, band),
        "right": (width - band, band, 0, band),
    }
    found = []
    for name, crop in strips.items():
        inked = int((page.render(scale=dpi / 72, grayscale=True, crop=crop).to_numpy() < 255).sum())
        if inked:
            found.append(f"{name} edge: {inked} px")
    return found


def test_ink_near_the_edge_is_found_along_each_edge_and_ink_inside_the_band_is_not(tmp_path):
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    width, height = A4
    near, clear = mm(BAND - 0.5), mm(BAND + 0.5)  # a hairline dot this far from the edge
    dots = {
        "left": [(near, height / 2)],
        "right": [(width - near, height / 3)],
        "bottom": [(width / 2, near)],
        "top": [(width / 4, height - near)],
        "corner": [(near, near)],
        "clear": [(clear, clear), (width - clear, height - clear), (width / 2, height / 2)],
    }
    path = tmp_path / "dots.pdf"
    canvas = Canvas(str(path), pagesize=A4)
    for points in dots.values():
        for x, y in points:
            canvas.circle(x, y, mm(0.1), stroke=0, fill=1)
        canvas.showPage()
    canvas.save()
    document = pypdfium2.PdfDocument(str(path))
    found = {name: ink_near_the_edge(document[number]) for number, name in enumerate(dots)}
    document.close()
    for edge in ("left", "right", "bottom", "top"):
        assert [strip.split()[0] for strip in found[edge]] == [edge], found[edge]
    assert found["corner"] and found["clear"] == []


def test_no_ink_within_5_mm_of_the_paper_edge_on_any_page(kit):
    files = _kit_files(kit)
    assert any("-letter" in p.name for p in files) and any("-a4" in p.name for p in files)
    offenders = []
    for path in files:
        document = pypdfium2.PdfDocument(str(path))
        for number, page in enumerate(document, start=1):
            offenders += [f"{path.name} p{number}: {edge}" for edge in ink_near_the_edge(page)]
        document.close()
    assert not offenders, "\n".join(offenders)


def _footer_box(document, path: Path, number: int) -> tuple[float, float, float, float]:
    """The box (PDF points, origin bottom-left) of the footer: the line that names the file."""
    text = document[number].get_textpage()
    content = text.get_text_range()
    start = content.find(path.name)
    assert start >= 0, f"{path.name} p{number + 1} does not name its file"
    end = content.find("\n", start)
    end = len(content) if end < 0 else end
    boxes = [text.get_charbox(i) for i in range(start, end)]
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _meets(box, segment, clearance: float) -> bool:
    x0, y0, x1, y1 = box
    ax, ay, bx, by = segment
    return not (
        max(ax, bx) < x0 - clearance
        or min(ax, bx) > x1 + clearance
        or max(ay, by) < y0 - clearance
        or min(ay, by) > y1 + clearance
    )


def test_footers_meet_no_crop_mark_or_cut_line(kit):
    """Measured from the content streams: every stroked line on a page (crop marks, cut and fold
    lines) stays at least 0.5 mm from the footer's text."""
    checked = 0
    for path in _kit_files(kit):
        if "-rules" in path.name or "how-to-print" in path.name or "calibration" in path.name:
            continue
        reader, document = PdfReader(path), pypdfium2.PdfDocument(str(path))
        try:
            for number in range(len(reader.pages)):
                _, segments = page_drawing(reader, number)
                box = _footer_box(document, path, number)
                clash = [s for s in segments if _meets(box, s, mm(0.5))]
                assert not clash, f"{path.name} p{number + 1}: the footer {box} meets {clash[:3]}"
                checked += 1
        finally:
            document.close()
    assert checked > 50


def _tiled(checked):
    for layout in checked.layouts:
        for sheet in layout.sheets:
            if sheet.spec.tiled:
                yield layout, sheet


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiles_spread_the_board_evenly_and_keep_their_marks_off_it(kit, checked, paper):
    from printshop.render.sheet_pages import ASSEMBLY_PAGE

    found = 0
    for layout, sheet in _tiled(checked):
        tiling = tiling_of(checked, layout, sheet, paper)
        face = sheet.faces[0]
        tiles = tiling.tiles()
        for tile in tiles:  # every window lies on the board: no tile is a near-empty strip
            assert tile.left >= -0.01 and tile.left + tile.width <= face.width + 0.01
            assert tile.bottom >= -0.01 and tile.bottom + tile.height <= face.height + 0.01
            assert tile.width <= tiling.room[0] + 0.01 and tile.height <= tiling.room[1] + 0.01
            if tile.column + 1 < tiling.columns:  # each neighbour lies over the stated overlap
                right = tiles[tiles.index(tile) + 1]
                assert tile.left + tile.width - right.left == pytest.approx(sheet.spec.overlap)
        assert tiles[-1].left + tiles[-1].width == pytest.approx(face.width, abs=0.01)
        path = (
            kit
            / layout.game_id
            / layout.lang
            / f"{layout.game_id}-{layout.lang}-{sheet.id}-{paper}.pdf"
        )
        reader = PdfReader(path)
        assert len(reader.pages) == len(tiles) + 1
        for index, tile in enumerate(tiles, start=ASSEMBLY_PAGE):
            ox, oy = tiling.origin_of(tile)
            window = (ox, oy, ox + tile.width, oy + tile.height)
            [placement], segments = page_drawing(reader, index)
            assert placement.x == pytest.approx(ox - tile.left, abs=0.01)
            assert placement.y == pytest.approx(oy - tile.bottom, abs=0.01)
            # every mark lies outside the printed window: none over the board's labels or card
            # slots; but the hatching of the strips its neighbours lie over (the glue margin)
            veiled = [
                (
                    ox - tile.left + x,
                    oy - tile.bottom + y,
                    ox - tile.left + x + w,
                    oy - tile.bottom + y + h,
                )
                for x, y, w, h in tiling.covered(tile)
            ]
            inside = [
                s
                for s in segments
                if _meets(
                    (window[0] + 0.3, window[1] + 0.3, window[2] - 0.3, window[3] - 0.3), s, 0
                )
                and not any(
                    a - 0.3 <= min(s[0], s[2])
                    and max(s[0], s[2]) <= c + 0.3
                    and b - 0.3 <= min(s[1], s[3])
                    and max(s[1], s[3]) <= d + 0.3
                    for a, b, c, d in veiled
                )
            ]
            assert not inside, f"{path.name} tile {tile.label}: marks over the board {inside[:3]}"
        found += 1
    assert found == sum(1 for _ in _tiled(checked))


def test_the_assembly_page_divides_the_board_without_overlaps_and_labels_it_outside(kit, checked):
    from printshop.render.sheet_pages import ASSEMBLY_PAGE

    for layout, sheet in _tiled(checked):
        for paper in ("a4", "letter"):
            path = (
                kit
                / layout.game_id
                / layout.lang
                / f"{layout.game_id}-{layout.lang}-{sheet.id}-{paper}.pdf"
            )
            reader = PdfReader(path)
            tiling = tiling_of(checked, layout, sheet, paper)
            placed, all_segments = page_drawing(reader, ASSEMBLY_PAGE - 1)
            board, *detail = placed
            face = sheet.faces[0]
            right, top = board.x + face.width * board.scale, board.y + face.height * board.scale
            segments = [s for s in all_segments if min(s[1], s[3]) >= board.y - 0.01]
            # one line per seam and edge (each drawn twice: a white halo, then ink), none
            # overlapping another
            vertical = sorted({round(s[0], 2) for s in segments if abs(s[0] - s[2]) < 0.01})
            horizontal = sorted({round(s[1], 2) for s in segments if abs(s[1] - s[3]) < 0.01})
            assert len(vertical) == tiling.columns + 1 and len(horizontal) == tiling.rows + 1
            # drawn from the tiles' own cut edges, as the tile pages print them
            assert vertical == pytest.approx(
                [board.x + x * board.scale for x in tiling.xs], abs=0.02
            )
            assert horizontal == pytest.approx(
                sorted(board.y + y * board.scale for y in tiling.tops), abs=0.02
            )
            # where the diagram leaves a band free, one join is shown under it, enlarged, with the
            # cut edge of A2 drawn where the tiling puts it; where it does not, none is drawn
            mm = 72 / 25.4
            if detail:
                [join] = detail
                assert join.scale == pytest.approx(min(1.0, 2 * board.scale), rel=1e-3)
                edge = join.x + tiling.xs[1] * join.scale
                assert any(
                    abs(s[0] - edge) < 0.05 and abs(s[0] - s[2]) < 0.01 and s[1] < board.y
                    for s in all_segments
                ), (path.name, edge)
            else:
                assert board.y < 70 * mm, f"{path.name}: a free band under the diagram, no join"
            document = pypdfium2.PdfDocument(str(path))
            text = document[ASSEMBLY_PAGE - 1].get_textpage()
            labels = [str(c + 1) for c in range(tiling.columns)] + [
                chr(ord("A") + r) for r in range(tiling.rows)
            ]
            content = text.get_text_range()
            names = set()  # the tiles' names on their chips, each at its cell's centre
            for found in re.finditer(r"\b([A-Z])(\d+)\b", content):
                boxes = [text.get_charbox(i) for i in range(found.start(), found.end())]
                if boxes[0][3] - boxes[0][1] < 5:
                    continue  # the board's own text, scaled down with it
                cx = (boxes[0][0] + boxes[-1][2]) / 2
                cy = (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2
                row, column = ord(found.group(1)) - ord("A"), int(found.group(2)) - 1
                if not (board.y < cy < top):
                    continue  # the join's tile names, under the diagram
                left = board.x + tiling.xs[column] * board.scale
                right_edge = board.x + tiling.xs[column + 1] * board.scale
                high = board.y + tiling.tops[row] * board.scale
                low = board.y + tiling.tops[row + 1] * board.scale
                assert left < cx < right_edge and low < cy < high
                names.add(found.group(0))
                for index in range(found.start(), found.end()):
                    content = content[:index] + " " + content[index + 1 :]
            assert len(names) == tiling.rows * tiling.columns, (path.name, sorted(names))
            for index, char in enumerate(content):
                if char not in labels:
                    continue
                x0, y0, x1, y1 = text.get_charbox(index)
                if y1 - y0 < 5:
                    continue  # the board's own text, scaled down with it
                if y0 < top - 1 and y1 > board.y + 1 and x0 > board.x + 1 and x1 < right - 1:
                    pytest.fail(f"{path.name}: a label '{char}' sits on the board")
            document.close()


def _painted(reader: PdfReader, page_number: int) -> list[tuple[str, tuple]]:
    """The paths painted on the page outside any form, each as the operator that paints it (B:
    filled and outlined, as the assembly diagram's name pills; S: outlined, as the join detail's
    frame; "re S" where the path is a rectangle) and the box (left, bottom, right, top) of its
    points on the page."""
    from pypdf.generic import ContentStream

    from printshop.checks.preflight.graphics import multiply

    page = reader.pages[page_number]
    ctm, stack, points, painted, rect = (1, 0, 0, 1, 0, 0), [], [], [], False

    def at(x, y):
        return (ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5])

    for operands, operator in ContentStream(page.get_contents(), reader).operations:
        op = operator.decode()
        values = [float(v) for v in operands] if op in ("cm", "m", "l", "c", "re") else []
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            ctm = multiply(tuple(values), ctm)
        elif op in ("m", "l", "c"):
            points += [at(values[i], values[i + 1]) for i in range(0, len(values), 2)]
        elif op == "re":
            x, y, w, h = values
            points += [at(x, y), at(x + w, y + h)]
            rect = True
        elif op in ("B", "S", "f", "n", "b", "B*", "f*", "s"):
            if points and op in ("B", "B*", "S"):
                op = op.rstrip("*")
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                painted.append((f"re {op}" if rect else op, (min(xs), min(ys), max(xs), max(ys))))
            points, rect = [], False
    return painted


def _board_runs(checked, layout, sheet, placement) -> list[tuple]:
    """The board's lines of text (render/seams.py reads them from the face drawn alone) where the
    form placed at `placement` puts them on the page: (left, bottom, right, top)."""
    from printshop.render.colour import Paints
    from printshop.render.seams import text_lines

    project = checked.project
    seen = project.view(project.games[layout.game_id])
    face = sheet.faces[0]
    runs = text_lines(
        face, Paints(seen.colours.palette), project.motifs.motifs, layout.localized.data.dir
    )
    k = placement.scale
    return [
        (
            placement.x + left * k,
            placement.y + (face.height - low) * k,
            placement.x + right * k,
            placement.y + (face.height - top) * k,
        )
        for left, top, right, low in runs
    ]


def _overlapping(boxes, runs, slack: float = 0.2) -> list[tuple]:
    """Each (box, run) pair of `boxes` and `runs` that overlap by more than `slack` points each
    way."""
    return [
        (box, run)
        for box in boxes
        for run in runs
        if min(box[2], run[2]) - max(box[0], run[0]) > slack
        and min(box[3], run[3]) - max(box[1], run[1]) > slack
    ]


def _cut(frame, runs, slack: float = 0.2) -> list[tuple]:
    """The `runs` the rectangle `frame` cuts: those that reach into it and out of it."""
    inside = (frame[0] - slack, frame[1] - slack, frame[2] + slack, frame[3] + slack)
    return [
        run
        for run in _overlapping([frame], runs, slack)
        for run in [run[1]]
        if not (
            run[0] >= inside[0]
            and run[1] >= inside[1]
            and run[2] <= inside[2]
            and run[3] <= inside[3]
        )
    ]


def _assembly_pages(kit, checked):
    from printshop.render.sheet_pages import ASSEMBLY_PAGE

    for layout, sheet in _tiled(checked):
        for paper in ("a4", "letter"):
            name = f"{layout.game_id}-{layout.lang}-{sheet.id}-{paper}.pdf"
            reader = PdfReader(kit / layout.game_id / layout.lang / name)
            placed, _ = page_drawing(reader, ASSEMBLY_PAGE - 1)
            yield (
                name,
                layout,
                sheet,
                tiling_of(checked, layout, sheet, paper),
                placed,
                _painted(reader, ASSEMBLY_PAGE - 1),
            )


def test_the_assembly_diagram_names_its_cells_clear_of_the_board_s_text(kit, checked):
    """Review 2: the tiles' names sat at the cells' centres, over the board's art and headings
    (the Sanatorium's cross, CANDIDATS AU POLITBURO). Each is on a white pill in a corner of its
    cell, over no line of the board's text."""
    found = 0
    for name, layout, sheet, tiling, placed, painted in _assembly_pages(kit, checked):
        board = placed[0]
        pills = [box for op, box in painted if op == "B"]
        assert len(pills) == tiling.rows * tiling.columns, name
        runs = _board_runs(checked, layout, sheet, board)
        assert not _overlapping(pills, runs), f"{name}: a tile's name over the board's text"
        found += 1
    assert found


def test_the_name_guard_catches_names_at_the_cells_centres(kit, checked):
    """Must-catch: the pills as the second review found them, each at its cell's centre, cover
    some of the board's text (B1 on CANDIDATS AU POLITBURO in A4, B3 on the year's phases in
    Letter)."""
    caught = 0
    for name, layout, sheet, tiling, placed, painted in _assembly_pages(kit, checked):
        board = placed[0]
        pills = [box for op, box in painted if op == "B"]
        wide = max(p[2] - p[0] for p in pills)
        tall = max(p[3] - p[1] for p in pills)
        centred = [
            (cx - wide / 2, cy - tall / 2, cx + wide / 2, cy + tall / 2)
            for row in range(tiling.rows)
            for column in range(tiling.columns)
            for cx in [board.x + (tiling.xs[column] + tiling.xs[column + 1]) / 2 * board.scale]
            for cy in [board.y + (tiling.tops[row] + tiling.tops[row + 1]) / 2 * board.scale]
        ]
        if _overlapping(centred, _board_runs(checked, layout, sheet, board)):
            caught += 1
    assert caught >= 2


def test_the_join_detail_cuts_no_line_of_text(kit, checked):
    """Review 2: the enlarged join was cropped mid-word ("inactifs jusqu'à…"), which read as an
    error. Its frame now cuts no line of the board's text: each is wholly in it or out of it."""
    found = 0
    for name, layout, sheet, tiling, placed, painted in _assembly_pages(kit, checked):
        if len(placed) < 2:
            continue  # no band free for the detail (Letter's wide page)
        [frame] = [box for op, box in painted if op == "re S" and box[1] < placed[0].y]
        runs = _board_runs(checked, layout, sheet, placed[1])
        assert not _cut(frame, runs), f"{name}: the join detail cuts {_cut(frame, runs)[:2]}"
        found += 1
    assert found >= 2  # A4, in each language


def test_the_cut_guard_catches_a_detail_as_deep_as_the_review_found_it(kit, checked):
    """Must-catch: the same frame 20 mm deeper, as the detail was cropped before, cuts the
    Sanatorium's line of text."""
    for name, layout, sheet, tiling, placed, painted in _assembly_pages(kit, checked):
        if len(placed) < 2:
            continue
        [frame] = [box for op, box in painted if op == "re S" and box[1] < placed[0].y]
        deeper = (frame[0], frame[1] - mm(20), frame[2], frame[3])
        assert _cut(deeper, _board_runs(checked, layout, sheet, placed[1])), name


def test_the_diagram_says_it_is_to_scale_where_the_seams_make_the_parts_unequal(kit, checked):
    """Review 2 read the unequal columns of the Kremlin board as an error: the diagram is drawn
    from the tiles' own cut edges, and the note under it says why the parts differ, only where
    they do (`_uneven`: a seam moved off the even steps)."""
    from dataclasses import replace

    from printshop.render.assembly_page import _uneven
    from printshop.render.sheet_pages import ASSEMBLY_PAGE

    for name, layout, sheet, tiling, placed, painted in _assembly_pages(kit, checked):
        note = " ".join(layout.localized.label("assembly_scale").split())
        page = page_texts(kit / layout.game_id / layout.lang / name)[ASSEMBLY_PAGE - 1]
        assert _uneven(tiling) == (note in " ".join(page.split())), name
        assert _uneven(tiling), f"{name}: the Kremlin board's seams are moved off its text"
        assert not _uneven(replace(tiling, cuts_x=(), cuts_y=()))


def _text(path: Path) -> str:
    return words(path)


def test_player_pages_name_no_command_and_say_where_the_assembly_diagram_is(kit, checked):
    from printshop.render.sheet_pages import ASSEMBLY_PAGE

    tiled = {layout.game_id for layout, _ in _tiled(checked)}
    for path in sorted(kit.rglob("*how-to-print*.pdf")) + sorted(
        (kit / "calibration").glob("*.pdf")
    ):
        text = _text(path)
        assert "--" not in text and "printshop" not in text.lower(), path.name
        game, lang = path.parent.parent.name, path.parent.name
        if game in tiled:
            layout = next(l for l in checked.layouts if l.game_id == game and l.lang == lang)
            expected = layout.localized.label("howto_tiled", page=ASSEMBLY_PAGE)
            assert " ".join(expected.split()) in text, path.name


def test_the_calibration_rulers_labels_do_not_touch(kit):
    for path in sorted((kit / "calibration").glob("*.pdf")):
        document = pypdfium2.PdfDocument(str(path))
        text = document[1].get_textpage()
        content = text.get_text_range()
        words = []  # the boxes of the rulers' labels: a sign (the en dash for minus) and digits
        for match in re.finditer(r"[+\-\u2013]?\d+", content):
            boxes = [text.get_charbox(i) for i in range(match.start(), match.end())]
            words.append(
                (
                    min(b[0] for b in boxes),
                    min(b[1] for b in boxes),
                    max(b[2] for b in boxes),
                    max(b[3] for b in boxes),
                )
            )
        assert len(words) >= 10
        gap = mm(0.5)
        for i, a in enumerate(words):
            for b in words[i + 1 :]:
                apart = (
                    a[2] + gap <= b[0]
                    or b[2] + gap <= a[0]
                    or a[3] + gap <= b[1]
                    or b[3] + gap <= a[1]
                )
                assert apart, f"{path.name}: ruler labels {a} and {b} touch"
        document.close()


RULER_DPI = 150


def ruler_problems(front, back, reach_mm: float = 50) -> list[str]:
    """What keeps a player from reading a drift of 2 mm on the calibration page (`front`, `back`:
    pypdfium2 pages): a ruler's line on the back (the longest dark run across, and down, the page)
    shorter than twice `reach_mm`, or fewer ticks along it than one a millimetre (counted 1 mm off
    the line, on the side with more); or a line of the front's cross not centred on the page (it
    would not land on itself when the printer turns the sheet), or too short to cross the ticks of
    its ruler on the back."""
    px = RULER_DPI / 25.4
    pictures = [
        page.render(scale=RULER_DPI / 72, grayscale=True).to_numpy() for page in (front, back)
    ]
    problems = []
    for axis, name in ((0, "DX (across)"), (1, "DY (down)")):
        cross, grey = (picture if axis == 0 else picture.T for picture in pictures)
        runs = [_longest_run(row < 160) for row in grey]
        index = max(range(len(runs)), key=lambda i: runs[i][0])
        length, start = runs[index]
        if length / px < 2 * reach_mm - 1:
            problems.append(f"{name} ruler {length / px:.0f} mm long")
            continue
        ticks = max(
            _runs(grey[index + offset][start : start + length] < 230)
            for offset in (round(px), -round(px))
        )
        if ticks < 2 * reach_mm + 1:
            problems.append(f"{name} ruler: {ticks} ticks for {length / px:.0f} mm")
        # the front's line that crosses this ruler runs the other way: down for DX, across for DY
        line = [_longest_run(row < 160) for row in cross.T]
        column = max(range(len(line)), key=lambda i: line[i][0])
        reach, first = line[column]
        middle, centre = first + reach / 2, cross.shape[0] / 2
        if abs(middle - centre) > px / 2:
            problems.append(
                f"{name}: the front's line is {(middle - centre) / px:.1f} mm off centre"
            )
        if reach / 2 < abs(index - centre) + 5 * px:
            problems.append(f"{name}: the front's line stops short of the ruler's ticks")
    return problems


def scale_bar_mm(front) -> float:
    """The length in millimetres of the front's scale bar: the longest dark run across the page
    below the cross's lower end (0 when there is none)."""
    px = RULER_DPI / 25.4
    grey = front.render(scale=RULER_DPI / 72, grayscale=True).to_numpy()
    upright = [_longest_run(column < 160) for column in grey.T]
    reach, first = max(upright)
    below = grey[first + reach + round(2 * px) :]
    return max((_longest_run(row < 160)[0] for row in below), default=0) / px


def test_the_calibration_front_carries_a_bar_to_check_actual_size(kit):
    """The review: nothing on the calibration sheet lets a player check it printed at 100 %. Every
    front carries a bar as long as a ruler (100 mm), labelled, under the cross (must-pass); a page
    printed at 97 % ("fit to page") measures it short (must-catch: the same page drawn scaled)."""
    import io

    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    for path in sorted((kit / "calibration").glob("*.pdf")):
        document = pypdfium2.PdfDocument(str(path))
        assert scale_bar_mm(document[0]) == pytest.approx(100, abs=0.5), path.name
        text = document[0].get_textpage().get_text_range()
        assert re.search(r"^100[ \u00a0]mm\r?$", text, re.M), path.name  # the bar's label
        document.close()
    path = kit / "calibration" / "duplex-calibration-en-a4.pdf"
    page = PdfReader(path).pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    document = pypdfium2.PdfDocument(str(path))
    image = document[0].render(scale=RULER_DPI / 72 * 0.97).to_pil()
    document.close()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width, height))
    canvas.drawImage(ImageReader(image), 0, height * 0.03, width * 0.97, height * 0.97)
    canvas.save()
    shrunk = pypdfium2.PdfDocument(buffer.getvalue())
    assert scale_bar_mm(shrunk[0]) == pytest.approx(97, abs=1)
    shrunk.close()


def shift_labels(page, label: str) -> list[tuple[float, float]]:
    """The centres (x, y in points, y up) of each `label` on a calibration back (`page`), found in
    its text."""
    text, found = page.get_textpage(), []
    searcher = text.search(label, match_case=True)
    while (hit := searcher.get_next()) is not None:
        boxes = [text.get_charbox(i) for i in range(hit[0], hit[0] + hit[1])]
        found.append(
            (
                (min(b[0] for b in boxes) + max(b[2] for b in boxes)) / 2,
                (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2,
            )
        )
    return found


def test_each_calibration_ruler_says_which_way_a_plus_reading_moves_the_back(kit):
    """Review 2: "shift the back 2 mm right" could be read in the front's coordinates. Each ruler of
    every calibration back carries the language's `calibration_shift` ("a + reading: shift the back
    this way") beside its + end: one under the DX ruler right of its zero, one left of the DY ruler
    above its zero (must-pass); a back drawn without it has none (must-catch)."""
    from printshop.project.loader import load_project
    from printshop.render.calibration import render_calibration
    from printshop.render.colour import Paints

    project = load_project(DEFAULT_DATA_DIR, games=[])
    for path in sorted((kit / "calibration").glob("*.pdf")):
        lang = path.stem.split("-")[2]
        label = project.languages[lang].labels["calibration_shift"].replace(" :", "\u202f:")
        document = pypdfium2.PdfDocument(str(path))
        width, height = document[1].get_size()
        found = shift_labels(document[1], label)
        document.close()
        assert len(found) == 2, (path.name, found)
        (dy_x, dy_y), (dx_x, dx_y) = sorted(found, key=lambda centre: -centre[1])
        assert dx_x > width / 2 and dx_y < height / 2 - mm(30), (path.name, found)
        assert dy_y > height / 2 + mm(30), (path.name, found)
    media = project.media
    paper = media.papers["a4"]
    bare, _ = render_calibration(
        paper, media, Paints(project.colours.palette), "Duplex calibration", "1", "en", "back"
    )
    document = pypdfium2.PdfDocument(bare)
    assert shift_labels(document[1], project.languages["en"].labels["calibration_shift"]) == []
    document.close()


NOTCH_DPI = 30
NOTCH = 8.0  # millimetres: a white square this wide inside the cards' field is a hole in it


def field_holes(rgb: np.ndarray, dpi: int = NOTCH_DPI) -> list[tuple[int, int]]:
    """Where (column, row in pixels) a page of cards (`rgb`) has a white square NOTCH mm wide inside
    the bounding box of its cards' field (`_field`)."""
    white = (rgb >= 252).all(axis=2)
    rows, columns = _field(white)
    if not len(rows) or not len(columns):
        return []
    inside = white[rows[0] : rows[-1] + 1, columns[0] : columns[-1] + 1].astype(np.int32)
    side = round(NOTCH / 25.4 * dpi)
    total = np.pad(inside.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    sums = total[side:, side:] - total[:-side, side:] - total[side:, :-side] + total[:-side, :-side]
    found = np.argwhere(sums == side * side)
    return [(int(x) + columns[0], int(y) + rows[0]) for y, x in found[:1]]


def _field(white: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows and the columns of the cards' field on a page (`white`: its white pixels): the
    longest run of each that is more than a fifth coloured (the footer's line is apart)."""

    def run(coloured) -> np.ndarray:
        length, start = _longest_run(coloured > 0.2)
        return np.arange(start, start + length)

    return run((~white).mean(axis=1)), run((~white).mean(axis=0))


def test_a_partly_filled_last_row_keeps_the_cards_field_whole(kit):
    """Review 2: assassin-en-cards-letter.pdf p3's empty sixth slot left a white notch in the cream
    field. On every page of cards of every kit (EN and FR, A4 and Letter), fronts and backs, the
    cards' field has no white hole (must-pass: the empty slots take the last card's background);
    the page with that slot made white again has one (must-catch)."""
    paths = sorted(
        path
        for path in kit.rglob("*-cards-*.pdf")
        if "gutterfold" not in path.name and ".printshop-cache" not in path.parts
    ) + sorted(kit.rglob("kremlin-*-intrigue-*.pdf"))
    assert len(paths) >= 4 * 2 * 2
    for path in paths:
        document = pypdfium2.PdfDocument(str(path))
        for number in range(len(document)):
            rgb = document[number].render(scale=NOTCH_DPI / 72).to_numpy()[:, :, :3]
            assert field_holes(rgb) == [], (path.name, number + 1)
        document.close()
    document = pypdfium2.PdfDocument(str(kit / "assassin/en/assassin-en-cards-letter.pdf"))
    rgb = document[2].render(scale=NOTCH_DPI / 72).to_numpy()[:, :, :3].copy()
    document.close()
    rows, columns = _field((rgb >= 252).all(axis=2))
    px = NOTCH_DPI / 25.4
    rgb[
        rows[-1] - round(60 * px) : rows[-1] + 1, columns[-1] - round(85 * px) : columns[-1] + 1
    ] = 255
    assert field_holes(rgb) != []


def _longest_run(row) -> tuple[int, int]:
    """(length, start) of the longest run of True in `row`."""
    values = np.concatenate(([0], np.asarray(row, dtype=np.int8), [0]))
    edges = np.diff(values)
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    if not len(starts):
        return 0, 0
    longest = int(np.argmax(ends - starts))
    return int(ends[longest] - starts[longest]), int(starts[longest])


def _runs(row) -> int:
    """How many runs of True `row` holds."""
    values = np.concatenate(([0], np.asarray(row, dtype=np.int8)))
    return int((np.diff(values) == 1).sum())


def test_calibration_rulers_run_100_mm_with_a_tick_every_millimetre(kit):
    """Issue 51: 8 mm rulers could not show a drift of 2 mm. Both rulers on every calibration
    page's back run 100 mm, a tick a millimetre (must-pass); the same measure finds rulers made
    short (must-catch)."""
    from printshop.project.loader import load_project
    from printshop.render.calibration import render_calibration
    from printshop.render.colour import Paints

    paths = sorted((kit / "calibration").glob("*.pdf"))
    assert len(paths) == 4  # en and fr, A4 and Letter
    for path in paths:
        document = pypdfium2.PdfDocument(str(path))
        assert ruler_problems(document[0], document[1]) == [], path.name
        document.close()
    project = load_project(DEFAULT_DATA_DIR, games=[])
    pnp = project.media.print_and_play
    short = project.media.model_copy(
        update={
            "print_and_play": pnp.model_copy(
                update={"calibration": pnp.calibration.model_copy(update={"reach": mm(4)})}
            )
        }
    )
    data, _ = render_calibration(
        project.media.papers["a4"], short, Paints(project.colours.palette), "T", "a", "en", "b"
    )
    document = pypdfium2.PdfDocument(data)
    found = ruler_problems(document[0], document[1])
    document.close()
    assert len(found) == 2 and all("mm long" in problem for problem in found), found
    # must-catch: a front whose cross is not centred (the first long rulers' front) does not land on
    # the back's rulers once the sheet is turned
    import io

    from reportlab.pdfgen.canvas import Canvas

    paper = project.media.papers["a4"]
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(paper.width, paper.height))
    cx, cy = paper.width / 2, paper.height / 2
    canvas.setLineWidth(0.6)
    canvas.line(cx, cy - mm(39), cx, cy + mm(30))
    canvas.line(cx - mm(62), cy, cx + mm(71), cy)
    canvas.showPage()
    canvas.save()
    real = pypdfium2.PdfDocument(str(paths[0]))
    skewed = pypdfium2.PdfDocument(buffer.getvalue())
    found = ruler_problems(skewed[0], real[1])
    real.close()
    skewed.close()
    assert sum("off centre" in problem for problem in found) == 2, found


def how_to_problems(path: Path, calibration: str) -> list[str]:
    """What the how-to page at `path` lacks (issue 51): a row of its file table naming the kit's
    calibration file `calibration` with its page count (a line of text holding both), and a title
    set ragged left as the rest of the sheet (its top line's first letter within 3 mm of the text's
    left edge, not centred)."""
    document = pypdfium2.PdfDocument(str(path))
    text = document[0].get_textpage()
    content = text.get_text_range()
    boxes = [text.get_charbox(i) for i in range(len(content)) if not content[i].isspace()]
    top = max(box[3] for box in boxes)  # the title: the line highest on the page
    title_left = min(box[0] for box in boxes if box[3] > top - 2)
    left = min(box[0] for box in boxes)
    document.close()
    problems = []
    if not any(calibration in line and re.search(r"\b2\b", line) for line in content.splitlines()):
        problems.append(f"no row for {calibration}")
    if title_left - left > mm(3):  # (a large capital's side bearing; centred is 60 mm and more)
        problems.append(f"the title starts {(title_left - left) / mm(1):.0f} mm right of the text")
    return problems


def test_the_how_to_page_lists_the_calibration_file_and_is_set_ragged_left(
    kit, tmp_path, monkeypatch
):
    """Every kit's how-to page lists the calibration file of its language and paper, which the build
    wrote, and sets its title flush left (must-pass); the same measure finds a centred title
    (must-catch, the page as the booklet's styles set it before)."""
    from printshop.pipeline.build import build
    from printshop.render import how_to_print

    pages = sorted(kit.rglob("*-how-to-print-*.pdf"))
    assert len(pages) >= len(GAMES) * 2 * 2
    for path in pages:
        lang, paper = path.parent.name, path.stem.rsplit("-", 1)[1]
        calibration = f"duplex-calibration-{lang}-{paper}.pdf"
        assert (kit / "calibration" / calibration).exists()
        assert how_to_problems(path, calibration) == [], path.name
    monkeypatch.setattr(how_to_print, "sheet_style", lambda style: style)
    result = build(
        DEFAULT_DATA_DIR, tmp_path, games=["comrade"], langs=["en"], papers=["a4"], jobs=1
    )
    assert not result.report.has_errors
    found = how_to_problems(
        tmp_path / "comrade/en/comrade-en-how-to-print-a4.pdf", "duplex-calibration-en-a4.pdf"
    )
    assert len(found) == 1 and "right of the text" in found[0], found
    assert (
        how_to_problems(
            tmp_path / "comrade/en/comrade-en-how-to-print-a4.pdf", "duplex-calibration-fr-a4.pdf"
        )[0]
        == "no row for duplex-calibration-fr-a4.pdf"
    )


def how_to_fill(path: Path) -> float:
    """How far down its page the how-to sheet's words reach (the footer's line left out), as a share
    of the page's height."""
    document = pypdfium2.PdfDocument(str(path))
    page = document[0]
    height = page.get_height()
    text = page.get_textpage()
    boxes = [text.get_charbox(i) for i in range(text.count_chars())]
    document.close()
    lowest = min(box[1] for box in boxes if box[3] > mm(20))  # (above the footer's band)
    return 1 - lowest / height


def test_the_how_to_page_gives_the_card_size_and_fills_its_page(kit, tmp_path, monkeypatch):
    """Review 2: step 1 said to measure a card with no size to measure against, Comrade's page
    stopped half-way, and the French said "lb cover". Step 1 of every kit's how-to page gives its
    cards' size from the deck data, in millimetres and inches in English (63 × 88 mm (2.48 × 3.46
    in)), in millimetres alone in French (63 × 88 mm), each size with its files where a kit has
    several (Kremlin's 16 mm markers); the French names no "lb"; and the words reach the last sixth
    of the page (must-pass). The Comrade page set with the booklet's spaces alone stops above it
    (must-catch)."""
    from printshop.pipeline.build import build
    from printshop.render import how_to_print

    nbsp = " "  # (the words as read: their no-break spaces are spaces)
    for path in sorted(kit.rglob("*-how-to-print-*.pdf")):
        lang, paper = path.parent.name, path.stem.rsplit("-", 1)[1]
        text = " ".join(words(path).replace("\u00a0", " ").replace("\u202f", " ").split())
        poker = f"63{nbsp}×{nbsp}88{nbsp}mm"
        assert (poker + f" (2.48{nbsp}×{nbsp}3.46{nbsp}in)" if lang == "en" else poker) in text, (
            path.name
        )
        if lang == "fr":
            assert " in)" not in text and "lb" not in text.split(), path.name
        if path.name.startswith("kremlin"):
            chit = f"16{nbsp}×{nbsp}16{nbsp}mm" + (" (0.63 × 0.63 in)" if lang == "en" else "")
            assert (
                f"{chit} {'for' if lang == 'en' else 'pour'} kremlin-{lang}-markers-{paper}.pdf"
                in (text.replace("\n", " "))
            ), path.name
        assert how_to_fill(path) > 5 / 6, (path.name, how_to_fill(path))
    monkeypatch.setattr(how_to_print, "SPREADS", ())
    result = build(
        DEFAULT_DATA_DIR, tmp_path, games=["comrade"], langs=["en"], papers=["a4"], jobs=1
    )
    assert not result.report.has_errors
    assert how_to_fill(tmp_path / "comrade/en/comrade-en-how-to-print-a4.pdf") < 5 / 6


# --- booklets
# --------------------------------------------------------------------------------------
def test_every_booklet_table_has_a_header_for_each_column_and_codes_keep_their_labels(checked):
    from printshop.typeset.richtext import Table

    tables = 0
    for layout in checked.layouts:
        if layout.booklet is None:
            continue
        for block in layout.booklet.blocks:
            if not isinstance(block, Table):
                continue
            tables += 1
            head = block.rows[0]
            assert all(
                is_head and re.sub(r"<[^>]+>", "", markup).strip() for is_head, markup in head
            ), f"{layout.game_id} ({layout.lang}): a table column without a header: {head}"
            for row in block.rows[1:]:
                for (
                    _,
                    markup,
                ) in row:  # a phase code (2A, 6G) is never parted from the office it names
                    assert not re.search(r"\b[1-9][A-Z] ", markup), (
                        layout.game_id,
                        layout.lang,
                        markup,
                    )
    assert tables


def test_booklets_end_on_a_real_page_with_no_folio_on_the_cover(kit, checked):
    for path in sorted(kit.rglob("*-rules-a5.pdf")):
        rules = checked.project.languages[path.parent.name].labels["rules"]
        document = pypdfium2.PdfDocument(str(path))
        pages = len(document)
        last = _render(document[pages - 1], 72)
        height = last.shape[0]
        frame_top, frame_bottom = int(mm(14)), height - int(mm(16))
        rows = np.nonzero((last[frame_top:frame_bottom] < 200).any(axis=1))[0]
        filled = (rows.max() + 1) / (frame_bottom - frame_top) if len(rows) else 0.0
        assert filled >= 0.2, f"{path.name}: the last page holds only {filled:.0%} of a page"
        cover = document[0].get_textpage().get_text_range()
        assert not re.search(r"(^|\n)\s*1\s*(\n|$)", cover), f"{path.name}: a folio on the cover"
        assert f"· {rules}" not in cover, f"{path.name}: a running head on the cover"
        texts = [document[n].get_textpage().get_text_range() for n in (1, 2)]
        # as on every other page (the first page of rules: the third, after a blank inside cover)
        assert f"· {rules}" in (texts[0] or texts[1])
        document.close()


def test_press_booklets_leave_out_the_home_printing_section(kit, press, checked):
    seen = 0
    for layout in checked.layouts:
        if layout.booklet is None:
            continue
        heading = layout.localized.texts.get(
            "rules.sections.printing.heading"
        ) or layout.localized.texts.get("rules.printing.heading")
        if not heading:
            continue
        heading = " ".join(str(heading).split()).upper()
        home = _text(
            kit / layout.game_id / layout.lang / f"{layout.game_id}-{layout.lang}-rules-a5.pdf"
        ).upper()
        shop = _text(
            press
            / layout.game_id
            / layout.lang
            / "press"
            / "eu-3mm"
            / f"{layout.game_id}-{layout.lang}-rules.pdf"
        ).upper()
        assert heading in home and heading not in shop, (layout.game_id, layout.lang, heading)
        seen += 1
    assert seen
