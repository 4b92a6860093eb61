"""A session's render step: each job of the refresh runs again only if what it read changed (its key
but the shared palette and motifs, the laid-out faces it draws, the colours and motifs its run
looked up), and only files whose bytes changed are written, as live/session.py's docstring describes
under **Drawing** and **Writing**.

`JobRendering` is the part of `Session` that renders and writes; `JobRead` what a job read when it
last ran.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from printshop.diagnostics import Location
from printshop.memo import unchanged, values_of
from printshop.pipeline.build import Checked
from printshop.pipeline.jobs import noting_motifs, run
from printshop.pipeline.keys import job_key
from printshop.pipeline.outputs import folders_stamp, foreign_files, project_name, same_bytes
from printshop.pipeline.plan import Output, plan
from printshop.pipeline.request import BuildRequest, Options, Target
from printshop.project.loader import Project
from printshop.render.colour import noting_colours
from printshop.render.replay import FaceRecordings, motif_key, recording_into
from printshop.write.cache import Cache, Digests, code_version, digest_of, key_of
from printshop.write.commit import write_atomically

if TYPE_CHECKING:
    from printshop.live.session import Update


class JobRendering:
    """The render step of a Session (session.py), which sets these attributes."""

    checked: Checked | None
    project: Project | None
    papers: list[str] | None
    options: Options
    env: object
    recordings: FaceRecordings
    write: bool
    out_dir: Path | None
    outputs: list[Output]
    _code: str | None
    _jobs: dict
    _job_reads: dict
    _on_disk: dict
    request: BuildRequest

    def _render(self, update: Update, digests: Digests) -> None:
        checked, project = self.checked, self.project
        assert checked is not None and project is not None  # (a refresh renders what it laid out)
        planned = plan(
            checked.layouts, Target.PNP, self.papers or project.media.print_and_play.papers, []
        )
        if self._code is None:  # the code running is the code imported at the start: hashed once
            self._code = code_version(digests)
        code = self._code
        self.recordings.reset_counts()
        outputs: list[Output] = []
        jobs, reads = {}, {}
        for job in planned:
            key = job_key(job, checked, self.options, digests, code)
            # run again unless what it read is as it was: its inputs but the shared palette and
            # motifs, the faces it draws (the same objects: a face is laid out anew when anything
            # its layout read changed), and the colours and motifs its run looked up, with their
            # values (colour.noting_colours, jobs.noting_motifs)
            read = JobRead(
                job_key(job, checked, self.options, digests, code, looks=False),
                faces_of(job, checked),
                {},
                {},
            )
            palette, motifs = looks_of(job, checked)
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
        if not self.write or self.out_dir is None:
            return
        out_dir = self.out_dir
        try:
            self._write(outputs, checked, out_dir, update)
        except OSError as error:
            # a full disk, a folder gone or made read-only: said, and the files not written yet are
            # written at the next save (`_on_disk` notes only the files that reached the disk)
            where = Path(error.filename) if error.filename else out_dir
            update.report.add(
                "cannot-write",
                Location.of(where),
                f"cannot write {where}: {error.strerror or error}; written again at the next save",
            )

    def _write(self, outputs: list[Output], checked: Checked, out_dir: Path, update) -> None:
        """Write the files whose bytes changed, remove those this session no longer makes, record
        what it wrote. A file noted as written is written again if it is no longer there (its
        folder removed, or emptied, meanwhile)."""
        if not self._owned(outputs, checked, out_dir, update):
            return
        for output in outputs:
            target = out_dir / output.path
            last = self._on_disk.get(target)
            if last is not None and last is output.data and target.is_file():
                continue
            if not same_bytes(target, output.data):
                self._on_disk.pop(target, None)
                write_atomically(target, output.data)
                update.written.append(target)
            self._on_disk[target] = output.data
        # a file this session wrote and no longer makes (a draft's -draft files once its translation
        # is complete, a paper or a sheet taken out of the data) goes, as a build removes what the
        # build before it wrote; a file changed since by someone else is left where it is
        made = {out_dir / output.path for output in outputs}
        for target in [path for path in self._on_disk if path not in made]:
            data = self._on_disk.pop(target)
            if same_bytes(target, data):
                try:
                    target.unlink()
                except OSError:
                    continue  # (left where it is, as a file someone changed would be)
                update.removed.append(target)
        # what it wrote, recorded as a build records it: a build after it replaces these files
        if not outputs or not out_dir.is_dir():
            return  # (nothing made, and no folder made for it)
        Cache(out_dir).record_outputs(
            key_of(self.request.settings()),
            project_name(checked),
            folders_stamp(checked, out_dir),
            {str(output.path): digest_of(output.data) for output in outputs},
        )

    def _owned(self, outputs: list[Output], checked: Checked, out_dir: Path, update) -> bool:
        """Whether every file this refresh would replace is one printshop wrote for this project
        (pipeline/outputs.py, `foreign_files`); else each is reported and nothing is written. A file
        this session wrote is its own."""
        fresh = [output for output in outputs if out_dir / output.path not in self._on_disk]
        if self.request.force or not fresh or not out_dir.is_dir():
            return True
        foreign = foreign_files(
            Cache(out_dir), project_name(checked), folders_stamp(checked, out_dir), fresh, out_dir
        )
        for target, why in foreign:
            update.report.add(
                "foreign-output",
                Location.of(target),
                f"{why}; nothing was written (move it away, or watch another --out)",
            )
        return not foreign


@dataclass
class JobRead:
    """What a session's job read when it last ran (see `Session._render`)."""

    key: str  # its inputs but the shared palette and motifs (keys.job_key with looks=False)
    faces: tuple  # the laid-out faces it draws, the objects themselves
    colours: dict  # palette name -> value, of the names its run looked up
    # motif name -> its content (replay.motif_key; None: none), of the names its run looked up
    motifs: dict

    def holds(self, now: "JobRead", palette: dict, motifs: dict) -> bool:
        return (
            now.key == self.key
            and len(now.faces) == len(self.faces)
            and all(face is kept for face, kept in zip(now.faces, self.faces))
            and unchanged(self.colours, palette)
            and unchanged(self.motifs, motifs, motif_key)
        )


def faces_of(job, checked) -> tuple:
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


def looks_of(job, checked) -> tuple[dict, dict]:
    """The palette and motifs the job's outputs are drawn with: its game's own over the project's."""
    project = checked.project
    game = project.games.get(job.game) if job.game is not None else None
    seen = project.view(game) if game is not None else project
    return seen.colours.palette, seen.motifs.motifs
