"""The pipeline, end to end: load -> resolve the language -> validate -> lay out -> render -> write.

`check` runs the stages up to layout and returns the diagnostics (what `printshop validate`
prints). `run_build(request)` runs them all for a BuildRequest (request.py; `build(**keywords)`
makes one), and writes nothing unless every game in every requested language laid out without
errors and rendered. Its steps are public functions, which a session (live/session.py) takes too:

- check: `load_and_validate` (`validated`: names contained, data validated), the translations that
  lack texts (scope.py), `units_to_lay_out`, `lay_out_units`;
- plan: `plan_jobs` (plan.py: game x language x target x paper, shop, cutter or image set);
- cache look-up: keys.py (`job_keys`, `look_up`): unchanged jobs are served from the
  content-addressed cache (write/cache.py);
- render: workers.py (`run_jobs`: across processes, `jobs`, default one per core; jobs.py renders one);
- commit: outputs.py (`commit_outputs`: everything put in place at once, stale files removed).

`shard=(i, n)` builds the i-th of n slices of the job list, for a CI matrix. A build whose inputs
and outputs are all as the last one left them stops before loading anything.

A translation that lacks texts (missing, or still the copy of the source `i18n sync` left) is not a
failure of the build: it is left out, with one `incomplete-translation` warning saying how much is
missing, and everything complete is built. With `draft=True` it is built instead as a marked draft:
the texts it lacks print in the language it is made from, every page carries "DRAFT, 63 %
translated" (the language's `draft` label) and its file names end in `-draft`. `validate` (`check`
with `incomplete="fail"`) still fails on missing texts.
"""

from __future__ import annotations

import functools
import gc
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from printshop.checks.validate import validate_project
from printshop.diagnostics import Location, Report, StageFailed
from printshop.language.i18n import Completeness
from printshop.layout.plan import GameLayout
from printshop.pipeline.keys import job_keys, look_up
from printshop.pipeline.lay_out import LayOut, games_with_errors, lay_out_units
from printshop.pipeline.outputs import commit_outputs, outputs_contained, say_what_is_kept
from printshop.pipeline.plan import Job, Output, plan
from printshop.pipeline.progress import Progress
from printshop.pipeline.request import BuildRequest, Incomplete, Target
from printshop.pipeline.scope import (
    contained,
    escaping_links,
    unfinished_translations,
    unknown_languages,
    unknown_papers,
)
from printshop.pipeline.workers import run_jobs
from printshop.project.loader import Project, load_project
from printshop.project.paths import (
    DEFAULT_DATA_DIR,
    DEFAULT_OUTPUT_DIR,
    default_jobs,
)
from printshop.typeset.fonts import FontSet, register_games_fonts
from printshop.write.cache import (
    Cache,
    Digests,
    key_of,
    whole_build_key,
)

ALL_VARIANTS = "*"


