"""faces.yaml read: each face's `extends` resolved (the child's keys merged over its parent's,
deeply, every value keeping the line it was written on), then validated as faces; a fault in a face
that others extend is said once, naming the faces that inherit it."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from ruamel.yaml.comments import CommentedMap

from printshop import memos
from printshop.diagnostics import Diagnostic, Report, did_you_mean
from printshop.project.models.faces import Face, FacesFile
from printshop.project.schema import validate_document
from printshop.project.source import Document, items_of, locate, read_yaml


def load_faces(path: Path, report: Report) -> dict[str, Face] | None:
    """Faces may `extends` another face: the child's keys are merged over the parent's, deeply."""
    document = read_yaml(path, report)
    if document is None:
        return None
    root = document.root
    if not isinstance(root, CommentedMap) or not isinstance(root.get("faces"), CommentedMap):
        report.add("missing-field", document.where(), "faces.yaml needs a mapping 'faces'")
        return None
    raw = root["faces"]
    known = _MERGED.get(id(root))
    if known is not None and known[0] is root:
        merged = known[1]
    else:
        before = len(report.items)
        merged = _merged_faces(root, document, report)
        if len(report.items) == before:  # (what it reports names this file: said at every read)
            _MERGED[id(root)] = (root, merged)
    found = Report()
    faces = validate_document(FacesFile, Document(path, merged), found)
    report.extend(_inherited_once(found, raw))
    return faces.faces if faces is not None else None


def _merged_faces(root: CommentedMap, document: Document, report: Report) -> CommentedMap:
    """faces.yaml's map with each face's `extends` resolved: its parent's keys merged under its own."""
    merged = CommentedMap()
    merged.lc.line, merged.lc.col = root.lc.line, root.lc.col
    resolved = CommentedMap()
    _copy_position(root, "faces", resolved_parent=merged, key="faces")
    merged["faces"] = resolved
    raw = root["faces"]
    resolved.lc.line, resolved.lc.col = raw.lc.line, raw.lc.col
    for name in raw:
        node = _resolve_extends(raw, name, document, report, ())
        if node is not None:
            resolved[name] = node
            _copy_position(raw, name, resolved_parent=resolved, key=name)
    for key in root:
        if key != "faces":
            merged[key] = root[key]
            _copy_position(root, key, resolved_parent=merged, key=key)
    return merged


# faces.yaml's maps with their faces' `extends` resolved, by the document read (source.py gives the
# same one for the same text, read again or in a copy of the data: a check of a copy merged every
# face again), kept with it; only those merged without a diagnostic. Nothing changes a merged map
# once made: the faces are validated from it
_MERGED = memos.MERGED_FACES

_FACE_PATH = re.compile(r"^'faces\.([^.']+)\.")


def _inherited_once(found: Report, raw: CommentedMap) -> list:
    """A fault in a face that others extend is met in each of them, at the same place: one
    diagnostic, the face it is written in named, with the faces that inherit it
    ("'faces.role.frames.title.height': a size must be more than 0 (inherited by faces 'chairman',
    'comrade' …)"), not one per face."""
    positions = raw.lc.data or {}  # (a face brought in by a YAML merge key has none)
    starts = sorted(
        (positions[name][0] + 1, name)
        for name in raw
        if isinstance(name, str) and name in positions
    )

    def written_in(line: int) -> str | None:
        names = [name for start, name in starts if start <= line]
        return names[-1] if names else None

    groups: dict[tuple, list] = {}
    for item in found.items:
        matched = _FACE_PATH.match(item.message)
        shape = _FACE_PATH.sub("'faces.*.", item.message) if matched else item.message
        groups.setdefault((item.code, item.location, shape), []).append(
            (matched.group(1) if matched else None, item)
        )
    kept: list[Diagnostic] = []
    for members in groups.values():
        named = [name for name, _ in members if name is not None]
        if len(named) < 2:
            kept.extend(item for _, item in members)
            continue
        home = written_in(members[0][1].location.line)
        own = next((item for name, item in members if name == home), members[0][1])
        others = [name for name in named if name != (home if home in named else named[0])]
        kept.append(
            replace(
                own,
                message=f"{own.message} (inherited by face{'s' if len(others) != 1 else ''} "
                f"{', '.join(repr(name) for name in others)})",
            )
        )
    return kept


def _resolve_extends(
    raw: CommentedMap, name: str, document: Document, report: Report, chain: tuple
):
    node = raw[name]
    if not isinstance(node, CommentedMap):
        return node  # the schema reports the wrong type
    parent_name = node.get("extends")
    if parent_name is None:
        return node
    where = locate(document.path, document.root, ("faces", name, "extends"))
    if not isinstance(parent_name, str):
        report.add("wrong-type", where, f"face '{name}': 'extends' names one face, as a string")
        return None
    if parent_name in chain + (name,):
        report.add(
            "unknown-reference",
            where,
            f"face '{name}' extends itself through {' -> '.join(chain + (name,))}",
        )
        return None
    if parent_name not in raw:
        report.add(
            "unknown-reference",
            where,
            f"face '{name}' extends '{parent_name}', which does not exist"
            f"{did_you_mean(parent_name, [face for face in raw if face != name])} (faces: {', '.join(raw)})",
        )
        return None
    parent = _resolve_extends(raw, parent_name, document, report, chain + (name,))
    if parent is None:
        return None
    merged = deep_merge(parent, node)
    merged.pop("abstract", None)
    if "abstract" in node:
        merged["abstract"] = node["abstract"]
        _copy_position(node, "abstract", resolved_parent=merged, key="abstract")
    return merged


def deep_merge(base: CommentedMap, over: CommentedMap) -> CommentedMap:
    """`over` merged onto `base`; every value keeps the position where it was written; null deletes."""
    result = CommentedMap()
    where = result.lc
    where.line, where.col = over.lc.line, over.lc.col
    for source in (base, over):
        positions = source.lc.data
        for key, value in items_of(source):
            if value is None and source is over:
                result.pop(key, None)
                continue
            if source is over and isinstance(value, CommentedMap):
                below = dict.get(result, key)  # (result is a new map: no merge keys of its own)
                if isinstance(below, CommentedMap):
                    value = deep_merge(below, value)
            result[key] = value
            if positions and key in positions:
                where.add_kv_line_col(key, list(positions[key]))
    return result


def _copy_position(source: CommentedMap, source_key, *, resolved_parent: CommentedMap, key) -> None:
    if source.lc.data and source_key in source.lc.data:
        resolved_parent.lc.add_kv_line_col(key, list(source.lc.data[source_key]))
