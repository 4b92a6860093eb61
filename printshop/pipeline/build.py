"""The pipeline, end to end: load -> resolve the language -> validate -> lay out -> render -> write.

`check` runs the stages up to layout and returns the diagnostics (what `printshop validate`
prints). `build` runs them all, and writes nothing unless every game in every requested
language laid out without errors and rendered.

Rendering is a list of independent jobs (jobs.py): game x language x target x paper or profile.
Unchanged jobs are served from the content-addressed cache (cache.py); the others run across
processes (`jobs`, default one per core). `shard=(i, n)` builds the i-th of n slices of the job
list, for a CI matrix. A build whose inputs and outputs are all as the last one left them stops
before loading anything.

A translation that lacks texts (missing, or still the copy of the source `i18n sync` left) is not
a failure of the build: it is left out, with one `incomplete-translation` warning saying how much is
missing, and everything complete is built. With `draft=True` it is built instead as a marked draft:
the texts it lacks print in the language it is made from, every page carries "DRAFT, 63 % translated"
(the language's `draft` label) and its file names end in `-draft`. `validate` (`check` with
`incomplete="fail"`) still fails on missing texts.
"""

from __future__ import annotations

import functools
import gc
import os
import re
import signal
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from printshop.checks.validate import validate_project
from printshop.diagnostics import Location, Report, Severity, StageFailed, display_path
from printshop.language.i18n import Completeness, completeness
from printshop.language.resolve import localize
from printshop.layout.game import lay_out_game
from printshop.layout.plan import GameLayout
from printshop.layout.problems import LAYOUT_CODES
from printshop.pipeline.progress import Progress
from printshop.project.loader import Project, load_project
from printshop.project.paths import DEFAULT_DATA_DIR, DEFAULT_OUTPUT_DIR, default_jobs
from printshop.render.how_to_print import check_how_to_print
from printshop.typeset.fonts import FontSet, register_games_fonts
from printshop.typeset.templating import HOW_TO_PRINT_TEMPLATE, make_environment, template_folders
from printshop.write import fitstore
from printshop.write.cache import (
    Cache,
    Digests,
    code_version,
    digest_of,
    font_inputs,
    key_of,
    whole_build_key,
)
from printshop.write.commit import WriteFailed, commit, inside, locked, recover, remove_stale_parts

if TYPE_CHECKING:  # at run time, through __getattr__ below
    from printshop.pipeline.jobs import Job, JobResult, Options, Output

ALL_VARIANTS = "*"

# jobs.py imports every renderer (ReportLab's canvas, pikepdf, Pillow...): `check` (printshop validate) needs
# none of them, so they are imported when a build first renders (PEP 562: `build.run` still reads as before)
_FROM_JOBS = ("Job", "JobResult", "Options", "Output", "plan", "run")


def __getattr__(name: str):
    if name in _FROM_JOBS:
        from printshop.pipeline import jobs

        value = getattr(jobs, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def without_cycle_collection(function):
    """Run `function` with Python's cycle collector off (then as it was): a build makes hundreds of thousands of
    objects that live until it ends (YAML nodes, models, laid-out text), which the collector would otherwise
    walk again and again, for a fifth of the time; what it leaves in cycles is little, and collected after."""

    @functools.wraps(function)
    def collecting_less(*args, **kwargs):
        enabled = gc.isenabled()
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return collecting_less


def _jobs(name: str):
    """A name of jobs.py as this module has it (a test may have replaced `build.run`)."""
    return globals()[name] if name in globals() else __getattr__(name)


@dataclass
class Result:
    report: Report
    outputs: list[Output] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)  # files whose bytes changed on disk
    unchanged: list[Path] = field(default_factory=list)  # files already on disk with the same bytes
    rendered_jobs: list[str] = field(default_factory=list)  # job labels, e.g. "comrade fr a4"
    cached_jobs: list[str] = field(default_factory=list)
    up_to_date: list[str] | None = (
        None  # the no-op case: nothing was loaded; the files the last build wrote
    )
    seconds: float = 0.0
    removed: list[Path] = field(
        default_factory=list
    )  # files an earlier build wrote that this one no longer makes
    recovered: list[Path] = field(
        default_factory=list
    )  # files a killed earlier build had staged, put in place now
    refused: list[Completeness] = field(default_factory=list)  # incomplete translations left out
    drafts: list[Completeness] = field(
        default_factory=list
    )  # incomplete translations built as drafts


@dataclass
class Checked:
    project: Project
    fonts: FontSet
    layouts: list[GameLayout]
    refused: list[Completeness] = field(default_factory=list)  # requested, incomplete, not laid out
    drafts: list[Completeness] = field(
        default_factory=list
    )  # requested, incomplete, laid out as drafts


