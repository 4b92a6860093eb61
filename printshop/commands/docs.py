"""`printshop docs`: the reference docs generated from the code (docs/data-format.md, templates.md,
checks.md), written or, with --check, compared."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from printshop.checks_page import catalogue_markdown
from printshop.diagnostics import display_path
from printshop.project.paths import find_project


def add_parser(commands: argparse._SubParsersAction) -> None:
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
    documenting.add_argument(
        "--force",
        action="store_true",
        help="replace files there that printshop did not write (or that were changed since)",
    )


def run(args: argparse.Namespace) -> int:
    from printshop.project.reference import NotOurs, doc_texts, write_texts
    from printshop.write.commit import refusal

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
    try:
        written = write_texts(texts, folder, "docs", force=args.force)
    except NotOurs as refused:
        print(f"error: {refusal(refused.paths, 'printshop docs')}", file=sys.stderr)
        return 1
    print(
        f"{len(written)} file(s) written to {display_path(folder)}"
        if written
        else f"the docs in {display_path(folder)} are up to date"
    )
    return 0
