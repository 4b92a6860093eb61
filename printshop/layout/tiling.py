"""A sheet larger than the paper (a board), cut into overlapping tiles: the windows, where each seam
goes (moved within the paper's slack off the sheet's text, `Tiling.choose_seams`), and what of a
tile its neighbours cover. Pure geometry in points, PDF coordinates (origin bottom-left)."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, replace

import numpy as np

from printshop.layout.imposition import ImpositionError


@dataclass(frozen=True)
class Tile:
    row: int
    column: int
    left: float  # the tile's window in the sheet's own coordinates (origin bottom-left)
    bottom: float
    width: float = 0.0
    height: float = 0.0

    @property
    def label(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.column + 1}"


@dataclass(frozen=True)
class Tiling:
    """A sheet larger than the paper, cut into `columns` × `rows` windows that overlap by `overlap`
    (the part of a tile its right and lower neighbours lie over). Where each seam goes (a column's
    left cut edge, a row's top cut edge) is `cuts_x` (from the sheet's left) and `cuts_y` (from its
    top), the first of each 0; without them the windows are as small as covering the sheet allows,
    equal, stepping evenly. `choose_seams` moves each seam within the slack the paper leaves (a
    window is at most the paper inside its margins) to keep it off the sheet's text. Each window is
    printed centred on its page, never closer to the paper's edge than `margin` (nor than `bottom`
    to its bottom edge, where the footer is)."""

    sheet_width: float
    sheet_height: float
    page_width: float
    page_height: float
    margin: float
    overlap: float
    columns: int
    rows: int
    bottom: float = 0.0
    cuts_x: tuple[float, ...] = ()
    cuts_y: tuple[float, ...] = ()

    @property
    def room(self) -> tuple[float, float]:
        """The largest window the paper holds inside its margins."""
        low = max(self.margin, self.bottom)
        return self.page_width - 2 * self.margin, self.page_height - self.margin - low

    @property
    def xs(self) -> list[float]:
        """Each column's left cut edge, then the sheet's right edge."""
        if self.cuts_x:
            return [*self.cuts_x, self.sheet_width]
        step = (self.sheet_width - self.overlap) / self.columns
        return [column * step for column in range(self.columns)] + [self.sheet_width]

    @property
    def tops(self) -> list[float]:
        """Each row's top cut edge, in sheet coordinates (from its bottom), then 0."""
        if self.cuts_y:
            return [self.sheet_height - cut for cut in self.cuts_y] + [0.0]
        step = (self.sheet_height - self.overlap) / self.rows
        return [self.sheet_height - row * step for row in range(self.rows)] + [0.0]

    @property
    def window_width(self) -> float:
        """The widest window (all are as wide where the seams step evenly)."""
        xs = self.xs
        return max(
            min(xs[c + 1] + self.overlap, self.sheet_width) - xs[c] for c in range(self.columns)
        )

    @property
    def window_height(self) -> float:
        tops = self.tops
        return max(tops[r] - max(tops[r + 1] - self.overlap, 0.0) for r in range(self.rows))

    def origin_of(self, tile: Tile) -> tuple[float, float]:
        """Where a tile's window's bottom-left corner lies on its page: centred between the
        margins."""
        low = max(self.margin, self.bottom)
        return (
            (self.page_width - tile.width) / 2,
            low + (self.page_height - self.margin - low - tile.height) / 2,
        )

    def tiles(self) -> list[Tile]:
        """Row by row from the top-left corner of the sheet: each window from its own cut edges to
        `overlap` past its right and lower neighbours' cut edges."""
        xs, tops = self.xs, self.tops
        tiles = []
        for row in range(self.rows):
            bottom = max(tops[row + 1] - self.overlap, 0.0) if row + 1 < self.rows else 0.0
            for column in range(self.columns):
                right = (
                    min(xs[column + 1] + self.overlap, self.sheet_width)
                    if column + 1 < self.columns
                    else self.sheet_width
                )
                tiles.append(
                    Tile(
                        row,
                        column,
                        xs[column],
                        bottom,
                        right - xs[column],
                        tops[row] - bottom,
                    )
                )
        return tiles

    def covered(self, tile: Tile) -> list[tuple[float, float, float, float]]:
        """The strips of `tile` its right and lower neighbours lie over once taped (the overlap it
        gives away), as (left, bottom, width, height) in the sheet's coordinates (from its
        bottom-left corner), apart: the lower one stops where the right one starts."""
        strips = []
        right = tile.left + tile.width
        if tile.column + 1 < self.columns:
            right = self.xs[tile.column + 1]
            strips.append((right, tile.bottom, tile.left + tile.width - right, tile.height))
        if tile.row + 1 < self.rows:
            y = self.tops[tile.row + 1]
            strips.append((tile.left, tile.bottom, right - tile.left, y - tile.bottom))
        return strips

    def choose_seams(
        self,
        across: list[tuple[float, float]],
        down: list[tuple[float, float]],
        blocks_across: list[tuple[float, float]] | None = None,
        blocks_down: list[tuple[float, float]] | None = None,
    ) -> "Tiling":
        """The tiling with each seam moved, within the slack the paper leaves, off the spans it
        must not cut: `across`, the (left, right) extents of the sheet's text lines and small boxes
        (a column's cut edge runs the sheet's whole height, so it crosses every one it falls
        inside); `down`, their (top, bottom) from the sheet's top; `blocks_across`, `blocks_down`,
        those of the blocks that read together (a heading and its text, a table). Each seam goes
        where it crosses the fewest lines, then the fewest blocks, then keeps a quarter of the
        overlap from the nearest line, then where the edge of the strip its tile gives away
        (`overlap` further on) crosses the fewest lines, then as far from the nearest line as half
        the overlap allows, then nearest even."""
        width, height = self.room
        return replace(
            self,
            cuts_x=_seams(
                self.sheet_width, self.columns, width, self.overlap, across, blocks_across
            ),
            cuts_y=_seams(self.sheet_height, self.rows, height, self.overlap, down, blocks_down),
        )