@without_cycle_collection
def check(
    data_dir: Path = DEFAULT_DATA_DIR,
    *,
    games: list[str] | None = None,
    langs: list[str] | None = None,
    templates_dir: Path | None = None,
    report: Report | None = None,
    variant: str | None = ALL_VARIANTS,
    incomplete: str = "fail",
    keep_layouts: bool = True,
    jobs: int = 1,
    papers: list[str] | None = None,
) -> tuple[Report, Checked | None]:
    """Load, validate and lay out; never raises for bad data. By default every naming variant of every
    game is laid out too (names change lengths); `variant=None` lays out the default names only, and
    a name lays out that variant for the games that have it.

    `incomplete` says what becomes of a translation that lacks texts: "fail" (validate: each missing
    text is an error), "skip" (build: not laid out, one warning instead) or "draft" (build --draft:
    laid out with the texts it lacks taken from the language it is made from, marked as a draft).

    `keep_layouts=False` (validate: only the diagnostics matter) lets the games' layouts run in up to
    `jobs` processes; `Checked.layouts` is then empty. The report is the same, in the same order. `papers`: the
    papers the card sheets will be printed on (validate_project's), by default every print-and-play paper."""
    report = report if report is not None else Report()
    if templates_dir is not None and not Path(templates_dir).is_dir():
        report.add(
            "file-missing",
            Location.of(templates_dir),
            "the templates folder does not exist (see --templates)",
            hint="name the folder that holds the games' templates with --templates (or `templates` in "
            "printshop.toml)",
        )
        return report, None
    try:
        project = load_project(
            Path(data_dir), templates_dir, games=games, langs=langs, report=report
        )
    except StageFailed:
        return report, None
    except Exception as error:  # noqa: BLE001 - an unforeseen failure is still reported, not thrown
        report.add(
            "internal",
            Location.of(data_dir),
            f"loading failed unexpectedly: {type(error).__name__}: {error}",
        )
        return report, None
    if not contained(project, report):
        return report, None
    try:
        validate_project(project, report, papers)
    except Exception as error:  # noqa: BLE001
        report.add(
            "internal",
            Location.of(data_dir),
            f"validation failed unexpectedly: {type(error).__name__}: {error}",
        )
        return report, None
    unfinished = _unfinished(project, report, langs, incomplete) if incomplete != "fail" else {}
    fonts = register_games_fonts(project, report)
    env = make_environment(project.templates_dir)
    units = []  # (game, lang, naming variant, draft percent), in the order they are reported
    for game in project.games.values():
        if variant == ALL_VARIANTS:
            chosen = [None, *game.game.variants]
        else:
            chosen = [variant if variant in game.game.variants else None]
        for lang in game.languages:
            state = unfinished.get((game.id, lang))
            if state is not None and incomplete != "draft":
                continue
            draft_percent = state.percent if state is not None else None
            units.extend(
                (game, lang, name, draft_percent)
                for name in (chosen if langs is None or lang in langs else [])
            )

    measure_sheets = not report.has_errors

    def lay_out(unit, into: Report):
        game, lang, name, draft_percent = unit
        try:
            seen = project.view(game)
            layout = lay_out_game(
                seen,
                localize(project, game, lang, name, draft_percent=draft_percent),
                fonts,
                env,
                into,
            )
            kit = [
                (paper, seen.media.papers[paper])
                for paper in (papers if papers is not None else seen.media.print_and_play.papers)
                if paper in seen.media.papers
            ]
            # the template, and each kit's page set (not when the data has errors already: the booklet's styles or
            # the labels it is set from are then what to mend, said once)
            check_how_to_print(layout, seen, kit if measure_sheets else [], env, into)
            return layout
        except Exception as error:  # noqa: BLE001 - a diagnostic naming the game, never a traceback
            into.add(
                "internal",
                Location.of(game.dir),
                f"laying out {game.id} ({lang}) failed unexpectedly: {type(error).__name__}: {error}",
            )
            return None

    layouts = []
    found = None
    if not keep_layouts and jobs > 1 and len(units) > 1:
        store = fitstore.ACTIVE  # (validate) each process sends back the fits it added to the store

        def work(unit):
            items = _diagnostics_of(lay_out, unit, report.items)
            return items, store.take_new() if store is not None else {}

        answers = _in_processes(
            units,
            work,
            jobs,
            weight=lambda unit: len(getattr(unit[0].catalogues.get(unit[1]), "entries", ())) or 1,
        )
        found = [items for items, _ in answers]
        if store is not None:
            for _, fits in answers:
                store.merge(fits)
        if any(_reaches_other_units(item) for items in found for item in items):
            found = None  # laid out one after the other below, as each unit's findings shape the next ones'
    if found is not None:
        for items in found:
            report.extend(items)
    else:
        for unit in units:
            layout = lay_out(unit, report)
            if layout is not None and keep_layouts:
                layouts.append(layout)
    requested = [state for (_, lang), state in unfinished.items() if langs is None or lang in langs]
    drafts = requested if incomplete == "draft" else []
    return report, Checked(project, fonts, layouts, [] if drafts else requested, drafts)


def _diagnostics_of(lay_out, unit, before: list) -> list:
    """What laying out `unit` adds to a report that holds `before` (what loading and validation found: a layout
    skips what an error in the data already explains, and reports a template's fault once)."""
    found = Report(list(before))
    lay_out(unit, found)
    return found.items[len(before) :]


