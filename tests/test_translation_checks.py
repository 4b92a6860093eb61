"""Translation QA: each ordinary translator's mistake, written into a German Comrade, is reported at
the German file's own line with the text id; the project's English, French and the German fixture
raise no false alarm; and the language-aware rules (French spacing, German quotes, doubled words)
hold."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from printshop.checks.translation_checks import check_pair, check_text, end_mark, unbalanced
from printshop.pipeline.build import check
from printshop.project.models.language import Language
from tests.conftest import edit

FIXTURES = Path(__file__).parent / "fixtures" / "german"


@pytest.fixture
def german(data_copy) -> Path:
    """A data copy with German described and Comrade translated into it."""
    shutil.copy(FIXTURES / "languages" / "de.yaml", data_copy / "languages" / "de.yaml")
    shutil.copy(
        FIXTURES / "comrade" / "text" / "de.yaml", data_copy / "comrade" / "text" / "de.yaml"
    )
    return data_copy


def german_file(data: Path) -> Path:
    return data / "comrade" / "text" / "de.yaml"


def diagnostics(data: Path, code: str, *, acknowledged: bool = False) -> list:
    """The diagnostics with `code` (those the data acknowledges only when asked)."""
    report, _ = check(data, games=["comrade"])
    return [d for d in report.items if d.code == code and (acknowledged or not d.acknowledged)]


def only(data: Path, code: str, *, acknowledged: bool = False):
    items = [
        d
        for d in diagnostics(data, code, acknowledged=acknowledged)
        if "de.yaml" in d.location.path
    ]
    assert len(items) == 1, [d.format() for d in items] or f"no {code}"
    return items[0]


def recorded(data: Path) -> Path:
    """The German translation recorded, as TRANSLATING.md's fourth step has a finished one (`i18n
    sync`): else its texts are untracked-translation (a change to the English could not show as
    stale)."""
    from printshop.language.i18n import sync
    from printshop.project.loader import load_project

    assert sync(load_project(data, games=["comrade"]).games["comrade"], "de").added == []
    return data


def test_the_project_and_a_new_german_translation_raise_no_false_alarm(german):
    report, _ = check(recorded(german))
    assert not report.fails(strict=True), [
        d.format() for d in report.items if d.severity.value != "info" and not d.acknowledged
    ]


@pytest.mark.parametrize(
    "old, new, code, id_",
    [
        (
            'never_reveal: "Zeige diese Karte niemandem."',
            'never_reveal: ""',
            "empty-translation",
            "card.common.never_reveal",
        ),
        (
            '"Finde den Dissidenten: Siehst oder erhältst du im Verhör die Dissidentenkarte, gewinnst du sofort. '
            'Jedes Komitee, in dem du sitzt, scheitert."',
            None,
            "untranslated",
            "card.informer.goal",
        ),
        (
            "(die Hälfte der Spielerzahl, aufgerundet: 3, 4 oder 5)",
            "(die Hälfte der Spielerzahl, aufgerundet: 4, 4 oder 5)",
            "number-mismatch",
            "rules.setup.steps.s5",
        ),
        (
            '"Zeige diese Karte niemandem."',
            '"Zeige diese  Karte niemandem. "',
            "whitespace",
            "card.common.never_reveal",
        ),
        (
            '"Zeige diese Karte niemandem."',
            '"Zeige diese Karte niemandem"',
            "end-punctuation",
            "card.common.never_reveal",
        ),
        (
            "gib ihm deine (nie drei auf einer Hand).",
            "gib ihm deine (nie drei auf einer Hand.",
            "unbalanced",
            "card.rule.interrogation",
        ),
        (
            '"Zeige diese Karte niemandem."',
            '"Zeige „diese Karte niemandem."',
            "unbalanced",
            "card.common.never_reveal",
        ),
        (
            "Siehst oder erhältst du im Verhör die Dissidentenkarte",
            "Siehst oder erhältst du im Verhör die die Dissidentenkarte",
            "repeated-word",
            "card.informer.goal",
        ),
        ('"Zeige diese Karte niemandem."', '"Nein."', "length-ratio", "card.common.never_reveal"),
    ],
)
def test_each_translator_mistake_is_reported_at_the_translation(german, old, new, code, id_):
    path = german_file(german)
    if new is None:  # English pasted over the German text
        english = (german / "comrade" / "text" / "en.yaml").read_text(encoding="utf-8")
        new = next(
            line.split(": ", 1)[1]
            for line in english.splitlines()
            if line.startswith('    goal: "Find the')
        )
    line = edit(path, old, new)
    item = only(german, code)
    assert item.location.path.endswith("comrade/text/de.yaml") and item.location.line == line
    assert f"'{id_}'" in item.message
    assert item.hint
    report, _ = check(german, games=["comrade"])
    assert report.fails(strict=True)


def test_a_misspelled_placeholder_in_a_language_label(german):
    labels = german / "languages" / "de.yaml"
    line = edit(labels, 'page: "Seite {page} von {pages}"', 'page: "Seite {page} von {seiten}"')
    item = only(german, "placeholder")
    assert item.location.path.endswith("languages/de.yaml") and item.location.line == line
    assert "{seiten}" in item.message and "labels.page" in item.message
    assert item.severity.value == "error"


def test_language_labels_get_the_translation_checks(german):
    labels = german / "languages" / "de.yaml"
    line = edit(labels, 'fronts: "Vorderseiten"', 'fronts: "Vorderseiten "')
    item = only(german, "whitespace")
    assert item.location.path.endswith("languages/de.yaml") and item.location.line == line


def test_overflow_is_reported_at_the_translation_that_causes_it(german):
    path = german_file(german)
    goal = (
        "Finde den Dissidenten: Siehst oder erhältst du im Verhör die Dissidentenkarte, gewinnst du sofort. "
        "Jedes Komitee, in dem du sitzt, scheitert."
    )
    line = edit(path, goal, goal + " " + goal + " " + goal)
    items = [d for d in diagnostics(german, "text-overflow") if "de" in d.message]
    assert items, "no overflow"
    item = items[0]
    assert item.location.path.endswith("comrade/text/de.yaml") and item.location.line == line
    assert "'card.informer.goal' (de)" in item.message and "characters too long" in item.message
    assert "minimum size" in item.message
    assert item.also.startswith("frame: ") and "faces.yaml" in item.also  # the designer's line
    assert "shorten" in item.hint


def test_an_accepted_warning_is_acknowledged_and_does_not_fail_strict(german):
    path = german_file(german)
    edit(
        path,
        '"Zeige diese Karte niemandem."',
        '"Zeige diese Karte niemandem"  # accept end-punctuation: a command',
    )
    item = only(german, "end-punctuation", acknowledged=True)
    assert item.acknowledged == "a command"
    report, _ = check(recorded(german), games=["comrade"])
    assert not report.fails(strict=True)


def test_accepting_a_number_mismatch_makes_it_an_acknowledged_warning(german):
    path = german_file(german)
    edit(path, "aufgerundet: 3, 4 oder 5)", "aufgerundet: drei, 4 oder 5)")
    text = path.read_text(encoding="utf-8").replace(
        'oder 5), und legt die übrigen weg."',
        'oder 5), und legt die übrigen weg."  # accept number-mismatch: drei',
    )
    path.write_text(text, encoding="utf-8")
    item = only(german, "number-mismatch", acknowledged=True)
    assert item.severity.value == "warning" and item.acknowledged == "drei"


def test_declared_untranslatable_words_and_ids(german):
    path = german_file(german)
    game = german / "comrade" / "game.yaml"
    edit(path, 'name: "Spitzel"', 'name: "Informer"')
    assert [
        d.message for d in diagnostics(german, "untranslated") if "card.informer.name" in d.message
    ]
    edit(
        game,
        "words: [Glasnost, Perestroika]",
        "words: [Glasnost, Perestroika]\n  ids: {card.informer.name: a loanword}",
    )
    [item] = [
        d
        for d in diagnostics(german, "untranslated", acknowledged=True)
        if "card.informer.name" in d.message
    ]
    assert item.acknowledged == "a loanword"
    # words: a text made only of them is never reported (Glasnost is the same everywhere)
    assert not [d for d in diagnostics(german, "untranslated") if "word.glasnost" in d.message]


def test_a_pivot_language_is_what_a_translation_is_compared_with(german):
    """German made from English: Kremlin's German is compared with its English, not the French
    source."""
    kremlin = german / "kremlin" / "text"
    shutil.copy(kremlin / "en.yaml", kremlin / "de.yaml")
    report, checked = check(german, games=["kremlin"])
    messages = [
        d.message for d in report.items if d.code == "untranslated" and "de.yaml" in d.location.path
    ]
    assert messages and all("English" in message for message in messages)
    game = checked.project.games["kremlin"]
    assert game.reference_lang("de") == "en" and game.reference_lang("en") == "fr"


# --- the rules themselves, language by language
# -----------------------------------------------------
FRENCH = Language(
    name="French",
    native_name="Français",
    labels={},
    typography={"space_before": ";:!?»", "space_after": "«", "quotes": [["«", "»"], ["“", "”"]]},
    checks={"doubled_words": ["nous", "vous"]},
)
GERMAN = Language(
    name="German", native_name="Deutsch", labels={}, typography={"quotes": [["„", "“"], ["»", "«"]]}
)


def codes(reference: str, translation: str, language: Language = FRENCH) -> set[str]:
    return {p.code for p in check_pair("x", reference, translation, language, "en", "English")}


def test_french_spacing_is_the_same_punctuation():
    assert end_mark("Qui est le dissident\u202f?") == end_mark("Who is the dissident?") == "?"
    assert end_mark("« Fin. »") == end_mark("“The end.”") == "."
    assert end_mark("Attendez...") == "…"
    assert codes("Who is it?", "Qui est-ce ?") == set()
    assert codes("Who is it?", "Qui est-ce.") == {"end-punctuation"}


def test_an_end_punctuation_finding_quotes_the_translations_end():
    """It quoted the source's end, which is shown beside every finding anyway: the English twice,
    the French, where the fault is, not at all."""
    [problem] = check_pair(
        "x",
        "The ships listen for the horn.",
        "Les navires écoutent la corne ?",
        FRENCH,
        "en",
        "English",
    )
    assert (
        problem.message.endswith('"…Les navires écoutent la corne ?"')
        and "horn" not in problem.message
    )


def test_quotes_balance_per_language():
    assert check_text("x", "Il dit « non » puis « oui ».", FRENCH) == []
    assert check_text("x", "Er sagt „nein“ und »ja«.", GERMAN) == []
    assert [p.code for p in check_text("x", "Er sagt „nein.", GERMAN)] == ["unbalanced"]
    assert [p.code for p in check_text("x", "Il dit « non.", FRENCH)] == ["unbalanced"]
    assert unbalanced("a (b [c] d) e", [("(", ")"), ("[", "]")]) == ""
    assert "closes nothing" in unbalanced("a) b", [("(", ")")])


def test_doubled_words_a_language_allows():
    assert codes("We fight.", "Nous nous battons.") == set()
    assert codes("The card.", "La la carte.") == {"repeated-word"}


def test_numbers_compare_digits_not_their_separators():
    assert codes("At 10:30, 1,000 votes.", "À 10 h 30, 1 000 voix.") == set()
    assert codes("Deal 3 cards.", "Distribuez 4 cartes.") == {"number-mismatch"}


def test_a_bracketed_aside_in_a_regional_unit_may_be_left_out_with_its_numbers():
    """The how-to page's "Card stock of 160 to 250 g/m² (about 60 to 90 lb cover)": French readers
    have no "lb cover". With lb among English's checks.regional_units, a translation that leaves out
    the aside passes (must-pass); one that changes a number outside it, or writes lb with other
    numbers, is caught, and without the unit listed the aside's numbers are wanted (must-catch)."""
    english = Language(
        name="English", native_name="English", labels={}, checks={"regional_units": ["lb"]}
    )
    source = "Card stock of 160 to 250 g/m² (about 60 to 90 lb cover) shuffles well."

    def found(translation: str, reference_language: Language | None = english) -> set[str]:
        return {
            p.code
            for p in check_pair(
                "x", source, translation, FRENCH, "en", "English", reference_language
            )
        }

    assert "number-mismatch" not in found("Un papier de 160 à 250 g/m² se mélange bien.")
    assert "number-mismatch" not in found(
        "Un papier de 160 à 250 g/m² (60 à 90 lb cover) se mélange bien."
    )
    assert "number-mismatch" in found("Un papier de 160 à 200 g/m² se mélange bien.")
    assert "number-mismatch" in found(
        "Un papier de 160 à 250 g/m² (60 à 80 lb cover) se mélange bien."
    )
    assert "number-mismatch" in found("Un papier de 160 à 250 g/m² se mélange bien.", None)
    assert "number-mismatch" in found("Un papier de 160 à 250 g/m² (60 à 90) se mélange bien.")


def test_printshop_s_own_french_labels_pass_the_translation_checks():
    """printshop's French labels, checked as a project's copy of them would be, against its English
    (the lb aside of the how-to page's stock step is left out, as English's regional_units allow)."""
    from printshop.project.loader import load_project
    from printshop.project.paths import DEFAULT_DATA_DIR

    languages = load_project(DEFAULT_DATA_DIR, games=[]).languages
    english, french = languages["en"], languages["fr"]
    found = [
        (name, p.code)
        for name, text in french.labels.items()
        if name in english.labels
        for p in check_pair(name, english.labels[name], text, french, "en", "English", english)
        if p.code == "number-mismatch"
    ]
    assert found == []


def test_empty_is_an_error_only_when_the_source_says_something():
    assert codes("", "") == set()
    assert codes("Hide it.", " ") == {"empty-translation"}


def test_length_ratio_uses_the_threshold_for_the_language_pair():
    strict = Language(
        name="French",
        native_name="Français",
        labels={},
        checks={"length": {"en": {"min": 0.9, "max": 1.1}, "*": {"min": 0.1, "max": 10}}},
    )
    long_source = "Every player draws one card from the top of the deck."
    assert "length-ratio" in {
        p.code
        for p in check_pair(
            "x", long_source, "Chacun pioche une carte du paquet.", strict, "en", "English"
        )
    }
    assert "length-ratio" not in {
        p.code
        for p in check_pair(
            "x", long_source, "Chacun pioche une carte du paquet.", strict, "de", "German"
        )
    }


def test_checks_are_remembered_by_the_rules_they_read_not_by_the_language_object():
    """The same texts under the same rules give the same problems, whichever load of the language
    file the rules came from (a test's copy of the data, a session that read the file again); a
    language whose rules differ (a length ratio, a pair of quotes, a doubled word) is checked under
    its own."""
    from printshop.checks import translation_checks

    def french(**checks):
        return Language(
            name="French",
            native_name="Français",
            labels={},
            checks=checks,
            typography={"quotes": [["«", "»"]]},
        )

    source, translation = (
        "Every player draws one card from the top of the deck.",
        "Chacun pioche une carte du paquet.",
    )
    loose, strict = french(), french(length={"en": {"min": 0.9, "max": 1.1}})
    assert "length-ratio" not in {
        p.code for p in check_pair("x", source, translation, loose, "en", "English")
    }
    assert "length-ratio" in {
        p.code for p in check_pair("x", source, translation, strict, "en", "English")
    }
    calls = []
    real = translation_checks._check_pair
    translation_checks._check_pair = lambda *args: calls.append(args) or real(*args)
    try:
        again = check_pair(
            "x",
            source,
            translation,
            french(length={"en": {"min": 0.9, "max": 1.1}}),
            "en",
            "English",
        )
    finally:
        translation_checks._check_pair = real
    assert calls == [] and "length-ratio" in {
        p.code for p in again
    }  # another object, the same rules: remembered
    german_quotes = Language(
        name="French", native_name="Français", labels={}, typography={"quotes": [["„", "“"]]}
    )
    assert (
        check_text("y", "Il dit « non.", loose) != []
        and check_text("y", "Il dit « non.", german_quotes) == []
    )
    doubled = french(doubled_words=["la"])
    assert {
        p.code for p in check_pair("z", "The card.", "La la carte.", loose, "en", "English")
    } == {"repeated-word"}
    assert {
        p.code for p in check_pair("z", "The card.", "La la carte.", doubled, "en", "English")
    } == set()


def test_a_check_again_takes_each_pairs_findings_as_they_were_until_a_rule_it_reads_changes(
    data_copy, monkeypatch
):
    """validate keeps what each source and translation pair finds by the two texts and what the
    checks read of the language: a check of the same data again (a session reading the files again
    after a shared file was saved, a build after a check) or of a copy elsewhere checks no pair
    again, and says the same at the copy's own places; a language's rule changed in its file (a
    doubled word it allows) checks its pairs again."""
    from printshop.checks import translations

    texts = data_copy / "comrade" / "text" / "fr.yaml"
    line = edit(texts, 'name: "Informateur"', 'name: "Informateur nous nous"')
    assert not [
        d for d in check(data_copy, games=["comrade"])[0].items if d.code == "repeated-word"
    ]  # French allows it
    checked = []
    real = translations._check_pair_anew
    monkeypatch.setattr(
        translations, "_check_pair_anew", lambda *args: checked.append(args[0]) or real(*args)
    )
    report = check(data_copy, games=["comrade"])[0]
    assert checked == [] and not [d for d in report.items if d.code == "repeated-word"]
    edit(
        data_copy / "languages" / "fr.yaml", "doubled_words: [nous, vous]", "doubled_words: [vous]"
    )
    [item] = [d for d in check(data_copy, games=["comrade"])[0].items if d.code == "repeated-word"]
    assert "card.informer.name" in checked
    assert item.location.path.endswith("comrade/text/fr.yaml") and item.location.line == line
    assert (
        "nous nous" in item.message and "comrade/text/en.yaml" in item.also
    )  # the source's place beside it
    elsewhere = data_copy.parent / "elsewhere"
    shutil.copytree(data_copy, elsewhere)
    checked.clear()
    [moved] = [d for d in check(elsewhere, games=["comrade"])[0].items if d.code == "repeated-word"]
    assert checked == [] and moved.message == item.message and moved.location.line == line
    assert (
        moved.location.path.startswith(str(elsewhere))
        and str(elsewhere / "comrade" / "text" / "en.yaml") in moved.also
    )
