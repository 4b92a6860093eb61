"""What the preview page shows: a `FaceView` for each laid-out face and rules page, with the lines
of the data it prints, its template and art; which faces each diagnostic leads to; faces an error
stops kept greyed (`keep_stale`).

`face_views` reads the session's checked layouts (serve.py's `Preview` holds them);
`diagnostic_entries` and `face_entry` are the state the page asks for (`/state`), as JSON.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import math
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from printshop.diagnostics import Diagnostic, display_path, printable
from printshop.layout.faces import stand_in_booklet
from printshop.layout.plan import FaceLayout
from printshop.layout.problems import written_entry
from printshop.live.booklet_pages import Booklet, BookletPage, booklet_key
from printshop.live.images import PREVIEW_DPI, page_sizes, page_texts
from printshop.live.session import Session
from printshop.memo import Reads, values_of
from printshop.pipeline.keys import art_of
from printshop.render.colour import OVERSET_HEX, StandIn

if TYPE_CHECKING:  # (imported where the views are made: render/colour.py is loaded then)
    from printshop.render.colour import Paints
from printshop.render.replay import motif_key
from printshop.typeset.templating import template_location


@dataclass
class FaceView:
    token: str
    game: str
    lang: str
    key: str  # "roles/informer/front", "sheet/board/"
    face: FaceLayout | BookletPage
    paints: Paints
    motifs: dict
    assets: Path
    sources: list[
        tuple[str, int]
    ]  # (data file as displayed, line): the texts it prints, then its frames
    template: str = (
        ""  # the face's template file, as displayed: an error in it may be what stops the face
    )
    art: tuple = ()  # the image files it draws (`src`, from the game's folder), sorted
    stale: bool = False  # kept from an earlier refresh: an error now stops this face being laid out
    pending: bool = (
        False  # a rules page as last rendered, its booklet being rendered again (`render_pages`)
    )
    # the names of its face in faces.yaml and of those it extends: a diagnostic written in one
    # concerns this face
    definitions: tuple = ()
    names: tuple = ()  # the names and titles it prints ("Dissident"): the page's search finds them
    size: tuple = (0.0, 0.0)  # its width and height with the bleed, in points (0: not known)

    @property
    def place(self) -> tuple[str, str, str]:
        return self.game, self.lang, self.key


def face_views(
    session: Session,
    booklets: dict | None = None,
    later: list | None = None,
    stop: threading.Event | None = None,
) -> list[FaceView]:
    """The faces of the session's layouts, each game's and language's rules pages after them.
    `booklets`: {(game, lang): Booklet} of the last refresh, replaced by this one's (a booklet
    unchanged is kept). With `later`, a booklet to render again is not rendered: (game, lang) is
    added to `later`, and the pages it had are shown meanwhile, greyed as `pending`
    (`Preview.refresh` renders it after the faces are on the page). Once `stop` is set, no booklet
    is rendered (the server is stopping)."""
    from printshop.render.colour import Paints

    checked = session.checked
    if checked is None:
        return []
    views = []
    templates: dict[str, str] = {}  # a template's name -> its file as displayed
    earlier = dict(booklets or {})
    booklets = {} if booklets is None else booklets
    booklets.clear()
    for layout in checked.layouts:
        project = checked.project.view(
            layout.localized.data
        )  # the game's own colours and motifs too
        paints = Paints(project.colours.palette)
        catalogue = layout.localized.data.catalogues.get(layout.lang)
        variant = layout.localized.variant
        # a draft shows the texts it lacks from the language it is made from: their lines there are
        # what it prints
        reference = layout.localized.data.reference(layout.lang) if layout.localized.draft else None
        game_faces = layout.localized.data.faces
        faces = [face for deck in layout.decks for face in deck.faces.values()]
        for sheet in (
            layout.sheets
        ):  # a two-sided sheet: each item's back after it, as a player turns it over
            faces += [
                face
                for pair in itertools.zip_longest(sheet.faces, sheet.backs)
                for face in pair
                if face is not None
            ]
        for face in faces:
            name = face.face.template
            if name and name not in templates and session.env is not None:
                templates[name] = template_location(session.env, name).path
            views.append(
                FaceView(
                    "",
                    layout.game_id,
                    layout.lang,
                    face.key,
                    face,
                    paints,
                    project.motifs.motifs,
                    layout.localized.data.dir,
                    _sources_of(face, catalogue, reference, variant),
                    templates.get(name or "", ""),
                    art=tuple(art_of([face.face])),
                    definitions=definition_chain(game_faces, face.face_name),
                    names=printed_names(face, catalogue, reference, variant),
                    size=(face.width + 2 * face.bleed, face.height + 2 * face.bleed),
                )
            )
        if stop is None or not stop.is_set():
            views += page_views(
                session, layout, project, paints, catalogue, reference, earlier, booklets, later
            )
    return views


def _sources_of(face, catalogue, reference, variant) -> list[tuple[str, int]]:
    """(data file as displayed, line) of what a face prints: its texts first, what a translator
    edits; then the texts a draft borrows from the language it is made from; then its frames'
    definitions."""
    texts, borrowed, frames = (
        [],
        [],
        [],
    )  # the texts first: what a translator edits; then a draft's others
    for frame in face.frames:
        for text_id in frame.text_ids:
            # (a naming variant's own text, where it replaces the id: the line a translator edits)
            entry = written_entry(catalogue, text_id, variant) if catalogue else None
            if entry is not None:
                texts.append((entry.location.path, entry.location.line))
            elif reference is not None:
                entry = written_entry(reference, text_id, variant)
                if entry is not None:
                    borrowed.append((entry.location.path, entry.location.line))
        where = frame.frame.where()
        frames.append((where.path, where.line))
    return texts + borrowed + frames


NAMED = ("name", "title")  # the last part of a text's id that names what a face shows


def printed_names(face, catalogue, reference, variant) -> tuple[str, ...]:
    """The names a face prints (its texts whose id ends in `name` or `title`: "card.informer.name"),
    as written, markup left out."""
    names = []
    for frame in face.frames:
        for text_id in frame.text_ids:
            if text_id.rpartition(".")[2] not in NAMED:
                continue
            entry = None
            for source in (catalogue, reference):
                entry = entry or (written_entry(source, text_id, variant) if source else None)
            if entry is not None and isinstance(entry.text, str):
                names.append(" ".join(re.sub(r"<[^>]*>|[*_]", "", entry.text).split()))
    return tuple(dict.fromkeys(name for name in names if name))


def page_views(
    session: Session,
    layout,
    project,
    paints,
    catalogue,
    reference,
    earlier: dict,
    booklets: dict,
    later: list | None = None,
) -> list[FaceView]:
    """The pages of the game's rules booklet in this language, after its faces (`rules/1`,
    `rules/2`...): the rules are most of what a translator translates. Their sources: the lines of
    the texts each prints. With `later` (see `face_views`), a booklet to render again is left for
    later, its earlier pages shown greyed."""
    from printshop.project.paths import output_name
    from printshop.render.booklet import LEAVES, render_booklet

    if layout.booklet is None:
        # (an error stops it: its last pages are kept, shown greyed while the error lasts, and then
        # while it is set again, rather than gone in between)
        if (
            layout.game_id,
            layout.lang,
        ) in earlier and layout.localized.data.game.booklet is not None:
            booklets[(layout.game_id, layout.lang)] = earlier[(layout.game_id, layout.lang)]
        return []
    paper_name = project.booklet.paper
    paper = project.media.papers.get(paper_name)
    if paper is None:
        return []
    assert session.checked is not None  # (its layouts are what `face_views` shows)
    key, fonts = booklet_key(layout, project, paper), session.checked.fonts
    palette, motifs = project.colours.palette, project.motifs.motifs
    booklet = earlier.get((layout.game_id, layout.lang))
    pending = False
    if booklet is not None and later is not None and not booklet.holds(key, palette, motifs, fonts):
        later.append((layout.game_id, layout.lang))
        pending = True
    elif booklet is None and later is not None:
        later.append((layout.game_id, layout.lang))
        return []
    elif booklet is None or not booklet.holds(key, palette, motifs, fonts):
        file_name = output_name(
            layout.game_id, layout.lang, "rules", paper_name, layout.localized.variant
        ).name
        colours, drawn = (
            Reads(palette, log=[]),
            Reads(motifs, log=[]),
        )  # what it reads of them, name by name
        # a style in a colour or font there is not is set all the same, in magenta, as a face's
        # frame is
        stood_in = dataclasses.replace(paints, palette=StandIn(colours))
        try:
            data, count = render_booklet(
                layout,
                stand_in_booklet(layout.booklet, fonts),
                paper,
                stood_in,
                drawn,
                file_name,
                pad_to=LEAVES,
            )
        except Exception:  # noqa: BLE001 - shown as no page; the build reports what stops it
            return []
        booklet = Booklet(
            key,
            data,
            count,
            values_of(colours.read, palette),
            values_of(drawn.read, motifs, motif_key),
            fonts,
            page_texts(data),
        )
    booklets[(layout.game_id, layout.lang)] = booklet
    # each page's sources: the lines of the texts it prints, found in its own text (a text the
    # template read that cannot be told apart, a letter or a placeholder alone: every page's)
    sources: list[list[tuple[str, int]]] = [[] for _ in booklet.pages]
    everywhere = range(len(sources))
    for text_id in layout.booklet.text_ids:
        entry = (
            written_entry(catalogue, text_id, layout.localized.variant)
            if catalogue is not None
            else None
        )
        if (
            entry is None and reference is not None
        ):  # a draft prints the text its language lacks from the other
            entry = written_entry(reference, text_id, layout.localized.variant)
        if entry is not None:
            for index in booklet.pages_of(entry.text) or everywhere:
                sources[index].append((entry.location.path, entry.location.line))
    template = layout.localized.data.game.booklet.template
    template_file = template_location(session.env, template).path if session.env is not None else ""
    if booklet.sizes is None:
        booklet.sizes = page_sizes(booklet.data)
    sizes = booklet.sizes
    return [
        FaceView(
            "",
            layout.game_id,
            layout.lang,
            f"rules/{page.index + 1}",
            page,
            paints,
            project.motifs.motifs,
            layout.localized.data.dir,
            sources[page.index],
            template_file,
            pending=pending,
            size=sizes[page.index] if page.index < len(sizes) else (0.0, 0.0),
        )
        for page in booklet.pages
    ]


MISSING_COLOUR = (
    OVERSET_HEX  # a colour the palette lacks, as a face's image shows it (colour.StandIn)
)


def definition_chain(faces: dict, name: str) -> tuple[str, ...]:
    """The face `name` of a game's faces.yaml, then the faces it extends, nearest first."""
    chain: list[str] = []
    while (
        name and name in faces and name not in chain
    ):  # (a loop of extends is the validator's to report)
        chain.append(name)
        name = faces[name].extends
    return tuple(chain)


