"""A rules booklet's blocks as ReportLab flowables: paragraphs in booklet.yaml's styles (the
characters it colours in their colours, list items hanging their bullets or numbers), tables with a
coloured header row, spacers, page breaks, vector motifs (`MotifFlowable`), images and figures
(render/images.py), the back cover's emblem
and title, headings kept with what follows them, and lists kept from breaking badly (`KeepList`).
render.booklet_pages sets them on pages.
"""

from __future__ import annotations

import re

from reportlab.lib.colors import CMYKColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Paragraph
from reportlab.platypus import Spacer as RLSpacer
from reportlab.platypus.doctemplate import FrameBreak

from printshop.project.models.art import Motif
from printshop.project.models.booklet import BookletLists, BookletTables, TextStyle
from printshop.project.units import parse_length
from printshop.render.colour import Paints
from printshop.render.faces import draw_motif
from printshop.render.images import ImageFlowable
from printshop.typeset.fitting import ALIGN, UNBROKEN, without_runt
from printshop.typeset.fonts import with_fallback
from printshop.typeset.justify import EvenParagraph
from printshop.typeset.measuring import hang
from printshop.typeset.richtext import (
    BACK_COVER,
    HOME_ONLY,
    Art,
    Figure,
    Img,
    Para,
    Spacer,
    Table,
    uppercase,
)
from printshop.typeset.richtext import PageBreak as PageBreakBlock
from printshop.typeset.tables import TableDefaults, designed_table, header_rows


class MotifFlowable(Flowable):
    def __init__(self, motif: Motif, size: float, colour: str):
        super().__init__()
        self.motif, self.size, self.colour = motif, size, colour

    def wrap(self, available_width, available_height):
        self.available_width = available_width
        return available_width, self.size

    def draw(self):
        self.canv.setFillColor(self.colour)
        draw_motif(
            self.canv,
            self.motif,
            (self.available_width - self.size) / 2,
            0,
            self.size,
            self.size,
            0,
            True,
            False,
        )


def character_colours(characters: dict[str, str], paints: Paints) -> dict[str, str]:
    """Each character the booklet style's `characters` names (a key may name several), with its
    colour in `paints` written as paragraph markup takes it: "#rrggbb", or "cmyk(c,m,y,k)" in a
    shop's CMYK."""
    colours = {}
    for keys, name in characters.items():
        colour = paints.text(name)
        if isinstance(colour, CMYKColor):
            written = "cmyk({})".format(",".join(f"{value:.4f}" for value in colour.cmyk()))
        else:
            written = "#" + colour.hexval()[2:]
        colours.update({character: written for character in keys})
    return colours


def _set(markup: str, colours: dict[str, str] | None) -> str:
    """`markup` with each character of `colours` in its colour (text only, never inside tags or
    entities), then the characters the families lack in the fallback face."""
    return with_fallback(_coloured(markup, colours))


def _coloured(markup: str, colours: dict[str, str] | None) -> str:
    """`markup` with each character of `colours` in its colour."""
    if colours and any(character in markup for character in colours):
        markup = re.sub(
            r"(<[^>]*>|&[#\w]+;)|([^<&]+)",
            lambda match: (
                match.group(1)
                or "".join(
                    f'<font color="{colours[ch]}">{ch}</font>' if ch in colours else ch
                    for ch in match.group(2)
                )
            ),
            markup,
        )
    return markup


def back_cover_blocks(blocks: list) -> list:
    """What the back cover shows: the cover's first emblem (`art`) and its `title`, from the blocks
    before the first page break; empty if the cover has neither."""
    shown: list = []
    for block in blocks:
        if isinstance(block, PageBreakBlock):
            break
        if isinstance(block, Art) and not any(isinstance(b, Art) for b in shown):
            shown.append(block)
        elif (
            isinstance(block, Para)
            and block.style == "title"
            and not any(isinstance(b, Para) for b in shown)
        ):
            shown.append(block)
    return shown


# the space between the back cover's emblem and title
BACK_COVER_GAP = 6 * 72 / 25.4


