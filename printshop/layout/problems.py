"""What layout cannot lay out, reported at its cause, once: a template that fails, a text that
overflows its frame, a character its font lacks, a placeholder left unfilled.

A fault is reported where it is mended: at the text in the language's file that causes it (the
frame's place follows for the designer), else at the template's block. The same fault met by another
card, face or language is reported once (`report_once`); while the game's data has errors
(`DataErrors`) a template's failure is held back as an info.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from printshop.diagnostics import Location, Report, Severity, did_you_mean
from printshop.language.resolve import LocalizedGame
from printshop.language.text_tree import MissingText
from printshop.language.texts import PlaceholderError, TextEntry, placeholders
from printshop.project.models.faces import Frame
from printshop.project.source import place_of
from printshop.typeset.fitting import Fit
from printshop.typeset.fonts import FontSet
from printshop.typeset.richtext import Block, Figure, Para, Table, plain_text, uppercase
from printshop.typeset.templating import TemplateFailure

# what layout itself reports; the rest, found before layout, are errors in the data
LAYOUT_CODES = frozenset({"template", "text-overflow", "missing-glyph", "placeholder"})


@dataclass
class DataErrors:
    """The errors loading and validation found in a game's own files (game.yaml, faces.yaml), so
    that one error in the data gives one diagnostic: a card or sheet whose entry has an error is not
    laid out (its template would only fail again on the same value), and a template that fails while
    the game's data has errors is reported once, as an info held back until the data is fixed."""

    locations: list[Location]

    @classmethod
    def of(cls, game, report: Report) -> "DataErrors":
        files = {Location.of(game.dir / "game.yaml").path, Location.of(game.faces_path).path}
        return cls(
            [
                d.location
                for d in report.items
                if d.severity is Severity.ERROR
                and d.code not in LAYOUT_CODES
                and d.location.path in files
            ]
        )

    def explain(self, *entries) -> bool:
        """Whether an error stands in one of these entries (a card, a sheet, a sheet's item)."""
        return any(
            entry is not None and entry.covers(location)
            for entry in entries
            for location in self.locations
        )


def report_overflow(
    result: Fit,
    blocks: list[Block],
    frame: Frame,
    what: str,
    text_ids: tuple[str, ...],
    localized: LocalizedGame,
    report: Report,
    template: Callable[[], Location] | None = None,
) -> None:
    """At the text that causes it (the longest the frame prints, in this language's file), with
    about how many characters too many; the frame's place follows on a second line for the designer."""
    minimum = frame.min_size if frame.min_size is not None else frame.size
    if result.too_wide:
        detail = "a word is wider than the frame"
        excess = ""
    else:
        detail = (
            f"overflows by {max(result.overflow, 0.1):.1f} pt (about {result.overflow_lines} line"
            f"{'s' if result.overflow_lines != 1 else ''})"
        )
        characters = sum(len(plain_text(markup)) for markup in _markups(blocks))
        # the text takes `height` points where the frame has `available`: the share beyond is about
        # this many characters
        too_many = max(1, round(characters * result.overflow / max(result.height, 1.0)))
        excess = f"about {too_many} character{'s' if too_many != 1 else ''} too long "
    culprit = culprit_entry(text_ids, localized)
    what = what.rsplit(", language ", 1)[0]  # the language is named beside the id
    if (
        culprit is None and template is not None and not text_ids
    ):  # words the template writes itself: its to mend,
        # once (it was said at the frame, once per card and language)
        report_once(
            report,
            "text-overflow",
            template(),
            f"what this block writes (no text of the language files) does not fit its frame at the minimum "
            f"size {minimum:g} pt: {detail}",
            also=f"frame: {frame.where()}",
            cause=f"the block's own words do not fit at {minimum:g} pt",
            hint="shorten what the template writes, or enlarge the frame or lower its min_size",
        )
        return
    if culprit is None:
        report.add(
            "text-overflow",
            frame.where(),
            f"{what}, language {localized.lang}: the text does not fit at the minimum size {minimum:g} pt: {detail}",
        )
        return
    report.add(
        "text-overflow",
        culprit.location,
        f"'{culprit.id}' ({localized.lang}) is {excess or 'too wide '}for {what} at the "
        f"minimum size {minimum:g} pt ({detail})",
        hint="shorten the text (or, for a word wider than the frame, choose a shorter word)",
        also=f"frame: {frame.where()} (for the designer: enlarge the frame or lower its min_size)",
    )


