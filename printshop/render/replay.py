"""Replaying a face's drawing into a new PDF, so a long-running session redraws only changed faces.

A face is drawn into a Form XObject (render/sheets.py's card sheets, render/sheet_pages.py's player
sheets and boards, render/press.py's press pages). Its content stream depends on the face and on the
document's state at that moment: which font subset and code each character was given when the
document first used it, and the internal names of fonts. A `FaceRecordings` store keeps, per
laid-out face, the stream drawing produced and every question the drawing asked the document
(`splitString`, `getSubsetInternalName`, `getInternalFontName`, `addColor`) with its answer. To
replay, the same questions are asked again in the same order of the new document: the answers change
its state exactly as drawing would, and if every answer is the same the recorded stream is the
stream drawing would write. If one differs (an earlier face now brings a character first), the face
is drawn for real; the questions already asked leave the state as drawing's first questions would,
and asking again changes nothing, so the bytes are still those of a cold build.

A page's content stream is compressed and formatted once too: `remember_page_streams` gives each
page of a canvas a stream object whose formatted bytes the store keeps by the digest of its content,
so a page that comes out as it was (all but the page of the edited card) is neither compressed nor
formatted again. Those bytes do not depend on where the stream sits in the file: its dictionary
holds only its length and filters, and the page that refers to it is formatted as before.

In a build, `draw_face_form` draws, unless a session has set `recordings`; a build with a helper
process (render/helper.py) records the helper's faces with `record_face` and places them with
`replay`. A recording made in a document seeded by render/helper.py that had named and numbered
nothing beyond its seed is `sealed` with the seed's digest, and `replay` places it without asking in
any document with the same seed.
"""

from __future__ import annotations

import contextvars
import hashlib
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.ttfonts import TTFont

from printshop import memos
from printshop.memo import Memo, Reads, unchanged, values_of
from printshop.render.faces import draw_face, face_motifs
from printshop.render.helper import seed_of, still_seeded
from printshop.typeset.icons import draws_images
from printshop.typeset.richtext import Figure, Img

# a session sets this around its renders; builds leave it None
recordings: contextvars.ContextVar["FaceRecordings | None"] = contextvars.ContextVar(
    "face_recordings", default=None
)


@dataclass
class Recording:
    code: list[str]  # the form's content stream, as canvas._code holds it
    questions: list[tuple]  # (kind, subject, argument, answer), in the order drawing asked them
    colours: dict  # canvas._colorsUsed when the form ended
    shadings: dict
    formatted: bytes | None = None  # the form object as the PDF writes it (see `_format_once`)
    # the digest of the seed of the document it was drawn in, if that document had named and
    # numbered nothing beyond its seed when the face was drawn (render/helper.py): in a document
    # with the same seed, every answer is the same and asking changes nothing, so it is placed
    # without asking
    sealed: str | None = None
    # the palette's names the drawing read, with their values: the recording stands while those are
    # the same
    palette: dict = field(default_factory=dict)
    # the PDF features drawing asked the document to be new enough for (ensureMinPdfVersion:
    # ReportLab asks for 'transparency' whenever a colour with an alpha is set, even an opaque one),
    # asked again when it is placed
    versions: tuple = ()
    # drawing set an opacity, overprint or blend mode (the canvas's ExtGState): never replayed, as
    # the resources that state needs are the canvas's, not the recording's (printshop sets none; a
    # face that did is drawn)
    graphics_state: bool = False


class FaceRecordings:
    """Recordings by laid-out face. A session keeps a face's `FaceLayout` object for as long as its
    inputs are unchanged and lays out a new object otherwise, so the object identifies what was
    drawn; `setting` names everything else the drawing reads (colour mode, motifs, image folder) but
    the palette, whose colours each recording holds those it read of (`Recording.palette`)."""

    def __init__(self) -> None:
        self._store: dict[tuple, tuple[object, Recording]] = {}
        self.drawn = 0  # faces drawn for real since the last `reset_counts`
        self.replayed = 0
        # page content streams as the PDF writes them, by the digest of their content (see the
        # module's doc)
        self.page_streams: Memo = Memo(4096)
        # rules booklets (and how-to pages) rendered, by what they are made from (render/booklet.py,
        # `_remembered`)
        self.booklets: Memo = Memo(128)

    def reset_counts(self) -> None:
        self.drawn = self.replayed = 0

    def keep_only(self, faces) -> None:
        """Forget the recordings of faces no longer laid out (their objects may then be freed)."""
        alive = {id(face) for face in faces}
        self._store = {key: value for key, value in self._store.items() if key[0] in alive}

    def get(self, face, setting, palette: dict) -> Recording | None:
        found = self._store.get((id(face), setting))
        if found is None or found[0] is not face:
            return None
        recording = found[1]
        return recording if unchanged(recording.palette, palette) else None

    def put(self, face, setting, recording: Recording) -> None:
        self._store[(id(face), setting)] = (
            face,
            recording,
        )  # the face is held, so its id is not reused


