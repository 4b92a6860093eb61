"""Checking a YAML document against a pydantic model, with every error placed at file:line:col.

Models derive from `Node`: unknown keys are errors (with the closest valid key suggested), and
after validation each node remembers where it and each of its fields stood in the file, so that
later checks (composition, overflow, ...) can point at the data that caused them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError, WithJsonSchema
from pydantic_core import ErrorDetails
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from printshop import memos
from printshop.diagnostics import Location, Report, did_you_mean, display_path
from printshop.project.source import LINE_COL, Document, items_of, locate, node_position
from printshop.project.units import LENGTH as LENGTH_PATTERN
from printshop.project.units import parse_length

# what an editor's YAML language server checks a length against (printshop schema): a number and a
# unit, or 0
LENGTH_JSON_SCHEMA = {
    "anyOf": [{"type": "string", "pattern": LENGTH_PATTERN.pattern}, {"const": 0}],
    "examples": ["63mm", "0.125in", "9pt"],
}
Length = Annotated[float, BeforeValidator(parse_length), WithJsonSchema(LENGTH_JSON_SCHEMA)]
"""A length in points, written in data with a unit ("63mm")."""


class Node(BaseModel):
    """A model read from a data file, which knows where it and each of its fields were written.

    The positions live in pydantic's dict of private values (`__pydantic_private__`), written by
    `attach_locations`: "_where" (the node) and "_node" (its YAML, from which `where` reads a
    field's place, kept in "_field_read", and `covers` works out the last line it reaches,
    "_last_line", when first asked); a map layered from several files has "_field_where" instead
    (field name -> where its value was written). They are not declared as private attributes:
    pydantic would then work out each one's default for every model it makes, a tenth of loading the
    catalogue."""

    # defer_build: pydantic makes a model's validator when the model is first used, not when the
    # class is made. A build of one game uses about a third of the 60-odd models; the others are
    # never built in that run (importing printshop.project.models takes 10-20 ms less)
    model_config = ConfigDict(extra="forbid", frozen=False, populate_by_name=True, defer_build=True)

    def where(self, field: str | None = None) -> Location:
        """Where this node (or one of its fields) was written; the node itself if the field was not."""
        private = self.__pydantic_private__ or {}
        if field is not None:
            fields = private.get("_field_where")
            if fields is not None:  # a map layered from several files: kept by attach_locations
                if field in fields:
                    where = fields[field]
                    if (
                        type(where) is tuple
                    ):  # kept as (path, line, column): made a Location once, here
                        where = fields[field] = Location(*where)
                    return where
            else:  # one file's: read from the node when first asked, then kept
                known = private.get("_field_read")
                if known is not None and field in known:
                    return known[field]
                node, own = private.get("_node"), private.get("_where")
                positions = (
                    node.lc.data if isinstance(node, CommentedMap) and own is not None else None
                )
                key = _aliases(type(self)).get(field, field)
                if positions and key in positions and own is not None:  # (`positions` says it is)
                    position = positions[key]
                    where = Location(own.path, position[2] + 1, position[3] + 1)
                    if known is None:
                        known = private["_field_read"] = {}
                    known[field] = where
                    return where
        return private.get("_where") or Location("<built-in>")

    def covers(self, location: Location) -> bool:
        """Whether `location` lies in the lines this node was written on (a diagnostic about it or
        its contents, such as a card's var): layout skips what an error in the data already
        explains."""
        private = self.__pydantic_private__ or {}
        where = private.get("_where")
        if where is None or where.path != location.path or location.line < where.line:
            return False
        last = private.get("_last_line")
        if last is None:
            node = private.get("_node")
            last = private["_last_line"] = _last_line(node) + 1 if node is not None else 0
        return location.line <= max(where.line, last)


def node_of(model: Node) -> Any:
    """The YAML a node was read from (None for a node made in code): for the place of something
    inside one of its fields, such as an item of a list."""
    return (model.__pydantic_private__ or {}).get("_node")


def place_as(value: Node, model: Node) -> None:
    """Give `value`, made in code from `model` (a card a deck's `generate` makes), `model`'s place:
    its fields are then found at `model`'s keys of the same names, or at `model` itself."""
    private = model.__pydantic_private__ or {}
    object.__setattr__(
        value,
        "__pydantic_private__",
        {key: private[key] for key in ("_where", "_node", "_field_where") if key in private},
    )


M = TypeVar("M", bound=BaseModel)


def validate_document(
    model: type[M], document: Document, report: Report, *, keys: tuple = ()
) -> M | None:
    """Validate the part of `document` at `keys` as `model`; report errors and return None on
    failure. Where the only faults are unknown keys (a misspelt or future field), they are
    reported and the rest is validated without them, so the checks that follow still run on the
    document and one typo does not hide every other error in the game."""
    node = document.root
    for key in keys:
        node = node[key]
    if node is None:
        node = CommentedMap()
    data = plain(node)
    try:
        result = model.model_validate(data)
    except ValidationError as error:
        items = error.errors()
        for item in items:
            _report_error(model, document, keys + tuple(item["loc"]), item, report)
        if not all(item["type"] == "extra_forbidden" for item in items):
            return None
        for item in items:
            _drop(data, item["loc"])
        try:
            result = model.model_validate(data)
        except ValidationError:
            return None
    attach_locations(result, node, document.path)
    return result


def _drop(data: Any, loc: tuple) -> None:
    """Remove the key at `loc` (pydantic's path of an unknown key) from the plain `data`."""
    for step in loc[:-1]:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return
    if isinstance(data, dict):
        data.pop(loc[-1], None)


def plain(node: Any) -> Any:
    """The same maps and lists as plain dicts and lists, for pydantic: it reads a CommentedMap
    through ruamel's Python-level views (an iterator and a `get` per key, a fifth of loading a
    deck), a dict in C. Scalars are kept as they are; a map with `<<` merge keys is read through
    ruamel, which resolves them."""
    if isinstance(node, CommentedMap):
        return {
            key: plain(value) if isinstance(value, (CommentedMap, CommentedSeq)) else value
            for key, value in items_of(node)
        }
    if isinstance(node, CommentedSeq):
        return [
            plain(value) if isinstance(value, (CommentedMap, CommentedSeq)) else value
            for value in list.__iter__(node)
        ]
    return node


def _report_error(
    model: type[BaseModel], document: Document, loc: tuple, item: ErrorDetails, report: Report
) -> None:
    kind = item["type"]
    path = document.path
    loc = _data_path(document.root, loc)
    if kind == "extra_forbidden" and loc:
        where = locate(path, document.root, loc, key_itself=True)
        valid = _field_names_at(model, loc[:-1])
        suggestion = did_you_mean(str(loc[-1]), valid)
        listing = f" (valid keys: {', '.join(valid)})" if valid and not suggestion else ""
        report.add("unknown-key", where, f"unknown key '{loc[-1]}'{suggestion}{listing}")
    elif (
        loc and loc[-1] == "[key]"
    ):  # a mapping's key failed (an id that is not one): point at the key itself
        where = locate(path, document.root, loc[:-1], key_itself=True)
        message = item["msg"].removeprefix("Value error, ")
        report.add(
            "unsafe-path" if "valid id" in message else "wrong-type",
            where,
            f"the key '{loc[-2]}' of '{_dotted(loc[:-2])}': {message[0].lower() + message[1:]}",
        )
    elif kind == "missing" and loc:
        where = locate(path, document.root, loc[:-1])
        report.add("missing-field", where, f"'{_dotted(loc)}' is required but missing")
    else:
        where = locate(path, document.root, loc)
        message = item["msg"]
        if kind == "value_error":
            message = message.removeprefix("Value error, ")
        if kind in _PLAIN:  # pydantic's words ("a valid dictionary or instance of Players") plain
            message = f"{_PLAIN[kind]}, not {kind_of(item.get('input'))}"
        report.add("wrong-type", where, f"'{_dotted(loc)}': {message[0].lower() + message[1:]}")


_MAPPING = "should be a mapping of keys and values (key: value on lines below it, or {key: value})"
# pydantic's error types whose message names Python types, said in the words of YAML
_PLAIN = {
    "dict_type": _MAPPING,
    "model_type": _MAPPING,
    "model_attributes_type": _MAPPING,
    "int_type": "should be a whole number",
    "int_parsing": "should be a whole number",
    "int_from_float": "should be a whole number, without decimals",
    "float_type": "should be a number",
    "float_parsing": "should be a number",
    "bool_type": "should be true or false",
    "bool_parsing": "should be true or false",
    "string_type": "should be a text",
    "list_type": "should be a list (- item on lines below it, or [a, b])",
}


def kind_of(value: Any) -> str:
    """What a YAML value is, in a reader's words (never a Python class name)."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (true or false)"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text '{value[:40]}'"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "a mapping of keys and values"
    return "another kind of value"


_UNION_TAG = re.compile(
    r"^(str|int|float|bool|list|dict|none|function-(after|before|wrap|plain))(\[.*\])?$"
)


def _data_path(root: Any, loc: tuple) -> tuple:
    """pydantic's error path with the names of tried union members removed: an element stays if
    the data has it, or if it does not look like such a name (a missing or unknown key)."""
    node, path = root, []
    for key in loc:
        if isinstance(node, CommentedMap) and key in node:
            node = node[key]
        elif isinstance(node, CommentedSeq) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
        elif isinstance(key, str) and _UNION_TAG.match(key):
            continue
        else:
            node = None
        path.append(key)
    return tuple(path)


def _dotted(loc: tuple) -> str:
    return ".".join(str(k) for k in loc) or "(document)"


def _field_names_at(model: type[BaseModel], loc: tuple) -> list[str]:
    """The valid keys of the model reached by following `loc` through the schema."""
    current: Any = model
    for key in loc:
        current = _descend(current, key)
        if current is None:
            return []
    if isinstance(current, type) and issubclass(current, BaseModel):
        return sorted(f.alias or name for name, f in current.model_fields.items())
    return []


def _descend(annotation: Any, key: Any) -> Any:
    import typing

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        field = annotation.model_fields.get(key) or next(
            (f for f in annotation.model_fields.values() if f.alias == key), None
        )
        return _unwrap(field.annotation) if field else None
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (list, tuple) and args:
        return _unwrap(args[0])
    if origin is dict and len(args) == 2:
        return _unwrap(args[1])
    return None


def _unwrap(annotation: Any) -> Any:
    """Strip Optional[...] and Annotated[...] to the model inside, if any."""
    import types
    import typing

    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            inner = _unwrap(arg)
            if (
                isinstance(inner, type)
                and issubclass(inner, BaseModel)
                or typing.get_origin(inner) in (list, dict)
            ):
                return inner
    return annotation


def attach_locations(value: Any, node: Any, path: Path) -> None:
    """Walk a validated model and the YAML it came from together, recording positions."""
    _attach(value, node, path, {})


_NESTED = (
    BaseModel,
    list,
    dict,
)  # what `_attach` walks into: scalars carry no positions of their own


def _line_col(node: Any):
    """A node's LineCol without ruamel's `lc` property, which makes one when the node has none."""
    return getattr(node, LINE_COL, None)


def _attach(value: Any, node: Any, path: Path, shown: dict) -> None:
    # (the private values written into pydantic's dict of them, and each file's path as shown worked
    # out once per walk: a thousand-card deck has thousands of nodes, and this was a fifth of
    # loading it. A field's position is kept as (path, line, column) and made a Location when asked
    # for: most never are)
    if isinstance(value, Node):
        where = shown.get(path)
        if where is None:
            where = shown[path] = display_path(path)
        private = value.__pydantic_private__
        if private is None:
            private = {}
            object.__setattr__(value, "__pydantic_private__", private)
        line, col = node_position(node)
        private["_where"] = Location(where, line, col)
        private["_node"] = node  # for `covers` and `where`, which are rarely asked
        if not isinstance(node, CommentedMap):
            return
        names = _field_names(type(value))
        origins = getattr(node, "origins", None)
        if not origins:
            # one file: a field's place is read from the node when asked (Node.where); most never
            # are
            for key, child in items_of(node):
                name = names.get(key)
                if name is not None:
                    item = getattr(value, name)
                    if isinstance(item, _NESTED):
                        _attach(item, child, path, shown)
            return
        _attach_layered(value, node, path, shown, private, names, origins)
    elif isinstance(value, list) and isinstance(node, CommentedSeq):
        for item, child in zip(value, list.__iter__(node)):
            if isinstance(item, _NESTED):
                _attach(item, child, path, shown)
    elif isinstance(value, dict) and isinstance(node, CommentedMap):
        origins = getattr(node, "origins", None)
        for key, item in value.items():
            if isinstance(item, _NESTED) and key in node:
                _attach(item, node[key], origins.get(key, path) if origins else path, shown)


def _attach_layered(
    value: Node,
    node: CommentedMap,
    path: Path,
    shown: dict,
    private: dict,
    names: dict,
    origins: dict,
) -> None:
    """`_attach` for a map layered from several files (layers.py): each field's place kept at once,
    in the file that wrote it (`origins`, by key; `path` for a key no layer named)."""
    # a map layered from several files (layers.py): each field at the file that wrote it
    fields = private.get("_field_where")
    if fields is None:
        fields = private["_field_where"] = {}
    data = node.lc.data
    for key, child in items_of(node):
        name = names.get(key)
        if name is None:
            continue
        position = data[key]
        origin = origins.get(key, path) if origins else path
        where = shown.get(origin)
        if where is None:
            where = shown[origin] = display_path(origin)
        fields[name] = (where, position[2] + 1, position[3] + 1)
        item = getattr(value, name)
        if isinstance(item, _NESTED):
            _attach(item, child, origin, shown)


@memos.FIELD_NAMES
def _field_names(model: type[BaseModel]) -> dict[str, str]:
    """A model's keys as written in data (a field's alias, else its name) -> the field's name."""
    return {field.alias or name: name for name, field in model.model_fields.items()}


@memos.ALIASES
def _aliases(model: type[BaseModel]) -> dict[str, str]:
    """A model's field names -> their keys as written in data (`_field_names` the other way)."""
    return {name: field.alias or name for name, field in model.model_fields.items()}


def _last_line(node: Any) -> int:
    """The last line (from 0) a YAML node's content reaches: its last key's or item's value, deepest
    first."""
    line = -1
    while True:
        if isinstance(node, CommentedMap) and len(node):
            key = next(reversed(node))
            where = _line_col(node)
            position = where.data.get(key) if where is not None and where.data else None
            line = max(line, position[2] if position else -1)
            node = node[key]
        elif isinstance(node, CommentedSeq) and len(node):
            where = _line_col(node)
            position = where.data.get(len(node) - 1) if where is not None and where.data else None
            line = max(line, position[0] if position else -1)
            node = list.__getitem__(node, -1)
        else:
            where = _line_col(node)
            return max(line, where.line if where is not None and where.line is not None else -1)
