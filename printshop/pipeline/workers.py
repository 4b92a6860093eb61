"""The render step across processes: `run_jobs` renders the jobs not found in the cache, in forked
worker processes when there is work for more than one (`run_parallel`), else here; `in_processes`
shares any list of work among forked processes (check's layouts, for validate). Forked workers
inherit what was loaded (no pickling); only their results travel back.
"""

from __future__ import annotations

import os
import signal
from typing import TYPE_CHECKING

from printshop.diagnostics import Location, Report
from printshop.pipeline.plan import Job, JobResult
from printshop.pipeline.progress import Progress
from printshop.pipeline.request import Options
from printshop.typeset.templating import make_environment

if TYPE_CHECKING:
    from printshop.pipeline.build import Checked


def in_processes(units: list, work, jobs: int, *, weight) -> list:
    """[work(unit) for unit in units], the units shared among up to `jobs` forked processes
    (balanced by `weight`) and the results given back in the units' order. The forks
    (render/helper.py's `Helper`) inherit everything loaded; each sends its results back pickled.
    Where fork is not the way (not Linux), or a child fails, the work is done here."""
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


SIGNAL_POLL = 0.2  # seconds: how soon a Ctrl-C that reached another thread stops a parallel build


_STATE: dict = {}  # what forked workers read: set before the pool starts, never sent to them


def _work(index: int) -> tuple[int, JobResult]:
    from printshop.pipeline import jobs  # the renderers: imported when a build first renders

    job = _STATE["jobs"][index]
    try:
        return index, jobs.run(
            job, _STATE["checked"], _STATE["options"], _STATE["env"], _STATE["say"]
        )
    except Exception as error:  # noqa: BLE001 - a diagnostic naming the job, never a traceback
        report = Report()
        report.add(
            "internal",
            Location.of(_STATE["checked"].project.data_dir),
            f"rendering {job.label} failed unexpectedly: {type(error).__name__}: {error}",
        )
        return index, JobResult([], report.items)


def _worker_start(parent: int) -> None:
    """Each worker: Ctrl-C is the main process's to handle (it stops the workers), a write to a
    closed pipe ends the worker quietly, and the worker dies with its parent (Linux:
    PR_SET_PDEATHSIG), so an orphan never lingers or prints a BrokenPipeError traceback."""
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
        results[index] = JobResult([], report.items)
    return results


def run_parallel(
    todo: list[int], jobs: list[Job], checked: Checked, workers: int, progress: Progress
) -> dict[int, JobResult]:
    """fork: workers inherit the checked project (no pickling); only files travel back. A worker
    that is killed or crashes breaks the pool at once (its sentinel closes): every job not finished
    then fails with `worker-died`, within a second, instead of the build waiting for ever."""
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
            # never a wait without end: Ctrl-C's signal may reach one of the pool's threads instead
            # of this one, and this thread acts on it only once it wakes (else only when a job
            # finishes)
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
        # joins the pool's manager thread too (it sees the workers gone at once), so nothing is left
        # for the interpreter's exit to wake through a closed pipe
        executor.shutdown(wait=True, cancel_futures=True)


def run_jobs(
    todo: list[int],
    jobs: list[Job],
    checked: Checked,
    options: Options,
    workers: int,
    progress: Progress,
) -> dict[int, JobResult]:
    import multiprocessing  # (imported here: `validate` never starts a pool)

    # a pool costs about 50 ms to start (forking, its threads, the files sent back) and a
    # calibration page a few ms to draw: one job with only calibration pages beside it (one game,
    # language and paper: what a designer builds while working on a deck) is quicker here, in this
    # process
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
            results = run_parallel(todo, jobs, checked, workers, progress)
        else:
            from printshop.render.helper import allowing_helpers

            # one job at a time here: with a core to spare, a large deck's faces are drawn in two
            # processes
            with allowing_helpers(
                workers > 1 and "fork" in multiprocessing.get_all_start_methods()
            ):
                for index in todo:
                    results[index] = _work(index)[1]
                    progress.advance(f"{jobs[index].label} ({len(results[index].outputs)} files)")
    finally:
        _STATE.clear()
    return results
