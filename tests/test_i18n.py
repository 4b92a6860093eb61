"""The translators' workflow: status, sync keeping comments, stale texts, PO round trip, a new
language."""

from __future__ import annotations

import shutil

import polib

from printshop.cli import main
from printshop.language.i18n import status, sync
from printshop.language.po import export_po, import_po
from printshop.pipeline.build import build, check
from printshop.project.loader import load_project
from tests.conftest import REPO, edit, found, line_of
from tests.pdfinspect import pdf_text

FIXTURES = REPO / "tests" / "fixtures"


def comrade(data):
    return load_project(data).games["comrade"]


def test_status_counts(data_copy):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    edit(french, '    name: "Informateur"\n', "")
    edit(
        data_copy / "comrade" / "text" / "en.yaml",
        '"The Party sees all"',
        '"The Party sees everything"',
    )
    [row] = [r for r in status(load_project(data_copy)) if r.game == "comrade"]
    assert (row.game, row.lang, row.total) == ("comrade", "fr", 117)
    assert row.counts == {"translated": 115, "missing": 1, "stale": 1, "untranslated": 0}


def test_status_command(capsys):
    assert main(["i18n", "status"]) == 0
    out = capsys.readouterr().out
    assert "comrade          fr      117          117            0            0            0" in out


def test_sync_adds_missing_texts_in_source_order_and_keeps_comments(data_copy):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    edit(
        french, '  informer:\n    name: "Informateur"\n', "  # le mouchard du Parti\n  informer:\n"
    )
    edit(french, "  comrade:\n", "  # les camarades\n  comrade:\n")
    edit(
        french,
        '  dissident:\n    name: "Dissident"  # accept untranslated: the same word in English and French\n',
        "  dissident:\n",
    )
    result = sync(comrade(data_copy), "fr")
    assert result.added == ["card.dissident.name", "card.informer.name"]
    text = french.read_text(encoding="utf-8")
    assert '  dissident:\n    name: "Dissident"  # TODO: translate\n    word_label:' in text
    assert (
        '  # le mouchard du Parti\n  informer:\n    name: "Informer"  # TODO: translate\n    goal:'
        in text
    )
    assert "  # les camarades\n  comrade:\n" in text
    # the copies sync left are not translations yet: validate says so (as warnings), and nothing
    # else breaks
    report = check(data_copy, games=["comrade"])[0]
    assert report.errors == []
    assert {
        (d.location.path, d.location.line)
        for d in report.items
        if d.code == "untranslated" and not d.acknowledged
    } == {
        (str(french), line_of(french, '    name: "Dissident"  # TODO: translate')),
        (str(french), line_of(french, '    name: "Informer"  # TODO: translate')),
    }


def test_sync_is_a_no_op_on_a_file_in_step(data_copy):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    records = data_copy / "comrade" / "text" / "fr.sources.yaml"
    before = french.read_bytes(), records.read_bytes()
    sync(comrade(data_copy), "fr")
    assert (french.read_bytes(), records.read_bytes()) == before


def test_sync_moves_orphans_to_the_obsolete_section(data_copy):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    edit(
        french,
        '  motto: "Le Parti voit tout"\n',
        '  motto: "Le Parti voit tout"\n  # ancien slogan\n  old: "Vive le Parti"\n',
    )
    result = sync(comrade(data_copy), "fr")
    assert result.obsoleted == ["back.old"]
    text = french.read_text(encoding="utf-8")
    assert text.rstrip().endswith('obsolete:\n  back.old: "Vive le Parti"')
    report, _ = check(data_copy, games=["comrade"])
    assert {d.code for d in report.items if not d.acknowledged} == {"reconstructed"}


