"""Translations against their source: missing, stale, orphan and untracked texts, and every check
of a translated text against the text it was made from (what each pair finds is kept, by the two
texts and what the checks read, so a session checking again checks no pair again).
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Protocol

from printshop import memos
from printshop.check_codes import CATALOGUE
from printshop.checks import swaps, translation_checks
from printshop.diagnostics import Location, Report, Severity, closest
from printshop.language.texts import TextEntry, placeholders
from printshop.language.translation import (
    TODO,
    TextStatus,
    inline_tags,
    line_breaks,
    statuses,
    untracked,
)
from printshop.project.loader import GameData, Project
from printshop.project.models.game import Untranslatable
from printshop.typeset.icons import written_icons


def _renamed(text_id: str, orphans: list[str]) -> str:
    """The text id among `orphans` (a translation's ids its source lacks) that differs from
    `text_id` in one part, written closely enough to be the same key renamed or misspelt; else ''."""
    parts = text_id.split(".")
    for orphan in orphans:
        other = orphan.split(".")
        differ = [(a, b) for a, b in zip(parts, other) if a != b]
        if (
            len(other) == len(parts)
            and len(differ) == 1
            and closest(differ[0][0], [differ[0][1]], cutoff=0.75)
        ):
            return orphan
    return ""


def check_translation(project: Project, game: GameData, source, catalogue, report: Report) -> None:
    language = project.languages.get(catalogue.lang)
    name = language.name if language else catalogue.lang
    source_name = (
        project.languages[source.lang].name if source.lang in project.languages else source.lang
    )
    texts = statuses(
        source, catalogue, game.records.get(catalogue.lang, {}), game.game.untranslatable
    )
    orphans = [text_id for text_id in catalogue.entries if text_id not in source.entries]
    for status in texts:
        entry, translated = status.source, status.translation
        if status.state == "missing":
            # a key renamed (or misspelt) in the source: the translation still has the old one
            near = _renamed(status.id, orphans) if orphans else ""
            report.add(
                "missing-text",
                catalogue.where_missing(status.id)
                if not near
                else catalogue.entries[near].location,
                f"'{status.id}' has no {name} text (source: {entry.location})"
                + (
                    f"; the {name} has '{near}', which the {source_name} lacks: the same text, its key renamed "
                    f"or misspelt on one side?"
                    if near
                    else ""
                ),
                hint=f"rename '{near}' here as the {source_name} names it, or correct the {source_name} key "
                f"(i18n sync would set this text aside as obsolete)"
                if near
                else "",
            )
            continue
        translated = _translation(status)
        if status.state == "untranslated" and translated.text != entry.text:
            # still marked as sync left it, though it differs from the text it is made from: the
            # translator edited it and left the mark, or the copy came from another language
            report.add(
                "untranslated",
                translated.location,
                f"'{status.id}' is still marked '# {TODO}': it counts as untranslated and is not "
                f"printed as a translation",
                hint=f"once it is in {name}, delete the mark from its line (or run printshop i18n "
                f"confirm {catalogue.lang} {status.id} --game {game.id} to keep it as it is)",
            )
        if status.state == "stale":
            old, new = changed_parts(status.old_source or "", entry.text)
            report.add(
                "stale-translation",
                translated.location,
                f'\'{status.id}\': the {source_name} source changed from "{old}" to "{new}" since this '
                f"was translated",
            )
        check_text_pair(project, game, entry, source.lang, translated, catalogue.lang, report)
    _report_swaps(texts, source_name, report)
    for text_id, entry in catalogue.entries.items():
        if text_id not in source.entries:
            report.add("orphan-text", entry.location, f"'{text_id}' is not in the source language")
    # (a copy sync added and marked is untranslated, not untracked: translation.statuses)
    unrecorded = untracked(texts, game.records.get(catalogue.lang, {}))
    # one warning for the file: a translator who writes texts by hand and never ran sync has many
    if unrecorded:
        named = ", ".join(f"'{status.id}'" for status in unrecorded[:3])
        more = f" and {len(unrecorded) - 3} more" if len(unrecorded) > 3 else ""
        count = f"{len(unrecorded)} {name} text" + (" has" if len(unrecorded) == 1 else "s have")
        report.add(
            "untracked-translation",
            _translation(unrecorded[0]).location,
            f"{count} no record of the {source_name} text {'it was' if len(unrecorded) == 1 else 'each was'} "
            f"translated from ({named}{more}): a later change to the {source_name} will not show as stale",
            hint=f"run printshop i18n sync {catalogue.lang} once they are translated: it records the source "
            f"of each in {catalogue.lang}.sources.yaml",
        )


def _report_swaps(texts: list[TextStatus], source_name: str, report: Report) -> None:
    """Two translations that render each other's source (checks/swaps.py), said at both."""
    found = swaps.swapped(
        [
            (status.id, status.source.text, _translation(status).text)
            for status in texts
            if status.state in ("translated", "stale")
        ]
    )
    entries = {status.id: status for status in texts}
    for swap in found:
        for here, there in ((swap.first, swap.second), (swap.second, swap.first)):
            where = _translation(entries[here]).location
            report.add(
                "swapped-texts",
                where,
                f"'{here}' reads like the translation of '{there}' "
                f"({source_name}: \"{_clip(entries[there].source.text)}\"), and '{there}' like "
                f"that of '{here}': were the two texts swapped?",
                acknowledged=translation_checks.accepted(where.path, where.line).get(
                    "swapped-texts", ""
                ),
            )


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _translation(status: TextStatus) -> TextEntry:
    """The translation of a text that has one (in every state but "missing")."""
    assert status.translation is not None, status.id
    return status.translation


class PairText(Protocol):
    """A text as the pair checks read it: a TextEntry, or a language's label (languages.py)."""

    @property
    def id(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def location(self) -> Location: ...


# characters: a text quoted whole in a stale-translation warning, when both versions are this short
WHOLE = 160


AROUND = 40  # characters kept either side of what changed in a longer one


def changed_parts(old: str, new: str) -> tuple[str, str]:
    """`old` and `new` as a stale-translation warning quotes them: whole when both are short; else
    the part that changed, with a few words either side, cut where a word ends and marked '…' (a
    rule of 500 characters with one word added was quoted whole twice, a thousand characters to
    compare by eye)."""
    if len(old) <= WHOLE and len(new) <= WHOLE:
        return old, new
    same_start = len(os.path.commonprefix([old, new]))
    same_end = len(os.path.commonprefix([old[same_start:][::-1], new[same_start:][::-1]]))
    start = _word_start(old, max(same_start - AROUND, 0))
    return _excerpt(old, start, len(old) - same_end), _excerpt(new, start, len(new) - same_end)


def _excerpt(text: str, start: int, changed_end: int) -> str:
    end = _word_end(text, min(max(changed_end + AROUND, start + AROUND), len(text)))
    if end - start > WHOLE + 2 * AROUND:  # rewritten at length: its beginning shows it
        end = _word_end(text, start + WHOLE)
    return ("…" if start > 0 else "") + text[start:end].strip() + ("…" if end < len(text) else "")


def _word_start(text: str, index: int) -> int:
    space = text.rfind(" ", 0, index)
    return space + 1 if index > 0 and space >= 0 and index - space <= 16 else index


def _word_end(text: str, index: int) -> int:
    space = text.find(" ", index)
    return space if index < len(text) and 0 <= space - index <= 16 else index


def check_text_pair(
    project: Project,
    game: GameData,
    source: TextEntry,
    source_lang: str,
    translated: TextEntry,
    lang: str,
    report: Report,
) -> None:
    """Every check of one translated text against the text it was made from, reported at
    `translated.location` (a YAML line, or a PO file's line when `i18n import` checks what it
    imports)."""
    check_entry_pair(
        project, source, source_lang, translated, lang, report, game.game.untranslatable
    )


def check_entry_pair(
    project: Project,
    source: PairText,
    source_lang: str,
    translated: PairText,
    lang: str,
    report: Report,
    untranslatable: Untranslatable = Untranslatable(),
) -> None:
    text_id = translated.id
    language = project.languages.get(lang)
    reference_name = (
        project.languages[source_lang].name if source_lang in project.languages else source_lang
    )
    # the same pair checked the same way finds the same: what it finds is kept by the two texts and
    # what the checks read (the language by its rules: a session reading the data again, a check
    # after a build, has a new one), and said at the pair's places of the moment (a copy of the
    # data, a text moved down a line)
    rules = translation_checks.language_rules(language) if language is not None else None
    source_language = project.languages.get(source_lang)  # its abbreviations end no sentence
    key = (
        text_id,
        source.text,
        source_lang,
        translated.text,
        lang,
        rules,
        translation_checks.language_rules(source_language) if source_language else None,
        reference_name,
        tuple(untranslatable.words),
        untranslatable.ids.get(text_id, ""),
    )
    findings = _PAIRS_CHECKED.get(key)
    if findings is None:
        findings = _PAIRS_CHECKED[key] = _check_pair_anew(
            text_id,
            language,
            reference_name,
            source.text,
            source_lang,
            translated.text,
            untranslatable,
            source_language,
        )
    if not findings:
        return
    accepted = translation_checks.accepted(translated.location.path, translated.location.line)
    # the text it is made from, beside every finding: the translator sees both without opening
    # another file (a long paragraph's first SHOWN_SOURCE characters: a text of thousands of
    # placeholders filled the terminal)
    shown = (
        source.text
        if len(source.text) <= SHOWN_SOURCE
        else source.text[:SHOWN_SOURCE].rstrip() + "…"
    )
    beside = f'{reference_name}: "{shown}"' + (
        f" ({source.location})" if source.location != translated.location else ""
    )
    for code, message, acknowledged in findings:
        reason = acknowledged or accepted.get(code, "")
        severity = (
            Severity.WARNING if reason and CATALOGUE[code].severity is Severity.ERROR else None
        )
        report.add(code, translated.location, message, severity, acknowledged=reason, also=beside)


_PAIRS_CHECKED = memos.TRANSLATION_FINDINGS


SHOWN_SOURCE = 800  # characters of the source text shown beside a translation's finding


def _check_pair_anew(
    text_id: str,
    language,
    reference_name: str,
    source: str,
    source_lang: str,
    translated: str,
    untranslatable: Untranslatable,
    source_language=None,
) -> tuple[tuple[str, str, str], ...]:
    """What is wrong with the translation `translated` of `source`: (code, message, why it is
    acknowledged whatever the translator's comments say) for each finding."""
    found: list[tuple[str, str, str]] = []
    if language is not None:
        for problem in translation_checks.check_pair(
            text_id, source, translated, language, source_lang, reference_name, source_language
        ):
            found.append((problem.code, problem.message, ""))
    if (
        translated == source
        and translated.strip()
        and not translation_checks.only_words(translated, untranslatable.words)
    ):
        found.append(
            (
                "untranslated",
                f"'{text_id}' is the same as the {reference_name} text it is made from",
                untranslatable.ids.get(text_id, ""),
            )
        )
    if placeholders(translated) != placeholders(source):
        found.append(
            (
                "placeholder",
                f"'{text_id}' uses {_braces(placeholders(translated))} but the source uses "
                f"{_braces(placeholders(source))}",
                "",
            )
        )
    if "<icon" in source or "<icon" in translated:
        message = icon_mismatch(text_id, source, translated)
        if message:
            found.append(("icon-mismatch", message, ""))
    if inline_tags(translated) != inline_tags(source):
        found.append(
            (
                "markup-mismatch",
                f"'{text_id}': the source uses {_tags(inline_tags(source))}, "
                f"the translation {_tags(inline_tags(translated))}",
                "",
            )
        )
    if line_breaks(translated) != line_breaks(source):
        found.append(
            (
                "line-breaks",
                f"'{text_id}': the source has {line_breaks(source)} line break(s), "
                f"the translation {line_breaks(translated)}",
                "",
            )
        )
    return tuple(found)


def icon_mismatch(text_id: str, source: str, translated: str) -> str:
    """What differs between the icons of `source` and of its translation, as placeholders are
    checked: the same names, each as many times (in any order); '' when they agree."""
    wanted, given = Counter(written_icons(source)), Counter(written_icons(translated))
    if wanted == given:
        return ""
    differences = [
        f"the icon '{name}' ×{wanted[name]}, the translation ×{given[name]}"
        for name in sorted(set(wanted) | set(given))
        if wanted[name] != given[name]
    ]
    return f"'{text_id}': the source uses " + "; ".join(differences)


def _tags(counts) -> str:
    return ", ".join(f"<{tag}> ×{n}" for tag, n in sorted(counts.items())) or "no <b> or <i>"


def _braces(names: set[str]) -> str:
    return ", ".join("{" + n + "}" for n in sorted(names)) or "no placeholders"
