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


@pytest.fixture
def data_copy(tmp_path) -> Path:
    """A private copy of data/ that a test may break."""
    target = tmp_path / "data"
    shutil.copytree(DEFAULT_DATA_DIR, target)
    return target


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
