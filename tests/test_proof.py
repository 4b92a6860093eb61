"""`printshop proof`: every face of a translation beside its reference, with the text ids, for every
game and language in data/; byte-identical on rebuild; nothing written when something is wrong."""

from __future__ import annotations

import math
import re

import pytest
from pypdf import PdfReader

from printshop.cli import main
from printshop.pipeline.build import check
from printshop.project.paths import DEFAULT_DATA_DIR, discover_games
from printshop.project.units import mm
from printshop.render.proof import make_proofs, proof_name
from tests.conftest import edit, real_project, shared
from tests.pdfinspect import page_texts, pdf_text

GAMES = discover_games(DEFAULT_DATA_DIR)


@pytest.fixture(scope="module")
def proofs(tmp_path_factory):
    """Every proof of the real data (each translation against its reference), made once."""
    out, result = shared(tmp_path_factory, "proofs", lambda out: make_proofs(DEFAULT_DATA_DIR, out))
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    return out, result


@pytest.fixture(scope="module")
def layouts():
    report, checked = check(DEFAULT_DATA_DIR, variant=None)
    assert not report.has_errors
    return {(layout.game_id, layout.lang): layout for layout in checked.layouts}


def faces_of(layout) -> dict:
    faces = {key: face for deck in layout.decks for key, face in deck.faces.items()}
    faces.update({face.key: face for sheet in layout.sheets for face in sheet.faces})
    return faces


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


@pytest.mark.parametrize("game_id", GAMES)
def test_every_translation_of_every_game_has_its_proof(proofs, game_id):
    out, result = proofs
    game = real_project([game_id]).games[game_id]
    translations = [lang for lang in game.languages if lang != game.game.source_language]
    assert translations, f"{game_id} has no translation to proof"
    for lang in translations:
        path = out / proof_name(game_id, lang, game.reference_lang(lang))
        assert path in result.pages and path.is_file()
        assert len(PdfReader(path).pages) == result.pages[path]


@pytest.mark.parametrize("game_id", GAMES)
def test_each_distinct_face_has_a_row_with_both_languages_and_the_text_ids(
    proofs, layouts, game_id
):
    out, result = proofs
    game = real_project([game_id]).games[game_id]
    for lang in (lang for lang in game.languages if lang != game.game.source_language):
        reference = game.reference_lang(lang)
        translation = layouts[game_id, lang]
        faces = faces_of(translation)
        reader = PdfReader(out / proof_name(game_id, lang, reference))
        pages = page_texts(out / proof_name(game_id, lang, reference))
        # a page holds at most as many rows as the smallest face (plus its label) fits in its height
        height = min(float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height))
        smallest = min(min(face.height, height) for face in faces.values())
        assert len(pages) >= math.ceil(len(faces) / math.floor(height / (smallest + mm(4))))
        everything = "\n".join(pages)
        for key in faces:  # each face once, on both sides
            assert (
                everything.count(f"{lang} · {key}\n") + everything.count(f"{lang} · {key} ·") == 1
            ), key
            assert (
                everything.count(f"{reference} · {key}\n")
                + everything.count(f"{reference} · {key} ·")
                == 1
            )
        for face in faces.values():
            for frame in face.frames:
                for text_id in frame.text_ids:
                    assert text_id in everything
        for number, page in enumerate(pages, start=1):
            assert (
                f"{proof_name(game_id, lang, reference).name} · page {number} " in page
            )  # "of" in the proof's language


def test_a_french_and_an_english_card_stand_on_the_same_page(proofs, layouts):
    out, _ = proofs
    french, english = layouts["comrade", "fr"], layouts["comrade", "en"]
    first = next(iter(faces_of(french).values()))  # the first row: on the first page, both sides
    differing = [
        text_id
        for frame in first.frames
        for text_id in frame.text_ids
        if french.localized.plain(text_id) != english.localized.plain(text_id)
    ]
    shortest = min(differing, key=lambda text_id: len(french.localized.plain(text_id)))
    page = flat(page_texts(out / "comrade" / "fr" / "comrade-fr-proof-against-en.pdf")[0])
    assert flat(french.localized.plain(shortest)) in page
    assert flat(english.localized.plain(shortest)) in page
    assert shortest in page


def test_sheets_and_boards_are_in_the_proof_scaled_when_larger_than_the_page(proofs, layouts):
    out, _ = proofs
    kremlin = layouts["kremlin", "en"]
    text = pdf_text(out / "kremlin" / "en" / "kremlin-en-proof-against-fr.pdf", "\n")
    for sheet in kremlin.sheets:
        for face in sheet.faces:
            assert f"en · {face.key}" in text and f"fr · {face.key}" in text
    assert re.search(r"en · sheet/board/ · shown at \d+% of its size", text)
    assert re.search(r"en · politicians/\w+/front\n", text)  # cards fit at true size: no scale


