"""The command line: a thin layer that parses arguments and calls the library.

Exit codes: 0 success, 1 errors in the data (or a failed build), 2 a usage error. A build that
leaves out an incomplete translation still succeeds (0), unless that language was asked for by
name with `--lang`: then the rest is written and the exit code is 1.
"""

from __future__ import annotations

import argparse
import gc
import os
import shlex
import sys
from pathlib import Path

from printshop import __version__
from printshop.diagnostics import (
    CATALOGUE,
    FORMATS,
    Report,
    Severity,
    StageFailed,
    catalogue_markdown,
    display_path,
    format_report,
    no_game_yet,
    printable,
)
from printshop.project.paths import (
    PACKAGE_DEFAULTS_DIR,
    ProjectFileError,
    default_jobs_text,
    discover_games,
    find_project,
)

# The heavy modules (ReportLab, pydantic, ruamel.yaml) are imported where they are used, so that a
# build with nothing to do answers before they would have loaded.


def build(*args, **kwargs):
    from printshop.pipeline.build import build as run_build

    return run_build(*args, **kwargs)


def check(*args, **kwargs):
    from printshop.pipeline.build import check as run_check

    return run_check(*args, **kwargs)


def load_project(*args, **kwargs):
    from printshop.project.loader import load_project as run_load

    return run_load(*args, **kwargs)


class UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="printshop",
        description="Turn game data (data/) into print-and-play kits, press files and rule booklets (output/). "
        "Works on the project of the working directory: the nearest folder with a printshop.toml "
        "(printshop init makes one).",
        epilog="Run 'printshop COMMAND --help' for each command's options.",
    )
    parser.add_argument("--version", action="version", version=f"printshop {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    data_help = (
        "the data folder (default: the project's, from printshop.toml; see 'printshop init')"
    )
    listing = commands.add_parser(
        "list",
        help="list games, their components, counts and languages",
        description="List every game in the data folder: players, decks and the "
        "number of cards of each kind, and the languages it has texts for.",
    )
    listing.add_argument("--data", type=Path, default=None, metavar="DIR", help=data_help)

    building = commands.add_parser(
        "build",
        help="build print-and-play PDFs and rule booklets",
        description="Validate, lay out and render games into PDFs: for every language, the cards on each "
        "paper size (fronts then mirrored backs, for long-edge duplex) and the rules booklet. "
        "Nothing is written unless everything succeeds. A translation that lacks texts is left "
        "out with a warning (exit 1 only if it was asked for with --lang); --draft builds it "
        "as a marked draft.",
        epilog="Example: printshop build comrade --lang fr --paper a4",
    )
    building.add_argument("games", nargs="*", metavar="GAME", help="games to build (default: all)")
    _game_option(building)
    building.add_argument(
        "--lang",
        action="append",
        metavar="L",
        help="only this language (repeatable); only its texts, those it is made from and the "
        "source are read and checked ('printshop validate' checks every language)",
    )
    building.add_argument(
        "--paper",
        action="append",
        metavar="PAPER",
        help="only this paper for card sheets, e.g. a4 or letter (repeatable)",
    )
    building.add_argument("--data", type=Path, default=None, metavar="DIR", help=data_help)
    building.add_argument(
        "--out",
        type=_folder,
        default=None,
        metavar="DIR",
        help="where to write (default: the project's output/)",
    )
    building.add_argument(
        "--templates",
        type=Path,
        default=None,
        metavar="DIR",
        help="the templates folder (default: templates/ beside the default data)",
    )
    building.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="print only errors (no progress bar, no list of files)",
    )
    building.add_argument(
        "--jobs",
        "-j",
        type=_positive,
        default=None,
        metavar="N",
        help="render in N processes (default: $PRINTSHOP_JOBS, else one per core this "
        f"process may use, {default_jobs_text()}); a build of one game, language and "
        "paper with N > 1 renders its rules, and draws part of a deck with 240 or more "
        "different faces, in a second process; --jobs 1 keeps it to one",
    )
    building.add_argument(
        "--shard",
        type=_shard,
        default=None,
        metavar="I/N",
        help="build only the I-th of N equal slices of the jobs (game x language x paper or "
        "profile), e.g. --shard 1/4 on the first of four CI machines",
    )
    building.add_argument(
        "--force",
        action="store_true",
        help="render everything again, ignoring the cache in OUT/.printshop-cache",
    )
    building.add_argument(
        "--flip",
        choices=("long-edge", "short-edge"),
        default="long-edge",
        help="how your printer turns the sheet for double-sided printing (default: long-edge)",
    )
    building.add_argument(
        "--back-offset",
        metavar="DX,DY",
        type=_offset,
        default=(0.0, 0.0),
        help="move every back by DX,DY millimetres (right and up) to undo a duplex printer's "
        "drift; measure it with the calibration page (output/calibration/)",
    )
    building.add_argument(
        "--gutterfold",
        action="store_true",
        help="also write gutterfold card sheets (<deck>-gutterfold-<paper>.pdf): fronts above a "
        "fold, backs below turned round; no duplex printer needed",
    )
    building.add_argument(
        "--low-ink",
        action="store_true",
        help="white backgrounds and light fills, to save ink; files get -lowink in their names",
    )
    building.add_argument(
        "--target",
        choices=("pnp", "shop", "tts", "cut", "preview"),
        default="pnp",
        help="pnp (default): print-and-play kits for home printers; shop: press files for "
        "print shops, one folder per profile under output/<game>/<lang>/press/; tts: "
        "Tabletop Simulator decks, boards and saved objects in .../tts/; cut: pages and SVG "
        "cut files for a print-and-cut machine in .../cut/<cutter>/ (see --cutter); "
        "preview: web previews with contact sheets, and Tabletopia and Screentop images, "
        "in .../preview/, .../tabletopia/, .../screentop/",
    )
    building.add_argument(
        "--cutter",
        action="append",
        metavar="NAME",
        help="with --target cut: a cutter from data/print/targets/cut, silhouette (Cameo, "
        "Portrait: registration marks on the pages) or cricut (Print Then Cut: images to "
        "upload to Design Space) (repeatable; default: all)",
    )
    building.add_argument(
        "--profile",
        action="append",
        metavar="NAME",
        help="with --target shop: a print-shop profile from data/print/profiles "
        "(repeatable; default: all)",
    )
    building.add_argument(
        "--variant",
        metavar="NAME",
        help="a naming variant (role names) for the games that define it, e.g. soviet; "
        "files get -NAME in their names. 'printshop list' shows each game's variants",
    )
    building.add_argument(
        "--draft",
        action="store_true",
        help="also build translations that lack texts, as drafts: the missing texts print in "
        "the language they are made from, every page says 'DRAFT, 63%% translated' and "
        "file names end in -draft (without it, such translations are left out)",
    )

    validating = commands.add_parser(
        "validate",
        help="check the data: decks, rules, texts and that every text fits",
        description="Check every game (or the ones named): data shape, deck composition, that each "
        "supported player count can be set up, that every text exists in every language and "
        "fits its frame. Prints 'file:line:col: severity[code]: message'. Exit 0 when clean, "
        "1 when errors were found. What fitting each text came to is kept in your cache folder "
        "(~/.cache/printshop, or $PRINTSHOP_CACHE; 'off' turns it off), so the next run fits "
        "only the texts, fonts or frames that changed; the report is the same either way.",
    )
    validating.add_argument(
        "games", nargs="*", metavar="GAME", help="games to check (default: all)"
    )
    _game_option(validating)
    validating.add_argument("--data", type=Path, default=None, metavar="DIR", help=data_help)
    validating.add_argument(
        "--templates",
        type=Path,
        default=None,
        metavar="DIR",
        help="the templates folder (default: templates/ beside the default data)",
    )
    validating.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text (default): path:line:col: severity[code]: message; json: a list of "
        "objects; github: GitHub Actions annotations",
    )
    validating.add_argument(
        "--strict",
        action="store_true",
        help="warnings fail the run too (exit 1), unless the data acknowledges them",
    )
    validating.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="print only what fails the run (errors; with --strict, warnings not acknowledged "
        "too) and the summary line; the exit code is the same",
    )
    validating.add_argument(
        "--jobs",
        "-j",
        type=_positive,
        default=None,
        metavar="N",
        help="lay out the games in N processes (default: $PRINTSHOP_JOBS, else one per core "
        f"this process may use, {default_jobs_text()}); "
        "the report is the same",
    )

    flight = commands.add_parser(
        "preflight",
        help="check PDFs and card images as a print shop would",
        description="Read press files back, including ones printshop did not write, and check them against "
        "a profile. PDFs: boxes and bleed, trim, every colour operator, space, shading, image and "
        "inline image (RGB in CMYK files, total ink at the worst point, overprint), transparency, "
        "image resolution, fonts, encryption and the PDF/X keys. PNG and JPEG faces: pixel size, "
        "resolution metadata, colour mode and alpha. Prints each problem with its page, then one "
        "line per file; exit 0 when clean, 1 when any problem is found (warnings do not fail).",
        epilog="Example: printshop preflight output/comrade/en/press/drivethrucards/*.pdf --profile drivethrucards",
    )
    flight.add_argument("files", nargs="+", type=Path, metavar="FILE")
    flight.add_argument(
        "--profile",
        metavar="NAME",
        help="a print-shop profile: printshop's own or the project's (data/print/profiles/)",
    )
    flight.add_argument("--data", type=Path, default=None, metavar="DIR", help=data_help)

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
    _game_option(proofing)
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
    proofing.add_argument("--data", type=Path, default=None, metavar="DIR", help=data_help)
    proofing.add_argument(
        "--out",
        type=_folder,
        default=None,
        metavar="DIR",
        help="where to write (default: the project's output/)",
    )
    proofing.add_argument(
        "--templates",
        type=Path,
        default=None,
        metavar="DIR",
        help="the templates folder (default: templates/ beside the default data)",
    )

    for name in ("watch", "serve"):
        live = commands.add_parser(
            name,
            help="rebuild the PDFs whenever data or templates are saved"
            if name == "watch"
            else "a local page that shows every face and updates itself on save",
            description=(
                "Build the print-and-play kits (what 'printshop build' writes by default), then keep the "
                "data in memory and, each time a data file or template is saved, read, lay out, draw and "
                "write only what changed; one line per rebuild, and the diagnostics. Press files and the "
                "other targets are for 'printshop build'. Ctrl-C stops."
                if name == "watch"
                else "Serve a page (http://127.0.0.1:8000/ by default) showing every card face and sheet of "
                "the games as images, then each rules booklet page by page, one column per language, with "
                "the validator's diagnostics beside the faces and pages they concern (click one to see "
                "it). Saving a data file or template "
                "updates the open page; errors show on the page and the server keeps running. A "
                "translation that lacks texts is shown as it stands, marked as a draft, the texts it "
                "lacks in the language it is made from: translate next to its cards."
            ),
        )
        live.add_argument("games", nargs="*", metavar="GAME", help="games to show (default: all)")
        _game_option(live)
        live.add_argument(
            "--lang",
            action="append",
            metavar="L",
            help="only this language (repeatable); only its texts, those it is made from and the "
            "source are read and checked",
        )
        live.add_argument("--data", type=Path, default=None, metavar="DIR", help=data_help)
        live.add_argument(
            "--templates",
            type=Path,
            default=None,
            metavar="DIR",
            help="the templates folder (default: templates/ beside the default data)",
        )
        live.add_argument(
            "--variant",
            metavar="NAME",
            help="a naming variant (role names) for the games that define it, e.g. soviet, as "
            "'printshop build --variant' "
            + ("writes it (files get -NAME in their names)" if name == "watch" else "lays it out")
            + "; the other games keep their names. 'printshop list' shows each game's variants",
        )
        if name == "watch":
            live.add_argument(
                "--out",
                type=_folder,
                default=None,
                metavar="DIR",
                help="where to write (default: the project's output/)",
            )
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
        else:
            live.add_argument(
                "--host",
                default="127.0.0.1",
                help="the address to listen on (default: 127.0.0.1, this computer only)",
            )
            live.add_argument(
                "--port", type=_port, default=8000, help="the port (default: 8000; 0: any free one)"
            )

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
    checks = commands.add_parser(
        "checks",
        help="list every check validate runs, with its code and hint",
        description="List the catalogue of checks: code, severity, meaning, hint.",
    )
    checks.add_argument("--markdown", action="store_true", help="print docs/checks.md")

    schemas = commands.add_parser(
        "schema",
        help="write a JSON Schema per kind of data file, for editors (schemas/)",
        description="Write one JSON Schema per kind of data file (media, fonts, colours, motifs, booklet, "
        "profile, language, game, faces, text), with each key's description, so that an editor's "
        "YAML language server completes and checks keys while you type (docs/data-format.md "
        "shows how to set up VS Code).",
    )
    schemas.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="where to write (default: schemas/ in the project: the folder of its printshop.toml, "
        "else the working directory)",
    )
    documenting = commands.add_parser(
        "docs",
        help="write the reference docs generated from the code (docs/data-format.md, docs/templates.md)",
        description="Write docs/data-format.md (every data file and key) and docs/templates.md (what each kind of "
        "template receives) from the code, and docs/checks.md from the catalogue of checks.",
    )
    documenting.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="where to write (default: docs/ in the project: the folder of its printshop.toml, "
        "else the working directory)",
    )
    documenting.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if a file differs from what the code gives",
    )

    i18n = commands.add_parser(
        "i18n",
        help="translators' tools: status, sync, PO export and import",
        description="Tools for translators. Texts live in data/<game>/text/<lang>.yaml; see TRANSLATING.md.",
    )
    actions = i18n.add_subparsers(dest="action", metavar="ACTION", required=True)
    stat = actions.add_parser(
        "status",
        help="per game and language: translated, missing, stale, untranslated",
        description="Count, per game and language, the texts that are translated, "
        "missing, stale (the source changed since) or untranslated (a copy "
        "still marked '# TODO: translate', or a sentence identical to its "
        "source), and the share done (stale texts count as done).",
    )
    stat.add_argument("games", nargs="*", metavar="GAME")
    _game_option(stat)
    stat.add_argument("--data", type=Path, default=None, metavar="DIR", help=data_help)
    stat.add_argument(
        "--verbose", "-v", action="store_true", help="also list every text that is not translated"
    )
    syncing = actions.add_parser(
        "sync",
        help="bring a translation in line with its source",
        description="Add the ids a translation lacks (with the source text and a '# TODO: translate' mark), "
        "move texts the source dropped to an 'obsolete:' section, keep comments and order, and "
        "record which source text each translation was made from (<lang>.sources.yaml). "
        "A new language starts here: its file is created.",
    )
    syncing.add_argument("lang", metavar="LANG")
    syncing.add_argument("games", nargs="*", metavar="GAME", help="default: all games")
    _game_option(syncing)
    syncing.add_argument("--data", type=Path, default=None, metavar="DIR", help=data_help)
    confirming = actions.add_parser(
        "confirm",
        help="confirm that stale (or kept-as-is) translations are still right",
        description="Record that the translation of each text named is right as it stands: a stale text "
        "(its source changed since) is recorded against the current source, and a copy still "
        "marked '# TODO: translate' loses the mark and counts as translated. What removing "
        "'fuzzy' does in Poedit, for those who edit the YAML.",
        epilog="Example: printshop i18n confirm fr card.informer.goal --game comrade",
    )
    confirming.add_argument("lang", metavar="LANG")
    confirming.add_argument(
        "ids", nargs="*", metavar="ID", help="text ids, e.g. card.informer.goal"
    )
    confirming.add_argument(
        "--game", action="append", metavar="GAME", help="only this game (repeatable; default: all)"
    )
    confirming.add_argument(
        "--all-stale", action="store_true", help="every stale text (instead of naming ids)"
    )
    confirming.add_argument("--data", type=Path, default=None, metavar="DIR", help=data_help)
    exporting = actions.add_parser(
        "export",
        help="write a PO file per game for Poedit or Weblate",
        description="Write <game>-<lang>.po: msgctxt is the text id, msgid the source text, msgstr the "
        "translation; stale texts are fuzzy with the previous source. '#:' gives the text's line "
        "in the YAML files, '#.' the cards and frames that print it and about how many characters "
        "fit there.",
    )
    exporting.add_argument("lang", metavar="LANG")
    exporting.add_argument("games", nargs="*", metavar="GAME", help="default: all games")
    _game_option(exporting)
    exporting.add_argument("--data", type=Path, default=None, metavar="DIR", help=data_help)
    exporting.add_argument(
        "--out", type=_folder, default=Path("."), metavar="DIR", help="where to write (default: .)"
    )
    importing = actions.add_parser(
        "import",
        help="read a translated PO file back into the game's text file",
        description="Read a PO file written by 'i18n export' (and edited in Poedit or Weblate) back into "
        "data/<game>/text/<lang>.yaml, keeping comments and order. Fuzzy entries stay stale. "
        "Each text it changes or confirms is checked as validate checks it; problems are shown at "
        "the PO file's line, and an error means nothing is written.",
    )
    importing.add_argument("po", type=Path, metavar="FILE.po")
    importing.add_argument("--game", required=True, metavar="GAME")
    importing.add_argument("--lang", required=True, metavar="LANG")
    importing.add_argument("--data", type=Path, default=None, metavar="DIR", help=data_help)
    return parser


