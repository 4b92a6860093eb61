"""A project is a folder: found from the working directory, with printshop's shared print data,
languages and common templates as defaults it extends key by key; `init` and `new` make one that
validates and builds at once; a game owns its look; and a wheel, not the repository, is enough."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from printshop.cli import main
from printshop.pipeline.build import check
from printshop.project.paths import ProjectFileError, find_project
from tests.conftest import REPO, edit, line_of
from tests.pdfinspect import page_texts, pdf_text


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A new project with one scaffolded game, the working directory inside it."""
    folder = tmp_path / "my-games"
    assert main(["init", str(folder)]) == 0
    monkeypatch.chdir(folder)
    assert main(["new", "star-traders", "--title", "Star Traders"]) == 0
    return folder


# --- finding the project
# ----------------------------------------------------------------------------
def test_the_nearest_printshop_toml_makes_the_project(tmp_path):
    (tmp_path / "printshop.toml").write_text('data = "games"\noutput = "build"\n', encoding="utf-8")
    inner = tmp_path / "games" / "deep"
    inner.mkdir(parents=True)
    found = find_project(inner)
    assert found.root == tmp_path.resolve() and found.data == tmp_path.resolve() / "games"
    assert (
        found.output == tmp_path.resolve() / "build"
        and found.templates == tmp_path.resolve() / "templates"
    )


def test_a_pyproject_with_a_tool_printshop_table_makes_the_project(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.printshop]\ndata = "content"\n', encoding="utf-8"
    )
    assert find_project(tmp_path).data == tmp_path.resolve() / "content"
    other = tmp_path / "other"
    other.mkdir()
    (other / "pyproject.toml").write_text(
        '[project]\nname = "y"\n', encoding="utf-8"
    )  # not printshop's
    assert find_project(other).root == tmp_path.resolve()


def test_without_a_project_file_the_working_directory_is_the_project(tmp_path):
    found = find_project(tmp_path)
    assert found.config is None and found.data == tmp_path.resolve() / "data"


@pytest.mark.parametrize(
    "file, text, says",
    [
        (
            "printshop.toml",
            'data = "data"\ntemplate = "t"\n',
            "printshop.toml:2:1: error: unknown key 'template': did you mean 'templates'?",
        ),
        (
            "printshop.toml",
            'data = "data"\nfoo = 3\n',
            "printshop.toml:2:1: error: unknown key 'foo' (keys: data, templates, output)",
        ),
        (
            "printshop.toml",
            'output = "out"\ndata = 3\n',
            "printshop.toml:2:1: error: 'data' must be a folder name in "
            'quotes, such as data = "data"',
        ),
        (
            "printshop.toml",
            'data = "data\n',
            "printshop.toml:1:13: error: not a readable TOML file: Illegal character",
        ),
        (
            "pyproject.toml",
            '[project]\nname = "x"\n\n[tool.printshop]\ndata = "d"\nouput = "o"\n',
            "pyproject.toml:6:1: error: unknown key 'ouput': did you mean 'output'?",
        ),
    ],
)
def test_a_broken_project_file_is_a_usage_error_at_its_line(
    tmp_path, monkeypatch, capsys, file, text, says
):
    (tmp_path / file).write_text(text, encoding="utf-8")
    with pytest.raises(ProjectFileError, match="error: "):
        find_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{tmp_path.resolve() / file}:") and says in err and "hint: " in err, err
    assert "Traceback" not in err and "usage:" not in err


