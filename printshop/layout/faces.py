"""Stage 4, lay out: render every face's template blocks and fit them into the layout's frames.

The result is a plan the renderer follows without further decisions: for each deck, the faces
(each drawn once) with the chosen font size of every frame, the cards in deck order, and the
booklet's blocks. Everything that cannot be laid out is reported here, before anything is drawn.
"""

from __future__ import annotations

import difflib
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from printshop.diagnostics import Location, Report, Severity, did_you_mean
from printshop.language.resolve import LocalizedGame, sheet_context, template_context
from printshop.language.texts import MissingText, PlaceholderError, keep_with_next, placeholders
from printshop.layout.design import same_size_across_deck
from printshop.memo import Memo
from printshop.project.loader import Project
from printshop.project.model import BookletStyle, CardEntry, CardSize, Deck, Face, Frame, SheetSpec
from printshop.project.source import place_of
from printshop.project.units import parse_length, to_mm
from printshop.render.colour import Paints, StandIn
from printshop.typeset.fitting import Fit, fit, runts
from printshop.typeset.fonts import FontSet
from printshop.typeset.richtext import (
    HOME_ONLY,
    Art,
    Block,
    Para,
    RichTextError,
    Spacer,
    Table,
    parse_blocks,
    plain_text,
    uppercase,
)
from printshop.typeset.templating import (
    TemplateFailure,
    render_blocks,
    render_template,
    template_location,
)
from printshop.write import fitstore


@dataclass
class FrameLayout:
    name: str
    frame: Frame
    fit: Fit
    blocks: list[Block]  # kept so a renderer can set the text again in its own colours, at fit.size
    text_ids: tuple[
        str, ...
    ] = ()  # the texts the frame prints, in the order the template read them


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
    cards: list[
        tuple[str, str | None]
    ]  # (front face key, back face key or None), one per physical card


@dataclass
class SheetLayout:
    id: str
    spec: SheetSpec
    faces: list[FaceLayout]  # one per item (a single one for a sheet without items)
    backs: list[FaceLayout] = field(
        default_factory=list
    )  # the back of each face, in the same order; none: one-sided


@dataclass
class BookletLayout:
    blocks: list[Block]
    style: BookletStyle
    text_ids: tuple[
        str, ...
    ] = ()  # the texts the template printed, in the order it read them (serve: a page's sources)


@dataclass
class GameLayout:
    game_id: str
    lang: str
    localized: LocalizedGame
    title: str
    decks: list[DeckLayout] = field(default_factory=list)
    sheets: list[SheetLayout] = field(default_factory=list)
    booklet: BookletLayout | None = None


# what layout itself reports; the rest, found before layout, are errors in the data
LAYOUT_CODES = frozenset({"template", "text-overflow", "missing-glyph", "placeholder"})


@dataclass
class DataErrors:
    """The errors loading and validation found in a game's own files (game.yaml, faces.yaml), so that one
    error in the data gives one diagnostic: a card or sheet whose entry has an error is not laid out (its
    template would only fail again on the same value), and a template that fails while the game's data
    has errors is reported once, as an info held back until the data is fixed."""

    locations: list[Location]

    @classmethod
    def of(cls, game, report: Report) -> "DataErrors":
        files = {Location.of(game.dir / "game.yaml").path, Location.of(game.faces_path).path}
        return cls(
            [
                d.location
                for d in report.items
                if d.severity is Severity.ERROR
                and d.code not in LAYOUT_CODES
                and d.location.path in files
            ]
        )

    def explain(self, *entries) -> bool:
        """Whether an error stands in one of these entries (a card, a sheet, a sheet's item)."""
        return any(
            entry is not None and entry.covers(location)
            for entry in entries
            for location in self.locations
        )


