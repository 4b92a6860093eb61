"""What the commands share when they run: the usage error, the checks of the games and folders named
on the command line, and how a report and its summary are printed.

A command refuses a request it cannot carry out by raising UsageError; printshop.cli prints it as
argparse prints its own errors and exits with 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import NoReturn

from printshop.diagnostics import Report, Severity, StageFailed, format_report
from printshop.project.paths import discover_games, find_project


class UsageError(Exception):
    pass


def check_folders(args: argparse.Namespace) -> None:
    """Folders named on the command line that cannot be right are usage errors (exit 2)."""
    templates = getattr(args, "templates", None)
    if templates is not None and not templates.is_dir():
        raise UsageError(f"the templates folder {templates} does not exist (--templates)")


def known_games(data: Path, wanted: list[str]) -> list[str] | None:
    if not data.is_dir() or (data / "game.yaml").is_file():
        _refuse_data_folder(data)
    known = discover_games(data)
    unknown = [game for game in wanted if game not in known]
    if unknown:
        raise UsageError(
            f"unknown game(s): {', '.join(unknown)} (games: {', '.join(known) or 'none'})"
        )
    return wanted or None


def _refuse_data_folder(data: Path) -> NoReturn:
    """A data folder that is none (a file, a game's own folder, or nothing), said with who named it."""
    where = find_project()
    named_here = Path(os.path.abspath(data)) != Path(
        os.path.abspath(where.data)
    )  # by --data, not the project
    named = "--data" if named_here or where.config is None else str(where.config)
    if data.is_file():
        raise UsageError(
            f"the data folder {data} is a file ({named}): name the folder that holds the games"
        )
    if data.is_dir():  # a game's own folder given for the data folder: no game would be found in it
        raise UsageError(
            f"{data} is a game's folder (it holds game.yaml), not the data folder that holds the games "
            f"({named}): here, {data.parent}"
        )
    if named_here:
        hint = " (--data)"
    elif where.config is None:
        hint = "; this folder is in no printshop project: 'printshop init' makes one, --data names a data folder"
    else:
        hint = f" (named by {where.config})"
    raise UsageError(f"the data folder {data} does not exist{hint}")


def print_report(report: Report, stream=None) -> None:
    if report.items:
        print(format_report(report), file=stream or sys.stderr)


def summary(report: Report) -> str:
    counts = report.counts()
    accepted = sum(
        1 for d in dict.fromkeys(report.items) if d.severity is Severity.WARNING and d.acknowledged
    )
    return ", ".join(
        f"{n} {severity.value}{'s' if n != 1 else ''}"
        + (f" ({accepted} acknowledged)" if severity is Severity.WARNING and accepted else "")
        for severity, n in counts.items()
    )


def pages(count: int) -> str:
    return "1 page" if count == 1 else f"{count} pages"


def load_or_report(data: Path, games: list[str] | None):
    """The project's games, or None when they cannot be read (what is wrong printed)."""
    from printshop.project.loader import load_project

    report = Report()
    try:
        return load_project(data, games=games, report=report)
    except StageFailed:
        print_report(report)
        return None


def known_variant(data: Path, games: list[str] | None, variant: str, *, live: bool = False) -> bool:
    """Whether a game (of `games`) has the naming variant; a usage error if none has it. Data that
    cannot be read gives False, reported; for watch and serve (`live`), True, unreported: they
    start, and say what is wrong at each refresh until it is mended."""
    from printshop.project.loader import load_project

    if live:
        try:
            project = load_project(data, games=games, report=Report())
        except StageFailed:
            return True
    else:
        project = load_or_report(data, games)
    if project is None:
        return False
    if not any(variant in game.game.variants for game in project.games.values()):
        known = sorted({name for game in project.games.values() for name in game.game.variants})
        raise UsageError(
            f"no game here has the variant '{variant}' (variants: {', '.join(known) or 'none'})"
        )
    return True
