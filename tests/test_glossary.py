"""Issue 52, item 4: a game's glossary (data/<game>/glossary.yaml), the `glossary-term` check of
every translation against it, and its TBX and CSV export and import.

The corpus of mistakes is German (the tests' fixture of Comrade): a term rendered otherwise in one
text while the glossary says how; the project's own translations (Kremlin's glossary, French and
English) and the correct German must raise no alarm."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET

import pytest

from printshop.cli import main
from printshop.language import glossary
from printshop.pipeline.build import check
from tests.conftest import FIXTURES, edit, line_of

GERMAN = FIXTURES / "german"
TBX = "{urn:iso:std:iso:30042:ed-2}"

COMRADE_GLOSSARY = """\
terms:
  informer:
    kind: role
    note: "The player who hunts the dissident for the Party."
    renderings: {en: "Informer", de: "Spitzel"}
  committee:
    kind: phase
    renderings: {en: "committee", de: "Komitee"}
  interrogation:
    kind: phase
    renderings: {en: "interrogation", de: "Verhör"}
"""


def _codes(report, code):
    return [d for d in report.items if d.code == code]


@pytest.fixture
def german(data_copy):
    shutil.copy(GERMAN / "languages" / "de.yaml", data_copy / "languages" / "de.yaml")
    target = data_copy / "comrade" / "text" / "de.yaml"
    shutil.copy(GERMAN / "comrade" / "text" / "de.yaml", target)
    (data_copy / "comrade" / "glossary.yaml").write_text(COMRADE_GLOSSARY, encoding="utf-8")
    return data_copy, target


# -- finding a rendering -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "rendering, text",
    [
        ("Remplacement", "À chaque phase de remplacement, il exécute"),
        ("Sustitución", "Durante las Sustituciones"),
        ("Karte", "Zieht zwei Karten"),
        ("Spitzel", "die Spitzelkarte"),
        ("Parade d’Octobre", "8 Parade d’Octobre."),
        ("points de stress", "3 points de stress"),
        ("Enquête d’espionnage", "la phase d'Enquete d’espionnage"),
    ],
)
def test_a_rendering_is_found_inflected_case_and_accents_aside(rendering, text):
    assert glossary.found(glossary.stems(rendering), glossary.words_of(text))


@pytest.mark.parametrize(
    "rendering, text",
    [
        ("Santé", "au Sanatorium"),  # a stem of five letters keeps four: "sant", not "san"
        ("Reemplazo", "Sustitución"),
        ("points de stress", "points de victoire et stress"),  # the words in a row
        ("de", "des"),  # a short word is a whole word
    ],
)
def test_a_rendering_is_not_found_in_other_words(rendering, text):
    assert not glossary.found(glossary.stems(rendering), glossary.words_of(text))


def test_case_sensitive_terms_keep_their_capitals():
    assert not glossary.found(
        glossary.stems("Guérison", True), glossary.words_of("la guérison", True)
    )
    assert glossary.found(
        glossary.stems("Guérison", True), glossary.words_of("phase de Guérison", True)
    )


# -- the check -----------------------------------------------------------------------------------
def test_the_projects_glossary_raises_no_alarm_on_correct_translations(data_copy):
    """Kremlin's glossary (its eight phases and stress points) against the English made from the
    French: about a hundred texts hold a term, none is reported."""
    report, _ = check(data_copy)
    assert _codes(report, "glossary-term") == [] and _codes(report, "glossary") == []


def test_the_correct_german_raises_no_alarm(german):
    data, _ = german
    report, _ = check(data, games=["comrade"])
    assert _codes(report, "glossary-term") == [] and _codes(report, "glossary") == []


# (the correct German, the German with the term rendered otherwise, the term)
MISTAKES = [
    (
        "Sieht oder erhält der Spitzel diese Karte",
        "Sieht oder erhält der Informant diese Karte",
        "informer",
    ),
    ("Jedes Komitee, in dem du sitzt", "Jeder Ausschuss, in dem du sitzt", "committee"),
    (
        "Nur Freiheit: Komitee. Einmal Partei: Verhör.",
        "Nur Freiheit: Rat. Einmal Partei: Befragung.",
        None,
    ),
]


@pytest.mark.parametrize("correct, wrong, term", MISTAKES, ids=["informer", "committee", "two"])
def test_a_term_rendered_otherwise_is_caught_at_the_text(german, correct, wrong, term):
    data, path = german
    line = edit(path, correct, wrong)
    report, _ = check(data, games=["comrade"])
    found = _codes(report, "glossary-term")
    assert len(found) == (1 if term else 2), [str(d) for d in found]
    for finding in found:
        assert finding.location.line == line and finding.location.col > 0
        assert "German renders as" in finding.message and "glossary.yaml" in finding.hint
    assert term is None or f"glossary term '{term}'" in found[0].message


def test_kremlins_phase_rendered_otherwise_is_caught(data_copy):
    """The issue's kind: a phase called one way everywhere and another way once."""
    path = data_copy / "kremlin" / "text" / "en.yaml"
    line = edit(path, "Each Replacement phase he makes", "Each Reshuffle phase he makes")
    report, _ = check(data_copy, games=["kremlin"])
    (found,) = _codes(report, "glossary-term")
    assert found.location.line == line
    assert '"Remplacement"' in found.message and '"Replacement"' in found.message


