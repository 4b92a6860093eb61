"""`printshop i18n new LANG`: a starter language file, data/languages/LANG.yaml.

What a translator would otherwise copy by hand from inside the installed package: the language's
name, the language its translations are made from (`translated_from`), typography defaults for
the language, and every label printshop prints, copied from the reference language's and marked
`# TODO: translate` (so `validate` lists each until it is translated).

The defaults per language are the conventions of its typography as style guides and the Unicode
CLDR give them: the quotation marks (primary, then secondary), the space French sets before high
punctuation, and the hyphenation patterns pyphen has for it. A language not in the table gets
English quotes and a comment saying to check them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from printshop.language.translation import TODO

# de, pt-br, sr_latn: lower case, as the texts' file names are (pipeline/scope.py SAFE_ID)
CODE = re.compile(r"^[a-z]{2,3}(?:[_-][a-z0-9]{2,8})?$")


@dataclass(frozen=True)
class Conventions:
    name: str  # in English
    native: str
    quotes: tuple[tuple[str, str], ...]
    space_before: str = ""  # punctuation set after a narrow no-break space
    space_after: str = ""


_EN_QUOTES = (("“", "”"), ("‘", "’"))
_GUILLEMETS = (("«", "»"), ("“", "”"))
_LOW_HIGH = (("„", "“"), ("‚", "‘"))
KNOWN = {
    "en": Conventions("English", "English", _EN_QUOTES),
    "fr": Conventions("French", "Français", _GUILLEMETS, ";:!?»", "«"),
    "de": Conventions("German", "Deutsch", _LOW_HIGH),
    "es": Conventions("Spanish", "Español", (("«", "»"), ("“", "”"), ("‘", "’"))),
    "it": Conventions("Italian", "Italiano", _GUILLEMETS),
    "pt": Conventions("Portuguese", "Português", _GUILLEMETS),
    "ca": Conventions("Catalan", "Català", _GUILLEMETS),
    "nl": Conventions("Dutch", "Nederlands", _EN_QUOTES),
    "sv": Conventions("Swedish", "Svenska", (("”", "”"), ("’", "’"))),
    "da": Conventions("Danish", "Dansk", _LOW_HIGH),
    "nb": Conventions("Norwegian Bokmål", "Norsk bokmål", (("«", "»"), ("‘", "’"))),
    "fi": Conventions("Finnish", "Suomi", (("”", "”"), ("’", "’"))),
    "pl": Conventions("Polish", "Polski", (("„", "”"), ("«", "»"))),
    "cs": Conventions("Czech", "Čeština", _LOW_HIGH),
    "sk": Conventions("Slovak", "Slovenčina", _LOW_HIGH),
    "hu": Conventions("Hungarian", "Magyar", (("„", "”"), ("»", "«"))),
    "ro": Conventions("Romanian", "Română", (("„", "”"), ("«", "»"))),
    "ru": Conventions("Russian", "Русский", (("«", "»"), ("„", "“"))),
    "uk": Conventions("Ukrainian", "Українська", (("«", "»"), ("„", "“"))),
    "el": Conventions("Greek", "Ελληνικά", (("«", "»"), ("“", "”"))),
    "tr": Conventions("Turkish", "Türkçe", _EN_QUOTES),
}


class StarterError(ValueError):
    """A language code printshop cannot make a file of; the message says what to write."""


def conventions(lang: str) -> Conventions | None:
    return KNOWN.get(re.split(r"[_-]", lang)[0].lower())


def hyphenation_of(lang: str) -> str | None:
    """pyphen's name for the language's patterns (de_DE for de), or None where it has none."""
    import pyphen

    tried = [lang.replace("-", "_")]
    base = tried[0].split("_")[0]
    tried += [f"{base}_{base.upper()}", base]
    for name in tried:
        found = pyphen.language_fallback(name)
        if found is not None:
            return found
    return None


def starter_file(lang: str, reference_lang: str, reference_labels: dict[str, str]) -> str:
    """The text of data/languages/LANG.yaml for a language made from `reference_lang`."""
    if not CODE.match(lang):
        raise StarterError(
            f"'{lang}' is not a language code: write it as ISO 639 has it, in lower case (de, pt-br, "
            "sr_latn)"
        )
    if lang == reference_lang:
        raise StarterError(f"'{lang}' cannot be made from itself: name another with --from")
    known = conventions(lang)
    hyphenation = hyphenation_of(lang)

    def quoted(text: str) -> str:  # a YAML double-quoted scalar reads a JSON string
        return json.dumps(text, ensure_ascii=False)

    lines = [
        f"# The {known.name if known else lang} language: written by 'printshop i18n new {lang}'.",
        "# Translate every label below (each is marked until you do), check the typography, then",
        f"# run 'printshop i18n sync {lang}' to start the games' texts. TRANSLATING.md says more.",
        f"name: {quoted(known.name if known else lang)}",
        f"native_name: {quoted(known.native if known else lang)}",
        "# the language translations into it are made from, where a game has it (else its source)",
        f"translated_from: {reference_lang}",
        "typography:",
    ]
    if hyphenation:
        lines.append(f"  hyphenation: {hyphenation}  # pyphen's patterns for the language")
    else:
        lines.append(f"  # no hyphenation patterns for '{lang}' in pyphen: words are never broken")
    if known is None:
        lines.append(f"  # '{lang}' is not in printshop's table: check these quotation marks")
    quotes = known.quotes if known else _EN_QUOTES
    lines.append("  quotes: [" + ", ".join(f"[{quoted(a)}, {quoted(b)}]" for a, b in quotes) + "]")
    lines.append("""  replace: {"'": "’"}  # typographic apostrophes""")
    if known and (known.space_before or known.space_after):
        lines.append(f"  space_before: {quoted(known.space_before)}")
        lines.append(f"  space_after: {quoted(known.space_after)}")
        lines.append('  space: "\\u202F"  # a narrow no-break space')
    lines.append(f"# the words printshop prints, copied from '{reference_lang}': translate each")
    lines.append("labels:")
    for name, text in reference_labels.items():
        lines.append(f"  {name}: {quoted(text)}  # {TODO}")
    return "\n".join(lines) + "\n"
