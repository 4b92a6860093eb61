"""Issue 12, items 3 and 5: no silent partial kits (an incomplete translation is left out of a
build, or built as a marked draft), status counts only real translations, and the translators' round
trips close (confirm in the YAML route, checked PO imports, PO entries that say where a text
prints)."""

from __future__ import annotations

import re

import polib
import pytest

from printshop.cli import main
from printshop.diagnostics import display_path
from printshop.language.i18n import completeness, confirm, format_status, status
from printshop.language.po import export_po, frame_room, import_po, where_printed
from printshop.pipeline.build import build, check
from printshop.project.loader import load_project
from tests.conftest import copy_data, edit, found, line_of
from tests.pdfinspect import page_texts

FRENCH_NAME = '    name: "Informateur"\n'


def comrade(data):
    return load_project(data).games["comrade"]


def french(data):
    return data / "comrade" / "text" / "fr.yaml"


def french_row(data):
    return next(
        row for row in status(load_project(data)) if (row.game, row.lang) == ("comrade", "fr")
    )


def pages_text(path) -> list[str]:
    return page_texts(path)


# --- status: only real translations count ------------------------------------------------------
def test_a_copy_left_by_sync_is_untranslated_until_the_translator_edits_it(data_copy):
    # what sync writes for a text the translation lacked: the source's text with the mark
    edit(french(data_copy), FRENCH_NAME, '    name: "Informer"  # TODO: translate\n')
    row = french_row(data_copy)
    assert row.counts["untranslated"] == 1 and row.counts["translated"] == 116
    assert row.percent == 99  # 116 of 117, rounded down: 100 means complete
    assert "  99%" in format_status([row]) and "done" in format_status([row]).splitlines()[0]
    assert completeness(comrade(data_copy), "fr").untranslated == ["card.informer.name"]
    # edited, mark kept: still untranslated, whatever it holds (issue 52: the mark is the one
    # definition; a copy made from another language is not the source's text either)
    edit(french(data_copy), '"Informer"  # TODO', '"Mouchard"  # TODO')
    assert french_row(data_copy).counts["untranslated"] == 1
    edit(french(data_copy), '"Mouchard"  # TODO: translate', '"Mouchard"')
    assert french_row(data_copy).counts["untranslated"] == 0
    edit(french(data_copy), '"Mouchard"', '"Mouchard"  # TODO: translate')
    # the source's word with the mark removed by hand: still the English, as validate says
    # (untranslated)
    edit(french(data_copy), '"Mouchard"  # TODO: translate', '"Informer"')
    assert french_row(data_copy).counts["untranslated"] == 1
    assert completeness(comrade(data_copy), "fr").untranslated == ["card.informer.name"]
    # kept on purpose, said on its line as validate asks: it counts (a single word may stay the
    # same)
    edit(
        french(data_copy), '"Informer"', '"Informer"  # accept untranslated: the same word in both'
    )
    assert french_row(data_copy).counts == {
        "translated": 117,
        "missing": 0,
        "stale": 0,
        "untranslated": 0,
    }


def test_validate_status_and_the_build_agree_on_which_texts_are_left_in_the_source(
    data_copy, tmp_path
):
    """A French file whose short texts were left in English ("Informer", a card's title): `i18n
    status` counted them translated (fewer than three words) and the build printed the kit as
    finished, with English words on its cards and no draft mark, while validate warned of each. One
    definition now: the same text as the source's, unless the game's `untranslatable` or a `# accept
    untranslated` on its line says it may be."""
    english = (data_copy / "comrade" / "text" / "en.yaml").read_text(encoding="utf-8")
    left = {"card.informer.name": '    name: "Informer"\n', "card.chairman.name": None}
    edit(french(data_copy), FRENCH_NAME, left["card.informer.name"])
    chairman = re.search(r'\n  chairman:\n    name: "([^"]+)"', english).group(1)
    french_text = french(data_copy).read_text(encoding="utf-8")
    edit(
        french(data_copy),
        re.search(r'\n  chairman:\n    name: "[^"]+"', french_text).group(0),
        f'\n  chairman:\n    name: "{chairman}"',
    )
    warned = {
        d.message.split("'")[1]
        for d in found(data_copy, "untranslated", games=["comrade"])
        if d.location.path.endswith("fr.yaml") and not d.acknowledged
    }
    assert warned == set(left)
    assert set(completeness(comrade(data_copy), "fr").untranslated) == set(left)
    assert french_row(data_copy).counts["untranslated"] == 2
    result = build(data_copy, tmp_path / "out", games=["comrade"], langs=["fr"], papers=["a4"])
    assert [(c.game, c.lang) for c in result.refused] == [("comrade", "fr")] and not result.written
    # each said on its line to be right as it is: acknowledged by validate, translated for status
    # and the build
    for text in ('"Informer"', f'"{chairman}"'):
        edit(
            french(data_copy),
            f"name: {text}\n",
            f"name: {text}  # accept untranslated: the same in French\n",
        )
    assert not [
        d
        for d in found(data_copy, "untranslated", games=["comrade"])
        if d.location.path.endswith("fr.yaml") and not d.acknowledged
    ]
    assert completeness(comrade(data_copy), "fr").complete and french_row(data_copy).percent == 100


