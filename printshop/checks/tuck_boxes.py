"""Tuck boxes: each deck's box net, with its wrap's bleed, fits every paper the kit prints on; its
title is a text the game has and its colours are the palette's."""

from __future__ import annotations

from printshop.checks.references import colour_ref
from printshop.diagnostics import Report
from printshop.layout.tuck_box import net_overflow, tuck_box_net
from printshop.project.loader import GameData, Project
from printshop.project.units import to_mm


def tuck_box_room(pnp) -> tuple[float, float, float]:
    """What a tuck box page keeps free at the sides, at the top and at the bottom (the footer)."""
    footer = pnp.footer
    return pnp.margin, pnp.margin, footer.baseline + footer.size * 0.8 + pnp.crop_marks.gap


def deck_net(project: Project, deck):
    """The net of `deck`'s tuck box, or None when it has none or its card size is unknown."""
    size = project.media.card_sizes.get(deck.card_size)
    box = deck.tuck_box
    if box is None or size is None:
        return None
    cards = sum(card.count for card in deck.cards)
    return tuck_box_net(
        size.width,
        size.height,
        cards,
        box.stock,
        box.play,
        box.board,
        box.tuck_flap,
        box.glue_flap,
        box.thumb_notch,
    )


def check_tuck_box(
    project: Project, game: GameData, deck_id: str, deck, report: Report, papers: list[str] | None
) -> None:
    """The tuck box's net fits, upright or across, inside the margins and above the footer of each
    paper the kit prints on (else the kit's build would refuse it there); its title is a text; its
    colours are the palette's."""
    box = deck.tuck_box
    if box is None:
        return
    colour_ref(project, box.colour, box, "colour", report)
    colour_ref(project, box.text_colour, box, "text_colour", report)
    source = game.source
    if box.title is not None and source is not None and box.title not in source.entries:
        report.add(
            "missing-text",
            box.where("title"),
            f"deck '{deck_id}': the tuck box's title '{box.title}' has no source text",
            hint=f"add '{box.title}' to text/{game.game.source_language}.yaml, or leave `title` out "
            "to print the game's title",
        )
    net = deck_net(project, deck)
    if net is None:
        return
    media = project.media
    pnp = media.print_and_play
    for paper_id in pnp.papers if papers is None else papers:
        paper = media.papers.get(paper_id)
        if paper is None:
            continue
        _, wide, high = net_overflow(net, paper.width, paper.height, tuck_box_room(pnp), box.bleed)
        if wide or high:
            over = " and ".join(
                f"{to_mm(value):.1f} mm too {word}"
                for value, word in ((wide, "wide"), (high, "high"))
                if value
            )
            report.add(
                "paper-too-small",
                deck.where("tuck_box"),
                f"deck '{deck_id}': its tuck box's net ({to_mm(net.width):.1f} × "
                f"{to_mm(net.height):.1f} mm) does not fit on {paper.label or paper_id}: {over}",
                hint="a thinner `stock`, less `play` or `bleed`, a shorter `tuck_flap` or narrower "
                "`glue_flap`, fewer cards, or "
                "a larger paper in `print_and_play.papers` (data/print/media.yaml)",
            )
