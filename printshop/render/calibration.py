"""The duplex calibration page: a cross on the front, millimetre rulers on the back.

The page's centre lands on itself whichever edge the printer turns the sheet on, so the front's
lines, seen through the paper against the light, cross the back's rulers at the back's drift with
the sign reversed: the numbers read there are how far to shift the back side (a printer's duplex
setting, or a publisher's --back-offset, docs/printing.md). The page speaks to players: it names no
command.
"""

from __future__ import annotations

import io

from reportlab.pdfbase.pdfmetrics import stringWidth

from printshop.project.models.media import Media, Paper
from printshop.project.units import mm
from printshop.render.colour import Paints
from printshop.render.pdf import new_canvas

SPAN = 5  # millimetres each side of the centre


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


def render_calibration(
    paper: Paper, media: Media, paints: Paints, title: str, text: str, lang: str
) -> tuple[bytes, int]:
    width, height = paper.width, paper.height
    cx, cy = width / 2, height / 2
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, width, height, lang=lang, title=title, subject="duplex calibration")
    footer = media.print_and_play.footer
    ink = paints.text("ink")

    def heading() -> None:
        canvas.setFillColor(ink)
        canvas.setFont("sans-bold", 14)
        canvas.drawCentredString(cx, height - mm(25), title)
        canvas.setFont("sans", 9)
        y = height - mm(33)
        for paragraph in text.split("\n"):  # the label's lines, each wrapped to the page
            for line in _wrapped(paragraph, "sans", 9, width - 2 * mm(20)):
                canvas.drawCentredString(cx, y, line)
                y -= 12

    heading()  # front: a long cross through the centre
    canvas.setStrokeColor(ink)
    canvas.setLineWidth(0.3)
    canvas.line(cx, cy - mm(40), cx, cy + mm(40))
    canvas.line(cx - mm(40), cy, cx + mm(40), cy)
    canvas.setFont(footer.font, footer.size)
    canvas.drawCentredString(cx, footer.baseline, f"{title} · 1/2")
    canvas.showPage()

    canvas.setStrokeColor(
        ink
    )  # back: a ruler across the vertical line, one along the horizontal one
    canvas.setFillColor(ink)
    canvas.setFont("sans", 6)
    for tenth in range(-SPAN * 2, SPAN * 2 + 1):
        value = tenth / 2
        long = tenth % 2 == 0
        canvas.setLineWidth(0.25 if long else 0.15)
        x = cx + mm(value)
        canvas.line(x, cy + mm(12), x, cy + mm(12) + mm(4 if long else 2))
        y = cy + mm(value)
        canvas.line(cx + mm(12), y, cx + mm(12) + mm(4 if long else 2), y)
        if (
            tenth % 4 == 0
        ):  # a label every 2 mm, on two staggered rows so that neighbours never touch
            label = f"{value:+g}" if value else "0"
            far = tenth % 8 != 0
            canvas.drawCentredString(x, cy + mm(17 if not far else 20.5), label)
            canvas.drawString(cx + mm(17 if not far else 22), y - 2, label)
    canvas.setFont("sans-bold", 8)
    canvas.drawCentredString(cx, cy + mm(25), "DX")
    canvas.drawString(cx + mm(29), cy - 3, "DY")
    canvas.setFont(footer.font, footer.size)
    canvas.drawCentredString(cx, footer.baseline, f"{title} · 2/2")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue(), 2
