"""Stage 3, validate: what the loaded data means — references, deck composition, game rules, texts.

Each check adds diagnostics with the place in the data that causes it. Game rules are declared
in data (composition, setup expressions); this module only knows how to check such declarations.
"""

from __future__ import annotations

import functools
import math
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from ruamel.yaml.comments import CommentedMap

from printshop.check_codes import CATALOGUE
from printshop.checks import translation_checks
from printshop.diagnostics import Location, Report, Severity, closest, did_you_mean
from printshop.language.resolve import too_long_with_variables
from printshop.language.texts import TextEntry, markup_problems, placeholders
from printshop.language.translation import (
    inline_tags,
    line_breaks,
    statuses,
    todo_marked,
    untracked,
)
from printshop.layout.imposition import cover, cut_cells, placed_box, too_small
from printshop.memo import Memo
from printshop.project.expressions import ExpressionError, evaluate, need_count
from printshop.project.layers import origin_of
from printshop.project.loader import LABELS_REFERENCE, GameData, Project
from printshop.project.models.faces import Face
from printshop.project.models.game import Untranslatable
from printshop.project.paths import PACKAGE_DEFAULTS_DIR
from printshop.project.schema import Node
from printshop.project.source import locate
from printshop.project.units import to_mm
from printshop.project.yaml_safety import MAX_TEXT

REQUIRED_LABELS = (
    "fronts",
    "backs",
    "page",
    "rules",
    "tile",
    "assembly",
    "assembly_title",
    "calibration_title",
    "calibration",
    "fold",
    # the how-to-print sheet (templates/common/how-to-print.xml.j2)
    "howto_title",
    "howto_intro",
    "howto_files",
    "howto_file",
    "howto_pages",
    "howto_how",
    "howto_cards_long-edge",
    "howto_cards_short-edge",
    "howto_cards-one-sided",
    "howto_gutterfold",
    "howto_sheet",
    "howto_sheet-pairs",
    "howto_tiled",
    "howto_rules",
    "howto_rules-booklet",
    "howto_sheet-two-sided_long-edge",
    "howto_sheet-two-sided_short-edge",
    "howto_sheet-pairs-two-sided_long-edge",
    "howto_sheet-pairs-two-sided_short-edge",
    "howto_steps",
    "howto_step_test",
    "howto_step_duplex",
    "howto_step_calibrate",
    "howto_step_cut",
    "howto_step_stock",
    "howto_step_lowink",
    "draft",  # the mark on every page of a draft build of an incomplete translation
    # the reviewers' proof (printshop proof)
    "proof_title",
    "proof_translation",
    "proof_reference",
    "proof_scale",
)


def validate_project(project: Project, report: Report, papers: list[str] | None = None) -> None:
    """Every check of the data, texts of every language the project holds: a project loaded for a build or
    session of some languages (load_project's `langs`) holds those, the languages they are made from and the
    source; nothing it writes shows the others. `papers`: the papers card sheets are printed on (a build's
    --paper; [] for a build that prints none); None: every print-and-play paper, as a kit's build prints."""
    with translation_checks.one_pass():  # each text file's `# accept` comments read once per pass
        _check_look(project, report)
        _check_cutters_papers(project, report)
        _check_languages(project, report)
        for game in project.games.values():
            if game.look:  # its own print data (data/<game>/print/), merged over the project's: checked as merged
                _check_game_look(project.view(game), report)
            validate_game(project.view(game), game, report, papers)


def _check_game_look(seen: Project, report: Report) -> None:
    """The print data a game sees, its own files merged over the project's, gets the project's checks: a font or
    colour named in data/<game>/print/booklet.yaml or media.yaml (or one the game's colours.yaml takes away) was
    read by no check, and failed the build as "internal: KeyError". What the project's files already said is not
    said again for each game."""
    found = Report()
    _check_look(seen, found)
    said = {
        (d.code, d.location) for d in report.items
    }  # (its message may list the game's colours too)
    report.extend([d for d in found.items if (d.code, d.location) not in said])


def _check_look(project: Project, report: Report) -> None:
    """The shared print data (media.yaml's kit, booklet.yaml): papers, card sheets, the fonts and colours named."""
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
    _colour(project, pnp.crop_marks.colour, pnp.crop_marks, "colour", report)
    _colour(project, pnp.footer.colour, pnp.footer, "colour", report)
    _font(project, pnp.footer.font, pnp.footer, "font", report)
    booklet = project.booklet
    if booklet.paper not in media.papers:
        report.add("unknown-reference", booklet.where("paper"), f"no paper '{booklet.paper}'")
    _colour(project, booklet.tables.grid, booklet.tables, "grid", report)
    _colour(project, booklet.rule_colour, booklet, "rule_colour", report)
    _colour(project, booklet.folio.colour, booklet.folio, "colour", report)
    _font(
        project, booklet.folio.font, booklet.folio, "font", report
    )  # (else the build failed at the first page)
    for colour in booklet.characters.values():
        _colour(project, colour, booklet, "characters", report)
    paper = media.papers.get(booklet.paper)
    room = (
        paper.height - booklet.margins.top - booklet.margins.bottom if paper is not None else None
    )
    holds = (
        f"a booklet page ({paper.label or booklet.paper}) holds {to_mm(room):.0f} mm inside its margins"
        if room is not None
        else ""
    )
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
    width = (
        paper.width - booklet.margins.inner - booklet.margins.outer if paper is not None else None
    )
    for name, style in booklet.styles.items():
        _font(project, style.font, style, "font", report)
        _colour(project, style.colour, style, "colour", report)
        if (
            width is not None and style.indent > width / 2
        ):  # a list item's text would have a few letters a line
            report.add(
                "text-overflow",
                style.where("indent"),
                f"booklet style '{name}' indents its text {to_mm(style.indent):.0f} mm, and a booklet page "
                f"({paper.label or booklet.paper}) is {to_mm(width):.0f} mm wide inside its margins",
                hint="an indent holds a bullet or a number: a few millimetres",
            )
        # a paragraph breaks across pages only with two of its lines on each side: four must fit a page, or the
        # build cannot set the booklet (ReportLab's LayoutError, once a fault of printshop's)
        needed = 4 * style.size * style.leading + style.space_before + style.space_after
        if room is not None and needed > room:
            report.add(
                "text-overflow",
                style.where("size"),
                f"booklet style '{name}' sets {style.size:g} pt type: four of its lines take {to_mm(needed):.0f} "
                f"mm, and {holds}; a paragraph breaks across pages only with two lines on each side",
                hint="lower the style's size (or its leading and spaces)",
            )
    for name in ("p", "h1", "h2", "li", "th", "td"):
        if name not in booklet.styles:
            report.add("missing-field", booklet.where("styles"), f"booklet styles need '{name}'")


def _check_cutters_papers(project: Project, report: Report) -> None:
    """Each print-and-cut machine's papers are papers of media.yaml, each as large as the area it cuts."""
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


def _check_languages(project: Project, report: Report) -> None:
    for lang, language in project.languages.items():
        lacking = [label for label in REQUIRED_LABELS if label not in language.labels]
        if len(lacking) == 1:
            report.add(
                "missing-field",
                language.where("labels"),
                f"language '{lang}' needs the label '{lacking[0]}'",
            )
        elif (
            lacking
        ):  # a new language with a few labels: one error listing them, not forty at one line
            report.add(
                "missing-field",
                language.where("labels"),
                f"language '{lang}' lacks {len(lacking)} of the {len(REQUIRED_LABELS)} labels printshop prints: "
                f"{', '.join(lacking)}",
                hint="copy the labels of printshop/defaults/languages/en.yaml into this file and translate them "
                "(TRANSLATING.md, 'Adding a language')",
            )
        _check_labels(project, lang, report)


def _check_labels(project: Project, lang: str, report: Report) -> None:
    """A language's labels (footers, how-to-print, calibration) get the checks of game texts: markup, quotes,
    and against the labels of the language they are made from, placeholders and every translation check."""
    language, document = project.languages[lang], project.language_documents.get(lang)
    if document is None:
        return
    reference_lang = language.translated_from or LABELS_REFERENCE
    reference = project.languages.get(reference_lang) if reference_lang != lang else None
    labels_node = document.root.get("labels") if isinstance(document.root, CommentedMap) else None
    printshops: dict = {}  # origin -> whether it is printshop's own file (resolved once per file, not per label)
    for name, text in language.labels.items():
        origin = origin_of(labels_node, name, origin_of(document.root, "labels", document.path))
        own = printshops.get(origin)
        if own is None:
            own = printshops[origin] = PACKAGE_DEFAULTS_DIR in Path(origin).resolve().parents
        if own:
            continue  # printshop's own labels: its tests check them, a publisher cannot change them there
        entry = _Label(
            f"labels.{name}",
            text,
            lambda name=name: locate(document.path, document.root, ("labels", name)),
        )
        for problem in _markup_problems(text):
            report.add("markup", entry.location, f"'{entry.id}': {problem}")
        for problem in translation_checks.check_text(entry.id, text, language):
            report.add(problem.code, entry.location, problem.message)
        if reference is not None and name in reference.labels:
            source = _Label(entry.id, reference.labels[name], lambda entry=entry: entry.location)
            _check_pair(project, source, reference_lang, entry, lang, report)


