"""Editing a translator's YAML text file in place: every comment, the translator's order, the line
endings and byte order mark kept.

`sync`, `confirm` (i18n.py) and a PO import (po.py) change texts through `set_text`, `remove_text`,
`unmark` and `keep_as_source` on the round-trip tree `load_root` reads, and write it back with
`write_as_it_was`; `dump_records` writes the record of which source text each translation was made
from (`<lang>.sources.yaml`).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.error import CommentMark
from ruamel.yaml.scalarstring import DoubleQuotedScalarString
from ruamel.yaml.tokens import CommentToken

from printshop.checks import translation_checks
from printshop.diagnostics import Report
from printshop.language.translation import TODO, Record
from printshop.project.source import read_yaml
from printshop.write.commit import write_atomically


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def dump(root) -> bytes:
    stream = io.StringIO()
    _yaml().dump(root, stream)
    return stream.getvalue().encode("utf-8")


def _comment_holder(mapping: CommentedMap, key):
    """The (mapping, key) whose end-of-line comment token carries the comment lines that follow
    `key`'s value: for a nested mapping, its last leaf."""
    value = mapping[key]
    while isinstance(value, CommentedMap) and len(value):
        mapping, key = value, list(value)[-1]
        value = mapping[key]
    return mapping, key


def _take_following_lines(mapping: CommentedMap, key) -> str:
    """Detach the full-line comments after `key` (they belong to whatever follows it)."""
    holder, holder_key = _comment_holder(mapping, key)
    slot = holder.ca.items.get(holder_key)
    token = slot[2] if slot and len(slot) > 2 else None
    if not isinstance(token, CommentToken):
        return ""
    head, newline, rest = token.value.partition("\n")
    token.value = head + newline
    return rest


def _give_following_lines(mapping: CommentedMap, key, lines: str) -> None:
    if not lines:
        return
    holder, holder_key = _comment_holder(mapping, key)
    slot = holder.ca.items.get(holder_key)
    token = slot[2] if slot and len(slot) > 2 else None
    if isinstance(token, CommentToken):
        token.value = token.value + lines
    else:
        holder.ca.items.setdefault(holder_key, [None, None, None, None])[2] = CommentToken(
            "\n" + lines, CommentMark(0), None
        )


def _set_todo(mapping: CommentedMap, key, on: bool) -> None:
    slot = mapping.ca.items.get(key)
    token = slot[2] if slot and len(slot) > 2 else None
    has = isinstance(token, CommentToken) and token.value.lstrip().startswith("# " + TODO)
    if on and not has:
        rest = token.value if isinstance(token, CommentToken) else "\n"
        mapping.ca.items.setdefault(key, [None, None, None, None])[2] = CommentToken(
            f" # {TODO}" + (rest if rest.startswith("\n") else "\n" + rest), CommentMark(0), None
        )
    elif not on and has:
        assert token is not None  # (`has` says it is a comment token)
        token.value = "\n" + token.value.partition("\n")[2]


def _insert(mapping: CommentedMap, key: str, value, order: list[str]) -> str:
    """Insert `key` after the last existing key that comes before it in `order`. Returns the comment
    lines that stood above the key it now precedes; the caller hands them back once the new
    entry is complete, so they stay above the key they describe."""
    rank = {k: i for i, k in enumerate(order)}
    keys = list(mapping)
    position = 0
    for index, existing in enumerate(keys):
        if rank.get(existing, len(order)) < rank.get(key, len(order)):
            position = index + 1
    following = (
        _take_following_lines(mapping, keys[position - 1]) if 0 < position < len(keys) else ""
    )
    mapping.insert(position, key, value)
    return following


def set_text(
    root: CommentedMap, text_id: str, text: str, source_order: list[str], *, todo: bool
) -> None:
    parts = text_id.split(".")
    node, first_new, following = root, None, ""
    for depth, part in enumerate(parts):
        order = _child_order(source_order, ".".join(parts[:depth]))
        last = depth == len(parts) - 1
        if part in node and (last or isinstance(node[part], CommentedMap)):
            if last:
                node[part] = DoubleQuotedScalarString(text)
            else:
                node = node[part]
            continue
        if part in node:  # a text where a group of texts belongs
            del node[part]
        lines = _insert(
            node, part, DoubleQuotedScalarString(text) if last else CommentedMap(), order
        )
        if first_new is None:
            first_new, following = (node, part), lines
        if not last:
            node = node[part]
    _set_todo(node, parts[-1], todo)
    if first_new is not None:
        _give_following_lines(*first_new, following)


