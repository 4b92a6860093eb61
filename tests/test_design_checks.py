"""The design system's measurable rules (docs/design.md): each check catches its fault and passes the
valid case, and the defects issue 16 listed stay gone in the games' data."""
from __future__ import annotations

import re

import pytest

from printshop.build import check
from printshop.diagnostics import Severity
from printshop.paths import DEFAULT_DATA_DIR
from printshop.validate import _content_boxes, _intrusion
from tests.conftest import edit, found, one, real_project
from tests.pdfinspect import pdf_text


# --- type-too-small ---------------------------------------------------------------------------
def test_type_too_small_on_a_card(data_copy):
    faces = data_copy / "comrade" / "faces.yaml"
    line = edit(faces, "font: sans-italic, size: 6.5pt, min_size: 6.5pt,\n                 colour: ink-soft",
                "font: sans-italic, size: 6.5pt, min_size: 5pt,\n                 colour: ink-soft")
    item = one(data_copy, "type-too-small", games=["comrade"])
    assert item.severity is Severity.WARNING and item.location.line == line
    assert "frame 'reminder'" in item.message and "5 pt" in item.message and "at least 6.5 pt" in item.message


def test_type_too_small_on_a_board(data_copy):
    faces = data_copy / "kremlin" / "faces.yaml"
    edit(faces, "people: {x: 14mm, y: 509mm, width: 388mm, height: 9mm, font: sans-bold, size: 18pt, min_size: 18pt,",
         "people: {x: 14mm, y: 509mm, width: 388mm, height: 9mm, font: sans-bold, size: 18pt, min_size: 10pt,")
    item = one(data_copy, "type-too-small", games=["kremlin"])
    assert "frame 'people' of face 'board'" in item.message and "board must be at least 14 pt" in item.message


def test_every_game_keeps_its_media_minimum_sizes():
    report, _ = check(DEFAULT_DATA_DIR)
    assert [d.format() for d in report.items if d.code in ("type-too-small", "shape-outside-safe-zone",
                                                           "deck-size-varies", "outside-safe-zone")] == []


# --- shape-outside-safe-zone -----------------------------------------------------------------
def test_shape_outside_safe_zone(data_copy):
    faces = data_copy / "comrade" / "faces.yaml"
    line = edit(faces, "rule: {kind: line, x: 14mm, y: 55.5mm, width: 35mm,", "rule: {kind: line, x: 2mm, y: 55.5mm, width: 59mm,")
    items = found(data_copy, "shape-outside-safe-zone", games=["comrade"])
    assert any(item.location.line == line for item in items)
    assert all("shape 'rule'" in item.message for item in items)
    assert "shape 'rule'" in items[0].message and "closer to the trim than the deck's safe zone of 4.0 mm" in items[0].message


def test_a_background_below_layer_zero_may_run_into_the_bleed(data_copy):
    # the vote card's near half is a band on layer -1 that reaches the trim: no report
    assert not [d for d in found(data_copy, "shape-outside-safe-zone", games=["comrade"]) if "near-band" in d.message]
    faces = data_copy / "comrade" / "faces.yaml"
    edit(faces, "near-band: {kind: rect, x: 3mm, y: 44mm, width: 57mm, height: 41mm, fill: red, layer: -1}",
         "near-band: {kind: rect, x: 3mm, y: 44mm, width: 57mm, height: 41mm, fill: red, layer: 0}")
    assert [d for d in found(data_copy, "shape-outside-safe-zone", games=["comrade"]) if "near-band" in d.message]


def test_card_frames_and_chits_keep_the_safe_distance():
    """Issue 16: card borders 2.7–2.8 mm from the trim, chits' rings and labels 0.8–1.5 mm."""
    project = real_project()
    for game in project.games.values():
        view = project.view(game)
        for deck in game.game.decks.values():
            size = view.media.card_sizes[deck.card_size]
            names = ({deck.back} | {card.front for card in deck.cards}) - {None}
            for name in names:
                for what, _node, box, _code in _content_boxes(game.faces[name]):
                    assert _intrusion(box, size.width, size.height, deck.safe) <= 0.01, (game.id, name, what)
            if deck.card_size != "chit-16":
                assert deck.safe >= 4 * 72 / 25.4 - 0.01
            else:
                assert deck.safe >= 1.5 * 72 / 25.4 - 0.01


