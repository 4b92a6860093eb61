"""Issue 16: no card or sheet paragraph ends with one word alone on its last line (a runt). The fit
ties the last two words with a no-break space, or narrows a ragged measure, without another line and
without touching the size; the renderer sets the same lines; `runt-line` reports what is left, at
the text."""

from __future__ import annotations

import pytest

from printshop import memo
from printshop.diagnostics import Severity
from printshop.pipeline.build import check
from printshop.project.models.booklet import TextStyle
from printshop.project.paths import DEFAULT_DATA_DIR
from printshop.project.units import mm
from printshop.render.colour import Paints
from printshop.typeset.fitting import fit, make_flowables
from printshop.typeset.richtext import parse_blocks
from printshop.typeset.runts import ends_with_runt, runts
from tests.conftest import edit, one

# set in 44 mm at 9 pt without care, the last line of each holds one word
ENGLISH = "Find the dissident: if you look at the dissident card or are handed it, you win at once. Any committee fails."
FRENCH = "Trouvez le dissident\u202f: si vous regardez sa carte ou qu’on vous la remet, vous gagnez la partie\u202f!"


def style(**settings) -> TextStyle:
    return TextStyle(
        **{"font": "serif", "size": "9pt", "min_size": "7pt", "align": "left", **settings}
    )


def line_texts(paragraph) -> list[str]:
    return [
        " ".join(line[1]) if isinstance(line, tuple) else "".join(frag.text for frag in line.words)
        for line in paragraph.blPara.lines
    ]


def plain_paragraph(
    text: str, width: float, paints: Paints, hyphenation: str | None = None, **settings
):
    """`text` as ReportLab alone sets it in `width`."""
    from reportlab.platypus import Paragraph

    from printshop.typeset.fitting import paragraph_style

    paragraph = Paragraph(
        text, paragraph_style(style(**settings), 9.0, paints, hyphenation=hyphenation)
    )
    paragraph.wrap(width, 1e6)
    return paragraph


@pytest.mark.parametrize("text", [ENGLISH, FRENCH])
@pytest.mark.parametrize("align", ["left", "center", "justify"])
def test_the_last_line_takes_two_words_in_as_many_lines_at_the_same_size(paints, text, align):
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from printshop.typeset.runts import _loosest

    # justified text is hyphenated (that is what closes its gaps), in the language's patterns
    hyphenation = ("fr_FR" if text is FRENCH else "en_GB") if align == "justify" else None
    cured = 0
    for tenth in range(400, 600, 3):  # frames from 40 to 60 mm wide
        width = mm(tenth / 10)
        plain = plain_paragraph(text, width, paints, hyphenation, align=align)
        if not ends_with_runt(plain):
            continue
        # at 9 pt or nothing: the ties and narrowing alone, not a smaller step
        result = fit(
            parse_blocks(f"<p>{text}</p>"),
            style(align=align, min_size="9pt"),
            width,
            mm(60),
            paints,
            hyphenation,
        )
        assert result.fits and result.size == 9.0
        [paragraph] = result.flowables
        lines = line_texts(paragraph)
        assert len(lines) == len(
            plain.blPara.lines
        )  # as many lines: the same height, the same size
        # nothing lost, added or reordered (but a hyphen where a word breaks)
        assert "".join("".join(lines).split()).replace("-", "") == "".join(text.split())
        assert "\u202f" not in text or "partie\u202f!" in lines[-1]  # French spacing kept
        # the renderer, setting the text again (another output's colours), gets the same lines
        [again] = make_flowables(
            parse_blocks(f"<p>{text}</p>"),
            style(align=align, min_size="9pt"),
            result.size,
            paints,
            width,
            hyphenation,
        )
        again.wrap(width, 1e6)
        assert line_texts(again) == lines
        if runts(result):
            assert align == "justify"  # left as it was: tying would open its gaps too wide
            continue
        cured += 1
        assert len(lines[-1].split()) >= 2
        if (
            align == "justify"
        ):  # no line looser than the loosest before, or than one and a half spaces
            space = stringWidth(" ", "serif", 9.0)
            assert _loosest(paragraph) <= max(_loosest(plain), space / 2) + 0.01
            assert paragraph.style.rightIndent == 0  # never narrowed: the right edge would show it
    assert cured >= (1 if align == "justify" else 3), cured


