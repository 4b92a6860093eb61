"""Issue 52, item 7: the proof's text pages after its faces: the rules booklet paragraph beside
paragraph, the labels printshop prints, and the game's glossary, each translation beside its
reference; the pages are numbered with them."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from printshop.pipeline.build import check
from printshop.project.paths import DEFAULT_DATA_DIR
from printshop.render.proof import make_proofs, proof_name
from printshop.render.proof_texts import booklet_lines
from tests.conftest import real_project, shared
from tests.pdfinspect import page_texts


@pytest.fixture(scope="module")
def kremlin_proof(tmp_path_factory):
    out, result = shared(
        tmp_path_factory,
        "proof-texts-kremlin",
        lambda out: make_proofs(DEFAULT_DATA_DIR, out, games=["kremlin"]),
    )
    assert not result.report.has_errors
    return out / proof_name("kremlin", "en", "fr")


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _page_with(texts: list[str], needle: str) -> int:
    found = [number for number, text in enumerate(texts) if needle in flat(text)]
    assert found, f"{needle!r} is on no page"
    return found[0]


def test_the_booklet_is_in_the_proof_paragraph_beside_paragraph(kremlin_proof):
    texts = page_texts(kremlin_proof)
    english = real_project(["kremlin"]).games["kremlin"].catalogues["en"].entries
    french = real_project(["kremlin"]).games["kremlin"].catalogues["fr"].entries
    heading = "The rules booklet, paragraph by paragraph"
    first = _page_with(texts, heading)
    for text_id in ("rules.sections.phase6.heading", "rules.sections.goal.heading"):
        page = _page_with(texts, flat(english[text_id].text))
        assert page >= first
        assert flat(french[text_id].text) in flat(texts[page])  # beside it, on the same page


def test_the_booklets_lines_pair_up_in_both_languages():
    report, checked = check(DEFAULT_DATA_DIR, games=["kremlin"], variant=None)
    assert not report.has_errors
    layouts = {layout.lang: layout for layout in checked.layouts}
    english = booklet_lines(layouts["en"].booklet.blocks)
    french = booklet_lines(layouts["fr"].booklet.blocks)
    assert len(english) == len(french) > 50
    assert [heading for heading, _ in english] == [heading for heading, _ in french]
    assert not any("<img" in line or "<font" in line for _, line in english)


def test_the_labels_and_the_glossary_are_in_the_proof(kremlin_proof):
    texts = page_texts(kremlin_proof)
    labels = _page_with(texts, "Labels: the words printshop prints on every kit")
    page = _page_with(texts, "Comment imprimer et découper")
    assert page >= labels and "How to print and cut" in flat(texts[page])
    glossary = _page_with(texts, "Glossary: the game’s terms")
    # the glossary comes last: it starts on the last page or at the foot of the one before it
    assert glossary >= len(texts) - 2
    assert not any("Labels: the words" in text for text in texts[glossary + 1 :])
    last = flat(" ".join(texts[glossary:]))
    for english, french in [
        ("Replacement", "Remplacement"),
        ("October Parade", "Parade d’Octobre"),
    ]:
        assert english in last and french in last
    assert "stress points (stress cost)" in last


def test_every_page_is_numbered_out_of_the_whole(kremlin_proof):
    pages = len(PdfReader(kremlin_proof).pages)
    texts = page_texts(kremlin_proof)
    assert f"page 1 of {pages}" in flat(texts[0])
    assert f"page {pages} of {pages}" in flat(texts[-1])


def test_a_game_without_a_glossary_has_no_glossary_section(data_copy, tmp_path):
    (data_copy / "comrade" / "glossary.yaml").unlink()
    result = make_proofs(data_copy, tmp_path, games=["comrade"])
    assert not result.report.has_errors
    texts = page_texts(tmp_path / proof_name("comrade", "fr", "en"))
    assert any("Le livret de règles, paragraphe par paragraphe" in flat(t) for t in texts)
    # the label itself is listed with the labels; no section bears it as its heading
    assert sum(flat(t).count("Glossaire : les termes du jeu") for t in texts) == 1