def _offset(value: str) -> tuple[float, float]:
    """'1.5,-0.5' (millimetres) to points."""
    import math

    from printshop.project.units import mm

    try:
        dx, dy = (float(part) for part in value.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"'{value}' is not DX,DY in millimetres, e.g. 1.5,-0.5"
        ) from None
    if not (math.isfinite(dx) and math.isfinite(dy)):
        raise argparse.ArgumentTypeError(
            f"'{value}' is not DX,DY in millimetres: both must be numbers, e.g. 1.5,-0.5"
        )
    if abs(dx) > 20 or abs(dy) > 20:
        raise argparse.ArgumentTypeError(
            "an offset of more than 20 mm is a layout problem, not a printer's drift"
        )
    return mm(dx), mm(dy)


def _pages(count: int) -> str:
    return "1 page" if count == 1 else f"{count} pages"


ONE_SHOT = (
    "build",
    "validate",
)  # commands whose process ends with os._exit when run as `printshop`


def _game_option(command) -> None:
    """`--game G` beside a command's GAME arguments: 'i18n confirm' and 'i18n import' name their game so, and a
    translator who learnt it there types it everywhere (argparse said only "unrecognized arguments")."""
    command.add_argument(
        "--game",
        action="append",
        dest="games_named",
        metavar="GAME",
        help="the same as naming GAME (repeatable)",
    )


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if getattr(args, "games_named", None):
        args.games = [*(args.games or []), *args.games_named]
    one_shot = argv is None and args.command in ONE_SHOT
    if one_shot:
        # these run with the cycle collector off (build.without_cycle_collection) and the process ends with
        # os._exit below, its objects never freed: turned back on, the collector's first pass would walk
        # everything the build made (0.1 s after a 1,000-card deck) only to find it all still in use
        gc.disable()
    code = _dispatch(parser, args)
    if one_shot:
        # the `printshop` process itself, its files written and synced: exit now, not after Python has freed
        # every object one by one (a tenth of a second and more after a large build)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    return code


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    try:  # the project of the working directory gives the folders not named on the command line
        project = find_project()
    except (
        ProjectFileError
    ) as error:  # exit 2, as a usage error: a broken printshop.toml is the user's to fix
        print(
            f"{error}\n  hint: a project file names the project's folders: data, templates, output "
            f"(see printshop init --help)",
            file=sys.stderr,
        )
        return 2
    if hasattr(args, "data"):  # a command that works on a project's games
        for name, folder in (
            ("data", project.data),
            ("out", project.output),
            ("templates", project.templates),
        ):
            if getattr(args, name, False) is None and (
                name != "templates" or project.templates.is_dir()
            ):
                setattr(args, name, folder)
    # a command that runs once and exits leaves Python's cycle collector off (a fifth of a build's time,
    # imports included, went on walking objects that live to the end); watch and serve keep it
    collecting = gc.isenabled()
    if args.command not in ("watch", "serve"):
        gc.disable()
    try:
        return {
            "list": _list,
            "build": _build,
            "validate": _validate,
            "checks": _checks,
            "i18n": _i18n,
            "preflight": _preflight,
            "proof": _proof,
            "watch": _watch,
            "schema": _schema,
            "docs": _docs,
            "init": _init,
            "new": _new,
            "serve": _serve,
        }[args.command](args)
    except UsageError as error:
        parser.error(printable(str(error)))  # exits with 2
        return 2
    except BrokenPipeError:  # `printshop list | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except KeyboardInterrupt as interrupt:
        result = getattr(
            interrupt, "result", None
        )  # build.BuildInterrupted: it came after the write
        if result is not None:
            print(
                f"interrupted after the new files were all in place: {len(result.written)} written, "
                f"{len(result.unchanged)} already up to date",
                file=sys.stderr,
            )
        else:
            print("interrupted; nothing was written", file=sys.stderr)
        return 130
    except Exception as error:  # noqa: BLE001 - a bad request the library found (unknown paper or language)
        if type(error).__name__ != "BadRequest":
            return _internal(error)
        print(f"{parser.prog}: error: {printable(str(error))}", file=sys.stderr)
        return 2
    finally:
        if collecting:
            gc.enable()