def written_entry(catalogue, text_id: str, variant: str | None):
    """Where the text `text_id` prints from is written in `catalogue`: the naming variant's own text
    where it replaces the id, else the id's (None: the catalogue lacks it)."""
    entry = catalogue.entries.get(f"variant.{variant}.{text_id}") if variant else None
    return entry or catalogue.entries.get(text_id)


def _written_entries(text_ids: tuple[str, ...], localized: LocalizedGame) -> list:
    """A frame's texts as written in this language's file (a naming variant's own text where it
    replaces the id)."""
    catalogue = localized.data.catalogues.get(localized.lang)
    if catalogue is None:
        return []
    return [
        entry
        for entry in (written_entry(catalogue, text_id, localized.variant) for text_id in text_ids)
        if entry is not None
    ]


def culprit_entry(text_ids: tuple[str, ...], localized: LocalizedGame, ending: str = ""):
    """The longest text of the frame, as written in this language's file; with `ending`, the longest
    of those whose text ends with that word, if any."""
    entries = _written_entries(text_ids, localized)
    last = ending.split()[-1] if ending.split() else ""
    ending_so = [
        entry for entry in entries if last and plain_text(entry.text).rstrip().endswith(last)
    ]
    return max(ending_so or entries, key=lambda entry: len(entry.text), default=None)


def text_beginning(words: str, localized: LocalizedGame) -> TextEntry | None:
    """The text, as written in this language's file, that a paragraph quoted by its first `words`
    begins with (a booklet's paragraph too tall for a page: ReportLab quotes 60 characters of it);
    the longest such text, None if no text of at least 12 characters begins it."""
    catalogue = localized.data.catalogues.get(localized.lang)
    said = " ".join(words.split()).rstrip("…. ")
    if catalogue is None or len(said) < 12:
        return None

    def begins(entry: TextEntry) -> bool:
        text = " ".join(plain_text(entry.text).split())
        return len(text) >= 12 and (said.startswith(text) or text.startswith(said))

    return max(filter(begins, catalogue.entries.values()), key=lambda e: len(e.text), default=None)


def too_tall_at(error, localized: LocalizedGame) -> tuple[Location, str]:
    """Where a booklet's paragraph too tall for any page is reported (render.booklet_pages'
    BookletTooLarge): at the text it begins with, the booklet's styles said beside it; at the
    styles when no text begins it (a template's own words)."""
    entry = text_beginning(getattr(error, "words", ""), localized)
    if entry is None:
        return error.where, ""
    return entry.location, f"the booklet's styles: {error.where}"


def text_holding(
    characters: list[str], text_ids: tuple[str, ...], localized: LocalizedGame, upper: bool
) -> TextEntry | None:
    """The first of a frame's texts, as written in this language's file, that holds one of
    `characters`."""
    return next(
        (
            entry
            for entry in _written_entries(text_ids, localized)
            if any(ch in (uppercase(entry.text) if upper else entry.text) for ch in characters)
        ),
        None,
    )


def check_text(
    blocks: list[Block],
    font: str,
    upper: bool,
    what: str,
    where: Callable[[], Location],
    fonts: FontSet,
    report: Report,
    holding: Callable[[list[str]], TextEntry | None] | None = None,
    template: Callable[[], Location] | None = None,
) -> bool:
    """Placeholders left unfilled and characters the font lacks, reported at `where()` (worked out
    only then); a character lacking is reported at the text that holds it, where `holding` finds it:
    the translator typed it there, and the frame is named for the designer. A placeholder left is
    the template's to fill: at its block (`template`), once, where it has one."""
    ok = True
    for markup in _markups(blocks):
        left = placeholders(markup)
        if left:
            names = ", ".join(sorted(left))
            if template is not None:
                fills = ", ".join(f"{name}=…" for name in sorted(left))
                report_once(
                    report,
                    "placeholder",
                    template(),
                    f"the text this block prints has {{{names}}}, which the template does not fill",
                    also=f"frame: {where()}",
                    cause=f"placeholders {names} not filled",
                    hint=f"fill it where the template prints the text: {{{{ t.… | fill({fills}) }}}}",
                )
            else:
                report.add(
                    "placeholder", where(), f"{what}: the placeholder(s) {names} were not filled"
                )
            ok = False
        if fonts.has(font):
            text = plain_text(uppercase(markup) if upper else markup)
            missing = fonts.missing_characters(font, text)
            if missing:
                shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing)
                entry = holding(missing) if holding is not None else None
                if entry is not None:
                    report.add(
                        "missing-glyph",
                        entry.location,
                        f"'{entry.id}', {what}: the font '{font}' has no {shown}",
                        also=f"frame: {where()} (for the designer: a font that has it)",
                    )
                else:
                    report.add(
                        "missing-glyph", where(), f"{what}: the font '{font}' has no {shown}"
                    )
                ok = False
    return ok


