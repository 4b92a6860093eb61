"""A card or sheet frame holds what the richtext vocabulary offers it, or says it cannot: a
`<spacer>` adds its space between a frame's blocks (it was dropped without a word), and `<art>` or
`<pagebreak>`, which only booklets hold, are an error at the template's line (they were dropped
too, so a motif a designer wrote never printed and nothing said why)."""

from __future__ import annotations

import pytest

from printshop.pipeline.build import check
from printshop.project.units import parse_length

BODY = "{% block body %}{{ t.card[card.kind].effect }}{% endblock %}"


def _body_height(scaffolded, body: str):
    card = scaffolded / "templates" / "tiny" / "faces" / "card.j2"
    original = card.with_suffix(".original")
    if not original.exists():
        original.write_text(card.read_text(encoding="utf-8"), encoding="utf-8")
    card.write_text(original.read_text(encoding="utf-8").replace(BODY, body), encoding="utf-8")
    report, checked = check(scaffolded / "data", games=["tiny"], langs=["en"])
    if checked is None:
        return report, None
    layout = next(layout for layout in checked.layouts if layout.game_id == "tiny")
    face = next(face for key, face in layout.decks[0].faces.items() if "sun" in key)
    frame = next((frame for frame in face.frames if frame.name == "body"), None)
    return report, frame.fit.height if frame is not None else None


def test_a_spacer_in_a_frame_adds_its_height(scaffolded):
    _, plain = _body_height(scaffolded, "{% block body %}<p>A.</p><p>B.</p>{% endblock %}")
    report, spaced = _body_height(
        scaffolded, '{% block body %}<p>A.</p><spacer height="6mm"/><p>B.</p>{% endblock %}'
    )
    assert not report.has_errors
    assert spaced - plain == pytest.approx(parse_length("6mm"), abs=0.5)


@pytest.mark.parametrize("tag", ['<art motif="star" size="10mm"/>', "<pagebreak/>"])
def test_what_only_booklets_hold_is_an_error_at_the_template(scaffolded, tag):
    report, _ = _body_height(scaffolded, "{% block body %}<p>A.</p>\n" + tag + "{% endblock %}")
    [error] = [d for d in report.items if d.code == "template"]
    assert "frame cannot hold it" in error.message
    assert error.location.path.endswith("card.j2") and error.location.line == 4
