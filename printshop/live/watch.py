"""`printshop watch`: rebuild on save. A `Session` (session.py) keeps the project, layouts and drawn
faces in memory; each time data or templates change on disk, only what changed is read, laid out,
drawn and written, and one line says what happened.

Files are watched with watchfiles (`FileWatcher`): the system's notifications, or polling where
they cannot be had; changes that arrive together (an editor's save in several steps) are taken as
one. The watcher is started before the first build, so a save made while it runs is not missed.
"""

from __future__ import annotations

import os
import platform
import threading
from pathlib import Path
from typing import Callable, Iterator, Sequence

from printshop.diagnostics import (
    Diagnostic,
    Report,
    Severity,
    display_path,
    format_report,
    no_game_yet,
)
from printshop.live.session import Session, Update

# watchfiles yields once no further change has come for STEP ms, and at the latest after DEBOUNCE ms
DEBOUNCE_MS = 400
STEP_MS = 30
POLL_MS = 300  # between two looks at the files, where they are polled
WAIT_MS = 5_000  # the longest wait in watchfiles' code before the stop event is looked at again


def _polling_asked() -> bool:
    """watchfiles' own rule: WATCHFILES_FORCE_POLLING set (and not false), or running under WSL,
    whose notifications miss edits made from Windows."""
    asked = os.environ.get("WATCHFILES_FORCE_POLLING")
    if asked:
        return asked.lower() not in ("false", "disable", "disabled")
    return "microsoft-standard" in platform.uname().release.lower()


class FileWatcher:
    """Watches folders from the moment it is made: changes are collected until `changes()` takes
    them.

    Where the system's notifications cannot be had (on Linux, the per-user limits of inotify
    instances or watches, shared by every process of the user, Chromium's and editors' included;
    some network and container file systems), it polls every POLL_MS and says so once through `say`,
    rather than stop watching. Uses watchfiles' documented Rust backend directly: its `watch()`
    creates the watcher only when first asked for changes, too late to catch a save made meanwhile.
    """

    def __init__(
        self,
        folders: list[Path],
        *,
        say: Callable[[str], None] = print,
        ignore: Sequence[Path] = (),
    ):
        self.paths = [str(folder) for folder in folders]
        # what printshop itself writes (an output folder inside the data folder): its changes are no
        # one's edits
        self.ignore = tuple(os.path.abspath(folder) for folder in ignore)
        self.say = say
        self.polling = _polling_asked()
        self._notify = self._open(self.polling)

    def _open(self, polling: bool):
        from watchfiles._rust_notify import RustNotify

        try:
            return RustNotify(self.paths, False, polling, POLL_MS, True, False)
        except (OSError, RuntimeError) as error:  # RuntimeError: WatchfilesRustInternalError
            if polling or isinstance(error, FileNotFoundError):
                raise
            return self._fall_back(error)

    def _fall_back(self, error: Exception):
        self.say(
            f"the system's file notifications are not available ({error}); "
            f"looking at the files every {POLL_MS} ms instead"
        )
        self.polling = True
        return self._open(True)

    def changes(self, stop: threading.Event) -> Iterator[set[Path] | None]:
        """Each group of changed paths (filtered as watchfiles does: no editor swap files, no .git,
        no __pycache__), until `stop` is set or Ctrl-C; None where what changed is not known (the
        refresh then reads everything)."""
        from watchfiles import Change, DefaultFilter

        keep = DefaultFilter()
        try:
            while True:
                try:
                    raw = self._notify.watch(DEBOUNCE_MS, STEP_MS, WAIT_MS, stop)
                except (
                    RuntimeError
                ) as error:  # the notifications broke down (a limit reached later on)
                    if self.polling:
                        raise
                    self._notify.close()
                    self._notify = self._fall_back(error)
                    yield None  # what changed meanwhile is not known: everything is read again
                    continue
                if raw in ("stop", "signal"):
                    return
                if raw == "timeout":
                    continue
                paths = {
                    Path(path)
                    for change, path in raw
                    if keep(Change(change), path) and not self._ignored(path)
                }
                if paths:
                    yield paths
        finally:
            self.close()

    def _ignored(self, path: str) -> bool:
        path = os.path.abspath(path)
        return any(path == folder or path.startswith(folder + os.sep) for folder in self.ignore)

    def close(self) -> None:
        """Stop watching (the system's watches are given back); `changes()` does it when it ends."""
        self._notify.close()


def watched_folders(session: Session) -> list[Path]:
    """The data and templates folders, and the real folder of each file a symbolic link in the data
    leads to elsewhere: a file is watched where it really is (its target replaced is a change)."""
    from printshop.live.reading import links_below

    roots = [folder for folder in (session.data_dir, session.templates_dir) if folder.is_dir()]
    real = [root.resolve() for root in roots]
    more = sorted(
        {
            target.parent
            for target in links_below(session.data_dir)
            if target.parent.is_dir() and not any(root in target.parents for root in real)
        }
    )
    return roots + more


def describe(update: Update, session: Session, *, first: bool = False) -> str:
    """One line per rebuild, e.g. 'comrade fr a4: 1 face changed, 2 files written in 0.21 s';
    `first`: the build a session starts with, which lays out everything."""
    seconds = f"in {update.seconds:.2f} s"
    if not update.ok:
        errors = update.report.counts()[Severity.ERROR]  # as listed: the same one met twice, once
        if session.project is None:
            return f"the data could not be read ({errors} error{'s' if errors != 1 else ''}; nothing written) {seconds}"
        return f"{errors} error{'s' if errors != 1 else ''}: nothing written {seconds}"
    if first and not update.written:
        return _first_built(update, session, seconds)
    return _changed(update, first, seconds)