@contextmanager
def recording_into(store: FaceRecordings):
    token = recordings.set(store)
    try:
        yield store
    finally:
        recordings.reset(token)


def remember_page_streams(canvas) -> None:
    """In a session (`recordings` set), give each page the canvas ends a content stream that is
    formatted once per content (see the module's doc); in a build, nothing."""
    store = recordings.get()
    if store is None:
        return
    doc = canvas._doc
    original = type(doc).addPage

    def add_page(page, doc=doc):
        # the stream PDFPage.check_format would make, made here so that its formatting is remembered
        if (
            not page.Contents
            and page.stream
            and page.compression
            and not page.Override_default_compilation
        ):
            page.Contents = _RememberedStream(page.stream, store.page_streams)
        return original(doc, page)

    doc.addPage = add_page


class _RememberedStream(pdfdoc.PDFStream):
    __Comment__ = "page stream"

    def __init__(self, content: str, memo: Memo):
        super().__init__(
            content=content,
            filters=[pdfdoc.PDFBase85Encode, pdfdoc.PDFZCompress]
            if rl_config.useA85
            else [pdfdoc.PDFZCompress],
        )
        self._memo = memo

    def format(self, document) -> bytes:
        if not isinstance(document.encrypt, pdfdoc.NoEncryption):
            return super().format(document)
        key = (
            hashlib.blake2b(self.content.encode("utf-8", "surrogatepass"), digest_size=20).digest(),
            tuple(f.pdfname for f in self.filters),
        )
        formatted = self._memo.get(key)
        if formatted is None:
            formatted = self._memo[key] = super().format(document)
        return formatted


def draw_face_form(canvas, face, paints, motifs, assets, *, form: bool = True) -> None:
    """Draw `face` into the form the canvas has begun (or, `form=False`, into the page at the
    current origin), or replay its recording when a session keeps one."""
    store = recordings.get()
    if store is None or has_images(
        face
    ):  # images go through the document's image store: always drawn
        draw_face(canvas, face, paints, motifs, assets)
        return
    setting = (paints.mode, _motifs_key(motifs, face_motifs(face)), str(assets))
    recording = store.get(face, setting, paints.palette)
    if recording is not None and replay(canvas, recording):
        store.replayed += 1
    else:
        recording = record_face(canvas, face, paints, motifs, assets)
        store.put(face, setting, recording)
        store.drawn += 1
        for name in (
            recording.palette
        ):  # what it read, asked of the output's palette too (colour.noting_colours)
            paints.palette.get(name)
    if form:
        _format_once(canvas, recording)


def _motifs_key(motifs: dict, names: set[str]) -> tuple:
    """The motifs `names` (those a face draws, faces.face_motifs) by content: a project read again
    (a colour or another motif saved) gives equal motifs in new objects, whose faces' recordings
    still stand."""
    return tuple((name, motif_key(motifs.get(name))) for name in sorted(names))


def motif_key(motif) -> str | None:
    """A motif's content, as a short digest, worked out once per object (None: no such motif)."""
    if motif is None:
        return None
    known = _MOTIF_KEYS.get(id(motif))
    if known is None or known[0] is not motif:
        digest = hashlib.blake2b(motif.model_dump_json().encode(), digest_size=16).hexdigest()
        known = _MOTIF_KEYS[id(motif)] = (motif, digest)
        if len(_MOTIF_KEYS) > 1024:  # motifs of the projects read lately: keep only the recent ones
            for stale in list(_MOTIF_KEYS)[:512]:
                del _MOTIF_KEYS[stale]
    return known[1]


_MOTIF_KEYS = memos.MOTIF_KEYS


def _format_once(canvas, recording: Recording) -> None:
    """Keep the bytes the PDF writes for the face's form object, and give them again next time.

    The form's bytes are its stream and its resources: the stream is the recording's, the resources
    name the colour spaces the recording restores and the document's font dictionary; none depends
    on where the form sits in the file. The canvas ends the form after this returns, handing it to
    the document's `addForm`, which is where the form object is met."""
    doc = canvas._doc
    add_form = doc.__dict__.get("addForm")
    if add_form is None:
        original = type(doc).addForm

        def add_form(name, form, doc=doc):
            pending = doc.__dict__.pop("_printshop_pending", None)
            if pending is not None:
                _keep_bytes(form, pending)
            return original(doc, name, form)

        doc.addForm = add_form
    doc._printshop_pending = recording