class _Label:
    """A label read as `_check_pair` reads a TextEntry, its place found only when something is said at it: a
    project that copied printshop's languages in checks a few hundred labels at every check, nearly all right."""

    def __init__(self, text_id: str, text: str, place: Callable[[], Location]):
        self.id, self.text, self._place = text_id, text, place

    @functools.cached_property
    def location(self) -> Location:
        return self._place()


def _colour(project: Project, name: str | None, node: Node, field: str, report: Report) -> None:
    """A colour `node` names in `field` is one of the palette's (reported at the field: its place is read only
    then, as most are right)."""
    if name is not None and name not in project.colours.palette:
        palette = project.colours.palette
        report.add(
            "unknown-reference",
            node.where(field),
            f"no colour '{name}' in the palette"
            f"{did_you_mean(name, palette)} (colours: {', '.join(palette)})",
        )


def _font(project: Project, face: str, node: Node, field: str, report: Report) -> None:
    """A font face `node` names in `field` is one of the project's families' four (as `_colour`)."""
    families = project.fonts.families
    if face in families or any(
        face.endswith(style) and face[: -len(style)] in families for style in _STYLES
    ):
        return
    faces = [family + suffix for family in families for suffix in ("", *_STYLES)]
    report.add(
        "unknown-reference",
        node.where(field),
        f"no font '{face}'{did_you_mean(face, faces)} (fonts: {', '.join(faces)})",
    )


_STYLES = (
    "-bold",
    "-italic",
    "-bold-italic",
)  # a family's faces: its name, and its name with one of these


def validate_game(
    project: Project, game: GameData, report: Report, papers: list[str] | None = None
) -> None:
    spec = game.game
    if spec.players.min > spec.players.max:
        report.add(
            "wrong-type",
            spec.players.where(),
            f"players.min ({spec.players.min}) exceeds players.max",
        )
    for deck_id, deck in spec.decks.items():
        if deck.card_size not in project.media.card_sizes:
            report.add(
                "unknown-reference",
                deck.where("card_size"),
                f"no card size '{deck.card_size}'{did_you_mean(deck.card_size, project.media.card_sizes)} "
                f"(sizes: {', '.join(project.media.card_sizes)})",
            )
        else:
            _check_papers(project, deck_id, deck, report, papers)
        if deck.back is not None:
            _face_ref(game, deck, "back", report)
        seen: dict[str, object] = {}  # card id -> its first card
        for card in deck.cards:
            if card.id in seen:
                report.add(
                    "duplicate-id",
                    card.where("id"),
                    f"card id '{card.id}' is used twice in deck '{deck_id}' "
                    f"(first at {seen[card.id].where('id')})",
                )
            else:
                seen[card.id] = card
            _face_ref(game, card, "front", report)
            if card.back is not None:
                _face_ref(game, card, "back", report)
            if card.reconstructed:
                report.add(
                    "reconstructed",
                    card.where("reconstructed"),
                    f"card '{card.id}': {card.reconstructed}",
                )
    for name, face in game.faces.items():
        _check_face(project, game, name, face, report)
    _check_safe_zones(project, game, report)
    _check_cutters(project, game, report)
    _check_type_sizes(project, game, report)
    for sheet_id, sheet in game.game.sheets.items():
        _face_ref(game, sheet, "face", report)
        if sheet.tiled and sheet.overlap <= 0:
            report.add(
                "wrong-type",
                sheet.where("tiled"),
                f"sheet '{sheet_id}' is tiled: give it an overlap, e.g. 12mm",
            )
        _check_sheet_backs(game, sheet_id, sheet, report)
        _check_sheet_papers(project, sheet_id, sheet, report, papers)
    _check_reconstructed(game, report)
    _check_composition(game, report)
    _check_board(game, report)
    _check_goal_deck(game, report)
    _check_setup(game, report)
    _check_texts(project, game, report)


def _face_ref(game: GameData, owner, field: str, report: Report) -> None:
    """`owner.<field>` names a face of faces.yaml that is not abstract (its place in the file is worked
    out only for a report: a deck of a thousand cards names its faces two thousand times)."""
    name = getattr(owner, field)
    face = game.faces.get(name)
    if (
        face is None or face.abstract
    ):  # named: the faces that can be printed (an abstract one only serves others)
        printable = [other for other, known in game.faces.items() if not known.abstract]
        said = (
            f"no face '{name}' in faces.yaml{did_you_mean(name, printable)}"
            if face is None
            else f"face '{name}' is abstract: it only serves for others to extend"
        )
        report.add(
            "unknown-reference",
            owner.where(field),
            f"{said} (faces: {', '.join(printable) or 'none'})",
        )


def _content_boxes(face):
    """What must stay inside a safe zone, from the face's top-left corner: text frames and icons (motifs and
    images not laid below the background layer), as (what, node, box, code); and the other shapes (rules,
    borders, rings, bands) on layer 0 or above, their outline included, under `shape-outside-safe-zone`.
    Shapes below layer 0 are backgrounds, meant to run into the bleed."""
    for name, frame in face.frames.items():
        yield (
            f"frame '{name}'",
            frame,
            (frame.x, frame.y, frame.width, frame.height),
            "outside-safe-zone",
        )
    for name, shape in face.shapes.items():
        if shape.layer < 0:
            continue
        if shape.kind in ("motif", "image"):
            yield (
                f"icon '{name}'",
                shape,
                (shape.x, shape.y, shape.width, shape.height),
                "outside-safe-zone",
            )
        else:
            yield f"shape '{name}'", shape, shape_box(shape), "shape-outside-safe-zone"


def shape_box(shape) -> tuple[float, float, float, float]:
    """The box a shape paints (x, y, width, height from the top-left corner), half its outline included."""
    edge = shape.stroke_width / 2 if shape.stroke is not None else 0.0
    if shape.kind in ("circle", "rays"):
        r = shape.radius + (edge if shape.kind == "circle" else 0.0)
        return shape.x - r, shape.y - r, 2 * r, 2 * r
    return shape.x - edge, shape.y - edge, shape.width + 2 * edge, shape.height + 2 * edge


def _intrusion(box, width: float, height: float, safe: float) -> float:
    """How far a box comes closer to the trim than `safe` (<= 0 when it keeps its distance)."""
    x, y, w, h = box
    return max(safe - x, safe - y, x + w - (width - safe), y + h - (height - safe))


def _deck_faces(game: GameData, deck) -> list[str]:
    names = (
        ({deck.back} if deck.back else set())
        | {card.front for card in deck.cards}
        | {card.back for card in deck.cards if card.back}
    )
    return sorted(n for n in names if n in game.faces)


class _Intrusions:
    """Text and icons too close to the trim, gathered from the deck's own safe zone and every shop's,
    and reported once per frame and face, naming each safe zone it breaks."""

    def __init__(self):
        self.found: dict[tuple[int, str], tuple[object, str, str, list[str]]] = {}

    def add(
        self,
        node,
        what: str,
        owner: str,
        worst: float,
        zone: str,
        code: str = "outside-safe-zone",
        safe: float | None = None,
    ) -> None:
        """`worst`: how far the box comes inside the zone `safe` from the trim; beyond `safe`, it crosses the trim
        (told with `safe` for the trim as drawn, not for a shop's, to which the face is scaled)."""
        entry = self.found.setdefault((id(node), owner), (node, what, owner, [], code, [0.0]))
        entry[3].append(f"{to_mm(worst):.1f} mm closer to the trim than {zone}")
        if safe is not None:
            entry[5][0] = max(entry[5][0], worst - safe)

    def report(self, report: Report) -> None:
        # a frame written once in a face that others extend is each one's: one report, naming them all
        owners: dict[tuple, list[str]] = {}
        for node, what, owner, breaches, code, (past,) in self.found.values():
            owners.setdefault(
                (code, node.where(), what, tuple(breaches), round(past, 4)), []
            ).append(owner)
        for (code, where, what, breaches, past), named in owners.items():
            # past the trim itself, the closeness to a safe zone understates it: the cut goes through it
            crossing = (
                f"runs {to_mm(past):.1f} mm past the trim, where it is cut off: it "
                if past > 0.01
                else ""
            )
            report.add(
                code, where, f"{what} of {_owners(named)} {crossing}comes {'; '.join(breaches)}"
            )