def test_a_stale_text_stays_stale_through_sync_until_the_translator_acts(data_copy):
    english = data_copy / "comrade" / "text" / "en.yaml"
    french = data_copy / "comrade" / "text" / "fr.yaml"
    edit(english, '"The Party sees all"', '"The Party sees everything"')
    sync(comrade(data_copy), "fr")
    assert [d.code for d in check(data_copy)[0].items if d.code == "stale-translation"] == [
        "stale-translation"
    ]
    edit(french, '"Le Parti voit tout"', '"Le Parti voit absolument tout"')
    sync(comrade(data_copy), "fr")
    records = (data_copy / "comrade" / "text" / "fr.sources.yaml").read_text(encoding="utf-8")
    assert 'source: "The Party sees everything"' in records
    assert not [d for d in check(data_copy)[0].items if d.code == "stale-translation"]


def test_a_long_stale_text_is_quoted_where_it_changed_and_a_short_one_whole(data_copy):
    """A rule of 500 characters with one word added was quoted whole twice in the warning: a
    thousand characters to compare by eye. A long text is quoted where it changed, a few words
    either side."""
    french = data_copy / "kremlin" / "text" / "fr.yaml"
    rule = "les cartes Intrigue peuvent aussi le modifier"
    assert (
        len(next(line for line in french.read_text(encoding="utf-8").splitlines() if rule in line))
        > 400
    )
    edit(french, rule, "les cartes Intrigue peuvent très bien le modifier")
    edit(
        french,
        '"Ils cachent leur jeu"'
        if '"Ils cachent leur jeu"' in french.read_text(encoding="utf-8")
        else next(f'"{text}"' for text in _short_texts(french)),
        '"Un texte court, changé"',
    )
    items = [
        d for d in check(data_copy, games=["kremlin"])[0].items if d.code == "stale-translation"
    ]
    (long,) = [d for d in items if "très" in d.message]
    assert (
        "peuvent aussi le modifier" in long.message
        and "peuvent très bien le modifier" in long.message
    )
    assert len(long.message) < 400 and long.message.count("…") == 4, (
        long.message
    )  # each quote cut at both ends
    assert "Un jet de Santé" not in long.message  # the paragraph's start, far from the change
    (short,) = [d for d in items if d is not long]
    assert 'to "Un texte court, changé" since' in short.message and "…" not in short.message


def _short_texts(path):
    import re

    return [
        m.group(1)
        for m in re.finditer(r': "([^"\\]{8,40})"$', path.read_text(encoding="utf-8"), re.M)
    ]


def test_po_round_trip_is_lossless(data_copy, tmp_path):
    english = data_copy / "comrade" / "text" / "en.yaml"
    edit(
        english, '"The Party sees all"', '"The Party sees everything"'
    )  # one stale text, to carry over
    edit(
        data_copy / "comrade" / "text" / "fr.yaml",
        "  comrade:\n",
        "  # les camarades\n  comrade:\n",
    )
    game = comrade(data_copy)
    po_path = tmp_path / "comrade-fr.po"
    po_path.write_bytes(export_po(game, "fr"))
    po = polib.pofile(str(po_path))
    entry = next(e for e in po if e.msgctxt == "back.motto")
    assert (
        entry.fuzzy
        and entry.previous_msgid == "The Party sees all"
        and entry.msgid == "The Party sees everything"
    )
    assert next(e for e in po if e.msgctxt == "card.informer.name").msgstr == "Informateur"
    files = [data_copy / "comrade" / "text" / name for name in ("fr.yaml", "fr.sources.yaml")]
    before = [f.read_bytes() for f in files]
    result = import_po(game, "fr", po_path)
    assert result.changed == [] and not result.report.items
    assert [f.read_bytes() for f in files] == before
    assert po_path.read_bytes() == export_po(comrade(data_copy), "fr")


def test_po_import_brings_a_translators_work_back(data_copy, tmp_path):
    game = comrade(data_copy)
    po_path = tmp_path / "comrade-fr.po"
    edit(
        data_copy / "comrade" / "text" / "fr.yaml",
        "  comrade:\n",
        "  # les camarades\n  comrade:\n",
    )
    po = polib.pofile(export_po(game, "fr").decode("utf-8"))
    next(e for e in po if e.msgctxt == "card.informer.name").msgstr = "Mouchard"
    po.save(str(po_path))
    result = import_po(comrade(data_copy), "fr", po_path)
    assert result.changed == ["card.informer.name"]
    text = (data_copy / "comrade" / "text" / "fr.yaml").read_text(encoding="utf-8")
    assert '    name: "Mouchard"\n' in text and "  # les camarades\n  comrade:" in text
    assert check(data_copy)[0].errors == []


