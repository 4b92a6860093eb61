"""The shared print data (media.yaml's print-and-play kit, booklet.yaml, the cutters): papers and
card sheets named, fonts and colours named, and sizes a booklet page or a cutter's paper can hold.
"""

from __future__ import annotations

from printshop.checks.references import colour_ref, font_ref
from printshop.diagnostics import Report, did_you_mean
from printshop.project.loader import Project
from printshop.project.models.booklet import BookletStyle, PageStyle
from printshop.project.units import to_mm


def check_look(project: Project, report: Report) -> None:
    """The shared print data (media.yaml's kit, booklet.yaml, motifs.yaml): papers, card sheets,
    the fonts and colours named, and palette colours the shops' CMYK cannot print."""
    from printshop.checks.press import check_palette_gamut

    _check_kit(project, report)
    _check_booklet(project, report)
    for motif in project.motifs.motifs.values():  # the colour an inline icon of it is drawn in
        colour_ref(project, motif.colour, motif, "colour", report)
    check_palette_gamut(project, report)


def _check_kit(project: Project, report: Report) -> None:
    """media.yaml's print-and-play kit: its papers and card sheets, its marks' and footer's colours
    and font."""
    media = project.media
    pnp = media.print_and_play
    for index, paper in enumerate(pnp.papers):
        if paper not in media.papers:
            report.add(
                "unknown-reference",
                pnp.where("papers"),
                f"print_and_play.papers[{index}]: no paper '{paper}' (papers: {', '.join(media.papers)})",
            )
    for (
        paper,
        sizes,
    ) in pnp.card_sheets.items():  # card sheets laid out otherwise (turned), by paper and card size
        if paper not in media.papers:
            report.add(
                "unknown-reference",
                pnp.where("card_sheets"),
                f"print_and_play.card_sheets: no paper '{paper}' (papers: {', '.join(media.papers)})",
            )
        for size, layout in sizes.items():
            if size not in media.card_sizes:
                report.add(
                    "unknown-reference",
                    layout.where(),
                    f"print_and_play.card_sheets.{paper}: no card size "
                    f"'{size}' (sizes: {', '.join(media.card_sizes)})",
                )
    colour_ref(project, pnp.crop_marks.colour, pnp.crop_marks, "colour", report)
    colour_ref(project, pnp.footer.colour, pnp.footer, "colour", report)
    font_ref(project, pnp.footer.font, pnp.footer, "font", report)


def _check_booklet(project: Project, report: Report) -> None:
    """booklet.yaml: its paper, colours and fonts named, and spaces, rows and styles a page can
    hold."""
    media = project.media
    booklet = project.booklet
    if booklet.paper not in media.papers:
        report.add("unknown-reference", booklet.where("paper"), f"no paper '{booklet.paper}'")
    colour_ref(project, booklet.tables.grid, booklet.tables, "grid", report)
    if booklet.tables.header_fill not in (None, "none"):
        colour_ref(project, booklet.tables.header_fill, booklet.tables, "header_fill", report)
    colour_ref(project, booklet.rule_colour, booklet, "rule_colour", report)
    colour_ref(project, booklet.folio.colour, booklet.folio, "colour", report)
    font_ref(
        project, booklet.folio.font, booklet.folio, "font", report
    )  # (else the build failed at the first page)
    for colour in booklet.characters.values():
        colour_ref(project, colour, booklet, "characters", report)
    paper = media.papers.get(booklet.paper)
    room = (
        paper.height - booklet.margins.top - booklet.margins.bottom if paper is not None else None
    )
    holds = (
        f"a booklet page ({paper.label or booklet.paper}) holds {to_mm(room):.0f} mm inside its margins"
        if paper is not None and room is not None
        else ""
    )
    _check_booklet_tables(booklet, room, holds, report)
    _check_booklet_styles(project, room, holds, report)
    for which in ("cover", "text", "back_cover"):
        _check_page_style(project, which, getattr(booklet.pages, which), report)
    for name in ("p", "h1", "h2", "li", "th", "td"):
        if name not in booklet.styles:
            report.add("missing-field", booklet.where("styles"), f"booklet styles need '{name}'")