def _first_built(update: Update, session: Session, seconds: str) -> str:
    """The line of a session's first build that wrote nothing."""
    faces = update.faces_laid_out
    if not faces and session.project is not None and not session.project.games:
        return f"{no_game_yet(session.data_dir)}, built as soon as it is saved {seconds}"
    refused = session.checked.refused if session.checked is not None else []
    if not faces and refused:  # what was asked for is there, but unfinished
        named, one = (
            ", ".join(f"{state.game} {state.lang}" for state in refused),
            len(refused) == 1,
        )
        return (
            f"nothing to build: {named} lack{'s' if one else ''} texts and {'is' if one else 'are'} left out "
            f"(see above; --draft writes a marked draft, printshop serve shows it as it stands) {seconds}"
        )
    if not faces:
        return f"nothing to build: no face in the games and languages chosen {seconds}"
    folder = display_path(session.out_dir) if session.out_dir is not None else "the output folder"
    return (
        f"up to date: {faces} face{'s' if faces != 1 else ''} laid out, as the files in {folder} already "
        f"have {'them' if faces != 1 else 'it'} {seconds}"
    )


def _changed(update: Update, first: bool, seconds: str) -> str:
    """The line of a rebuild (or a first build that wrote files): what it laid out, wrote and
    removed."""
    faces = update.faces_laid_out
    gone = len(update.removed)
    removed = (
        f"{gone} file{'s' if gone != 1 else ''} no longer made removed "
        f"({', '.join(path.name for path in update.removed)})"
        if gone
        else ""
    )
    if not update.written and removed:  # a paper or a draft's files that are no more
        return f"{removed} {seconds}"
    if (
        not update.written
    ):  # a comment, a text nothing prints, an error mended back to what the files hold
        if not faces and update.after_errors:  # every face as it was laid out before the error
            return f"no file changed: the errors are mended and the files already hold what the data says {seconds}"
        if not faces:
            return f"nothing to redo: no face reads what changed {seconds}"
        return (
            f"no file changed: {faces} face{'s' if faces != 1 else ''} laid out again, as the files already "
            f"have {'them' if faces != 1 else 'it'} {seconds}"
        )
    files = len(update.written)
    return (
        f"{', '.join(update.jobs_rendered)}: {faces} face{'s' if faces != 1 else ''} "
        f"{'laid out' if first else 'changed'}, {files} file{'s' if files != 1 else ''} written"
        f"{', ' + removed if removed else ''} {seconds}"
    )


def identity(d: Diagnostic) -> tuple:
    """What tells one diagnostic from another across rebuilds (`news`: said once, then counted)."""
    return (
        d.location.path,
        d.location.line,
        d.location.col,
        d.severity,
        d.code,
        d.message,
        d.acknowledged,
    )


def news(report: Report, earlier: set[tuple]) -> tuple[Report, int]:
    """What a rebuild prints: every error (each one still blocks the files), and the warnings and
    notes that the rebuild before did not have; and how many it leaves out as said already. A
    catalogue's acknowledged warnings and notes (dozens for Kremlin) would otherwise bury, after
    every save, the line that save brought."""
    shown = [d for d in report.items if d.severity is Severity.ERROR or identity(d) not in earlier]
    return Report(shown), len(report.items) - len(shown)


def watch(
    session: Session,
    *,
    say: Callable[[str], None] = print,
    stop: threading.Event | None = None,
    report: Callable[[Report], None] | None = None,
    ready: Callable[[], None] | None = None,
) -> None:
    """Build once, then again after every change, until `stop` is set (or Ctrl-C). `say` gets one
    line per rebuild; `report` the diagnostics of each rebuild (default: printed through `say`, see
    `news`)."""
    earlier: set[tuple] = set()

    def show(update: Update, first: bool = False) -> None:
        nonlocal earlier
        if report is not None:
            report(update.report)
        else:
            fresh, repeated = news(update.report, earlier)
            if fresh.items:
                say(format_report(fresh))
            if repeated:
                say(
                    f"({repeated} warning{'s' if repeated != 1 else ''} and note{'s' if repeated != 1 else ''} "
                    f"as before, not repeated; printshop validate lists every one)"
                )
            earlier = {identity(d) for d in update.report.items}
        say(describe(update, session, first=first))

    watcher = FileWatcher(
        watched_folders(session),
        say=say,  # before the first build: no save is missed
        ignore=[session.out_dir] if session.out_dir is not None else [],
    )
    try:
        show(session.refresh(), first=True)
        if ready is not None:
            ready()
    except BaseException:
        watcher.close()
        raise
    try:
        for changed in watcher.changes(stop or threading.Event()):
            try:
                show(session.refresh(changed))
            except OSError as error:  # (one the session did not say itself): the next save retries
                say(
                    f"cannot rebuild: {error.strerror or error}"
                    f"{f' ({error.filename})' if error.filename else ''}; tried again at the next save"
                )
    finally:  # a build of the same data then takes the files this session made from the cache
        try:
            session.store()
        except OSError:
            pass  # (the cache is only quicker: a build renders those jobs again)
