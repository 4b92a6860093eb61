"""The command line: the top-level parser, the dispatch to one module per command
(printshop.commands), and the error and exit handling every command shares.

Exit codes: 0 success, 1 errors in the data (or a failed build), 2 a usage error. A build that
leaves out an incomplete translation still succeeds (0), unless that language was asked for by
name with `--lang`: then the rest is written and the exit code is 1.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path

from printshop import __version__
from printshop.commands import (
    build,
    checks,
    docs,
    i18n,
    init,
    listing,
    new,
    preflight,
    proof,
    schema,
    serve,
    validate,
    watch,
)
from printshop.commands.common import UsageError
from printshop.diagnostics import printable
from printshop.project.paths import ProjectFileError, find_project, too_wide

# The heavy modules (ReportLab, pydantic, ruamel.yaml) are imported where they are used, so that a
# build with nothing to do answers before they would have loaded.

COMMANDS = {  # in the order `printshop --help` lists them
    "list": listing,
    "build": build,
    "validate": validate,
    "preflight": preflight,
    "proof": proof,
    "watch": watch,
    "serve": serve,
    "init": init,
    "new": new,
    "checks": checks,
    "schema": schema,
    "docs": docs,
    "i18n": i18n,
}


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="printshop",
        description="Turn game data (data/) into print-and-play kits, press files and rule booklets (output/). "
        "Works on the project of the working directory: the nearest folder with a printshop.toml "
        "(printshop init makes one).",
        epilog="Run 'printshop COMMAND --help' for each command's options.",
    )
    parser.add_argument("--version", action="version", version=f"printshop {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS.values():
        command.add_parser(commands)
    return parser


ONE_SHOT = (
    "build",
    "validate",
)  # commands whose process ends with os._exit when run as `printshop`


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    given = sys.argv[1:] if argv is None else argv
    for index, word in enumerate(given):  # an empty value is never the default, quietly
        option = word.partition("=")[0] if word.startswith("--") and "=" in word else None
        if word == "" or option is not None and word.endswith("="):
            named = option or (
                given[index - 1] if index and given[index - 1].startswith("-") else ""
            )
            parser.error(f"{named or 'an argument'} is empty: give it a value, or leave it out")
    args = parser.parse_args(argv)
    if getattr(args, "games_named", None):
        args.games = [*(args.games or []), *args.games_named]
    one_shot = argv is None and args.command in ONE_SHOT
    if one_shot:
        # these run with the cycle collector off (build.without_cycle_collection) and the process
        # ends with os._exit below, its objects never freed: turned back on, the collector's first
        # pass would walk everything the build made (0.1 s after a 1,000-card deck) only to find it
        # all still in use
        gc.disable()
    code = dispatch(parser, args)
    if one_shot:
        # the `printshop` process itself, its files written and synced: exit now, not after Python
        # has freed every object one by one (a tenth of a second and more after a large build)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    return code


def dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the command `args` names, its folders filled in from the project; its exit code. Every
    command's errors end here: a usage error (2), a closed pipe, Ctrl-C (130), a bug (1)."""
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
        for name in ("data", "out"):
            given = getattr(args, name, None)
            if isinstance(given, Path) and too_wide(given):
                parser.error(
                    f"--{name} {given}: the root or the home folder is not a project's "
                    f"{'data' if name == 'data' else 'output'} folder: name the project's own "
                    "(printshop init makes one)"
                )
    # a command that runs once and exits leaves Python's cycle collector off (a fifth of a build's
    # time, imports included, went on walking objects that live to the end); watch and serve keep it
    collecting = gc.isenabled()
    if args.command not in ("watch", "serve"):
        gc.disable()
    try:
        return COMMANDS[args.command].run(args)
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
