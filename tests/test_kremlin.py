"""Kremlin: its rules in the validator, and both decks in French (source) and English."""
from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from printshop.build import check
from printshop.loader import DEFAULT_DATA_DIR, load_project
from tests.conftest import edit, found, line_of, one
from tests.pdfinspect import page_drawing


def test_the_age_tie_of_h_and_i_is_a_warning_naming_both_cards():
    report, _ = check(DEFAULT_DATA_DIR, games=["kremlin"])
    [tie] = [d for d in report.items if d.code == "tie"]
    game = DEFAULT_DATA_DIR / "kremlin" / "game.yaml"
    assert tie.severity.value == "warning"
    assert tie.location.line == line_of(game, "{id: h,")
    assert f"'i' at {tie.location.path}:{line_of(game, '{id: i,')}" in tie.message and "share age 69" in tie.message


def test_kremlin_data_is_otherwise_clean():
    report, _ = check(DEFAULT_DATA_DIR, games=["kremlin"])
    assert {d.code for d in report.items} <= {"tie", "reconstructed"}, [d.format() for d in report.items]


def test_a_missing_letter(data_copy):
    game = data_copy / "kremlin" / "game.yaml"
    edit(game, "vars: {letter: Q,", "vars: {letter: P,")
    items = found(data_copy, "composition")
    assert any("P ×2" in d.message and "Q ×0" in d.message for d in items)
    assert all(d.location.line == line_of(game, "one_each:") for d in items)


def test_a_strength_that_is_no_office(data_copy):
    game = data_copy / "kremlin" / "game.yaml"
    line = edit(game, "vars: {letter: G, age: 70, strong: sport,", "vars: {letter: G, age: 70, strong: chess,")
    item = one(data_copy, "unknown-reference")
    assert item.location.line == line and "strong 'chess'" in item.message


def test_a_gap_in_the_intrigue_numbers(data_copy):
    game = data_copy / "kremlin" / "game.yaml"
    edit(game, "vars: {number: 17}", "vars: {number: 35}")
    item = one(data_copy, "composition")
    assert item.location.line == line_of(game, "sequence:") and "missing [17]" in item.message


def test_succession_orders_name_real_offices_once(data_copy):
    game = data_copy / "kremlin" / "game.yaml"
    line = edit(game, "succession: [ideology, kgb, industry, economy, sport, defence]",
                "succession: [ideology, kgb, ideology, economy, sport, defence]")
    item = one(data_copy, "succession")
    assert item.location.line == line and "'ideology' appears twice" in item.message
    edit(game, "promotions: [kgb, foreign, defence,", "promotions: [kgb, kgb, defence,")
    assert any("missing ['foreign']" in d.message for d in found(data_copy, "succession"))


def test_an_office_that_does_not_exist(data_copy):
    game = data_copy / "kremlin" / "game.yaml"
    line = edit(game, "acts: defence, succession: [foreign,", "acts: army, succession: [foreign,")
    assert one(data_copy, "unknown-reference").location.line == line


@pytest.fixture(scope="module")
def kremlin_kit(tmp_path_factory):
    from printshop.build import build

    out = tmp_path_factory.mktemp("kremlin")
    result = build(DEFAULT_DATA_DIR, out, games=["kremlin"])
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    return out


def _texts(kit, lang, deck, paper="a4"):
    reader = PdfReader(kit / "kremlin" / lang / f"kremlin-{lang}-{deck}-{paper}.pdf")
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages), reader


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_politician_name_is_printed(kremlin_kit, lang):
    text, reader = _texts(kremlin_kit, lang, "politicians")
    game = load_project(DEFAULT_DATA_DIR, games=["kremlin"]).games["kremlin"]
    names = [e.text for i, e in game.catalogues[lang].entries.items() if re.fullmatch(r"politician\.[a-z]\.name", i)]
    assert len(names) == 26
    for name in names:
        assert " ".join(name.split()) in text, name
    assert sum(len(page_drawing(reader, i)[0]) for i in range(0, len(reader.pages), 2)) == 26


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_intrigue_title_is_printed(kremlin_kit, lang):
    text, reader = _texts(kremlin_kit, lang, "intrigue", "letter")
    game = load_project(DEFAULT_DATA_DIR, games=["kremlin"]).games["kremlin"]
    titles = [e.text for i, e in game.catalogues[lang].entries.items() if re.fullmatch(r"intrigue\.n\d\d\.title", i)]
    assert len(titles) == 34
    for title in titles:
        assert " ".join(title.replace("’", "’").split()) in text, title
    assert sum(len(page_drawing(reader, i)[0]) for i in range(0, len(reader.pages), 2)) == 34


def test_french_names_are_the_pun_names(kremlin_kit):
    french, _ = _texts(kremlin_kit, "fr", "politicians")
    english, _ = _texts(kremlin_kit, "en", "politicians")
    assert "Goferbrok" in english and "Goferbrok" not in french and "Aparatschik" in french