def _reaches_other_units(item) -> bool:
    """Whether a layout's diagnostic changes what the layouts after it report: a template's fault or an unknown
    reference is reported once for all languages (problems.report_once), and an error in the data that is not
    the layout's own (problems.DataErrors) holds back what later layouts would say about it. When one appears,
    the layouts laid out apart are laid out again one after the other, so the report is that of one process."""
    return item.code in ("template", "unknown-reference") or (
        item.severity is Severity.ERROR and item.code not in LAYOUT_CODES
    )


def _in_processes(units: list, work, jobs: int, *, weight) -> list:
    """[work(unit) for unit in units], the units shared among up to `jobs` forked processes (balanced by
    `weight`) and the results given back in the units' order. The forks (render/helper.py's `Helper`)
    inherit everything loaded; each sends its results back pickled. Where fork is not the way (not Linux),
    or a child fails, the work is done here."""
    import sys

    if not sys.platform.startswith("linux"):
        return [work(unit) for unit in units]
    shares: list[list[int]] = [[] for _ in range(min(jobs, len(units)))]
    loads = [0] * len(shares)
    for index in sorted(range(len(units)), key=lambda i: -weight(units[i])):
        lightest = loads.index(min(loads))
        shares[lightest].append(index)
        loads[lightest] += weight(units[index])
    from printshop.render.helper import Helper

    helpers = [
        Helper(sorted(share), lambda share: [work(units[i]) for i in share]) for share in shares[1:]
    ]
    try:
        results: dict[int, list] = {i: work(units[i]) for i in sorted(shares[0])}
        for helper in helpers:
            answers = helper.answer()
            if not isinstance(answers, list) or len(answers) != len(
                helper.keys
            ):  # it failed: done here
                answers = [work(units[i]) for i in helper.keys]
            results.update(zip(helper.keys, answers))
    finally:
        for helper in helpers:
            helper.close()
    return [results[i] for i in range(len(units))]


def unknown_papers(project: Project, papers: list[str] | None) -> str:
    """What a build asked for `papers` says when the media know some not ("" when they know them all)."""
    unknown = [paper for paper in papers or [] if paper not in project.media.papers]
    return (
        f"no paper {', '.join(map(repr, unknown))} (papers: {', '.join(project.media.papers)})"
        if unknown
        else ""
    )


def unknown_languages(project: Project, langs: list[str] | None) -> str:
    """What a build asked for `langs` says when no game has some of them ("" when one has each)."""
    known = sorted({lang for game in project.games.values() for lang in game.available})
    unknown = [lang for lang in langs or [] if lang not in known]
    return (
        f"no game here has the language {', '.join(map(repr, unknown))} (languages: {', '.join(known)})"
        if unknown
        else ""
    )


# --- containment: what the data names stays inside the project --------------------------------------
# One pattern for every id that becomes part of a file name (model.py checks the ids written in the
# data with it; these are the ones that come from folder and file names).
SAFE_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def contained(project: Project, report: Report, *, drop: bool = True) -> bool:
    """Report (`unsafe-path`) every game folder, language file and profile whose name is not a plain id
    (a game folder named '.printshop-cache', or with a newline, would be written as such), and every
    symlink in the data or templates that leads outside them (art, fonts and templates are read only
    from inside the project). Those games and languages are dropped, unless not `drop` (a session keeps its
    project, and says it again at every refresh). False if anything was reported."""
    clean = True

    def refuse(path: Path, what: str) -> None:
        nonlocal clean
        clean = False
        report.add(
            "unsafe-path",
            Location.of(path),
            f"{what} is not a plain id (lower-case letters, digits, '-' and "
            f"'_'), and names output files: rename it",
        )

    for game_id in list(project.games):
        game = project.games[game_id]
        if not SAFE_ID.match(game_id):
            refuse(game.dir, f"the game folder name {game_id!r}")
            if drop:
                del project.games[game_id]
            continue
        for lang in [
            lang for lang in game.available if not SAFE_ID.match(lang)
        ]:  # read or not (`langs`)
            refuse(game.dir / "text" / f"{lang}.yaml", f"the language {lang!r}")
            if drop:
                game.catalogues.pop(lang, None)
                game.available.remove(lang)
    for lang in [lang for lang in project.languages if not SAFE_ID.match(lang)]:
        refuse(Path(project.data_dir) / "languages" / f"{lang}.yaml", f"the language {lang!r}")
        if drop:
            del project.languages[lang]
    for name in [name for name in project.profiles if not SAFE_ID.match(name)]:
        refuse(
            Path(project.data_dir) / "print" / "profiles" / f"{name}.yaml", f"the profile {name!r}"
        )
        if drop:
            del project.profiles[name]
    for root in (Path(project.data_dir), Path(project.templates_dir)):
        for path in _escaping_links(root):
            clean = False
            report.add(
                "unsafe-path",
                Location.of(path),
                f"{path.name} is a symlink to {os.path.realpath(path)}, outside {root}: printshop reads only "
                f"files inside the project",
                hint="copy the file into the folder instead of linking to it",
            )
    return clean


