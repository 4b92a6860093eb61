"""Time a designer's and a translator's saves in `printshop serve` of every game of this repository.

    python benchmarks/designer.py               # five saves of each kind
    python benchmarks/designer.py --saves 9
    python benchmarks/designer.py --watch       # the same saves in `printshop watch` too (the files written)

The data and templates are copied to a temporary folder; `serve`'s preview (`serve.Preview`, without
the web server) is built once and every face's image drawn, as a page that shows them all asks. Then
each kind of file is saved `--saves` times, each time with a new value, and three times are measured
per save: the refresh (reading, validating, laying out, the page's new state with its faces), the
rules booklets it renders again after (`render_pages`: the page shows their earlier pages greyed
meanwhile) and the images of the faces and pages that changed (the ones the page asks for again).
The kinds:

- a text: one name in comrade/text/en.yaml (what a translator saves);
- a face definition: the title's size in comrade/faces.yaml;
- a card template: templates/comrade/faces/dissident.j2;
- the shared palette: its first colour in print/colours.yaml, red, which most faces of every game draw with;
- a colour few faces use: faction-3 in print/colours.yaml (Kremlin's markers of one faction);
- a motif: the gavel in print/motifs.yaml (Comrade's chairman draws it).
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

REPO = Path(__file__).resolve().parent.parent


def _edits(root: Path) -> dict:
    """Each kind's file and how to make its n-th new content from the original."""
    return {
        "a text": (
            root / "data" / "comrade" / "text" / "en.yaml",
            lambda text, n: text.replace(
                'name: "Dissident"', f'name: "Dissident {"I" * (n + 1)}"', 1
            ),
        ),
        "a face definition": (
            root / "data" / "comrade" / "faces.yaml",
            lambda text, n: text.replace(
                "size: 15pt, min_size: 10pt", f"size: {14 + n % 2}.{n}pt, min_size: 9pt", 1
            ),
        ),
        "a card template": (
            root / "templates" / "comrade" / "faces" / "dissident.j2",
            lambda text, n: text.replace(
                "{{ t.card.dissident.goal }}", "{{ t.card.dissident.goal }}" + "." * (n + 1), 1
            ),
        ),
        "the shared palette": (root / "data" / "print" / "colours.yaml", _palette),
        "a colour few use": (
            root / "data" / "print" / "colours.yaml",
            lambda text, n: _palette(text, n, name="faction-3"),
        ),
        "a motif": (
            root / "data" / "print" / "motifs.yaml",
            lambda text, n: text.replace(
                '"M41 44 L49 44 L49 80 L41 80 Z"', f'"M41 44 L49 44 L49 {81 + n} L41 {81 + n} Z"', 1
            ),
        ),
    }


def _palette(text: str, n: int, name: str = "") -> str:
    """colours.yaml with the last hex digit of its first colour (or of the colour `name`) changed."""
    lines = text.splitlines(keepends=True)
    for index, line in enumerate(lines):
        mark = line.find('"#')
        if mark != -1 and line.strip().startswith(f"{name}:" if name else ""):
            digit = "0123456789"[n % 10]
            lines[index] = line[: mark + 7] + digit + line[mark + 8 :]
            return "".join(lines)
    raise SystemExit(f"no colour {name} found in print/colours.yaml")


def measure(saves: int) -> dict:
    from printshop.live.serve import Preview
    from printshop.live.session import Session
    from printshop.project.paths import PACKAGE_DEFAULTS_DIR

    with tempfile.TemporaryDirectory(prefix="printshop-designer-") as temporary:
        root = Path(temporary)
        shutil.copytree(REPO / "data", root / "data")
        shutil.copytree(REPO / "templates", root / "templates")
        colours = root / "data" / "print" / "colours.yaml"
        if not colours.exists():  # the project extends printshop's palette: edit a copy of it
            shutil.copy(PACKAGE_DEFAULTS_DIR / "print" / "colours.yaml", colours)
        preview = Preview(
            Session(root / "data", templates_dir=root / "templates", render=False, draft=True)
        )
        started = time.perf_counter()
        preview.refresh(pages=False)  # as `serve` starts: the faces first, then the rules booklets
        shown = time.perf_counter() - started
        preview.render_pages()
        for token in list(preview.views):
            preview.image(token)
        first = time.perf_counter() - started
        figures = {"shown": shown, "first": first, "faces": len(preview.views), "kinds": {}}
        for kind, (path, change) in _edits(root).items():
            original = path.read_text(encoding="utf-8")
            refreshes, pages, images, counts = [], [], [], []
            for number in range(saves):
                changed = change(original, number)
                if changed == original:
                    raise SystemExit(f"{kind}: the edit changed nothing in {path}")
                path.write_text(changed, encoding="utf-8")
                started = time.perf_counter()
                preview.refresh({path}, pages=False)  # the page shows the faces...
                refreshes.append(time.perf_counter() - started)
                started = time.perf_counter()
                preview.render_pages()  # ...then the rules booklets the save changed
                pages.append(time.perf_counter() - started)
                if not preview.state.get("ok", True) and preview.state.get("errors"):
                    raise SystemExit(f"{kind}: the edit brought errors")
                started = time.perf_counter()
                drawn = [token for token in list(preview.views) if token not in preview.images]
                for token in drawn:
                    preview.image(token)
                images.append(time.perf_counter() - started)
                counts.append(len(drawn))
            path.write_text(original, encoding="utf-8")
            preview.refresh({path})
            for token in [token for token in list(preview.views) if token not in preview.images]:
                preview.image(
                    token
                )  # (untimed: as the open page would; else the next kind's first save drew them)
            figures["kinds"][kind] = {
                "refresh": refreshes,
                "pages": pages,
                "images": images,
                "drawn": counts,
            }
    return figures


