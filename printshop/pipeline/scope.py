"""What of the project a build takes: names that stay inside the project (`contained`), the
translations that lack texts and what becomes of them (`unfinished_translations`), and what a
request names that the project lacks (`unknown_papers`, `unknown_languages`). `check` (build.py) and
a session's refresh (live/session.py) both call these steps.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from printshop.diagnostics import Location, Report, Severity
from printshop.language.i18n import completeness
from printshop.pipeline.request import Incomplete
from printshop.project.loader import Project
from printshop.project.paths import unportable
from printshop.write.commit import inside

if TYPE_CHECKING:
    pass


# --- containment: what the data names stays inside the project
# -------------------------------------- One pattern for every id that becomes part of a file name
# (model.py checks the ids written in the data with it; these are the ones that come from folder and
# file names).


_PLAIN_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class _SafeId:
    """A plain id that every common system can make a file of (paths.unportable)."""

    @staticmethod
    def match(name: str) -> bool:
        return bool(_PLAIN_ID.match(name)) and unportable(name) is None


SAFE_ID = _SafeId()


def contained(project: Project, report: Report, *, drop: bool = True) -> bool:
    """Report (`unsafe-path`) every game folder, language file and profile whose name is not a plain
    id (a game folder named '.printshop-cache', or with a newline, would be written as such), and
    every symlink in the data or templates that leads outside them (art, fonts and templates are
    read only from inside the project). Those games and languages are dropped, unless not `drop` (a
    session keeps its project, and says it again at every refresh). False if anything was reported."""
    clean = True

    def refuse(path: Path, what: str) -> None:
        nonlocal clean
        clean = False
        why = unportable(path.stem if path.suffix == ".yaml" else path.name)
        report.add(
            "unsafe-path",
            Location.of(path),
            f"{what} is not a plain id (lower-case letters, digits, '-' and "
            f"'_'), and names output files: rename it"
            if why is None
            else f"{what} names output files, but {why}: rename it",
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
        for path in escaping_links(root):
            clean = False
            report.add(
                "unsafe-path",
                Location.of(path),
                f"{path.name} is a symlink to {os.path.realpath(path)}, outside {root}: printshop reads only "
                f"files inside the project",
                hint="copy the file into the folder instead of linking to it",
            )
    return clean


def escaping_links(root: Path) -> list[Path]:
    """The symlinks under `root` (files or folders, not followed) that resolve outside it. Each
    folder's entries say themselves whether they are links and folders (the directory listing's own
    types, as `os.walk` reads them), so a project of a thousand files is looked over without a call
    to the system per file; a folder that cannot be listed is passed over, as `os.walk` passes it."""
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


def unfinished_translations(
    project: Project, report: Report, langs: list[str] | None, incomplete: Incomplete
) -> dict:
    """{(game, lang): Completeness} for every translation of `langs` (None: all) that lacks texts.
    Their `missing-text` errors leave the report (the translation is not built as one); each gets a
    single warning, worded for `incomplete`: SKIP (left out), DRAFT (built as a marked draft) or
    SHOWN (a session that shows it as it stands, serve). A translation outside `langs` is neither
    read (load_project) nor weighed here."""
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
        incomplete is Incomplete.SKIP
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
        if incomplete in (Incomplete.DRAFT, Incomplete.SHOWN):
            reference = project.games[game_id].reference_lang(lang)
            name = (
                project.languages[reference].name if reference in project.languages else reference
            )
            if incomplete is Incomplete.DRAFT:
                message = (
                    f"built as a DRAFT, {state.percent}% translated: {detail}, printed in {name}; its files "
                    f"end in -draft"
                )
                hint = (
                    "a draft is for proofreading, not for release: finish the translation, then build without "
                    "--draft"
                )
            # SHOWN: a preview (serve) shows the translation as it stands, to translate next to its
            # cards
            else:
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


def unknown_papers(project: Project, papers: list[str] | None) -> str:
    """What a build asked for `papers` says when the media know some not ("" when they know them
    all)."""
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
