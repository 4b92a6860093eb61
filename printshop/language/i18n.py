"""The translators' workflow: status, sync, and PO export/import.

- `status`: per game and language, how many texts are translated, missing, stale, untranslated.
- `sync`: brings a translation file in line with its source: adds missing ids (with the source
  text and a `# TODO: translate` mark) in source order, moves texts the source dropped to an
  `obsolete:` section, keeps every comment and the translator's order, and refreshes the record
  of which source text each translation was made from (`<lang>.sources.yaml`).
- `confirm`: the YAML route's way to say a stale text is still right (the PO route removes
  *fuzzy*): records the current source for it, and turns the `# TODO: translate` mark of a copy the
  translator keeps as it is into `# accept untranslated: …` (as an import of the source's text kept in a PO
  editor does).
- `export_po` / `import_po`: the same texts as a gettext PO file for Poedit or Weblate (msgctxt =
  id, msgid = source, msgstr = translation, fuzzy = stale, with the previous source; `#:` the
  translation's YAML line, `#.` the cards and frames that print the text and about how many
  characters fit there). Import checks each text as `validate` does, at the PO file's line, and
  writes nothing if any check fails. Exporting and importing an unchanged file changes nothing.

A text still marked `# TODO: translate` on its line (what `sync` writes) and unchanged since is
untranslated, even a single word; so is any text the same as its source's that nothing acknowledges
(translation.left_as_source, validate's `untranslated`): status counts it so, and `build` does not print it
as a translation (see `completeness`).
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import polib
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.error import CommentMark
from ruamel.yaml.scalarstring import DoubleQuotedScalarString
from ruamel.yaml.tokens import CommentToken

from printshop.checks import translation_checks
from printshop.diagnostics import Location, Report
from printshop.language.texts import OBSOLETE_SECTION as OBSOLETE
from printshop.language.texts import Catalogue, TextEntry, markup_problems, placeholders
from printshop.language.translation import (
    TODO,
    Record,
    TextStatus,
    fingerprint,
    left_as_source,
    record_path,
    statuses,
    todo_marked,
    untracked,
)
from printshop.project.loader import GameData, Project
from printshop.project.source import read_yaml
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
        """The share of texts with a real translation (stale ones included: they are translated, from
        an older source), rounded down, so that 100 means complete."""
        return percent_translated(self.total, self.counts["missing"] + self.counts["untranslated"])


def percent_translated(total: int, untranslated: int) -> int:
    return 100 if total == 0 else math.floor(100 * (total - untranslated) / total)


def text_statuses(game: GameData, lang: str) -> list[TextStatus]:
    """Every text of the reference against the `lang` translation (translation.statuses), where a copy
    still marked `# TODO: translate` and unchanged since sync copied it counts as untranslated."""
    reference = game.reference(lang)
    catalogue = game.catalogues.get(lang)
    if reference is None:
        return []
    if catalogue is None:
        return [TextStatus(i, "missing", e, None) for i, e in reference.entries.items()]
    records = game.records.get(lang, {})
    marked = todo_marked(catalogue)
    result = []
    for text in statuses(reference, catalogue, records, game.game.untranslatable):
        if text.id in marked and text.state in ("translated", "stale"):
            copied = {text.source.text} | (
                {records[text.id].source} if text.id in records else set()
            )
            if text.translation.text in copied:
                text = replace(text, state="untranslated", old_source=None)
        result.append(text)
    return result


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
        holder.ca.items.setdefault(holder_key, [None, None, None, None])[2] = CommentToken(
            "\n" + lines, CommentMark(0), None
        )


def _set_todo(mapping: CommentedMap, key, on: bool) -> None:
    slot = mapping.ca.items.get(key)
    token = slot[2] if slot and len(slot) > 2 else None
    has = isinstance(token, CommentToken) and token.value.lstrip().startswith("# " + TODO)
    if on and not has:
        rest = token.value if isinstance(token, CommentToken) else "\n"
        mapping.ca.items.setdefault(key, [None, None, None, None])[2] = CommentToken(
            f" # {TODO}" + (rest if rest.startswith("\n") else "\n" + rest), CommentMark(0), None
        )
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
    following = (
        _take_following_lines(mapping, keys[position - 1]) if 0 < position < len(keys) else ""
    )
    mapping.insert(position, key, value)
    return following


def _set_text(
    root: CommentedMap, text_id: str, text: str, source_order: list[str], *, todo: bool
) -> None:
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
        lines = _insert(
            node, part, DoubleQuotedScalarString(text) if last else CommentedMap(), order
        )
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
            names.setdefault(text_id[len(start) :].split(".")[0], None)
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
    source = game.reference(lang)
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
    records = _refresh_records(
        source, entries, game.records.get(lang, {}), game.game.untranslatable
    )
    if write:
        _write_as_it_was(path, _dump(root))
        write_atomically(record_path(game.dir, lang), _dump_records(records, order))
    return SyncResult(path, added, orphans, len(records))


_BOM = b"\xef\xbb\xbf"


def _write_as_it_was(path: Path, data: bytes) -> None:
    """Write a translator's text file with the line endings (CRLF) and byte order mark it had, and not at all when
    that gives the bytes it has: a sync that added and moved nothing rewrote a Windows file to LF without its BOM,
    a change of every line to version control."""
    try:
        before = path.read_bytes()
    except OSError:
        before = b""
    if b"\r\n" in before:
        data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    if before.startswith(_BOM) and not data.startswith(_BOM):
        data = _BOM + data
    if data != before:
        write_atomically(path, data)


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


def _refresh_records(
    source: Catalogue, entries: dict, old: dict[str, Record], untranslatable=None
) -> dict[str, Record]:
    records = {}
    for text_id, entry in source.entries.items():
        translated = entries.get(text_id)
        if translated is None:
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


def _dump_records(records: dict[str, Record], order: list[str]) -> bytes:
    root = CommentedMap()
    for text_id in order:
        if text_id in records:
            root[text_id] = CommentedMap(
                source=DoubleQuotedScalarString(records[text_id].source),
                translated=records[text_id].translated,
            )
    root.yaml_set_start_comment(
        "Written by 'printshop i18n sync': the source text each translation was made from.\n"
        "Do not edit; it is how printshop knows a translation went stale."
    )
    return _dump(root)


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
    """Record that the translations of `ids` (default: every stale text) are right as they stand: what
    removing *fuzzy* does in a PO editor. A stale text is recorded against the current source; a copy
    still marked `# TODO: translate` (or a sentence identical to its source) is kept as the
    translation and loses its mark. Ids the game does not have are the caller's to report."""
    reference = game.reference(lang)
    path = game.dir / "text" / f"{lang}.yaml"
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
        if (
            text.translation.text == text.source.text
        ):  # kept as the text it is made from: said so on its line
            root = root if root is not None else _load_root(path)
            _keep_as_source(root, text_id, f"kept as the {reference.lang} text (i18n confirm)")
        elif text_id in marked:
            root = root if root is not None else _load_root(path)
            _unmark(root, text_id)
        (result.confirmed if text.state == "stale" else result.unmarked).append(text_id)
        records[text_id] = Record(text.source.text, fingerprint(text.translation.text))
    if write and (result.confirmed or result.unmarked):
        if root is not None:
            _write_as_it_was(path, _dump(root))
        write_atomically(
            record_path(game.dir, lang), _dump_records(records, list(reference.entries))
        )
    return result


