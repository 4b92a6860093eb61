"""Justified text without rivers: no line's word spaces stretch beyond `MAX_WORD_SPACE` times the
font's own.

ReportLab breaks lines greedily: a line ends where the next word, hyphenated where the language
allows, does not fit, and justification then spreads the room left over the line's spaces. When the
next word is short or cannot be broken (French patterns never leave a mute syllable such as "-ple"
or "-que" for the next line), a line with few spaces stretches each one to two, three times its
width: the rivers of issue 16.

`EvenParagraph` measures each justified line as it is wrapped (`stretch`: the word space
justification gives it, as a multiple of the narrowest normal space among its fonts) and mends the
loose ones in two steps:

1. It breaks the paragraph again around them, a line at a time given another measure: one of the three lines
   before a loose one narrower than its words, so that it gives up its last word (or two, or three; or part
   of one, hyphenated) and the rest flows on from there; or the loose line wider by what its spaces may
   shrink (to `MIN_WORD_SPACE`), so that it takes up the next word or part of it. Each line is then justified
   across the frame's own measure. A change is kept only if the paragraph keeps its number of lines, no space
   shrinks below `MIN_WORD_SPACE`, and the room its loose lines would leave at their ends (step 2) shrinks,
   or stays with a smaller worst stretch; the search starts again from the best lines found (a few rounds).
2. A line still too loose has its spaces stretched to `MAX_WORD_SPACE` and no further, and the rest of the
   room spread between its letters, up to `MAX_TRACKING` of the font size each (review 3-D saw lines ending
   1–3 mm short of the margin); what that cannot spend stays at the line's end (in the games' booklets, a
   line or two).

A paragraph's last line and a line ended by <br/> are never justified, so never measured. The lines
depend on the text, style and width only, so every wrap of the same paragraph gives the same lines;
the first part of a paragraph split across pages keeps the lines it had whole (the second is set
again from its first word).
"""

from __future__ import annotations

import copy

from reportlab.lib.enums import TA_JUSTIFY
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from printshop import memos
from printshop.typeset import fonts
from printshop.typeset.fonts import FALLBACK_FACE

# the widest a justified line's word space may be, as a multiple of the font's normal space: beyond
# twice its width a space reads as a hole, and holes above each other as a river down the page
MAX_WORD_SPACE = 2.0
# the narrowest a word space may shrink to when a loose line takes up the next word: a fifth less
# than the font's
MIN_WORD_SPACE = 0.8
# the most a line still too loose at the limit sets its letters apart, as a share of the font size
# (2 %: a twelfth of a word space; review 4 could see 0.27 pt, 2.9 %, beside word spaces at their
# limit; a line that needs more keeps the rest of its room at its end, and is best reworded)
MAX_TRACKING = 0.02
LOOK_BACK = 3  # how many lines before a loose one may give it their last word
ROUNDS = 4  # how many times the look-back starts again from its best lines
GIVE = 3  # how many words (or parts of words) a line may give up
# a paragraph's last line of one word shorter than this share of the measure ("seul.") is mended by
# the lines above giving it a word, where that leaves no line looser than the limit
SHORT_LAST = 0.15


def line_spaces(paragraph_lines, line) -> tuple[int, float]:
    """How many spaces ReportLab stretches to justify `line` (the breaks between words and the
    no-break spaces U+00A0, which it stretches too) and the narrowest normal space among the line's
    fonts (the fallback face of symbols counts only when nothing else is set)."""
    if isinstance(line, tuple):  # a paragraph in one font: (room left, words)
        words = line[1]
        count = len(words) - 1 + sum(word.count("\u00a0") for word in words)
        return count, stringWidth(" ", paragraph_lines.fontName, paragraph_lines.fontSize)
    frags = [
        frag for frag in line.words if not hasattr(frag, "cbDefn") and getattr(frag, "text", None)
    ]
    count = line.wordCount - 1 + sum(frag.text.count("\u00a0") for frag in frags)
    fonts = {(frag.fontName, frag.fontSize) for frag in frags}
    text_fonts = {font for font in fonts if font[0] != FALLBACK_FACE} or fonts
    space = min((stringWidth(" ", name, size) for name, size in text_fonts), default=0.0)
    return count, space


