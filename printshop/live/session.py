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
from typing import TYPE_CHECKING, cast

from printshop.diagnostics import Location, Report, Severity
from printshop.language.resolve import localize
from printshop.language.text_tree import note_reads, texts_of
from printshop.layout.faces import lay_out_face
from printshop.layout.game import lay_out_game
from printshop.layout.plan import FaceLayout
from printshop.live.reading import ProjectReading
from printshop.live.rendering import JobRead, JobRendering
from printshop.memo import Reads, unchanged, values_of
from printshop.pipeline.build import Checked, validated, without_cycle_collection
from printshop.pipeline.keys import art_of, art_read
from printshop.pipeline.plan import Output
from printshop.pipeline.request import BuildRequest, Incomplete
from printshop.pipeline.scope import unfinished_translations, unknown_languages, unknown_papers
from printshop.project.loader import Project
from printshop.project.paths import (
    BUNDLED_FONTS_DIR,
    DEFAULT_DATA_DIR,
    DEFAULT_TEMPLATES_DIR,
    templates_for,
)
from printshop.render.faces import face_colours, face_icons, face_motifs
from printshop.render.replay import FaceRecordings, motif_key
from printshop.typeset.fonts import FontSet, register_games_fonts
from printshop.typeset.templating import make_environment, template_folders
from printshop.write.cache import Cache, Digests, font_inputs, key_of

if TYPE_CHECKING:
    from jinja2 import Environment


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
        self.before, self.now = before, dict[tuple, object]()

    def get(self, key):
        value = self.before.get(key)
        if value is not None:
            self.now[key] = value
        return value

    def __setitem__(self, key, value):
        self.now[key] = value


@dataclass
class _Laid:
    # (its game and language's _coarse_digest, its size and bleed, its template's _template_key,
    coarse: tuple
    #                its art's hashes)
    reads: dict  # text id -> the text it had (None: it did not exist)
    # the palette's names it read or draws (render/faces.face_colours) -> their values (None: none)
    colours: dict
    # the motifs it draws (render/faces.face_motifs) -> their content (replay.motif_key; None: none)
    motifs: dict
    face: FaceLayout | None
    diagnostics: list