def lay_out_game(
    project: Project,
    localized: LocalizedGame,
    fonts: FontSet,
    env,
    report: Report,
    lay_out=None,
    resized=None,
) -> GameLayout:
    """`lay_out` stands in for `lay_out_face` (same arguments): a long-running session passes one that
    reuses a face laid out before when nothing it read has changed (session.py), and `resized`, where the
    faces set at one size across their deck are kept (design.same_size_across_deck)."""
    lay_out = lay_out or lay_out_face
    game = localized.data
    context = template_context(localized)
    errors = DataErrors.of(game, report)
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
                if key not in faces and not errors.explain(card):
                    laid = lay_out(
                        key,
                        face_name,
                        entry,
                        game.faces,
                        (size.width, size.height),
                        deck.bleed,
                        context,
                        localized,
                        palette,
                        fonts,
                        env,
                        report,
                        errors=errors,
                    )
                    if laid is not None:
                        faces[key] = laid
            cards.extend([(front_key, back_key)] * card.count)
        # one text size per frame across the deck (size_across; docs/design.md)
        same_size_across_deck(
            deck_id,
            faces,
            localized.lang,
            localized.language.typography.hyphenation,
            palette,
            report,
            resized,
        )
        layout.decks.append(DeckLayout(deck_id, deck, size, faces, cards))
    for sheet_id, spec in game.game.sheets.items():
        laid_out, backs = [], []
        two_sided = spec.back is not None or any(item.back for item in spec.items)
        for item in spec.items or [None]:
            if errors.explain(item if item is not None else spec):
                continue
            entry = (
                CardEntry(id=item.id, kind="sheet", front=item.face or spec.face, vars=item.vars)
                if item
                else None
            )
            laid = lay_out(
                f"sheet/{sheet_id}/{item.id if item else ''}",
                item.face or spec.face if item else spec.face,
                entry,
                game.faces,
                (spec.width, spec.height),
                spec.bleed,
                sheet_context(context, sheet_id, spec, item),
                localized,
                palette,
                fonts,
                env,
                report,
                errors=errors,
            )
            if laid is not None:
                laid_out.append(laid)
            back_name = (item.back if item is not None else None) or spec.back
            if (
                back_name is not None
            ):  # the back sees the same item as its front (a role sheet's back may name it)
                back = lay_out(
                    f"sheet/{sheet_id}/{item.id}/back" if item else f"sheet/{sheet_id}/back",
                    back_name,
                    entry,
                    game.faces,
                    (spec.width, spec.height),
                    spec.bleed,
                    sheet_context(context, sheet_id, spec, item),
                    localized,
                    palette,
                    fonts,
                    env,
                    report,
                    errors=errors,
                )
                if back is not None:
                    backs.append(back)
        if len(laid_out) == len(spec.items or [None]) and len(backs) == (
            len(laid_out) if two_sided else 0
        ):
            layout.sheets.append(SheetLayout(sheet_id, spec, laid_out, backs))
    _report_runts(
        layout, report
    )  # as the cards print: after each deck's frames took their one size
    if game.game.booklet is not None:
        layout.booklet = lay_out_booklet(project, localized, context, fonts, env, report, errors)
    return layout


def _report_runts(layout: GameLayout, report: Report) -> None:
    """A paragraph that still ends with one word alone on its last line (fitting could neither tie its last
    words nor narrow its measure without taking another line, nor set it a step smaller): one warning per text
    and frame, at the text (the frame's place follows for the designer), naming the cards or sheets it prints on."""
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
        culprit = _culprit(text_ids, layout.localized, ending=word)
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
    """What a face key names, for people: card 'informer', the back of deck 'cards', sheet 'roles' (heir)."""
    parts = key.split("/")
    if parts[0] == "sheet":
        item = parts[2] if len(parts) > 2 and parts[2] else ""
        side = " back" if parts[-1] == "back" and len(parts) > 3 else ""
        return f"sheet '{parts[1]}'" + (f" ({item}{side})" if item else side)
    if len(parts) == 2:
        return f"the back of deck '{parts[0]}'"
    return f"card '{parts[1]}'" + (" (back)" if parts[2] == "back" else "")


