"""Lay out the rules booklet: render its template into blocks, check them (styles, motifs, colours,
sizes, characters) and tie their short words. The render stage sets them in pages (render.booklet).
"""

from __future__ import annotations

from typing import Any

from printshop.diagnostics import Location, Report, did_you_mean
from printshop.language.resolve import LocalizedGame
from printshop.layout.faces import tied
from printshop.layout.images import has_images, read_booklet_images
from printshop.layout.plan import BookletLayout
from printshop.layout.problems import (
    DataErrors,
    check_text,
    found_in_template,
    is_missing_translation,
    report_failure,
    report_once,
    report_unknown_icons,
)
from printshop.project.loader import Project
from printshop.project.models.booklet import BookletStyle
from printshop.project.units import parse_length, to_mm
from printshop.typeset.fonts import FontSet
from printshop.typeset.icons import icon_scale, resolve_blocks
from printshop.typeset.richtext import (
    BACK_COVER,
    HOME_ONLY,
    Art,
    Block,
    Figure,
    Para,
    RichTextError,
    Spacer,
    header_fills,
    parse_blocks,
)
from printshop.typeset.templating import TemplateFailure, render_template, template_location


def lay_out_booklet(
    project: Project,
    localized: LocalizedGame,
    context: dict,
    fonts: FontSet,
    env,
    report: Report,
    errors: DataErrors | None = None,
) -> BookletLayout | None:
    """The booklet's template rendered into blocks, checked and tied; None when it cannot be
    (reported)."""
    spec = localized.data.game.booklet
    if spec is None:
        return None  # the game has no booklet
    tree: Any = context.get("t")  # the texts, which note what the template reads when they can
    logs = hasattr(tree, "start_log")
    reads = tree.start_log() if logs else []
    try:
        markup = render_template(env, spec.template, context)
    except TemplateFailure as failure:
        if (
            failure.missing == spec.template
        ):  # game.yaml names a template there is not: where it names it
            failure.location = spec.where("template")
        if not is_missing_translation(failure, localized):
            report_failure(report, failure, "rules booklet", localized, errors)
        return None
    finally:
        if logs:
            tree.stop_log()
    template_path = template_location(env, spec.template)
    try:
        blocks = parse_blocks(markup)
    except RichTextError as error:
        report_once(
            report,
            "template",
            found_in_template(template_path, error.needle, max(error.line, 1)),
            f"{error} (rules booklet)",
            hint=error.hint,
        )
        return None
    if has_images(blocks):  # the files its <img>s name, read (layout/images.py)
        read = read_booklet_images(blocks, project, localized.data.dir, template_path, report)
        if read is None:
            return None
        blocks = read
    style = project.booklet
    _check_block_sizes(blocks, project, template_path, report)
    for name in header_fills(blocks):  # a colour the booklet fills a header with
        palette = project.colours.palette
        if name not in palette:
            report_once(
                report,
                "unknown-reference",
                found_in_template(template_path, f'header-fill="{name}"'),
                f"<table header-fill=\"{name}\">: no colour '{name}'{did_you_mean(name, palette)} "
                "(rules booklet)",
                hint=f'name a colour of colours.yaml ({", ".join(palette)}), or write "none"',
            )
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
                    report_once(
                        report,
                        "unknown-reference",
                        found_in_template(template_path, f'{kind}="{name}"'),
                        f"<art {kind}=\"{name}\">: no {kind} '{name}'{did_you_mean(name, names)} "
                        f"({kind}s: {', '.join(names)}) (rules booklet)",
                    )
        if isinstance(block, Figure):  # its caption, in the caption style (else p's)
            block = Para("caption" if "caption" in style.styles else "p", block.caption)
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
            check_text(
                [block],
                text_style.font,
                text_style.uppercase,
                f"rules booklet ({localized.lang})",
                lambda: template_path,
                fonts,
                report,
            )
    unknown: list[str] = []
    blocks = resolve_blocks(blocks, lambda block: _icon_scale(style, block), unknown)
    if unknown:
        report_unknown_icons(unknown, Location(template_path.path, 1, 1), "rules booklet", report)
    blocks = tied(blocks, localized.language.typography, lambda block: booklet_align(style, block))
    return BookletLayout(blocks, style, tuple(dict.fromkeys(reads)))


def _check_block_sizes(
    blocks: list[Block], project: Project, template_path: Location, report: Report
) -> None:
    """A `<spacer>` or `<art>` taller than the booklet page's text area cannot be set on any page:
    the build failed at it ("the paragraph '...…' is 250 mm tall", at printshop's own booklet.yaml)."""
    style = project.booklet
    paper = project.media.papers.get(style.paper)
    if paper is None:
        return  # (reported by the validator)
    height = (
        paper.height - style.margins.top - style.margins.bottom
    )  # (an art wider than the text runs into the margins)
    area = f"a booklet page ({paper.label or style.paper}) holds {to_mm(height):.0f} mm inside its margins"
    for block in blocks:
        if isinstance(block, Spacer) and block.height not in (HOME_ONLY, BACK_COVER):
            if (
                parse_length(block.height) > height + 0.01
            ):  # (a hundredth of a point: 180mm is what A5 holds)
                report_once(
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
                report_once(
                    report,
                    "text-overflow",
                    found_in_template(template_path, f'size="{block.size}"'),
                    f'<art size="{block.size}"> is taller than any page can hold: {area} (rules booklet)',
                    hint="lower the art's size",
                )


def _icon_scale(style: BookletStyle, block) -> float | None:
    """The icons' size in a booklet block as a multiple of its text's (typeset.icons.icon_scale):
    a table's cells are set in the `td` style."""
    text_style = style.styles.get(block.style if isinstance(block, Para) else "td")
    return icon_scale(text_style.icon_size, text_style.size) if text_style is not None else None


def booklet_align(style: BookletStyle, block: Para) -> str | None:
    """How the booklet style sets a paragraph (None: a style it does not have)."""
    text_style = style.styles.get(block.style)
    return text_style.align if text_style is not None else None
