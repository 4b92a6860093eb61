"""Errors point at their causes: every file's schema errors in one run, one diagnostic for one fault
in the data (no burst of template errors after it), and every template error once, with a line and
column."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from printshop.diagnostics import Severity
from printshop.pipeline.build import check
from printshop.project.paths import DEFAULT_TEMPLATES_DIR
from tests.conftest import edit, line_of


@pytest.fixture
def templates_copy(tmp_path) -> Path:
    """A private copy of templates/ that a test may break, printshop's common templates copied in."""
    from printshop.project.paths import COMMON_TEMPLATES_DIR

    target = tmp_path / "templates"
    shutil.copytree(DEFAULT_TEMPLATES_DIR, target)
    shutil.copytree(COMMON_TEMPLATES_DIR / "common", target / "common")
    return target


def _errors(report):
    return [d for d in report.items if d.severity is Severity.ERROR]


def _col(path: Path, line: int, needle: str) -> int:
    return path.read_text(encoding="utf-8").splitlines()[line - 1].index(needle) + 1


def test_schema_errors_of_three_files_in_one_run(data_copy):
    """A broken shared file no longer hides the games' files, nor a broken game.yaml its faces.yaml."""
    media, game, faces = (
        data_copy / "print" / "media.yaml",
        data_copy / "comrade" / "game.yaml",
        data_copy / "comrade" / "faces.yaml",
    )
    edit(media, "  margin: 5mm", "  margin: 5 ")
    edit(game, "minutes: 15", "minutes: fifteen")
    edit(
        faces, "    template: comrade/faces/dissident.j2", "    templat: comrade/faces/dissident.j2"
    )
    report, checked = check(data_copy, games=["comrade"])
    assert checked is None
    found = sorted((Path(d.location.path).name, d.location.line, d.code) for d in _errors(report))
    assert found == [
        ("faces.yaml", line_of(faces, "templat:"), "unknown-key"),
        ("game.yaml", line_of(game, "minutes: fifteen"), "wrong-type"),
        ("media.yaml", line_of(media, "  margin: 5 "), "wrong-type"),
    ], [d.format() for d in report.items]


def test_broken_games_and_languages_are_all_reported(data_copy):
    edit(data_copy / "kremlin" / "game.yaml", "minutes:", "minutse:")
    edit(data_copy / "assassin" / "faces.yaml", "template:", "templat:")
    edit(data_copy / "languages" / "fr.yaml", "native_name:", "native_nam:")
    report, _ = check(data_copy)
    assert {Path(d.location.path).parts[-2:] for d in _errors(report)} >= {
        ("kremlin", "game.yaml"),
        ("assassin", "faces.yaml"),
        ("languages", "fr.yaml"),
    }


def test_a_value_outside_allowed_gives_one_diagnostic(data_copy):
    """Kremlin's politician 'b' names an office that does not exist: the template that prints its
    office would fail in every language; only the data error is reported."""
    game = data_copy / "kremlin" / "game.yaml"
    line = edit(game, "{letter: B, age: 75, strong: economy", "{letter: B, age: 75, strong: econmy")
    report, _ = check(data_copy, games=["kremlin"])
    [error] = _errors(report)
    assert (error.code, error.location.line) == (
        "unknown-reference",
        line,
    ) and "'econmy'" in error.message
    assert [d for d in report.items if d.code == "template"] == []


def test_an_error_on_a_later_line_of_a_card_written_over_several_lines_gives_one_diagnostic(
    data_copy,
):
    """The same fault in a card written key by key: the card's entry reaches down to the bad value's
    line, so that card is not laid out either."""
    game = data_copy / "kremlin" / "game.yaml"
    first = edit(
        game,
        "- {id: b, kind: politician, front: politician, vars: {letter: B, age: 75, strong: economy, "
        "weak: defence}}",
        "- id: b\n        kind: politician\n        front: politician\n        vars:\n          letter: B\n"
        "          age: 75\n          strong: econmy\n          weak: defence",
    )
    report, _ = check(data_copy, games=["kremlin"])
    [error] = _errors(report)
    assert (error.code, error.location.line) == (
        "unknown-reference",
        first + 4,
    )  # the card's vars, below its id
    assert "'econmy'" in error.message
    assert [d for d in report.items if d.code == "template"] == []


def test_a_template_failure_while_the_data_has_errors_is_held_back(data_copy, templates_copy):
    """A template fault met while the data has an error may follow from it: an info, not an error."""
    edit(
        data_copy / "kremlin" / "game.yaml",
        "{letter: B, age: 75, strong: economy",
        "{letter: B, age: 75, strong: econmy",
    )
    intrigue = templates_copy / "kremlin" / "faces" / "intrigue.j2"
    line = edit(intrigue, "{{ t.intrigue.label.when }}", "{{ t.intrigue.label.whne }}")
    report, _ = check(data_copy, games=["kremlin"], templates_dir=templates_copy)
    assert len(_errors(report)) == 1
    [held] = [d for d in report.items if d.code == "template"]
    assert held.severity is Severity.INFO and "held back" in held.message
    assert (held.location.line, held.location.col) == (
        line,
        _col(intrigue, line, "intrigue.label.whne"),
    )


