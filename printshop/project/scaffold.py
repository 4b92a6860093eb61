"""New projects and new games from the files in `printshop/defaults/scaffold/`.

`printshop init [DIR]` makes a project folder (printshop.toml, data/, templates/, a .gitignore for
output/); with `--ci github` or `--ci gitlab`, also (or, in a project, only) a CI workflow that
validates with annotations, builds the kits in shards and keeps them as artefacts. `printshop new GAME` adds a small game that validates and builds at once: one deck of six
cards with a shared back, a player aid, a rules booklet, its own colour, its texts in the source
language and one translation. The scaffold's files are copied with the game's id and title put in
place of `__GAME__` and `__TITLE__` (plain substitution: nothing is evaluated).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from printshop.project.paths import PACKAGE_DEFAULTS_DIR, PROJECT_FILE, ProjectFolders
from printshop.write.commit import write_atomically

SCAFFOLD_DIR = PACKAGE_DEFAULTS_DIR / "scaffold"
GAME_ID = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
LANGUAGES = ("en", "fr")  # the languages the scaffold's texts are written in


class ScaffoldError(Exception):
    """Why nothing was made (the message says what to do)."""


@dataclass
class Made:
    files: list[Path] = field(default_factory=list)


def init_project(folder: Path) -> Made:
    """A project in `folder` (created if needed); refuses to overwrite a project that is there."""
    folder = Path(folder)
    if (folder / PROJECT_FILE).exists():
        raise ScaffoldError(f"{folder / PROJECT_FILE} exists already: this folder is a project")
    if folder.exists() and not folder.is_dir():
        raise ScaffoldError(f"{folder} is a file, not a folder")
    made = Made()
    source = SCAFFOLD_DIR / "project"
    for name, target in ((PROJECT_FILE, PROJECT_FILE), ("gitignore", ".gitignore")):
        path = folder / target
        if not path.exists():
            write_atomically(path, (source / name).read_bytes())
            made.files.append(path)
    for sub in ("data", "templates"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return made


CI_FILES = {
    "github": Path(".github") / "workflows" / "printshop.yml",
    "gitlab": Path(".gitlab-ci.yml"),
}
CI_SHARDS = 4  # machines the kits are built on at once (`build --shard I/4`)


def ci_workflow(kind: str, version: str, shards: int = CI_SHARDS) -> str:
    """The text of the `kind` (github, gitlab) workflow for a publisher's repository: the
    scaffold's file with printshop's version and the number of shards put in (plain substitution,
    as for games)."""
    text = (SCAFFOLD_DIR / "ci" / f"{kind}.yml").read_text(encoding="utf-8")
    return (
        text.replace("__VERSION__", version)
        .replace("__SHARD_LIST__", ", ".join(str(i) for i in range(1, shards + 1)))
        .replace("__SHARDS__", str(shards))
    )


def write_ci(folder: Path, kind: str, version: str, *, force: bool = False) -> Made:
    """The workflow of `kind` in the project `folder` (CI_FILES), never over one that exists
    unless `force`."""
    if kind not in CI_FILES:
        raise ScaffoldError(f"no workflow for '{kind}': choose one of {', '.join(CI_FILES)}")
    path = Path(folder) / CI_FILES[kind]
    if path.exists() and not force:
        raise ScaffoldError(f"{path} exists already: edit it, or add --force to write it again")
    write_atomically(path, ci_workflow(kind, version).encode("utf-8"))
    return Made([path])


def _suggestion(name: str, title: str | None) -> str:
    """What to type instead of a name that cannot be a game's id: the name made one (lower case,
    accents and other marks dropped, anything else a hyphen), with the name as typed kept as the
    title."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")
    if not GAME_ID.match(slug):
        return "e.g. star-traders"
    # the name as typed is kept as the title when it reads as one (spaces, capitals, accents), or
    # was given
    shown = (
        title
        if title is not None
        else name
        if any(c == " " or c.isupper() or ord(c) > 127 for c in name)
        else None
    )
    return f"for example: printshop new {slug}" + (
        f' --title "{shown}"' if shown and '"' not in shown else ""
    )


def new_game(
    project: ProjectFolders, game_id: str, *, title: str | None = None, source: str = "en"
) -> Made:
    """The scaffold game `game_id` in `project`: data/<game>/ and templates/<game>/."""
    if not GAME_ID.match(game_id):
        raise ScaffoldError(
            f"'{game_id}' cannot name a game: use lower-case letters, digits and hyphens, "
            f"starting with a letter ({_suggestion(game_id, title)})"
        )
    if source not in LANGUAGES:
        raise ScaffoldError(
            f"the scaffold's texts are in {', '.join(LANGUAGES)}: choose one of them as --source "
            f"and add other languages afterwards (TRANSLATING.md)"
        )
    data_dir, templates_dir = project.data / game_id, project.templates / game_id
    for folder in (data_dir, templates_dir):
        if folder.exists():
            raise ScaffoldError(f"{folder} exists already: choose another name, or remove it first")
    shown = title or game_id.replace("-", " ").title()
    if any(ord(ch) < 32 for ch in shown):
        raise ScaffoldError("the title cannot hold control characters or line breaks")
    escaped = shown.replace("\\", "\\\\").replace(
        '"', '\\"'
    )  # it stands inside "…" in the YAML texts
    values = {"__GAME__": game_id, "__TITLE__": escaped, "__SOURCE__": source}
    made = Made()
    for root, target in (
        (SCAFFOLD_DIR / "game" / "data", data_dir),
        (SCAFFOLD_DIR / "game" / "templates", templates_dir),
    ):
        for path in sorted(root.rglob("*")):
            if path.is_file():
                text = path.read_text(encoding="utf-8")
                for token, value in values.items():
                    text = text.replace(token, value)
                destination = target / path.relative_to(root)
                write_atomically(destination, text.encode("utf-8"))
                made.files.append(destination)
    return made