def test_a_mark_inside_the_text_is_not_a_mark(data_copy):
    edit(french(data_copy), FRENCH_NAME, '    name: "Informer # TODO: translate"\n')
    assert french_row(data_copy).counts["untranslated"] == 0


def test_status_command_shows_the_share_done(data_copy, capsys):
    edit(french(data_copy), FRENCH_NAME, "")
    assert main(["i18n", "status", "comrade", "--data", str(data_copy)]) == 0
    assert (
        "comrade          fr      117          116            1            0            0    99%"
        in capsys.readouterr().out
    )


# --- build: an incomplete translation is left out, or built as a draft
# -------------------------------
def test_validate_still_fails_on_a_missing_text(data_copy):
    edit(french(data_copy), FRENCH_NAME, "")
    assert [d.code for d in found(data_copy, "missing-text", games=["comrade"])] == ["missing-text"]
    assert main(["validate", "comrade", "--data", str(data_copy)]) == 1


def test_a_fault_in_a_translation_left_out_stops_no_build_of_the_others(data_copy, tmp_path):
    """README: `build` leaves an incomplete translation out "and builds everything complete". A
    French file lacking a text and with a misspelt placeholder stopped the English build too (the
    placeholder an error). In a build that leaves French out, its faults are warnings saying so;
    validate and a French build still fail on them."""
    edit(french(data_copy), FRENCH_NAME, "")
    edit(french(data_copy), '"Le jeu compte {total} cartes :"', '"Le jeu compte {totale} cartes :"')
    result = build(data_copy, tmp_path, games=["comrade"], papers=["a4"])
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    assert any(p.name == "comrade-en-cards-a4.pdf" for p in result.written)
    assert not any("/fr/" in str(p) for p in result.written)
    [placeholder] = [d for d in result.report.items if d.code == "placeholder"]
    assert placeholder.severity.name == "WARNING" and placeholder.message.endswith(
        "(not built: this translation is incomplete)"
    )
    assert main(["validate", "comrade", "--data", str(data_copy)]) == 1
    assert build(
        data_copy, tmp_path / "fr", games=["comrade"], langs=["fr"], papers=["a4"], draft=True
    ).report.has_errors


def test_build_leaves_out_an_incomplete_translation_and_builds_the_rest(data_copy, tmp_path):
    edit(french(data_copy), FRENCH_NAME, "")
    result = build(data_copy, tmp_path, games=["comrade"], papers=["a4"])
    assert not result.report.has_errors
    [warning] = [d for d in result.report.items if d.code == "incomplete-translation"]
    assert warning.severity.value == "warning" and warning.location.path.endswith(
        "comrade/text/fr.yaml"
    )
    assert warning.message.startswith(
        "comrade fr: not built, 1 of 117 texts not translated (1 missing"
    )
    assert (
        "printshop i18n status comrade --verbose" in warning.message and "--draft" in warning.hint
    )
    assert [(s.game, s.lang) for s in result.refused] == [("comrade", "fr")]
    assert {
        output.path.parts[1] for output in result.outputs if output.path.parts[0] == "comrade"
    } == {"en"}
    assert not (tmp_path / "comrade" / "fr").exists() and (tmp_path / "comrade" / "en").is_dir()


