"""Comrade Stalin: the custom deck, role and setup sheets in English and French, and the goal-deck
rule."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from printshop.pipeline.build import check
from printshop.project.paths import DEFAULT_DATA_DIR
from tests.conftest import edit, found, kit_view, line_of, one, real_project
from tests.pdfinspect import page_drawing, page_texts, words

ROLES = ("favourite", "heir", "general", "ideologue", "assassin", "believer", "informer", "protege")


def test_the_data_is_clean():
    report, _ = check(DEFAULT_DATA_DIR, games=["comrade-stalin"])
    assert {d.code for d in report.items if not d.acknowledged} <= {"reconstructed"}, [
        d.format() for d in report.items
    ]
    listed = " ".join(d.message for d in report.items)
    assert all(
        f"sheet 'roles/{role}'" in listed for role in ROLES
    )  # every designed ability is up for review


def test_a_role_without_its_goal_cards_breaks_the_arithmetic(data_copy):
    game = data_copy / "comrade-stalin" / "game.yaml"
    edit(
        game,
        '      - {id: goal-8-spades, kind: goal, front: goal-spades, vars: {rank: "8", suit: spades, target: believer}}\n',
        "",
    )
    items = found(data_copy, "setup-impossible", games=["comrade-stalin"])
    assert any("needs the 8 of spades for rosters with the believer" in d.message for d in items)
    assert all(d.location.path.endswith("comrade-stalin/game.yaml") for d in items)


def test_a_wrong_remainder_is_reported(data_copy):
    game = data_copy / "comrade-stalin" / "game.yaml"
    line = edit(game, "  remain: 3", "  remain: 4")
    item = one(data_copy, "setup-impossible", games=["comrade-stalin"])
    assert (
        item.location.line == line
        and "163 roster(s) do not leave exactly 4 goal cards" in item.message
    )


def test_starting_tokens_must_fit_the_kit(data_copy):
    game = data_copy / "comrade-stalin" / "game.yaml"
    edit(game, "role: favourite, tokens: 2}", "role: favourite, tokens: 12}")
    item = one(data_copy, "setup-impossible", games=["comrade-stalin"])
    assert (
        item.location.line == line_of(game, "  tokens: 20")
        and "more than the kit's 20 tokens" in item.message
    )


def test_ranks_are_unique_and_complete(data_copy):
    game = data_copy / "comrade-stalin" / "game.yaml"
    edit(game, 'vars: {rank: "8", role: believer,', 'vars: {rank: "8", role: informer,')
    messages = [d.message for d in found(data_copy, "composition", games=["comrade-stalin"])]
    assert any("believer ×0" in m and "informer ×2" in m for m in messages)
    assert any("repeats role 'informer'" in m for m in messages)


@pytest.fixture(scope="module")
def stalin_kit(tmp_path_factory):
    return kit_view(
        tmp_path_factory, ["comrade-stalin"]
    )  # the files `build(..., games=["comrade-stalin"])` writes


def _text(path) -> str:
    return words(path)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_both_kits_name_every_role(stalin_kit, lang, paper):
    game = real_project(["comrade-stalin"]).games["comrade-stalin"]
    names = [game.catalogues[lang].entries[f"role.{role}.name"].text for role in ROLES]
    cards = _text(
        stalin_kit / "comrade-stalin" / lang / f"comrade-stalin-{lang}-cards-{paper}.pdf"
    ).lower()
    sheets = _text(
        stalin_kit / "comrade-stalin" / lang / f"comrade-stalin-{lang}-roles-{paper}.pdf"
    ).lower()
    for name in names:
        assert name.lower() in cards and name.lower() in sheets, name


def test_the_deck_has_9_roles_and_24_goals(stalin_kit):
    reader = PdfReader(stalin_kit / "comrade-stalin" / "en" / "comrade-stalin-en-cards-a4.pdf")
    fronts = sum(len(page_drawing(reader, i)[0]) for i in range(0, len(reader.pages), 2))
    assert fronts == 33
    game = real_project(["comrade-stalin"]).games["comrade-stalin"]
    goals = [c for c in game.game.decks["cards"].cards if c.kind == "goal"]
    assert sum(c.count for c in goals) == 24
    assert {c.vars["suit"] for c in goals} == {"spades", "clubs", "hearts"}


def test_role_sheets_are_two_to_a_page_and_one_per_press_page(stalin_kit):
    from printshop.project.units import mm

    pnp = PdfReader(stalin_kit / "comrade-stalin" / "fr" / "comrade-stalin-fr-roles-letter.pdf")
    assert len(pnp.pages) == 5  # nine sheets, two to a page
    assert float(pnp.pages[0].mediabox.width) > float(pnp.pages[0].mediabox.height)  # turned paper
    assert [len(page_drawing(pnp, i)[0]) for i in range(5)] == [2, 2, 2, 2, 1]
    press = PdfReader(stalin_kit / "comrade-stalin" / "fr" / "comrade-stalin-fr-roles-press.pdf")
    assert len(press.pages) == 9
    b = mm(3)  # the kit's press pages follow media.yaml's press_profile, eu-3mm: 3 mm bleed
    for page in press.pages:
        assert [float(v) for v in page.trimbox] == pytest.approx(
            [b, b, b + mm(148), b + mm(210)], abs=0.01
        )


def test_setup_sheets_give_the_goal_deck_numbers(stalin_kit):
    text = _text(stalin_kit / "comrade-stalin" / "en" / "comrade-stalin-en-setup-a4.pdf")
    # 7 players without the Protégé: 6 roles with goals -> 18 cards, 6 discarded, 15 in the deck, 12
    # dealt
    for number in ("18", "6", "15", "12"):
        assert number in text
    assert all(
        f"{n} players" in text.lower() or f"{n} joueurs" in text.lower() for n in range(5, 10)
    )


@pytest.mark.parametrize("lang, title", [("en", "Setup at a glance"), ("fr", "coup d’œil")])
def test_the_setup_file_ends_with_every_count_at_a_glance(stalin_kit, lang, title):
    """Five counts left the setup file's last half-page blank: it now holds a sheet with every
    count's numbers, the same the counts' own sheets give (9 players: 24 goal cards taken without the
    Protégé, 8 set aside, 19 with the aces, 16 dealt, 11 tokens at most; with the Protégé 21, 7, 17,
    14), and every page holds two sheets."""
    path = stalin_kit / "comrade-stalin" / lang / f"comrade-stalin-{lang}-setup-a4.pdf"
    reader = PdfReader(path)
    assert [len(page_drawing(reader, i)[0]) for i in range(len(reader.pages))] == [2, 2, 2]
    last = " ".join(page_texts(path)[-1].split())
    assert title.upper() in last  # (the band sets its title in capitals)
    assert "9 24 8 19 16 11" in last and "9 21 7 17 14 11" in last
