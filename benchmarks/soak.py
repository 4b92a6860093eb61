"""Memory of a long editing session: one text saved again and again, as a translator does all day.

    python benchmarks/soak.py                      # Comrade, 300 saves, the page's images drawn after each
    python benchmarks/soak.py --game kremlin --saves 1000 --every 100

A copy of data/ is edited in a temporary folder; a `serve` preview (session.py and serve.py, in this
process, writing the PDFs as `watch` does) refreshes after each save and draws every face's image,
as the open page asks. The resident memory is printed every `--every` saves: it should level off,
not grow with the saves.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))


def resident_mb() -> float:
    """This process's resident memory now (Linux), in MB."""
    with open(f"/proc/{os.getpid()}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game", default="comrade", help="the game whose source text is edited (default: comrade)"
    )
    parser.add_argument("--saves", type=int, default=300, help="how many saves (default: 300)")
    parser.add_argument(
        "--every", type=int, default=50, help="print the memory every so many saves (default: 50)"
    )
    args = parser.parse_args()

    from printshop.live.serve import Preview
    from printshop.live.session import Session
    from printshop.project.loader import load_project
    from printshop.project.paths import DEFAULT_DATA_DIR

    with tempfile.TemporaryDirectory() as scratch:
        data = Path(scratch) / "data"
        shutil.copytree(DEFAULT_DATA_DIR, data)
        game = load_project(data, games=[args.game]).games[args.game]
        texts = data / args.game / "text" / f"{game.game.source_language}.yaml"
        original = texts.read_text(encoding="utf-8")
        entry = next(iter(game.catalogues[game.game.source_language].entries.values()))
        quoted = f'"{entry.text}"'
        if quoted not in original:
            sys.exit(f"cannot find the text of '{entry.id}' quoted in {texts}")
        preview = Preview(Session(data, Path(scratch) / "out", games=[args.game]))
        preview.refresh()
        for token in list(preview.views):
            preview.image(token)
        gc.collect()
        print(f"{args.game}: {len(preview.views)} faces; editing '{entry.id}' in {texts.name}")
        print(f"{'saves':>6} {'resident MB':>12} {'s per save':>11}")
        print(f"{0:>6} {resident_mb():>12.1f}")
        started = time.perf_counter()
        for save in range(1, args.saves + 1):
            texts.write_text(
                original.replace(quoted, f'"{entry.text} {save}"', 1), encoding="utf-8"
            )
            preview.refresh({texts})
            for token in list(preview.views):
                preview.image(token)
            if save % args.every == 0:
                gc.collect()
                seconds = (time.perf_counter() - started) / args.every
                print(f"{save:>6} {resident_mb():>12.1f} {seconds:>11.3f}")
                started = time.perf_counter()
    return 0


if __name__ == "__main__":
    sys.exit(main())
