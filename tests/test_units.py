"""The shared pieces on their own: units, typography, markup, fitting, imposition, expressions."""

from __future__ import annotations

import pytest

from printshop import memo, memos
from printshop.language.texts import fill, markup_problems, to_markup
from printshop.layout.imposition import Grid
from printshop.project.expressions import ExpressionError, evaluate
from printshop.project.models.faces import Frame
from printshop.project.models.language import Typography
from printshop.project.units import UnitError, mm, parse_length
from printshop.typeset.fitting import fit, make_flowables
from printshop.typeset.richtext import parse_blocks

FRENCH = Typography(space_before=";:!?»", space_after="«", space="\u202f", replace={"'": "’"})


@pytest.mark.parametrize(
    "text, points", [("63mm", mm(63)), ("0.125in", 9.0), ("9pt", 9.0), ("2.5cm", mm(25)), (0, 0.0)]
)
def test_lengths(text, points):
    assert parse_length(text) == pytest.approx(points)


@pytest.mark.parametrize("bad", [63, "63", "63 furlongs", None, True])
def test_lengths_need_a_unit(bad):
    with pytest.raises(UnitError):
        parse_length(bad)


def test_a_length_read_again_is_the_same_and_a_bad_one_is_refused_every_time(monkeypatch):
    from printshop.project import units

    memo.clear("lengths_read")
    assert parse_length("63mm") == parse_length("63mm") == pytest.approx(mm(63))
    assert memos.LENGTHS_READ == {"63mm": pytest.approx(mm(63))}  # remembered by its text
    for _ in range(2):  # a refusal is not remembered: each reading says it again
        with pytest.raises(UnitError):
            parse_length("63 furlongs")
        with pytest.raises(UnitError, match="at most"):
            parse_length("20000mm")
    assert set(memos.LENGTHS_READ) == {"63mm"}
    padded = "63mm" + " " * 40  # (a length written with spaces after it: read, not kept)
    assert parse_length(padded) == pytest.approx(mm(63)) and set(memos.LENGTHS_READ) == {"63mm"}
    monkeypatch.setattr(units, "_READ_MAX", 1)
    assert parse_length("9pt") == 9.0 and set(memos.LENGTHS_READ) == {
        "63mm"
    }  # past the bound: read, not kept


@pytest.mark.parametrize(
    "written, printed",
    [
        ("Attention !", "Attention\u202f!"),
        ("Quoi?", "Quoi\u202f?"),
        ("Quoi ?!", "Quoi\u202f?!"),
        ("un « mot » ; fin: oui", "un «\u202fmot\u202f»\u202f; fin\u202f: oui"),
        ("à 10:30, voir http://exemple.fr", "à 10:30, voir http://exemple.fr"),
        (
            "«Phare»!",
            "«\u202fPhare\u202f»\u202f!",
        ),  # a closing quote takes the space before it, and gives one to "!"
        ("« Qui?»", "«\u202fQui\u202f?\u202f»"),
        (
            "«Phare», dit-il; «<b>Feu</b>»?!",
            "«\u202fPhare\u202f», dit-il\u202f; «\u202f<b>Feu</b>\u202f»\u202f?!",
        ),
        ("l'heure", "l’heure"),
    ],
)
def test_french_typography(written, printed):
    assert str(to_markup(written, FRENCH)) == printed


def test_english_typography_leaves_spacing_alone():
    assert str(to_markup("Stop: now!", Typography(replace={"'": "’"}))) == "Stop: now!"


def test_a_text_turned_once_is_given_again_only_for_the_same_typography(monkeypatch):
    """to_markup is remembered by the text and what the typography's rules read: the same text in
    another language's typography (spaces, marks, replacements) is turned anew, never given the
    first one's markup."""

    monkeypatch.setattr(memos.MARKUPS, "limit", 400)  # characters of the texts and markup kept
    memo.clear("markups")
    text = "l'heure: <b>vite</b>!"
    french = str(to_markup(text, FRENCH))
    assert french == "l’heure\u202f: <b>vite</b>\u202f!" and len(memos.MARKUPS) == 1
    assert (
        str(to_markup(text, FRENCH.model_copy())) == french and len(memos.MARKUPS) == 1
    )  # an equal typography
    assert str(to_markup(text, Typography())) == "l'heure: <b>vite</b>!"
    assert str(to_markup(text, Typography(replace={"'": "’"}))) == "l’heure: <b>vite</b>!"
    assert (
        str(to_markup(text, FRENCH.model_copy(update={"space": "\u00a0"})))
        == "l’heure\u00a0: <b>vite</b>\u00a0!"
    )
    assert (
        str(to_markup(text, FRENCH.model_copy(update={"space_before": "!"})))
        == "l’heure: <b>vite</b>\u202f!"
    )
    assert len(memos.MARKUPS) == 5 and memos.MARKUPS.size <= 400
    long = "«Camarade»! " * 20  # more than the memo holds: turned, and not kept
    assert (
        str(to_markup(long, FRENCH)).startswith("«\u202fCamarade\u202f»\u202f!")
        and len(memos.MARKUPS) == 5
    )


