"""The schema of data/languages/<lang>.yaml: a language's typography (hyphenation, kept words) and
its translation checks.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from printshop.project.schema import Node


# --- data/languages/<lang>.yaml ---------------------------------------------------------
def _hyphenation_language(value: str) -> str:
    import pyphen

    if pyphen.language_fallback(value) is None:
        near = sorted(
            name for name in pyphen.LANGUAGES if name.split("_")[0] == value.split("_")[0].lower()
        )
        raise ValueError(
            f"there are no hyphenation patterns for '{value}'"
            + (f" (there are: {', '.join(near)})" if near else " (write it like de_DE or fr_FR)")
        )
    return value


MAX_KEPT_WORDS = (
    200  # a language's short words are a few dozen; each is tried at every word of every text
)


def _one_word(value: str) -> str:
    if not value or any(ch.isspace() for ch in value):
        raise ValueError(
            f"'{value}' is not one word: list each short word on its own, e.g. [de, la, le]"
        )
    return value


class Typography(Node):
    hyphenation: Annotated[str, AfterValidator(_hyphenation_language)] | None = None
    """Hyphenation patterns (pyphen's name for them: de_DE, fr_FR, en_GB); none: words are never
    broken."""
    hyphen_min: tuple[Annotated[int, Field(ge=1, le=8)], Annotated[int, Field(ge=1, le=8)]] = (2, 3)
    """The fewest letters a hyphen may leave at the end of a line and carry to the next, as
    [before, after] ("Octo-ber" needs 4 before: never "el-eventh" with [3, 3])."""
    break_capitalised: bool = True
    """Whether a word that starts with a capital may be hyphenated: false keeps proper names and
    the capitalised terms of a game whole ("Sanatorium", "Staline"); German, whose nouns all take a
    capital, keeps it true."""
    unbroken: list[Annotated[str, AfterValidator(_one_word)]] = Field(
        default=[], max_length=MAX_KEPT_WORDS
    )
    """Words never hyphenated, whatever their case, with their plurals in -s or -x (loanwords the
    patterns break badly: "perestroika"). A game's glossary terms (glossary.yaml) are never
    hyphenated either, in the language they are rendered in."""
    space_before: str = ""
    """Punctuation preceded by `space` (French: ; : ! ? »)."""
    space_after: str = ""
    """Punctuation followed by `space` (French: «)."""
    space: str = "\u202f"
    """The space put before or after that punctuation (a narrow no-break space by default)."""
    replace: dict[str, str] = {}
    """Characters replaced in every text, e.g. `"'": "’"` for typographic apostrophes."""
    quotes: list[tuple[str, str]] = [("\u201c", "\u201d")]
    """Quotation marks that open and close in this language, checked for balance ("«", "»"); a
    straight `"` in a text is reported unless one pair here is straight."""
    apostrophe: str = "\u2019"
    """The apostrophe this language prints: a straight `'` in a text is reported unless it is this
    or `replace` turns it into another character at print."""
    opening_marks: dict[str, str] = {}
    """Closing marks whose sentence needs an opening mark before them, as closing: opening (Spanish:
    `{"?": "¿", "!": "¡"}`); each is checked within its sentence."""
    abbreviations: list[str] = []
    """Abbreviations written with full stops, which end no sentence ("etc.", "z. B.", "EE. UU.");
    a capital letter and a full stop (an initial, "J. Stalin") never ends one either."""
    ordinal_full_stop: bool = False
    """Whether a number followed by a full stop is an ordinal (German "am 3. Tag") rather than a
    sentence's end."""
    keep_with_next: list[Annotated[str, AfterValidator(_one_word)]] = Field(
        default=[], max_length=MAX_KEPT_WORDS
    )
    """Short words never left at the end of a line of ragged or centred text (a card's text, a
    title, a booklet's headings and list items), whatever their case: the space after each is set as
    a no-break space (French: à, de, le, la, un...; "LE / VIEUX GARDIEN" and "« La / lampe" are
    never set). Justified paragraphs keep their breaks: there a tie would open the spaces of the
    line above it wide."""
    numbers_with_next: bool = False
    """Whether a number stays on the line of the word after it in ragged or centred text ("perd 1 /
    lumière" is never set)."""
    decimal_mark: str = Field(default=".", min_length=1, max_length=1)
    """The mark between a number's whole part and its decimals in a measure printshop writes (French:
    ",")."""
    length_units: list[Literal["mm", "in"]] = Field(default=["mm"], min_length=1)
    """The units a length printshop writes (a card's size on the how-to-print page) is given in:
    the first, then each other in brackets ("63 × 88 mm (2.48 × 3.46 in)")."""


class LengthRatio(Node):
    """A translation's length over the length of the text it is made from: outside [min, max] is
    reported."""

    min: float = Field(gt=0)
    """The shortest a translation may be, as a share of its source's length."""
    max: float = Field(gt=0)
    """The longest a translation may be, as a multiple of its source's length."""


class Identity(Node):
    """What the language-identity check (`wrong-language`) judges: sentences of at least
    `min_words` words and `min_characters` letters, once markup, numbers and the game's
    untranslatable words are taken out; one is reported when the detector finds another of the
    project's languages with at least `confidence` (by that language's code, "*" for any)."""

    min_words: int = Field(default=4, ge=1)
    """Sentences with fewer words are not judged (names, labels, loanwords)."""
    min_characters: int = Field(default=24, ge=1)
    """Sentences with fewer letters are not judged."""
    confidence: dict[str, Annotated[float, Field(gt=0, le=1)]] = {"*": 0.9}
    """How sure the detector must be that a sentence is in another language (its code without a
    region, "en", or "*" for any), from 0 to 1."""


class TranslationChecks(Node):
    length: dict[str, LengthRatio] = {"*": LengthRatio(min=0.4, max=2.5)}
    """Per language a translation is made from ("en", or "*" for any): how much longer or shorter it
    may be."""
    length_from: int = Field(default=24, ge=1)
    """Texts shorter than this many characters are not compared by length: they vary too much."""
    length_full: int = Field(default=80, ge=1)
    """From a source of this many characters on, `length` holds as written; a shorter source's
    limits widen by the square root of `length_full` over its length (a short text's length varies
    more: "Un gran bum" is a third of its English)."""
    sentences: bool = True
    """Whether a translation with fewer sentences than its source is reported (a sentence left
    out)."""
    doubled_words: list[str] = []
    """Words that may stand twice in a row ("nous nous")."""
    identity: Identity = Identity()
    """When a sentence counts as written in another language (`wrong-language`)."""
    regional_units: list[Annotated[str, AfterValidator(_one_word)]] = []
    """Units a text in this language gives in brackets for some of its readers only, beside a
    measure every reader has ("160 g/m² (about 60 lb cover)": [lb]). A translation made from it may
    leave out such a bracketed aside, numbers and all, when it never writes the unit
    (`number-mismatch`); one that writes the unit must give its numbers."""


class Language(Node):
    name: str
    """The language's name in English ("French"), used in messages."""
    native_name: str
    """The language's name in itself ("Français")."""
    typography: Typography = Typography()
    """The language's typographic conventions."""
    checks: TranslationChecks = TranslationChecks()
    """Thresholds of the translation checks (docs/checks.md)."""
    translated_from: str | None = None
    """The language translations into this one are made from ("pivot"), when a game has it and it is
    not this language; otherwise the game's source language. Fallback, staleness, PO msgids and
    status follow it."""
    labels: dict[str, str]
    """Words printshop itself prints on pages, by name: footers (fronts, backs, page
    "{page}/{pages}"), the how-to-print sheet, the calibration page; validate names any the language
    lacks."""