def missing_formatted(d) -> str:
    from printshop.diagnostics import Report, format_report

    return format_report(Report([d]))


def test_a_missing_block_is_reported_once_at_the_template(data_copy, templates_copy):
    """Kremlin's 195 markers share one template through 14 faces, in two languages: one error for
    the frame without a block, at the template's first line, naming the frame's line in faces.yaml;
    one for the block without a frame, at the block, with the frame it was probably meant for."""
    marker = templates_copy / "kremlin" / "faces" / "marker.j2"
    line = edit(marker, "{% block sub %}", "{% block subtitle %}")
    report, _ = check(data_copy, games=["kremlin"], templates_dir=templates_copy)
    errors = _errors(report)
    assert len(errors) == 2, [d.format() for d in errors]
    missing = next(d for d in errors if d.code == "template")
    assert missing.location.path.endswith("kremlin/faces/marker.j2")
    assert (missing.location.line, missing.location.col) == (1, 1)
    faces = data_copy / "kremlin" / "faces.yaml"
    frame_line = line_of(faces, "      sub: {x:")
    assert "no block 'sub'" in missing.message and f"faces.yaml:{frame_line}:" in missing.also
    assert f"faces.yaml:{frame_line}:" in missing_formatted(
        missing
    )  # printed with the message, as before
    unknown = next(d for d in errors if d.code == "unknown-reference")
    assert (unknown.location.line, unknown.location.col) == (
        line,
        _col(marker, line, "{% block subtitle"),
    )
    assert "did you mean 'sub'?" in unknown.message


def test_a_fault_in_a_shared_macro_is_reported_once_where_it_is(data_copy, templates_copy):
    """A misspelt text id in the macro the rules of three games import: reported at the macro's line
    and column, once per game (each is its own cause: its own texts), never once per language."""
    sections = templates_copy / "common" / "sections.xml.j2"
    line = edit(sections, "{{ s.heading }}", "{{ s.headin }}")
    report, _ = check(data_copy, templates_dir=templates_copy)
    errors = _errors(report)
    assert errors and all(d.code == "template" for d in errors), [d.format() for d in errors]
    assert {
        (d.location.path.endswith("common/sections.xml.j2"), d.location.line, d.location.col)
        for d in errors
    } == {(True, line, _col(sections, line, "headin"))}
    assert len(errors) == len({d.message.split("'")[1] for d in errors})  # once per missing id
    assert all("called from" in d.also and "rules.xml.j2:" in d.also for d in errors)


def test_every_template_error_has_a_line_and_column(data_copy, templates_copy):
    role = templates_copy / "comrade" / "faces" / "role.j2"
    edit(role, "{% block title %}", "{% block title %}{% if %}")  # a syntax error
    rules = templates_copy / "comrade" / "rules.xml.j2"
    line = edit(rules, "{{ t.rules.intro }}", "{{ rules.intro }}")  # an undefined name
    report, _ = check(data_copy, games=["comrade"], templates_dir=templates_copy)
    errors = [d for d in report.items if d.code == "template"]
    assert errors and all(d.location.line >= 1 and d.location.col >= 1 for d in errors), [
        d.format() for d in errors
    ]
    syntax = [d for d in errors if d.location.path.endswith("role.j2")]
    assert len(syntax) == 1 and syntax[0].location.line == line_of(role, "{% block title %}")
    [undefined] = [d for d in errors if d.location.path.endswith("rules.xml.j2")]
    assert (undefined.location.line, undefined.location.col) == (
        line,
        _col(rules, line, "rules.intro"),
    )
    assert "'rules' is undefined" in undefined.message


def test_a_brace_left_unclosed_is_placed_at_that_brace_not_at_jinjas_own(data_copy, templates_copy):
    """`{{ card.kind }` (one brace): Jinja says "unexpected '}'" and the column was the first '}' on
    the line, half of the `%}` before it."""
    role = templates_copy / "comrade" / "faces" / "role.j2"
    line = edit(
        role,
        "{% block title %}{{ t.card[card.kind].name }}{% endblock %}",
        "{% block title %}{{ t.card[card.kind].name }{% endblock %}",
    )
    report, _ = check(data_copy, games=["comrade"], templates_dir=templates_copy)
    [error] = _errors(report)
    text = role.read_text(encoding="utf-8").splitlines()[line - 1]
    assert (error.location.line, error.location.col) == (
        line,
        text.index("name }") + len("name ") + 1,
    ), error.format()


