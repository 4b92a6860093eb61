"""PDF settings every document shares: reproducible bytes, embedded fonts only, metadata.

Dates and /ID: `invariant=1` gives every PDF the fixed date 2000-01-01 and an /ID hashed from it and
the content. ReportLab reads `SOURCE_DATE_EPOCH` itself (reportlab.lib.utils.TimeStamp): when it is
set, the creation and modification dates are that moment (UTC) and the /ID derives from it, as
reproducible-builds.org describes. build.check_environment refuses a value that is not whole seconds
(ReportLab would fail on every file), and cache.py puts the variable in every key.

What ReportLab's PDF code itself is made to do differently (binary Flate streams remembered by
content, font subsets tagged by what they hold) is in printshop/reportlab_patches.py.
"""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

INITIAL_FONT = "sans"  # a registered TrueType face, so the PDF never names an unembedded Helvetica


def new_canvas(
    buffer: io.BytesIO,
    width: float,
    height: float,
    *,
    title: str,
    subject: str,
    lang: str,
    keywords: str = "",
) -> Canvas:
    """`keywords` name what a press file holds ("printshop:cards", "printshop:booklet", ...), which
    `printshop preflight` reads to know what to check."""
    canvas = Canvas(
        buffer,
        pagesize=(width, height),
        invariant=1,
        pageCompression=1,
        initialFontName=INITIAL_FONT,
        initialFontSize=8,
        lang=lang,
    )
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setAuthor("printshop")
    canvas.setCreator("printshop")
    if keywords:
        canvas.setKeywords(keywords)
    from printshop.render.replay import remember_page_streams

    remember_page_streams(
        canvas
    )  # in a session: each page stream compressed and formatted once per content
    return canvas
