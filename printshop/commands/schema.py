"""`printshop schema`: a JSON Schema per kind of data file, for editors (schemas/)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from printshop.diagnostics import display_path
from printshop.project.paths import find_project


def add_parser(commands: argparse._SubParsersAction) -> None:
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
    schemas.add_argument(
        "--force",
        action="store_true",
        help="replace files there that printshop did not write (or that were changed since)",
    )


def run(args: argparse.Namespace) -> int:
    from printshop.project.json_schemas import schema_texts
    from printshop.project.reference import NotOurs, write_texts
    from printshop.write.commit import refusal

    folder = args.out or find_project().root / "schemas"  # (never the installed package's folder)
    try:
        written = write_texts(schema_texts(), folder, "schema", force=args.force)
    except NotOurs as refused:
        print(f"error: {refusal(refused.paths, 'printshop schema')}", file=sys.stderr)
        return 1
    print(
        f"{len(written)} schema(s) written to {display_path(folder)}"
        if written
        else f"the schemas in {display_path(folder)} are up to date"
    )
    return 0
