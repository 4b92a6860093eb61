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
from printshop.layout import BookletLayout, GameLayout, booklet_align, tied
from printshop.model import BookletStyle, Motif, Paper
from printshop.render.booklet import render_booklet
from printshop.render.sheet_pages import ASSEMBLY_PAGE
from printshop.richtext import parse_blocks
from printshop.templating import HOW_TO_PRINT_TEMPLATE, render_template

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
    context = {"title": game.title, "paper": paper.label, "files": files, "flip": flip, "calibration": calibration,
               "low_ink": low_ink, "label": localized.label, "assembly_page": ASSEMBLY_PAGE,
               "kinds": sorted({f.kind for f in files})}
    blocks = tied(parse_blocks(render_template(env, TEMPLATE, context)), localized.language.typography,
                  lambda block: booklet_align(style, block))
    data, pages = render_booklet(game, BookletLayout(blocks, style), paper, paints, motifs, file_name,
                                 folio=localized.label("howto_title"))
    if pages != 1:
        raise TooLong(f"the how-to-print sheet takes {pages} pages on {paper.label}; it must fit on one")
    return data, pages
