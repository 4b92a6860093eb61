"""The pipeline, end to end: load -> resolve the language -> validate -> lay out -> render -> write.

`check` runs the stages up to layout and returns the diagnostics (what `printshop validate`
prints). `build` runs them all, and writes nothing unless every game in every requested
language laid out without errors and rendered.

Rendering is a list of independent jobs (jobs.py): game x language x target x paper or profile.
Unchanged jobs are served from the content-addressed cache (cache.py); the others run across
processes (`jobs`, default one per core). `shard=(i, n)` builds the i-th of n slices of the job
list, for a CI matrix. A build whose inputs and outputs are all as the last one left them stops
before loading anything.
"""
from __future__ import annotations

import multiprocessing
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from printshop.cache import Cache, CachedFile, Digests, code_version, digest_of, font_inputs, key_of, whole_build_key
from printshop.diagnostics import Location, Report, StageFailed
from printshop.fonts import FontSet, register_fonts
from printshop.jobs import Job, JobResult, Options, Output, plan, run
from printshop.layout import GameLayout, lay_out_game
from printshop.loader import DEFAULT_DATA_DIR, Project, load_project
from printshop.progress import Progress
from printshop.resolve import localize
from printshop.templating import make_environment
from printshop.validate import validate_project
from printshop.write import write_atomically

ALL_VARIANTS = "*"


@dataclass
class Result:
    report: Report
    outputs: list[Output] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)  # files whose bytes changed on disk
    unchanged: list[Path] = field(default_factory=list)  # files already on disk with the same bytes
    rendered_jobs: list[str] = field(default_factory=list)  # job labels, e.g. "comrade fr a4"
    cached_jobs: list[str] = field(default_factory=list)
    up_to_date: list[str] | None = None  # the no-op case: nothing was loaded; the files the last build wrote
    seconds: float = 0.0


@dataclass
class Checked:
    project: Project
    fonts: FontSet
    layouts: list[GameLayout]


def check(data_dir: Path = DEFAULT_DATA_DIR, *, games: list[str] | None = None, langs: list[str] | None = None,
          templates_dir: Path | None = None, report: Report | None = None,
          variant: str | None = ALL_VARIANTS) -> tuple[Report, Checked | None]:
    """Load, validate and lay out; never raises for bad data. By default every naming variant of every
    game is laid out too (names change lengths); `variant=None` lays out the default names only, and
    a name lays out that variant for the games that have it."""
    report = report if report is not None else Report()
    try:
        project = load_project(Path(data_dir), templates_dir, games=games, report=report)
    except StageFailed:
        return report, None
    except Exception as error:  # noqa: BLE001 - an unforeseen failure is still reported, not thrown
        report.add("internal", Location.of(data_dir), f"loading failed unexpectedly: {type(error).__name__}: {error}")
        return report, None
    try:
        validate_project(project, report)
    except Exception as error:  # noqa: BLE001
        report.add("internal", Location.of(data_dir), f"validation failed unexpectedly: {type(error).__name__}: {error}")
        return report, None
    fonts = register_fonts(project.fonts, project.font_dirs(), report)
    env = make_environment(project.templates_dir)
    layouts = []
    for game in project.games.values():
        if variant == ALL_VARIANTS:
            chosen = [None, *game.game.variants]
        else:
            chosen = [variant if variant in game.game.variants else None]
        for lang in game.languages:
            for name in (chosen if langs is None or lang in langs else []):
                try:
                    layouts.append(lay_out_game(project, localize(project, game, lang, name), fonts, env, report))
                except Exception as error:  # noqa: BLE001 - a diagnostic naming the game, never a traceback
                    report.add("internal", Location.of(game.dir),
                               f"laying out {game.id} ({lang}) failed unexpectedly: {type(error).__name__}: {error}")
    return report, Checked(project, fonts, layouts)


def _job_key(job: Job, checked: Checked, options: Options, digests: Digests, code: str) -> str:
    """Everything a job's files are made from (see cache.py): a French text is an input of the French
    jobs of its game only."""
    project = checked.project
    data = Path(project.data_dir)
    parts = [digests.tree(data / "print"), digests.file(data / "languages" / f"{job.lang}.yaml"),
             digests.tree(project.templates_dir), font_inputs(digests, data)]
    if job.game is not None:
        game = project.games[job.game]
        wanted = {job.lang, game.game.source_language}

        def other_language(path: Path) -> bool:
            return path.parent.name == "text" and path.name.split(".")[0] not in wanted

        parts.append(digests.tree(game.dir, skip=other_language))
    return key_of(code, job.__dict__, options.__dict__, parts)


_STATE: dict = {}  # what forked workers read: set before the pool starts, never sent to them


def _work(index: int) -> tuple[int, JobResult]:
    job = _STATE["jobs"][index]
    try:
        return index, run(job, _STATE["checked"], _STATE["options"], _STATE["env"], _STATE["say"])
    except Exception as error:  # noqa: BLE001 - a diagnostic naming the job, never a traceback
        report = Report()
        report.add("internal", Location.of(_STATE["checked"].project.data_dir),
                   f"rendering {job.label} failed unexpectedly: {type(error).__name__}: {error}")
        return index, JobResult([], report.items)