TYING = Typography(keep_with_next=["à", "de", "la", "le", "un"], numbers_with_next=True)


@pytest.mark.parametrize(
    "written, tied",
    [
        ("Le vieux gardien", "Le\u00a0vieux gardien"),  # whatever its case
        ("LE VIEUX GARDIEN", "LE\u00a0VIEUX GARDIEN"),
        (
            "plus\u202f: «\u202fLa lampe",
            "plus\u202f: «\u202fLa\u00a0lampe",
        ),  # after an opening quote
        (
            "perd 1 lumière, 3,5 points, 5F Commission, le 1er joueur",
            "perd 1\u00a0lumière, 3,5\u00a0points, 5F\u00a0Commission, le\u00a01er\u00a0joueur",
        ),
        ("sur <b>13</b> ou plus", "sur <b>13</b>\u00a0ou plus"),  # read across the tags
        ("jouer de <i>Créature</i>", "jouer de\u00a0<i>Créature</i>"),
        ("de  la fin", "de\u00a0la\u00a0fin"),  # several spaces are one
        ("de <b> fin</b>", "de\u00a0<b>fin</b>"),  # even across a tag
        (
            "<b>Ca</b>de est là, Lune, unité",
            "<b>Ca</b>de est là, Lune, unité",
        ),  # not a word's end nor its start
        ("à<br/>la fin", "à<br/>la\u00a0fin"),  # no space to tie before a forced break
        (
            "la phase 6. Puis 3 + 2 ou 4",
            "la\u00a0phase 6. Puis 3 + 2\u00a0ou 4",
        ),  # a number before a word only
        ("Purge 3", "Purge 3"),
    ],
)
def test_short_words_and_numbers_are_kept_with_the_next_word(written, tied):
    from printshop.language.texts import keep_with_next

    assert keep_with_next(written, TYING) == tied


def test_nothing_is_tied_for_a_language_that_asks_for_nothing():
    from printshop.language.texts import keep_with_next

    assert (
        keep_with_next("Le vieux gardien perd 1 lumière", FRENCH)
        == "Le vieux gardien perd 1 lumière"
    )
    assert keep_with_next("perd 1 lumière", Typography(keep_with_next=["le"])) == "perd 1 lumière"


def test_a_language_file_listing_something_other_than_one_word_to_keep_is_an_error_at_its_place(
    data_copy,
):
    from printshop.pipeline.build import check

    (data_copy / "languages" / "fr.yaml").write_text(
        'typography:\n  keep_with_next: [de, "", "la le"]\n', encoding="utf-8"
    )
    report, _ = check(data_copy, games=["comrade"])
    errors = [d for d in report.errors if d.location.path.endswith("languages/fr.yaml")]
    assert [(d.code, d.location.line, d.location.col) for d in errors] == [
        ("wrong-type", 2, 24),
        ("wrong-type", 2, 28),
    ]
    assert "'la le' is not one word" in errors[1].message
    many = ", ".join(
        f"w{number}" for number in range(201)
    )  # each is tried at every word: a list has a bound
    (data_copy / "languages" / "fr.yaml").write_text(
        f"typography:\n  keep_with_next: [{many}]\n", encoding="utf-8"
    )
    [error] = [
        d
        for d in check(data_copy, games=["comrade"])[0].errors
        if d.location.path.endswith("fr.yaml")
    ]
    assert (
        error.code == "wrong-type" and "at most 200" in error.message and error.location.line == 2
    )
    (data_copy / "languages" / "fr.yaml").write_text(
        "typography:\n  keep_with_next: [de, la]\n", encoding="utf-8"
    )
    assert not check(data_copy, games=["comrade"])[0].has_errors


