"""The translators' workflow on the YAML route: status, sync and confirm.

- `status`: per game and language, how many texts are translated, missing, stale, untranslated.
- `sync`: brings a translation file in line with its source: adds missing ids (with the source
  text and a `# TODO: translate` mark) in source order, moves texts the source dropped to an
  `obsolete:` section, keeps every comment and the translator's order, and refreshes the record
  of which source text each translation was made from (`<lang>.sources.yaml`).
- `confirm`: the YAML route's way to say a stale text is still right (the PO route removes
  *fuzzy*): records the current source for it, and turns the `# TODO: translate` mark of a copy the
  translator keeps as it is into `# accept untranslated: …` (as an import of the source's text kept in a PO
  editor does).

The PO route (export and import) is po.py; the editing of the YAML that keeps its comments is
translation_file.py.

A text still marked `# TODO: translate` on its line (what `sync` writes) is untranslated, whatever
it holds (the mark goes when it is translated, or through `confirm`); so is any text the same as its source's that nothing acknowledges
(translation.left_as_source, validate's `untranslated`): status counts it so, and `build` does not
print it as a translation (see `completeness`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from printshop.language.texts import OBSOLETE_SECTION as OBSOLETE
from printshop.language.texts import Catalogue
from printshop.language.translation import (
    Record,
    TextStatus,
    fingerprint,
    left_as_source,
    record_path,
    statuses,
    todo_marked,
    untracked,
)
from printshop.language.translation_file import (
    dump,
    dump_records,
    keep_as_source,
    load_root,
    remove_text,
    set_text,
    unmark,
    write_as_it_was,
)
from printshop.project.loader import GameData, Project
from printshop.write.commit import write_atomically

STATES = ("translated", "missing", "stale", "untranslated")


# --- status -----------------------------------------------------------------------------------
@dataclass
class LanguageStatus:
    game: str
    lang: str
    total: int
    counts: dict[str, int]
    texts: list[TextStatus] = field(default_factory=list)
    untracked: list[str] = field(
        default_factory=list
    )  # translated, with no record of the source (sync makes it)

    @property
    def percent(self) -> int:
        """The share of texts with a real translation (stale ones included: they are translated,
        from an older source), rounded down, so that 100 means complete."""
        return percent_translated(self.total, self.counts["missing"] + self.counts["untranslated"])


def percent_translated(total: int, untranslated: int) -> int:
    return 100 if total == 0 else math.floor(100 * (total - untranslated) / total)


def text_statuses(game: GameData, lang: str) -> list[TextStatus]:
    """Every text of the reference against the `lang` translation (translation.statuses: a text
    still marked `# TODO: translate` is untranslated, whatever it holds)."""
    reference = game.reference(lang)
    catalogue = game.catalogues.get(lang)
    if reference is None:
        return []
    if catalogue is None:
        return [TextStatus(i, "missing", e, None) for i, e in reference.entries.items()]
    return statuses(reference, catalogue, game.records.get(lang, {}), game.game.untranslatable)


def status(project: Project, games: list[str] | None = None) -> list[LanguageStatus]:
    rows = []
    for game in project.games.values():
        if games and game.id not in games or game.source is None:
            continue
        for lang in game.languages:
            if lang == game.source.lang:
                continue
            texts = text_statuses(game, lang)
            counts = {state: sum(1 for t in texts if t.state == state) for state in STATES}
            unrecorded = [text.id for text in untracked(texts, game.records.get(lang, {}))]
            rows.append(LanguageStatus(game.id, lang, len(texts), counts, texts, unrecorded))
    return rows


def format_status(rows: list[LanguageStatus]) -> str:
    """One line per game and translation (the source language is the reference, not a row)."""
    header = (
        f"{'game':<16} {'lang':<5} {'total':>5} "
        + " ".join(f"{s:>12}" for s in STATES)
        + f" {'done':>6}"
    )
    lines = [header, "-" * len(header)]
    for row in rows:
        lines.append(
            f"{row.game:<16} {row.lang:<5} {row.total:>5} "
            + " ".join(f"{row.counts[s]:>12}" for s in STATES)
            + f" {row.percent:>5}%"
        )
    for (
        row
    ) in rows:  # stale is judged against the record sync keeps: without one, a change goes unseen
        if row.untracked:
            count = len(row.untracked)
            lines.append(
                f"{row.game} {row.lang}: {count} translated text{'s' if count > 1 else ''} without a record of "
                f"the source (a later change to the source cannot show as stale): run printshop i18n sync "
                f"{row.lang}"
            )
    return "\n".join(lines)


@dataclass(frozen=True)
class Completeness:
    """Whether a translation can be printed as it is: every text present and really translated."""

    game: str
    lang: str
    path: Path  # the translation's YAML file
    total: int
    missing: list[str]
    untranslated: list[
        str
    ]  # still the reference's text (a copy left by sync, or an identical sentence)

    @property
    def complete(self) -> bool:
        return not self.missing and not self.untranslated

    @property
    def percent(self) -> int:
        return percent_translated(self.total, len(self.missing) + len(self.untranslated))


def completeness(game: GameData, lang: str) -> Completeness:
    texts = text_statuses(game, lang)
    return Completeness(
        game.id,
        lang,
        game.dir / "text" / f"{lang}.yaml",
        len(texts),
        [t.id for t in texts if t.state == "missing"],
        [t.id for t in texts if t.state == "untranslated"],
    )


# --- sync -------------------------------------------------------------------------------------
@dataclass
class SyncResult:
    path: Path
    added: list[str]
    obsoleted: list[str]
    recorded: int


def sync(game: GameData, lang: str, *, write: bool = True) -> SyncResult:
    source = game.reference(lang)
    if source is None:
        raise ValueError(f"{game.id} has no source texts")
    path = game.dir / "text" / f"{lang}.yaml"
    root = load_root(path)
    order = list(source.entries)
    current = game.catalogues.get(lang)
    entries = current.entries if current else {}
    added = [text_id for text_id in order if text_id not in entries]
    for text_id in added:
        set_text(root, text_id, source.entries[text_id].text, order, todo=True)
    orphans = [text_id for text_id in entries if text_id not in source.entries]
    if orphans:
        obsolete = root.get(OBSOLETE)
        if not isinstance(obsolete, CommentedMap):
            obsolete = CommentedMap()
            root[OBSOLETE] = obsolete
        for text_id in orphans:
            obsolete[text_id] = DoubleQuotedScalarString(entries[text_id].text)
            remove_text(root, text_id)
    records = _refresh_records(
        source,
        entries,
        game.records.get(lang, {}),
        game.game.untranslatable,
        todo_marked(current) if current else set(),
    )
    if write:
        write_as_it_was(path, dump(root))
        write_atomically(record_path(game.dir, lang), dump_records(records, order))
    return SyncResult(path, added, orphans, len(records))


def _refresh_records(
    source: Catalogue,
    entries: dict,
    old: dict[str, Record],
    untranslatable=None,
    marked: set[str] = frozenset(),  # type: ignore[assignment]
) -> dict[str, Record]:
    records = {}
    for text_id, entry in source.entries.items():
        translated = entries.get(text_id)
        if translated is None or text_id in marked:  # a copy still to translate has no record
            continue
        previous = old.get(text_id)
        now = fingerprint(translated.text)
        if previous is not None and previous.source != entry.text and previous.translated == now:
            records[text_id] = (
                previous  # still stale: keep the old source until the translator acts
            )
        elif left_as_source(text_id, translated, entry.text, untranslatable):
            continue  # a copy of the source waiting to be translated
        else:
            records[text_id] = Record(entry.text, now)
    return records


# --- confirm ----------------------------------------------------------------------------------
@dataclass
class ConfirmResult:
    path: Path
    confirmed: list[str]  # stale texts now recorded as made from the current source
    unmarked: list[str]  # copies of the source kept as they are: the TODO mark removed, recorded
    unchanged: list[str]  # already translated and up to date: nothing to confirm
    missing: list[str]  # no translation to confirm


def confirm(
    game: GameData, lang: str, ids: list[str] | None = None, *, write: bool = True
) -> ConfirmResult:
    """Record that the translations of `ids` (default: every stale text) are right as they stand:
    what removing *fuzzy* does in a PO editor. A stale text is recorded against the current source;
    a copy still marked `# TODO: translate` (or a sentence identical to its source) is kept as the
    translation and loses its mark. Ids the game does not have are the caller's to report."""
    reference = game.reference(lang)
    path = game.dir / "text" / f"{lang}.yaml"
    if reference is None:  # no source texts: nothing to confirm
        return ConfirmResult(path, [], [], [], [])
    texts = {text.id: text for text in text_statuses(game, lang)}
    wanted = [text_id for text_id in (ids if ids is not None else texts) if text_id in texts]
    if ids is None:
        wanted = [text_id for text_id in wanted if texts[text_id].state == "stale"]
    records = dict(game.records.get(lang, {}))
    marked = todo_marked(game.catalogues[lang]) if lang in game.catalogues else set()
    result = ConfirmResult(path, [], [], [], [])
    root = None
    for text_id in wanted:
        text = texts[text_id]
        if text.state == "missing":
            result.missing.append(text_id)
            continue
        if text.state == "translated" and text_id not in marked:
            result.unchanged.append(text_id)
            continue
        assert text.translation is not None  # (every text but a missing one has its translation)
        if (
            text.translation.text == text.source.text
        ):  # kept as the text it is made from: said so on its line
            root = root if root is not None else load_root(path)
            keep_as_source(root, text_id, f"kept as the {reference.lang} text (i18n confirm)")
        elif text_id in marked:
            root = root if root is not None else load_root(path)
            unmark(root, text_id)
        (result.confirmed if text.state == "stale" else result.unmarked).append(text_id)
        records[text_id] = Record(text.source.text, fingerprint(text.translation.text))
    if write and (result.confirmed or result.unmarked):
        if root is not None:
            write_as_it_was(path, dump(root))
        write_atomically(
            record_path(game.dir, lang), dump_records(records, list(reference.entries))
        )
    return result
