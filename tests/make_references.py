"""The visual regression guard's reference renders: a handful of pages, one of each kind, rasterised
at 30 dpi and stored as small greyscale PNGs in tests/reference/. tests/test_visual.py compares
fresh renders with them. After a change that moves a layout on purpose, look at the new pages, then
run

    python -m tests.make_references

and commit the PNGs it writes.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np
import pypdfium2
from PIL import Image

from printshop.pipeline.build import build
from printshop.project.paths import DEFAULT_DATA_DIR

REFERENCE_DIR = Path(__file__).resolve().parent / "reference"
DPI = 30

# (name, game, language, file without the game-language prefix, page from 1): one page of each kind
PAGES = [
    ("card-sheet", "comrade", "en", "cards-a4", 1),
    ("card-sheet-letter", "comrade", "fr", "cards-letter", 1),
    ("booklet-cover", "comrade", "fr", "rules-a5", 1),
    ("booklet-page", "comrade", "fr", "rules-a5", 2),
    ("booklet-back-cover", "comrade", "fr", "rules-a5", 6),
    ("how-to-print", "comrade", "en", "how-to-print-letter", 1),
    ("role-sheets", "comrade-stalin", "en", "roles-a4", 1),
    ("board-assembly", "kremlin", "en", "board-a4", 1),
    ("board-tile", "kremlin", "fr", "board-letter", 3),
]


def build_pages(out: Path) -> None:
    games = sorted({game for _, game, _, _, _ in PAGES})
    langs = sorted({lang for _, _, lang, _, _ in PAGES})
    result = build(DEFAULT_DATA_DIR, out, games=games, langs=langs)
    if result.report.has_errors:
        raise SystemExit(
            "\n".join(d.format() for d in result.report.items if d.severity == "error")
        )


def render(out: Path, game: str, lang: str, what: str, page: int) -> np.ndarray:
    """One page as greyscale pixels at DPI."""
    document = pypdfium2.PdfDocument(str(out / game / lang / f"{game}-{lang}-{what}.pdf"))
    image = np.asarray(document[page - 1].render(scale=DPI / 72).to_pil().convert("L"))
    document.close()
    return image


def main() -> int:
    REFERENCE_DIR.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        build_pages(out)
        for name, game, lang, what, page in PAGES:
            path = REFERENCE_DIR / f"{name}.png"
            Image.fromarray(render(out, game, lang, what, page)).save(path, optimize=True)
            print(
                f"wrote {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