def test_a_form_listed_in_the_glossary_is_accepted(german):
    data, path = german
    edit(
        path,
        "Sieht oder erhält der Spitzel diese Karte",
        "Sieht oder erhält der Informant diese Karte",
    )
    edit(
        data / "comrade" / "glossary.yaml",
        '{en: "Informer", de: "Spitzel"}',
        '{en: "Informer", de: "Spitzel"}\n    forms: {de: ["Informant"]}',
    )
    report, _ = check(data, games=["comrade"])
    assert _codes(report, "glossary-term") == []


def test_a_glossary_with_an_unknown_language_or_no_source_rendering_is_an_error(german):
    data, _ = german
    path = data / "comrade" / "glossary.yaml"
    edit(path, 'de: "Verhör"}', 'de: "Verhör", xx: "?"}')
    edit(path, 'renderings: {en: "committee", de: "Komitee"}', 'renderings: {de: "Komitee"}')
    report, _ = check(data, games=["comrade"])
    errors = _codes(report, "glossary")
    assert len(errors) == 2
    assert {d.location.line for d in errors} == {
        line_of(path, "xx:"),
        line_of(path, '{de: "Komitee"}'),
    }
    assert any("no language 'xx'" in d.message for d in errors)
    assert any("no rendering in the game's source language 'en'" in d.message for d in errors)


# -- TBX and CSV -------------------------------------------------------------------------------
def _export(data, out, form="tbx") -> int:
    return main(
        ["i18n", "glossary", "export", "--format", form, "--data", str(data), "--out", str(out)]
    )


def _import(data, path) -> int:
    return main(["i18n", "glossary", "import", str(path), "--game", "kremlin", "--data", str(data)])


def test_tbx_export_is_tbx_basic_and_round_trips(data_copy, tmp_path):
    """TBX-Basic in the DCA style: the kind as the subject field, each language a langSec, the
    rendering preferred and the forms admitted (checked once against LTAC's TBX-Basic RELAX NG
    and Schematron rules); exported, imported and exported again, it is the same file."""
    assert _export(data_copy, tmp_path) == 0
    tbx = tmp_path / "kremlin-glossary.tbx"
    root = ET.parse(tbx).getroot()
    assert (
        root.tag == f"{TBX}tbx" and root.get("type") == "TBX-Basic" and root.get("style") == "dca"
    )
    entries = root.findall(f".//{TBX}conceptEntry")
    assert len(entries) == 9 and entries[5].get("id") == "replacement"
    subject = entries[5].find(f"{TBX}descrip")
    assert subject is not None and subject.get("type") == "subjectField" and subject.text == "phase"
    lang = "{http://www.w3.org/XML/1998/namespace}lang"
    assert [sec.get(lang) for sec in entries[5].findall(f"{TBX}langSec")] == ["fr", "en"]
    stress = entries[8].findall(f"{TBX}langSec")[1].findall(f"{TBX}termSec")
    assert [s.findtext(f"{TBX}term") for s in stress] == ["stress points", "stress cost"]
    statuses = [s.findtext(f"{TBX}termNote") for s in stress]
    assert statuses == ["preferredTerm-admn-sts", "admittedTerm-admn-sts"]
    assert _import(data_copy, tbx) == 0
    report, _ = check(data_copy, games=["kremlin"])
    assert _codes(report, "glossary") == [] and _codes(report, "glossary-term") == []
    assert _export(data_copy, tmp_path / "again") == 0
    assert (tmp_path / "again" / "kremlin-glossary.tbx").read_bytes() == tbx.read_bytes()


