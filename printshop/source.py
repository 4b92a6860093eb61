"""Reading YAML data files so that every value keeps its file, line and column.

`read_yaml` never raises for bad input: syntax errors and duplicate keys become diagnostics.
`locate` turns a path of keys and indices inside a document into a `Location`, which is how
schema errors and later checks point at the exact place in the file.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from printshop.diagnostics import Location, Report


class _Constructor(RoundTripConstructor):
    """Keeps the first of two duplicate keys and records the second instead of aborting."""

    def check_mapping_key(self, node, key_node, mapping, key, value) -> bool:  # noqa: D102
        if key in mapping:
            first = mapping.lc.key(key) if key in mapping.lc.data else None
            self.duplicates.append((key, key_node.start_mark, first))
            return False
        return True


class Document:
    """A loaded YAML file: its root node and where it came from."""

    def __init__(self, path: Path, root: Any):
        self.path = path
        self.root = root

    def where(self, keys: Iterable[Any] = ()) -> Location:
        return locate(self.path, self.root, tuple(keys))


def _yaml(preserve_quotes: bool = False) -> YAML:
    yaml = YAML(typ="rt")
    yaml.Constructor = _Constructor
    yaml.preserve_quotes = preserve_quotes
    return yaml


def read_yaml(path: Path, report: Report, *, preserve_quotes: bool = False) -> Document | None:
    """Parse `path`; on failure add diagnostics to `report` and return None."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        report.add("file-missing", Location.of(path), f"{path.name} is missing")
        return None
    except UnicodeDecodeError as error:
        line = text_line_of_offset(path.read_bytes(), error.start)
        report.add("yaml-syntax", Location.of(path, line, 1), "the file is not UTF-8 text: save it as UTF-8")
        return None
    except OSError as error:
        report.add("file-missing", Location.of(path), f"cannot read the file: {error.strerror}")
        return None
    yaml = _yaml(preserve_quotes)
    try:
        loader = yaml.load  # the constructor instance is created lazily; give it a list
        yaml.constructor.duplicates = []
        root = loader(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        problem = " ".join(str(p) for p in (error.context, error.problem) if p)
        report.add("yaml-syntax", Location.of(path, line, col), f"YAML syntax: {problem}")
        return None
    except YAMLError as error:
        report.add("yaml-syntax", Location.of(path, 1, 1), f"YAML syntax: {error}")
        return None
    except RecursionError:
        report.add("yaml-syntax", Location.of(path, 1, 1), "YAML nesting is too deep")
        return None
    alias = _first_alias(root)
    if alias is not None:
        report.add("yaml-syntax", Location.of(path, *alias),
                   "YAML aliases (*name) are not supported in printshop data: write the value out")
        return None
    for key, mark, first in yaml.constructor.duplicates:
        also = f" (first at line {first[0] + 1})" if first else ""
        report.add("duplicate-key", Location.of(path, mark.line + 1, mark.column + 1),
                   f"the key '{key}' appears twice in one mapping{also}; the second is ignored")
    return Document(path, root)


def _first_alias(root: Any) -> tuple[int, int] | None:
    """Where a mapping or list is reached a second time (an alias), if anywhere. Aliases could
    make a small file expand into millions of values, so data files may not use them."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if not isinstance(node, (CommentedMap, CommentedSeq)):
            continue
        if id(node) in seen:
            line, col = _node_position(node)
            return line, col
        seen.add(id(node))
        stack.extend(node.values() if isinstance(node, CommentedMap) else node)
    return None


def text_line_of_offset(data: bytes, offset: int) -> int:
    return data[:offset].count(b"\n") + 1


def locate(path: Path, root: Any, keys: tuple[Any, ...], *, key_itself: bool = False) -> Location:
    """The location of the value reached by `keys` from `root`, or of the deepest node reached.

    With `key_itself`, the last key's own position (for "unknown key") rather than its value's.
    """
    node = root
    line, col = _node_position(root)
    for index, key in enumerate(keys):
        last = index == len(keys) - 1
        if isinstance(node, CommentedMap) and key in node:
            position = node.lc.key(key) if (last and key_itself) else node.lc.value(key)
            line, col = position[0] + 1, position[1] + 1
            node = node[key]
        elif isinstance(node, CommentedSeq) and isinstance(key, int) and 0 <= key < len(node):
            position = node.lc.item(key)
            line, col = position[0] + 1, position[1] + 1
            node = node[key]
        else:
            break
    return Location.of(path, line, col)


def _node_position(node: Any) -> tuple[int, int]:
    lc = getattr(node, "lc", None)
    if lc is not None and lc.line is not None:
        return lc.line + 1, lc.col + 1
    return 1, 1


def node_location(path: Path, node: Any) -> Location:
    line, col = _node_position(node)
    return Location.of(path, line, col)
