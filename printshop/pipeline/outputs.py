"""The commit step: every rendered file put in place at once (write/commit.py), the files an earlier
build wrote that this one no longer makes removed (`stale_outputs`), and the cache told what was
made.

A file is removed or replaced only if printshop wrote it for this project and it still holds the
bytes written: the cache's record of what each build wrote names its project (the data folder's real
path) and each file's hash (write/cache.py). A file in the way that no record of this project
accounts for is refused (`foreign_files`, `foreign-output`), naming the other project when one
wrote it, unless `--force`; a record that names a path no build writes is not obeyed at all. A
record of a project whose folder is gone (moved), or of the form before projects were named, lets a
file holding its recorded bytes be replaced, never removed.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from printshop.diagnostics import Location, Report, Severity, display_path
from printshop.language.i18n import Completeness
from printshop.pipeline.plan import Job, Output
from printshop.write.cache import (
    Cache,
    digest_of,
)
from printshop.write.commit import (
    Committed,
    WriteFailed,
    commit,
    locked,
    recover,
    remove_stale_parts,
)

if TYPE_CHECKING:
    from printshop.pipeline.build import Checked, Result


def belongs(job: Job, path: Path) -> bool:
    """Whether `path` is one this job could make: under <game>/<lang>/ (or calibration/), plain
    names only."""
    prefix = ("calibration",) if job.game is None else (job.game, job.lang)
    return belongs_anywhere(path) and path.parts[: len(prefix)] == prefix


def belongs_anywhere(path: Path) -> bool:
    from printshop.write.commit import safe_relative

    return safe_relative(path.as_posix()) and not path.is_absolute()


# --- what a build no longer makes
# ------------------------------------------------------------------------


def project_name(checked: Checked) -> str:
    """The project, as the cache's records name it: its data folder's real path."""
    return str(Path(checked.project.data_dir).resolve())


def folders_stamp(checked: Checked, out_dir: Path) -> list[int]:
    """The data and output folders' device and inode numbers: what a record of outputs copied
    or shipped with the folders cannot hold (write/cache.py, `Cache.outputs_of`)."""
    data, out = Path(checked.project.data_dir).stat(), out_dir.stat()
    return [data.st_dev, data.st_ino, out.st_dev, out.st_ino]


def foreign_files(
    cache: Cache, project: str, stamp: list[int], outputs: list[Output], out_dir: Path
) -> list[tuple[Path, str]]:
    """(file, why) for each file the commit would replace that printshop did not write for
    `project` (or that was changed since): a user's own file, another project's (a project whose
    data folder is there, that built into this very output folder: not one copied with it)."""
    owners, foreign = None, []
    for output in outputs:
        target = out_dir / output.path
        if not target.is_symlink() and not target.exists() or same_bytes(target, output.data):
            continue
        if owners is None:
            owners = cache.owners()
        try:
            digest = digest_of(target.read_bytes()) if not target.is_symlink() else None
        except OSError:
            digest = None  # (a folder, an unreadable file: commit says why it cannot replace it)
            if target.is_dir():
                continue
        path = str(output.path)
        claims = {
            (name, str(made[2:]) if isinstance(made, list) else None)
            for name, made, files in owners
            if digest and files.get(path) == digest
        }
        if any(name == project for name, _ in claims):
            continue
        here = str(stamp[2:])
        others = sorted(
            name
            for name, where in claims
            if name is not None and where == here and Path(name).is_dir()
        )
        if others:
            why = f"was written by the project in {display_path(Path(others[0]))}, not this one"
        elif claims:
            continue  # written here by a printshop before projects were named, or a moved project
        else:
            why = "was not written by printshop for this project, or was changed since"
        foreign.append((target, f"{target.name} {why}"))
    return foreign


def stale_outputs(
    recorded: dict[str, str], outputs: list[Output], checked: Checked, out_dir: Path
) -> list[tuple[str, str, Path]]:
    """(path, why, the data file that explains it) for each file the last build with the same
    settings wrote that this one does not make: its game or language is gone, or the game no longer
    makes it (a sheet or deck dropped or renamed). Only files in that record, and only if they still
    hold the bytes it wrote (a file the user changed is left alone); never anything else in the
    output folder."""
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
            # the game and language are built, but no longer make this file: a sheet or deck dropped
            # or renamed
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


def say_what_is_kept(refused: list[Completeness], out_dir: Path, report: Report) -> None:
    """A translation left out as incomplete keeps the files an earlier build made of it
    (stale_outputs): its warning says so, or "not built" reads as if none were there, and an old kit
    gets printed."""
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


def report_removed(
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


def same_bytes(
    path: Path, data: bytes
) -> bool:  # (a session writes only files whose bytes changed)
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def outputs_contained(outputs: list[Output], out_dir: Path, report: Report) -> bool:
    """Whether every file is a plain path inside the output folder (else reported, and nothing is
    written)."""
    for output in outputs:
        if not belongs_anywhere(output.path):
            report.add(
                "internal",
                Location.of(out_dir),
                f"a job made the path {str(output.path)!r}, which is not "
                "a plain path inside the output folder; nothing was written",
            )
            return False
    return True


def commit_outputs(
    result: Result,
    checked: Checked,
    cache: Cache,
    settings_key: str,
    whole: str,
    new: dict[int, list[Output]],
    keys: list[str],
    force: bool = False,
) -> Committed | None:
    """The commit step: `result.outputs` put in place at once under the output folder's lock (an
    earlier build stopped while writing completed first), the files the last build with these
    settings wrote that this one no longer makes removed, then the cache told: the `new` jobs' files
    under their `keys`, what these settings wrote, and the whole build's key `whole` (for the no-op
    check). `result` says what was written, removed or recovered; None when the files could not be
    written (reported, as `cannot-write`), or would replace a file printshop did not write for this
    project (`foreign-output`; unless `force`). Ctrl-C while the cache is told leaves the kit in place,
    whole: the answer's `interrupted` says so."""
    out_dir, report, project = cache.out_dir, result.report, project_name(checked)
    try:
        with locked(out_dir):
            result.recovered = recover(out_dir)
            remove_stale_parts(out_dir)
            stamp = folders_stamp(checked, out_dir)
            foreign = [] if force else foreign_files(cache, project, stamp, result.outputs, out_dir)
            for target, why in foreign:
                report.add(
                    "foreign-output",
                    Location.of(target),
                    f"{why}; nothing was written (move it away, build into another --out, or "
                    "--force to replace it)",
                )
            if foreign:
                return None
            recorded = cache.outputs_of(settings_key, project, stamp)
            if recorded is None:
                report.add(
                    "foreign-output",
                    Location.of(cache.root / "outputs.json"),
                    "this record of what earlier builds wrote names files no build writes: it is "
                    "not obeyed, and nothing an earlier build wrote is removed",
                    severity=Severity.WARNING,
                )
            stale = stale_outputs(recorded or {}, result.outputs, checked, out_dir)
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
            report_removed(stale, done.removed, out_dir, report)
            # the kit is in place: Ctrl-C from here on must not be told as "nothing was written"
            try:
                for index, files in new.items():
                    cache.store_outputs(keys[index], files)
                cache.record_outputs(
                    settings_key,
                    project,
                    stamp,
                    {str(o.path): digest_of(o.data) for o in result.outputs},
                )
                if not (
                    result.refused or result.drafts
                ):  # else the next build must load again, to say what it left out
                    cache.record_build(whole, [str(output.path) for output in result.outputs])
            except KeyboardInterrupt:
                done.interrupted = True
            return done
    except WriteFailed as failure:
        report.add("cannot-write", Location.of(failure.path), str(failure))
        result.written = list(failure.replaced)
        return None
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
        return None
