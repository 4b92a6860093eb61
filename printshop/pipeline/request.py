"""What a build is asked to make: one frozen `BuildRequest`, made once (by the command line, or by
`build.build`'s keywords) and read by every step: `build`, `Session`, the jobs and the cache keys.

The command line's `--profile` names print-shop profiles and its `--cutter` cutters; the preview
target's image sets (data/print/targets/images/) have no flag of their own. The three are kept
apart here (`shops`, `cutters`, `image_sets`); `chosen()` gives the ones the request's target plans
jobs for, which is what the jobs' plan and the cache key read.

Modes are Enums whose values are the strings the command line takes and the cache keys hold
(StrEnum: a mode compares equal to its string, and is written as it in a key).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from printshop.project.paths import DEFAULT_DATA_DIR, DEFAULT_OUTPUT_DIR


class Target(StrEnum):
    """What a build makes (`printshop build --target`)."""

    PNP = "pnp"  # print-and-play kits for home printers
    SHOP = "shop"  # press files, one folder per print-shop profile
    TTS = "tts"  # Tabletop Simulator decks and objects
    CUT = "cut"  # pages and cut files for a print-and-cut machine, per cutter
    PREVIEW = "preview"  # web previews and Tabletopia and Screentop images, per image set


class Flip(StrEnum):
    """How the duplex printer turns the sheet (`--flip`)."""

    LONG_EDGE = "long-edge"
    SHORT_EDGE = "short-edge"


class Incomplete(StrEnum):
    """What becomes of a translation that lacks texts (check's `incomplete`); not the preview
    target."""

    FAIL = "fail"  # validate: each missing text is an error
    SKIP = "skip"  # build: not laid out, one warning instead
    DRAFT = (
        "draft"  # build --draft, watch --draft: laid out as a marked draft, written as -draft files
    )
    # serve: shown as it stands, marked, its missing texts in the language it is made from
    SHOWN = "shown"


@dataclass(frozen=True)
class Options:
    """Build options that change what a job draws (part of each job's cache key)."""

    flip: Flip = Flip.LONG_EDGE
    back_offset: tuple[float, float] = (0.0, 0.0)
    gutterfold: bool = False
    low_ink: bool = False

    def __post_init__(self):
        object.__setattr__(self, "flip", Flip(self.flip))  # (frozen: its own argument, made a Flip)
        object.__setattr__(self, "back_offset", tuple(self.back_offset))


def _frozen(names) -> tuple[str, ...] | None:
    return tuple(names) if names is not None else None


@dataclass(frozen=True)
class BuildRequest:
    """Everything a build, a watch or a serve session is asked for. Lists are kept as tuples (the
    request does not change); None means "all" (games, languages, shops, cutters, image sets) or
    "the project's print-and-play papers" (papers)."""

    data_dir: Path = DEFAULT_DATA_DIR
    out_dir: Path | None = DEFAULT_OUTPUT_DIR
    templates_dir: Path | None = None
    games: Sequence[str] | None = None
    langs: Sequence[str] | None = None
    papers: Sequence[str] | None = None
    variant: str | None = None  # a naming variant, for the games that have it ('' or None: none)
    target: Target = Target.PNP
    shops: Sequence[str] | None = None  # --profile, with --target shop
    cutters: Sequence[str] | None = None  # --cutter, with --target cut
    image_sets: Sequence[str] | None = None  # with --target preview (no flag: all of them)
    options: Options = field(default_factory=Options)
    draft: bool = False  # build incomplete translations as marked drafts (print-and-play only)
    shard: tuple[int, int] | None = None  # (i, n): only the i-th (1-based) of n slices of the jobs
    jobs: int | None = None  # processes (None: one per core)
    force: bool = False  # ignore the cache (and refresh it)

    def __post_init__(self):
        set_field = (
            object.__setattr__
        )  # (frozen: the constructor's own arguments, made tuples and enums)
        set_field(self, "data_dir", Path(self.data_dir))
        if self.out_dir is not None:
            set_field(self, "out_dir", Path(self.out_dir))
        if self.templates_dir is not None:
            set_field(self, "templates_dir", Path(self.templates_dir))
        for name in ("games", "langs", "papers", "shops", "cutters", "image_sets"):
            set_field(self, name, _frozen(getattr(self, name)))
        set_field(self, "target", Target(self.target))
        if self.shard is not None:
            set_field(self, "shard", tuple(self.shard))

    @classmethod
    def of(cls, data_dir=DEFAULT_DATA_DIR, out_dir=DEFAULT_OUTPUT_DIR, *, profiles=None, **fields):
        """The request of `build.build`'s keywords: `profiles` are the target's shops, cutters or
        image sets (as the library took them before they had names of their own), `flip`,
        `back_offset`, `gutterfold` and `low_ink` its drawing `options`."""
        drawing = {
            name: fields.pop(name)
            for name in ("flip", "back_offset", "gutterfold", "low_ink")
            if name in fields
        }
        if drawing:
            fields["options"] = Options(**drawing)
        target = Target(fields.get("target", Target.PNP))
        if profiles is not None:
            name = {Target.SHOP: "shops", Target.CUT: "cutters", Target.PREVIEW: "image_sets"}
            if target in name:
                fields[name[target]] = profiles
        return cls(data_dir, out_dir, **fields)

    @classmethod
    def from_arguments(cls, args, games: Sequence[str] | None) -> BuildRequest:
        """The request of `printshop build`, `watch` or `serve`'s parsed arguments (argparse's
        namespace), for the `games` the command found; what a command has no flag for keeps its
        default (watch and serve make print-and-play kits). `--profile` names shops, `--cutter`
        cutters."""

        def given(name: str, default: Any = None) -> Any:
            return getattr(args, name, default)

        return cls(
            args.data,
            given("out"),
            args.templates,
            games=games,
            langs=args.lang,
            papers=given("paper"),
            variant=args.variant,
            target=Target(given("target", Target.PNP)),
            shops=given("profile"),
            cutters=given("cutter"),
            options=Options(
                Flip(given("flip", Flip.LONG_EDGE)),
                tuple(given("back_offset", (0.0, 0.0))),
                given("gutterfold", False),
                given("low_ink", False),
            ),
            draft=given("draft", False),
            shard=given("shard"),
            jobs=given("jobs"),
            force=given("force", False),
        )

    @property
    def builds_draft(self) -> bool:
        """Drafts are print-and-play proofs: press files and exports are releases."""
        return self.draft and self.target is Target.PNP

    def chosen(self) -> list[str] | None:
        """The shops, cutters or image sets the target makes jobs for, as asked (None: all)."""
        asked = {Target.SHOP: self.shops, Target.CUT: self.cutters, Target.PREVIEW: self.image_sets}
        names = asked.get(self.target)
        return list(names) if names is not None else None

    def settings(self) -> dict:
        """The settings that name a build's output set: the key of the no-op check
        (cache.whole_build_key) and of the record of what it wrote (stale outputs)."""
        return dict(
            games=_listed(self.games),
            langs=_listed(self.langs),
            papers=_listed(self.papers),
            variant=self.variant,
            target=self.target.value,
            profiles=self.chosen(),
            shard=self.shard,
            draft=self.builds_draft,
            flip=self.options.flip.value
            if isinstance(self.options.flip, Flip)
            else self.options.flip,
            back_offset=self.options.back_offset,
            gutterfold=self.options.gutterfold,
            low_ink=self.options.low_ink,
        )


def _listed(names: Sequence[str] | None) -> list[str] | None:
    return list(names) if names is not None else None