def test_a_rebuild_is_byte_identical_and_leaves_the_files_alone(proofs, tmp_path):
    out, first = proofs
    again = make_proofs(DEFAULT_DATA_DIR, out, games=["comrade"])
    assert again.written == [] and again.unchanged == [out / proof_name("comrade", "fr", "en")]
    elsewhere = make_proofs(DEFAULT_DATA_DIR, tmp_path, games=["comrade"])
    assert (tmp_path / proof_name("comrade", "fr", "en")).read_bytes() == (
        out / proof_name("comrade", "fr", "en")
    ).read_bytes()
    assert elsewhere.written == [tmp_path / proof_name("comrade", "fr", "en")]


def test_the_source_language_is_proofed_against_its_first_other_language_or_the_one_named(tmp_path):
    result = make_proofs(
        DEFAULT_DATA_DIR, tmp_path, games=["kremlin"], langs=["fr"]
    )  # French is Kremlin's source
    assert list(result.pages) == [tmp_path / "kremlin" / "fr" / "kremlin-fr-proof-against-en.pdf"]
    result = make_proofs(DEFAULT_DATA_DIR, tmp_path, games=["comrade"], langs=["en"], against="fr")
    assert list(result.pages) == [tmp_path / "comrade" / "en" / "comrade-en-proof-against-fr.pdf"]


@pytest.mark.parametrize(
    "langs, against, message",
    [
        (["xx"], None, "no game here has texts in 'xx'"),
        (["fr"], "fr", "against itself"),
        (["fr"], "xx", "no texts in 'xx'"),
    ],
)
def test_a_proof_that_cannot_be_made_is_reported_and_nothing_is_written(
    tmp_path, langs, against, message
):
    result = make_proofs(
        DEFAULT_DATA_DIR, tmp_path, games=["comrade"], langs=langs, against=against
    )
    assert any(message in d.message for d in result.report.errors), [
        d.format() for d in result.report.errors
    ]
    assert result.pages == {} and not any(tmp_path.iterdir())


def test_bad_data_stops_every_proof(data_copy, tmp_path):
    edit(data_copy / "comrade" / "text" / "fr.yaml", "card:", "card: [", 1)
    result = make_proofs(data_copy, tmp_path / "out", games=["comrade", "assassin"])
    assert result.report.has_errors and not (tmp_path / "out").exists()


def test_the_command_writes_the_proof_and_reports_problems_without_a_traceback(tmp_path, capsys):
    assert main(["proof", "comrade", "--lang", "fr", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "comrade" / "fr" / "comrade-fr-proof-against-en.pdf").is_file()
    # 5 pages of faces, then 5 of the booklet and the labels beside their English (proof_texts.py)
    assert "comrade-fr-proof-against-en.pdf (15 pages)" in capsys.readouterr().err
    assert main(["proof", "comrade", "--lang", "de", "--out", str(tmp_path / "none")]) == 1
    err = capsys.readouterr().err
    assert (
        "error[unknown-reference]" in err
        and "nothing was written" in err
        and "Traceback" not in err
    )
    assert not (tmp_path / "none").exists()


def test_the_proof_speaks_the_translation_s_language(tmp_path):
    """Its own words (title, column headings, footer) are labels of the translation's language."""
    result = make_proofs(DEFAULT_DATA_DIR, tmp_path, games=["comrade"], langs=["fr"])
    assert not result.report.has_errors
    [path] = (tmp_path / "comrade" / "fr").glob("*-proof-*.pdf")
    reader = PdfReader(path)
    texts = page_texts(path)
    first = texts[0]
    assert "en regard de" in first and "traduction" in first and "référence" in first
    assert f"page {len(reader.pages)} sur {len(reader.pages)}" in texts[-1]


def test_the_headings_are_set_in_the_reviewers_typography(proofs):
    """The column headings were written 'traduction: Français' whatever the language: French sets a
    narrow no-break space before the colon, as its labels and texts are set."""
    out, _ = proofs
    game = real_project(["comrade"]).games["comrade"]
    first = page_texts(out / proof_name("comrade", "fr", game.reference_lang("fr")))[0]
    assert "traduction\u202f: Français (fr)" in first and "traduction:" not in first, first[:200]


def test_a_proof_of_an_unfinished_translation_says_how_much_is_translated(tmp_path):
    """A translation started with `i18n sync` is all copies of its source, and its proof showed the
    same English on both sides with nothing to say so; the translation's heading says it is a draft,
    and how far it is done, in the draft label of its language. A finished translation's heading
    says nothing of the kind."""
    import shutil

    from printshop.language.i18n import sync
    from printshop.project.loader import load_project
    from tests.conftest import REPO, copy_data

    data = copy_data(tmp_path / "data", ["comrade"])
    shutil.copy(
        REPO / "tests" / "fixtures" / "german" / "languages" / "de.yaml",
        data / "languages" / "de.yaml",
    )
    assert sync(load_project(data, games=["comrade"]).games["comrade"], "de").added
    result = make_proofs(data, tmp_path / "out", games=["comrade"])
    assert not result.report.has_errors, [d.format() for d in result.report.errors]
    german = page_texts(tmp_path / "out" / proof_name("comrade", "de", "en"))[0]
    french = page_texts(tmp_path / "out" / proof_name("comrade", "fr", "en"))[0]
    assert "ENTWURF, zu 0 % übersetzt" in german, german[:300]
    assert "ÉBAUCHE" not in french and "ENTWURF" not in french
