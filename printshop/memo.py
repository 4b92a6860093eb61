"""The memo machinery: tables a process keeps work in by what it depends on, and the registry of
them.

A long-running session (`serve`, `watch`) fits, breaks and measures again after every edit, so what
it remembers must not grow without end: `Memo` is a dict bounded by entries, `SizedMemo` one bounded
by bytes (compressed streams, font subsets, imposed booklets); `Table`, `OrderedTable` and
`WeakTable` are the plain, ordered and weakly keyed dicts modules bound themselves. And `Reads`,
which notes what a piece of work looked up.

Every process-wide memo is declared once, with its name, where it is used and what it is keyed by,
in printshop/memos.py, through `memo`, `sized_memo`, `table`, `ordered_table`, `weak_table` (tables)
and `memoized` (a function's results, as functools.lru_cache keeps them). The registry (`REGISTRY`)
lists them (`listing`), clears them (`clear`, `clear_all`: as a new process would start) and
switches them off: `PRINTSHOP_MEMO=off` in the environment (read once, when this module is imported)
makes every table keep nothing and every memoized function work each time (`ON` is False), and the
user's cache folder (paths.user_cache_dir: compiled templates, fits, fonts' tables) is not used
either. A build gives the same bytes either way (tests/test_memos.py builds the catalogue both
ways).
"""

from __future__ import annotations

import contextvars
import functools
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

ON = os.environ.get("PRINTSHOP_MEMO", "").strip().lower() != "off"


