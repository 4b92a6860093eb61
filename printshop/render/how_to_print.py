"""The one-page "how to print and cut" sheet in every print-and-play kit: which file to print how
(one- or double-sided, which edge to flip), then the steps to cut and assemble.

The page is a template (templates/common/how-to-print.xml.j2) in the booklet's vocabulary and
styles, fed with the kit's own files; its sentences are the language's labels
(data/languages/<lang>.yaml). It speaks to players, who print a finished kit: it names no command
(the publisher's options are in docs/printing.md), and it says where a tiled board's assembly
diagram is from the renderer's own layout.
"""

from __future__ import annotations

from dataclasses import dataclass

from printshop import memos
from printshop.diagnostics import Report
from printshop.layout.booklet import booklet_align
from printshop.layout.faces import tied
from printshop.layout.plan import BookletLayout, GameLayout
from printshop.layout.problems import found_in_template, report_once
from printshop.project.models.art import Motif
from printshop.project.models.booklet import BookletStyle
from printshop.project.models.media import Paper
from printshop.project.paths import output_name
from printshop.render.booklet import render_booklet
from printshop.render.booklet_pages import BookletTooLarge
from printshop.render.colour import Paints
from printshop.render.gutterfold import folded_decks, two_sided
from printshop.render.sheet_pages import ASSEMBLY_PAGE
from printshop.typeset.richtext import RichTextError, parse_blocks
from printshop.typeset.templating import (
    HOW_TO_PRINT_TEMPLATE,
    TemplateFailure,
    render_template,
    template_location,
)

TEMPLATE = HOW_TO_PRINT_TEMPLATE


@dataclass(frozen=True)
class KitFile:
    name: str
    pages: int
    # cards, cards-one-sided, gutterfold, sheet, sheet-pairs (each also -two-sided), tiled, press,
    # rules, rules-booklet
    kind: str


class TooLong(ValueError):
    """The sheet took more than one page."""


def render_how_to_print(
    game: GameLayout,
    files: list[KitFile],
    paper: Paper,
    style: BookletStyle,
    paints: Paints,
    motifs: dict[str, Motif],
    env,
    file_name: str,
    *,
    flip: str,
    calibration: str,
    low_ink: bool,
    booklet_scale: int = 100,
) -> tuple[bytes, int]:
    localized = game.localized
    style = sheet_style(style)
    blocks = tied(
        _blocks(game, files, paper.label, env, flip, calibration, low_ink, booklet_scale),
        localized.language.typography,
        lambda block: booklet_align(style, block),
    )
    # on a sparse page the spaces a little wider first, so that the sheet fills its page; on a small
    # paper, or in a long language, the booklet's type a little smaller
    tries = [_spread(style, spread) for spread in SPREADS] + [
        _scaled(style, scale) for scale in SCALES
    ]
    for attempt, tried in enumerate(tries):
        try:
            data, pages = render_booklet(
                game,
                BookletLayout(blocks, tried, cover=False),
                paper,
                paints,
                motifs,
                file_name,
                folio=localized.label("howto_title"),
            )
        except (
            BookletTooLarge
        ) as error:  # a block no page holds at this size (a table's row in 90 pt type)
            if attempt == len(tries) - 1:
                raise _as_sheet(error) from None
            continue
        if pages == 1:
            return data, pages
    raise TooLong(
        f"the how-to-print sheet takes {pages} pages on {paper.label} even with the booklet's type at "
        f"{SCALES[-1]:.0%}; it must fit on one"
    )


def sheet_style(style: BookletStyle) -> BookletStyle:
    """The booklet's styles as a sheet sets them: every paragraph ragged left, its title too (a
    page to work from, read line by line, not a cover: docs/design.md, "Spacing")."""
    styles = {
        name: text.model_copy(update={"align": "left"}) if text.align != "left" else text
        for name, text in style.styles.items()
    }
    return style.model_copy(update={"styles": styles})


def _as_sheet(error: BookletTooLarge) -> BookletTooLarge:
    """The booklet's words for a block no page holds, said of this sheet (it is set as a booklet
    is)."""
    return BookletTooLarge(
        str(error).replace("the rules booklet", "the how-to-print sheet", 1), error.where
    )