def test_a_translation_left_out_says_its_earlier_files_are_kept(data_copy, tmp_path):
    """A kit built, then its translation left out as incomplete: the earlier files stay (the last
    complete kit), and the warning says so, where "not built" alone read as if there were none to
    print by mistake."""
    settings = dict(games=["comrade"], langs=["fr"], papers=["a4"], jobs=1)
    assert not build(data_copy, tmp_path, **settings).report.has_errors
    earlier = sorted(path.name for path in (tmp_path / "comrade" / "fr").iterdir())
    edit(french(data_copy), FRENCH_NAME, "")
    result = build(data_copy, tmp_path, **settings)
    [warning] = [d for d in result.report.items if d.code == "incomplete-translation"]
    assert warning.message.endswith(
        f"; the {len(earlier)} file(s) an earlier build wrote in "
        f"{display_path(tmp_path / 'comrade' / 'fr')} are kept as they were, made from "
        f"older texts"
    ), warning.message
    assert (
        sorted(path.name for path in (tmp_path / "comrade" / "fr").iterdir()) == earlier
        and len(earlier) > 2
    )
    # none kept, none named
    result = build(data_copy, tmp_path / "fresh", **settings)
    [warning] = [d for d in result.report.items if d.code == "incomplete-translation"]
    assert "kept" not in warning.message


def test_build_command_exit_codes_for_a_left_out_translation(data_copy, tmp_path, capsys):
    edit(french(data_copy), FRENCH_NAME, "")
    common = ["comrade", "--data", str(data_copy), "--paper", "a4", "--jobs", "1", "--quiet"]
    assert (
        main(["build", *common, "--out", str(tmp_path / "all")]) == 0
    )  # everything complete was built
    assert (
        "warning[incomplete-translation]: comrade fr: not built" in capsys.readouterr().err
    )  # even --quiet
    # asked for by name: the rest is written, and the run fails
    assert (
        main(["build", *common, "--lang", "en", "--lang", "fr", "--out", str(tmp_path / "named")])
        == 1
    )
    err = capsys.readouterr().err
    assert "not built, though asked for with --lang: comrade fr" in err
    assert (tmp_path / "named" / "comrade" / "en").is_dir() and not (
        tmp_path / "named" / "comrade" / "fr"
    ).exists()
    # run again: not "nothing changed", the warning again
    assert main(["build", *common, "--lang", "fr", "--out", str(tmp_path / "named")]) == 1
    assert "incomplete-translation" in capsys.readouterr().err


def test_draft_builds_an_incomplete_translation_marked_on_every_page(data_copy, tmp_path):
    edit(french(data_copy), FRENCH_NAME, "")
    result = build(data_copy, tmp_path, games=["comrade"], langs=["fr"], papers=["a4"], draft=True)
    assert not result.report.has_errors and [(s.game, s.lang) for s in result.drafts] == [
        ("comrade", "fr")
    ]
    [warning] = [d for d in result.report.items if d.code == "incomplete-translation"]
    assert (
        "built as a DRAFT, 99% translated" in warning.message
        and "printed in English" in warning.message
    )
    files = sorted((tmp_path / "comrade" / "fr").iterdir())
    assert [f.name for f in files] == [
        "comrade-fr-cards-draft-a4.pdf",
        "comrade-fr-how-to-print-draft-a4.pdf",
        "comrade-fr-rules-booklet-draft-a4.pdf",
        "comrade-fr-rules-draft-a5.pdf",
    ]
    mark = "ÉBAUCHE, traduite à 99\u202f%"
    for path in files:
        assert all(mark in text for text in pages_text(path)), path.name
    # the missing name prints in English, the language French is made from
    cards = " ".join(pages_text(tmp_path / "comrade" / "fr" / "comrade-fr-cards-draft-a4.pdf"))
    assert re.search(r"\bINFORMER\b", cards.upper())
    # the how-to-print page lists the draft files by their names
    assert "comrade-fr-cards-draft-a4.pdf" in pages_text(files[1])[0].replace("\n", "")


def test_draft_changes_nothing_for_a_complete_translation(tmp_path):
    from printshop.project.paths import DEFAULT_DATA_DIR

    plain = build(
        DEFAULT_DATA_DIR, tmp_path / "plain", games=["comrade"], langs=["fr"], papers=["a4"], jobs=1
    )
    draft = build(
        DEFAULT_DATA_DIR,
        tmp_path / "draft",
        games=["comrade"],
        langs=["fr"],
        papers=["a4"],
        jobs=1,
        draft=True,
    )
    assert not draft.drafts and not draft.refused
    assert {str(o.path): o.data for o in plain.outputs} == {
        str(o.path): o.data for o in draft.outputs
    }


