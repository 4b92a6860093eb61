"""Proofs for reviewers: every face of a translation beside the same face in the language it is
made from, so that someone who reads both checks the translation on the card as it prints.

`make_proofs` is what `printshop proof` calls: it checks and lays out the games as a build does
(nothing is written if anything fails), then draws, per game and translation, one row per
distinct face and sheet: the translation on the left, its reference on the right, each labelled
with its face key and followed by the text ids its frames print (frame: ids) in small type; then
the rules booklet paragraph beside paragraph, the labels and the glossary's terms
(render/proof_texts.py).
Faces are drawn by render/faces.py, exactly as in the kit, at true size when the page allows and
scaled down otherwise (the label says by how much). The file goes to
`<out>/<game>/<lang>/<game>-<lang>-proof-against-<ref>.pdf`.

The reference is the translation's own (`GameData.reference_lang`: its pivot, else the game's
source). A proof of the source language itself is made against `against`, or, without it, against
the game's first other language (in the order `GameData.languages` gives).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib.colors import Color
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from printshop.diagnostics import Location, Report
from printshop.language.texts import apply_typography
from printshop.layout.plan import FaceLayout, GameLayout
from printshop.project.loader import Project
from printshop.project.models.art import Motif
from printshop.project.models.media import Media, Paper
from printshop.project.paths import DEFAULT_DATA_DIR, DEFAULT_OUTPUT_DIR
from printshop.project.units import mm
from printshop.render import proof_texts
from printshop.render.colour import Paints
from printshop.render.faces import draw_face
from printshop.render.pdf import new_canvas
from printshop.write.commit import write_atomically

FONT, BOLD = (
    "sans",
    "sans-bold",
)  # the bundled family every project registers (render/pdf.py starts with it)
INK, SOFT, RULE = Color(0, 0, 0), Color(0.35, 0.33, 0.31), Color(0.7, 0.68, 0.65)
IDS_SIZE, SMALLEST_IDS_SIZE = 5.5, 3.0  # points; ids of a board with many frames are set smaller
LABEL_SIZE, HEADER_SIZE = 6.5, 8.0
GUTTER, GAP, ROW_GAP = mm(8), mm(3), mm(4)  # between the two columns, a face and its ids, two rows
LEAST_IDS_WIDTH = mm(40)  # a face is scaled down rather than leave its ids less room than this


@dataclass
class ProofResult:
    report: Report
    written: list[Path] = field(default_factory=list)  # files whose bytes changed on disk
    unchanged: list[Path] = field(default_factory=list)
    pages: dict[Path, int] = field(default_factory=dict)  # every proof made, with its page count


@dataclass
class _Side:
    face: FaceLayout | None
    form: str | None
    ids: Paragraph


@dataclass
class _Row:
    key: str
    width: float  # the face's trim, points
    height: float
    scale: float
    sides: tuple[_Side, _Side]
    ids_width: float
    total: float  # the row's height on the page


def proof_name(game_id: str, lang: str, reference: str) -> Path:
    return Path(game_id) / lang / f"{game_id}-{lang}-proof-against-{reference}.pdf"


def make_proofs(
    data_dir: Path = DEFAULT_DATA_DIR,
    out_dir: Path = DEFAULT_OUTPUT_DIR,
    *,
    games: list[str] | None = None,
    langs: list[str] | None = None,
    against: str | None = None,
    templates_dir: Path | None = None,
    force: bool = False,
) -> ProofResult:
    """Proof `langs` (default: every translation) of `games` (default: all) against `against`
    (default: each translation's reference language). Nothing is written unless every proof
    rendered, nor (unless `force`) if one would replace a file printshop did not write."""
    from printshop.language.i18n import completeness
    from printshop.pipeline.build import (
        check,
    )  # build imports the renderers; imported here to keep the order simple

    report, checked = check(data_dir, games=games, templates_dir=templates_dir, variant=None)
    result = ProofResult(report)
    if checked is None or report.has_errors:
        return result
    project = checked.project
    pairs = proof_pairs(project, langs, against, report)
    if report.has_errors:
        return result
    layouts = {(layout.game_id, layout.lang): layout for layout in checked.layouts}
    paper = project.media.papers[project.media.print_and_play.papers[0]]
    rendered: list[tuple[Path, bytes, int]] = []
    for game_id, lang, reference in pairs:
        path = proof_name(game_id, lang, reference)
        translation, original = layouts.get((game_id, lang)), layouts.get((game_id, reference))
        if translation is None or original is None:
            continue  # a layout that failed has been reported
        seen = project.view(
            project.games[game_id]
        )  # the game's own colours and motifs over the project's
        game = project.games[game_id]
        translated = completeness(game, lang).percent if lang != game.game.source_language else None
        try:
            data, pages = render_proof(
                translation,
                original,
                paper,
                seen.media,
                Paints(seen.colours.palette),
                seen.motifs.motifs,
                path.name,
                translated,
            )
        except Exception as error:  # noqa: BLE001 - a diagnostic naming the proof, never a traceback
            report.add(
                "internal",
                Location.of(project.games[game_id].dir),
                f"drawing the proof {path.name} failed unexpectedly: {type(error).__name__}: {error}",
            )
            continue
        rendered.append((path, data, pages))
    if report.has_errors:
        return result
    from printshop.write.commit import not_ours

    made = [(Path(out_dir) / path, data) for path, data, _ in rendered]
    for target in [] if force else not_ours(made, "pdf"):
        report.add(
            "foreign-output",
            Location.of(target),
            f"{target.name} was not written by printshop (a file of your own, or changed since); "
            "nothing was written (move it away, name another --out, or --force to replace it)",
        )
    if report.has_errors:
        return result
    for (
        path,
        data,
        pages,
    ) in rendered:  # only now, with every proof drawn, does anything reach the disk
        target = Path(out_dir) / path
        result.pages[target] = pages
        if target.is_file() and target.read_bytes() == data:
            result.unchanged.append(target)
        else:
            write_atomically(target, data)
            result.written.append(target)
    return result


def proof_pairs(
    project: Project, langs: list[str] | None, against: str | None, report: Report
) -> list[tuple[str, str, str]]:
    """(game, language, reference) for every proof asked for. A language a game lacks is skipped
    for that game; one no game has, or a reference a game lacks, is reported."""
    pairs, seen = [], set()
    where = Location.of(Path(project.data_dir) / "languages")
    for game in project.games.values():
        source = game.game.source_language
        wanted = langs if langs is not None else [lang for lang in game.languages if lang != source]
        for lang in wanted:
            if lang not in game.languages:
                continue
            seen.add(lang)
            others = [other for other in game.languages if other != lang]
            reference = against or (
                game.reference_lang(lang) if lang != source else next(iter(others), None)
            )
            if reference is None:
                report.add(
                    "unknown-reference",
                    Location.of(game.dir / "text"),
                    f"{game.id} has no language but {lang}: there is nothing to proof it against",
                )
            elif reference == lang:
                report.add(
                    "unknown-reference",
                    where,
                    f"a proof of {lang} against itself compares nothing: "
                    f"give --against another language ({', '.join(others) or 'none'})",
                )
            elif reference not in game.languages:
                report.add(
                    "unknown-reference",
                    Location.of(game.dir / "text"),
                    f"{game.id} has no texts in '{reference}' to proof {lang} against "
                    f"(its languages: {', '.join(game.languages)})",
                )
            else:
                pairs.append((game.id, lang, reference))
    for lang in langs or []:
        if lang not in seen:
            known = sorted({name for game in project.games.values() for name in game.languages})
            report.add(
                "unknown-reference",
                where,
                f"no game here has texts in '{lang}' (languages: {', '.join(known) or 'none'})",
            )
    return pairs


def render_proof(
    translation: GameLayout,
    reference: GameLayout,
    paper: Paper,
    media: Media,
    paints: Paints,
    motifs: dict[str, Motif],
    file_name: str,
    translated: int | None = None,
) -> tuple[bytes, int]:
    """The proof of `translation` against `reference` on `paper` turned landscape, so that two
    columns of cards, each with its ids, stand side by side: (PDF bytes, pages). `translated`: the
    percent of the translation's texts that are translated, said beside its heading when below 100
    (its other texts are copies of the text they are made from, which a reviewer would otherwise
    read as translations)."""
    page_width, page_height = max(paper.width, paper.height), min(paper.width, paper.height)
    margin = media.print_and_play.margin
    footer = media.print_and_play.footer
    top = (
        page_height - margin - HEADER_SIZE * 2.6
    )  # below the page's heading and the column headings
    # a proof is read, not cut: its footer sits just inside the margin, which leaves two rows of
    # cards a page
    footer_baseline = margin + mm(0.5)
    bottom = footer_baseline + footer.size * 1.2
    column = (page_width - 2 * margin - GUTTER) / 2
    buffer = io.BytesIO()
    canvas = new_canvas(
        buffer,
        page_width,
        page_height,
        lang=translation.lang,
        title=f"{translation.title}: proof of {translation.lang} against {reference.lang}",
        subject="proof for translation reviewers",
    )
    left_faces, right_faces = _faces(translation), _faces(reference)
    forms = {}
    for prefix, faces, layout in (("t", left_faces, translation), ("r", right_faces, reference)):
        for index, (key, face) in enumerate(faces.items()):
            forms[prefix, key] = f"{prefix}{index}"
            canvas.beginForm(
                forms[prefix, key],
                -face.bleed,
                -face.bleed,
                face.width + face.bleed,
                face.height + face.bleed,
            )
            draw_face(canvas, face, paints, motifs, layout.localized.data.dir)
            canvas.endForm()
    keys = list(left_faces) + [key for key in right_faces if key not in left_faces]
    rows = [
        _row(key, left_faces.get(key), right_faces.get(key), forms, column, top - bottom)
        for key in keys
    ]
    pages = _paginate(rows, top - bottom)
    # then the booklet, the labels and the glossary, line beside line (render/proof_texts.py)
    box = (margin, bottom, page_width - 2 * margin, top - bottom)
    width = page_width - 2 * margin

    def texts() -> list:
        return proof_texts.story(translation, reference, width, GUTTER)

    total = len(pages) + proof_texts.count_pages(texts, (page_width, page_height), box)

    def footer_at(number: int) -> None:
        canvas.setFont(footer.font, footer.size)
        canvas.setFillColor(SOFT)
        canvas.drawCentredString(
            page_width / 2,
            footer_baseline,
            f"{file_name} · {translation.localized.label('page', page=number, pages=total)}",
        )

    for number, page in enumerate(pages, start=1):
        _headings(canvas, translation, reference, page_height, margin, column, translated)
        y = top
        for row in page:
            _draw_row(
                canvas,
                row,
                margin,
                y,
                column,
                translation.lang,
                reference.lang,
                translation.localized,
            )
            y -= row.total + ROW_GAP
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.3)
        middle = margin + column + GUTTER / 2
        canvas.line(middle, bottom, middle, top + LABEL_SIZE)
        footer_at(number)
        canvas.showPage()

    def text_page(_canvas: Canvas, number: int) -> None:
        _headings(canvas, translation, reference, page_height, margin, column, translated)
        footer_at(number)

    proof_texts.draw(canvas, texts(), box, text_page, len(pages) + 1)
    canvas.save()
    return buffer.getvalue(), total


def _faces(layout: GameLayout) -> dict[str, FaceLayout]:
    """Every distinct face once, in the kit's order: each deck's faces, then the sheets."""
    faces = {key: face for deck in layout.decks for key, face in deck.faces.items()}
    faces.update({face.key: face for sheet in layout.sheets for face in sheet.faces})
    return faces


def _ids_markup(face: FaceLayout | None) -> str:
    if face is None:
        return "<i>this face was not laid out in this language</i>"
    lines = []
    for frame in face.frames:
        ids = ", ".join(escape(text_id) for text_id in frame.text_ids) or "<i>no text id</i>"
        lines.append(f"<b>{escape(frame.name)}:</b> {ids}")
    return "<br/>".join(lines) or "<i>no text frames</i>"


def _ids_paragraph(face: FaceLayout | None, size: float) -> Paragraph:
    style = ParagraphStyle("ids", fontName=FONT, fontSize=size, leading=size * 1.25, textColor=SOFT)
    return Paragraph(_ids_markup(face), style)


def _row(
    key: str,
    left: FaceLayout | None,
    right: FaceLayout | None,
    forms: dict,
    column: float,
    height: float,
) -> _Row:
    """True size if the face and its ids fit the column and the page; else scaled down. The ids
    take the rest of the column; where they would still be taller than the page, they get smaller."""
    face = left or right
    assert face is not None  # a row is made for a face laid out in one language or the other
    room = height - LABEL_SIZE * 1.6
    scale = min(1.0, (column - GAP - LEAST_IDS_WIDTH) / face.width, room / face.height)
    ids_width = column - GAP - face.width * scale
    size = IDS_SIZE
    while True:
        left_side, right_side = (
            _Side(f, forms.get((prefix, key)) if f else None, _ids_paragraph(f, size))
            for prefix, f in (("t", left), ("r", right))
        )
        sides = (left_side, right_side)
        tallest = max(side.ids.wrap(ids_width, 1e6)[1] for side in sides)
        if tallest <= room or size <= SMALLEST_IDS_SIZE:
            break
        size = max(SMALLEST_IDS_SIZE, size - 0.5)
    total = LABEL_SIZE * 1.6 + max(face.height * scale, tallest)
    return _Row(key, face.width, face.height, scale, sides, ids_width, total)


def _paginate(rows: list[_Row], height: float) -> list[list[_Row]]:
    pages: list[list[_Row]] = [[]]
    used = 0.0
    for row in rows:
        needed = row.total + (ROW_GAP if pages[-1] else 0.0)
        if pages[-1] and used + needed > height + 0.01:
            pages.append([])
            used, needed = 0.0, row.total
        pages[-1].append(row)
        used += needed
    return pages


def _headings(
    canvas: Canvas,
    translation: GameLayout,
    reference: GameLayout,
    page_height: float,
    margin: float,
    column: float,
    translated: int | None = None,
) -> None:
    y = page_height - margin - HEADER_SIZE
    canvas.setFillColor(INK)
    canvas.setFont(BOLD, HEADER_SIZE)
    words = (
        translation.localized
    )  # the proof speaks the reviewer's language: the translation's labels
    canvas.drawString(
        margin,
        y,
        words.label(
            "proof_title",
            title=translation.title,
            language=translation.localized.language.native_name,
            reference=reference.localized.language.native_name,
        ),
    )
    canvas.setFont(FONT, HEADER_SIZE * 0.85)
    y -= HEADER_SIZE * 1.4
    for x, layout, role in (
        (margin, translation, words.label("proof_translation")),
        (margin + column + GUTTER, reference, words.label("proof_reference")),
    ):
        language = layout.localized.language
        draft = (
            f" · {words.label('draft', percent=translated)}"
            if layout is translation and translated is not None and translated < 100
            else ""
        )
        # set as the reviewer's language sets it ("traduction : Français", a narrow space before the
        # colon in French)
        canvas.drawString(
            x,
            y,
            apply_typography(
                f"{role}: {language.native_name} ({layout.lang})", words.language.typography
            )
            + draft,
        )


def _draw_row(
    canvas: Canvas,
    row: _Row,
    margin: float,
    top: float,
    column: float,
    left_lang: str,
    right_lang: str,
    words=None,
) -> None:
    width, height = row.width * row.scale, row.height * row.scale
    percent = f"{row.scale * 100:.0f}"
    scale_note = (
        ""
        if row.scale >= 0.9995
        else f" · {words.label('proof_scale', percent=percent) if words else f'scale {percent} %'}"
    )
    for index, (side, lang) in enumerate(zip(row.sides, (left_lang, right_lang))):
        x = margin + index * (column + GUTTER)
        canvas.setFillColor(INK)
        canvas.setFont(BOLD, LABEL_SIZE)
        canvas.drawString(x, top - LABEL_SIZE, f"{lang} · {row.key}{scale_note}")
        face_top = top - LABEL_SIZE * 1.6
        if side.form is not None:
            canvas.saveState()
            canvas.translate(x, face_top - height)
            canvas.scale(row.scale, row.scale)
            trim = canvas.beginPath()
            trim.rect(
                0, 0, row.width, row.height
            )  # the face as it is cut; its bleed is the kit's business
            canvas.clipPath(trim, stroke=0, fill=0)
            canvas.doForm(side.form)
            canvas.restoreState()
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.3)
        canvas.rect(x, face_top - height, width, height, stroke=1, fill=0)
        ids_height = side.ids.wrap(row.ids_width, 1e6)[1]
        side.ids.drawOn(canvas, x + width + GAP, face_top - ids_height)
