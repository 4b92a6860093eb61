"""Hyphenation per language (typography.hyphenation): narrow justified German and French text loses
its rivers, a word wider than its frame breaks where the language allows, and nothing else changes:
no-break spaces hold, <b> and <i> keep their faces, uppercase frames break too, and layout and
renderer set the same lines."""

from __future__ import annotations

import functools
import re
import shutil

import pyphen
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from printshop.pipeline.build import check
from printshop.project.models.booklet import TextStyle
from printshop.project.paths import DEFAULT_DATA_DIR
from printshop.render.booklet import render_booklet
from printshop.render.colour import Paints
from printshop.typeset.fitting import fit, make_flowables
from printshop.typeset.richtext import parse_blocks
from tests.conftest import REPO, edit, one
from tests.pdfinspect import pdf_text

GERMAN = (
    "Die Geheimpolizei verhaftet in jeder Nachtrunde einen Verdächtigen; die Parteiversammlung "
    "entscheidet anschließend über seine Verbannung nach Sibirien, sofern niemand widerspricht."
)
FRENCH = (
    "Le président désigne un suspect à chaque tour\u202f; l’assemblée délibère longuement, puis décide "
    "immédiatement de son bannissement, à moins qu’un camarade ne s’y oppose résolument."
)


def style(**settings) -> TextStyle:
    return TextStyle(**{"font": "serif", "size": "9pt", "align": "justify", **settings})


def wrapped(text: str, width: float, paints: Paints, hyphenation: str | None, **settings):
    paragraph = make_flowables(
        parse_blocks(f"<p>{text}</p>"), style(**settings), 9.0, paints, width, hyphenation
    )[0]
    paragraph.wrap(width, 1e6)
    return paragraph


def line_words(line) -> list[str]:
    """A line's words: strings in a paragraph of one font, runs of text (ParaFrag) in one with
    markup."""
    if isinstance(line, tuple):
        return line[1]
    return "".join(frag.text for frag in line.words).split()


def lines(
    text: str, width: float, paints: Paints, hyphenation: str | None, **settings
) -> list[tuple[float, list]]:
    """(unused space, words) of each line the paragraph is wrapped into."""
    paragraph = wrapped(text, width, paints, hyphenation, **settings)
    return [
        (line[0] if isinstance(line, tuple) else line.extraSpace, line_words(line))
        for line in paragraph.blPara.lines
    ]


def widest_gap(wrapped: list[tuple[float, list[str]]]) -> float:
    """The widest space between two words once justified; the last line is not justified."""
    space = stringWidth(" ", "serif", 9.0)
    return max(space + extra / (len(words) - 1) for extra, words in wrapped[:-1] if len(words) > 1)


@pytest.mark.parametrize("text, lang", [(GERMAN, "de_DE"), (FRENCH, "fr_FR")])
def test_narrow_justified_text_is_hyphenated_and_its_gaps_shrink(paints, text, lang):
    width = 130.0  # about 46 mm: a card's body frame
    plain, hyphenated = lines(text, width, paints, None), lines(text, width, paints, lang)
    broken = [words[-1] for _, words in hyphenated[:-1] if words[-1].endswith("-")]
    assert broken, "no line ends with a hyphen"
    assert all(
        word.rstrip("-") not in text.split() for word in broken
    )  # the hyphen breaks a word, it was not there
    assert not any(words[-1].endswith("-") for _, words in plain)
    assert widest_gap(hyphenated) < widest_gap(plain) * 0.5
    assert (
        " ".join(" ".join(words) for _, words in plain).split() == text.split()
    )  # nothing lost or added
    # not one lucky width: over frames from 28 to 67 mm, the widest gaps are less than half as wide
    # in all
    widths = range(80, 200, 10)
    assert sum(widest_gap(lines(text, w, paints, lang)) for w in widths) < 0.5 * sum(
        widest_gap(lines(text, w, paints, None)) for w in widths
    )


def test_hyphens_fall_where_the_language_allows(paints):
    allowed = pyphen.Pyphen(lang="de_DE")
    for (_, words), (_, following) in zip(
        lines(GERMAN, 95.0, paints, "de_DE")[:-1], lines(GERMAN, 95.0, paints, "de_DE")[1:]
    ):
        if words[-1].endswith("-"):
            head, tail = words[-1][:-1], following[0]
            whole = head + tail.rstrip(",;.")
            assert len(head) in allowed.positions(whole), (head, tail)


