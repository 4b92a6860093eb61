"""What a build renders, as a list of independent jobs, and what each job gives back.

A job is one game in one language (and naming variant) for one target and one paper, print-shop
profile (`shop`), cutter or image set: `comrade fr pnp a4`, `kremlin en drivethrucards`; plus one
calibration job per language and paper. `plan` lists them in a fixed order (so `--shard` slices are
stable). Nothing here imports a renderer: a build plans and looks its jobs up in the cache before
any is rendered (jobs.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from printshop.diagnostics import Location, Report
from printshop.layout.plan import GameLayout

EXPORTS = (
    "tts",
    "cut",
    "preview",
)  # targets that render from the laid-out faces without a paper kit


@dataclass
class Output:
    path: Path  # relative to the output folder
    data: bytes
    pages: int
    description: str
    kind: str = (
        ""  # what the kit's how-to-print sheet says to do with it (see render/how_to_print.py)
    )


@dataclass(frozen=True)
class Job:
    target: str  # "pnp", "calibration", "shop", or one of EXPORTS
    lang: str
    game: str | None = None
    variant: str | None = None
    paper: str | None = None  # pnp and calibration
    shop: str | None = None  # shop: the print-shop profile
    cutter: str | None = None  # cut: the cutter (data/print/targets/cut/)
    image_set: str | None = None  # preview: the image set (data/print/targets/images/)
    extras: bool = False  # pnp: also the files that need no paper (the A5 rules, press sheets)

    @property
    def made_for(self) -> str | None:
        """The shop, cutter or image set the job makes files for ("tts" for Tabletop Simulator's)."""
        return (
            self.shop or self.cutter or self.image_set or ("tts" if self.target == "tts" else None)
        )

    @property
    def label(self) -> str:
        parts = [self.game or "calibration", self.lang, self.variant, self.made_for, self.paper]
        return " ".join(part for part in parts if part)


@dataclass
class JobResult:
    outputs: list[Output] = field(default_factory=list)
    diagnostics: list = field(default_factory=list)


def plan(layouts: list[GameLayout], target: str, papers: list[str], names: list[str]) -> list[Job]:
    """Every job of a build, in a fixed order (so `--shard` slices are stable). `names`: the shops
    (target "shop"), cutters ("cut") or image sets ("preview") asked for (BuildRequest.chosen);
    none: all of them."""
    jobs: list[Job] = []
    for layout in layouts:
        variant = layout.localized.variant
        if target == "shop":
            jobs.extend(
                Job("shop", layout.lang, layout.game_id, variant, shop=name) for name in names
            )
        elif target == "tts":
            jobs.append(Job("tts", layout.lang, layout.game_id, variant))
        elif target == "cut":
            jobs.extend(
                Job("cut", layout.lang, layout.game_id, variant, paper, cutter=name)
                for name in _chosen(layout, "cut", names)
                for paper in papers
            )
        elif target == "preview":
            jobs.extend(
                Job("preview", layout.lang, layout.game_id, variant, image_set=name)
                for name in _chosen(layout, "images", names)
            )
        else:
            jobs.extend(
                Job("pnp", layout.lang, layout.game_id, variant, paper, extras=index == 0)
                for index, paper in enumerate(papers)
            )
    if target == "pnp":
        for lang in sorted({layout.lang for layout in layouts}):
            jobs.extend(Job("calibration", lang, paper=paper) for paper in papers)
    return jobs


def _chosen(layout: GameLayout, kind: str, asked: list[str]) -> list[str]:
    """The cutters (`kind` "cut") or image sets ("images") of data/print/targets/<kind>/ that were
    asked for (BuildRequest's `cutters` or `image_sets`), or all of them. Read from the folder
    names, so planning stays cheap; the loader has read and checked the files themselves."""
    from printshop.project.layers import layer_dirs, names_in

    available = names_in(f"print/targets/{kind}", layer_dirs(layout.localized.data.dir.parent))
    return [name for name in available if name in asked] or available


def render_failed(report: Report, layout: GameLayout, path: Path, error: Exception) -> None:
    from printshop.layout.problems import report_once, too_tall_at
    from printshop.render.booklet import _TOO_TALL_HINT
    from printshop.render.booklet_pages import BookletTooLarge

    if isinstance(
        error, BookletTooLarge
    ):  # the data's sizes, said at them: not a fault of printshop
        where, also = too_tall_at(error, layout.localized)
        report_once(  # once for the booklet's files that fail at it (A5, imposed A4 and Letter)
            report,
            "text-overflow",
            where,
            f"{error} ({path.name})",
            hint=error.hint or _TOO_TALL_HINT,
            also=also,
            cause=str(error),
        )
        return
    report.add(
        "internal",
        Location.of(layout.localized.data.dir),
        f"rendering {path} failed: {type(error).__name__}: {error}",
    )
