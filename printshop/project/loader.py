"""Stage 1, load: read every data file of a project into models, reporting what is malformed.

A project folder (`data/`) holds shared print data (`print/`), language descriptions
(`languages/`) and one folder per game with `game.yaml`, `faces.yaml` and `text/<lang>.yaml`.
Loading checks shape only (keys, types, required fields, duplicates); what the data means is
checked by `printshop.checks.validate`.

Every file is read, whatever another said, so every file's own errors are reported in one run. For
validate and build (`keep_going`), a problem then stops only what depends on it (`what_stands`; the
rule as a publisher reads it: docs/checks.md, "What one error stops"): a shared print file that
fails stops everything; a language's file, that language; a game's own file, that game; a
translation's texts, that translation. What read cleanly goes on to validation and layout.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from ruamel.yaml.comments import CommentedMap

from printshop.diagnostics import (
    Diagnostic,
    Location,
    Report,
    Severity,
    StageFailed,
)
from printshop.language.texts import Catalogue, load_catalogue
from printshop.language.translation import Record, load_records, record_path
from printshop.project.faces_file import load_faces
from printshop.project.generate import expand_decks
from printshop.project.layers import layer_dirs, names_in, read_layered
from printshop.project.models.art import Colours, Fonts, Motifs
from printshop.project.models.booklet import BookletStyle
from printshop.project.models.faces import Face
from printshop.project.models.game import Game
from printshop.project.models.glossary import GlossaryFile
from printshop.project.models.language import Language
from printshop.project.models.media import Media
from printshop.project.models.profile import Profile
from printshop.project.models.targets import CutTarget, ImageTarget, TtsTarget
from printshop.project.paths import (
    BUNDLED_FONTS_DIR,
    discover_games,
    templates_for,
)
from printshop.project.schema import validate_document
from printshop.project.source import Document, read_yaml
from printshop.project.spreadsheet import expand_sheets


@dataclass
class GameData:
    id: str
    dir: Path
    game: Game
    faces: dict[str, Face]
    catalogues: dict[str, Catalogue]
    faces_path: Path
    records: dict[str, dict[str, Record]] = field(
        default_factory=dict
    )  # per translation, see translation.py
    pivots: dict[str, str] = field(
        default_factory=dict
    )  # translation -> the language it is made from
    look: dict = field(
        default_factory=dict
    )  # shared print data the game extends in its own print/ folder
    # every language the game has a text file for; `catalogues` holds those read (load_project's
    # `langs`)
    available: list[str] = field(default_factory=list)
    # the game's terms and their renderings (glossary.yaml), when it has them
    glossary: GlossaryFile | None = None

    @property
    def languages(self) -> list[str]:
        """The source language first, then the translations in alphabetical order."""
        source = self.game.source_language
        return (
            [source] + sorted(lang for lang in self.catalogues if lang != source)
            if source in self.catalogues
            else sorted(self.catalogues)
        )

    @property
    def source(self) -> Catalogue | None:
        return self.catalogues.get(self.game.source_language)

    def reference_lang(self, lang: str) -> str:
        """The language the `lang` translation is made from: its pivot where the game has it, else
        the source."""
        return self.pivots.get(lang, self.game.source_language)

    def reference(self, lang: str) -> Catalogue | None:
        """The texts the `lang` translation is compared with (stale, missing, QA) and falls back to:
        the source's ids, each with its pivot text where the pivot has one, else the source's."""
        source, pivot = self.source, self.catalogues.get(self.reference_lang(lang))
        if source is None or pivot is None or pivot is source:
            return source
        entries = {
            text_id: pivot.entries.get(text_id, entry) for text_id, entry in source.entries.items()
        }
        return Catalogue(pivot.lang, pivot.document, entries)


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
    profiles: dict[str, Profile] = field(default_factory=dict)  # the shops the project prints at
    profiles_off: dict[str, Profile] = field(
        default_factory=dict
    )  # printshop's it switched off (`use: false`)
    language_documents: dict[str, Document] = field(default_factory=dict)  # where each label stands
    targets: "Targets" = field(
        default_factory=lambda: Targets()
    )  # print/targets/: TTS, cutters, image sets
    # (load_project's keep_going) games whose faces or cards failed to read: only their texts are
    # checked, as they need neither; nothing else sees them
    texts_alone: dict[str, GameData] = field(default_factory=dict)

    def view(self, game: "GameData") -> "Project":
        """The project as `game` sees it: its own colours, card sizes, fonts, booklet style and
        motifs (data/<game>/print/) merged over the project's."""
        return replace(self, **game.look) if game.look else self

    def font_dirs(self) -> list[Path]:
        """Fonts a project ships in data/fonts win over the ones bundled with printshop."""
        return [self.data_dir / "fonts", BUNDLED_FONTS_DIR]