def test_po_import_from_the_command_line(data_copy, tmp_path, capsys):
    assert main(["i18n", "export", "fr", "--data", str(data_copy), "--out", str(tmp_path)]) == 0
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
    assert "0 text(s) changed" in capsys.readouterr().out


def test_a_new_language_is_files_only_and_builds(data_copy, tmp_path):
    """What TRANSLATING.md describes: describe German, add its texts, validate, build."""
    shutil.copy(FIXTURES / "german" / "languages" / "de.yaml", data_copy / "languages" / "de.yaml")
    shutil.copy(
        FIXTURES / "german" / "comrade" / "text" / "de.yaml",
        data_copy / "comrade" / "text" / "de.yaml",
    )
    assert main(["i18n", "sync", "de", "--data", str(data_copy)]) == 0
    report, _ = check(data_copy, games=["comrade"])
    assert report.errors == [] and not report.fails(strict=True)
    result = build(data_copy, tmp_path, games=["comrade"], langs=["de"])
    assert not result.report.has_errors
    names = sorted(p.name for p in (tmp_path / "comrade" / "de").iterdir())
    assert names == [
        "comrade-de-cards-a4.pdf",
        "comrade-de-cards-letter.pdf",
        "comrade-de-how-to-print-a4.pdf",
        "comrade-de-how-to-print-letter.pdf",
        "comrade-de-rules-a5.pdf",
        "comrade-de-rules-booklet-a4.pdf",
        "comrade-de-rules-booklet-letter.pdf",
    ]
    text = pdf_text(tmp_path / "comrade" / "de" / "comrade-de-cards-a4.pdf")
    assert "GENOSSE" in text and "Seite 1 von 4" in text


def test_a_new_language_can_start_from_sync(data_copy):
    shutil.copy(FIXTURES / "german" / "languages" / "de.yaml", data_copy / "languages" / "de.yaml")
    assert main(["i18n", "sync", "de", "--data", str(data_copy)]) == 0
    german = data_copy / "comrade" / "text" / "de.yaml"
    assert german.exists() and "# TODO: translate" in german.read_text(encoding="utf-8")
    [row] = [r for r in status(load_project(data_copy)) if r.lang == "de" and r.game == "comrade"]
    assert row.counts["missing"] == 0 and row.counts["untranslated"] > 40
    assert line_of(german, "game:") == 1


def test_sync_refuses_an_undescribed_language(data_copy):
    import pytest

    with pytest.raises(SystemExit) as usage:
        main(["i18n", "sync", "xx", "--data", str(data_copy)])
    assert usage.value.code == 2


def test_a_text_key_may_be_any_id_a_card_has_hyphens_included(tmp_path):
    """A card's texts are found by its id or kind (`t.card[card.id].name`), and ids may hold '-': a
    card `old-keeper` needs the texts `card.old-keeper.*`, which were refused ("use lower-case
    letters, digits and '_'") while the template's error asked for exactly them."""
    from printshop.diagnostics import Report
    from printshop.language.texts import load_catalogue

    path = tmp_path / "en.yaml"
    path.write_text(
        'card:\n  old-keeper:\n    name: "Old Keeper"\n  Old Keeper: "x"\n  -lead: "y"\n  "a.b": "z"\n',
        encoding="utf-8",
    )
    report = Report()
    catalogue = load_catalogue(path, "en", report)
    assert catalogue.entries["card.old-keeper.name"].text == "Old Keeper"
    assert set(catalogue.entries) == {"card.old-keeper.name"}
    refused = [(d.code, d.location.line, d.message) for d in report.items]
    assert refused == [
        (
            "wrong-type",
            4,
            "'Old Keeper' is not a valid text key: use lower-case letters, digits, '-' and '_'",
        ),
        (
            "wrong-type",
            5,
            "'-lead' is not a valid text key: use lower-case letters, digits, '-' and '_'",
        ),
        (
            "wrong-type",
            6,
            "'a.b' is not a valid text key: use lower-case letters, digits, '-' and '_'",
        ),
    ]


