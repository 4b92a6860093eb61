"""`printshop list`: every game of the data folder, its players, decks, card counts and languages."""

from __future__ import annotations

import argparse

from printshop.commands.arguments import add_data
from printshop.commands.common import known_games, print_report
from printshop.diagnostics import Report, StageFailed


def add_parser(commands: argparse._SubParsersAction) -> None:
    listing = commands.add_parser(
        "list",
        help="list games, their components, counts and languages",
        description="List every game in the data folder: players, decks and the "
        "number of cards of each kind, and the languages it has texts for.",
    )
    add_data(listing)


def run(args: argparse.Namespace) -> int:
    from printshop.project.loader import load_project

    known_games(args.data, [])  # (a data folder that is none: said as every command says it)
    report = Report()
    try:
        project = load_project(args.data, report=report)
    except StageFailed:
        print_report(report)
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
            online = ", digital tables only" if deck.digital_only else ""
            print(
                f"  deck '{deck_id}': {counts['total']} cards, {deck.card_size}{online} ({kinds})"
            )
        if spec.sheets:
            print(f"  sheets: {', '.join(spec.sheets)}")
        if spec.variants:
            print(f"  naming variants (--variant): {', '.join(spec.variants)}")
        if spec.booklet:
            print(f"  rules booklet: {project.booklet.paper}")
    return 0