_FRAME_ALSO = re.compile(
    r"frame: (?P<path>.+?):(?P<line>\d+):\d+\b"
)  # a diagnostic's `also` naming a frame


def face_blocks(project) -> dict[str, tuple[list[int], list[tuple[str, str]]]]:
    """{faces file as displayed: (the line each face's definition starts on, sorted; (game, face) of
    each)}: a line of the file belongs to the definition that starts last before it (faces.yaml's
    entries follow one another under `faces:`), however it is written (a flow mapping on one line, a
    block over twenty)."""
    starts: dict[str, list[tuple[int, str, str]]] = {}
    for game in project.games.values() if project is not None else ():
        for name, face in game.faces.items():
            where = face.where()
            starts.setdefault(where.path, []).append((where.line, game.id, name))
    return {
        path: (
            [line for line, _, _ in sorted(rows)],
            [(game, name) for _, game, name in sorted(rows)],
        )
        for path, rows in starts.items()
    }


def stopped_by(report, saved: set[Path] | None, data_dir: Path):
    """While nothing is laid out (the data cannot be read, or does not validate): which faces shown
    are no longer current, as a predicate of a FaceView. Those of the files the errors are in and of
    the files `saved` since the last layout (None: not known, every face): a game's text in a
    language, that game's faces in that language; another file of a game's, that game's faces; a
    language's file, that language's faces; any other file (the shared print data, a template), every
    face. A face in English stays current while a French text cannot be read."""
    if saved is None:
        return lambda view: True
    data = os.path.abspath(data_dir)
    scopes: set[tuple[str | None, str | None]] = set()
    paths = [d.location.path for d in report.items if d.severity.value == "error"]
    for path in [*paths, *map(str, saved)]:
        parts = Path(os.path.relpath(os.path.abspath(path), data)).parts if path else ("..",)
        if not parts or parts[0] == ".." or len(parts) < 2 or parts[0] == "print":
            return lambda view: True
        lang = parts[-1].split(".")[0]
        if parts[0] == "languages":
            scopes.add((None, lang))
        else:
            scopes.add((parts[0], lang if parts[1] == "text" and len(parts) == 3 else None))
    return lambda view: any(
        game in (None, view.game) and lang in (None, view.lang) for game, lang in scopes
    )


