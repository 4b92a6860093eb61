"""Reference documentation and JSON Schemas generated from the code, so they cannot drift from it.

`docs/data-format.md` describes every data file and key from the pydantic models of models/ (the
docstring under each field is its description); `docs/templates.md` describes what each kind of
template receives, from `TEMPLATE_CONTEXT` in resolve.py, with the filters and the markup templates
emit. json_schemas.py writes `schemas/*.schema.json` from the same models and descriptions.
`printshop docs` writes them; tests/test_reference_docs.py keeps them equal.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import annotated_types
from pydantic import BaseModel

from printshop import memos
from printshop.project.models import (
    art,
    booklet,
    faces,
    game,
    glossary,
    language,
    media,
    profile,
    styles,
    targets,
    values,
)
from printshop.project.paths import REPOSITORY_DIR
from printshop.project.schema import Node

MODEL_MODULES = (
    values,
    media,
    profile,
    targets,
    art,
    styles,
    booklet,
    language,
    faces,
    game,
    glossary,
)

DOCS_DIR = REPOSITORY_DIR / "docs"
SCHEMAS_DIR = REPOSITORY_DIR / "schemas"


@dataclass(frozen=True)
class DataFile:
    kind: str  # the schema's name: schemas/<kind>.schema.json
    path: str  # where such files live
    glob: str  # the files an editor should check against the schema
    model: type[Node] | None  # None: a text file, which no model describes
    about: str
    # a layer over printshop's own file (the project's, then a game's data/<game>/print/): it may
    # hold any part of one, so its schema requires nothing (validate checks the merged whole)
    layered: bool = False

    @property
    def globs(self) -> tuple[str, ...]:
        """The files an editor checks against the schema: a layer's in a game's print/ too."""
        if self.layered and self.glob.startswith("data/print/"):
            return (self.glob, self.glob.replace("data/print/", "data/*/print/", 1))
        return (self.glob,)


DATA_FILES = (
    DataFile(
        "media",
        "data/print/media.yaml",
        "data/print/media.yaml",
        media.Media,
        "Paper and card sizes, and how print-and-play sheets are laid out on paper.",
        layered=True,
    ),
    DataFile(
        "fonts",
        "data/print/fonts.yaml",
        "data/print/fonts.yaml",
        art.Fonts,
        "The font families layouts and styles name. Files are looked up in `data/fonts/`, then among the "
        "Noto fonts that come with printshop.",
        layered=True,
    ),
    DataFile(
        "colours",
        "data/print/colours.yaml",
        "data/print/colours.yaml",
        art.Colours,
        "Every colour, named once. Other files name colours from this palette (`colour: red`); print-shop "
        "files convert them to the shop's CMYK. printshop's own palette (ink, ink-soft, paper, paper-deep, "
        "accent, grey, white) is always there; a game may add colours of its own in "
        "`data/<game>/print/colours.yaml`.",
        layered=True,
    ),
    DataFile(
        "motifs",
        "data/print/motifs.yaml",
        "data/print/motifs.yaml",
        art.Motifs,
        "Vector art (stars, hammers, eyes…) as SVG path data in a view box, drawn by faces and booklets "
        "at any size.",
        layered=True,
    ),
    DataFile(
        "booklet",
        "data/print/booklet.yaml",
        "data/print/booklet.yaml",
        booklet.BookletStyle,
        "The rules booklet's page, margins, folio and paragraph styles (also used by the how-to-print "
        "sheet).",
        layered=True,
    ),
    DataFile(
        "profile",
        "data/print/profiles/<name>.yaml",
        "data/print/profiles/*.yaml",
        profile.Profile,
        "What one print shop accepts; `printshop build --target shop --profile <name>` writes files for it "
        "and `printshop validate` checks every deck against it.",
    ),
    DataFile(
        "language",
        "data/languages/<lang>.yaml",
        "data/languages/*.yaml",
        language.Language,
        "A language: its names, its typography and translation checks, and the words printshop itself "
        "prints on pages (labels).",
        layered=True,
    ),
    DataFile(
        "game",
        "data/<game>/game.yaml",
        "data/*/game.yaml",
        game.Game,
        "A game's facts: players, decks and their cards, what the decks must hold, setup rules, sheets, "
        "the booklet. Words players read are never here: `title` and the like name text ids.",
    ),
    DataFile(
        "faces",
        "data/<game>/faces.yaml",
        "data/*/faces.yaml",
        faces.FacesFile,
        "The layouts of a game's card faces and sheets. Positions are measured from the top-left corner "
        "of the trim, y downwards. A face may `extends` another: it starts from the other's keys and "
        "merges its own over them, deeply (a frame that changes only `height` keeps the rest), and a key "
        "set to `null` removes it. A face's template has one `{% block %}` per frame, of the same name.",
    ),
    DataFile(
        "glossary",
        "data/<game>/glossary.yaml",
        "data/*/glossary.yaml",
        glossary.GlossaryFile,
        "A game's terms (phases, resources, card types, roles), each with its rendering in every "
        "language (optional). Validate warns where a translation renders a term otherwise "
        "(`glossary-term`): a rendering is found in a text when, accents and case aside (unless "
        "`case_sensitive`), each of its words begins a word of the text, in order; a word of eight "
        "letters or more needs all but its last two letters, one of five to seven all but its last "
        '("Remplacement" finds "remplacements"), a shorter word is a whole word; other forms go '
        "in `forms`. "
        "`printshop i18n glossary export` writes it as TBX or CSV for translation tools, and "
        "`i18n glossary import` reads them back.",
    ),
    DataFile(
        "text",
        "data/<game>/text/<lang>.yaml",
        "data/*/text/??.yaml",
        None,
        "Every sentence of a game in one language, by id.",
    ),
)


# --- descriptions: the docstring under each field of the models
# --------------------------------------
@memos.FIELD_DOCS
def field_docs() -> dict[str, dict[str, str]]:
    """{class name: {field name: the docstring written under the field}}, read from the models'
    source (pydantic could do it at import, but reading the source for every model would slow every
    run)."""
    docs: dict[str, dict[str, str]] = {}
    for node in (
        node for module in MODEL_MODULES for node in ast.parse(inspect.getsource(module)).body
    ):
        if not isinstance(node, ast.ClassDef):
            continue
        fields = docs.setdefault(node.name, {})
        for item, following in zip(node.body, node.body[1:] + [None]):
            if (
                isinstance(item, ast.AnnAssign)
                and isinstance(item.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                fields[item.target.id] = " ".join(inspect.cleandoc(following.value.value).split())
    return docs


def describe(cls: type[BaseModel], name: str) -> str:
    """A field's description, looked up through the classes it inherits from (Frame from TextStyle)."""
    for klass in cls.__mro__:
        text = field_docs().get(klass.__name__, {}).get(name)
        if text:
            return text
    return ""


