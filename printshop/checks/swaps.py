"""Two texts whose translations were swapped between their ids: the translation of A renders B's
source, and the translation of B renders A's (two card titles exchanged, two rules paragraphs
pasted under each other's keys).

A translation keeps what does not translate: its source's numbers, placeholders and markup (`<b>`,
`<i>`, icons: every tag), which make a text's **signature**, and its names and loanwords, which
share letters across languages ("Staline" and "Stalin", "Informateur" and "Informer"). Two texts
are reported as swapped when

- **by signature:** A's translation has B's source's signature and B's has A's, the two sources'
  signatures differing (a text whose numbers and tags match its own source is never reported); or,
- **by letters,** for texts of the same kind (ids that differ in one part: `card.spy.name` and
  `card.mole.name`) whose signatures say nothing: each translation shares clearly more letter
  triples with the other's source than with its own (a margin of `MARGIN` in the Dice coefficient,
  and at least `FLOOR` with the other's), so two cognate titles exchanged are caught, while two
  titles whose words share nothing with either source cannot be told apart and are left alone.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass

_TAG = re.compile(r"<\s*(/?)\s*([a-zA-Z]+)[^>]*>")
_NUMBER = re.compile(r"\d+")
_PLACEHOLDER = re.compile(r"\{[^\W\d]\w*\}")
_LETTERS = re.compile(r"[^\W\d_]+")
# how much more a translation must share with the other source than with its own, and the least it
# must share with it: on the project's 757 correct pairs (French and English) no alarm down to 0.05
# and 0.15; at these, about half of every pair of sibling texts swapped on purpose is caught
MARGIN = 0.1
FLOOR = 0.2


@dataclass(frozen=True)
class Swap:
    first: str
    second: str
    by: str  # "signature" or "letters"


def signature(text: str) -> tuple:
    """What a translation keeps of its source: numbers, placeholders and tags, each counted."""
    tags = Counter(f"{match.group(1)}{match.group(2).lower()}" for match in _TAG.finditer(text))
    # (an icon's name is part of it: <icon name="coin"/> and <icon name="vote"/> differ)
    icons = Counter(match.group(0) for match in _TAG.finditer(text) if "=" in match.group(0))
    bare = _TAG.sub(" ", text)
    return (
        tuple(sorted(Counter(_NUMBER.findall(bare)).items())),
        tuple(sorted(set(_PLACEHOLDER.findall(bare)))),
        tuple(sorted(tags.items())),
        tuple(sorted(icons.items())),
    )


def _trigrams(text: str) -> frozenset[str]:
    folded = "".join(
        char
        for char in unicodedata.normalize("NFKD", _TAG.sub(" ", text).lower())
        if not unicodedata.combining(char)
    )
    words = _LETTERS.findall(folded)
    return frozenset(gram for word in words for padded in [f" {word} "] for gram in _grams(padded))


def _grams(word: str) -> list[str]:
    return [word[index : index + 3] for index in range(len(word) - 2)]


def _dice(first: frozenset[str], second: frozenset[str]) -> float:
    if not first or not second:
        return 0.0
    return 2 * len(first & second) / (len(first) + len(second))


def swapped(texts: list[tuple[str, str, str]]) -> list[Swap]:
    """The pairs of ids among `texts` (id, source, translation) whose translations look swapped,
    each pair once, in the order of `texts`."""
    order = {text_id: index for index, (text_id, _, _) in enumerate(texts)}
    sources = {text_id: signature(source) for text_id, source, _ in texts}
    translations = {text_id: signature(translation) for text_id, _, translation in texts}
    by_source: dict[tuple, list[str]] = defaultdict(list)
    for text_id, mark in sources.items():
        by_source[mark].append(text_id)
    found: dict[tuple[str, str], str] = {}
    for first, mark in translations.items():
        if mark == sources[first]:
            continue
        for second in by_source.get(mark, []):
            if second != first and translations[second] == sources[first]:
                pair = (first, second) if order[first] < order[second] else (second, first)
                found.setdefault(pair, "signature")
    found.update(
        {pair: "letters" for pair in _by_letters(texts, sources, translations) if pair not in found}
    )
    return [Swap(a, b, by) for (a, b), by in sorted(found.items(), key=lambda f: order[f[0][0]])]


def _by_letters(texts, sources, translations) -> list[tuple[str, str]]:
    grams = {
        text_id: (_trigrams(source), _trigrams(translation))
        for text_id, source, translation in texts
        if translation.strip() and translation != source
    }
    kinds: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for text_id, _, _ in texts:
        if text_id in grams:
            parts = text_id.split(".")
            for index in range(len(parts)):
                kinds[tuple(parts[:index] + ["*"] + parts[index + 1 :])].append(text_id)
    pairs = []
    for members in kinds.values():
        for index, first in enumerate(members):
            for second in members[index + 1 :]:
                if sources[first] != sources[second] or translations[first] != sources[first]:
                    continue  # the signatures speak for these
                (source_a, translation_a), (source_b, translation_b) = grams[first], grams[second]
                own_a, other_a = _dice(translation_a, source_a), _dice(translation_a, source_b)
                own_b, other_b = _dice(translation_b, source_b), _dice(translation_b, source_a)
                if (
                    other_a >= FLOOR
                    and other_b >= FLOOR
                    and other_a >= own_a + MARGIN
                    and other_b >= own_b + MARGIN
                ):
                    pairs.append((first, second))
    return pairs
