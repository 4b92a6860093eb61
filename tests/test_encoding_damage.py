"""Issue 52, items 3 and 8: encoding damage (mojibake) found with ftfy in the YAML texts and on PO
import, the repaired text as the hint; a PO file's charset header checked against its bytes;
plural forms and misspelt text ids reported at the PO line; nothing written on an error.

The corpus is built from the rule, not from the issue's examples: a correct text in several
scripts, encoded as UTF-8 and decoded as Latin-1 or Windows-1252 (the two misreads that make
mojibake), must be caught and repaired; the same texts as they are must pass."""

from __future__ import annotations

import polib
import pytest

from printshop.checks.encoding import po_charset_problem, repaired
from printshop.language.po import export_po, import_po
from printshop.pipeline.build import check
from printshop.project.loader import load_project
from tests.conftest import DEFAULT_DATA_DIR, edit

CORRECT = [
    "Le Politburo se réunit à l’aube.",
    "Die Straße führt zum Präsidium.",
    "¿Quién votó? ¡Nadie!",
    "Zażółć gęślą jaźń",
    "Příliš žluťoučký kůň",
    "Товарищ Сталин",
    "São Tomé e Príncipe",
    "Ålesund og Tromsø",
    "«\u202fCamarade\u202f», dit-il.",
    "EE. UU.",
    "naïve café, cœur, Œuvre",
]


@pytest.mark.parametrize("text", CORRECT)
def test_a_correct_text_has_no_encoding_damage(text):
    assert repaired(text) is None


def _misreads():
    """(text, encoding) for each non-ASCII text and each encoding its UTF-8 bytes decode in
    (Windows-1252 leaves five bytes undefined: such a misread cannot happen)."""
    for text in CORRECT:
        for misread in ("latin-1", "cp1252"):
            try:
                text.encode("utf-8").decode(misread)
            except UnicodeDecodeError:
                continue
            if not text.isascii():
                yield text, misread


@pytest.mark.parametrize("text, misread", list(_misreads()))
def test_utf8_read_as_another_encoding_is_caught_and_repaired(text, misread):
    damaged = text.encode("utf-8").decode(misread)
    assert damaged != text
    assert repaired(damaged) == text


def test_the_projects_own_texts_raise_no_alarm():
    project = load_project(DEFAULT_DATA_DIR)
    texts = [
        entry.text
        for game in project.games.values()
        for catalogue in game.catalogues.values()
        for entry in catalogue.entries.values()
    ]
    assert len(texts) > 1000
    assert [text for text in texts if repaired(text) is not None] == []


def test_validate_reports_mojibake_at_the_texts_line_with_the_repair(data_copy):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    edit(french, '"Informateur"', '"Informateur dÃ©guisÃ©"')
    report, _ = check(data_copy, games=["comrade"])
    [found] = [d for d in report.items if d.code == "mojibake"]
    line = (
        french.read_text(encoding="utf-8")
        .splitlines()
        .index(
            next(
                line
                for line in french.read_text(encoding="utf-8").splitlines()
                if "dÃ©guisÃ©" in line
            )
        )
    )
    assert found.location.path.endswith("comrade/text/fr.yaml") and found.location.line == line + 1
    assert found.severity.value == "warning" and "Informateur déguisé" in found.hint


# --- the PO file's charset against its bytes ------------------------------------------------------
def _exported(data, tmp_path):
    game = load_project(data).games["comrade"]
    path = tmp_path / "comrade-fr.po"
    path.write_bytes(export_po(game, "fr"))
    return game, path


def _import(data, path):
    return import_po(load_project(data).games["comrade"], "fr", path)


