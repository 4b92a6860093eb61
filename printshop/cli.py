"""The command line: a thin layer that parses arguments and calls the library.

Exit codes: 0 success, 1 errors in the data (or a failed build), 2 a usage error.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from printshop import __version__
from printshop.diagnostics import (CATALOGUE, FORMATS, Report, Severity, StageFailed, catalogue_markdown,
                                   display_path, format_report)
from printshop.paths import DEFAULT_DATA_DIR, discover_games

# The heavy modules (ReportLab, pydantic, ruamel.yaml) are imported where they are used, so that a
# build with nothing to do answers before they would have loaded.


def build(*args, **kwargs):
    from printshop.build import build as run_build

    return run_build(*args, **kwargs)


def check(*args, **kwargs):
    from printshop.build import check as run_check

    return run_check(*args, **kwargs)


def load_project(*args, **kwargs):
    from printshop.loader import load_project as run_load

    return run_load(*args, **kwargs)


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
    building.add_argument("--templates", type=Path, default=None, metavar="DIR",
                          help="the templates folder (default: templates/ beside the default data)")
    building.add_argument("--quiet", "-q", action="store_true",
                          help="print only errors (no progress bar, no list of files)")
    building.add_argument("--jobs", "-j", type=_positive, default=None, metavar="N",
                          help=f"render in N processes (default: one per core, here {os.cpu_count()})")
    building.add_argument("--shard", type=_shard, default=None, metavar="I/N",
                          help="build only the I-th of N equal slices of the jobs (game x language x paper or "
                               "profile), e.g. --shard 1/4 on the first of four CI machines")
    building.add_argument("--force", action="store_true",
                          help="render everything again, ignoring the cache in OUT/.printshop-cache")
    building.add_argument("--flip", choices=("long-edge", "short-edge"), default="long-edge",
                          help="how your printer turns the sheet for double-sided printing (default: long-edge)")
    building.add_argument("--back-offset", metavar="DX,DY", type=_offset, default=(0.0, 0.0),
                          help="move every back by DX,DY millimetres (right and up) to undo a duplex printer's "
                               "drift; measure it with the calibration page (output/calibration/)")
    building.add_argument("--gutterfold", action="store_true",
                          help="also write gutterfold card sheets (<deck>-gutterfold-<paper>.pdf): fronts above a "
                               "fold, backs below turned round; no duplex printer needed")
    building.add_argument("--low-ink", action="store_true",
                          help="white backgrounds and light fills, to save ink; files get -lowink in their names")
    building.add_argument("--target", choices=("pnp", "shop"), default="pnp",
                          help="pnp (default): print-and-play kits for home printers; shop: press files for "
                               "print shops, one folder per profile under output/<game>/<lang>/press/")
    building.add_argument("--profile", action="append", metavar="NAME",
                          help="with --target shop: a print-shop profile from data/print/profiles "
                               "(repeatable; default: all)")
    building.add_argument("--variant", metavar="NAME",
                          help="a naming variant (role names) for the games that define it, e.g. soviet; "
                               "files get -NAME in their names. 'printshop list' shows each game's variants")

    validating = commands.add_parser(
        "validate", help="check the data: decks, rules, texts and that every text fits",
        description="Check every game (or the ones named): data shape, deck composition, that each "
                    "supported player count can be set up, that every text exists in every language and "
                    "fits its frame. Prints 'file:line:col: severity[code]: message'. Exit 0 when clean, "
                    "1 when errors were found.")
    validating.add_argument("games", nargs="*", metavar="GAME", help="games to check (default: all)")
    validating.add_argument("--data", type=Path, default=DEFAULT_DATA_DIR, metavar="DIR", help=data_help)
    validating.add_argument("--templates", type=Path, default=None, metavar="DIR",
                            help="the templates folder (default: templates/ beside the default data)")
    validating.add_argument("--format", choices=FORMATS, default="text",
                            help="text (default): path:line:col: severity[code]: message; json: a list of "
                                 "objects; github: GitHub Actions annotations")
    validating.add_argument("--strict", action="store_true",
                            help="warnings fail the run too (exit 1), unless the data acknowledges them")

    flight = commands.add_parser(
        "preflight", help="check PDFs as a print shop would",
        description="Read PDFs back and check: TrimBox and BleedBox with the profile's bleed, fonts "
                    "embedded, and for CMYK profiles no RGB colour and no ink over the limit. Prints each "
                    "problem with its page; exit 1 when any is found.",
        epilog="Example: printshop preflight output/comrade/en/press/drivethrucards/*.pdf --profile drivethrucards")
    flight.add_argument("files", nargs="+", type=Path, metavar="FILE")
    flight.add_argument("--profile", metavar="NAME", help="a print-shop profile from data/print/profiles")
    flight.add_argument("--data", type=Path, default=DEFAULT_DATA_DIR, metavar="DIR", help=data_help)

    checks = commands.add_parser("checks", help="list every check validate runs, with its code and hint",
                                 description="List the catalogue of checks: code, severity, meaning, hint.")
    checks.add_argument("--markdown", action="store_true", help="print docs/checks.md")

    i18n = commands.add_parser(
        "i18n", help="translators' tools: status, sync, PO export and import",
        description="Tools for translators. Texts live in data/<game>/text/<lang>.yaml; see TRANSLATING.md.")
    actions = i18n.add_subparsers(dest="action", metavar="ACTION", required=True)
    stat = actions.add_parser("status", help="per game and language: translated, missing, stale, untranslated",
                              description="Count, per game and language, the texts that are translated, "
                                          "missing, stale (the source changed since) or untranslated.")
    stat.add_argument("games", nargs="*", metavar="GAME")
    stat.add_argument("--data", type=Path, default=DEFAULT_DATA_DIR, metavar="DIR", help=data_help)
    stat.add_argument("--verbose", "-v", action="store_true", help="also list every text that is not translated")
    syncing = actions.add_parser(
        "sync", help="bring a translation in line with its source",
        description="Add the ids a translation lacks (with the source text and a '# TODO: translate' mark), "
                    "move texts the source dropped to an 'obsolete:' section, keep comments and order, and "
                    "record which source text each translation was made from (<lang>.sources.yaml). "
                    "A new language starts here: its file is created.")
    syncing.add_argument("lang", metavar="LANG")
    syncing.add_argument("games", nargs="*", metavar="GAME", help="default: all games")
    syncing.add_argument("--data", type=Path, default=DEFAULT_DATA_DIR, metavar="DIR", help=data_help)
    exporting = actions.add_parser(
        "export", help="write a PO file per game for Poedit or Weblate",
        description="Write <game>-<lang>.po: msgctxt is the text id, msgid the source text, msgstr the "
                    "translation; stale texts are fuzzy with the previous source.")
    exporting.add_argument("lang", metavar="LANG")
    exporting.add_argument("games", nargs="*", metavar="GAME", help="default: all games")
    exporting.add_argument("--data", type=Path, default=DEFAULT_DATA_DIR, metavar="DIR", help=data_help)
    exporting.add_argument("--out", type=Path, default=Path("."), metavar="DIR", help="where to write (default: .)")
    importing = actions.add_parser(
        "import", help="read a translated PO file back into the game's text file",
        description="Read a PO file written by 'i18n export' (and edited in Poedit or Weblate) back into "
                    "data/<game>/text/<lang>.yaml, keeping comments and order. Fuzzy entries stay stale.")
    importing.add_argument("po", type=Path, metavar="FILE.po")
    importing.add_argument("--game", required=True, metavar="GAME")
    importing.add_argument("--lang", required=True, metavar="LANG")
    importing.add_argument("--data", type=Path, default=DEFAULT_DATA_DIR, metavar="DIR", help=data_help)
    return parser


def _offset(value: str) -> tuple[float, float]:
    """'1.5,-0.5' (millimetres) to points."""
    from printshop.units import mm

    try:
        dx, dy = (float(part) for part in value.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{value}' is not DX,DY in millimetres, e.g. 1.5,-0.5") from None
    if abs(dx) > 20 or abs(dy) > 20:
        raise argparse.ArgumentTypeError("an offset of more than 20 mm is a layout problem, not a printer's drift")
    return mm(dx), mm(dy)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return {"list": _list, "build": _build, "validate": _validate, "checks": _checks,
                "i18n": _i18n, "preflight": _preflight}[args.command](args)
    except UsageError as error:
        parser.error(str(error))  # exits with 2
        return 2
    except KeyboardInterrupt:
        print("interrupted; nothing was written", file=sys.stderr)
        return 130
    except Exception as error:  # noqa: BLE001 - the last guard: a message, not a traceback
        if os.environ.get("PRINTSHOP_DEBUG"):
            raise
        print(f"printshop: internal error: {type(error).__name__}: {error}\n"
              f"  nothing was written; run again with PRINTSHOP_DEBUG=1 to see the traceback, and report it",
              file=sys.stderr)
        return 1


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
        from printshop.resolve import deck_counts

        for deck_id, counts in deck_counts(game).items():
            deck = spec.decks[deck_id]
            kinds = ", ".join(f"{kind} {n}" for kind, n in counts.items() if kind != "total")
            print(f"  deck '{deck_id}': {counts['total']} cards, {deck.card_size} ({kinds})")
        if spec.sheets:
            print(f"  sheets: {', '.join(spec.sheets)}")
        if spec.variants:
            print(f"  naming variants (--variant): {', '.join(spec.variants)}")
        if spec.booklet:
            print(f"  rules booklet: {project.booklet.paper}")
    return 0


def _validate(args) -> int:
    games = _known_games(args.data, args.games)
    report, _ = check(args.data, games=games, templates_dir=args.templates)
    if args.format == "json" or report.items:
        print(format_report(report, style=args.format))
    sys.stdout.flush()
    print(f"printshop validate: {_summary(report)}{' (strict)' if args.strict else ''}", file=sys.stderr)
    return 1 if report.fails(strict=args.strict) else 0


def _preflight(args) -> int:
    from printshop.preflight import preflight, shop_trims

    profile, trims = None, None
    if args.profile:
        project = _load_or_report(args.data, [])
        if project is None:
            return 1
        if args.profile not in project.profiles:
            raise UsageError(f"no profile '{args.profile}' (profiles: {', '.join(project.profiles)})")
        profile = project.profiles[args.profile]
        trims = shop_trims(project.media, profile)
    failed = 0
    for path in args.files:
        if not path.is_file():
            raise UsageError(f"{path} does not exist")
        problems = preflight(path, profile, trims)
        for problem in problems:
            print(problem.format(display_path(path)))
        failed += bool(problems)
    print(f"printshop preflight: {len(args.files) - failed} of {len(args.files)} file(s) passed", file=sys.stderr)
    return 1 if failed else 0


def _checks(args) -> int:
    if args.markdown:
        print(catalogue_markdown())
        return 0
    for check_ in CATALOGUE.values():
        print(f"{check_.code:<20} {check_.severity.value:<8} {check_.summary}")
        print(f"{'':<20} {'':<8} hint: {check_.hint}")
    return 0


def _load_or_report(data: Path, games: list[str] | None):
    report = Report()
    try:
        return load_project(data, games=games, report=report)
    except StageFailed:
        _print_report(report)
        return None


def _i18n(args) -> int:
    from printshop import i18n

    if args.action == "import":
        games = _known_games(args.data, [args.game])
    else:
        games = _known_games(args.data, args.games)
    project = _load_or_report(args.data, games)
    if project is None:
        return 1
    if args.action == "status":
        rows = i18n.status(project, games)
        print(i18n.format_status(rows))
        if args.verbose:
            for row in rows:
                for text in row.texts:
                    if text.state != "translated":
                        where = text.translation.location if text.translation else text.source.location
                        print(f"{where}: {row.lang} {text.state}: {text.id}")
        return 0
    if args.action == "sync":
        if args.lang not in project.languages:
            raise UsageError(f"no language '{args.lang}': first describe it in {args.data / 'languages'}/"
                             f"{args.lang}.yaml (copy en.yaml and translate its labels)")
        for game in project.games.values():
            if args.lang == game.game.source_language:
                continue
            try:
                result = i18n.sync(game, args.lang)
            except i18n.SyncError as error:
                _print_report(error.report)
                return 1
            print(f"{display_path(result.path)}: {len(result.added)} added (marked TODO), {len(result.obsoleted)} moved to "
                  f"obsolete, {result.recorded} recorded as translated")
        return 0
    if args.action == "export":
        for game in project.games.values():
            if args.lang == game.game.source_language:
                continue
            target = args.out / f"{game.id}-{args.lang}.po"
            from printshop.write import write_atomically

            write_atomically(target, i18n.export_po(game, args.lang))
            print(f"wrote {target}")
        return 0
    game = project.games[args.game]
    if not args.po.is_file():
        raise UsageError(f"{args.po} does not exist")
    result = i18n.import_po(game, args.lang, args.po)
    _print_report(result.report)
    if result.report.has_errors:
        return 1
    print(f"{game.id} {args.lang}: {len(result.changed)} text(s) changed, {len(result.confirmed)} confirmed "
          f"against a newer source")
    return 0


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, not '{text}'")
    return value


def _shard(text: str) -> tuple[int, int]:
    part, _, parts = text.partition("/")
    try:
        shard = int(part), int(parts)
    except ValueError:
        shard = (0, 0)
    if not 1 <= shard[0] <= shard[1]:
        raise argparse.ArgumentTypeError(f"expected I/N with 1 <= I <= N, e.g. 2/4, not '{text}'")
    return shard


def _build(args) -> int:
    import time

    from printshop.cache import nothing_to_do

    started = time.monotonic()
    games = _known_games(args.data, args.games)
    say = (lambda message: None) if args.quiet else (lambda message: print(message, file=sys.stderr, flush=True))
    settings = dict(games=games, langs=args.lang, papers=args.paper, variant=args.variant, target=args.target,
                    profiles=args.profile, shard=args.shard, flip=args.flip, back_offset=args.back_offset,
                    gutterfold=args.gutterfold, low_ink=args.low_ink)
    if not args.force:  # before anything heavy is imported
        files = nothing_to_do(args.out, args.data, args.templates, settings)
        if files is not None:
            say(f"nothing changed since the last build: {len(files)} files up to date in "
                f"{time.monotonic() - started:.2f} s (--force renders them again)")
            return 0
    from printshop.progress import for_terminal
    if args.variant:
        project = _load_or_report(args.data, games)
        if project is None:
            return 1
        if not any(args.variant in game.game.variants for game in project.games.values()):
            known = sorted({name for game in project.games.values() for name in game.game.variants})
            raise UsageError(f"no game here has the variant '{args.variant}' (variants: {', '.join(known) or 'none'})")
    if args.profile and args.target != "shop":
        raise UsageError("--profile goes with --target shop")
    result = build(args.data, args.out, templates_dir=args.templates, jobs=args.jobs, force=args.force,
                   progress=for_terminal(args.quiet), **settings)
    shown = {Severity.ERROR} if args.quiet else {Severity.ERROR, Severity.WARNING}  # infos: see validate
    _print_report(Report([d for d in result.report.items if d.severity in shown]))
    if result.report.has_errors:
        print(f"build failed ({_summary(result.report)}); nothing was written", file=sys.stderr)
        return 1
    if result.up_to_date is not None:
        say(f"nothing changed since the last build: {len(result.up_to_date)} files up to date")
        return 0
    if not result.outputs:
        print("nothing to build (check the game and --lang names)", file=sys.stderr)
        return 1
    written = set(result.written)
    for output in result.outputs:
        if args.out / output.path in written:
            say(f"wrote {args.out / output.path} ({output.pages} pages, {output.description})")
    say(f"built {len(result.outputs)} files in {time.monotonic() - started:.1f} s: "
        f"{len(result.rendered_jobs)} jobs rendered, {len(result.cached_jobs)} from the cache; "
        f"{len(result.written)} files written, {len(result.unchanged)} already up to date")
    return 0
