"""The translators' workflow: status, sync, and PO export/import.

- `status`: per game and language, how many texts are translated, missing, stale, untranslated.
- `sync`: brings a translation file in line with its source: adds missing ids (with the source
  text and a `# TODO: translate` mark) in source order, moves texts the source dropped to an
  `obsolete:` section, keeps every comment and the translator's order, and refreshes the record
  of which source text each translation was made from (`<lang>.sources.yaml`).
- `export_po` / `import_po`: the same texts as a gettext PO file for Poedit or Weblate (msgctxt =
  id, msgid = source, msgstr = translation, fuzzy = stale, with the previous source). Exporting
  and importing an unchanged file changes nothing.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

import polib
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.scalarstring import DoubleQuotedScalarString
from ruamel.yaml.error import CommentMark
from ruamel.yaml.tokens import CommentToken

from printshop.diagnostics import Location, Report
from printshop.loader import GameData, Project
from printshop.source import read_yaml
from printshop.texts import OBSOLETE_SECTION as OBSOLETE
from printshop.texts import Catalogue
from printshop.translation import (Record, TextStatus, fingerprint, record_path, statuses,
                                   unlikely_identical)
from printshop.write import write_atomically

TODO = "TODO: translate"
STATES = ("translated", "missing", "stale", "untranslated")


# --- status -----------------------------------------------------------------------------------
@dataclass
class LanguageStatus:
    game: str
    lang: str
    total: int
    counts: dict[str, int]
    texts: list[TextStatus] = field(default_factory=list)


def status(project: Project, games: list[str] | None = None) -> list[LanguageStatus]:
    rows = []
    for game in project.games.values():
        if games and game.id not in games or game.source is None:
            continue
        for lang in game.languages:
            if lang == game.source.lang:
                continue
            catalogue = game.catalogues[lang]
            texts = statuses(game.source, catalogue, game.records.get(lang, {}))
            counts = {state: sum(1 for t in texts if t.state == state) for state in STATES}
            rows.append(LanguageStatus(game.id, lang, len(texts), counts, texts))
    return rows


def format_status(rows: list[LanguageStatus]) -> str:
    """One line per game and translation (the source language is the reference, not a row)."""
    header = f"{'game':<16} {'lang':<5} {'total':>5} " + " ".join(f"{s:>12}" for s in STATES)
    lines = [header, "-" * len(header)]
    for row in rows:
        lines.append(f"{row.game:<16} {row.lang:<5} {row.total:>5} "
                     + " ".join(f"{row.counts[s]:>12}" for s in STATES))
    return "\n".join(lines)


# --- YAML editing that keeps comments ----------------------------------------------------------
def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def _dump(root) -> bytes:
    stream = io.StringIO()
    _yaml().dump(root, stream)
    return stream.getvalue().encode("utf-8")


def _comment_holder(mapping: CommentedMap, key):
    """The (mapping, key) whose end-of-line comment token carries the comment lines that follow
    `key`'s value: for a nested mapping, its last leaf."""
    value = mapping[key]
    while isinstance(value, CommentedMap) and len(value):
        mapping, key = value, list(value)[-1]
        value = mapping[key]
    return mapping, key


def _take_following_lines(mapping: CommentedMap, key) -> str:
    """Detach the full-line comments after `key` (they belong to whatever follows it)."""
    holder, holder_key = _comment_holder(mapping, key)
    slot = holder.ca.items.get(holder_key)
    token = slot[2] if slot and len(slot) > 2 else None
    if not isinstance(token, CommentToken):
        return ""
    head, newline, rest = token.value.partition("\n")
    token.value = head + newline
    return rest


def _give_following_lines(mapping: CommentedMap, key, lines: str) -> None:
    if not lines:
        return
    holder, holder_key = _comment_holder(mapping, key)
    slot = holder.ca.items.get(holder_key)
    token = slot[2] if slot and len(slot) > 2 else None
    if isinstance(token, CommentToken):
        token.value = token.value + lines
    else:
        holder.ca.items.setdefault(holder_key, [None, None, None, None])[2] = CommentToken("\n" + lines, CommentMark(0), None)


