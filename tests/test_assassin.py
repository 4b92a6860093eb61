"""Assassin: role cards, setup and caller cards, naming variants, and the player-count table."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from printshop.cli import main
from printshop.pipeline.build import check
from printshop.project.paths import DEFAULT_DATA_DIR
from tests.conftest import edit, found, kit_view, line_of, one, real_project, shared, shared_build
from tests.pdfinspect import page_texts, words

ROLES = ("assassin", "mafia", "pleb")


def _text(path) -> str:
    return words(path)


def test_the_data_is_clean():
    report, _ = check(DEFAULT_DATA_DIR, games=["assassin"])
    assert {d.code for d in report.items if not d.acknowledged} <= {"reconstructed"}, [
        d.format() for d in report.items
    ]


def test_a_row_that_does_not_add_up(data_copy):
    game = data_copy / "assassin" / "game.yaml"
    edit(game, "count: {5: 1, 6: 2,", "count: {5: 2, 6: 2,")
    item = one(data_copy, "setup-impossible", games=["assassin"])
    assert (
        item.location.line == line_of(game, '  total: "n"')
        and "for 5 players the needs add up to 6, not 5" in item.message
    )


def test_more_royal_cards_than_a_deck_holds(data_copy):
    game = data_copy / "assassin" / "game.yaml"
    edit(
        game,
        "limits: {assassin: 4, mafia: 12, pleb: 36}",
        "limits: {assassin: 4, mafia: 3, pleb: 36}",
    )
    item = one(data_copy, "setup-impossible", games=["assassin"])
    assert (
        item.location.line == line_of(game, "kind: mafia, count:")
        and "12 players need 4 'mafia'" in item.message
    )


def test_a_variant_must_name_every_role(data_copy):
    english = data_copy / "assassin" / "text" / "en.yaml"
    text = english.read_text(encoding="utf-8")
    soviet = text.index("  soviet:")
    pleb = text.index("      pleb:", soviet)
    end = text.index("\n", text.index("plural:", pleb)) + 1
    english.write_text(text[:pleb] + text[end:], encoding="utf-8")
    items = [
        d
        for d in found(data_copy, "missing-text", games=["assassin"])
        if "naming variant 'soviet'" in d.message
    ]
    assert {re.search(r"gives no '([^']+)'", d.message).group(1) for d in items} == {
        "role.pleb.name",
        "role.pleb.plural",
    }
    assert all(d.location.path.endswith("assassin/text/en.yaml") for d in items)


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """Assassin's kits with the classic names and with the soviet ones, side by side in one folder
    as two builds into one output folder leave them (hard links to the session's shared builds)."""
    plain = kit_view(tmp_path_factory, ["assassin"]) / "assassin"
    soviet = shared_build(tmp_path_factory, games=["assassin"], variant="soviet")[0] / "assassin"

    def both(folder: Path) -> None:
        for source in (plain, soviet):
            for path in source.rglob("*"):
                if path.is_file():
                    (folder / path.relative_to(source)).parent.mkdir(parents=True, exist_ok=True)
                    os.link(
                        path, folder / path.relative_to(source)
                    )  # no name in both: this would fail

    return shared(tmp_path_factory, "assassin-plain-and-soviet", both)[0]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_table_in_the_pdf_is_the_data(kits, lang):
    game = real_project(["assassin"]).games["assassin"]
    needs = {need.kind: need.count for need in game.game.setup.needs}
    for name in (f"assassin-{lang}-cards-a4.pdf", f"assassin-{lang}-rules-a5.pdf"):
        text = _text(kits / lang / name)
        for n in range(5, 13):
            row = f"{n} 1 {needs['mafia'][n]} {needs['pleb'][n]}"
            assert row in text, (name, row)


def _fronts(path) -> str:
    """The card faces' words: front pages only (the backs carry the game's name, which is also
    the classic name of a role) and without the footer's file name."""
    text = " ".join(page_texts(path)[::2])
    return re.sub(r"assassin-[\w-]+\.pdf", "", " ".join(text.split())).lower()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_variant_changes_every_role_name(kits, lang):
    game = real_project(["assassin"]).games["assassin"]
    texts = game.catalogues[lang].entries
    plain = _fronts(kits / lang / f"assassin-{lang}-cards-a4.pdf")
    soviet = _fronts(kits / lang / f"assassin-{lang}-soviet-cards-a4.pdf")
    for role in ROLES:
        classic = texts[f"role.{role}.name"].text.lower()
        new = texts[f"variant.soviet.role.{role}.name"].text.lower()
        assert classic != new
        assert new in soviet and new not in plain
        assert not re.search(rf"\b{re.escape(classic)}\b", soviet), (role, classic)


def test_variant_on_the_command_line(tmp_path, capsys):
    assert (
        main(
            [
                "build",
                "assassin",
                "--variant",
                "village",
                "--lang",
                "en",
                "--paper",
                "a4",
                "--out",
                str(tmp_path),
                "--quiet",
            ]
        )
        == 0
    )
    assert sorted(p.name for p in (tmp_path / "assassin").rglob("*.pdf")) == [
        "assassin-en-village-cards-a4.pdf",
        "assassin-en-village-how-to-print-a4.pdf",
        "assassin-en-village-rules-a5.pdf",
        "assassin-en-village-rules-booklet-a4.pdf",
    ]
    with pytest.raises(SystemExit) as usage:
        main(["build", "--variant", "nosuch", "--out", str(tmp_path)])
    assert usage.value.code == 2


def test_both_kits_build_on_both_papers(kits):
    for lang in ("en", "fr"):
        for paper in ("a4", "letter"):
            reader = PdfReader(kits / lang / f"assassin-{lang}-cards-{paper}.pdf")
            # 15 cards: 9 a page on A4, 8 on Letter (2 × 4 on their side; upright, 3 × 2 would keep
            # the crop marks out of the band printers cannot print): two pages of fronts, each with
            # its backs
            assert len(reader.pages) == 4
