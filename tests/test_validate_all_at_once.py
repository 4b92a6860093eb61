"""Issue 56, item 5: `printshop validate` reports independent errors in one run. A problem stops
only what depends on it (docs/checks.md, "What one error stops"): a file that fails leaves out that
file and what needs it, and every other file, game and language is still loaded, validated and laid
out; one root fault is one error.

A project is built with six faults of different kinds in different files and games; one run reports
each at its file and line, and mending them one at a time leaves exactly the others."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from printshop.cli import main
from printshop.pipeline.build import build, check
from printshop.project.paths import DEFAULT_DATA_DIR, DEFAULT_TEMPLATES_DIR
from tests.conftest import edit, line_of, with_defaults

# (hobby, ambition and biography share one frame: a hobby must outgrow all three to overflow)
LONG_HOBBY = (
    "Saluting every portrait, statue and passing tram of Moscow, twice, with both arms and a bow, "
    * 6
).strip()


class Fault:
    """One mistake a new game's author makes: `make` writes it into a project and returns where it
    is to be reported, (code, file relative to the project, line); `mend` puts the file back."""

    def __init__(self, name, relative, make):
        self.name, self.relative, self._make = name, relative, make

    def make(self, root: Path) -> tuple[str, str, int]:
        return self._make(root, root / self.relative)

    def mend(self, root: Path) -> None:
        source = (
            DEFAULT_TEMPLATES_DIR if self.relative.startswith("templates/") else DEFAULT_DATA_DIR
        )
        original = source / Path(self.relative).relative_to(self.relative.split("/")[0])
        shutil.copyfile(original, root / self.relative)


def syntax_error(path: Path, after: str) -> int:
    """A line that is not YAML ("a: b: c") written after the line `after` begins; its line."""
    return edit(path, after, after + "  broken: a: b\n") + after.count("\n")


def _yaml_syntax(root, path):
    return "yaml-syntax", "data/assassin/faces.yaml", syntax_error(path, "faces:\n")


def _unknown_key(root, path):
    edit(path, "\nminutes:", "\nminuts: 3\nminutes:")
    return "unknown-key", "data/comrade/game.yaml", line_of(path, "minuts:")


def _missing_template(root, path):
    path.unlink()
    faces = root / "data" / "kremlin" / "faces.yaml"
    return (
        "template",
        "data/kremlin/faces.yaml",
        line_of(faces, "template: kremlin/faces/marker.j2"),
    )


def _bad_reference(root, path):
    return (
        "unknown-reference",
        "data/comrade-stalin/game.yaml",
        edit(path, "front: role-joker", "front: role-jokr"),
    )


def _placeholder(root, path):
    return (
        "placeholder",
        "data/comrade-stalin/text/fr.yaml",
        edit(path, "Tuer {target}", "Tuer la cible"),
    )


def _too_long(root, path):
    return (
        "text-overflow",
        "data/kremlin/text/en.yaml",
        # (its length against the French's is a warning of its own, accepted here: one fault)
        edit(
            path,
            'hobby: "Saluting, again and again"',
            f'hobby: "{LONG_HOBBY}"  # accept length-ratio: a fault made long on purpose',
        ),
    )


FAULTS = [
    Fault("a YAML syntax error", "data/assassin/faces.yaml", _yaml_syntax),
    Fault("an unknown key", "data/comrade/game.yaml", _unknown_key),
    Fault("a missing template", "templates/kremlin/faces/marker.j2", _missing_template),
    Fault("a deck naming no face", "data/comrade-stalin/game.yaml", _bad_reference),
    Fault(
        "a French text without its placeholder", "data/comrade-stalin/text/fr.yaml", _placeholder
    ),
    Fault("a text too long for its frame", "data/kremlin/text/en.yaml", _too_long),
]


def make_project(root: Path) -> tuple[Path, Path]:
    data, templates = root / "data", root / "templates"
    shutil.copytree(DEFAULT_DATA_DIR, data)
    with_defaults(data)
    shutil.copytree(DEFAULT_TEMPLATES_DIR, templates)
    return data, templates


def errors_of(report, root: Path) -> set[tuple[str, str, int]]:
    """(code, file relative to `root`, line) of every error; and nothing else fails --strict."""
    unacknowledged = [
        d.format() for d in report.items if d.severity.value == "warning" and not d.acknowledged
    ]
    assert not unacknowledged, unacknowledged
    return {
        (d.code, Path(d.location.path).resolve().relative_to(root).as_posix(), d.location.line)
        for d in report.errors
    }


@pytest.fixture(scope="module")
def faulty(tmp_path_factory):
    root = tmp_path_factory.mktemp("faulty").resolve()
    make_project(root)
    return root, {fault.name: fault.make(root) for fault in FAULTS}


def test_one_validate_run_reports_every_independent_fault_at_its_file_and_line(faulty, capsys):
    root, expected = faulty
    report, _ = check(root / "data", templates_dir=root / "templates", keep_layouts=False)
    assert errors_of(report, root) == set(expected.values()), [d.format() for d in report.errors]
    assert len(report.errors) == len(FAULTS)  # and each once
    data, templates = str(root / "data"), str(root / "templates")
    assert main(["validate", "--data", data, "--templates", templates, "--strict"]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal" not in out
    for code, relative, line in expected.values():
        assert f"{relative}:{line}:" in out and f"error[{code}]" in out, (relative, out)
    assert f"{len(FAULTS)} errors" in err


def test_mending_the_faults_one_at_a_time_leaves_exactly_the_others(tmp_path):
    root = tmp_path.resolve()
    make_project(root)
    left = {fault.name: fault.make(root) for fault in FAULTS}
    for fault in FAULTS:
        fault.mend(root)
        del left[fault.name]
        report, _ = check(root / "data", templates_dir=root / "templates", keep_layouts=False)
        assert errors_of(report, root) == set(left.values()), (
            fault.name,
            [d.format() for d in report.errors],
        )
    assert not report.errors


def test_a_build_with_one_games_fault_writes_nothing_and_says_it_once(tmp_path):
    root = tmp_path.resolve()
    make_project(root)
    expected = _unknown_key(root, root / "data" / "comrade" / "game.yaml")
    out = root / "output"
    result = build(
        root / "data", out, templates_dir=root / "templates", games=["comrade", "assassin"], jobs=1
    )
    assert errors_of(result.report, root) == {expected} and len(result.report.errors) == 1
    assert not result.written and not out.exists()


# --- one root fault, one error: nothing it stops is reported again ------------------------------
def _face_renamed(data: Path) -> tuple[str, str, int]:
    game = data / "comrade-stalin" / "game.yaml"
    faces = data / "comrade-stalin" / "faces.yaml"
    edit(faces, "  goal-spades:", "  goal-spade:")
    edit(faces, "{extends: goal-spades}", "{extends: goal-spade}")  # (the ace's face follows it)
    return "unknown-reference", "comrade-stalin/game.yaml", line_of(game, "front: goal-spades,")


def _language_file(data: Path) -> tuple[str, str, int]:
    line = syntax_error(data / "languages" / "fr.yaml", "labels:\n")
    return "yaml-syntax", "languages/fr.yaml", line


def _source_texts(data: Path) -> tuple[str, str, int]:
    line = syntax_error(data / "comrade-stalin" / "text" / "en.yaml", "\ngame:\n")
    return "yaml-syntax", "comrade-stalin/text/en.yaml", line


def _translation_record(data: Path) -> tuple[str, str, int]:
    line = syntax_error(data / "comrade-stalin" / "text" / "fr.sources.yaml", "\ngame.title:\n")
    return "yaml-syntax", "comrade-stalin/text/fr.sources.yaml", line


def _shared_print_file(data: Path) -> tuple[str, str, int]:
    line = syntax_error(data / "print" / "media.yaml", "card_sizes:\n")
    return "yaml-syntax", "print/media.yaml", line


@pytest.mark.parametrize(
    "fault",
    [_face_renamed, _language_file, _source_texts, _translation_record, _shared_print_file],
)
def test_one_root_fault_is_one_error(tmp_path, fault):
    root = tmp_path.resolve()
    data, templates = make_project(root)
    code, relative, line = fault(data)
    report, _ = check(data, templates_dir=templates, games=["comrade-stalin"], keep_layouts=False)
    assert [(d.code, d.location.line) for d in report.errors] == [(code, line)], [
        d.format() for d in report.errors
    ]
    assert Path(report.errors[0].location.path).resolve() == data / relative


def test_a_face_named_by_many_cards_is_said_once_with_the_count_and_the_other_places(tmp_path):
    data, templates = make_project(tmp_path.resolve())
    _face_renamed(data)
    report, _ = check(data, templates_dir=templates, games=["comrade-stalin"], keep_layouts=False)
    (error,) = report.errors
    assert "no face 'goal-spades'" in error.message and "named 6 more times" in error.message
    assert error.also.startswith("also named at ") and error.also.endswith(", …")


def test_a_missing_spreadsheet_is_one_error_not_one_per_card_it_held(tmp_path):
    from tests.test_spreadsheet_cards import make_sheet_game

    data = make_sheet_game(tmp_path / "games")
    (data / "market" / "cards.csv").unlink()
    report, _ = check(data, keep_layouts=False)
    assert [d.code for d in report.errors] == ["spreadsheet-cards"], [
        d.format() for d in report.errors
    ]


def test_a_broken_translation_leaves_the_source_checked_and_laid_out(tmp_path):
    """A syntax error in comrade-stalin's French texts leaves French out; the English texts are
    still validated and laid out, so a text too long for its frame there is reported too."""
    data, templates = make_project(tmp_path.resolve())
    line = syntax_error(data / "comrade-stalin" / "text" / "fr.yaml", "\ngame:\n")
    english = data / "comrade-stalin" / "text" / "en.yaml"
    text = english.read_text(encoding="utf-8")
    long = line_of(english, "  tokens: ")
    lines = text.splitlines(keepends=True)
    lines[long - 1] = '  tokens: "' + "Starting tokens for this role, " * 6 + 'as shown: {count}"\n'
    english.write_text("".join(lines), encoding="utf-8")
    report, _ = check(data, templates_dir=templates, games=["comrade-stalin"], keep_layouts=False)
    assert {(d.code, Path(d.location.path).name, d.location.line) for d in report.errors} == {
        ("yaml-syntax", "fr.yaml", line),
        ("text-overflow", "en.yaml", long),
    }, [d.format() for d in report.errors]


def test_a_misnamed_game_folder_stops_that_game_only(tmp_path):
    """A game folder whose name is not a plain id is left out (it would name output files); the
    other games are still validated, so a fault in one of them is reported in the same run."""
    root = tmp_path.resolve()
    data, templates = make_project(root)
    shutil.copytree(data / "comrade-stalin", data / "Stalin Two")
    code, relative, line = _bad_reference(root, data / "comrade-stalin" / "game.yaml")
    report, _ = check(data, templates_dir=templates, keep_layouts=False, variant=None)
    assert {(d.code, Path(d.location.path).name, d.location.line) for d in report.errors} == {
        ("unsafe-path", "Stalin Two", 0),
        (code, "game.yaml", line),
    }, [d.format() for d in report.errors]


def test_a_game_whose_faces_fail_still_has_its_texts_checked(tmp_path):
    """faces.yaml that does not parse leaves comrade-stalin's cards unchecked and not laid out, but
    its texts need no face: a French text that lost its placeholder is reported in the same run."""
    root = tmp_path.resolve()
    data, templates = make_project(root)
    faces = syntax_error(data / "comrade-stalin" / "faces.yaml", "faces:\n")
    _, _, placeholder = _placeholder(root, data / "comrade-stalin" / "text" / "fr.yaml")
    report, checked = check(data, templates_dir=templates, games=["comrade-stalin"])
    assert {(d.code, Path(d.location.path).name, d.location.line) for d in report.errors} == {
        ("yaml-syntax", "faces.yaml", faces),
        ("placeholder", "fr.yaml", placeholder),
    }, [d.format() for d in report.errors]
    assert checked is not None and not checked.layouts and not checked.project.games


def test_an_unknown_key_in_game_yaml_leaves_the_rest_of_the_game_checked(tmp_path):
    """A misspelt key in game.yaml is reported, and the game is still validated without it: a
    French text that lost its placeholder in the same game is reported in the same run (before,
    the unknown key dropped the whole game and hid it)."""
    root = tmp_path.resolve()
    data, templates = make_project(root)
    _, _, unknown = _unknown_key(root, data / "comrade" / "game.yaml")
    french = data / "comrade" / "text" / "fr.yaml"
    placeholder = edit(french, '"{min}–{max} joueurs"', '"{min}–douze joueurs"')
    report, checked = check(data, templates_dir=templates, games=["comrade"])
    assert {(d.code, Path(d.location.path).name, d.location.line) for d in report.errors} == {
        ("unknown-key", "game.yaml", unknown),
        ("placeholder", "fr.yaml", placeholder),
    }, [d.format() for d in report.errors]


def test_an_unknown_key_beside_a_wrong_value_still_stops_the_file(tmp_path):
    """Only unknown keys are set aside: with a wrong value in the same file as well, both are
    reported and the game is not validated on a guess."""
    root = tmp_path.resolve()
    data, templates = make_project(root)
    game = data / "comrade" / "game.yaml"
    _, _, unknown = _unknown_key(root, game)
    edit(game, "\nminutes:", "\nminutes: many\nminutes_was:")
    report, checked = check(data, templates_dir=templates, games=["comrade"])
    codes = {(d.code, d.location.line) for d in report.errors}
    assert ("unknown-key", unknown) in codes, [d.format() for d in report.errors]
    assert ("wrong-type", line_of(game, "minutes: many")) in codes, codes
    assert checked is None or "comrade" not in checked.project.games