def test_draft_is_for_print_and_play_only(data_copy):
    import pytest

    with pytest.raises(SystemExit) as usage:
        main(["build", "--data", str(data_copy), "--target", "shop", "--draft"])
    assert usage.value.code == 2


# --- confirm: the YAML route's "remove fuzzy" -----------------------------------------------------
def test_confirm_records_that_a_stale_text_is_still_right(data_copy):
    edit(
        data_copy / "comrade" / "text" / "en.yaml",
        '"The Party sees all"',
        '"The Party sees everything"',
    )
    assert french_row(data_copy).counts["stale"] == 1
    before = french(data_copy).read_bytes()
    result = confirm(comrade(data_copy), "fr", ["back.motto"])
    assert result.confirmed == ["back.motto"] and not result.unmarked
    assert french_row(data_copy).counts["stale"] == 0 and not found(
        data_copy, "stale-translation", games=["comrade"]
    )
    assert french(data_copy).read_bytes() == before  # the translation itself is untouched
    records = (data_copy / "comrade" / "text" / "fr.sources.yaml").read_text(encoding="utf-8")
    assert 'source: "The Party sees everything"' in records


def test_confirm_command_all_stale_and_a_kept_copy(data_copy, capsys):
    edit(
        data_copy / "comrade" / "text" / "en.yaml",
        '"The Party sees all"',
        '"The Party sees everything"',
    )
    line = edit(french(data_copy), FRENCH_NAME, '    name: "Informer"  # TODO: translate\n')
    assert main(["i18n", "confirm", "fr", "--all-stale", "--data", str(data_copy)]) == 0
    assert "1 stale text(s) confirmed" in capsys.readouterr().out
    assert french_row(data_copy).counts == {
        "translated": 116,
        "missing": 0,
        "stale": 0,
        "untranslated": 1,
    }
    # the copy is right as it is: the mark goes, nothing else in the file moves
    lines = french(data_copy).read_text(encoding="utf-8").splitlines()
    assert (
        main(
            [
                "i18n",
                "confirm",
                "fr",
                "card.informer.name",
                "--game",
                "comrade",
                "--data",
                str(data_copy),
            ]
        )
        == 0
    )
    assert "1 kept as they are" in capsys.readouterr().out
    after = french(data_copy).read_text(encoding="utf-8").splitlines()
    assert (
        after[line - 1]
        == '    name: "Informer"  # accept untranslated: kept as the en text (i18n confirm)'
    )
    assert after[: line - 1] + after[line:] == lines[: line - 1] + lines[line:]
    assert french_row(data_copy).counts["translated"] == 117
    # and validate, which warned of the English word, shows it as acknowledged: the three agree
    [warning] = [
        d for d in found(data_copy, "untranslated", games=["comrade"]) if d.location.line == line
    ]
    assert warning.acknowledged == "kept as the en text (i18n confirm)"


def test_confirm_refuses_unknown_ids_and_needs_ids_or_all_stale(data_copy):
    import pytest

    for argv in (["i18n", "confirm", "fr", "card.nobody.name"], ["i18n", "confirm", "fr"]):
        with pytest.raises(SystemExit) as usage:
            main([*argv, "--data", str(data_copy)])
        assert usage.value.code == 2


def test_a_game_named_where_the_language_goes_is_told_the_order(tmp_path, capsys):
    """`i18n sync comrade de` named the game first: it was told 'unknown game(s): de'. It is told
    that the language comes first, with the command in that order; the right order still works as
    before."""
    import pytest

    data = str(
        copy_data(tmp_path / "data", ["comrade", "kremlin"])
    )  # (sync writes, were it to go on)
    for argv, example in (
        (["sync", "comrade", "de"], "printshop i18n sync de comrade"),
        (["export", "kremlin"], "printshop i18n export LANG kremlin"),
        (
            ["confirm", "comrade", "card.informer.name"],
            "printshop i18n confirm LANG ID… --game comrade",
        ),
    ):
        with pytest.raises(SystemExit) as usage:
            main(["i18n", *argv, "--data", data])
        err = capsys.readouterr().err
        assert (
            usage.value.code == 2
            and f"'{argv[1]}' is a game, not a language: the language comes first ({example})"
            in err
        ), err
    with pytest.raises(
        SystemExit
    ) as usage:  # a language no one has described, in the right place: as before
        main(["i18n", "sync", "de", "comrade", "--data", data])
    assert usage.value.code == 2 and "no language 'de'" in capsys.readouterr().err