def test_markup_keeps_allowed_tags_and_escapes_the_rest():
    assert (
        str(to_markup("<b>a</b> & <i>b</i><br/> <img src=x> 1 < 2", Typography()))
        == "<b>a</b> &amp; <i>b</i><br/> &lt;img src=x&gt; 1 &lt; 2"
    )


@pytest.mark.parametrize(
    "text, problem",
    [
        ("<b>x", "<b> is never closed"),
        ("x</i>", "</i> closes nothing open"),
        ("<b><i>x</b></i>", "</b> closes <b> before <i> is closed"),
        ("<u>x", "unknown tag <u>"),
        # an HTML entity prints as written (texts are escaped): the message names the character to
        # type instead
        (
            "Nestor&nbsp;Aparatschik",
            "&nbsp; would print as written: texts are plain text, not HTML; type the character "
            "itself (U+00A0 no-break space)",
        ),
        ("R&amp;D", "('&', U+0026 ampersand)"),
        ("caf&#233;", "('é', U+00E9 latin small letter e with acute)"),
        ("l&#x2019;Internationale", "('’', U+2019 right single quotation mark)"),
        ("<b><i>" * 5 + "x" + "</i></b>" * 5, "tags nested 9 deep (at character 25)"),
        # tags with attributes, comments, CDATA: printed as written (escaped), never read; each said
        # once
        (
            '<img src="/etc/passwd"/>',
            '<img src="/etc/passwd"/> would print as written: texts are plain text, and their '
            "only tags are <b>, <i> and <br/>",
        ),
        (
            'Le <b class="rouge">Parti</b>',
            '<b class="rouge">: printshop\'s tags take nothing after their name: write <b>',
        ),
        (
            "une<br clear=all>ligne",
            "<br clear=all>: printshop's tags take nothing after their name: write <br/>",
        ),
        (
            "Le <!-- à revoir --> Parti",
            "<!-- à revoir --> would print as written: texts are plain text, with no HTML "
            "comments (a note for translators goes in a # comment on its own line)",
        ),
        (
            "<![CDATA[<b>]]>",
            "<![CDATA[<b>]]> would print as written: texts are plain text, with no CDATA sections",
        ),
        ('<?xml version="1.0"?>Parti', '<?xml version="1.0"?> would print as written'),
    ],
)
def test_markup_problems(text, problem):
    problems = markup_problems(text)
    assert problem in problems[0] and (len(problems) == 1 or "</" in problem), problems


@pytest.mark.parametrize(
    "text",
    [
        "Tom & Jerry",
        "R&D; then Q&A",
        "&foo; is nothing",
        "<b>Age</B> 80",
        "1 < 2",
        "3 < 5 > 2",
        "a <i >b</i >",
        "<- left, right ->",
        "x <= y >= z",
        "<b><i>" * 4 + "eight tags open at once" + "</i></b>" * 4,
    ],
)
def test_well_formed_texts_have_no_markup_problems(text):
    assert markup_problems(text) == []


def test_fill_escapes_values_and_rejects_unknown_placeholders():
    assert str(fill("{n} < {m}", n="<5>", m=6)) == "&lt;5&gt; < 6"
    with pytest.raises(Exception, match="placeholder {x}"):
        fill("{x}", n=1)


def _frame(**changes) -> Frame:
    values = dict(
        x="0mm", y="0mm", width="40mm", height="10mm", font="serif", size="12pt", min_size="8pt"
    )
    values.update(changes)
    return Frame.model_validate(values)


@pytest.fixture(scope="module")
def palette():
    from pathlib import Path

    from printshop.diagnostics import Report
    from printshop.project.loader import load_project
    from printshop.project.paths import DEFAULT_DATA_DIR
    from printshop.render.colour import Paints
    from printshop.typeset.fonts import register_fonts

    project = load_project(Path(DEFAULT_DATA_DIR))
    register_fonts(project.fonts, project.font_dirs(), Report())
    return Paints(project.colours.palette)


def test_fit_keeps_the_size_when_text_fits(palette):
    frame = _frame()
    result = fit(parse_blocks("Short"), frame, frame.width, frame.height, palette)
    assert result.fits and result.size == 12


def test_fit_shrinks_but_never_below_the_minimum(palette):
    frame = _frame()
    medium = fit(
        parse_blocks("A sentence that needs two lines here."),
        frame,
        frame.width,
        frame.height,
        palette,
    )
    assert medium.fits and 8 <= medium.size < 12 and medium.height <= frame.height
    long = fit(parse_blocks("word " * 80), frame, frame.width, frame.height, palette)
    assert not long.fits and long.size == 8 and long.overflow > 0 and long.overflow_lines >= 1


