"""Where a tiled sheet's seams go (layout/imposition.py, `Tiling.choose_seams`): each moves within
the slack the paper leaves off the spans of text it must not cut, every window stays within the
paper and overlaps the next by the stated overlap; where no free place exists, the seam crosses as
few lines as it can. The produced boards are checked in tests/test_kremlin_board.py."""

from __future__ import annotations

import pytest

from printshop.layout.tiling import tiling_for

MM = 72 / 25.4


def _tiling():
    # a 600 x 200 mm sheet on A4: 4 windows of at most 190 mm across, 12 mm overlap
    return tiling_for(600 * MM, 200 * MM, 210 * MM, 297 * MM, 10 * MM, 12 * MM)


def _crossed(cuts, spans):
    return [(a, b) for a, b in spans for u in cuts[1:] if a < u < b]


def test_even_seams_cut_a_line_that_chosen_seams_keep_off():
    tiling = _tiling()
    assert tiling.columns > 2 and tiling.rows == 1
    even = tiling.xs[:-1]
    # a line of text under each even seam, and one wide line leaving a gap at 330-350 mm
    spans = [(u - 20 * MM, u + 20 * MM) for u in even[1:]] + [(250 * MM, 330 * MM)]
    assert _crossed(even, spans)  # must-catch: the even tiling runs through them
    chosen = tiling.choose_seams(spans, [])
    assert not _crossed(chosen.xs[:-1], spans)  # must-pass
    tiles = chosen.tiles()
    width, _ = chosen.room
    for left, right in zip(tiles, tiles[1:]):
        assert left.width <= width + 0.01
        assert left.left + left.width - right.left == pytest.approx(12 * MM)
    assert tiles[0].left == 0 and tiles[-1].left + tiles[-1].width == pytest.approx(600 * MM)
    assert tiles[-1].width <= width + 0.01


def test_a_seam_with_no_free_place_crosses_the_fewest_lines():
    tiling = _tiling()
    # everything covered by one span, plus a second span over part of it: the seams avoid the
    # second where they can
    spans = [(0.0, 600 * MM), (240 * MM, 300 * MM)]
    even = tiling.xs[:-1]
    assert len(_crossed(even, spans)) == len(even)  # the even seams cross both (at 294 mm)
    chosen = tiling.choose_seams(spans, [])
    assert _crossed(chosen.xs[:-1], spans) == [spans[0]] * (len(even) - 1)


def test_a_seam_keeps_a_heading_with_the_lines_under_it():
    """A text, then a heading 10 mm tall with its lines 11 mm under it (one block: under 1.5 times
    its height, render/seams.py `blocks`), the text 10 mm over the heading (its own block): the
    heading's gap is the widest, where lines alone put the seam; a seam that parts a heading from
    its body costs more than one between the blocks."""
    from printshop.render.seams import blocks

    # a 180 x 500 mm sheet on A4: two rows, the seam between 223 and 265 mm from the top
    tiling = tiling_for(180 * MM, 500 * MM, 210 * MM, 297 * MM, 10 * MM, 12 * MM)
    assert (tiling.columns, tiling.rows) == (1, 2)

    def lines(top: float, bottom: float) -> list[tuple[float, float, float, float]]:
        return [(10 * MM, t * MM, 150 * MM, (t + 5) * MM) for t in range(int(top), int(bottom), 7)]

    text = lines(170, 236)  # the last line ends at 238
    heading = [(10 * MM, 248 * MM, 120 * MM, 258 * MM)]
    body = lines(269, 400)
    boxes = text + heading + body
    down = [(top, bottom) for _, top, _, bottom in boxes]
    kept = [(top, bottom) for _, top, _, bottom in blocks(boxes)]
    assert kept == [(text[0][1], text[-1][3]), (heading[0][1], body[-1][3])]

    def cut(tiling) -> float:
        return (tiling.sheet_height - tiling.tops[1]) / MM

    assert 258 < cut(tiling.choose_seams([], down)) < 269  # must-catch: lines alone
    assert 238 < cut(tiling.choose_seams([], down, [], kept)) < 248  # must-pass


def test_a_seam_keeps_the_strip_its_tile_gives_away_off_a_line_where_it_can():
    """Lines everywhere but three 3 mm gaps: 146-149 mm (round the even step, 147 mm), 140-143 and
    152-155 mm (12 mm further: the overlap). A seam in the first leaves its tile's far edge (the
    seam + the overlap) in a line; in the second, in the third gap: the seam takes the second."""
    tiling = _tiling()
    assert 146 * MM < tiling.xs[1] < 149 * MM  # the even step
    edges = [0.0, 140, 143, 146, 149, 152, 155, 600]
    spans = [(a * MM, b * MM) for a, b in zip(edges[::2], edges[1::2], strict=True)]
    first = tiling.choose_seams(spans, []).xs[1] / MM
    assert 140 < first < 143 and 152 < first + 12 < 155, first