def lay_out_face(
    key: str,
    face_name: str,
    card: CardEntry | None,
    faces: dict[str, Face],
    size: tuple[float, float],
    bleed: float,
    context: dict,
    localized: LocalizedGame,
    palette: dict[str, str],
    fonts: FontSet,
    env,
    report: Report,
    *,
    errors: DataErrors | None = None,
    stand_ins: bool = False,
) -> FaceLayout | None:
    """Render the face's template blocks for `card` (None for a shared back or a sheet) and fit each
    into its frame, for a face of `size` (width, height) drawn `bleed` past its trim. A frame in a colour the
    palette lacks or a font there is not is left out (the validator reports the name); with `stand_ins` (a
    session's preview, which writes nothing while there are errors) it is laid out in magenta instead."""
    face = faces.get(face_name)
    if face is None or face.template is None:
        return None  # reported by the validator
    card_context = dict(context, card=_card_context(card), face=face_name)
    try:
        blocks = render_blocks(env, face.template, card_context)
    except TemplateFailure as failure:
        if (
            failure.missing == face.template
        ):  # the face names a template there is not: where it names it
            failure.location = face.where("template")
        if not _missing_translation(
            failure, localized
        ):  # the validator reports those, once, at the text
            what = (
                f"face '{face_name}'"
                if card is None or card.kind == "sheet"
                else f"card '{card.id}', face '{face_name}'"
            )
            _report_failure(report, failure, what, localized, errors)
        return None
    template_path = _Lazy(
        lambda: template_location(env, face.template)
    )  # needed only to report a fault
    for block in blocks:
        if block not in face.frames:
            unfilled = [name for name in face.frames if name not in blocks]
            _report_once(
                report,
                "unknown-reference",
                _block_location(template_path(), block),
                f"block '{block}' of {face.template} has no frame in face '{face_name}'"
                + (
                    did_you_mean(block, unfilled, cutoff=0.5)
                    or f" (frames: {', '.join(face.frames)})"
                ),
                cause=f"block '{block}' of {face.template} has no frame",
            )
    frames = []
    for name, frame in face.frames.items():
        if name not in blocks:
            # once per template and block, however many faces, cards and languages use them
            _report_once(
                report,
                "template",
                template_path(),
                f"{face.template} has no block '{name}' for the frame '{name}' of face '{face_name}'",
                hint=f"add {{% block {name} %}}…{{% endblock %}} to the template, or remove the frame "
                "from faces.yaml",
                also=f"frame: {frame.where()}",
                cause=f"{face.template} has no block '{name}'",
            )
            continue
        what = f"card '{card.id if card else 'back'}', frame '{name}', language {localized.lang}"
        text_ids = tuple(blocks.reads.get(name, ()))
        if frame.colour in palette and fonts.has(frame.font):
            laid = lay_out_frame(
                blocks[name],
                frame,
                what,
                localized,
                palette,
                fonts,
                report,
                text_ids,
                template=lambda name=name: _block_location(template_path(), name),
            )
        elif stand_ins:
            # a preview shows the text all the same, in magenta (stand_in_frame); what the stand-in meets goes
            # unreported: the fault to show is the validator's, naming the colour or the font
            frame = stand_in_frame(frame, fonts)
            laid = lay_out_frame(
                blocks[name], frame, what, localized, StandIn(palette), fonts, Report(), text_ids
            )
        else:
            laid = None  # the validator reports the unknown colour or font
        if laid is not None:
            frames.append(FrameLayout(name, frame, *laid, text_ids))
    return FaceLayout(key, face_name, face, size[0], size[1], bleed, frames)


class _Lazy:
    """A value worked out when first asked for (`value()`), then kept."""

    def __init__(self, make):
        self._make, self._value, self._made = make, None, False

    def __call__(self):
        if not self._made:
            self._value, self._made = self._make(), True
        return self._value


def lay_out_frame(
    markup: str,
    frame: Frame,
    what: str,
    localized: LocalizedGame,
    palette: dict[str, str],
    fonts: FontSet,
    report: Report,
    text_ids: tuple[str, ...] = (),
    *,
    template: Callable[[], Location] | None = None,
) -> tuple[Fit, list[Block]] | None:
    """The text `markup` parsed, checked against the frame's font, its short words tied and fitted into `frame`:
    (the fit, the blocks as fitted), or None when the text cannot be set (reported).

    A text laid out without a word to say is remembered by everything setting it reads (the markup, the frame's
    type and size, its colour's value, the language's ties and hyphenation, the fonts registered): a check of a copy
    of the same data, a build after a check and a session's refreshes meet the same texts in the same frames again
    and again, and each went through parsing, the font's characters, the ties and fit's own memo once more. One that
    was reported (a character the font lacks, a placeholder left, a text that does not fit) is laid out, and
    reported, every time. Nothing is kept while `printshop validate` fits from its store: those fits hold no
    flowables, which a later build in the process would want."""
    key = (
        markup,
        _setting(frame),
        palette.get(frame.colour),
        localized.setting,
        fonts.has(frame.font),
        fonts.fallback,
    )
    known = _LAID_OUT.get(key)
    if known is not None:
        return known[0], list(known[1])
    before = len(report.items)
    laid = _lay_out_frame(
        markup, frame, what, localized, palette, fonts, report, text_ids, template
    )
    if (
        laid is not None
        and laid[0].fits
        and len(report.items) == before
        and fitstore.ACTIVE is None
    ):
        _LAID_OUT[key] = (laid[0], tuple(laid[1]))
    return laid