class Boxed(Flowable):
    """A paragraph in its style's box (`background`, `border`, `padding`): the box spans the
    column, the text sits `padding` inside it, and the box's height counts the padding, so the
    space around it is the style's own. It is never split: a box broken over two pages reads as
    two."""

    def __init__(self, paragraph: Paragraph, style: TextStyle, paints: Paints) -> None:
        super().__init__()
        self.paragraph, self.style, self.paints = paragraph, style, paints
        self.pad = style.padding

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        _, height = self.paragraph.wrap(available_width - 2 * self.pad, available_height)
        self.width, self.height = available_width, height + 2 * self.pad
        return self.width, self.height

    def getSpaceBefore(self) -> float:
        return self.paragraph.getSpaceBefore()

    def getSpaceAfter(self) -> float:
        return self.paragraph.getSpaceAfter()

    def split(self, available_width: float, available_height: float) -> list:
        return []

    def identity(self, maxLen: int | None = None) -> str:
        """ReportLab names a flowable too large for a page by this: the paragraph's own words, so
        the error says which text is too long (not '...')."""
        return self.paragraph.identity(maxLen)

    def draw(self) -> None:
        canvas, style = self.canv, self.style
        canvas.saveState()
        if style.background:
            canvas.setFillColor(self.paints.fill(style.background))
        if style.border:
            canvas.setStrokeColor(self.paints.fill(style.border))
            canvas.setLineWidth(style.border_width)
        canvas.rect(
            0,
            0,
            self.width,
            self.height,
            stroke=int(bool(style.border)),
            fill=int(bool(style.background)),
        )
        canvas.restoreState()
        self.paragraph.drawOn(canvas, self.pad, self.pad)


class BackCoverTooTall(Exception):
    """A template's back cover (after `<spacer height="back-cover"/>`) taller than its page: set
    on, it would run onto another page and break a stitched booklet's count of pages."""

    def __init__(self, used: float, height: float):
        super().__init__(f"{used:.0f} pt of text for {height:.0f} pt")
        self.used, self.height = used, height


def back_cover_flowables(
    blocks: list,
    style,
    styles: dict[str, ParagraphStyle],
    paints: Paints,
    motifs: dict[str, Motif],
    colours: dict[str, str],
    width: float,
    height: float,
    declared: bool = False,
) -> list[Flowable]:
    """The back cover's emblem and title, centred on the page's frame; or (`declared`) the blocks
    the template gives it, set from the frame's top as written, centred lines balanced."""
    if declared:
        shown = [
            flowable
            for block in blocks
            for flowable in block_flowables(
                block,
                style.styles,
                styles,
                paints,
                motifs,
                None,
                style.tables,
                width,
                colours,
                balanced=True,
            )
        ]
        # (with each paragraph's space before and after: a back cover that runs onto another page
        # would break a stitched booklet's count of pages)
        used = sum(
            flowable.wrap(width, height)[1] + flowable.getSpaceBefore() + flowable.getSpaceAfter()
            for flowable in shown
        )
        if used > height - 2:
            raise BackCoverTooTall(used, height)
        return shown
    shown = []
    for block in blocks:
        if shown:
            shown.append(RLSpacer(1, BACK_COVER_GAP))
        if isinstance(block, Art):
            shown.append(
                MotifFlowable(
                    motifs[block.motif], parse_length(block.size), paints.fill(block.colour)
                )
            )
        else:
            shown.extend(
                block_flowables(
                    block, style.styles, styles, paints, motifs, None, style.tables, width, colours
                )
            )
    used = sum(flowable.wrap(width, height)[1] for flowable in shown)
    if used > height - 2:  # it would run onto another page: the back cover stays bare
        return [RLSpacer(1, 1)]
    return [RLSpacer(1, (height - used) / 2 - 1), *shown]


def list_hangs(blocks: list, text_styles: dict[str, TextStyle]) -> dict[int, float]:
    """The indent of each list item (by its index in `blocks`): one for all the items of a list (a
    run of items in one style), which its widest number hangs in (measuring.hang), so that "10."
    moves no item's text but its own."""
    hangs: dict[int, float] = {}
    run: list[int] = []

    def close() -> None:
        spec = text_styles.get(blocks[run[0]].style) if run else None
        if spec is not None:
            indent = hang(
                [blocks[index].bullet for index in run], spec.font, spec.size, spec.indent
            )
            hangs.update(dict.fromkeys(run, indent))
        run.clear()

    for index, block in enumerate(blocks):
        item = isinstance(block, Para) and block.bullet
        if run and not (
            item and blocks[run[-1]].style == block.style
        ):  # (anything else ends the run)
            close()
        if item:
            run.append(index)
    close()
    return hangs


