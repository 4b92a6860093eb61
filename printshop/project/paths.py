"""Where things are by default. Kept free of heavy imports: the no-op build check reads it.

A project is a folder: the nearest folder, from the working directory up, that holds a
`printshop.toml` (or a `pyproject.toml` with a `[tool.printshop]` table). Its `data/`, `templates/`
and `output/` folders are found relative to it, unless the file names others:

```toml
# printshop.toml
data = "data"            # the games, their texts, the project's print data and languages
templates = "templates"  # the games' Jinja templates
output = "output"        # what `printshop build` writes
```

Without such a file, the working directory is the project. What every project shares (papers, card
sizes, shop profiles, fonts, booklet styles, the common templates) ships inside the package, in
`printshop/defaults/`; see layers.py.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]
REPOSITORY_DIR = PACKAGE_DIR.parent
BUNDLED_FONTS_DIR = PACKAGE_DIR / "fonts"
PACKAGE_DEFAULTS_DIR = (
    PACKAGE_DIR / "defaults"
)  # print data, languages and common templates every project shares
COMMON_TEMPLATES_DIR = (
    PACKAGE_DEFAULTS_DIR / "templates"
)  # templates/common/…: how-to-print, and the like
CACHE_DIR_NAME = ".printshop-cache"  # inside the output folder
PROJECT_FILE = "printshop.toml"
FOLDER_KEYS = ("data", "templates", "output")


class ProjectFileError(Exception):
    """A printshop.toml (or [tool.printshop]) that cannot be read; the message names the file."""


@dataclass(frozen=True)
class ProjectFolders:
    root: Path
    data: Path
    templates: Path
    output: Path
    config: (
        Path | None
    )  # the file that made `root` a project; None: the working directory, by default


def find_project(start: Path | None = None) -> ProjectFolders:
    """The project the working directory (or `start`) belongs to."""
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        config = folder / PROJECT_FILE
        if config.is_file():
            return _folders(folder, config, _table(config, tool=False) or {})  # always a table
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            table = _table(pyproject, tool=True)
            if table is not None:
                return _folders(folder, pyproject, table)
    return _folders(here, None, {})


def _table(path: Path, *, tool: bool) -> dict | None:
    try:
        text = path.read_text(encoding="utf-8")
        document = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        if tool:  # somebody else's pyproject.toml: not ours to judge unless it names printshop
            return None
        place = re.search(r"\(at line (\d+), column (\d+)\)", str(error))
        where = f"{path}:{place.group(1)}:{place.group(2)}" if place else f"{path}:1:1"
        said = str(error)[: place.start()].strip() if place else str(error)
        raise ProjectFileError(f"{where}: error: not a readable TOML file: {said}") from None
    table = document.get("tool", {}).get("printshop") if tool else document
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ProjectFileError(
            f"{path}:{_key_line(text, 'printshop')}:1: error: [tool.printshop] must be a table"
        )
    problems = []
    for key in table:
        if key not in FOLDER_KEYS:
            from printshop.diagnostics import closest

            close = closest(key, FOLDER_KEYS)
            problems.append(
                (
                    key,
                    f"unknown key '{key}'"
                    + (
                        f": did you mean '{close}'?"
                        if close
                        else f" (keys: {', '.join(FOLDER_KEYS)})"
                    ),
                )
            )
        elif not (isinstance(table[key], str) and table[key].strip()):
            problems.append(
                (key, f"'{key}' must be a folder name in quotes, such as {key} = \"{key}\"")
            )
    if problems:
        raise ProjectFileError(
            "\n".join(
                f"{path}:{_key_line(text, key)}:1: error: {message}" for key, message in problems
            )
        )
    return table


def _key_line(text: str, key: str) -> int:
    """The line of `key = ` in a TOML text (tomllib gives no places), else 1."""
    pattern = re.compile(
        r"^\s*[\"']?" + re.escape(key) + r"[\"']?\s*=|^\s*\[\s*tool\.\s*" + re.escape(key)
    )
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return 1


def _folders(root: Path, config: Path | None, table: dict) -> ProjectFolders:
    data, templates, output = (root / table.get(key, key) for key in FOLDER_KEYS)
    return ProjectFolders(root, data, templates, output, config)


def _default_project() -> ProjectFolders:
    try:
        return find_project()
    except (ProjectFileError, OSError):  # reported by the command line, which reads it again
        return _folders(Path.cwd().resolve() if Path.cwd().exists() else REPOSITORY_DIR, None, {})


DEFAULT_PROJECT = _default_project()
DEFAULT_DATA_DIR = DEFAULT_PROJECT.data
DEFAULT_TEMPLATES_DIR = DEFAULT_PROJECT.templates
DEFAULT_OUTPUT_DIR = DEFAULT_PROJECT.output


def templates_for(data_dir: Path) -> Path:
    """The templates of the project whose data folder is `data_dir`, when no folder was named: its
    printshop.toml's, else a `templates/` beside it, else the working directory's project's."""
    data_dir = Path(data_dir)
    try:
        project = find_project(data_dir)
    except (ProjectFileError, OSError):
        project = None
    if (
        project is not None
        and project.config is not None
        and project.data.resolve() == data_dir.resolve()
    ):
        return project.templates
    beside = data_dir.parent / "templates"
    return beside if beside.is_dir() else DEFAULT_TEMPLATES_DIR


