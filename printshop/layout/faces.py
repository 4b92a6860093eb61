"""Lay out one face: render its template's blocks and fit each into its frame (stage 4, for
layout.game).

A frame's text is parsed, checked against the frame's font, its short words tied (`tied`) and fitted
(typeset.fitting); a text laid out without a word to say is remembered (`_LAID_OUT`) by everything
that sets it. A preview stands in for a font or colour that is missing (`stand_in_frame`,
`stand_in_booklet`).
"""

from __future__ import annotations

import difflib
import operator
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TypeVar

from printshop import memos
from printshop.diagnostics import Location, Report, did_you_mean
from printshop.language.resolve import LocalizedGame
from printshop.language.texts import keep_with_next
from printshop.layout.images import has_images, image_stamps, read_images
from printshop.layout.plan import BookletLayout, FaceLayout, FrameLayout
from printshop.layout.problems import (
    DataErrors,
    block_location,
    check_text,
    found_after,
    is_missing_translation,
    report_failure,
    report_once,
    report_overflow,
    report_unknown_icons,
    text_holding,
)
from printshop.project.models.booklet import TextStyle
from printshop.project.models.faces import Face, Frame
from printshop.project.models.game import CardEntry
from printshop.project.models.media import PageFooter
from printshop.render.colour import Paints, StandIn
from printshop.typeset.fitting import Fit, fit
from printshop.typeset.fonts import FontSet
from printshop.typeset.icons import icon_key, icon_scale, resolve_blocks
from printshop.typeset.richtext import (
    Art,
    Block,
    PageBreak,
    Para,
    RichTextError,
    header_fills,
    parse_blocks,
)
from printshop.typeset.templating import TemplateFailure, render_blocks, template_location
from printshop.write import fitstore


