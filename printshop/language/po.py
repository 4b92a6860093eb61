"""A game's texts in one language as a gettext PO file, for Poedit or Weblate, and back.

`export_po` writes msgctxt = id, msgid = source, msgstr = translation, fuzzy = stale (with the
previous source), `#:` the translation's YAML line and `#.` where the text prints and about how many
characters fit there (`where_printed`, `frame_room`). `import_po` checks each text as `validate`
does, at the PO file's line, and writes nothing if any check fails; it edits the YAML through
translation_file.py. Exporting and importing an unchanged file changes nothing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import polib
from ruamel.yaml.comments import CommentedMap

from printshop.checks import encoding
from printshop.diagnostics import Location, Report, closest
from printshop.language.i18n import text_statuses
from printshop.language.texts import Catalogue, TextEntry, markup_problems, placeholders
from printshop.language.translation import (
    Record,
    fingerprint,
    left_as_source,
    record_path,
    todo_marked,
)
from printshop.language.translation_file import (
    dump,
    dump_records,
    keep_as_source,
    load_root,
    set_text,
    unmark,
    write_as_it_was,
)
from printshop.project.loader import GameData, Project
from printshop.write.commit import write_atomically


def export_po(game: GameData, lang: str, printed: dict[str, list[str]] | None = None) -> bytes:
    """The game's texts in `lang` as a PO file. `printed` ({text id: lines}, from `where_printed`)
    becomes each entry's `#.` comment: where the text prints and how much room it has."""
    source = game.reference(lang)
    assert source is not None  # (the command exports the texts of a game that has source texts)
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
            (in_game(game, entry.location), str(entry.location.line))
            for entry in (text.translation, text.source)
            if entry is not None
        ]
        entry = polib.POEntry(
            msgctxt=text.id,
            msgid=text.source.text,
            msgstr=text.translation.text
            if text.translation is not None and text.state in ("translated", "stale")
            else "",
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


def in_game(game: GameData, location: Location) -> str:
    """A text file's path as translators see it in the project, `data/comrade/text/fr.yaml`,
    whatever the working directory."""
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
    """{text id: comment lines}: the cards, sheets and frames that print each text, with the room
    there, from a checked layout (build.check) of the game; and whether the rules booklet prints it."""
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
    from printshop.language import xliff

    report = Report()
    read = (xliff.read_xliff if xliff.is_xliff(po_path) else _read_po)(po_path, lang, report)
    if read is None:
        return ImportResult([], [], report)
    po, po_lines = read
    if project is None:
        from printshop.project.loader import load_project

        project = load_project(game.dir.parent, games=[game.id], report=Report())
    source = game.reference(lang)
    assert source is not None  # (a game without source texts has no texts to import)
    path = game.dir / "text" / f"{lang}.yaml"
    root = load_root(path)
    order = list(source.entries)
    current = game.catalogues.get(lang)
    entries = current.entries if current else {}
    records = dict(game.records.get(lang, {}))
    marked = todo_marked(current) if current else set()
    changed, confirmed = [], []
    for entry in po:
        text_id = entry.msgctxt
        if not text_id or text_id not in source.entries:
            _unknown_id(game, source, entry, po_path, report)
            continue
        if not entry.msgstr or entry.obsolete:
            continue
        fixed = encoding.repaired(entry.msgstr)
        if fixed is not None:
            report.add(
                "mojibake",
                Location.of(po_path, _msgstr_line(po_lines, entry.linenum), 1),
                f"'{text_id}' holds encoding damage (UTF-8 read as another encoding): "
                f"{entry.msgstr[:60]!r}",
                hint=f'it most likely reads "{fixed[:80]}": correct it in the PO file',
            )
        touched = _set_imported_text(root, game, source, entries.get(text_id), marked, entry, order)
        if touched:
            changed.append(text_id)
        newly_confirmed = _record_imported(records, entry)
        if newly_confirmed:
            confirmed.append(text_id)
        if touched or newly_confirmed:
            where = Location.of(po_path, _msgstr_line(po_lines, entry.linenum), 1)
            _check_imported(project, game, source, lang, entry, where, report)
    if write and not report.has_errors:
        write_as_it_was(path, dump(root))
        write_atomically(record_path(game.dir, lang), dump_records(records, order))
    return ImportResult(changed, confirmed, report)


def _unknown_id(game: GameData, source: Catalogue, entry, po_path: Path, report: Report) -> None:
    """An entry whose msgctxt is no text of the game: a misspelt id (one close to a text's) is an
    error, as its translation would be lost; an id the source dropped since the export is skipped
    with a warning."""
    near = closest(entry.msgctxt or "", list(source.entries), cutoff=0.8)
    where = Location.of(po_path, entry.linenum, 1)
    if near and entry.msgstr and not entry.obsolete:
        report.add(
            "po-unknown-text",
            where,
            f"'{entry.msgctxt}' is not a text of {game.id}: its translation cannot be placed",
            hint=f"did you mean '{near}'? correct the msgctxt, or export the file again",
        )
    else:
        report.add("orphan-text", where, f"'{entry.msgctxt}' is not a text of {game.id}: skipped")


def _read_po(po_path: Path, lang: str, report: Report) -> tuple[polib.POFile, list[str]] | None:
    """The PO file and its lines, or None (and why, in `report`) for a file that is not a readable
    PO file `export_po` could have written for `lang`."""
    try:
        data = Path(po_path).read_bytes()
        mismatch = encoding.po_charset_problem(data)
        if mismatch is not None:  # read by its header, the file would import garbled text
            line, message, hint = mismatch
            report.add("po-charset", Location.of(po_path, line, 1), message, hint=hint)
            return None
        po_lines = encoding.decoded(data).splitlines()
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
            return None
        po = polib.pofile(str(po_path), wrapwidth=0)
    except (OSError, ValueError, UnicodeDecodeError) as error:
        at_line = re.search(r"\(line (\d+)\)", str(error))
        report.add(
            "po-syntax",
            Location.of(po_path, int(at_line.group(1)) if at_line else 0, 1 if at_line else 0),
            f"not a readable PO file: {error}",
        )
        return None
    if report.has_errors or not _po_is_ours(po, po_path, po_lines, lang, report):
        return None
    return po, po_lines


def _set_imported_text(
    root: CommentedMap,
    game: GameData,
    source: Catalogue,
    old: TextEntry | None,
    marked: set[str],
    entry: polib.POEntry,
    order: list[str],
) -> bool:
    """Write an entry's text into the YAML tree, or take the TODO mark off a copy kept as it is;
    whether the import changes the text's line (its text, or the mark on it)."""
    text_id = entry.msgctxt
    kept = (
        not entry.fuzzy and entry.msgstr == source.entries[text_id].text
    )  # the source's text, kept on purpose
    if old is None or old.text != entry.msgstr:
        set_text(root, text_id, entry.msgstr, order, todo=False)
        if kept:
            keep_as_source(root, text_id, f"kept as the {source.lang} text in a PO editor")
    elif kept and (
        text_id in marked or left_as_source(text_id, old, old.text, game.game.untranslatable)
    ):
        keep_as_source(root, text_id, f"kept as the {source.lang} text in a PO editor")
    elif text_id in marked:  # the copy sync left, kept as it is in the PO editor: no longer a TODO
        unmark(root, text_id)
    else:
        return False
    return True


def _record_imported(records: dict[str, Record], entry: polib.POEntry) -> bool:
    """Record which source an entry's text was made from (the previous one for a fuzzy entry);
    whether that confirms a text made from another source."""
    text_id = entry.msgctxt
    now = fingerprint(entry.msgstr)
    if entry.fuzzy:
        previous = records.get(text_id)
        records[text_id] = Record(
            entry.previous_msgid or (previous.source if previous else ""), now
        )
        return False
    newly_confirmed = text_id in records and records[text_id].source != entry.msgid
    records[text_id] = Record(entry.msgid, now)
    return newly_confirmed


def _check_imported(
    project: Project,
    game: GameData,
    source: Catalogue,
    lang: str,
    entry: polib.POEntry,
    where: Location,
    report: Report,
) -> None:
    """Check an imported text as `validate` does, at its msgstr line in the PO file."""
    from printshop.checks.translations import check_text_pair

    text_id = entry.msgctxt
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


def says_another_language(stated: str, lang: str, path: Path, code: str, report: Report) -> bool:
    """Whether a translation file names a language (`stated`) other than `lang` (said, with the
    way out); `pt-BR` and `pt_BR` are one."""
    if stated and stated.replace("-", "_").lower() != lang.replace("-", "_").lower():
        report.add(
            code,
            Location.of(path, 1, 1),
            f"the file says it is in '{stated}', not '{lang}'",
            hint=f"import it with --lang {stated}, or export '{lang}' again",
        )
        return True
    return False


def _po_is_ours(po, po_path: Path, lines: list[str], lang: str, report: Report) -> bool:
    """A PO file `export_po` could have written for `lang`: entries, each with its text id
    (msgctxt), and no other language in its header. Anything else is reported (po-syntax), so
    nothing is imported from it."""
    if not len(po):
        report.add(
            "po-syntax",
            Location.of(po_path),
            "the file has no entries: it is not a translation printshop "
            "exported, or it was emptied",
        )
        return False
    says_another_language(
        (po.metadata or {}).get("Language", "").strip(), lang, po_path, "po-syntax", report
    )
    for entry in po:
        if not entry.msgctxt and not entry.obsolete:
            report.add(
                "po-syntax",
                Location.of(po_path, entry.linenum, 1),
                f"the entry {entry.msgid[:40]!r} has no msgctxt (its text id): it cannot be placed",
            )
        if (entry.msgid_plural or entry.msgstr_plural) and not entry.obsolete:
            report.add(
                "po-syntax",
                Location.of(po_path, entry.linenum, 1),
                f"'{entry.msgctxt}' has plural forms (msgid_plural, msgstr[n]): printshop's texts "
                "have one form each, and an import would drop all but one",
                hint="write one msgstr, as the exported entry had; a number goes in through its "
                "{placeholder}",
            )
    _duplicate_ids(po, po_path, lines, report)
    return not report.has_errors


_PO_STRING_LINE = re.compile(r'\s*(?:(?:msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+)?(?=")')


def _po_string_problems(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line, column, message) of each quoted text in a PO file's entries that does not end on its
    line, or has something after its closing quote. polib reads `msgstr "Informateur` (a closing
    quote lost in an editor) as 'Informateu', without a word: an import would write the text with
    its last letter cut."""
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
    """An id twice in the file (two entries with the same msgctxt): polib keeps both and an import
    took the last without a word, whichever the translator meant."""
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