def _markups(blocks: list[Block]):
    for block in blocks:
        if isinstance(block, Para):
            yield block.markup
        elif isinstance(block, Table):
            for row in block.rows:
                for _, markup in row:
                    yield markup
        elif isinstance(block, Figure):
            yield block.caption


def is_missing_translation(failure: TemplateFailure, localized: LocalizedGame) -> bool:
    source = localized.data.source
    return (
        isinstance(failure.cause, MissingText)
        and source is not None
        and localized.lang != source.lang
        and failure.cause.text_id in source.entries
    )


def report_failure(
    report: Report,
    failure: TemplateFailure,
    what: str,
    localized: LocalizedGame,
    errors: DataErrors | None,
) -> None:
    """A template failure, once per cause: the same failure at the same template line for another
    card, face or language is the same fault. While the game's data has errors, it is an info: it
    may follow from them, and is worth reading only once they are fixed."""
    catalogue = localized.data.catalogues.get(localized.lang)
    if isinstance(failure.cause, PlaceholderError) and _report_placeholder(
        report, failure, failure.cause, what, localized.lang, catalogue, localized.data.source
    ):
        return
    message = f"{failure} ({what}, language {localized.lang})"
    also = f"called from {failure.called_from}" if failure.called_from is not None else ""
    hint = failure.hint
    if isinstance(failure.cause, MissingText) and catalogue is not None:
        # the template may well be right: a new card, kind or sheet whose texts were not written yet
        place = catalogue.where_missing(failure.cause.text_id)
        hint = (
            f"write the text '{failure.cause.text_id}' in {place.path} (near line {place.line}), or correct "
            f"the name the template reads at the place shown"
        )
    if errors is not None and errors.locations:
        first = errors.locations[0]
        report_once(
            report,
            "template",
            failure.location,
            f"{message}; held back: the game's data has errors (the first at {first}), which it may "
            f"follow from",
            severity=Severity.INFO,
            also=also,
            hint=hint,
            cause=str(failure),
        )
        return
    report_once(
        report, "template", failure.location, message, also=also, hint=hint, cause=str(failure)
    )


def _report_placeholder(
    report: Report,
    failure: TemplateFailure,
    cause: PlaceholderError,
    what: str,
    lang: str,
    catalogue,
    source,
) -> bool:
    """A text with a placeholder its template does not give ("{âge}" where the template gives
    "age"): the fault is in the text, so it is reported there, once per text, the template's line
    beside it. False when no text of the language has it (the template's own literal, say): then it
    is the template's. A translation whose placeholders differ from its source's is left to the
    validator, which says so at the same text."""
    texts = (
        [entry for entry in catalogue.entries.values() if cause.name in placeholders(entry.text)]
        if catalogue
        else []
    )
    given = ", ".join("{" + name + "}" for name in cause.given) or "none"
    for entry in texts:
        made_from = (
            source.entries.get(entry.id) if source is not None and source.lang != lang else None
        )
        if made_from is not None and placeholders(made_from.text) != placeholders(entry.text):
            continue
        report_once(
            report,
            "placeholder",
            entry.location,
            f"'{entry.id}' ({lang}) uses the placeholder {{{cause.name}}}, which its template does "
            f"not give ({what}; it gives: {given})",
            hint=f"write one the template gives ({given}), spelt as in the template; or give "
            f"{{{cause.name}}} in the template",
            also=f"template: {failure.location}",
            cause=f"'{entry.id}' uses the placeholder {{{cause.name}}}",
        )
    return bool(texts)