def _unmark(root: CommentedMap, text_id: str) -> None:
    """Take the `# TODO: translate` mark off a text, keeping every other comment."""
    mapping, key = _holder_of(root, text_id)
    _set_todo(mapping, key, False)


def _holder_of(root: CommentedMap, text_id: str) -> tuple[CommentedMap, str]:
    parts = text_id.split(".")
    mapping = root
    for part in parts[:-1]:
        mapping = mapping[part]
    return mapping, parts[-1]


def _keep_as_source(root: CommentedMap, text_id: str, why: str) -> None:
    """A text the translator keeps as the text it is made from (`i18n confirm`, or the same text in a PO editor):
    its `# TODO: translate` mark becomes `# accept untranslated: <why>`, so that validate shows it as
    acknowledged and status and the build count it translated (translation.left_as_source), as it was meant.
    An `# accept` of other checks on the line gains `untranslated`; any other comment stays after the mark."""
    mapping, key = _holder_of(root, text_id)
    _set_todo(mapping, key, False)
    slot = mapping.ca.items.get(key)
    token = slot[2] if slot and len(slot) > 2 else None
    first, newline, rest = (
        token.value.partition("\n") if isinstance(token, CommentToken) else ("", "\n", "")
    )
    accepting = translation_checks.ACCEPT.search(
        first
    )  # `# accept code, code: why`, as validate reads it
    if accepting and "untranslated" in re.split(r"\s*,\s*", accepting.group(1)):
        return
    if accepting:
        first = f"{first[: accepting.end(1)]}, untranslated{first[accepting.end(1) :]}"
    else:
        first = f" # accept untranslated: {why}" + (f" {first.strip()}" if first.strip() else "")
    mapping.ca.items.setdefault(key, [None, None, None, None])[2] = (
        CommentToken(  # (as _set_todo writes a mark)
            first + (newline or "\n") + rest, CommentMark(0), None
        )
    )