def _room(line) -> float:
    return line[0] if isinstance(line, tuple) else line.extraSpace


def stretch(paragraph_lines, line) -> float:
    """The word space justification gives `line`, as a multiple of its normal space (1.0: none
    added; below 1.0: spaces shrunk to fit one more word)."""
    count, space = line_spaces(paragraph_lines, line)
    if count <= 0 or space <= 0:
        return 1.0
    return (space + _room(line) / count) / space


def ragged_room(paragraph_lines, line, limit: float = MAX_WORD_SPACE) -> float:
    """The room a line would leave at its end with its spaces stretched to `limit` and no further
    (0: the line is justified within the limit)."""
    count, space = line_spaces(paragraph_lines, line)
    if count <= 0 or space <= 0:
        return 0.0
    return max(0.0, _room(line) - (limit - 1) * space * count)


def justified_lines(paragraph_lines, justify_last: bool = False) -> list[int]:
    """The indices of the lines ReportLab justifies: all but the last (unless the paragraph goes on
    in the next frame) and those ended by <br/>."""
    lines = paragraph_lines.lines
    last = len(lines) if justify_last else len(lines) - 1
    return [index for index in range(last) if not getattr(lines[index], "lineBreak", False)]


def loose_lines(paragraph: Paragraph, limit: float = MAX_WORD_SPACE) -> list[float]:
    """The stretch of each justified line of a wrapped paragraph that is beyond `limit`."""
    if paragraph.style.alignment != TA_JUSTIFY or not hasattr(paragraph, "blPara"):
        return []
    lines = paragraph.blPara
    found = [
        stretch(lines, lines.lines[i])
        for i in justified_lines(lines, getattr(paragraph, "_JustifyLast", False))
    ]
    return [value for value in found if value > limit + 1e-6]


def _with_room(line, room: float):
    if isinstance(line, tuple):
        return (room, line[1])
    line.extraSpace = room
    return line


class _TrackedWords(list):
    """The words of a line of a paragraph in one font, with the `tracking` it is drawn with."""

    tracking = 0.0


def _glyphs(line) -> int:
    """How many characters `line` sets (its spaces included, its images not)."""
    if isinstance(line, tuple):
        return len(" ".join(line[1]))
    return sum(
        len(getattr(frag, "text", "") or "") for frag in line.words if not hasattr(frag, "cbDefn")
    )


def _tracked(line, rest: float, size: float):
    """`line` with the `tracking` (points between letters) that spends `rest` (room its word
    spaces at the limit leave), up to MAX_TRACKING of the font size; the rest stays at the line's
    end. Drawn by reportlab_patches.tracked_justified_lines."""
    glyphs = _glyphs(line)
    if glyphs < 2 or rest <= 0:
        return line
    tracking = min(MAX_TRACKING * size, rest / (glyphs - 1))
    if isinstance(line, tuple):
        words = _TrackedWords(line[1])
        words.tracking = tracking
        return (line[0], words)
    line.tracking = tracking
    return line


# lines already broken, by EvenParagraph._key: a booklet is set several times to balance its pages
# (render/booklet.py) and for each paper and shop; its paragraphs break the same way every time
_BROKEN = memos.BROKEN
_ABSENT = object()
_NOT_NOTED = ("blPara", "_text_given")


