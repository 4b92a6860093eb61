"""The reference generated from the code (docs/data-format.md, docs/templates.md, schemas/) stays
equal to it: every data field is described, every name passed to templates is declared, the schemas
accept the project's data and refuse a misspelt key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from printshop.cli import main
from printshop.language.resolve import TEMPLATE_CONTEXT, TEMPLATE_KINDS, context_names
from printshop.project import json_schemas, reference, templates_reference
from printshop.project.schema import Node
from tests.conftest import REPO


def test_docs_are_generated_from_the_code():
    """Regenerate with: printshop docs"""
    for name, text in reference.doc_texts().items():
        assert (REPO / "docs" / name).read_text(encoding="utf-8") == text, (
            f"docs/{name}: run 'printshop docs'"
        )
    assert main(["docs", "--check"]) == 0


def test_schemas_are_generated_from_the_code():
    """Regenerate with: printshop schema"""
    texts = json_schemas.schema_texts()
    assert sorted(path.name for path in (REPO / "schemas").glob("*.json")) == sorted(texts)
    for name, text in texts.items():
        assert (REPO / "schemas" / name).read_text(encoding="utf-8") == text, (
            f"schemas/{name}: run 'printshop schema'"
        )


def test_the_schema_command_writes_elsewhere(tmp_path, capsys):
    assert main(["schema", "--out", str(tmp_path)]) == 0
    game = json.loads((tmp_path / "game.schema.json").read_text(encoding="utf-8"))
    bleed = game["$defs"]["Deck"]["properties"]["bleed"]
    assert bleed["description"] == "How far the faces are drawn past the trim."
    assert {"type": "string", "pattern": bleed["anyOf"][0]["pattern"]} in bleed[
        "anyOf"
    ]  # "3mm", not a number
    assert main(["schema", "--out", str(tmp_path)]) == 0
    assert "up to date" in capsys.readouterr().out


def test_docs_and_schemas_go_to_the_project_run_from_not_to_printshops_folder(
    tmp_path, monkeypatch, capsys
):
    """A publisher who runs `printshop schema` in their project gets schemas/ there (for their
    editor); it wrote into printshop's own folder (site-packages, for an installed printshop)."""
    project = tmp_path / "my-games"
    (project / "data").mkdir(parents=True)
    (project / "printshop.toml").write_text('data = "data"\n', encoding="utf-8")
    monkeypatch.chdir(project / "data")  # anywhere inside the project
    before = {
        path: path.stat().st_mtime_ns
        for path in [*(REPO / "schemas").iterdir(), *(REPO / "docs").iterdir()]
    }
    assert main(["schema"]) == 0 and main(["docs"]) == 0
    assert (project / "schemas" / "game.schema.json").is_file() and (
        project / "docs" / "templates.md"
    ).is_file()
    assert {path: path.stat().st_mtime_ns for path in before} == before
    assert main(["docs", "--check"]) == 0
    capsys.readouterr()


def _models() -> list[type[Node]]:
    return [
        model
        for data_file in reference.DATA_FILES
        if data_file.model is not None
        for model in json_schemas.all_models(data_file.model)
    ]


def test_every_field_of_every_data_file_has_a_description():
    """A field added to a model needs a docstring under it: the docs and the editors' hovers show
    it."""
    missing = [
        f"{model.__name__}.{name}"
        for model in _models()
        for name in model.model_fields
        if not reference.describe(model, name)
    ]
    assert missing == [], "add a docstring under each of these fields in printshop/project/models/"


def test_every_data_file_kind_and_key_is_in_the_data_format_doc():
    text = reference.data_format_markdown()
    for data_file in reference.DATA_FILES:
        assert f"## `{data_file.path}`" in text
    for model in _models():
        for name, field in model.model_fields.items():
            assert f"| `{field.alias or name}` |" in text, f"{model.__name__}.{name}"
    # units, defaults and descriptions as a publisher reads them
    assert (
        "| `bleed` | length (mm, cm, in or pt), 0 or more | required | "
        "How far the faces are drawn past the trim. |"
    ) in text
    assert (
        "| `count` | whole number, 1 to 1000 | `1` | How many copies of the card the deck holds. |"
        in text
    )
    assert "| `kind` | one of `rect`, `line`, `circle`, `motif`, `rays`, `image` |" in text
    assert "# accept <code>: <why>" in text and "# TODO: translate" in text
    assert '"yaml.schemas"' in text and "# yaml-language-server: $schema=" in text


@pytest.mark.parametrize("data_file", reference.DATA_FILES, ids=lambda data_file: data_file.kind)
def test_the_schemas_accept_the_project_data(data_file):
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft7Validator(
        json.loads((REPO / "schemas" / f"{data_file.kind}.schema.json").read_text())
    )
    from printshop.project.paths import PACKAGE_DEFAULTS_DIR

    # the project's files and printshop's own defaults (printshop/defaults/ mirrors data/'s layout)
    paths = sorted(REPO.glob(data_file.glob)) + sorted(
        PACKAGE_DEFAULTS_DIR.glob(data_file.glob.removeprefix("data/"))
    )
    assert paths, data_file.glob
    for path in paths:
        errors = [
            f"{list(error.path)}: {error.message}" for error in validator.iter_errors(_yaml(path))
        ]
        assert errors == [], path


def test_the_game_schema_refuses_a_misspelt_key():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft7Validator(
        json.loads((REPO / "schemas" / "game.schema.json").read_text())
    )
    game = _yaml(REPO / "data" / "comrade" / "game.yaml")
    game["decks"]["cards"]["cards"][3]["cuont"] = game["decks"]["cards"]["cards"][3].pop("count")
    game["decks"]["cards"]["bleed"] = 3  # a length without its unit
    messages = [error.message for error in validator.iter_errors(game)]
    assert any("'cuont' was unexpected" in message for message in messages), messages
    assert len(messages) == 2, messages


