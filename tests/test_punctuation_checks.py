"""Issue 52, items 5, 6 and 9: punctuation per language (opening marks, straight quotes,
abbreviations), structure (a dropped sentence, swapped texts, a length ratio that widens for short
texts), and no false alarm on correct text.

The corpus is written from the rules (printshop/checks/punctuation.py and swaps.py say them), in
Italian (abbreviations, apostrophes, quotes, sentences, lengths, swaps) and Galician (whose norm
allows ¿ and ¡, which its language file here requires), each mistake beside correct texts that the
same rule must let pass; Spanish, whose ¿ ¡ the issue names, gets a few cases. Through `validate`,
the German fixture of Comrade shows each finding at the translation's file:line:col."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from printshop.checks import swaps
from printshop.checks.translation_checks import check_pair, check_text
from printshop.pipeline.build import check
from printshop.project.models.language import Language
from printshop.project.paths import PACKAGE_DEFAULTS_DIR
from tests.conftest import edit

HERE = Path(__file__).parent / "fixtures"


def language(path: Path) -> Language:
    return Language(**yaml.safe_load(path.read_text(encoding="utf-8")))


ENGLISH = language(PACKAGE_DEFAULTS_DIR / "languages" / "en.yaml")
LANGUAGES = {lang: language(HERE / "punctuation" / f"{lang}.yaml") for lang in ("it", "gl", "es")}


def codes(lang: str, reference: str, translation: str) -> set[str]:
    """Every code the checks of one text give: against its English, and on its own."""
    target = LANGUAGES[lang]
    found = check_pair("x", reference, translation, target, "en", "English", ENGLISH)
    return {p.code for p in found} | {p.code for p in check_text("x", translation, target)}


# (language, English, a correct translation): no check may say anything
CORRECT = [
    ("it", "Deal 3 cards to each player.", "Distribuite 3 carte a ogni giocatore."),
    ("it", "Who is the informer? Vote now!", "Chi è l’informatore? Votate ora!"),
    ("it", "He says “no” and leaves.", "Dice «no» e se ne va."),
    ("it", "Players, counters and so on", "Giocatori, segnalini ecc."),  # ends with "ecc."
    ("it", "Use tokens, dice, etc.", "Usate gettoni, dadi, ecc."),
    (
        "it",
        "Mr. Stalin votes first. Then the others vote.",  # "Mr." ends no English sentence
        "Il sig. Stalin vota per primo. Poi votano gli altri.",
    ),
    (
        "it",
        "J. V. Stalin signs the decree. Nobody objects.",  # initials end no sentence
        "Stalin firma il decreto. Nessuno obietta.",
    ),
    (
        "it",
        "Find your row. Take the cards it shows and deal them.",
        "Trovate la vostra riga: prendete le carte indicate e distribuitele.",  # joined by ':'
    ),
    ("it", "An enormous and very loud explosion", "Un gran botto"),  # 0.37 of the English
    ("it", "It is not.", "Non lo è."),  # a one-letter word at the end
    (
        "it",
        "Roll the d20; on 15 or more the purge succeeds.",
        "Tirate il d20: con 15 o più l’epurazione riesce.",
    ),
    (
        "it",
        "See p. 4 for the board. The Politburo sits in the middle.",
        "Vedete il tabellone a pag. 4. Il Politburo siede al centro.",
    ),
    ("it", "A great big boom", "Un gran bum"),  # shorter than length_from
    ("gl", "Who is the informer?", "¿Quen é o informador?"),
    ("gl", "If you win, who loses?", "Se gañas, ¿quen perde?"),
    ("gl", "What are you saying?!", "¡¿Que dis?!"),
    ("gl", "Do you vote? Vote now!", "¿Votas? ¡Vota xa!"),
    ("gl", "Say “who?” and be silent.", "Di «¿quen?» e cala."),
    ("gl", "Vote: Freedom!", "Vota: ¡Liberdade!"),
    ("es", "Who votes?", "¿Quién vota?"),
    ("es", "USA", "EE. UU."),
    ("es", "It is made in the USA.", "Se hace en EE. UU."),
    ("es", "A great big boom!", "¡Un gran bum!"),
]


@pytest.mark.parametrize("lang, reference, translation", CORRECT)
def test_a_correct_translation_raises_no_alarm(lang, reference, translation):
    assert codes(lang, reference, translation) == set()


# (language, English, a translation with one mistake, the code that must report it)
MISTAKES = [
    ("it", "The informer wins.", "L'informatore vince.", "straight-quote"),
    ("it", "Vote “Freedom”.", 'Votate "Libertà".', "straight-quote"),
    ("it", "Vote “Freedom”.", "Votate “Libertà'.", "straight-quote"),
    (
        "it",
        "Shuffle the cards. Deal one to each player. Keep the rest hidden.",
        "Mescolate le carte. Datene una a ogni giocatore.",
        "sentence-count",
    ),
    (
        "it",
        "If the informer sees this card, he wins. Otherwise the round goes on.",
        "Se l’informatore vede questa carta, vince.",
        "sentence-count",
    ),
    (
        "it",
        "The chairman opens the vote. Everyone votes. Then the votes are shown.",
        "Il sig. Presidente apre il voto. Tutti votano.",  # "sig." would have hidden the loss
        "sentence-count",
    ),
    (
        "it",
        "Before the vote, every player looks at the card on their left and passes it on.",
        "Prima del voto.",
        "length-ratio",
    ),
    (
        "it",
        "Pass this card to the left.",
        "Passate questa carta a sinistra. Passate questa carta a sinistra. Passate questa carta "
        "a sinistra. Passate questa carta a sinistra.",
        "length-ratio",
    ),
    ("it", "Players, counters and so on.", "Giocatori, segnalini ecc", "end-punctuation"),
    ("gl", "Who is the informer?", "Quen é o informador?", "opening-mark"),
    ("gl", "If you win, who loses?", "Se gañas, quen perde?", "opening-mark"),
    ("gl", "Vote now! Then wait.", "¡Vota xa. Despois agarda.", "opening-mark"),
    ("gl", "Who wins?", "¿Quen gaña!", "opening-mark"),
    ("gl", "Vote now!", "Vota xa!", "opening-mark"),
    ("es", "Who votes?", "Quién vota?", "opening-mark"),
    ("es", "A great big boom!", "Un gran bum!", "opening-mark"),
]


@pytest.mark.parametrize("lang, reference, translation, code", MISTAKES)
def test_each_mistake_is_caught(lang, reference, translation, code):
    assert code in codes(lang, reference, translation)


def test_a_straight_apostrophe_a_replace_rule_turns_is_no_mistake():
    """Galician replaces ' with ’ at print (its file says so): a straight one is right there."""
    assert codes("gl", "The informer’s card.", "A carta do informador d'ouro.") == set()
    assert "straight-quote" in codes("gl", "He says “no”.", 'Di "non".')