@pytest.mark.parametrize(
    "argv, named",
    [
        (
            ["watch", "--data", "elsewhere"],
            "(--data)",
        ),  # the folder the user typed, not the project's file
        (["validate"], "(named by "),  # the project's own data folder, gone
    ],
)
def test_a_data_folder_that_is_not_there_says_who_named_it(
    tmp_path, monkeypatch, capsys, argv, named
):
    (tmp_path / "printshop.toml").write_text('data = "games"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as usage:
        main(argv)
    err = capsys.readouterr().err
    assert usage.value.code == 2 and "does not exist" in err and named in err, err
    assert ("printshop.toml" in err) == (named != "(--data)"), err


def test_this_repository_is_a_project():
    assert find_project(REPO).config == REPO / "printshop.toml"


# --- init and new
# ----------------------------------------------------------------------------------
def test_a_new_game_validates_and_builds_at_once(project, capsys):
    assert (project / "printshop.toml").is_file() and (
        project / ".gitignore"
    ).read_text() == "output/\n"
    assert (
        project / "data" / "star-traders" / "text" / "fr.sources.yaml"
    ).is_file()  # sync recorded the sources
    assert main(["validate", "--strict"]) == 0
    assert main(["build", "--quiet"]) == 0
    out = project / "output" / "star-traders"
    names = {path.name for path in (out / "fr").iterdir()}
    assert {
        "star-traders-fr-cards-a4.pdf",
        "star-traders-fr-aid-letter.pdf",
        "star-traders-fr-rules-a5.pdf",
        "star-traders-fr-how-to-print-a4.pdf",
    } <= names
    text = pdf_text(out / "fr" / "star-traders-fr-cards-a4.pdf")
    assert "SOLEIL" in text and "STAR TRADERS" in text
    aid = page_texts(out / "en" / "star-traders-en-aid-a4.pdf")[0]
    assert "1." in aid and "Draw a card." in aid  # a numbered list inside a sheet's frame


def test_a_new_game_builds_for_the_shops(project):
    assert main(["build", "--quiet", "--target", "shop"]) == 0
    press = project / "output" / "star-traders" / "en" / "press"
    assert (press / "eu-3mm" / "manifest.json").is_file() and list(
        (press / "drivethrucards").glob("*.pdf")
    )


def test_new_refuses_a_bad_id_an_existing_game_and_a_folder_outside_a_project(
    project, tmp_path, monkeypatch, capsys
):
    for argv in (["new", "Bad Name"], ["new", "../escape"], ["new", "star-traders"]):
        with pytest.raises(SystemExit) as usage:
            main(argv)
        assert usage.value.code == 2
    assert not (project.parent / "escape").exists()
    elsewhere = tmp_path / "not-a-project"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    with pytest.raises(SystemExit):
        main(["new", "lonely"])
    assert "printshop init" in capsys.readouterr().err


@pytest.mark.parametrize(
    "name, suggested",
    [
        ("Red Square", 'printshop new red-square --title "Red Square")'),
        ("Élection à Moscou", 'printshop new election-a-moscou --title "Élection à Moscou")'),
        ("kgb_files", "printshop new kgb-files)"),  # an id mistyped, not a title: no --title
        ("2048", "(e.g. star-traders)"),  # nothing to make an id of
    ],
)
def test_a_name_that_cannot_be_an_id_is_answered_with_one_that_can(
    project, capsys, name, suggested
):
    with pytest.raises(SystemExit) as usage:
        main(["new", name])
    err = capsys.readouterr().err
    assert (
        usage.value.code == 2
        and f"'{name}' cannot name a game" in err
        and err.rstrip().endswith(suggested)
    ), err
    slug = suggested.split()[2].rstrip(")") if "printshop new" in suggested else None
    if slug is not None:  # and the suggestion works as typed
        assert main(["new", slug]) == 0 and (project / "data" / slug / "game.yaml").is_file()


def test_init_refuses_an_existing_project(project):
    with pytest.raises(SystemExit) as usage:
        main(["init", str(project)])
    assert usage.value.code == 2


# --- layers: printshop's defaults, the project, the game
# -------------------------------------------
def test_init_of_another_folder_says_to_go_into_it_first(tmp_path, monkeypatch, capsys):
    """`printshop init lanterns` ended "add a game with 'printshop new GAME'", which, run where init
    was, said "run 'printshop init' first": the project is found from the folder a command runs in."""
    monkeypatch.chdir(tmp_path)
    assert main(["init", "my games"]) == 0
    assert "cd 'my games', then add a game with 'printshop new GAME'" in capsys.readouterr().out
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    assert main(["init", "."]) == 0
    said = capsys.readouterr().out
    assert "add a game with 'printshop new GAME'" in said and "cd " not in said


def test_fonts_and_colours_a_games_own_booklet_and_kit_styles_name_are_checked_as_the_projects_are(
    project, capsys
):
    """A game's print/booklet.yaml and print/media.yaml, merged over the project's, were read by no
    check of the fonts and colours they name: validate passed and the build failed as "internal:
    KeyError: 'signatur'" (a bug in printshop, it said). Each is reported at the game's file; what
    the project's own files get wrong is said once, not again for each game; and a colour only the
    game defines is the game's to use."""
    game = project / "data" / "star-traders" / "print"
    (game / "booklet.yaml").write_text(
        "styles:\n  h1: {font: sans-blod}\n  p: {colour: signatur}\n  h2: {colour: signature}\n",
        encoding="utf-8",
    )
    (game / "media.yaml").write_text(
        "print_and_play:\n  footer: {font: sans-blod}\n  crop_marks: {colour: signatur}\n",
        encoding="utf-8",
    )
    report, _ = check(project / "data")
    found = sorted(
        (Path(d.location.path).name, d.location.line, d.location.col, d.message.split(";")[0])
        for d in report.errors
    )
    assert found == [
        ("booklet.yaml", 2, 14, "no font 'sans-blod'"),
        ("booklet.yaml", 3, 15, "no colour 'signatur' in the palette"),
        ("media.yaml", 2, 18, "no font 'sans-blod'"),
        ("media.yaml", 3, 24, "no colour 'signatur' in the palette"),
    ], found
    assert all("star-traders/print/" in d.location.path for d in report.errors)
    assert main(["build", "--lang", "en", "--paper", "a4", "-q"]) == 1
    said = capsys.readouterr()
    assert "internal" not in said.out + said.err and "no colour 'signatur'" in said.out + said.err
    # mended: the game's own colour 'signature' (its print/colours.yaml) is one its styles may name
    (game / "booklet.yaml").write_text("styles:\n  h2: {colour: signature}\n", encoding="utf-8")
    (game / "media.yaml").unlink()
    report, _ = check(project / "data")
    assert not report.has_errors, [d.format() for d in report.errors]
    # the project's booklet.yaml naming a colour nobody has: once, at the project's file, not once
    # more per game
    shared = project / "data" / "print" / "booklet.yaml"
    shared.parent.mkdir(exist_ok=True)
    shared.write_text("rule_colour: nowhere\n", encoding="utf-8")
    [error] = check(project / "data")[0].errors
    assert (
        error.location.path.endswith("data/print/booklet.yaml")
        and "no colour 'nowhere'" in error.message
    )


def test_a_project_that_never_prints_at_a_shop_switches_its_profile_off(project, capsys):
    """A European deck's 3 mm bleed is short of the 3.17 mm printshop's four US shops need: the home
    kit could not be built, and nothing but raising the bleed helped (a profile's `leaves_out`
    acknowledges left-out sizes, not bleed). `use: false` in the project's own file of a profile
    switches that shop off."""
    game_yaml = project / "data" / "star-traders" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    assert "bleed: 0.125in" in text
    game_yaml.write_text(text.replace("bleed: 0.125in", "bleed: 3mm", 1), encoding="utf-8")
    us = ["drivethrucards", "makeplayingcards", "printninja", "thegamecrafter"]
    errors = check(project / "data")[0].errors
    assert sorted(d.code for d in errors) == ["press-bleed"] * 4 and all(
        "use: false" in d.hint for d in errors
    )
    profiles = project / "data" / "print" / "profiles"
    profiles.mkdir(parents=True)
    for name in us:
        (profiles / f"{name}.yaml").write_text(
            "use: false  # we print in Europe\n", encoding="utf-8"
        )
    report, checked = check(project / "data")
    assert not report.has_errors and sorted(checked.project.profiles) == ["eu-3mm", "meinspiel"]
    assert main(["build", "--lang", "en", "--paper", "a4", "-q"]) == 0
    assert main(["build", "--lang", "en", "--target", "shop", "-q"]) == 0
    press = project / "output" / "star-traders" / "en" / "press"
    assert sorted(p.name for p in press.iterdir()) == ["eu-3mm", "meinspiel"]
    capsys.readouterr()
    assert (
        main(["build", "--target", "shop", "--profile", "printninja", "-q"]) == 2
    )  # a usage error
    assert "'printninja' is switched off in this project" in capsys.readouterr().err


def test_a_game_owns_its_look(project):
    game = project / "data" / "star-traders"
    report, _ = check(project / "data")
    assert not report.has_errors
    # its colour is its own: without its print/colours.yaml, the faces name a colour nobody defines
    colours = game / "print" / "colours.yaml"
    kept = colours.read_text(encoding="utf-8")
    colours.unlink()
    report, _ = check(project / "data")
    assert any(
        d.code == "unknown-reference" and "no colour 'signature'" in d.message
        for d in report.errors
    )
    colours.write_text(kept, encoding="utf-8")
    # a fault in the game's colours is reported in the game's file, at its line
    line = edit(colours, 'signature: "#1f4e79"', 'signature: "#1f4e7"')
    [error] = [d for d in check(project / "data")[0].errors if d.code == "wrong-type"]
    assert (
        error.location.path.endswith("star-traders/print/colours.yaml")
        and error.location.line == line
    )


def test_a_new_games_rules_and_how_to_print_page_are_set_in_its_colour_not_printshops_red(project):
    """printshop's booklet style sets titles, headings, rules and table headers in `accent`, the
    catalogue's red; a new game's colours name its own colour for it, so its booklet and how-to page
    match its blue cards."""
    import numpy as np
    import pypdfium2

    from printshop.pipeline.build import build

    out = project / "output"
    result = build(project / "data", out, games=["star-traders"], langs=["en"], papers=["a4"])
    assert not result.report.has_errors
    kit = out / "star-traders" / "en"

    def near(name: str, page: int, colour: str) -> int:
        document = pypdfium2.PdfDocument(kit / name)
        try:
            pixels = np.asarray(
                document[page].render(scale=100 / 72).to_pil().convert("RGB")
            ).astype(int)
        finally:
            document.close()
        target = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])
        return int((np.abs(pixels - target).max(axis=2) <= 30).sum())

    for name, page in (
        ("star-traders-en-rules-a5.pdf", 1),
        ("star-traders-en-how-to-print-a4.pdf", 0),
    ):
        assert near(name, page, "#1f4e79") > 300 and near(name, page, "#b22a1e") == 0, name