def test_markup_and_forced_breaks_keep_their_words(paints):
    """Only a stretch that ends with a runt is tied, here the one after the <br/>; <b> and <i> keep
    their faces."""
    text = "<b>Party Chief</b><br/>2 Cure · 3B Purge · 6A Automatic <i>promotions</i>"
    blocks = parse_blocks(f"<p>{text}</p>")
    tied = kept = 0
    for tenth in range(300, 500):
        width = mm(tenth / 10)
        result = fit(blocks, style(), width, mm(40), paints)
        [paragraph] = result.flowables
        lines = line_texts(paragraph)
        assert lines[0] == "Party Chief" and "Chief\u00a0" not in paragraph.text
        assert (
            " ".join(" ".join(lines).split())
            == "Party Chief 2 Cure · 3B Purge · 6A Automatic promotions"
        )
        assert any(
            "promotions" in frag.text and frag.italic
            for line in paragraph.blPara.lines
            for frag in line.words
        )
        if "\u00a0" in paragraph.text:
            tied += 1
            assert (
                paragraph.text.endswith("Automatic\u00a0<i>promotions</i>")
                and len(lines[-1].split()) == 2
            )
        elif getattr(paragraph, "long_last_word", False):
            # where tying would leave the line above under SHORT_LINE of the measure, the long word
            # stays alone rather ("... 6A Automatic / promotions")
            kept += 1
            assert lines[-1] == "promotions" and not runts(result)
    assert tied + kept > 10


def test_a_word_left_alone_above_the_last_line_is_not_the_cure_so_a_ragged_measure_narrows(paints):
    """In 36 mm, tying "se reconnaissent" alone would leave "Mafieux" by itself on the middle line;
    the title, centred, is set a little narrower too: "Première nuit : / les Mafieux / se
    reconnaissent"."""
    title = "Première nuit\u202f: les Mafieux se reconnaissent"
    settings = {"font": "sans-bold", "size": "11pt", "min_size": "11pt", "align": "center"}
    result = fit(parse_blocks(f"<p>{title}</p>"), style(**settings), mm(36), mm(20), paints)
    [paragraph] = result.flowables
    lines = line_texts(paragraph)
    assert [len(line.split()) for line in lines] == [3, 2, 2], (
        lines
    )  # "nuit :" counts as one word and a colon
    assert (
        paragraph.style.leftIndent > 0 and paragraph.style.leftIndent == paragraph.style.rightIndent
    )


def test_where_nothing_else_cures_a_runt_a_frame_goes_a_step_or_two_smaller_unless_sized_across_its_deck(
    paints,
):
    """Kremlin's French influence sheet: justified, "… et cochez ce que vous avez / déclaré." at 9
    pt, where a tie would open the second line's spaces too wide; at 8.75 pt the text takes two
    lines."""
    from printshop.project.models.faces import Frame

    text = (
        "Avant la partie, inscrivez en secret les valeurs 1 à 10, chacune une seule fois, sur dix politiciens au "
        "choix, Aparatschik excepté. Déclarez-les ensuite avec vos marqueurs, jamais au-delà du chiffre noté, et "
        "cochez ce que vous avez déclaré."
    )
    blocks = parse_blocks(f"<p>{text}</p>")
    settings = {
        "font": "serif",
        "size": "9pt",
        "align": "justify",
        "leading": 1.3,
        "x": 0,
        "y": 0,
        "width": "174mm",
        "height": "16mm",
    }
    at_nine = fit(blocks, Frame(**settings, min_size="9pt"), mm(174), mm(16), paints, "fr_FR")
    assert at_nine.fits and runts(at_nine) == [
        "déclaré."
    ]  # no smaller size allowed: the runt stays, reported
    smaller = fit(blocks, Frame(**settings, min_size="8pt"), mm(174), mm(16), paints, "fr_FR")
    assert smaller.fits and smaller.size == 8.75 and runts(smaller) == []
    deck_wide = fit(
        blocks,
        Frame(**settings, min_size="8pt", size_across="deck"),
        mm(174),
        mm(16),
        paints,
        "fr_FR",
    )
    assert deck_wide.size == 9.0 and runts(deck_wide) == ["déclaré."]


