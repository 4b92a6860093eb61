"""Translation QA: the mistakes a translator makes in ordinary text, found by comparing a
translation with the text it was made from (translate-toolkit's `pofilter` checks that apply to game
text).

Each check is language-aware, so it raises no false alarm on correct text: French spaces before
`? ! : ;` and inside « », German „quotes“ and capitalised nouns, words a language may double
("nous nous"). Thresholds and allowed words are data (`checks:` and `typography.quotes` in
`data/languages/<lang>.yaml`). A translator accepts a warning on purpose with a comment on the
text's line: `# accept number-mismatch: written out in words`.
"""

from __future__ import annotations

import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from printshop import memos
from printshop.checks import punctuation
from printshop.memo import Memo, file_stamp
from printshop.project.models.language import Language

_TAG = re.compile(r"<[^>]*>")
PLACEHOLDER = re.compile(r"\{[^\W\d]\w*\}")  # as texts.py's
_NUMBER = re.compile(r"\d+")
_WORD = re.compile(r"[^\W\d_]+")
_DOUBLED = re.compile(r"(?<![^\W\d_])([^\W\d_]+)[ \u00a0\u202f]+\1(?![^\W\d_])", re.IGNORECASE)
_SPACES = " \t\n\u00a0\u202f\u2009"
_END_MARKS = ".!?:;…"
# closing quotes and brackets that may follow a sentence's end mark ("… fin. »", "(see p. 3.)")
_CLOSERS = "»”“’‘\"')]›"
_BRACKETS = (("(", ")"), ("[", "]"), ("{", "}"))  # a brace left alone is a placeholder half typed
ACCEPT = re.compile(r"#\s*accept\s+([a-z][a-z-]*(?:\s*,\s*[a-z][a-z-]*)*)\s*:\s*(\S.*?)\s*$")


@dataclass(frozen=True)
class Problem:
    code: str
    message: str


def plain(text: str) -> str:
    """The words a reader sees: no tags, no placeholders."""
    return PLACEHOLDER.sub("", _TAG.sub(" ", text))


def language_rules(language: Language) -> tuple:
    """What the checks read of a language (its quotes, doubled words and length ratios), as a key:
    the same texts checked under the same rules give the same problems, whichever copy of the
    language file, or load of it, the rules came from. Worked out once per language object (kept, so
    its id stays its own)."""
    known = _RULES.get(id(language))
    if known is None or known[0] is not language:
        checks = language.checks
        key = (
            tuple(tuple(pair) for pair in language.typography.quotes),
            tuple(checks.doubled_words),
            tuple(sorted((lang, ratio.min, ratio.max) for lang, ratio in checks.length.items())),
            checks.length_from,
            checks.length_full,
            checks.sentences,
            punctuation.Rules.of(language.typography),
            tuple(checks.regional_units),
        )
        known = _RULES[id(language)] = (language, key)
    return known[1]


_RULES = memos.LANGUAGE_RULES


def _remembered(memo: Memo, key: tuple, work) -> list[Problem]:
    known = memo.get(key)
    if known is None:
        known = memo[key] = tuple(work())
    return list(known)


def check_pair(
    text_id: str,
    reference: str,
    translation: str,
    language: Language,
    reference_lang: str,
    reference_name: str,
    reference_language: Language | None = None,
) -> list[Problem]:
    """What is wrong with `translation` (in `language`) as a rendering of `reference` (in
    `reference_lang`, whose sentences are read by `reference_language`'s rules when it is known)."""
    return _remembered(
        _PAIRS_CHECKED,
        (
            text_id,
            reference,
            translation,
            language_rules(language),
            reference_lang,
            reference_name,
            language_rules(reference_language) if reference_language is not None else None,
        ),
        lambda: _check_pair(
            text_id,
            reference,
            translation,
            language,
            reference_lang,
            reference_name,
            reference_language,
        ),
    )