def _escaping_links(root: Path) -> list[Path]:
    """The symlinks under `root` (files or folders, not followed) that resolve outside it. Each folder's
    entries say themselves whether they are links and folders (the directory listing's own types, as
    `os.walk` reads them), so a project of a thousand files is looked over without a call to the system
    per file; a folder that cannot be listed is passed over, as `os.walk` passes it."""
    found, folders = [], [os.fspath(root)]
    while folders:
        try:
            with os.scandir(folders.pop()) as entries:
                for entry in entries:
                    if entry.is_symlink():
                        if not inside(Path(entry.path), root):
                            found.append(Path(entry.path))
                    elif entry.is_dir():
                        folders.append(entry.path)
        except OSError:
            continue
    return sorted(found)


def _unfinished(project: Project, report: Report, langs: list[str] | None, incomplete: str) -> dict:
    """{(game, lang): Completeness} for every translation of `langs` (None: all) that lacks texts. Their
    `missing-text` errors leave the report (the translation is not built as one); each gets a single warning,
    worded for `incomplete`: "skip" (left out), "draft" (built as a marked draft) or "preview" (a session that
    shows it as it stands, serve). A translation outside `langs` is neither read (load_project) nor weighed here."""
    unfinished = {}
    for game in project.games.values():
        for lang in game.languages:
            if lang != game.game.source_language and (langs is None or lang in langs):
                state = completeness(game, lang)
                if not state.complete:
                    unfinished[(game.id, lang)] = state
    files = {Location.of(state.path).path for state in unfinished.values()}
    report.items[:] = [
        d for d in report.items if not (d.code == "missing-text" and d.location.path in files)
    ]
    if (
        incomplete == "skip"
    ):  # the rest of what is wrong in a translation left out stops no build of the others
        report.items[:] = [
            replace(
                d,
                severity=Severity.WARNING,
                message=f"{d.message} (not built: this translation is incomplete)",
            )
            if d.severity is Severity.ERROR and d.location.path in files
            else d
            for d in report.items
        ]
    for (game_id, lang), state in unfinished.items():
        lacking = len(state.missing) + len(state.untranslated)
        detail = (
            f"{lacking} of {state.total} texts not translated ({len(state.missing)} missing, "
            f"{len(state.untranslated)} still the text they are made from)"
        )
        listing = f"'printshop i18n status {game_id} --verbose' lists them"
        message, hint = f"not built, {detail}", ""  # (skip: the check's own hint names --draft)
        if incomplete in ("draft", "preview"):
            reference = project.games[game_id].reference_lang(lang)
            name = (
                project.languages[reference].name if reference in project.languages else reference
            )
            if incomplete == "draft":
                message = (
                    f"built as a DRAFT, {state.percent}% translated: {detail}, printed in {name}; its files "
                    f"end in -draft"
                )
                hint = (
                    "a draft is for proofreading, not for release: finish the translation, then build without "
                    "--draft"
                )
            else:  # a preview (serve) shows the translation as it stands, to translate next to its cards
                message = (
                    f"shown as a draft, {state.percent}% translated: {detail}; the texts it lacks are shown in "
                    f"{name}"
                )
                hint = (
                    "'printshop build' leaves it out until every text is translated ('--draft' builds it as a "
                    "marked draft)"
                )
        report.add(
            "incomplete-translation",
            Location.of(state.path, 1, 1),
            f"{game_id} {lang}: {message}; {listing}",
            hint=hint,
        )
    return unfinished


def _job_key(
    job: Job, checked: Checked, options: Options, digests: Digests, code: str, *, looks: bool = True
) -> str:
    """Everything a job's files are made from (see cache.py): a French text is an input of the French
    jobs of its game only, a template of the jobs of the games whose faces or booklet it makes. With
    `looks=False`, all but the shared palette and motifs (data/print/colours.yaml, motifs.yaml), which a
    session's job holds colour by colour and motif by motif (session.py)."""
    project = checked.project
    data = Path(project.data_dir)
    shared_looks = {data / "print" / "colours.yaml", data / "print" / "motifs.yaml"}
    print_data = (
        digests.tree(data / "print")
        if looks
        else digests.tree(data / "print", skip=lambda path: path in shared_looks)
    )
    parts = [
        print_data,
        digests.file(data / "languages" / f"{job.lang}.yaml"),
        font_inputs(digests, data),
    ]
    templates = None
    if (
        job.game is not None
    ):  # the templates its game's faces and booklet name, and its how-to-print page's
        game = project.games[job.game]
        names = {face.template for face in game.faces.values() if face.template}
        names |= {game.game.booklet.template} if game.game.booklet is not None else set()
        templates = digests.templates(
            names | {HOW_TO_PRINT_TEMPLATE}, template_folders(project.templates_dir)
        )
    # any template, for a job of no game (the calibration page) or a game with one named by an expression
    parts.append(templates if templates is not None else digests.tree(project.templates_dir))
    if job.game is not None:
        wanted = {job.lang, game.game.source_language}
        if any((state.game, state.lang) == (job.game, job.lang) for state in checked.drafts):
            wanted.add(
                game.reference_lang(job.lang)
            )  # a draft prints the texts it lacks from its pivot
            parts.append("draft")

        def other_language(path: Path) -> bool:
            return path.parent.name == "text" and path.name.split(".")[0] not in wanted

        parts.append(digests.tree(game.dir, skip=other_language))
        parts.append(art_read(game.faces.values(), game.dir, digests))
    return key_of(code, job.__dict__, options.__dict__, parts)


