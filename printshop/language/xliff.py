"""XLIFF for CAT tools (Trados, memoQ, Phrase, Crowdin, Weblate): a game's texts in one language
exported as XLIFF 1.2 or 2.0, and an edited file read back the way a PO file is (po.import_po).

What each unit carries, in both versions: its id (the text id), the text it is made from
(`source`), the translation (`target`, none while untranslated), its state, where it prints and
how much room it has (a note from `where_printed`, and in 1.2 `maxwidth` in characters), and the
YAML line of each side (1.2: a location context group; 2.0: a note of category `location`).

States (1.2 `target/@state`, 2.0 `segment/@state`): a translated text is `translated`; a stale one
(its source changed since) is `needs-review-translation` (1.2) or `initial` with its target (2.0),
and a note gives the source it was made from; an untranslated one has no target. Read back, a
unit still to review stays stale (as a fuzzy PO entry), a translated, reviewed or final one is
recorded as made from the current source.

The files are written with lxml in the standards' element order (1.2: source, target, context
groups, notes; 2.0: notes before segments) and read with translate-toolkit's parsers, the library
CAT tools' files are checked with; a file it cannot read, or one for another language, is
reported and nothing is imported.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import polib
from lxml import etree

from printshop.diagnostics import Location, Report

if TYPE_CHECKING:
    from printshop.project.loader import GameData

XLIFF_1 = "urn:oasis:names:tc:xliff:document:1.2"
XLIFF_2 = "urn:oasis:names:tc:xliff:document:2.0"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
SUFFIXES = (".xlf", ".xliff")
VERSIONS = {"xliff": "1.2", "xliff2": "2.0"}


def is_xliff(path: Path) -> bool:
    return Path(path).suffix.lower() in SUFFIXES


def export_xliff(
    game: GameData, lang: str, printed: dict[str, list[str]] | None = None, version: str = "1.2"
) -> bytes:
    """The game's texts in `lang` as an XLIFF `version` (1.2 or 2.0) file."""
    from printshop import __version__
    from printshop.language.i18n import text_statuses
    from printshop.language.po import in_game

    source = game.reference(lang)
    assert source is not None  # (the command exports the texts of a game that has source texts)
    original = f"{game.dir.parent.name}/{game.id}/text/{lang}.yaml"
    if version == "1.2":
        root = etree.Element(f"{{{XLIFF_1}}}xliff", nsmap={None: XLIFF_1}, version="1.2")
        file = etree.SubElement(
            root,
            f"{{{XLIFF_1}}}file",
            {"source-language": source.lang, "target-language": lang, "tool-id": "printshop"},
            original=original,
            datatype="plaintext",
        )
        header = etree.SubElement(file, f"{{{XLIFF_1}}}header")
        etree.SubElement(
            header,
            f"{{{XLIFF_1}}}tool",
            {"tool-id": "printshop", "tool-name": "printshop", "tool-version": __version__},
        )
        body = etree.SubElement(file, f"{{{XLIFF_1}}}body")
    else:
        root = etree.Element(
            f"{{{XLIFF_2}}}xliff",
            nsmap={None: XLIFF_2},
            version="2.0",
            srcLang=source.lang,
            trgLang=lang,
        )
        file = etree.SubElement(root, f"{{{XLIFF_2}}}file", id=game.id, original=original)
    for text in text_statuses(game, lang):
        places = [
            f"{in_game(game, entry.location)}:{entry.location.line}"
            for entry in (text.translation, text.source)
            if entry is not None
        ]
        notes = list((printed or {}).get(text.id, []))
        if text.state == "stale":
            notes.append(f"The {source.lang} text changed; it was: {text.old_source}")
        target = (
            text.translation.text
            if text.translation is not None and text.state in ("translated", "stale")
            else None
        )
        room = _room(notes)
        if version == "1.2":
            unit = etree.SubElement(body, f"{{{XLIFF_1}}}trans-unit", id=text.id, resname=text.id)
            unit.set(XML_SPACE, "preserve")
            if room:
                unit.set("maxwidth", str(room))
                unit.set("size-unit", "char")
            etree.SubElement(unit, f"{{{XLIFF_1}}}source").text = text.source.text
            if target is not None:
                element = etree.SubElement(unit, f"{{{XLIFF_1}}}target")
                element.text = target
                element.set(
                    "state", "needs-review-translation" if text.state == "stale" else "translated"
                )
            for place in places:
                path, line = place.rsplit(":", 1)
                group = etree.SubElement(unit, f"{{{XLIFF_1}}}context-group", purpose="location")
                etree.SubElement(
                    group, f"{{{XLIFF_1}}}context", {"context-type": "sourcefile"}
                ).text = path
                etree.SubElement(
                    group, f"{{{XLIFF_1}}}context", {"context-type": "linenumber"}
                ).text = line
            for note in notes:
                etree.SubElement(unit, f"{{{XLIFF_1}}}note", {"from": "printshop"}).text = note
        else:
            unit = etree.SubElement(file, f"{{{XLIFF_2}}}unit", id=text.id, name=text.id)
            if notes or places:
                holder = etree.SubElement(unit, f"{{{XLIFF_2}}}notes")
                for place in places:
                    etree.SubElement(holder, f"{{{XLIFF_2}}}note", category="location").text = place
                for note in notes:
                    etree.SubElement(holder, f"{{{XLIFF_2}}}note", category="context").text = note
            segment = etree.SubElement(unit, f"{{{XLIFF_2}}}segment")
            segment.set(
                "state", "translated" if target is not None and text.state != "stale" else "initial"
            )
            etree.SubElement(segment, f"{{{XLIFF_2}}}source").text = text.source.text
            segment.find(f"{{{XLIFF_2}}}source").set(XML_SPACE, "preserve")
            if target is not None:
                element = etree.SubElement(segment, f"{{{XLIFF_2}}}target")
                element.text = target
                element.set(XML_SPACE, "preserve")
    # the mark `i18n export` knows its own files by (a CAT tool saving the file drops it)
    root.addprevious(etree.Comment(" written by printshop i18n export "))
    return etree.tostring(
        root.getroottree(), xml_declaration=True, encoding="UTF-8", pretty_print=True
    )