def _internal(error: Exception) -> int:
    """The last guard: a message, not a traceback (a bug in printshop)."""
    if os.environ.get("PRINTSHOP_DEBUG"):
        raise error
    print(
        printable(f"printshop: internal error: {type(error).__name__}: {error}") + "\n"
        "  this is a bug in printshop: please report it, with this message and the traceback that\n"
        "  PRINTSHOP_DEBUG=1 printshop ... shows; a build writes its files all at once, at the end, so a failure\n"
        "  before then left the output folder as it was",
        file=sys.stderr,
    )
    return 1


def _check_folders(args) -> None:
    """Folders named on the command line that cannot be right are usage errors (exit 2)."""
    templates = getattr(args, "templates", None)
    if templates is not None and not templates.is_dir():
        raise UsageError(f"the templates folder {templates} does not exist (--templates)")


def _known_games(data: Path, wanted: list[str]) -> list[str] | None:
    if not data.is_dir() or (data / "game.yaml").is_file():
        where = find_project()
        named_here = Path(os.path.abspath(data)) != Path(
            os.path.abspath(where.data)
        )  # by --data, not the project
        named = "--data" if named_here or where.config is None else str(where.config)
        if data.is_file():
            raise UsageError(
                f"the data folder {data} is a file ({named}): name the folder that holds the games"
            )
        if (
            data.is_dir()
        ):  # a game's own folder given for the data folder: no game would be found in it
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
    known = discover_games(data)
    unknown = [game for game in wanted if game not in known]
    if unknown:
        raise UsageError(
            f"unknown game(s): {', '.join(unknown)} (games: {', '.join(known) or 'none'})"
        )
    return wanted or None