# --- PO files -----------------------------------------------------------------------------------
def export_po(game: GameData, lang: str, printed: dict[str, list[str]] | None = None) -> bytes:
    """The game's texts in `lang` as a PO file. `printed` ({text id: lines}, from `where_printed`) becomes
    each entry's `#.` comment: where the text prints and how much room it has."""
    source = game.reference(lang)
    po = polib.POFile(wrapwidth=0)
    po.metadata = {
        "Project-Id-Version": f"printshop {game.id}",
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Generator": "printshop",
        "X-Source-Language": source.lang,
    }
    for text in text_statuses(game, lang):
        # where translators look: the translation's own line, then the text it is made from
        occurrences = [
            (_in_game(game, entry.location), str(entry.location.line))
            for entry in (text.translation, text.source)
            if entry is not None
        ]
        entry = polib.POEntry(
            msgctxt=text.id,
            msgid=text.source.text,
            msgstr=text.translation.text if text.state in ("translated", "stale") else "",
            occurrences=occurrences,
        )
        if printed and printed.get(text.id):
            entry.comment = "\n".join(printed[text.id])
        if text.state == "stale":
            entry.flags.append("fuzzy")
            entry.previous_msgid = text.old_source
        if placeholders(
            text.source.text
        ):  # Poedit, Weblate and msgfmt -c then check the {placeholders} themselves
            entry.flags.append("python-brace-format")
        po.append(entry)
    return str(po).encode("utf-8")


def _in_game(game: GameData, location: Location) -> str:
    """A text file's path as translators see it in the project, `data/comrade/text/fr.yaml`, whatever
    the working directory."""
    return f"{game.dir.parent.name}/{game.id}/text/{Path(location.path).name}"


# the room a frame gives, estimated from a sample of ordinary prose in the frame's font
_ROOM_SAMPLE = (
    "Each player takes a card and keeps it hidden; the others vote, then reveal their roles."
)
_WRAP_LOSS = 0.9  # lines broken between words are, on average, about a tenth short of full


def frame_room(frame) -> int:
    """About how many characters fit in a frame at its minimum size: the lines that fit (height over
    leading) times the characters per line (width over the font's average character width, measured
    on a sample of prose), less a tenth for lines broken between words. An estimate for translators,
    not a promise: `validate` measures the real text."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    size = frame.min_size if frame.min_size is not None else frame.size
    sample = _ROOM_SAMPLE.upper() if frame.uppercase else _ROOM_SAMPLE
    try:
        average = stringWidth(sample, frame.font, size) / len(sample)
    except KeyError:  # a font that is not registered: reported by validate
        return 0
    lines = max(1, math.floor(frame.height / (size * frame.leading)))
    return max(1, math.floor(lines * frame.width / average * _WRAP_LOSS))


_MAX_PLACES = 4  # a label printed on every card of a deck is listed once per face, up to this many


def where_printed(checked, game_id: str) -> dict[str, list[str]]:
    """{text id: comment lines}: the cards, sheets and frames that print each text, with the room there,
    from a checked layout (build.check) of the game; and whether the rules booklet prints it."""
    from printshop.language.resolve import template_context
    from printshop.typeset.templating import make_environment, render_template

    places: dict[str, list[str]] = {}
    layout = next(
        (l for l in checked.layouts if l.game_id == game_id and l.localized.variant is None), None
    )
    if layout is None:
        return {}
    faces = [(key, face) for deck in layout.decks for key, face in deck.faces.items()]
    faces += [(face.key, face) for sheet in layout.sheets for face in sheet.faces]
    for key, face in faces:
        for frame in face.frames:
            room = frame_room(frame.frame)
            for text_id in frame.text_ids:
                others = [other for other in frame.text_ids if other != text_id]
                shared = f", shared with {', '.join(others)}" if others else ""
                places.setdefault(text_id, []).append(
                    f"on {_face_name(key)}, frame '{frame.name}': about {room} characters fit{shared}"
                )
    spec = layout.localized.data.game.booklet
    if spec is not None:
        context = template_context(layout.localized)
        read = context["t"].start_log()
        try:
            render_template(make_environment(checked.project.templates_dir), spec.template, context)
        except Exception:  # noqa: BLE001 - a broken booklet is validate's to report; its texts go unlisted
            read = []
        finally:
            context["t"].stop_log()
        for text_id in dict.fromkeys(read):
            places.setdefault(text_id, []).append(
                "in the rules booklet (running text: no fixed room)"
            )
    comments = {}
    for text_id, lines in places.items():
        lines = list(dict.fromkeys(lines))
        more = len(lines) - _MAX_PLACES
        lines = lines[:_MAX_PLACES] + (
            [f"in {more} more place{'s' if more != 1 else ''}"] if more > 0 else []
        )
        comments[text_id] = ["Printed " + lines[0]] + ["also " + line for line in lines[1:]]
    return comments


def _face_name(key: str) -> str:
    """A laid-out face's key, `deck/card/front`, `deck/back` or `sheet/id/item`, in words."""
    parts = key.split("/")
    if parts[0] == "sheet":
        return f"sheet '{parts[1]}'" + (f" ({parts[2]})" if len(parts) > 2 and parts[2] else "")
    if len(parts) == 2:
        return f"the back of deck '{parts[0]}'"
    return f"card '{parts[1]}' ({parts[2]}) of deck '{parts[0]}'"


