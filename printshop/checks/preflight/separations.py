"""A page's separations rendered by Ghostscript (its tiffsep device, which simulates overprint
plate by plate): the worst-point total ink of what prints, the arbiter where preflight's ink model
cannot follow what an overprinted paint lands on."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

RESOLUTION = 150  # dots per inch: a 0.25 pt rule still covers whole pixels (no anti-aliasing)


def rendered_worst(
    path: Path, page: int, resolution: int = RESOLUTION, skip: frozenset[str] = frozenset()
) -> float | None:
    """The most total ink (percent, every plate: process and spot, but those named in `skip`: a
    die line's, which print nothing) at any point of page `page` (1-based), or None when
    Ghostscript is not installed or cannot render the page."""
    gs = shutil.which("gs")
    if gs is None:
        return None
    import numpy
    from PIL import Image

    with tempfile.TemporaryDirectory(prefix="printshop-sep-") as folder:
        out = Path(folder) / "page.tif"
        command = [gs, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep",
                   f"-r{resolution}", f"-dFirstPage={page}", f"-dLastPage={page}",
                   f"-sOutputFile={out}", str(path)]  # fmt: skip
        try:
            subprocess.run(command, check=True, capture_output=True, timeout=300)
        except (subprocess.SubprocessError, OSError):
            return None
        plates = [  # page(Cyan).tif, ..., page(CutContour).tif
            plate
            for plate in sorted(Path(folder).glob("page(*).tif"))
            if plate.stem[len("page(") : -1] not in skip
        ]
        if not plates:
            return None
        total = None
        for plate in plates:  # 8 bits a plate, 255 where it prints no ink
            with Image.open(plate) as picture:
                ink = (255 - numpy.asarray(picture.convert("L"), dtype=float)) * (100 / 255)
            total = ink if total is None else total + ink
        return float(total.max()) if total is not None else None