# The sizes the sheet is tried at, as shares of the booklet styles' (its type, leading kept, and
# spaces): French on A5 takes about 1.2 pages at full size. 70 % of the booklet's 9.5 pt is 6.7 pt,
# still read at arm's length.
SCALES = (1.0, 0.9, 0.8, 0.7)


# The spreads of the sheet's spaces tried before its type is made smaller, widest first, as shares
# of the booklet styles' spaces and table padding (type kept): the widest that keeps the sheet on one
# page is used, so a kit of few files (Comrade's four) fills its page rather than stopping half-way.
SPREADS = (4.0, 3.4, 2.8, 2.2, 1.6)


def _spread(style: BookletStyle, spread: float) -> BookletStyle:
    # (the room round the table at most doubled: wider, it parted the table from its steps)
    return _times(style, 1.0, spread, min(spread, 2.0))


def _scaled(style: BookletStyle, scale: float) -> BookletStyle:
    return style if scale == 1.0 else _times(style, scale, scale, scale)


def _times(style: BookletStyle, size: float, spaces: float, room: float) -> BookletStyle:
    """The styles with their type and indents times `size`, their spaces and the tables' padding
    times `spaces`, and the room round each table times `room`."""
    styles = {
        name: text.model_copy(
            update={
                "size": text.size * size,
                "space_before": text.space_before * spaces,
                "space_after": text.space_after * spaces,
                "indent": text.indent * size,
            }
        )
        for name, text in style.styles.items()
    }
    tables = style.tables.model_copy(
        update={
            "padding": style.tables.padding * spaces,
            "space_before": style.tables.space_before * room,
            "space_after": style.tables.space_after * room,
        }
    )
    return style.model_copy(update={"styles": styles, "tables": tables})


def _blocks(
    game: GameLayout,
    files: list[KitFile],
    paper_label: str,
    env,
    flip: str,
    calibration: str,
    low_ink: bool,
    booklet_scale: int = 100,
) -> list:
    """The page's blocks: the template filled with the kit's files and the language's labels,
    parsed."""
    context = {
        "title": game.title,
        "paper": paper_label,
        "files": files,
        "flip": flip,
        "calibration": calibration,
        "low_ink": low_ink,
        "label": game.localized.label,
        "assembly_page": ASSEMBLY_PAGE,
        "kinds": sorted({f.kind for f in files}),
        "booklet_scale": booklet_scale,
        "card_sizes": card_sizes(game, files),
    }
    return parse_blocks(render_template(env, TEMPLATE, context))


def card_sizes(game: GameLayout, files: list[KitFile]) -> list[dict]:
    """Each size of the cards in the kit's card files, as the language writes a length
    (`measure`), with the names of the files that hold cards of that size, in the decks' order."""
    typography = game.localized.language.typography
    stem = output_name(game.game_id, game.lang, "-", "-", game.localized.variant).name
    prefix = stem[: stem.index("---")] + "-"  # "<game>-<lang>[-<variant>]-"
    sizes: dict[str, list[str]] = {}
    for deck in game.printed_decks:
        names = [
            file.name
            for file in files
            if file.kind in ("cards", "cards-one-sided")
            and file.name.startswith(prefix)
            and file.name[len(prefix) :].rsplit("-", 1)[0] in (deck.id, f"{deck.id}-lowink")
        ]
        if names:
            size = measure(deck.size.width, deck.size.height, typography)
            sizes.setdefault(size, []).extend(names)
    return [{"size": size, "files": names} for size, names in sizes.items()]


POINTS_PER = {"mm": 72 / 25.4, "in": 72.0}  # a length unit in points
DECIMALS = {"mm": 1, "in": 2}  # the places a length is rounded to in each unit


def measure(width: float, height: float, typography) -> str:
    """A card's size (in points) as a reader measures it: "63 × 88 mm (2.48 × 3.46 in)" in the
    language's `length_units` (the first, the others in brackets) and `decimal_mark`, each number
    kept with its sign and unit by no-break spaces."""

    def number(value: float, unit: str) -> str:
        text = f"{value / POINTS_PER[unit]:.{DECIMALS[unit]}f}".rstrip("0").rstrip(".")
        return text.replace(".", typography.decimal_mark)

    each = [
        f"{number(width, unit)}\u00a0×\u00a0{number(height, unit)}\u00a0{unit}"
        for unit in typography.length_units
    ]
    return each[0] + "".join(f" ({other})" for other in each[1:])


