"""Helper processes for a build that renders one job at a time, and the seeding that lets one draw
faces.

A build renders its jobs in as many processes as there are cores; when there is one job (one game,
language and paper: what a designer builds while working on a deck) the second core sat idle. Where
the build allows it (`helpers_allowed`, set around jobs rendered one after another in its own
process), a `Helper` (a fork) takes part of the job:

- `render_card_sheets` (render/sheets.py), for a deck with at least MIN_FACES faces drawn in place: the
  helper draws the last HELPER_SHARE of them into a scratch canvas, recording each one (render/replay.py:
  the content stream and every question drawing asked the document), while the build draws the others;
  the build then replays the helper's recordings where their faces go.
- a kit (kit_job.KitJob): the helper renders the rules (A5, then imposed) while the build renders the cards,
  sheets and press pages.

A replay asks the document the same questions (font names, character codes, colours) and draws the
face itself where an answer differs, so the PDF is, byte for byte, the one a single process writes
(tests/test_helpers.py builds both ways and compares).

For the answers to agree, both processes seed their canvas the same way before any face is drawn
(`seed`): each font the deck's texts and the pages' footers use is named, in order of name, and
given their characters beyond ASCII in code point order. ReportLab otherwise names fonts and numbers
characters in the order they are first drawn, which differs between two parts of a deck. Every build
seeds its card sheets, helped or not, so the bytes do not depend on whether a helper ran. A face
drawn in a seeded document that has named and numbered nothing beyond its seed, before or while
drawing it, is `sealed` with the seed's digest (render/replay.py): every character and font it uses
came from the seed, so a document with the same seed gives the same answers and asking changes
nothing; it is placed there without asking (the helper's faces in the build's document, a session's
unchanged faces in its next PDF). The others are replayed question by question.

The helper inherits everything loaded and laid out, ignores Ctrl-C (the build handles it and ends
the helper), dies with its parent, and sends its answer back pickled through a pipe. Whatever goes
wrong with it (it dies, sends nothing, a recording does not replay), its work is done by the build.
"""

from __future__ import annotations

import contextvars
import os
import signal
import sys
from contextlib import contextmanager

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

MIN_FACES = 240  # below this, forking and sending the recordings back costs about what it saves
# the helper's share of the faces: less than half, as it starts later, draws a little slower (each
# page of memory it touches is copied on first write) and pickles what it drew, while this process
# replays quickly
HELPER_SHARE = 0.42

# set by the build around jobs it renders one after another in this process, with a core to spare
helpers_allowed: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "helpers_allowed", default=False
)


@contextmanager
def allowing_helpers(allowed: bool = True):
    token = helpers_allowed.set(allowed and sys.platform.startswith("linux"))
    try:
        yield
    finally:
        helpers_allowed.reset(token)


# --- seeding
# --------------------------------------------------------------------------------------------
def seed(canvas, faces, also: dict[str, str] | None = None) -> None:
    """Name each font the faces' texts are set in, in order of name, and give each its characters
    beyond ASCII in code point order (ASCII keeps its own codes in ReportLab's first subset).
    `also`: {font: text} the page itself sets (a footer), so that drawing it numbers nothing new
    either."""
    used: dict[str, set[str]] = {name: set(text) for name, text in (also or {}).items() if text}
    for face in faces:
        for name, characters in _face_characters(face).items():
            if name in used:
                used[name] |= characters
            else:
                used[name] = set(characters)
    doc = canvas._doc
    for name in sorted(used):
        try:
            font = pdfmetrics.getFont(name)
        except (KeyError, ValueError):
            continue
        if not isinstance(font, TTFont):
            continue
        font.getSubsetInternalName(0, doc)
        wide = "".join(sorted(character for character in used[name] if ord(character) > 126))
        if wide:
            font.splitString(wide, doc)
    doc._printshop_seed = (_digest(doc), document_state(doc))


def seed_of(doc) -> str | None:
    """The digest of everything seeding gave a document (font names, character codes), if it was
    seeded."""
    seeded = doc.__dict__.get("_printshop_seed")
    return seeded[0] if seeded is not None else None


def still_seeded(doc) -> bool:
    """Whether a seeded document has named and numbered nothing since (drawing used only what it
    gave)."""
    seeded = doc.__dict__.get("_printshop_seed")
    return seeded is not None and document_state(doc) == seeded[1]


