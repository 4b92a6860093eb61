"""Language identity: a text, or one sentence of it, written in another language of the project
than its file's (a sentence left in English inside a German text, a whole text pasted in French).

The detector is lingua (lingua-language-detector), whose models ship in its wheel; it is built
once per set of languages and restricted to the project's languages (fewer candidates, fewer
mistakes; regional variants, pt_BR and pt_PT, are one language to it). It uses its full models
(about 3 s and 100 MB to load, once per process; lingua keeps them for every detector): the
low-accuracy mode, trigrams only, judged "Au début de la phase de Purge" English at 0.97.

What is read, and what is not: markup (`<b>`, `{placeholders}`), numbers and the game's
`untranslatable` words (names, "Glasnost") are taken out first; the rest is cut into sentences
(at . ! ? ; : and line breaks), and a sentence is judged only when what is left has at least
`min_words` words of letters and `min_characters` letters (a language file's `checks.identity`):
names, numbers, short labels and loanwords are never long enough to be judged. A sentence is
reported when the detector finds another of the project's languages with at least the confidence
its language file's `checks.identity.confidence` asks (by the language found, "*" for any) and
gives the text's own language less than a tenth of that. A text whose judged sentences are all in
one other language is reported as a whole.

Calibration (tests/test_language_identity.py): on the project's own texts (French and English of
every game, the German fixture) it finds nothing, the highest score a wrong language gets on a
judged sentence being 0.71; of the corpus of eight German mistakes it finds eight.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from printshop import memos

# markup and placeholders, which are not words of any language
_MARKUP = re.compile(r"<[^>]*>|\{[^}]*\}|&[a-z]+;")
_SENTENCE = re.compile(r"[^.!?;:…\n]+[.!?;:…]*")
_WORD = re.compile(r"[^\W\d_]+(?:[’'-][^\W\d_]+)*")


@dataclass(frozen=True)
class Settings:
    """What a language file's `checks.identity` says, as the check reads it (hashable)."""

    min_words: int
    min_characters: int
    confidence: tuple[tuple[str, float], ...]

    def needed(self, lang: str) -> float:
        found = dict(self.confidence)
        return found.get(lang, found.get("*", 0.9))


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    hint: str


def settings_of(language) -> Settings:
    identity = language.checks.identity
    return Settings(
        identity.min_words, identity.min_characters, tuple(sorted(identity.confidence.items()))
    )


def base(code: str) -> str:
    """A language code's language alone ("pt" for "pt_BR" or "pt-BR"): what lingua tells apart."""
    return re.split(r"[_-]", code)[0].lower()


@memos.LANGUAGE_DETECTORS
def detector(codes: tuple[str, ...]):
    """lingua's detector for `codes` (ISO 639-1) it knows, or None for fewer than two of them."""
    from lingua import IsoCode639_1, Language, LanguageDetectorBuilder

    known = set()
    for code in codes:
        try:
            known.add(Language.from_iso_code_639_1(getattr(IsoCode639_1, base(code).upper())))
        except (AttributeError, ValueError):
            continue
    if len(known) < 2:
        return None
    return LanguageDetectorBuilder.from_languages(*sorted(known, key=str)).build()


def judged_sentences(text: str, words: tuple[str, ...], settings: Settings) -> list[str]:
    """The sentences of `text` long enough to be judged, with markup, numbers and `words` (the
    game's untranslatable words) taken out."""
    plain = _MARKUP.sub(" ", text)
    for word in sorted(words, key=len, reverse=True):
        plain = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", " ", plain, flags=re.IGNORECASE)
    found = []
    for match in _SENTENCE.finditer(plain):
        sentence = " ".join(match.group().split())
        letters = _WORD.findall(sentence)
        if (
            len(letters) >= settings.min_words
            and sum(len(w) for w in letters) >= settings.min_characters
        ):
            found.append(" ".join(letters))
    return found


@memos.LANGUAGE_IDENTITY
def identity_findings(
    text_id: str,
    text: str,
    lang: str,
    names: tuple[tuple[str, str], ...],
    settings: Settings,
    words: tuple[str, ...],
) -> tuple[Finding, ...]:
    """What is written in another language in `text`, meant to be in `lang`: `names` are the
    project's languages (code, name in English) the detector chooses among."""
    codes = tuple(code for code, _ in names)
    if lang not in codes:
        return ()
    sentences = judged_sentences(text, words, settings)
    found = detector(codes) if sentences else None
    if found is None:
        return ()
    # by lingua's code ("pt"), the project's first language of it ("pt_BR"): regional variants of
    # one language are one language to the detector, never foreign to each other
    named = {base(code): name for code, name in reversed(names)}
    own_code = base(lang)
    foreign: list[tuple[str, str, float]] = []
    for sentence in sentences:
        values = {
            value.language.iso_code_639_1.name.lower(): value.value
            for value in found.compute_language_confidence_values(sentence)
        }
        best = max(values, key=lambda code: values[code])
        needed = settings.needed(best)
        if best != own_code and values[best] >= needed and values.get(own_code, 0.0) < needed / 10:
            foreign.append((sentence, best, values[best]))
    if not foreign:
        return ()
    own = dict(names)[lang]
    others = {code for _, code, _ in foreign}
    if len(foreign) == len(sentences) and len(others) == 1:
        other = named[foreign[0][1]]
        return (
            Finding(
                "wrong-language",
                f"'{text_id}' reads as {other}, not {own}: \"{_clipped(text)}\"",
                f"translate it into {own} (a text pasted from the {other} file?)",
            ),
        )
    sentence, code, _ = foreign[0]
    more = f" (and {len(foreign) - 1} more)" if len(foreign) > 1 else ""
    return (
        Finding(
            "wrong-language",
            f"'{text_id}': a sentence reads as {named[code]}, not {own}: \"{_clipped(sentence)}\""
            + more,
            f"translate that sentence into {own} (left over from the {named[code]} it was made "
            "from?); a name that misleads the check goes in the game's untranslatable words",
        ),
    )


def checker(project, game, lang: str):
    """A function of (text id, text) giving what `identity_findings` finds in a text of `lang` in
    `game` (nothing for a language the project does not describe)."""
    language = project.languages.get(lang)
    if language is None:
        return lambda text_id, text: ()
    names = tuple(sorted((code, other.name) for code, other in project.languages.items()))
    settings = settings_of(language)
    words = tuple(game.game.untranslatable.words)
    return lambda text_id, text: identity_findings(text_id, text, lang, names, settings, words)


def _clipped(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