def test_justified_text_is_never_narrowed(paints):
    for tenth in range(400, 600, 7):
        result = fit(
            parse_blocks(f"<p>{ENGLISH} {ENGLISH}</p>"),
            style(align="justify"),
            mm(tenth / 10),
            mm(80),
            paints,
        )
        [paragraph] = result.flowables
        assert paragraph.style.rightIndent == 0 and paragraph.style.leftIndent == 0


def test_two_words_and_single_lines_are_left_as_they_are(paints):
    for text in ("Casse-aux-Barbiturique Iossifovitch", "Short line."):
        result = fit(parse_blocks(f"<p>{text}</p>"), style(), mm(36), mm(20), paints)
        assert len(result.flowables[0].blPara.lines) == (2 if "Casse" in text else 1)
        assert "\u00a0" not in result.flowables[0].text


# --- runt-line ---------------------------------------------------------------------------------
def test_the_games_print_no_runt():
    report, _ = check(DEFAULT_DATA_DIR)
    assert [d.format() for d in report.items if d.code == "runt-line"] == []


def test_runt_line_is_reported_at_the_text_where_no_cure_fits(data_copy):
    """A 24 mm frame, set ragged: "Tournez de 90° / après l’usage / gratuit" cannot be mended by
    tying (a word alone above the last line) nor by narrowing (a fourth line). (Centred, as the game
    sets it, the balanced measure mends it: "Tournez / de 90° après / l’usage gratuit".)"""
    edit(
        data_copy / "comrade-stalin" / "faces.yaml",
        "               colour: red, align: center, valign: top}",
        "               colour: red, align: left, valign: top}",
    )
    texts = data_copy / "comrade-stalin" / "text" / "fr.yaml"
    line = edit(
        texts,
        'rotate: "Une fois l’usage gratuit passé, tournez de 90°"',
        'rotate: "Tournez de 90° après l’usage gratuit"',
    )
    item = one(data_copy, "runt-line", games=["comrade-stalin"])
    assert item.severity is Severity.WARNING
    assert item.location.path.endswith("comrade-stalin/text/fr.yaml") and item.location.line == line
    assert (
        "'sheet.rotate' (fr)" in item.message and '"gratuit" alone on its last line' in item.message
    )
    assert "frame 'rotate' of sheet 'roles'" in item.message and "faces.yaml" in item.also


# --- short words and numbers kept with the next word (languages' typography.keep_with_next)
# -----------------
def _line_ends(layout):
    """(line, the line after it) of each paragraph of the ragged and centred frames of a game's
    cards and sheets."""
    from reportlab.platypus import Paragraph

    faces = [face for deck in layout.decks for face in deck.faces.values()]
    faces += [face for sheet in layout.sheets for face in [*sheet.faces, *sheet.backs]]
    for face in faces:
        for laid in face.frames:
            if laid.frame.align == "justify":
                continue
            for flowable in laid.fit.flowables or ():
                if isinstance(flowable, Paragraph):
                    lines = line_texts(flowable)
                    short = _released(flowable, laid.frame.width)
                    yield from zip(lines, lines[1:], short)