def keep_stale(earlier: list[FaceView], now: list[FaceView], stops=None) -> list[FaceView]:
    """`now`, with each face of `earlier` it lacks kept beside the faces it followed, marked stale:
    while the data has errors, a face an error stops (a template that no longer compiles, a card
    whose text is broken, a file that cannot be read) stays on the page as last drawn rather than
    vanishing from under the eyes of the one mending it. Once the data has no error, a face still
    missing is gone from the data. `stops` (`stopped_by`), when nothing was laid out: a face it
    does not stop is kept as it was, current."""
    present = {view.place for view in now}
    after: dict[tuple | None, list[FaceView]] = {}
    anchor = None
    for view in earlier:
        if view.place in present:
            anchor = view.place
        else:
            current = not view.stale and stops is not None and not stops(view)
            after.setdefault(anchor, []).append(
                view if view.stale or current else dataclasses.replace(view, stale=True)
            )
    merged = list(after.get(None, []))
    for view in now:
        merged.append(view)
        merged.extend(after.get(view.place, []))
    return merged


def line_ranges(lines) -> str:
    """Line numbers as a reader scans them: [7, 8, 9, 12, 145] -> "7–9, 12, 145" (0, unknown, left
    out)."""
    numbers = sorted({line for line in lines if line > 0})
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(
        str(first) if first == last else f"{first}\u2013{last}" for first, last in runs
    )