def load_project(
    data_dir: Path,
    templates_dir: Path | None = None,
    *,
    games: list[str] | None = None,
    langs: list[str] | None = None,
    report: Report | None = None,
    keep_going: bool = False,
) -> Project:
    """Load the whole project (or only `games`); raise StageFailed if anything cannot be read. With
    `langs` (a build or session that writes only those languages), a game's texts are read for
    those, the languages they are made from and its source only: nothing else is checked or printed
    (`GameData.available` still names every language the game has).

    With `keep_going` (validate and build: `check`), a file that fails stops only what needs it
    (`what_stands`): the project holds every game and language that read cleanly, and StageFailed
    is raised only when a shared print file (print/media.yaml, …) fails, which every game needs.
    Every file is read either way, so every file's own errors are reported in one run."""
    report = report if report is not None else Report()
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        report.add(
            "file-missing", Location.of(data_dir), "the data folder does not exist (see --data)"
        )
        raise StageFailed(report)
    dirs = layer_dirs(data_dir)  # printshop's defaults, then the project's own (layers.py)
    shared = {
        name: _load_layered(model, f"print/{name}.yaml", dirs, report, required=True)
        for name, model in SHARED_PRINT.items()
    }
    languages: dict[str, Language] = {}
    language_documents: dict[str, Document] = {}
    said: dict[
        str, Report
    ] = {}  # with `langs`: what reading each language file said, kept until it is known needed
    unread: set[str] = set()  # the languages whose file failed to read
    for lang in names_in("languages", dirs):
        heard = report if langs is None else said.setdefault(lang, Report())
        document = read_layered(f"languages/{lang}.yaml", dirs, heard)
        language = _validate(Language, document, heard) if document is not None else None
        if document is None or language is None:
            unread.add(lang)
            continue
        languages[lang] = language
        language_documents[lang] = document
    profiles: dict[str, Profile] = {}
    profiles_off: dict[str, Profile] = {}
    for name in names_in("print/profiles", dirs):
        profile = _load_layered(Profile, f"print/profiles/{name}.yaml", dirs, report)
        if profile is not None:
            (profiles if profile.use else profiles_off)[name] = profile
    targets = load_targets(dirs, report)
    # a broken shared file stops the run, but only after every game's files were read too: a
    # publisher sees every file's schema errors in one run, not one file's at a time
    shared_failed = any(value is None for value in shared.values())
    loaded: dict[str, GameData] = {}
    texts_alone: dict[str, GameData] = {}  # (keep_going) games whose texts alone are checked
    for game_id in discover_games(data_dir):
        if games is None or game_id in games:
            # (with keep_going, what reading this game says is heard apart, to know what it stops)
            heard = Report(list(report.items)) if keep_going else report
            try:
                game = read_game(data_dir, game_id, heard, langs, languages, texts_alone=keep_going)
            except Exception as error:  # noqa: BLE001 - unforeseen input must still end as a diagnostic
                heard.add(
                    "internal",
                    Location.of(data_dir / game_id),
                    f"reading this game failed unexpectedly: {type(error).__name__}: {error}",
                )
                game = None
            whole = True
            if keep_going:
                found = heard.items[len(report.items) :]
                report.extend(found)
                game, whole = what_stands(game, found, unread) if game else (None, False)
            if game is not None:
                (loaded if whole else texts_alone)[game_id] = game
    if (
        langs is not None
    ):  # the other languages' files: another translator's, unfinished, stop nothing here
        needed = _languages_read(langs, [*loaded.values(), *texts_alone.values()], languages)
        for lang, heard in said.items():
            if lang in needed:
                report.items.extend(heard.items)
            else:
                languages.pop(lang, None)
                language_documents.pop(lang, None)
    if shared_failed or (report.has_errors and not keep_going):
        raise StageFailed(report)
    return Project(
        data_dir,
        Path(templates_dir or templates_for(data_dir)),
        languages=languages,
        games=loaded,
        profiles=profiles,
        profiles_off=profiles_off,
        language_documents=language_documents,
        targets=targets,
        texts_alone=texts_alone,
        **shared,
    )


