"""The duplex calibration page: a cross on the front, millimetre rulers on the back.

The page's centre lands on itself whichever edge the printer turns the sheet on, so the front's
lines, seen through the paper against the light, cross the back's rulers at the back's drift with
the sign reversed: the numbers read there are how far to shift the back side (a printer's duplex
setting, or a publisher's --back-offset, docs/printing.md). The DX ruler runs across the front's
upright line below the centre, the DY ruler along its level line to the right; each reaches
`print_and_play.calibration.reach` either side of its zero (100 mm in all), a tick every
millimetre, every fifth longer, every tenth longer still and numbered, so a drift of 2 mm reads at
a glance and the numbers never crowd. Under the cross, a bar as long as a ruler (100 mm) with a
tick every centimetre lets a player check the print is at actual size before reading anything. The
steps are the language's `calibration` label, one numbered step a line, set ragged left under the
title and a short accent rule; the back repeats in one line (`calibration_back`) which side faces
the reader. Beside each ruler's + end an arrow points the way a + reading shifts the back, as seen on
this side (the language's `calibration_shift`), so the sign needs no mirroring in the head. Nothing
comes within the print-and-play margin of the paper's edge. The page speaks to
players: it names no command.
"""

from __future__ import annotations

import io

from reportlab.pdfbase.pdfmetrics import stringWidth

from printshop.project.models.media import Media, Paper
from printshop.project.units import mm
from printshop.render.colour import Paints
from printshop.render.pdf import new_canvas

SIDE = mm(20)  # the text's margin left and right
TOP = mm(22)  # from the paper's top edge to the title's baseline
STEP_INDENT = mm(6)  # the numbers of the steps hang in it
BELOW = mm(30)  # from the centre down to the DX ruler's line
BESIDE = mm(12)  # from the DX ruler's end to the DY ruler's line
TICKS = (mm(2), mm(3.5), mm(5))  # a millimetre, a fifth, a tenth
MINUS = "\u2013"  # the en dash: the bundled sans has no minus sign


def _wrapped(text: str, font: str, size: float, width: float) -> list[str]:
    """Lines of `text` no wider than `width`, broken at ordinary spaces only: a no-break space
    (French "jour\u202f:") keeps its words together and stays what it is."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and stringWidth(f"{lines[-1]} {word}", font, size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


ARROW = mm(10)  # the length of a ruler's arrow


def _arrow(canvas, x0: float, y0: float, x1: float, y1: float) -> None:
    """A 0.8 pt line from (x0, y0) to (x1, y1) with a filled head at (x1, y1)."""
    from math import atan2, cos, sin

    canvas.setLineWidth(0.8)
    angle, head = atan2(y1 - y0, x1 - x0), mm(2.2)
    canvas.line(x0, y0, x1 - cos(angle) * head * 0.8, y1 - sin(angle) * head * 0.8)
    path = canvas.beginPath()
    path.moveTo(x1, y1)
    for turn in (2.7, -2.7):
        path.lineTo(x1 + cos(angle + turn) * head, y1 + sin(angle + turn) * head)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def _number(value: float) -> str:
    """A ruler's number in millimetres, signed, with a true minus."""
    return "0" if value == 0 else f"+{value:g}" if value > 0 else f"{MINUS}{-value:g}"