# --- deck-size-varies -------------------------------------------------------------------------
def test_deck_size_varies(data_copy):
    faces = data_copy / "assassin" / "faces.yaml"
    edit(faces, "colour: ink, align: center, valign: middle, leading: 1.25, size_across: deck}",
         "colour: ink, align: center, valign: middle, leading: 1.25}")
    items = found(data_copy, "deck-size-varies", games=["assassin"])
    assert items and all("frame 'objective' of deck 'cards'" in d.message for d in items)


def test_size_across_deck_sets_every_card_at_one_size():
    from printshop.build import check as check_and_lay_out

    report, checked = check_and_lay_out(DEFAULT_DATA_DIR, games=["assassin", "kremlin", "comrade-stalin"])
    for layout in checked.layouts:
        for deck in layout.decks:
            sizes: dict[str, set] = {}
            for face in deck.faces.values():
                for frame in face.frames:
                    if frame.frame.size_across == "deck":
                        sizes.setdefault(frame.name, set()).add(frame.fit.size)
            for name, found_sizes in sizes.items():
                assert len(found_sizes) == 1, (layout.game_id, layout.lang, deck.id, name, found_sizes)


# --- the defects measured -------------------------------------------------------------------------
def _baseline(frame, size: float) -> float:
    """From the top of the face: a one-line frame set at the bottom of its box (valign bottom)."""
    assert frame.valign == "bottom"
    return frame.y + frame.height - (frame.leading - 1) * size


def test_intrigue_number_and_kind_share_a_baseline():
    project = real_project()
    for name in ("intrigue-red", "intrigue-black"):
        face = project.games["kremlin"].faces[name]
        number, kind = face.frames["number"], face.frames["kind"]
        assert number.min_size == number.size and kind.min_size == kind.size  # neither shrinks
        assert abs(_baseline(number, number.size) - _baseline(kind, kind.size)) < 0.1  # points


def test_board_labels_read_from_across_the_table():
    project = real_project()
    board = project.games["kremlin"].faces["board"]
    for name, frame in board.frames.items():
        assert (frame.min_size or frame.size) >= 14, name


def test_french_indices_come_from_the_language():
    report, checked = check(DEFAULT_DATA_DIR, games=["assassin", "comrade-stalin"], langs=["fr"], variant=None)
    texts = []
    for layout in checked.layouts:
        for deck in layout.decks:
            for key, face in deck.faces.items():
                for frame in face.frames:
                    if frame.name in ("index_tl", "table"):
                        texts.append(" ".join(getattr(block, "markup", "") or " ".join(
                            cell for row in getattr(block, "rows", []) for _, cell in row) for block in frame.blocks))
    joined = " | ".join(texts)
    assert re.search(r"\bR\b", joined) and re.search(r"\bD\b", joined) and re.search(r"\bV\b", joined)
    assert not re.search(r"\b[KQJ]\b", joined)
    assert "(V D R)" in joined


@pytest.mark.parametrize("lang,cure,sp", [("fr", "Guérison", "PS"), ("en", "Cure", "SP")])
def test_terms_read_the_same_on_board_reference_and_rules(tmp_path, lang, cure, sp):

    from printshop.cli import main

    assert main(["build", "kremlin", "--lang", lang, "--paper", "a4", "--out", str(tmp_path), "-q"]) == 0
    folder = tmp_path / "kremlin" / lang

    def text(name: str) -> str:
        return pdf_text(folder / name)

    board, reference, rules = (text(f"kremlin-{lang}-{n}.pdf") for n in ("board-press", "reference-a4", "rules-a5"))
    for where in (board, reference, rules):
        assert re.search(rf"1 · {cure}\b|1 {cure}\b|Phase 1 — {cure}|1 · {cure.upper()}", where), where[:200]
    assert f"5 {sp}" in board and f"5 {sp}" in reference
    if lang == "fr":
        assert "1 · Cure" not in board and "1 · Cure" not in reference and " SP" not in board
    markers = text(f"kremlin-{lang}-markers-a4.pdf")
    assert sp in markers