def test_a_translator_reads_what_is_wrong_and_where():
    [problem] = check_text("card.x", "¿Votas? Quen gaña?", LANGUAGES["gl"])
    assert problem.message == "'card.x': '?' ends a sentence that no '¿' opens: \"Quen gaña?\""
    [problem] = check_text("card.x", 'Votate "Libertà".', LANGUAGES["it"])
    assert "straight double quote" in problem.message and "«…»" in problem.message
    [problem] = check_pair(
        "card.x",
        "Shuffle. Deal one each. Keep the rest.",
        "Mescolate. Datene una a testa.",
        LANGUAGES["it"],
        "en",
        "English",
        ENGLISH,
    )
    assert problem.code == "sentence-count" and "2 sentences where the English has 3" in (
        problem.message
    )


# --- swapped texts ------------------------------------------------------------------------------
CATALOGUE = [
    ("card.informer.name", "Informer", "Informatore"),
    ("card.dissident.name", "Dissident", "Dissidente"),
    ("card.chairman.name", "Chairman", "Presidente"),
    ("card.comrade.name", "Comrade", "Compagno"),
    ("card.politburo.name", "Politburo", "Politburo"),
    ("rules.setup", "Deal {count} cards to each player.", "Distribuite {count} carte a testa."),
    ("rules.vote", "Each player has <b>1</b> vote.", "Ogni giocatore ha <b>1</b> voto."),
    ("rules.purge", "Roll the d20: 15 or more purges.", "Tirate il d20: con 15 o più si epura."),
    ("rules.end", "The game ends after 10 years.", "La partita finisce dopo 10 anni."),
    ("rules.stress", "Take 3 stress points.", "Prendete 3 punti di stress."),
]