# the texts laid out without a diagnostic, with their fits (which `fit` keeps as many of: fitting._FITTED)
_LAID_OUT: Memo = Memo(5000)
# a frame's fields that change how its text is set (the others place it: x, y, valign, rotate)
SETTING_FIELDS = (
    "font",
    "size",
    "min_size",
    "leading",
    "colour",
    "align",
    "space_before",
    "space_after",
    "indent",
    "uppercase",
    "width",
    "height",
    "size_across",
)
_setting = operator.attrgetter(*SETTING_FIELDS)


def _lay_out_frame(
    markup: str,
    frame: Frame,
    what: str,
    localized: LocalizedGame,
    palette: dict[str, str],
    fonts: FontSet,
    report: Report,
    text_ids: tuple[str, ...],
    template: Callable[[], Location] | None = None,
) -> tuple[Fit, list[Block]] | None:
    try:
        blocks = parse_blocks(markup)
    except RichTextError as error:
        if template is None:
            report.add("template", frame.where(), f"{what}: {error}")
        else:  # a tag the template writes (a text's own markup is escaped): at the template's block, once
            block = template()
            _report_once(
                report,
                "template",
                _after(block, error.needle),
                str(error),
                also=f"frame: {frame.where()}",
                cause=str(error),
            )
        return None
    if not _check_text(
        blocks,
        frame.font,
        frame.uppercase,
        what,
        frame.where,
        fonts,
        report,
        lambda missing: _holding(missing, text_ids, localized, frame.uppercase),
        template,
    ):
        return None
    blocks = tied(blocks, localized.language.typography, lambda block: frame.align)
    result = fit(
        blocks,
        frame,
        frame.width,
        frame.height,
        Paints(palette),
        localized.language.typography.hyphenation,
    )
    if not result.fits:
        _report_overflow(result, blocks, frame, what, text_ids, localized, report, template)
    return result, blocks


def tied(blocks: list[Block], typography, align_of: Callable[[Para], str | None]) -> list[Block]:
    """`blocks` with the language's short words and numbers kept with the word after them (texts.keep_with_next)
    in each paragraph `align_of` does not say is justified: a card's ragged or centred text, a title, a booklet's
    headings and list items. A justified paragraph keeps its breaks: a tie there opens the line above it wide."""
    if not (typography.keep_with_next or typography.numbers_with_next):
        return blocks
    kept = []
    for block in blocks:
        if isinstance(block, Para) and align_of(block) not in ("justify", None):
            markup = keep_with_next(block.markup, typography)
            block = block if markup == block.markup else Para(block.style, markup, block.bullet)
        kept.append(block)
    return kept


STANDING_IN = "(not in the palette)"  # the colour a stand-in for a missing font is drawn in: one no palette has


def stand_in_frame(frame: Frame, fonts: FontSet) -> Frame:
    """`frame` as a preview draws it when its font is not registered: in the registered face whose name is most
    like it (a mistyped 'sans-boldy' in 'sans-bold'), in a colour no palette has (the overset's magenta, as for
    a missing colour), so that the text shows, and shows where the fault is. A missing colour needs no change:
    the palette stands in (colour.StandIn). Any style with a font (a booklet's paragraphs, its folio) likewise."""
    if fonts.has(frame.font):
        return frame
    names = sorted(fonts.faces)
    if not names:
        return frame
    close = difflib.get_close_matches(frame.font, names, n=1, cutoff=0.0)
    return frame.model_copy(update={"font": close[0] if close else names[0], "colour": STANDING_IN})