# --- types in words
# ----------------------------------------------------------------------------------
def _validators() -> dict[Any, str]:
    """What a validator of models/values.py means, in words (looked up by name)."""
    from printshop.project.units import parse_length

    named = {
        "_hex_colour": "colour `#rrggbb`",
        "_identifier": "id (lower-case letters, digits, `-`, `_`)",
        "_positive": "more than 0",
        "_not_negative": "0 or more",
    }
    found = {getattr(values, name): text for name, text in named.items() if hasattr(values, name)}
    found[parse_length] = "length (mm, cm, in or pt)"
    return found


_KINDS = ("colour", "id", "length")  # a validator that says what the value is, not a bound on it


def words(hint: Any) -> str:
    """A type as a publisher reads it: "length (mm, cm, in or pt)", "list of texts", a link to a
    model."""
    if hint == values.Expression:
        return "expression in the player count (`n - 2`, `(n + 1) // 2`)"
    compound = _compound_words(typing.get_origin(hint), typing.get_args(hint))
    if compound is not None:
        return compound
    if isinstance(hint, str):  # a forward reference such as "Variant"
        return f"[{hint}](#{hint.lower()})"
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return f"[{hint.__name__}](#{hint.__name__.lower()})"
    return {str: "text", int: "whole number", float: "number", bool: "true or false"}.get(
        hint, str(hint)
    )


