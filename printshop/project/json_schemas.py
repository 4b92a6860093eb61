"""The JSON Schemas of the data files (schemas/*.schema.json), generated from the models so they
cannot drift from them: a YAML editor completes and checks a data file while it is typed.

Each schema is pydantic's, with the docstring under each field as its description (reference.py
reads them) and pydantic's generated titles left out; faces.yaml's is loosened, as a face that
`extends` another writes only what differs. `printshop schema` writes them;
tests/test_reference_docs.py keeps them equal.
"""

from __future__ import annotations

import json
import typing
from typing import Any

from pydantic import BaseModel

from printshop.project.models import faces
from printshop.project.reference import DATA_FILES, describe, model_namespace, models_in


def json_schemas() -> dict[str, dict]:
    """{file name: JSON Schema} for each kind of data file, with the fields' descriptions."""
    schemas = {}
    for data_file in DATA_FILES:
        if data_file.model is None:
            schema = _text_schema()
        else:
            schema = data_file.model.model_json_schema(by_alias=True)
            _describe_schema(data_file.model, schema)
            if data_file.model is faces.FacesFile:
                _loosen(schema["$defs"])
            elif data_file.layered:
                _unrequire(schema)
        schema = {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": data_file.path,
            "description": data_file.about,
            **{k: v for k, v in schema.items() if k not in ("title",)},
        }
        schemas[f"{data_file.kind}.schema.json"] = schema
    return schemas


def _describe_schema(root: type[BaseModel], schema: dict) -> None:
    """Put each field's docstring into its property, and drop pydantic's generated titles (noise in
    hovers)."""
    definitions = schema.get("$defs", {})
    models = {cls.__name__: cls for cls in all_models(root)}
    for name, definition in [(root.__name__, schema), *definitions.items()]:
        cls = models.get(name)
        definition.pop("title", None)
        if cls is None:
            continue
        for field_name, field in cls.model_fields.items():
            prop = definition.get("properties", {}).get(field.alias or field_name)
            if prop is None:
                continue
            prop.pop("title", None)
            text = describe(cls, field_name)
            if text:
                prop["description"] = text


def _unrequire(node: Any) -> None:
    """A layer file (a project's or a game's print/media.yaml with only `card_sizes`, a
    booklet.yaml with only styles, a language file that changes one label): any part of the whole
    file, so nothing in it is required; validate checks the merged result."""
    if isinstance(node, dict):
        node.pop("required", None)
        for value in node.values():
            _unrequire(value)
    elif isinstance(node, list):
        for item in node:
            _unrequire(item)


def _loosen(node: Any) -> None:
    """faces.yaml: a face that `extends` another writes only what differs, and `null` removes a key,
    so no key is required and any may be null; validate checks each face once merged."""
    if isinstance(node, dict):
        node.pop("required", None)
        for key in ("properties",):
            for name, prop in node.get(key, {}).items():
                _loosen(prop)
                node[key][name] = _nullable(prop)
        if isinstance(node.get("additionalProperties"), dict):
            _loosen(node["additionalProperties"])
            node["additionalProperties"] = _nullable(node["additionalProperties"])
        for value in node.values():
            if isinstance(value, dict) and value is not node.get("additionalProperties"):
                _loosen(value)
    elif isinstance(node, list):
        for item in node:
            _loosen(item)


def _nullable(prop: dict) -> dict:
    options = prop.get("anyOf", [])
    if {"type": "null"} in options or prop.get("type") == "null":
        return prop
    description = prop.get("description")
    inner = {key: value for key, value in prop.items() if key not in ("description", "default")}
    wrapped = {"anyOf": [inner, {"type": "null"}]}
    if description:
        wrapped["description"] = description
    return wrapped


def all_models(root: type[BaseModel]) -> list[type[BaseModel]]:
    seen, queue = [], [root]
    while queue:
        cls = queue.pop()
        if cls in seen:
            continue
        seen.append(cls)
        hints = typing.get_type_hints(cls, include_extras=True, localns=model_namespace())
        for name in cls.model_fields:
            queue += models_in(hints[name])
    return seen


def _text_schema() -> dict:
    return {
        "type": "object",
        "propertyNames": {"pattern": "^[a-z0-9][a-z0-9_]*$"},
        "additionalProperties": {"anyOf": [{"type": "string"}, {"$ref": "#"}]},
    }


def schema_texts() -> dict[str, str]:
    """{file name: the text `printshop schema` writes}."""
    return {
        name: json.dumps(schema, ensure_ascii=False, indent=2) + "\n"
        for name, schema in json_schemas().items()
    }