# --- PO import checks what it imports -------------------------------------------------------------
def _po_with(data, tmp_path, text_id: str, msgstr: str):
    po = polib.pofile(export_po(comrade(data), "fr").decode("utf-8"))
    next(e for e in po if e.msgctxt == text_id).msgstr = msgstr
    path = tmp_path / "comrade-fr.po"
    po.save(str(path))
    return path


def test_import_reports_problems_at_the_po_line_and_writes_nothing_on_error(data_copy, tmp_path):
    path = _po_with(data_copy, tmp_path, "game.players", "{min}–{maximum} joueurs")
    before = french(data_copy).read_bytes()
    result = import_po(comrade(data_copy), "fr", path, project=load_project(data_copy))
    [problem] = [d for d in result.report.items if d.code == "placeholder"]
    po_lines = path.read_text(encoding="utf-8").splitlines()
    assert problem.location.path.endswith("comrade-fr.po")
    assert po_lines[problem.location.line - 1] == 'msgstr "{min}–{maximum} joueurs"'
    assert result.report.has_errors and french(data_copy).read_bytes() == before


def test_import_command_fails_on_a_markup_error(data_copy, tmp_path, capsys):
    path = _po_with(data_copy, tmp_path, "back.motto", "Le Parti <b>voit tout")
    before = french(data_copy).read_bytes()
    assert (
        main(
            [
                "i18n",
                "import",
                str(path),
                "--game",
                "comrade",
                "--lang",
                "fr",
                "--data",
                str(data_copy),
            ]
        )
        == 1
    )
    err = capsys.readouterr().err
    assert "comrade-fr.po:" in err and "error[markup]" in err and "nothing imported" in err
    assert french(data_copy).read_bytes() == before


def test_import_checks_only_what_it_changes_and_writes_a_clean_change(data_copy, tmp_path):
    path = _po_with(data_copy, tmp_path, "back.motto", "Le Parti voit absolument tout")
    result = import_po(comrade(data_copy), "fr", path, project=load_project(data_copy))
    assert result.changed == ["back.motto"] and not result.report.items
    assert '"Le Parti voit absolument tout"' in french(data_copy).read_text(encoding="utf-8")


# --- PO export: where each text is and where it prints --------------------------------------------
def test_export_points_at_the_yaml_lines_and_says_where_a_text_prints(data_copy, tmp_path):
    assert (
        main(["i18n", "export", "fr", "comrade", "--data", str(data_copy), "--out", str(tmp_path)])
        == 0
    )
    po = polib.pofile(str(tmp_path / "comrade-fr.po"))
    entry = next(e for e in po if e.msgctxt == "card.informer.name")
    english = data_copy / "comrade" / "text" / "en.yaml"
    assert entry.occurrences == [
        ("data/comrade/text/fr.yaml", str(line_of(french(data_copy), 'Informateur"'))),
        ("data/comrade/text/en.yaml", str(line_of(english, '"Informer"'))),
    ]
    assert "card 'informer' (front) of deck 'cards', frame '" in entry.comment
    assert "characters fit" in entry.comment
    tagline = next(e for e in po if e.msgctxt == "game.tagline")
    assert tagline.comment == "Printed in the rules booklet (running text: no fixed room)"
    # a text with {placeholders} is flagged so, and the PO editor checks them itself (Poedit,
    # Weblate, msgfmt -c)
    players = next(e for e in po if e.msgctxt == "game.players")
    assert "{min}" in players.msgid and "python-brace-format" in players.flags
    assert not [e.msgctxt for e in po if "python-brace-format" in e.flags and "{" not in e.msgid]
    # importing it unchanged changes nothing
    files = [french(data_copy), data_copy / "comrade" / "text" / "fr.sources.yaml"]
    before = [f.read_bytes() for f in files]
    assert (
        main(
            [
                "i18n",
                "import",
                str(tmp_path / "comrade-fr.po"),
                "--game",
                "comrade",
                "--lang",
                "fr",
                "--data",
                str(data_copy),
            ]
        )
        == 0
    )
    assert [f.read_bytes() for f in files] == before


