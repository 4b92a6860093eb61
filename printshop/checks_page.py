"""docs/checks.md, generated from the catalogue of checks (check_codes.py) and the prose kept
beside it here: what one error stops, and each translation check's alarms on correct text."""

from __future__ import annotations

from printshop.check_codes import CATALOGUE

# Issue 52, item 9: each translation check's alarms on correct text, counted by
# tests/test_punctuation_checks.py on the project's translations and the German fixture: (alarms,
# of which acknowledged on their line, what they are)
CORRECT_TEXT = (
    "Kremlin's English from its French (387 texts), the French of Comrade (89), Comrade Stalin "
    "(186) and Assassin (95) from their English, the tests' German Comrade with its labels "
    "(tests/fixtures/german), and the 23 correct Italian, Galician and Spanish texts of "
    "tests/test_punctuation_checks.py"
)
ALARMS_ON_CORRECT_TEXT: dict[str, tuple[int, int, str]] = {
    "empty-translation": (0, 0, ""),
    "untranslated": (26, 26, "names and words the same in both languages, each accepted"),
    "number-mismatch": (2, 2, "« une vingtaine » for “about 20”, accepted"),
    "whitespace": (0, 0, ""),
    "repeated-word": (0, 0, "French “nous nous” is allowed by checks.doubled_words"),
    "end-punctuation": (0, 0, "“EE. UU.”, “ecc.” end with an abbreviation: a full stop or none"),
    "unbalanced": (0, 0, ""),
    "length-ratio": (0, 0, "“Un gran botto”, 0.37 of its English, passes the widened limits"),
    "opening-mark": (0, 0, "“Se gañas, ¿quen perde?”, “¡¿Que dis?!”, “Di «¿quen?» e cala.”"),
    "straight-quote": (0, 0, "a straight ' where replace turns it into ’ is right"),
    "sentence-count": (
        0,
        0,
        "sentences joined with ; or : count as the sentences they were (Kremlin's suspicion "
        "marker, once written “?”, is an icon)",
    ),
    "swapped-texts": (0, 0, "none down to a margin of 0.05 (0.1 is used)"),
    "placeholder": (0, 0, ""),
    "markup-mismatch": (1, 1, "a French title beside the original one, each in italics, accepted"),
    "line-breaks": (0, 0, ""),
    "mojibake": (0, 0, ""),
    "icon-mismatch": (0, 0, ""),
    "wrong-language": (0, 0, ""),
    "glossary-term": (0, 0, ""),
}
TRANSLATION_LIMITS = [
    "`sentence-count` reports two sentences a translation joins with “and” rather than with a "
    "semicolon or colon: accept it on the line (`# accept sentence-count: joined`). It counts "
    "sentences, so a dropped clause, or a sentence dropped where another was split in two, "
    "passes; `length-ratio` may catch the first.",
    "`swapped-texts` is sure when the two texts' numbers, placeholders or markup differ; between "
    "texts of one kind without them (two titles) it needs shared letters (names, cognates): in the "
    "French of Comrade, Comrade Stalin and Assassin it caught 662 of the 1,356 pairs of sibling "
    "texts swapped on purpose one at a time, and no correct pair; a title that shares few letters "
    "with its source (“Président” for “Chairman”) cannot be told apart.",
    "A capital letter and a full stop is taken for an initial: a sentence that ends with one "
    "(“from A to Z.”) runs on into the next, in the source and the translation alike.",
    "German ordinals (`ordinal_full_stop`): a number after a capitalised word ends its sentence "
    "(“Spalte 1. Jedes …”); after a lower-case word it is an ordinal (“am 3. Tag”).",
]


def _translation_section() -> list[str]:
    lines = [
        "## Translation checks on correct text",
        "",
        "What each translation check enforces is in its summary above; the rules of punctuation "
        "and sentences are in `printshop/checks/punctuation.py`, those of swapped texts in "
        "`printshop/checks/swaps.py`, and every threshold is in the language file "
        "(docs/data-format.md: Typography, TranslationChecks). Alarms each raises on correct "
        f"text: {CORRECT_TEXT}. A test counts them again.",
        "",
        "| check | alarms on correct text | of which accepted | what they are |",
        "|---|---|---|---|",
    ]
    for code, (alarms, accepted, note) in ALARMS_ON_CORRECT_TEXT.items():
        lines.append(f"| `{code}` | {alarms} | {accepted} | {note} |")
    lines += ["", "What they may still miss or say wrongly:", ""]
    lines += [f"- {limit}" for limit in TRANSLATION_LIMITS]
    return lines + [""]


# how `validate` goes on past an error (project/loader.py `what_stands`, pipeline/build.py `check`)
ONE_RUN = [
    "## What one error stops",
    "",
    "`validate` reports every independent problem in one run: a problem stops only what depends "
    "on it.",
    "",
    "- A file that cannot be read (its YAML, or its keys and values against the schema) leaves out "
    "that file and what needs it: a shared print file (`print/media.yaml`, …) every game; a "
    "language's file (`languages/fr.yaml`) that language in every game; a game's `game.yaml`, "
    "its own `print/` files or its source texts that game; its `faces.yaml`, a spreadsheet or a "
    "generated deck all but its texts' checks; a translation's texts or record (`text/fr.yaml`, `fr.sources.yaml`) that translation and "
    "those made from it; a glossary its checks; a game folder whose name is not a plain id "
    "(`unsafe-path`) that game. Every other file is still read and checked. A file whose only "
    "faults are unknown keys (a misspelt or future field) is not left out: each key is reported, "
    "and the file is read without them, so its game is still checked.",
    "- What was read is validated: an error a check finds in one game holds back nothing of "
    "another's.",
    "- Every game and language read is laid out, so a text too long for its frame in one game is "
    "reported beside another game's errors. The cards and sheets an error stands in are not laid "
    "out, and a template failure in a game whose data has errors is held back as an info.",
    "- One root fault is one error: what it stops is not checked, so nothing is reported as its "
    "consequence (a missing spreadsheet is one error, not one per card it held); a face "
    "faces.yaml lacks is said once, at the first card naming it, with how many others do; a "
    "template's fault once for every card and language; the same diagnostic twice, once.",
    "- `build` checks the same way and writes nothing while an error stands.",
    "",
]


def catalogue_markdown() -> str:
    """docs/checks.md, generated from the catalogue (`printshop checks --markdown`)."""
    lines = [
        "# Checks",
        "",
        "Every problem `printshop validate` reports has a stable code, a severity and a hint. Errors fail",
        "the run; warnings fail it only with `--strict`; infos never do. This page is generated by",
        "`printshop checks --markdown > docs/checks.md`; a test keeps it in step with the code.",
        "",
        "| code | severity | what it means | how to fix it |",
        "|---|---|---|---|",
    ]
    for check in CATALOGUE.values():
        lines.append(
            f"| `{check.code}` | {check.severity.value} | {check.summary} | {check.hint} |"
        )
    lines += [""] + ONE_RUN + _translation_section()
    lines += ["## Examples", ""]
    for check in CATALOGUE.values():
        lines += [f"### `{check.code}`", "", "```", check.example, "```", ""]
    return "\n".join(lines)