def test_a_block_never_closed_is_reported_where_it_opens_not_at_the_end_of_the_file(
    data_copy, templates_copy
):
    """A `{% for %}` without its `{% endfor %}` was reported at the template's last line
    ("Unexpected end of template"): the one to close is where it opens."""
    rules = templates_copy / "comrade" / "rules.xml.j2"
    text = rules.read_text(encoding="utf-8")
    assert text.count("{% endfor %}") >= 1
    first_for = next(
        number for number, row in enumerate(text.splitlines(), start=1) if "{% for " in row
    )
    rules.write_text(text.replace("{% endfor %}", "", 1), encoding="utf-8")
    report, _ = check(data_copy, games=["comrade"], templates_dir=templates_copy)
    [error] = _errors(report)
    assert (
        error.location.path.endswith("comrade/rules.xml.j2") and error.location.line == first_for
    ), error.format()
    assert "this {% for %} is never closed: {% endfor %} is missing" in error.message


def test_a_key_a_mapping_lacks_is_named_with_the_ones_it_has(data_copy, templates_copy):
    """`card.vars.agee` said "'dict object' has no attribute 'agee'": Python's words, and nothing of
    what there is."""
    face = templates_copy / "kremlin" / "faces" / "politician.j2"
    line = edit(face, "fill(age=card.vars.age)", "fill(age=card.vars.agee)")
    report, _ = check(data_copy, games=["kremlin"], templates_dir=templates_copy)
    errors = _errors(report)
    assert errors and {(d.location.line, d.location.col) for d in errors} == {
        (line, _col(face, line, "agee"))
    }
    assert all(
        "there is no 'agee'; did you mean 'age'? (there are: " in d.message
        and "dict object" not in d.message
        for d in errors
    ), [d.message for d in errors]


def test_words_a_template_writes_itself_too_long_for_their_frame_are_reported_once_at_the_block(
    data_copy, templates_copy
):
    """A title written in the template itself, too long for its frame: it was reported at the frame
    in faces.yaml once per card and language ("card 'comrade', frame 'title', language en: …"),
    though no translator can mend it."""
    role = templates_copy / "comrade" / "faces" / "role.j2"
    line = edit(
        role,
        "{% block title %}{{ t.card[card.kind].name }}{% endblock %}",
        "{% block title %}A VERY LONG LITERAL TITLE WRITTEN IN THE TEMPLATE ITSELF{% endblock %}",
    )
    report, _ = check(data_copy, games=["comrade"], templates_dir=templates_copy)
    [error] = _errors(report)
    assert error.code == "text-overflow" and error.location.path.endswith("comrade/faces/role.j2")
    assert (
        error.location.line == line
        and "what this block writes" in error.message
        and "faces.yaml" in error.also
    )


def test_an_unknown_tag_a_card_template_writes_is_reported_once_at_the_template(
    data_copy, templates_copy
):
    """`<u>` in a face template's block was reported at the frame in faces.yaml, once per card and
    language, with the hint "fix the template at the place shown": at the template's line and column
    now, once, the frame beside."""
    role = templates_copy / "comrade" / "faces" / "role.j2"
    line = edit(
        role,
        "{% block title %}{{ t.card[card.kind].name }}{% endblock %}",
        "{% block title %}<u>{{ t.card[card.kind].name }}</u>{% endblock %}",
    )
    report, _ = check(data_copy, games=["comrade"], templates_dir=templates_copy)
    [error] = _errors(report)
    assert error.location.path.endswith("comrade/faces/role.j2"), error.format()
    assert (error.location.line, error.location.col) == (line, _col(role, line, "<u>"))
    assert "unknown tag <u>" in error.message and "faces.yaml" in error.also


def test_a_placeholder_a_template_does_not_fill_is_reported_once_at_its_block(
    data_copy, templates_copy
):
    """`{{ t.politician.label.age }}` without `| fill(age=…)`: 52 errors (26 politicians, 2
    languages) at the frame in faces.yaml, with the translator's hint "use the placeholders of the
    source text"; the template is to mend."""
    face = templates_copy / "kremlin" / "faces" / "politician.j2"
    line = edit(
        face,
        "{{ t.politician.label.age | fill(age=card.vars.age) }}",
        "{{ t.politician.label.age }}",
    )
    report, _ = check(data_copy, games=["kremlin"], templates_dir=templates_copy)
    [error] = _errors(report)
    assert error.code == "placeholder" and error.location.path.endswith(
        "kremlin/faces/politician.j2"
    )
    assert error.location.line == line and "{age}" in error.message and "fill(age=…)" in error.hint
    assert "faces.yaml" in error.also