# one file of each kind a kit lists, so that a check of the template meets each of its branches
KINDS = (
    "cards",
    "cards-one-sided",
    "gutterfold",
    "tuck-box",
    "sheet",
    "sheet-pairs",
    "sheet-two-sided",
    "sheet-pairs-two-sided",
    "tiled",
    "press",
    "rules",
    "rules-booklet",
)


def deck_kind(deck) -> str:
    """How a kit lists a deck's card sheets: with backs (printed double-sided) or one-sided."""
    return "cards" if two_sided(deck) else "cards-one-sided"


def sheet_kind(sheet) -> str:
    return (
        "tiled" if sheet.spec.tiled else "sheet-pairs" if sheet.spec.per_page == 2 else "sheet"
    ) + ("-two-sided" if sheet.backs else "")


def booklet_scale(booklet_page: Paper, paper: Paper) -> int:
    """The percentage the rules' pages are printed at in the kit's imposed booklet on `paper`
    (render/imposed_booklet.py): 100 for A5 on A4, 94 for A5 on Letter."""
    from printshop.render.imposed_booklet import imposed_scale  # pikepdf: only for a booklet

    return int(imposed_scale(float(booklet_page.width), float(booklet_page.height), paper) * 100)


# the page count validate lists for each file (the build's are known once they are set): the widest
PAGES_SHOWN = 999


def kit_files(
    game: GameLayout,
    paper_id: str,
    booklet_paper: str,
    gutterfold: bool = False,
    low_ink: bool = False,
    folding: tuple[Paper, object] | None = None,
) -> list[KitFile]:
    """The files a kit of `game` on `paper_id` lists (with `gutterfold`, a build with --gutterfold:
    the gutterfold sheets of each deck with backs too, and with `folding`, (the paper, media.yaml's
    print_and_play), only of those that fit on it (render/gutterfold.py folded_decks); with
    `low_ink`, named as a --low-ink build names them), in the order the build lists them (jobs.py's
    tasks)."""
    variant, suffix = game.localized.variant, "-lowink" if low_ink else ""
    folded = {
        deck.id
        for deck in (
            folded_decks(game, *folding)
            if folding is not None
            else [deck for deck in game.printed_decks if two_sided(deck)]
        )
    }

    def name(what: str, paper: str) -> str:
        return output_name(game.game_id, game.lang, what + suffix, paper, variant).name

    files = []
    for deck in game.printed_decks:
        files.append(KitFile(name(deck.id, paper_id), PAGES_SHOWN, deck_kind(deck)))
        if gutterfold and deck.id in folded:
            files.append(
                KitFile(name(f"{deck.id}-gutterfold", paper_id), PAGES_SHOWN, "gutterfold")
            )
        if deck.deck.tuck_box is not None:  # (after its deck, as kit_job.py writes it)
            files.append(KitFile(name(f"{deck.id}-tuckbox", paper_id), PAGES_SHOWN, "tuck-box"))
    for sheet in game.sheets:
        files.append(KitFile(name(sheet.id, paper_id), PAGES_SHOWN, sheet_kind(sheet)))
        if sheet.spec.press:  # its press page, in every kit (never named low-ink: kit_job.py)
            files.append(KitFile(press_name(game, sheet.id), PAGES_SHOWN, "press"))
    if game.booklet is not None:
        files += [
            KitFile(name("rules", booklet_paper), PAGES_SHOWN, "rules"),
            KitFile(name("rules-booklet", paper_id), PAGES_SHOWN, "rules-booklet"),
        ]
    return files


def press_name(game: GameLayout, sheet_id: str) -> str:
    """The file name of a sheet's press page in the kit (`<game>-<lang>-<sheet>-press.pdf`)."""
    return output_name(game.game_id, game.lang, sheet_id, "press", game.localized.variant).name