def stand_in_booklet(booklet: BookletLayout, fonts: FontSet) -> BookletLayout:
    """`booklet` as a preview renders it when a style of booklet.yaml names a font that is not registered: each
    such style (the folio too) stood in for as `stand_in_frame` stands in for a frame's. Unchanged otherwise."""
    style = booklet.style
    styles = {name: stand_in_frame(text_style, fonts) for name, text_style in style.styles.items()}
    folio = stand_in_frame(style.folio, fonts)
    if folio is style.folio and all(
        styles[name] is text_style for name, text_style in style.styles.items()
    ):
        return booklet
    return replace(booklet, style=style.model_copy(update={"styles": styles, "folio": folio}))


def _report_overflow(
    result: Fit,
    blocks: list[Block],
    frame: Frame,
    what: str,
    text_ids: tuple[str, ...],
    localized: LocalizedGame,
    report: Report,
    template: Callable[[], Location] | None = None,
) -> None:
    """At the text that causes it (the longest the frame prints, in this language's file), with about how
    many characters too many; the frame's place follows on a second line for the designer."""
    minimum = frame.min_size if frame.min_size is not None else frame.size
    if result.too_wide:
        detail = "a word is wider than the frame"
        excess = ""
    else:
        detail = (
            f"overflows by {max(result.overflow, 0.1):.1f} pt (about {result.overflow_lines} line"
            f"{'s' if result.overflow_lines != 1 else ''})"
        )
        characters = sum(len(plain_text(markup)) for markup in _markups(blocks))
        # the text takes `height` points where the frame has `available`: the share beyond is about this many characters
        too_many = max(1, round(characters * result.overflow / max(result.height, 1.0)))
        excess = f"about {too_many} character{'s' if too_many != 1 else ''} too long "
    culprit = _culprit(text_ids, localized)
    what = what.rsplit(", language ", 1)[0]  # the language is named beside the id
    if (
        culprit is None and template is not None and not text_ids
    ):  # words the template writes itself: its to mend,
        # once (it was said at the frame, once per card and language)
        _report_once(
            report,
            "text-overflow",
            template(),
            f"what this block writes (no text of the language files) does not fit its frame at the minimum "
            f"size {minimum:g} pt: {detail}",
            also=f"frame: {frame.where()}",
            cause=f"the block's own words do not fit at {minimum:g} pt",
            hint="shorten what the template writes, or enlarge the frame or lower its min_size",
        )
        return
    if culprit is None:
        report.add(
            "text-overflow",
            frame.where(),
            f"{what}, language {localized.lang}: the text does not fit at the minimum size {minimum:g} pt: {detail}",
        )
        return
    report.add(
        "text-overflow",
        culprit.location,
        f"'{culprit.id}' ({localized.lang}) is {excess or 'too wide '}for {what} at the "
        f"minimum size {minimum:g} pt ({detail})",
        hint="shorten the text (or, for a word wider than the frame, choose a shorter word)",
        also=f"frame: {frame.where()} (for the designer: enlarge the frame or lower its min_size)",
    )


def written_entry(catalogue, text_id: str, variant: str | None):
    """Where the text `text_id` prints from is written in `catalogue`: the naming variant's own text where it
    replaces the id, else the id's (None: the catalogue lacks it)."""
    entry = catalogue.entries.get(f"variant.{variant}.{text_id}") if variant else None
    return entry or catalogue.entries.get(text_id)


def _written_entries(text_ids: tuple[str, ...], localized: LocalizedGame) -> list:
    """A frame's texts as written in this language's file (a naming variant's own text where it replaces the id)."""
    catalogue = localized.data.catalogues.get(localized.lang)
    if catalogue is None:
        return []
    return [
        entry
        for entry in (written_entry(catalogue, text_id, localized.variant) for text_id in text_ids)
        if entry is not None
    ]


def _culprit(text_ids: tuple[str, ...], localized: LocalizedGame, ending: str = ""):
    """The longest text of the frame, as written in this language's file; with `ending`, the longest of those
    whose text ends with that word, if any."""
    entries = _written_entries(text_ids, localized)
    last = ending.split()[-1] if ending.split() else ""
    ending_so = [
        entry for entry in entries if last and plain_text(entry.text).rstrip().endswith(last)
    ]
    return max(ending_so or entries, key=lambda entry: len(entry.text), default=None)