def block_flowables(
    block,
    text_styles: dict[str, TextStyle],
    styles: dict[str, ParagraphStyle],
    paints: Paints,
    motifs: dict[str, Motif],
    accent: str | None,
    tables,
    frame_width: float,
    colours: dict[str, str] | None = None,
    indent: float | None = None,
    balanced: bool = False,
) -> list[Flowable]:
    """The flowables of one block; `balanced` (a cover's): a centred paragraph set over lines of
    about one length, never one word alone on its last (typeset.fitting's `without_runt`)."""
    if isinstance(block, Para):
        spec = text_styles[block.style]
        markup = uppercase(block.markup) if spec.uppercase else block.markup
        if balanced and not block.bullet and spec.align == "center":
            return [without_runt(_coloured(markup, colours), styles[block.style], frame_width)]
        if block.bullet:
            indent = (
                indent
                if indent is not None
                else hang([block.bullet], spec.font, spec.size, spec.indent)
            )
            # the bullet at the margin, in the item's size (ReportLab's default is 10 pt, whatever
            # the text's)
            bullet_style = ParagraphStyle(
                f"{block.style}-bullet",
                parent=styles[block.style],
                leftIndent=indent,
                bulletIndent=0,
                bulletFontSize=styles[block.style].fontSize,
            )
            return [EvenParagraph(_set(markup, colours), bullet_style, bulletText=block.bullet)]
        made = EvenParagraph(_set(markup, colours), styles[block.style])
        return [Boxed(made, spec, paints)] if spec.background or spec.border else [made]
    if isinstance(block, Table):
        aligned: dict[tuple[bool, str], ParagraphStyle] = {}

        def cell_style(head: bool, column: int) -> ParagraphStyle:
            """The th or td style, in the column's own alignment where the table gives one
            (align="left,right"); a cell's words are never hyphenated (docs/design.md)."""
            base = styles["th" if head else "td"]
            align = block.aligns[column] if block.aligns and column < len(block.aligns) else None
            made = aligned.get((head, align or ""))
            if made is None:
                made = aligned[(head, align or "")] = ParagraphStyle(
                    f"{base.name}-{align or 'cell'}",
                    parent=base,
                    alignment=ALIGN[align] if align else base.alignment,
                    **UNBROKEN,
                )
            return made

        rows = [
            [
                Paragraph(_set(markup, None if head else colours), cell_style(head, column))
                for column, (head, markup) in enumerate(row)
            ]
            for row in block.rows
        ]
        table = designed_table(
            block,
            rows,
            lambda: Paragraph("", styles["td"]),
            booklet_table_defaults(tables, accent),
            paints,
            frame_width,
            [
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("FONTNAME", (0, 0), (-1, -1), text_styles["td"].font),  # not Helvetica
                ("TEXTCOLOR", (0, 0), (-1, -1), paints.text(text_styles["td"].colour)),  # not RGB
            ],
            repeat_rows=header_rows(block),
        )
        return [RLSpacer(1, tables.space_before), table, RLSpacer(1, tables.space_after)]
    if isinstance(block, Spacer):
        if block.height in (HOME_ONLY, BACK_COVER):  # markers: nothing to draw
            return []
        return [RLSpacer(1, parse_length(block.height))]
    if isinstance(block, PageBreakBlock):
        return [PageBreak()]
    if isinstance(block, Art):
        return [
            MotifFlowable(motifs[block.motif], parse_length(block.size), paints.fill(block.colour))
        ]
    if isinstance(block, (Img, Figure)):
        return figure_flowables(block, styles, paints, tables, colours)
    return []


def figure_flowables(
    block: Img | Figure,
    styles: dict[str, ParagraphStyle],
    paints: Paints,
    tables,
    colours: dict[str, str] | None,
) -> list[Flowable]:
    """An image set between the space a table takes before and after it; a figure's image and
    caption (booklet.yaml's `caption` style, else `p`) kept together on one page."""
    if isinstance(block, Img):
        shown: list[Flowable] = [ImageFlowable(block, paints.mode)]
    else:
        caption = EvenParagraph(_set(block.caption, colours), styles.get("caption", styles["p"]))
        shown = [KeepTogether([ImageFlowable(block.img, paints.mode), caption])]
    return [RLSpacer(1, tables.space_before), *shown, RLSpacer(1, tables.space_after)]