def _owners(named: list[str]) -> str:
    """["face 'a'", "face 'b'", "face 'c'"] -> "faces 'a', 'b' and 'c'"; other owners as they are."""
    if len(named) == 1:
        return named[0]
    if all(owner.startswith("face '") for owner in named):
        names = [owner.removeprefix("face ") for owner in named]
        return f"faces {', '.join(names[:-1])} and {names[-1]}"
    return f"{', '.join(named[:-1])} and {named[-1]}"


def _check_papers(
    project: Project, deck_id: str, deck, report: Report, papers: list[str] | None
) -> None:
    """Each paper the card sheets are printed on (validate_project's `papers`) holds a card of the deck with room
    for its crop marks and footer, as the sheets lay it out (turned where print_and_play.card_sheets says): else
    the kit's build would fail there."""
    media = project.media
    size, pnp = media.card_sizes[deck.card_size], media.print_and_play
    for paper_id in pnp.papers if papers is None else papers:
        paper = media.papers.get(paper_id)
        if paper is None or not deck.cards:
            continue
        layout = pnp.card_sheets.get(paper_id, {}).get(deck.card_size)
        problem = too_small(
            deck.card_size,
            size.width,
            size.height,
            paper.label or paper_id,
            paper.width,
            paper.height,
            pnp,
            layout.turn if layout is not None else 0,
        )
        if problem is not None:
            report.add(
                "paper-too-small",
                deck.where("card_size"),
                f"deck '{deck_id}' on {paper_id}: {problem}",
            )


def _check_sheet_papers(
    project: Project, sheet_id: str, sheet, report: Report, papers: list[str] | None
) -> None:
    """A sheet printed one to a page fits each paper the kits are printed on, inside the margins and with its
    marks and footer, as sheet_pages lays it out (else the kit's build would fail there); and where two of its
    pages would fit on every one of them at full size, an info says `per_page: 2` halves its pages."""
    from printshop.layout.imposition import sheet_placement, sheet_too_big

    if sheet.tiled or sheet.per_page != 1:
        return
    media = project.media
    pnp, bled = media.print_and_play, sheet.bleed > 0
    chosen = [
        (paper_id, media.papers[paper_id])
        for paper_id in (pnp.papers if papers is None else papers)
        if paper_id in media.papers
    ]
    too_big = False
    for paper_id, paper in chosen:
        problem = sheet_too_big(
            sheet.width, sheet.height, bled, paper.label or paper_id, paper.width, paper.height, pnp
        )
        if problem is not None:
            too_big = True
            report.add(
                "paper-too-small",
                sheet.where("width"),
                f"sheet '{sheet_id}' on {paper_id}: {problem}",
                hint="make the sheet smaller, give it `tiled: true` and an overlap to print it over several "
                "pages, or `per_page: 2` to print it shrunk; or add a larger paper to `papers` and "
                "`print_and_play.papers` in data/print/media.yaml (or build it alone with --paper)",
            )
    pages = max(1, len(sheet.items)) * sheet.copies
    if too_big or pages < 2 or not chosen:
        return
    if all(
        sheet_placement(sheet.width, sheet.height, bled, 2, paper.width, paper.height, pnp).holds(
            sheet.width, sheet.height
        )
        for _, paper in chosen
    ):
        labels = " and ".join(paper.label or paper_id for paper_id, paper in chosen)
        report.add(
            "two-to-a-page",
            sheet.where("width"),
            f"sheet '{sheet_id}' ({to_mm(sheet.width):.0f} × {to_mm(sheet.height):.0f} mm) prints one to a page, "
            f"{pages} pages; two fit on {labels} at full size, with a cut line between",
            hint="add `per_page: 2` to the sheet in game.yaml to print it on half as many pages",
        )


def _check_safe_zones(project: Project, game: GameData, report: Report) -> None:
    """Text frames and icons of every face a deck prints stay inside the deck's safe zone, and inside
    every print shop's (faces scaled to the shop's trim, press sheets as they are)."""
    intrusions = _Intrusions()
    for deck in game.game.decks.values():
        size = project.media.card_sizes.get(deck.card_size)
        if size is None:
            continue
        for name in _deck_faces(game, deck):
            for what, node, box, code in _content_boxes(game.faces[name]):
                worst = _intrusion(box, size.width, size.height, deck.safe)
                if worst > 0.01:
                    intrusions.add(
                        node,
                        what,
                        f"face '{name}'",
                        worst,
                        f"the deck's safe zone of {to_mm(deck.safe):.1f} mm",
                        code,
                        deck.safe,
                    )
    _check_press(project, game, report, intrusions)
    intrusions.report(report)
    _check_background_edges(project, game, report)


def _check_background_edges(project: Project, game: GameData, report: Report) -> None:
    """A background (a rectangle below layer 0, exempt from the safe zone) must run to the edge of the deck's bleed
    or keep inside its safe zone on each side: an edge between the two (Comrade's vote cards had their lower half
    filled to 3 mm inside the trim, 1 mm past the card's frame) is where a cut that drifts by a millimetre leaves a
    sliver of paper on one card and none on the next."""
    said: set[str] = set()
    for deck in game.game.decks.values():
        size = project.media.card_sizes.get(deck.card_size)
        if size is None:
            continue
        for name in _deck_faces(game, deck):
            for shape_name, shape in game.faces[name].shapes.items():
                if shape.layer >= 0 or shape.kind != "rect":
                    continue
                x, y, w, h = shape_box(shape)
                sides = (
                    ("left", x),
                    ("top", y),
                    ("right", size.width - x - w),
                    ("bottom", size.height - y - h),
                )
                between = [
                    (side, gap)
                    for side, gap in sides
                    if -deck.bleed + 0.01 < gap < deck.safe - 0.01
                ]
                where = shape.where()
                if not between or str(where) in said:
                    continue
                said.add(str(where))
                edges = ", ".join(
                    f"{side} {to_mm(abs(gap)):.1f} mm {'inside' if gap >= 0 else 'past'} the trim"
                    for side, gap in between
                )
                report.add(
                    "shape-outside-safe-zone",
                    where,
                    f"background '{shape_name}' of face '{name}' ends between the edge of the bleed "
                    f"({to_mm(deck.bleed):.1f} mm past the trim) and the deck's safe zone "
                    f"({to_mm(deck.safe):.1f} mm inside it): {edges}; a cut that drifts leaves that edge uneven",
                    hint="run the background to the edge of the bleed, or keep it inside the safe zone",
                )


def _check_cutters(project: Project, game: GameData, report: Report) -> None:
    """Each deck fits, with the bleed a cutter prints round it, in the area each print-and-cut machine cuts on each
    of its papers: else `build --target cut` refused it (paper-too-small) after validate had passed."""
    for cutter_id, cutter in sorted(project.targets.cutters.items()):
        for deck_id, deck in game.game.decks.items():
            size = project.media.card_sizes.get(deck.card_size)
            if size is None:
                continue
            bleed = min(cutter.bleed, deck.bleed)
            for paper_id in cutter.papers:
                paper = project.media.papers.get(paper_id)
                if paper is None:
                    continue  # (reported with the shared print data)
                columns, rows = cut_cells(paper, cutter, size.width, size.height, bleed)
                if (
                    columns < 1 or rows < 1
                ):  # (a warning, as a deck a print shop does not make is press-left-out)
                    report.add(
                        "cut-left-out",
                        deck.where("card_size"),
                        f"deck '{deck_id}', {cutter_id}: a {size.label or deck.card_size} card with its bleed does "
                        f"not fit in the area {cutter.label} can cut on {paper.label or paper_id}: its cut "
                        f"files leave the deck out",
                        hint=f"choose a smaller card size, or mend print/targets/cut/{cutter_id}.yaml (its "
                        "area, marks or gap)",
                    )
                    break