_GRID = 0.5  # points: where a seam may go, in steps this fine


def _inside(at: np.ndarray, spans: list[tuple[float, float]]) -> np.ndarray:
    """At each position of `at` (a row), how many of `spans` it falls strictly inside."""
    starts = np.array([a for a, _ in spans] or [math.inf])[:, None]
    ends = np.array([b for _, b in spans] or [-math.inf])[:, None]
    return ((starts < at) & (at < ends)).sum(axis=0)


def _seams(
    length: float,
    count: int,
    window: float,
    overlap: float,
    spans: list[tuple[float, float]],
    blocks: list[tuple[float, float]] | None = None,
) -> tuple[float, ...]:
    """The cut edges (the first at 0) of `count` windows at most `window` long covering `length`,
    each overlapping the next by `overlap`, that cross the fewest `spans`, then the fewest `blocks`,
    then come closer than a quarter of the overlap to a span the fewest times, then whose windows'
    far edges (`overlap` past the next cut edge) cross the fewest `spans`, then keep the most room
    to them (up to half the overlap), then lie nearest to the even steps."""
    if count == 1:
        return (0.0,)
    even = (length - overlap) / count
    reach = window - overlap  # the farthest one cut edge lies past the previous one
    positions = [i * _GRID for i in range(int(length / _GRID) + 1)]
    cap = overlap / 2
    # at each position: the spans and blocks it falls inside, the spans the far edge falls inside,
    # and the room to the nearest span (at most `cap`)
    at = np.array(positions)[None, :]
    crossed = _inside(at, spans)
    held = _inside(at, blocks or [])
    far = _inside(at + overlap, spans)
    starts = np.array([a for a, _ in spans] or [math.inf])[:, None]
    ends = np.array([b for _, b in spans] or [-math.inf])[:, None]
    room = np.clip(np.maximum(starts - at, at - ends).min(axis=0), 0.0, cap)
    base = [
        (int(c), int(h), int(r < cap / 2), int(f), -float(r))
        for c, h, f, r in zip(crossed, held, far, room, strict=True)
    ]
    # best[i]: the least cost of the seams so far with the latest at positions[i]
    best: list[tuple | None] = [None] * len(positions)
    best[0] = (0, 0, 0, 0, 0.0, 0.0)
    back: list[list[int]] = []
    span = int(reach / _GRID + 1e-6)
    least = max(1, int(overlap / _GRID))  # every tile shows more than its overlap
    for k in range(1, count):
        new: list[tuple | None] = [None] * len(positions)
        came = [-1] * len(positions)
        window_min: deque[int] = deque()  # indices of `best` in the sliding range, values rising
        for i, u in enumerate(positions):
            j = i - least  # enters the range
            if j >= 0 and best[j] is not None:
                while window_min and best[window_min[-1]] > best[j]:  # type: ignore[operator]
                    window_min.pop()
                window_min.append(j)
            while window_min and window_min[0] < i - span:
                window_min.popleft()
            if not window_min or (k == count - 1 and length - u > window + 1e-6):
                continue  # the last window reaches the sheet's end
            j = window_min[0]
            cost = base[i]
            value = best[j]
            assert value is not None
            new[i] = (
                *(a + b for a, b in zip(value[:-1], cost, strict=True)),
                value[-1] + abs(u - k * even),
            )
            came[i] = j
        best = new
        back.append(came)
    candidates = [(value, i) for i, value in enumerate(best) if value is not None]
    if not candidates:  # no slack at all (the grid's rounding ate it): even steps
        return tuple(k * even for k in range(count))
    _, i = min(candidates)
    cuts = []
    for came in reversed(back):
        cuts.append(positions[i])
        i = came[i]
    return (0.0, *reversed(cuts))


def tiling_for(
    sheet_width: float,
    sheet_height: float,
    paper_width: float,
    paper_height: float,
    margin: float,
    overlap: float,
    bottom: float = 0.0,
) -> Tiling:
    """The tiling with the fewest pages, paper upright or turned; `bottom`: the least room under
    each window (the footer's), if more than `margin`."""
    options = []
    for width, height in ((paper_width, paper_height), (paper_height, paper_width)):
        window_w, window_h = width - 2 * margin, height - margin - max(margin, bottom)
        if window_w <= overlap or window_h <= overlap:
            continue
        columns = max(1, math.ceil((sheet_width - overlap) / (window_w - overlap) - 1e-9))
        rows = max(1, math.ceil((sheet_height - overlap) / (window_h - overlap) - 1e-9))
        options.append(
            Tiling(sheet_width, sheet_height, width, height, margin, overlap, columns, rows, bottom)
        )
    if not options:
        raise ImpositionError("the overlap is larger than what fits on the paper")
    return min(
        options,
        key=lambda tiling: (tiling.columns * tiling.rows, tiling.page_width > tiling.page_height),
    )