def _child_order(source_order: list[str], prefix: str) -> list[str]:
    """Names directly under `prefix` (a dotted id, '' for the top) in source order."""
    names: dict[str, None] = {}
    start = prefix + "." if prefix else ""
    for text_id in source_order:
        if text_id.startswith(start):
            names.setdefault(text_id[len(start) :].split(".")[0], None)
    return list(names)


def remove_text(root: CommentedMap, text_id: str) -> None:
    parts = text_id.split(".")
    chain = [root]
    for part in parts[:-1]:
        chain.append(chain[-1][part])
    for depth in range(len(parts) - 1, -1, -1):
        mapping, key = chain[depth], parts[depth]
        if depth < len(parts) - 1 and len(mapping[key]):
            break
        keys = list(mapping)
        index = keys.index(key)
        following = _take_following_lines(mapping, key)
        del mapping[key]
        if index > 0:
            _give_following_lines(mapping, keys[index - 1], following)


_BOM = b"\xef\xbb\xbf"


def write_as_it_was(path: Path, data: bytes) -> None:
    """Write a translator's text file with the line endings (CRLF) and byte order mark it had, and
    not at all when that gives the bytes it has: a sync that added and moved nothing rewrote a
    Windows file to LF without its BOM, a change of every line to version control."""
    try:
        before = path.read_bytes()
    except OSError:
        before = b""
    if b"\r\n" in before:
        data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    if before.startswith(_BOM) and not data.startswith(_BOM):
        data = _BOM + data
    if data != before:
        write_atomically(path, data)


def load_root(path: Path) -> CommentedMap:
    if not path.exists():
        return CommentedMap()
    report = Report()
    document = read_yaml(path, report, preserve_quotes=True)
    if document is None or not isinstance(document.root, (CommentedMap, type(None))):
        raise SyncError(report)
    return document.root if document.root is not None else CommentedMap()


class SyncError(Exception):
    def __init__(self, report: Report):
        super().__init__("the translation file cannot be read")
        self.report = report


def dump_records(records: dict[str, Record], order: list[str]) -> bytes:
    root = CommentedMap()
    for text_id in order:
        if text_id in records:
            root[text_id] = CommentedMap(
                source=DoubleQuotedScalarString(records[text_id].source),
                translated=records[text_id].translated,
            )
    root.yaml_set_start_comment(
        "Written by 'printshop i18n sync': the source text each translation was made from.\n"
        "Do not edit; it is how printshop knows a translation went stale."
    )
    return dump(root)


def unmark(root: CommentedMap, text_id: str) -> None:
    """Take the `# TODO: translate` mark off a text, keeping every other comment."""
    mapping, key = _holder_of(root, text_id)
    _set_todo(mapping, key, False)


def _holder_of(root: CommentedMap, text_id: str) -> tuple[CommentedMap, str]:
    parts = text_id.split(".")
    mapping = root
    for part in parts[:-1]:
        mapping = mapping[part]
    return mapping, parts[-1]


def keep_as_source(root: CommentedMap, text_id: str, why: str) -> None:
    """A text the translator keeps as the text it is made from (`i18n confirm`, or the same text in
    a PO editor): its `# TODO: translate` mark becomes `# accept untranslated: <why>`, so that
    validate shows it as acknowledged and status and the build count it translated
    (translation.left_as_source), as it was meant. An `# accept` of other checks on the line gains
    `untranslated`; any other comment stays after the mark."""
    mapping, key = _holder_of(root, text_id)
    _set_todo(mapping, key, False)
    slot = mapping.ca.items.get(key)
    token = slot[2] if slot and len(slot) > 2 else None
    first, newline, rest = (
        token.value.partition("\n") if isinstance(token, CommentToken) else ("", "\n", "")
    )
    accepting = translation_checks.ACCEPT.search(
        first
    )  # `# accept code, code: why`, as validate reads it
    if accepting and "untranslated" in re.split(r"\s*,\s*", accepting.group(1)):
        return
    if accepting:
        first = f"{first[: accepting.end(1)]}, untranslated{first[accepting.end(1) :]}"
    else:
        first = f" # accept untranslated: {why}" + (f" {first.strip()}" if first.strip() else "")
    mapping.ca.items.setdefault(key, [None, None, None, None])[2] = (
        CommentToken(  # (as _set_todo writes a mark)
            first + (newline or "\n") + rest, CommentMark(0), None
        )
    )
