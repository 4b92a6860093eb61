"""Where a translation stands against its source: translated, missing, stale or untranslated.

Beside each translation `text/<lang>.yaml`, `printshop i18n sync` keeps `text/<lang>.sources.yaml`:
for every translated id, the source text it was translated from and a fingerprint of the
translation. A text is **stale** when the source has changed since and the translation has not
(once the translator edits it, it counts as updated). Translators never edit the record by hand.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml.comments import CommentedMap

from printshop import memos
from printshop.checks import translation_checks
from printshop.diagnostics import Report
from printshop.language.texts import Catalogue, TextEntry
from printshop.project.source import items_of, locate, read_yaml
from printshop.typeset.richtext import FORCED_BREAK

RECORD_SUFFIX = ".sources.yaml"


@dataclass(frozen=True)
class Record:
    source: str
    translated: str  # fingerprint of the translation when it was recorded


@dataclass(frozen=True)
class TextStatus:
    id: str
    state: str  # translated | missing | stale | untranslated
    source: TextEntry
    translation: TextEntry | None
    old_source: str | None = None


def record_path(game_dir: Path, lang: str) -> Path:
    return game_dir / "text" / f"{lang}{RECORD_SUFFIX}"


def fingerprint(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def load_records(path: Path, report: Report) -> dict[str, Record]:
    if not path.is_file():
        return {}
    document = read_yaml(path, report)
    if document is None or document.root is None:
        return {}
    records = {}
    if not isinstance(document.root, CommentedMap):
        report.add(
            "wrong-type",
            document.where(),
            f"{path.name} is written by 'printshop i18n sync': run it again",
        )
        return {}
    for text_id, value in items_of(document.root):
        if (
            isinstance(value, CommentedMap)
            and isinstance(value.get("source"), str)
            and isinstance(value.get("translated"), str)
        ):
            records[str(text_id)] = Record(value["source"], value["translated"])
        else:
            report.add(
                "wrong-type",
                locate(path, document.root, (text_id,)),
                f"'{text_id}' is not a record of 'source' and 'translated': run 'printshop i18n sync' again",
            )
    return records


def left_as_source(
    text_id: str, translated: TextEntry, source_text: str, untranslatable=None
) -> bool:
    """The translation is still the text it is made from, and nothing says it may stay so: neither
    the game's `untranslatable` (its words, its ids) nor a `# accept untranslated: why` on the
    text's line. One definition for validate's warning, `i18n status`, sync's records and the
    build's completeness: "Sun" left in English in a German file was counted translated by status
    and built as a finished kit, while validate warned."""
    if translated.text != source_text or not translated.text.strip():
        return False
    if untranslatable is not None and (
        text_id in untranslatable.ids
        or translation_checks.only_words(translated.text, untranslatable.words)
    ):
        return False
    return "untranslated" not in translation_checks.accepted(
        translated.location.path, translated.location.line
    )


def statuses(
    source: Catalogue, translation: Catalogue, records: dict[str, Record], untranslatable=None
) -> list[TextStatus]:
    """Each text of `source` in `translation`: missing, untranslated (still marked `# TODO:
    translate`, whatever it holds, or `left_as_source`, with the game's `untranslatable`), stale
    (its source changed since its record) or translated. The one definition validate, `i18n
    status`, sync, confirm, PO export and the build's completeness share: a copy sync made from a
    pivot is not the source's text, and counted translated once (issue 52)."""
    result = []
    marked = todo_marked(translation)
    for text_id, entry in source.entries.items():
        translated = translation.entries.get(text_id)
        if translated is None:
            result.append(TextStatus(text_id, "missing", entry, None))
            continue
        record = records.get(text_id)
        if text_id in marked:
            result.append(TextStatus(text_id, "untranslated", entry, translated))
        elif (
            record is not None
            and record.source != entry.text
            and record.translated == fingerprint(translated.text)
        ):
            result.append(TextStatus(text_id, "stale", entry, translated, record.source))
        elif left_as_source(text_id, translated, entry.text, untranslatable):
            result.append(TextStatus(text_id, "untranslated", entry, translated))
        else:
            result.append(TextStatus(text_id, "translated", entry, translated))
    return result


def untracked(texts: list[TextStatus], records: dict[str, Record]) -> list[TextStatus]:
    """The translated texts with no record of the source they were made from: their staleness cannot
    be told."""
    return [text for text in texts if text.state == "translated" and text.id not in records]


# the mark `i18n sync` writes after a copy of the source it adds to a translation
TODO = "TODO: translate"
# `key: "text"  # TODO: translate` as sync writes it: the mark follows the value on its own line
_TODO_MARK = re.compile(
    r"""^\s*[^\s#"'][^:#]*:\s+(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#"'][^#]*?)\s+#\s*"""
    + re.escape(TODO)
)


def todo_marked(catalogue: Catalogue) -> set[str]:
    """The ids whose line in the YAML file carries the `# TODO: translate` mark. The loader keeps no
    comments, so the file's lines are read again, at each entry's line."""
    try:
        lines = catalogue.path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return set()
    return {
        text_id
        for text_id, entry in catalogue.entries.items()
        if 0 < entry.location.line <= len(lines)
        and _TODO_MARK.match(lines[entry.location.line - 1])
    }


def inline_tags(text: str) -> Counter:
    return Counter(_inline_tags(text))


@memos.INLINE_TAGS
def _inline_tags(text: str) -> tuple[str, ...]:
    return tuple(match.lower() for match in _INLINE_TAG.findall(text))


_INLINE_TAG = re.compile(r"<\s*([bi])\s*>", re.I)


@memos.LINE_BREAKS
def line_breaks(text: str) -> int:
    return len(FORCED_BREAK.findall(text)) + text.count("\n")