@dataclass
class ImportResult:
    changed: list[str]
    confirmed: list[str]
    report: Report


def import_po(
    game: GameData, lang: str, po_path: Path, *, write: bool = True, project: Project | None = None
) -> ImportResult:
    """Read a PO file back into the YAML. Every text the import changes or confirms is checked as
    `validate` checks it (markup, placeholders, tags, line breaks and the rest of check_text_pair),
    reported at its `msgstr` line in the PO file; nothing is written if any check gives an error.
    `project` (for the checks) is loaded from the game's data folder when not given."""
    from printshop.checks.translations import check_text_pair

    report = Report()
    try:
        po_lines = Path(po_path).read_text(encoding="utf-8").splitlines()
        for line, column, problem in _po_string_problems(
            po_lines
        ):  # before polib, which reads some as text
            report.add(
                "po-syntax",
                Location.of(po_path, line, column),
                problem,
                hint='end the text with a " on its line (a " inside a text is written \\")',
            )
        if report.has_errors:
            return ImportResult([], [], report)
        po = polib.pofile(str(po_path), wrapwidth=0)
    except (OSError, ValueError, UnicodeDecodeError) as error:
        line = re.search(r"\(line (\d+)\)", str(error))
        report.add(
            "po-syntax",
            Location.of(po_path, int(line.group(1)) if line else 0, 1 if line else 0),
            f"not a readable PO file: {error}",
        )
        return ImportResult([], [], report)
    if report.has_errors or not _po_is_ours(po, po_path, po_lines, lang, report):
        return ImportResult([], [], report)
    if project is None:
        from printshop.project.loader import load_project

        project = load_project(game.dir.parent, games=[game.id], report=Report())
    source = game.reference(lang)
    path = game.dir / "text" / f"{lang}.yaml"
    root = _load_root(path)
    order = list(source.entries)
    current = game.catalogues.get(lang)
    entries = current.entries if current else {}
    records = dict(game.records.get(lang, {}))
    marked = todo_marked(current) if current else set()
    changed, confirmed = [], []
    for entry in po:
        text_id = entry.msgctxt
        if not text_id or text_id not in source.entries:
            report.add(
                "orphan-text",
                Location.of(po_path, entry.linenum, 1),
                f"'{text_id}' is not a text of {game.id}: skipped",
            )
            continue
        if not entry.msgstr or entry.obsolete:
            continue
        old = entries.get(text_id)
        touched = True  # the import changes this text's line: its text, or the TODO mark on it
        kept = (
            not entry.fuzzy and entry.msgstr == source.entries[text_id].text
        )  # the source's text, kept on purpose
        if old is None or old.text != entry.msgstr:
            _set_text(root, text_id, entry.msgstr, order, todo=False)
            if kept:
                _keep_as_source(root, text_id, f"kept as the {source.lang} text in a PO editor")
        elif kept and (
            text_id in marked or left_as_source(text_id, old, old.text, game.game.untranslatable)
        ):
            _keep_as_source(root, text_id, f"kept as the {source.lang} text in a PO editor")
        elif (
            text_id in marked
        ):  # the copy sync left, kept as it is in the PO editor: no longer a TODO
            _unmark(root, text_id)
        else:
            touched = False
        if touched:
            changed.append(text_id)
        now = fingerprint(entry.msgstr)
        newly_confirmed = False
        if entry.fuzzy:
            previous = records.get(text_id)
            records[text_id] = Record(
                entry.previous_msgid or (previous.source if previous else ""), now
            )
        else:
            if text_id in records and records[text_id].source != entry.msgid:
                confirmed.append(text_id)
                newly_confirmed = True
            records[text_id] = Record(entry.msgid, now)
        if touched or newly_confirmed:
            where = Location.of(po_path, _msgstr_line(po_lines, entry.linenum), 1)
            for problem in markup_problems(entry.msgstr):
                report.add("markup", where, f"'{text_id}': {problem}")
            check_text_pair(
                project,
                game,
                source.entries[text_id],
                source.lang,
                TextEntry(text_id, entry.msgstr, where),
                lang,
                report,
            )
    if write and not report.has_errors:
        _write_as_it_was(path, _dump(root))
        write_atomically(record_path(game.dir, lang), _dump_records(records, order))
    return ImportResult(changed, confirmed, report)