def _set_todo(mapping: CommentedMap, key, on: bool) -> None:
    slot = mapping.ca.items.get(key)
    token = slot[2] if slot and len(slot) > 2 else None
    has = isinstance(token, CommentToken) and token.value.lstrip().startswith("# " + TODO)
    if on and not has:
        rest = token.value if isinstance(token, CommentToken) else "\n"
        mapping.ca.items.setdefault(key, [None, None, None, None])[2] = CommentToken(
            f" # {TODO}" + (rest if rest.startswith("\n") else "\n" + rest), CommentMark(0), None)
    elif not on and has:
        token.value = "\n" + token.value.partition("\n")[2]


def _insert(mapping: CommentedMap, key: str, value, order: list[str]) -> str:
    """Insert `key` after the last existing key that comes before it in `order`. Returns the comment
    lines that stood above the key it now precedes; the caller hands them back once the new
    entry is complete, so they stay above the key they describe."""
    rank = {k: i for i, k in enumerate(order)}
    keys = list(mapping)
    position = 0
    for index, existing in enumerate(keys):
        if rank.get(existing, len(order)) < rank.get(key, len(order)):
            position = index + 1
    following = _take_following_lines(mapping, keys[position - 1]) if 0 < position < len(keys) else ""
    mapping.insert(position, key, value)
    return following


def _set_text(root: CommentedMap, text_id: str, text: str, source_order: list[str], *, todo: bool) -> None:
    parts = text_id.split(".")
    node, first_new, following = root, None, ""
    for depth, part in enumerate(parts):
        order = _child_order(source_order, ".".join(parts[:depth]))
        last = depth == len(parts) - 1
        if part in node and (last or isinstance(node[part], CommentedMap)):
            if last:
                node[part] = DoubleQuotedScalarString(text)
            else:
                node = node[part]
            continue
        if part in node:  # a text where a group of texts belongs
            del node[part]
        lines = _insert(node, part, DoubleQuotedScalarString(text) if last else CommentedMap(), order)
        if first_new is None:
            first_new, following = (node, part), lines
        if not last:
            node = node[part]
    _set_todo(node, parts[-1], todo)
    if first_new is not None:
        _give_following_lines(*first_new, following)


def _child_order(source_order: list[str], prefix: str) -> list[str]:
    """Names directly under `prefix` (a dotted id, '' for the top) in source order."""
    names: dict[str, None] = {}
    start = prefix + "." if prefix else ""
    for text_id in source_order:
        if text_id.startswith(start):
            names.setdefault(text_id[len(start):].split(".")[0], None)
    return list(names)


def _remove(root: CommentedMap, text_id: str) -> None:
    parts = text_id.split(".")
    chain = [root]
    for part in parts[:-1]:
        chain.append(chain[-1][part])
    for depth in range(len(parts) - 1, -1, -1):
        mapping, key = chain[depth], parts[depth]
        if depth < len(parts) - 1 and len(mapping[key]):
            break
        keys = list(mapping)
        index = keys.index(key)
        following = _take_following_lines(mapping, key)
        del mapping[key]
        if index > 0:
            _give_following_lines(mapping, keys[index - 1], following)


# --- sync -------------------------------------------------------------------------------------
@dataclass
class SyncResult:
    path: Path
    added: list[str]
    obsoleted: list[str]
    recorded: int


def sync(game: GameData, lang: str, *, write: bool = True) -> SyncResult:
    source = game.source
    if source is None:
        raise ValueError(f"{game.id} has no source texts")
    path = game.dir / "text" / f"{lang}.yaml"
    root = _load_root(path)
    order = list(source.entries)
    current = game.catalogues.get(lang)
    entries = current.entries if current else {}
    added = [text_id for text_id in order if text_id not in entries]
    for text_id in added:
        _set_text(root, text_id, source.entries[text_id].text, order, todo=True)
    orphans = [text_id for text_id in entries if text_id not in source.entries]
    if orphans:
        obsolete = root.get(OBSOLETE)
        if not isinstance(obsolete, CommentedMap):
            obsolete = CommentedMap()
            root[OBSOLETE] = obsolete
        for text_id in orphans:
            obsolete[text_id] = DoubleQuotedScalarString(entries[text_id].text)
            _remove(root, text_id)
    records = _refresh_records(source, entries, game.records.get(lang, {}))
    if write:
        write_atomically(path, _dump(root))
        write_atomically(record_path(game.dir, lang), _dump_records(records, order))
    return SyncResult(path, added, orphans, len(records))