def test_a_word_wider_than_the_frame_breaks_where_the_language_allows(paints):
    blocks = parse_blocks("<p>Parteiversammlungsbeschluss</p>")
    frame = style(align="left", size="9pt")
    assert fit(
        blocks, frame, 60.0, 200.0, paints
    ).too_wide  # without hyphenation: reported, never cut
    result = fit(blocks, frame, 60.0, 200.0, paints, "de_DE")
    assert result.fits and not result.too_wide and result.hyphenation == "de_DE"
    pieces = [
        word
        for _, words in lines("Parteiversammlungsbeschluss", 60.0, paints, "de_DE", align="left")
        for word in words
    ]
    assert len(pieces) > 1 and all(piece.endswith("-") for piece in pieces[:-1])
    assert "".join(piece.rstrip("-") for piece in pieces) == "Parteiversammlungsbeschluss"


def test_a_word_with_no_break_the_language_allows_is_still_too_wide(paints):
    blocks = parse_blocks("<p>1234567890123456789012345</p>")
    assert fit(blocks, style(align="left"), 60.0, 200.0, paints, "de_DE").too_wide


def test_no_break_spaces_hold_and_elided_words_break(paints):
    text = "Qui a vu la carte d’identification\u202f? Personne ne l’a remarquée\u202f!"
    for width in (50.0, 60.0, 70.0, 80.0):
        wrapped = lines(text, width, paints, "fr_FR")
        for _, words in wrapped:
            assert not words[0].startswith(("?", "!", "\u202f"))  # a mark never starts a line
            assert not words[-1].endswith("\u202f")
        joined = "".join(
            word[:-1] if word.endswith("-") else word + " "
            for _, words in wrapped
            for word in words
        )
        assert joined.split() == text.split()
    assert any(
        words[-1] == "d’identifi-" or words[-1].startswith("d’") and words[-1].endswith("-")
        for width in (50.0, 60.0, 70.0, 80.0)
        for _, words in lines(text, width, paints, "fr_FR")
    )


def test_bold_and_italic_keep_their_faces_when_hyphenated(paints):
    paragraph = wrapped(
        "Ein <b>Parteiversammlungsbeschluss</b> und <i>Geheimpolizeiakten</i>",
        60.0,
        paints,
        "de_DE",
        align="left",
    )
    runs = [
        (frag.text.strip(), frag.fontName)
        for line in paragraph.blPara.lines
        for frag in line.words
        if frag.text.strip()
    ]
    bold = [text for text, font in runs if font == "serif-bold"]
    italic = [text for text, font in runs if font == "serif-italic"]
    assert (
        len(bold) > 1
        and "".join(text.rstrip("-") for text in bold) == "Parteiversammlungsbeschluss"
    )
    assert len(italic) > 1 and "".join(text.rstrip("-") for text in italic) == "Geheimpolizeiakten"
    assert all(text.endswith("-") for text in bold[:-1] + italic[:-1])
    assert ("Ein", "serif") in runs and ("und", "serif") in runs


def test_uppercase_frames_are_hyphenated(paints):
    wrapped = lines(
        "Geheimpolizei und Parteiversammlung", 60.0, paints, "de_DE", uppercase=True, align="left"
    )
    assert any(words[-1].endswith("-") and words[-1].isupper() for _, words in wrapped)


def test_ragged_text_breaks_words_only_when_it_fits_no_other_way(paints):
    """A centred title is set smaller rather than hyphenated; a word too wide for it still breaks."""
    title = style(align="center", size="12pt", min_size="8pt")
    blocks = parse_blocks("<p>Die Parteiversammlung tagt</p>")
    whole = fit(blocks, title, 80.0, 60.0, paints, "de_DE")
    assert (
        whole.fits and whole.hyphenation is None
    )  # the renderer sets it again without breaking words
    assert whole == fit(blocks, title, 80.0, 60.0, paints)
    squeezed = fit(blocks, title, 50.0, 60.0, paints, "de_DE")
    assert squeezed.fits and squeezed.hyphenation == "de_DE"
    assert not fit(blocks, title, 50.0, 60.0, paints).fits
    justified = fit(parse_blocks(f"<p>{GERMAN}</p>"), style(), 130.0, 400.0, paints, "de_DE")
    assert justified.hyphenation == "de_DE"


def test_each_language_lays_out_with_its_own_patterns():
    report, checked = check(DEFAULT_DATA_DIR, games=["kremlin"], variant=None)
    assert not report.has_errors
    for layout in checked.layouts:
        assert (
            layout.localized.language.typography.hyphenation
            == {"en": "en_GB", "fr": "fr_FR"}[layout.lang]
        )
        # the setting: those patterns, the language's rules and Kremlin's glossary terms kept whole
        patterns = layout.localized.hyphenation
        assert patterns.startswith(
            layout.localized.language.typography.hyphenation + "|3,3|nocaps|"
        )
        assert " intrigue " in patterns + " " or "purge" in patterns
        faces = [face for deck in layout.decks for face in deck.faces.values()]
        frames = [
            frame
            for face in faces + [face for sheet in layout.sheets for face in sheet.faces]
            for frame in face.frames
        ]
        justified = [frame for frame in frames if frame.frame.align == "justify"]
        assert justified and {frame.fit.hyphenation for frame in justified} == {patterns}
        assert {frame.fit.hyphenation for frame in frames} <= {patterns, None}