# names Windows gives its devices: no file or folder can be called so there, whatever follows a dot
RESERVED_NAMES = frozenset(
    ["con", "prn", "aux", "nul", *(f"{kind}{n}" for kind in ("com", "lpt") for n in "0123456789")]
)


def unportable(name: str) -> str | None:
    """Why a file or folder called `name` cannot be made on every common system (a name Windows
    reserves, a trailing dot or space, a control character), or None."""
    if name.split(".")[0].strip().lower() in RESERVED_NAMES:
        return "it is a name Windows reserves for a device: no file can be called so there"
    if name.endswith((".", " ")):
        return "it ends with a dot or a space, which Windows drops from file names"
    if any(ord(char) < 32 or ord(char) == 127 for char in name):
        return "it holds a control character, which no file name may hold"
    return None


def too_wide(folder: Path) -> bool:
    """Whether `folder` is one no project's data or output is: the root of a file system, the home
    folder or a folder holding it (reading `/` took seconds before it failed on a folder it could
    not read)."""
    try:
        real, home = folder.resolve(), Path.home().resolve()
    except (OSError, RuntimeError):
        return False
    return real == Path(real.anchor) or real == home or real in home.parents


def discover_games(data_dir: Path) -> list[str]:
    """A game is a folder of the data directory holding a game.yaml."""
    return sorted(path.parent.name for path in Path(data_dir).glob("*/game.yaml"))


def keep_newest(folder: Path, pattern: str, limit: int) -> None:
    """When `folder` holds more than `limit` files matching `pattern`, remove the oldest (by
    modified time) down to three quarters of it: how the user's cache folders stay bounded. Never
    raises."""
    try:
        entries = []
        for path in folder.glob(pattern):
            try:
                entries.append((path.stat().st_mtime_ns, path))
            except OSError:  # removed meanwhile by another process
                continue
        if len(entries) <= limit:
            return
        entries.sort()
        for _, path in entries[: len(entries) - limit * 3 // 4]:
            path.unlink(missing_ok=True)
    except OSError:
        # another process pruning at the same time, a read-only folder: the next run tries again
        pass


def user_cache_dir(part: str) -> Path | None:
    """`part` in the user's cache folder ($PRINTSHOP_CACHE, else $XDG_CACHE_HOME/printshop, else
    ~/.cache/printshop), made if need be and private to the user: what printshop keeps between runs
    (compiled templates, the outcomes of fitting texts), each keyed by what it depends on, so that
    deleting it only costs the next run some time. None when `PRINTSHOP_CACHE=off` or
    `PRINTSHOP_MEMO=off`, or when the folder cannot be made or written, or belongs to somebody else
    (its files are read back as trusted)."""
    import os

    from printshop import memo

    chosen = os.environ.get("PRINTSHOP_CACHE", "").strip()
    if chosen.lower() == "off" or not memo.ON:  # (PRINTSHOP_MEMO=off: no memo, on disk either)
        return None
    if chosen:
        root = Path(chosen)
    else:
        base = os.environ.get("XDG_CACHE_HOME", "").strip()
        root = (Path(base) if base else Path.home() / ".cache") / "printshop"
    folder = root / part
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        if folder.stat().st_uid != os.getuid() or not os.access(folder, os.W_OK):
            return None
    except (
        OSError,
        RuntimeError,
        AttributeError,
    ):  # no home, a read-only disk, no getuid on this system
        return None
    return folder


def default_jobs() -> int:
    """How many processes a build renders in (and `validate` lays out in) when `--jobs` is not
    given: $PRINTSHOP_JOBS if set, else the cores this process may run on. That is the affinity mask
    where the system has one (`taskset`, a CI runner pinned to some cores), not every core of the
    machine, which is what os.cpu_count() counts. Raises ValueError for a $PRINTSHOP_JOBS that is
    not a whole number of 1 or more."""
    import os

    chosen = os.environ.get("PRINTSHOP_JOBS", "").strip()
    if chosen:
        if not (chosen.isascii() and chosen.isdigit()) or int(chosen) < 1:
            raise ValueError(
                f"PRINTSHOP_JOBS is {chosen!r}: it must be a whole number of processes, 1 or more "
                "(e.g. 1 where other work already keeps the cores busy), or unset"
            )
        return int(chosen)
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no affinity on this system (macOS, Windows)
        return os.cpu_count() or 1


def default_jobs_text() -> str:
    """For `--help`: the default as this machine has it, never an error."""
    try:
        return f"here {default_jobs()}"
    except ValueError:
        return "here none: $PRINTSHOP_JOBS is malformed"


def output_name(game_id: str, lang: str, what: str, paper: str, variant: str | None = None) -> Path:
    """Deterministic names: output/<game>/<lang>/<game>-<lang>[-<variant>]-<what>-<paper>.pdf"""
    middle = f"{lang}-{variant}" if variant else lang
    return Path(game_id) / lang / f"{game_id}-{middle}-{what}-{paper}.pdf"