_PAIRS_CHECKED = memos.PAIRS_CHECKED


def _check_pair(
    text_id: str,
    reference: str,
    translation: str,
    language: Language,
    reference_lang: str,
    reference_name: str,
    reference_language: Language | None = None,
) -> list[Problem]:
    if not translation.strip():
        if not reference.strip():
            return []  # left empty on purpose in the source too
        return [
            Problem(
                "empty-translation",
                f"'{text_id}' is empty: the {reference_name} text "
                f'"{_short(reference)}" would print as nothing',
            )
        ]
    problems = []
    wanted, given = (
        Counter(_NUMBER.findall(_shared(reference, translation, reference_language))),
        Counter(_NUMBER.findall(plain(translation))),
    )
    if wanted != given:
        lost, added = sorted((wanted - given).elements()), sorted((given - wanted).elements())
        parts = ([f"lacks {', '.join(lost)}"] if lost else []) + (
            [f"adds {', '.join(added)}"] if added else []
        )
        problems.append(
            Problem(
                "number-mismatch",
                f"'{text_id}' {' and '.join(parts)} compared with the "
                f'{reference_name} "{_short(reference)}"',
            )
        )
    problems += _whitespace(text_id, reference, translation)
    doubled = [
        m.group(0)
        for m in _DOUBLED.finditer(_TAG.sub(" ", translation))
        if m.group(1).lower() not in {w.lower() for w in language.checks.doubled_words}
    ]
    if doubled:
        problems.append(Problem("repeated-word", f"'{text_id}' repeats a word: \"{doubled[0]}\""))
    rules = punctuation.Rules.of(language.typography)
    source_rules = punctuation.Rules.of(
        reference_language.typography if reference_language is not None else None
    )
    mark, expected = end_mark(translation), end_mark(reference)
    if not _ends_alike(translation, rules, reference, source_rules):
        problems.append(
            Problem(
                "end-punctuation",
                f"'{text_id}' ends {_describe(mark)} where the {reference_name} ends "
                f'{_describe(expected)}: "…{_short(translation, tail=True)}"',
            )
        )  # (the {reference_name}
        # text is shown beside every finding: its end quoted here said it twice, and the
        # translation's not at all)
    if language.checks.sentences:
        problems += _sentence_count(
            text_id, reference, translation, rules, source_rules, reference_name
        )
    problems += _length(text_id, reference, translation, language, reference_lang, reference_name)
    return problems


_ASIDE = re.compile(r"\([^()]*\)")


def _shared(reference: str, translation: str, reference_language: Language | None) -> str:
    """The words of `reference` every translation must carry the numbers of: all but a bracketed
    aside naming a unit that `reference_language` gives for some readers only (its
    checks.regional_units: "(about 60 to 90 lb cover)") when the translation never writes that
    unit. A translation that writes it must give the aside's numbers."""
    text = plain(reference)
    units = reference_language.checks.regional_units if reference_language is not None else []
    written = set(_WORD.findall(plain(translation)))
    left_out = [unit for unit in units if unit not in written]
    if not left_out:
        return text

    def kept(aside: re.Match) -> str:
        names = set(_WORD.findall(aside.group()))
        return " " if names & set(left_out) else aside.group()

    return _ASIDE.sub(kept, text)


def _ends_alike(
    translation: str,
    rules: punctuation.Rules,
    reference: str,
    source_rules: punctuation.Rules,
) -> bool:
    """Whether the two texts end with the same mark; a text that ends with an abbreviation ("EE.
    UU.", "etc.") ends with a full stop or with none, as the other needs."""
    marks, expected = _possible_ends(translation, rules), _possible_ends(reference, source_rules)
    return bool(marks & expected)


def _possible_ends(text: str, rules: punctuation.Rules) -> set[str]:
    mark = end_mark(text)
    return {".", ""} if mark == "." and punctuation.ends_with_abbreviation(text, rules) else {mark}