def test_translations_written_by_hand_without_sync_are_named_until_sync_records_their_source(
    data_copy, capsys
):
    """Stale is judged against the record `sync` keeps of each text's source: a translator who
    writes texts by hand and never runs it gets no stale warning when the source changes. validate
    says so once per file, naming the first texts at the first one's line; `i18n status` says it
    under its table and `--verbose` lists them."""
    from printshop.language.i18n import format_status

    records = data_copy / "comrade" / "text" / "fr.sources.yaml"
    kept = records.read_text(encoding="utf-8")
    dropped = {"card.informer.name", "card.informer.goal", "card.comrade.name", "card.comrade.goal"}
    lines, skip = [], False
    for line in kept.splitlines(keepends=True):  # the records of those four texts taken out
        if not line.startswith(" "):
            skip = line.rstrip().rstrip(":") in dropped
        if not skip:
            lines.append(line)
    records.write_text("".join(lines), encoding="utf-8")
    french = data_copy / "comrade" / "text" / "fr.yaml"
    [warning] = found(data_copy, "untracked-translation", games=["comrade"])
    assert warning.location.path.endswith("comrade/text/fr.yaml")
    assert warning.location.line == line_of(french, '    name: "Informateur"')
    assert warning.message == (
        "4 French texts have no record of the English text each was translated from "
        "('card.informer.name', 'card.informer.goal', 'card.comrade.name' and 1 more): a later "
        "change to the English will not show as stale"
    )
    assert "printshop i18n sync fr" in warning.hint
    [row] = [r for r in status(load_project(data_copy)) if r.game == "comrade"]
    assert sorted(row.untracked) == sorted(dropped) and row.counts["translated"] == 117
    assert (
        "comrade fr: 4 translated texts without a record of the source (a later change to the source cannot "
        "show as stale): run printshop i18n sync fr"
    ) in format_status([row])
    assert main(["i18n", "status", "comrade", "--data", str(data_copy), "--verbose"]) == 0
    assert (
        sum(": fr untracked: card." in line for line in capsys.readouterr().out.splitlines()) == 4
    )
    sync(comrade(data_copy), "fr")
    assert found(data_copy, "untracked-translation", games=["comrade"]) == []
    assert (
        records.read_text(encoding="utf-8") == kept
    )  # the same records as before they were taken out