def art_of(faces) -> list[str]:
    """The image files (`src`, from the game's folder) these faces draw, sorted."""
    return sorted(
        {
            shape.src
            for face in faces
            for shape in face.shapes.values()
            if shape.kind == "image" and shape.src
        }
    )


def art_read(faces, game_dir: Path, digests: Digests) -> list[tuple[str, str]]:
    """The images these faces name, by their hashes, wherever they lie inside the project (validate refuses the
    others): art in another game's folder or in data/print is an input of this game's jobs too (and of the faces
    that draw it, in a session)."""
    return [
        (source, digests.file(Path(os.path.realpath(game_dir / source))))
        for source in art_of(faces)
    ]


SIGNAL_POLL = 0.2  # seconds: how soon a Ctrl-C that reached another thread stops a parallel build
_STATE: dict = {}  # what forked workers read: set before the pool starts, never sent to them


def _work(index: int) -> tuple[int, JobResult]:
    job = _STATE["jobs"][index]
    try:
        return index, _jobs("run")(
            job, _STATE["checked"], _STATE["options"], _STATE["env"], _STATE["say"]
        )
    except Exception as error:  # noqa: BLE001 - a diagnostic naming the job, never a traceback
        report = Report()
        report.add(
            "internal",
            Location.of(_STATE["checked"].project.data_dir),
            f"rendering {job.label} failed unexpectedly: {type(error).__name__}: {error}",
        )
        return index, _jobs("JobResult")([], report.items)


def _worker_start(parent: int) -> None:
    """Each worker: Ctrl-C is the main process's to handle (it stops the workers), a write to a closed pipe
    ends the worker quietly, and the worker dies with its parent (Linux: PR_SET_PDEATHSIG), so an
    orphan never lingers or prints a BrokenPipeError traceback."""
    from printshop.render.helper import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    die_with_parent()  # (not Linux: the parent check below, and SIGPIPE, end orphans)
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(0)


def _died(jobs: list[Job], indices: list[int], checked: Checked, why: str) -> dict[int, JobResult]:
    """A diagnostic for each job a dead worker took with it."""
    results = {}
    for index in indices:
        job = jobs[index]
        report = Report()
        where = (
            checked.project.games[job.game].dir
            if job.game in checked.project.games
            else checked.project.data_dir
        )
        report.add("worker-died", Location.of(where), f"{job.label} was not rendered: {why}")
        results[index] = _jobs("JobResult")([], report.items)
    return results


