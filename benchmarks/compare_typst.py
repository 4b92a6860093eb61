"""Time printshop against Typst on the same synthetic deck (see benchmarks/README.md).

    python benchmarks/compare_typst.py                       # 100 and 1000 cards, English, then 5 edits
    python benchmarks/compare_typst.py --sizes 100 1000 10000 --jobs 4 --json figures.json
    python benchmarks/compare_typst.py --edits 0             # the cold builds only
    python benchmarks/compare_typst.py --runs 7              # each cold build 7 times (default 3), median shown

For each size, make_deck.py writes a data folder with the game `bench`; then, each in a child
process of its own:

- printshop builds the A4 print-and-play card sheets of one language into an empty folder
  (`printshop build bench --data DIR --out NEW --lang L --paper a4 --quiet`): a cold build;
- Typst compiles an equivalent document, written here from the same texts: 3 × 3 cards of
  63 × 88 mm centred on A4, the same Noto fonts (printshop/fonts, no system fonts), sizes and
  colours, a page of mirrored backs after each page of fronts, crop marks and footer.

Then, unless `--edits 0`, incremental.py times one text edited in the largest deck, printshop's
long-running session against Typst's compiler kept in memory, and prints it beside the cold figures.

Every child is started by a small wrapper process (this script with --measure), which times it and
reads its peak memory from getrusage(RUSAGE_CHILDREN): the wrapper has no other child, so the
figure is that one run's, not a running total.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_deck import GAME, REPOSITORY, card_texts, language, make_deck, templates_dir

FONTS_DIR = REPOSITORY / "printshop" / "fonts"

# What the Typst document copies from printshop's settings (data/print/media.yaml, colours.yaml)
# and from the faces make_deck.py writes. Lengths in mm.
PAPER = (210.0, 297.0)
CARD = (63.0, 88.0)
MARGIN = 5.0
OUTER_BLEED = 2.0
CROP = {"length": 4.0, "gap": 1.0, "width": 0.2}
FOOTER_SIZE_PT, FOOTER_BASELINE = 6.0, 3.5
COLOURS = {
    "ink": "#000000",
    "ink-soft": "#4a4540",
    "paper": "#f5eedc",
    "red": "#b22a1e",
    "gold": "#d9a52b",
    "white": "#ffffff",
}

TYPST_PREAMBLE = r"""
#set document(title: "Bench: cards (A4)")
#set page(width: 210mm, height: 297mm, margin: 0pt)
#set text(font: "Noto Serif", lang: "%(lang)s", top-edge: 1em, bottom-edge: "baseline")
#let ink = rgb("%(ink)s")
#let inksoft = rgb("%(ink-soft)s")
#let paper = rgb("%(paper)s")
#let red = rgb("%(red)s")
#let gold = rgb("%(gold)s")
#let white = rgb("%(white)s")
#let reminder = "%(reminder)s"
#let back-title = "%(back_title)s"
#let back-motto = "%(back_motto)s"

// a text frame, as in faces.yaml: x, y, width, height from the card's top-left, centred both ways
#let frame(x, y, w, h, body) = place(top + left, dx: x, dy: y,
  box(width: w, height: h, align(center + horizon, par(leading: 0.3em, body))))

#let front(title, body) = box(width: 63mm, height: 88mm, {
  place(top + left, dx: 3mm, dy: 3mm, rect(width: 57mm, height: 82mm, stroke: 0.5mm + red))
  place(top + left, dx: 3mm, dy: 3mm, rect(width: 57mm, height: 15mm, fill: red, stroke: none))
  frame(5mm, 4.5mm, 53mm, 12mm, text(font: "Noto Sans", weight: "bold", size: 14pt, fill: white, title))
  frame(7mm, 24mm, 49mm, 50mm, text(size: 10pt, body))
  frame(6mm, 77mm, 51mm, 5mm, text(font: "Noto Sans", style: "italic", size: 6.5pt, fill: inksoft, reminder))
})

#let back() = box(width: 63mm, height: 88mm, {
  place(top + left, dx: 4mm, dy: 4mm, rect(width: 55mm, height: 80mm, stroke: 0.4mm + gold))
  frame(6mm, 36mm, 51mm, 10mm, text(font: "Noto Sans", weight: "bold", size: 17pt, fill: gold, back-title))
  frame(6mm, 47mm, 51mm, 6mm, text(style: "italic", size: 8pt, fill: paper, back-motto))
})

// a card at x, y (mm, top-left of its trim), its background running l, r, t, b mm past the trim
#let at(x, y, l, r, t, b, fill, face) = {
  place(top + left, dx: (x - l) * 1mm, dy: (y - t) * 1mm,
    rect(width: (63 + l + r) * 1mm, height: (88 + t + b) * 1mm, fill: fill, stroke: none))
  place(top + left, dx: x * 1mm, dy: y * 1mm, face)
}
#let F(x, y, l, r, t, b, title, body) = at(x, y, l, r, t, b, paper, front(title, body))
#let B(x, y, l, r, t, b) = at(x, y, l, r, t, b, red, back())