def lay_out_face(
    key: str,
    face_name: str,
    card: CardEntry | None,
    faces: dict[str, Face],
    size: tuple[float, float],
    bleed: float,
    context: dict,
    localized: LocalizedGame,
    palette: Mapping[str, str],
    fonts: FontSet,
    env,
    report: Report,
    *,
    errors: DataErrors | None = None,
    stand_ins: bool = False,
) -> FaceLayout | None:
    """Render the face's template blocks for `card` (None for a shared back or a sheet) and fit each
    into its frame, for a face of `size` (width, height) drawn `bleed` past its trim. A frame in a
    colour the palette lacks or a font there is not is left out (the validator reports the name);
    with `stand_ins` (a session's preview, which writes nothing while there are errors) it is laid
    out in magenta instead."""
    face = faces.get(face_name)
    if face is None:
        return None  # reported by the validator
    if face.template is None:  # shapes only: nothing to fill (with frames: reported by validate)
        if face.frames:
            return None
        return FaceLayout(key, face_name, face, size[0], size[1], bleed, [])
    card_context = dict(context, card=_card_context(card), face=face_name)
    try:
        blocks = render_blocks(env, face.template, card_context)
    except TemplateFailure as failure:
        if (
            failure.missing == face.template
        ):  # the face names a template there is not: where it names it
            failure.location = face.where("template")
        if not is_missing_translation(
            failure, localized
        ):  # the validator reports those, once, at the text
            what = (
                f"face '{face_name}'"
                if card is None or card.kind == "sheet"
                else f"card '{card.id}', face '{face_name}'"
            )
            report_failure(report, failure, what, localized, errors)
        return None
    template_path = _Lazy(
        lambda: template_location(env, face.template)
    )  # needed only to report a fault
    for block in blocks:
        if block not in face.frames:
            unfilled = [name for name in face.frames if name not in blocks]
            report_once(
                report,
                "unknown-reference",
                block_location(template_path(), block),
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
            report_once(
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
        whose = f"card '{card.id}'" if card else f"back '{face_name}'"  # (decks share back ids)
        what = f"{whose}, frame '{name}', language {localized.lang}"
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
                template=_at_block(template_path, name),
            )
        elif stand_ins:
            # a preview shows the text all the same, in magenta (stand_in_frame); what the stand-in
            # meets goes unreported: the fault to show is the validator's, naming the colour or the
            # font
            frame = stand_in_frame(frame, fonts)
            laid = lay_out_frame(
                blocks[name], frame, what, localized, StandIn(palette), fonts, Report(), text_ids
            )
        else:
            laid = None  # the validator reports the unknown colour or font
        if laid is not None:
            frames.append(FrameLayout(name, frame, *laid, text_ids))
    return FaceLayout(key, face_name, face, size[0], size[1], bleed, frames)


def _at_block(template_path: Callable[[], Location], block: str) -> Callable[[], Location]:
    """Where the template's block `block` begins, worked out when asked for (only to report a
    fault)."""
    return lambda: block_location(template_path(), block)


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
    palette: Mapping[str, str],
    fonts: FontSet,
    report: Report,
    text_ids: tuple[str, ...] = (),
    *,
    template: Callable[[], Location] | None = None,
) -> tuple[Fit, list[Block]] | None:
    """The text `markup` parsed, checked against the frame's font, its short words tied and fitted
    into `frame`: (the fit, the blocks as fitted), or None when the text cannot be set (reported).

    A text laid out without a word to say is remembered by everything setting it reads (the markup,
    the frame's type and size, its colour's value, the language's ties and hyphenation, the fonts
    registered): a check of a copy of the same data, a build after a check and a session's refreshes
    meet the same texts in the same frames again and again, and each went through parsing, the
    font's characters, the ties and fit's own memo once more. One that was reported (a character the
    font lacks, a placeholder left, a text that does not fit) is laid out, and reported, every time.
    Nothing is kept while `printshop validate` fits from its store: those fits hold no flowables,
    which a later build in the process would want."""
    key = (
        markup,
        _setting(frame),
        palette.get(frame.colour),
        localized.setting,
        fonts.has(frame.font),
        fonts.fallback,
        icon_key(markup),
        image_stamps(markup, localized.data.dir),
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


# the texts laid out without a diagnostic, with their fits (which `fit` keeps as many of:
# fitting._FITTED)
_LAID_OUT = memos.LAID_OUT
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
    "icon_size",
    "background",  # (a booklet style's box: a frame draws none, but the key stays whole)
    "border",
    "border_width",
    "padding",
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
    palette: Mapping[str, str],
    fonts: FontSet,
    report: Report,
    text_ids: tuple[str, ...],
    template: Callable[[], Location] | None = None,
) -> tuple[Fit, list[Block]] | None:
    try:
        blocks = parse_blocks(markup)
    except RichTextError as error:
        if template is None:
            report.add("template", frame.where(), f"{what}: {error}", hint=error.hint)
        # a tag the template writes (a text's own markup is escaped): at the template's block, once
        else:
            block = template()
            report_once(
                report,
                "template",
                found_after(block, error.needle),
                str(error),
                hint=error.hint,
                also=f"frame: {frame.where()}",
                cause=str(error),
            )
        return None
    for item in blocks:  # what a frame cannot hold: said, never dropped without a word
        if isinstance(item, (Art, PageBreak)):
            tag = "art" if isinstance(item, Art) else "pagebreak"
            where = found_after(template(), f"<{tag}") if template else frame.where()
            report_once(
                report,
                "template",
                where,
                f"<{tag}> is for rules booklets: a card or sheet frame cannot hold it ({what})",
                hint="draw a motif on a face with a shape of kind motif in faces.yaml, or set it "
                'in the text with <icon name="…"/>'
                if tag == "art"
                else "a frame has no pages: give the text another frame, or shorten it",
                also=f"frame: {frame.where()}",
                cause=f"<{tag}> in a frame",
            )
            return None
    for name in header_fills(blocks):  # a colour a table's header is filled with
        if name not in palette:
            where = found_after(template(), f'header-fill="{name}"') if template else frame.where()
            report_once(
                report,
                "unknown-reference",
                where,
                f"<table header-fill=\"{name}\">: no colour '{name}'"
                f"{did_you_mean(name, list(palette))} ({what})",
                hint=f'name a colour of colours.yaml ({", ".join(palette)}), or write "none"',
                also=f"frame: {frame.where()}",
                cause=f"header-fill={name}",
            )
            return None
    if has_images(blocks):  # the files its <img>s name, read (layout/images.py)
        read = read_images(
            blocks,
            localized.data.dir,
            lambda needle: found_after(template(), needle) if template else frame.where(),
            what,
            report,
        )
        if read is None:
            return None
        blocks = read
    if not check_text(
        blocks,
        frame.font,
        frame.uppercase,
        what,
        frame.where,
        fonts,
        report,
        lambda missing: text_holding(missing, text_ids, localized, frame.uppercase),
        template,
    ):
        return None
    unknown: list[str] = []
    scale = icon_scale(frame.icon_size, frame.size)
    blocks = resolve_blocks(blocks, lambda block: scale, unknown)
    if unknown and report_unknown_icons(unknown, template() if template else None, what, report):
        return None
    blocks = tied(blocks, localized.language.typography, lambda block: frame.align)
    result = fit(
        blocks,
        frame,
        frame.width,
        frame.height,
        Paints(palette),
        localized.hyphenation,
    )
    if not result.fits:
        report_overflow(result, blocks, frame, what, text_ids, localized, report, template)
    return result, blocks


