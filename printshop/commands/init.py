"""`printshop init`: make a folder a printshop project (printshop.toml, data/, templates/)."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from printshop.commands.common import UsageError
from printshop.diagnostics import display_path


def add_parser(commands: argparse._SubParsersAction) -> None:
    initing = commands.add_parser(
        "init",
        help="make a new project folder (printshop.toml, data/, templates/)",
        description="Make FOLDER (default: the working directory) a printshop project: a printshop.toml that "
        "names its data/, templates/ and output/ folders, the two folders, and a .gitignore for "
        "output/. Papers, card sizes, shop profiles, fonts and the common templates come with "
        "printshop; the project adds or overrides what it needs in data/print/. Then add a game "
        "with 'printshop new GAME'.",
    )
    initing.add_argument("folder", nargs="?", type=Path, default=Path("."), metavar="FOLDER")


def run(args: argparse.Namespace) -> int:
    from printshop.project.scaffold import ScaffoldError, init_project

    try:
        made = init_project(args.folder)
    except ScaffoldError as error:
        raise UsageError(str(error)) from None
    for path in made.files:
        print(f"wrote {display_path(path)}")
    elsewhere = (
        Path(args.folder).resolve() != Path.cwd().resolve()
    )  # (commands find the project from where they run)
    enter = f"cd {shlex.quote(str(args.folder))}, then " if elsewhere else ""
    print(
        f"{display_path(args.folder)} is a printshop project: {enter}add a game with 'printshop new GAME'"
    )
    return 0
