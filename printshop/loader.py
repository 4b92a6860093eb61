"""Stage 1, load: read every data file of a project into models, reporting what is malformed.

A project folder (`data/`) holds shared print data (`print/`), language descriptions
(`languages/`) and one folder per game with `game.yaml`, `faces.yaml` and `text/<lang>.yaml`.
Loading checks shape only (keys, types, required fields, duplicates); what the data means is
checked by `printshop.validate`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml.comments import CommentedMap

from printshop.diagnostics import Location, Report, StageFailed
from printshop.model import (BookletStyle, Colours, Face, FacesFile, Fonts, Game, Language, Media, Motifs,
                             Profile)
from printshop.schema import validate_document
from printshop.source import Document, locate, read_yaml
from printshop.texts import Catalogue, load_catalogue
from printshop.translation import Record, load_records, record_path

from printshop.paths import (BUNDLED_FONTS_DIR, DEFAULT_DATA_DIR, DEFAULT_TEMPLATES_DIR, PACKAGE_DIR,  # noqa: F401
                             REPOSITORY_DIR, discover_games)


@dataclass
class GameData:
    id: str
    dir: Path
    game: Game
    faces: dict[str, Face]
    catalogues: dict[str, Catalogue]
    faces_path: Path
    records: dict[str, dict[str, Record]] = field(default_factory=dict)  # per translation, see translation.py

    @property
    def languages(self) -> list[str]:
        """The source language first, then the translations in alphabetical order."""
        source = self.game.source_language
        return [source] + sorted(lang for lang in self.catalogues if lang != source) if source in self.catalogues \
            else sorted(self.catalogues)

    @property
    def source(self) -> Catalogue | None:
        return self.catalogues.get(self.game.source_language)


@dataclass
class Project:
    data_dir: Path
    templates_dir: Path
    media: Media
    fonts: Fonts
    colours: Colours
    motifs: Motifs
    booklet: BookletStyle
    languages: dict[str, Language]
    games: dict[str, GameData] = field(default_factory=dict)
    profiles: dict[str, Profile] = field(default_factory=dict)

    def font_dirs(self) -> list[Path]:
        """Fonts a project ships in data/fonts win over the ones bundled with printshop."""
        return [self.data_dir / "fonts", BUNDLED_FONTS_DIR]


def load_project(data_dir: Path, templates_dir: Path | None = None, *, games: list[str] | None = None,
                 report: Report | None = None) -> Project:
    """Load the whole project (or only `games`); raise StageFailed if anything cannot be read."""
    report = report if report is not None else Report()
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        report.add("file-missing", Location.of(data_dir), "the data folder does not exist (see --data)")
        raise StageFailed(report)
    shared = {
        "media": _load(Media, data_dir / "print" / "media.yaml", report),
        "fonts": _load(Fonts, data_dir / "print" / "fonts.yaml", report),
        "colours": _load(Colours, data_dir / "print" / "colours.yaml", report),
        "motifs": _load(Motifs, data_dir / "print" / "motifs.yaml", report),
        "booklet": _load(BookletStyle, data_dir / "print" / "booklet.yaml", report),
    }
    languages = {}
    for path in sorted((data_dir / "languages").glob("*.yaml")):
        language = _load(Language, path, report)
        if language is not None:
            languages[path.stem] = language
    profiles = {}
    for path in sorted((data_dir / "print" / "profiles").glob("*.yaml")):
        profile = _load(Profile, path, report)
        if profile is not None:
            profiles[path.stem] = profile
    if any(value is None for value in shared.values()):
        raise StageFailed(report)
    project = Project(data_dir, Path(templates_dir or DEFAULT_TEMPLATES_DIR), languages=languages,
                      profiles=profiles, **shared)
    for game_id in discover_games(data_dir):
        if games is None or game_id in games:
            try:
                game = load_game(data_dir / game_id, report)
            except Exception as error:  # noqa: BLE001 - unforeseen input must still end as a diagnostic
                report.add("internal", Location.of(data_dir / game_id),
                           f"reading this game failed unexpectedly: {type(error).__name__}: {error}")
                continue
            if game is not None:
                project.games[game_id] = game
    if report.has_errors:
        raise StageFailed(report)
    return project


def load_game(game_dir: Path, report: Report) -> GameData | None:
    game = _load(Game, game_dir / "game.yaml", report)
    faces_path = game_dir / "faces.yaml"
    faces = _load_faces(faces_path, report)
    catalogues, records = {}, {}
    for path in sorted((game_dir / "text").glob("*.yaml")):
        if "." in path.stem:  # fr.sources.yaml and the like are records, not languages
            continue
        catalogue = load_catalogue(path, path.stem, report)
        if catalogue is not None:
            catalogues[path.stem] = catalogue
            records[path.stem] = load_records(record_path(game_dir, path.stem), report)
    if game is None or faces is None:
        return None
    return GameData(game_dir.name, game_dir, game, faces, catalogues, faces_path, records)


def _load(model, path: Path, report: Report):
    document = read_yaml(path, report)
    if document is None:
        return None
    if not isinstance(document.root, (CommentedMap, type(None))):
        report.add("wrong-type", document.where(), f"{path.name} must be a mapping of keys to values")
        return None
    return validate_document(model, document, report)


def _load_faces(path: Path, report: Report) -> dict[str, Face] | None:
    """Faces may `extends` another face: the child's keys are merged over the parent's, deeply."""
    document = read_yaml(path, report)
    if document is None:
        return None
    root = document.root
    if not isinstance(root, CommentedMap) or not isinstance(root.get("faces"), CommentedMap):
        report.add("missing-field", document.where(), "faces.yaml needs a mapping 'faces'")
        return None
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
    faces = validate_document(FacesFile, Document(path, merged), report)
    return faces.faces if faces is not None else None


def _resolve_extends(raw: CommentedMap, name: str, document: Document, report: Report, chain: tuple):
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
        report.add("unknown-reference", where, f"face '{name}' extends itself through {' -> '.join(chain + (name,))}")
        return None
    if parent_name not in raw:
        report.add("unknown-reference", where,
                   f"face '{name}' extends '{parent_name}', which does not exist (faces: {', '.join(raw)})")
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
    result.lc.line, result.lc.col = over.lc.line, over.lc.col
    for source in (base, over):
        for key, value in source.items():
            if value is None and source is over:
                result.pop(key, None)
                continue
            if source is over and isinstance(value, CommentedMap) and isinstance(result.get(key), CommentedMap):
                value = deep_merge(result[key], value)
            result[key] = value
            _copy_position(source, key, resolved_parent=result, key=key)
    return result


def _copy_position(source: CommentedMap, source_key, *, resolved_parent: CommentedMap, key) -> None:
    if source.lc.data and source_key in source.lc.data:
        resolved_parent.lc.add_kv_line_col(key, list(source.lc.data[source_key]))