def _compound_words(origin: Any, args: tuple[Any, ...]) -> str | None:
    """`words` for a type made of others (annotated, a union, a literal, a list, a tuple, a dict),
    else None."""
    if origin is Annotated:
        found = [_validators().get(getattr(item, "func", None)) for item in args[1:]]
        meanings = [text for text in found if text]
        kinds = [text for text in meanings if text.startswith(_KINDS)]
        bounds = [text for text in meanings if not text.startswith(_KINDS)]
        return ", ".join([kinds[0] if kinds else words(args[0])] + bounds)
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in args if arg is not type(None)]
        return " or ".join(words(arg) for arg in options)
    if origin is Literal:
        return "one of " + ", ".join(f"`{value}`" for value in args)
    if origin is list:
        return f"list of {_plural(words(args[0]))}"
    if origin is tuple:
        if len(args) == 2 and args[0] == args[1]:
            return f"pair of {_plural(words(args[0]))}"
        return "list of " + ", ".join(words(arg) for arg in args)
    if origin is dict:
        key = "name" if args[0] is str else words(args[0])
        return f"{key} → {words(args[1])}"
    return None


def _is_length(hint: Any) -> bool:
    from printshop.project.units import parse_length

    hint = _unwrap_optional(hint)
    return typing.get_origin(hint) is Annotated and any(
        getattr(item, "func", None) is parse_length for item in typing.get_args(hint)[1:]
    )


def _plural(text: str) -> str:
    plurals = {
        "text": "texts",
        "number": "numbers",
        "whole number": "whole numbers",
        "pair": "pairs",
    }
    return " or ".join(
        " ".join([plurals.get(part.split(" ")[0], part.split(" ")[0])] + part.split(" ")[1:])
        if part.split(" ")[0] in plurals and part not in plurals
        else plurals.get(part, part)
        for part in text.split(" or ")
    )


def _bounds(field) -> str:
    """A field's limits in words: "1 to 1000", "more than 0, at most 400", "at least 4 long"."""
    low = high = ""
    lengths = []
    for item in field.metadata:
        if isinstance(item, annotated_types.Ge):
            low = f"at least {item.ge}"
        elif isinstance(item, annotated_types.Gt):
            low = f"more than {item.gt}"
        elif isinstance(item, annotated_types.Le):
            high = f"at most {item.le}"
        elif isinstance(item, annotated_types.Lt):
            high = f"less than {item.lt}"
        elif isinstance(item, annotated_types.MinLen) and item.min_length:
            lengths.append(f"at least {item.min_length} long")
        elif isinstance(item, annotated_types.MaxLen):
            lengths.append(f"at most {item.max_length} long")
    if low.startswith("at least") and high.startswith("at most"):
        return ", ".join([f"{low.split()[-1]} to {high.split()[-1]}"] + lengths)
    return ", ".join([part for part in (low, high) if part] + lengths)


def _default(name: str, field, hint: Any) -> str:
    if field.is_required():
        return "required"
    value = field.get_default(call_default_factory=True)
    if value is None:
        return "none"
    if isinstance(value, BaseModel):
        return "see below" if any(True for _ in type(value).model_fields) else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and _is_length(hint):
        return "0" if value == 0 else f"{value:g}pt"
    if isinstance(value, (list, dict)) and not value:
        return "none"
    if isinstance(value, str):
        return f"`{json.dumps(value, ensure_ascii=True) if not value.isprintable() or not value else value}`"
    dumped = json.dumps(_plain(value), ensure_ascii=False).replace('"', "")
    return f"`{dumped}`"


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump()
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _unwrap_optional(hint: Any) -> Any:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return options[0] if len(options) == 1 else hint
    return hint


@memos.MODEL_NAMESPACE
def model_namespace() -> dict[str, Any]:
    """Every name the model modules define or import: where a model's type hints are looked up."""
    return {name: value for module in MODEL_MODULES for name, value in vars(module).items()}


def models_in(hint: Any) -> list[type[BaseModel]]:
    """The models a field's type refers to, in order (a dict of Decks: Deck)."""
    if isinstance(hint, str):
        found = model_namespace().get(hint)
        return [found] if isinstance(found, type) and issubclass(found, BaseModel) else []
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return [hint]
    return [found for arg in typing.get_args(hint) for found in models_in(arg)]


