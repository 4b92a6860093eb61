"""Shared print data in layers: what printshop ships, what the project adds, what a game adds.

The same file name (`print/media.yaml`, `print/colours.yaml`, `print/profiles/eu-3mm.yaml`,
`languages/fr.yaml`…) may stand in up to three folders:

1. `printshop/defaults/` inside the package: papers, card sizes, shop profiles, the bundled fonts,
   a neutral palette, booklet styles, the labels of English and French;
2. the project's `data/`: the publisher's palette, art, its own shops and languages;
3. a game's own folder (`data/<game>/print/…`): the look of that game only.

Each layer extends or overrides the one below **key by key**: mappings merge, anything else is
replaced, and `null` removes a key. Every value keeps the file, line and column it was written at,
so a diagnostic about a game's colour points into the game's file, not into the package's.
"""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml.comments import CommentedMap

from printshop.diagnostics import Report
from printshop.project.paths import PACKAGE_DEFAULTS_DIR
from printshop.project.source import Document, items_of, read_yaml


def layer_dirs(data_dir: Path, game_dir: Path | None = None) -> list[Path]:
    """The folders a shared file is looked for in, lowest first."""
    return [PACKAGE_DEFAULTS_DIR, Path(data_dir)] + (
        [Path(game_dir)] if game_dir is not None else []
    )


def read_layered(relative: str, dirs: list[Path], report: Report) -> Document | None:
    """`relative` (e.g. "print/media.yaml") read from every folder that has it and merged, lowest
    first; None when no folder has it or one of them cannot be read (reported)."""
    documents = []
    for folder in dirs:
        path = folder / relative
        if path.is_file():
            document = read_yaml(path, report)
            if document is None:
                return None
            documents.append(document)
    if not documents:
        return None
    merged = documents[0]
    for document in documents[1:]:
        if not isinstance(merged.root, CommentedMap) or not isinstance(document.root, CommentedMap):
            # a file that is not a mapping replaces what lies below (the schema says why)
            merged = document
            continue
        merged = Document(
            document.path, merge(merged.root, merged.path, document.root, document.path)
        )
    return merged


def names_in(relative_dir: str, dirs: list[Path]) -> list[str]:
    """The stems of the YAML files in `relative_dir` of any layer (e.g. the profiles), sorted."""
    return sorted({path.stem for folder in dirs for path in (folder / relative_dir).glob("*.yaml")})


def merge(base: CommentedMap, base_path: Path, over: CommentedMap, over_path: Path) -> CommentedMap:
    """`over` merged onto `base`. The result records, for every key, the file its value was written
    in (`origins`), which `source.locate` and the schema read, so positions stay true across files."""
    result = CommentedMap()
    where = result.lc
    where.line, where.col = over.lc.line, over.lc.col
    origins: dict[object, Path] = {}
    result.origins = origins  # type: ignore[attr-defined]  # an attribute of ours on ruamel's map
    for source, path in ((base, base_path), (over, over_path)):
        own = getattr(source, "origins", {})
        positions = source.lc.data
        for key, value in items_of(source):
            if value is None and source is over:
                result.pop(key, None)
                origins.pop(key, None)
                continue
            origin = own.get(key, path)
            if source is over and isinstance(value, CommentedMap):
                below = dict.get(result, key)  # (result is a new map: no merge keys of its own)
                if isinstance(below, CommentedMap):
                    value = merge(below, origins[key], value, origin)
            result[key] = value
            origins[key] = origin
            if positions and key in positions:
                where.add_kv_line_col(key, list(positions[key]))
    return result


def origin_of(node, key, path: Path) -> Path:
    """The file the value under `key` of `node` was written in (`path` unless layers were merged)."""
    origins = getattr(node, "origins", None)
    return origins.get(key, path) if origins else path