def booklet_table_defaults(tables: BookletTables, rule_colour: str | None) -> TableDefaults:
    """How booklet.yaml's `tables` style draws a table (its header filled in `rule_colour` unless
    the style names a `header_fill`)."""
    return TableDefaults(
        rules=tables.rules,
        header_fill=tables.header_fill or rule_colour,
        column_rules=tables.column_rules,
        last_rule=tables.last_rule,
        rule_colour=tables.grid,
        rule_width=tables.grid_width,
        top_padding=tables.padding,
        bottom_padding=tables.padding,
    )


def stack_height(canvas, flowables: list[Flowable], width: float) -> float:
    """The height `flowables` take set one after another as a frame sets them: each one's height,
    and between two the larger of the space after the first and before the second; not the last
    one's space after (a frame needs no room for it)."""
    height, after = 0.0, None
    for flowable in flowables:
        height += flowable.wrapOn(canvas, width, 0xFFFFFFF)[1]
        if after is not None:
            height += max(after, flowable.getSpaceBefore())
        after = flowable.getSpaceAfter()
    return height


class KeepHeading(KeepTogether):
    """Headings and the flowable after them, never parted by a page break. Where the whole does not
    fit and that flowable is a paragraph, the headings stay here with its first lines when at least
    `least_lines` of them fit (the rest goes over the page); otherwise all of it moves on."""

    def __init__(self, flowables: list[Flowable], least_lines: int) -> None:
        super().__init__(flowables)
        self.least_lines = least_lines

    def split(self, aW: float, aH: float) -> list[Flowable]:
        *headings, last = self._content
        if headings and isinstance(last, Paragraph) and not isinstance(last, KeepTogether):
            above = stack_height(self.canv, headings, aW)
            room = aH - above - max(headings[-1].getSpaceAfter(), last.getSpaceBefore())
            if stack_height(self.canv, self._content, aW) > aH and room > 0:
                parts = last.split(aW, room)
                if len(parts) == 2 and _lines(parts[0], aW) >= self.least_lines:
                    return [*headings, parts[0], parts[1]]
        return super().split(aW, aH)


def _lines(paragraph: Paragraph, width: float) -> int:
    paragraph.wrap(width, 0xFFFFFFF)
    return len(getattr(paragraph.blPara, "lines", ()))


def keep_headings_with_next(story: list[Flowable], least_lines: int = 3) -> list[Flowable]:
    """A heading never ends a page: it is kept together with the flowable after it (a list's
    `KeepList` takes it as the first of its lead), or with at least `least_lines` lines of a
    paragraph after it (`KeepHeading`)."""
    result: list[Flowable] = []
    i = 0
    while i < len(story):
        item = story[i]
        name = getattr(getattr(item, "style", None), "name", "")
        if name in ("h1", "h2") and i + 1 < len(story):
            group = [item]
            while i + 1 < len(story) and getattr(
                getattr(story[i + 1], "style", None), "name", ""
            ) in ("h1", "h2"):
                i += 1
                group.append(story[i])
            if i + 1 < len(story) and not isinstance(story[i + 1], PageBreak):
                # (a heading just before a page break is set where it is: kept with the break, it
                # moved to a page of its own)
                i += 1
                if isinstance(story[i], KeepList):
                    result.append(story[i].led_by(group))
                    i += 1
                    continue
                group.append(story[i])
            result.append(KeepHeading(group, least_lines))
        else:
            result.append(item)
        i += 1
    return result


# the styles that never introduce a list: headings join a list's lead by keep_headings_with_next
NOT_LEADS = ("h1", "h2", "title", "subtitle", "meta")