def without_cycle_collection(function):
    """Run `function` with Python's cycle collector off (then as it was): a build makes hundreds of
    thousands of objects that live until it ends (YAML nodes, models, laid-out text), which the
    collector would otherwise walk again and again, for a fifth of the time; what it leaves in
    cycles is little, and collected after."""

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
    incomplete: Incomplete | str = Incomplete.FAIL,
    keep_layouts: bool = True,
    jobs: int = 1,
    papers: list[str] | None = None,
) -> tuple[Report, Checked | None]:
    """Load, validate and lay out; never raises for bad data. By default every naming variant of
    every game is laid out too (names change lengths); `variant=None` lays out the default names
    only, and a name lays out that variant for the games that have it.

    `incomplete` (request.Incomplete) says what becomes of a translation that lacks texts: "fail"
    (validate: each missing text is an error), "skip" (build: not laid out, one warning instead) or
    "draft" (build --draft: laid out with the texts it lacks taken from the language it is made
    from, marked as a draft).

    `keep_layouts=False` (validate: only the diagnostics matter) lets the games' layouts run in up
    to `jobs` processes; `Checked.layouts` is then empty. The report is the same, in the same order.
    `papers`: the papers the card sheets will be printed on (validate_project's), by default every
    print-and-play paper.

    A problem stops only what depends on it (docs/checks.md, "What one error stops"): loading leaves
    out the games and languages whose files fail (loader.what_stands) and goes on; what was read is
    validated and laid out, a game's errors holding back nothing of another's (`games_with_errors`);
    the same diagnostic found twice is said once. So one run reports every independent error."""
    report = report if report is not None else Report()
    incomplete = Incomplete(incomplete)
    project = load_and_validate(data_dir, templates_dir, games, langs, papers, report)
    if project is None:
        return report, None
    unfinished = (
        unfinished_translations(project, report, langs, incomplete)
        if incomplete is not Incomplete.FAIL
        else {}
    )
    fonts = register_games_fonts(project, report)
    units = units_to_lay_out(project, unfinished, langs, variant, incomplete)
    lay_out = LayOut(
        project,
        fonts,
        papers,
        unmeasured=games_with_errors(project, report),
        measure_booklets=not keep_layouts,
    )
    layouts = lay_out_units(units, lay_out, report, keep_layouts, jobs)
    report.items[:] = list(dict.fromkeys(report.items))  # (a fault met twice is said once)
    requested = [state for (_, lang), state in unfinished.items() if langs is None or lang in langs]
    drafts = requested if incomplete is Incomplete.DRAFT else []
    return report, Checked(project, fonts, layouts, [] if drafts else requested, drafts)


def load_and_validate(
    data_dir: Path,
    templates_dir: Path | None,
    games: list[str] | None,
    langs: list[str] | None,
    papers: list[str] | None,
    report: Report,
) -> Project | None:
    """The first step of `check`: the project loaded, its names contained and its data validated
    (`validated`); None when it cannot be laid out (what is wrong is in `report`)."""
    if templates_dir is not None and not Path(templates_dir).is_dir():
        report.add(
            "file-missing",
            Location.of(templates_dir),
            "the templates folder does not exist (see --templates)",
            hint="name the folder that holds the games' templates with --templates (or `templates` in "
            "printshop.toml)",
        )
        return None
    try:
        project = load_project(
            Path(data_dir), templates_dir, games=games, langs=langs, report=report, keep_going=True
        )
    except StageFailed:
        return None
    except Exception as error:  # noqa: BLE001 - an unforeseen failure is still reported, not thrown
        report.add(
            "internal",
            Location.of(data_dir),
            f"loading failed unexpectedly: {type(error).__name__}: {error}",
        )
        return None
    return project if validated(project, report, papers) else None


def validated(
    project: Project, report: Report, papers: list[str] | None, *, drop: bool = True
) -> bool:
    """Whether a loaded project can be laid out: every name it gives an output file is a plain id
    and no link leaves it (scope.contained, which with `drop` leaves out what is not, and the rest
    goes on: a game folder misnamed stops that game only), and validation ran (its findings in
    `report`, an unforeseen failure reported as `internal`). A build's check and a session's
    refresh both take this step."""
    if not contained(project, report, drop=drop) and (
        not drop
        or any(escaping_links(Path(root)) for root in (project.data_dir, project.templates_dir))
    ):
        return False
    try:
        validate_project(project, report, papers)
    except Exception as error:  # noqa: BLE001
        report.add(
            "internal",
            Location.of(project.data_dir),
            f"validation failed unexpectedly: {type(error).__name__}: {error}",
        )
        return False
    return True


