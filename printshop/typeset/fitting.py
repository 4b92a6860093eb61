"""Fitting text into a frame: the one function the validator and the renderer share.

`fit` tries the frame's font size, then smaller sizes in quarter points down to the layout's
minimum, and returns the first that fits (height and longest word). If none does, it returns
the result at the minimum with `fits=False` and how much is left over; the renderer refuses to
draw such a frame and the validator reports it. Nothing is ever shrunk below the minimum.

No paragraph should end with one word alone on its last line (a runt, docs/design.md):
`make_flowables` ties the last two words or narrows a ragged measure when that keeps the paragraph's
lines (`without_runt`), and `fit` may take up to RUNT_STEPS smaller sizes where that fails; `runts`
says what is left, for `validate`. How a wrapped paragraph's lines are read, tied and narrowed is in
typeset.runts; how flowables are measured in typeset.measuring. Here: ReportLab's word splitting
widened for no-break spaces, the hyphenator, the paragraph styles, the flowables, centred lines
balanced (`_balanced`), and the search for the size.

Words are hyphenated in the language's pattern (`typography.hyphenation` in the language file,
through pyphen) when one is given: layout passes it to `fit`, which records it in the `Fit`, and
the renderer sets the text again with the same setting, so both see the same line breaks.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Callable, Iterator

from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph
from reportlab.platypus import Spacer as RLSpacer

from printshop import memos
from printshop.project.models.booklet import TextStyle
from printshop.project.units import parse_length
from printshop.render.colour import Paints
from printshop.render.images import ImageFlowable
from printshop.typeset.fonts import state as fonts_state
from printshop.typeset.fonts import with_fallback
from printshop.typeset.icons import centred_icons
from printshop.typeset.measuring import list_indent, measure, text_extent
from printshop.typeset.richtext import Block, Figure, Img, Para, Spacer, Table, uppercase
from printshop.typeset.runts import (
    ends_with_runt,
    line_lengths,
    line_spread,
    lone_word_before_last,
    narrowed_indents,
    paragraph_without_runt,
    runts,
    tightest_room,
)
from printshop.typeset.tables import TableDefaults, designed_table
from printshop.write import fitstore

# a word as the hyphenator may break it: opening guillemets and an elided article or pronoun before
# it (« l’, d’, qu’), letters, then what a no-break space ties to it (" :", " »"); only the letters
# break
_WORD_PARTS = re.compile(
    r"^([«‹„»›\u00a0\u202f]*(?:[^\W\d_]+[’'])?)([^\W\d_]+)([\u00a0\u202f]\S*)?$"
)


ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT, "justify": TA_JUSTIFY}
STEP = 0.25

# the shortest word ReportLab tries to break: justified text gains most from breaking (its gaps
# shrink); ragged and centred lines only break long words, so that a short title reads
# "KEEP THIS CARD HIDDEN / UNTIL YOU DIE", not "... HIDDEN UN- / TIL YOU DIE"
HYPHENATE_FROM, HYPHENATE_RAGGED_FROM = 5, 8
# a paragraph style's settings that keep every word whole: a table cell's (docs/design.md)
UNBROKEN = {"hyphenationLang": None, "embeddedHyphenation": 0}
# how many quarter points smaller a frame may be set than the largest size that fits, to end no
# paragraph with a word alone on its last line when tying words and narrowing the measure could not
# (without_runt)
RUNT_STEPS = 2


@memos.HYPHENATOR
def hyphenator(hyphenation: str | None) -> Callable[[str], Iterator[tuple[str, str]]] | None:
    """The word-breaking function ReportLab calls for a hyphenation setting (hyphenation.setting:
    a pyphen dictionary name such as de_DE, and the language's and game's rules of what never
    breaks), or None for no hyphenation. One dictionary per language and process: ReportLab would
    otherwise load it again for every paragraph it wraps. Pyphen's patterns give the same breaks
    on every run, so builds stay byte-identical."""
    if not hyphenation:
        return None
    from printshop.typeset.hyphenation import parsed, unbreakable

    lang, left, right, capitals, words = parsed(hyphenation)
    # the dictionary, read when a word first needs breaking (most texts fit without)
    loaded: list = []

    def pieces(word: str) -> Iterator[tuple[str, str]]:
        """(head, tail) pairs, the longest head first, as ReportLab expects."""
        parts = _WORD_PARTS.match(word)
        if parts is None:
            return
        before, letters, after = parts.group(1), parts.group(2), parts.group(3) or ""
        if unbreakable(letters, capitals, words):
            return
        if not loaded:
            from printshop.typeset.hyphenation import open_dictionary

            loaded.append(open_dictionary(lang, left, right))
        for head, tail in loaded[0].iterate(letters):
            yield before + head, tail + after

    return pieces


@dataclass
class Fit:
    size: float
    fits: bool
    height: float  # the height the text takes at `size`
    available: float
    overflow_lines: int = 0
    too_wide: bool = False
    hyphenation: str | None = (
        None  # the language's hyphenation the text was fitted with, for the renderer
    )
    # the flowables measured at `size`, wrapped at the frame's width, with each one's (width,
    # height) and the colours they were made in: a renderer drawing in the same colours draws these
    # (`drawable`) instead of setting the text again (the same lines: the same flowables, wrapped at
    # the same width)
    flowables: list | None = field(default=None, repr=False, compare=False)
    sizes: list | None = field(default=None, repr=False, compare=False)
    colours: tuple | None = field(default=None, repr=False, compare=False)

    def drawable(
        self, style: TextStyle, paints: Paints
    ) -> list[tuple[Flowable, float, float]] | None:
        """[(flowable, width, height)] measured by the fit, if they were made in `paints`' colours
        for `style`; None: set the text again (another output's colours, CMYK or low ink)."""
        if self.flowables is None or self.colours != _colours(style, paints):
            return None
        return [(flowable, w, h) for flowable, (w, h) in zip(self.flowables, self.sizes or ())]

    @property
    def overflow(self) -> float:
        return max(0.0, self.height - self.available)


def extent(result: Fit, width: float) -> tuple[float, float, float, float] | None:
    """Where a fitted text prints (`measuring.text_extent`: left, top, right, bottom in points from
    the top-left of its stack of lines, set in a frame `width` wide), worked out once per fit and
    kept with a stored one (write/fitstore.py); None: no text, or a fit that does not fit."""
    if "_extent" not in result.__dict__:
        result.__dict__["_extent"] = (
            text_extent(result.flowables, result.sizes or [], width)
            if result.flowables is not None
            else None
        )
    return result.__dict__["_extent"]


def _colours(style: TextStyle, paints: Paints) -> tuple:
    """What of `paints` a frame's flowables are made with (make_flowables): its colour as text and
    as a fill."""
    return paints.text(style.colour), paints.fill(style.colour)


def paragraph_style(
    style: TextStyle,
    size: float,
    paints: Paints,
    *,
    name: str = "frame",
    hyphenation: str | None = None,
) -> ParagraphStyle:
    """With `hyphenation` (a pyphen language), a word that does not fit at the end of a line is
    broken where the language allows, and also after a hyphen it already has; without it, words
    never break (a word too long for the frame is reported, never split at an arbitrary letter)."""
    return ParagraphStyle(
        name,
        fontName=style.font,
        bulletFontName=style.font,
        fontSize=size,
        leading=size * style.leading,
        alignment=ALIGN[style.align],
        textColor=paints.text(style.colour),
        spaceBefore=style.space_before,
        spaceAfter=style.space_after,
        allowWidows=0,
        allowOrphans=0,
        splitLongWords=0,
        hyphenationLang=hyphenator(hyphenation),
        # set here, not left to reportlab's rl_config, which a settings file could change
        hyphenationMinWordLength=HYPHENATE_FROM
        if style.align == "justify"
        else HYPHENATE_RAGGED_FROM,
        # 2: a word that does not fit is also tried again at the start of the next line, so that a
        # word wider than the whole frame breaks too (1 tries only the end of the current line)
        embeddedHyphenation=2 if hyphenation else 0,
        uriWasteReduce=0,
    )


def make_flowables(
    blocks: list[Block],
    style: TextStyle,
    size: float,
    paints: Paints,
    width: float = 0.0,
    hyphenation: str | None = None,
) -> list[Flowable]:
    """Flowables for a frame's blocks at `size`; tables use the frame's font, headers in bold; list
    items get their bullet or number, the text indented by `list_indent`."""
    flowables: list[Flowable] = []
    base = _frame_style(style, size, paints, hyphenation)
    item = None  # the style of list items, made at the first one
    for block in blocks:
        if isinstance(block, Para):
            markup = uppercase(block.markup) if style.uppercase else block.markup
            if (
                block.bullet
            ):  # a list item (<ul>/<ol>): as in booklets, its bullet or number hangs in the indent
                item = item or ParagraphStyle(
                    "frame-item",
                    parent=base,
                    leftIndent=list_indent(blocks, style, size),
                    bulletIndent=0,
                    bulletFontSize=size,
                )
                flowables.append(without_runt(markup, item, width, block.bullet))
                continue
            flowables.append(without_runt(markup, base, width))
        elif isinstance(block, Table):
            flowables.append(_frame_table(block, style, size, base, paints, width))
        elif isinstance(block, Spacer):  # space between blocks, as in booklets
            flowables.append(RLSpacer(width, parse_length(block.height)))
        elif isinstance(block, (Img, Figure)):  # its height counted as a paragraph's
            image = block.img if isinstance(block, Figure) else block
            flowables.append(ImageFlowable(image, paints.mode))
            if isinstance(block, Figure):
                flowables.append(without_runt(block.caption, base, width))
    return flowables


_ALIGNMENT = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}