def what_stands(
    game: GameData, found: list[Diagnostic], unread: set[str]
) -> tuple[GameData | None, bool]:
    """What of a game is validated and laid out when reading its files said `found` (load_project's
    `keep_going`), and whether it is whole. An error in a translation's text file or its record
    (fr.yaml, fr.sources.yaml), or in the file describing its language (`unread`), leaves that
    language out, and the translations made from it; an error in its glossary leaves out the
    glossary's checks; an error in its faces or cards (faces.yaml, a deck's spreadsheet or generated
    cards) leaves only its texts to check, which need neither (not whole); an error anywhere else
    (its own print/ files, its source texts) leaves the game out. Only what reads cleanly goes on,
    so no error is a consequence of another. (game.yaml failing left no game to ask about.)"""
    text_dir = Location.of(game.dir / "text").path + os.sep
    glossary = Location.of(game.dir / GLOSSARY_FILE).path
    shared = Location.of(game.dir / "print").path + os.sep
    left_out, whole = set(unread), True
    for item in found:
        where = item.location.path
        if item.severity is not Severity.ERROR:
            continue
        if where == glossary:
            game.glossary = None
        elif where.startswith(text_dir):
            left_out.add(where[len(text_dir) :].split(".")[0])  # fr.yaml, fr.sources.yaml: fr
        elif where.startswith(shared) or not where.startswith(Location.of(game.dir).path + os.sep):
            return None, False  # (the look its texts' icons are drawn from is wrong)
        else:
            whole = False
    while True:  # and the translations made from one left out
        more = {lang for lang, pivot in game.pivots.items() if pivot in left_out} - left_out
        if not more:
            break
        left_out |= more
    if game.game.source_language in left_out:
        return None, False
    for lang in left_out:
        game.catalogues.pop(lang, None)
        game.records.pop(lang, None)
        game.pivots.pop(lang, None)
    return game, whole


def read_game(
    data_dir: Path,
    game_id: str,
    report: Report,
    langs: list[str] | None,
    languages: dict[str, Language],
    *,
    texts_alone: bool = False,
) -> GameData | None:
    """One game of the project, as load_project reads each (a session reads one again after an edit
    of its files): its files, the languages its translations are made from, and its own print data.
    With `texts_alone`, a game whose faces.yaml fails is still given, without faces, for its texts'
    checks (what_stands)."""
    game = load_game(data_dir / game_id, report, langs, languages, texts_alone=texts_alone)
    if game is not None:
        game.pivots = pivots_of(game, languages)
        game.look = _game_look(data_dir, game.dir, report)
    return game


def pivots_of(game: GameData, languages: dict[str, Language]) -> dict[str, str]:
    """For each translation whose language names a pivot (`translated_from`) that this game has,
    other than the source: that pivot. A chain of pivots must end at the source, or the source is
    used."""
    source = game.game.source_language
    pivots = {}
    # a language the project describes but this game has no text file of yet has its pivot too:
    # `i18n sync` of a new language copies from the language it is made from, not the source
    for lang in sorted(set(game.catalogues) | set(languages)):
        language = languages.get(lang)
        pivot = language.translated_from if language else None
        if lang == source or pivot in (None, lang, source) or pivot not in game.catalogues:
            continue
        seen, step = {lang}, pivot
        while (
            step != source and step not in seen
        ):  # the pivot's own pivot, and so on, must reach the source
            seen.add(step)
            nxt = languages[step].translated_from if step in languages else None
            step = nxt if nxt in game.catalogues and nxt != step else source
        if step == source:
            pivots[lang] = pivot
    return pivots


def load_game(
    game_dir: Path,
    report: Report,
    langs: list[str] | None = None,
    languages: dict[str, Language] | None = None,
    *,
    texts_alone: bool = False,
) -> GameData | None:
    game = _load(Game, game_dir / "game.yaml", report)
    faces_path = game_dir / "faces.yaml"
    faces = load_faces(faces_path, report)
    # fr.sources.yaml and the like are records, not languages
    texts = [path for path in sorted((game_dir / "text").glob("*.yaml")) if "." not in path.stem]
    available = [path.stem for path in texts]
    needed = _languages_needed(game, langs, languages or {})
    catalogues, records = {}, {}
    for path in texts:
        if needed is not None and path.stem not in needed:
            continue
        catalogue = load_catalogue(path, path.stem, report)
        if catalogue is not None:
            catalogues[path.stem] = catalogue
            records[path.stem] = load_records(record_path(game_dir, path.stem), report)
    if game is not None:  # the spreadsheets' cards go before the listed ones, the generated first
        expand_sheets(game, game_dir, report)
    if game is None or faces is None:
        if game is not None:  # what a generate cannot make is said even when faces.yaml fails
            expand_decks(game, None, report)
        if game is None or not texts_alone:
            return None
    else:
        expand_decks(game, faces, report)
    glossary_path = game_dir / GLOSSARY_FILE
    return GameData(
        game_dir.name,
        game_dir,
        game,
        faces if faces is not None else {},
        catalogues,
        faces_path,
        records,
        available=available,
        glossary=_load(GlossaryFile, glossary_path, report) if glossary_path.is_file() else None,
    )


