"""The command line: a thin layer that parses arguments and calls the library.

Exit codes: 0 success, 1 errors in the data (or a failed build), 2 a usage error.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from printshop import __version__
from printshop.build import build, check
from printshop.diagnostics import Location, Report, format_report
from printshop.loader import DEFAULT_DATA_DIR, discover_games, load_project
from printshop.diagnostics import StageFailed
from printshop.resolve import deck_counts


class UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="printshop",
        description="Turn game data (data/) into print-and-play PDFs and rule booklets (output/).",
        epilog="Run 'printshop COMMAND --help' for each command's options.")
    parser.add_argument("--version", action="version", version=f"printshop {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    data_help = f"the data folder (default: {DEFAULT_DATA_DIR})"
    listing = commands.add_parser("list", help="list games, their components, counts and languages",
                                  description="List every game in the data folder: players, decks and the "
                                              "number of cards of each kind, and the languages it has texts for.")
    listing.add_argument("--data", type=Path, default=DEFAULT_DATA_DIR, metavar="DIR", help=data_help)

    building = commands.add_parser(
        "build", help="build print-and-play PDFs and rule booklets",
        description="Validate, lay out and render games into PDFs: for every language, the cards on each "
                    "paper size (fronts then mirrored backs, for long-edge duplex) and the rules booklet. "
                    "Nothing is written unless everything succeeds.",
        epilog="Example: printshop build comrade --lang fr --paper a4")
    building.add_argument("games", nargs="*", metavar="GAME", help="games to build (default: all)")
    building.add_argument("--lang", action="append", metavar="L", help="only this language (repeatable)")
    building.add_argument("--paper", action="append", metavar="PAPER",
                          help="only this paper for card sheets, e.g. a4 or letter (repeatable)")
    building.add_argument("--data", type=Path, default=DEFAULT_DATA_DIR, metavar="DIR", help=data_help)
    building.add_argument("--out", type=Path, default=Path("output"), metavar="DIR",
                          help="where to write (default: ./output)")
    building.add_argument("--quiet", action="store_true", help="print only errors")

    validating = commands.add_parser(
        "validate", help="check the data: decks, rules, texts and that every text fits",
        description="Check every game (or the ones named): data shape, deck composition, that each "
                    "supported player count can be set up, that every text exists in every language and "
                    "fits its frame. Prints 'file:line:col: severity[code]: message'. Exit 0 when clean, "
                    "1 when errors were found.")
    validating.add_argument("games", nargs="*", metavar="GAME", help="games to check (default: all)")
    validating.add_argument("--data", type=Path, default=DEFAULT_DATA_DIR, metavar="DIR", help=data_help)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return {"list": _list, "build": _build, "validate": _validate}[args.command](args)
    except UsageError as error:
        parser.error(str(error))  # exits with 2
        return 2
    except KeyboardInterrupt:
        print("interrupted; nothing was written", file=sys.stderr)
        return 130


def _known_games(data: Path, wanted: list[str]) -> list[str] | None:
    if not data.is_dir():
        raise UsageError(f"the data folder {data} does not exist")
    known = discover_games(data)
    unknown = [game for game in wanted if game not in known]
    if unknown:
        raise UsageError(f"unknown game(s): {', '.join(unknown)} (games: {', '.join(known) or 'none'})")
    return wanted or None


def _print_report(report: Report, stream=None) -> None:
    if report.items:
        print(format_report(report), file=stream or sys.stderr)


def _summary(report: Report) -> str:
    counts = report.counts()
    return ", ".join(f"{n} {severity.value}{'s' if n != 1 else ''}" for severity, n in counts.items())


def _list(args) -> int:
    report = Report()
    try:
        project = load_project(args.data, report=report)
    except StageFailed:
        _print_report(report)
        return 1
    for game in project.games.values():
        spec = game.game
        source = game.source
        title = source.entries[spec.title].text if source and spec.title in source.entries else game.id
        print(f"{game.id}: {title}, {spec.players.min}–{spec.players.max} players, about {spec.minutes} min")
        print(f"  languages: {', '.join(game.languages)} (source: {spec.source_language})")
        for deck_id, counts in deck_counts(game).items():
            deck = spec.decks[deck_id]
            kinds = ", ".join(f"{kind} {n}" for kind, n in counts.items() if kind != "total")
            print(f"  deck '{deck_id}': {counts['total']} cards, {deck.card_size} ({kinds})")
        if spec.booklet:
            print(f"  rules booklet: {project.booklet.paper}")
    return 0


def _validate(args) -> int:
    games = _known_games(args.data, args.games)
    report, _ = check(args.data, games=games)
    _print_report(report, sys.stdout)
    sys.stdout.flush()
    print(f"printshop validate: {_summary(report)}", file=sys.stderr)
    return 1 if report.has_errors else 0


def _build(args) -> int:
    games = _known_games(args.data, args.games)
    say = (lambda message: None) if args.quiet else (lambda message: print(message, file=sys.stderr, flush=True))
    result = build(args.data, args.out, games=games, langs=args.lang, papers=args.paper, progress=say)
    _print_report(result.report)
    if result.report.has_errors:
        print(f"build failed ({_summary(result.report)}); nothing was written", file=sys.stderr)
        return 1
    if not result.written:
        print("nothing to build (check the game and --lang names)", file=sys.stderr)
        return 1
    for output, path in zip(result.outputs, result.written):
        say(f"wrote {path} ({output.pages} pages, {output.description})")
    say(f"built {len(result.written)} files in {result.seconds:.1f} s")
    return 0