def _digest(doc) -> str:
    import hashlib

    given = (
        sorted(doc.fontMapping.items()),
        [(font.fontName, sorted(font.state[doc].assignments.items())) for font in doc.delayedFonts],
    )
    return hashlib.blake2b(repr(given).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _face_characters(face) -> dict[str, frozenset[str]]:
    """{font: characters} a laid-out face sets, worked out once per face (a laid-out face never
    changes; a long-running session seeds every render with the faces it kept)."""
    known = face.__dict__.get("_seed_characters")
    if known is None:
        used: dict[str, set[str]] = {}
        for laid in face.frames:
            for flowable in laid.fit.flowables or ():
                _characters(flowable, used)
        known = face.__dict__["_seed_characters"] = {
            name: frozenset(chars) for name, chars in used.items()
        }
    return known


def _characters(flowable, used: dict[str, set[str]]) -> None:
    """The characters each font sets in a paragraph (its lines as wrapped, hyphens included, or else
    its fragments; its bullet) or in a table's cells."""
    lines = getattr(getattr(flowable, "blPara", None), "lines", None)
    if lines is not None and flowable.blPara.kind == 0:  # one font: (unused space, words) per line
        text = "".join(word for _, words in lines for word in words)
        if text and not text.isspace():
            used.setdefault(flowable.blPara.fontName, set()).update(text)
    else:
        pieces = (
            [word for line in lines for word in getattr(line, "words", ())]
            if lines is not None
            else getattr(flowable, "frags", None) or ()
        )
        for piece in pieces:
            text = getattr(piece, "text", "")
            if text and not text.isspace() and getattr(piece, "fontName", None):
                used.setdefault(piece.fontName, set()).update(text)
    bullet = getattr(flowable, "bulletText", None)
    style = getattr(flowable, "style", None)
    if isinstance(bullet, str) and bullet.strip() and style is not None:
        used.setdefault(getattr(style, "bulletFontName", None) or style.fontName, set()).update(
            bullet
        )
    for row in getattr(flowable, "_cellvalues", None) or ():
        for cell in row:
            for item in cell if isinstance(cell, (list, tuple)) else (cell,):
                _characters(item, used)


def document_state(doc) -> tuple:
    """How far a document has named fonts and numbered characters: it changes whenever drawing adds
    either (codes and names, once given, never change)."""
    return len(doc.fontMapping), tuple(font.state[doc].nextCode for font in doc.delayedFonts)


# --- the helper
# -----------------------------------------------------------------------------------------
class Helper:
    """A forked process computing `work(keys)`; `answer()` gives what it returned (pickled back)."""

    def __init__(self, keys: list, work):
        import pickle

        self.keys = list(keys)
        self._answer = None
        self._received = False
        self._pid: int | None  # the helper's process; None when there is none, or it is reaped
        self._read: int | None  # the pipe its answer comes through, until read
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()  # else the child's copy of a buffer would be written twice
            except (OSError, ValueError):
                pass
        read, write = os.pipe()
        try:
            self._pid = os.fork()
        except (
            OSError
        ):  # no process to be had (a limit on processes, no memory): the build does it all
            os.close(read)
            os.close(write)
            self._pid = self._read = None
            self._received = True
            return
        if self._pid == 0:  # the helper
            code = 1
            try:
                os.close(read)
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                die_with_parent()
                answer = work(self.keys)
                with os.fdopen(write, "wb") as pipe:
                    pickle.dump(answer, pipe, protocol=pickle.HIGHEST_PROTOCOL)
                code = 0
            finally:
                os._exit(code)  # never back into the build: the helper's only output is its answer
        os.close(write)
        self._read = read

    def answer(self):
        """What the helper's work returned, waiting for it; None if it failed."""
        if not self._received:
            import pickle

            self._received = True
            try:
                with os.fdopen(self._read, "rb") as pipe:
                    self._read = None
                    self._answer = pickle.load(pipe)
            except Exception:  # noqa: BLE001 - it died or sent something torn: its faces are drawn here
                self._answer = None
            self._reap(kill=False)
        return self._answer

    def close(self) -> None:
        """End the helper if it still runs (the build stopped early) and reap it."""
        if self._read is not None:
            os.close(self._read)
            self._read = None
        self._reap(kill=True)

    def _reap(self, *, kill: bool) -> None:
        if self._pid is None:
            return
        pid, self._pid = self._pid, None
        if kill:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass


def die_with_parent() -> None:
    """Linux: this process is killed when its parent dies (PR_SET_PDEATHSIG); elsewhere, nothing."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
