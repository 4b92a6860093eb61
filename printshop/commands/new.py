"""`printshop new`: add a small working game to the project, to grow by hand."""

from __future__ import annotations

import argparse

from printshop.commands.common import UsageError, print_report
from printshop.diagnostics import Report, StageFailed, display_path
from printshop.project.paths import find_project


def add_parser(commands: argparse._SubParsersAction) -> None:
    newing = commands.add_parser(
        "new",
        help="add a small working game to the project, to grow by hand",
        description="Add data/GAME/ and templates/GAME/ to the project of the working directory: a deck of six "
        "cards with a shared back, a player aid, a rules booklet, the game's own colour "
        "(data/GAME/print/colours.yaml), its texts in the source language and a translation "
        "(English and French). It validates and builds at once; docs/data-format.md and "
        "docs/templates.md describe what to change.",
    )
    newing.add_argument(
        "game", metavar="GAME", help="the game's id: lower-case letters, digits and hyphens"
    )
    newing.add_argument("--title", help="the game's name as printed (default: from the id)")
    newing.add_argument(
        "--source",
        choices=("en", "fr"),
        default="en",
        help="the language the game is written in; the other is its first translation",
    )


def run(args: argparse.Namespace) -> int:
    from printshop.language import i18n
    from printshop.project.loader import load_project
    from printshop.project.scaffold import ScaffoldError, new_game

    project = find_project()
    if project.config is None:
        raise UsageError("this folder is not in a printshop project: run 'printshop init' first")
    try:
        made = new_game(project, args.game, title=args.title, source=args.source)
    except ScaffoldError as error:
        raise UsageError(str(error)) from None
    for path in made.files:
        print(f"wrote {display_path(path)}")
    report = Report()
    # record which source text each translation answers, so later edits of the source show as stale
    try:
        game = load_project(
            project.data, project.templates, games=[args.game], report=report
        ).games[args.game]
        for lang in game.languages[1:]:
            print(f"wrote {display_path(i18n.sync(game, lang).path.with_suffix('.sources.yaml'))}")
    except StageFailed:
        print_report(report)
        return 1
    print(f"next: 'printshop validate {args.game}', then 'printshop build {args.game}'")
    return 0
