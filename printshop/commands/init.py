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
        epilog="Example: printshop init my-games --ci github",
        help="make a new project folder (printshop.toml, data/, templates/)",
        description="Make FOLDER (default: the working directory) a printshop project: a printshop.toml that "
        "names its data/, templates/ and output/ folders, the two folders, and a .gitignore for "
        "output/. Papers, card sizes, shop profiles, fonts and the common templates come with "
        "printshop; the project adds or overrides what it needs in data/print/. Then add a game "
        "with 'printshop new GAME'.",
    )
    initing.add_argument("folder", nargs="?", type=Path, default=Path("."), metavar="FOLDER")
    initing.add_argument(
        "--ci",
        choices=("github", "gitlab"),
        help="also write a CI workflow (in a folder that is a project already: only that): "
        "validate with annotations on pull requests, build the kits in 4 shards as artefacts, "
        "press files on tags (.github/workflows/printshop.yml or .gitlab-ci.yml)",
    )
    initing.add_argument(
        "--force", action="store_true", help="with --ci: write the workflow again over one there"
    )


def run(args: argparse.Namespace) -> int:
    from printshop.project.paths import PROJECT_FILE
    from printshop.project.scaffold import Made, ScaffoldError, init_project, write_ci

    folder = Path(args.folder)
    if args.force and not args.ci:
        raise UsageError("--force goes with --ci (init never writes over a project)")
    try:
        if args.ci and (folder / PROJECT_FILE).exists():  # a project already: the workflow only
            made = Made()
        else:
            made = init_project(folder)
        if args.ci:
            from printshop import __version__

            made.files += write_ci(folder, args.ci, __version__, force=args.force).files
    except ScaffoldError as error:
        raise UsageError(str(error)) from None
    for path in made.files:
        print(f"wrote {display_path(path)}")
    if args.ci:
        print(
            f"the {args.ci} workflow validates every change and builds the kits; check how it "
            "installs printshop (PRINTSHOP in the file), then commit it"
        )
        if not any(path.name == PROJECT_FILE for path in made.files):
            return 0
    elsewhere = (
        Path(args.folder).resolve() != Path.cwd().resolve()
    )  # (commands find the project from where they run)
    enter = f"cd {shlex.quote(str(args.folder))}, then " if elsewhere else ""
    print(
        f"{display_path(args.folder)} is a printshop project: {enter}add a game with 'printshop new GAME'"
    )
    return 0