def tied(blocks: list[Block], typography, align_of: Callable[[Para], str | None]) -> list[Block]:
    """`blocks` with the language's short words and numbers kept with the word after them
    (texts.keep_with_next) in each paragraph `align_of` does not say is justified: a card's ragged
    or centred text, a title, a booklet's headings and list items. A justified paragraph keeps its
    breaks: a tie there opens the line above it wide."""
    if not (typography.keep_with_next or typography.numbers_with_next):
        return blocks
    kept = []
    for block in blocks:
        if isinstance(block, Para) and align_of(block) not in ("justify", None):
            markup = keep_with_next(block.markup, typography)
            block = block if markup == block.markup else Para(block.style, markup, block.bullet)
        kept.append(block)
    return kept


# the colour a stand-in for a missing font is drawn in: one no palette has
STANDING_IN = "(not in the palette)"


# what a preview stands a missing font in for: a frame, a booklet's paragraph style, its folio
Styled = TypeVar("Styled", Frame, TextStyle, PageFooter)


def stand_in_frame(frame: Styled, fonts: FontSet) -> Styled:
    """`frame` as a preview draws it when its font is not registered: in the registered face whose
    name is most like it (a mistyped 'sans-boldy' in 'sans-bold'), in a colour no palette has (the
    overset's magenta, as for a missing colour), so that the text shows, and shows where the fault
    is. A missing colour needs no change: the palette stands in (colour.StandIn). Any style with a
    font (a booklet's paragraphs, its folio) likewise."""
    if fonts.has(frame.font):
        return frame
    names = sorted(fonts.faces)
    if not names:
        return frame
    close = difflib.get_close_matches(frame.font, names, n=1, cutoff=0.0)
    return frame.model_copy(update={"font": close[0] if close else names[0], "colour": STANDING_IN})


def stand_in_booklet(booklet: BookletLayout, fonts: FontSet) -> BookletLayout:
    """`booklet` as a preview renders it when a style of booklet.yaml names a font that is not
    registered: each such style (the folio too) stood in for as `stand_in_frame` stands in for a
    frame's. Unchanged otherwise."""
    style = booklet.style
    styles = {name: stand_in_frame(text_style, fonts) for name, text_style in style.styles.items()}
    folio = stand_in_frame(style.folio, fonts)
    if folio is style.folio and all(
        styles[name] is text_style for name, text_style in style.styles.items()
    ):
        return booklet
    return replace(booklet, style=style.model_copy(update={"styles": styles, "folio": folio}))


def _card_context(card: CardEntry | None) -> dict | None:
    if card is None:
        return None
    return {"id": card.id, "kind": card.kind, "count": card.count, "vars": dict(card.vars)}