def _check_page_style(project: Project, which: str, page: PageStyle, report: Report) -> None:
    """A booklet page style (`pages.cover`, `text`, `back_cover`): its colours, motifs and
    paragraph styles named, and text it colours legible on its background (`low-contrast`). Its
    images are a game's files: validate_game checks them (`booklet_images`)."""
    from printshop.render.booklet_covers import LEAST_CONTRAST, contrast

    palette, styles, label = (
        project.colours.palette,
        project.booklet.styles,
        which.replace("_", " "),
    )
    colour_ref(project, page.background, page, "background", report)
    for shape in page.shapes.values():
        colour_ref(project, shape.fill, shape, "fill", report)
        colour_ref(project, shape.stroke, shape, "stroke", report)
        motifs = project.motifs.motifs
        if shape.kind == "motif" and shape.motif not in motifs:
            report.add(
                "unknown-reference",
                shape.where("motif"),
                f"no motif '{shape.motif}'{did_you_mean(str(shape.motif), motifs)} "
                f"(motifs: {', '.join(motifs)})",
            )
    for field, named in (("colours", page.colours), ("sizes", page.sizes)):
        for style in named:
            if style not in styles:
                report.add(
                    "unknown-reference",
                    page.where(field),
                    f"pages.{which}.{field}: no paragraph style '{style}'"
                    f"{did_you_mean(style, styles)} (styles: {', '.join(styles)})",
                )
    for style, colour in page.colours.items():
        colour_ref(project, colour, page, "colours", report)
        if page.background in palette and colour in palette:
            ratio = contrast(palette[colour], palette[page.background])
            if ratio < LEAST_CONTRAST:
                report.add(
                    "low-contrast",
                    page.where("colours"),
                    f"the {label}'s {style} in '{colour}' on '{page.background}' has a contrast "
                    f"ratio of {ratio:.1f}; type there needs at least {LEAST_CONTRAST:g}",
                )


def _check_booklet_tables(
    booklet: BookletStyle, room: float | None, holds: str, report: Report
) -> None:
    """A table's spaces, and a row with its text, fit a booklet page (`room` high inside its
    margins)."""
    tables, cell = booklet.tables, booklet.styles.get("td")
    for field, needed in (
        ("space_before", tables.space_before),
        ("space_after", tables.space_after),
        ("padding", 2 * tables.padding + (cell.size * cell.leading if cell is not None else 0.0)),
    ):
        if (
            room is not None and needed > room
        ):  # a space, or a row, taller than the page: the build cannot set it
            report.add(
                "text-overflow",
                tables.where(field),
                f"booklet tables' {field} takes {to_mm(needed):.0f} mm"
                + (" with a row's text" if field == "padding" else "")
                + f", and {holds}",
                hint=f"lower tables.{field} in booklet.yaml",
            )


def _check_booklet_styles(project: Project, room: float | None, holds: str, report: Report) -> None:
    """Each booklet style's font and colour are named, its indent leaves a line room, and four of
    its lines fit a page (`room` high inside its margins)."""
    booklet = project.booklet
    paper = project.media.papers.get(booklet.paper)
    width = (
        paper.width - booklet.margins.inner - booklet.margins.outer if paper is not None else None
    )
    for name, style in booklet.styles.items():
        font_ref(project, style.font, style, "font", report)
        colour_ref(project, style.colour, style, "colour", report)
        for field in ("background", "border"):
            if getattr(style, field) is not None:
                colour_ref(project, getattr(style, field), style, field, report)
        if (
            paper is not None and width is not None and style.indent > width / 2
        ):  # a list item's text would have a few letters a line
            report.add(
                "text-overflow",
                style.where("indent"),
                f"booklet style '{name}' indents its text {to_mm(style.indent):.0f} mm, and a booklet page "
                f"({paper.label or booklet.paper}) is {to_mm(width):.0f} mm wide inside its margins",
                hint="an indent holds a bullet or a number: a few millimetres",
            )
        # a paragraph breaks across pages only with two of its lines on each side: four must fit a
        # page, or the build cannot set the booklet (ReportLab's LayoutError, once a fault of
        # printshop's)
        needed = 4 * style.size * style.leading + style.space_before + style.space_after
        if room is not None and needed > room:
            report.add(
                "text-overflow",
                style.where("size"),
                f"booklet style '{name}' sets {style.size:g} pt type: four of its lines take {to_mm(needed):.0f} "
                f"mm, and {holds}; a paragraph breaks across pages only with two lines on each side",
                hint="lower the style's size (or its leading and spaces)",
            )


def check_cutters_papers(project: Project, report: Report) -> None:
    """Each print-and-cut machine's papers are papers of media.yaml, each as large as the area it
    cuts."""
    media = project.media
    for (
        cutter_id,
        cutter,
    ) in project.targets.cutters.items():  # a paper named wrong was a cutter's pages left out
        for index, paper in enumerate(cutter.papers):
            if paper not in media.papers:
                report.add(
                    "unknown-reference",
                    cutter.where("papers"),
                    f"cutter '{cutter_id}': papers[{index}]: no paper '{paper}'"
                    f"{did_you_mean(paper, list(media.papers))} (papers: {', '.join(media.papers)})",
                )
            elif cutter.area is not None and (
                cutter.area.width > media.papers[paper].width + 0.01
                or cutter.area.height > media.papers[paper].height + 0.01
            ):
                sheet = media.papers[
                    paper
                ]  # the pages are the area: printed on this paper, cut off or shrunk
                report.add(
                    "paper-too-small",
                    cutter.area.where(),
                    f"cutter '{cutter_id}': its area ({to_mm(cutter.area.width):.0f} × "
                    f"{to_mm(cutter.area.height):.0f} mm) is larger than {sheet.label or paper}, one of its papers "
                    f"({to_mm(sheet.width):.0f} × {to_mm(sheet.height):.0f} mm)",
                )
