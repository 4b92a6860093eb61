"""Figures drawn from a game's own faces in its rules booklet: Comrade's vote card (review 2,
'Comrade rules have no figure of a card'). The SVG is what its script writes from faces.yaml, and
the figure is drawn, with its caption, on one page of the A5 rules in each language."""

from __future__ import annotations

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest

from tests.conftest import shared_build

CAPTIONS = {"en": "Both sides of a vote card", "fr": "Les deux faces d’une carte de vote"}


def test_the_comrade_vote_card_svg_is_what_its_script_writes():
    from tests.make_comrade_vote_card import OUT, vote_card_svg

    assert OUT.read_text(encoding="utf-8") == vote_card_svg()


def drawn_shapes(page) -> int:
    """The segments of the vector paths drawn on `page`: a text page has a few (the folio's rule,
    about 60 for a table's lines), a figure of a card hundreds (its rays, motifs and bands)."""
    return sum(
        pdfium_c.FPDFPath_CountSegments(item.raw)
        for item in page.get_objects(max_depth=3)
        if item.type == pdfium_c.FPDF_PAGEOBJ_PATH
    )


FIGURE_LEAST = 150


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_comrade_rules_show_the_vote_card_with_its_caption(tmp_path_factory, lang):
    out, _ = shared_build(tmp_path_factory, games=["comrade"], papers=["a4"])
    for path in [out / "comrade" / lang / f"comrade-{lang}-rules-a5.pdf"]:
        document = pypdfium2.PdfDocument(str(path))
        pages = [page.get_textpage().get_text_range() for page in document]
        with_caption = [n for n, text in enumerate(pages) if CAPTIONS[lang] in text]
        assert len(with_caption) == 1, (path.name, with_caption)
        page = document[with_caption[0]]
        assert drawn_shapes(page) >= FIGURE_LEAST, path.name
        # must-catch: the measure finds no figure on a page of text without one
        text_page = document[with_caption[0] + 1]
        assert drawn_shapes(text_page) < FIGURE_LEAST, path.name
        document.close()
