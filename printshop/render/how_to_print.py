"""The one-page "how to print and cut" sheet in every print-and-play kit: which file to print how
(one- or double-sided, which edge to flip), then the steps to cut and assemble.

The page is a template (templates/common/how-to-print.xml.j2) in the booklet's vocabulary and styles,
fed with the kit's own files; its sentences are the language's labels (data/languages/<lang>.yaml).
It speaks to players, who print a finished kit: it names no command (the publisher's options are in
the README), and it says where a tiled board's assembly diagram is from the renderer's own layout.
"""
from __future__ import annotations

from dataclasses import dataclass

from printshop.colour import Paints
from printshop.diagnostics import Report
from printshop.layout import BookletLayout, GameLayout, _report_once, booklet_align, found_in_template, tied
from printshop.model import BookletStyle, Motif, Paper
from printshop.render.booklet import BookletTooLarge, render_booklet
from printshop.render.sheet_pages import ASSEMBLY_PAGE
from printshop.richtext import RichTextError, parse_blocks
from printshop.templating import HOW_TO_PRINT_TEMPLATE, TemplateFailure, render_template, template_location

TEMPLATE = HOW_TO_PRINT_TEMPLATE


@dataclass(frozen=True)
class KitFile:
    name: str
    pages: int
    kind: str  # cards, cards-one-sided, gutterfold, sheet, sheet-pairs (each also -two-sided), tiled, rules, rules-booklet


class TooLong(ValueError):
    """The sheet took more than one page."""


def render_how_to_print(game: GameLayout, files: list[KitFile], paper: Paper, style: BookletStyle, paints: Paints,
                        motifs: dict[str, Motif], env, file_name: str, *, flip: str, calibration: str,
                        low_ink: bool) -> tuple[bytes, int]:
    localized = game.localized
    blocks = tied(_blocks(game, files, paper.label, env, flip, calibration, low_ink), localized.language.typography,
                  lambda block: booklet_align(style, block))
    for scale in SCALES:  # on a small paper, or in a long language, the booklet's type a little smaller
        try:
            data, pages = render_booklet(game, BookletLayout(blocks, _scaled(style, scale)), paper, paints, motifs,
                                         file_name, folio=localized.label("howto_title"))
        except BookletTooLarge as error:  # a block no page holds at this size (a table's row in 90 pt type)
            if scale == SCALES[-1]:
                raise BookletTooLarge(str(error).replace("the rules booklet", "the how-to-print sheet", 1),
                                      error.where) from None
            continue
        if pages == 1:
            return data, pages
    raise TooLong(f"the how-to-print sheet takes {pages} pages on {paper.label} even with the booklet's type at "
                  f"{SCALES[-1]:.0%}; it must fit on one")


# The sizes the sheet is tried at, as shares of the booklet styles' (its type, leading kept, and spaces): French on
# A5 takes about 1.2 pages at full size. 70 % of the booklet's 9.5 pt is 6.7 pt, still read at arm's length.
SCALES = (1.0, 0.9, 0.8, 0.7)


def _scaled(style: BookletStyle, scale: float) -> BookletStyle:
    if scale == 1.0:
        return style
    styles = {name: text.model_copy(update={"size": text.size * scale, "space_before": text.space_before * scale,
                                            "space_after": text.space_after * scale, "indent": text.indent * scale})
              for name, text in style.styles.items()}
    tables = style.tables.model_copy(update={"padding": style.tables.padding * scale,
                                             "space_before": style.tables.space_before * scale,
                                             "space_after": style.tables.space_after * scale})
    return style.model_copy(update={"styles": styles, "tables": tables})


def _blocks(game: GameLayout, files: list[KitFile], paper_label: str, env, flip: str, calibration: str,
            low_ink: bool) -> list:
    """The page's blocks: the template filled with the kit's files and the language's labels, parsed."""
    context = {"title": game.title, "paper": paper_label, "files": files, "flip": flip, "calibration": calibration,
               "low_ink": low_ink, "label": game.localized.label, "assembly_page": ASSEMBLY_PAGE,
               "kinds": sorted({f.kind for f in files})}
    return parse_blocks(render_template(env, TEMPLATE, context))


# one file of each kind a kit lists, so that a check of the template meets each of its branches
KINDS = ("cards", "cards-one-sided", "gutterfold", "sheet", "sheet-pairs", "sheet-two-sided",
         "sheet-pairs-two-sided", "tiled", "rules", "rules-booklet")


def check_how_to_print(game: GameLayout, paper_label: str, env, report: Report) -> None:
    """What validate can find in the how-to page without setting it (that is the build's, with the kit's files):
    the template filled for a kit with a file of every kind, flipped on either edge, in colour and in low ink,
    must render and parse: its Jinja, the names it reads, its markup and tags. A fault is reported at the template
    (once, whichever language meets it), as the build would have failed there."""
    files = [KitFile(f"{game.game_id}-{game.lang}-{kind}.pdf", 12, kind) for kind in KINDS]
    where = template_location(env, TEMPLATE)
    for flip, low_ink in (("long-edge", False), ("short-edge", True)):
        try:
            _blocks(game, files, paper_label, env, flip, "calibration.pdf", low_ink)
        except TemplateFailure as failure:
            _report_once(report, "template", failure.location, f"{failure} (how-to-print)", also=(
                f"called from {failure.called_from}" if failure.called_from is not None else ""),
                hint=failure.hint, cause=str(failure))
            return
        except RichTextError as error:
            _report_once(report, "template", found_in_template(where, error.needle, max(error.line, 1)),
                         f"{error} (how-to-print)")
            return