def test_the_copies_sync_adds_to_a_new_language_are_untranslated_not_untracked(data_copy):
    """A language started with `i18n sync` holds a copy of each source text marked '# TODO:
    translate'. The copies of fewer than three words were taken for translations without a record
    (untracked-translation, "7 German texts have no record ..." in a file nothing was translated in
    yet), where `i18n status` counts them untranslated. A text still marked stays out of that
    warning, whatever it holds; a text translated by hand (its mark deleted) or kept on purpose
    (`# accept untranslated`) and not recorded is in it."""
    shutil.copy(
        REPO / "tests" / "fixtures" / "german" / "languages" / "de.yaml",
        data_copy / "languages" / "de.yaml",
    )
    assert sync(comrade(data_copy), "de").added  # every text, copied and marked
    german = data_copy / "comrade" / "text" / "de.yaml"
    assert found(data_copy, "untracked-translation", games=["comrade"]) == []
    [row] = [r for r in status(load_project(data_copy, games=["comrade"])) if r.lang == "de"]
    assert row.counts["untranslated"] == row.total and row.untracked == []
    edit(
        german, 'name: "Informer"  # TODO: translate', 'name: "Spitzel"  # TODO: translate'
    )  # translated, mark left
    edit(
        german, 'name: "Comrade"  # TODO: translate', 'name: "Comrade"'
    )  # the mark taken off by hand: still English
    # translated with its mark left: untranslated still (issue 52: the mark decides), so not
    # untracked; validate says the mark is left
    assert found(data_copy, "untracked-translation", games=["comrade"]) == []
    assert any(
        "still marked" in d.message and "card.informer.name" in d.message
        for d in found(data_copy, "untranslated", games=["comrade"])
    )
    edit(german, 'name: "Spitzel"  # TODO: translate', 'name: "Spitzel"')  # the mark deleted
    [warning] = found(data_copy, "untracked-translation", games=["comrade"])
    assert (
        warning.message.startswith("1 German text has no record")
        and "'card.comrade.name'" not in warning.message
    )
    edit(
        german, 'name: "Comrade"', 'name: "Comrade"  # accept untranslated: the same word'
    )  # kept, said so
    [warning] = found(data_copy, "untracked-translation", games=["comrade"])
    assert (
        warning.message.startswith("2 German texts have no record")
        and "'card.informer.name'" in warning.message
        and "'card.comrade.name'" in warning.message
    ), warning.message


def test_a_source_key_renamed_or_misspelt_names_the_translations_old_key_and_the_templates_near_one(
    data_copy,
):
    """An author misspells 'informer' in the English: the French texts were reported as missing,
    with advice (i18n sync) that would set the translation aside, and the template's error named no
    key near the one it reads."""
    english, french = (
        data_copy / "comrade" / "text" / "en.yaml",
        data_copy / "comrade" / "text" / "fr.yaml",
    )
    edit(english, "\n  informer:\n", "\n  informr:\n")
    report, _ = check(data_copy, games=["comrade"])
    missing = [d for d in report.items if d.code == "missing-text"]
    assert {d.message.split("'")[1] for d in missing} == {"card.informr.name", "card.informr.goal"}
    name = next(d for d in missing if "informr.name" in d.message)
    assert name.location.path == str(french) and name.location.line == line_of(
        french, '    name: "Informateur'
    )
    assert "the French has 'card.informer.name', which the English lacks" in name.message
    assert "rename 'card.informer.name' here as the English names it" in name.hint
    [template] = [d for d in report.errors if d.code == "template"]
    assert (
        "there is no text 'card.informer' in language 'en' (it has 'card.informr'"
        in template.message
    )
    edit(
        english, "\n  informr:\n", "\n  chairman_deputy:\n"
    )  # a key that is not close: no guess either side
    report, _ = check(data_copy, games=["comrade"])
    assert not any("lacks" in d.message or "(it has" in d.message for d in report.items)
    assert [d for d in report.items if d.code == "missing-text"][0].hint.startswith("add the text")


def test_sync_keeps_a_windows_files_line_endings_and_byte_order_mark(data_copy):
    """A translator's file saved on Windows (CRLF, a byte order mark) was rewritten to LF without
    its mark by a sync that added and moved nothing: every line changed for version control. It is
    left as it is, and a sync that adds a text keeps its endings and its mark."""
    french = data_copy / "comrade" / "text" / "fr.yaml"
    windows = b"\xef\xbb\xbf" + french.read_bytes().replace(b"\n", b"\r\n")
    french.write_bytes(windows)
    sync(load_project(data_copy).games["comrade"], "fr")
    assert french.read_bytes() == windows
    english = data_copy / "comrade" / "text" / "en.yaml"
    edit(english, "\n  informer:\n", '\n  newcomer:\n    name: "Newcomer"\n  informer:\n')
    result = sync(load_project(data_copy).games["comrade"], "fr")
    after = french.read_bytes()
    assert result.added == ["card.newcomer.name"] and after.startswith(b"\xef\xbb\xbf")
    assert (
        after.count(b"\n") == after.count(b"\r\n")
        and b'name: "Newcomer"  # TODO: translate\r\n' in after
    )