def test_a_sheet_no_kit_paper_holds_is_refused_by_validate_and_a_sheet_printed_one_to_a_page_where_two_fit_is_named(
    project,
):
    """A sheet larger than A4 or Letter inside their margins: `validate` said nothing and the build
    failed with a hint about card sizes. And a new game's A6 aid printed one to a landscape A4 page,
    half of it blank: it prints two to a page now, and an aid set back to one to a page is named,
    with the key that halves its pages."""
    from pypdf import PdfReader

    from printshop.pipeline.build import build

    game = project / "data" / "star-traders" / "game.yaml"
    result = build(
        project / "data", project / "output", games=["star-traders"], langs=["en"], papers=["a4"]
    )
    assert not result.report.has_errors
    assert (
        len(
            PdfReader(
                project / "output" / "star-traders" / "en" / "star-traders-en-aid-a4.pdf"
            ).pages
        )
        == 1
    )

    def found(code: str) -> list:
        return [d for d in check(project / "data")[0].items if d.code == code]

    assert found("two-to-a-page") == [] and found("paper-too-small") == []
    edit(game, "    per_page: 2\n", "")
    [info] = found("two-to-a-page")
    assert info.location.line == line_of(game, "width: 148mm") and info.severity.value == "info"
    assert (
        "sheet 'aid' (148 × 105 mm) prints one to a page, 2 pages; two fit on A4 and US Letter"
        in info.message
    )
    assert "per_page: 2" in info.hint
    edit(game, "    copies: 2\n", "    copies: 1\n")
    assert found("two-to-a-page") == []  # one page either way
    edit(game, "    height: 105mm\n", "    height: 150mm\n")
    edit(game, "    copies: 1\n", "    copies: 2\n")
    assert (
        found("two-to-a-page") == []
    )  # two of 150 mm do not fit on A4 with their marks and the footer
    edit(game, "    width: 148mm\n    height: 150mm\n", "    width: 205mm\n    height: 290mm\n")
    errors = found("paper-too-small")
    assert [d.message for d in errors] == [
        "sheet 'aid' on a4: the sheet (205 × 290 mm) does not fit on A4 inside its margins",
        "sheet 'aid' on letter: the sheet (205 × 290 mm) does not fit on US Letter inside its margins",
    ]
    assert all(
        d.location.line == line_of(game, "width: 205mm")
        and "tiled: true" in d.hint
        and "card size" not in d.hint
        for d in errors
    )
    assert build(project / "data", project / "built", games=["star-traders"]).report.has_errors
    assert not (project / "built").exists()


