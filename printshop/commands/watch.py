"""`printshop watch`: build the print-and-play kits, then rebuild what changed each time a data file
or template is saved (printshop.live.watch drives a printshop.live.session.Session)."""

from __future__ import annotations

import argparse
import sys

from printshop.commands.arguments import add_live_arguments, add_out
from printshop.commands.common import known_games, known_variant


def add_parser(commands: argparse._SubParsersAction) -> None:
    live = commands.add_parser(
        "watch",
        help="rebuild the PDFs whenever data or templates are saved",
        description=(
            "Build the print-and-play kits (what 'printshop build' writes by default), then keep the "
            "data in memory and, each time a data file or template is saved, read, lay out, draw and "
            "write only what changed; one line per rebuild, and the diagnostics. Press files and the "
            "other targets are for 'printshop build'. Ctrl-C stops."
        ),
    )
    add_live_arguments(live, "writes it (files get -NAME in their names)")
    add_out(live)
    live.add_argument(
        "--paper",
        action="append",
        metavar="PAPER",
        help="only this paper for card sheets (repeatable)",
    )
    live.add_argument(
        "--draft",
        action="store_true",
        help="also write translations that lack texts, as 'printshop build --draft' does: "
        "the texts they lack in the language they are made from, every page marked, "
        "file names ending in -draft (without it, such translations are left out)",
    )


def run(args: argparse.Namespace) -> int:
    from printshop.live.session import Session
    from printshop.live.watch import watch
    from printshop.pipeline.request import BuildRequest

    games = known_games(args.data, args.games)
    if args.variant:
        known_variant(args.data, games, args.variant, live=True)
    session = Session(BuildRequest.from_arguments(args, games))
    print(
        f"watching {args.data} and {session.templates_dir}; writing into {args.out} (Ctrl-C stops)",
        file=sys.stderr,
        flush=True,
    )
    try:
        watch(session, say=lambda line: print(line, file=sys.stderr, flush=True))
    except KeyboardInterrupt:
        pass
    print("stopped", file=sys.stderr)
    return 0