def measure_watch(saves: int) -> dict:
    """The same saves in `printshop watch` of every game: a session writing the print-and-play files
    (A4 and Letter, every language), each save timed from the refresh's start to the files written."""
    from printshop.live.session import Session
    from printshop.project.paths import PACKAGE_DEFAULTS_DIR

    with tempfile.TemporaryDirectory(prefix="printshop-watch-") as temporary:
        root = Path(temporary)
        shutil.copytree(REPO / "data", root / "data")
        shutil.copytree(REPO / "templates", root / "templates")
        colours = root / "data" / "print" / "colours.yaml"
        if not colours.exists():
            shutil.copy(PACKAGE_DEFAULTS_DIR / "print" / "colours.yaml", colours)
        session = Session(root / "data", root / "out", templates_dir=root / "templates")
        started = time.perf_counter()
        first = session.refresh()
        figures = {"first": time.perf_counter() - started, "files": len(first.written), "kinds": {}}
        for kind, (path, change) in _edits(root).items():
            original = path.read_text(encoding="utf-8")
            times, jobs, written = [], [], []
            for number in range(saves):
                path.write_text(change(original, number), encoding="utf-8")
                started = time.perf_counter()
                update = session.refresh({path})
                times.append(time.perf_counter() - started)
                if not update.ok:
                    raise SystemExit(f"{kind}: the edit brought errors")
                jobs.append(len(update.jobs_rendered))
                written.append(len(update.written))
            path.write_text(original, encoding="utf-8")
            session.refresh({path})
            figures["kinds"][kind] = {"refresh": times, "jobs": jobs, "written": written}
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time saves of each kind of file in printshop serve of every game."
    )
    parser.add_argument("--saves", type=int, default=5, help="saves of each kind (default: 5)")
    parser.add_argument(
        "--watch", action="store_true", help="time the saves in `printshop watch` too"
    )
    args = parser.parse_args(argv)
    figures = measure(args.saves)
    print(
        f"printshop serve of every game: {figures['faces']} faces shown, {args.saves} saves of each kind; "
        f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs"
    )
    print(
        f"first page: faces shown in {figures['shown']:.2f} s, with every image and rules page {figures['first']:.2f} s"
    )
    print(
        f"{'saved':>20} {'refresh s':>10} {'pages s':>8} {'images s':>9} {'total s':>8} {'images drawn':>13}"
    )
    for kind, values in figures["kinds"].items():
        total = [a + b + c for a, b, c in zip(values["refresh"], values["pages"], values["images"])]
        print(
            f"{kind:>20} {statistics.median(values['refresh']):10.3f} {statistics.median(values['pages']):8.3f} "
            f"{statistics.median(values['images']):9.3f} {statistics.median(total):8.3f} "
            f"{statistics.median(values['drawn']):13.0f}"
        )
    print(
        "(medians; 'refresh' until the page shows the faces, 'pages' the rules booklets rendered again after, "
        "'images drawn' the faces and pages whose image the page asks for again)"
    )
    if args.watch:
        watch = measure_watch(args.saves)
        print(
            f"printshop watch of every game: first build {watch['first']:.2f} s ({watch['files']} files)"
        )
        print(f"{'saved':>20} {'refresh s':>10} {'jobs':>5} {'written':>8}")
        for kind, values in watch["kinds"].items():
            print(
                f"{kind:>20} {statistics.median(values['refresh']):10.3f} {statistics.median(values['jobs']):5.0f} "
                f"{statistics.median(values['written']):8.0f}"
            )
        print("(medians; 'jobs' rendered again, 'written' the files whose bytes changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