def test_a_game_may_add_a_card_size_of_its_own(project):
    game = project / "data" / "star-traders"
    (game / "print" / "media.yaml").write_text(
        'card_sizes:\n  mini-euro: {width: 44mm, height: 68mm, label: "Mini Euro (44 × 68 mm)"}\n',
        encoding="utf-8",
    )
    edit(game / "game.yaml", "card_size: poker-eu", "card_size: mini-euro")
    edit(
        game / "faces.yaml",
        "x: 4.5mm, y: 4.5mm, width: 54mm, height: 79mm",
        "x: 4mm, y: 4mm, width: 36mm, height: 60mm",
    )
    for old, new in (
        (
            "x: 4.5mm, y: 4.5mm, width: 54mm, height: 13.5mm",
            "x: 4mm, y: 4mm, width: 36mm, height: 10mm",
        ),
        (
            "x: 19.5mm, y: 24mm, width: 24mm, height: 24mm",
            "x: 14mm, y: 17mm, width: 16mm, height: 16mm",
        ),
        ("x: 14mm, y: 53mm, width: 35mm", "x: 10mm, y: 38mm, width: 24mm"),
        ("x: 6mm, y: 5.5mm, width: 51mm, height: 11mm", "x: 5mm, y: 5mm, width: 34mm, height: 8mm"),
        (
            "x: 7mm, y: 56mm, width: 49mm, height: 24mm, font: serif, size: 9pt, min_size: 7pt",
            "x: 5mm, y: 40mm, width: 34mm, height: 20mm, font: serif, size: 7pt, min_size: 5.5pt",
        ),
        ("x: 6mm, y: 6mm, width: 51mm, height: 76mm", "x: 5mm, y: 5mm, width: 34mm, height: 58mm"),
        (
            "x: 8mm, y: 36mm, width: 47mm, height: 16mm",
            "x: 5mm, y: 26mm, width: 34mm, height: 16mm",
        ),
    ):
        edit(game / "faces.yaml", old, new)
    edit(game / "game.yaml", "safe: 4mm", "safe: 3mm")
    report, checked = check(project / "data")
    assert not report.has_errors, [d.format() for d in report.errors]
    [deck] = next(layout for layout in checked.layouts if layout.lang == "en").decks
    assert round(deck.size.width / 72 * 25.4, 2) == 44.0
    # the project, and so any other game, knows nothing of it
    assert "mini-euro" not in checked.project.media.card_sizes


