"""A deck made only for digital tables (`digital_only`: Comrade's ballots, which a table online needs
and paper does not): on Tabletop Simulator's table and in the image sets of online tables, in no
file paper gets (kits, how-to-print page, press, cut, previews), and never asked whether paper or a
shop can take it. Built from the sampler fixture game (tests/fixtures/sampler), so nothing here
depends on the games of data/."""

from __future__ import annotations

import json

import pytest
from pypdf import PdfReader

from printshop.pipeline.build import build
from tests.conftest import edit, fixture_project, found, line_of

# a deck of a size no paper holds: printed, validate would refuse it (paper-too-small)
DECK = """
  chits:
    digital_only: true
    card_size: mat
    bleed: 0mm
    safe: 4mm
    back: token-back
    cards:
      - {id: chit, kind: chit, count: 3, front: token}
"""
MAT = 'card_sizes:\n  mat: {width: 250mm, height: 350mm, label: "Mat"}\n'


def _sampler(root, digital: bool = True):
    data, templates = fixture_project(root)
    game = data / "sampler" / "game.yaml"
    deck = DECK if digital else DECK.replace("    digital_only: true\n", "")
    edit(game, "\nsheets:", deck + "\nsheets:")
    media = data / "print" / "media.yaml"
    text = media.read_text("utf-8") if media.exists() else ""
    if "card_sizes:\n" in text:
        edit(media, "card_sizes:\n", MAT)
    else:
        media.write_text(text + MAT, "utf-8")
    return data, templates, game


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """The sampler with a digital-only deck, built for every kind of output."""
    root = tmp_path_factory.mktemp("digital-only")
    data, templates, _ = _sampler(root)
    out = root / "out"
    for settings in (
        {"papers": ["a4"]},
        {"target": "shop", "profiles": ["eu-3mm", "drivethrucards"]},
        {"target": "cut", "profiles": ["silhouette"]},
        {"target": "preview", "profiles": ["preview", "tabletopia"]},
        {"target": "tts"},
    ):
        result = build(data, out, templates_dir=templates, langs=["en"], jobs=1, **settings)
        assert not result.report.has_errors, [d.format() for d in result.report.errors]
    return out / "sampler" / "en"


def test_a_deck_for_digital_tables_only_is_on_the_table_and_in_no_printed_file(outputs):
    files = [path.relative_to(outputs) for path in outputs.rglob("*") if path.is_file()]
    printed = [f for f in files if f.parts[0] not in ("tts", "tabletopia")]
    assert any(f.name.endswith("-tokens-a4.pdf") for f in printed)  # the printed deck is there
    assert any("press" in f.parts for f in printed) and any("cut" in f.parts for f in printed)
    assert any("preview" in f.parts and "-tokens-" in f.name for f in printed)
    assert not [f for f in printed if "chits" in f.name], printed
    for file in printed:  # nor named in a manifest or a cut file
        if file.suffix in (".csv", ".json", ".txt", ".svg"):
            assert "chits" not in (outputs / file).read_text("utf-8"), file
    [how_to] = outputs.glob("*how-to-print-a4.pdf")
    text = " ".join(page.extract_text() for page in PdfReader(how_to).pages)
    assert "tokens" in text and "chits" not in text
    # on the online tables: Tabletopia's images, TTS's sheets and saves
    assert any(f.parts[0] == "tabletopia" and "-chits-" in f.name for f in files)
    tts = outputs / "tts"
    [save] = json.loads((tts / "sampler-en-chits.json").read_text("utf-8"))["ObjectStates"]
    assert save["Name"] == "DeckCustom" and len(save["ContainedObjects"]) == 3
    everything = json.loads(next(tts.glob("*-all.json")).read_text("utf-8"))["ObjectStates"]
    assert any(state.get("Nickname", "").endswith("chits") or state is save for state in everything)
    assert len([s for s in everything if s["Name"] == "DeckCustom"]) == 2  # tokens and chits


def test_paper_and_shops_are_not_asked_to_take_a_deck_no_kit_prints(tmp_path):
    """Must-pass: a digital-only deck of a size no paper or shop takes is no problem; must-catch:
    the same deck printed is refused on paper, and the shops that do not make its size leave it
    out."""
    codes = ("paper-too-small", "press-left-out", "cut-left-out")
    data, _, _ = _sampler(tmp_path / "digital")
    for code in codes:
        assert not [d for d in found(data, code, ["sampler"]) if "chits" in d.message], code
    data, _, game = _sampler(tmp_path / "printed", digital=False)
    problems = [d for code in codes for d in found(data, code, ["sampler"])]
    chits = [d for d in problems if "chits" in d.message]
    assert {d.code for d in chits} >= {"paper-too-small", "press-left-out"}
    assert any(d.location.line == line_of(game, "card_size: mat") for d in chits)


def test_a_deck_no_kit_prints_has_no_tuck_box_or_spares_and_says_so_where_it_is_written(tmp_path):
    data, _, game = _sampler(tmp_path)
    edit(game, "    digital_only: true\n", "    digital_only: true\n    spares: true\n")
    [error] = [d for d in found(data, "wrong-type", ["sampler"]) if "digital_only" in d.message]
    assert error.severity == "error" and str(error.location.path).endswith("sampler/game.yaml")
    assert error.location.line == line_of(game, "  chits:") + 1  # the deck, where it begins
    assert "'spares'" in error.message and "remove" in error.message
    # must-pass: the same deck without spares is no error
    edit(game, "    spares: true\n", "")
    assert not [d for d in found(data, "wrong-type", ["sampler"]) if "digital_only" in d.message]