def _check_type_sizes(project: Project, game: GameData, report: Report) -> None:
    """No frame prints smaller than its medium allows (media.yaml's `design.media`): a deck's faces are read
    as its card size's medium, a sheet's as the sheet's. A frame is judged by the smallest size it may take
    (`min_size`, or `size` when it never shrinks); each frame once per face and medium."""
    media = project.media.design.media
    seen: set[tuple[str, str]] = set()

    def check(face_name: str, medium: str, where_medium) -> None:
        face = game.faces.get(face_name)
        if face is None or not media:
            return
        rule = media.get(medium)
        if rule is None:
            report.add(
                "unknown-reference",
                where_medium,
                f"no medium '{medium}' in media.yaml's design.media (media: {', '.join(media)})",
            )
            return
        for frame_name, frame in face.frames.items():
            smallest = frame.min_size if frame.min_size is not None else frame.size
            where = frame.where("min_size" if frame.min_size is not None else "size")
            if (
                smallest + 0.001 < rule.min_type and (str(where), medium) not in seen
            ):  # an inherited frame once
                seen.add((str(where), medium))
                report.add(
                    "type-too-small",
                    where,
                    f"frame '{frame_name}' of face '{face_name}' may print at {smallest:g} pt; type on a "
                    f"{medium} must be at least {rule.min_type:g} pt ({rule.reading or 'its reading distance'})",
                )

    for deck in game.game.decks.values():
        size = project.media.card_sizes.get(deck.card_size)
        if size is not None:
            for name in _deck_faces(game, deck):
                check(name, size.medium, size.where("medium"))
    for sheet in game.game.sheets.values():
        for name in sorted(
            {sheet.face}
            | {item.face for item in sheet.items if item.face}
            | ({sheet.back} if sheet.back else set())
            | {item.back for item in sheet.items if item.back}
        ):
            check(name, sheet.medium, sheet.where("medium"))


def _check_press(project: Project, game: GameData, report: Report, intrusions: _Intrusions) -> None:
    """Every print-shop profile can take what this game sends it: each deck's faces scaled to the
    shop's trim still cover its bleed and keep text and icons inside its safe zone; press sheets
    carry the shop's bleed and keep its safe zone. What a shop leaves out is reported (press-left-out),
    and raster art that will not convert cleanly for a shop (press-art)."""
    from printshop.layout.press_plan import left_out, takes_sheets
    from printshop.render.press_art import icc_file

    pnp = project.media.print_and_play
    home_dpi = pnp.min_dpi
    if any(sheet.press for sheet in game.game.sheets.values()):
        chosen = project.profiles.get(pnp.press_profile)
        if chosen is None:
            off = (
                " (switched off in this project: use: false)"
                if pnp.press_profile in project.profiles_off
                else ""
            )
            report.add(
                "unknown-reference",
                pnp.where("press_profile"),
                f"no print-shop profile '{pnp.press_profile}'{off} for the kit's press pages "
                f"(profiles: {', '.join(sorted(project.profiles))})",
            )
        elif not takes_sheets(chosen):
            report.add(
                "wrong-type",
                pnp.where("press_profile"),
                f"profile '{pnp.press_profile}' makes one image per card face; the kit's press pages need "
                "a profile that takes PDF files",
            )
    seen_art: set = set()
    for profile_id, profile in sorted(project.profiles.items()):
        if profile.colour.space == "cmyk" and not icc_file(profile.colour.icc).is_file():
            report.add(
                "file-missing",
                profile.where("colour"),
                f"profile '{profile_id}': no ICC profile '{profile.colour.icc}' in {icc_file(None).parent}",
            )
        for item in left_out(game.game, profile):
            if item.warn:
                report.add(
                    "press-left-out",
                    item.where,
                    f"{item.what} of {game.id} is left out of {profile.label}'s files ('{profile_id}'): {item.why}",
                    acknowledged=profile.leaves_out.get(item.key, "") or _game_accepts(game, item),
                )
        for deck_id, deck in game.game.decks.items():
            size = project.media.card_sizes.get(deck.card_size)
            product = profile.product(deck.card_size)
            if size is None or product is None:
                continue  # an unknown size is reported elsewhere; a size the shop does not make is press-left-out
            trim = project.media.card_sizes.get(product.trim)
            if trim is None:
                report.add(
                    "unknown-reference",
                    profile.where("products"),
                    f"profile '{profile_id}': no card size '{product.trim}' in media.yaml",
                )
                continue
            fitted = cover(size.width, size.height, deck.bleed, trim.width, trim.height)
            if (
                abs(fitted.scale - 1) > 0.05
                or abs(trim.width / size.width - trim.height / size.height) > 0.03
            ):
                report.add(
                    "press-trim",
                    deck.where("card_size"),
                    f"deck '{deck_id}' ({deck.card_size}) would be scaled by {fitted.scale:.3f} to "
                    f"{profile.label}'s trim '{product.trim}'; give the profile a product of this size",
                )
                continue
            if min(fitted.bleed_x, fitted.bleed_y) + 0.01 < profile.bleed:
                report.add(
                    "press-bleed",
                    deck.where("bleed"),
                    f"deck '{deck_id}' is drawn with {to_mm(deck.bleed):.2f} mm of bleed, "
                    f"{to_mm(min(fitted.bleed_x, fitted.bleed_y)):.2f} mm once fitted to {profile.label}'s "
                    f"trim; it needs {to_mm(profile.bleed):.2f} mm",
                    hint=_bleed_hint("deck", profile_id),
                )
            safe = profile.safe_for(deck.card_size)
            for name in _deck_faces(game, deck):
                _check_press_art(
                    game, profile_id, profile, name, fitted.scale, report, seen_art, home_dpi
                )
                for what, node, box, code in _content_boxes(game.faces[name]):
                    placed = placed_box(
                        fitted, size.width, size.height, trim.width, trim.height, *box
                    )
                    worst = _intrusion(placed, trim.width, trim.height, safe)
                    if worst > 0.01:
                        intrusions.add(
                            node,
                            what,
                            f"face '{name}'",
                            worst,
                            f"{profile.label}'s safe zone of {to_mm(safe):.1f} mm",
                            code,
                        )
        for sheet_id, sheet in game.game.sheets.items():
            if not sheet.press or sheet.face not in game.faces:
                continue
            if takes_sheets(profile):
                _check_press_art(
                    game, profile_id, profile, sheet.face, 1.0, report, seen_art, home_dpi
                )
            if sheet.bleed + 0.01 < profile.bleed:
                report.add(
                    "press-bleed",
                    sheet.where("bleed"),
                    f"sheet '{sheet_id}' is drawn with {to_mm(sheet.bleed):.2f} mm of bleed; "
                    f"{profile.label} needs {to_mm(profile.bleed):.2f} mm",
                    hint=_bleed_hint("sheet", profile_id),
                )
            for what, node, box, code in _content_boxes(game.faces[sheet.face]):
                worst = _intrusion(box, sheet.width, sheet.height, profile.safe)
                if worst > 0.01:
                    intrusions.add(
                        node,
                        what,
                        f"sheet '{sheet_id}'",
                        worst,
                        f"{profile.label}'s safe zone of {to_mm(profile.safe):.1f} mm",
                        code,
                        profile.safe,
                    )


def _bleed_hint(what: str, profile_id: str) -> str:
    return (
        f"raise the {what}'s bleed in game.yaml; or, if the project never prints at this shop, switch its "
        f"profile off: data/print/profiles/{profile_id}.yaml holding 'use: false'"
    )