def _swap(first: str, second: str) -> list[tuple[str, str, str]]:
    texts = {text_id: translation for text_id, _, translation in CATALOGUE}
    texts[first], texts[second] = texts[second], texts[first]
    return [(text_id, source, texts[text_id]) for text_id, source, _ in CATALOGUE]


def test_a_correct_catalogue_has_no_swapped_texts():
    assert swaps.swapped(CATALOGUE) == []


@pytest.mark.parametrize(
    "first, second, by",
    [
        ("rules.purge", "rules.end", "signature"),
        ("rules.setup", "rules.vote", "signature"),
        ("rules.end", "rules.stress", "signature"),
        ("card.informer.name", "card.dissident.name", "letters"),
        ("card.comrade.name", "card.politburo.name", "letters"),
    ],
)
def test_two_swapped_texts_are_caught(first, second, by):
    assert swaps.swapped(_swap(first, second)) == [swaps.Swap(first, second, by)]


# --- through validate, at the translation's line ------------------------------------------------
@pytest.fixture
def german(data_copy) -> Path:
    fixtures = HERE / "german"
    shutil.copy(fixtures / "languages" / "de.yaml", data_copy / "languages" / "de.yaml")
    shutil.copy(fixtures / "comrade" / "text" / "de.yaml", data_copy / "comrade" / "text")
    return data_copy


def _found(data: Path, code: str) -> list:
    report, _ = check(data, games=["comrade"])
    return [d for d in report.items if d.code == code and not d.acknowledged]


GERMAN_DUTY = (
    "Eröffne die Runde: Rufe je Stimmkarte einen Wähler zur geheimen Wahl, nie dich selbst. "
    "Mische und zeige die Stimmen. Am Rundenende gib diese Karte nach links."
)


def test_a_dropped_sentence_is_reported_at_the_translations_line(german):
    path = german / "comrade" / "text" / "de.yaml"
    assert GERMAN_DUTY in path.read_text(encoding="utf-8")
    line = edit(path, " Am Rundenende gib diese Karte nach links.", "")
    [item] = _found(german, "sentence-count")
    assert item.location.path.endswith("comrade/text/de.yaml") and item.location.line == line
    assert item.location.col > 1 and "'card.chairman.duty' has 2 sentences" in item.message
    assert item.hint


def test_german_abbreviations_and_ordinals_end_no_sentence(german):
    path = german / "comrade" / "text" / "de.yaml"
    edit(
        path,
        "Mische und zeige die Stimmen.",
        "Mische z. B. am 3. Tag und zeige die Stimmen.",
    )
    assert _found(german, "sentence-count") == []
    edit(path, "am 3. Tag", "am 3. Tag. Tag")  # the number now also ends a sentence: more is fine
    assert _found(german, "sentence-count") == []


def test_a_straight_quote_is_reported_at_the_translations_line(german):
    path = german / "comrade" / "text" / "de.yaml"
    line = edit(path, "zeige die Stimmen", 'zeige die \\"Stimmen\\"')
    [item] = [d for d in _found(german, "straight-quote") if "de.yaml" in d.location.path]
    assert item.location.line == line and "„…“ or »…«" in item.message