def units_to_lay_out(
    project: Project,
    unfinished: dict,
    langs: list[str] | None,
    variant: str | None,
    incomplete: Incomplete,
) -> list[tuple]:
    """(game, lang, naming variant, draft percent) of everything to lay out, in the order it is
    reported."""
    units: list[tuple] = []
    for game in project.games.values():
        if variant == ALL_VARIANTS:
            chosen = [None, *game.game.variants]
        else:
            chosen = [variant if variant in game.game.variants else None]
        for lang in game.languages:
            state = unfinished.get((game.id, lang))
            if state is not None and incomplete is not Incomplete.DRAFT:
                continue
            draft_percent = state.percent if state is not None else None
            units.extend(
                (game, lang, name, draft_percent)
                for name in (chosen if langs is None or lang in langs else [])
            )
    return units


@without_cycle_collection
def build(
    data_dir: Path = DEFAULT_DATA_DIR,
    out_dir: Path = DEFAULT_OUTPUT_DIR,
    *,
    progress: Progress = Progress(),
    **settings,
) -> Result:
    """`run_build` of the request these keywords make (`BuildRequest.of`: the fields of a
    BuildRequest, with `profiles` for the target's shops, cutters or image sets and the drawing
    options `flip`, `back_offset`, `gutterfold` and `low_ink` by name): the library's way to build,
    as the tests call it."""
    return run_build(BuildRequest.of(data_dir, out_dir, **settings), progress)


@without_cycle_collection
def run_build(request: BuildRequest, progress: Progress = Progress()) -> Result:
    """Build print-and-play files (`Target.PNP`), press files for print shops (`Target.SHOP`; all
    the profiles when none is named) or an export. Nothing is written unless everything rendered.
    `jobs`: processes (default: one per core); `shard=(i, n)`: only the i-th (1-based) of n slices
    of the job list; `force`: ignore the cache. Incomplete translations are left out
    (`result.refused`), or with `draft` (print-and-play only: press files are releases) built as
    marked drafts.

    The steps, each a public function that a session takes too: check (load, validate, lay out),
    `plan_jobs`, the cache look-up (keys.job_keys, keys.look_up), the render (workers.run_jobs), the
    commit (outputs.commit_outputs)."""
    started = time.monotonic()
    out_dir = Path(request.out_dir or DEFAULT_OUTPUT_DIR)
    check_environment()
    cache, digests = Cache(out_dir), Digests()
    unwritable = output_problem(out_dir)
    if unwritable is not None:
        report = Report()
        report.add(
            "cannot-write", Location.of(unwritable[0]), unwritable[1] + "; nothing was written"
        )
        return Result(report)
    settings = request.settings()
    whole = whole_build_key(digests, request.data_dir, request.templates_dir, settings)
    if not request.force:
        up = cache.up_to_date(whole)
        if up is not None:
            return Result(Report(), up_to_date=up, seconds=time.monotonic() - started)
    progress.message("checking data and laying out")
    report, checked = check_request(request)
    result = Result(report)
    if checked is None or report.has_errors:
        return result
    result.refused, result.drafts = checked.refused, checked.drafts
    say_what_is_kept(checked.refused, out_dir, report)
    planned = plan_jobs(request, checked)
    keys = job_keys(planned, checked, request.options, digests)
    produced, todo = look_up(planned, keys, cache, force=request.force)
    result.rendered_jobs = [planned[index].label for index in todo]
    result.cached_jobs = [job.label for index, job in enumerate(planned) if index not in set(todo)]
    progress.start(len(todo))
    workers = request.jobs or default_workers()
    rendered = run_jobs(todo, planned, checked, request.options, workers, progress)
    progress.finish()
    for index in todo:
        report.extend(rendered[index].diagnostics)
        produced[index] = rendered[index].outputs
    if report.has_errors:
        return result
    result.outputs = [output for index in range(len(planned)) for output in produced[index]]
    if not outputs_contained(result.outputs, out_dir, report):
        return result
    # only now, with every file rendered, does anything reach the disk: all of it, or none
    # (write.py)
    new = {index: produced[index] for index in todo}
    committed = commit_outputs(
        result, checked, cache, key_of(settings), whole, new, keys, force=request.force
    )
    if committed is None:
        return result
    result.seconds = time.monotonic() - started
    if committed.interrupted:
        raise BuildInterrupted(result)
    return result