def file_stamp(path: str | os.PathLike) -> tuple[int, ...]:
    """What tells a changed file from the one read before, for the memos keyed by a file: its
    modification and change times (ns), its size, and which file it is (inode, device). The file's
    identity counts: a symbolic link re-pointed, or a file replaced by another of the same size and
    time (a copy that kept its time, a checkout), is another file. (0,) for a file that cannot be
    read (its readers report it)."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return (0,)
    return (
        status.st_mtime_ns,
        status.st_size,
        status.st_ctime_ns,
        status.st_ino,
        status.st_dev,
    )


class _KeptOnlyWhenOn:
    """A mapping that keeps nothing when memos are off (`PRINTSHOP_MEMO=off`): every lookup
    misses. Mixed in before the mapping it changes."""

    def __setitem__(self, key, value) -> None:
        if ON:
            super().__setitem__(key, value)  # type: ignore[misc]


class Table(_KeptOnlyWhenOn, dict):
    """A dict that keeps nothing when memos are off."""


class OrderedTable(_KeptOnlyWhenOn, OrderedDict):
    """An OrderedDict that keeps nothing when memos are off."""


class WeakTable(_KeptOnlyWhenOn, weakref.WeakKeyDictionary):
    """A WeakKeyDictionary (an entry goes with its key) that keeps nothing when memos are off."""


class Memo(Table):
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
    """Values by key, the least recently used forgotten first once they hold more than `limit` bytes
    in all (a value's size: `len(value)`, or what `put` is told); safe to use from several threads
    (a session's server renders beside its watcher). Keeps nothing when memos are off."""

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
        if size > self.limit or not ON:
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

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
            self.size = 0

    def __len__(self) -> int:
        return len(self._values)


@dataclass
class Declared:
    """A process-wide memo in the registry: its name, what it is keyed by, where it is used, and the
    table (a memoized function's lru_cache wrapper once the function is defined: None before)."""

    name: str
    keyed_by: str
    used_in: str
    table: Any = None

    @property
    def kind(self) -> str:
        return "function" if callable(self.table) else type(self.table).__name__

    def size(self) -> int:
        """Entries kept now."""
        if self.table is None:
            return 0
        if callable(self.table):
            return self.table.cache_info().currsize
        return len(self.table)

    def clear(self) -> None:
        if self.table is None:
            return
        if callable(self.table):
            self.table.cache_clear()
        else:
            self.table.clear()


REGISTRY: dict[str, Declared] = {}


def _declare(name: str, table, keyed_by: str, used_in: str):
    if name in REGISTRY:
        raise ValueError(f"the memo '{name}' is declared twice")
    REGISTRY[name] = Declared(name, keyed_by, used_in, table)
    return table


def memo(name: str, limit: int, *, keyed_by: str, used_in: str) -> Memo:
    """A `Memo` of at most `limit` entries, in the registry as `name`."""
    return _declare(name, Memo(limit), keyed_by, used_in)


def sized_memo(name: str, limit: int, *, keyed_by: str, used_in: str) -> SizedMemo:
    """A `SizedMemo` of at most `limit` bytes, in the registry as `name`."""
    return _declare(name, SizedMemo(limit), keyed_by, used_in)


def table(name: str, *, keyed_by: str, used_in: str) -> Table:
    """A `Table` (its module bounds it), in the registry as `name`."""
    return _declare(name, Table(), keyed_by, used_in)


def ordered_table(name: str, *, keyed_by: str, used_in: str) -> OrderedTable:
    """An `OrderedTable` (its module bounds it), in the registry as `name`."""
    return _declare(name, OrderedTable(), keyed_by, used_in)


def weak_table(name: str, *, keyed_by: str, used_in: str) -> WeakTable:
    """A `WeakTable`, in the registry as `name`."""
    return _declare(name, WeakTable(), keyed_by, used_in)


def memoized(
    name: str, *, keyed_by: str, used_in: str, maxsize: int | None = 128
) -> Callable[[Callable], Any]:
    """A decorator that keeps a function's results as functools.lru_cache(maxsize) does (none when
    memos are off), in the registry as `name`: declared in memos.py, applied where the function is
    defined."""
    _declare(name, None, keyed_by, used_in)
    declared = REGISTRY[name]

    def decorate(function: Callable) -> Any:
        # (applied again when a test reloads the module: the registry holds the newest)
        declared.table = functools.lru_cache(maxsize=maxsize if ON else 0)(function)
        return declared.table

    return decorate


def clear(name: str) -> None:
    """Forget what the memo `name` keeps."""
    REGISTRY[name].clear()


def clear_all() -> None:
    """Forget what every memo keeps: the process then works as a new one would (the tables stay in
    place)."""
    for declared in REGISTRY.values():
        declared.clear()


def listing() -> list[tuple[str, str, int, str, str]]:
    """(name, kind, entries kept now, keyed by, used in) of every declared memo, by name."""
    return [
        (d.name, d.kind, d.size(), d.keyed_by, d.used_in)
        for d in sorted(REGISTRY.values(), key=lambda d: d.name)
    ]


class Reads(dict):
    """A dict noting each key looked up (`[]`, `in`, `get`) in `log` while `log` is a list (None:
    nothing is noted): the texts, colours and motifs a face read, so that a long-running session
    lays it out or draws it again only when one of those changed (session.py, render/replay.py)."""

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
    """Set `into` to a new list while the block runs, and yield it: what work meanwhile notes there
    (the names a session's job looks up: colour.noting_colours, jobs.noting_motifs)."""
    log: list = []
    token = into.set(log)
    try:
        yield log
    finally:
        into.reset(token)


def values_of(names, mapping, value=None) -> dict:
    """{name: its value in `mapping`} of the names a piece of work looked up (a Reads' `read`), in
    order of name; `value` makes what is kept of each (replay.motif_key: a motif's content). What
    `unchanged` compares."""
    return {
        name: mapping.get(name) if value is None else value(mapping.get(name))
        for name in sorted(names)
    }


def unchanged(read: dict, mapping, value=None) -> bool:
    """Whether every name `values_of` kept has the same value in `mapping` now (asked of `mapping`
    name by name: a mapping that notes its reads notes them)."""
    return all(
        (mapping.get(name) if value is None else value(mapping.get(name))) == kept
        for name, kept in read.items()
    )