def source_files(sources: list[tuple[str, int]], folder: str) -> list[dict]:
    """A face's sources by file, in the order it reads them: the path, the path within the game's
    folder (`folder`, as displayed), and the lines."""
    by_file: dict[str, list[int]] = {}
    for path, line in sources:
        by_file.setdefault(path, []).append(line)
    prefix = folder.rstrip("/") + "/"
    return [
        {
            "path": path,
            "short": path[len(prefix) :] if path.startswith(prefix) else path,
            "lines": line_ranges(lines),
        }
        for path, lines in by_file.items()
    ]


def diagnostic_entry(
    number: int, d: Diagnostic, faces: list[str], pages: int = 0, said=None
) -> dict:
    """`faces`: the tokens of the faces and rules pages it leads to; `pages`: how many of them are
    rules pages. `said`: `for_the_page` of the project's folder (files named from there, no
    command-line hint); else the texts as they are."""
    said = said or (lambda text, hint=False: text)
    return {
        "id": number,
        "text": said(d.format()),
        "severity": d.severity.value,
        "code": d.code,
        "message": said(printable(d.message)),
        "where": said(str(d.location)),
        "acknowledged": printable(d.acknowledged),
        "hint": said(d.hint, hint=True),
        "also": said(d.also),
        "path": d.location.path,
        "line": d.location.line,
        "faces": faces,
        "pages": pages,
    }


# a hint of the command line: an option ("--data") or a command ('printshop new GAME')
_COMMAND_LINE = re.compile(
    r"(?<![\w-])--[a-z]|['`]printshop "
    r"|\bprintshop (?:build|validate|i18n|new|init|serve|watch|docs|proof|preflight|schema)\b"
)
_CLAUSES = re.compile(r"((?:[,;:]|\s-)\s+(?:or\s+)?)")


def for_the_page(root: Path | None):
    """A function making a message what the page shows: files named from the project's folder
    `root` (the page is not the terminal serve runs in: a path from there means nothing on it), and
    the clauses and asides that tell what to type left out ("create the file, or pass the right
    folder with --data" -> "create the file")."""
    prefixes: list[str] = []
    if root is not None:
        folder = os.path.abspath(root)
        prefixes.append(folder + os.sep)
        here = os.getcwd()
        if folder.startswith(here.rstrip(os.sep) + os.sep):  # as display_path names it
            prefixes.append(os.path.relpath(folder, here) + os.sep)
    named = (
        re.compile("|".join(r"(?<![\w./-])" + re.escape(prefix) for prefix in prefixes))
        if prefixes
        else None
    )

    def said(text: str, hint: bool = False) -> str:
        if named is not None:
            text = named.sub("", text)
        if not _COMMAND_LINE.search(text):
            return text
        whole, text = (
            text,
            re.sub(r"\s*\([^()]*\)", lambda m: "" if _COMMAND_LINE.search(m[0]) else m[0], text),
        )
        lines = []
        for line in text.split("\n"):
            parts = _CLAUSES.split(line)
            kept = [
                (parts[index - 1] if index else "", part)
                for index, part in enumerate(parts)
                if index % 2 == 0 and not _COMMAND_LINE.search(part)
            ]
            if kept:
                lines.append("".join(sep + part for sep, part in kept).lstrip(",; -"))
        # a hint that is all command line: none; a message: as it is
        return "\n".join(lines).strip() or ("" if hint else whole)

    return said