def check_how_to_print(
    game: GameLayout, project, papers: list[tuple[str, Paper]], env, report: Report
) -> None:
    """What validate can find in the how-to page: the template filled for a kit with a file of every
    kind, flipped on either edge, in colour and in low ink, must render and parse (its Jinja, the
    names it reads, its markup and tags); and the page of the kit's own files on each of `papers`
    ((name, Paper)) must fit on one page at one of `SCALES`, measured without drawing it
    (`sheet_fits`). A fault is reported at the template (once, whichever language meets it), as the
    build would have failed there."""
    paper_label = papers[0][1].label if papers else ""
    files = [KitFile(f"{game.game_id}-{game.lang}-{kind}.pdf", 12, kind) for kind in KINDS]
    where = template_location(env, TEMPLATE)
    for flip, low_ink in (("long-edge", False), ("short-edge", True)):
        try:
            # (a reduced booklet, so that the template's branch for it is checked too)
            _blocks(game, files, paper_label, env, flip, "calibration.pdf", low_ink, 94)
        except TemplateFailure as failure:
            report_once(
                report,
                "template",
                failure.location,
                f"{failure} (how-to-print)",
                also=(
                    f"called from {failure.called_from}" if failure.called_from is not None else ""
                ),
                hint=failure.hint,
                cause=str(failure),
            )
            return
        except RichTextError as error:
            report_once(
                report,
                "template",
                found_in_template(where, error.needle, max(error.line, 1)),
                f"{error} (how-to-print)",
            )
            return
    for paper_id, paper in papers:
        try:
            fits = sheet_fits(game, paper_id, paper, project, env)
        except (
            BookletTooLarge
        ) as error:  # (a block no page holds: reported at the styles, as the build does)
            report_once(report, "text-overflow", error.where, str(_as_sheet(error)))
            continue
        if not fits:
            report_once(
                report,
                "text-overflow",
                where,
                f"the how-to-print sheet of {game.game_id} in '{game.lang}' takes more than one page on "
                f"{paper.label or paper_id} even with the booklet's type at {SCALES[-1]:.0%}",
                hint=f"shorten the how-to labels of '{game.lang}' (data/languages/{game.lang}.yaml holds a "
                "project's own, over printshop's), or lower the sizes of print/booklet.yaml's styles",
            )


def sheet_fits(game: GameLayout, paper_id: str, paper: Paper, project, env) -> bool:
    """Whether the how-to page of the kit's files (`kit_files`) fits on one page of `paper` at one
    of `SCALES`, set without drawing it, in its longest form (low ink, either flip, gutterfold
    sheets listed). Remembered in the process by everything it reads (the blocks, the style, the
    page, the fonts), and between runs of validate in the fit store (fitstore.py) when one is open."""
    from printshop.typeset.fonts import state as fonts_state

    style = sheet_style(project.booklet)
    # the longest page a build may make: low ink adds a paragraph, each flip names its edge in its
    # own words, and --gutterfold lists each deck's gutterfold sheets too
    files = kit_files(
        game,
        paper_id,
        style.paper,
        gutterfold=True,
        low_ink=True,
        folding=(paper, project.media.print_and_play),
    )
    calibration = f"duplex-calibration-{game.lang}-{paper_id}.pdf"
    scale = booklet_scale(project.media.papers[style.paper], paper)
    pages = [
        tied(
            _blocks(game, files, paper.label, env, flip, calibration, True, scale),
            game.localized.language.typography,
            lambda block: booklet_align(style, block),
        )
        for flip in ("long-edge", "short-edge")
    ]
    return all(_fits(blocks, game, paper, project, style, fonts_state()) for blocks in pages)


def _fits(
    blocks: list, game: GameLayout, paper: Paper, project, style: BookletStyle, fonts: tuple
) -> bool:
    from printshop.render.booklet import booklet_pages
    from printshop.write import fitstore

    key = (
        "how-to-print",
        repr(blocks),
        style.model_dump_json(),
        paper.width,
        paper.height,
        game.localized.hyphenation,
        fonts,
    )
    store = (
        fitstore.ACTIVE
    )  # validate's: its outcome is kept between runs; else remembered in the process
    digest = store.digest(key) if store is not None else None
    if store is not None and digest is not None:
        stored = store.get(digest)
        if stored is not None:
            return bool(stored[5])
    elif key in _FITS:
        return _FITS[key]
    paints = Paints(project.colours.palette)
    fits = any(
        booklet_pages(
            game,
            BookletLayout(blocks, _scaled(style, scale), cover=False),
            paper,
            paints,
            project.motifs.motifs,
        )
        == 1
        for scale in SCALES
    )
    if store is not None and digest is not None:
        store.put(
            digest, [1 if fits else 2, 0, 0, 0, 0, fits, None, [], []]
        )  # (in the store's form of a fit)
    else:
        _FITS[key] = fits
    return fits


_FITS = memos.HOW_TO_PRINT_FITS