def _print_report(report: Report, stream=None) -> None:
    if report.items:
        print(format_report(report), file=stream or sys.stderr)


def _summary(report: Report) -> str:
    counts = report.counts()
    accepted = sum(
        1 for d in dict.fromkeys(report.items) if d.severity is Severity.WARNING and d.acknowledged
    )
    return ", ".join(
        f"{n} {severity.value}{'s' if n != 1 else ''}"
        + (f" ({accepted} acknowledged)" if severity is Severity.WARNING and accepted else "")
        for severity, n in counts.items()
    )


def _list(args) -> int:
    _known_games(args.data, [])  # (a data folder that is none: said as every command says it)
    report = Report()
    try:
        project = load_project(args.data, report=report)
    except StageFailed:
        _print_report(report)
        return 1
    for game in project.games.values():
        spec = game.game
        source = game.source
        title = (
            source.entries[spec.title].text if source and spec.title in source.entries else game.id
        )
        print(
            f"{game.id}: {title}, {spec.players.min}–{spec.players.max} players, about {spec.minutes} min"
        )
        print(f"  languages: {', '.join(game.languages)} (source: {spec.source_language})")
        from printshop.language.resolve import deck_counts

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
    from printshop.pipeline.build import default_workers

    default = (
        default_workers()
    )  # a malformed $PRINTSHOP_JOBS is refused with --jobs too, as in `build`
    jobs = args.jobs or default
    games = _known_games(args.data, args.games)
    _check_folders(args)
    from printshop.write.fitstore import kept_fits

    with kept_fits():  # what each text's fitting came to in earlier runs (fitstore.py)
        report, _ = check(
            args.data, games=games, templates_dir=args.templates, keep_layouts=False, jobs=jobs
        )
    shown = report
    if args.quiet:  # what fails the run, as `build -q` shows its errors only (the summary still counts everything)
        shown = Report(
            [
                d
                for d in report.items
                if d.severity is Severity.ERROR
                or args.strict
                and d.severity is Severity.WARNING
                and not d.acknowledged
            ]
        )
    if args.format == "json" or shown.items:
        print(format_report(shown, style=args.format))
    sys.stdout.flush()
    print(
        f"printshop validate: {_summary(report)}{' (strict)' if args.strict else ''}",
        file=sys.stderr,
    )
    if not report.items and not discover_games(
        args.data
    ):  # a new project: nothing wrong, and nothing checked
        print(f"{no_game_yet(args.data)} to grow by hand", file=sys.stderr)
    return 1 if report.fails(strict=args.strict) else 0