GLOSSARY_FILE = "glossary.yaml"  # in a game's folder


LABELS_REFERENCE = (
    "en"  # a language file without `translated_from` has its labels compared with English's
)


def _languages_read(langs: list[str], games, languages: dict[str, Language]) -> set[str]:
    """The language files a build or session of `langs` reads: those, the languages they are made
    from (in turn), each game's source and the labels' reference. Only these are checked and printed
    from."""
    needed = {LABELS_REFERENCE, *(game.game.source_language for game in games)}
    for lang in langs:
        step: str | None = lang
        while step is not None and step not in needed:
            needed.add(step)
            language = languages.get(step)
            step = language.translated_from if language is not None else None
        needed.add(lang)
    return needed


def _languages_needed(
    game: Game | None, langs: list[str] | None, languages: dict[str, Language]
) -> set[str] | None:
    """The languages whose texts a build of `langs` reads: those, the pivots they are made from (a
    draft prints a pivot's text where its translation lacks one; stale and missing are judged
    against it) and the source. None: all of them (no `langs`, or game.yaml did not load)."""
    if langs is None or game is None:
        return None
    needed = {game.source_language}
    for lang in langs:  # (a language without its file yet still reads the pivot it is made from)
        step: str | None = lang
        while step is not None and step not in needed:
            needed.add(step)
            language = languages.get(step)
            step = language.translated_from if language is not None else None
    return needed


# the print data every project shares, each extended key by key by the project and by a game
# (layers.py)
SHARED_PRINT = {
    "media": Media,
    "fonts": Fonts,
    "colours": Colours,
    "motifs": Motifs,
    "booklet": BookletStyle,
}


@dataclass
class Targets:
    """print/targets/: Tabletop Simulator (tts.yaml), cutters (cut/<name>.yaml), image sets
    (images/<name>.yaml)."""

    tts: TtsTarget | None = None
    cutters: dict[str, CutTarget] = field(default_factory=dict)
    images: dict[str, ImageTarget] = field(default_factory=dict)


def load_targets(dirs: list[Path], report: Report) -> Targets:
    tts = _load_layered(TtsTarget, "print/targets/tts.yaml", dirs, report)
    cutters = {
        name: _load_layered(CutTarget, f"print/targets/cut/{name}.yaml", dirs, report)
        for name in names_in("print/targets/cut", dirs)
    }
    images = {
        name: _load_layered(ImageTarget, f"print/targets/images/{name}.yaml", dirs, report)
        for name in names_in("print/targets/images", dirs)
    }
    return Targets(
        tts,
        {name: value for name, value in cutters.items() if value is not None},
        {name: value for name, value in images.items() if value is not None},
    )


def _load_layered(
    model, relative: str, dirs: list[Path], report: Report, *, required: bool = False
):
    document = read_layered(relative, dirs, report)
    if document is None:
        if required and not any((folder / relative).exists() for folder in dirs):
            report.add(
                "file-missing",
                Location.of(dirs[-1] / relative),
                f"{relative} is in none of: {', '.join(str(folder) for folder in dirs)}",
            )
        return None
    return _validate(model, document, report)


def _game_look(data_dir: Path, game_dir: Path, report: Report) -> dict:
    """The shared print files a game extends in its own `print/` folder, merged over the project's:
    {"colours": Colours, …}, only for the files the game has."""
    if not (game_dir / "print").is_dir():
        return {}
    dirs = layer_dirs(data_dir, game_dir)
    # what the merged files say about the project's own layer was said when it was read: once
    found = Report()
    look = {
        name: model
        for name, model in (
            (name, _load_layered(model, f"print/{name}.yaml", dirs, found))
            for name, model in SHARED_PRINT.items()
            if (game_dir / "print" / f"{name}.yaml").is_file()
        )
        if model is not None
    }
    said = {(d.code, d.location, d.message) for d in report.items}
    report.extend([d for d in found.items if (d.code, d.location, d.message) not in said])
    return look


def _load(model, path: Path, report: Report):
    document = read_yaml(path, report)
    return _validate(model, document, report) if document is not None else None


def _validate(model, document: Document, report: Report):
    if not isinstance(document.root, (CommentedMap, type(None))):
        report.add(
            "wrong-type",
            document.where(),
            f"{document.path.name} must be a mapping of keys to values",
        )
        return None
    return validate_document(model, document, report)
