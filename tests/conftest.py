"""Shared fixtures: a build of the real data into a temporary folder, and throwaway data copies."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from printshop.build import build
from printshop.loader import DEFAULT_DATA_DIR

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """The Comrade kit, every language and paper, built once for the whole session."""
    out = tmp_path_factory.mktemp("output")
    result = build(DEFAULT_DATA_DIR, out, games=["comrade"])
    assert not result.report.has_errors, [d.format() for d in result.report.items]
    return out


def with_defaults(data: Path) -> Path:
    """Write printshop's shared print data and languages (printshop/defaults/) into the data folder
    `data`, where it has no file of that name: the project as a publisher who copied the defaults in to
    change them. Printshop reads the same either way (layers.py); a test can then edit those files."""
    from printshop.paths import PACKAGE_DEFAULTS_DIR

    for folder in ("print", "languages"):
        for path in sorted((PACKAGE_DEFAULTS_DIR / folder).rglob("*.yaml")):
            target = data / path.relative_to(PACKAGE_DEFAULTS_DIR)
            if not target.exists():  # the project's own (its palette, its art) extend printshop's: both are read
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(path.read_bytes())
    return data


@pytest.fixture
def data_copy(tmp_path) -> Path:
    """A private copy of data/ that a test may break, printshop's defaults written in (with_defaults)."""
    target = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, target)
    return with_defaults(target)


def frame_text(frame) -> str:
    """The plain text a laid-out frame sets, rebuilt as the renderer does, at the fitted size."""
    from printshop.colour import Paints
    from printshop.fitting import make_flowables
    from printshop.loader import load_project

    paints = Paints(load_project(DEFAULT_DATA_DIR, games=[]).colours.palette)
    flowables = make_flowables(frame.blocks, frame.frame, frame.fit.size, paints, frame.frame.width)
    return "".join(f.getPlainText() for f in flowables if hasattr(f, "getPlainText"))


def found(data: Path, code: str) -> list:
    """The diagnostics with `code` that checking `data` gives."""
    from printshop.build import check

    report, _ = check(data)
    return [d for d in report.items if d.code == code]


def one(data: Path, code: str):
    """The one diagnostic with `code`; fails if there are none or several."""
    items = found(data, code)
    assert len(items) == 1, [d.format() for d in items] or f"no {code}"
    return items[0]


def edit(path: Path, old: str, new: str, count: int = 1) -> int:
    """Replace `old` by `new` in a data file; returns the 1-based line where `old` began."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{old!r} not in {path}"
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return line


def line_of(path: Path, needle: str) -> int:
    text = path.read_text(encoding="utf-8")
    return text[: text.index(needle)].count("\n") + 1


def copy_data(target: Path, games: list[str]) -> Path:
    """A copy of data/ at `target` with the shared print data and languages and only `games`, however
    many other games data/ holds."""
    from printshop.paths import discover_games

    others = set(discover_games(DEFAULT_DATA_DIR)) - set(games)
    shutil.copytree(DEFAULT_DATA_DIR, target, ignore=lambda folder, names: [
        name for name in names if Path(folder) == DEFAULT_DATA_DIR and name in others])
    return with_defaults(target)


# --- fixture games: tests of a mechanism build these, never the games data/ happens to hold -------
FIXTURES = REPO / "tests" / "fixtures"


def add_fixture_game(data: Path, templates: Path, name: str = "sampler", as_id: str | None = None) -> str:
    """Copy the fixture game `name` (tests/fixtures/<name>/: `game/` and `templates/`) into a data and a
    templates folder, as the game `as_id` (default: its own name); returns the game's id."""
    game_id = as_id or name
    shutil.copytree(FIXTURES / name / "game", data / game_id)
    shutil.copytree(FIXTURES / name / "templates", templates / name)
    return game_id


def fixture_project(root: Path, *, real_games: bool = False) -> tuple[Path, Path]:
    """A data folder and a templates folder under `root`: the shared print data and languages of data/
    and the sampler fixture game, with the games of data/ beside it only if `real_games`."""
    from printshop.paths import DEFAULT_TEMPLATES_DIR, discover_games

    games = set(discover_games(DEFAULT_DATA_DIR))
    data, templates = root / "data", root / "templates"
    shutil.copytree(DEFAULT_DATA_DIR, data, ignore=lambda folder, names: [] if real_games or Path(folder) !=
                    DEFAULT_DATA_DIR else [name for name in names if name in games])
    shutil.copytree(DEFAULT_TEMPLATES_DIR, templates)
    add_fixture_game(data, templates)
    return with_defaults(data), templates