def _proof(args) -> int:
    from printshop.render.proof import make_proofs

    games = _known_games(args.data, args.games)
    _check_folders(args)
    result = make_proofs(
        args.data,
        args.out,
        games=games,
        langs=args.lang,
        against=args.against,
        templates_dir=args.templates,
    )
    # what validate and build already say about the data is left to them, but for what stops the proof
    _print_report(
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
        print(f"proof failed ({_summary(result.report)}); nothing was written", file=sys.stderr)
        return 1
    if not result.pages:
        print(
            "nothing to proof: these games have no translation (name one with --lang)",
            file=sys.stderr,
        )
        return 1
    for path, pages in result.pages.items():
        print(
            f"{'wrote' if path in result.written else 'unchanged'} {path} ({_pages(pages)})",
            file=sys.stderr,
        )
    return 0


def _preflight(args) -> int:
    from printshop.checks.preflight import preflight, shop_trims

    profile, trims = None, None
    if args.profile:
        project = _load_or_report(args.data, [])
        if project is None:
            return 1
        if args.profile not in project.profiles:
            off = (
                " (switched off in this project: use: false)"
                if args.profile in project.profiles_off
                else ""
            )
            raise UsageError(
                f"no profile '{args.profile}'{off} (profiles: {', '.join(project.profiles)})"
            )
        profile = project.profiles[args.profile]
        trims = shop_trims(project.media, profile)
    for path in args.files:
        if not path.is_file():
            raise UsageError(f"{path} does not exist")
    failed, total = 0, 0
    for path in args.files:
        found = preflight(path, profile, trims)
        for problem in found:
            print(problem.format(display_path(path)))
        problems = [problem for problem in found if not problem.warning]
        warnings = len(found) - len(problems)
        failed += bool(problems)
        total += len(problems)
        print(f"{display_path(path)}: {_preflight_summary(problems, warnings)}")
    sys.stdout.flush()
    print(
        f"printshop preflight: {len(args.files) - failed} of {len(args.files)} file(s) passed, "
        f"{total} problem{'s' if total != 1 else ''}",
        file=sys.stderr,
    )
    return 1 if failed else 0


def _preflight_summary(problems, warnings: int) -> str:
    """'ok', or '3 problems on 2 pages' (and those of the file as a whole), and the warnings."""
    if not problems:
        text = "ok"
    else:
        pages = len({problem.page for problem in problems if problem.page})
        whole = sum(1 for problem in problems if not problem.page)
        text = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        if pages:
            text += f" on {pages} page{'s' if pages != 1 else ''}"
        if whole and pages:
            text += f" ({whole} for the whole file)"
    if warnings:
        text += f", {warnings} warning{'s' if warnings != 1 else ''}"
    return text


def _init(args) -> int:
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


def _new(args) -> int:
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
    try:  # record which source text each translation answers, so later edits of the source show as stale
        game = load_project(
            project.data, project.templates, games=[args.game], report=report
        ).games[args.game]
        for lang in game.languages[1:]:
            print(f"wrote {display_path(i18n.sync(game, lang).path.with_suffix('.sources.yaml'))}")
    except StageFailed:
        _print_report(report)
        return 1
    print(f"next: 'printshop validate {args.game}', then 'printshop build {args.game}'")
    return 0


def _schema(args) -> int:
    from printshop.project.reference import schema_texts, write_texts

    folder = args.out or find_project().root / "schemas"  # (never the installed package's folder)
    written = write_texts(schema_texts(), folder)
    print(
        f"{len(written)} schema(s) written to {display_path(folder)}"
        if written
        else f"the schemas in {display_path(folder)} are up to date"
    )
    return 0


def _docs(args) -> int:
    from printshop.project.reference import doc_texts, write_texts

    folder = args.out or find_project().root / "docs"
    texts = dict(doc_texts(), **{"checks.md": catalogue_markdown() + "\n"})
    if args.check:
        stale = [
            name
            for name, text in texts.items()
            if not (folder / name).is_file() or (folder / name).read_text(encoding="utf-8") != text
        ]
        for name in stale:
            print(f"{display_path(folder / name)} differs from the code: run 'printshop docs'")
        return 1 if stale else 0
    written = write_texts(texts, folder)
    print(
        f"{len(written)} file(s) written to {display_path(folder)}"
        if written
        else f"the docs in {display_path(folder)} are up to date"
    )
    return 0


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
    from printshop.language import i18n

    lang = getattr(args, "lang", None)
    if (
        args.action in ("sync", "confirm", "export")
        and args.data.is_dir()
        and lang in discover_games(args.data)
    ):
        # `i18n sync comrade de`: the game named where the language goes
        if (
            args.action == "confirm"
        ):  # (its games are named with --game, its texts after the language)
            example = f"printshop i18n confirm LANG ID… --game {lang}"
        else:
            after = (args.games or ["LANG"])[0]
            example = f"printshop i18n {args.action} {after} {lang}"
        raise UsageError(
            f"'{lang}' is a game, not a language: the language comes first ({example})"
        )
    if args.action == "import":
        games = _known_games(args.data, [args.game])
    elif args.action == "confirm":
        games = _known_games(args.data, args.game or [])
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
                untracked = set(row.untracked)
                for text in row.texts:
                    state = "untracked" if text.id in untracked else text.state
                    if state != "translated":
                        where = (
                            text.translation.location if text.translation else text.source.location
                        )
                        print(f"{where}: {row.lang} {state}: {text.id}")
        return 0
    if args.action == "confirm":
        return _confirm(args, project)
    if args.action == "sync":
        if args.lang not in project.languages:
            raise UsageError(
                f"no language '{args.lang}': first describe it in {args.data / 'languages'}/"
                f"{args.lang}.yaml (start from printshop's {PACKAGE_DEFAULTS_DIR / 'languages' / 'en.yaml'} "
                "and translate its labels; TRANSLATING.md says how)"
            )
        for game in project.games.values():
            if args.lang == game.game.source_language:
                continue
            try:
                result = i18n.sync(game, args.lang)
            except i18n.SyncError as error:
                _print_report(error.report)
                return 1
            print(
                f"{display_path(result.path)}: {len(result.added)} added (marked TODO), {len(result.obsoleted)} moved to "
                f"obsolete, {result.recorded} recorded as translated"
            )
        return 0
    if args.action == "export":
        from printshop.write.commit import write_atomically

        for game in project.games.values():
            if args.lang == game.game.source_language:
                continue
            target = args.out / f"{game.id}-{args.lang}.po"
            # the `#.` comments: where each text prints, from the game laid out in its source language
            _, checked = check(
                args.data, games=[game.id], langs=[game.game.source_language], variant=None
            )
            printed = i18n.where_printed(checked, game.id) if checked is not None else {}
            write_atomically(target, i18n.export_po(game, args.lang, printed))
            print(f"wrote {target}")
        return 0
    game = project.games[args.game]
    if not args.po.is_file():
        raise UsageError(f"{args.po} does not exist")
    result = i18n.import_po(game, args.lang, args.po, project=project)
    _print_report(result.report)
    if result.report.has_errors:
        print(
            f"{game.id} {args.lang}: nothing imported; fix the entries shown in {args.po} and import again",
            file=sys.stderr,
        )
        return 1
    print(
        f"{game.id} {args.lang}: {len(result.changed)} text(s) changed, {len(result.confirmed)} confirmed "
        f"against a newer source"
    )
    return 0


def _confirm(args, project) -> int:
    from printshop.language import i18n

    if bool(args.ids) == bool(args.all_stale):
        raise UsageError("name the text ids to confirm, or give --all-stale")
    games = [
        game
        for game in project.games.values()
        if args.lang in game.catalogues and args.lang != game.game.source_language
    ]
    if not games:
        raise UsageError(f"no game here has a '{args.lang}' translation")
    known = {text_id for game in games for text_id in game.reference(args.lang).entries}
    unknown = [text_id for text_id in args.ids if text_id not in known]
    if unknown:
        raise UsageError(
            f"no text {', '.join(unknown)} in {', '.join(game.id for game in games)} "
            f"('printshop i18n status --verbose' lists the texts to confirm)"
        )
    for game in games:
        ids = (
            None
            if args.all_stale
            else [text_id for text_id in args.ids if text_id in game.reference(args.lang).entries]
        )
        if ids == []:
            continue
        result = i18n.confirm(game, args.lang, ids)
        for text_id in result.missing:
            print(
                f"{game.id} {args.lang}: '{text_id}' has no translation to confirm", file=sys.stderr
            )
        print(
            f"{display_path(result.path)}: {len(result.confirmed)} stale text(s) confirmed, "
            f"{len(result.unmarked)} kept as they are (TODO mark removed), {len(result.unchanged)} already up to date"
        )
    return 0


def _folder(text: str) -> Path:
    """A folder to write into: `--out ""` would otherwise mean the current folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the folder is empty: name one, e.g. --out output")
    return Path(text)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, not '{text}'")
    return value


def _port(text: str) -> int:
    """A TCP port, 0 to 65535: the system takes a larger number modulo 65536 (99999 listened on 34463)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(
            f"a port is a whole number from 1 to 65535 (0: any free one), not '{text}'"
        )
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

    from printshop.write.cache import nothing_to_do

    started = time.monotonic()
    games = _known_games(args.data, args.games)
    _check_folders(args)
    say = (
        (lambda message: None)
        if args.quiet
        else (lambda message: print(printable(message), file=sys.stderr, flush=True))
    )
    from printshop.pipeline.request import BuildRequest

    request = BuildRequest.from_arguments(args, games)
    if args.draft and args.target == "shop":
        raise UsageError(
            "--draft makes print-and-play proofs; press files are for release (drop --target shop)"
        )
    if not args.force:  # before anything heavy is imported
        files = nothing_to_do(args.out, args.data, args.templates, request.settings())
        if files is not None:
            say(
                f"nothing changed since the last build: {len(files)} files up to date in "
                f"{time.monotonic() - started:.2f} s (--force renders them again)"
            )
            return 0
    from printshop.pipeline.progress import for_terminal

    if args.variant and not _known_variant(args.data, games, args.variant):
        return 1
    if args.profile and args.target != "shop":
        raise UsageError("--profile goes with --target shop")
    if args.cutter and args.target != "cut":
        raise UsageError("--cutter goes with --target cut")
    if (
        args.cutter or args.profile
    ):  # named in data/print/ (printshop's and the project's): refused before any check
        from printshop.project.layers import layer_dirs, names_in

        for asked, folder, kind in (
            (args.cutter, "print/targets/cut", "cutter"),
            (args.profile, "print/profiles", "print-shop profile"),
        ):
            known = names_in(folder, layer_dirs(args.data))
            unknown = [name for name in asked or () if name not in known]
            if unknown:
                raise UsageError(
                    f"no {kind} {', '.join(map(repr, unknown))} ({kind.split()[-1]}s: "
                    f"{', '.join(known) or 'none'})"
                )
    from printshop.pipeline.build import run_build

    result = run_build(request, for_terminal(args.quiet))
    shown = (
        {Severity.ERROR} if args.quiet else {Severity.ERROR, Severity.WARNING}
    )  # infos: see validate
    # what a build leaves out (or marks as a draft) is said even with --quiet; a warning the data acknowledges was
    # reviewed: counted in one line, listed by validate (41 of them on every build hid the one that was new)
    acknowledged = [
        d for d in result.report.items if d.severity is Severity.WARNING and d.acknowledged
    ]
    _print_report(
        Report(
            [
                d
                for d in result.report.items
                if (d.severity in shown and not d.acknowledged)
                or d.code == "incomplete-translation"
            ]
        )
    )
    if acknowledged and not args.quiet:
        count = len(dict.fromkeys(acknowledged))
        print(
            f"{count} acknowledged warning{'s' if count != 1 else ''} not shown ('printshop validate' lists them)",
            file=sys.stderr,
        )
    for path in result.recovered:
        say(f"completed an earlier build that was stopped while writing: put {path} in place")
    if result.report.has_errors:
        if (
            result.written
        ):  # the file system would not put the old files back: say exactly which are new
            print(
                f"build failed ({_summary(result.report)}); these files are new all the same: "
                f"{', '.join(map(str, result.written))}",
                file=sys.stderr,
            )
        else:
            print(f"build failed ({_summary(result.report)}); nothing was written", file=sys.stderr)
        return 1
    if result.up_to_date is not None:
        say(f"nothing changed since the last build: {len(result.up_to_date)} files up to date")
        return 0
    if not result.outputs:
        if result.refused:
            print(
                "nothing built: every translation asked for is incomplete (--draft builds them as drafts)",
                file=sys.stderr,
            )
        elif not discover_games(args.data):
            print(f"{no_game_yet(args.data)} to grow by hand", file=sys.stderr)
        else:
            print("nothing to build (check the game and --lang names)", file=sys.stderr)
        return 1
    written = set(result.written)
    for output in result.outputs:
        if args.out / output.path in written:
            say(f"wrote {args.out / output.path} ({_pages(output.pages)}, {output.description})")
    for path in result.removed:
        say(f"removed {path} (no longer built)")
    say(
        f"built {len(result.outputs)} files in {time.monotonic() - started:.1f} s: "
        f"{len(result.rendered_jobs)} jobs rendered, {len(result.cached_jobs)} from the cache; "
        f"{len(result.written)} files written, {len(result.unchanged)} already up to date"
        + (f", {len(result.removed)} removed" if result.removed else "")
    )
    named = [state for state in result.refused if args.lang and state.lang in args.lang]
    if named:
        print(
            f"not built, though asked for with --lang: {', '.join(f'{s.game} {s.lang}' for s in named)} "
            f"(incomplete, see above)",
            file=sys.stderr,
        )
        return 1
    return 0


def _known_variant(
    data: Path, games: list[str] | None, variant: str, *, live: bool = False
) -> bool:
    """Whether a game (of `games`) has the naming variant; a usage error if none has it. Data that cannot be read
    gives False, reported; for watch and serve (`live`), True, unreported: they start, and say what is wrong at
    each refresh until it is mended."""
    if live:
        try:
            project = load_project(data, games=games, report=Report())
        except StageFailed:
            return True
    else:
        project = _load_or_report(data, games)
    if project is None:
        return False
    if not any(variant in game.game.variants for game in project.games.values()):
        known = sorted({name for game in project.games.values() for name in game.game.variants})
        raise UsageError(
            f"no game here has the variant '{variant}' (variants: {', '.join(known) or 'none'})"
        )
    return True


def _watch(args) -> int:
    from printshop.live.session import Session
    from printshop.live.watch import watch
    from printshop.pipeline.request import BuildRequest

    games = _known_games(args.data, args.games)
    if args.variant:
        _known_variant(args.data, games, args.variant, live=True)
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


def _serve(args) -> int:
    from dataclasses import replace

    from printshop.live.serve import AddressUnavailable, Server
    from printshop.live.session import Session
    from printshop.pipeline.request import BuildRequest

    games = _known_games(args.data, args.games)
    if args.variant:
        _known_variant(args.data, games, args.variant, live=True)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"warning: listening on {args.host}: anyone who can reach this address sees the game's data",
            file=sys.stderr,
        )
    # a preview, not a kit: an unfinished translation is shown (marked), so that its translator sees each text
    # on its card as it is written
    request = BuildRequest.from_arguments(args, games)
    session = Session(replace(request, out_dir=None, draft=True), render=False)
    try:
        server = Server(session, args.host, args.port).start()
    except AddressUnavailable as error:
        raise UsageError(str(error)) from None
    print(f"printshop serve: {server.url} (Ctrl-C stops)", file=sys.stderr, flush=True)
    try:
        while not server.stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
