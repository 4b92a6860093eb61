"""One test per check of the catalogue that test_validate.py does not already cover, each asserting
the exact code and location; plus the output formats and the catalogue's documentation."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from printshop.check_codes import CATALOGUE
from printshop.checks_page import catalogue_markdown
from printshop.cli import main
from printshop.diagnostics import Report, Severity, format_report
from printshop.language.texts import MAX_NESTING
from printshop.pipeline.build import check
from tests.conftest import REPO, add_fixture_game, edit, found, line_of, one


def col_of(path: Path, line: int, needle: str) -> int:
    return path.read_text(encoding="utf-8").splitlines()[line - 1].index(needle) + 1


def test_orphan_text(data_copy):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    edit(french, '    name: "Informateur"\n', '    name: "Informateur"\n    title: "Mouchard"\n')
    item = one(data_copy, "orphan-text", games=["comrade"])
    assert item.severity is Severity.WARNING
    assert (item.location.line, item.location.col) == (
        line_of(french, '"Mouchard"'),
        col_of(french, line_of(french, '"Mouchard"'), '"Mouchard"'),
    )


def test_untranslated_sentence_but_not_a_name(data_copy):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    english = (data_copy / "comrade" / "text" / "en.yaml").read_text(encoding="utf-8")
    goal = re.search(r'  informer:\n    name: "Informer"\n    goal: (".*")', english).group(1)
    edit(
        french,
        re.search(
            r'  informer:\n    name: "Informateur"\n    goal: (".*")', french.read_text()
        ).group(1),
        goal,
    )
    records = data_copy / "comrade" / "text" / "fr.sources.yaml"
    edit(records, "card.informer.goal:", "card.informer.goal-was:")  # as if never translated
    [item] = [d for d in found(data_copy, "untranslated", games=["comrade"]) if not d.acknowledged]
    assert item.location.line == line_of(french, goal) and "'card.informer.goal'" in item.message
    # "Glasnost" is declared the same in every language (untranslatable.words): never reported;
    # "Dissident" is accepted on its line in fr.yaml: reported as acknowledged, so --strict passes
    assert "word.glasnost" not in " ".join(
        d.message for d in found(data_copy, "untranslated", games=["comrade"])
    )
    [dissident] = [
        d
        for d in found(data_copy, "untranslated", games=["comrade"])
        if d.location.line == line_of(french, '    name: "Dissident"')
    ]
    assert dissident.acknowledged


def test_stale_translation_shows_old_and_new_source(data_copy):
    english = data_copy / "comrade" / "text" / "en.yaml"
    edit(english, '  motto: "The Party sees all"', '  motto: "The Party sees everything"')
    item = one(data_copy, "stale-translation", games=["comrade"])
    french = data_copy / "comrade" / "text" / "fr.yaml"
    assert item.location.path.endswith("fr.yaml") and item.location.line == line_of(
        french, "Le Parti voit tout"
    )
    assert 'from "The Party sees all" to "The Party sees everything"' in item.message
    # the translator updates the text: no longer stale, and sync records the new source
    edit(french, '"Le Parti voit tout"', '"Le Parti voit absolument tout"')
    assert found(data_copy, "stale-translation", games=["comrade"]) == []


def test_markup_mismatch(data_copy):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    line = edit(french, "<b>moins de deux cartes</b>", "moins de deux cartes")
    item = one(data_copy, "markup-mismatch", games=["comrade"])
    assert item.location.line == line and "<b> ×1" in item.message


def test_line_breaks(data_copy):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    line = edit(french, '  motto: "Le Parti voit tout"', '  motto: "Le Parti<br/>voit tout"')
    assert one(data_copy, "line-breaks", games=["comrade"]).location.line == line


def test_rule_expression(data_copy):
    game = data_copy / "comrade" / "game.yaml"
    line = edit(game, 'count: "n - 2"', 'count: "n ** 2"')
    item = one(data_copy, "rule-expression", games=["comrade"])
    assert (item.location.line, item.location.col) == (line, col_of(game, line, '"n ** 2"'))


@pytest.mark.parametrize(
    "written, said",
    [
        (
            "2.5in",
            "'2.5in' runs a number into a name; write a product out ('2 * n', not '2n'), and no units",
        ),
        ("2n", "'2n' runs a number into a name"),
        ("(n - 2", "'(n - 2' is not an arithmetic expression"),
    ],
)
def test_a_rule_python_cannot_read_is_said_in_the_rule_s_words_and_nothing_else_is_printed(
    data_copy, written, said
):
    """'2.5in' as a rule printed Python's own "<unknown>:1: SyntaxWarning: invalid decimal literal"
    on the terminal before printshop's message; nothing but the diagnostic is said now, and a number
    run into a name says how to write a product."""
    game = data_copy / "comrade" / "game.yaml"
    line = edit(game, 'count: "n - 2"', f'count: "{written}"')
    import warnings

    with warnings.catch_warnings(
        record=True
    ) as caught:  # (what Python would print on the terminal)
        warnings.simplefilter("always")
        item = one(data_copy, "rule-expression", games=["comrade"])
    assert item.location.line == line and said in item.message, item.message
    assert not [
        str(warning.message) for warning in caught if issubclass(warning.category, SyntaxWarning)
    ]
    if "runs a number" not in said:
        assert "runs a number" not in item.message


def test_file_missing(data_copy):
    (data_copy / "comrade" / "faces.yaml").unlink()
    item = one(data_copy, "file-missing", games=["comrade"])
    assert item.location.path.endswith("comrade/faces.yaml")


def test_outside_safe_zone(data_copy):
    faces = data_copy / "comrade" / "faces.yaml"
    line = edit(faces, "motto: {x: 6mm, y: 72mm,", "motto: {x: 2mm, y: 72mm,")
    item = one(data_copy, "outside-safe-zone", games=["comrade"])
    assert item.severity is Severity.WARNING and item.location.line == line
    assert (
        "frame 'motto' of face 'back' comes 2.0 mm closer to the trim than the deck's safe zone of 4.0 mm"
        in item.message
    )
    assert (
        "1.2 mm closer to the trim than The Game Crafter's safe zone of 3.2 mm" in item.message
    )  # one report, every zone
    assert "past the trim" not in item.message  # inside the trim: only the safe zones are named


def test_a_frame_past_the_trim_says_how_far_it_is_cut_off(data_copy):
    """A frame drawn beyond the card's edge read "comes 9.0 mm closer to the trim than the deck's
    safe zone of 4.0 mm", as if it were near the edge: it says first how far it runs past the trim,
    as drawn (not as scaled to a shop's trim), then the zones as before."""
    faces = data_copy / "comrade" / "faces.yaml"
    line = edit(faces, "motto: {x: 6mm, y: 72mm,", "motto: {x: -5mm, y: 72mm,")
    item = one(data_copy, "outside-safe-zone", games=["comrade"])
    assert item.location.line == line
    assert item.message.startswith(
        "frame 'motto' of face 'back' runs 5.0 mm past the trim, where it is cut off: it "
        "comes 9.0 mm closer to the trim than the deck's safe zone of 4.0 mm; "
    ), item.message


def test_image_resolution(data_copy):
    """Below a home print's 150 dpi an image is refused (`image-resolution`); from 150 to 300 dpi a
    home kit builds with it, and every print shop's files are named as needing more (`press-art`,
    warnings: strict fails), the shops that rasterize whole faces (PNG per face) too; with enough
    pixels for every shop nothing is said."""
    from PIL import Image

    from printshop.pipeline.build import build, check

    (data_copy / "comrade" / "images").mkdir(exist_ok=True)
    for name, pixels in (
        ("blurred", 100),
        ("placeholder", 150),
        ("sharp", 330),
    ):  # (shops scale faces a little)
        Image.new("RGB", (pixels, pixels), "#b22a1e").save(
            data_copy / "comrade" / "images" / f"{name}.png"
        )
    faces = data_copy / "comrade" / "faces.yaml"
    edit(
        faces,
        "      frame: {kind: rect, x: 4.2mm,",
        "      seal: {kind: image, src: images/blurred.png, x: 6mm, y: 6mm, width: 1in, height: 1in}\n"
        "      sharp: {kind: image, src: images/sharp.png, x: 40mm, y: 6mm, width: 1in, height: 1in}\n"
        "      frame: {kind: rect, x: 4.2mm,",
    )
    item = one(data_copy, "image-resolution", games=["comrade"])
    assert (
        item.location.line == line_of(faces, "src: images/blurred.png")
        and item.severity is Severity.ERROR
    )
    assert "(100 × 100 px) prints at 100 × 100 dpi (a home print needs 150" in item.message
    assert "at least 150 × 150 px" in item.hint
    report, _ = check(data_copy, games=["comrade"])  # one error, not a warning per shop beside it
    assert not [d for d in report.items if d.code == "press-art" and "blurred.png" in d.message]

    edit(faces, "src: images/blurred.png", "src: images/placeholder.png")
    report, _ = check(data_copy, games=["comrade"])
    assert not [d for d in report.items if d.code == "image-resolution"]
    shops = [d for d in report.items if d.code == "press-art" and "placeholder.png" in d.message]
    assert shops and all(
        d.severity is Severity.WARNING and "the shop needs 300" in d.message for d in shops
    )
    assert any("The Game Crafter" in d.message for d in shops)  # a PNG-per-face shop
    assert not [d for d in report.items if d.code == "press-art" and "sharp.png" in d.message]
    result = build(
        data_copy, data_copy.parent / "out", games=["comrade"], langs=["en"], papers=["a4"]
    )
    assert (
        not result.report.has_errors
        and (data_copy.parent / "out" / "comrade" / "en" / "comrade-en-cards-a4.pdf").exists()
    )


def test_an_image_is_drawn_once_per_pdf(data_copy, tmp_path):
    from PIL import Image
    from pypdf import PdfReader

    from printshop.pipeline.build import build

    (data_copy / "comrade" / "images").mkdir(exist_ok=True)
    Image.new("RGB", (300, 300), "#123456").save(data_copy / "comrade" / "images" / "seal.png")
    edit(
        data_copy / "comrade" / "faces.yaml",
        "      frame: {kind: rect, x: 4.8mm,",
        "      seal: {kind: image, src: images/seal.png, x: 6mm, y: 6mm, width: 1in, height: 1in}\n"
        "      frame: {kind: rect, x: 4.8mm,",
    )
    result = build(data_copy, tmp_path, langs=["en"], papers=["a4"])
    assert not result.report.has_errors
    reader = PdfReader(tmp_path / "comrade" / "en" / "comrade-en-cards-a4.pdf")
    images = {
        id(x.get_object())
        for page in reader.pages
        for form in page["/Resources"]["/XObject"].values()
        for x in (form.get_object()["/Resources"].get("/XObject") or {}).values()
    }
    assert len(images) == 1  # the back is printed thirteen times, its image stored once


def test_composition_rules_over_card_vars(data_copy):
    game = data_copy / "comrade" / "game.yaml"
    edit(game, "vars: {word: perestroika}", "vars: {word: glasnost}")
    edit(
        game,
        "    kinds: {dissident: 2,",
        "    unique: [word]\n    one_each: [{var: word, values: [glasnost, perestroika]}]\n"
        "    kinds: {dissident: 2,",
    )
    items = found(data_copy, "composition", games=["comrade"])
    assert {d.location.line for d in items} == {
        line_of(game, "{id: dissident-perestroika"),
        line_of(game, "one_each:"),
    }
    assert any("repeats word 'glasnost'" in d.message for d in items)
    assert any("glasnost ×2, perestroika ×0" in d.message for d in items)


def test_composition_sequence(data_copy):
    game = data_copy / "comrade" / "game.yaml"
    edit(
        game,
        "{id: informer, kind: informer, front: informer}",
        "{id: informer, kind: informer, front: informer, vars: {number: 1}}",
    )
    edit(
        game,
        "{id: chairman, kind: chairman, front: chairman, back: chairman-back}",
        "{id: chairman, kind: chairman, front: chairman, back: chairman-back, vars: {number: 3}}",
    )
    edit(
        game,
        "    kinds: {dissident: 2,",
        "    sequence: [{var: number, start: 1}]\n    kinds: {dissident: 2,",
    )
    item = one(data_copy, "composition", games=["comrade"])
    assert item.location.line == line_of(game, "sequence:") and "missing [2]" in item.message


def test_reconstructed_items_are_listed(data_copy):
    items = found(data_copy, "reconstructed", games=["comrade"])
    assert all(d.severity is Severity.INFO for d in items)
    assert {d.message.split(":")[0] for d in items} >= {"card 'vote'", "rules.committee.p1"}
    game = data_copy / "comrade" / "game.yaml"
    line = edit(game, "  - what: rules.committee.p1", "  - what: rules.committee.p9")
    ref = one(data_copy, "unknown-reference", games=["comrade"])
    assert ref.location.line == line


@pytest.mark.parametrize("extra_game", [False, True], ids=["data", "data-and-a-game-more"])
def test_internal_failures_become_diagnostics(data_copy, tmp_path, monkeypatch, extra_game):
    """One diagnostic per game of the data folder, whichever games it holds."""
    import printshop.project.loader
    from printshop.project.paths import discover_games

    if extra_game:
        add_fixture_game(data_copy, tmp_path / "templates")

    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(printshop.project.loader, "load_faces", explode)
    items = found(data_copy, "internal")
    assert sorted(d.location.path.rsplit("/", 1)[-1] for d in items) == discover_games(data_copy)
    assert ("sampler" in discover_games(data_copy)) == extra_game
    assert all("RuntimeError: boom" in d.message for d in items)


def test_every_check_in_the_catalogue_is_exercised_by_a_test():
    tests = "".join(p.read_text(encoding="utf-8") for p in (REPO / "tests").glob("test_*.py"))
    untested = [code for code in CATALOGUE if f'"{code}"' not in tests and f"[{code}]" not in tests]
    assert untested == []


def test_docs_checks_is_generated_from_the_catalogue():
    """Regenerate with: printshop checks --markdown > docs/checks.md"""
    assert (REPO / "docs" / "checks.md").read_text(encoding="utf-8") == catalogue_markdown() + "\n"


def test_every_catalogue_example_has_the_documented_form():
    for code, entry in CATALOGUE.items():
        assert f"{entry.severity.value}[{code}]:" in entry.example


# --- output formats and --strict ---------------------------------------------------------------
def _warning_report() -> Report:
    report = Report()
    from printshop.diagnostics import Location

    report.add(
        "orphan-text",
        Location("data/g/text/fr.yaml", 3, 5),
        "'a.b' is not in the source language, 100%",
    )
    report.add("missing-text", Location("data/g/text/fr.yaml", 1, 1), "'a.c' has no French text")
    return report


def test_json_format():
    rows = json.loads(format_report(_warning_report(), style="json"))
    assert rows[0] == {
        "path": "data/g/text/fr.yaml",
        "line": 1,
        "col": 1,
        "severity": "error",
        "code": "missing-text",
        "message": "'a.c' has no French text",
        "hint": CATALOGUE["missing-text"].hint,
        "acknowledged": "",
        "also": "",
    }


def test_github_format():
    lines = format_report(_warning_report(), style="github").splitlines()
    assert lines == [
        "::error file=data/g/text/fr.yaml,line=1,col=1,title=missing-text::'a.c' has no French text",
        "::warning file=data/g/text/fr.yaml,line=3,col=5,title=orphan-text::'a.b' is not in the "
        "source language, 100%25",
    ]


def test_github_format_gives_an_acknowledged_warning_as_a_notice_with_its_reason():
    """The catalogue's 41 acknowledged warnings came out as 41 warning annotations on every pull
    request, their reasons dropped, though --strict passes them: each is a notice that says why it
    is settled."""
    from dataclasses import replace

    report = _warning_report()
    report.items[0] = replace(report.items[0], acknowledged="kept on purpose: a test")
    lines = format_report(report, style="github").splitlines()
    assert lines[1] == (
        "::notice file=data/g/text/fr.yaml,line=3,col=5,title=orphan-text::'a.b' is not in the source "
        "language, 100%25 (acknowledged: kept on purpose: a test)"
    )
    assert lines[0].startswith("::error ")  # the rest as they were


def test_warnings_fail_only_with_strict(data_copy, capsys):
    french = data_copy / "comrade" / "text" / "fr.yaml"
    edit(french, '    name: "Informateur"\n', '    name: "Informateur"\n    title: "Mouchard"\n')
    assert main(["validate", "comrade", "--data", str(data_copy)]) == 0
    assert main(["validate", "comrade", "--data", str(data_copy), "--strict"]) == 1
    capsys.readouterr()
    assert main(["validate", "comrade", "--data", str(data_copy), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["code"] for r in rows if not r["acknowledged"]} == {"orphan-text", "reconstructed"}


def test_yaml_aliases_are_refused(data_copy):
    english = data_copy / "comrade" / "text" / "en.yaml"
    english.write_text(
        english.read_text(encoding="utf-8") + 'zz: &a {x: "lol"}\nzy: {k0: *a, k1: *a}\n',
        encoding="utf-8",
    )
    item = one(data_copy, "yaml-syntax", games=["comrade"])
    assert item.location.path.endswith("en.yaml") and "aliases" in item.message


def test_unbalanced_markup_is_reported_once_and_the_text_still_lays_out(data_copy):
    english = data_copy / "comrade" / "text" / "en.yaml"
    edit(english, '  motto: "The Party sees all"', '  motto: "The <b>Party sees all"')
    report, checked = check(data_copy)
    assert [d.code for d in report.errors] == ["markup"]
    back = (
        next(
            layout
            for layout in checked.layouts
            if layout.lang == "en" and layout.game_id == "comrade"
        )
        .decks[0]
        .faces["cards/back"]
    )
    from tests.conftest import frame_text

    assert "The <b>Party" in frame_text(next(f for f in back.frames if f.name == "motto"))


@pytest.mark.parametrize("levels", [9, 2_000])
def test_markup_nested_past_the_limit_is_a_markup_error_at_its_text_and_the_text_still_lays_out(
    data_copy, levels
):
    """<b> and <i> nested 2,000 deep (within the 20,000 characters a value may have) ran the layout
    out of Python's stack: 'laying out comrade (en) failed unexpectedly: RecursionError', at the
    game's folder, called a bug in printshop. It is the text's markup error, at its line; the tags
    past the limit print as written, as other tags that are not well formed do."""
    english = data_copy / "comrade" / "text" / "en.yaml"
    line = edit(
        english,
        '  motto: "The Party sees all"',
        '  motto: "'
        + "<b><i>" * (levels // 2)
        + "<b>" * (levels % 2)
        + "The Party"
        + "</b>" * (levels % 2)
        + "</i></b>" * (levels // 2)
        + ' sees all"',
    )
    report, checked = check(data_copy, games=["comrade"])
    # (the tags past the limit, printed as written, make words too wide for the motto: overset, as
    # such text is)
    assert {"markup"} <= {d.code for d in report.errors} <= {"markup", "text-overflow"}, [
        d.format() for d in report.errors
    ]
    [item] = [d for d in report.errors if d.code == "markup"]
    assert item.location.path.endswith("en.yaml") and item.location.line == line
    assert f"nested {MAX_NESTING + 1} deep" in item.message
    back = (
        next(layout for layout in checked.layouts if layout.lang == "en")
        .decks[0]
        .faces["cards/back"]
    )
    from tests.conftest import frame_text

    printed = frame_text(next(f for f in back.frames if f.name == "motto"))
    assert "Party" in printed and printed.count("<b>") == 1 + (levels - MAX_NESTING - 1) // 2


def test_markup_nested_to_the_limit_is_well_formed(data_copy):
    english = data_copy / "comrade" / "text" / "en.yaml"
    edit(
        english,
        '  motto: "The Party sees all"',
        '  motto: "'
        + "<b><i>" * (MAX_NESTING // 2)
        + "The Party"
        + "</i></b>" * (MAX_NESTING // 2)
        + ' sees all"',
    )
    report, _ = check(data_copy, games=["comrade"])
    assert not report.errors, [d.format() for d in report.errors]


def test_a_template_that_nests_markup_past_any_reason_is_its_error_not_an_internal_one(
    data_copy, tmp_path
):
    templates = tmp_path / "templates"
    shutil.copytree(REPO / "templates", templates)
    edit(
        templates / "comrade" / "faces" / "back.j2",
        "{{ t.back.motto }}",
        "{% for n in range(3000) %}<b>{% endfor %}x{% for n in range(3000) %}</b>{% endfor %}",
    )
    report, _ = check(data_copy, templates_dir=templates, games=["comrade"])
    assert not [d for d in report.items if d.code == "internal"], [
        d.format() for d in report.items if d.code == "internal"
    ]
    assert any(d.code == "template" and "nested" in d.message for d in report.errors), [
        d.format() for d in report.errors
    ]


def test_an_acknowledged_warning_is_shown_but_does_not_fail_strict(data_copy, capsys):
    game = data_copy / "kremlin" / "game.yaml"
    assert main(["validate", "kremlin", "--data", str(data_copy), "--strict"]) == 0
    assert (
        "warning[tie]" in capsys.readouterr().out
        and "(acknowledged: the seed gives H and I both 69"
        in one(data_copy, "tie", games=["kremlin"]).format()
    )
    edit(
        game,
        '        acknowledged: "the seed gives H and I both 69; kept as the facts say until the publisher decides"\n',
        "",
    )
    assert main(["validate", "kremlin", "--data", str(data_copy), "--strict"]) == 1