def _holding(
    characters: list[str], text_ids: tuple[str, ...], localized: LocalizedGame, upper: bool
):
    """The first of a frame's texts, as written in this language's file, that holds one of `characters`."""
    return next(
        (
            entry
            for entry in _written_entries(text_ids, localized)
            if any(ch in (uppercase(entry.text) if upper else entry.text) for ch in characters)
        ),
        None,
    )


def _check_text(
    blocks: list[Block],
    font: str,
    upper: bool,
    what: str,
    where: Callable[[], Location],
    fonts: FontSet,
    report: Report,
    holding: Callable[[list[str]], object] | None = None,
    template: Callable[[], Location] | None = None,
) -> bool:
    """Placeholders left unfilled and characters the font lacks, reported at `where()` (worked out only then); a
    character lacking is reported at the text that holds it, where `holding` finds it: the translator typed it
    there, and the frame is named for the designer. A placeholder left is the template's to fill: at its block
    (`template`), once, where it has one."""
    ok = True
    for markup in _markups(blocks):
        left = placeholders(markup)
        if left:
            names = ", ".join(sorted(left))
            if template is not None:
                fills = ", ".join(f"{name}=…" for name in sorted(left))
                _report_once(
                    report,
                    "placeholder",
                    template(),
                    f"the text this block prints has {{{names}}}, which the template does not fill",
                    also=f"frame: {where()}",
                    cause=f"placeholders {names} not filled",
                    hint=f"fill it where the template prints the text: {{{{ t.… | fill({fills}) }}}}",
                )
            else:
                report.add(
                    "placeholder", where(), f"{what}: the placeholder(s) {names} were not filled"
                )
            ok = False
        if fonts.has(font):
            text = plain_text(uppercase(markup) if upper else markup)
            missing = fonts.missing_characters(font, text)
            if missing:
                shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing)
                entry = holding(missing) if holding is not None else None
                if entry is not None:
                    report.add(
                        "missing-glyph",
                        entry.location,
                        f"'{entry.id}', {what}: the font '{font}' has no {shown}",
                        also=f"frame: {where()} (for the designer: a font that has it)",
                    )
                else:
                    report.add(
                        "missing-glyph", where(), f"{what}: the font '{font}' has no {shown}"
                    )
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
    return (
        isinstance(failure.cause, MissingText)
        and source is not None
        and localized.lang != source.lang
        and failure.cause.text_id in source.entries
    )


def _report_failure(
    report: Report,
    failure: TemplateFailure,
    what: str,
    localized: LocalizedGame,
    errors: DataErrors | None,
) -> None:
    """A template failure, once per cause: the same failure at the same template line for another card,
    face or language is the same fault. While the game's data has errors, it is an info: it may follow
    from them, and is worth reading only once they are fixed."""
    catalogue = localized.data.catalogues.get(localized.lang)
    if isinstance(failure.cause, PlaceholderError) and _report_placeholder(
        report, failure, what, localized.lang, catalogue, localized.data.source
    ):
        return
    message = f"{failure} ({what}, language {localized.lang})"
    also = f"called from {failure.called_from}" if failure.called_from is not None else ""
    hint = failure.hint
    if isinstance(failure.cause, MissingText) and catalogue is not None:
        # the template may well be right: a new card, kind or sheet whose texts were not written yet
        place = catalogue.where_missing(failure.cause.text_id)
        hint = (
            f"write the text '{failure.cause.text_id}' in {place.path} (near line {place.line}), or correct "
            f"the name the template reads at the place shown"
        )
    if errors is not None and errors.locations:
        first = errors.locations[0]
        _report_once(
            report,
            "template",
            failure.location,
            f"{message}; held back: the game's data has errors (the first at {first}), which it may "
            f"follow from",
            severity=Severity.INFO,
            also=also,
            hint=hint,
            cause=str(failure),
        )
        return
    _report_once(
        report, "template", failure.location, message, also=also, hint=hint, cause=str(failure)
    )