def _check_press_art(
    game: GameData,
    profile_id: str,
    profile,
    face_name: str,
    scale: float,
    report: Report,
    seen: set,
    home_dpi: float,
) -> None:
    """The raster images of a face, as a profile will print them (faces scaled by `scale` to its trim):
    enough pixels for its resolution (unless below `home_dpi`: refused for every print as image-resolution,
    one error rather than a warning per shop beside it); on a CMYK PDF profile, colours its CMYK can print and
    transparency over one plain colour (see render/press_art.py). Each image once per profile."""
    import math

    from PIL import Image, UnidentifiedImageError

    from printshop.render.press_art import (
        CLIP_DELTA_E,
        CLIP_SHARE,
        beneath,
        clipped_share,
        icc_file,
    )

    if face_name not in game.faces:
        return
    raster = (
        profile.files == "png-per-face"
    )  # whole faces rasterized: only the art's pixels are its own
    face = game.faces[face_name]
    for shape_name, shape in face.shapes.items():
        if shape.kind != "image" or not shape.src or shape.width <= 0 or shape.height <= 0:
            continue
        key = (profile_id, face_name, shape_name)
        if key in seen:
            continue
        seen.add(key)
        path = image_path(game, shape.src)
        if path is None:
            continue  # refused by _check_image: outside the project, too large or damaged
        try:
            with Image.open(path) as image:
                pixels, mode, transparent = image.size, image.mode, "transparency" in image.info
            stat = path.stat()
        except (UnidentifiedImageError, OSError):
            continue  # reported by _check_image
        where, named = shape.where("src"), f"image '{shape.src}' of face '{face_name}'"
        width_in, height_in = shape.width * scale / 72, shape.height * scale / 72
        dpi = min(pixels[0] / width_in, pixels[1] / height_in)
        refused = (
            min(pixels[0] / (shape.width / 72), pixels[1] / (shape.height / 72)) < home_dpi - 0.5
        )
        if dpi + 0.5 < profile.min_dpi and not refused:
            wanted = (math.ceil(profile.min_dpi * width_in), math.ceil(profile.min_dpi * height_in))
            report.add(
                "press-art",
                where,
                f"{named} ({pixels[0]} × {pixels[1]} px) prints at {dpi:.0f} dpi in {profile.label}'s files "
                f"(faces scaled by {scale:.3f} to its trim); the shop needs {profile.min_dpi:.0f}",
                hint=f"supply the image with at least {wanted[0]} × {wanted[1]} px",
            )
        if raster or profile.colour.space != "cmyk":
            continue
        icc, limit = profile.colour.icc, profile.colour.ink_limit
        share, worst = clipped_share(str(path), (stat.st_mtime_ns, stat.st_size), icc, limit)
        if share > CLIP_SHARE:
            ink = f", {limit:.0f} % ink" if limit else ""
            report.add(
                "press-art",
                where,
                f"{named}: {share:.0%} of its pixels change by more than ΔE {CLIP_DELTA_E:.0f} (up to "
                f"{worst:.0f}) in {profile.label}'s CMYK ({icc_file(icc).name}{ink}): they will print duller "
                "than on screen",
                hint="bring the art's brightest colours (pure greens, blues, oranges) within print's gamut, "
                "or accept the change",
            )
        under = beneath(face, shape_name)
        if (mode in ("RGBA", "LA", "PA") or transparent) and not under.plain:
            report.add(
                "press-art",
                where,
                f"{named} has transparent parts over shapes that are not one plain colour; in "
                f"{profile.label}'s files they are flattened over {under.fill or 'paper white'}",
                hint="put the image over the background or a plain filled rectangle, or make it opaque",
            )


def _game_accepts(game: GameData, item) -> str:
    """The game's own reason for a deck that shops which do not make its size leave out, if it gives one."""
    deck = game.game.decks.get(item.id) if item.kind == "deck" else None
    return deck.shops_without_size or "" if deck is not None else ""


def _check_reconstructed(game: GameData, report: Report) -> None:
    known_texts = game.source.entries if game.source else {}
    cards = {card.id for deck in game.game.decks.values() for card in deck.cards}
    for sheet_id, sheet in game.game.sheets.items():
        for entry in sheet.items:
            if entry.reconstructed:
                report.add(
                    "reconstructed",
                    entry.where("reconstructed"),
                    f"sheet '{sheet_id}/{entry.id}': {entry.reconstructed}",
                )
    for item in game.game.reconstructed:
        fields = set(type(game.game).model_fields)
        if (
            item.what not in known_texts
            and item.what not in cards
            and item.what not in game.faces
            and item.what.split(".")[0] not in fields
            and not any(text_id.startswith(item.what + ".") for text_id in known_texts)
        ):
            report.add(
                "unknown-reference",
                item.where("what"),
                f"'{item.what}' is neither a text id, a card id, a face nor a field of game.yaml in {game.id}",
            )
        report.add("reconstructed", item.where(), f"{item.what}: {item.why}")


# The most pixels an image may have: a 600 × 540 mm board at 300 dpi has 45 million. Larger images are
# refused from their header, before anything is decoded (a 20,000 × 20,000 PNG would need 1.6 GB).
MAX_IMAGE_PIXELS = 60_000_000


def image_path(game: GameData, src: str | None) -> Path | None:
    """The file an image shape names, if _check_image accepts it: inside the project's data folder
    (symlinks followed), within the pixel limit and decoding whole; None otherwise (and then
    _check_image has said why). Every reader of art goes through here."""
    if not src:
        return None
    path = game.dir / src
    verdict = _inspect_image(str(path), str(game.dir.parent), _stamp(path))
    return Path(verdict[0]) if verdict[1] is None else None


def _stamp(path: Path) -> tuple[int, int]:
    """What tells a changed file from the one inspected before (watch mode keeps this process)."""
    try:
        stat = path.stat()
    except (OSError, ValueError):
        return 0, 0
    return stat.st_mtime_ns, stat.st_size


@functools.lru_cache(maxsize=256)
def _inspect_image(
    path: str, data_dir: str, stamp: tuple[int, int]
) -> tuple[str, tuple[str, str] | None, tuple[int, int]]:
    """(resolved path, None or (code, problem), pixels): the image read once per build, header first."""
    import warnings

    from PIL import Image, UnidentifiedImageError

    from printshop.write.commit import inside

    resolved = os.path.realpath(path)
    if not inside(Path(path), Path(data_dir)):
        return (
            resolved,
            (
                "unsafe-path",
                f"resolves to {resolved}, outside the data folder {data_dir}: art is read "
                "only from inside the project",
            ),
            (0, 0),
        )
    try:
        exists = Path(resolved).is_file()
    except OSError:
        exists = False
    if not exists:
        return resolved, ("file-missing", "not found"), (0, 0)
    limit, Image.MAX_IMAGE_PIXELS = (
        Image.MAX_IMAGE_PIXELS,
        None,
    )  # our own limit, from the header, says it below
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(resolved) as image:
                pixels = image.size
                if pixels[0] * pixels[1] > MAX_IMAGE_PIXELS:
                    return (
                        resolved,
                        (
                            "too-large",
                            f"has {pixels[0]} × {pixels[1]} pixels "
                            f"({pixels[0] * pixels[1] / 1e6:.0f} million); printshop reads at "
                            f"most {MAX_IMAGE_PIXELS // 1_000_000} million",
                        ),
                        pixels,
                    )
                image.load()  # decoded whole now, so a truncated file fails here and not in the middle of a build
    except Image.DecompressionBombError as error:
        return resolved, ("too-large", str(error)), (0, 0)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as error:
        return resolved, ("wrong-type", f"is not an image Pillow can read whole: {error}"), (0, 0)
    finally:
        Image.MAX_IMAGE_PIXELS = limit
    return resolved, None, pixels


def _check_image(game: GameData, shape, min_dpi: float, report: Report) -> None:
    if not shape.src:
        report.add(
            "file-missing", shape.where("src"), f"an image shape needs a src (a file in {game.dir})"
        )
        return
    path = game.dir / shape.src
    _, problem, pixels = _inspect_image(str(path), str(game.dir.parent), _stamp(path))
    if problem is not None:
        code, message = problem
        report.add(
            code,
            shape.where("src"),
            f"image '{shape.src}' {message}"
            if code != "file-missing"
            else f"image '{shape.src}' not found in {game.dir}",
        )
        return
    if shape.width <= 0 or shape.height <= 0:
        report.add("wrong-type", shape.where(), "an image needs a width and a height")
        return
    dpi = (pixels[0] / (shape.width / 72), pixels[1] / (shape.height / 72))
    if min(dpi) < min_dpi - 0.5:
        wanted = (math.ceil(min_dpi * shape.width / 72), math.ceil(min_dpi * shape.height / 72))
        report.add(
            "image-resolution",
            shape.where("src"),
            f"image '{shape.src}' ({pixels[0]} × {pixels[1]} px) prints at {dpi[0]:.0f} × {dpi[1]:.0f} dpi "
            f"(a home print needs {min_dpi:.0f}: print_and_play.min_dpi)",
            hint=f"supply the image with at least {wanted[0]} × {wanted[1]} px, or place it smaller; print "
            "shops need more, about twice that (each profile's min_dpi)",
        )


def _check_face(project: Project, game: GameData, name: str, face: Face, report: Report) -> None:
    if face.background is not None:
        _colour(project, face.background, face, "background", report)
    for shape in face.shapes.values():
        _colour(project, shape.fill, shape, "fill", report)
        _colour(project, shape.stroke, shape, "stroke", report)
        if shape.kind == "image" and not face.abstract:
            _check_image(game, shape, project.media.print_and_play.min_dpi, report)
        if shape.kind == "motif" and not face.abstract and shape.motif not in project.motifs.motifs:
            report.add(
                "unknown-reference",
                shape.where("motif"),
                f"no motif '{shape.motif}'{did_you_mean(shape.motif, project.motifs.motifs)} "
                f"(motifs: {', '.join(project.motifs.motifs)})",
            )
    for frame in face.frames.values():
        _font(project, frame.font, frame, "font", report)
        _colour(project, frame.colour, frame, "colour", report)
        if frame.min_size is not None and frame.min_size > frame.size:
            report.add("wrong-type", frame.where("min_size"), "min_size is larger than size")
        if frame.indent > frame.width / 2:
            report.add(
                "text-overflow",
                frame.where("indent"),
                f"the frame indents its list items {to_mm(frame.indent):.1f} mm, and it is "
                f"{to_mm(frame.width):.1f} mm wide",
                hint="an indent holds a bullet or a number: a few millimetres",
            )
    if not face.abstract and face.template is None:
        report.add("missing-field", face.where(), f"face '{name}' needs a template")