_ROOM = re.compile(r"about (\d+) characters fit")
# 1.2 target states of a text translated and not waiting for review (state-qualifiers aside)
_DONE_1 = {"translated", "final", "signed-off"}
_DONE_2 = {"translated", "reviewed", "final"}


def _room(notes: list[str]) -> int:
    """The fewest characters any place of the text has room for (where_printed's notes), or 0."""
    found = [int(m.group(1)) for note in notes for m in _ROOM.finditer(note)]
    return min(found) if found else 0


def _done(unit, target) -> bool:
    """Whether a unit's translation is done (recorded as made from the current source) rather than
    still to review (kept stale, as a fuzzy PO entry). 1.2: the target's state, none counting as
    translated; 2.0: the segment's state, `initial` (the default) still to review."""
    if target.tag == f"{{{XLIFF_2}}}target":
        return target.getparent().get("state", "initial") in _DONE_2
    state = target.get("state")
    return state is None or state in _DONE_1


def read_xliff(
    path: Path, lang: str, report: Report
) -> tuple[list[polib.POEntry], list[str]] | None:
    """The units of an XLIFF file (1.2 or 2.0) as the entries a PO import reads (msgctxt: the id,
    msgid: the source, msgstr: the target, fuzzy: still to review; `linenum`: the target's line,
    or the unit's), with the file's lines; None (and why, in `report`) for a file that cannot be
    read, has no units, or is for another language."""
    from translate.storage import xliff, xliff2

    try:
        data = Path(path).read_bytes()
        root = etree.fromstring(data, parser=etree.XMLParser(resolve_entities=False))
    except (OSError, etree.XMLSyntaxError) as error:
        line = getattr(error, "lineno", 0) or 0
        report.add(
            "xliff-syntax",
            Location.of(path, line, 1 if line else 0),
            f"not a readable XLIFF file: {error}",
            hint="export the language again with printshop i18n export --format xliff",
        )
        return None
    if root.getroottree().docinfo.internalDTD is not None or b"<!ENTITY" in data:
        # entities can read files of the machine into a text, or grow it past any memory: an
        # exported file has none, and a CAT tool adds none
        report.add(
            "xliff-syntax",
            Location.of(path, 1, 1),
            "the file declares a DOCTYPE or entities, which no exported file holds: not imported",
            hint="export the language again with printshop i18n export --format xliff",
        )
        return None
    version = root.get("version", "")
    if root.tag == f"{{{XLIFF_2}}}xliff" or version.startswith("2"):
        store, stated = xliff2.Xliff2File.parsestring(data), root.get("trgLang", "")
    else:
        store = xliff.xlifffile.parsestring(data)
        found = root.find(f".//{{{root.nsmap.get(None, XLIFF_1)}}}file")
        stated = found.get("target-language", "") if found is not None else ""
    from printshop.language.po import says_another_language

    if says_another_language(stated, lang, path, "xliff-syntax", report):
        return None
    entries = []
    for unit in store.getunits():
        element = unit.xmlelement
        while element.getparent() is not None and not element.tag.endswith(
            ("}unit", "}trans-unit")
        ):
            element = element.getparent()  # (2.0: the toolkit's unit is the segment, in a <unit>)
        text_id = element.get("id") or element.get("resname") or ""
        target = next(
            (e for e in element.iter() if isinstance(e.tag, str) and e.tag.endswith("}target")),
            None,
        )
        entry = polib.POEntry(
            msgctxt=text_id,
            msgid=str(unit.source or ""),
            msgstr=str(unit.target or "") if target is not None else "",
        )
        if target is not None and not _done(element, target):
            entry.flags.append("fuzzy")
        entry.linenum = (target if target is not None else element).sourceline or 0
        if not text_id:
            report.add(
                "xliff-syntax",
                Location.of(path, element.sourceline or 0, 1),
                "a unit without its id (the text id): it cannot be placed",
            )
        entries.append(entry)
    if not entries:
        report.add(
            "xliff-syntax",
            Location.of(path),
            "the file has no units: it is not a translation printshop exported, or it was emptied",
        )
    if report.has_errors:
        return None
    return entries, data.decode("utf-8", errors="replace").splitlines()
