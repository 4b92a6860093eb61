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

import re
from typing import Iterable

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


# the default setting: a language's `hyphen_min`, and capitalised words broken like any other
_DEFAULT_MIN, _LETTERS = (2, 3), re.compile(r"[^\W\d_]+")


def setting(
    lang: str | None,
    hyphen_min: tuple[int, int] = _DEFAULT_MIN,
    capitals: bool = True,
    unbroken: Iterable[str] = (),
) -> str | None:
    """How a text is hyphenated, as one string that layout, the renderer and the stored fits key
    on: the pattern's language, then, where they are not the defaults, the fewest letters before
    and after a break, whether capitalised words break, and the words never broken (each word of
    `unbroken`, folded). None: no hyphenation."""
    if not lang:
        return None
    words = sorted({word.casefold() for text in unbroken for word in _LETTERS.findall(text)})
    if tuple(hyphen_min) == _DEFAULT_MIN and capitals and not words:
        return lang
    left, right = hyphen_min
    return f"{lang}|{left},{right}|{'caps' if capitals else 'nocaps'}|{' '.join(words)}"


def parsed(hyphenation: str) -> tuple[str, int, int, bool, frozenset[str]]:
    """A `setting` read back: (language, before, after, capitals broken, words never broken)."""
    lang, _, rest = hyphenation.partition("|")
    if not rest:
        return lang, *_DEFAULT_MIN, True, frozenset()
    sizes, capitals, words = rest.split("|")
    left, right = (int(n) for n in sizes.split(","))
    return lang, left, right, capitals == "caps", frozenset(words.split())


def unbreakable(letters: str, capitals: bool, words: frozenset[str]) -> bool:
    """Whether a word (its letters) is never hyphenated: a capitalised one where `capitals` is
    false, one of `words`, or one of their plurals in -s, -x or -es."""
    if not capitals and letters[:1].isupper():
        return True
    folded = letters.casefold()
    return (
        folded in words
        or (folded[-1:] in ("s", "x") and folded[:-1] in words)
        or (folded.endswith("es") and folded[:-2] in words)
    )
