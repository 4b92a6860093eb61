"""Issue 50, item 8: the worked example of docs/example.md (docs/example/, a project made with
`printshop init` and `printshop new five-year-plan`) validates clean and builds in English and
French, using the design vocabulary: a generated deck, cards from a spreadsheet, a score pad, a
tuck box, inline icons, a figure and a designed cover."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from printshop.cli import main
from printshop.pipeline.build import build, check
from tests.conftest import REPO
from tests.pdfinspect import page_texts

EXAMPLE = REPO / "docs" / "example"
GAME = "five-year-plan"


@pytest.fixture(scope="module")
def example(tmp_path_factory) -> Path:
    """A copy of the example project (its output folder left behind), built once in A4."""
    folder = tmp_path_factory.mktemp("example") / "example"
    shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns("output", ".printshop-cache"))
    result = build(folder / "data", folder / "output", papers=["a4"])
    assert not result.report.has_errors, [
        d for d in result.report.items if d.severity.value == "error"
    ]
    return folder


def _texts(example: Path, lang: str, name: str) -> list[str]:
    return page_texts(example / "output" / GAME / lang / f"{GAME}-{lang}-{name}-a4.pdf")


def test_the_example_validates_clean_with_strict(example, capsys, monkeypatch):
    monkeypatch.chdir(example)
    assert main(["validate", "--strict"]) == 0
    capsys.readouterr()


def test_the_example_is_a_project_of_its_own():
    assert (EXAMPLE / "printshop.toml").is_file()
    assert sorted(p.name for p in (EXAMPLE / "data").iterdir() if p.is_dir()) == [GAME]
    assert {p.stem for p in (EXAMPLE / "data" / GAME / "text").glob("*.yaml")} >= {"en", "fr"}


def test_the_generated_deck_holds_44_sector_cards_in_both_languages(example):
    report, checked = check(example / "data", games=[GAME], langs=["en"])
    assert not report.has_errors
    layout = next(layout for layout in checked.layouts if layout.game_id == GAME)
    deck = next(deck for deck in layout.decks if deck.id == "sectors")
    assert len(deck.cards) == 44
    for lang, grain in (("en", "GRAIN"), ("fr", "CÉRÉALES")):
        fronts = " ".join(_texts(example, lang, "sectors"))
        assert fronts.count(grain) == 11 and "11" in fronts
        # 6 and 9 are told apart in the upside-down corner by a dot
        assert fronts.count("6.") == fronts.count("9.") == 8


def test_the_directives_come_from_the_spreadsheet(example):
    rows = (EXAMPLE / "data" / GAME / "directives.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("id,") and len(rows) == 13
    english, french = (
        " ".join(" ".join(_texts(example, lang, "directives")).split()) for lang in ("en", "fr")
    )
    assert "BREAD FOR THE CITIES" in english and "28 in Timber" in english
    assert "DU PAIN POUR LES VILLES" in french and "28 en Bois" in french


def test_the_score_pad_and_the_tuck_box_are_in_the_kit(example):
    for lang, header in (("en", "Player"), ("fr", "Joueur")):
        [pad] = _texts(example, lang, "scores")
        assert pad.count(header) == 4
        assert "Total" in pad  # the foot row under the writing rows
        assert (
            example / "output" / GAME / lang / f"{GAME}-{lang}-sectors-tuckbox-a4.pdf"
        ).is_file()


def test_the_rules_booklet_is_in_both_languages(example):
    english = " ".join(_texts(example, "en", "rules-booklet"))
    french = " ".join(_texts(example, "fr", "rules-booklet"))
    assert "Five-Year Plan" in english or "FIVE-YEAR PLAN" in english
    assert "Plan quinquennal" in french or "PLAN QUINQUENNAL" in french


def test_the_icons_are_set_in_the_card_texts_in_both_languages(example):
    """The directives' rewards (a data text) and quotas (a template) set their icons inline: the
    frames' laid-out markup holds them, star and sector motif."""
    for lang in ("en", "fr"):
        report, checked = check(example / "data", games=[GAME], langs=[lang])
        assert not report.has_errors
        layout = next(layout for layout in checked.layouts if layout.game_id == GAME)
        deck = next(deck for deck in layout.decks if deck.id == "directives")
        face = next(face for key, face in deck.faces.items() if "bread" in key)
        markup = {
            frame.name: " ".join(getattr(block, "markup", "") for block in frame.blocks)
            for frame in face.frames
        }
        assert "icon" in markup["reward"] and "star" in markup["reward"]
        assert "icon" in markup["quota"] and "wheat" in markup["quota"]


def test_the_figure_is_vector_art_with_its_caption_in_both_languages(example):
    for lang, caption in (("en", "its sector’s motif"), ("fr", "le motif de son secteur")):
        path = example / "output" / GAME / lang / f"{GAME}-{lang}-rules-a5.pdf"
        text = " ".join(" ".join(page_texts(path)).split())
        assert caption in text
        # the SVG drawn as paths, never as a picture (the booklet has no other image)
        assert b"/Subtype /Image" not in path.read_bytes()


def test_the_cover_and_back_cover_are_drawn_and_carry_no_file_name(example):
    import pypdfium2

    for lang in ("en", "fr"):
        path = example / "output" / GAME / lang / f"{GAME}-{lang}-rules-a5.pdf"
        pages = page_texts(path)
        assert "rules-a5.pdf" not in pages[0] and "rules-a5.pdf" not in pages[-1]
        assert not any("rules-a5.pdf" in page for page in pages)  # a rule book names no file
        document = pypdfium2.PdfDocument(path)
        for index in (0, len(document) - 1):
            image = document[index].render(scale=30 / 72).to_pil().convert("L")
            dark = sum(image.histogram()[:200])
            assert dark > 0.8 * image.width * image.height  # a full colour page, not paper
