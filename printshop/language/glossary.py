"""A game's glossary (data/<game>/glossary.yaml): how a term's rendering is found in a text, and the
glossary written and read as TBX and CSV for translation tools.

Finding a rendering (`found`): accents and case aside (a term may keep its case: `case_sensitive`), each word of the rendering begins a word of
the text, the words in a row and in order; a word of eight letters or more needs only all but its
last two letters, one of five to seven all but its last, its stem ("Remplacement" finds
"remplacements", "Sustitución" finds "Sustituciones", "Karte" finds "Karten"); shorter words are
whole words. A form the stem misses (an irregular plural) is listed in
the term's `forms`.

TBX: TBX-Basic in the TBX v3 DCA style (ISO 30042:2019, namespace urn:iso:std:iso:30042:ed-2,
valid against LTAC's TBX-Basic RELAX NG and Schematron rules): one conceptEntry per term (its id,
the kind as its `subjectField`, the note as a `definition` in a descripGrp), one langSec per
language, one termSec per rendering: the rendering a `preferredTerm-admn-sts`, each other form an
`admittedTerm-admn-sts`. CSV: a header `id, kind,
note` then one column per language; a cell holds the rendering, then any forms after " | ".

Reading either gives the terms or diagnostics at the file's line (and column, for TBX): a file
that is not well formed, a language the project does not describe, a term with no id or no
rendering in the game's source language. A DTD with entities is refused, unread.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
import xml.parsers.expat
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from printshop.diagnostics import Location, Report

TBX_NAMESPACE = "urn:iso:std:iso:30042:ed-2"
XML_LANG = "http://www.w3.org/XML/1998/namespace lang"
FORMS_SEPARATOR = " | "
_WORD = re.compile(r"\w+", re.UNICODE)


# -- finding a rendering ---------------------------------------------------------------------
def _folded(word: str, case: bool = False) -> str:
    decomposed = unicodedata.normalize("NFKD", word if case else word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def words_of(text: str, case: bool = False) -> tuple[str, ...]:
    """A text's words, accents and (unless `case`) case aside (markup's tags are words too: none
    is a term)."""
    return tuple(_folded(word, case) for word in _WORD.findall(text))


def stems(rendering: str, case: bool = False) -> tuple[str, ...]:
    """What each word of a rendering must begin a text's word with."""
    return tuple(
        word if len(word) < 5 else word[:-1] if len(word) < 8 else word[:-2]
        for word in words_of(rendering, case)
    )


def found(rendering_stems: tuple[str, ...], text_words: tuple[str, ...]) -> bool:
    """Whether the words of a text hold a rendering's stems, in a row and in order."""
    if not rendering_stems:
        return False
    size = len(rendering_stems)
    for start in range(len(text_words) - size + 1):
        if all(
            text_words[start + i].startswith(stem)
            if len(stem) >= 4
            else text_words[start + i] == stem
            for i, stem in enumerate(rendering_stems)
        ):
            return True
    return False


# -- the file's terms, as exchanged ----------------------------------------------------------
@dataclass
class TermRecord:
    """A term as TBX and CSV carry it; `where` is its place in the file read."""

    id: str
    kind: str = ""
    note: str = ""
    renderings: dict[str, str] = field(default_factory=dict)
    forms: dict[str, list[str]] = field(default_factory=dict)
    where: Location | None = None
    case_sensitive: bool = False  # (not carried by TBX or CSV: an import keeps the glossary's)


def records_of(glossary) -> list[TermRecord]:
    """The terms of a GlossaryFile as records, in the file's order."""
    return [
        TermRecord(
            term_id,
            term.kind,
            term.note,
            dict(term.renderings),
            {lang: list(forms) for lang, forms in term.forms.items()},
            case_sensitive=term.case_sensitive,
        )
        for term_id, term in glossary.terms.items()
    ]


def keep_case(records: list[TermRecord], glossary) -> None:
    """What TBX and CSV do not carry, `case_sensitive`, kept from the glossary an import replaces,
    term by term."""
    if glossary is None:
        return
    for record in records:
        if record.id in glossary.terms:
            record.case_sensitive = glossary.terms[record.id].case_sensitive


def _languages(records: list[TermRecord], first: str) -> list[str]:
    langs = {lang for record in records for lang in (*record.renderings, *record.forms)}
    return [first] + sorted(langs - {first}) if first in langs else sorted(langs)