def test_the_room_estimate_is_near_what_really_fits():
    """A text that fits its frame is not much longer than the room the PO comment announces."""
    from printshop.project.loader import load_project
    from printshop.project.paths import DEFAULT_DATA_DIR

    _, checked = check(DEFAULT_DATA_DIR, games=["comrade"], langs=["en"], variant=None)
    [layout] = checked.layouts
    game = load_project(DEFAULT_DATA_DIR, games=["comrade"]).games[
        "comrade"
    ]  # (the check read English only)
    frames = [
        frame
        for deck in layout.decks
        for face in deck.faces.values()
        for frame in face.frames
        if frame.text_ids == ("card.informer.goal",)
    ]
    assert frames
    room = frame_room(frames[0].frame)
    for lang in ("en", "fr"):
        assert len(game.catalogues[lang].entries["card.informer.goal"].text) <= room * 1.2
    assert room < 4 * len(game.catalogues["en"].entries["card.informer.goal"].text)
    assert where_printed(checked, "comrade")["card.informer.goal"][0].startswith(
        "Printed on card 'informer'"
    )


def test_a_copy_kept_as_it_is_in_the_po_editor_loses_its_todo_mark(data_copy, tmp_path):
    edit(french(data_copy), FRENCH_NAME, '    name: "Informer"  # TODO: translate\n')
    po = polib.pofile(export_po(comrade(data_copy), "fr").decode("utf-8"))
    entry = next(e for e in po if e.msgctxt == "card.informer.name")
    assert entry.msgstr == ""  # a TODO copy is exported as untranslated
    entry.msgstr = "Informer"  # the translator keeps the word
    po.save(str(tmp_path / "comrade-fr.po"))
    result = import_po(
        comrade(data_copy), "fr", tmp_path / "comrade-fr.po", project=load_project(data_copy)
    )
    assert result.changed == ["card.informer.name"] and not result.report.has_errors
    assert (
        '    name: "Informer"  # accept untranslated: kept as the en text in a PO editor\n'
        in french(data_copy).read_text(encoding="utf-8")
    )
    assert french_row(data_copy).counts["untranslated"] == 0


def test_game_may_be_named_with_game_as_confirm_and_import_name_it(data_copy, capsys):
    """A translator who learnt `--game comrade` from `i18n confirm` and `i18n import` types it for
    status, sync, export and the rest: it names the game as the GAME argument does (argparse said
    "unrecognized arguments")."""
    common = ["--data", str(data_copy)]
    assert main(["i18n", "status", "comrade", *common]) == 0
    positional = capsys.readouterr().out
    assert main(["i18n", "status", "--game", "comrade", *common]) == 0
    assert (
        capsys.readouterr().out == positional
        and "kremlin" not in positional
        and "comrade" in positional
    )
    assert main(["i18n", "sync", "fr", "--game", "comrade", *common]) == 0
    synced = capsys.readouterr().out.splitlines()
    assert len(synced) == 1 and "comrade/text/fr.yaml: " in synced[0], synced
    assert main(["validate", "--game", "comrade", "--game", "assassin", *common]) == 0
    err = capsys.readouterr()
    assert "kremlin" not in err.out + err.err


@pytest.mark.parametrize(
    "argv",
    [
        ["sync", "fr", "assassin"],
        ["confirm", "fr", "--all-stale", "--game", "assassin"],
        ["export", "fr", "assassin"],
        ["import", "PO", "--game", "assassin", "--lang", "fr"],
    ],
)
def test_a_game_without_its_source_text_file_is_said_at_game_yaml_by_every_action(
    data_copy, tmp_path, capsys, argv
):
    """sync, confirm, export and import compare a translation with the source's text file: without
    it they ended in an internal error (AttributeError); now the same file-missing validate gives,
    and nothing is written."""
    (data_copy / "assassin" / "text" / "en.yaml").unlink()
    before = sorted(path.name for path in (data_copy / "assassin" / "text").iterdir())
    po = tmp_path / "given.po"
    po.write_text('msgid ""\nmsgstr ""\n', encoding="utf-8")
    argv = [str(po) if arg == "PO" else arg for arg in argv]
    exported = tmp_path / "exported"
    out = ["--out", str(exported)] if argv[0] == "export" else []
    assert main(["i18n", *argv, "--data", str(data_copy), *out]) == 1
    err = capsys.readouterr()
    said = err.out + err.err
    assert "error[file-missing]" in said and "assassin/game.yaml:" in said, said
    assert "internal error" not in said
    assert sorted(path.name for path in (data_copy / "assassin" / "text").iterdir()) == before
    assert not exported.exists()


def test_a_game_with_its_source_text_file_syncs_as_before(data_copy, capsys):
    assert main(["i18n", "sync", "fr", "assassin", "--data", str(data_copy)]) == 0
    assert "error" not in capsys.readouterr().out