def _run_parallel(
    todo: list[int], jobs: list[Job], checked: Checked, workers: int, progress: Progress
) -> dict[int, JobResult]:
    """fork: workers inherit the checked project (no pickling); only files travel back. A worker that is
    killed or crashes breaks the pool at once (its sentinel closes): every job not finished then fails
    with `worker-died`, within a second, instead of the build waiting for ever."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    results: dict[int, JobResult] = {}
    finished_cleanly = False
    executor = ProcessPoolExecutor(
        min(workers, len(todo)),
        mp_context=multiprocessing.get_context("fork"),
        initializer=_worker_start,
        initargs=(os.getpid(),),
    )
    try:
        pending: dict = {}
        for (
            index
        ) in todo:  # a worker may die before the last job is handed out: submit() raises then
            pending[executor.submit(_work, index)] = index
        while pending:
            # never a wait without end: Ctrl-C's signal may reach one of the pool's threads instead of this
            # one, and this thread acts on it only once it wakes (else only when a job finishes)
            finished, _ = wait(pending, timeout=SIGNAL_POLL, return_when=FIRST_COMPLETED)
            for future in finished:
                index = pending.pop(future)
                _, result = future.result()
                results[index] = result
                progress.advance(f"{jobs[index].label} ({len(result.outputs)} files)")
        finished_cleanly = True
        return results
    except BrokenProcessPool:
        results.update(
            _died(
                jobs,
                [index for index in todo if index not in results],
                checked,
                "a process rendering jobs died (killed, or crashed) before it finished",
            )
        )
        return results
    finally:
        if (
            not finished_cleanly
        ):  # Ctrl-C or a dead worker: the others stop now, not after their jobs
            for process in list((getattr(executor, "_processes", None) or {}).values()):
                if process.is_alive():
                    process.terminate()
        # joins the pool's manager thread too (it sees the workers gone at once), so nothing is left for
        # the interpreter's exit to wake through a closed pipe
        executor.shutdown(wait=True, cancel_futures=True)


def _run_jobs(
    todo: list[int],
    jobs: list[Job],
    checked: Checked,
    options: Options,
    workers: int,
    progress: Progress,
) -> dict[int, JobResult]:
    import multiprocessing  # (imported here: `validate` never starts a pool)

    # a pool costs about 50 ms to start (forking, its threads, the files sent back) and a calibration page a few
    # ms to draw: one job with only calibration pages beside it (one game, language and paper: what a designer
    # builds while working on a deck) is quicker here, in this process
    substantial = sum(1 for index in todo if jobs[index].target != "calibration")
    parallel = workers > 1 and substantial > 1 and "fork" in multiprocessing.get_all_start_methods()
    _STATE.update(
        jobs=jobs,
        checked=checked,
        options=options,
        env=make_environment(checked.project.templates_dir),
        say=(lambda message: None) if parallel else progress.message,
    )
    results: dict[int, JobResult] = {}
    try:
        if parallel:
            results = _run_parallel(todo, jobs, checked, workers, progress)
        else:
            from printshop.render.helper import allowing_helpers

            # one job at a time here: with a core to spare, a large deck's faces are drawn in two processes
            with allowing_helpers(
                workers > 1 and "fork" in multiprocessing.get_all_start_methods()
            ):
                for index in todo:
                    results[index] = _work(index)[1]
                    progress.advance(f"{jobs[index].label} ({len(results[index].outputs)} files)")
    finally:
        _STATE.clear()
    return results


@without_cycle_collection
def build(
    data_dir: Path = DEFAULT_DATA_DIR,
    out_dir: Path = DEFAULT_OUTPUT_DIR,
    *,
    games: list[str] | None = None,
    langs: list[str] | None = None,
    papers: list[str] | None = None,
    templates_dir: Path | None = None,
    variant: str | None = None,
    target: str = "pnp",
    profiles: list[str] | None = None,
    flip: str = "long-edge",
    back_offset: tuple[float, float] = (0.0, 0.0),
    gutterfold: bool = False,
    low_ink: bool = False,
    jobs: int | None = None,
    shard: tuple[int, int] | None = None,
    force: bool = False,
    draft: bool = False,
    progress: Progress = Progress(),
) -> Result:
    """Build print-and-play files (`target="pnp"`) or press files for print-shop `profiles`
    (`target="shop"`; all profiles when None). Nothing is written unless everything rendered.
    `jobs`: processes (default: one per core); `shard=(i, n)`: only the i-th (1-based) of n slices
    of the job list; `force`: ignore the cache. Incomplete translations are left out (`result.refused`),
    or with `draft` (print-and-play only: press files are releases) built as marked drafts."""
    started = time.monotonic()
    out_dir = Path(out_dir)
    check_environment()
    Options, Output, plan = _jobs("Options"), _jobs("Output"), _jobs("plan")
    options = Options(flip, tuple(back_offset), gutterfold, low_ink)
    cache, digests = Cache(out_dir), Digests()
    unwritable = output_problem(out_dir)
    if unwritable is not None:
        report = Report()
        report.add(
            "cannot-write", Location.of(unwritable[0]), unwritable[1] + "; nothing was written"
        )
        return Result(report)
    draft = draft and target == "pnp"
    settings = dict(
        games=games,
        langs=langs,
        papers=papers,
        variant=variant,
        target=target,
        profiles=profiles,
        shard=shard,
        draft=draft,
        **options.__dict__,
    )
    whole = whole_build_key(digests, Path(data_dir), templates_dir, settings)
    if not force:
        up = cache.up_to_date(whole)
        if up is not None:
            return Result(Report(), up_to_date=up, seconds=time.monotonic() - started)
    progress.message("checking data and laying out")
    report, checked = check(
        data_dir,
        games=games,
        langs=langs,
        templates_dir=templates_dir,
        variant=variant,
        incomplete="draft" if draft else "skip",
        papers=(papers or None) if target == "pnp" else [],
    )
    result = Result(report)
    if checked is None or report.has_errors:
        return result
    result.refused, result.drafts = checked.refused, checked.drafts
    _say_what_is_kept(checked.refused, out_dir, report)
    project = checked.project
    for unknown in (unknown_papers(project, papers), unknown_languages(project, langs)):
        if unknown:
            raise BadRequest(unknown)
    chosen_profiles = profiles or sorted(project.profiles)
    unknown = [name for name in chosen_profiles if name not in project.profiles]
    if (
        target == "shop" and unknown
    ):  # asked for, not written in the data: as an unknown paper or language is
        off = [name for name in unknown if name in project.profiles_off]
        if off:
            where = project.profiles_off[off[0]].where("use")
            raise BadRequest(
                f"the print-shop profile {', '.join(map(repr, off))} is switched off in this project "
                f"({where.path}:{where.line}: use: false)"
            )
        raise BadRequest(
            f"no print-shop profile {', '.join(map(repr, unknown))} "
            f"(profiles: {', '.join(project.profiles)})"
        )
    planned = plan(
        checked.layouts, target, papers or project.media.print_and_play.papers, chosen_profiles
    )
    if shard is not None:
        part, parts = shard
        planned = [job for index, job in enumerate(planned) if index % parts == part - 1]
    code = code_version(digests)
    keys = [_job_key(job, checked, options, digests, code) for job in planned]
    produced: dict[int, list[Output]] = {}
    todo = []
    for index, key in enumerate(keys):
        hit = None if force else cache.load_job(key)
        if hit is not None and not all(
            _belongs(planned[index], Path(entry.path)) for entry, _ in hit
        ):
            hit = None  # a record naming files this job does not make: never trusted
        if hit is None:
            todo.append(index)
        else:
            produced[index] = [
                Output(Path(entry.path), data, entry.pages, entry.description, entry.kind)
                for entry, data in hit
            ]
    result.rendered_jobs = [planned[index].label for index in todo]
    result.cached_jobs = [job.label for index, job in enumerate(planned) if index not in set(todo)]
    progress.start(len(todo))
    rendered = _run_jobs(todo, planned, checked, options, jobs or default_workers(), progress)
    progress.finish()
    for index in todo:
        report.extend(rendered[index].diagnostics)
        produced[index] = rendered[index].outputs
    if report.has_errors:
        return result
    result.outputs = [output for index in range(len(planned)) for output in produced[index]]
    for output in result.outputs:
        if not _belongs_anywhere(output.path):
            report.add(
                "internal",
                Location.of(out_dir),
                f"a job made the path {str(output.path)!r}, which is not "
                "a plain path inside the output folder; nothing was written",
            )
            return result
    # only now, with every file rendered, does anything reach the disk: all of it, or none (write.py)
    settings_key = key_of(settings)
    interrupted = False
    try:
        with locked(out_dir):
            result.recovered = recover(out_dir)
            remove_stale_parts(out_dir)
            stale = stale_outputs(cache.outputs_of(settings_key), result.outputs, checked, out_dir)
            done = commit(
                out_dir,
                [(str(output.path), output.data) for output in result.outputs],
                [path for path, _, _ in stale],
            )
            result.written, result.unchanged, result.removed = (
                done.written,
                done.unchanged,
                done.removed,
            )
            interrupted = done.interrupted
            _report_removed(stale, done.removed, out_dir, report)
            try:  # the kit is in place: Ctrl-C from here on must not be told as "nothing was written"
                for index in todo:
                    cache.store_outputs(keys[index], produced[index])
                cache.record_outputs(
                    settings_key, {str(o.path): digest_of(o.data) for o in result.outputs}
                )
                if not (
                    result.refused or result.drafts
                ):  # else the next build must load again, to say what it left out
                    cache.record_build(whole, [str(output.path) for output in result.outputs])
            except KeyboardInterrupt:
                raise BuildInterrupted(result) from None
    except WriteFailed as failure:
        report.add("cannot-write", Location.of(failure.path), str(failure))
        result.written = list(failure.replaced)
        return result
    except (
        OSError
    ) as error:  # the lock, the cache: after the kit itself was written (or before any of it)
        where = Path(error.filename) if error.filename else out_dir
        written = (
            f"; the new files were all put in place ({len(result.written)} written)"
            if result.written
            else "; nothing was written"
        )
        report.add(
            "cannot-write",
            Location.of(where),
            f"cannot write {where}: {error.strerror or error}{written}",
        )
        return result
    result.seconds = time.monotonic() - started
    if interrupted:
        raise BuildInterrupted(result)
    return result


class BadRequest(Exception):
    """What was asked for does not exist (a paper, a language) or the environment is malformed: a usage
    error (exit 2), not a problem of the data."""


class BuildInterrupted(KeyboardInterrupt):
    """Ctrl-C came while the new files were being put in place: that was finished first, so the kit on disk
    is the new one, whole; `result` says what was written."""

    def __init__(self, result: Result):
        super().__init__("interrupted after the new files were in place")
        self.result = result


def check_environment() -> None:
    """SOURCE_DATE_EPOCH, when set, must be whole seconds (ReportLab would fail on every file otherwise);
    PRINTSHOP_JOBS, when set, a number of processes."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch and not (epoch.isascii() and epoch.isdigit()):
        raise BadRequest(
            f"SOURCE_DATE_EPOCH is {epoch!r}: it must be a whole number of seconds since 1970 "
            "(e.g. the date of the last commit: git log -1 --format=%ct), or unset"
        )
    default_workers()


