"""The rules booklets' typography, read from the built PDFs (docs/design.md, "Rule booklets"):
hyphens break only where the language's rules allow (enough letters on each side, never in a
capitalised word, a game's glossary term or a word the language keeps whole), a short table splits
only with its header repeated (tests/test_table_pagination.py), and Kremlin's suspicion marker is an inline token, never a bare "?" at a
line's end. Each guard has a must-catch case beside its must-pass run over the real booklets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import DEFAULT_DATA_DIR, kit_view, real_project

GAMES = ["assassin", "comrade", "comrade-stalin", "kremlin"]
LANGS = ["en", "fr"]


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> Path:
    return kit_view(tmp_path_factory, GAMES, ["a4"])


def _pages(kits: Path, game: str, lang: str) -> list[str]:
    return [
        page.extract_text()
        for page in PdfReader(kits / game / lang / f"{game}-{lang}-rules-a5.pdf").pages
    ]


def hyphen_breaks(pages: list[str]) -> list[tuple[str, str]]:
    """(head, tail) of each word a line's end breaks with a hyphen."""
    found = []
    for text in pages:
        lines = text.split("\n")
        for line, following in zip(lines, lines[1:]):
            head = re.search(r"([^\W\d_]+)-$", line.rstrip())
            tail = re.match(r"\s*([^\W\d_]+)", following)
            if head and tail:
                found.append((head.group(1), tail.group(1)))
    return found


def wrong_breaks(
    breaks: list[tuple[str, str]], least: tuple[int, int], whole: set[str], written: str
) -> list[str]:
    """The breaks that go against the rules: fewer letters than `least` on a side, a capitalised
    word, one of `whole` (folded, plurals too); a hyphen the text writes ("ci-dessous") is no
    break."""
    wrong = []
    for head, tail in breaks:
        if f"{head}-{tail}" in written:
            continue
        word = (head + tail).casefold()
        if (
            len(head) < least[0]
            or len(tail) < least[1]
            or head[:1].isupper()
            or word in whole
            or word.rstrip("sx") in whole
        ):
            wrong.append(f"{head}-{tail}")
    return wrong


def _whole_words(game: str, lang: str) -> set[str]:
    project = real_project(GAMES)
    typography = project.languages[lang].typography
    words = {word.casefold() for word in typography.unbroken}
    glossary = project.games[game].glossary
    for term in glossary.terms.values() if glossary is not None else ():
        words |= {w.casefold() for w in re.findall(r"[^\W\d_]+", term.renderings.get(lang, ""))}
    return words


def test_wrong_breaks_are_caught():
    """Must-catch: each fault the art director found."""
    breaks = [("Sanat", "orium"), ("el", "eventh"), ("Octo", "ber"), ("peres", "troika")]
    breaks += [("Sta", "line"), ("Ob", "jectif"), ("Si", "bérie"), ("In", "trigue")]
    wrong = wrong_breaks(breaks, (3, 3), {"perestroika", "intrigue"}, "")
    assert len(wrong) == len(breaks)
    assert wrong_breaks([("elev", "enth"), ("ci", "dessous")], (3, 3), set(), "ci-dessous") == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_no_hyphen_breaks_a_protected_word_or_leaves_too_few_letters(kits, game, lang):
    project = real_project(GAMES)
    typography = project.languages[lang].typography
    assert typography.hyphen_min == (3, 3) and not typography.break_capitalised
    written = (DEFAULT_DATA_DIR / game / "text" / f"{lang}.yaml").read_text(encoding="utf-8")
    breaks = hyphen_breaks(_pages(kits, game, lang))
    assert wrong_breaks(breaks, typography.hyphen_min, _whole_words(game, lang), written) == []


def test_the_hyphenator_keeps_the_rules():
    """The dictionary's breaks, filtered by the settings: "elev-enth", never "el-eventh"; no
    capitalised word, no word kept whole (nor its plural); a cell never hyphenates."""
    from printshop.typeset.fitting import UNBROKEN, hyphenator
    from printshop.typeset.hyphenation import setting

    english = hyphenator(setting("en_GB", (3, 3), False, ["perestroika"]))
    assert [head for head, _ in english("eleventh")] == ["elev"]
    assert list(english("October")) == [] and list(english("perestroikas")) == []
    assert list(english("revolution"))  # a common word still breaks
    french = hyphenator(setting("fr_FR", (3, 3), False, ["intrigue"]))
    assert list(french("Staline")) == [] and list(french("intrigues")) == []
    assert all(len(head) >= 3 and len(tail) >= 3 for head, tail in french("objectivement"))
    # must-pass: the defaults break as before
    assert [head for head, _ in hyphenator("en_GB")("eleventh")] == ["elev", "el"]
    assert UNBROKEN["hyphenationLang"] is None


