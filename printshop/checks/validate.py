"""Stage 3, validate: what the loaded data means — references, deck composition, game rules, texts.

Each check adds diagnostics with the place in the data that causes it. Game rules are declared
in data (composition, setup expressions); the checks only know how to check such declarations.
This module is the entry point: it runs the checks of each domain (a module of printshop/checks
each) in a fixed order, which is the order of the diagnostics.

It checks what loading read cleanly (loader.py `what_stands`: a game or language whose files failed
is not here, so nothing is said again about what the failure stops; a game whose faces or cards
failed has its texts checked alone), and a finding in one game holds back nothing of another's:
layout (`pipeline/build.py` `check`) follows for every game here. One fault is one diagnostic: a
face faces.yaml lacks is said at the first card naming it (`references.said_once`), not at each.
The rule: docs/checks.md, "What one error stops".
"""

from __future__ import annotations

from printshop.checks import translation_checks
from printshop.checks.card_vars import check_card_vars, check_table_names, check_table_stock
from printshop.checks.composition import check_composition
from printshop.checks.faces import check_face, check_sheet_backs, check_type_sizes
from printshop.checks.images import check_image
from printshop.checks.languages import check_languages
from printshop.checks.look import check_cutters_papers, check_look
from printshop.checks.papers import check_cutters, check_papers, check_sheet_papers
from printshop.checks.press import check_press
from printshop.checks.references import check_reconstructed, face_ref, said_once
from printshop.checks.rules import check_board, check_goal_deck, check_setup
from printshop.checks.texts import check_texts
from printshop.checks.tuck_boxes import check_tuck_box
from printshop.checks.zones import (
    Intrusions,
    check_background_edges,
    content_boxes,
    deck_faces,
    intrusion,
)
from printshop.diagnostics import Report, did_you_mean
from printshop.project.loader import GameData, Project
from printshop.project.models.game import CardEntry
from printshop.project.units import to_mm


def validate_project(project: Project, report: Report, papers: list[str] | None = None) -> None:
    """Every check of the data, texts of every language the project holds: a project loaded for a
    build or session of some languages (load_project's `langs`) holds those, the languages they are
    made from and the source; nothing it writes shows the others. `papers`: the papers card sheets
    are printed on (a build's --paper; [] for a build that prints none); None: every print-and-play
    paper, as a kit's build prints."""
    with translation_checks.one_pass():  # each text file's `# accept` comments read once per pass
        check_look(project, report)
        check_cutters_papers(project, report)
        check_languages(project, report)
        for game_id in sorted({*project.games, *project.texts_alone}):
            if game_id in project.texts_alone:  # its faces or cards failed: its texts need neither
                game = project.texts_alone[game_id]
                check_texts(project.view(game), game, report)
                continue
            game = project.games[game_id]
            # its own print data (data/<game>/print/), merged over the project's: checked as merged
            if game.look:
                _check_game_look(project.view(game), report)
            validate_game(project.view(game), game, report, papers)


def _check_game_look(seen: Project, report: Report) -> None:
    """The print data a game sees, its own files merged over the project's, gets the project's
    checks: a font or colour named in data/<game>/print/booklet.yaml or media.yaml (or one the
    game's colours.yaml takes away) was read by no check, and failed the build as "internal:
    KeyError". What the project's files already said is not said again for each game."""
    found = Report()
    check_look(seen, found)
    said = {
        (d.code, d.location) for d in report.items
    }  # (its message may list the game's colours too)
    report.extend([d for d in found.items if (d.code, d.location) not in said])


def validate_game(
    project: Project, game: GameData, report: Report, papers: list[str] | None = None
) -> None:
    spec = game.game
    if spec.players.min > spec.players.max:
        report.add(
            "wrong-type",
            spec.players.where(),
            f"players.min ({spec.players.min}) exceeds players.max",
        )
    check_table_stock(project, game, report)
    named = Report()  # the faces the decks name that faces.yaml lacks: said once each
    for deck_id, deck in spec.decks.items():
        if deck.card_size not in project.media.card_sizes:
            report.add(
                "unknown-reference",
                deck.where("card_size"),
                f"no card size '{deck.card_size}'{did_you_mean(deck.card_size, project.media.card_sizes)} "
                f"(sizes: {', '.join(project.media.card_sizes)})",
            )
        elif not deck.digital_only:  # (a deck only digital tables get is never on paper)
            check_papers(project, deck_id, deck, report, papers)
        check_tuck_box(project, game, deck_id, deck, report, papers)
        check_card_vars(deck_id, deck, report)
        source = game.catalogues.get(spec.source_language)
        check_table_names(deck_id, deck, source.entries if source else None, report)
        if deck.back is not None:
            face_ref(game, deck, "back", named)
        seen: dict[str, CardEntry] = {}  # card id -> its first card
        for card in deck.cards:
            if card.id in seen:
                report.add(
                    "duplicate-id",
                    card.where("id"),
                    f"card id '{card.id}' is used twice in deck '{deck_id}' "
                    f"(first at {seen[card.id].where('id')})",
                )
            else:
                seen[card.id] = card
            face_ref(game, card, "front", named)
            if card.back is not None:
                face_ref(game, card, "back", named)
            if card.reconstructed:
                report.add(
                    "reconstructed",
                    card.where("reconstructed"),
                    f"card '{card.id}': {card.reconstructed}",
                )
    report.extend(said_once(named))
    for name, face in game.faces.items():
        check_face(project, game, name, face, report)
    if spec.booklet is not None:  # the images its booklet's pages draw: files of the game's folder
        pages = project.booklet.pages
        for page in (pages.cover, pages.text, pages.back_cover):
            for shape in page.shapes.values():
                if shape.kind == "image":
                    check_image(game, shape, project.media.print_and_play.min_dpi, report)
    _check_safe_zones(project, game, report)
    check_cutters(project, game, report)
    check_type_sizes(project, game, report)
    for sheet_id, sheet in game.game.sheets.items():
        face_ref(game, sheet, "face", report)
        if sheet.tiled and sheet.overlap <= 0:
            report.add(
                "wrong-type",
                sheet.where("tiled"),
                f"sheet '{sheet_id}' is tiled: give it an overlap, e.g. 12mm",
            )
        check_sheet_backs(game, sheet_id, sheet, report)
        check_sheet_papers(project, sheet_id, sheet, report, papers)
    check_reconstructed(game, report)
    check_composition(game, report)
    check_board(game, report)
    check_goal_deck(game, report)
    check_setup(game, report)
    check_texts(project, game, report)


def _check_safe_zones(project: Project, game: GameData, report: Report) -> None:
    """Text frames and icons of every face a deck prints stay inside the deck's safe zone, and
    inside every print shop's (faces scaled to the shop's trim, press sheets as they are)."""
    intrusions = Intrusions()
    for deck in game.game.decks.values():
        size = project.media.card_sizes.get(deck.card_size)
        if size is None:
            continue
        for name in deck_faces(game, deck):
            for what, node, box, code in content_boxes(game.faces[name]):
                worst = intrusion(box, size.width, size.height, deck.safe)
                if worst > 0.01:
                    intrusions.add(
                        node,
                        what,
                        f"face '{name}'",
                        worst,
                        f"the deck's safe zone of {to_mm(deck.safe):.1f} mm",
                        code,
                        deck.safe,
                    )
    check_press(project, game, report, intrusions)
    intrusions.report(report)
    check_background_edges(project, game, report)