def _report_placeholder(
    report: Report, failure: TemplateFailure, what: str, lang: str, catalogue, source
) -> bool:
    """A text with a placeholder its template does not give ("{âge}" where the template gives "age"): the
    fault is in the text, so it is reported there, once per text, the template's line beside it. False when
    no text of the language has it (the template's own literal, say): then it is the template's. A translation
    whose placeholders differ from its source's is left to the validator, which says so at the same text."""
    cause: PlaceholderError = failure.cause
    texts = (
        [entry for entry in catalogue.entries.values() if cause.name in placeholders(entry.text)]
        if catalogue
        else []
    )
    given = ", ".join("{" + name + "}" for name in cause.given) or "none"
    for entry in texts:
        made_from = (
            source.entries.get(entry.id) if source is not None and source.lang != lang else None
        )
        if made_from is not None and placeholders(made_from.text) != placeholders(entry.text):
            continue
        _report_once(
            report,
            "placeholder",
            entry.location,
            f"'{entry.id}' ({lang}) uses the placeholder {{{cause.name}}}, which its template does "
            f"not give ({what}; it gives: {given})",
            hint=f"write one the template gives ({given}), spelt as in the template; or give "
            f"{{{cause.name}}} in the template",
            also=f"template: {failure.location}",
            cause=f"'{entry.id}' uses the placeholder {{{cause.name}}}",
        )
    return bool(texts)


def _report_once(
    report: Report,
    code: str,
    location: Location,
    message: str,
    *,
    severity: Severity | None = None,
    hint: str = "",
    also: str = "",
    cause: str | None = None,
) -> None:
    """Add the diagnostic unless one with the same code, place and cause is there (`cause`: the part of the
    message that names the fault, without the card, face or language it was met in)."""
    key = _cause_key(cause if cause is not None else message)
    for item in report.items:
        if item.code == code and item.location == location:
            if item.once == key:
                return
            seen = _cause_key(item.message)
            if seen == key or seen.startswith((key + " ", key + ";")):
                return
    report.add(code, location, message, severity, hint=hint, also=also, once=key)


def _cause_key(message: str) -> str:
    """A message without the language it was met in (a missing text id is missing in every language)."""
    return re.sub(r" in language '[^']*'", "", message)


def _after(where: Location, needle: str) -> Location:
    """Where `needle` first stands in the file at or after `where` (a template's block); else `where`."""
    try:
        lines = Path(where.path).read_text(encoding="utf-8").splitlines(keepends=True)
    except (OSError, UnicodeDecodeError):
        return where
    if not needle or not 0 < where.line <= len(lines):
        return where
    start = sum(map(len, lines[: where.line - 1])) + max(where.col - 1, 0)
    text = "".join(lines)
    at = text.find(needle, start)
    return Location(where.path, *place_of(text, at)) if at >= 0 else where


