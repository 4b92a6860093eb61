"""`printshop validate`: every check on the data, printed as 'file:line:col: severity[code]:
message'."""

from __future__ import annotations

import argparse
import sys

from printshop.commands.arguments import add_data, add_game_option, add_templates, positive
from printshop.commands.common import check_folders, known_games, summary
from printshop.diagnostics import FORMATS, Report, Severity, format_report, no_game_yet
from printshop.project.paths import default_jobs_text, discover_games


def add_parser(commands: argparse._SubParsersAction) -> None:
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
    add_game_option(validating)
    add_data(validating)
    add_templates(validating)
    validating.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text (default): path:line:col: severity[code]: message; json: a list of "
        "objects; github: GitHub Actions annotations; gitlab: a GitLab code quality report (JSON)",
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
        type=positive,
        default=None,
        metavar="N",
        help="lay out the games in N processes (default: $PRINTSHOP_JOBS, else one per core "
        f"this process may use, {default_jobs_text()}); "
        "the report is the same",
    )


def run(args: argparse.Namespace) -> int:
    from printshop.pipeline.build import check, default_workers

    default = (
        default_workers()
    )  # a malformed $PRINTSHOP_JOBS is refused with --jobs too, as in `build`
    jobs = args.jobs or default
    games = known_games(args.data, args.games)
    check_folders(args)
    from printshop.write.fitstore import kept_fits

    with kept_fits():  # what each text's fitting came to in earlier runs (fitstore.py)
        report, _ = check(
            args.data, games=games, templates_dir=args.templates, keep_layouts=False, jobs=jobs
        )
    shown = report
    # what fails the run, as `build -q` shows its errors only (the summary still counts everything)
    if args.quiet:
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
    if args.format in ("json", "gitlab") or shown.items:  # (JSON: an empty list says "clean")
        print(format_report(shown, style=args.format))
    sys.stdout.flush()
    print(
        f"printshop validate: {summary(report)}{' (strict)' if args.strict else ''}",
        file=sys.stderr,
    )
    if not report.items and not discover_games(
        args.data
    ):  # a new project: nothing wrong, and nothing checked
        print(f"{no_game_yet(args.data)} to grow by hand", file=sys.stderr)
    return 1 if report.fails(strict=args.strict) else 0
