"""The arguments several commands share (--data, --out, --templates, --game) and the types that read
the command line's values (folders, counts, ports, shards, offsets).

A command's own options stay in its module; only what is worded the same for every command that
takes it is here, so that `printshop CMD --help` says it the same way everywhere.
"""

from __future__ import annotations

import argparse
from pathlib import Path

DATA_HELP = "the data folder (default: the project's, from printshop.toml; see 'printshop init')"


def add_data(command: argparse.ArgumentParser) -> None:
    """--data DIR: filled in from the project of the working directory when not given
    (cli.dispatch)."""
    command.add_argument("--data", type=Path, default=None, metavar="DIR", help=DATA_HELP)


def add_out(command: argparse.ArgumentParser) -> None:
    """--out DIR for the commands that write into the project's output/ (build, proof, watch)."""
    command.add_argument(
        "--out",
        type=folder,
        default=None,
        metavar="DIR",
        help="where to write (default: the project's output/)",
    )


def add_templates(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--templates",
        type=Path,
        default=None,
        metavar="DIR",
        help="the templates folder (default: templates/ beside the default data)",
    )


def add_game_option(command: argparse.ArgumentParser) -> None:
    """`--game G` beside a command's GAME arguments: 'i18n confirm' and 'i18n import' name their
    game so, and a translator who learnt it there types it everywhere (argparse said only
    "unrecognized arguments")."""
    command.add_argument(
        "--game",
        action="append",
        dest="games_named",
        metavar="GAME",
        help="the same as naming GAME (repeatable)",
    )


def offset(value: str) -> tuple[float, float]:
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


def folder(text: str) -> Path:
    """A folder to write into: `--out ""` would otherwise mean the current folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the folder is empty: name one, e.g. --out output")
    return Path(text)


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, not '{text}'")
    return value


def port(text: str) -> int:
    """A TCP port, 0 to 65535: the system takes a larger number modulo 65536 (99999 listened on
    34463)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(
            f"a port is a whole number from 1 to 65535 (0: any free one), not '{text}'"
        )
    return value


def shard(text: str) -> tuple[int, int]:
    part, _, parts = text.partition("/")
    try:
        shard = int(part), int(parts)
    except ValueError:
        shard = (0, 0)
    if not 1 <= shard[0] <= shard[1]:
        raise argparse.ArgumentTypeError(f"expected I/N with 1 <= I <= N, e.g. 2/4, not '{text}'")
    return shard


def add_live_arguments(live: argparse.ArgumentParser, variant_does: str) -> None:
    """What watch and serve both take: the games, languages, folders and naming variant to show.
    `variant_does`: what 'printshop build --variant' does that this command does too."""
    live.add_argument("games", nargs="*", metavar="GAME", help="games to show (default: all)")
    add_game_option(live)
    live.add_argument(
        "--lang",
        action="append",
        metavar="L",
        help="only this language (repeatable); only its texts, those it is made from and the "
        "source are read and checked",
    )
    add_data(live)
    add_templates(live)
    live.add_argument(
        "--variant",
        metavar="NAME",
        help="a naming variant (role names) for the games that define it, e.g. soviet, as "
        "'printshop build --variant' "
        + variant_does
        + "; the other games keep their names. 'printshop list' shows each game's variants",
    )
