"""Issue 51 (art director's review): the smallest text on a card face, and one body size a deck.

Measured on the printed sheets: each character's size as the PDF sets it (pypdfium2), the page's
footer (the line that names the file, 6 pt by design) left out."""

from __future__ import annotations

import pytest

from tests.conftest import kit_view


@pytest.fixture(scope="module")
def card_kit(tmp_path_factory):
    return kit_view(tmp_path_factory, ["comrade", "comrade-stalin"], papers=["a4", "letter"])


def text_sizes(path) -> list[tuple[int, float, str]]:
    """(page, size in points, character) of every printed character but the footer's."""
    import pypdfium2

    found = []
    document = pypdfium2.PdfDocument(str(path))
    for number in range(len(document)):
        page = document[number].get_textpage()
        text = page.get_text_range()
        at = text.find(path.name)  # the footer's line: the file's name, its page, its side
        assert at >= 0, f"no footer on page {number + 1}"
        footer = page.get_charbox(at, loose=True)[1]  # (the line's box, not the glyph's)
        for index in range(page.count_chars()):
            character = page.get_text_range(index, 1)
            if not character.strip() or abs(page.get_charbox(index, loose=True)[1] - footer) < 1:
                continue
            size = pypdfium2.raw.FPDFText_GetFontSize(page.raw, index)
            found.append((number + 1, round(size, 2), character))
    document.close()
    return found


def too_small(path, least: float) -> list[str]:
    """The pages of `path` that print text under `least` points, with the sizes found."""
    small: dict[int, set[float]] = {}
    for page, size, _ in text_sizes(path):
        if size < least - 0.01:
            small.setdefault(page, set()).add(size)
    return [f"page {page}: {sorted(sizes)} pt" for page, sizes in sorted(small.items())]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", ["comrade", "comrade-stalin"])
def test_no_card_face_prints_text_under_7_pt(card_kit, game, lang, paper):
    """The review found 6.5 pt lines ("your word of freedom", "never show this card", the vote
    cards' hints, the goal cards' note): every card face now prints at 7 pt or more (must-pass);
    the measure finds the 7 pt lines when asked for 7.5 (must-catch)."""
    path = card_kit / game / lang / f"{game}-{lang}-cards-{paper}.pdf"
    assert too_small(path, 7.0) == []
    assert too_small(path, 7.5)  # (the 7 pt reminders: the measure sees them)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_goal_card_names_its_target_large_and_its_note_at_7_5_pt_or_more(card_kit, lang):
    """The goal cards' target at 14 pt or more and their note at 7.5 pt or more (were 12 and 6.5).
    The goal cards are the pages whose text has a card's verb (KILL/TUER) on it."""
    path = card_kit / "comrade-stalin" / lang / f"comrade-stalin-{lang}-cards-a4.pdf"
    sizes = text_sizes(path)
    verb = "KILL" if lang == "en" else "TUER"
    pages = {
        page
        for page in {p for p, _, _ in sizes}
        if verb in "".join(c for p, _, c in sizes if p == page)
    }
    assert pages
    on_goals = sorted({size for page, size, _ in sizes if page in pages})
    assert min(on_goals) >= 7.5, on_goals
    assert any(14 <= size <= 16 for size in on_goals), on_goals


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_comrade_role_cards_set_their_body_at_one_size(card_kit, lang):
    """The review found the body at 8 pt (Dissident), 7.5 (Comrade, Informer) and 8.5 (Chairman)
    in one deck: the serif body is now one size on every role card (must-pass); the roles' serif
    sizes are read, so a second body size would show as two (must-catch: the vote and rule cards,
    read too, print serif at other sizes)."""
    import pypdfium2

    path = card_kit / "comrade" / lang / f"comrade-{lang}-cards-a4.pdf"
    document = pypdfium2.PdfDocument(str(path))
    serif: dict[int, set[float]] = {}
    for number in range(len(document)):
        page = document[number].get_textpage()
        for index in range(page.count_chars()):
            if not page.get_text_range(index, 1).strip():
                continue
            name = pypdfium2.raw.FPDFText_GetFontInfo(page.raw, index, None, 0, None)
            buffer = pypdfium2.raw.create_string_buffer(name)
            pypdfium2.raw.FPDFText_GetFontInfo(page.raw, index, buffer, name, None)
            font = buffer.value.decode("utf-8", "replace")
            if "Serif" in font and "Italic" not in font:
                size = round(pypdfium2.raw.FPDFText_GetFontSize(page.raw, index), 2)
                serif.setdefault(number + 1, set()).add(size)
    document.close()
    roles = serif[1]  # the first page of fronts: dissidents, the informer, comrades
    assert roles == {8.0}, serif
    everywhere = set().union(*serif.values())
    assert len(everywhere) > 1  # (other cards' serif sizes are seen: the measure tells sizes apart)
