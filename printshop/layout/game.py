"""Stage 4, lay out a game: every deck's faces, every sheet's and the booklet, into one GameLayout.

The result is the plan the renderer follows without further decisions (layout.plan): for each deck,
the faces (each drawn once, by layout.faces) with the chosen font size of every frame, the cards in
deck order, and the booklet's blocks (layout.booklet). Everything that cannot be laid out is
reported here, before anything is drawn; a paragraph left with one word alone on its last line is
reported once the deck's frames have their one size.
"""

from __future__ import annotations

from collections.abc import Callable

from printshop.diagnostics import Report
from printshop.language.resolve import LocalizedGame, sheet_context, template_context
from printshop.layout.booklet import lay_out_booklet
from printshop.layout.design import same_size_across_deck
from printshop.layout.faces import lay_out_face
from printshop.layout.images import frames_images
from printshop.layout.insets import report_insets
from printshop.layout.plan import DeckLayout, FaceLayout, GameLayout, SheetLayout
from printshop.layout.problems import DataErrors, culprit_entry
from printshop.project.loader import Project
from printshop.project.models.game import CardEntry, Deck, SheetItem, SheetSpec
from printshop.project.models.media import CardSize
from printshop.typeset import icons
from printshop.typeset.fonts import FontSet
from printshop.typeset.runts import runts


def lay_out_game(
    project: Project,
    localized: LocalizedGame,
    fonts: FontSet,
    env,
    report: Report,
    lay_out=None,
    resized=None,
) -> GameLayout:
    """`lay_out` stands in for `lay_out_face` (same arguments): a long-running session passes one
    that reuses a face laid out before when nothing it read has changed (session.py), and `resized`,
    where the faces set at one size across their deck are kept (design.same_size_across_deck)."""
    with icons.using(icons.IconSet(project.motifs.motifs, localized.data.dir / "images")):
        return _lay_out_game(project, localized, fonts, env, report, lay_out, resized)


def _lay_out_game(
    project: Project,
    localized: LocalizedGame,
    fonts: FontSet,
    env,
    report: Report,
    lay_out,
    resized,
) -> GameLayout:
    """`lay_out_game`, the game's icons set (typeset.icons)."""
    lay_out = lay_out or lay_out_face
    game = localized.data
    context = template_context(localized)
    errors = DataErrors.of(game, report)
    layout = GameLayout(game.id, localized.lang, localized, localized.plain(game.game.title))
    palette = project.colours.palette

    def lay_out_one(key, face_name, entry, size, bleed, face_context) -> FaceLayout | None:
        """`lay_out` for one face of this game, in this language."""
        return lay_out(
            key,
            face_name,
            entry,
            game.faces,
            size,
            bleed,
            face_context,
            localized,
            palette,
            fonts,
            env,
            report,
            errors=errors,
        )

    for deck_id, deck in game.game.decks.items():
        size = project.media.card_sizes.get(deck.card_size)
        if size is None:
            continue  # reported by the validator
        faces, cards = _lay_out_deck(deck_id, deck, size, context, errors, lay_out_one)
        # one text size per frame across the deck (size_across; docs/design.md)
        same_size_across_deck(
            deck_id,
            faces,
            localized.lang,
            localized.hyphenation,
            palette,
            report,
            resized,
        )
        layout.decks.append(DeckLayout(deck_id, deck, size, faces, cards))
    for sheet_id, spec in game.game.sheets.items():
        sheet = _lay_out_sheet(sheet_id, spec, context, errors, lay_out_one)
        if sheet is not None:
            layout.sheets.append(sheet)
    _report_runts(
        layout, report
    )  # as the cards print: after each deck's frames took their one size
    design = project.media.design
    report_insets(layout, design.inset, report, _piece, design.media)
    frames_images(layout, project, report)
    if game.game.booklet is not None:
        layout.booklet = lay_out_booklet(project, localized, context, fonts, env, report, errors)
    return layout