def _load_root(path: Path) -> CommentedMap:
    if not path.exists():
        return CommentedMap()
    report = Report()
    document = read_yaml(path, report, preserve_quotes=True)
    if document is None or not isinstance(document.root, (CommentedMap, type(None))):
        raise SyncError(report)
    return document.root if document.root is not None else CommentedMap()


class SyncError(Exception):
    def __init__(self, report: Report):
        super().__init__("the translation file cannot be read")
        self.report = report


def _refresh_records(source: Catalogue, entries: dict, old: dict[str, Record]) -> dict[str, Record]:
    records = {}
    for text_id, entry in source.entries.items():
        translated = entries.get(text_id)
        if translated is None:
            continue
        previous = old.get(text_id)
        now = fingerprint(translated.text)
        if previous is not None and previous.source != entry.text and previous.translated == now:
            records[text_id] = previous  # still stale: keep the old source until the translator acts
        elif translated.text == entry.text and unlikely_identical(entry.text) and previous is None:
            continue  # a copy of the source waiting to be translated
        else:
            records[text_id] = Record(entry.text, now)
    return records


def _dump_records(records: dict[str, Record], order: list[str]) -> bytes:
    root = CommentedMap()
    for text_id in order:
        if text_id in records:
            root[text_id] = CommentedMap(source=DoubleQuotedScalarString(records[text_id].source),
                                         translated=records[text_id].translated)
    root.yaml_set_start_comment("Written by 'printshop i18n sync': the source text each translation was made from.\n"
                                "Do not edit; it is how printshop knows a translation went stale.")
    return _dump(root)


# --- PO files -----------------------------------------------------------------------------------
def export_po(game: GameData, lang: str) -> bytes:
    source = game.source
    catalogue = game.catalogues.get(lang)
    records = game.records.get(lang, {})
    po = polib.POFile(wrapwidth=0)
    po.metadata = {"Project-Id-Version": f"printshop {game.id}", "Language": lang, "MIME-Version": "1.0",
                   "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit",
                   "X-Generator": "printshop", "X-Source-Language": source.lang}
    texts = statuses(source, catalogue, records) if catalogue else \
        [TextStatus(i, "missing", e, None) for i, e in source.entries.items()]
    for text in texts:
        entry = polib.POEntry(msgctxt=text.id, msgid=text.source.text,
                              msgstr=text.translation.text if text.state in ("translated", "stale") else "",
                              occurrences=[(_relative(text.source.location), str(text.source.location.line))])
        if text.state == "stale":
            entry.flags.append("fuzzy")
            entry.previous_msgid = text.old_source
        po.append(entry)
    return str(po).encode("utf-8")


def _relative(location: Location) -> str:
    return Path(location.path).name


@dataclass
class ImportResult:
    changed: list[str]
    confirmed: list[str]
    report: Report


def import_po(game: GameData, lang: str, po_path: Path, *, write: bool = True) -> ImportResult:
    report = Report()
    try:
        po = polib.pofile(str(po_path), wrapwidth=0)
    except (OSError, ValueError, UnicodeDecodeError) as error:
        report.add("yaml-syntax", Location.of(po_path), f"not a readable PO file: {error}")
        return ImportResult([], [], report)
    source = game.source
    path = game.dir / "text" / f"{lang}.yaml"
    root = _load_root(path)
    order = list(source.entries)
    current = game.catalogues.get(lang)
    entries = current.entries if current else {}
    records = dict(game.records.get(lang, {}))
    changed, confirmed = [], []
    for entry in po:
        text_id = entry.msgctxt
        if not text_id or text_id not in source.entries:
            report.add("orphan-text", Location.of(po_path, entry.linenum, 1),
                       f"'{text_id}' is not a text of {game.id}: skipped")
            continue
        if not entry.msgstr or entry.obsolete:
            continue
        old = entries.get(text_id)
        if old is None or old.text != entry.msgstr:
            _set_text(root, text_id, entry.msgstr, order, todo=False)
            changed.append(text_id)
        now = fingerprint(entry.msgstr)
        if entry.fuzzy:
            previous = records.get(text_id)
            records[text_id] = Record(entry.previous_msgid or (previous.source if previous else ""), now)
        else:
            if text_id in records and records[text_id].source != entry.msgid:
                confirmed.append(text_id)
            records[text_id] = Record(entry.msgid, now)
    if write and not report.has_errors:
        write_atomically(path, _dump(root))
        write_atomically(record_path(game.dir, lang), _dump_records(records, order))
    return ImportResult(changed, confirmed, report)