def _with_title(path, title: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert 'msgstr "Camarade"' in text
    return text.replace('msgstr "Camarade"', f'msgstr "{title}"', 1)


def test_a_latin1_header_over_utf8_bytes_is_refused_and_nothing_written(data_copy, tmp_path):
    _, path = _exported(data_copy, tmp_path)
    french = data_copy / "comrade" / "text" / "fr.yaml"
    before = french.read_bytes()
    path.write_bytes(
        _with_title(path, "Camarade rusé").replace("charset=UTF-8", "charset=ISO-8859-1").encode()
    )
    result = _import(data_copy, path)
    [error] = [d for d in result.report.items if d.code == "po-charset"]
    assert error.severity.value == "error" and "ISO-8859-1" in error.message
    assert error.location.line == 7 and "charset=UTF-8" in error.hint
    assert french.read_bytes() == before


def test_a_utf8_header_over_windows_1252_bytes_is_refused_at_the_first_bad_line(
    data_copy, tmp_path
):
    _, path = _exported(data_copy, tmp_path)
    text = _with_title(path, "Camarade rusé")
    path.write_bytes(text.encode("cp1252", errors="replace"))
    result = _import(data_copy, path)
    [error] = [d for d in result.report.items if d.code == "po-charset"]
    first = next(n for n, line in enumerate(text.splitlines(), 1) if not line.isascii())
    assert error.location.line == first


def test_a_file_in_the_charset_its_header_names_imports_right(data_copy, tmp_path):
    _, path = _exported(data_copy, tmp_path)
    header, title = path.read_text(encoding="utf-8").split("\n\n")[:2]
    assert 'msgctxt "game.title"' in title
    text = "\n\n".join([header, title.replace('msgstr "Camarade"', 'msgstr "Camarade rusé"')])
    path.write_bytes(text.replace("charset=UTF-8", "charset=ISO-8859-1").encode("latin-1") + b"\n")
    with pytest.raises(UnicodeDecodeError):
        path.read_bytes().decode("utf-8")
    assert po_charset_problem(path.read_bytes()) is None
    result = _import(data_copy, path)
    assert not result.report.has_errors, result.report.items
    assert 'title: "Camarade rusé"' in (data_copy / "comrade" / "text" / "fr.yaml").read_text(
        encoding="utf-8"
    )


def test_no_charset_in_the_header_means_utf8():
    assert po_charset_problem('msgid ""\nmsgstr "é"\n'.encode()) is None
    assert po_charset_problem('msgid ""\nmsgstr "é"\n'.encode("latin-1"))[0] == 2


def test_an_unknown_charset_name_is_refused():
    data = b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-9\\n"\n'
    line, message, _ = po_charset_problem(data)
    assert line == 3 and "UTF-9" in message


# --- entries ----------------------------------------------------------------------------------------
def test_a_misspelt_text_id_is_an_error_naming_the_near_one(data_copy, tmp_path):
    _, path = _exported(data_copy, tmp_path)
    text = path.read_text(encoding="utf-8")
    text = text.replace('msgctxt "game.tagline"', 'msgctxt "game.tagLine"')
    path.write_text(text, encoding="utf-8")
    french = data_copy / "comrade" / "text" / "fr.yaml"
    before = french.read_bytes()
    result = _import(data_copy, path)
    [error] = [d for d in result.report.items if d.code == "po-unknown-text"]
    line = text.splitlines().index('msgctxt "game.tagLine"') + 1
    assert error.location.line <= line and "'game.tagline'" in error.hint
    assert french.read_bytes() == before


def test_an_id_the_source_no_longer_has_is_skipped_with_a_warning(data_copy, tmp_path):
    _, path = _exported(data_copy, tmp_path)
    text = path.read_text(encoding="utf-8").replace(
        'msgctxt "game.tagline"', 'msgctxt "rules.dropped.long.ago"'
    )
    text = text.replace('msgstr "Camarade"', 'msgstr "Camarade rouge"', 1)
    path.write_text(text, encoding="utf-8")
    result = _import(data_copy, path)
    assert not result.report.has_errors
    assert [d.code for d in result.report.items if d.code == "orphan-text"] == ["orphan-text"]
    assert result.changed == ["game.title"]


def test_plural_forms_are_refused_at_their_entry(data_copy, tmp_path):
    _, path = _exported(data_copy, tmp_path)
    po = polib.pofile(str(path), wrapwidth=0)
    entry = po.find("game.players", by="msgctxt")
    entry.msgid_plural, entry.msgstr_plural, entry.msgstr = entry.msgid, {0: "a", 1: "b"}, ""
    po.save(str(path))
    result = _import(data_copy, path)
    [error] = [d for d in result.report.items if "plural" in d.message]
    assert error.severity.value == "error" and "'game.players'" in error.message


def test_mojibake_in_an_imported_text_is_said_at_its_msgstr_with_the_repair(data_copy, tmp_path):
    _, path = _exported(data_copy, tmp_path)
    text = _with_title(path, "Camarade rusÃ©")
    path.write_text(text, encoding="utf-8")
    result = _import(data_copy, path)
    [warning] = [d for d in result.report.items if d.code == "mojibake"]
    line = text.splitlines().index('msgstr "Camarade rusÃ©"') + 1
    assert warning.location.line == line and "Camarade rusé" in warning.hint