def _frame_table(
    block: Table,
    style: TextStyle,
    size: float,
    base: ParagraphStyle,
    paints: Paints,
    width: float,
) -> Flowable:
    """A table in a frame, in the frame's font at `size`, its header cells in bold: each column set
    as the table says (centred by default), its header the same way, so they line up; by default a
    line in the frame's colour between rows (typeset.tables)."""
    cells = {
        align: ParagraphStyle(
            f"cell-{align}",
            parent=base,
            alignment=_ALIGNMENT[align],
            spaceBefore=0,
            spaceAfter=0,
            **UNBROKEN,  # a cell's words never break: the frame's size shrinks instead
        )
        for align in ("left", "center", "right")
    }
    rows = [
        [
            Paragraph(
                with_fallback(f"<b>{markup}</b>" if is_head else centred_icons(markup)),
                cells[
                    block.aligns[column]
                    if block.aligns and column < len(block.aligns)
                    else "center"
                ],
            )
            for column, (is_head, markup) in enumerate(row)
        ]
        for row in block.rows
    ]
    defaults = TableDefaults(
        rules="rows",
        header_fill=None,
        column_rules=False,
        last_rule=False,
        rule_colour=style.colour,
        rule_width=0.4,
        # room above and below the text, so that no cell's text touches its rules
        top_padding=size * 0.25,
        bottom_padding=size * 0.35,
        side_padding=size * 0.25,
    )
    return designed_table(
        block,
        rows,
        lambda: Paragraph("", cells["center"]),
        defaults,
        paints,
        width,
        [
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("FONTNAME", (0, 0), (-1, -1), style.font),  # else an unembedded Helvetica
            ("TEXTCOLOR", (0, 0), (-1, -1), paints.text(style.colour)),  # else an RGB black
        ],
    )


