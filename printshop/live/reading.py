"""A session's reading step: after files changed, read again only what they call for (a text file
alone, one game's files, or the whole project), as live/session.py's docstring describes under
**Reading**.

`ProjectReading` is the part of `Session` that reads; `folders_below` lists the data's folders, to
tell a folder removed from a scratch file an editor removed.
"""

from __future__ import annotations

import os
from pathlib import Path

from printshop.diagnostics import Location, Report, StageFailed
from printshop.language.texts import load_catalogue
from printshop.language.translation import RECORD_SUFFIX, load_records
from printshop.project.loader import Project, load_project, read_game
from printshop.project.spreadsheet import SUFFIXES as SHEET_SUFFIXES
from printshop.typeset.fonts import FontSet


class ProjectReading:
    """The reading methods of a Session (session.py), which sets these attributes."""

    data_dir: Path
    templates_dir: Path
    games: list[str] | None
    langs: list[str] | None
    project: Project | None
    load_report: Report
    fonts: FontSet | None
    _folders: frozenset[Path]
    _links: dict[Path, list[Path]]

    # --- reading
    # ------------------------------------------------------------------------------------
    def _load_all(self) -> None:
        self.load_report = Report()
        self._folders = folders_below(self.data_dir)
        self._links = links_below(self.data_dir)
        try:
            self.project = load_project(
                self.data_dir,
                self.templates_dir,
                games=self.games,
                langs=self.langs,
                report=self.load_report,
            )
        except StageFailed:
            self.project = None
        except Exception as error:  # noqa: BLE001 - shown like any diagnostic; the session goes on
            self.load_report.add(
                "internal",
                Location.of(self.data_dir),
                f"loading failed unexpectedly: {type(error).__name__}: {error}",
            )
            self.project = None
            return
        if self.project is None:
            return
        for game_id in self.games or ():
            if (
                game_id not in self.project.games
            ):  # named when the session began, gone since (moved, renamed)
                self.load_report.add(
                    "file-missing",
                    Location.of(self.data_dir / game_id / "game.yaml"),
                    f"the game '{game_id}' is no longer in the data folder",
                )

    def _reload_texts(self, path: Path) -> bool:
        """Read one text file (or translation record) again; False when the project must be
        reloaded."""
        project = self.project
        if project is None or self.load_report.has_errors:
            return False
        game = project.games.get(path.parent.parent.name)
        if game is None or path.parent != game.dir / "text":
            return False
        shown = str(Location.of(path).path)
        report = Report()
        record = path.name.endswith(RECORD_SUFFIX)
        lang = path.name[: -len(RECORD_SUFFIX)] if record else path.stem
        if lang in game.available and lang not in game.catalogues and path.is_file():
            # a language this session neither writes nor makes one from (load_project's `langs`)
            return True
        if record:
            if lang not in game.catalogues:
                return False
            game.records[lang] = load_records(path, report)
        else:
            if "." in lang or lang not in game.catalogues or not path.is_file():
                return False  # a new or removed language changes what the game has: read everything
            catalogue = load_catalogue(path, lang, report)
            if catalogue is None or report.has_errors:
                self._said_again(report, lambda path: path == shown)
                self.project = None  # shown as errors until the file reads again
                return True
            game.catalogues[lang] = catalogue
        self._said_again(report, lambda path: path == shown)
        return True

    def _said_again(self, report: Report, about) -> None:
        """What reading files again said (`report`) replaces what was said of the files
        `about(path)` names; anything else it said is added unless it was said already."""
        kept = [d for d in self.load_report.items if not about(d.location.path)]
        kept += [d for d in report.items if about(d.location.path) or d not in kept]
        self.load_report.items[:] = kept

    def _reload_game(self, game_id: str) -> bool:
        """Read one game's files again (its game.yaml, faces.yaml, print/ files and texts) after one
        of them changed; False when the project must be reloaded. The other games keep what they
        read: an edit of one faces.yaml in a session of every game costs reading that game, not the
        catalogue."""
        project = self.project
        if project is None or self.load_report.has_errors:
            return False
        game_dir = self.data_dir / game_id
        if game_id not in project.games or not (game_dir / "game.yaml").is_file():
            return False  # a game gone (or named otherwise) changes what the project has
        report = Report()
        try:
            game = read_game(self.data_dir, game_id, report, self.langs, project.languages)
        except Exception:  # noqa: BLE001 - reading everything again reports it as a build would
            return False
        inside = Location.of(game_dir).path + os.sep
        # what this game's files said, and anything said of the files it shares (the project's print
        # data, read again beneath the game's own print/ files) that was not already said
        self._said_again(report, lambda path: path.startswith(inside))
        if game is None or report.has_errors:
            self.project = (
                None  # shown as errors until the game reads again (then everything is read)
            )
        else:
            project.games[game_id] = game
        return True

    def _read(self, changed: set[Path] | None) -> str:
        if self.project is None or changed is None:
            self._load_all()
            return "project"
        data = self.data_dir.resolve()
        texts: list[Path] = []
        games: set[str] = set()
        fonts = False
        for path in [seen for given in changed for seen in self._as_read(Path(given))]:
            if path.suffix.lower() in (".ttf", ".otf") and data in path.parents:
                # registered again before the next layout (fonts.register_font reads a changed file)
                fonts = True
                continue
            if data not in path.parents:
                continue  # templates are read where they are used
            if not path.suffix:
                # a folder made, removed or moved (a game's, its texts'): read everything again; any
                # other name without an extension is a file that holds no data, such as the scratch
                # files that `sed -i` and vim (4913) make and remove beside the file they save
                if path.is_dir() or path in self._folders:
                    self._load_all()
                    return "project"
                continue
            parts = path.relative_to(data).parts
            if path.suffix.lower() in SHEET_SUFFIXES and len(parts) > 1:
                if parts[0] in self.project.games:  # a deck's spreadsheet: its game is read again
                    games.add(parts[0])
                continue
            if path.suffix not in (".yaml", ".yml"):
                continue  # art and other files are read where they are used
            if path.parent.name == "text" and len(parts) == 3:
                texts.append(path)
            elif len(parts) > 1 and parts[0] in self.project.games:
                games.add(parts[0])  # a game's own file: game.yaml, faces.yaml, print/colours.yaml…
            else:
                # the shared print data, a language, a file in a game not read before
                self._load_all()
                return "project"
        if not self._read_again(games, texts):
            self._load_all()
            return "project"
        if fonts:
            self.fonts = None
        return ("games" if games else "texts") if games or texts else "fonts" if fonts else ""

    def _as_read(self, path: Path) -> list[Path]:
        """The data files a changed `path` is: itself (its folders resolved, not the file: a link
        re-pointed is the file it stands for), the file it leads to, and every file of the data
        that is a symbolic link to it (its target replaced: the data file changed)."""
        absolute = Path(os.path.abspath(path))
        own = absolute.parent.resolve() / absolute.name
        real = absolute.resolve()
        seen = [own] + ([real] if real != own else [])
        return seen + [link for link in self._links.get(real, []) if link not in seen]

    def _read_again(self, games: set[str], texts: list[Path]) -> bool:
        """Read these games' files, then the other text files, again; False when the project must be
        reloaded."""
        for game_id in sorted(games):
            if not self._reload_game(game_id):
                return False
        texts = [
            path for path in texts if path.parent.parent.name not in games
        ]  # read with their game
        for path in sorted(texts):
            if not self._reload_texts(path):
                return False
        return True


def links_below(root: Path) -> dict[Path, list[Path]]:
    """{the real path of a file a symbolic link in the data leads to: the links}, as last read:
    a change to the file is a change to each link (live/watch.py watches the real folders too)."""
    base, found = root.resolve(), dict[Path, list[Path]]()
    for folder, _, names in os.walk(base):
        for name in names:
            path = Path(folder, name)
            if path.is_symlink():
                found.setdefault(path.resolve(), []).append(path)
    return found


def folders_below(root: Path) -> frozenset[Path]:
    """The folders of the data as last read (resolved): a path gone without an extension was one of
    them, or a scratch file an editor or `sed -i` made and removed beside the file it saved."""
    base = root.resolve()
    found = {base}
    for folder, names, _ in os.walk(base):
        found.update(Path(folder, name) for name in names)
    return frozenset(found)