def to_tbx(records: list[TermRecord], source_lang: str, title: str) -> bytes:
    """The terms as a TBX-Basic (TBX v3, DCA style) document."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tbx type="TBX-Basic" style="dca" xml:lang={quoteattr(source_lang)} '
        f'xmlns="{TBX_NAMESPACE}">',
        "  <tbxHeader>",
        "    <fileDesc>",
        "      <titleStmt>",
        f"        <title>{escape(title)}</title>",
        "      </titleStmt>",
        "      <sourceDesc>",
        "        <p>Written by printshop from the game's glossary.yaml.</p>",
        "      </sourceDesc>",
        "    </fileDesc>",
        "  </tbxHeader>",
        "  <text>",
        "    <body>",
    ]
    for record in records:
        out.append(f"      <conceptEntry id={quoteattr(record.id)}>")
        if record.kind:
            out.append(f'        <descrip type="subjectField">{escape(record.kind)}</descrip>')
        if record.note:
            out.append("        <descripGrp>")
            out.append(f'          <descrip type="definition">{escape(record.note)}</descrip>')
            out.append("        </descripGrp>")
        for lang in _languages([record], source_lang):
            out.append(f"        <langSec xml:lang={quoteattr(lang)}>")
            terms = (
                [(record.renderings[lang], "preferredTerm-admn-sts")]
                if lang in record.renderings
                else []
            )
            terms += [(form, "admittedTerm-admn-sts") for form in record.forms.get(lang, [])]
            for term, status in terms:
                out.append("          <termSec>")
                out.append(f"            <term>{escape(term)}</term>")
                out.append(f'            <termNote type="administrativeStatus">{status}</termNote>')
                out.append("          </termSec>")
            out.append("        </langSec>")
        out.append("      </conceptEntry>")
    out += ["    </body>", "  </text>", "</tbx>", ""]
    return "\n".join(out).encode("utf-8")


def to_csv(records: list[TermRecord], source_lang: str) -> bytes:
    """The terms as CSV: id, kind, note, then a column per language (rendering | forms)."""
    langs = _languages(records, source_lang)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["id", "kind", "note", *langs])
    for record in records:
        cells = [
            FORMS_SEPARATOR.join(
                ([record.renderings[lang]] if lang in record.renderings else [""])
                + record.forms.get(lang, [])
            )
            for lang in langs
        ]
        writer.writerow([record.id, record.kind, record.note, *cells])
    return buffer.getvalue().encode("utf-8")


# -- reading TBX and CSV ---------------------------------------------------------------------
@dataclass
class _Element:
    tag: str
    attributes: dict[str, str]
    line: int
    col: int
    children: list["_Element"] = field(default_factory=list)
    text: str = ""

    def local(self) -> str:
        return self.tag.rsplit(" ", 1)[-1]


def _parse_xml(data: bytes, path: Path, report: Report) -> _Element | None:
    if b"<!ENTITY" in data:
        report.add(
            "glossary",
            Location.of(path, data[: data.index(b"<!ENTITY")].count(b"\n") + 1, 1),
            "the TBX file declares entities: printshop does not read them",
            hint="export the glossary again without a DTD's entities",
        )
        return None
    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    stack: list[_Element] = []
    root: list[_Element] = []

    def start(tag, attributes):
        element = _Element(
            tag, attributes, parser.CurrentLineNumber, parser.CurrentColumnNumber + 1
        )
        (stack[-1].children if stack else root).append(element)
        stack.append(element)

    def end(_tag):
        stack.pop()

    def characters(data):
        if stack:
            stack[-1].text += data

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as error:
        report.add(
            "glossary",
            Location.of(path, error.lineno, error.offset + 1),
            f"the TBX file is not well-formed XML: {xml.parsers.expat.ErrorString(error.code)}",
            hint="open it in the tool that wrote it and export it again",
        )
        return None
    return root[0] if root else None


def read_tbx(data: bytes, path: Path, report: Report) -> list[TermRecord]:
    """The terms of a TBX file (any TBX v3 or TBX-Basic with conceptEntry, langSec, termSec)."""
    root = _parse_xml(data, path, report)
    if root is None:
        return []
    if root.local() not in ("tbx", "martif"):
        report.add(
            "glossary",
            Location.of(path, root.line, root.col),
            f"the file's root element is <{root.local()}>, not <tbx>: not a TBX file",
        )
        return []
    records = []
    for entry in _all(root, "conceptEntry", "termEntry"):
        record = TermRecord(
            entry.attributes.get("id", ""), where=Location.of(path, entry.line, entry.col)
        )
        for child in entry.children:
            if child.local() in ("langSec", "langSet"):
                continue
            for descrip in [child] if child.local() == "descrip" else _all(child, "descrip"):
                kind = descrip.attributes.get("type")
                if kind == "subjectField":
                    record.kind = descrip.text.strip()
                elif kind == "definition":
                    record.note = " ".join(descrip.text.split())
        for section in _all(entry, "langSec", "langSet"):
            lang = section.attributes.get(XML_LANG, "")
            for term_section in _all(section, "termSec", "tig", "ntig"):
                terms = [t.text.strip() for t in _all(term_section, "term") if t.text.strip()]
                status = " ".join(
                    n.text
                    for n in _all(term_section, "termNote")
                    if n.attributes.get("type") == "administrativeStatus"
                )
                for term in terms:
                    if lang not in record.renderings and "admitted" not in status:
                        record.renderings[lang] = term
                    else:
                        record.forms.setdefault(lang, []).append(term)
        records.append(record)
    return records


def _all(element: _Element, *names: str) -> list[_Element]:
    """The descendants of `element` named one of `names` (not looking inside those found)."""
    out = []
    for child in element.children:
        if child.local() in names:
            out.append(child)
        else:
            out.extend(_all(child, *names))
    return out


def read_csv(data: bytes, path: Path, report: Report) -> list[TermRecord]:
    """The terms of a CSV file as `to_csv` writes it (a spreadsheet's export)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        report.add(
            "glossary",
            Location.of(path, data[: error.start].count(b"\n") + 1, 1),
            "the CSV file is not UTF-8",
            hint="save it as CSV UTF-8 from the spreadsheet",
        )
        return []
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or [cell.strip() for cell in rows[0][:3]] != ["id", "kind", "note"]:
        report.add(
            "glossary",
            Location.of(path, 1, 1),
            "the CSV file's first row must be: id, kind, note, then one language code a column",
            hint="export the glossary with printshop i18n glossary export --format csv to start from",
        )
        return []
    langs = [cell.strip() for cell in rows[0][3:]]
    records = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        row = row + [""] * (3 + len(langs) - len(row))
        record = TermRecord(
            row[0].strip(), row[1].strip(), row[2].strip(), where=Location.of(path, number, 1)
        )
        for lang, cell in zip(langs, row[3:]):
            parts = [part.strip() for part in cell.split(FORMS_SEPARATOR.strip())]
            if parts and parts[0]:
                record.renderings[lang] = parts[0]
            if len(parts) > 1 and any(parts[1:]):
                record.forms[lang] = [part for part in parts[1:] if part]
        if len(row) > 3 + len(langs) and any(cell.strip() for cell in row[3 + len(langs) :]):
            report.add(
                "glossary",
                Location.of(path, number, 1),
                f"row {number} has more cells than the header has columns",
            )
        records.append(record)
    return records