def test_a_fit_is_given_again_for_equal_blocks_and_never_for_other_ones(palette):
    """fit's memo tells blocks apart by their kind and every field: equal paragraphs made anew are
    given the same Fit, a paragraph with another style, text or bullet, or a block of another kind,
    is fitted itself."""
    from printshop.typeset.richtext import Para, Spacer

    frame = _frame()
    words = "A sentence that needs two lines here."
    first = fit([Para("p", words)], frame, frame.width, frame.height, palette)
    assert fit([Para("p", words)], frame, frame.width, frame.height, palette) is first
    others = [
        [Para("p", words, bullet="•")],
        [Para("h1", words)],
        [Para("p", words + " And more.")],
        [Para("p", words), Spacer("4pt")],
        [Spacer("4pt"), Para("p", words)],
    ]
    fits = [fit(blocks, frame, frame.width, frame.height, palette) for blocks in others]
    assert all(other is not first for other in fits) and len({id(other) for other in fits}) == len(
        others
    )


def test_fit_reports_a_word_wider_than_the_frame(palette):
    frame = _frame(width="10mm", height="50mm")
    result = fit(
        parse_blocks("Antidisestablishmentarianism"), frame, frame.width, frame.height, palette
    )
    assert not result.fits and result.too_wide


def test_narrow_no_break_space_never_breaks_a_line(palette):
    frame = _frame(width="16mm", height="80mm", size="9pt", min_size="9pt")
    text = str(to_markup("Vraiment ? Oui ! Certes : bien ; fini ?", FRENCH))
    result = fit(parse_blocks(text), frame, frame.width, frame.height, palette)
    [paragraph] = make_flowables(parse_blocks(text), frame, result.size, palette, frame.width)
    paragraph.wrap(frame.width, frame.height)
    lines = [
        " ".join(line[1]) if isinstance(line, tuple) else " ".join(w.text for w in line.words)
        for line in paragraph.blPara.lines
    ]
    assert len(lines) >= 3
    assert not any(line.startswith(("\u202f", "?", "!", ":", ";")) for line in lines), lines


@pytest.mark.parametrize("paper, size", [("a4", (mm(210), mm(297))), ("letter", (612, 792))])
def test_a_long_edge_back_mirrors_its_front_across_the_page(paper, size):
    grid = Grid(*size, mm(63), mm(88), columns=3, rows=3)  # poker cards, three by three
    for index in range(9):
        x, y = grid.front(index)
        bx, by = grid.back(index)
        assert bx == pytest.approx(size[0] - x - mm(63)) and by == y
        assert x >= mm(5) and y >= mm(5)


def test_short_edge_flip_mirrors_y():
    grid = Grid(mm(210), mm(297), mm(63), mm(88), columns=3, rows=3)
    x, y = grid.front(0)
    assert grid.back(0, "short-edge") == pytest.approx((x, mm(297) - y - mm(88)))


@pytest.mark.parametrize(
    "expression, n, value",
    [
        ("n - 2", 7, 5),
        ("(n + 1) // 2", 5, 3),
        ("(n + 1) // 2", 10, 5),
        ("1", 9, 1),
        ("n % 3 * 2", 5, 4),
    ],
)
def test_expressions(expression, n, value):
    assert evaluate(expression, {"n": n}) == value


@pytest.mark.parametrize(
    "expression", ["__import__('os')", "n ** 2", "m + 1", "n // 0", "n +", "len(n)"]
)
def test_expressions_refuse_anything_else(expression):
    with pytest.raises(ExpressionError):
        evaluate(expression, {"n": 5})


def test_markup_parsed_again_gives_the_same_blocks_in_a_list_of_its_own():
    from printshop.typeset.richtext import Para, RichTextError, parse_blocks

    first = parse_blocks("<h1>Title</h1><p>Some <b>bold</b> words.</p><ul><li>one</li></ul>")
    first.append(Para("p", "added by a caller"))
    again = parse_blocks("<h1>Title</h1><p>Some <b>bold</b> words.</p><ul><li>one</li></ul>")
    assert [type(b).__name__ for b in again] == ["Para", "Para", "Para"] and again[0].style == "h1"
    assert again[1].markup == "Some <b>bold</b> words." and again[2].bullet == "•"
    for _ in range(2):  # an error is raised every time, never remembered as a result
        with pytest.raises(RichTextError):
            parse_blocks("<p>unclosed")