def _po_is_ours(po, po_path: Path, lines: list[str], lang: str, report: Report) -> bool:
    """A PO file `export_po` could have written for `lang`: entries, each with its text id (msgctxt), and
    no other language in its header. Anything else is reported (po-syntax), so nothing is imported from it."""
    if not len(po):
        report.add(
            "po-syntax",
            Location.of(po_path),
            "the file has no entries: it is not a translation printshop "
            "exported, or it was emptied",
        )
        return False
    stated = (po.metadata or {}).get("Language", "").strip()
    if stated and stated.replace("-", "_").lower() != lang.replace("-", "_").lower():
        report.add(
            "po-syntax",
            Location.of(po_path, 1, 1),
            f"the file says it is in '{stated}', not '{lang}'",
            hint=f"import it with --lang {stated}, or export '{lang}' again",
        )
    for entry in po:
        if not entry.msgctxt and not entry.obsolete:
            report.add(
                "po-syntax",
                Location.of(po_path, entry.linenum, 1),
                f"the entry {entry.msgid[:40]!r} has no msgctxt (its text id): it cannot be placed",
            )
    _duplicate_ids(po, po_path, lines, report)
    return not report.has_errors


_PO_STRING_LINE = re.compile(r'\s*(?:(?:msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+)?(?=")')


def _po_string_problems(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line, column, message) of each quoted text in a PO file's entries that does not end on its line, or
    has something after its closing quote. polib reads `msgstr "Informateur` (a closing quote lost in an
    editor) as 'Informateu', without a word: an import would write the text with its last letter cut."""
    problems = []
    for number, line in enumerate(lines, start=1):
        start = _PO_STRING_LINE.match(line)
        if start is None:
            continue  # a comment, a blank line, or what polib itself refuses
        opening, index = start.end(), start.end() + 1
        while index < len(line) and line[index] != '"':
            index += 2 if line[index] == "\\" else 1
        if index >= len(line):
            problems.append(
                (
                    number,
                    opening + 1,
                    "the text in quotes that starts here does not end on its line",
                )
            )
        elif line[index + 1 :].strip():
            after = line[index + 1 :]
            problems.append(
                (
                    number,
                    index + 2 + len(after) - len(after.lstrip()),
                    f"{after.strip()[:20]!r} after the text's closing quote",
                )
            )
    return problems


def _duplicate_ids(po, po_path: Path, lines: list[str], report: Report) -> None:
    """An id twice in the file (two entries with the same msgctxt): polib keeps both and an import took the
    last without a word, whichever the translator meant."""
    first: dict[str, int] = {}
    for entry in po:
        if entry.obsolete or not entry.msgctxt:
            continue
        line = _msgstr_line(lines, entry.linenum, "msgctxt")
        if entry.msgctxt in first:
            report.add(
                "po-syntax",
                Location.of(po_path, line, 1),
                f"'{entry.msgctxt}' has a second entry here (the first is at line {first[entry.msgctxt]})",
                hint="keep one of the two entries",
            )
        else:
            first[entry.msgctxt] = line


def _msgstr_line(lines: list[str], start: int, keyword: str = "msgstr") -> int:
    """The line of an entry's msgstr, or `keyword` (polib gives the line where the entry starts)."""
    for number in range(max(start, 1), len(lines) + 1):
        if lines[number - 1].startswith(keyword):
            return number
    return start