def report_once(
    report: Report,
    code: str,
    location: Location,
    message: str,
    *,
    severity: Severity | None = None,
    hint: str = "",
    also: str = "",
    cause: str | None = None,
) -> None:
    """Add the diagnostic unless one with the same code, place and cause is there (`cause`: the part
    of the message that names the fault, without the card, face or language it was met in)."""
    key = _cause_key(cause if cause is not None else message)
    for item in report.items:
        if item.code == code and item.location == location:
            if item.once == key:
                return
            seen = _cause_key(item.message)
            if seen == key or seen.startswith((key + " ", key + ";")):
                return
    report.add(code, location, message, severity, hint=hint, also=also, once=key)


def _cause_key(message: str) -> str:
    """A message without the language it was met in (a missing text id is missing in every
    language)."""
    return re.sub(r" in language '[^']*'", "", message)


def report_unknown_icons(
    names: list[str], template: Location | None, what: str, report: Report
) -> bool:
    """Report each icon the template at `template` (its block, or the booklet's file) names that no
    motif or image has, where it names it, with the names there are; whether any was. A name a data
    text gives (not in the template) is left to validate's check of the texts, at the text."""
    from printshop.typeset import icons

    known = icons.active()
    choices = known.names() if known is not None else []
    found = False
    for name in dict.fromkeys(names):
        at = found_after(template, f'name="{name}"') if template is not None else None
        if at is None or at == template:
            continue
        found = True
        report_once(
            report,
            "unknown-reference",
            at,
            f"<icon name=\"{name}\">: no motif or image '{name}'{did_you_mean(name, choices)} "
            f"({what})",
            hint="name a motif of motifs.yaml (the project's or the game's print/motifs.yaml) "
            "or an image of the game's images/ folder (images/<name>.png)",
            cause=f"icon {name}",
        )
    return found


def found_after(where: Location, needle: str) -> Location:
    """Where `needle` first stands in the file at or after `where` (a template's block); else
    `where`."""
    try:
        lines = Path(where.path).read_text(encoding="utf-8").splitlines(keepends=True)
    except (OSError, UnicodeDecodeError):
        return where
    if not needle or not 0 < where.line <= len(lines):
        return where
    start = sum(map(len, lines[: where.line - 1])) + max(where.col - 1, 0)
    text = "".join(lines)
    at = text.find(needle, start)
    return Location(where.path, *place_of(text, at)) if at >= 0 else where


def block_location(template: Location, block: str) -> Location:
    """The line and column of `{% block name %}` in the template, else its first line."""
    try:
        lines = Path(template.path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return template
    pattern = re.compile(r"\{%-?\s*block\s+" + re.escape(block) + r"\b")
    for number, line in enumerate(lines, start=1):
        found = pattern.search(line)
        if found:
            return Location(template.path, number, found.start() + 1)
    return template


_TAG_ONLY = re.compile(r"^\s*(\{#.*?#\}|\{%.*?%\})\s*$")


def _markup_lines(text: str) -> list[int]:
    """For each line of a template, the line of the markup it makes, as the environment renders
    it (trim_blocks, lstrip_blocks): lines holding only a comment or a statement tag make none."""
    made, count = [], 0
    for line in text.splitlines():
        if not _TAG_ONLY.match(line):
            count += 1
        made.append(max(count, 1))
    return made


def found_in_template(where: Location, needle: str, line: int = 0) -> Location:
    """Where `needle` stands in the template file at `where` (what a template writes, as an error
    names it): the first place, or with `line` (a line of the markup it made, which follows the
    template's roughly) the nearest to it; else line `line` of the file, else `where` itself."""
    if needle:
        try:
            text = Path(where.path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        places = [place_of(text, found.start()) for found in re.finditer(re.escape(needle), text)]
        # with a line of the markup: the nearest to it. The markup's lines follow the template's
        # roughly: a line that holds only a comment or a {% tag %} makes none (the environment trims
        # them), so a place is compared at the markup line it would make
        if places:
            made = _markup_lines(text)
            return Location(
                where.path,
                *min(
                    places,
                    key=lambda place: abs(made[place[0] - 1] - line) if line > 0 else 0,
                ),
            )
    return Location(where.path, line, 1) if line > 0 else where
