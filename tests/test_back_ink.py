"""Home card backs are light (docs/design.md, "Card backs"): a back prints on every card of its deck,
so in a home print-and-play kit its ink coverage (each pixel's densest channel, 1 − min(R, G, B),
averaged over the backs at 50 dpi, their bleed included) stays at most `TARGET` percent. The paper
ground alone is 14 %; the old full-bleed black backs of Kremlin's intrigue and Assassin were 87 %."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2

from printshop.pipeline.build import build
from tests.conftest import copy_data, kit_view

TARGET = 40.0  # percent, docs/design.md "Card backs"


def back_coverage(path: Path) -> float:
    """The ink coverage of a kit's backs, in percent: its back pages (every second page) at 50 dpi,
    each cropped to its grid of cards (the rows more than a third inked, the columns more than half
    inked within them: no margin, crop marks or footer), the most inked page."""
    document = pypdfium2.PdfDocument(str(path))
    pages = []
    for index in range(1, len(document), 2):
        image = np.asarray(document[index].render(scale=50 / 72).to_pil().convert("RGB"), float)
        tone = 1 - image.min(axis=2) / 255
        inked = tone > 0.02
        rows = inked.mean(axis=1) > 1 / 3
        columns = inked[rows].mean(axis=0) > 0.5
        pages.append(100 * float(tone[rows][:, columns].mean()))
    return max(pages)


def _card_kits(folder: Path) -> list[Path]:
    return sorted(
        path
        for path in folder.rglob("*-a4.pdf")
        if "/en/" in str(path)
        and any(deck in path.name for deck in ("-cards-", "-intrigue-", "-politicians-"))
        and "tuckbox" not in path.name
    )


def test_every_home_card_back_keeps_within_the_ink_target(tmp_path_factory):
    kit = kit_view(tmp_path_factory, ["comrade", "comrade-stalin", "assassin", "kremlin"], ["a4"])
    kits = _card_kits(kit)
    measured = {path.name: round(back_coverage(path), 1) for path in kits}
    assert {"kremlin-en-intrigue-a4.pdf", "assassin-en-cards-a4.pdf"} <= set(measured)
    over = {name: value for name, value in measured.items() if value > TARGET}
    assert not over, measured
    # (must-pass) every deck's back: a light ground, the red or black kept for frame and medallion;
    # not blank: the design still prints
    assert len(measured) >= 5 and all(value > 20 for value in measured.values()), measured


def test_the_back_ink_guard_catches_a_full_bleed_dark_back(tmp_path):
    """Must-catch: Assassin's back as it was, a black ground under its sunburst, is over."""
    data = copy_data(tmp_path / "data", ["assassin"])
    faces = data / "assassin" / "faces.yaml"
    text = faces.read_text(encoding="utf-8")
    light = "    template: assassin/faces/back.j2\n    background: paper\n"
    assert light in text
    faces.write_text(
        text.replace(light, light.replace("paper", "ink")).replace(
            "count: 24, fill: paper-deep", "count: 24, fill: ink-soft"
        ),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    result = build(data, out, games=["assassin"], langs=["en"], papers=["a4"])
    assert not result.report.has_errors
    assert back_coverage(out / "assassin" / "en" / "assassin-en-cards-a4.pdf") > TARGET
