"""`printshop proof`: a PDF per translation for reviewers, each face beside its reference."""

from __future__ import annotations

import argparse
import sys

from printshop.commands.arguments import add_data, add_game_option, add_out, add_templates
from printshop.commands.common import check_folders, known_games, pages, print_report, summary
from printshop.diagnostics import Report, Severity


def add_parser(commands: argparse._SubParsersAction) -> None:
    proofing = commands.add_parser(
        "proof",
        help="a PDF for reviewers: each face of a translation beside its reference",
        description="Write, per game and translation, a PDF that shows every card face and sheet once, the "
        "translation on the left and the language it is made from on the right, at true size "
        "where the page allows, each with the text ids its frames print: "
        "OUT/<game>/<lang>/<game>-<lang>-proof-against-<ref>.pdf. Nothing is written unless every "
        "proof could be made.",
        epilog="Example: printshop proof comrade --lang fr",
    )
    proofing.add_argument("games", nargs="*", metavar="GAME", help="games to proof (default: all)")
    add_game_option(proofing)
    proofing.add_argument(
        "--lang",
        action="append",
        metavar="L",
        help="the language to proof (repeatable; default: every translation of each game)",
    )
    proofing.add_argument(
        "--against",
        metavar="L",
        help="the language to show beside it (default: the one the translation is made from; "
        "for a game's source language, its first other language)",
    )
    add_data(proofing)
    add_out(proofing)
    add_templates(proofing)
    proofing.add_argument(
        "--force",
        action="store_true",
        help="replace files there that printshop did not write (or that were changed since)",
    )


def run(args: argparse.Namespace) -> int:
    from printshop.render.proof import make_proofs

    games = known_games(args.data, args.games)
    check_folders(args)
    result = make_proofs(
        args.data,
        args.out,
        games=games,
        langs=args.lang,
        against=args.against,
        templates_dir=args.templates,
        force=args.force,
    )
    # what validate and build already say about the data is left to them, but for what stops the
    # proof
    print_report(
        Report(
            [
                d
                for d in result.report.items
                if d.severity is Severity.ERROR
                or d.severity is Severity.WARNING
                and not d.acknowledged
            ]
        )
    )
    if result.report.has_errors:
        print(f"proof failed ({summary(result.report)}); nothing was written", file=sys.stderr)
        return 1
    if not result.pages:
        print(
            "nothing to proof: these games have no translation (name one with --lang)",
            file=sys.stderr,
        )
        return 1
    for path, count in result.pages.items():
        print(
            f"{'wrote' if path in result.written else 'unchanged'} {path} ({pages(count)})",
            file=sys.stderr,
        )
    return 0
