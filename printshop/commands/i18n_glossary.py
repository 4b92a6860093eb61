"""`printshop i18n glossary export|import`: a game's glossary (data/<game>/glossary.yaml) written as
TBX or CSV for translation tools, and read back. An import checks the whole file first (well
formed, every language described, every term with its source rendering) and writes nothing on any
error; then it writes glossary.yaml whole."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from printshop.commands.arguments import add_data, add_game_option, folder
from printshop.commands.common import UsageError, known_games, load_or_report, print_report
from printshop.diagnostics import Report, display_path

FORMATS = ("tbx", "csv")


def add_glossary_parser(actions: argparse._SubParsersAction) -> None:
    glossary = actions.add_parser(
        "glossary",
        help="a game's glossary as TBX or CSV for translation tools, and back",
        description="Write a game's terms (data/<game>/glossary.yaml) as TBX-Basic (TBX v3) or CSV for "
        "translation tools (Trados, memoQ, Weblate, a spreadsheet), and read such a file back into "
        "glossary.yaml. Validate warns where a translation renders a term otherwise.",
    )
    steps = glossary.add_subparsers(dest="glossary_action", metavar="STEP", required=True)
    exporting = steps.add_parser(
        "export",
        help="write <game>-glossary.tbx (or .csv) for each game with a glossary",
        description="Write <game>-glossary.tbx: one concept entry per term, its kind and note, each "
        "language's rendering as the preferred term and its other forms as admitted terms. "
        "--format csv writes id, kind, note and one column per language ('rendering | form').",
    )
    exporting.add_argument("games", nargs="*", metavar="GAME", help="default: all games")
    add_game_option(exporting)
    exporting.add_argument("--format", choices=FORMATS, default="tbx", help="default: tbx")
    exporting.add_argument(
        "--out", type=folder, default=Path("."), metavar="DIR", help="where to write (default: .)"
    )
    add_data(exporting)
    importing = steps.add_parser(
        "import",
        help="read a TBX or CSV glossary into data/<game>/glossary.yaml",
        description="Read a TBX (.tbx, .xml) or CSV (.csv) file into data/<game>/glossary.yaml, "
        "replacing it whole (keeping each term's case_sensitive, which TBX and CSV do not carry). "
        "Problems are shown at the file's line; any error means nothing is written.",
    )
    importing.add_argument("file", type=Path, metavar="FILE")
    importing.add_argument("--game", required=True, metavar="GAME")
    add_data(importing)


def run(args: argparse.Namespace) -> int:
    importing = args.glossary_action == "import"
    games = known_games(args.data, [args.game] if importing else args.games)
    project = load_or_report(args.data, games)
    if project is None:
        return 1
    return _import(args, project) if importing else _export(args, project)


def _export(args: argparse.Namespace, project) -> int:
    from printshop.language import glossary
    from printshop.write.commit import write_atomically

    written = 0
    for game in project.games.values():
        if game.glossary is None:
            continue
        records = glossary.records_of(game.glossary)
        source = game.game.source_language
        data = (
            glossary.to_tbx(records, source, f"{game.id}: glossary")
            if args.format == "tbx"
            else glossary.to_csv(records, source)
        )
        target = args.out / f"{game.id}-glossary.{args.format}"
        write_atomically(target, data)
        print(f"wrote {target} ({len(records)} terms)")
        written += 1
    if not written:
        print(
            "no game here has a glossary: write data/<game>/glossary.yaml first "
            "(docs/data-format.md, glossary)",
            file=sys.stderr,
        )
        return 1
    return 0


def _import(args: argparse.Namespace, project) -> int:
    from printshop.language import glossary
    from printshop.project.loader import GLOSSARY_FILE
    from printshop.write.commit import write_atomically

    game = project.games[args.game]
    path: Path = args.file
    if not path.is_file():
        raise UsageError(f"{path} does not exist")
    suffix = path.suffix.lower()
    if suffix not in (".tbx", ".xml", ".csv"):
        raise UsageError(f"{path}: a glossary is read from a .tbx (or .xml) or a .csv file")
    report = Report()
    data = path.read_bytes()
    reader = glossary.read_csv if suffix == ".csv" else glossary.read_tbx
    records = reader(data, path, report)
    if not report.has_errors:
        if not records:
            report.add("glossary", _place(path), "the file holds no terms")
        glossary.checked(records, project.languages, game.game.source_language, path, report)
    print_report(report)
    if report.has_errors:
        print(
            f"{game.id}: nothing imported; fix the file at the places shown and import again",
            file=sys.stderr,
        )
        return 1
    glossary.keep_case(records, game.glossary)
    target = game.dir / GLOSSARY_FILE
    write_atomically(target, glossary.to_yaml(records).encode("utf-8"))
    print(f"{display_path(target)}: {len(records)} terms")
    return 0


def _place(path: Path):
    from printshop.diagnostics import Location

    return Location.of(path)
