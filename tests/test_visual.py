"""The visual regression guard: one page of each kind (a card sheet on A4 and on Letter, a booklet's
cover, page and back cover, how-to-print, role sheets, the board's assembly page and a tile) rendered at 30 dpi and
compared with the references in tests/reference/, within a tolerance: a later change that moves or
breaks a layout fails here. After an intended change, look at the pages and run `python -m
tests.make_references`.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from tests.conftest import kit_view
from tests.make_references import PAGES, REFERENCE_DIR, render

PIXEL = (
    48  # grey levels two renders of the same page may differ by at a pixel (antialiasing, fonts)
)
SHARE = 0.004  # the share of a page's pixels that may differ by more


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    games = sorted({game for _, game, _, _, _ in PAGES})
    return kit_view(
        tmp_path_factory, games
    )  # the files build_pages writes: every language and paper of them


def differing(image: np.ndarray, reference: np.ndarray) -> float:
    """The share of pixels that differ by more than PIXEL grey levels (1.0 if the sizes differ)."""
    if image.shape != reference.shape:
        return 1.0
    return float((np.abs(image.astype(int) - reference.astype(int)) > PIXEL).mean())


@pytest.mark.parametrize("name, game, lang, what, page", PAGES, ids=[p[0] for p in PAGES])
def test_the_page_looks_as_its_reference(pages, name, game, lang, what, page):
    path = REFERENCE_DIR / f"{name}.png"
    assert path.exists(), f"no reference {path.name}: run python -m tests.make_references"
    reference = np.asarray(Image.open(path).convert("L"))
    share = differing(render(pages, game, lang, what, page), reference)
    assert share <= SHARE, (
        f"{name} differs from tests/reference/{path.name} on {share:.2%} of its pixels: if the "
        "change is intended, look at the page and run python -m tests.make_references"
    )


def test_the_guard_sees_a_layout_move_by_a_millimetre(pages):
    """The tolerance lets antialiasing through but not a card sheet moved by 1 mm, nor a page with a
    block gone."""
    name, game, lang, what, page = PAGES[0]
    image = render(pages, game, lang, what, page)
    reference = np.asarray(Image.open(REFERENCE_DIR / f"{name}.png").convert("L"))
    assert differing(image, reference) <= SHARE
    shift = round(30 / 25.4)  # one millimetre at 30 dpi is about one pixel
    moved = np.full_like(image, 255)
    moved[:, shift:] = image[:, :-shift]
    assert differing(moved, reference) > SHARE
    blanked = image.copy()
    blanked[image.shape[0] // 3 : image.shape[0] // 2] = 255  # a third of the cards' rows gone
    assert differing(blanked, reference) > SHARE