# what joins two sentences into one inside a translation ("…row; take…"): each one the translation
# has beyond its source's stands for a sentence it merged, not one it dropped
_JOINS = re.compile(r"[;:](?=\s|$)")


def _sentence_count(
    text_id: str,
    reference: str,
    translation: str,
    rules: punctuation.Rules,
    source_rules: punctuation.Rules,
    reference_name: str,
) -> list[Problem]:
    """A translation with fewer sentences than its source, those it joined with a semicolon or a
    colon counted: a sentence left out."""
    wanted = punctuation.sentences(reference, source_rules)
    given = punctuation.sentences(translation, rules)
    joined = max(0, len(_JOINS.findall(plain(translation))) - len(_JOINS.findall(plain(reference))))
    if len(given) + joined >= len(wanted):
        return []
    return [
        Problem(
            "sentence-count",
            f"'{text_id}' has {_sentences(len(given))} where the {reference_name} has "
            f"{len(wanted)}: is one left out? The {reference_name} ends "
            f'"…{_short(wanted[-1], tail=True)}", this text "…{_short(given[-1], tail=True)}"'
            if given
            else f"'{text_id}' has no sentence where the {reference_name} has {len(wanted)}",
        )
    ]


def _sentences(count: int) -> str:
    return f"{count} sentence" + ("" if count == 1 else "s")


def _length(
    text_id: str,
    reference: str,
    translation: str,
    language: Language,
    reference_lang: str,
    reference_name: str,
) -> list[Problem]:
    """A translation much longer or shorter than its source: outside the language's limits, which
    widen for a source shorter than `length_full` by the square root of `length_full` over its
    length (the length of a short text varies more: one word rendered by two is a third more)."""
    length, source_length = len(plain(translation).strip()), len(plain(reference).strip())
    ratios, checks = language.checks.length, language.checks
    ratio = ratios.get(reference_lang) or ratios.get("*")
    if ratio is None or source_length < checks.length_from:
        return []
    widen = max(1.0, (checks.length_full / source_length) ** 0.5)
    low, high = ratio.min / widen, ratio.max * widen
    share = length / source_length
    if low <= share <= high:
        return []
    return [
        Problem(
            "length-ratio",
            f"'{text_id}' is {share:.2f} times as long as the {reference_name} ({length} "
            f"characters against {source_length}; expected {low:.2f} to {high:.2f} for a text "
            "this long): is something "
            + ("left out?" if share < low else "added, or a text pasted twice?"),
        )
    ]


def check_text(text_id: str, text: str, language: Language) -> list[Problem]:
    """Checks of a text on its own, in any language, the source included: brackets and quotes
    balance."""
    return _remembered(
        _TEXTS_CHECKED,
        (text_id, text, language_rules(language)),
        lambda: _check_text(text_id, text, language),
    )


_TEXTS_CHECKED = memos.TEXTS_CHECKED


def _check_text(text_id: str, text: str, language: Language) -> tuple[Problem, ...]:
    problem = unbalanced(
        _TAG.sub(" ", text),
        list(_BRACKETS) + [(opening, closing) for opening, closing in language.typography.quotes],
    )
    found = [Problem("unbalanced", f"'{text_id}': {problem}")] if problem else []
    rules = punctuation.Rules.of(language.typography)
    found += [
        Problem("opening-mark", f"'{text_id}': {problem}")
        for problem in punctuation.opening_mark_problems(text, rules)
    ]
    found += [
        Problem("straight-quote", f"'{text_id}' has {problem}")
        for problem in punctuation.straight_quote_problems(text, rules)
    ]
    return tuple(found)