def _yaml(path: Path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


# --- the template context: what the code passes is what TEMPLATE_CONTEXT declares
# -----------------------
def _captured_contexts(monkeypatch) -> dict[str, list[dict]]:
    """Lay out Comrade Stalin (cards, a shared back, sheets with items, a booklet) and Kremlin
    (single sheets), noting each kind of template's context."""
    import printshop.layout.booklet as booklet_layout
    import printshop.layout.faces as layout
    from printshop.pipeline.build import check

    seen: dict[str, list[dict]] = {kind: [] for kind in TEMPLATE_KINDS}
    render_blocks, render_template = layout.render_blocks, booklet_layout.render_template

    def blocks(env, name, context):
        kind = "sheet" if "sheet" in context else "back" if context["card"] is None else "card"
        seen[kind].append(context)
        return render_blocks(env, name, context)

    def template(env, name, context):
        seen["booklet"].append(context)
        return render_template(env, name, context)

    monkeypatch.setattr(layout, "render_blocks", blocks)
    monkeypatch.setattr(booklet_layout, "render_template", template)
    report, checked = check(games=["comrade-stalin", "kremlin"], langs=["en"], variant=None)
    assert checked is not None and not report.has_errors, [d.format() for d in report.errors]
    seen["how-to-print"].append(_how_to_print_context(monkeypatch, checked))
    return seen


def _how_to_print_context(monkeypatch, checked) -> dict:
    import printshop.render.how_to_print as how_to_print
    from printshop.render.colour import Paints

    captured = {}
    original = how_to_print.render_template

    def template(env, name, context):
        captured.update(context)
        return original(env, name, context)

    monkeypatch.setattr(how_to_print, "render_template", template)
    project = checked.project
    layout = checked.layouts[0]
    files = [how_to_print.KitFile("x-en-cards-a4.pdf", 4, "cards")]
    from printshop.typeset.templating import make_environment

    how_to_print.render_how_to_print(
        layout,
        files,
        project.media.papers["a4"],
        project.booklet,
        Paints(project.colours.palette),
        project.motifs.motifs,
        make_environment(project.templates_dir),
        "x.pdf",
        flip="long-edge",
        calibration="c.pdf",
        low_ink=False,
    )
    return captured


def test_the_declared_context_is_what_each_kind_of_template_receives(monkeypatch):
    seen = _captured_contexts(monkeypatch)
    for kind in TEMPLATE_KINDS:
        assert seen[kind], f"no {kind} template was rendered"
        for context in seen[kind]:
            assert sorted(context) == sorted(context_names(kind)), (kind, sorted(context))
    assert all(kind in TEMPLATE_KINDS for entry in TEMPLATE_CONTEXT for kind in entry.kinds)
    text = templates_reference.templates_markdown()
    for entry in TEMPLATE_CONTEXT:
        assert f"| `{entry.name}` |" in text


def test_a_sheet_template_knows_its_copies_and_item(monkeypatch):
    seen = _captured_contexts(monkeypatch)
    influence = [context for context in seen["sheet"] if context["sheet"]["id"] == "influence"]
    assert influence and influence[0]["sheet"]["copies"] == 6 and influence[0]["item"] is None
    roles = [context for context in seen["sheet"] if context["sheet"]["id"] == "roles"]
    assert [context["item"]["number"] for context in roles] == list(range(1, len(roles) + 1))
    assert roles[0]["item"]["vars"] == roles[0]["card"]["vars"]
    assert roles[0]["sheet"]["items"][0] == roles[0]["item"]["id"]


def test_the_templates_doc_names_the_filters_and_the_markup():
    from printshop.typeset.richtext import INLINE, PARAGRAPH_TAGS
    from printshop.typeset.templating import make_environment

    text = templates_reference.templates_markdown()
    assert (
        "`fill(name=value, …)`" in text and "fill" in make_environment(REPO / "templates").filters
    )
    for tag in PARAGRAPH_TAGS | {"ul", "ol", "table", "spacer", "pagebreak", "art"}:
        assert f"| `<{tag}>` |" in text, tag
    for tag in INLINE:
        assert f"`<{tag}>`" in text or f"`<{tag}/>`" in text


@pytest.mark.parametrize(
    "kind, layer, wrong",
    [
        ("media", {"card_sizes": {"mini": {"width": "44mm", "height": "63mm"}}}, {"card_sizes": 5}),
        (
            "booklet",
            {"styles": {"h1": {"font": "sans-bold", "size": "16pt"}}},
            {"styles": {"h1": {"leading": "tall"}}},
        ),
        ("colours", {"palette": {"gold": "#e0b84a"}}, {"palette": ["gold"]}),
        ("language", {"labels": {"fronts": "recto"}}, {"labels": ["recto"]}),
    ],
)
def test_a_partial_layer_file_passes_its_schema_and_a_wrong_type_in_it_does_not(kind, layer, wrong):
    """Issue 56: a game's own print/media.yaml with only `card_sizes`, a booklet.yaml with only
    styles, a project's fr.yaml that changes one label: layers, accepted by validate, so by their
    schemas (which still refuse a value of the wrong kind)."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((REPO / "schemas" / f"{kind}.schema.json").read_text())
    validator = jsonschema.Draft7Validator(schema)
    assert list(validator.iter_errors(layer)) == []
    assert list(validator.iter_errors(wrong))


def test_the_editor_mapping_covers_a_games_own_print_files():
    text = (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
    for kind in ("media", "fonts", "colours", "motifs", "booklet"):
        assert f'"data/*/print/{kind}.yaml"' in text
