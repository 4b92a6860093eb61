"""A bounded memo for work remembered per process by what it depends on (fits, broken paragraphs, booklet
measures): a long-running session (`serve`, `watch`) fits, breaks and measures again after every edit, so
what it remembers must not grow without end. `SizedMemo` bounds what it holds by bytes instead (compressed
streams, font subsets, imposed booklets). And `Reads`, which notes what a piece of work looked up."""

from __future__ import annotations

import contextvars
import threading
from collections import OrderedDict
from contextlib import contextmanager


class Memo(dict):
    """A dict that forgets its oldest quarter when a new key would take it past `limit` entries."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def __setitem__(self, key, value) -> None:
        if key not in self and len(self) >= self.limit:
            for stale in list(self)[: max(1, self.limit // 4)]:
                self.pop(
                    stale, None
                )  # (another thread may have let it go first: serve's requests and watcher)
        super().__setitem__(key, value)


class SizedMemo:
    """Values by key, the least recently used forgotten first once they hold more than `limit` bytes in all
    (a value's size: `len(value)`, or what `put` is told); safe to use from several threads (a session's
    server renders beside its watcher)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.size = 0
        self._values: OrderedDict = OrderedDict()  # key -> (value, its size)
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            kept = self._values.get(key)
            if kept is None:
                return None
            self._values.move_to_end(key)
            return kept[0]

    def put(self, key, value, size: int | None = None) -> None:
        size = len(value) if size is None else size
        if size > self.limit:
            return
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self.size -= old[1]
            self._values[key] = (value, size)
            self.size += size
            while self.size > self.limit:
                _, (_, stale) = self._values.popitem(last=False)
                self.size -= stale

    def remembered(self, key, make, size=len):
        """The value kept for `key`; else `make()`, kept (its size: `size(value)`) and returned."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value, size(value))
        return value

    def __len__(self) -> int:
        return len(self._values)


class Reads(dict):
    """A dict noting each key looked up (`[]`, `in`, `get`) in `log` while `log` is a list (None: nothing is
    noted): the texts, colours and motifs a face read, so that a long-running session lays it out or draws it
    again only when one of those changed (session.py, render/replay.py)."""

    def __init__(self, values=(), log: list | None = None):
        super().__init__(values)
        self.log = log

    def __getitem__(self, key):
        if self.log is not None:
            self.log.append(key)
        return dict.__getitem__(self, key)

    def __contains__(self, key):
        if self.log is not None:
            self.log.append(key)  # asking whether a key is there is reading it too
        return dict.__contains__(self, key)

    def get(self, key, default=None):
        if self.log is not None:
            self.log.append(key)
        return dict.get(self, key, default)

    @property
    def read(self) -> set:
        """The keys looked up, once each."""
        return set(self.log or ())


@contextmanager
def noting(into: contextvars.ContextVar):
    """Set `into` to a new list while the block runs, and yield it: what work meanwhile notes there (the names a
    session's job looks up: colour.noting_colours, jobs.noting_motifs)."""
    log: list = []
    token = into.set(log)
    try:
        yield log
    finally:
        into.reset(token)


def values_of(names, mapping, value=None) -> dict:
    """{name: its value in `mapping`} of the names a piece of work looked up (a Reads' `read`), in order of name;
    `value` makes what is kept of each (replay.motif_key: a motif's content). What `unchanged` compares."""
    return {
        name: mapping.get(name) if value is None else value(mapping.get(name))
        for name in sorted(names)
    }


def unchanged(read: dict, mapping, value=None) -> bool:
    """Whether every name `values_of` kept has the same value in `mapping` now (asked of `mapping` name by name:
    a mapping that notes its reads notes them)."""
    return all(
        (mapping.get(name) if value is None else value(mapping.get(name))) == kept
        for name, kept in read.items()
    )