class Session(ProjectReading, JobRendering):
    """One game set (the request's `games`, `langs`; the default names, or the naming `variant` for
    the games that have it) kept built in memory, written to the request's `out_dir` when given.
    `papers` and `options` as for `printshop build`; `draft` as build's: a translation that lacks
    texts is laid out (and written, marked, as -draft files) with the texts it lacks taken from the
    language it is made from, instead of left out. The request's target is print-and-play; its
    shard, jobs and force do not apply.

    `Session(request)` takes a BuildRequest (as the command line makes it); `Session(data_dir,
    out_dir, games=..., ...)` makes one of the keywords, which are BuildRequest's fields."""

    def __init__(
        self,
        request: BuildRequest | Path = DEFAULT_DATA_DIR,
        out_dir: Path | None = None,
        *,
        write: bool = True,
        render: bool = True,
        **settings,
    ):
        if not isinstance(request, BuildRequest):
            request = BuildRequest(Path(request), out_dir, **settings)
        self.request = request
        data_dir, templates_dir, out_dir = request.data_dir, request.templates_dir, request.out_dir
        listed = [
            list(names) if names is not None else None
            for names in (request.games, request.langs, request.papers)
        ]
        games, langs, papers = listed
        options, draft, variant = request.options, request.draft, request.variant
        self.data_dir = Path(data_dir)
        self._folders: frozenset[Path] = (
            frozenset()
        )  # the data's folders when last read (_load_all)
        self._links: dict[Path, list[Path]] = {}  # its symbolic links, by what they lead to
        # the data folder's own project's templates when none are named, as `build` and `check` find
        # them
        self.templates_dir = (
            Path(templates_dir) if templates_dir is not None else templates_for(self.data_dir)
        )
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self.games, self.langs, self.papers, self.options = games, langs, papers, options
        self.write = write and self.out_dir is not None
        self.render = render  # False: lay out only (a preview that draws faces itself, serve.py)
        self.draft = draft
        # a naming variant, for the games that have it; '' is none, as `printshop build --variant
        # ''` takes it
        self.variant = variant or None
        self.outputs: list[Output] = []
        self.version = 0  # counts refreshes, for pages that ask whether anything changed
        self.project: Project | None = None
        self.load_report = (
            Report()
        )  # what reading the files said (kept while only texts are re-read)
        self.fonts = None
        self.env: Environment | None = None
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
        self._job_reads: dict[str, JobRead] = {}  # job label -> what its last run read (`_render`)
        self._on_disk: dict[Path, bytes] = {}
        self._counting = 0
        self._code: str | None = None
        self._bundled: dict | None = (
            None  # the hashes of printshop's own fonts: package files, read once
        )
        self._font_report = Report()  # what registering the fonts said
        self._failed = False  # the last refresh had errors
        # faces set at one size across their deck, by the face each replaced (_Kept)
        self._resized: dict = {}
        self._digests = Digests()  # this refresh's file hashes
        self._template_keys: dict[
            str | None, str
        ] = {}  # template name -> _template_key, this refresh
        self._all_templates = ""
        self._template_folders: list[Path] = []
        self._fonts_key: str | None = None  # the inputs `fonts` was registered from (_fonts_inputs)

    # --- the pipeline
    # --------------------------------------------------------------------------------
    @without_cycle_collection
    def refresh(self, changed: set[Path] | None = None) -> Update:
        """Bring everything up to date after `changed` files changed (None: read everything)."""
        update = self._refresh(changed)
        update.after_errors, self._failed = self._failed, not update.ok
        return update

    def _refresh(self, changed: set[Path] | None) -> Update:
        started = time.monotonic()
        self.version += 1
        # the inputs are hashed before anything is read, as a build does: a file saved while this
        # refresh reads it then gives a job key of its old bytes, so the refresh its save brings
        # renders again. Hashed after the reading, the key could name bytes that were never laid
        # out, and that refresh would find its key unchanged and leave the files stale
        digests = Digests()
        for folder in (self.data_dir, self.templates_dir, DEFAULT_TEMPLATES_DIR / "common"):
            digests.tree(folder)
        reloaded = self._read(changed)
        report = Report()
        report.extend(self.load_report)
        update = Update(report, ok=False, reloaded=reloaded)
        self.report = report
        project = self.project
        # as a build: names no plain id, links leaving the project; then validated
        if project is None or not validated(project, report, self.papers or None, drop=False):
            self.checked = None
            update.seconds = time.monotonic() - started
            return update
        unfinished = unfinished_translations(project, report, self.langs, self._incomplete())
        self._say_what_is_unknown(project, report)
        fonts = self._register_fonts(project, digests, report)
        self.env = make_environment(project.templates_dir)
        self._digests, self._template_keys = digests, {}
        self._template_folders = template_folders(project.templates_dir)
        self._all_templates = key_of([digests.tree(folder) for folder in self._template_folders])
        before = self._counting
        layouts = self._lay_out(project, fonts, unfinished, digests, report)
        update.faces_laid_out = self._counting - before
        requested = [
            state
            for (_, lang), state in unfinished.items()
            if self.langs is None or lang in self.langs
        ]
        self.checked = (
            Checked(project, fonts, layouts, [], requested)
            if self.draft
            else Checked(project, fonts, layouts, requested, [])
        )
        self._forget_unused(layouts)
        if not report.has_errors and self.render:
            self._render(update, digests)
        update.ok = not report.has_errors
        update.seconds = time.monotonic() - started
        return update

    def _incomplete(self) -> Incomplete:
        """What becomes of a translation that lacks texts: with `draft`, written as a marked draft,
        or (no output folder: serve) shown as it stands; else left out, as a build leaves it out."""
        if not self.draft:
            return Incomplete.SKIP
        return Incomplete.DRAFT if self.write else Incomplete.SHOWN

    def _say_what_is_unknown(self, project: Project, report: Report) -> None:
        """The papers, languages and naming variant asked for that the project lacks: a build
        refuses them; a session says so at each refresh, until the data has them."""
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
                report.add(
                    "unknown-reference",
                    Location.of(self.data_dir),
                    f"{unknown}: nothing in it is shown until a game has a text file text/{lang}.yaml",
                    Severity.WARNING,
                    hint=f"to start a translation, {self._how_to_start(project, lang)}; or name another --lang",
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

    def _how_to_start(self, project: Project, lang: str) -> str:
        games = " ".join(self.games or [])
        start = (
            f"'printshop i18n sync {lang}{' ' + games if games else ''}' writes text/{lang}.yaml, a copy "
            f"of the source marked '# TODO: translate', which 'printshop serve' shows at once, as a draft"
        )
        if lang not in project.languages:  # sync refuses a language the data does not describe
            start = (
                f"describe it in languages/{lang}.yaml (TRANSLATING.md, 'Adding a language'), then "
                + start
            )
        return start

    def _register_fonts(self, project: Project, digests: Digests, report: Report) -> FontSet:
        """The project's fonts, registered again only when what they are read from changed."""
        if (
            self._bundled is None
        ):  # like the code (`_code`), the package's fonts are those of the start
            bundled = Digests()
            bundled.tree(BUNDLED_FONTS_DIR)
            self._bundled = bundled.known()
        digests.adopt(self._bundled)
        fonts_key = self._fonts_inputs(project, digests)
        if self.fonts is None or fonts_key != self._fonts_key:
            # the project's families and those games add (as a build registers them), again only
            # when what they are read from changed: a new FontSet lays out every face again (the
            # faces' digests hold it), which reading the project again for an edit of one game's
            # faces.yaml must not bring about
            self._font_report = Report()
            self.fonts = register_games_fonts(project, self._font_report)
            self._fonts_key = fonts_key
        report.extend(
            self._font_report
        )  # said at every refresh, as a build would, not only when read
        return self.fonts

    def _lay_out(
        self, project: Project, fonts: FontSet, unfinished: dict, digests: Digests, report: Report
    ) -> list:
        """The lay-out step of a refresh: every game and language of the session laid out, each face
        again only if something it read changed (`_lay_out_face`)."""
        layouts = []
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
                    note_reads(localized.tree)
                    # as the game sees the project, as a build lays it out: its own card sizes,
                    # colours, booklet style over the project's (data/<game>/print/)
                    seen = project.view(game)
                    self._motifs[game.id] = (
                        seen.motifs.motifs
                    )  # (those its faces draw are in their keys)
                    layouts.append(
                        lay_out_game(
                            seen,
                            localized,
                            fonts,
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
        self._resized = resized.now  # those used this time: the others were of faces laid out again
        return layouts

    def _fonts_inputs(self, project: Project, digests: Digests) -> str:
        """What registering the fonts reads: the project's print/fonts.yaml (layered over
        printshop's own, which do not change while it runs), each game's own print/fonts.yaml and
        fonts/ folder, and the font files. A colour, a card size or a motif changed does not
        register them again (which would lay out every face)."""

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
        """Put the files of the last refresh into the output folder's cache (cache.py), each job
        under the key a build gives it, as a build stores the jobs it renders: `printshop build` of
        the same data then takes them from there rather than render them again. Watch calls it when
        it stops (storing at every save would fill the cache with every version of every file).
        Returns the jobs stored."""
        if not self.write or self._failed or not self._jobs:
            return []
        assert self.out_dir is not None  # (`write` says there is one)
        cache, stored = Cache(self.out_dir), []
        for label, (key, files) in self._jobs.items():
            if cache.has_job(key):
                continue
            cache.store_outputs(key, files)
            stored.append(label)
        return stored

    def _coarse_digest(self, localized, digests: Digests) -> str:
        """Everything a face of this game and language may read besides its texts' values and its
        templates (`_template_key`)."""
        data = self.data_dir
        game = localized.data
        art = {Path(os.path.normpath(game.dir / source)) for source in art_of(game.faces.values())}
        # Of the print data (the project's print/ and the game's own), a face reads the fonts
        # (fonts.yaml, also in the FontSet's id below) and nothing else whole: the palette colour by
        # colour and the motifs motif by motif (_lay_out_face), its card size as its size and bleed
        # (in its own key). The booklet's style, the shops' profiles and the targets are not read by
        # any face: saving one lays out no face again
        prints = (data / "print", game.dir / "print")

        def not_for_faces(path: Path) -> bool:
            return path.name != "fonts.yaml" and any(folder in path.parents for folder in prints)

        # its own language's file (typography, labels), as a job's key holds it: not those of the
        # other languages
        return key_of(
            digests.tree(data / "print", skip=not_for_faces),
            digests.file(data / "languages" / f"{localized.lang}.yaml"),
            # its texts are read one by one (memo.Reads), its faces' art face by face
            # (_lay_out_face)
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
        """What a face made with the template `name` reads of the templates: that file and those it
        extends, includes and imports, by content (`Digests.templates`). A template named by an
        expression stands for all of them: any template saved lays the face out again. An edit of
        one card's template then lays out the faces made with it, not every face."""
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
        texts = cast(
            Reads, texts_of(localized.tree)
        )  # (note_reads wrapped them when the game was read)
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
            # a frame in a colour or font there is not is laid out in magenta (stand_ins): the page
            # shows its text where the fault is, beside the error; a refresh with errors writes
            # nothing
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
        # the colours it drew with too: a kept face keeps its image (serve's token), so it must draw
        # the same
        read = colours.read | (face_colours(face) if face is not None else set())
        self._laid[name] = _Laid(
            coarse,
            {text_id: dict.get(texts, text_id) for text_id in log},
            values_of(read, palette),
            values_of(
                face_motifs(face) | face_icons(face) if face is not None else (), motifs, motif_key
            ),
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
