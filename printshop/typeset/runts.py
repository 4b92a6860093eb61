"""Runts: a paragraph's last line holding one word alone (docs/design.md), found and, where it can
be, avoided.

A paragraph is read as ReportLab wrapped it: its lines, in stretches up to each forced break
(<br/>), each line's words and the room left at its end. `paragraph_without_runt` sets a paragraph
whose stretch ends with a runt again, its last two words tied by a no-break space or (unless
justified) its measure narrowed, where that keeps its lines; `runts` says what is left in a fit, for
`validate`. typeset.fitting uses these when it makes a frame's flowables and balances centred lines.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from printshop.typeset.fonts import with_fallback
from printshop.typeset.richtext import FORCED_BREAK, NO_BREAK_SPACES, TAG_OR_TEXT

if TYPE_CHECKING:
    from printshop.typeset.fitting import Fit

# a word as a reader counts it: something with a letter, a digit or an inline icon in it (not "–",
# "»" or "+)."); an icon stands in the text as U+FFFC OBJECT REPLACEMENT CHARACTER (`ICON`)
ICON = "\ufffc"
_WORD = re.compile(f"[^\\W_]|{ICON}")
_ANY_SPACE = re.compile(f"[\\s{NO_BREAK_SPACES}]+")


def line_lengths(paragraph: Paragraph, width: float) -> list[float]:
    """How long each line of a paragraph wrapped in `width` is: its measure (less its indents) less
    the room left."""
    measure = width - paragraph.style.leftIndent - paragraph.style.rightIndent
    return [
        measure - (line[0] if isinstance(line, tuple) else line.extraSpace)
        for line in paragraph.blPara.lines
    ]


def line_spread(paragraph: Paragraph, width: float) -> float:
    """How far the lines of a wrapped paragraph fall short of its longest, as one length (the root
    of their squares' mean). A paragraph may end on a shorter line: of three lines or more, the last
    one's shortfall is not counted (a last line longer than the others still makes theirs); of two,
    both are, so that they come out alike."""
    lengths = line_lengths(paragraph, width)
    longest = max(lengths)
    counted = lengths if len(lengths) == 2 else lengths[:-1]
    return (sum((longest - length) ** 2 for length in counted) / len(counted)) ** 0.5


def paragraph_without_runt(
    markup: str, style: ParagraphStyle, width: float, bullet: str | None = None
) -> Paragraph:
    """The paragraph of `markup`; if, set in `width`, it or a stretch of it before a forced break
    would end with a runt (one word alone on its last line, docs/design.md), the first of these that
    sets it in as many lines, none running over, with no runt and no word left alone on the line
    before a stretch's last: the last two words of each such stretch tied by a no-break space (the
    word before goes down with the last); unless justified, a measure narrowed in steps of 5 % up to
    30 % (ragged and centred lines move nothing but their breaks), the words untied, then tied.
    Justified text takes a tie only if its loosest line gets no looser, or no looser than one and a
    half spaces between words. Otherwise the paragraph as it was (`fit` may try a smaller size;
    `validate` reports the runt). The choice depends on the markup, style and width only, so a
    renderer setting the text again gets the same lines."""
    if width > 0 and style.alignment in (TA_LEFT, TA_RIGHT) and "bold" not in style.fontName:
        markup = released_ties(markup, style, width, bullet)  # running text, not titles
    paragraph = Paragraph(with_fallback(markup), style, bulletText=bullet)
    if width <= 0 or len(markup.split()) < 3:
        return paragraph
    paragraph.wrap(width, 1e6)
    paragraph.wrapped_width = width  # measure takes this wrap as it is
    if not has_runt(paragraph):
        return paragraph
    lines, room = len(paragraph.blPara.lines), min(tightest_room(paragraph), 0.0) - 0.01
    loose = (
        stringWidth(" ", style.fontName, style.fontSize) / 2
    )  # justified gaps up to 1.5 spaces are fine
    tied = _tie_last_words(
        markup, {number for number, lines in enumerate(_stretches(paragraph)) if _runt(lines)}
    )
    narrower = (
        [] if style.alignment == TA_JUSTIFY else [width * step / 100 for step in range(5, 31, 5)]
    )
    second = None  # the first mend that leaves a line above short (SHORT_LINE)
    for by in [0.0, *narrower]:
        for text in ([markup] if by else []) + ([tied] if tied is not None else []):
            shape = (
                style
                if not by
                else ParagraphStyle(
                    f"{style.name}-narrower", parent=style, **narrowed_indents(style, by)
                )
            )
            other = Paragraph(with_fallback(text), shape, bulletText=bullet)
            other.wrap(width, 1e6)
            if (
                len(other.blPara.lines) == lines
                and tightest_room(other) >= room
                and not has_runt(other)
                and not lone_word_before_last(other)
                and (
                    style.alignment != TA_JUSTIFY
                    or _loosest(other) <= max(_loosest(paragraph), loose) + 0.01
                )
            ):
                other.wrapped_width = width
                if not short_line_made(paragraph, other, width):
                    return other
                second = second or other
    if second is not None and _runts_are_long(paragraph):
        # every mend would leave a line above at half the measure: a long last word alone reads
        # better ("Passe-temps : Mesurer les retombées / radioactives", not "Passe-temps : Mesurer /
        # les retombées radioactives")
        paragraph.long_last_word = True
        return paragraph
    return second or paragraph


# a short word tied to the next (texts.keep_with_next: an article, a preposition, "d’un", a number)
_TIED_HEAD = re.compile(r"^(?:[^\W\d_]+[’'])?(?:[^\W\d_]{1,3}|\d+)$")


def released_ties(markup: str, style: ParagraphStyle, width: float, bullet: str | None) -> str:
    """`markup` with up to RELEASES of the language's ties (a short word kept with the next,
    texts.keep_with_next) made breaking spaces again where, set ragged in `width`, a line not the
    last of its stretch would be shorter than RELEASE_BELOW of the measure because the tied words
    went down together ("Petr vient au Politburo / en automitrailleuse et se gare sur" is set "Petr
    vient au Politburo en / automitrailleuse et se gare sur"): a short word at a line's end reads
    better than a line at two thirds of the measure. Only where the release keeps the lines,
    lengthens that line and leaves no word alone on a last line that had company; never in a bold
    face (titles and headings keep their short words with their nouns)."""
    if "\u00a0" not in markup:
        return markup
    for _ in range(RELEASES):
        paragraph = Paragraph(with_fallback(markup), style, bulletText=bullet)
        paragraph.wrap(width, 1e6)
        short = _short_before_tie(paragraph, width)
        if short is None:
            return markup
        index, head = short
        lines = len(paragraph.blPara.lines)
        for found in re.finditer(r"(?:^|(?<=[\s>«(]))" + re.escape(head) + "\u00a0", markup):
            trial = markup[: found.end() - 1] + " " + markup[found.end() :]
            other = Paragraph(with_fallback(trial), style, bulletText=bullet)
            other.wrap(width, 1e6)
            if (
                len(other.blPara.lines) <= lines
                and line_lengths(other, width)[index] > line_lengths(paragraph, width)[index] + 0.01
                and (has_runt(paragraph) or not has_runt(other))
            ):
                markup = trial
                break
        else:
            return markup
    return markup


def _short_before_tie(paragraph: Paragraph, width: float) -> tuple[int, str] | None:
    """The first line, not the last of its stretch, shorter than RELEASE_BELOW of `width` whose
    next line starts with a short word tied to the next, and that word; None: none."""
    lines = paragraph.blPara.lines
    lengths = line_lengths(paragraph, width)
    for index, line in enumerate(lines[:-1]):
        if getattr(line, "lineBreak", False) or lengths[index] >= RELEASE_BELOW * width:
            continue
        first = _line_text(lines[index + 1]).lstrip().split(" ")[0]
        head = first.split("\u00a0")[0]
        if "\u00a0" in first and _TIED_HEAD.match(head):
            return index, head
    return None


def _runts_are_long(paragraph: Paragraph) -> bool:
    """Whether every stretch of a paragraph that ends with a runt ends with a long word (LONG_WORD
    letters or more: "radioactives", not "fails.")."""
    return all(
        sum(ch.isalpha() for ch in _line_text(lines[-1])) >= LONG_WORD
        for lines in _stretches(paragraph)
        if _runt(lines)
    )


# the shortest a line may be left, as a share of the frame, by a mend that moves words down: a tie
# that takes a chain of tied words ("un contrat discographique") to the next line must not leave the
# line above it at half the measure
SHORT_LINE = 0.7
# a tie of a short word to the next gives way where it would leave the line above shorter than
# this share of the measure (released_ties), up to this many times in a paragraph
RELEASE_BELOW, RELEASES = 0.75, 6
# a last line's one word of at least this many letters is left alone rather than mended into a
# short line above (_runts_are_long)
LONG_WORD = 8


def short_line_made(paragraph: Paragraph, other: Paragraph, width: float) -> bool:
    """Whether `other` (a mend of `paragraph`, in as many lines) has a line, not the last of its
    stretch, shorter than SHORT_LINE of `width` where `paragraph`'s same line was longer."""
    before, after = line_lengths(paragraph, width), line_lengths(other, width)
    ends = {
        index
        for index, line in enumerate(other.blPara.lines)
        if getattr(line, "lineBreak", False) or index == len(after) - 1
    }
    return any(
        length < SHORT_LINE * width <= before[index]
        for index, length in enumerate(after)
        if index not in ends and index < len(before)
    )


def narrowed_indents(style: ParagraphStyle, by: float) -> dict:
    """The indents that narrow `style`'s measure by `by` points, on the side its lines are ragged."""
    if style.alignment == TA_CENTER:
        return {"leftIndent": style.leftIndent + by / 2, "rightIndent": style.rightIndent + by / 2}
    if style.alignment == TA_RIGHT:
        return {"leftIndent": style.leftIndent + by}
    return {"rightIndent": style.rightIndent + by}


def _loosest(paragraph: Paragraph) -> float:
    """The widest room justification adds between two words of a wrapped paragraph's justified lines
    (all but a last line and one ended by <br/>): a tie in justified text never makes its loosest
    line looser."""
    lines, widest = paragraph.blPara.lines, 0.0
    for line in lines[:-1]:
        extra, words = (
            (line[0], len(line[1]))
            if isinstance(line, tuple)
            else (line.extraSpace, line.wordCount)
        )
        if words > 1 and not getattr(line, "lineBreak", False):
            widest = max(widest, extra / (words - 1))
    return widest


def tightest_room(paragraph: Paragraph) -> float:
    """The least room left at the end of a wrapped paragraph's lines (negative: a line runs over)."""
    return min(
        line[0] if isinstance(line, tuple) else line.extraSpace for line in paragraph.blPara.lines
    )


def _line_text(line) -> str:
    """The text of a wrapped line: words (one font) or fragments (several)."""
    return (
        " ".join(line[1])
        if isinstance(line, tuple)
        else "".join(
            ICON if getattr(getattr(w, "cbDefn", None), "width", 0) else getattr(w, "text", "")
            for w in line.words
        )
    )


def _line_words(line) -> tuple[int, bool]:
    """How many words (with a letter or digit) a wrapped line holds, and whether it prints anything."""
    text = _line_text(line)
    return sum(1 for word in _ANY_SPACE.split(text) if _WORD.search(word)), bool(text.strip())


def runts(result: Fit) -> list[str]:
    """The last line of each stretch of a fitted text's paragraphs (up to each forced break, and
    after the last) that still ends with a runt (`has_runt`), worked out once per fit (fits are
    remembered and shared; a session asks again after every edit)."""
    found = result.__dict__.get("_runts")
    if found is None:
        found = result.__dict__["_runts"] = [
            _line_text(lines[-1]).strip()
            for flowable in result.flowables or ()
            if isinstance(flowable, Paragraph) and not getattr(flowable, "long_last_word", False)
            for lines in _stretches(flowable)
            if _runt(lines)
        ]
    return list(found)


def ends_with_runt(paragraph: Paragraph) -> bool:
    """Whether a wrapped paragraph ends with a runt: its last line holds one word (or only
    punctuation) where the lines since its last forced break (<br/>) hold three words or more."""
    return _runt(_stretches(paragraph)[-1])


def has_runt(paragraph: Paragraph) -> bool:
    """Whether any stretch of a wrapped paragraph (its text up to each forced break, and after the
    last) ends with a runt: "Passe-temps : Les explosions de petit / calibre<br/>Ambition : ..."
    does."""
    return any(_runt(lines) for lines in _stretches(paragraph))


def _stretches(paragraph: Paragraph) -> list[list]:
    """The lines of a wrapped paragraph in the stretches its forced breaks end (a line ended by
    <br/> closes its stretch)."""
    stretches, current = [], []
    for line in paragraph.blPara.lines:
        current.append(line)
        if getattr(line, "lineBreak", False):
            stretches.append(current)
            current = []
    return stretches + [current] if current or not stretches else stretches


def _runt(lines: list) -> bool:
    """Whether a stretch's last line holds one word (or only punctuation) where its lines hold three
    or more."""
    if len(lines) < 2:
        return False
    counts = [_line_words(line) for line in lines]
    words, printed = counts[-1]
    return printed and words <= 1 and sum(count for count, _ in counts) >= 3


def lone_word_before_last(paragraph: Paragraph) -> bool:
    """Whether, in any stretch of a wrapped paragraph (up to a forced break, or after the last), the
    line before the last holds a word alone between two lines of the same sentence; a first line may
    ("BOUNTY / HUNTER'S MARK")."""
    return any(
        len(lines) >= 3 and _line_words(lines[-2])[0] <= 1 for lines in _stretches(paragraph)
    )


def _tie_last_words(markup: str, which: set[int] | None = None) -> str | None:
    """`markup` with the breaking spaces after the second-to-last word of each stretch in `which`
    (its indices: the text up to each forced break, and after the last; None: the last) made
    no-break spaces, so that its last two words stay on one line; None if none of those stretches
    has two words."""
    stretches: list[list[tuple[int, str]]] = [
        []
    ]  # (index in markup, character) of the text of each stretch
    for match in TAG_OR_TEXT.finditer(markup):
        piece = match.group()
        if piece.startswith("<"):
            if FORCED_BREAK.fullmatch(piece):
                stretches.append([])
            elif piece.startswith("<icon"):  # an icon is a glyph of the word it touches
                stretches[-1].append((match.start(), ICON))
            continue
        stretches[-1].extend((match.start() + offset, ch) for offset, ch in enumerate(piece))
    replace: dict[int, str] = {}
    for number, text in enumerate(stretches):
        if number not in (which if which is not None else {len(stretches) - 1}):
            continue
        words = _words_and_spaces(text)
        counted = [i for i, (word, _) in enumerate(words) if _WORD.search(html.unescape(word))]
        if len(counted) < 2:
            continue
        for _, before in words[counted[-2] + 1 :]:
            replace.update({index: "" for index in before})
            replace[before[0]] = "\u00a0"
    if not replace:
        return None
    return "".join(replace.get(index, ch) for index, ch in enumerate(markup))


def _words_and_spaces(text: list[tuple[int, str]]) -> list[tuple[str, list[int]]]:
    """Each word of a stretch's text ((index in markup, character) pairs) as ReportLab splits them
    (at a space that is not a no-break one), with the indices of the spaces before it."""
    words: list[tuple[str, list[int]]] = []
    spaces: list[int] = []
    before: list[int] = []
    word = ""
    for index, ch in text:
        if ch.isspace() and ch not in NO_BREAK_SPACES:
            if word:
                words.append((word, before))
                word = ""
            spaces.append(index)
        else:
            if not word:
                before, spaces = spaces, []
            word += ch
    if word:
        words.append((word, before))
    return words