def _run_jobs(todo: list[int], jobs: list[Job], checked: Checked, options: Options, workers: int,
              progress: Progress) -> dict[int, JobResult]:
    parallel = workers > 1 and len(todo) > 1 and "fork" in multiprocessing.get_all_start_methods()
    _STATE.update(jobs=jobs, checked=checked, options=options, env=make_environment(checked.project.templates_dir),
                  say=(lambda message: None) if parallel else progress.message)
    results: dict[int, JobResult] = {}
    try:
        if parallel:  # fork: workers inherit the checked project (no pickling); only files travel back
            with multiprocessing.get_context("fork").Pool(min(workers, len(todo))) as pool:
                for index, result in pool.imap_unordered(_work, todo):
                    results[index] = result
                    progress.advance(f"{jobs[index].label} ({len(result.outputs)} files)")
        else:
            for index in todo:
                results[index] = _work(index)[1]
                progress.advance(f"{jobs[index].label} ({len(results[index].outputs)} files)")
    finally:
        _STATE.clear()
    return results


def build(data_dir: Path = DEFAULT_DATA_DIR, out_dir: Path = Path("output"), *, games: list[str] | None = None,
          langs: list[str] | None = None, papers: list[str] | None = None, templates_dir: Path | None = None,
          variant: str | None = None, target: str = "pnp", profiles: list[str] | None = None,
          flip: str = "long-edge", back_offset: tuple[float, float] = (0.0, 0.0), gutterfold: bool = False,
          low_ink: bool = False, jobs: int | None = None, shard: tuple[int, int] | None = None,
          force: bool = False, progress: Progress = Progress()) -> Result:
    """Build print-and-play files (`target="pnp"`) or press files for print-shop `profiles`
    (`target="shop"`; all profiles when None). Nothing is written unless everything rendered.
    `jobs`: processes (default: one per core); `shard=(i, n)`: only the i-th (1-based) of n slices
    of the job list; `force`: ignore the cache."""
    started = time.monotonic()
    out_dir = Path(out_dir)
    options = Options(flip, tuple(back_offset), gutterfold, low_ink)
    cache, digests = Cache(out_dir), Digests()
    settings = dict(games=games, langs=langs, papers=papers, variant=variant, target=target, profiles=profiles,
                    shard=shard, **options.__dict__)
    whole = whole_build_key(digests, Path(data_dir), templates_dir, settings)
    if not force:
        up = cache.up_to_date(whole)
        if up is not None:
            return Result(Report(), up_to_date=up, seconds=time.monotonic() - started)
    progress.message("checking data and laying out")
    report, checked = check(data_dir, games=games, langs=langs, templates_dir=templates_dir, variant=variant)
    result = Result(report)
    if checked is None or report.has_errors:
        return result
    project = checked.project
    for paper in papers or []:
        if paper not in project.media.papers:
            report.add("unknown-reference", project.media.where("papers"), f"no paper '{paper}'")
    chosen_profiles = profiles or sorted(project.profiles)
    unknown = [name for name in chosen_profiles if name not in project.profiles]
    if target == "shop" and unknown:
        report.add("unknown-reference", Location.of(Path(data_dir) / "print" / "profiles"),
                   f"no print-shop profile {', '.join(unknown)} (profiles: {', '.join(project.profiles)})")
    if report.has_errors:
        return result
    planned = plan(checked.layouts, target, papers or project.media.print_and_play.papers, chosen_profiles)
    if shard is not None:
        part, parts = shard
        planned = [job for index, job in enumerate(planned) if index % parts == part - 1]
    code = code_version(digests)
    keys = [_job_key(job, checked, options, digests, code) for job in planned]
    produced: dict[int, list[Output]] = {}
    todo = []
    for index, key in enumerate(keys):
        hit = None if force else cache.load_job(key)
        if hit is None:
            todo.append(index)
        else:
            produced[index] = [Output(Path(entry.path), data, entry.pages, entry.description, entry.kind)
                               for entry, data in hit]
    result.rendered_jobs = [planned[index].label for index in todo]
    result.cached_jobs = [job.label for index, job in enumerate(planned) if index not in set(todo)]
    progress.start(len(todo))
    rendered = _run_jobs(todo, planned, checked, options, jobs or os.cpu_count() or 1, progress)
    progress.finish()
    for index in todo:
        report.extend(rendered[index].diagnostics)
        produced[index] = rendered[index].outputs
    if report.has_errors:
        return result
    result.outputs = [output for index in range(len(planned)) for output in produced[index]]
    for output in result.outputs:  # only now, with every file rendered, does anything reach the disk
        target_path = out_dir / output.path
        if _same_bytes(target_path, output.data):
            result.unchanged.append(target_path)
        else:
            write_atomically(target_path, output.data)
            result.written.append(target_path)
    for index in todo:
        cache.store_job(keys[index], [(CachedFile(str(o.path), digest_of(o.data), o.pages, o.description, o.kind),
                                       o.data) for o in produced[index]])
    cache.record_build(whole, [str(output.path) for output in result.outputs])
    result.seconds = time.monotonic() - started
    return result


def _same_bytes(path: Path, data: bytes) -> bool:
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False