def test_the_german_fixture_hyphenates(data_copy):
    fixtures = REPO / "tests" / "fixtures" / "german"
    shutil.copy(fixtures / "languages" / "de.yaml", data_copy / "languages" / "de.yaml")
    shutil.copy(
        fixtures / "comrade" / "text" / "de.yaml", data_copy / "comrade" / "text" / "de.yaml"
    )
    report, checked = check(data_copy, games=["comrade"], langs=["de"], variant=None)
    assert not report.has_errors
    german = next(layout for layout in checked.layouts if layout.lang == "de")
    project = checked.project
    data, _ = render_booklet(
        german,
        german.booklet,
        project.media.papers[project.booklet.paper],
        Paints(project.colours.palette),
        project.motifs.motifs,
        "comrade-de-rules-a5.pdf",
    )
    text = pdf_text(data, "\n")
    # the booklet's justified paragraphs: a word broken at a line's end goes on in lower case
    assert re.search(r"[a-zäöüß]-\n[a-zäöüß]", text)


def test_an_unknown_hyphenation_language_is_reported_where_it_is_written(data_copy):
    line = edit(data_copy / "languages" / "fr.yaml", "hyphenation: fr_FR", "hyphenation: xx_YY")
    problem = one(data_copy, "wrong-type")
    assert problem.location.line == line and "xx_YY" in problem.message


def test_fitting_twice_gives_the_same_lines(paints):
    first = lines(FRENCH, 95.0, paints, "fr_FR")
    assert lines(FRENCH, 95.0, paints, "fr_FR") == first


WORDS = re.compile(r"[^\W\d_]{2,}")


@functools.lru_cache(maxsize=1)
def _catalogue_words() -> frozenset[str]:
    """Every word of the catalogue's data, and German compounds (read once for the six languages)."""
    words = {
        "Geheimpolizei",
        "Parteiversammlung",
        "Schifffahrt",
        "Zucker",
        "backen",
        "Verbannung",
        "hyphenation",
        "désinformation",
        "Entscheidung",
        "politiques",
        "unbelievable",
    }
    for path in (REPO / "data").rglob("*.yaml"):
        words |= set(WORDS.findall(path.read_text(encoding="utf-8")))
    return frozenset(words)


@pytest.mark.parametrize("lang", ["en_GB", "en_US", "fr", "de_DE", "es", "it_IT"])
def test_patterns_read_when_first_asked_for_break_words_as_pyphen_does(lang):
    """printshop.typeset.hyphenation parses a pattern line the first time a word needs it; every
    word of the catalogue's texts (and German compounds) must break exactly where pyphen's own parse
    breaks it."""
    from printshop.typeset.hyphenation import LazyHyphDict

    words = _catalogue_words()
    path = pyphen.LANGUAGES[pyphen.language_fallback(lang)]
    lazy, eager = LazyHyphDict(path), pyphen.HyphDict(path)
    differ = [
        word
        for word in sorted(words)
        if [(int(p), p.data) for p in lazy.positions(word)]
        != [(int(p), p.data) for p in eager.positions(word)]
    ]
    assert differ == []
    assert len(words) > 2000


def test_lazy_patterns_keep_pyphens_choice_between_lines_with_the_same_letters(tmp_path):
    """Two lines for the same letters: pyphen keeps the last one with a break in it, and skips lines
    of zeros only (which therefore never replace an earlier line)."""
    from printshop.typeset.hyphenation import LazyHyphDict

    path = tmp_path / "hyph_xx.dic"
    path.write_text(
        "UTF-8\nLEFTHYPHENMIN 1\na1b\na3b\nc1d\nc0d\n% a comment\nab1cd\n0e0f0\ne1f\n",
        encoding="utf-8",
    )
    lazy, eager = LazyHyphDict(path), pyphen.HyphDict(path)
    for word in ("ab", "cd", "abcd", "ef", "xabcdefx", "cdab"):
        assert [int(p) for p in lazy.positions(word)] == [int(p) for p in eager.positions(word)], (
            word
        )
    assert lazy.patterns.get("ab") == eager.patterns["ab"] == (1, (3,))
    assert lazy.patterns.get("cd") == eager.patterns["cd"] == (1, (1,))
    assert lazy.patterns.get("ef") == eager.patterns["ef"]
    assert lazy.patterns.get("zz") is None