def test_swapped_texts_are_reported_at_both_lines(german):
    path = german / "comrade" / "text" / "de.yaml"
    text = path.read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if line.strip().startswith("s5:"))
    second = next(line for line in text.splitlines() if line.strip().startswith("s6:"))
    key_1, value_1 = first.split(": ", 1)
    key_2, value_2 = second.split(": ", 1)
    path.write_text(
        text.replace(first, f"{key_1}: {value_2}\x00")
        .replace(second, f"{key_2}: {value_1}")
        .replace("\x00", ""),
        encoding="utf-8",
    )
    found = _found(german, "swapped-texts")
    lines = text.splitlines()
    assert sorted(d.location.line for d in found) == [
        lines.index(first) + 1,
        lines.index(second) + 1,
    ]
    assert all("were the two texts swapped?" in d.message for d in found)


def test_an_opening_mark_is_reported_at_the_translations_line(german):
    """A language that declares opening marks: German's file given Spanish's rule, as a test."""
    languages = german / "languages" / "de.yaml"
    edit(
        languages,
        "  ordinal_full_stop: true",
        '  ordinal_full_stop: true\n  opening_marks: {"?": "¿"}',
    )
    path = german / "comrade" / "text" / "de.yaml"
    line = edit(path, "Mische und zeige die Stimmen.", "Wer mischt die Stimmen?")
    [item] = [d for d in _found(german, "opening-mark") if d.location.line == line]
    assert "'?' ends a sentence that no '¿' opens" in item.message and item.hint


# --- item 9: the alarms on correct text, as docs/checks.md gives them ---------------------------
def test_the_alarms_on_correct_text_are_those_docs_checks_md_gives(german):
    """Every translation check over the project's correct translations (Kremlin's English, the
    French of the three others), the German fixture with its labels, and this file's correct texts:
    as many alarms as checks_page.ALARMS_ON_CORRECT_TEXT says (the table of docs/checks.md), each
    one accepted on its line."""
    from printshop.checks_page import ALARMS_ON_CORRECT_TEXT
    from printshop.language.i18n import sync
    from printshop.project.loader import load_project

    sync(load_project(german, games=["comrade"]).games["comrade"], "de")
    report, _ = check(german)
    counted = {code: [0, 0] for code in ALARMS_ON_CORRECT_TEXT}
    for item in report.items:
        if item.code in counted:
            counted[item.code][0] += 1
            counted[item.code][1] += bool(item.acknowledged)
    for lang, reference, translation in CORRECT:
        for code in codes(lang, reference, translation):
            counted[code][0] += 1
    assert {code: tuple(count) for code, count in counted.items()} == {
        code: (alarms, accepted) for code, (alarms, accepted, _) in ALARMS_ON_CORRECT_TEXT.items()
    }
    assert not report.fails(strict=True)


def test_a_straight_apostrophe_is_printed_typographic_where_the_language_replaces_it(
    data_copy, tmp_path
):
    """French replaces ' with ’ (its typography.replace): validate says nothing of a straight one,
    and the printed card has the typographic apostrophe."""
    from printshop.pipeline.build import build
    from tests.pdfinspect import pdf_text

    path = data_copy / "comrade" / "text" / "fr.yaml"
    edit(path, "Ne montrez jamais cette carte.", "Ne l'ouvrez pas : c'est secret.")
    assert _found(data_copy, "straight-quote") == []
    result = build(data_copy, tmp_path / "out", games=["comrade"], langs=["fr"], papers=["a4"])
    assert not result.report.has_errors
    text = pdf_text(tmp_path / "out" / "comrade" / "fr" / "comrade-fr-cards-a4.pdf")
    assert "l’ouvrez" in text and "c’est" in text and "l'ouvrez" not in text