def _check_sheet_backs(game: GameData, sheet_id: str, sheet, report: Report) -> None:
    """A two-sided sheet (a `back` on the sheet or on an item): every back names a face, every item has
    one (its own or the sheet's), and the sheet is not tiled (a tile's back would land behind another tile)."""
    if sheet.back is not None:
        _face_ref(game, sheet, "back", report)
    for item in sheet.items:
        if item.back is not None:
            _face_ref(game, item, "back", report)
    backed = [item for item in sheet.items if item.back is not None]
    if sheet.back is None and not backed:
        return
    if sheet.tiled:
        where = sheet.where("back") if sheet.back is not None else backed[0].where("back")
        report.add(
            "wrong-type",
            where,
            f"sheet '{sheet_id}' is tiled and has a back: tiled sheets print one-sided",
            hint="remove `tiled` (a sheet the paper holds), or print the back as a sheet of its own",
        )
    if sheet.back is None:
        for item in sheet.items:
            if item.back is None:
                report.add(
                    "missing-field",
                    item.where(),
                    f"sheet '{sheet_id}', item '{item.id}' has no back, but other items of the sheet have one",
                    hint="give the sheet a `back` for every item, or this item its own",
                )


def _check_composition(game: GameData, report: Report) -> None:
    for rule in game.game.composition:
        deck = game.game.decks.get(rule.deck)
        if deck is None:
            report.add("unknown-reference", rule.where("deck"), f"no deck '{rule.deck}'")
            continue
        declared = sum(rule.kinds.values())
        if rule.total is not None and rule.kinds and declared != rule.total:
            # the declaration itself is wrong: no deck can meet it, whatever the cards say
            report.add(
                "composition",
                rule.where("total"),
                f"deck '{rule.deck}': its kinds add up to {declared} cards "
                f"({' + '.join(str(n) for n in rule.kinds.values())}), but its total says {rule.total}",
                hint="correct the total or the kinds' counts in the composition",
            )
        actual = Counter()
        for card in deck.cards:
            actual[card.kind] += card.count
        for kind, expected in rule.kinds.items():
            if actual[kind] != expected:
                report.add(
                    "composition",
                    rule.where("kinds"),
                    f"deck '{rule.deck}' should hold {expected} '{kind}' card(s) but holds {actual[kind]}",
                )
        for kind in sorted(set(actual) - set(rule.kinds)):
            report.add(
                "composition",
                rule.where("kinds"),
                f"deck '{rule.deck}' holds {actual[kind]} '{kind}' card(s), a kind the composition does not declare",
            )
        total = sum(actual.values())
        if rule.total is not None and total != rule.total:
            report.add(
                "composition",
                rule.where("total"),
                f"deck '{rule.deck}' should hold {rule.total} cards in all but holds {total}",
            )
        _check_card_vars(rule, deck, report, game)


def _card_values(deck, var: str) -> list[tuple[object, object]]:
    """(value, card) for every physical card that has `var` (a card with count 3 counts three times)."""
    return [
        (card.vars[var], card) for card in deck.cards if var in card.vars for _ in range(card.count)
    ]


def _check_card_vars(rule, deck, report: Report, game: GameData) -> None:
    offices = [office.id for office in game.game.board.offices] if game.game.board else []
    for allowed in rule.allowed:
        values = [str(v) for v in allowed.values] + (offices if allowed.offices else [])
        for value, card in _card_values(deck, allowed.var):
            if str(value) not in values:
                report.add(
                    "unknown-reference",
                    card.where("vars"),
                    f"card '{card.id}': {allowed.var} '{value}' is not one of {', '.join(values)}",
                )
    for tie in rule.ties:
        first: dict[object, object] = {}
        for value, card in _card_values(deck, tie.var):
            if value in first and first[value] is not card:
                other = first[value]
                report.add(
                    "tie",
                    other.where("vars"),
                    f"cards '{other.id}' and '{card.id}' share {tie.var} {value} ('{card.id}' at "
                    f"{card.where('vars')}); {tie.rule}",
                    acknowledged=tie.acknowledged or "",
                )
            first.setdefault(value, card)
    for var in rule.unique:
        seen: dict[object, object] = {}
        for value, card in _card_values(deck, var):
            if value in seen:
                report.add(
                    "composition",
                    card.where("vars"),
                    f"card '{card.id}' repeats {var} {value!r} of card '{seen[value].id}' ({seen[value].where('vars')})",
                )
            else:
                seen[value] = card
    for sequence in rule.sequence:
        values = [value for value, _ in _card_values(deck, sequence.var)]
        numbers = sorted(v for v in values if isinstance(v, int))
        if len(numbers) != len(values):
            report.add(
                "composition",
                sequence.where("var"),
                f"every '{sequence.var}' must be a whole number",
            )
            continue
        expected = list(range(sequence.start, sequence.start + len(numbers)))
        if numbers != expected:
            missing = sorted(set(expected) - set(numbers))
            extra = sorted(set(numbers) - set(expected)) or sorted(
                {n for n in numbers if numbers.count(n) > 1}
            )
            report.add(
                "composition",
                sequence.where("var"),
                f"'{sequence.var}' should run {sequence.start}–{expected[-1] if expected else sequence.start} "
                f"without gaps: missing {missing or 'none'}, unexpected or repeated {extra or 'none'}",
            )
    for each in rule.one_each:
        values = [value for value, _ in _card_values(deck, each.var)]
        wanted = [str(v) for v in each.values]
        counts = {w: sum(1 for v in values if str(v) == w) for w in wanted}
        wrong = [f"{w} ×{n}" for w, n in counts.items() if n != 1]
        strangers = sorted({str(v) for v in values} - set(wanted))
        if wrong or strangers:
            report.add(
                "composition",
                each.where("var"),
                f"each {each.var} should appear once: {', '.join(wrong) or 'all once'}"
                f"{'; not expected: ' + ', '.join(strangers) if strangers else ''}",
            )


def _check_board(game: GameData, report: Report) -> None:
    """Offices are unique; each phase's acting office and succession name real offices, once each;
    the promotion order names every office but the top one exactly once; phases run 1, 2, 3, ..."""
    board = game.game.board
    if board is None:
        return
    ids = [office.id for office in board.offices]
    for office in board.offices:
        if ids.count(office.id) > 1:
            report.add("duplicate-id", office.where("id"), f"office '{office.id}' is listed twice")
    numbers = [phase.number for phase in board.phases]
    if numbers != list(range(1, len(numbers) + 1)):
        report.add(
            "succession",
            board.where("phases"),
            f"phases should be numbered 1–{len(numbers)} in order: {numbers}",
        )
    for phase in board.phases:
        order = ([phase.acts] if phase.acts else []) + phase.succession
        for index, name in enumerate(order):
            where = phase.where("acts") if phase.acts and index == 0 else phase.where("succession")
            if name not in ids:
                report.add(
                    "unknown-reference",
                    where,
                    f"phase {phase.number} ({phase.id}): no office '{name}' "
                    f"(offices: {', '.join(ids)})",
                )
            elif order.index(name) != index:
                report.add(
                    "succession",
                    where,
                    f"phase {phase.number} ({phase.id}): '{name}' appears twice",
                )
        if phase.succession and not phase.acts:
            report.add(
                "succession",
                phase.where(),
                f"phase {phase.number} ({phase.id}) has a succession but no acting office",
            )
    if board.promotions:
        expected = ids[1:]
        for name in board.promotions:
            if name not in ids:
                report.add(
                    "unknown-reference",
                    board.where("promotions"),
                    f"promotions: no office '{name}'",
                )
        missing = [office for office in expected if office not in board.promotions]
        repeated = sorted({name for name in board.promotions if board.promotions.count(name) > 1})
        if missing or repeated or ids[0] in board.promotions:
            report.add(
                "succession",
                board.where("promotions"),
                f"promotions should fill every office below '{ids[0]}' once: missing {missing or 'none'}, "
                f"repeated {repeated or 'none'}",
            )


