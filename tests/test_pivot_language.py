"""Issue 52, item 1: a language with a pivot (`translated_from`) is made from its pivot at every
step, from an empty language: `i18n sync` copies the pivot's texts (Kremlin's source is French; a
German made from English gets English), a text still marked `# TODO: translate` is untranslated
whatever it holds (validate, status, sync's records, the build's completeness agree), and once
translated, a change to the pivot makes the text stale."""

from __future__ import annotations

import re
import shutil

from printshop.cli import main
from printshop.language.i18n import completeness, status
from printshop.pipeline.build import build, check
from printshop.project.loader import load_project
from tests.conftest import REPO, edit

GERMAN = REPO / "tests" / "fixtures" / "german" / "languages" / "de.yaml"
VALUE = re.compile(r'^(\s*[\w-]+: )"((?:[^"\\]|\\.)*)"  # TODO: translate$')


def _with_german(data):
    """The project with German described (made from English) and no German text file yet."""
    (data / "languages").mkdir(exist_ok=True)
    shutil.copy(GERMAN, data / "languages" / "de.yaml")
    assert not (data / "kremlin" / "text" / "de.yaml").exists()
    return data / "kremlin" / "text" / "de.yaml"


def _row(data):
    return next(
        row for row in status(load_project(data)) if (row.game, row.lang) == ("kremlin", "de")
    )


def _translate_every_copy(path) -> None:
    """What a translator does to each copy sync left: writes their text and deletes the mark (the
    stand-in German keeps the placeholders and markup the checks compare)."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = VALUE.match(line)
        lines.append(f'{match.group(1)}"DE {match.group(2)}"' if match else line)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_new_language_is_made_from_its_pivot_at_every_step(data_copy, tmp_path, capsys):
    german = _with_german(data_copy)
    english = load_project(data_copy).games["kremlin"].catalogues["en"]
    french = load_project(data_copy).games["kremlin"].catalogues["fr"]
    # 1. sync of a language with no file: the pivot's texts, each marked
    assert main(["i18n", "sync", "de", "kremlin", "--data", str(data_copy)]) == 0
    game = load_project(data_copy).games["kremlin"]
    assert game.reference_lang("de") == "en"
    copies = game.catalogues["de"].entries
    assert copies["game.politicians"].text == english.entries["game.politicians"].text
    assert copies["game.politicians"].text != french.entries["game.politicians"].text
    assert all(
        entry.text == english.entries.get(text_id, french.entries[text_id]).text
        for text_id, entry in copies.items()
    )
    assert german.read_text(encoding="utf-8").count("# TODO: translate") == len(copies)
    # nothing is recorded as translated: there is nothing to be stale against yet
    assert game.records.get("de", {}) == {}
    # 2. status: nothing done
    row = _row(data_copy)
    assert row.percent == 0 and row.counts["untranslated"] == row.total == len(copies)
    # 3. the build leaves it out; a draft prints it marked
    result = build(data_copy, tmp_path / "out", games=["kremlin"], langs=["de"], papers=["a4"])
    assert [(s.game, s.lang) for s in result.refused] == [("kremlin", "de")]
    assert not (tmp_path / "out" / "kremlin" / "de").exists()
    # 4. translated, the marks gone: complete, built, and sync records the English it came from
    _translate_every_copy(german)
    assert _row(data_copy).percent == 100
    assert main(["i18n", "sync", "de", "kremlin", "--data", str(data_copy)]) == 0
    recorded = load_project(data_copy).games["kremlin"].records["de"]
    assert recorded["game.politicians"].source == "Politicians" and len(recorded) == len(copies)
    report, _ = check(data_copy, games=["kremlin"], langs=["de"])
    assert not report.has_errors, [d for d in report.items if d.severity.value == "error"]
    result = build(data_copy, tmp_path / "out", games=["kremlin"], langs=["de"], papers=["a4"])
    assert not result.refused and (tmp_path / "out" / "kremlin" / "de").is_dir()
    # 5. the pivot changes: the German made from it is stale (a change to the French alone is not
    # what German was made from)
    edit(data_copy / "kremlin" / "text" / "en.yaml", '"Politicians"', '"Politburo members"')
    assert _row(data_copy).counts["stale"] == 1
    capsys.readouterr()


def test_a_marked_text_is_untranslated_whatever_it_holds(data_copy):
    """A file an older sync filled with the source's French, still marked: untranslated, not 91 %
    done; validate says so at the line, and the build leaves the language out."""
    german = _with_german(data_copy)
    assert main(["i18n", "sync", "de", "kremlin", "--data", str(data_copy)]) == 0
    french = load_project(data_copy).games["kremlin"].catalogues["fr"].entries
    text = german.read_text(encoding="utf-8").replace(
        '"Politicians"  # TODO', f'"{french["game.politicians"].text}"  # TODO'
    )
    german.write_text(text, encoding="utf-8")
    row = _row(data_copy)
    assert row.counts["translated"] == 0 and row.percent == 0
    game = load_project(data_copy).games["kremlin"]
    assert "game.politicians" in completeness(game, "de").untranslated
    report, _ = check(data_copy, games=["kremlin"], langs=["de"], incomplete="skip")
    [said] = [
        d
        for d in report.items
        if d.code == "untranslated" and "still marked" in d.message and "politicians" in d.message
    ]
    line = text.splitlines().index(
        next(line for line in text.splitlines() if "Politiciens" in line)
    )
    assert said.location.path.endswith("kremlin/text/de.yaml") and said.location.line == line + 1
    assert "delete the mark" in said.hint
    # translated but the mark left: still untranslated, and said so
    edit(german, '"Politiciens"  # TODO', '"Politbüro"  # TODO')
    assert (
        "game.politicians"
        in completeness(load_project(data_copy).games["kremlin"], "de").untranslated
    )
    # the mark deleted: translated
    edit(german, '"Politbüro"  # TODO: translate', '"Politbüro"')
    assert (
        "game.politicians"
        not in completeness(load_project(data_copy).games["kremlin"], "de").untranslated
    )