def without_runt(
    markup: str, style: ParagraphStyle, width: float, bullet: str | None = None
) -> Paragraph:
    """`paragraph_without_runt`, then, for centred text, `_balanced`."""
    paragraph = paragraph_without_runt(markup, style, width, bullet)
    if style.alignment == TA_CENTER and width > 0:
        return _balanced(paragraph, style, width, bullet)
    return paragraph


# a balanced centred paragraph's measure grows from its lines' mean width in these steps (shares of
# the frame); lines within EVEN of one another (a share of the frame) end the search
BALANCE_STEP = 0.03
EVEN = 0.04


def _balanced(
    paragraph: Paragraph, style: ParagraphStyle, width: float, bullet: str | None
) -> Paragraph:
    """A centred paragraph of two lines or more (none of them ended by <br/>) set in the measure,
    from its lines' mean width up to the frame's in steps of BALANCE_STEP, that keeps as many lines,
    no runt and no word alone on the line before the last, and whose lines differ least in length
    (the first within EVEN of one another ends the search; the narrower of two alike): lines of
    about one length, not a full line over short ones ("Find the dissident: if you look at the /
    dissident card or are handed it / ... / on fails." is set "Find the dissident: if you look at /
    the dissident card or are handed / ..."). As it was where no measure sets it more evenly."""
    if getattr(paragraph, "wrapped_width", None) != width:
        # fewer than three words: never set by paragraph_without_runt, nothing to balance
        return paragraph
    lines = paragraph.blPara.lines
    if len(lines) < 2 or any(getattr(line, "lineBreak", False) for line in lines[:-1]):
        return paragraph
    # the measure chosen, remembered by what the lines depend on (not the colours: a renderer
    # setting the text again in CMYK or low ink takes the layout's choice without trying the
    # measures again)
    key = (
        paragraph.text,
        bullet,
        width,
        repr(paragraph.style.leftIndent),
        repr(paragraph.style.rightIndent),
        tuple(
            sorted(
                (name, repr(value))
                for name, value in style.__dict__.items()
                if name not in ("name", "parent", "spaceBefore", "spaceAfter", "textColor")
            )
        ),
        fonts_state(),
    )
    known = _BALANCED.get(key, _UNKNOWN)
    if known is _UNKNOWN:
        known = _BALANCED[key] = _balanced_by(paragraph, style, width, bullet)
    if known is None:
        return paragraph
    other = Paragraph(
        paragraph.text,
        ParagraphStyle(f"{style.name}-balanced", parent=style, **narrowed_indents(style, known)),
        bulletText=bullet,
    )
    other.wrap(width, 1e6)
    other.wrapped_width = width
    return other