def default_workers() -> int:
    """paths.default_jobs, a malformed $PRINTSHOP_JOBS a BadRequest (a usage error, exit 2)."""
    try:
        return default_jobs()
    except ValueError as error:
        raise BadRequest(str(error)) from None


def output_problem(out_dir: Path) -> tuple[Path, str] | None:
    """(path, why) if the output folder or its cache cannot be written; checked before anything is loaded."""
    from printshop.project.paths import CACHE_DIR_NAME

    if str(out_dir) == "":
        return out_dir, "the output folder is empty: name one with --out"
    cache_dir = out_dir / CACHE_DIR_NAME
    for path in (out_dir, cache_dir):
        if path.exists() and not path.is_dir():
            return (
                path,
                f"{path} is a file, where printshop needs a folder: move it away or choose another --out",
            )
    existing = next(
        (folder for folder in (cache_dir, out_dir, *out_dir.absolute().parents) if folder.exists()),
        None,
    )
    if existing is not None and not existing.is_dir():
        return existing, f"{existing} is a file, where printshop needs a folder"
    if existing is not None and not os.access(existing, os.W_OK | os.X_OK):
        return existing, f"{existing} cannot be written (permission denied)"
    return None


def _belongs(job: Job, path: Path) -> bool:
    """Whether `path` is one this job could make: under <game>/<lang>/ (or calibration/), plain names only."""
    prefix = ("calibration",) if job.game is None else (job.game, job.lang)
    return _belongs_anywhere(path) and path.parts[: len(prefix)] == prefix


