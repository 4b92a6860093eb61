"""`printshop build`: validate, lay out, render and write the games for a target (pnp, shop, tts,
cut, preview) through printshop.pipeline.build.build, then say what was written, left out or failed.

The request is refused here, before anything heavy is imported, when its options do not go together
or name what does not exist; a build with nothing to do answers from the cache
(write/cache.nothing_to_do).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from printshop.commands.arguments import (
    add_data,
    add_game_option,
    add_out,
    add_templates,
    offset,
    positive,
    shard,
)
from printshop.commands.common import (
    UsageError,
    check_folders,
    known_games,
    known_variant,
    pages,
    print_report,
    summary,
)
from printshop.diagnostics import Report, Severity, no_game_yet, printable
from printshop.project.paths import default_jobs_text, discover_games


def add_parser(commands: argparse._SubParsersAction) -> None:
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
    add_game_option(building)
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
    add_data(building)
    add_out(building)
    add_templates(building)
    building.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="print only errors (no progress bar, no list of files)",
    )
    _add_speed_options(building)
    _add_print_options(building)
    _add_target_options(building)
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


def _add_speed_options(building: argparse.ArgumentParser) -> None:
    """--jobs, --shard, --force: how the work is spread and whether the cache is used."""
    building.add_argument(
        "--jobs",
        "-j",
        type=positive,
        default=None,
        metavar="N",
        help="render in N processes (default: $PRINTSHOP_JOBS, else one per core this "
        f"process may use, {default_jobs_text()}); a build of one game, language and "
        "paper with N > 1 renders its rules, and draws part of a deck with 240 or more "
        "different faces, in a second process; --jobs 1 keeps it to one",
    )
    building.add_argument(
        "--shard",
        type=shard,
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


def _add_print_options(building: argparse.ArgumentParser) -> None:
    """--flip, --back-offset, --gutterfold, --low-ink: how the kit suits the printer at hand."""
    building.add_argument(
        "--flip",
        choices=("long-edge", "short-edge"),
        default="long-edge",
        help="how your printer turns the sheet for double-sided printing (default: long-edge)",
    )
    building.add_argument(
        "--back-offset",
        metavar="DX,DY",
        type=offset,
        default=(0.0, 0.0),
        help="move every back by DX,DY millimetres (right and up) to undo a duplex printer's "
        "drift; measure it with the calibration page (output/calibration/)",
    )
    building.add_argument(
        "--gutterfold",
        action="store_true",
        help="also write gutterfold card sheets (<deck>-gutterfold-<paper>.pdf) of each deck with "
        "backs: fronts above a fold, backs below turned round; no duplex printer needed",
    )
    building.add_argument(
        "--low-ink",
        action="store_true",
        help="white grounds, colours kept as outlines, hatching and small accents, to save ink; "
        "files get -lowink in their names",
    )


def _add_target_options(building: argparse.ArgumentParser) -> None:
    """--target and what names its outputs: --cutter for cut, --profile for shop."""
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


def run(args: argparse.Namespace) -> int:
    import time

    from printshop.pipeline.request import BuildRequest
    from printshop.write.cache import nothing_to_do

    started = time.monotonic()
    games = known_games(args.data, args.games)
    check_folders(args)
    say = _teller(args.quiet)
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

    if args.variant and not known_variant(args.data, games, args.variant):
        return 1
    _refuse_unknown_outputs(args)
    from printshop.pipeline.build import run_build

    result = run_build(request, for_terminal(args.quiet))
    _print_diagnostics(result, args.quiet)
    for path in result.recovered:
        say(f"completed an earlier build that was stopped while writing: put {path} in place")
    return _outcome(args, result, say, started)


def _teller(quiet: bool) -> Callable[[str], None]:
    """How the build says what it did: on stderr, or not at all with --quiet."""
    if quiet:
        return lambda message: None
    return lambda message: print(printable(message), file=sys.stderr, flush=True)


def _refuse_unknown_outputs(args: argparse.Namespace) -> None:
    """--profile and --cutter go with their target, and name what data/print/ has (printshop's and
    the project's): refused before any check."""
    if args.profile and args.target != "shop":
        raise UsageError("--profile goes with --target shop")
    if args.cutter and args.target != "cut":
        raise UsageError("--cutter goes with --target cut")
    if not (args.cutter or args.profile):
        return
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


def _print_diagnostics(result, quiet: bool) -> None:
    """Errors, and warnings unless --quiet (infos: see validate). What a build leaves out (or marks
    as a draft) is said even with --quiet; a warning the data acknowledges was reviewed: counted in
    one line, listed by validate (41 of them on every build hid the one that was new)."""
    shown = {Severity.ERROR} if quiet else {Severity.ERROR, Severity.WARNING}
    acknowledged = [
        d for d in result.report.items if d.severity is Severity.WARNING and d.acknowledged
    ]
    print_report(
        Report(
            [
                d
                for d in result.report.items
                if (d.severity in shown and not d.acknowledged)
                or d.code == "incomplete-translation"
            ]
        )
    )
    if acknowledged and not quiet:
        count = len(dict.fromkeys(acknowledged))
        print(
            f"{count} acknowledged warning{'s' if count != 1 else ''} not shown ('printshop validate' lists them)",
            file=sys.stderr,
        )


def _outcome(args: argparse.Namespace, result, say: Callable[[str], None], started: float) -> int:
    """What was written, or why nothing was; the exit code."""
    if result.report.has_errors:
        _say_failed(result)
        return 1
    if result.up_to_date is not None:
        say(f"nothing changed since the last build: {len(result.up_to_date)} files up to date")
        return 0
    if not result.outputs:
        _say_nothing_built(args, result)
        return 1
    _say_written(args, result, say, started)
    named = [state for state in result.refused if args.lang and state.lang in args.lang]
    if named:
        print(
            f"not built, though asked for with --lang: {', '.join(f'{s.game} {s.lang}' for s in named)} "
            f"(incomplete, see above)",
            file=sys.stderr,
        )
        return 1
    return 0


def _say_failed(result) -> None:
    if (
        result.written
    ):  # the file system would not put the old files back: say exactly which are new
        print(
            f"build failed ({summary(result.report)}); these files are new all the same: "
            f"{', '.join(map(str, result.written))}",
            file=sys.stderr,
        )
    else:
        print(f"build failed ({summary(result.report)}); nothing was written", file=sys.stderr)


def _say_nothing_built(args: argparse.Namespace, result) -> None:
    if result.refused:
        print(
            "nothing built: every translation asked for is incomplete (--draft builds them as drafts)",
            file=sys.stderr,
        )
    elif not discover_games(args.data):
        print(f"{no_game_yet(args.data)} to grow by hand", file=sys.stderr)
    else:
        print("nothing to build (check the game and --lang names)", file=sys.stderr)


def _say_written(
    args: argparse.Namespace, result, say: Callable[[str], None], started: float
) -> None:
    import time

    written = set(result.written)
    for output in result.outputs:
        if args.out / output.path in written:
            say(f"wrote {args.out / output.path} ({pages(output.pages)}, {output.description})")
    for path in result.removed:
        say(f"removed {path} (no longer built)")
    say(
        f"built {len(result.outputs)} files in {time.monotonic() - started:.1f} s: "
        f"{len(result.rendered_jobs)} jobs rendered, {len(result.cached_jobs)} from the cache; "
        f"{len(result.written)} files written, {len(result.unchanged)} already up to date"
        + (f", {len(result.removed)} removed" if result.removed else "")
    )