# the tables that split before (issue 51): a row of their header and their last row's first cell
TABLES = {
    ("kremlin", "fr"): [("Qui agit", "8 · Parade"), ("Au travail", "18–20")],
    ("kremlin", "en"): [("Who acts", "8 · October"), ("At work", "18–20")],
    ("assassin", "fr"): [("Joueurs", "12 1 4 7")],
    ("assassin", "en"): [("Players", "12 1 4 7")],
}


@pytest.mark.parametrize(("game", "lang"), sorted(TABLES))
def test_a_short_table_is_never_split_across_pages(kits, game, lang):
    """A table of up to KEEP_WHOLE_ROWS rows prints whole on one page, or, where it starts on a page
    it would otherwise leave a quarter empty, with its header again on the page of its last row
    (tests/test_table_pagination.py holds the must-catch)."""
    pages = [" ".join(text.split()) for text in _pages(kits, game, lang)]
    for header, last in TABLES[game, lang]:
        holding = [index for index, text in enumerate(pages) if header in text]
        assert holding, (header, pages)
        assert any(last in pages[index] for index in holding), (header, last)


def lone_markers(text: str) -> list[str]:
    """Lines that end with a "?" standing alone (a marker set as punctuation), or a "?" after a
    space before a full stop or comma ("un marqueur ?.")."""
    return [
        line
        for line in text.split("\n")
        if re.search(r"[\s\u202f\u00a0]\?$", line.rstrip()) or re.search(r"\s\?[.,]", line)
    ]


def test_a_bare_suspicion_marker_is_caught():
    assert lone_markers("every member carrying a ?\nmarker gains") == ["every member carrying a ?"]
    assert lone_markers("un marqueur\u202f?. Les membres") == ["un marqueur\u202f?. Les membres"]
    assert lone_markers("QUI MEURT\u202f?\nQuand") == ["QUI MEURT\u202f?"]  # a question: see below


@pytest.mark.parametrize("lang", LANGS)
def test_the_suspicion_marker_is_an_inline_token(kits, lang):
    """Kremlin's rules never print the marker as a "?" (a question, "… ?" in a heading, is not in
    Kremlin's rules); the token is drawn where the text names it."""
    pages = _pages(kits, "kremlin", lang)
    assert [line for text in pages for line in lone_markers(text)] == []
    texts = (DEFAULT_DATA_DIR / "kremlin" / "text" / f"{lang}.yaml").read_text(encoding="utf-8")
    assert texts.count("<icon name='suspicion'/>") >= 8


def test_a_short_last_word_alone_is_mended_where_the_lines_above_can_take_it(paints, monkeypatch):
    """A justified paragraph whose last line is one word under SHORT_LAST of the measure ("kit.",
    "seul.") takes a word down from the lines above where that leaves no more room ragged: over a
    range of widths, fewer such endings than with the mend switched off, and never a looser
    paragraph (must-catch: with the mend off, some widths end on "kit." alone)."""
    from reportlab.lib.enums import TA_JUSTIFY
    from reportlab.lib.styles import ParagraphStyle

    from printshop.typeset.fitting import hyphenator
    from printshop.typeset.hyphenation import setting
    from printshop.typeset.justify import SHORT_LAST, EvenParagraph
    from printshop.typeset.runts import line_lengths
    from tests.test_runts import line_texts

    text = "Tous les textes de cette édition à imprimer ont été écrits spécialement pour ce kit."
    style = ParagraphStyle(
        "p",
        fontName="serif",
        fontSize=9.5,
        leading=13,
        alignment=TA_JUSTIFY,
        hyphenationLang=hyphenator(setting("fr_FR", (3, 3), False, [])),
        embeddedHyphenation=2,
        hyphenationMinWordLength=5,
    )

    def short_endings(suffix: str) -> tuple[int, float]:
        count, ragged = 0, 0.0
        for width in range(150, 360, 2):
            paragraph = EvenParagraph(text + suffix, style)  # a suffix: not the memo's lines
            paragraph.wrap(width, 1e6)
            last = line_texts(paragraph)[-1]
            short = line_lengths(paragraph, width)[-1] < SHORT_LAST * width
            count += len(last.split()) == 1 and short
            ragged += paragraph.ragged
        return count, ragged

    mended, mended_ragged = short_endings("")
    monkeypatch.setattr(
        EvenParagraph, "_without_short_last", lambda self, best, m, full, bad: (bad, best, m)
    )
    plain, plain_ragged = short_endings(" ")
    assert plain > mended and mended_ragged <= plain_ragged + 1e-6
