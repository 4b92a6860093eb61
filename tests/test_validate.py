"""`printshop validate` on broken copies of the data: each fault reported with its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from printshop.cli import main
from printshop.pipeline.build import build, check
from tests.conftest import REPO, copy_data, edit, found, line_of, one


def test_the_project_data_is_clean():
    report, checked = check(games=["comrade"])
    assert {d.code for d in report.items if not d.acknowledged} == {"reconstructed"}, [
        d.format() for d in report.items
    ]
    assert checked is not None and len(checked.layouts) == 2


def test_a_deleted_card_breaks_the_composition(data_copy):
    game = data_copy / "comrade" / "game.yaml"
    edit(game, "      - {id: informer, kind: informer, front: informer}\n", "")
    items = found(data_copy, "composition", games=["comrade"])
    kinds_line = line_of(game, "    kinds: {dissident")
    assert {(d.location.path.endswith("comrade/game.yaml"), d.location.line) for d in items} == {
        (True, kinds_line),
        (True, line_of(game, "    total: 18")),
    }
    assert any("should hold 1 'informer' card(s) but holds 0" in d.message for d in items)
    # without an informer, no player count can be set up either
    assert "informer" in one(data_copy, "setup-impossible", games=["comrade"]).message


def test_a_composition_whose_kinds_and_total_disagree_is_said_to_be_wrong_itself(data_copy):
    """`total: 17` with kinds adding up to 18 said only "should hold 17 cards in all but holds 18",
    sending the author to the cards, when the declaration cannot be met by any deck."""
    game = data_copy / "comrade" / "game.yaml"
    line = edit(game, "    total: 18", "    total: 17")
    items = found(data_copy, "composition", games=["comrade"])
    assert any(
        d.location.line == line
        and "its kinds add up to 18 cards (2 + 1 + 8 + 1 + 5 + 1), but its total says 17"
        in d.message
        for d in items
    ), [d.format() for d in items]
    edit(game, "    total: 17", "    total: 18")
    assert not found(data_copy, "composition", games=["comrade"])


def test_a_duplicated_card_id(data_copy):
    game = data_copy / "comrade" / "game.yaml"
    edit(
        game,
        "      - {id: chairman, kind: chairman, front: chairman, back: chairman-back}\n",
        "      - {id: chairman, kind: chairman, front: chairman, back: chairman-back}\n      - {id: chairman, kind: rule, front: rule}\n",
    )
    item = one(data_copy, "duplicate-id", games=["comrade"])
    assert item.location.path.endswith("comrade/game.yaml")
    assert (
        item.location.line == line_of(game, "{id: chairman, kind: rule") and item.location.col == 14
    )
    assert "first at" in item.message


def test_a_missing_french_text(data_copy):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    edit(french, '    name: "Informateur"\n', "")
    item = one(data_copy, "missing-text", games=["comrade"])
    assert item.location.path.endswith("comrade/text/fr.yaml")
    assert item.location.line == line_of(french, "  informer:")
    assert "'card.informer.name' has no French text" in item.message
    assert "en.yaml" in item.message  # names where the source text is


def test_a_yaml_syntax_error(data_copy):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    line = edit(french, '  title: "Camarade"', '  title: "Camarade')
    item = one(data_copy, "yaml-syntax", games=["comrade"])
    assert item.location.path.endswith("comrade/text/fr.yaml")
    # at the quote left open, not the next line where the parser stopped (its words kept in
    # parentheses)
    assert (item.location.line, item.location.col) == (line, len('  title: "'))
    assert item.message.startswith(
        "YAML syntax: the text in quotes that starts here does not end on its line "
        f"(the parser read on and stopped at line {line + 1}, column "
    )
    assert item.hint == "end the text with the quote it starts with, on the same line"


@pytest.mark.parametrize(
    "text, where",
    [
        (
            "a:\n  b: 'l''heure\n  c: 'x'\n",
            (2, 6),
        ),  # a single-quoted text, its own quote doubled inside
        ('a: "one \\" two\nb: "x"\n', (1, 4)),  # a double-quoted one, an escaped quote inside
        (
            'a: "runs\n  over" \nb: [\n',
            None,
        ),  # a text over two lines parses: the later error is not laid on it
        ('a: "ok"\nb: c: d\n', None),
    ],
)
def test_a_quote_left_open_is_found_where_it_opens(tmp_path, text, where):
    from printshop.diagnostics import Report
    from printshop.project.source import read_yaml

    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    report = Report()
    assert read_yaml(path, report) is None
    [item] = report.items
    opened = "the text in quotes that starts here does not end on its line" in item.message
    assert opened == (where is not None), item.format()
    if where is not None:
        assert (item.location.line, item.location.col) == where


def test_an_unknown_key_suggests_the_closest(data_copy):
    game = data_copy / "comrade" / "game.yaml"
    edit(game, "{id: comrade, kind: comrade, count: 8,", "{id: comrade, kind: comrade, cuont: 8,")
    item = one(data_copy, "unknown-key", games=["comrade"])
    assert item.location.path.endswith("comrade/game.yaml")
    assert item.location.line == line_of(game, "cuont: 8")
    assert item.location.col == (
        game.read_text().splitlines()[item.location.line - 1].index("cuont") + 1
    )
    assert "did you mean 'count'?" in item.message


@pytest.mark.parametrize(
    "old, new, said",
    [
        (
            "colour: white, align: center, valign: middle, uppercase: true}",
            "colour: whte, align: center, valign: middle, uppercase: true}",
            "no colour 'whte' in the palette; did you mean 'white'?",
        ),
        (
            "font: sans-bold, size: 15pt",
            "font: sans-blod, size: 15pt",
            "no font 'sans-blod'; did you mean 'sans-bold'?",
        ),
        (
            "font: sans-bold, size: 15pt",
            "font: fraktur, size: 15pt",
            "no font 'fraktur' (fonts: serif, ",
        ),
        ("motif: gavel,", "motif: gavle,", "no motif 'gavle'; did you mean 'gavel'? (motifs: "),
        (
            "informer: {extends: role,",
            "informer: {extends: rol,",
            "face 'informer' extends 'rol', which does not exist; did you mean 'role'? (faces: ",
        ),
        (
            "front: informer}",
            "front: infromer}",
            "no face 'infromer' in faces.yaml; did you mean 'informer'? (faces: ",
        ),
        (
            "front: informer}",
            "front: rol}",
            "no face 'rol' in faces.yaml (faces: ",
        ),  # not the abstract 'role'
        (
            "front: informer}",
            "front: role}",
            "face 'role' is abstract: it only serves for others to extend (faces: ",
        ),
        (
            "card_size: poker-eu",
            "card_size: pokr-eu",
            "no card size 'pokr-eu'; did you mean 'poker-eu'? (sizes: ",
        ),
    ],
)
def test_a_name_mistyped_suggests_the_closest(data_copy, old, new, said):
    """A colour, font, motif, face or card size named a letter off the one meant is named back, as
    an unknown key is; a name close to none is not, and the message lists the names there are either
    way."""
    path = next(
        path
        for path in (data_copy / "comrade" / "faces.yaml", data_copy / "comrade" / "game.yaml")
        if old in path.read_text(encoding="utf-8")
    )
    edit(path, old, new)
    items = found(
        data_copy, "unknown-reference", games=["comrade"]
    )  # (once per face using a frame: said once)
    assert items and {(item.location.line, item.message) for item in items} == {
        (line_of(path, new), items[0].message)
    }
    message = items[0].message
    assert said in message and message.count("did you mean") == ("did you mean" in said)
    if (
        "(faces: " in said and "extends" not in said
    ):  # the faces a card can name: never an abstract one
        listed = message.split("(faces: ")[1].rstrip(")").split(", ")
        assert "informer" in listed and not {"card", "role", "vote-half"} & set(listed), listed


def test_a_wrong_type_and_a_missing_field(data_copy):
    game = data_copy / "comrade" / "game.yaml"
    edit(game, "count: 8,", "count: eight,")
    edit(game, "minutes: 15\n", "")
    assert one(data_copy, "wrong-type", games=["comrade"]).location.line == line_of(
        game, "count: eight"
    )
    assert "'minutes' is required" in one(data_copy, "missing-field", games=["comrade"]).message


def test_a_duplicate_key(data_copy):
    english = data_copy / "comrade" / "text" / "en.yaml"
    edit(english, '  title: "Comrade"\n', '  title: "Comrade"\n  title: "Comrades"\n')
    item = one(data_copy, "duplicate-key", games=["comrade"])
    assert item.location.line == line_of(english, '  title: "Comrades"')


def test_too_few_comrades_for_ten_players(data_copy):
    game = data_copy / "comrade" / "game.yaml"
    edit(game, "count: 8,", "count: 6,")
    edit(game, "comrade: 8,", "comrade: 6,")
    edit(game, "total: 18", "total: 16")
    item = one(data_copy, "setup-impossible", games=["comrade"])
    assert item.location.line == line_of(game, 'count: "n - 2"')
    assert "9 players need 7; 10 players need 8" in item.message


def test_unbalanced_markup_in_a_text(data_copy):
    english = data_copy / "comrade" / "text" / "en.yaml"
    edit(english, '    name: "Informer"', '    name: "<b>Informer"')
    item = one(data_copy, "markup", games=["comrade"])
    assert item.location.line == line_of(english, "<b>Informer")
    assert "<b> is never closed" in item.message


def test_text_that_no_longer_fits_names_card_frame_and_language(data_copy):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    edit(french, '    name: "Informateur"', '    name: "Informateur ' + "très bavard " * 12 + '"')
    item = one(data_copy, "text-overflow", games=["comrade"])
    faces = data_copy / "comrade" / "faces.yaml"
    assert item.location.path.endswith(
        "comrade/text/fr.yaml"
    )  # at the translation that does not fit...
    assert item.location.line == line_of(french, "Informateur très bavard")
    assert (
        "'card.informer.name' (fr)" in item.message
        and "card 'informer', frame 'title'" in item.message
    )
    assert "minimum size 10 pt" in item.message and "line" in item.message
    # ...and the frame's place for the designer on a second line
    assert item.also.startswith(
        f"frame: {faces}:{line_of(faces, '      title: {x: 5mm, y: 4.5mm')}:"
    )


def test_a_character_the_font_cannot_print(data_copy):
    """Reported at the translation's line, where it was typed (it was the frame's, in faces.yaml:
    the translator had to search every text for the character), the frame named for the designer on
    the second line."""
    french = data_copy / "comrade" / "text" / "fr.yaml"
    line = edit(french, '  motto: "Le Parti voit tout"', '  motto: "Le Parti voit tout ☭"')
    items = found(data_copy, "missing-glyph", games=["comrade"])  # the roles' and ballots' backs
    assert sorted(item.message.split(",")[1] for item in items) == [
        " back 'back'",
        " back 'ballot-back'",
    ]
    for item in items:
        assert item.location.path.endswith("comrade/text/fr.yaml") and item.location.line == line
        assert item.message.startswith("'back.motto', back '") and item.message.endswith(
            "has no '☭' (U+262D)"
        )
        assert item.also.startswith("frame: ") and "faces.yaml:" in item.also


def test_placeholders_must_match_the_source(data_copy):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    edit(french, '"{min}–{max} joueurs"', '"{min}–{maximum} joueurs"')
    items = found(data_copy, "placeholder", games=["comrade"])
    assert any(d.location.path.endswith("fr.yaml") for d in items)


def test_a_reference_to_a_face_that_does_not_exist(data_copy):
    game = data_copy / "comrade" / "game.yaml"
    edit(game, "front: chairman, back: chairman-back}", "front: chairmen, back: chairman-back}")
    item = one(data_copy, "unknown-reference", games=["comrade"])
    assert item.location.line == line_of(game, "front: chairmen") and "faces:" in item.message


def test_data_is_escaped_and_never_run_as_a_template(data_copy, tmp_path):
    english = data_copy / "comrade" / "text" / "en.yaml"
    edit(
        english, '  motto: "The Party sees all"', '  motto: "{{ 7 * 7 }} & <font size=40>x</font>"'
    )
    report, checked = check(data_copy)
    # the unknown tag is reported (and the French, which lacks the new numbers, too), never run
    assert "markup" in {d.code for d in report.errors} and not {"template", "internal"} & {
        d.code for d in report.items
    }
    back = (
        next(
            layout
            for layout in checked.layouts
            if layout.lang == "en" and layout.game_id == "comrade"
        )
        .decks[0]
        .faces["cards/back"]
    )
    motto = next(frame for frame in back.frames if frame.name == "motto")
    from tests.conftest import frame_text

    text = frame_text(motto)
    assert (
        "{{ 7 * 7 }}" in text and "49" not in text and "&" in text and "<font size=40>" in text
    )  # ...and escaped


# --- the command line -----------------------------------------------------------------------
def test_validate_exit_codes_and_format(data_copy, capsys):
    assert main(["validate", "--data", str(data_copy)]) == 0
    edit(data_copy / "comrade" / "game.yaml", "cards:\n    card_size", "cards:\n    card_sise")
    assert main(["validate", "--data", str(data_copy)]) == 1
    out = capsys.readouterr().out
    assert (
        "comrade/game.yaml:" in out
        and ": error[unknown-key]: unknown key 'card_sise'; did you mean 'card_size'?" in out
    )
    with pytest.raises(SystemExit) as usage:
        main(["validate", "no-such-game", "--data", str(data_copy)])
    assert usage.value.code == 2


@pytest.mark.parametrize(
    "command", [["--help"], ["list", "--help"], ["build", "--help"], ["validate", "--help"]]
)
def test_help(command, capsys):
    with pytest.raises(SystemExit) as done:
        main(command)
    assert done.value.code == 0
    assert "usage: printshop" in capsys.readouterr().out


def test_build_refuses_broken_data_without_a_traceback(data_copy, tmp_path, capsys):
    (data_copy / "comrade" / "game.yaml").write_text("players: [5, 10\n", encoding="utf-8")
    assert main(["build", "--data", str(data_copy), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "error[yaml-syntax]" in err and "nothing was written" in err
    assert not (tmp_path / "out").exists()


def test_list(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "comrade: Comrade, 5–10 players" in out
    assert (
        "18 cards, poker-eu (dissident 2, informer 1, comrade 8, chairman 1, vote 5, rule 1)" in out
    )
    assert "languages: en, fr" in out
    # a deck no kit prints says so
    assert "deck 'ballots': 20 cards, poker-eu, digital tables only (party 5," in out
    assert "deck 'cards': 18 cards, poker-eu (" in out


def test_build_selects_language_and_paper(tmp_path, capsys):
    assert (
        main(["build", "comrade", "--lang", "fr", "--paper", "letter", "--out", str(tmp_path)]) == 0
    )
    assert sorted(p.name for p in (tmp_path / "comrade").rglob("*.pdf")) == [
        "comrade-fr-cards-letter.pdf",
        "comrade-fr-how-to-print-letter.pdf",
        "comrade-fr-rules-a5.pdf",
        "comrade-fr-rules-booklet-letter.pdf",
    ]


def test_a_template_error_points_at_the_template_line(tmp_path):
    import shutil

    from printshop.project.paths import DEFAULT_DATA_DIR, DEFAULT_TEMPLATES_DIR

    templates = tmp_path / "templates"
    shutil.copytree(DEFAULT_TEMPLATES_DIR, templates)
    role = templates / "comrade" / "faces" / "role.j2"
    edit(role, "t.card[card.kind].goal", "t.card[card.kind].gaol")
    report, _ = check(DEFAULT_DATA_DIR, templates_dir=templates)
    item = [d for d in report.items if d.code == "template"]
    assert item and all(
        d.location.path.endswith("role.j2") and d.location.line == line_of(role, "gaol")
        for d in item
    )
    assert any("there is no text 'card.comrade.gaol'" in d.message for d in item)


def test_a_missing_translation_is_reported_once(data_copy):
    edit(data_copy / "comrade" / "text" / "fr.yaml", '    name: "Informateur"\n', "")
    report, _ = check(data_copy)
    assert [d.code for d in report.errors] == ["missing-text"]


def test_build_lists_no_infos_and_quiet_says_nothing(tmp_path, capsys):
    assert (
        main(
            ["build", "comrade", "--lang", "en", "--paper", "a4", "--out", str(tmp_path), "--quiet"]
        )
        == 0
    )
    assert capsys.readouterr().err == ""
    assert (
        main(
            ["build", "comrade", "--lang", "en", "--paper", "a4", "--out", str(tmp_path), "--force"]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert (
        "info[" not in err and "built 5 files" in err
    )  # cards, rules, imposed rules, how to print, calibration


def test_a_build_of_some_languages_checks_their_texts_and_the_source_only(tmp_path):
    """A build or session that writes only English leaves the French texts unchecked (nothing it
    writes shows them), so a translator's broken line does not stop it; validate and a French build
    report it, and a broken source text is reported whatever language is built, as every translation
    is made from it."""
    from printshop.pipeline.build import check

    data = copy_data(tmp_path / "data", ["comrade"])
    edit(
        data / "comrade" / "text" / "fr.yaml",
        'motto: "Le Parti voit tout"',
        'motto: "Le Parti <b>voit tout"',
    )

    def markup(**settings) -> list[str]:
        report, _ = check(data, keep_layouts=False, variant=None, **settings)
        return sorted(Path(d.location.path).name for d in report.items if d.code == "markup")

    assert markup(langs=["en"]) == []
    assert markup(langs=["fr"]) == ["fr.yaml"]
    assert markup() == ["fr.yaml"]
    edit(data / "comrade" / "text" / "en.yaml", 'motto: "', 'motto: "<i>')
    assert markup(langs=["en"]) == ["en.yaml"]
    assert markup(langs=["fr"]) == ["en.yaml", "fr.yaml"]


def test_a_new_language_file_with_a_few_labels_gets_one_error_listing_the_others(tmp_path):
    """A German file started with three labels got 40 'missing-field' errors at one line, one per
    label."""
    from printshop.checks.languages import REQUIRED_LABELS

    data = copy_data(tmp_path / "data", ["comrade"])
    (data / "languages" / "de.yaml").write_text(
        "name: German\nnative_name: Deutsch\ntranslated_from: en\nlabels:\n  fronts: Vorderseiten\n"
        "  backs: Rückseiten\n  rules: Regeln\n",
        encoding="utf-8",
    )
    [error] = [d for d in check(data, games=["comrade"])[0].errors if d.code == "missing-field"]
    assert error.message.startswith(
        f"language 'de' lacks {len(REQUIRED_LABELS) - 3} of the {len(REQUIRED_LABELS)} labels"
    )
    assert (
        "page, " in error.message
        and "fronts" not in error.message
        and "defaults/languages/en.yaml" in error.hint
    )


def test_another_translators_unfinished_language_file_stops_no_build_of_other_languages(tmp_path):
    """A German translator's languages/de.yaml still lacking a label (an error) stopped every build
    and session, a French one too, and a French `watch` showed German's label warnings. A build or
    session of some languages reads the language files those are made from (and the source's, and
    English's, the labels' reference) and no other: `validate` and a German build still report it; a
    language file the French one is made from, broken, still stops the French build."""
    from printshop.pipeline.build import build

    data = copy_data(tmp_path / "data", ["comrade"])
    german = data / "languages" / "de.yaml"
    german.write_text(
        (REPO / "tests" / "fixtures" / "german" / "languages" / "de.yaml")
        .read_text(encoding="utf-8")
        .replace("  fronts:", "  frontz:", 1),
        encoding="utf-8",
    )
    assert [d.message for d in check(data, games=["comrade"])[0].errors] == [
        "language 'de' needs the label 'fronts'"
    ]
    for langs in (["fr"], ["en"], ["en", "fr"]):
        report, checked = check(data, games=["comrade"], langs=langs)
        assert checked is not None and not report.has_errors, [d.format() for d in report.errors]
        assert not [d for d in report.items if d.location.path.endswith("de.yaml")]
        assert "de" not in checked.project.languages
    result = build(data, tmp_path / "out", games=["comrade"], langs=["fr"], papers=["a4"])
    assert not result.report.has_errors and result.written
    report, _ = check(
        data, games=["comrade"], langs=["de"]
    )  # German's own build: its file is read and reported
    assert [d.message for d in report.errors] == ["language 'de' needs the label 'fronts'"]
    french = with_defaults_language(data, "fr")
    edit(
        french, "labels:", 'labels:\n  page: "page {page} sur {pages"', 1
    )  # the French labels' own fault
    report, _ = check(data, games=["comrade"], langs=["fr"])
    assert report.has_errors and {Path(d.location.path).name for d in report.errors} == {
        "fr.yaml"
    }, [d.format() for d in report.errors]


def with_defaults_language(data: Path, lang: str) -> Path:
    """The project's own copy of printshop's languages/<lang>.yaml (written into the data, as a
    publisher does)."""
    from printshop.project.paths import PACKAGE_DEFAULTS_DIR

    path = data / "languages" / f"{lang}.yaml"
    if not path.exists():
        path.write_bytes((PACKAGE_DEFAULTS_DIR / "languages" / f"{lang}.yaml").read_bytes())
    return path


def test_a_build_of_some_languages_reads_only_their_texts(tmp_path):
    """`load_project(langs=...)` reads the texts of those languages, of what they are made from and
    of the source: a French file that does not even parse stops neither an English build nor an
    English session, while validate and a French build report it; a language no game has is still
    refused by name."""
    from printshop.live.session import Session
    from printshop.pipeline.build import BadRequest, build
    from printshop.project.loader import load_project

    data = copy_data(tmp_path / "data", ["comrade"])
    french = data / "comrade" / "text" / "fr.yaml"
    edit(french, 'motto: "Le Parti voit tout"', 'motto: "Le Parti voit tout')  # an unclosed quote
    project = load_project(data, langs=["en"])
    assert sorted(project.games["comrade"].catalogues) == ["en"]
    assert project.games["comrade"].available == ["en", "fr"]
    report, _ = check(data, langs=["en"], keep_layouts=False, variant=None)
    assert not report.has_errors, [d.format() for d in report.errors]
    report, _ = check(data, langs=["fr"], keep_layouts=False, variant=None)
    assert [Path(d.location.path).name for d in report.errors] == ["fr.yaml"]
    report, _ = check(data, keep_layouts=False, variant=None)
    assert [Path(d.location.path).name for d in report.errors] == ["fr.yaml"]
    result = build(data, tmp_path / "out", games=["comrade"], langs=["en"], papers=["a4"])
    assert not result.report.has_errors and (tmp_path / "out" / "comrade" / "en").is_dir()
    assert not (tmp_path / "out" / "comrade" / "fr").exists()
    with pytest.raises(
        BadRequest, match=r"no game here has the language 'de' \(languages: en, fr\)"
    ):
        build(data, tmp_path / "other", games=["comrade"], langs=["de"], papers=["a4"])
    session = Session(data, tmp_path / "live", games=["comrade"], langs=["en"], papers=["a4"])
    assert session.refresh().ok
    french.write_text(french.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    update = session.refresh({french})
    assert update.ok and update.reloaded == "texts" and update.jobs_rendered == []


@pytest.mark.parametrize(
    "d, said",
    [
        ("Q3 50 C24 16 76 16 97 50 Z", "must start with M"),
        ("M10 10 l5 5 Z", "relative commands are not drawn"),
        ("M10 10 C20 20 30 30 Z", "C takes 6 numbers"),
        ("M10 10 L20", "L takes 2 numbers"),
        ("M10 10 Z 5", "after Z, which takes none"),
        ("M10 10 A5 5 0 0 1 20 20", "'A' is not a path command"),
        ("M10 10 L20 20 #", "is not SVG path data"),
    ],
)
def test_motif_path_data_printshop_cannot_draw_is_an_error_at_its_line(data_copy, d, said):
    """A motif's path data was read only when a face drew it: a command with a number short made the
    build fail with an internal error at the game's folder, and a relative command (lower case) was
    drawn as absolute, misplaced. validate now reads it: an error at the path's line and column,
    saying what is wrong."""
    motifs = data_copy / "print" / "motifs.yaml"
    line = (
        edit(
            motifs,
            "motifs:\n",
            f'motifs:\n  broken:\n    viewbox: [100, 100]\n    paths:\n      - d: "{d}"\n',
        )
        + 4
    )
    item = one(data_copy, "wrong-type", games=["comrade"])
    assert (item.location.path.endswith("print/motifs.yaml"), item.location.line) == (True, line)
    assert said in item.message, item.message


def test_motif_path_data_as_the_renderer_takes_it_passes():
    """Every form the renderer draws: implicit repeats (M's extra pairs are lines), commas,
    exponents, no spaces between a command and its numbers, several subpaths; and a circle of three
    numbers, not two."""
    from pydantic import ValidationError

    from printshop.project.models.art import MotifPath

    for d in (
        "M0 0 10 10 20 0 Z",
        "M1,2L3,4",
        "M1e1 2.5E-1 H.5 V-3 C1 2 3 4 5 6 7 8 9 10 11 12 Q1 2 3 4 Z M5 5 L6 6",
        "M10-10L20-20Z",
        "",
    ):
        assert MotifPath.model_validate({"d": d}).d == d
    assert MotifPath.model_validate({"circle": [50, 50, 10]}).circle == [50, 50, 10]
    with pytest.raises(ValidationError):
        MotifPath.model_validate({"circle": [50, 50]})


def test_a_whole_file_is_named_alone_and_a_line_without_its_column_when_that_is_unknown(
    tmp_path, capsys
):
    """A diagnostic about a whole file (a link leading out of the project, an image too large)
    printed 'file:0:0:', a place no editor opens; a line whose column is not known printed ':0'
    after it."""
    from printshop.diagnostics import Location

    assert str(Location("data/x.yaml", 12, 5)) == "data/x.yaml:12:5"
    assert str(Location("data/x.yaml", 12)) == "data/x.yaml:12"
    assert str(Location("data/x.png")) == "data/x.png"

    data = copy_data(tmp_path / "data", ["comrade"])
    outside = tmp_path / "outside.png"
    outside.write_bytes(b"not really a picture")
    (data / "comrade" / "images").mkdir(exist_ok=True)
    (data / "comrade" / "images" / "link.png").symlink_to(outside)
    assert main(["validate", "comrade", "--data", str(data)]) == 1
    [line] = [line for line in capsys.readouterr().out.splitlines() if "error[unsafe-path]" in line]
    assert line.startswith(
        f"{data / 'comrade' / 'images' / 'link.png'}: error[unsafe-path]: link.png is a symlink"
    ), line


@pytest.mark.parametrize(
    "file, old, new, field, shown",
    [
        ("print/profiles/eu-3mm.yaml", "bleed: 3mm", "bleed: -3mm", "bleed", "-3 mm"),
        ("print/profiles/eu-3mm.yaml", "safe: 4mm", "safe: -4mm", "safe", "-4 mm"),
        ("print/media.yaml", "margin: 5mm", "margin: -5mm", "print_and_play.margin", "-5 mm"),
        (
            "print/media.yaml",
            "outer_bleed: 2mm",
            "outer_bleed: -2mm",
            "print_and_play.outer_bleed",
            "-2 mm",
        ),
        ("print/booklet.yaml", "outer: 13mm", "outer: -13mm", "margins.outer", "-13 mm"),
        ("print/booklet.yaml", "padding: 3pt", "padding: -3pt", "tables.padding", "-1.06 mm"),
        (
            "comrade/faces.yaml",
            "stroke_width: 0.5mm",
            "stroke_width: -0.5mm",
            "faces.card.shapes.border.stroke_width",
            "-0.5 mm",
        ),
    ],
)
def test_a_negative_bleed_margin_or_line_width_is_refused_where_it_is_written(
    tmp_path, file, old, new, field, shown
):
    """A bleed, safe zone, margin, spacing or line width below zero was read as written: a profile
    with `bleed: -3mm` passed validate and gave press files whose bleed box lay inside the trim.
    Each is refused at its value, in millimetres to the hundredth whatever unit it was written in;
    the data as it is passes."""
    data = copy_data(tmp_path / "data", ["comrade"])
    path = data / file
    line = edit(path, old, new)
    error = one(data, "wrong-type", games=["comrade"])
    assert error.location.path.endswith(file) and error.location.line == line
    assert (
        error.location.col
        == path.read_text(encoding="utf-8").splitlines()[line - 1].index(new.split(": ")[1]) + 1
    )
    assert error.message.startswith(
        f"'{field}': a length here cannot be negative ({shown})"
    )  # (faces: "inherited by")
    edit(path, new, old)
    assert found(data, "wrong-type", games=["comrade"]) == []


@pytest.mark.parametrize("command", [["validate"], ["build"], ["list"], ["i18n", "status"]])
def test_a_games_folder_or_a_file_given_as_the_data_folder_is_refused(tmp_path, capsys, command):
    """`validate --data data/comrade` (a game's folder) found no game in it and passed: 0 errors, a
    green check of nothing. It is a usage error naming the data folder above; a file given as the
    data folder is told it is one."""
    data = copy_data(tmp_path / "data", ["comrade"])
    for given, said in (
        (
            data / "comrade",
            f"{data / 'comrade'} is a game's folder (it holds game.yaml), not the data "
            f"folder that holds the games (--data): here, {data}",
        ),
        (
            data / "comrade" / "game.yaml",
            f"the data folder {data / 'comrade' / 'game.yaml'} is a file "
            f"(--data): name the folder that holds the games",
        ),
    ):
        with pytest.raises(SystemExit) as usage:
            main(
                [
                    *command,
                    "--data",
                    str(given),
                    *(["--out", str(tmp_path / "out")] if command == ["build"] else []),
                ]
            )
        err = capsys.readouterr().err
        assert usage.value.code == 2 and said in err, err
    assert not (tmp_path / "out").exists()
    assert (
        main(["validate", "--data", str(data), "comrade"]) == 0
    )  # the data folder itself: as before


def test_validate_quiet_prints_only_what_fails_the_run(tmp_path, capsys):
    """`printshop validate -q` was a usage error though `build -q` exists: in CI a quiet run shows
    what fails it."""
    from printshop.cli import main

    data = copy_data(tmp_path / "data", ["comrade"])
    assert main(["validate", "comrade", "--data", str(data), "-q"]) == 0
    said = capsys.readouterr()
    assert (
        said.out.strip() == "" and "printshop validate: 0 errors" in said.err
    )  # its infos and acknowledged, unsaid
    edit(
        data / "comrade" / "text" / "fr.yaml", '"Informateur"', '"Informateur "'
    )  # a warning: a trailing space
    edit(data / "comrade" / "game.yaml", "    total: 18", "    total: 17")  # an error
    assert main(["validate", "comrade", "--data", str(data), "-q"]) == 1
    out = capsys.readouterr().out
    assert "error[composition]" in out and "warning" not in out and "info[" not in out
    assert main(["validate", "comrade", "--data", str(data), "-q", "--strict"]) == 1
    out = capsys.readouterr().out
    assert "warning[whitespace]" in out and "(acknowledged" not in out


# --- issue 56, item 5: messages in a reader's words; a face of shapes needs no template ----------
@pytest.mark.parametrize(
    "old, new, said",
    [
        ("players: {min: 2, max: 4}", "players: [2, 4]", "should be a mapping of keys and values"),
        ("    copies: 2", "    copies: two", "should be a whole number, not the text 'two'"),
    ],
)
def test_a_value_of_the_wrong_kind_is_said_in_yamls_words(scaffolded, old, new, said):
    game = scaffolded / "data" / "tiny" / "game.yaml"
    edit(game, old, new)
    report, _ = check(scaffolded / "data", games=["tiny"], langs=["en"])
    [error] = [d for d in report.items if d.code == "wrong-type"]
    assert said in error.message and error.location.line == line_of(game, new)
    assert not any(word in error.message for word in ("dict", "instance of", "Commented", "int"))


def test_a_text_that_is_a_list_is_said_in_plain_words(scaffolded):
    texts = scaffolded / "data" / "tiny" / "text" / "en.yaml"
    title = next(line for line in texts.read_text("utf-8").splitlines() if "title:" in line)
    edit(texts, title, '  title: ["a", "b"]')
    report, _ = check(scaffolded / "data", games=["tiny"], langs=["en"])
    [error] = [d for d in report.items if d.code == "wrong-type"]
    assert error.message.endswith("not a list") and "CommentedSeq" not in error.message


def test_a_face_of_shapes_alone_needs_no_template_but_one_with_frames_does(scaffolded, tmp_path):
    faces = scaffolded / "data" / "tiny" / "faces.yaml"
    text = faces.read_text(encoding="utf-8")
    back = text[text.index("  back:") : text.index("  aid:")]
    shapes_only = "  back:\n    background: signature\n" + back[back.index("    shapes:") :]
    shapes_only = shapes_only[: shapes_only.index("    frames:")] + "\n"
    faces.write_text(text.replace(back, shapes_only), encoding="utf-8")
    report, _ = check(scaffolded / "data", games=["tiny"], langs=["en"])
    assert not report.has_errors, report.errors
    result = build(scaffolded / "data", tmp_path / "out", games=["tiny"], langs=["en"])
    assert not result.report.has_errors and result.outputs
    # frames without a template to fill them: an error at the face, saying both ways out
    faces.write_text(text.replace("    template: tiny/faces/back.j2\n", ""), encoding="utf-8")
    report, _ = check(scaffolded / "data", games=["tiny"], langs=["en"])
    [error] = [d for d in report.items if d.code == "missing-field"]
    assert "no template" in error.message and "shapes alone" in error.hint