_BALANCED = memos.BALANCED
_UNKNOWN = object()


def _balanced_by(
    paragraph: Paragraph, style: ParagraphStyle, width: float, bullet: str | None
) -> float | None:
    """How much `_balanced` narrows the paragraph's measure (None: not at all)."""
    lines = paragraph.blPara.lines
    room = min(tightest_room(paragraph), 0.0) - 0.01
    best, best_spread = None, line_spread(paragraph, width)
    used = line_lengths(paragraph, width)
    trial = max(sum(used) / len(used), max(used) * 0.5)
    measure = width - paragraph.style.leftIndent - paragraph.style.rightIndent
    while trial < measure - width * BALANCE_STEP / 2 and best_spread > width * EVEN:
        by = width - trial
        other = Paragraph(
            paragraph.text,
            ParagraphStyle(f"{style.name}-balanced", parent=style, **narrowed_indents(style, by)),
            bulletText=bullet,
        )
        other.wrap(width, 1e6)
        if (
            len(other.blPara.lines) == len(lines)
            and tightest_room(other) >= room
            and not ends_with_runt(other)
            and not lone_word_before_last(other)
        ):
            spread = line_spread(other, width)
            if spread < best_spread - 0.01:
                best, best_spread = by, spread
        trial += width * BALANCE_STEP
    return best


def _frame_style(
    style: TextStyle, size: float, paints: Paints, hyphenation: str | None
) -> ParagraphStyle:
    """`paragraph_style` for a frame, made once per style, size and colours (ReportLab's styles are
    slow to make, and never changed by the paragraphs that use them)."""
    key = (
        style.font,
        style.leading,
        style.align,
        style.space_before,
        style.space_after,
        size,
        hyphenation,
        _colours(style, paints),
    )
    made = _FRAME_STYLES.get(key)
    if made is None:
        if len(_FRAME_STYLES) >= 4096:
            _FRAME_STYLES.clear()
        made = _FRAME_STYLES[key] = paragraph_style(style, size, paints, hyphenation=hyphenation)
    return made


_FRAME_STYLES = memos.FRAME_STYLES