def render_calibration(
    paper: Paper,
    media: Media,
    paints: Paints,
    title: str,
    text: str,
    lang: str,
    back: str = "",
    shift: str = "",
) -> tuple[bytes, int]:
    width, height = paper.width, paper.height
    cx, cy = width / 2, height / 2
    rulers = media.print_and_play.calibration
    reach, tick = rulers.reach, rulers.tick
    steps = round(reach / tick)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, width, height, lang=lang, title=title, subject="duplex calibration")
    footer = media.print_and_play.footer
    ink = paints.text("ink")
    accent = paints.text("accent") if "accent" in paints.palette else ink
    dx_line = cy - BELOW  # the DX ruler, below the centre
    dy_line = cx + reach + BESIDE  # the DY ruler, right of the DX ruler's end

    def heading(paragraphs: list[str], numbered: bool) -> None:
        canvas.setFillColor(accent)
        canvas.rect(SIDE, height - TOP + mm(7), mm(18), mm(1.4), stroke=0, fill=1)
        canvas.setFillColor(ink)
        canvas.setFont("sans-bold", 16)
        canvas.drawString(SIDE, height - TOP, title)
        y, size, leading = height - TOP - mm(9), 9.5, 13
        for number, paragraph in enumerate(paragraphs, 1):
            indent = STEP_INDENT if numbered else 0
            if numbered:
                canvas.setFont("sans-bold", size)
                canvas.drawString(SIDE, y, f"{number}.")
            canvas.setFont("sans", size)
            for line in _wrapped(paragraph, "sans", size, width - 2 * SIDE - indent):
                canvas.drawString(SIDE + indent, y, line)
                y -= leading
            y -= 4

    def page_footer(number: int) -> None:
        canvas.setFillColor(ink)
        canvas.setFont(footer.font, footer.size)
        canvas.drawCentredString(cx, footer.baseline, f"{title} · {number}/2")
        canvas.showPage()

    # front: the steps, and a cross long enough to reach both rulers of the back
    heading([line for line in text.split("\n") if line.strip()], numbered=True)
    canvas.setStrokeColor(ink)
    canvas.setLineWidth(0.6)
    # each line as long on either side of the centre, so that it lands on itself turned on either
    # edge, and past the far end of the ruler's ticks
    upright, level = BELOW + TICKS[2] + mm(4), reach + BESIDE + TICKS[2] + mm(4)
    canvas.line(cx, cy - upright, cx, cy + upright)
    canvas.line(cx - level, cy, cx + level, cy)
    # the scale check: a bar as long as a ruler, well below the cross
    bar = cy - upright - mm(22)
    canvas.setLineWidth(0.8)
    canvas.line(cx - reach, bar, cx + reach, bar)
    canvas.setLineWidth(0.4)
    for step in range(0, 2 * steps + 1, 10):
        length = TICKS[2] if step in (0, 2 * steps) else TICKS[1]
        canvas.line(cx - reach + step * tick, bar, cx - reach + step * tick, bar + length)
    canvas.setFillColor(ink)
    canvas.setFont("sans-bold", 9)
    canvas.drawCentredString(cx, bar - mm(4.5), f"{round(2 * reach / mm(1), 2):g}\u00a0mm")
    page_footer(1)

    # back: the DX ruler across the front's upright line, the DY ruler along its level line
    heading([back] if back else [], numbered=False)
    canvas.setStrokeColor(ink)
    canvas.setFillColor(ink)
    canvas.setLineWidth(0.4)
    canvas.line(cx - reach, dx_line, cx + reach, dx_line)
    canvas.line(dy_line, cy - reach, dy_line, cy + reach)
    for step in range(-steps, steps + 1):
        kind = 2 if step % 10 == 0 else 1 if step % 5 == 0 else 0
        length = TICKS[kind]
        canvas.setLineWidth(0.4 if kind else 0.25)
        x, y = cx + step * tick, cy + step * tick
        canvas.line(x, dx_line, x, dx_line - length)
        canvas.line(dy_line, y, dy_line + length, y)
        if kind == 2:
            label = _number(round(step * tick / mm(1), 2))
            canvas.setFont("sans-bold" if step == 0 else "sans", 7)
            canvas.drawCentredString(x, dx_line - TICKS[2] - mm(3), label)
            canvas.drawString(dy_line + TICKS[2] + mm(1.5), y - 2.4, label)
    canvas.setFillColor(accent)
    canvas.setFont("sans-bold", 11)
    canvas.drawRightString(cx - reach - mm(4), dx_line - mm(3), "DX")
    canvas.drawCentredString(dy_line, cy + reach + mm(7.5), "DY")
    canvas.setFont("sans", 7)
    canvas.setFillColor(ink)
    canvas.drawRightString(cx - reach - mm(4), dx_line - mm(6.5), "mm")
    canvas.drawCentredString(dy_line, cy + reach + mm(4), "mm")
    if shift:  # the way a + reading moves the back: right along DX, up along DY
        canvas.setFont("sans", 7.5)
        canvas.setStrokeColor(accent)
        canvas.setFillColor(accent)
        below = dx_line - TICKS[2] - mm(9)
        _arrow(canvas, cx + reach - ARROW, below + mm(1), cx + reach, below + mm(1))
        canvas.drawRightString(cx + reach - ARROW - mm(2), below, shift)
        beside = dy_line - mm(3)
        _arrow(canvas, beside, cy + reach - ARROW, beside, cy + reach)
        canvas.drawRightString(beside - mm(2.5), cy + reach - mm(3.5), shift)
    page_footer(2)
    canvas.save()
    return buffer.getvalue(), 2
