"""Stage 4, lay out: render every face's template blocks and fit them into the layout's frames.

The result is a plan the renderer follows without further decisions: for each deck, the faces
(each drawn once) with the chosen font size of every frame, the cards in deck order, and the
booklet's blocks. Everything that cannot be laid out is reported here, before anything is drawn.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from printshop.colour import Paints
from printshop.diagnostics import Location, Report
from printshop.fitting import Fit, fit
from printshop.fonts import FontSet
from printshop.loader import Project
from printshop.model import BookletStyle, CardEntry, CardSize, Deck, Face, Frame, SheetSpec
from printshop.resolve import LocalizedGame, template_context
from printshop.richtext import Block, Para, RichTextError, Table, parse_blocks, plain_text, uppercase
from printshop.templating import TemplateFailure, render_blocks, render_template
from printshop.texts import MissingText, placeholders


@dataclass
class FrameLayout:
    name: str
    frame: Frame
    fit: Fit
    blocks: list[Block]  # kept so a renderer can set the text again in its own colours, at fit.size


@dataclass
class FaceLayout:
    key: str
    face_name: str
    face: Face
    width: float
    height: float
    bleed: float
    frames: list[FrameLayout]


@dataclass
class DeckLayout:
    id: str
    deck: Deck
    size: CardSize
    faces: dict[str, FaceLayout]
    cards: list[tuple[str, str | None]]  # (front face key, back face key or None), one per physical card


@dataclass
class SheetLayout:
    id: str
    spec: SheetSpec
    faces: list[FaceLayout]  # one per item (a single one for a sheet without items)


@dataclass
class BookletLayout:
    blocks: list[Block]
    style: BookletStyle


@dataclass
class GameLayout:
    game_id: str
    lang: str
    localized: LocalizedGame
    title: str
    decks: list[DeckLayout] = field(default_factory=list)
    sheets: list[SheetLayout] = field(default_factory=list)
    booklet: BookletLayout | None = None


def lay_out_game(project: Project, localized: LocalizedGame, fonts: FontSet, env, report: Report) -> GameLayout:
    game = localized.data
    context = template_context(localized)
    layout = GameLayout(game.id, localized.lang, localized, localized.plain(game.game.title))
    palette = project.colours.palette
    for deck_id, deck in game.game.decks.items():
        size = project.media.card_sizes.get(deck.card_size)
        if size is None:
            continue  # reported by the validator
        faces: dict[str, FaceLayout] = {}
        cards: list[tuple[str, str]] = []
        for card in deck.cards:
            front_key = f"{deck_id}/{card.id}/front"
            back_key = f"{deck_id}/{card.id}/back" if card.back else f"{deck_id}/back"
            sides = [(front_key, card.front, card)]
            if card.back or deck.back:
                sides.append((back_key, card.back or deck.back, card if card.back else None))
            else:
                back_key = None  # a one-sided deck
            for key, face_name, entry in sides:
                if key not in faces:
                    laid = lay_out_face(key, face_name, entry, game.faces, (size.width, size.height), deck.bleed,
                                        context, localized, palette, fonts, env, report)
                    if laid is not None:
                        faces[key] = laid
            cards.extend([(front_key, back_key)] * card.count)
        layout.decks.append(DeckLayout(deck_id, deck, size, faces, cards))
    for sheet_id, spec in game.game.sheets.items():
        laid_out = []
        for item in spec.items or [None]:
            entry = CardEntry(id=item.id, kind="sheet", front=item.face or spec.face, vars=item.vars) if item else None
            laid = lay_out_face(f"sheet/{sheet_id}/{item.id if item else ''}", item.face or spec.face if item
                                else spec.face, entry, game.faces, (spec.width, spec.height), spec.bleed, context,
                                localized, palette, fonts, env, report)
            if laid is not None:
                laid_out.append(laid)
        if len(laid_out) == len(spec.items or [None]):
            layout.sheets.append(SheetLayout(sheet_id, spec, laid_out))
    if game.game.booklet is not None:
        layout.booklet = lay_out_booklet(project, localized, context, fonts, env, report)
    return layout


def lay_out_face(key: str, face_name: str, card: CardEntry | None, faces: dict[str, Face], size: tuple[float, float],
                 bleed: float, context: dict, localized: LocalizedGame, palette: dict[str, str], fonts: FontSet,
                 env, report: Report) -> FaceLayout | None:
    """Render the face's template blocks for `card` (None for a shared back or a sheet) and fit each
    into its frame, for a face of `size` (width, height) drawn `bleed` past its trim."""
    face = faces.get(face_name)
    if face is None or face.template is None:
        return None  # reported by the validator
    card_context = dict(context, card=_card_context(card), face=face_name)
    try:
        blocks = render_blocks(env, face.template, card_context)
    except TemplateFailure as failure:
        if not _missing_translation(failure, localized):  # the validator reports those, once, at the text
            report.add("template", failure.location, f"{failure} (face '{face_name}', language {localized.lang})")
        return None
    template_path = Location.of(env.loader.searchpath[0] + "/" + face.template)
    for block in blocks:
        if block not in face.frames:
            report.add("unknown-reference", template_path,
                       f"block '{block}' has no frame in face '{face_name}' (frames: {', '.join(face.frames)})")
    frames = []
    for name, frame in face.frames.items():
        if name not in blocks:
            report.add("template", template_path,
                       f"face '{face_name}' has a frame '{name}' ({frame.where()}) but the template has no block for it")
            continue
        what = f"card '{card.id if card else 'back'}', frame '{name}', language {localized.lang}"
        laid = lay_out_frame(blocks[name], frame, what, face.where("frames"), localized, palette, fonts, report)
        if laid is not None:
            frames.append(FrameLayout(name, frame, *laid))
    return FaceLayout(key, face_name, face, size[0], size[1], bleed, frames)


def lay_out_frame(markup: str, frame: Frame, what: str, where: Location, localized: LocalizedGame,
                  palette: dict[str, str], fonts: FontSet, report: Report) -> tuple[Fit, list[Block]] | None:
    if frame.colour not in palette or not fonts.has(frame.font):
        return None  # the validator reports the unknown colour or font
    try:
        blocks = parse_blocks(markup)
    except RichTextError as error:
        report.add("template", frame.where(), f"{what}: {error}")
        return None
    if not _check_text(blocks, frame.font, frame.uppercase, what, frame.where(), fonts, report):
        return None
    result = fit(blocks, frame, frame.width, frame.height, Paints(palette))
    if not result.fits:
        minimum = frame.min_size if frame.min_size is not None else frame.size
        if result.too_wide:
            detail = "a word is wider than the frame"
        else:
            detail = (f"overflows by {max(result.overflow, 0.1):.1f} pt (about {result.overflow_lines} line"
                      f"{'s' if result.overflow_lines != 1 else ''})")
        report.add("text-overflow", frame.where(),
                   f"{what}: the text does not fit at the minimum size {minimum:g} pt: {detail}")
    return result, blocks


def _check_text(blocks: list[Block], font: str, upper: bool, what: str, where: Location, fonts: FontSet,
                report: Report) -> bool:
    ok = True
    for markup in _markups(blocks):
        left = placeholders(markup)
        if left:
            report.add("placeholder", where, f"{what}: the placeholder(s) {', '.join(sorted(left))} were not filled")
            ok = False
        if fonts.has(font):
            text = plain_text(uppercase(markup) if upper else markup)
            missing = fonts.missing_characters(font, text)
            if missing:
                shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing)
                report.add("missing-glyph", where, f"{what}: the font '{font}' has no {shown}")
                ok = False
    return ok


def _markups(blocks: list[Block]):
    for block in blocks:
        if isinstance(block, Para):
            yield block.markup
        elif isinstance(block, Table):
            for row in block.rows:
                for _, markup in row:
                    yield markup


def _missing_translation(failure: TemplateFailure, localized: LocalizedGame) -> bool:
    source = localized.data.source
    return (isinstance(failure.cause, MissingText) and source is not None
            and localized.lang != source.lang and failure.cause.text_id in source.entries)


def _card_context(card: CardEntry | None) -> dict | None:
    if card is None:
        return None
    return {"id": card.id, "kind": card.kind, "count": card.count, "vars": dict(card.vars)}


def lay_out_booklet(project: Project, localized: LocalizedGame, context: dict, fonts: FontSet, env,
                    report: Report) -> BookletLayout | None:
    spec = localized.data.game.booklet
    try:
        markup = render_template(env, spec.template, context)
    except TemplateFailure as failure:
        if not _missing_translation(failure, localized):
            report.add("template", failure.location, f"{failure} (rules booklet, language {localized.lang})")
        return None
    template_path = Location.of(env.loader.searchpath[0] + "/" + spec.template)
    try:
        blocks = parse_blocks(markup)
    except RichTextError as error:
        report.add("template", Location(template_path.path, error.line, 1), f"{error} (rules booklet)")
        return None
    style = project.booklet
    for block in blocks:
        if isinstance(block, Para):
            text_style = style.styles.get(block.style)
            if text_style is not None and not fonts.has(text_style.font):
                continue  # reported by the validator
            if text_style is None:
                report.add("unknown-reference", style.where("styles"),
                           f"the booklet uses the style '{block.style}', which booklet.yaml does not define")
                continue
            _check_text([block], text_style.font, text_style.uppercase, f"rules booklet ({localized.lang})",
                        template_path, fonts, report)
    return BookletLayout(blocks, style)