# --- docs/data-format.md
# -------------------------------------------------------------------------------
def data_format_markdown() -> str:
    lines = [
        "# Data format",
        "",
        "Every data file printshop reads, and every key it may hold. This page is generated from the code",
        "(`printshop docs`); a test fails when it differs, so what it says is what `printshop validate` checks.",
        "",
        "How to read the tables: **key** is what you write in the file; **type** is the kind of value it",
        'takes; **default** is what it is when left out ("required" means it may not be left out). A model',
        "name such as [Deck](#deck) is a mapping of its own, described in its table.",
        "",
        "- **Lengths** always carry a unit: `63mm`, `0.3cm`, `0.125in`, `9pt` (zero may be written `0`).",
        "  Defaults are shown in points.",
        "- **Layers.** The files under `print/` and `languages/` exist up to three times: printshop's own",
        "  (`printshop/defaults/`), the project's (`data/`) and a game's (`data/<game>/print/`: colours, media,",
        "  fonts, booklet, motifs). Each extends or overrides the one below key by key: write only the keys",
        "  you add or change; `null` removes one. Profiles and languages may be added by name.",
        "- **Colours** are names from `print/colours.yaml` (`red`, `ink`), never codes, except in that",
        "  file itself.",
        "- **Fonts** are a family of `print/fonts.yaml`, optionally with `-bold`, `-italic` or",
        "  `-bold-italic`: `serif`, `sans-bold`.",
        "- A key the schema does not know is an error, with the closest valid key suggested; so is a",
        "  missing required key or a value of the wrong type. Every file's errors are reported in one run.",
        "- Comments (`# …`) are free everywhere.",
        "",
        "## Checking files while you type",
        "",
        "`printshop schema` writes a JSON Schema for each kind of file into `schemas/` (they are committed,",
        "so you need not run it). An editor with a YAML language server then completes keys, shows each",
        "key's description on hover and underlines mistakes before you run `printshop validate`. In VS Code,",
        "install the YAML extension (Red Hat) and add to the project's `.vscode/settings.json`:",
        "",
        "```json",
        "{",
        '  "yaml.schemas": {',
    ]
    entries = [
        f'    "./schemas/{f.kind}.schema.json": '
        + (
            f'"{f.globs[0]}"'
            if len(f.globs) == 1
            else "[" + ", ".join(f'"{g}"' for g in f.globs) + "]"
        )
        for f in DATA_FILES
    ]
    lines += [
        ",\n".join(entries),
        "  }",
        "}",
        "```",
        "",
        "A file elsewhere (another data folder, a test fixture) can name its schema on its first line",
        "instead, relative to the file:",
        "",
        "```yaml",
        "# yaml-language-server: $schema=../../schemas/game.schema.json",
        "```",
        "",
        "Text files of languages with longer codes (`pt-BR.yaml`) need their own pattern, such as",
        '`"data/*/text/pt-BR.yaml"`; the pattern `??.yaml` leaves out the `*.sources.yaml` records that',
        "`printshop i18n sync` writes, which are not text files. The schemas check shape only (keys, types,",
        "units); what the data means (references between files, deck composition, setup rules, texts that",
        "fit) is for `printshop validate`.",
        "",
        "## Files",
        "",
    ]
    lines += [
        f"- [`{f.path}`](#{_anchor(f.path)}): {f.about.split('. ')[0].rstrip('.')}."
        for f in DATA_FILES
    ]
    lines.append("")
    documented: set[str] = set()
    for data_file in DATA_FILES:
        lines += [f"## `{data_file.path}`", "", data_file.about, ""]
        if data_file.model is None:
            lines += _text_file_section()
            continue
        lines += _model_tables(data_file.model, documented)
    return "\n".join(lines).rstrip() + "\n"


