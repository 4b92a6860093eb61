"""The cache look-up step: each job's key (everything its files are made from, see write/cache.py),
the art its faces read, and the jobs' files found in the cache under those keys. A build and a
session give the same job the same key, so a session's files stored in the cache serve the next
build.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from printshop.pipeline.outputs import belongs
from printshop.pipeline.plan import Job, Output
from printshop.pipeline.request import Options
from printshop.typeset.templating import HOW_TO_PRINT_TEMPLATE, template_folders
from printshop.write.cache import (
    Cache,
    Digests,
    code_version,
    font_inputs,
    key_of,
)

if TYPE_CHECKING:
    from printshop.pipeline.build import Checked


def job_key(
    job: Job, checked: Checked, options: Options, digests: Digests, code: str, *, looks: bool = True
) -> str:
    """Everything a job's files are made from (see cache.py): a French text is an input of the
    French jobs of its game only, a template of the jobs of the games whose faces or booklet it
    makes. With `looks=False`, all but the shared palette and motifs (data/print/colours.yaml,
    motifs.yaml), which a session's job holds colour by colour and motif by motif (session.py)."""
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
    # any template, for a job of no game (the calibration page) or a game with one named by an
    # expression
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
    """The images these faces name, by their hashes, wherever they lie inside the project (validate
    refuses the others): art in another game's folder or in data/print is an input of this game's
    jobs too (and of the faces that draw it, in a session)."""
    return [
        (source, digests.file(Path(os.path.realpath(game_dir / source))))
        for source in art_of(faces)
    ]


def job_keys(planned: list[Job], checked: Checked, options: Options, digests: Digests) -> list[str]:
    """Each planned job's key (`job_key`), the code hashed once for all of them."""
    code = code_version(digests)
    return [job_key(job, checked, options, digests, code) for job in planned]


def look_up(
    planned: list[Job], keys: list[str], cache: Cache, *, force: bool = False
) -> tuple[dict[int, list[Output]], list[int]]:
    """The cache look-up step: ({index: files} of the jobs found in the cache, the indices of the
    others, to render). With `force`, nothing is found. A record naming files its job does not make
    is never trusted."""
    produced: dict[int, list[Output]] = {}
    todo = []
    for index, key in enumerate(keys):
        hit = None if force else cache.load_job(key)
        if hit is not None and not all(
            belongs(planned[index], Path(entry.path)) for entry, _ in hit
        ):
            hit = None  # a record naming files this job does not make: never trusted
        if hit is None:
            todo.append(index)
        else:
            produced[index] = [
                Output(Path(entry.path), data, entry.pages, entry.description, entry.kind)
                for entry, data in hit
            ]
    return produced, todo