def _keep_bytes(form, recording: Recording) -> None:
    format_form = form.format

    def format_once(document):
        if recording.formatted is None:
            recording.formatted = format_form(document)
        return recording.formatted

    form.format = format_once


def has_images(face) -> bool:
    """Whether `face` draws an image: a shape's file, an <img> in one of its frames, or an icon
    of images/ in a frame's text."""
    return any(shape.kind == "image" for shape in face.face.shapes.values()) or any(
        draws_images(laid.blocks) or any(isinstance(block, (Img, Figure)) for block in laid.blocks)
        for laid in face.frames
    )


def replay(canvas, recording: Recording) -> bool:
    doc = canvas._doc
    if recording.graphics_state:
        return False
    if recording.sealed is not None and recording.sealed == seed_of(doc):
        _extend(canvas, recording)
        return True
    fonts: dict[str, TTFont | None] = {}
    # Once a font has split a text in this document, every character of it has its code, and codes
    # never change: the same text splits the same way again and changes nothing (a deck repeats many
    # texts)
    split = doc.__dict__.setdefault("_printshop_splits", {})
    for kind, subject, argument, answer in recording.questions:
        if kind == "split":
            known = split.get((subject, argument))
            if known is None:
                font = fonts.get(subject) or fonts.setdefault(subject, _font(subject))
                if font is None:
                    return False
                known = split[subject, argument] = font.splitString(argument, doc)
            if known != answer:
                return False
        elif kind == "subset":
            font = fonts.get(subject) or fonts.setdefault(subject, _font(subject))
            if font is None or font.getSubsetInternalName(argument, doc) != answer:
                return False
        elif kind == "name":
            if doc.getInternalFontName(argument) != answer:
                return False
        elif kind == "colour":
            if doc.addColor(argument) != answer:
                return False
    _extend(canvas, recording)
    return True


def _extend(canvas, recording: Recording) -> None:
    for features in recording.versions:
        canvas._doc.ensureMinPdfVersion(*features)
    canvas._code.extend(recording.code)
    canvas._colorsUsed.update(recording.colours)
    canvas._shadingUsed.update(recording.shadings)


def _font(name: str):
    from reportlab.pdfbase import pdfmetrics

    font = pdfmetrics.getFont(name)
    return font if isinstance(font, TTFont) else None


def record_face(canvas, face, paints, motifs, assets) -> Recording:
    """Draw the face, noting each question it asks the document. The class methods are wrapped only
    while it draws (a session renders in one thread), and only questions about this document count."""
    doc = canvas._doc
    questions: list[tuple] = []
    split, subset = TTFont.splitString, TTFont.getSubsetInternalName
    name, colour = type(doc).getInternalFontName, type(doc).addColor

    def asking_split(font, text, asked, *rest):
        answer = split(font, text, asked, *rest)
        if asked is doc and isinstance(font, TTFont) and not rest:
            questions.append(("split", font.fontName, text, answer))
        return answer

    def asking_subset(font, number, asked):
        answer = subset(font, number, asked)
        if asked is doc:
            questions.append(("subset", font.fontName, number, answer))
        return answer

    def asking_name(asked, font_name):
        answer = name(asked, font_name)
        if asked is doc:
            questions.append(("name", None, font_name, answer))
        return answer

    def asking_colour(asked, value):
        answer = colour(asked, value)
        if asked is doc:
            questions.append(("colour", None, value, answer))
        return answer

    versions: list[tuple] = []

    def asking_version(asked, *features):
        if asked is doc:
            versions.append(features)
        return ensure(asked, *features)

    palette = Reads(paints.palette, log=[])
    paints = replace(paints, palette=palette)
    start = len(canvas._code)
    graphics_state = dict(canvas._extgstate._d)
    ensure = type(doc).ensureMinPdfVersion
    TTFont.splitString, TTFont.getSubsetInternalName = asking_split, asking_subset
    type(doc).getInternalFontName, type(doc).addColor = asking_name, asking_colour
    type(doc).ensureMinPdfVersion = asking_version
    try:
        draw_face(canvas, face, paints, motifs, assets)
    finally:
        TTFont.splitString, TTFont.getSubsetInternalName = split, subset
        type(doc).getInternalFontName, type(doc).addColor = name, colour
        type(doc).ensureMinPdfVersion = ensure
    recording = Recording(
        list(canvas._code[start:]),
        questions,
        dict(canvas._colorsUsed),
        dict(canvas._shadingUsed),
        palette=values_of(palette.read, palette),
        versions=tuple(dict.fromkeys(versions)),
        graphics_state=canvas._extgstate._d != graphics_state,
    )
    if (
        still_seeded(doc)
        and not recording.shadings
        and not any(question[0] == "colour" for question in questions)
    ):
        recording.sealed = seed_of(doc)
    return recording
