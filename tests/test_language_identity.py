"""Issue 52, item 2: a text, or a sentence of it, written in another language of the project than
its file's is a `wrong-language` warning at the text.

The corpus of mistakes is German (the tests' fixture, not a language the project ships): each is a
correct German text of Comrade with one mistake a translator makes, an English sentence left in,
a whole text pasted from the French or the English, a short English sentence in a German list. The
project's own correct texts, French, English and the German fixture, must raise no alarm."""

from __future__ import annotations

import shutil

import pytest

from printshop.checks import language_identity
from printshop.pipeline.build import check
from tests.conftest import DEFAULT_DATA_DIR, FIXTURES, edit, line_of

GERMAN = FIXTURES / "german"

# (text id, the correct German as the fixture has it, the German with its mistake)
MISTAKES = [
    (
        "card.dissident.goal",
        "Sieht oder erhält der Spitzel diese Karte, gewinnt er.",
        "If the informer sees or receives this card, the informer wins.",
    ),
    (
        "card.informer.goal",
        "Finde den Dissidenten: Siehst oder erhältst du im Verhör die Dissidentenkarte, gewinnst "
        "du sofort. Jedes Komitee, in dem du sitzt, scheitert.",
        "Trouvez le dissident : si vous voyez ou recevez la carte du dissident pendant "
        "l’interrogatoire, vous gagnez aussitôt. Tout comité où vous siégez échoue.",
    ),
    (
        "card.comrade.goal",
        "Erfahre das Freiheitswort des Dissidenten, lass den Spitzel im Dunkeln.",
        "Learn the dissident’s word of freedom and keep the informer guessing.",
    ),
    (
        "card.chairman.duty",
        "Mische und zeige die Stimmen.",
        "Shuffle and reveal their votes.",
    ),
    (
        "rules.setup.steps.s3",
        "Mischt diese Karten und teilt jedem Spieler eine verdeckt aus; jeder sieht sich seine "
        "Karte heimlich an.",
        "Shuffle these cards and deal one face down to each player; each looks at their card in "
        "secret.",
    ),
    (
        "rules.turn.overview",
        "Fällt die Wahl gegen die Freiheit aus, entfällt das Komitee.",
        "Si le vote est contre la liberté, il n’y a pas de comité.",
    ),
    (
        "rules.goal.others",
        "Alle anderen gewinnen gemeinsam, wenn das Regime fällt.",
        "Everyone else wins together when the regime falls.",
    ),
    (
        "rules.setup.steps.s4",
        "Bestimmt den ersten Vorsitzenden per Los; diese Person nimmt die Vorsitzkarte.",
        "Choisissez au hasard le premier président, qui prend la carte de président.",
    ),
]


@pytest.fixture
def german(data_copy):
    shutil.copy(GERMAN / "languages" / "de.yaml", data_copy / "languages" / "de.yaml")
    target = data_copy / "comrade" / "text" / "de.yaml"
    shutil.copy(GERMAN / "comrade" / "text" / "de.yaml", target)
    return data_copy, target


def _wrong_language(report):
    return [d for d in report.items if d.code == "wrong-language"]


def test_the_projects_correct_texts_raise_no_alarm(german):
    """French, English (every game) and the German fixture: no sentence is judged foreign."""
    data, _ = german
    report, _ = check(data)
    assert _wrong_language(report) == []


@pytest.mark.parametrize("text_id, correct, wrong", MISTAKES, ids=[m[0] for m in MISTAKES])
def test_a_sentence_or_text_in_another_language_is_caught_at_the_text(
    german, text_id, correct, wrong
):
    data, path = german
    line = edit(path, correct, wrong)
    report, _ = check(data, games=["comrade"])
    found = _wrong_language(report)
    assert len(found) == 1, [str(d) for d in report.items]
    assert found[0].location.path.endswith("comrade/text/de.yaml")
    assert found[0].location.line == line and found[0].location.col > 0
    assert f"'{text_id}'" in found[0].message and "not German" in found[0].message
    assert found[0].hint


def test_a_whole_text_is_named_as_the_language_it_reads_as(german):
    data, path = german
    edit(path, MISTAKES[1][1], MISTAKES[1][2])
    report, _ = check(data, games=["comrade"])
    (found,) = _wrong_language(report)
    assert "reads as French, not German" in found.message
    assert "a sentence" not in found.message


def test_names_numbers_and_short_labels_are_not_judged():
    settings = language_identity.Settings(4, 24, (("*", 0.9),))
    names = (("de", "German"), ("en", "English"), ("fr", "French"))
    for text in [
        "Nova Suecia Games",
        "{count} Stimmkarten, 3, 4 oder 5",
        "Glasnost",
        "Game over!",
        "<b>Party</b>",
    ]:
        assert language_identity.identity_findings("x", text, "de", names, settings, ()) == ()
    # an untranslatable word is taken out before the sentence is judged
    sentence = "Nestor Aparatschik Lech Schukrutoff Ludmilla Patina"
    assert (
        language_identity.judged_sentences(
            sentence, ("Nestor Aparatschik", "Lech Schukrutoff", "Ludmilla Patina"), settings
        )
        == []
    )


def test_regional_variants_are_one_language_and_others_are_still_found():
    settings = language_identity.Settings(4, 24, (("*", 0.9),))
    names = (("en", "English"), ("pt_BR", "Portuguese (Brazil)"), ("pt_PT", "Portuguese"))
    portuguese = "O jogador compra uma carta e passa a vez ao vizinho da esquerda."
    english = "The player draws a card and passes the turn to the left."
    assert language_identity.identity_findings("x", portuguese, "pt_PT", names, settings, ()) == ()
    (found,) = language_identity.identity_findings("x", english, "pt_BR", names, settings, ())
    assert "reads as English, not Portuguese (Brazil)" in found.message


def test_the_language_file_sets_how_sure_the_check_must_be(german):
    """A confidence above any the detector gives (1.0 for English found) silences the check for
    that language alone; a bad value is a diagnostic at the language file."""
    data, path = german
    edit(path, MISTAKES[0][1], MISTAKES[0][2])
    language = data / "languages" / "de.yaml"
    edit(language, "typography:", "checks:\n  identity:\n    confidence: {en: 1.0}\ntypography:")
    report, _ = check(data, games=["comrade"])
    assert _wrong_language(report) == []
    edit(language, "{en: 1.0}", "{en: 2}")
    report, _ = check(data, games=["comrade"])
    assert report.errors and report.errors[0].location.path.endswith("languages/de.yaml")
    assert report.errors[0].location.line == line_of(language, "{en: 2}")


def test_the_project_data_is_unchanged_by_the_fixture():
    """The corpus edits a copy: the shipped data has no German."""
    assert not (DEFAULT_DATA_DIR / "comrade" / "text" / "de.yaml").exists()