def test_the_project_extends_printshops_defaults_key_by_key(project):
    print_dir = project / "data" / "print"
    print_dir.mkdir()
    (print_dir / "media.yaml").write_text(
        'card_sizes:\n  square: {width: 70mm, height: 70mm, label: "Square"}\n'
        "print_and_play:\n  papers: [a4]\n",
        encoding="utf-8",
    )
    (print_dir / "profiles").mkdir()
    (print_dir / "profiles" / "eu-3mm.yaml").write_text("safe: 5mm\n", encoding="utf-8")
    report, checked = check(project / "data")
    media = checked.project.media
    assert {"square", "poker-eu", "tarot"} <= set(
        media.card_sizes
    )  # added to printshop's, none lost
    assert (
        media.print_and_play.papers == ["a4"] and media.print_and_play.margin > 0
    )  # one key overridden
    profile = checked.project.profiles["eu-3mm"]
    assert round(profile.safe / 72 * 25.4, 2) == 5.0 and round(profile.bleed / 72 * 25.4, 2) == 3.0
    # a fault is reported in the project's file, at its line
    line = edit(print_dir / "media.yaml", "width: 70mm", "width: -70mm")
    [error] = [d for d in check(project / "data")[0].errors if d.code == "wrong-type"]
    assert error.location.path.endswith("data/print/media.yaml") and error.location.line == line