def diagnostic_entries(
    diagnostics: list[Diagnostic],
    views: dict[str, FaceView],
    blocks: dict,
    project,
    root: Path | None = None,
) -> list[dict]:
    """Each diagnostic as the page lists it (`diagnostic_entry`), with the faces and rules pages it
    leads to: those that print the line it is written on, those of a template in error, those made
    from the face definition (in faces.yaml, `blocks`: `face_blocks`) it is written in or names a
    frame of."""
    by_place: dict[tuple[str, int], list[str]] = {}
    by_template: dict[str, list[str]] = {}
    for view in views.values():
        for path, line in view.sources:
            by_place.setdefault((path, line), []).append(view.token)
        if (
            view.stale and view.template
        ):  # stopped, maybe by its template: an error there leads to it
            by_template.setdefault(view.template, []).append(view.token)
    by_definition = _faces_by_definition(views, project)
    said = for_the_page(root) if root is not None else None
    entries = []
    for number, d in enumerate(diagnostics):
        faces = by_place.get((d.location.path, d.location.line), []) + by_template.get(
            d.location.path, []
        )
        # written in a face's definition (a frame's font, a shape's colour); or, leading to no face
        # by where it is written, about a frame there ("frame: data/g/faces.yaml:29:30", a template
        # without its block)
        places = [(d.location.path, d.location.line)]
        frame = _FRAME_ALSO.match(d.also) if not faces and d.also else None
        if frame is not None:
            places.append((frame["path"], int(frame["line"])))
        for path, line in places:
            if path in blocks:
                lines, named = blocks[path]
                index = bisect.bisect_right(lines, line) - 1
                if index >= 0:
                    faces += by_definition.get(named[index], [])
        faces = list(dict.fromkeys(faces))
        pages = sum(isinstance(views[token].face, BookletPage) for token in faces if token in views)
        entries.append(diagnostic_entry(number, d, faces, pages, said))
    return entries


def _faces_by_definition(views: dict[str, FaceView], project) -> dict[tuple[str, str], list[str]]:
    """(game, face in faces.yaml) -> the tokens of the faces made from it, or from a face extending
    it."""
    by_definition: dict[
        tuple[str, str], list[str]
    ] = {}  # (game, face in faces.yaml) -> the faces made from it
    for view in views.values():
        game = (
            project.games.get(view.game) if project is not None else None
        )  # (a face kept: as now written)
        for name in definition_chain(game.faces, view.face.face_name) if game else view.definitions:
            by_definition.setdefault((view.game, name), []).append(view.token)
    return by_definition


def face_entry(view: FaceView) -> dict:
    """A face or rules page as the page shows it: its image, zoomed image, whether it is stale or
    pending, and where it comes from (data lines by file, template, art)."""
    # (as pdfium sizes the image it renders: the points at PREVIEW_DPI, rounded up)
    width, height = (math.ceil(side / 72 * PREVIEW_DPI - 0.01) for side in view.size)
    return {
        "token": view.token,
        "image": f"/face/{view.token}.png",
        # the image's size, in pixels: the page keeps its room before it loads (0: not known)
        "width": width,
        "height": height,
        "names": list(view.names),
        "zoom": f"/face/{view.token}@2x.png",
        "stale": view.stale,
        "pending": view.pending,
        "sources": [f"{path}:{line}" for path, line in dict.fromkeys(view.sources)],
        "files": source_files(view.sources, display_path(view.assets)),
        "template": view.template,  # the file that makes its frames' texts, for the designer
        # the images it draws: a save of one draws this face again
        "art": [
            {
                "path": display_path(Path(os.path.normpath(view.assets / source))),
                "short": source,
            }
            for source in view.art
        ],
    }