def test_a_tag_left_open_in_the_booklet_is_reported_where_it_opens_once_for_every_language(
    data_copy, templates_copy
):
    """`<h1>…<h1>`: the parser noticed it lines later, at a line of the markup the template made
    (the loops before it move those), once per language; it is reported at the template's line that
    opens it, once."""
    rules = templates_copy / "comrade" / "rules.xml.j2"
    line = edit(
        rules,
        "<h1>{{ t.rules.components.heading }}</h1>",
        "<h1>{{ t.rules.components.heading }}<h1>",
    )
    report, _ = check(data_copy, games=["comrade"], templates_dir=templates_copy)
    [error] = _errors(report)
    assert error.location.path.endswith("comrade/rules.xml.j2") and error.location.line == line, (
        error.format()
    )
    assert "a <h1> is not closed before " in error.message


def test_a_booklet_template_misspelt_in_game_yaml_is_reported_there_with_the_one_meant(
    data_copy, templates_copy
):
    game = data_copy / "comrade" / "game.yaml"
    line = edit(game, "  template: comrade/rules.xml.j2", "  template: comrade/rules.j2")
    report, _ = check(data_copy, games=["comrade"], templates_dir=templates_copy)
    errors = _errors(report)
    assert errors and {
        (d.location.path.endswith("comrade/game.yaml"), d.location.line) for d in errors
    } == {(True, line)}
    assert all("did you mean 'comrade/rules.xml.j2'?" in d.message for d in errors), [
        d.message for d in errors
    ]


def test_a_group_of_texts_written_out_as_one_is_an_error_at_its_line_not_pythons_name_for_it(
    data_copy, templates_copy
):
    """`{{ t.card[card.kind] }}` (`.name` forgotten) put "<printshop.language.text_tree.TextTree object
    at 0x7f…>" on the cards and in the booklet: validate and build passed, and the address made each
    build's files differ."""
    role = templates_copy / "comrade" / "faces" / "role.j2"
    face_line = edit(role, "{{ t.card[card.kind].name }}", "{{ t.card[card.kind] }}")
    rules = templates_copy / "comrade" / "rules.xml.j2"
    rules_line = edit(rules, "{{ t.rules.intro }}", "{{ t.rules }}")
    report, _ = check(data_copy, games=["comrade"], langs=["en"], templates_dir=templates_copy)
    errors = _errors(report)
    assert errors and all(
        d.code == "template" and "TextTree" not in d.message and "0x" not in d.message
        for d in errors
    ), [d.format() for d in errors]
    faces = [d for d in errors if d.location.path.endswith("role.j2")]
    assert faces and {d.location.line for d in faces} == {face_line}
    assert any(
        "'card.informer' is a group of texts (name, " in d.message
        and "{{ t.card.informer.name }}" in d.message
        for d in faces
    ), [d.format() for d in faces]
    [booklet] = [d for d in errors if d.location.path.endswith("rules.xml.j2")]
    assert (
        booklet.location.line == rules_line and "'rules' is a group of texts (" in booklet.message
    )


@pytest.mark.parametrize(
    "written, said",
    [
        ("| uper", "no filter named 'uper'; did you mean 'upper'?"),
        (
            "| fil",
            "no filter named 'fil'; did you mean 'fill'?",
        ),  # printshop's own filters are among them
        ("| qqq", "no filter named 'qqq'"),  # nothing near it: no guess
        ("is evn", "no test named 'evn'; did you mean 'even'?"),
    ],
)
def test_an_unknown_filter_or_test_is_named_with_the_one_it_is_close_to(
    data_copy, templates_copy, written, said
):
    """Jinja says "No filter named 'uper'." and nothing more: the message names the filter or test
    it is close to, at the line and column of the name, and the hint says where the filters are
    listed."""
    role = templates_copy / "comrade" / "faces" / "role.j2"
    line = edit(
        role, "{{ t.card.common.never_reveal }}", "{{ t.card.common.never_reveal %s }}" % written
    )
    report, _ = check(data_copy, games=["comrade"], templates_dir=templates_copy)
    [error] = {
        (
            d.location,
            re.sub(r" \((card|face) '.*\)$", "", d.message),
            d.hint,
        )  # (said once per face)
        for d in report.items
        if d.code == "template"
    }
    where, message, hint = error
    name = written.split()[-1]
    assert (where.line, where.col) == (
        line,
        _col(role, line, name),
    ) and message == f"template syntax: {said}", error
    assert ("docs/templates.md" if "filter" in said else "Jinja's tests") in hint
    if "did you mean" not in said:
        assert "did you mean" not in message