def check_request(request: BuildRequest) -> tuple[Report, Checked | None]:
    """The check step of a build: `check` of what the request asks for, its incomplete translations
    left out (or laid out as drafts), its card sheets measured on the papers it prints on."""
    pnp = request.target is Target.PNP
    return check(
        request.data_dir,
        games=list(request.games) if request.games is not None else None,
        langs=list(request.langs) if request.langs is not None else None,
        templates_dir=request.templates_dir,
        variant=request.variant,
        incomplete=Incomplete.DRAFT if request.builds_draft else Incomplete.SKIP,
        papers=(list(request.papers or ()) or None) if pnp else [],
    )


def plan_jobs(request: BuildRequest, checked: Checked) -> list[Job]:
    """The plan step: every job the request makes of the checked project (jobs of its shard only). A
    paper, language or print-shop profile asked for that the project lacks is a BadRequest."""
    project = checked.project
    papers = list(request.papers) if request.papers is not None else None
    langs = list(request.langs) if request.langs is not None else None
    for unknown in (unknown_papers(project, papers), unknown_languages(project, langs)):
        if unknown:
            raise BadRequest(unknown)
    names = request.chosen()
    if request.target is Target.SHOP:
        names = names or sorted(project.profiles)
        _known_shops(project, names)
    planned = plan(
        checked.layouts, request.target, papers or project.media.print_and_play.papers, names or []
    )
    if request.shard is not None:
        part, parts = request.shard
        planned = [job for index, job in enumerate(planned) if index % parts == part - 1]
    return planned


def _known_shops(project: Project, names: list[str]) -> None:
    """A print-shop profile asked for, not written in the data, is a BadRequest, as an unknown paper
    is."""
    unknown = [name for name in names if name not in project.profiles]
    if not unknown:
        return
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


class BadRequest(Exception):
    """What was asked for does not exist (a paper, a language) or the environment is malformed: a
    usage error (exit 2), not a problem of the data."""


class BuildInterrupted(KeyboardInterrupt):
    """Ctrl-C came while the new files were being put in place: that was finished first, so the kit
    on disk is the new one, whole; `result` says what was written."""

    def __init__(self, result: Result):
        super().__init__("interrupted after the new files were in place")
        self.result = result


def check_environment() -> None:
    """SOURCE_DATE_EPOCH, when set, must be whole seconds (ReportLab would fail on every file
    otherwise) from 1980 to 2099 (not the year 3176); PRINTSHOP_JOBS, when set, a number of processes."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch and not (epoch.isascii() and epoch.isdigit()):
        raise BadRequest(
            f"SOURCE_DATE_EPOCH is {epoch!r}: it must be a whole number of seconds since 1970 "
            "(e.g. the date of the last commit: git log -1 --format=%ct), or unset"
        )
    if epoch and not EPOCH_RANGE[0] <= int(epoch) <= EPOCH_RANGE[1]:
        raise BadRequest(
            f"SOURCE_DATE_EPOCH is {epoch}: it must be a date from 1980 to 2099 in seconds since "
            "1970 (e.g. the date of the last commit: git log -1 --format=%ct), or unset"
        )
    default_workers()


EPOCH_RANGE = (315_532_800, 4_102_444_799)  # 1980-01-01 to 2099-12-31 (UTC): dates a PDF may hold


def default_workers() -> int:
    """paths.default_jobs, a malformed $PRINTSHOP_JOBS a BadRequest (a usage error, exit 2)."""
    try:
        return default_jobs()
    except ValueError as error:
        raise BadRequest(str(error)) from None


def output_problem(out_dir: Path) -> tuple[Path, str] | None:
    """(path, why) if the output folder or its cache cannot be written; checked before anything is
    loaded."""
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