def _belongs_anywhere(path: Path) -> bool:
    from printshop.write.commit import safe_relative

    return safe_relative(path.as_posix()) and not path.is_absolute()


# --- what a build no longer makes ------------------------------------------------------------------------
def stale_outputs(
    recorded: dict[str, str], outputs: list[Output], checked: Checked, out_dir: Path
) -> list[tuple[str, str, Path]]:
    """(path, why, the data file that explains it) for each file the last build with the same settings wrote
    that this one does not make: its game or language is gone, or the game no longer makes it (a sheet or
    deck dropped or renamed). Only files in that record, and only if they still hold the bytes it wrote
    (a file the user changed is left alone); never anything else in the output folder."""
    from printshop.write.cache import digest_of

    project, made = checked.project, {str(output.path) for output in outputs}
    # a translation left out as incomplete keeps its last kit until it is built again
    refused = {(state.game, state.lang) for state in checked.refused}
    languages = {lang for game in project.games.values() for lang in game.available}
    data = Path(project.data_dir)
    stale = []
    for path, digest in sorted(recorded.items()):
        if path in made:
            continue
        parts = Path(path).parts
        why, where = None, data
        if parts[0] == "calibration":  # calibration/duplex-calibration-<lang>-<paper>.pdf
            lang = parts[1].split("-")[2] if len(parts) > 1 and parts[1].count("-") >= 3 else None
            if lang and lang not in languages:
                why, where = (
                    f"no game has the language '{lang}' any more",
                    data / "languages" / f"{lang}.yaml",
                )
        elif parts[0] not in project.games:
            where = data / parts[0] / "game.yaml"
            why = f"{parts[0]} is no longer built: {display_path(where)} is gone"
        elif len(parts) > 1 and parts[1] not in project.games[parts[0]].available:
            where = data / parts[0] / "text" / f"{parts[1]}.yaml"
            why = f"{parts[0]} {parts[1]} is no longer built: {display_path(where)} is gone"
        elif len(parts) > 1 and (parts[0], parts[1]) not in refused:
            # the game and language are built, but no longer make this file: a sheet or deck dropped or renamed
            where = project.games[parts[0]].dir / "game.yaml"
            why = f"{parts[0]} {parts[1]} no longer makes {Path(path).name}"
        if why is None:
            continue
        try:
            same = digest_of((out_dir / path).read_bytes()) == digest
        except OSError:
            same = False
        if same:
            stale.append((path, why, where))
    return stale


def _say_what_is_kept(refused: list[Completeness], out_dir: Path, report: Report) -> None:
    """A translation left out as incomplete keeps the files an earlier build made of it (stale_outputs): its
    warning says so, or "not built" reads as if none were there, and an old kit gets printed."""
    for state in refused:
        folder = out_dir / state.game / state.lang
        try:
            kept = (
                sorted(path.name for path in folder.iterdir() if path.is_file())
                if folder.is_dir()
                else []
            )
        except OSError:
            kept = []
        if not kept:
            continue
        where = Location.of(state.path, 1, 1)
        for index, item in enumerate(report.items):
            if item.code == "incomplete-translation" and item.location == where:
                report.items[index] = replace(
                    item,
                    message=(
                        f"{item.message}; the {len(kept)} file(s) an earlier build wrote in {display_path(folder)} are "
                        f"kept as they were, made from older texts"
                    ),
                )


def _report_removed(
    stale: list[tuple[str, str, Path]], removed: list[Path], out_dir: Path, report: Report
) -> None:
    gone = {str(path.relative_to(out_dir)) for path in removed}
    by_reason: dict[tuple[str, Path], list[str]] = {}
    for path, why, where in stale:
        if path in gone:
            by_reason.setdefault((why, where), []).append(path)
    for (why, where), paths in by_reason.items():
        report.add(
            "removed-output",
            Location.of(where),
            f"{why}: removed {len(paths)} file(s) the last build wrote into {display_path(out_dir)}: "
            f"{', '.join(paths)}",
        )


def _same_bytes(path: Path, data: bytes) -> bool:  # session.py's too
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False