@pytest.mark.parametrize(
    "game, name",
    [
        ("comrade", "comrade/faces/role.j2"),  # a face's own template
        ("assassin", "common/sections.xml.j2"),
    ],
)  # one the rules import
def test_a_template_that_is_not_utf8_is_reported_at_its_byte(data_copy, templates_copy, game, name):
    """A template saved in another encoding ('Ç' in Latin-1): Jinja's UnicodeDecodeError named no
    file and the build called it a bug in printshop."""
    template = templates_copy / name
    lines = template.read_bytes().split(b"\n")
    lines[1] = b"{# Cr\xe9dit #}" + lines[1]
    template.write_bytes(b"\n".join(lines))
    report, _ = check(data_copy, games=[game], templates_dir=templates_copy)
    errors = _errors(report)
    assert errors and {
        (d.code, d.location.path, d.location.line, d.location.col) for d in errors
    } == {("template", str(template), 2, 6)}, [d.format() for d in errors]
    assert "is not UTF-8 text: byte 0xe9" in errors[0].message and "UTF-8" in errors[0].hint
    template.write_bytes(template.read_bytes().replace(b"\xe9", "é".encode()))
    assert not _errors(check(data_copy, games=[game], templates_dir=templates_copy)[0])


def test_a_new_card_without_its_texts_says_which_card_and_where_to_write_them(
    tmp_path, monkeypatch
):
    """A game's author adds a card of a new kind and not yet its texts: the template is right, the
    texts are missing. The error (at the template line that reads them) names the card, and the hint
    the text file and line where they go, not only "fix the template"."""
    from printshop.cli import main

    root = tmp_path / "games"
    assert main(["init", str(root)]) == 0
    monkeypatch.chdir(root)
    assert main(["new", "pigeons"]) == 0
    game = root / "data" / "pigeons" / "game.yaml"
    original = game.read_text(encoding="utf-8")
    edit(
        game,
        "      - {id: moon, kind: moon, count: 3, front: card}",
        "      - {id: moon, kind: moon, count: 3, front: card}\n      - {id: cloud, kind: cloud, count: 2, front: card}",
    )
    edit(game, "total: 6", "total: 8")
    edit(game, "moon: 3}", "moon: 3, cloud: 2}")
    report, _ = check(root / "data", templates_dir=root / "templates", langs=["en"])
    [error] = _errors(report)
    assert error.code == "template" and error.location.path.endswith("pigeons/faces/card.j2")
    assert (
        "there is no text 'card.cloud'" in error.message
        and "card 'cloud', face 'card'" in error.message
    )
    texts = root / "data" / "pigeons" / "text" / "en.yaml"
    assert (
        f"write the text 'card.cloud' in data/pigeons/text/en.yaml (near line {line_of(texts, 'card:')})"
        in error.hint
    ), error.hint
    # a name misspelt in the template: the same hint says both, the text file or the template's
    # reading of it
    game.write_text(original, encoding="utf-8")
    card = root / "templates" / "pigeons" / "faces" / "card.j2"
    edit(card, "{{ t.card[card.kind].effect }}", "{{ t.card[card.kind].efect }}")
    report, _ = check(root / "data", templates_dir=root / "templates", langs=["en"])
    errors = _errors(report)
    assert {d.message.split("'")[1] for d in errors} == {"card.sun.efect", "card.moon.efect"}
    assert all(
        f"(card '{d.message.split('.')[1]}', face 'card', language en)" in d.message
        and "or correct the name the template reads at the place shown" in d.hint
        for d in errors
    )


def test_a_placeholder_misspelt_in_any_alphabet_is_reported_once_at_the_text(data_copy):
    """Kremlin's French is its source: "{âge} ans" for "{age} ans" (a French writer's spelling) was
    no placeholder at all, printed as it stands on 26 cards with no error on the French. It is now a
    placeholder the template does not give: one error at the text (not 26, not at the template),
    naming what the template gives; the English, made from the old French, says its placeholders
    differ."""
    texts = data_copy / "kremlin" / "text" / "fr.yaml"
    line = edit(texts, '"{age} ans"', '"{âge} ans"')
    report, _ = check(data_copy, games=["kremlin"])
    errors = _errors(report)
    assert all(d.code == "placeholder" for d in errors), [d.format() for d in errors]
    [french] = [d for d in errors if d.location.path.endswith("fr.yaml")]
    assert (french.location.line, french.location.col) == (line, _col(texts, line, '"{âge}'))
    assert "uses the placeholder {âge}, which its template does not give" in french.message
    assert "it gives: {age}" in french.message and "{âge}" in french.hint
    assert "politician.j2" in french.also
    [english] = [d for d in errors if d.location.path.endswith("en.yaml")]
    assert "uses {age} but the source uses {âge}" in english.message


def test_a_brace_left_alone_is_a_warning_at_the_text(data_copy):
    """ "{age ans": a placeholder half typed prints its brace; the brackets check now counts braces
    too."""
    texts = data_copy / "kremlin" / "text" / "fr.yaml"
    line = edit(texts, '"{age} ans"', '"{age ans"')
    report, _ = check(data_copy, games=["kremlin"])
    unbalanced = [
        d for d in report.items if d.code == "unbalanced" and d.location.path.endswith("fr.yaml")
    ]
    assert [d.location.line for d in unbalanced] == [line] and "'{' is never closed" in unbalanced[
        0
    ].message


