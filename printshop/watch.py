"""`printshop watch`: rebuild on save. A `Session` (session.py) keeps the project, layouts and drawn
faces in memory; each time data or templates change on disk, only what changed is read, laid out,
drawn and written, and one line says what happened.

Files are watched with watchfiles (native notifications, polling where there are none); changes
that arrive together (an editor's save in several steps) are taken as one.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from printshop.diagnostics import Report, Severity, format_report
from printshop.session import Session, Update

# watchfiles yields once no further change has come for STEP ms, and at the latest after DEBOUNCE ms
DEBOUNCE_MS = 400
STEP_MS = 30


def changed_paths(changes) -> set[Path]:
    return {Path(path) for _, path in changes}


def watched_folders(session: Session) -> list[Path]:
    return [folder for folder in (session.data_dir, session.templates_dir) if folder.is_dir()]


def describe(update: Update, session: Session) -> str:
    """One line per rebuild, e.g. 'comrade fr a4: 1 face changed, 2 files written in 0.21 s'."""
    seconds = f"in {update.seconds:.2f} s"
    errors = sum(1 for d in update.report.items if d.severity is Severity.ERROR)
    if not update.ok:
        if session.project is None:
            return f"the data could not be read ({errors} error{'s' if errors != 1 else ''}; nothing written) {seconds}"
        return f"{errors} error{'s' if errors != 1 else ''}: nothing written {seconds}"
    what = ", ".join(update.jobs_rendered) or "nothing to render"
    faces = update.faces_laid_out
    files = len(update.written)
    return (f"{what}: {faces} face{'s' if faces != 1 else ''} changed, "
            f"{files} file{'s' if files != 1 else ''} written {seconds}")


def watch(session: Session, *, say: Callable[[str], None] = print, stop: threading.Event | None = None,
          report: Callable[[Report], None] | None = None, ready: Callable[[], None] | None = None) -> None:
    """Build once, then again after every change, until `stop` is set (or Ctrl-C). `say` gets one line
    per rebuild; `report` the diagnostics of each rebuild (default: printed through `say`)."""
    import watchfiles

    def show(update: Update) -> None:
        if report is not None:
            report(update.report)
        elif update.report.items:
            say(format_report(update.report))
        say(describe(update, session))

    show(session.refresh())
    if ready is not None:
        ready()
    stop = stop or threading.Event()
    for changes in watchfiles.watch(*watched_folders(session), debounce=DEBOUNCE_MS, step=STEP_MS,
                                    stop_event=stop, raise_interrupt=False):
        show(session.refresh(changed_paths(changes)))
