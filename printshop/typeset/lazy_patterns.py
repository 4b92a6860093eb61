"""Regular expressions of other libraries compiled when first used, not when their module is imported.

A few modules printshop imports on every build compile, as they are imported, a regular expression over a
wide range of Unicode (`[\\xa1-\\uffff]`), which Python's `re` takes milliseconds to compile, and which a
build never or seldom uses: ReportLab's pattern for the addresses of links (about 30 ms, more than the rest of
its paragraph module), its CJK wrapping pattern, and PyYAML's pure-Python reader's check for printable
characters (printshop reads YAML with the C reader). Together they are a tenth of a cold build of a small deck.

While one of the `MODULES` runs its top level, `re.compile` gives, for a pattern with such a range, a stand-in
that compiles the pattern the first time one of its methods or attributes is asked for, and then puts the
compiled pattern where the module (or one of its classes) keeps it, so that later uses find the pattern
itself. Every other pattern is compiled as it would have been. The stand-in answers every attribute of a
compiled pattern; what it is not is an instance of `re.Pattern` (none of these modules asks).

`install()` (run when `printshop` is imported) puts the finder that does this first in `sys.meta_path`; it
finds nothing itself, but asks the finders after it and wraps what they find for those modules only.
"""

from __future__ import annotations

import re
import sys

MODULES = frozenset({"reportlab.platypus.paragraph", "reportlab.lib.textsplit", "yaml.reader"})

_compile = re.compile
_RANGE = _compile(r"(?s)(.)-(.)")
WIDE = 0x1000  # a character range spanning more code points than this is what makes a pattern slow to compile


def is_wide(pattern) -> bool:
    """Whether a pattern has a character range spanning more than WIDE code points, such as \\xa1-\\uffff."""
    return isinstance(pattern, str) and any(
        ord(last) - ord(first) > WIDE for first, last in _RANGE.findall(pattern)
    )


class LazyPattern:
    """A pattern compiled when first used (see the module's docstring)."""

    __slots__ = ("_arguments", "_compiled", "_homes")

    def __init__(self, pattern: str, flags=0):
        self._arguments = (pattern, flags)
        self._compiled = None
        self._homes: list[tuple[object, str]] = []  # (module or class, name) holding this stand-in

    def compiled(self) -> re.Pattern:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = _compile(*self._arguments)
            for home, name in self._homes:
                if getattr(home, name, None) is self:
                    setattr(home, name, compiled)
            self._homes = []
        return compiled

    def __getattr__(self, name: str):
        return getattr(self.compiled(), name)

    def __repr__(self) -> str:
        return f"LazyPattern({self._arguments[0]!r})"


def _compiling_lazily(pattern, flags=0):
    if is_wide(pattern):
        return LazyPattern(pattern, flags)
    return _compile(pattern, flags)


def _adopt(module) -> None:
    """Tell each stand-in where the module keeps it: a global, or an attribute of one of its classes."""
    for name, value in list(vars(module).items()):
        if isinstance(value, LazyPattern):
            value._homes.append((module, name))
        elif isinstance(value, type) and value.__module__ == module.__name__:
            for attribute, held in list(vars(value).items()):
                if isinstance(held, LazyPattern):
                    held._homes.append((value, attribute))


_finding: set[str] = set()  # the modules a finder is asking the others for, now


class _Finder:
    """Finds nothing itself: for the MODULES, wraps what the finders after it find."""

    def find_spec(self, name, path, target=None):
        if (
            name not in MODULES or name in _finding
        ):  # (another of these finders is asking: a reloaded module)
            return None
        _finding.add(name)
        try:
            for finder in sys.meta_path:
                find = getattr(finder, "find_spec", None)
                if finder is self or find is None:
                    continue
                spec = find(name, path, target)
                if spec is not None:
                    break
            else:
                return None
        finally:
            _finding.discard(name)
        loader = spec.loader
        exec_module = getattr(loader, "exec_module", None)
        if exec_module is None or getattr(loader, "name", None) != name:
            return spec  # not a loader made for this module alone (a zip's is shared): loaded as it would be

        def exec_lazily(module):
            before = re.compile
            re.compile = _compiling_lazily
            try:
                exec_module(module)
            finally:
                re.compile = before
            _adopt(module)

        try:
            loader.exec_module = exec_lazily
        except (
            AttributeError
        ):  # a loader that takes no attributes: the module loads as it would have
            pass
        return spec


def install() -> None:
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