def checked(
    records: list[TermRecord], languages, source_lang: str, path: Path, report: Report
) -> list[TermRecord]:
    """The records, once each is known to have an id, a rendering in the source language and only
    languages the project describes (each problem reported at the record's place)."""
    seen: set[str] = set()
    for record in records:
        where = record.where or Location.of(path)
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", record.id):
            report.add(
                "glossary",
                where,
                f"the term id '{record.id}' is not an id (lower-case letters, digits, _ and -)",
                hint="give every term an id such as 'replacement'",
            )
        elif record.id in seen:
            report.add("glossary", where, f"the term '{record.id}' is given twice")
        seen.add(record.id)
        for lang in sorted({*record.renderings, *record.forms}):
            if lang not in languages:
                report.add(
                    "glossary",
                    where,
                    f"term '{record.id}': no language '{lang}' in data/languages",
                    hint="use the language codes of data/languages (fr, en…), or describe the "
                    "language there first",
                )
        if source_lang not in record.renderings:
            report.add(
                "glossary",
                where,
                f"term '{record.id}' has no rendering in the source language '{source_lang}'",
            )
    return records


def to_yaml(records: list[TermRecord]) -> str:
    """The terms as glossary.yaml, which an import writes whole."""
    lines = [
        "# The game's terms and their rendering in each language (docs/data-format.md, glossary).",
        "# Written by printshop i18n glossary import; edit it by hand or import again.",
        "terms:",
    ]
    for record in records:
        lines.append(f"  {record.id}:")
        if record.kind:
            lines.append(f"    kind: {_quoted(record.kind)}")
        if record.note:
            lines.append(f"    note: {_quoted(record.note)}")
        lines.append("    renderings:")
        lines += [f"      {lang}: {_quoted(text)}" for lang, text in record.renderings.items()]
        if record.case_sensitive:
            lines.append("    case_sensitive: true")
        if record.forms:
            lines.append("    forms:")
            lines += [
                f"      {lang}: [{', '.join(_quoted(form) for form in forms)}]"
                for lang, forms in record.forms.items()
            ]
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
