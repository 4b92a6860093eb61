"""A game's rules booklet as the preview shows it: rendered once for what it is made from, its pages
shown as images after the faces, and each rule found on the pages that print it.

`Booklet` keeps the PDF `build` would write (`rules-a5`) while `booklet_key` and the colours, motifs
and fonts it read are the same; `Booklet.pages_of` finds a text in the pages' own text (`letters`,
`words`), a piece at a time, so a diagnostic on a rule leads to its page.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from printshop.memo import unchanged
from printshop.render.replay import motif_key
from printshop.write.cache import key_of


class Booklet:
    """A game's rules booklet in one language as serve shows it: the A5 booklet `build` writes
    (`rules-a5`), rendered once for what it is made from and kept while that is the same (`holds`):
    a save of a card's text, or of a colour or motif it does not use, keeps every booklet; a save of
    a rule renders the one booklet it is in. Its pages are `BookletPage`s, each shown as an image
    rasterised from the PDF; `texts` is each page's text as `words` gives it, for `pages_of`."""

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
        # each page's width and height in points, once views.py has asked (images.page_sizes)
        self.sizes: tuple[tuple[float, float], ...] | None = None

    def holds(self, key: str, palette: dict, motifs: dict, fonts) -> bool:
        return (
            key == self.key
            and fonts is self.fonts
            and unchanged(self.colours, palette)
            and unchanged(self.motifs, motifs, motif_key)
        )

    def pages_of(self, text: str) -> tuple[int, ...] | None:
        """The pages (0-based) that print `text` (a rule as its file has it), or None where it
        cannot be told: it has fewer than `SHORTEST_WORDS` letters between its placeholders ("A",
        "{n}"). A text is looked for a piece at a time (`SEARCHED` letters of it, between its
        placeholders) in the pages' own text, so one paragraph running over two pages is on both,
        and a text the template does not print is on none. A short one ("Setup", "Purge {number}")
        is looked for as whole words: "Setup" is on the pages that have the word, not on those where
        "setup" is part of "setups"."""
        if text not in self._found:
            self._found[text] = _pages_of(text, self.texts, self.words)
        return self._found[text]


# letters: a piece of a rule this long is found where it is printed, not in another text by chance
SEARCHED = 24


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
    """The letters and digits of a text, case folded: what a page's text and a rule's share however
    the page set it (its lines broken and words hyphenated, its spaces made no-break, its headings
    in capitals)."""
    return "".join(character for character in text.casefold() if character.isalnum())


def words(text: str) -> str:
    """The runs of letters and digits of a text, case folded, each between single spaces (" set up
    the board "): `letters` with the words told apart, to find a short text as whole words."""
    return f" {' '.join(_WORD.findall(text.casefold()))} "


def _pages_of(text: str, pages: list[str], page_words: list[str]) -> tuple[int, ...] | None:
    from printshop.language.texts import PLACEHOLDER

    plain = html.unescape(PLACEHOLDER.sub("\x00", _MARKUP.sub(" ", text)))
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
    runs: set[str] = set()
    for piece in (
        pieces
    ):  # every run of SEARCHED letters, and the last: a page break may fall anywhere in it
        runs.update(
            piece[start : start + SEARCHED]
            for start in range(0, max(len(piece) - SEARCHED, 0) + 1, SEARCHED)
        )
        runs.add(piece[-SEARCHED:])
    return tuple(index for index, page in enumerate(pages) if any(run in page for run in runs))


@dataclass(eq=False)
class BookletPage:
    """A page of a `Booklet`: what a `FaceView` of the booklet shows in place of a face (its token
    is given to the page object, as to a face: kept while the booklet is)."""

    booklet: Booklet
    index: int
    face_name: str = ""  # (no face of faces.yaml makes it)


def booklet_key(layout, project, paper) -> str:
    """What the booklet's pages are made from, but the colours and motifs (`Booklet.holds` compares
    those it read): its blocks (the rules' texts as the template set them), the booklet's style, the
    page, the language's typography and labels, the game's title (the fonts registered:
    `Booklet.holds` compares the set)."""
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