#let mark(x1, y1, x2, y2) = place(top + left,
  line(start: (x1 * 1mm, y1 * 1mm), end: (x2 * 1mm, y2 * 1mm), stroke: %(crop_width)smm + ink))
#let footer(body) = place(bottom + center, dy: -%(footer_y).3fmm,
  text(font: "Noto Sans", size: 6pt, fill: inksoft, body))
"""


def _string(text: str) -> str:
    """A Typst string literal's content."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def typst_source(count: int, lang: str) -> str:
    """The Typst document equivalent to printshop's bench-<lang>-cards-a4.pdf."""
    texts = card_texts(count, lang)
    labels = language(lang).labels
    from printshop.language.texts import apply_typography

    typography = language(lang).typography

    def label(name: str, **values) -> str:
        text = labels.get(name, name)
        for key, value in values.items():
            text = text.replace("{" + key + "}", str(value))
        return apply_typography(text, typography)

    columns = int((PAPER[0] - 2 * MARGIN + 1e-6) // CARD[0])
    rows = int((PAPER[1] - 2 * MARGIN + 1e-6) // CARD[1])
    left = (PAPER[0] - columns * CARD[0]) / 2
    top = (PAPER[1] - rows * CARD[1]) / 2
    bottom = top  # centred
    footer_y = max((bottom - OUTER_BLEED) / 2 - FOOTER_SIZE_PT * 0.352778 / 3, FOOTER_BASELINE)
    values = dict(
        COLOURS,
        lang=lang,
        reminder=_string(texts["reminder"]),
        back_title=_string(texts["back_title"]),
        back_motto=_string(texts["back_motto"]),
        crop_width=CROP["width"],
        footer_y=footer_y,
    )
    out = [TYPST_PREAMBLE % values]
    per_page = columns * rows
    cards = texts["cards"]
    chunks = [cards[i : i + per_page] for i in range(0, len(cards), per_page)]
    pages = 2 * len(chunks)
    file_name = f"{GAME}-{lang}-cards-a4.pdf"
    start = OUTER_BLEED + CROP["gap"]
    marks = []
    for i in range(columns + 1):
        x = left + i * CARD[0]
        marks.append((x, top - start, x, max(top - start - CROP["length"], 0.18)))
        marks.append(
            (
                x,
                top + rows * CARD[1] + start,
                x,
                min(top + rows * CARD[1] + start + CROP["length"], PAPER[1] - 0.18),
            )
        )
    for i in range(rows + 1):
        y = top + i * CARD[1]
        marks.append((left - start, y, max(left - start - CROP["length"], 0.18), y))
        marks.append(
            (
                left + columns * CARD[0] + start,
                y,
                min(left + columns * CARD[0] + start + CROP["length"], PAPER[0] - 0.18),
                y,
            )
        )
    marks_code = "\n".join(
        f"#mark({x1:.3f}, {y1:.3f}, {x2:.3f}, {y2:.3f})" for x1, y1, x2, y2 in marks
    )
    for number, chunk in enumerate(chunks):
        occupied = {(i % columns, i // columns) for i in range(len(chunk))}
        if number:
            out.append("#pagebreak()")
        for index, (title, body) in enumerate(chunk):
            column, row = index % columns, index // columns
            l, r, t, b = _bleeds(column, row, occupied)
            out.append(
                f"#F({left + column * CARD[0]:.3f}, {top + row * CARD[1]:.3f}, {l}, {r}, {t}, {b}, "
                f'"{_string(title)}", "{_string(body)}")'
            )
        out.append(marks_code)
        footer = " · ".join(
            [file_name, label("page", page=2 * number + 1, pages=pages), label("fronts")]
        )
        out.append(f'#footer("{_string(footer)}")')
        out.append("#pagebreak()")
        for index in range(len(chunk)):
            column, row = index % columns, index // columns
            l, r, t, b = _bleeds(column, row, occupied)
            x = (
                PAPER[0] - (left + column * CARD[0]) - CARD[0]
            )  # long-edge duplex: mirrored about the vertical
            out.append(f"#B({x:.3f}, {top + row * CARD[1]:.3f}, {r}, {l}, {t}, {b})")
        footer = " · ".join(
            [file_name, label("page", page=2 * number + 2, pages=pages), label("backs")]
        )
        out.append(f'#footer("{_string(footer)}")')
    return "\n".join(out) + "\n"


def _bleeds(column: int, row: int, occupied: set) -> tuple[float, float, float, float]:
    """Outer bleed on the sides with no neighbouring card, as printshop draws it."""

    def edge(neighbour):
        return OUTER_BLEED if neighbour not in occupied else 0

    return (
        edge((column - 1, row)),
        edge((column + 1, row)),
        edge((column, row - 1)),
        edge((column, row + 1)),
    )


TYPST_CHILD = """\
import sys, typst
options = {"font_paths": [sys.argv[3]], "ignore_system_fonts": True}
try:
    if "pdf_tags" in (typst.compile.__text_signature__ or ""):
        options["pdf_tags"] = False  # printshop writes untagged PDF too
except AttributeError:
    pass
typst.compile(sys.argv[1], output=sys.argv[2], **options)
"""


def measure(command: list[str]) -> int:
    """Wrapper mode: run `command`, then print its time and peak memory as JSON on stdout."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(
        resource.RUSAGE_CHILDREN
    ).ru_maxrss  # kilobytes on Linux, bytes on macOS
    peak_mb = peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024
    print(
        json.dumps(
            {
                "returncode": done.returncode,
                "seconds": seconds,
                "peak_mb": peak_mb,
                "stdout": done.stdout[-4000:],
                "stderr": done.stderr[-4000:],
            }
        )
    )
    return 0


def run_measured(command: list[str]) -> dict:
    wrapper = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--measure", "--", *command],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(wrapper.stdout)


def _compile_bytecode() -> None:
    """Write printshop's compiled modules (__pycache__) before timing, as installing a package does:
    where PYTHONDONTWRITEBYTECODE is set, an editable install would otherwise compile its 40-odd
    modules from source in every timed run (a tenth of a second), which no installed tool does.
    Typst is timed as the compiled program it is; this puts printshop on the same footing. Its
    libraries were compiled by pip."""
    import compileall

    import printshop

    compileall.compile_dir(str(Path(printshop.__file__).parent), quiet=1)


def printshop_command() -> list[str]:
    """The `printshop` script pip installed beside this Python, as a user runs it. Not the first one
    on PATH: that may be a version manager's shim (pyenv's is a bash script that adds about 80 ms to
    every run)."""
    import sysconfig

    script = Path(sysconfig.get_path("scripts")) / "printshop"
    if script.is_file():
        return [str(script)]
    found = shutil.which("printshop")
    return [found] if found else [sys.executable, "-m", "printshop"]


def pdf_pages(path: Path) -> int | None:
    try:
        from pypdf import PdfReader

        return len(PdfReader(str(path)).pages)
    except Exception:  # noqa: BLE001 - a figure we can do without
        return None


def bench_size(count: int, work: Path, lang: str, jobs: int | None, runs: int = 1) -> dict:
    """Both tools on a deck of `count` cards, each run `runs` times, taking turns (so that a slow
    spell of a shared machine falls on both); each tool's figures are those of its median run."""
    data = work / f"data-{count}"
    make_deck(count, data)
    row: dict = {"cards": count, "runs": runs}

    out = work / f"printshop-out-{count}"
    printshop = printshop_command() + [
        "build",
        GAME,
        "--data",
        str(data),
        "--templates",
        str(templates_dir(data)),
        "--out",
        str(out),
        "--lang",
        lang,
        "--paper",
        "a4",
        "--quiet",
    ]
    if jobs is not None:
        printshop += ["--jobs", str(jobs)]
    source = work / f"{GAME}-{lang}-cards-a4-{count}.typ"
    source.write_text(typst_source(count, lang), encoding="utf-8")
    pdf = work / f"typst-{count}.pdf"
    typst = [sys.executable, "-c", TYPST_CHILD, str(source), str(pdf), str(FONTS_DIR)]

    results: dict[str, list[dict]] = {"printshop": [], "typst": []}
    for _ in range(runs):
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)  # a fresh, empty folder: a cold build
        results["printshop"].append(
            _result(
                run_measured(printshop), out / GAME / lang / f"{GAME}-{lang}-cards-a4.pdf", count
            )
        )
        pdf.unlink(missing_ok=True)
        results["typst"].append(_result(run_measured(typst), pdf, count))
    for tool, measured in results.items():
        failed = [result for result in measured if not result["ok"]]
        row[tool] = (
            failed[0]
            if failed
            else sorted(measured, key=lambda result: result["seconds"])[(runs - 1) // 2]
        )
        row[tool]["all_seconds"] = [round(result["seconds"], 4) for result in measured]
    a, b = row["printshop"].get("cards_per_second"), row["typst"].get("cards_per_second")
    row["ratio"] = a / b if a and b else None
    return row


def _result(measured: dict, pdf: Path, count: int) -> dict:
    ok = measured["returncode"] == 0 and pdf.is_file()
    result = {"ok": ok, "seconds": measured["seconds"], "peak_mb": measured["peak_mb"]}
    if ok:
        result.update(
            cards_per_second=count / measured["seconds"],
            pdf_kb=pdf.stat().st_size / 1024,
            pages=pdf_pages(pdf),
        )
    else:
        result["error"] = (measured["stderr"] or measured["stdout"]).strip()[-2000:]
    return result


def table(rows: list[dict]) -> str:
    head = (
        f"{'':>6}  {'printshop':^40}  {'typst':^40}  {'ratio':>9}\n"
        f"{'cards':>6}  "
        + f"{'s':>7} {'cards/s':>8} {'peak MB':>8} {'PDF KB':>8} {'pages':>5}  " * 2
        + f"{'ps/typst':>9}"
    )
    lines = [head, "-" * len(head.splitlines()[1])]
    for row in rows:
        cells = []
        for tool in ("printshop", "typst"):
            r = row[tool]
            if r["ok"]:
                cells.append(
                    f"{r['seconds']:7.2f} {r['cards_per_second']:8.1f} {r['peak_mb']:8.1f} "
                    f"{r['pdf_kb']:8.1f} {r['pages'] if r['pages'] is not None else '?':>5}"
                )
            else:
                cells.append(
                    f"{r['seconds']:7.2f} {'FAILED':>8} {r['peak_mb']:8.1f} {'':>8} {'':>5}"
                )
        ratio = f"{row['ratio']:9.2f}" if row["ratio"] else f"{'-':>9}"
        lines.append(f"{row['cards']:>6}  " + "  ".join(cells) + f"  {ratio}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--measure"]:
        return measure(argv[2:] if argv[1:2] == ["--"] else argv[1:])
    parser = argparse.ArgumentParser(
        description="Time printshop and Typst building the same synthetic deck."
    )
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=[100, 1000],
        metavar="N",
        help="deck sizes in cards (default: 100 1000)",
    )
    parser.add_argument(
        "--lang", default="en", choices=("en", "fr"), help="the language to build (default: en)"
    )
    parser.add_argument(
        "--jobs", type=int, metavar="N", help="passed to 'printshop build --jobs N' (only if given)"
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=3,
        metavar="N",
        help="cold builds of each tool per size, taking turns; the median is shown (default: 3)",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also save the figures as JSON")
    parser.add_argument(
        "--keep",
        type=Path,
        metavar="DIR",
        help="work in DIR and keep the data, the Typst sources and the PDFs (default: a temporary folder)",
    )
    parser.add_argument(
        "--edits",
        type=int,
        default=5,
        metavar="N",
        help="then time N one-text edits in a long-running session against Typst's compiler kept "
        "in memory, on the largest deck (incremental.py; default: 5, 0 to skip)",
    )
    args = parser.parse_args(argv)
    try:
        import typst  # noqa: F401
    except ImportError:
        parser.error(
            "the typst package is missing: pip install -e '.[bench]' (or pip install typst)"
        )

    rows = []
    with tempfile.TemporaryDirectory(prefix="printshop-bench-") as temporary:
        work = args.keep or Path(temporary)
        work.mkdir(parents=True, exist_ok=True)
        _compile_bytecode()
        for count in args.sizes:
            row = bench_size(count, work, args.lang, args.jobs, max(1, args.runs))
            rows.append(row)
            for tool in ("printshop", "typst"):
                if not row[tool]["ok"]:
                    print(f"{tool} failed on {count} cards:\n{row[tool]['error']}", file=sys.stderr)
    print(
        f"printshop vs Typst {_typst_version()}: A4 card sheets, language {args.lang}"
        + (f", printshop --jobs {args.jobs}" if args.jobs is not None else "")
        + f"; {platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs"
    )
    print(table(rows))
    print(
        "ratio: printshop's cards per second over Typst's (above 1: printshop is faster)"
        + (
            f"; each tool's median of {rows[0]['runs']} runs taken in turns"
            if rows and rows[0]["runs"] > 1
            else ""
        )
    )
    incremental = None
    if args.edits > 0:
        from incremental import (
            measure_edits,
            print_edits,
        )  # the same script's figures, printed here too

        print()
        incremental = measure_edits(max(args.sizes), args.lang, args.edits)
        print_edits(incremental)
    if args.json:
        figures = {
            "lang": args.lang,
            "jobs": args.jobs,
            "typst": _typst_version(),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "rows": rows,
            "incremental": incremental,
        }
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0 if all(row[tool]["ok"] for row in rows for tool in ("printshop", "typst")) else 1


def _typst_version() -> str:
    try:
        from importlib.metadata import version

        return version("typst")
    except Exception:  # noqa: BLE001
        return "?"


if __name__ == "__main__":
    sys.exit(main())