class EvenParagraph(Paragraph):
    """A paragraph whose justified lines never stretch their spaces beyond `MAX_WORD_SPACE` (see
    above)."""

    _kept = None  # the lines of the first part of a split paragraph, as they were in the whole
    ragged = 0.0  # the room left at the ends of the lines set ragged at the limit, in all (points)

    def breakLines(self, width):
        if self._kept is not None:
            return self._kept
        key = self._key(width)
        known = _BROKEN.get(key) if key is not None else None
        if (
            known is not None
        ):  # the same text, style and width: the same lines, and what breaking them noted
            # (shared: nothing changes broken lines afterwards, reportlab_patches.split_without_
            # changing_lines sees to the one place ReportLab did)
            lines, noted = known
            self.__dict__.update(noted)
            return lines
        before = dict(self.__dict__)
        self._pristine = copy.deepcopy(self.frags) if self.style.alignment == TA_JUSTIFY else None
        self._tried = False
        lines = super().breakLines(width)
        if self.style.alignment == TA_JUSTIFY and len(lines.lines) >= 2:
            lines = self._even(width, lines)
        if (
            self._tried
        ):  # the tries broke copies (`_broken`): the paragraph keeps the fragments as given
            self.frags = self._pristine
        del self._pristine, self._tried
        if key is not None:
            _BROKEN[key] = (
                lines,
                {
                    name: value
                    for name, value in self.__dict__.items()
                    if name not in _NOT_NOTED and before.get(name, _ABSENT) is not value
                },
            )
        return lines

    def _key(self, width):
        """What the lines of this paragraph depend on: its text, bullet and style (all but the space
        above and below it), the width and the font files behind the style's names (a session
        registers them again when a file changes); None for a part of a split paragraph, which is
        made from fragments."""
        text = getattr(self, "_text_given", None)
        if text is None:
            return None
        style = tuple(
            sorted(
                (name, repr(value))
                for name, value in self.style.__dict__.items()
                if name not in ("name", "parent", "spaceBefore", "spaceAfter")
            )
        )
        return text, repr(self.bulletText), style, repr(width), fonts.state()

    def __init__(
        self, text, style=None, bulletText=None, frags=None, caseSensitive=1, encoding="utf8"
    ):
        super().__init__(
            text,
            style,
            bulletText=bulletText,
            frags=frags,
            caseSensitive=caseSensitive,
            encoding=encoding,
        )
        self._text_given = text if frags is None and isinstance(text, str) else None

    def split(self, availWidth, availHeight):
        parts = super().split(availWidth, availHeight)
        if len(parts) == 2 and isinstance(parts[0], EvenParagraph) and hasattr(self, "blPara"):
            first = parts[0]
            first._kept = self.blPara.clone(
                lines=list(self.blPara.lines[: len(first.blPara.lines)])
            )
        return parts

    def _badness(self, lines) -> tuple[float, float] | None:
        """The room the limit leaves at the ends of the paragraph's lines, in all (what setting them
        ragged at the limit would show), then the widest stretch; None if a line's spaces shrink
        below `MIN_WORD_SPACE`."""
        values = [
            (stretch(lines, lines.lines[i]), ragged_room(lines, lines.lines[i]))
            for i in justified_lines(lines)
        ]
        if any(value < MIN_WORD_SPACE - 1e-6 for value, _ in values):
            return None
        return round(sum(room for _, room in values), 3), max(
            (value for value, _ in values), default=1.0
        )

    def _candidates(self, best, measures: list[float], full: list[float]):
        """Measures to try against the loose lines of `best` (broken at `measures`): each of the
        lines before a loose one narrower than its words, once, twice or three times over (its last
        words go down), and the loose line wider by what its spaces may shrink (the next word, or
        part of it, comes up)."""
        shrinkage = getattr(self.style, "spaceShrinkage", 0.0) or 0.0
        loose = [
            i for i in justified_lines(best) if stretch(best, best.lines[i]) > MAX_WORD_SPACE + 1e-6
        ]
        givers = sorted(
            {giver for index in loose for giver in range(max(0, index - LOOK_BACK), index)}
        )
        for giver in givers:
            yield from self._given(best, measures, full, giver)
        for index in loose:
            count, space = line_spaces(best, best.lines[index])
            wider = list(measures)
            wider[index] = full[index] + (1 - MIN_WORD_SPACE - shrinkage) * space * count
            lines = self._broken(wider, full, len(best.lines))
            if lines is not None:
                yield wider, lines

    def _given(self, best, measures: list[float], full: list[float], giver: int):
        """(measures, lines) of `best` with line `giver` made narrower than its words, less the
        shrinking ReportLab allows their spaces, once, twice or three times over: its last word (or
        part of it, hyphenated) goes down each time, in as many lines."""
        shrinkage = getattr(self.style, "spaceShrinkage", 0.0) or 0.0
        narrower, lines = list(measures), best
        for _ in range(GIVE):
            line = lines.lines[giver]
            count, space = line_spaces(lines, line)
            narrower = list(narrower)
            narrower[giver] = full[giver] - _room(line) - shrinkage * space * (count + 1) - 0.01
            lines = self._broken(narrower, full, len(best.lines))
            if lines is None:
                break
            yield narrower, lines

    def _short_last(self, lines, full: list[float]) -> bool:
        """Whether a paragraph of three words or more ends with a line of one word shorter than
        SHORT_LAST of the measure ("seul.", "cie." after a hyphen)."""
        from printshop.typeset.runts import _line_words

        if len(lines.lines) < 2:
            return False
        last = len(lines.lines) - 1
        words, printed = _line_words(lines.lines[last])
        length = full[last] - _room(lines.lines[last])
        return printed and words <= 1 and length < SHORT_LAST * full[last]

    def _without_short_last(self, best, measures: list[float], full: list[float], badness):
        """`(badness, best, measures)`, or, where `best` ends with a short last line
        (`_short_last`), the first lines in which one of the LOOK_BACK lines before the last gives
        up words so that the last holds more, the loose lines that makes mended again, with no more
        room left ragged than before."""
        if not self._short_last(best, full):
            return badness, best, measures
        last = len(best.lines) - 1
        for giver in range(last - 1, max(-1, last - 1 - LOOK_BACK), -1):
            for tried, candidate in self._given(best, measures, full, giver):
                score = self._badness(candidate)
                if score is None or self._short_last(candidate, full):
                    continue
                score, lines, tried = self._mended(candidate, tried, full, score, SHORT_LAST)
                if score[0] <= badness[0] + 1e-6:
                    return score, lines, tried
        return badness, best, measures

    def _mended(self, best, measures: list[float], full: list[float], badness, short):
        """(badness, lines, measures): the loose lines of `best` mended (step 1 above), a few
        rounds; with `short` (a last line's length as a share of the measure), no lines whose
        last line is shorter than that."""
        for _ in range(ROUNDS):
            if badness[0] == 0:  # nothing left ragged
                break
            improved = None
            for tried, candidate in self._candidates(best, measures, full):
                score = self._badness(candidate)
                if (
                    score is not None
                    and score < (improved[0] if improved else badness)
                    and (short is None or not self._short_last(candidate, full))
                ):
                    improved = (score, candidate, tried)
            if improved is None:
                break
            badness, best, measures = improved
        return badness, best, measures

    def _even(self, width, lines):
        widths = list(width) if isinstance(width, (list, tuple)) else [width]
        full = [widths[min(i, len(widths) - 1)] for i in range(len(lines.lines) + 1)]
        best, measures = lines, full
        badness = self._badness(lines) or (float("inf"), float("inf"))
        badness, best, measures = self._mended(best, measures, full, badness, None)
        badness, best, measures = self._without_short_last(best, measures, full, badness)
        self.ragged = badness[0]
        for index in justified_lines(
            best
        ):  # what the look-back could not mend: spaces at the limit, letters a little apart
            line = best.lines[index]
            if stretch(best, line) > MAX_WORD_SPACE + 1e-6:
                count, space = line_spaces(best, line)
                at_limit = (MAX_WORD_SPACE - 1) * space * count
                rest = _room(line) - at_limit  # before _with_room, which changes a line in place
                best.lines[index] = _tracked(_with_room(line, at_limit), rest, self.style.fontSize)
        return best

    def _broken(self, narrower: list[float], full: list[float], count: int):
        """The paragraph broken with `narrower` measures, each line's room counted in its full width
        again (so that it is justified across the frame); None if it takes another number of lines."""
        # each break from the paragraph's fragments as they were: ReportLab's hyphenation changes
        # them in place when it breaks a word at a hyphen it already has ("Mettez-" | "vous"), and
        # every later break then set that word whole without its hyphen ("Mettezvous", printed in
        # Assassin's French rules)
        self.frags, self._tried = copy.deepcopy(self._pristine), True
        lines = super().breakLines(narrower)
        if len(lines.lines) != count:
            return None
        for index, line in enumerate(lines.lines):
            gained = full[index] - narrower[index]
            if gained:
                lines.lines[index] = _with_room(line, _room(line) + gained)
        return lines