def _lay_out_deck(
    deck_id: str,
    deck: Deck,
    size: CardSize,
    context: dict,
    errors: DataErrors,
    lay_out_one: Callable[..., FaceLayout | None],
) -> tuple[dict[str, FaceLayout], list[tuple[str, str | None]]]:
    """The deck's faces, each laid out once (a card whose entry has an error in the data is not),
    and its cards: (front face key, back face key or None), one per physical card."""
    faces: dict[str, FaceLayout] = {}
    cards: list[tuple[str, str | None]] = []
    for card in deck.cards:
        front_key = f"{deck_id}/{card.id}/front"
        back_key = f"{deck_id}/{card.id}/back" if card.back else f"{deck_id}/back"
        sides: list[tuple[str, str | None, CardEntry | None]] = [(front_key, card.front, card)]
        if card.back or deck.back:
            sides.append((back_key, card.back or deck.back, card if card.back else None))
        shown_back = back_key if card.back or deck.back else None  # None: a one-sided deck
        for key, face_name, entry in sides:
            if key not in faces and not errors.explain(card):
                laid = lay_out_one(
                    key, face_name, entry, (size.width, size.height), deck.bleed, context
                )
                if laid is not None:
                    faces[key] = laid
        cards.extend([(front_key, shown_back)] * card.count)
    return faces, cards


def _lay_out_sheet(
    sheet_id: str,
    spec: SheetSpec,
    context: dict,
    errors: DataErrors,
    lay_out_one: Callable[..., FaceLayout | None],
) -> SheetLayout | None:
    """The sheet's faces, one per item (a single one for a sheet without items), and their backs;
    None if any of them could not be laid out (an item whose entry has an error in the data is not)."""
    laid_out, backs = [], []
    two_sided = spec.back is not None or any(item.back for item in spec.items)
    items: list[SheetItem | None] = [*spec.items] or [None]
    for item in items:
        if errors.explain(item if item is not None else spec):
            continue
        entry = (
            CardEntry(id=item.id, kind="sheet", front=item.face or spec.face, vars=item.vars)
            if item
            else None
        )
        laid = lay_out_one(
            f"sheet/{sheet_id}/{item.id if item else ''}",
            item.face or spec.face if item else spec.face,
            entry,
            (spec.width, spec.height),
            spec.bleed,
            sheet_context(context, sheet_id, spec, item),
        )
        if laid is not None:
            laid_out.append(laid)
        back_name = (item.back if item is not None else None) or spec.back
        if (
            back_name is not None
        ):  # the back sees the same item as its front (a role sheet's back may name it)
            back = lay_out_one(
                f"sheet/{sheet_id}/{item.id}/back" if item else f"sheet/{sheet_id}/back",
                back_name,
                entry,
                (spec.width, spec.height),
                spec.bleed,
                sheet_context(context, sheet_id, spec, item),
            )
            if back is not None:
                backs.append(back)
    if len(laid_out) == len(items) and len(backs) == (len(laid_out) if two_sided else 0):
        return SheetLayout(sheet_id, spec, laid_out, backs)
    return None


def _report_runts(layout: GameLayout, report: Report) -> None:
    """A paragraph that still ends with one word alone on its last line (fitting could neither tie
    its last words nor narrow its measure without taking another line, nor set it a step smaller):
    one warning per text and frame, at the text (the frame's place follows for the designer), naming
    the cards or sheets it prints on."""
    found: dict[tuple, list[str]] = {}
    faces = [face for deck in layout.decks for face in deck.faces.values()]
    faces += [face for sheet in layout.sheets for face in sheet.faces + sheet.backs]
    for face in faces:
        for laid in face.frames:
            for word in runts(laid.fit):
                key = (laid.name, laid.frame.where(), laid.text_ids, word, laid.fit.size)
                found.setdefault(key, []).append(_piece(face.key))
    for (name, frame_where, text_ids, word, size), pieces in found.items():
        shown = list(dict.fromkeys(pieces))
        message = (
            f"frame '{name}' of {', '.join(shown[:4])}{' …' if len(shown) > 4 else ''} ends with "
            f'"{word}" alone on its last line at {size:g} pt'
        )
        culprit = culprit_entry(text_ids, layout.localized, ending=word)
        if culprit is None:
            report.add("runt-line", frame_where, f"{message} (language {layout.lang})")
            continue
        report.add(
            "runt-line",
            culprit.location,
            f"'{culprit.id}' ({layout.lang}): {message}",
            also=f"frame: {frame_where} (for the designer: a little more width gives the last line two words)",
        )


def _piece(key: str) -> str:
    """What a face key names, for people: card 'informer', the back of deck 'cards', sheet 'roles'
    (heir)."""
    parts = key.split("/")
    if parts[0] == "sheet":
        item = parts[2] if len(parts) > 2 and parts[2] else ""
        side = " back" if parts[-1] == "back" and len(parts) > 3 else ""
        return f"sheet '{parts[1]}'" + (f" ({item}{side})" if item else side)
    if len(parts) == 2:
        return f"the back of deck '{parts[0]}'"
    return f"card '{parts[1]}'" + (" (back)" if parts[2] == "back" else "")