def test_csv_export_and_import_round_trip(data_copy, tmp_path):
    assert _export(data_copy, tmp_path, "csv") == 0
    csv_file = tmp_path / "kremlin-glossary.csv"
    lines = csv_file.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "id,kind,note,fr,en"
    assert lines[-1].endswith(",points de stress,stress points | stress cost")
    assert _import(data_copy, csv_file) == 0
    assert _export(data_copy, tmp_path / "again", "csv") == 0
    assert (tmp_path / "again" / "kremlin-glossary.csv").read_bytes() == csv_file.read_bytes()


BAD_TBX = [
    ("<tbx><text><body><conceptEntry id='a'>\n<langSec xml:lang='fr'>", "not well-formed", 2),
    (
        "<?xml version='1.0'?>\n<!DOCTYPE tbx [\n<!ENTITY a 'aaaa'>\n]>\n<tbx/>",
        "declares entities",
        3,
    ),
    ("<?xml version='1.0'?>\n<glossary/>", "not a TBX file", 2),
    (
        "<tbx xmlns='urn:iso:std:iso:30042:ed-2'><text><body>\n"
        "<conceptEntry id='purge'><langSec xml:lang='fr'><termSec><term>Purge</term></termSec></langSec>\n"
        "<langSec xml:lang='xx'><termSec><term>P</term></termSec></langSec></conceptEntry>\n"
        "</body></text></tbx>",
        "no language 'xx'",
        2,
    ),
    (
        "<tbx xmlns='urn:iso:std:iso:30042:ed-2'><text><body>\n\n"
        "<conceptEntry id='purge'><langSec xml:lang='en'><termSec><term>Purge</term></termSec></langSec></conceptEntry>\n"
        "</body></text></tbx>",
        "no rendering in the source language 'fr'",
        3,
    ),
]


BAD_CSV = [
    ("term,fr,en\npurge,Purge,Purge\n", "first row must be", 1),
    ("id,kind,note,fr,xx\npurge,phase,,Purge,P\n", "no language 'xx'", 2),
    (
        "id,kind,note,fr,en\npurge,phase,,Purge,Purge\nPurge Phase,phase,,Purge,Purge\n",
        "is not an id",
        3,
    ),
    ("id,kind,note,fr,en\npurge,phase,,Purge,Purge\npurge,phase,,Purge,Purge\n", "given twice", 3),
]


BAD_FILES = [("bad.tbx", *bad) for bad in BAD_TBX] + [("bad.csv", *bad) for bad in BAD_CSV]


@pytest.mark.parametrize("name, text, said, line", BAD_FILES, ids=[b[2] for b in BAD_FILES])
def test_a_bad_tbx_or_csv_file_is_a_diagnostic_and_nothing_is_written(
    data_copy, tmp_path, capsys, name, text, said, line
):
    target = data_copy / "kremlin" / "glossary.yaml"
    before = target.read_bytes()
    bad = tmp_path / name
    bad.write_text(text, encoding="utf-8")
    assert _import(data_copy, bad) == 1
    captured = capsys.readouterr()
    out = captured.out + captured.err
    assert said in out and f"{name}:{line}:" in out and "Traceback" not in out
    assert "nothing imported" in out
    assert target.read_bytes() == before


def test_a_csv_in_another_encoding_is_a_diagnostic(data_copy, tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_bytes("id,kind,note,fr,en\nhealth,phase,,Santé,Health\n".encode("latin-1"))
    assert _import(data_copy, bad) == 1
    assert "bad.csv:2:1: error[glossary]: the CSV file is not UTF-8" in capsys.readouterr().err


def test_a_build_of_one_language_knows_every_language_the_glossary_names(data_copy):
    """A build of English alone reads no French language file; the glossary's French renderings
    are still of a language the project describes."""
    report, _ = check(data_copy, games=["kremlin", "comrade"], langs=["en"])
    assert _codes(report, "glossary") == [] and not report.has_errors