def test_a_fault_in_a_face_others_extend_is_one_diagnostic_naming_them(data_copy, capsys):
    """Comrade's role face is extended by four: a negative height written in it was five errors at
    the same place, one per face; a frame too close to the trim, four warnings. Now one of each,
    naming the face it is written in and those that inherit it, and the summary counts what is
    listed."""
    from printshop.cli import main

    faces = data_copy / "comrade" / "faces.yaml"
    line = edit(
        faces,
        "title: {x: 5mm, y: 4.5mm, width: 53mm, height: 12mm,",
        "title: {x: 1mm, y: 4.5mm, width: 53mm, height: -12mm,",
    )
    report, _ = check(data_copy, games=["comrade"], variant=None)
    [error] = [d for d in report.sorted() if d.severity is Severity.ERROR]
    assert error.location.line == line and error.message.startswith(
        "'faces.role.frames.title.height': a size must"
    )
    assert error.message.endswith(
        "(inherited by faces 'comrade', 'informer', 'chairman', 'dissident')"
    )
    edit(faces, "height: -12mm,", "height: 12mm,")
    report, _ = check(data_copy, games=["comrade"], variant=None)
    [warning] = [
        d for d in report.sorted() if d.code == "outside-safe-zone" and d.location.line == line
    ]
    assert warning.message.startswith(
        "frame 'title' of faces 'chairman', 'comrade', 'dissident' and 'informer' "
        "comes 3.0 mm closer to the trim than the deck's safe zone of 4.0 mm"
    )
    # a colour unknown in the face every card extends: listed once, counted once
    edit(faces, "stroke: red, stroke_width: 0.5mm}", "stroke: rouge, stroke_width: 0.5mm}")
    assert main(["validate", "comrade", "--data", str(data_copy)]) == 1
    said = capsys.readouterr()
    assert said.out.count("error[unknown-reference]: no colour 'rouge'") == 1
    assert "printshop validate: 1 error," in said.err


def test_a_template_that_is_not_there_is_reported_where_it_is_named(
    data_copy, templates_copy, monkeypatch
):
    """A face naming a template there is not: the error is at `template:` in faces.yaml (the file it
    pointed at does not exist to be opened), with what to do; a data folder whose templates folder
    is missing: one error for the folder, not one per template and language."""
    faces = data_copy / "comrade" / "faces.yaml"
    line = edit(faces, "template: comrade/faces/back.j2", "template: comrade/faces/bak.j2")
    report, _ = check(data_copy, games=["comrade"], templates_dir=templates_copy)
    [error] = _errors(report)
    assert (error.location.path, error.location.line) == (str(faces), line)
    assert "template 'comrade/faces/bak.j2' not found" in error.message
    assert error.hint == "add the template, or correct the name faces.yaml (or game.yaml) gives it"
    edit(faces, "template: comrade/faces/bak.j2", "template: comrade/faces/back.j2")
    shutil.rmtree(
        templates_copy
    )  # the data folder copied alone, in a folder that is no project (as /tmp/x/data)
    import printshop.project.paths

    monkeypatch.setattr(
        printshop.project.paths, "DEFAULT_TEMPLATES_DIR", templates_copy
    )  # the working folder's, missing
    report, _ = check(data_copy, games=["comrade"])
    [error] = _errors(report)
    assert error.message.startswith(f"there is no templates folder {templates_copy}")
    assert "--templates" in error.hint
    report, _ = check(
        data_copy, games=["comrade"], templates_dir=templates_copy
    )  # named, and not there
    [error] = _errors(report)
    assert (
        error.message == "the templates folder does not exist (see --templates)"
        and "--templates" in error.hint
    )


def test_a_placeholder_misspelt_in_a_translation_is_one_error(data_copy):
    """Kremlin's English (made from the French) writing {âge}: the validator says its placeholders
    differ from the source's; layout, meeting the same text, said it a second time at the same
    place. Once now."""
    texts = data_copy / "kremlin" / "text" / "en.yaml"
    line = edit(texts, '"Age {age}"', '"Age {âge}"')
    report, _ = check(data_copy, games=["kremlin"])
    [error] = _errors(report)
    assert error.code == "placeholder" and error.location.line == line
    assert "uses {âge} but the source uses {age}" in error.message