def _check_goal_deck(game: GameData, report: Report) -> None:
    """For every roster (the `always` roles plus any allowed number of others): the goal cards each
    dealt role needs exist, the pool divides by `discard`, exactly `remain` cards are left after
    dealing, and the roster's starting tokens fit the kit's tokens."""
    from itertools import combinations

    rule = game.game.goal_deck
    if rule is None:
        return
    deck = game.game.decks.get(rule.deck)
    if deck is None:
        report.add("unknown-reference", rule.where("deck"), f"no deck '{rule.deck}'")
        return
    roles = {
        card.vars["role"]: card
        for card in deck.cards
        if card.kind == "role" and "role" in card.vars
    }
    goals = {
        (str(card.vars.get("rank")), card.vars.get("suit"))
        for card in deck.cards
        if card.kind == "goal"
        for _ in range(card.count)
    }
    for name in rule.always + rule.no_goal_cards:
        if name not in roles:
            report.add("unknown-reference", rule.where(), f"goal deck: no role card for '{name}'")
            return
    others = [name for name in roles if name not in rule.always]
    missing: dict[tuple[str, str], str] = {}
    for suit in rule.suits:
        if (rule.extra_rank, suit) not in goals:
            missing[(rule.extra_rank, suit)] = "every game"
    wrong, tokens_over = [], []
    for size in range(rule.others.min, rule.others.max + 1):
        for chosen in combinations(others, size):
            roster = rule.always + list(chosen)
            with_goals = [name for name in roster if name not in rule.no_goal_cards]
            for name in with_goals:
                for suit in rule.suits:
                    key = (str(roles[name].vars.get("rank")), suit)
                    if key not in goals:
                        missing.setdefault(key, f"rosters with the {name}")
            pool = len(rule.suits) * len(with_goals)
            left = pool - pool // rule.discard + len(rule.suits) - rule.deal * len(with_goals)
            if pool % rule.discard or left != rule.remain:
                wrong.append(f"{', '.join(roster)}: {left} left")
            tokens = sum(int(roles[name].vars.get("tokens", 0)) for name in roster)
            if rule.tokens is not None and tokens > rule.tokens:
                tokens_over.append(f"{', '.join(roster)}: {tokens}")
    for (rank, suit), who in sorted(missing.items()):
        report.add(
            "setup-impossible",
            rule.where("suits"),
            f"the goal deck needs the {rank} of {suit} for {who}, but deck '{rule.deck}' has none",
        )
    if wrong:
        report.add(
            "setup-impossible",
            rule.where("remain"),
            f"{len(wrong)} roster(s) do not leave exactly {rule.remain} goal cards, e.g. {wrong[0]}",
        )
    if tokens_over:
        report.add(
            "setup-impossible",
            rule.where("tokens"),
            f"{len(tokens_over)} roster(s) start with more than the kit's {rule.tokens} tokens, "
            f"e.g. {tokens_over[0]}",
        )


def _check_setup(game: GameData, report: Report) -> None:
    setup = game.game.setup
    if setup is None:
        return
    players = game.game.players
    for need in setup.needs:
        deck = game.game.decks.get(need.deck)
        if deck is None:
            report.add("unknown-reference", need.where("deck"), f"no deck '{need.deck}'")
            continue
        available = sum(card.count for card in deck.cards if card.kind == need.kind)
        short = []
        for n in range(players.min, players.max + 1):
            try:
                wanted = need_count(need.count, setup.variable, n)
            except ExpressionError as error:
                report.add("rule-expression", need.where("count"), str(error))
                break
            if wanted < 0 or wanted > available:
                short.append(f"{n} players need {wanted}")
            limit = setup.limits.get(need.kind)
            if limit is not None and wanted > limit:
                report.add(
                    "setup-impossible",
                    need.where("count"),
                    f"{n} players need {wanted} '{need.kind}' but the material holds {limit} "
                    f"(setup.limits)",
                )
        if short:
            report.add(
                "setup-impossible",
                need.where("count"),
                f"deck '{need.deck}' has {available} '{need.kind}' card(s): {'; '.join(short)}",
            )
    if setup.total is not None:
        for n in range(players.min, players.max + 1):
            try:
                total = evaluate(setup.total, {setup.variable: n})
                parts = sum(need_count(need.count, setup.variable, n) for need in setup.needs)
            except ExpressionError:
                continue  # reported above
            if parts != total:
                report.add(
                    "setup-impossible",
                    setup.where("total"),
                    f"for {n} players the needs add up to {parts}, not {total}",
                )


def _check_texts(project: Project, game: GameData, report: Report) -> None:
    source = game.source
    if source is None:
        report.add(
            "file-missing",
            game.game.where("source_language"),
            f"the source language '{game.game.source_language}' has no text file "
            f"{game.dir / 'text' / (game.game.source_language + '.yaml')}",
        )
        return
    if game.game.title not in source.entries:
        report.add(
            "missing-text",
            game.game.where("title"),
            f"the title id '{game.game.title}' has no source text",
        )
    for catalogue in game.catalogues.values():
        if catalogue.lang not in project.languages:
            report.add(
                "unknown-reference",
                catalogue.document.where(),
                f"no language '{catalogue.lang}' in {project.data_dir / 'languages'}: add "
                f"{catalogue.lang}.yaml there to describe it",
            )
        language = project.languages.get(catalogue.lang)
        for entry in catalogue.entries.values():
            for problem in _markup_problems(entry.text):
                report.add("markup", entry.location, f"'{entry.id}': {problem}")
            for problem in (
                translation_checks.check_text(entry.id, entry.text, language) if language else ()
            ):
                report.add(
                    problem.code,
                    entry.location,
                    problem.message,
                    acknowledged=translation_checks.accepted(
                        entry.location.path, entry.location.line
                    ).get(problem.code, ""),
                )
        if catalogue is not source:
            _check_translation(project, game, game.reference(catalogue.lang), catalogue, report)
        for name, variant in game.game.variants.items():
            for text_id in variant.overrides:
                if f"variant.{name}.{text_id}" not in catalogue.entries:
                    report.add(
                        "missing-text",
                        catalogue.where_missing(f"variant.{name}.{text_id}"),
                        f"naming variant '{name}' gives no '{text_id}' in {catalogue.lang} "
                        f"(write it as variant.{name}.{text_id})",
                    )
    for name, variant in game.game.variants.items():
        for text_id in variant.overrides:
            if text_id not in source.entries:
                report.add(
                    "unknown-reference",
                    variant.where("overrides"),
                    f"variant '{name}' overrides '{text_id}', which the source does not have",
                )
        if variant.reconstructed:
            report.add(
                "reconstructed",
                variant.where("reconstructed"),
                f"naming variant '{name}': {variant.reconstructed}",
            )
    for name, target in game.game.text_variables.items():
        if target not in source.entries:
            report.add(
                "unknown-reference",
                game.game.where("text_variables"),
                f"text variable {{{name}}} stands for '{target}', which the source does not have",
            )
    for catalogue in game.catalogues.values():
        variables = {
            name: catalogue.entries[target].text
            for name, target in game.game.text_variables.items()
            if target in catalogue.entries
        }
        for text_id, length in too_long_with_variables(
            {i: e.text for i, e in catalogue.entries.items()}, variables
        ).items():
            report.add(
                "too-large",
                catalogue.entries[text_id].location,
                f"'{text_id}' would be {length:,} characters long with its text variables in place; printshop "
                f"reads at most {MAX_TEXT:,}",
                hint="use fewer placeholders, or a shorter text for them",
            )


def _renamed(text_id: str, orphans: list[str]) -> str:
    """The text id among `orphans` (a translation's ids its source lacks) that differs from `text_id` in one
    part, written closely enough to be the same key renamed or misspelt; else ''."""
    parts = text_id.split(".")
    for orphan in orphans:
        other = orphan.split(".")
        differ = [(a, b) for a, b in zip(parts, other) if a != b]
        if (
            len(other) == len(parts)
            and len(differ) == 1
            and closest(differ[0][0], [differ[0][1]], cutoff=0.75)
        ):
            return orphan
    return ""


