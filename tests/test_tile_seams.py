"""Where a tiled sheet's seams go (layout/imposition.py, `Tiling.choose_seams`): each moves within
the slack the paper leaves off the spans of text it must not cut, every window stays within the
paper and overlaps the next by the stated overlap; where no free place exists, the seam crosses as
few lines as it can. The produced boards are checked in tests/test_kremlin_board.py."""

from __future__ import annotations

import pytest

from printshop.layout.imposition import tiling_for

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
