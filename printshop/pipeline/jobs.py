"""Rendering one job (plan.py says what a job is): `run` hands it to its kind, a print-and-play kit
(kit_job.py), a print shop's press files (press_job.py), an export without a kit (export_job.py), or
draws the calibration page.

Jobs share nothing but the checked project they read, so they run in any order, in any process
(workers.py runs them across processes; build.py serves unchanged ones from the cache). A job never
raises for bad data: what goes wrong is reported against the data or the game. The renderers of
press files (pikepdf, Pillow's colour management) are imported by the jobs that use them.
"""

from __future__ import annotations

import contextvars
from dataclasses import replace

from printshop.diagnostics import Report
from printshop.memo import Reads, noting
from printshop.pipeline.export_job import ExportJob
from printshop.pipeline.kit_job import KitJob, calibration
from printshop.pipeline.plan import EXPORTS, Job, JobResult
from printshop.pipeline.press_job import PressJob
from printshop.pipeline.request import Options

_noted_motifs: contextvars.ContextVar[list | None] = contextvars.ContextVar(
    "noted_motifs", default=None
)


def noting_motifs():
    """Note the names of the motifs each job run meanwhile looks up, in the list yielded (as
    colour.noting_colours notes colours): what a session's job reads of the motifs, so that it runs
    again only when one changes."""
    return noting(_noted_motifs)


def _as_seen(project, game):
    """The project as `game` sees it (Project.view); its motifs noting their reads while
    `noting_motifs`."""
    project = project.view(game)
    log = _noted_motifs.get()
    if log is None:
        return project
    return replace(
        project,
        motifs=project.motifs.model_copy(update={"motifs": Reads(project.motifs.motifs, log=log)}),
    )


def run(job: Job, checked, options: Options, env, say=lambda message: None) -> JobResult:
    """Render one job's files. `checked` is build.Checked; `env` the templates' Jinja environment."""
    result = JobResult()
    report = Report()
    if job.target == "calibration":
        calibration(job, checked.project, result)
    else:
        layout = next(
            layout
            for layout in checked.layouts
            if (layout.game_id, layout.lang, layout.localized.variant)
            == (job.game, job.lang, job.variant)
        )
        project = _as_seen(checked.project, layout.localized.data)
        if job.target == "shop":
            PressJob(project, layout, job.shop or "", report, result, say).run()
        elif job.target in EXPORTS:
            ExportJob(project, layout, job, report, result, say).run()
        else:
            KitJob(project, layout, job, options, env, report, result, say).run()
    result.diagnostics = list(report.items)
    return result
