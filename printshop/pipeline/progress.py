"""What a build tells the person waiting for it.

On a terminal: a progress bar on one line of stderr, shown once the build has run for a second, then
cleared. Elsewhere (CI logs, pipes): a line per step. `--quiet`: nothing but errors. The closing
line (built, from the cache, how long) is the command line's to print.
"""

from __future__ import annotations

import sys
import time


class Progress:
    """The silent default; also the interface a build reports to."""

    def message(self, text: str) -> None:
        pass

    def start(self, total: int) -> None:
        pass

    def advance(self, label: str) -> None:
        pass

    def finish(self) -> None:
        pass


class Log(Progress):
    """A line per step (not on a terminal)."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr

    def message(self, text: str) -> None:
        print(text, file=self.stream, flush=True)


class Bar(Progress):
    """A bar redrawn in place, after the first `delay` seconds, at most ten times a second."""

    def __init__(self, stream=None, delay: float = 1.0, width: int = 28):
        self.stream = stream or sys.stderr
        self.delay, self.width = delay, width
        self.started = time.monotonic()
        self.total, self.done, self.drawn, self.last = 0, 0, False, 0.0
        self.phase = ""

    def message(self, text: str) -> None:
        if not text.startswith("rendering"):
            self.phase = text
            self._draw()

    def start(self, total: int) -> None:
        self.total, self.done = total, 0
        self._draw()

    def advance(self, label: str) -> None:
        self.done += 1
        self.phase = label
        self._draw()

    def _draw(self) -> None:
        now = time.monotonic()
        if now - self.started < self.delay or (now - self.last < 0.1 and self.done < self.total):
            return
        self.last, self.drawn = now, True
        if self.total:
            filled = round(self.width * self.done / self.total)
            line = f"[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} {self.phase}"
        else:
            line = f"{self.phase}…"
        columns = 100
        print("\r" + line[:columns].ljust(columns), end="", file=self.stream, flush=True)

    def finish(self) -> None:
        if self.drawn:
            print("\r" + " " * 100 + "\r", end="", file=self.stream, flush=True)


def for_terminal(quiet: bool, stream=None) -> Progress:
    stream = stream or sys.stderr
    if quiet:
        return Progress()
    return Bar(stream) if stream.isatty() else Log(stream)
