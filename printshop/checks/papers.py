"""Papers and cutters: each deck's cards and each sheet fit the papers the kit prints on, and
each deck fits the area each print-and-cut machine cuts.
"""

from __future__ import annotations

from printshop.diagnostics import Report
from printshop.layout.imposition import cut_slots, too_small
from printshop.project.loader import GameData, Project
from printshop.project.units import to_mm


def check_papers(
    project: Project, deck_id: str, deck, report: Report, papers: list[str] | None
) -> None:
    """Each paper the card sheets are printed on (validate_project's `papers`) holds a card of the
    deck with room for its crop marks and footer, as the sheets lay it out (turned where
    print_and_play.card_sheets says): else the kit's build would fail there."""
    media = project.media
    size, pnp = media.card_sizes[deck.card_size], media.print_and_play
    for paper_id in pnp.papers if papers is None else papers:
        paper = media.papers.get(paper_id)
        if paper is None or not deck.cards:
            continue
        layout = pnp.card_sheets.get(paper_id, {}).get(deck.card_size)
        problem = too_small(
            deck.card_size,
            size.width,
            size.height,
            paper.label or paper_id,
            paper.width,
            paper.height,
            pnp,
            layout.turn if layout is not None else 0,
        )
        if problem is not None:
            report.add(
                "paper-too-small",
                deck.where("card_size"),
                f"deck '{deck_id}' on {paper_id}: {problem}",
            )


def check_sheet_papers(
    project: Project, sheet_id: str, sheet, report: Report, papers: list[str] | None
) -> None:
    """A sheet printed one to a page fits each paper the kits are printed on, inside the margins and
    with its marks and footer, as sheet_pages lays it out (else the kit's build would fail there);
    and where two of its pages would fit on every one of them at full size, an info says `per_page:
    2` halves its pages."""
    from printshop.layout.imposition import sheet_placement, sheet_too_big

    if sheet.tiled or sheet.per_page != 1:
        return
    media = project.media
    pnp, bled = media.print_and_play, sheet.bleed > 0
    chosen = [
        (paper_id, media.papers[paper_id])
        for paper_id in (pnp.papers if papers is None else papers)
        if paper_id in media.papers
    ]
    too_big = False
    for paper_id, paper in chosen:
        problem = sheet_too_big(
            sheet.width, sheet.height, bled, paper.label or paper_id, paper.width, paper.height, pnp
        )
        if problem is not None:
            too_big = True
            report.add(
                "paper-too-small",
                sheet.where("width"),
                f"sheet '{sheet_id}' on {paper_id}: {problem}",
                hint="make the sheet smaller, give it `tiled: true` and an overlap to print it over several "
                "pages, or `per_page: 2` to print it shrunk; or add a larger paper to `papers` and "
                "`print_and_play.papers` in data/print/media.yaml (or build it alone with --paper)",
            )
    pages = max(1, len(sheet.items)) * sheet.copies
    if too_big or pages < 2 or not chosen:
        return
    if all(
        sheet_placement(sheet.width, sheet.height, bled, 2, paper.width, paper.height, pnp).holds(
            sheet.width, sheet.height
        )
        for _, paper in chosen
    ):
        labels = " and ".join(paper.label or paper_id for paper_id, paper in chosen)
        report.add(
            "two-to-a-page",
            sheet.where("width"),
            f"sheet '{sheet_id}' ({to_mm(sheet.width):.0f} × {to_mm(sheet.height):.0f} mm) prints one to a page, "
            f"{pages} pages; two fit on {labels} at full size, with a cut line between",
            hint="add `per_page: 2` to the sheet in game.yaml to print it on half as many pages",
        )


def check_cutters(project: Project, game: GameData, report: Report) -> None:
    """Each deck fits, with the bleed a cutter prints round it, in the area each print-and-cut
    machine cuts on each of its papers: else `build --target cut` refused it (paper-too-small) after
    validate had passed."""
    for cutter_id, cutter in sorted(project.targets.cutters.items()):
        for deck_id, deck in game.game.printed_decks().items():
            size = project.media.card_sizes.get(deck.card_size)
            if size is None:
                continue
            bleed = min(cutter.bleed, deck.bleed)
            for paper_id in cutter.papers:
                paper = project.media.papers.get(paper_id)
                if paper is None:
                    continue  # (reported with the shared print data)
                slots = cut_slots(paper, cutter, size.width, size.height, bleed)[2]
                if not slots:  # (a warning, as a deck a print shop does not make is press-left-out)
                    report.add(
                        "cut-left-out",
                        deck.where("card_size"),
                        f"deck '{deck_id}', {cutter_id}: a {size.label or deck.card_size} card with its bleed does "
                        f"not fit in the area {cutter.label} can cut on {paper.label or paper_id}: its cut "
                        f"files leave the deck out",
                        hint=f"choose a smaller card size, or mend print/targets/cut/{cutter_id}.yaml (its "
                        "area, marks or gap)",
                    )
                    break
