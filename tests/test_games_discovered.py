"""Issue 14: a game added to the data folder breaks nothing. The commands that run over every game
discover the games of the data folder (a folder holding a game.yaml), and so do the tests that run
over every game; here a copy of data/ gets one game more (the sampler fixture) and the game-wide
commands run over all of them."""

from __future__ import annotations

from printshop.checks.preflight import preflight, shop_trims
from printshop.cli import main
from printshop.pipeline.build import build, check
from printshop.project.loader import load_project
from printshop.project.paths import DEFAULT_DATA_DIR, discover_games
from tests.conftest import fixture_project


def test_the_games_are_the_data_folders_folders_with_a_game_yaml(tmp_path):
    (tmp_path / "print").mkdir()  # shared data, not a game
    (tmp_path / "notes").mkdir()
    for game in ("b-game", "a-game"):
        (tmp_path / game).mkdir()
        (tmp_path / game / "game.yaml").write_text("title: game.title\n", encoding="utf-8")
    assert discover_games(tmp_path) == ["a-game", "b-game"]


def test_a_game_added_to_the_data_folder_checks_and_builds_with_the_others(tmp_path, capsys):
    data, templates = fixture_project(tmp_path, real_games=True)
    games = discover_games(data)
    assert games == sorted(discover_games(DEFAULT_DATA_DIR) + ["sampler"])

    report, checked = check(data, templates_dir=templates)
    assert not report.has_errors, [d.format() for d in report.errors]
    assert {layout.game_id for layout in checked.layouts} == set(games)
    location = ["--data", str(data), "--templates", str(templates)]
    assert main(["validate", "--strict", *location]) == 0
    assert main(["i18n", "status", "--data", str(data)]) == 0
    capsys.readouterr()

    out = tmp_path / "out"  # one language each: every game, the new one among them, is still built
    kits = build(data, out, templates_dir=templates, langs=["fr"], papers=["a4"], jobs=1)
    assert not kits.report.has_errors, [d.format() for d in kits.report.errors]
    assert {output.path.parts[0] for output in kits.outputs} == set(games) | {"calibration"}
    assert {path.name for path in (out / "sampler" / "fr").iterdir()} >= {
        "sampler-fr-tokens-a4.pdf",
        "sampler-fr-aid-a4.pdf",
        "sampler-fr-how-to-print-a4.pdf",
    }

    shop = build(
        data, out, templates_dir=templates, langs=["en"], target="shop", profiles=["eu-3mm"], jobs=1
    )
    assert not shop.report.has_errors, [d.format() for d in shop.report.errors]
    project = load_project(data, games=[])
    pressed = [out / output.path for output in shop.outputs if output.path.suffix == ".pdf"]
    assert {path.relative_to(out).parts[0] for path in pressed} == set(games)
    profile = project.profiles["eu-3mm"]
    added = [
        path for path in pressed if path.relative_to(out).parts[0] == "sampler"
    ]  # test_press checks the others
    assert {path.name for path in added} >= {"sampler-en-aid.pdf", "sampler-en-poker-eu.pdf"}
    for path in added:
        assert preflight(path, profile, shop_trims(project.media, profile)) == [], path