def test_a_project_may_override_a_common_template(project):
    common = project / "templates" / "common"
    common.mkdir(parents=True)
    from printshop.project.paths import COMMON_TEMPLATES_DIR

    text = (COMMON_TEMPLATES_DIR / "common" / "how-to-print.xml.j2").read_text(encoding="utf-8")
    (common / "how-to-print.xml.j2").write_text(
        text.replace("<h1>", "<h1>OURS ", 1), encoding="utf-8"
    )
    assert main(["build", "--quiet", "--lang", "en", "--paper", "a4"]) == 0
    sheet = project / "output" / "star-traders" / "en" / "star-traders-en-how-to-print-a4.pdf"
    assert "OURS" in page_texts(sheet)[0]


# --- a wheel is enough
# -------------------------------------------------------------------------------
@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX only")
def test_a_wheel_builds_a_new_project_and_this_repository_from_any_folder(tmp_path):
    """`pip install .` (not editable) into a fresh virtual environment: printshop finds its defaults
    in the package, and each project from its own folder. Libraries come from this environment."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    _see_this_environments_libraries(python)
    # (a PYTHONPATH naming the repository would have the new environment import the repository's
    # copy)
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    # pip builds the wheel and installs it in one run (two runs, `pip wheel` then `pip install`,
    # started pip twice: 0.8 s more), with this environment's setuptools (the test extra's, seen
    # through the path file): an isolated build would download them first
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            str(REPO),
        ],
        check=True,
        timeout=300,
        cwd=tmp_path,
        env=env,
    )
    printshop = env_dir / "bin" / "printshop"
    where = subprocess.run(
        [str(python), "-c", "import printshop; print(printshop.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env=env,
    ).stdout
    assert str(env_dir) in where  # the wheel's copy, not the repository's

    def run(*argv, cwd):
        done = subprocess.run(
            [str(printshop), *argv], capture_output=True, text=True, cwd=cwd, timeout=600, env=env
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done

    run("init", "fresh", cwd=tmp_path)
    run("new", "pocket-game", cwd=tmp_path / "fresh")
    run(
        "build", "--quiet", "--lang", "en", "--paper", "a4", cwd=tmp_path / "fresh" / "data"
    )  # from a subfolder
    assert (
        tmp_path / "fresh" / "output" / "pocket-game" / "en" / "pocket-game-en-cards-a4.pdf"
    ).is_file()
    out = tmp_path / "repo-out"
    run("build", "comrade", "--quiet", "--lang", "fr", "--paper", "a4", "--out", str(out), cwd=REPO)
    assert (out / "comrade" / "fr" / "comrade-fr-cards-a4.pdf").is_file()


def _see_this_environments_libraries(python: Path) -> None:
    """Put the running environment's site-packages after the new environment's own, by a path file.

    Not `system_site_packages`: that shows the base interpreter's packages, which in a virtual
    environment are not this one's (no reportlab, an old setuptools without bdist_wheel). A path
    file only appends its folders to sys.path (their own path files are not run, so this
    environment's editable printshop stays out), and the wheel installed in the new environment
    comes first."""
    target = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = dict.fromkeys([sysconfig.get_path("purelib"), sysconfig.get_path("platlib")])
    (Path(target) / "this-environment.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")


# --- build owns what it writes
# -------------------------------------------------------------------------
def test_a_build_removes_the_files_it_no_longer_makes_and_nothing_else(project):
    assert main(["build", "--quiet", "--lang", "en", "--paper", "a4"]) == 0
    out = project / "output" / "star-traders" / "en"
    aid = out / "star-traders-en-aid-a4.pdf"
    mine = out / "my-notes.txt"
    mine.write_text("the publisher's own file", encoding="utf-8")
    assert aid.is_file()
    game = project / "data" / "star-traders" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    start, end = text.index("# A player aid (A6)"), text.index("booklet:")
    game.write_text(text[:start] + text[end:], encoding="utf-8")  # the aid is abandoned
    (project / "templates" / "star-traders" / "faces" / "aid.j2").unlink()
    faces = project / "data" / "star-traders" / "faces.yaml"
    faces.write_text(
        faces.read_text(encoding="utf-8").split("\n  aid:\n")[0] + "\n", encoding="utf-8"
    )
    from printshop.pipeline.build import build

    result = build(
        project / "data",
        project / "output",
        templates_dir=project / "templates",
        langs=["en"],
        papers=["a4"],
    )
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    assert not aid.exists() and aid in result.removed
    [note] = [d for d in result.report.items if d.code == "removed-output"]
    assert (
        "no longer makes star-traders-en-aid-a4.pdf" in note.message
        and note.location.path.endswith("game.yaml")
    )
    assert (
        mine.read_text(encoding="utf-8") == "the publisher's own file"
    )  # never anything it did not write
    assert (out / "star-traders-en-cards-a4.pdf").is_file()


def test_a_file_changed_by_hand_is_not_removed(project):
    assert main(["build", "--quiet", "--lang", "en", "--paper", "a4"]) == 0
    aid = project / "output" / "star-traders" / "en" / "star-traders-en-aid-a4.pdf"
    aid.write_bytes(aid.read_bytes() + b"% annotated by hand\n")
    game = project / "data" / "star-traders" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(
        text.replace("  aid:\n    face: aid", "  aid-renamed:\n    face: aid"), encoding="utf-8"
    )
    assert main(["build", "--quiet", "--lang", "en", "--paper", "a4"]) == 0
    assert aid.is_file()  # not the bytes the build wrote: left alone
    assert (
        project / "output" / "star-traders" / "en" / "star-traders-en-aid-renamed-a4.pdf"
    ).is_file()


def test_proofs_and_the_live_preview_draw_a_game_in_its_own_colours(project):
    """The game's own palette (its print/colours.yaml) reaches every renderer, not only the build's."""
    assert main(["proof", "star-traders", "--lang", "fr"]) == 0
    assert (
        project / "output" / "star-traders" / "fr" / "star-traders-fr-proof-against-en.pdf"
    ).is_file()
    from printshop.live.images import face_png
    from printshop.live.session import Session
    from printshop.live.views import face_views

    session = Session(
        project / "data",
        None,
        templates_dir=project / "templates",
        games=["star-traders"],
        langs=["en"],
        write=False,
    )
    assert session.refresh().ok
    views = face_views(session)
    assert views and all(face_png(view).startswith(b"\x89PNG") for view in views)


def test_a_project_with_no_game_yet_says_how_to_add_one(tmp_path, monkeypatch, capsys):
    """Right after `printshop init`: validate said "0 errors" and build "check the game and --lang
    names", watch "no face in the games and languages chosen", and the serve page was blank. Each
    now says there is no game yet and how to add one; serve shows the game once `printshop new` has
    written it."""
    from printshop.live.serve import Preview
    from printshop.live.session import Session
    from printshop.live.watch import describe

    folder = tmp_path / "fresh"
    assert main(["init", str(folder)]) == 0
    monkeypatch.chdir(folder)
    capsys.readouterr()
    assert main(["validate"]) == 0
    assert "no game in data/ yet: 'printshop new GAME' adds one" in capsys.readouterr().err
    assert main(["build"]) == 1
    assert "no game in data/ yet: 'printshop new GAME' adds one" in capsys.readouterr().err
    session = Session(folder / "data", folder / "output")
    assert describe(session.refresh(), session, first=True).startswith(
        "no game in data/ yet: 'printshop new GAME'"
    )
    preview = Preview(Session(folder / "data", None, render=False))
    preview.refresh()
    assert preview.state["empty"] and preview.state["games"] == []
    assert main(["new", "owls"]) == 0
    preview.refresh({folder / "data" / "owls"})
    assert not preview.state["empty"] and [game["id"] for game in preview.state["games"]] == [
        "owls"
    ], [d["text"] for d in preview.state["diagnostics"] if d["severity"] == "error"]