def _anchor(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def _model_tables(root: type[BaseModel], documented: set[str]) -> list[str]:
    """A table for `root` (the file itself), then one for each model it leads to not yet documented."""
    lines = [f"Model: `{root.__name__}`.", ""]
    queue = [root]
    while queue:
        cls = queue.pop(0)
        if cls.__name__ in documented:
            continue
        documented.add(cls.__name__)
        hints = typing.get_type_hints(cls, include_extras=True, localns=model_namespace())
        if cls is not root:
            lines += [f"### {cls.__name__}", ""]
        if cls.__doc__:
            lines += [inspect.cleandoc(cls.__doc__), ""]
        base = next((b for b in cls.__bases__ if b is not Node and issubclass(b, Node)), None)
        if base is not None:
            lines += [f"Takes every key of [{base.__name__}](#{base.__name__.lower()}), and:", ""]
        lines += ["| key | type | default | description |", "|---|---|---|---|"]
        inherited = set(base.model_fields) if base is not None else set()
        nested: list[type[BaseModel]] = []
        for name, field in cls.model_fields.items():
            hint = hints[name]
            nested += models_in(hint)
            if name in inherited:
                continue
            kind = words(hint)
            bounds = _bounds(field)
            if bounds:
                kind += f", {bounds}"
            lines.append(
                f"| `{field.alias or name}` | {cell(kind)} | {cell(_default(name, field, hint))} | "
                f"{cell(describe(cls, name))} |"
            )
        lines.append("")
        if base is not None:
            queue.insert(0, base)
        queue += nested
    return lines


def cell(text: str) -> str:
    """A text made safe for one cell of a markdown table."""
    return text.replace("|", "\\|").replace("\n", " ")


def _text_file_section() -> list[str]:
    return (
        """Texts are nested mappings of keys to texts in quotes; a text's **id** is its keys joined by dots:

```yaml
card:
  informer:
    name: "Informer"          # the id card.informer.name
    goal: "Find the dissident: {count} cards stand in your way."
```

- **Keys** are lower-case letters, digits and `_`. Templates read a text by its id (`t.card.informer.name`)
  and may walk a group in the file's order, so the order of keys can matter (list items, steps).
- **Every language has every id** of the source language (`source_language` in game.yaml): a missing
  one is an error, one the source lacks is a warning. `printshop i18n sync <lang>` adds what a
  translation lacks and moves what the source dropped to an `obsolete:` section at the end, which is
  never printed.
- **Markup**: `<b>…</b>` bold, `<i>…</i>` italic, `<br/>` a line break; nothing else, and at most eight
  tags open at once. Anything else that looks like a tag is reported and printed as written.
- **Placeholders** such as `{count}` are filled by the template (`fill(count=…)`): a translation keeps
  the same placeholders as its source, spelt as the template spells them (`{age}`, not `{âge}`: a name in
  braces, in any alphabet, is a placeholder). Placeholders named in game.yaml's `text_variables` stand for
  other texts (`{mafias}` for the text of `role.mafia.plural`) and are replaced in every text.
- **Variants**: texts under `variant.<name>.` replace the ids they name when a kit is built with
  `--variant <name>` (and in `printshop watch` and `serve` with the same option).
- **Typography** follows the language file: typographic apostrophes, and in French the narrow no-break
  space before `; : ! ?` and inside « ».
- **`# accept <code>: <why>`** at the end of a text's line accepts a translation check's warning on
  purpose (`# accept number-mismatch: "a dozen" says 12 in words`); several codes are separated by
  commas. It is then reported as acknowledged and no longer fails `validate --strict`.
- **`# TODO: translate`** marks a copy of the source that `i18n sync` put in a translation: the text
  counts as untranslated (the translation is incomplete) until you edit it or run `i18n confirm`.
- Beside each translation, `text/<lang>.sources.yaml` records the source text each translation was made
  from, so a changed source makes it stale. `i18n sync` writes it: do not edit it.

See [TRANSLATING.md](../TRANSLATING.md) for the translators' workflow.
""".splitlines()
        + [""]
    )


class NotOurs(Exception):
    """Files a command would replace that printshop did not write (`write_texts`)."""

    def __init__(self, paths: list[Path]):
        super().__init__(paths)
        self.paths = paths


# --- docs/templates.md
# ---------------------------------------------------------------------------------
def doc_texts() -> dict[str, str]:
    """{file name under docs/: the text `printshop docs` writes}."""
    from printshop.project.templates_reference import templates_markdown

    return {"data-format.md": data_format_markdown(), "templates.md": templates_markdown()}


def write_texts(
    texts: dict[str, str], folder: Path, kind: str = "docs", force: bool = False
) -> list[Path]:
    """Write each file whose text changed; return those written. A file there that printshop did
    not write (commit.not_ours: without the mark of the `kind`) stops it, unless `force`: nothing
    is written, and NotOurs says which."""
    from printshop.write.commit import not_ours, write_atomically

    if not force:
        refused = not_ours([(folder / name, text.encode()) for name, text in texts.items()], kind)
        if refused:
            raise NotOurs(refused)
    written = []
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        path = folder / name
        data = text.encode("utf-8")
        if not path.is_file() or path.read_bytes() != data:
            write_atomically(path, data)
            written.append(path)
    return written