def _check_translation(project: Project, game: GameData, source, catalogue, report: Report) -> None:
    language = project.languages.get(catalogue.lang)
    name = language.name if language else catalogue.lang
    source_name = (
        project.languages[source.lang].name if source.lang in project.languages else source.lang
    )
    texts = statuses(
        source, catalogue, game.records.get(catalogue.lang, {}), game.game.untranslatable
    )
    orphans = [text_id for text_id in catalogue.entries if text_id not in source.entries]
    for status in texts:
        entry, translated = status.source, status.translation
        if status.state == "missing":
            # a key renamed (or misspelt) in the source: the translation still has the old one
            near = _renamed(status.id, orphans) if orphans else ""
            report.add(
                "missing-text",
                catalogue.where_missing(status.id)
                if not near
                else catalogue.entries[near].location,
                f"'{status.id}' has no {name} text (source: {entry.location})"
                + (
                    f"; the {name} has '{near}', which the {source_name} lacks: the same text, its key renamed "
                    f"or misspelt on one side?"
                    if near
                    else ""
                ),
                hint=f"rename '{near}' here as the {source_name} names it, or correct the {source_name} key "
                f"(i18n sync would set this text aside as obsolete)"
                if near
                else "",
            )
            continue
        if status.state == "stale":
            old, new = changed_parts(status.old_source, entry.text)
            report.add(
                "stale-translation",
                translated.location,
                f'\'{status.id}\': the {source_name} source changed from "{old}" to "{new}" since this '
                f"was translated",
            )
        check_text_pair(project, game, entry, source.lang, translated, catalogue.lang, report)
    for text_id, entry in catalogue.entries.items():
        if text_id not in source.entries:
            report.add("orphan-text", entry.location, f"'{text_id}' is not in the source language")
    unrecorded = untracked(texts, game.records.get(catalogue.lang, {}))
    if (
        unrecorded
    ):  # a copy sync added and marked, as it stands, is untranslated, as `i18n status` counts it
        marked = todo_marked(catalogue)
        unrecorded = [
            status
            for status in unrecorded
            if status.id not in marked or status.translation.text != status.source.text
        ]
    if unrecorded:  # one warning for the file: a translator who writes texts by hand and never ran sync has many
        named = ", ".join(f"'{status.id}'" for status in unrecorded[:3])
        more = f" and {len(unrecorded) - 3} more" if len(unrecorded) > 3 else ""
        count = f"{len(unrecorded)} {name} text" + (" has" if len(unrecorded) == 1 else "s have")
        report.add(
            "untracked-translation",
            unrecorded[0].translation.location,
            f"{count} no record of the {source_name} text {'it was' if len(unrecorded) == 1 else 'each was'} "
            f"translated from ({named}{more}): a later change to the {source_name} will not show as stale",
            hint=f"run printshop i18n sync {catalogue.lang} once they are translated: it records the source "
            f"of each in {catalogue.lang}.sources.yaml",
        )


WHOLE = 160  # characters: a text quoted whole in a stale-translation warning, when both versions are this short
AROUND = 40  # characters kept either side of what changed in a longer one


def changed_parts(old: str, new: str) -> tuple[str, str]:
    """`old` and `new` as a stale-translation warning quotes them: whole when both are short; else the part that
    changed, with a few words either side, cut where a word ends and marked '…' (a rule of 500 characters with
    one word added was quoted whole twice, a thousand characters to compare by eye)."""
    if len(old) <= WHOLE and len(new) <= WHOLE:
        return old, new
    same_start = len(os.path.commonprefix([old, new]))
    same_end = len(os.path.commonprefix([old[same_start:][::-1], new[same_start:][::-1]]))
    start = _word_start(old, max(same_start - AROUND, 0))
    return _excerpt(old, start, len(old) - same_end), _excerpt(new, start, len(new) - same_end)


def _excerpt(text: str, start: int, changed_end: int) -> str:
    end = _word_end(text, min(max(changed_end + AROUND, start + AROUND), len(text)))
    if end - start > WHOLE + 2 * AROUND:  # rewritten at length: its beginning shows it
        end = _word_end(text, start + WHOLE)
    return ("…" if start > 0 else "") + text[start:end].strip() + ("…" if end < len(text) else "")


def _word_start(text: str, index: int) -> int:
    space = text.rfind(" ", 0, index)
    return space + 1 if index > 0 and space >= 0 and index - space <= 16 else index


def _word_end(text: str, index: int) -> int:
    space = text.find(" ", index)
    return space if index < len(text) and 0 <= space - index <= 16 else index


def check_text_pair(
    project: Project,
    game: GameData,
    source: TextEntry,
    source_lang: str,
    translated: TextEntry,
    lang: str,
    report: Report,
) -> None:
    """Every check of one translated text against the text it was made from, reported at
    `translated.location` (a YAML line, or a PO file's line when `i18n import` checks what it imports)."""
    _check_pair(project, source, source_lang, translated, lang, report, game.game.untranslatable)


def _check_pair(
    project: Project,
    source: TextEntry,
    source_lang: str,
    translated: TextEntry,
    lang: str,
    report: Report,
    untranslatable: Untranslatable = Untranslatable(),
) -> None:
    text_id = translated.id
    language = project.languages.get(lang)
    reference_name = (
        project.languages[source_lang].name if source_lang in project.languages else source_lang
    )
    # the same pair checked the same way finds the same: what it finds is kept by the two texts and what the
    # checks read (the language by its rules: a session reading the data again, a check after a build, has a new
    # one), and said at the pair's places of the moment (a copy of the data, a text moved down a line)
    rules = translation_checks.language_rules(language) if language is not None else None
    key = (
        text_id,
        source.text,
        source_lang,
        translated.text,
        lang,
        rules,
        reference_name,
        tuple(untranslatable.words),
        untranslatable.ids.get(text_id, ""),
    )
    findings = _PAIRS_CHECKED.get(key)
    if findings is None:
        findings = _PAIRS_CHECKED[key] = _check_pair_anew(
            text_id,
            language,
            reference_name,
            source.text,
            source_lang,
            translated.text,
            untranslatable,
        )
    if not findings:
        return
    accepted = translation_checks.accepted(translated.location.path, translated.location.line)
    # the text it is made from, beside every finding: the translator sees both without opening another file
    # (a long paragraph's first SHOWN_SOURCE characters: a text of thousands of placeholders filled the terminal)
    shown = (
        source.text
        if len(source.text) <= SHOWN_SOURCE
        else source.text[:SHOWN_SOURCE].rstrip() + "…"
    )
    beside = f'{reference_name}: "{shown}"' + (
        f" ({source.location})" if source.location != translated.location else ""
    )
    for code, message, acknowledged in findings:
        reason = acknowledged or accepted.get(code, "")
        severity = (
            Severity.WARNING if reason and CATALOGUE[code].severity is Severity.ERROR else None
        )
        report.add(code, translated.location, message, severity, acknowledged=reason, also=beside)


_PAIRS_CHECKED: Memo = Memo(100_000)


@functools.lru_cache(maxsize=65536)
def _markup_problems(text: str) -> tuple[str, ...]:
    """`markup_problems`, once per text (a session checks every text again after each edit)."""
    return tuple(markup_problems(text))


SHOWN_SOURCE = 800  # characters of the source text shown beside a translation's finding


def _check_pair_anew(
    text_id: str,
    language,
    reference_name: str,
    source: str,
    source_lang: str,
    translated: str,
    untranslatable: Untranslatable,
) -> tuple[tuple[str, str, str], ...]:
    """What is wrong with the translation `translated` of `source`: (code, message, why it is acknowledged
    whatever the translator's comments say) for each finding."""
    found: list[tuple[str, str, str]] = []
    if language is not None:
        for problem in translation_checks.check_pair(
            text_id, source, translated, language, source_lang, reference_name
        ):
            found.append((problem.code, problem.message, ""))
    if (
        translated == source
        and translated.strip()
        and not translation_checks.only_words(translated, untranslatable.words)
    ):
        found.append(
            (
                "untranslated",
                f"'{text_id}' is the same as the {reference_name} text it is made from",
                untranslatable.ids.get(text_id, ""),
            )
        )
    if placeholders(translated) != placeholders(source):
        found.append(
            (
                "placeholder",
                f"'{text_id}' uses {_braces(placeholders(translated))} but the source uses "
                f"{_braces(placeholders(source))}",
                "",
            )
        )
    if inline_tags(translated) != inline_tags(source):
        found.append(
            (
                "markup-mismatch",
                f"'{text_id}': the source uses {_tags(inline_tags(source))}, "
                f"the translation {_tags(inline_tags(translated))}",
                "",
            )
        )
    if line_breaks(translated) != line_breaks(source):
        found.append(
            (
                "line-breaks",
                f"'{text_id}': the source has {line_breaks(source)} line break(s), "
                f"the translation {line_breaks(translated)}",
                "",
            )
        )
    return tuple(found)


def _tags(counts) -> str:
    return ", ".join(f"<{tag}> ×{n}" for tag, n in sorted(counts.items())) or "no <b> or <i>"


def _braces(names: set[str]) -> str:
    return ", ".join("{" + n + "}" for n in sorted(names)) or "no placeholders"
