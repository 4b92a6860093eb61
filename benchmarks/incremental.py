"""Time one text edit in a large deck: printshop's long-running session (`printshop watch`) against
Typst's compiler kept in memory, each recompiling after the same edit.

    python benchmarks/incremental.py                 # 1,000 cards, five edits
    python benchmarks/incremental.py --cards 100 --edits 10

For each tool, the deck is built once (not timed beyond the "first" figure), then one card's title
is changed `--edits` times, each time in a new word, and the time from the saved file to the new PDF
in memory (printshop: and on disk) is measured. printshop's figure is `Session.refresh` for the
changed file: re-read that file, validate, lay out and draw the faces that changed, replay the
others, write the changed PDF. A last line adds what `printshop serve` does after that: the page's
new state and the image (PNG) of the face that changed. Typst's is `typst.Compiler.compile()` after
the .typ file changed. Both run in this process, one after the other; the median and the slowest
edit are printed.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare_typst import FONTS_DIR, _typst_version, typst_source  # noqa: E402
from make_deck import GAME, make_deck, templates_dir  # noqa: E402


def _title(lang: str, edits: int) -> str:
    """The title of card 2 after `edits` edits: "Courier 2", "ACourier 2", "BACourier 2"... (the
    same card each time, in any deck size)."""
    return "".join(chr(65 + number) for number in reversed(range(edits))) + (
        "Courier 2" if lang == "en" else "Coursier 2"
    )


def printshop_edits(data: Path, out: Path, lang: str, edits: int) -> dict:
    from printshop.live.images import face_png
    from printshop.live.session import Session
    from printshop.live.views import face_views

    session = Session(
        data, out, games=[GAME], langs=[lang], papers=["a4"], templates_dir=templates_dir(data)
    )
    started = time.perf_counter()
    first = session.refresh()
    cold = time.perf_counter() - started
    if not first.ok:
        raise SystemExit(
            "printshop: the deck did not build:\n"
            + "\n".join(d.format() for d in first.report.errors)
        )
    texts = data / GAME / "text" / f"{lang}.yaml"
    content = texts.read_text(encoding="utf-8")
    shown = {view.token for view in face_views(session)}
    times, faces, images = [], [], []
    for number in range(edits):
        content = content.replace(f'"{_title(lang, number)}"', f'"{_title(lang, number + 1)}"', 1)
        texts.write_text(content, encoding="utf-8")
        started = time.perf_counter()
        update = session.refresh({texts})
        times.append(time.perf_counter() - started)
        if not update.ok or len(update.written) != 1:
            raise SystemExit(f"printshop: the edit did not rebuild one file: {update}")
        faces.append((update.faces_laid_out, update.faces_drawn))
        # what `printshop serve` does next: the page's new state, and the image of the face that
        # changed
        started = time.perf_counter()
        views = face_views(session)
        for view in views:
            if view.token not in shown:
                face_png(view)
        images.append(time.perf_counter() - started)
        shown = {view.token for view in views}
    return {"first": cold, "times": times, "faces": faces, "images": images}


def typst_edits(work: Path, count: int, lang: str, edits: int) -> dict:
    import typst

    source = work / f"{GAME}-{lang}-{count}.typ"
    text = typst_source(count, lang)
    source.write_text(text, encoding="utf-8")
    compiler = typst.Compiler(str(source), font_paths=[str(FONTS_DIR)], ignore_system_fonts=True)
    started = time.perf_counter()
    compiler.compile()
    cold = time.perf_counter() - started
    times = []
    for number in range(edits):
        text = text.replace(f'"{_title(lang, number)}"', f'"{_title(lang, number + 1)}"', 1)
        source.write_text(text, encoding="utf-8")
        started = time.perf_counter()
        compiler.compile()
        times.append(time.perf_counter() - started)
    return {"first": cold, "times": times}


def measure_edits(cards: int, lang: str, edits: int) -> dict:
    """Both tools' figures for `edits` one-text edits in a `cards`-card deck (compare_typst.py calls
    this too)."""
    with tempfile.TemporaryDirectory(prefix="printshop-incremental-") as temporary:
        work = Path(temporary)
        data = work / "data"
        make_deck(cards, data)
        ours = printshop_edits(data, work / "out", lang, edits)
        theirs = typst_edits(work, cards, lang, edits)
        shutil.rmtree(data, ignore_errors=True)
    return {
        "cards": cards,
        "lang": lang,
        "edits": edits,
        "printshop": ours,
        "typst": theirs,
        "ratio": statistics.median(ours["times"]) / statistics.median(theirs["times"]),
    }


def print_edits(figures: dict) -> None:
    ours = figures["printshop"]
    print(
        f"one text edited in a {figures['cards']}-card deck, language {figures['lang']}, {figures['edits']} edits; "
        f"Typst {_typst_version()}; {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs"
    )
    print(f"{'':>10} {'first s':>8} {'edit s (median)':>16} {'slowest s':>10}")
    for name in ("printshop", "typst"):
        tool = figures[name]
        print(
            f"{name:>10} {tool['first']:8.3f} {statistics.median(tool['times']):16.3f} {max(tool['times']):10.3f}"
        )
    laid, drawn = ours["faces"][-1]
    with_image = [pdf + image for pdf, image in zip(ours["times"], ours["images"])]
    print(
        f"printshop / typst per edit: {figures['ratio']:.2f} (target: at most 2, and at most 0.3 s); "
        f"faces laid out again per edit: {laid}, drawn again: {drawn}"
    )
    print(
        f"printshop serve, the new PDF and then the page's state and the changed face's image: "
        f"{statistics.median(with_image):.3f} s median, {max(with_image):.3f} s slowest"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time one text edit: printshop's session against Typst's compiler."
    )
    parser.add_argument("--cards", type=int, default=1000, help="deck size (default: 1000)")
    parser.add_argument("--edits", type=int, default=5, help="edits timed (default: 5)")
    parser.add_argument("--lang", default="en", choices=("en", "fr"))
    args = parser.parse_args(argv)
    print_edits(measure_edits(args.cards, args.lang, args.edits))
    return 0


if __name__ == "__main__":
    sys.exit(main())