def _block_location(template: Location, block: str) -> Location:
    """The line and column of `{% block name %}` in the template, else its first line."""
    try:
        lines = Path(template.path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return template
    pattern = re.compile(r"\{%-?\s*block\s+" + re.escape(block) + r"\b")
    for number, line in enumerate(lines, start=1):
        found = pattern.search(line)
        if found:
            return Location(template.path, number, found.start() + 1)
    return template


def _card_context(card: CardEntry | None) -> dict | None:
    if card is None:
        return None
    return {"id": card.id, "kind": card.kind, "count": card.count, "vars": dict(card.vars)}


def lay_out_booklet(
    project: Project,
    localized: LocalizedGame,
    context: dict,
    fonts: FontSet,
    env,
    report: Report,
    errors: DataErrors | None = None,
) -> BookletLayout | None:
    spec = localized.data.game.booklet
    tree = context.get("t")
    logs = hasattr(tree, "start_log")
    reads = tree.start_log() if logs else []
    try:
        markup = render_template(env, spec.template, context)
    except TemplateFailure as failure:
        if (
            failure.missing == spec.template
        ):  # game.yaml names a template there is not: where it names it
            failure.location = spec.where("template")
        if not _missing_translation(failure, localized):
            _report_failure(report, failure, "rules booklet", localized, errors)
        return None
    finally:
        if logs:
            tree.stop_log()
    template_path = template_location(env, spec.template)
    try:
        blocks = parse_blocks(markup)
    except RichTextError as error:
        _report_once(
            report,
            "template",
            found_in_template(template_path, error.needle, max(error.line, 1)),
            f"{error} (rules booklet)",
        )
        return None
    style = project.booklet
    _check_block_sizes(blocks, project, template_path, report)
    for block in blocks:
        if isinstance(
            block, Art
        ):  # a motif and colour the booklet draws: else the build failed at them
            motifs, palette = project.motifs.motifs, project.colours.palette
            for kind, name, names in (
                ("motif", block.motif, motifs),
                ("colour", block.colour, palette),
            ):
                if name not in names:
                    _report_once(
                        report,
                        "unknown-reference",
                        found_in_template(template_path, f'{kind}="{name}"'),
                        f"<art {kind}=\"{name}\">: no {kind} '{name}'{did_you_mean(name, names)} "
                        f"({kind}s: {', '.join(names)}) (rules booklet)",
                    )
        if isinstance(block, Para):
            text_style = style.styles.get(block.style)
            if text_style is not None and not fonts.has(text_style.font):
                continue  # reported by the validator
            if text_style is None:
                report.add(
                    "unknown-reference",
                    style.where("styles"),
                    f"the booklet uses the style '{block.style}', which booklet.yaml does not define",
                )
                continue
            _check_text(
                [block],
                text_style.font,
                text_style.uppercase,
                f"rules booklet ({localized.lang})",
                lambda: template_path,
                fonts,
                report,
            )
    blocks = tied(blocks, localized.language.typography, lambda block: booklet_align(style, block))
    return BookletLayout(blocks, style, tuple(dict.fromkeys(reads)))


def _check_block_sizes(
    blocks: list[Block], project: Project, template_path: Location, report: Report
) -> None:
    """A `<spacer>` or `<art>` taller than the booklet page's text area cannot be set on any
    page: the build failed at it ("the paragraph '...…' is 250 mm tall", at printshop's own booklet.yaml)."""
    style = project.booklet
    paper = project.media.papers.get(style.paper)
    if paper is None:
        return  # (reported by the validator)
    height = (
        paper.height - style.margins.top - style.margins.bottom
    )  # (an art wider than the text runs into the margins)
    area = f"a booklet page ({paper.label or style.paper}) holds {to_mm(height):.0f} mm inside its margins"
    for block in blocks:
        if isinstance(block, Spacer) and block.height != HOME_ONLY:
            if (
                parse_length(block.height) > height + 0.01
            ):  # (a hundredth of a point: 180mm is what A5 holds)
                _report_once(
                    report,
                    "text-overflow",
                    found_in_template(template_path, f'height="{block.height}"'),
                    f'<spacer height="{block.height}"> is taller than any page can hold: {area} '
                    "(rules booklet)",
                    hint="lower the spacer's height, or end the page with <pagebreak/>",
                )
        elif isinstance(block, Art):
            size = parse_length(block.size)
            if size > height + 0.01:
                _report_once(
                    report,
                    "text-overflow",
                    found_in_template(template_path, f'size="{block.size}"'),
                    f'<art size="{block.size}"> is taller than any page can hold: {area} (rules booklet)',
                    hint="lower the art's size",
                )


def found_in_template(where: Location, needle: str, line: int = 0) -> Location:
    """Where `needle` stands in the template file at `where` (what a template writes, as an error names it): the
    first place, or with `line` (a line of the markup it made, which follows the template's roughly) the nearest to
    it; else line `line` of the file, else `where` itself."""
    if needle:
        try:
            text = Path(where.path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        places = [place_of(text, found.start()) for found in re.finditer(re.escape(needle), text)]
        if places:  # with a line of the markup: the nearest to it (the markup's lines follow the template's roughly)
            return Location(
                where.path, *min(places, key=lambda place: abs(place[0] - line) if line > 0 else 0)
            )
    return Location(where.path, line, 1) if line > 0 else where


def booklet_align(style: BookletStyle, block: Para) -> str | None:
    """How the booklet style sets a paragraph (None: a style it does not have)."""
    text_style = style.styles.get(block.style)
    return text_style.align if text_style is not None else None
