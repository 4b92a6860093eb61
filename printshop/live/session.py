"""A long-running build: the project, layouts and drawn faces kept in memory between edits.

`printshop watch` and `printshop serve` hold one `Session`. `refresh(changed)` brings it up to date
after files changed, doing only the work the change calls for:

- **Reading.** A changed text file (`data/<game>/text/<lang>.yaml`) or translation record is read
  again alone; any other file of a game's (game.yaml, faces.yaml, its print/ files) reads that game
  again; any other data file reloads the project (templates need no reading: a new Jinja
  environment reads them when used). The fonts are registered again only when the files they are
  read from changed (fonts.yaml, a game's print/ folder, the font files).
- **Validating.** The whole project is validated again each time (a tenth of a second for the
  whole catalogue), so diagnostics are always those `printshop validate` would print.
- **Laying out.** A face is laid out again only if something it read changed. What a face reads is
  noted while its template renders: the text ids and their texts (every lookup in the `t` tree); its
  templates (the file it names and those that file extends, includes or imports, found in their
  sources: a template saved lays out again the faces made with it); and everything else it could read
  (its game's files other than texts, the shared print data, its language, the fonts, which ids
  exist) as one digest: a change there lays out all the faces of that game and language again.
- **Drawing.** A face's drawing is recorded and replayed into the next PDF while its layout is the
  same object (render/replay.py); only faces laid out again are drawn again.
- **Writing.** Jobs (jobs.py) whose inputs did not change keep their files; the others render
  again, and only files whose bytes changed are written.

The files are byte for byte those `printshop build` writes from the same data (a test checks it).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from printshop.checks.validate import validate_project
from printshop.diagnostics import Location, Report, Severity, StageFailed
from printshop.language.resolve import localize
from printshop.language.texts import load_catalogue
from printshop.language.translation import RECORD_SUFFIX, load_records
from printshop.layout.faces import lay_out_face
from printshop.layout.game import lay_out_game
from printshop.layout.plan import FaceLayout
from printshop.memo import Reads, unchanged, values_of
from printshop.pipeline.build import (
    Checked,
    _job_key,
    _same_bytes,
    _unfinished,
    art_of,
    art_read,
    contained,
    unknown_languages,
    unknown_papers,
    without_cycle_collection,
)
from printshop.pipeline.jobs import Options, Output, noting_motifs, plan, run
from printshop.project.loader import Project, load_project, read_game
from printshop.project.paths import (
    BUNDLED_FONTS_DIR,
    DEFAULT_DATA_DIR,
    DEFAULT_TEMPLATES_DIR,
    templates_for,
)
from printshop.render.colour import noting_colours
from printshop.render.faces import face_colours, face_motifs
from printshop.render.replay import FaceRecordings, motif_key, recording_into
from printshop.typeset.fonts import register_games_fonts
from printshop.typeset.templating import make_environment, template_folders
from printshop.write.cache import Cache, Digests, code_version, font_inputs, key_of
from printshop.write.commit import write_atomically


@dataclass
class Update:
    """What one refresh did."""

    report: Report
    ok: bool  # laid out and rendered without errors (else nothing was written)
    faces_laid_out: int = 0  # faces laid out again (the others were reused)
    faces_drawn: int = 0  # faces drawn again into a PDF (the others were replayed)
    jobs_rendered: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    removed: list[Path] = field(
        default_factory=list
    )  # files this session wrote that it no longer makes
    changed_outputs: list[Output] = field(default_factory=list)
    seconds: float = 0.0
    after_errors: bool = False  # the refresh before this one had errors (and wrote nothing)
    reloaded: str = (
        ""  # "project", "games" (one game's files), "texts", "fonts" or "" (nothing read again)
    )


class _Kept:
    """The faces set at one size across their deck in the last refresh (`before`), for
    design.same_size_across_deck to take again; `now` holds those it took or made in this one."""

    def __init__(self, before: dict):
        self.before, self.now = before, {}

    def get(self, key):
        value = self.before.get(key)
        if value is not None:
            self.now[key] = value
        return value

    def __setitem__(self, key, value):
        self.now[key] = value


@dataclass
class _Laid:
    coarse: tuple  # (its game and language's _coarse_digest, its size and bleed, its template's _template_key,
    #                its art's hashes)
    reads: dict  # text id -> the text it had (None: it did not exist)
    colours: dict  # the palette's names it read or draws (render/faces.face_colours) -> their values (None: none)
    motifs: dict  # the motifs it draws (render/faces.face_motifs) -> their content (replay.motif_key; None: none)
    face: FaceLayout | None
    diagnostics: list


class Session:
    """One game set (`games`, `langs`; the default names, or the naming `variant` for the games that have it)
    kept built in memory, written to `out_dir`
    when given. `papers` and `options` as for `printshop build`; `draft` as build's: a translation that lacks
    texts is laid out (and written, marked, as -draft files) with the texts it lacks taken from the language it
    is made from, instead of left out."""

    def __init__(
        self,
        data_dir: Path = DEFAULT_DATA_DIR,
        out_dir: Path | None = None,
        *,
        games: list[str] | None = None,
        langs: list[str] | None = None,
        papers: list[str] | None = None,
        templates_dir: Path | None = None,
        options: Options = Options(),
        write: bool = True,
        render: bool = True,
        draft: bool = False,
        variant: str | None = None,
    ):
        self.data_dir = Path(data_dir)
        self._folders: frozenset[Path] = (
            frozenset()
        )  # the data's folders when last read (_load_all)
        # the data folder's own project's templates when none are named, as `build` and `check` find them
        self.templates_dir = (
            Path(templates_dir) if templates_dir is not None else templates_for(self.data_dir)
        )
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self.games, self.langs, self.papers, self.options = games, langs, papers, options
        self.write = write and self.out_dir is not None
        self.render = render  # False: lay out only (a preview that draws faces itself, serve.py)
        self.draft = draft
        # a naming variant, for the games that have it; '' is none, as `printshop build --variant ''` takes it
        self.variant = variant or None
        self.outputs: list[Output] = []
        self.version = 0  # counts refreshes, for pages that ask whether anything changed
        self.project: Project | None = None
        self.load_report = (
            Report()
        )  # what reading the files said (kept while only texts are re-read)
        self.fonts = None
        self.env = None
        self.checked: Checked | None = None
        self.report = Report()
        self.recordings = FaceRecordings()
        self._laid: dict[tuple, _Laid] = {}
        self._coarse: dict[tuple, str] = {}
        self._motifs: dict[
            str, dict
        ] = {}  # each game's motifs as it sees them (its own over the project's)
        self._jobs: dict[
            str, tuple[str, list[Output]]
        ] = {}  # job label -> (the key a build gives it, files)
        self._job_reads: dict[str, _JobRead] = {}  # job label -> what its last run read (`_render`)
        self._on_disk: dict[Path, bytes] = {}
        self._counting = 0
        self._code: str | None = None
        self._bundled: dict | None = (
            None  # the hashes of printshop's own fonts: package files, read once
        )
        self._font_report = Report()  # what registering the fonts said
        self._failed = False  # the last refresh had errors
        self._resized: dict = {}  # faces set at one size across their deck, by the face each replaced (_Kept)
        self._digests = Digests()  # this refresh's file hashes
        self._template_keys: dict[
            str | None, str
        ] = {}  # template name -> _template_key, this refresh
        self._all_templates = ""
        self._template_folders: list[Path] = []
        self._fonts_key: str | None = None  # the inputs `fonts` was registered from (_fonts_inputs)

    # --- reading ------------------------------------------------------------------------------------
    def _load_all(self) -> None:
        self.load_report = Report()
        self._folders = _folders_below(self.data_dir)
        try:
            self.project = load_project(
                self.data_dir,
                self.templates_dir,
                games=self.games,
                langs=self.langs,
                report=self.load_report,
            )
        except StageFailed:
            self.project = None
        except Exception as error:  # noqa: BLE001 - shown like any diagnostic; the session goes on
            self.load_report.add(
                "internal",
                Location.of(self.data_dir),
                f"loading failed unexpectedly: {type(error).__name__}: {error}",
            )
            self.project = None
            return
        for game_id in self.games or () if self.project is not None else ():
            if (
                game_id not in self.project.games
            ):  # named when the session began, gone since (moved, renamed)
                self.load_report.add(
                    "file-missing",
                    Location.of(self.data_dir / game_id / "game.yaml"),
                    f"the game '{game_id}' is no longer in the data folder",
                )

    def _reload_texts(self, path: Path) -> bool:
        """Read one text file (or translation record) again; False when the project must be reloaded."""
        project = self.project
        if project is None or self.load_report.has_errors:
            return False
        game = project.games.get(path.parent.parent.name)
        if game is None or path.parent != game.dir / "text":
            return False
        shown = str(Location.of(path).path)
        report = Report()
        record = path.name.endswith(RECORD_SUFFIX)
        lang = path.name[: -len(RECORD_SUFFIX)] if record else path.stem
        if lang in game.available and lang not in game.catalogues and path.is_file():
            return True  # a language this session neither writes nor makes one from (load_project's `langs`)
        if record:
            if lang not in game.catalogues:
                return False
            game.records[lang] = load_records(path, report)
        else:
            if "." in lang or lang not in game.catalogues or not path.is_file():
                return False  # a new or removed language changes what the game has: read everything
            catalogue = load_catalogue(path, lang, report)
            if catalogue is None or report.has_errors:
                self._said_again(report, lambda path: path == shown)
                self.project = None  # shown as errors until the file reads again
                return True
            game.catalogues[lang] = catalogue
        self._said_again(report, lambda path: path == shown)
        return True

    def _said_again(self, report: Report, about) -> None:
        """What reading files again said (`report`) replaces what was said of the files `about(path)` names;
        anything else it said is added unless it was said already."""
        kept = [d for d in self.load_report.items if not about(d.location.path)]
        kept += [d for d in report.items if about(d.location.path) or d not in kept]
        self.load_report.items[:] = kept

    def _reload_game(self, game_id: str) -> bool:
        """Read one game's files again (its game.yaml, faces.yaml, print/ files and texts) after one of them
        changed; False when the project must be reloaded. The other games keep what they read: an edit of one
        faces.yaml in a session of every game costs reading that game, not the catalogue."""
        project = self.project
        if project is None or self.load_report.has_errors:
            return False
        game_dir = self.data_dir / game_id
        if game_id not in project.games or not (game_dir / "game.yaml").is_file():
            return False  # a game gone (or named otherwise) changes what the project has
        report = Report()
        try:
            game = read_game(self.data_dir, game_id, report, self.langs, project.languages)
        except Exception:  # noqa: BLE001 - reading everything again reports it as a build would
            return False
        inside = Location.of(game_dir).path + os.sep
        # what this game's files said, and anything said of the files it shares (the project's print data, read
        # again beneath the game's own print/ files) that was not already said
        self._said_again(report, lambda path: path.startswith(inside))
        if game is None or report.has_errors:
            self.project = (
                None  # shown as errors until the game reads again (then everything is read)
            )
        else:
            project.games[game_id] = game
        return True

    def _read(self, changed: set[Path] | None) -> str:
        if self.project is None or changed is None:
            self._load_all()
            return "project"
        data = self.data_dir.resolve()
        texts, games, fonts = [], set(), False
        for path in changed:
            path = Path(path).resolve()
            if path.suffix.lower() in (".ttf", ".otf") and data in path.parents:
                fonts = True  # registered again before the next layout (fonts._register reads a changed file)
                continue
            if data not in path.parents:
                continue  # templates are read where they are used
            if not path.suffix:
                # a folder made, removed or moved (a game's, its texts'): read everything again; any other
                # name without an extension is a file that holds no data, such as the scratch files that
                # `sed -i` and vim (4913) make and remove beside the file they save
                if path.is_dir() or path in self._folders:
                    self._load_all()
                    return "project"
                continue
            if path.suffix not in (".yaml", ".yml"):
                continue  # art and other files are read where they are used
            parts = path.relative_to(data).parts
            if path.parent.name == "text" and len(parts) == 3:
                texts.append(path)
            elif len(parts) > 1 and parts[0] in self.project.games:
                games.add(parts[0])  # a game's own file: game.yaml, faces.yaml, print/colours.yaml…
            else:
                self._load_all()  # the shared print data, a language, a file in a game not read before
                return "project"
        for game_id in sorted(games):
            if not self._reload_game(game_id):
                self._load_all()
                return "project"
        texts = [
            path for path in texts if path.parent.parent.name not in games
        ]  # read with their game
        for path in sorted(texts):
            if not self._reload_texts(path):
                self._load_all()
                return "project"
        if fonts:
            self.fonts = None
        return ("games" if games else "texts") if games or texts else "fonts" if fonts else ""

    # --- the pipeline --------------------------------------------------------------------------------
    @without_cycle_collection
    def refresh(self, changed: set[Path] | None = None) -> Update:
        """Bring everything up to date after `changed` files changed (None: read everything)."""
        update = self._refresh(changed)
        update.after_errors, self._failed = self._failed, not update.ok
        return update

    def _refresh(self, changed: set[Path] | None) -> Update:
        started = time.monotonic()
        self.version += 1
        # the inputs are hashed before anything is read, as a build does: a file saved while this refresh
        # reads it then gives a job key of its old bytes, so the refresh its save brings renders again.
        # Hashed after the reading, the key could name bytes that were never laid out, and that refresh
        # would find its key unchanged and leave the files stale
        digests = Digests()
        for folder in (self.data_dir, self.templates_dir, DEFAULT_TEMPLATES_DIR / "common"):
            digests.tree(folder)
        reloaded = self._read(changed)
        report = Report()
        report.extend(self.load_report)
        update = Update(report, ok=False, reloaded=reloaded)
        self.report = report
        project = self.project
        if project is None:
            self.checked = None
            update.seconds = time.monotonic() - started
            return update
        if not contained(
            project, report, drop=False
        ):  # as a build: names no plain id, links leaving the project
            self.checked = None
            update.seconds = time.monotonic() - started
            return update
        try:
            validate_project(project, report, self.papers or None)
        except Exception as error:  # noqa: BLE001
            report.add(
                "internal",
                Location.of(self.data_dir),
                f"validation failed unexpectedly: {type(error).__name__}: {error}",
            )
            update.seconds = time.monotonic() - started
            return update
        unfinished = _unfinished(
            project,
            report,
            self.langs,
            ("draft" if self.write else "preview") if self.draft else "skip",
        )
        papers = unknown_papers(project, self.papers)
        if papers:  # a build refuses them; so does each refresh, until media.yaml has them
            report.add(
                "unknown-reference",
                Location.of(self.data_dir),
                papers,
                hint="name one of those with --paper, or add the paper to print/media.yaml",
            )
        for lang in (
            self.langs or []
        ):  # a build refuses a language no game has; a session waits for its file
            unknown = unknown_languages(project, [lang])
            if unknown:
                games = " ".join(self.games or [])
                start = (
                    f"'printshop i18n sync {lang}{' ' + games if games else ''}' writes text/{lang}.yaml, a copy "
                    f"of the source marked '# TODO: translate', which 'printshop serve' shows at once, as a draft"
                )
                if (
                    lang not in project.languages
                ):  # sync refuses a language the data does not describe
                    start = (
                        f"describe it in languages/{lang}.yaml (TRANSLATING.md, 'Adding a language'), then "
                        + start
                    )
                report.add(
                    "unknown-reference",
                    Location.of(self.data_dir),
                    f"{unknown}: nothing in it is shown until a game has a text file text/{lang}.yaml",
                    Severity.WARNING,
                    hint=f"to start a translation, {start}; or name another --lang",
                )
        if self.variant is not None and not any(
            self.variant in game.game.variants for game in project.games.values()
        ):
            known = sorted({name for game in project.games.values() for name in game.game.variants})
            report.add(
                "unknown-reference",
                Location.of(self.data_dir),
                f"no game here has the naming variant '{self.variant}' any more: the default names are shown",
                Severity.WARNING,
                hint=f"name one of the variants ({', '.join(known) or 'none'}) with --variant, "
                "or add it to a game's game.yaml (variants:)",
            )
        if (
            self._bundled is None
        ):  # like the code (`_code`), the package's fonts are those of the start
            bundled = Digests()
            bundled.tree(BUNDLED_FONTS_DIR)
            self._bundled = dict(bundled._known)
        digests._known.update(self._bundled)
        fonts_key = self._fonts_inputs(project, digests)
        if self.fonts is None or fonts_key != self._fonts_key:
            # the project's families and those games add (as a build registers them), again only when what they
            # are read from changed: a new FontSet lays out every face again (the faces' digests hold it), which
            # reading the project again for an edit of one game's faces.yaml must not bring about
            self._font_report = Report()
            self.fonts = register_games_fonts(project, self._font_report)
            self._fonts_key = fonts_key
        report.extend(
            self._font_report
        )  # said at every refresh, as a build would, not only when read
        self.env = make_environment(project.templates_dir)
        self._digests, self._template_keys = digests, {}
        self._template_folders = template_folders(project.templates_dir)
        self._all_templates = key_of([digests.tree(folder) for folder in self._template_folders])
        layouts = []
        before = self._counting
        resized = _Kept(self._resized)
        for game in project.games.values():
            for lang in game.languages:
                state = unfinished.get((game.id, lang))
                if (self.langs is not None and lang not in self.langs) or (
                    state is not None and not self.draft
                ):
                    continue
                try:
                    localized = localize(
                        project,
                        game,
                        lang,
                        self.variant if self.variant in game.game.variants else None,
                        draft_percent=state.percent if state is not None else None,
                    )
                    self._coarse[(game.id, lang)] = self._coarse_digest(localized, digests)
                    localized.tree._texts = Reads(localized.tree._texts)
                    # as the game sees the project, as a build lays it out: its own card sizes, colours, booklet
                    # style over the project's (data/<game>/print/)
                    seen = project.view(game)
                    self._motifs[game.id] = (
                        seen.motifs.motifs
                    )  # (those its faces draw are in their keys)
                    layouts.append(
                        lay_out_game(
                            seen,
                            localized,
                            self.fonts,
                            self.env,
                            report,
                            lay_out=self._lay_out_face,
                            resized=resized,
                        )
                    )
                except Exception as error:  # noqa: BLE001
                    report.add(
                        "internal",
                        Location.of(game.dir),
                        f"laying out {game.id} ({lang}) failed unexpectedly: {type(error).__name__}: {error}",
                    )
        update.faces_laid_out = self._counting - before
        self._resized = resized.now  # those used this time: the others were of faces laid out again
        requested = [
            state
            for (_, lang), state in unfinished.items()
            if self.langs is None or lang in self.langs
        ]
        self.checked = (
            Checked(project, self.fonts, layouts, [], requested)
            if self.draft
            else Checked(project, self.fonts, layouts, requested, [])
        )
        self._forget_unused(layouts)
        if report.has_errors or not self.render:
            update.ok = not report.has_errors
            update.seconds = time.monotonic() - started
            return update
        self._render(update, digests)
        update.ok = not report.has_errors
        update.seconds = time.monotonic() - started
        return update

    def _fonts_inputs(self, project: Project, digests: Digests) -> str:
        """What registering the fonts reads: the project's print/fonts.yaml (layered over printshop's own, which
        do not change while it runs), each game's own print/fonts.yaml and fonts/ folder, and the font files. A
        colour, a card size or a motif changed does not register them again (which would lay out every face)."""

        def not_fonts(path: Path) -> bool:
            return path.name != "fonts.yaml"

        return key_of(
            digests.tree(self.data_dir / "print", skip=not_fonts),
            font_inputs(digests, self.data_dir),
            [
                (
                    game.id,
                    digests.tree(game.dir / "print", skip=not_fonts),
                    digests.tree(game.dir / "fonts"),
                )
                for game in project.games.values()
            ],
        )

    def store(self) -> list[str]:
        """Put the files of the last refresh into the output folder's cache (cache.py), each job under the key a
        build gives it, as a build stores the jobs it renders: `printshop build` of the same data then takes them
        from there rather than render them again. Watch calls it when it stops (storing at every save would fill
        the cache with every version of every file). Returns the jobs stored."""
        if not self.write or self._failed or not self._jobs:
            return []
        cache, stored = Cache(self.out_dir), []
        for label, (key, files) in self._jobs.items():
            if cache.has_job(key):
                continue
            cache.store_outputs(key, files)
            stored.append(label)
        return stored

    def _coarse_digest(self, localized, digests: Digests) -> str:
        """Everything a face of this game and language may read besides its texts' values and its templates
        (`_template_key`)."""
        data = self.data_dir
        game = localized.data
        art = {Path(os.path.normpath(game.dir / source)) for source in art_of(game.faces.values())}
        # Of the print data (the project's print/ and the game's own), a face reads the fonts (fonts.yaml, also in
        # the FontSet's id below) and nothing else whole: the palette colour by colour and the motifs motif by
        # motif (_lay_out_face), its card size as its size and bleed (in its own key). The booklet's style, the
        # shops' profiles and the targets are not read by any face: saving one lays out no face again
        prints = (data / "print", game.dir / "print")

        def not_for_faces(path: Path) -> bool:
            return path.name != "fonts.yaml" and any(folder in path.parents for folder in prints)

        # its own language's file (typography, labels), as a job's key holds it: not those of the other languages
        return key_of(
            digests.tree(data / "print", skip=not_for_faces),
            digests.file(data / "languages" / f"{localized.lang}.yaml"),
            # its texts are read one by one (memo.Reads), its faces' art face by face (_lay_out_face)
            digests.tree(
                game.dir,
                skip=lambda path: path.parent.name == "text" or path in art or not_for_faces(path),
            ),
            # whether it is a draft, not its label: the share translated, which each translated text
            # changes, is printed in page footers only, never on a face (templates cannot read it)
            font_inputs(digests, data),
            sorted(localized.texts),
            localized.draft is not None,
            localized.variant,
            id(self.fonts),
        )

    def _template_key(self, name: str | None) -> str:
        """What a face made with the template `name` reads of the templates: that file and those it extends,
        includes and imports, by content (`Digests.templates`). A template named by an expression stands for
        all of them: any template saved lays the face out again. An edit of one card's template then lays out
        the faces made with it, not every face."""
        known = self._template_keys.get(name)
        if known is None:
            files = (
                self._digests.templates([name], self._template_folders) if name is not None else []
            )
            known = key_of(files) if files is not None else self._all_templates
            self._template_keys[name] = known
        return known

    def _lay_out_face(
        self,
        key,
        face_name,
        entry,
        faces,
        size,
        bleed,
        context,
        localized,
        palette,
        fonts,
        env,
        report,
        **keywords,
    ) -> FaceLayout | None:
        """`lay_out_face`, unless this face was laid out from the same inputs before."""
        texts: Reads = localized.tree._texts
        name = (localized.data.id, localized.lang, localized.variant, key, face_name)
        face = faces.get(face_name)
        coarse = (
            self._coarse[(localized.data.id, localized.lang)],
            tuple(size),
            bleed,
            self._template_key(face.template if face is not None else None),
            art_read([face] if face is not None else [], localized.data.dir, self._digests),
        )
        motifs = self._motifs[localized.data.id]
        known = self._laid.get(name)
        if (
            known is not None
            and known.coarse == coarse
            and all(dict.get(texts, text_id) == value for text_id, value in known.reads.items())
            and unchanged(known.colours, palette)
            and unchanged(known.motifs, motifs, motif_key)
        ):
            report.merge(known.diagnostics)  # a fault met by many faces once, as a build reports it
            return known.face
        log: list[str] = []
        texts.log = log
        colours = Reads(palette, log=[])
        own = Report()
        try:
            # a frame in a colour or font there is not is laid out in magenta (stand_ins): the page shows its text
            # where the fault is, beside the error; a refresh with errors writes nothing
            face = lay_out_face(
                key,
                face_name,
                entry,
                faces,
                size,
                bleed,
                context,
                localized,
                colours,
                fonts,
                env,
                own,
                stand_ins=True,
                **keywords,
            )
        finally:
            texts.log = None
        report.merge(own)
        # the colours it drew with too: a kept face keeps its image (serve's token), so it must draw the same
        read = colours.read | (face_colours(face) if face is not None else set())
        self._laid[name] = _Laid(
            coarse,
            {text_id: dict.get(texts, text_id) for text_id in log},
            values_of(read, palette),
            values_of(face_motifs(face) if face is not None else (), motifs, motif_key),
            face,
            list(own.items),
        )
        self._counting += 1
        return face

    def _forget_unused(self, layouts) -> None:
        faces = [
            face for layout in layouts for deck in layout.decks for face in deck.faces.values()
        ]
        faces += [
            face
            for layout in layouts
            for sheet in layout.sheets
            for face in (*sheet.faces, *sheet.backs)
        ]
        self.recordings.keep_only(faces)

    def _render(self, update: Update, digests: Digests) -> None:
        checked, project = self.checked, self.project
        planned = plan(
            checked.layouts, "pnp", self.papers or project.media.print_and_play.papers, []
        )
        if self._code is None:  # the code running is the code imported at the start: hashed once
            self._code = code_version(digests)
        code = self._code
        self.recordings.reset_counts()
        outputs: list[Output] = []
        jobs, reads = {}, {}
        for job in planned:
            key = _job_key(job, checked, self.options, digests, code)
            # run again unless what it read is as it was: its inputs but the shared palette and motifs, the faces it
            # draws (the same objects: a face is laid out anew when anything its layout read changed), and the
            # colours and motifs its run looked up, with their values (colour.noting_colours, jobs.noting_motifs)
            read = _JobRead(
                _job_key(job, checked, self.options, digests, code, looks=False),
                _faces_of(job, checked),
                {},
                {},
            )
            palette, motifs = _looks_of(job, checked)
            known, files = self._job_reads.get(job.label), None
            if known is not None and known.holds(read, palette, motifs) and job.label in self._jobs:
                files, read = self._jobs[job.label][1], known
            else:
                with (
                    recording_into(self.recordings),
                    noting_colours() as colours,
                    noting_motifs() as drawn,
                ):
                    result = run(job, checked, self.options, self.env)
                read.colours, read.motifs = (
                    values_of(set(colours), palette),
                    values_of(set(drawn), motifs, motif_key),
                )
                update.report.extend(result.diagnostics)
                files = result.outputs
                update.jobs_rendered.append(job.label)
                update.changed_outputs.extend(files)
            jobs[job.label], reads[job.label] = (key, files), read
            outputs.extend(files)
        update.faces_drawn = self.recordings.drawn
        if update.report.has_errors:
            return  # nothing is written, as in a build; the jobs run again next time
        self._jobs, self._job_reads = jobs, reads
        self.outputs = outputs
        if not self.write:
            return
        for output in outputs:
            target = self.out_dir / output.path
            last = self._on_disk.get(target)
            if last is not None and last is output.data:
                continue
            if not _same_bytes(target, output.data):
                write_atomically(target, output.data)
                update.written.append(target)
            self._on_disk[target] = output.data
        # a file this session wrote and no longer makes (a draft's -draft files once its translation is complete,
        # a paper or a sheet taken out of the data) goes, as a build removes what the build before it wrote; a
        # file changed since by someone else is left where it is
        made = {self.out_dir / output.path for output in outputs}
        for target in [path for path in self._on_disk if path not in made]:
            data = self._on_disk.pop(target)
            if _same_bytes(target, data):
                try:
                    target.unlink()
                except OSError:
                    continue  # (left where it is, as a file someone changed would be)
                update.removed.append(target)


@dataclass
class _JobRead:
    """What a session's job read when it last ran (see `Session._render`)."""

    key: str  # its inputs but the shared palette and motifs (build._job_key's looks=False)
    faces: tuple  # the laid-out faces it draws, the objects themselves
    colours: dict  # palette name -> value, of the names its run looked up
    motifs: dict  # motif name -> its content (replay.motif_key; None: none), of the names its run looked up

    def holds(self, now: "_JobRead", palette: dict, motifs: dict) -> bool:
        return (
            now.key == self.key
            and len(now.faces) == len(self.faces)
            and all(face is kept for face, kept in zip(now.faces, self.faces))
            and unchanged(self.colours, palette)
            and unchanged(self.motifs, motifs, motif_key)
        )


def _faces_of(job, checked) -> tuple:
    """The laid-out faces of the job's game, language and variant (none for a calibration page)."""
    for layout in checked.layouts if job.game is not None else ():
        if (layout.game_id, layout.lang, layout.localized.variant) == (
            job.game,
            job.lang,
            job.variant,
        ):
            faces = [face for deck in layout.decks for face in deck.faces.values()]
            faces += [face for sheet in layout.sheets for face in (*sheet.faces, *sheet.backs)]
            return tuple(faces)
    return ()


def _looks_of(job, checked) -> tuple[dict, dict]:
    """The palette and motifs the job's outputs are drawn with: its game's own over the project's."""
    project = checked.project
    game = project.games.get(job.game) if job.game is not None else None
    seen = project.view(game) if game is not None else project
    return seen.colours.palette, seen.motifs.motifs


def _folders_below(root: Path) -> frozenset[Path]:
    """The folders of the data as last read (resolved): a path gone without an extension was one of them,
    or a scratch file an editor or `sed -i` made and removed beside the file it saved."""
    base = root.resolve()
    found = {base}
    for folder, names, _ in os.walk(base):
        found.update(Path(folder, name) for name in names)
    return frozenset(found)