def list_runs(blocks: list) -> list[tuple[int, int, int]]:
    """Each list of `blocks` (a run of items in one style, as `list_hangs` reads them): (the index
    of the paragraph that introduces it, or of its first item where none does, its first item, the
    index after its last)."""
    runs: list[tuple[int, int, int]] = []
    start = None
    for index, block in enumerate([*blocks, None]):
        item = isinstance(block, Para) and bool(block.bullet)
        if start is not None and not (item and blocks[start].style == block.style):
            before = blocks[start - 1] if start else None
            led = (
                isinstance(before, Para)
                and not before.bullet
                and before.style not in NOT_LEADS
                and _introduces(before.markup)
            )
            runs.append((start - 1 if led else start, start, index))
            start = None
        if item and start is None:
            start = index
    return runs


def _introduces(markup: str) -> bool:
    """A paragraph that introduces what follows: it ends with a colon ("in this order:"); one that
    says something of its own before a list is not kept with it."""
    return re.sub(r"<[^>]*>|\s", "", markup).endswith(":")


class KeepList(KeepTogether):
    """A list and what leads into it (the paragraph that introduces it, the headings above), set so
    that a page break never leaves fewer than `least_items` items begun on either side of it. A
    short list (`keep_items` items or fewer, no taller than `keep_share` of the frame) is not split:
    it moves to the next page with at least the last two lines of its lead (the headings stay with
    the lead's lines), unless that leaves more than `room_left` of the frame empty. A longer one
    breaks after the most lines that fit, between items or inside one; a list that fits at no page
    top and may not break is set as ReportLab would.
    booklet.yaml's `lists` (BookletLists) gives the numbers."""

    def __init__(
        self, lead: list[Flowable], items: list[Flowable], rule: BookletLists, frame_height: float
    ) -> None:
        super().__init__([*lead, *items])
        self.lead, self.items, self.rule, self.frame_height = lead, items, rule, frame_height

    def led_by(self, headings: list[Flowable]) -> KeepList:
        return KeepList([*headings, *self.lead], self.items, self.rule, self.frame_height)

    def _height(self, flowables: list[Flowable], width: float) -> float:
        return stack_height(self.canv, flowables, width)

    def short(self, width: float) -> bool:
        rule = self.rule
        return (
            len(self.items) <= rule.keep_items
            and self._height(self.items, width) <= rule.keep_share * self.frame_height
        )

    def split(self, aW: float, aH: float) -> list[Flowable]:
        content = [*self.lead, *self.items]
        frame = getattr(self, "_frame", None)
        at_top = bool(getattr(frame, "_atTop", False))
        if self._height(content, aW) <= aH:
            return content
        least = self.rule.least_items
        spare = aH - self._height(self.lead, aW)  # what moving the list would leave empty here
        splits = len(self.items) >= 2 * least  # enough items to leave `least` on each side
        if not self.short(aW) or (splits and spare > self.rule.room_left * self.frame_height):
            # the most items that fit here, with enough of them on each side
            items = self.items
            for count in range(len(items) - least, least - 2, -1):
                here = [*self.lead, *items[:count]]
                # the gap a frame leaves above the item: the larger of the space after the one
                # before it and the item's own space before
                gap = max(here[-1].getSpaceAfter() if here else 0.0, items[count].getSpaceBefore())
                room = aH - self._height(here, aW) - gap
                parts = items[count].split(aW, room) if room > 0 and count + 1 >= least else []
                if len(parts) == 2:  # an item's first lines here, its last ones over the page
                    rest = KeepList(
                        [], [parts[1], *items[count + 1 :]], self.rule, self.frame_height
                    )
                    return [*here, parts[0], FrameBreak(), rest]
                if count >= least and self._height(here, aW) <= aH:
                    rest = KeepList([], items[count:], self.rule, self.frame_height)
                    return [*here, FrameBreak(), rest]
        if at_top:  # taller than a page and no split allowed: set as it comes
            return content
        paragraph = self.lead[-1] if self.lead else None
        if isinstance(paragraph, Paragraph):
            above = self.lead[:-1]
            own = paragraph.wrapOn(self.canv, aW, 0xFFFFFFF)[1]
            room = aH - (self._height(self.lead, aW) - own)
            # as many of its lines as fit here, and at least its last two over the page
            room = min(room, own - 2 * paragraph.style.leading + 1)
            parts = paragraph.split(aW, room) if room > 0 else []
            if len(parts) == 2:  # its first lines here, its last ones with the list
                rest = KeepList([parts[1]], self.items, self.rule, self.frame_height)
                return [*above, parts[0], FrameBreak(), rest]
        return [FrameBreak(), *content]