def fit(
    blocks: list[Block],
    style: TextStyle,
    width: float,
    height: float,
    paints: Paints,
    hyphenation: str | None = None,
) -> Fit:
    """The largest size, in quarter points from `size` down to `min_size`, at which the text fits,
    words hyphenated in `hyphenation`'s patterns when it is given. Justified text is always
    hyphenated (that is what closes its gaps); ragged and centred text, titles above all, only
    when it fits at no size without: a title set smaller reads better than one broken in two.

    The same text in the same style and frame gives the same `Fit`, so it is worked out once per
    process (a reminder line printed on every card of a deck is fitted once); callers never change a
    `Fit`."""
    key = (
        _blocks_key(blocks),
        style.font,
        style.size,
        style.min_size,
        style.leading,
        style.align,
        style.space_before,
        style.space_after,
        style.indent,
        style.uppercase,
        width,
        height,
        hyphenation,
        _colours(style, paints),
        fonts_state(),
        getattr(style, "size_across", None),
    )  # a deck-wide frame takes no step for a runt
    known = _FITTED.get(key)
    if known is not None:
        return known
    store = fitstore.ACTIVE  # `printshop validate`'s outcomes of earlier runs (fitstore.py)
    if store is not None:
        digest = store.digest(key)
        kept = store.get(digest)
        if (
            kept is not None
        ):  # (not remembered in _FITTED: a later build in this process wants the flowables)
            return _from_kept(kept)
    if hyphenation and style.align != "justify":
        result = _fit(blocks, style, width, height, paints, None)
        if not result.fits:
            result = _fit(blocks, style, width, height, paints, hyphenation)
    else:
        result = _fit(blocks, style, width, height, paints, hyphenation)
    _FITTED[key] = result
    if store is not None:
        store.put(
            digest,
            [
                result.size,
                result.fits,
                result.height,
                result.available,
                result.overflow_lines,
                result.too_wide,
                result.hyphenation,
                runts(result),
                list(extent(result, width) or ()),
            ],
        )
    return result


_FITTED = memos.FITTED


def _blocks_key(blocks: list[Block]) -> tuple:
    """What tells `blocks` apart, for `fit`'s memo: a paragraph's fields as they are (most of a
    card's blocks; the dataclass's own repr was a fiftieth of checking a deck), any other block's
    repr."""
    return tuple(
        ("P", block.style, block.markup, block.bullet) if type(block) is Para else repr(block)
        for block in blocks
    )


def _from_kept(kept: list) -> Fit:
    """A `Fit` from a stored outcome: no flowables (a renderer sets the text again at its size)."""
    size, fits, height, available, lines, too_wide, hyphenation, left, box = kept
    result = Fit(size, fits, height, available, lines, too_wide, hyphenation)
    result.__dict__["_runts"] = list(left)
    result.__dict__["_extent"] = tuple(box) if box else None
    return result


def _fit(
    blocks: list[Block],
    style: TextStyle,
    width: float,
    height: float,
    paints: Paints,
    hyphenation: str | None,
) -> Fit:
    minimum = style.min_size if style.min_size is not None else style.size
    steps = max(
        0, int(round((style.size - minimum) / STEP))
    )  # sizes: size - k * STEP, k = 0..steps

    def attempt(k: int) -> Fit:
        size = round(style.size - k * STEP, 4)
        flowables = make_flowables(blocks, style, size, paints, width, hyphenation)
        sizes: list = []
        needed, too_wide = measure(flowables, width, sizes)
        fits = needed <= height + 0.01 and not too_wide
        lines = 0 if fits else math.ceil(max(0.0, needed - height) / (size * style.leading))
        if not fits:  # never drawn: nothing to keep
            return Fit(size, fits, needed, height, lines, too_wide, hyphenation)
        # measure wraps every flowable at `width` last (a hyphenated paragraph again, at the same
        # width), so they are ready to draw
        return Fit(
            size,
            fits,
            needed,
            height,
            lines,
            too_wide,
            hyphenation,
            flowables,
            sizes,
            _colours(style, paints),
        )

    def without_runts(k: int, best: Fit) -> Fit:
        """`best` (at step k), or, if a paragraph of it still ends with a runt, the first of the
        next RUNT_STEPS smaller sizes that fits without one. Never for a frame set at one size
        across its deck: the whole deck would follow one card down."""
        if not runts(best) or getattr(style, "size_across", None) == "deck":
            return best
        for smaller in range(k + 1, min(k + RUNT_STEPS, steps) + 1):
            result = attempt(smaller)
            if result.fits and not runts(result):
                return result
        return best

    best = attempt(0)
    if best.fits or steps == 0:
        return without_runts(0, best) if best.fits else best
    smallest = attempt(steps)
    if not smallest.fits:
        return smallest
    low, high = 0, steps  # attempt(low) fails, attempt(high) fits; the height grows with the size
    best = smallest
    while high - low > 1:
        middle = (low + high) // 2
        result = attempt(middle)
        if result.fits:
            high, best = middle, result
        else:
            low = middle
    return without_runts(high, best)