@pytest.mark.parametrize(
    "expression, says",
    [
        (
            '"x" * 100000000',
            "this * would make 100,000,000 characters or items; a template may make at most 1,000,000",
        ),
        ("[1] * 10 ** 8", "would make 100,000,000 characters or items"),
        ("10 ** 1000000", "10 ** 1000000 is larger than a template may compute"),
        ("range(10 ** 7) | length", "Range too big"),
        (
            "''.__class__.__mro__",
            "templates may read only the values they are given and their data",
        ),
        (
            "card.__class__.__init__.__globals__",
            "templates may read only the values they are given and their data",
        ),
        (
            "t._texts",
            "templates may read only the values they are given and their data",
        ),  # a catalogue's insides
        ("t.card.__class__", "templates may read only the values they are given and their data"),
    ],
)
def test_a_template_asking_for_too_much_or_for_pythons_insides_is_an_error_in_seconds(
    data_copy, templates_copy, expression, says
):
    """Templates run in Jinja's sandbox: a games folder from elsewhere cannot reach Python through
    them, and an expression that would make a hundred million characters (a build ran for minutes)
    is refused."""
    import time

    role = templates_copy / "comrade" / "faces" / "role.j2"
    line = edit(
        role,
        "{% block title %}{{ t.card[card.kind].name }}",
        "{% block title %}{{ t.card[card.kind].name }}{{ " + expression + " }}",
    )
    started = time.monotonic()
    report, _ = check(data_copy, games=["comrade"], templates_dir=templates_copy)
    assert time.monotonic() - started < 10
    errors = _errors(report)
    assert errors and {(d.code, d.location.path, d.location.line) for d in errors} == {
        ("template", str(role), line)
    }
    assert says in errors[0].message, errors[0].message
    edit(
        role, "{{ " + expression + " }}", '{{ "" * 3 }}{{ (2 ** 3) | string | length * 0 or "" }}'
    )  # small: fine
    assert not _errors(check(data_copy, games=["comrade"], templates_dir=templates_copy)[0])


@pytest.mark.parametrize(
    "old, new, code, said, at",
    [
        (
            '<spacer height="106mm"/>',
            '<spacer height="18"/>',
            "template",
            "<spacer height=\"18\">: '18' is not a length: write a number and a unit",
            'height="18"',
        ),
        (
            '<spacer height="3mm"/>',  # (an <art> put in the place of a spacer)
            '<art motif="spades" size="24mm" colour="red"/>',
            "unknown-reference",
            "<art motif=\"spades\">: no motif 'spades'; did you mean 'spade'? (motifs: ",
            'motif="spades"',
        ),
        (
            '<spacer height="3mm"/>',  # (an <art> put in the place of a spacer)
            '<art motif="spade" size="24mm" colour="rouge"/>',
            "unknown-reference",
            "<art colour=\"rouge\">: no colour 'rouge'",
            'colour="rouge"',
        ),
        (
            '<spacer height="3mm"/>',  # (an <art> put in the place of a spacer)
            '<art motif="spade" size="-24mm" colour="red"/>',
            "template",
            '<art size="-24mm">: a size must be more than 0',
            'size="-24mm"',
        ),
        (
            '<spacer height="3mm"/>',  # (an <art> put in the place of a spacer)
            '<art size="24mm" colour="red"/>',
            "template",
            "<art> names no motif",
            "<art",
        ),
        (
            "<title>{{ t.game.title }}</title>",
            "<titel>{{ t.game.title }}</titel>",
            "template",
            "the template uses an unknown tag <titel>; did you mean 'title'? (tags: art, box, figure, h1, h2, img, ",
            "<titel>",
        ),
        # taller than a page's text area (A5: 180 mm): the build failed with "the paragraph '...…'
        # is 250 mm tall" at printshop's own booklet.yaml, and "is 0 mm tall" for an art; 180 mm
        # itself is set (the other tests)
        (
            '<spacer height="106mm"/>',
            '<spacer height="181mm"/>',
            "text-overflow",
            '<spacer height="181mm"> is taller than any page can hold: a booklet page (A5) holds 180 mm inside its margins',
            'height="181mm"',
        ),
        (
            '<spacer height="3mm"/>',  # (an <art> put in the place of a spacer)
            '<art motif="spade" size="300mm" colour="red"/>',
            "text-overflow",
            '<art size="300mm"> is taller than any page can hold',
            'size="300mm"',
        ),
    ],
)
def test_a_booklet_tag_with_a_value_the_build_cannot_draw_is_refused_by_validate(
    data_copy, templates_copy, old, new, code, said, at
):
    """`<spacer height="18"/>` (no unit) or `<art motif="spades"/>` passed validate, then failed the
    build as a bug in printshop ('internal: UnitError', 'KeyError: spades') at the game's folder.
    Each is reported by validate at the attribute's line and column in the template, with what to
    write; an unknown tag too."""
    rules = templates_copy / "assassin" / "rules.xml.j2"
    assert old in rules.read_text(encoding="utf-8")
    edit(rules, old, new)
    report, _ = check(data_copy, games=["assassin"], templates_dir=templates_copy)
    errors = _errors(report)
    assert {(d.code, d.location.path.endswith("assassin/rules.xml.j2")) for d in errors} == {
        (code, True)
    }, [d.format() for d in errors]
    line = line_of(rules, at)
    assert {(d.location.line, d.location.col) for d in errors} == {(line, _col(rules, line, at))}
    assert all(said in d.message for d in errors), [d.message for d in errors]