def _released(paragraph, width: float) -> list[bool]:
    """For each line of a wrapped paragraph: whether, without its last word (a short word whose tie
    to the next was released, runts.released_ties), it would be under RELEASE_BELOW of `width`."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from printshop.typeset.runts import RELEASE_BELOW, line_lengths

    style = paragraph.style
    found = []
    for line, length in zip(line_texts(paragraph), line_lengths(paragraph, width)):
        last = line.split()[-1] if line.split() else ""
        without = length - stringWidth(" " + last, style.fontName, style.fontSize)
        found.append(RELEASE_BELOW * width > without and "bold" not in style.fontName)
    return found


def test_no_ragged_or_centred_line_of_the_games_ends_with_a_short_word_or_a_number_parted_from_its_word():
    """French cards and sheets never end a line with an article or short preposition (« la / lampe
    », "du / dissident"), nor either language a number before its word ("perd 1 / lumière");
    justified booklet paragraphs keep their breaks (a tie there opens the line above wide), their
    headings and list items do not. The one exception: running text where the tie would leave the
    line above under RELEASE_BELOW of the measure (issue 51: "Passe-temps : Distribuer / du goudron
    aux réfractaires" is set "Passe-temps : Distribuer du / goudron aux réfractaires")."""
    import re

    from printshop.language.texts import keep_with_next

    report, checked = check(DEFAULT_DATA_DIR)
    seen, parted = 0, []
    for layout in checked.layouts:
        typography = layout.localized.language.typography
        short = {word.casefold() for word in typography.keep_with_next}
        for line, following, released in _line_ends(layout):
            seen += 1
            if released:  # kept with the next, the line above would fall under RELEASE_BELOW
                continue
            last = re.split(r"[\s\u00a0\u202f]+", line.strip())[-1]
            number = (
                typography.numbers_with_next
                and re.fullmatch(r"\d+(?:[.,]\d+)*[^\W\d_]*", last)
                and re.match(r"[^\W\d_]", following.strip())
            )
            if last.casefold() in short or number:
                parted.append((layout.game_id, layout.lang, line, following))
        if layout.booklet is not None and layout.lang == "fr":
            styles = layout.booklet.style.styles
            paras = [block for block in layout.booklet.blocks if hasattr(block, "markup")]
            ragged = [block.markup for block in paras if styles[block.style].align != "justify"]
            justified = [block.markup for block in paras if styles[block.style].align == "justify"]
            assert all(keep_with_next(markup, typography) == markup for markup in ragged)
            assert any(keep_with_next(markup, typography) != markup for markup in justified)
    assert seen > 1000 and parted == []


def test_a_justified_frame_keeps_its_breaks_and_a_ragged_one_ties(paints):
    """The same French text in a justified frame and a ragged one: only the ragged one's markup is
    tied."""
    from printshop.layout.faces import tied
    from printshop.project.models.language import Typography

    typography = Typography(keep_with_next=["de", "la"], numbers_with_next=True)
    blocks = parse_blocks("<p>La fin de la partie, 3 cartes.</p>")
    assert tied(blocks, typography, lambda block: "justify") == blocks
    [ragged] = tied(blocks, typography, lambda block: "center")
    assert ragged.markup == "La\u00a0fin de\u00a0la\u00a0partie, 3\u00a0cartes."


# --- balanced centred paragraphs
# -----------------------------------------------------------------------------
def test_a_centred_paragraph_is_set_in_its_balanced_measure_and_a_ragged_one_is_not(paints):
    """Centred in 55 mm, the English dissident's text ran "You win when the regime falls: let" edge
    to edge over "informer wins."; it keeps its five lines in a narrower measure, its lines more
    alike and the longest shorter, the renderer setting the same lines. Set ragged left, the same
    text keeps its greedy breaks. A paragraph whose lines are already about one length is left as it
    is."""
    from printshop.typeset.fitting import EVEN
    from printshop.typeset.runts import line_lengths, line_spread

    text = (
        "You win when the regime falls: let comrades learn your word and vote for it without you. If the informer "
        "sees or receives this card, the informer wins."
    )
    width = mm(55)
    for align, balanced in (("center", True), ("left", False)):
        plain = plain_paragraph(text, width, paints, None, align=align)
        result = fit(
            parse_blocks(f"<p>{text}</p>"),
            style(align=align, min_size="9pt"),
            width,
            mm(60),
            paints,
        )
        [paragraph] = result.flowables
        lengths, before = line_lengths(paragraph, width), line_lengths(plain, width)
        assert len(lengths) == len(before) and result.size == 9.0
        if balanced:
            assert (
                paragraph.style.leftIndent == paragraph.style.rightIndent > mm(2)
            )  # narrowed on both sides
            assert max(lengths) < max(before) - mm(1) and line_spread(
                paragraph, width
            ) < line_spread(plain, width)
            assert line_texts(paragraph)[-1] == "this card, the informer wins."
        else:
            assert paragraph.style.leftIndent == 0 and line_texts(paragraph) == line_texts(plain)
        [again] = make_flowables(
            parse_blocks(f"<p>{text}</p>"),
            style(align=align, min_size="9pt"),
            result.size,
            paints,
            width,
        )
        again.wrap(width, 1e6)
        assert line_texts(again) == line_texts(paragraph)
    # already even: "Take the role sheet that matches / this card and keep it to yourself."
    even = "Take the role sheet that matches this card and keep it to yourself."
    result = fit(
        parse_blocks(f"<p>{even}</p>"),
        style(align="center", min_size="9pt"),
        mm(51),
        mm(60),
        paints,
    )
    assert (
        result.flowables[0].style.leftIndent == 0
        and line_spread(result.flowables[0], mm(51)) <= mm(51) * EVEN
    )


def test_a_balanced_measure_is_worked_out_once_for_a_text_style_and_width_whatever_its_colours(
    paints, monkeypatch
):
    """The renderer sets each text again in its output's colours (CMYK for a shop, low ink): it
    takes the measure the layout chose instead of trying the measures again; another width tries
    them again."""
    from printshop.render.colour import ColourMode, Paints
    from printshop.typeset import fitting

    tried = []
    real = fitting._balanced_by
    monkeypatch.setattr(fitting, "_balanced_by", lambda *args: tried.append(args[2]) or real(*args))
    memo.clear("balanced")
    memo.clear("fitted")  # (a fit remembered from another test would not set the text at all)
    text = (
        "You win when the regime falls: let comrades learn your word and vote for it without you. If the informer "
        "sees or receives this card, the informer wins."
    )
    frame = style(align="center", min_size="9pt")
    result = fit(parse_blocks(f"<p>{text}</p>"), frame, mm(55), mm(60), paints)
    assert tried == [mm(55)]
    shop = Paints(paints.palette, ColourMode(space="cmyk"))
    [cmyk] = make_flowables(parse_blocks(f"<p>{text}</p>"), frame, result.size, shop, mm(55))
    cmyk.wrap(mm(55), 1e6)
    assert tried == [mm(55)] and line_texts(cmyk) == line_texts(result.flowables[0])
    fit(parse_blocks(f"<p>{text}</p>"), frame, mm(57), mm(60), paints)
    assert tried == [mm(55), mm(57)]


def test_a_runt_before_a_forced_break_is_mended_and_reported_like_the_last_lines(
    paints, monkeypatch
):
    """Kremlin's politician cards set "Passe-temps : Les explosions de petit / calibre<br/>Ambition
    : ...": only the stretch after the last <br/> was looked at. Each stretch is now mended as the
    last one is (its last words tied, or a ragged measure narrowed); what cannot be mended is
    reported, at that stretch's last line."""
    from printshop.typeset import runts as runts_module
    from printshop.typeset.runts import _line_words, _stretches, has_runt

    text = "<b>Passe-temps :</b> Les explosions de petit calibre<br/><b>Ambition :</b> Une explosion, mais une grosse"
    blocks = parse_blocks(f"<p>{text}</p>")
    seen = mended = 0
    for tenth in range(380, 520, 2):  # frames from 38 to 52 mm
        frame = mm(tenth / 10)
        plain = plain_paragraph(text, frame, paints)
        if not _runt_before_break(plain):
            continue
        seen += 1
        result = fit(blocks, style(min_size="9pt"), frame, mm(40), paints)
        [paragraph] = result.flowables
        assert len(paragraph.blPara.lines) == len(plain.blPara.lines) and result.size == 9.0
        assert " ".join(" ".join(line_texts(paragraph)).split()) == " ".join(
            " ".join(line_texts(plain)).split()
        )
        if not has_runt(paragraph):
            mended += 1
            assert _line_words(_stretches(paragraph)[0][-1])[0] >= 2
        [again] = make_flowables(blocks, style(min_size="9pt"), result.size, paints, frame)
        again.wrap(frame, 1e6)
        assert line_texts(again) == line_texts(paragraph)
    assert seen and mended == seen, (mended, seen)
    # where no cure is tried (justified, the tie taken away), the runt is reported at its stretch's
    # last line
    monkeypatch.setattr(runts_module, "_tie_last_words", lambda markup, which=None: None)
    memo.clear("fitted")
    for tenth in range(380, 520, 2):
        frame = mm(tenth / 10)
        if _runt_before_break(plain_paragraph(text, frame, paints, align="justify")):
            result = fit(blocks, style(align="justify", min_size="9pt"), frame, mm(40), paints)
            assert runts(result) and runts(result)[0] == "calibre"
            break
    else:
        raise AssertionError("no justified width with a runt before the break")


def _runt_before_break(paragraph) -> bool:
    from printshop.typeset.runts import _runt, _stretches

    return any(_runt(lines) for lines in _stretches(paragraph)[:-1])


def test_a_tie_that_would_leave_the_line_above_at_half_the_measure_is_released(paints):
    """Issue 51: French ties took a chain of words down together and left a first line at 55 % of
    the measure. In running text the tie gives way (the short word ends the line, which grows) where
    the line would be under RELEASE_BELOW of the measure; in a bold title it holds; where the line
    keeps RELEASE_BELOW of the measure anyway, it holds too."""
    from reportlab.platypus import Paragraph

    from printshop.language.texts import keep_with_next
    from printshop.project.loader import load_project
    from printshop.typeset.fitting import paragraph_style
    from printshop.typeset.runts import RELEASE_BELOW, line_lengths, paragraph_without_runt

    typography = load_project(DEFAULT_DATA_DIR, games=[]).languages["fr"].typography
    text = keep_with_next("Passe-temps : Distribuer du goudron aux réfractaires", typography)
    assert "du\u00a0goudron" in text
    serif = paragraph_style(style(size="7.5pt"), 7.5, paints)
    bold = paragraph_style(style(size="7.5pt", font="sans-bold"), 7.5, paints)
    released = kept = 0
    for tenth in range(250, 600, 5):
        width = mm(tenth / 10)
        tied = Paragraph(text, serif)
        tied.wrap(width, 1e6)
        set_ = paragraph_without_runt(text, serif, width)
        if len(tied.blPara.lines) > 1 and line_lengths(tied, width)[0] < RELEASE_BELOW * width:
            if line_texts(set_)[0].endswith("du"):
                released += 1
                assert line_lengths(set_, width)[0] > line_lengths(tied, width)[0]
                assert len(set_.blPara.lines) == len(tied.blPara.lines)
        else:
            kept += 1
            assert not line_texts(set_)[0].endswith(" du")  # nothing short: the tie holds
        assert not any(
            line.endswith(" du") for line in line_texts(paragraph_without_runt(text, bold, width))
        )
    assert released >= 3 and kept >= 3
