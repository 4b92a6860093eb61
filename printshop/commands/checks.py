"""`printshop checks`: the catalogue of every check validate runs, with its code and hint."""

from __future__ import annotations

import argparse

from printshop.check_codes import CATALOGUE
from printshop.checks_page import catalogue_markdown


def add_parser(commands: argparse._SubParsersAction) -> None:
    checks = commands.add_parser(
        "checks",
        help="list every check validate runs, with its code and hint",
        description="List the catalogue of checks: code, severity, meaning, hint.",
    )
    checks.add_argument("--markdown", action="store_true", help="print docs/checks.md")


def run(args: argparse.Namespace) -> int:
    if args.markdown:
        print(catalogue_markdown())
        return 0
    for check_ in CATALOGUE.values():
        print(f"{check_.code:<20} {check_.severity.value:<8} {check_.summary}")
        print(f"{'':<20} {'':<8} hint: {check_.hint}")
    return 0