@pytest.mark.parametrize(
    "old, new",
    [
        (
            '<spacer height="back-cover"/>',
            '<pagebreak/>\n<spacer height="180mm"/>\n<spacer height="back-cover"/>',
        ),
        (
            '<spacer height="back-cover"/>',
            '<pagebreak/>\n<art motif="spade" size="180mm" colour="red"/>\n'
            '<spacer height="back-cover"/>',
        ),
    ],
)
def test_a_spacer_or_art_as_tall_as_the_booklet_page_holds_builds(
    data_copy, templates_copy, tmp_path, old, new
):
    """The limit validate sets is the page's: what it passes, the build sets (with the check above
    left out, 181 mm failed the build and 180 mm did not). On a page of the rules of its own: the
    back cover has its own art and text, and a back cover too tall is refused (test_covers)."""
    from printshop.pipeline.build import build

    edit(templates_copy / "assassin" / "rules.xml.j2", old, new)
    report, _ = check(data_copy, games=["assassin"], langs=["en"], templates_dir=templates_copy)
    assert not report.has_errors, [d.format() for d in report.errors]
    result = build(
        data_copy,
        tmp_path / "out",
        games=["assassin"],
        langs=["en"],
        papers=["a4"],
        templates_dir=templates_copy,
    )
    assert not result.report.has_errors and any(
        p.name.endswith("rules-a5.pdf") for p in result.written
    )


@pytest.mark.parametrize(
    "old, new, said, at",
    [
        (
            '<li>{{ label("howto_step_test", size=sizes.said | join("; ")) }}</li>',
            '<lj>{{ label("howto_step_test", size=sizes.said | join("; ")) }}</lj>',
            "<lj> cannot stand inside <ol>, which holds <li>",
            "<lj>",
        ),  # (it was left out unseen, build or not)
        (
            '<h1>{{ label("howto_files") }}</h1>',
            '<h3>{{ label("howto_files") }}</h3>',
            "the template uses an unknown tag <h3>",
            "<h3>",
        ),
        (
            '<table widths="46,10,44" align="left,center,left">',
            '<table widths="46,10,-44" align="left,center,left">',
            'widths="46,10,-44" should be positive',
            None,
        ),
        (
            '<h1>{{ label("howto_files") }}</h1>',
            '<h1>{{ label("howto_files") }</h1>',
            "template syntax: unexpected '}'",
            "<h1>",
        ),
        ("{{ title }}", "{{ titel }}", "'titel' is undefined", "titel"),
    ],
)
def test_a_how_to_print_template_the_build_cannot_use_is_refused_by_validate(
    data_copy, templates_copy, old, new, said, at
):
    """A project's own common/how-to-print.xml.j2 (the first page of every kit) was never filled by
    validate: an unknown tag or a bad table width passed it, and the build failed as a bug in
    printshop ('internal: RichTextError'). validate fills it for a kit with a file of every kind and
    reports at the template, once."""
    howto = templates_copy / "common" / "how-to-print.xml.j2"
    assert old in howto.read_text(encoding="utf-8")
    edit(howto, old, new)
    report, _ = check(data_copy, games=["comrade"], templates_dir=templates_copy)
    errors = _errors(report)
    assert len(errors) == 1 and errors[0].code == "template", [d.format() for d in errors]
    [error] = errors
    assert error.location.path.endswith("common/how-to-print.xml.j2") and said in error.message, (
        error.format()
    )
    if at is not None:
        line = line_of(howto, at)
        assert error.location.line == line, error.format()
    edit(howto, new, old)  # as printshop ships it: nothing to say
    assert not check(data_copy, games=["comrade"], templates_dir=templates_copy)[0].has_errors


@pytest.mark.parametrize(
    "markup, said",
    [
        (
            "<ul><li>a</li>stray words<li>b</li></ul>",
            "text directly inside <ul> ('stray words') is left out: put it in <li>",
        ),
        ("<ol><li>a</li><p>b</p></ol>", "<p> cannot stand inside <ol>, which holds <li>"),
        ("<table><td>a</td></table>", "<td> cannot stand inside <table>, which holds <tr>"),
        (
            "<table><tr><td>a</td><li>b</li></tr></table>",
            "<li> cannot stand inside <tr>, which holds <th> and <td>",
        ),
    ],
)
def test_what_a_list_or_table_would_leave_out_unseen_is_an_error(markup, said):
    """Only <li> in a list, <tr> in a table, <th> and <td> in a row were read: anything else
    vanished from the page without a word. It is an error naming what stands where; the well-formed
    ones parse as before."""
    from printshop.typeset.richtext import RichTextError, parse_blocks

    with pytest.raises(RichTextError) as failed:
        parse_blocks(markup)
    assert said in str(failed.value)
    assert (
        len(
            parse_blocks(
                "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul><table> <tr> <th>x</th> <td>y</td> </tr> </table>"
            )
        )
        == 3
    )
