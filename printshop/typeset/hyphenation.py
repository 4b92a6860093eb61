"""Pyphen's hyphenation patterns, read when they are first looked up.

pyphen parses every pattern of a dictionary when it is opened: about 14,000 patterns and a tenth of
a second or more for English, paid again in every process that breaks a word (each job of a build,
each process of `printshop validate`). A paragraph looks up a few hundred of them. `LazyHyphDict`
reads the file into a map from each pattern's letters to its line, and parses a line, with pyphen's
own code, the first time a word asks for it. The patterns found are the same, so the breaks are the
same and builds stay byte-identical (tests/test_hyphenation.py compares every word of every
dictionary used).

A dictionary with lines pyphen reads in a special way (`^^hh` escapes, nonstandard breaks such as
`ff=f`, as in de_DE) is parsed whole by pyphen itself.
"""

from __future__ import annotations

import pyphen

_DIGITS = str.maketrans("", "", "0123456789")


def _parsed(line: str):
    """(start, values) for one pattern line, as pyphen.HyphDict stores it, or None for a pattern of
    zeros only (pyphen skips those)."""
    tags, values = zip(*[(string, int(i or "0")) for i, string in pyphen.parse(line)])
    if max(values) == 0:
        return None
    start, end = 0, len(values)
    while not values[start]:
        start += 1
    while not values[end - 1]:
        end -= 1
    return start, values[start:end]


class _Patterns(dict):
    """letters -> (start, values); a value still a str (or a tuple of str, for letters written on
    several lines) is parsed when it is first asked for."""

    def get(self, key, default=None):
        value = dict.get(self, key, default)
        if value.__class__ is str:
            value = _parsed(value)
            self[key] = value
        elif value.__class__ is tuple and value and value[0].__class__ is str:
            # pyphen keeps the last line with a value other than zero for the same letters
            found = None
            for line in value:
                found = _parsed(line) or found
            value = found
            self[key] = value
        return value


class LazyHyphDict(pyphen.HyphDict):
    def __init__(self, path):  # noqa: D107 - no super().__init__: that is the parse this class defers
        with path.open("rb") as fd:
            encoding = fd.readline().decode()
        if encoding.lower() == "microsoft-cp1251":
            encoding = "cp1251"
        patterns = _Patterns()
        for line in path.read_text(encoding).split("\n")[1:]:
            line = line.strip()
            if not line or line.startswith(pyphen.ignored):
                continue
            if "^^" in line or ("/" in line and "=" in line):  # rare: pyphen parses the whole file
                pyphen.HyphDict.__init__(self, path)
                return
            key = line.translate(_DIGITS)
            known = dict.get(patterns, key)
            if known is None:
                patterns[key] = line
            else:
                patterns[key] = (known if known.__class__ is tuple else (known,)) + (line,)
        self.patterns = patterns
        self.cache = {}
        self.maxlen = max(len(key) for key in patterns)


def open_dictionary(lang: str, left: int, right: int) -> pyphen.Pyphen:
    """pyphen.Pyphen(lang=lang, left=left, right=right), its patterns read lazily."""
    path = pyphen.LANGUAGES[pyphen.language_fallback(lang)]
    if path not in pyphen.hdcache:
        pyphen.hdcache[path] = LazyHyphDict(path)
    return pyphen.Pyphen(lang=lang, left=left, right=right)
