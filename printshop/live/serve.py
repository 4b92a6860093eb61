"""`printshop serve`: a local page showing every face and sheet of the chosen games as images, one
column per language, with the validator's diagnostics beside the faces they concern; it updates
itself when a data file or template is saved.

A `Session` (session.py) keeps the project and layouts in memory; a thread watches the files
(watch.FileWatcher) and refreshes the session, and the page is told through server-sent events (`/events`),
then asks for `/state` again. A face's image (`/face/<token>.png`) is a page drawn by render/faces.py and
rasterised by pypdfium2, in a PDF shared with the faces after it on the page that are not drawn yet (up to a
dozen: `face_pngs`, fonts embedded once); the token names the laid-out face, which the session
keeps while nothing it reads changes, so the browser fetches only the images of changed faces. Each game's
rules booklet follows its faces, page by page, rendered after the faces are shown (`Preview.render_pages`).
A file that cannot be read shows as diagnostics on the page; the server keeps running, and while the data has
errors a face they stop (a template that no longer compiles, a file that cannot be read) stays on the page
greyed, as last drawn, rather than vanishing (`keep_stale`). A face whose text does not fit is drawn anyway
(its text cut at the frame, the overset mark beside it: render/faces.py), so the page shows how far over it
runs; a click on a face opens `/face/<token>@2x.png`, drawn at twice the resolution. The page itself
(static/serve.html) puts everything from the data on the page as text, never as markup.

Starlette serves the page and uvicorn runs it, on 127.0.0.1 unless `--host` says otherwise.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import dataclasses
import errno
import html
import io
import itertools
import os
import re
import secrets
import socket
import sys
import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from printshop.diagnostics import Diagnostic, display_path, printable
from printshop.layout.faces import stand_in_booklet, written_entry
from printshop.live.session import Session
from printshop.live.watch import FileWatcher, watched_folders
from printshop.memo import Memo, Reads, unchanged, values_of
from printshop.pipeline.keys import art_of
from printshop.render.colour import OVERSET_HEX, StandIn
from printshop.render.replay import motif_key
from printshop.typeset.templating import template_location
from printshop.write.cache import key_of

PREVIEW_DPI = 110  # enough to read a card's smallest text on screen
ZOOM_DPI = (
    2 * PREVIEW_DPI
)  # the image a click on a face opens: a sheet or board read closely, a card's detail


@dataclass
class FaceView:
    token: str
    game: str
    lang: str
    key: str  # "roles/informer/front", "sheet/board/"
    face: object  # FaceLayout
    paints: object
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
    # the names of its face in faces.yaml and of those it extends: a diagnostic written in one concerns this face
    definitions: tuple = ()

    @property
    def place(self) -> tuple[str, str, str]:
        return self.game, self.lang, self.key


def _say(line: str) -> None:
    print(f"printshop serve: {line}", file=sys.stderr, flush=True)


def _face_views(
    session: Session,
    booklets: dict | None = None,
    later: list | None = None,
    stop: threading.Event | None = None,
) -> list[FaceView]:
    """The faces of the session's layouts, each game's and language's rules pages after them. `booklets`:
    {(game, lang): Booklet} of the last refresh, replaced by this one's (a booklet unchanged is kept). With
    `later`, a booklet to render again is not rendered: (game, lang) is added to `later`, and the pages it
    had are shown meanwhile, greyed as `pending` (`Preview.refresh` renders it after the faces are on the page).
    Once `stop` is set, no booklet is rendered (the server is stopping)."""
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
        # a draft shows the texts it lacks from the language it is made from: their lines there are what it prints
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
                    texts + borrowed + frames,
                    templates.get(name, ""),
                    art=tuple(art_of([face.face])),
                    definitions=definition_chain(game_faces, face.face_name),
                )
            )
        if stop is None or not stop.is_set():
            views += _page_views(
                session, layout, project, paints, catalogue, reference, earlier, booklets, later
            )
    return views


class Booklet:
    """A game's rules booklet in one language as serve shows it: the A5 booklet `build` writes (`rules-a5`),
    rendered once for what it is made from and kept while that is the same (`holds`): a save of a card's text,
    or of a colour or motif it does not use, keeps every booklet; a save of a rule renders the one booklet it
    is in. Its pages are `BookletPage`s, each shown as an image rasterised from the PDF; `texts` is each page's
    text as `words` gives it, for `pages_of`."""

    def __init__(
        self,
        key: str,
        data: bytes,
        count: int,
        colours: dict,
        motifs: dict,
        fonts,
        texts: list[str] | None = None,
    ):
        self.key, self.data = key, data
        self.fonts = (
            fonts  # the FontSet it was set in (held: an id alone may be given again to a later set)
        )
        self.colours, self.motifs = colours, motifs  # {name: value} of those its drawing read
        self.pages = [BookletPage(self, index) for index in range(count)]
        self.words = texts if texts is not None else [" "] * count
        self.texts = [page.replace(" ", "") for page in self.words]  # as `letters` gives it
        self._found: dict[
            str, tuple[int, ...] | None
        ] = {}  # a text -> pages_of it, for the next refresh

    def holds(self, key: str, palette: dict, motifs: dict, fonts) -> bool:
        return (
            key == self.key
            and fonts is self.fonts
            and unchanged(self.colours, palette)
            and unchanged(self.motifs, motifs, motif_key)
        )

    def pages_of(self, text: str) -> tuple[int, ...] | None:
        """The pages (0-based) that print `text` (a rule as its file has it), or None where it cannot be told:
        it has fewer than `SHORTEST_WORDS` letters between its placeholders ("A", "{n}"). A text is looked for a
        piece at a time (`SEARCHED` letters of it, between its placeholders) in the pages' own text, so one
        paragraph running over two pages is on both, and a text the template does not print is on none. A
        short one ("Setup", "Purge {number}") is looked for as whole words: "Setup" is on the pages that have
        the word, not on those where "setup" is part of "setups"."""
        found = self._found.get(text, False)
        if found is False:
            found = self._found[text] = _pages_of(text, self.texts, self.words)
        return found


SEARCHED = 24  # letters: a piece of a rule this long is found where it is printed, not in another text by chance
SHORTEST = (
    6  # letters: a shorter piece between placeholders ("Oui", "de") is not looked for as letters...
)
SHORTEST_WORDS = (
    2  # ...but as whole words, if it has this many letters: "As" is, "A" is not (every page has it)
)
_MARKUP = re.compile(r"<[^>]*>")
_WORD = re.compile(
    r"[^\W_]+"
)  # a run of letters and digits (str.isalnum's), as `letters` keeps them


def letters(text: str) -> str:
    """The letters and digits of a text, case folded: what a page's text and a rule's share however the page set
    it (its lines broken and words hyphenated, its spaces made no-break, its headings in capitals)."""
    return "".join(character for character in text.casefold() if character.isalnum())


def words(text: str) -> str:
    """The runs of letters and digits of a text, case folded, each between single spaces (" set up the board
    "): `letters` with the words told apart, to find a short text as whole words."""
    return f" {' '.join(_WORD.findall(text.casefold()))} "


def _pages_of(text: str, pages: list[str], page_words: list[str]) -> tuple[int, ...] | None:
    from printshop.language.texts import _PLACEHOLDER

    plain = html.unescape(_PLACEHOLDER.sub("\x00", _MARKUP.sub(" ", text)))
    parts = plain.split("\x00")
    pieces = [piece for piece in (letters(part) for part in parts) if len(piece) >= SHORTEST]
    if not pieces:
        phrases = [words(part) for part in parts if len(letters(part)) >= SHORTEST_WORDS]
        if not phrases:
            return None
        return tuple(
            index
            for index, page in enumerate(page_words)
            if all(phrase in page for phrase in phrases)
        )
    runs = set()
    for piece in (
        pieces
    ):  # every run of SEARCHED letters, and the last: a page break may fall anywhere in it
        runs.update(
            piece[start : start + SEARCHED]
            for start in range(0, max(len(piece) - SEARCHED, 0) + 1, SEARCHED)
        )
        runs.add(piece[-SEARCHED:])
    return tuple(index for index, page in enumerate(pages) if any(run in page for run in runs))


def page_texts(data: bytes) -> list[str]:
    """Each page's text of a PDF, as `words` gives it; once per process for the same bytes (a booklet rendered
    before, in this session or another, is given again as the same bytes: render/booklet.py)."""
    import pypdfium2

    known = _PAGE_TEXTS.get(data)
    if known is not None:
        return list(known)
    with _PDFIUM:
        document = pypdfium2.PdfDocument(data)
        try:
            texts = [
                words(document[index].get_textpage().get_text_range())
                for index in range(len(document))
            ]
        finally:
            document.close()
    _PAGE_TEXTS[data] = tuple(texts)
    return texts


# the page texts of the booklets read last, by their bytes (held by the key: a booklet is 100 KB or so)
_PAGE_TEXTS: Memo = Memo(64)


@dataclass(eq=False)
class BookletPage:
    """A page of a `Booklet`: what a `FaceView` of the booklet shows in place of a face (its token is given to
    the page object, as to a face: kept while the booklet is)."""

    booklet: Booklet
    index: int
    face_name: str = ""  # (no face of faces.yaml makes it)


def _booklet_key(layout, project, paper) -> str:
    """What the booklet's pages are made from, but the colours and motifs (`Booklet.holds` compares those it read):
    its blocks (the rules' texts as the template set them), the booklet's style, the page, the language's
    typography and labels, the game's title (the fonts registered: `Booklet.holds` compares the set)."""
    localized = layout.localized
    return key_of(
        layout.game_id,
        layout.lang,
        localized.variant,
        localized.draft,
        layout.title,
        repr(layout.booklet.blocks),
        layout.booklet.style.model_dump_json(),
        localized.language.model_dump_json(),
        repr(paper),
    )


def _page_views(
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
    """The pages of the game's rules booklet in this language, after its faces (`rules/1`, `rules/2`...): the
    rules are most of what a translator translates. Their sources: the lines of the texts each prints. With
    `later` (see `_face_views`), a booklet to render again is left for later, its earlier pages shown greyed."""
    from printshop.project.paths import output_name
    from printshop.render.booklet import render_booklet

    if layout.booklet is None:
        # (an error stops it: its last pages are kept, shown greyed while the error lasts, and then while it is set
        # again, rather than gone in between)
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
    key, fonts = _booklet_key(layout, project, paper), session.checked.fonts
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
        # a style in a colour or font there is not is set all the same, in magenta, as a face's frame is
        stood_in = dataclasses.replace(paints, palette=StandIn(colours))
        try:
            data, count = render_booklet(
                layout, stand_in_booklet(layout.booklet, fonts), paper, stood_in, drawn, file_name
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
    # each page's sources: the lines of the texts it prints, found in its own text (a text the template read that
    # cannot be told apart, a letter or a placeholder alone: every page's)
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
    """{faces file as displayed: (the line each face's definition starts on, sorted; (game, face) of each)}: a
    line of the file belongs to the definition that starts last before it (faces.yaml's entries follow one
    another under `faces:`), however it is written (a flow mapping on one line, a block over twenty)."""
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


def keep_stale(earlier: list[FaceView], now: list[FaceView]) -> list[FaceView]:
    """`now`, with each face of `earlier` it lacks kept beside the faces it followed, marked stale: while the
    data has errors, a face an error stops (a template that no longer compiles, a card whose text is broken,
    a file that cannot be read) stays on the page as last drawn rather than vanishing from under the eyes
    of the one mending it. Once the data has no error, a face still missing is gone from the data."""
    present = {view.place for view in now}
    after: dict[tuple | None, list[FaceView]] = {}
    anchor = None
    for view in earlier:
        if view.place in present:
            anchor = view.place
        else:
            after.setdefault(anchor, []).append(
                view if view.stale else dataclasses.replace(view, stale=True)
            )
    merged = list(after.get(None, []))
    for view in now:
        merged.append(view)
        merged.extend(after.get(view.place, []))
    return merged


def face_png(view: FaceView, dpi: int = PREVIEW_DPI) -> bytes:
    """The face alone, with its bleed, as a PNG (`face_pngs` of this face alone)."""
    return face_pngs([view], dpi)[0]


def face_pngs(views: list[FaceView], dpi: int = PREVIEW_DPI) -> list[bytes]:
    """The images of `views`: the faces drawn together (`_face_pngs`), a rules page rasterised from its booklet."""
    faces = iter(
        _face_pngs([view for view in views if not isinstance(view.face, BookletPage)], dpi)
    )
    return [
        page_png(view.face, dpi) if isinstance(view.face, BookletPage) else next(faces)
        for view in views
    ]


def page_png(page: BookletPage, dpi: int = PREVIEW_DPI) -> bytes:
    """A page of a rules booklet as a PNG, from the PDF `build` would write."""
    import pypdfium2

    from printshop.render.raster import png

    with _PDFIUM:
        document = pypdfium2.PdfDocument(page.booklet.data)
        try:
            image = (
                document[page.index].render(scale=dpi / 72, rev_byteorder=True).to_numpy()
            )  # RGB rows
        finally:
            document.close()
    return png(image, level=1)


def _face_pngs(views: list[FaceView], dpi: int = PREVIEW_DPI) -> list[bytes]:
    """Each face alone, with its bleed, as a PNG: drawn into one PDF, a page each, rasterised by pdfium. A text
    that does not fit is drawn cut at its frame, with the (magenta) overset mark (render/faces.py), not left out.

    The faces share the PDF, so each font is embedded once for all of them: drawn a PDF each, the font subsets
    were most of an image's time (a dozen faces together take a third of the time they take one by one). The
    PDF is not compressed either: it lives only until pdfium has read it. The images are those of a PDF each."""
    if not views:
        return []
    import pypdfium2
    from reportlab.pdfgen.canvas import Canvas

    from printshop.render.faces import draw_face
    from printshop.render.raster import png

    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, initialFontName="sans", pageCompression=0)
    for view in views:
        face = view.face
        canvas.setPageSize((face.width + 2 * face.bleed, face.height + 2 * face.bleed))
        canvas.translate(face.bleed, face.bleed)
        # a text too long shows how far it runs (`overset`); a colour the palette lacks (a name mistyped, or taken
        # out of colours.yaml while faces still use it) is drawn in the overset's magenta, and an image or motif
        # that is not there is an empty frame in magenta, crossed and named (`stand_ins`): not a broken image
        paints = dataclasses.replace(view.paints, palette=StandIn(view.paints.palette))
        draw_face(canvas, face, paints, view.motifs, view.assets, overset=True, stand_ins=True)
        canvas.showPage()
    canvas.save()
    with _PDFIUM:
        document = pypdfium2.PdfDocument(buffer.getvalue())
        try:
            images = [
                document[index].render(scale=dpi / 72, rev_byteorder=True).to_numpy()  # RGB rows
                for index in range(len(views))
            ]
        finally:
            document.close()
    return [
        png(image, level=1) for image in images
    ]  # shown at once on this machine: the fastest deflate


PREVIEW_BATCH = 12  # faces drawn into one PDF for their images: a screenful or two of the page
BATCH_WAIT = (
    30.0  # seconds a request waits for a face another request is drawing, then draws it itself
)


def _drawn_alone(view: FaceView, dpi: int) -> bytes | None:
    """`face_png`, or None for a face that cannot be drawn."""
    try:
        return face_png(view, dpi)
    except Exception:  # noqa: BLE001 - the page shows it as not drawn, beside its errors
        return None


# pdfium may not be called from two threads at once, not even on two documents (pypdfium2's documentation): the
# page asks for its faces' images all together, and the server draws them on a pool of threads. Unguarded, a
# Kremlin page failed some ("Failed to load page") and crashed the server now and then (malloc: heap corrupted).
# The drawing itself (ReportLab, each face its own canvas) runs side by side; only the rasterising waits its turn.
_PDFIUM = threading.Lock()


def line_ranges(lines) -> str:
    """Line numbers as a reader scans them: [7, 8, 9, 12, 145] -> "7–9, 12, 145" (0, unknown, left out)."""
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
    """A face's sources by file, in the order it reads them: the path, the path within the game's folder
    (`folder`, as displayed), and the lines."""
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


def _diagnostic(number: int, d: Diagnostic, faces: list[str], pages: int = 0) -> dict:
    """`faces`: the tokens of the faces and rules pages it leads to; `pages`: how many of them are rules pages."""
    return {
        "id": number,
        "text": d.format(),
        "severity": d.severity.value,
        "code": d.code,
        "message": printable(d.message),
        "where": str(d.location),
        "acknowledged": printable(d.acknowledged),
        "hint": d.hint,
        "also": d.also,
        "path": d.location.path,
        "line": d.location.line,
        "faces": faces,
        "pages": pages,
    }


class Preview:
    """The session, the current faces and their images, shared by the watching thread and the server."""

    def __init__(self, session: Session):
        self.session = session
        self.lock = threading.Lock()
        self.views: dict[str, FaceView] = {}
        # a face's token, by the face: this server's own mark and a number it never gave before. The image a
        # token names is cached by the browser for good, so a token must never name another face: id(face) did
        # not promise that (a face laid out where a freed one was got its id, and its image), nor would a count
        # alone across a restart of serve with the page left open
        self._tokens: dict[int, tuple[object, str]] = {}
        self._mark = secrets.token_hex(3)
        self._serial = itertools.count(1)
        self.images: dict[str, bytes] = {}
        self._drawing: dict[
            str, threading.Event
        ] = {}  # faces a request is drawing: set once their images are kept
        self._fresh: set[str] = (
            set()
        )  # the tokens the last refresh gave: the faces it changed (at first, all)
        self.state: dict = {}
        self._blocks: dict = {}  # face_blocks of the project last read
        self._drafts: dict[
            tuple[str, str], str
        ] = {}  # (game, lang) -> the draft label of a translation shown unfinished
        self._booklets: dict = {}  # (game, lang) -> the rules booklet shown (Booklet), kept while its content is
        self._later: list = []  # (game, lang) of the booklets the last refresh left to `render_pages`
        self._update = None  # the session's last update (what `render_pages` shows its pages with)
        self.version = 0
        self.listeners: set[asyncio.Queue] = set()
        self.loop: asyncio.AbstractEventLoop | None = None

    def refresh(self, changed: set[Path] | None = None, *, pages: bool = True) -> None:
        """Read what changed and show it: the faces first; then (`pages`; else `render_pages` does it) the rules
        booklets to render again, which take about as long as every face of a game: a face saved is on the page
        without waiting for them, the pages they had shown greyed until then."""
        with self.lock:
            update = self.session.refresh(changed)
            later: list = []
            views = _face_views(self.session, self._booklets, later)
            self._later, self._update = later, update
            self._show(views, update)
        self._announce()
        if pages:
            self.render_pages()

    def render_pages(self, stop: threading.Event | None = None) -> None:
        """Render the booklets the last refresh left for later, and show their pages (on the refreshing thread,
        outside the lock: the page's images are drawn meanwhile). Once `stop` is set, the booklet being rendered is
        the last: the server is stopping (Ctrl-C waited for every game's booklets)."""
        if not self._later:
            return
        booklets = dict(self._booklets)
        views = _face_views(self.session, booklets, stop=stop)
        if stop is not None and stop.is_set():
            return
        with self.lock:
            self._later, self._booklets = [], booklets
            self._show(views, self._update, more=True)
        self._announce()

    def _show(self, views: list[FaceView], update, more: bool = False) -> None:
        self._give_tokens(views, more)
        if not update.ok:
            views = keep_stale(list(self.views.values()), views)
        self.views = {view.token: view for view in views}
        self._tokens = {
            id(view.face): (view.face, view.token) for view in views
        }  # (the faces kept alive)
        self.images = {token: data for token, data in self.images.items() if token in self.views}
        self.version += 1
        self.state = self._state(update)

    def _give_tokens(self, views: list[FaceView], more: bool = False) -> None:
        """A token for each view: its face's, if the face was shown before; else a new one, noted as fresh (`more`:
        added to those the refresh before gave, as its booklets' pages come after its faces)."""
        if not more:
            self._fresh = set()
        for view in views:
            known = self._tokens.get(id(view.face))
            if known is not None and known[0] is view.face:
                view.token = known[1]
            else:
                view.token = f"{self._mark}-{next(self._serial):x}"
                self._fresh.add(view.token)

    def _state(self, update) -> dict:
        by_place: dict[tuple[str, int], list[str]] = {}
        by_template: dict[str, list[str]] = {}
        for view in self.views.values():
            for path, line in view.sources:
                by_place.setdefault((path, line), []).append(view.token)
            if (
                view.stale and view.template
            ):  # stopped, maybe by its template: an error there leads to it
                by_template.setdefault(view.template, []).append(view.token)
        project = self.session.project
        if (
            project is not None
        ):  # the faces' definitions as the data now has them; else as it last had them
            self._blocks = face_blocks(project)
        blocks = self._blocks
        by_definition: dict[
            tuple[str, str], list[str]
        ] = {}  # (game, face in faces.yaml) -> the faces made from it
        for view in self.views.values():
            game = (
                project.games.get(view.game) if project is not None else None
            )  # (a face kept: as now written)
            for name in (
                definition_chain(game.faces, view.face.face_name) if game else view.definitions
            ):
                by_definition.setdefault((view.game, name), []).append(view.token)
        diagnostics = []
        for number, d in enumerate(update.report.sorted()):
            faces = by_place.get((d.location.path, d.location.line), []) + by_template.get(
                d.location.path, []
            )
            # written in a face's definition (a frame's font, a shape's colour); or, leading to no face by where it
            # is written, about a frame there ("frame: data/g/faces.yaml:29:30", a template without its block)
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
            pages = sum(
                isinstance(self.views[token].face, BookletPage)
                for token in faces
                if token in self.views
            )
            diagnostics.append(_diagnostic(number, d, faces, pages))
        games: dict[str, dict] = {}
        # an unfinished translation shown as a draft: its label, in its own language ("ENTWURF, 12 % übersetzt")
        # (kept from the refresh before while an error stops the layout: its faces are shown greyed, as they were)
        if self.session.checked is not None:
            self._drafts = {
                (layout.game_id, layout.lang): layout.localized.draft
                for layout in self.session.checked.layouts
                if layout.localized.draft
            }
        drafts = self._drafts
        for view in self.views.values():
            game = games.setdefault(
                view.game, {"id": view.game, "langs": [], "rows": {}, "drafts": {}}
            )
            if (view.game, view.lang) in drafts:
                game["drafts"][view.lang] = drafts[(view.game, view.lang)]
            if view.lang not in game["langs"]:
                game["langs"].append(view.lang)
            game["rows"].setdefault(view.key, {})[view.lang] = {
                "token": view.token,
                "image": f"/face/{view.token}.png",
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
        return {
            "version": self.version,
            "ok": update.ok,
            "seconds": round(update.seconds, 3),
            "readable": self.session.project is not None,
            "empty": self.session.project is not None
            and not self.session.project.games,  # a new project
            "diagnostics": diagnostics,
            "games": [
                {
                    "id": g["id"],
                    "langs": g["langs"],
                    "drafts": g["drafts"],
                    "variant": self._variant(g["id"]),
                    "rows": [{"key": key, "faces": faces} for key, faces in g["rows"].items()],
                }
                for g in games.values()
            ],
        }

    def _variant(self, game_id: str) -> str:
        """The naming variant the game is shown in (`serve --variant`), if the game has it; else ''."""
        variant, project = self.session.variant, self.session.project
        game = project.games.get(game_id) if project is not None else None
        return variant if variant and game is not None and variant in game.game.variants else ""

    def image(self, token: str, zoom: bool = False) -> bytes | None:
        """The face's image; `zoom`: at ZOOM_DPI, drawn when asked and not kept (one face looked at closely).

        An image asked for and not drawn yet is drawn with the faces after it on the page that the last refresh
        changed and are not drawn either (`_batch`), up to PREVIEW_BATCH, into one PDF (`face_pngs`); they are kept
        for when the page asks. A face another request is drawing is waited for, not drawn twice."""
        if zoom:
            with self.lock:
                view = self.views.get(token)
            return _drawn_alone(view, ZOOM_DPI) if view is not None else None
        with self.lock:
            data, view = self.images.get(token), self.views.get(token)
            if view is None or data is not None:
                return data
            drawing = self._drawing.get(token)
            batch = None if drawing is not None else self._batch(token, view)
            if batch is not None:
                drawing = threading.Event()
                for other, _ in batch:
                    self._drawing[other] = drawing
        if (
            batch is None
        ):  # another request is drawing it: its image, or None if it could not be drawn
            finished = drawing.wait(BATCH_WAIT)
            with self.lock:
                data = self.images.get(token)
            return (
                data
                if data is not None or finished
                else self._keep(token, _drawn_alone(view, PREVIEW_DPI))
            )
        try:
            try:
                images: list[bytes | None] = list(face_pngs([one for _, one in batch]))
            except Exception:  # noqa: BLE001 - a face that cannot be drawn: the others in its batch still are
                images = [_drawn_alone(one, PREVIEW_DPI) for _, one in batch]
            for (other, _), image in zip(batch, images):
                self._keep(other, image)
        finally:
            with self.lock:
                for other, _ in batch:
                    if self._drawing.get(other) is drawing:
                        del self._drawing[other]
            drawing.set()
        return images[0]

    def _batch(self, token: str, view: FaceView) -> list[tuple[str, FaceView]]:
        """(token, view) of the face asked for, then of the faces after it on the page, of the same game and
        language, that the last refresh changed (at the first, every face) and are neither drawn nor being drawn:
        faces the page will ask for. Not the faces an earlier refresh made that the page never asked for (out of
        sight, below the fold): after an edit of one text, the image of its card alone is drawn, at once.
        Called with the lock held."""
        tokens = list(self.views)
        batch = [(token, view)]
        for other in tokens[tokens.index(token) + 1 :]:
            candidate = self.views[other]
            if len(batch) == PREVIEW_BATCH or (candidate.game, candidate.lang) != (
                view.game,
                view.lang,
            ):
                break
            if other in self._fresh and other not in self.images and other not in self._drawing:
                batch.append((other, candidate))
        return batch

    def _keep(self, token: str, image: bytes | None) -> bytes | None:
        if image is not None:
            with self.lock:
                if token in self.views:
                    self.images[token] = image
        return image

    def hang_up(self) -> None:
        """End every page's event stream: the server is stopping. An open page kept its stream, and with it
        uvicorn's shutdown, waiting: Ctrl-C left `printshop serve` running while a browser had the page."""
        loop = self.loop
        if loop is None:
            return
        for queue in list(self.listeners):
            loop.call_soon_threadsafe(queue.put_nowait, None)

    def _announce(self) -> None:
        loop = self.loop
        if loop is None:
            return
        for queue in list(self.listeners):
            loop.call_soon_threadsafe(queue.put_nowait, self.version)


def make_app(preview: Preview):
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    page = resources.files("printshop").joinpath("static/serve.html").read_text(encoding="utf-8")

    async def index(request):
        return HTMLResponse(page)

    async def state(request):
        return JSONResponse(preview.state, headers={"Cache-Control": "no-store"})

    async def face(request):
        token, zoom = request.path_params["token"], False
        if token.endswith("@2x"):
            token, zoom = token[:-3], True
        data = await asyncio.get_running_loop().run_in_executor(None, preview.image, token, zoom)
        if data is None:
            return Response(status_code=404)
        # a token names one laid-out face: its image never changes
        return Response(
            data, media_type="image/png", headers={"Cache-Control": "max-age=3600, immutable"}
        )

    async def events(request):
        queue: asyncio.Queue = asyncio.Queue()
        preview.loop = asyncio.get_running_loop()
        preview.listeners.add(queue)

        async def stream():
            try:
                # retry: a page that lost the server (stopped, started again) asks again every second
                yield f"retry: 1000\ndata: {preview.version}\n\n"
                while True:
                    try:
                        version = await asyncio.wait_for(queue.get(), timeout=15)
                        if version is None:  # the server is stopping (`Preview.hang_up`)
                            break
                        yield f"data: {version}\n\n"
                    except asyncio.TimeoutError:
                        yield ": still here\n\n"  # keeps proxies and the browser from closing the stream
                    if await request.is_disconnected():
                        break
            finally:
                preview.listeners.discard(queue)

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
        )

    @contextlib.asynccontextmanager
    async def lifespan(app):
        preview.loop = asyncio.get_running_loop()  # where the watching thread announces changes
        yield

    return Starlette(
        routes=[
            Route("/", index),
            Route("/state", state),
            Route("/events", events),
            Route("/face/{token}.png", face),
        ],
        lifespan=lifespan,
    )


class AddressUnavailable(Exception):
    """The address to listen on is taken or cannot be had: the user's to change (--port, --host)."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port) and listening, made here rather than by uvicorn so that a port in use
    is a message saying what to do, not an error inside the server's thread."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM
        )[0]
    except socket.gaierror as error:
        raise AddressUnavailable(
            f"cannot listen on {host}: {error.strerror or error} (--host)"
        ) from None
    sock = socket.socket(family, kind, protocol)
    try:
        sock.setsockopt(
            socket.SOL_SOCKET, socket.SO_REUSEADDR, 1
        )  # a server just stopped: its port again
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise AddressUnavailable(
                f"port {port} on {host} is in use (another printshop serve?): name another "
                f"with --port, or --port 0 for any free one"
            ) from None
        raise AddressUnavailable(
            f"cannot listen on {host} port {port}: {error.strerror or error}"
        ) from None
    return sock


class Server:
    """The page's server and the watcher in this process; `start()` returns once it listens."""

    def __init__(self, session: Session, host: str = "127.0.0.1", port: int = 8000):
        self.preview = Preview(session)
        self.host, self.port = host, port
        self.stop = threading.Event()
        self._server = None
        self._socket: socket.socket | None = None
        self._failure: BaseException | None = None
        self._threads: list[threading.Thread] = []

    def watch_files(self, watcher: FileWatcher) -> None:
        try:  # the first refresh's rules pages, once the page is served (a save meanwhile is watched for)
            self.preview.render_pages(self.stop)
        except Exception as error:  # noqa: BLE001 - as a refresh's failure
            _say(f"rendering the rules pages failed: {type(error).__name__}: {error}")
        try:
            for changed in watcher.changes(self.stop):
                try:
                    self.preview.refresh(changed)
                except Exception as error:  # noqa: BLE001 - the server outlives any one bad refresh
                    _say(f"refreshing failed: {type(error).__name__}: {error}")
        except Exception as error:  # noqa: BLE001 - said, not lost in a thread
            _say(
                f"no longer watching the files ({type(error).__name__}: {error}); "
                f"the page shows the last state until the server is started again"
            )

    def serve(self, started: threading.Event | None = None) -> None:
        """Run until `stop` is set or Ctrl-C (blocking)."""
        import uvicorn

        if self._socket is None:
            self._socket = listening_socket(
                self.host, self.port
            )  # AddressUnavailable before anything else
            self.port = self._socket.getsockname()[1]
        # watching starts before the first refresh: a save made while it runs is not missed
        watcher = FileWatcher(watched_folders(self.preview.session), say=_say)
        try:
            self.preview.refresh(
                pages=False
            )  # the faces; the watching thread renders the rules pages
            config = uvicorn.Config(
                make_app(self.preview),
                host=self.host,
                port=self.port,
                log_level="warning",
                lifespan="on",
                timeout_graceful_shutdown=2,
            )  # nothing a page asks for is long
            self._server = uvicorn.Server(config)
            watching = threading.Thread(
                target=self.watch_files, args=(watcher,), name="printshop-watch", daemon=True
            )
            watching.start()
        except (
            BaseException
        ):  # the watching thread, which closes the watcher when it ends, never started
            watcher.close()
            raise
        self._threads.append(watching)
        if started is not None:
            threading.Thread(target=self._tell_when_listening, args=(started,), daemon=True).start()
        try:
            self._server.run(sockets=[self._socket])
        finally:
            self.stop.set()
            self._socket.close()

    def _tell_when_listening(self, started: threading.Event) -> None:
        while not self.stop.is_set():
            server = self._server
            if (
                server is not None and server.started
            ):  # (on the socket `listening_socket` made: port known)
                started.set()
                return
            self.stop.wait(0.02)

    def start(self) -> "Server":
        """Serve from a background thread (tests, scripts); returns once listening, `self.port` set."""
        self._socket = listening_socket(
            self.host, self.port
        )  # a port in use: AddressUnavailable, here
        self.port = self._socket.getsockname()[1]
        started = threading.Event()

        def serving():
            try:
                self.serve(started)
            except BaseException as error:  # noqa: BLE001 - raised again by start(), in the caller's thread
                self._failure = error

        thread = threading.Thread(target=serving, name="printshop-serve", daemon=True)
        thread.start()
        self._threads.append(thread)
        while not started.wait(0.05):
            if not thread.is_alive():
                if self._failure is not None:
                    raise self._failure
                raise RuntimeError("the preview server did not start")
        return self

    def close(self) -> None:
        self.stop.set()
        self.preview.hang_up()  # open pages' event streams end: the shutdown need not wait for them
        if self._server is not None:
            self._server.should_exit = True
        for thread in self._threads:
            thread.join(timeout=10)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"