def unbalanced(text: str, pairs: list[tuple[str, str]]) -> str:
    """What does not balance in `text`, or "". A mark that closes the innermost open pair closes it;
    otherwise a mark that opens a pair opens one (German „…“ closes with the mark English opens
    with)."""
    openers: dict[str, list[str]] = {}
    for opening, closing in pairs:
        openers.setdefault(opening, []).append(closing)
    closers = {closing for _, closing in pairs}
    stack: list[tuple[str, str]] = []  # (opening mark, its closing mark)
    for char in text:
        if stack and char == stack[-1][1]:
            stack.pop()
        elif char in openers:
            stack.append((char, openers[char][0]))
        elif char in closers:
            return f"'{char}' closes nothing that is open"
    if stack:
        return f"'{stack[-1][0]}' is never closed (with '{stack[-1][1]}')"
    return ""


def end_mark(text: str) -> str:
    """The mark that ends a text ('.', '?', '…' …) or '' when it ends with a word; French spacing,
    closing quotes and brackets are looked through, and '...' is '…'."""
    stripped = _TAG.sub("", text).rstrip(_SPACES + _CLOSERS)
    if stripped.endswith("..."):
        return "…"
    return stripped[-1] if stripped and stripped[-1] in _END_MARKS else ""


def _whitespace(text_id: str, reference: str, translation: str) -> list[Problem]:
    found = []
    if translation[:1] in _SPACES and reference[:1] not in _SPACES:
        found.append("starts with a space")
    if translation[-1:] in _SPACES and reference[-1:] not in _SPACES:
        found.append("ends with a space")
    doubled = re.search(r"[ \u00a0\u202f]{2,}", translation)
    if doubled and not re.search(r"[ \u00a0\u202f]{2,}", reference):
        found.append(
            f'has {len(doubled.group(0))} spaces in a row at "{_around(translation, doubled.start())}"'
        )
    return [Problem("whitespace", f"'{text_id}' {' and '.join(found)}")] if found else []


def accepted(path: Path | str, line: int) -> dict[str, str]:
    """The checks a translator accepted on purpose on this line: `# accept code[, code]: why`."""
    lines = _lines(str(path))
    if not 0 < line <= len(lines):
        return {}
    match = ACCEPT.search(lines[line - 1])
    if not match:
        return {}
    return {code.strip(): match.group(2) for code in match.group(1).split(",")}


def _lines(path: str) -> list[str]:
    if _PASS is not None and path in _PASS:
        return _PASS[path]
    lines = _read_lines(path, file_stamp(path))
    if _PASS is not None:
        _PASS[path] = lines
    return lines


_PASS: dict[str, list[str]] | None = (
    None  # while a validation pass runs: each file's lines, read once
)


@contextmanager
def one_pass():
    """Within the block, each file's lines are looked up once (not a `stat` per text: a deck of a
    thousand cards has thousands of texts); a later pass sees a file's edits."""
    global _PASS
    outer, _PASS = _PASS, {} if _PASS is None else _PASS
    try:
        yield
    finally:
        _PASS = outer


@memos.FILE_LINES
def _read_lines(path: str, stamp: tuple[int, ...]) -> list[str]:  # keyed by the file's stamp
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def only_words(text: str, words: list[str]) -> bool:
    """True when every word of `text` is one of `words` (names, loanwords), or it has no words at
    all."""
    allowed = {word.lower() for phrase in words for word in _WORD.findall(phrase)}
    return all(word.lower() in allowed for word in _WORD.findall(plain(text)))


def _describe(mark: str) -> str:
    return f"with '{mark}'" if mark else "without punctuation"


_RUNS_OF_SPACE = re.compile(r"[ \t\r\n]+")


def _short(text: str, limit: int = 48, tail: bool = False) -> str:
    text = _RUNS_OF_SPACE.sub(" ", text).strip(
        " "
    )  # (no-break spaces kept: French "corne ?" is quoted as written)
    if len(text) <= limit:
        return text
    return text[-limit:] if tail else text[:limit] + "…"


def _around(text: str, index: int) -> str:
    return text[max(0, index - 12) : index + 14].replace("\n", " ")
