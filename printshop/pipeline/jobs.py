"""A build as a list of independent jobs, and how each job renders its files.

A job is one game in one language (and naming variant) for one target and one paper or print-shop
profile: `comrade fr pnp a4`, `kremlin en shop drivethrucards`; plus one calibration job per
language and paper. The targets that need no kit are jobs too: `tts` (one per game and language),
`cut` (per cutter and paper: `kremlin en silhouette a4`) and `preview` (per image set: previews,
Tabletopia, Screentop), their cutters and image sets named by the files in data/print/targets/. Jobs share nothing but the checked project they read, so they run in any order,
in any process (build.py runs them across processes and serves unchanged ones from the cache).
A job never raises for bad data: what goes wrong is reported against the data or the game.

The renderers of press files (pikepdf, Pillow's colour management) are imported by the jobs that use them.
"""

from __future__ import annotations

import contextvars
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from printshop.diagnostics import Location, Report
from printshop.layout.imposition import ImpositionError
from printshop.layout.plan import GameLayout
from printshop.layout.press_plan import left_out, takes_deck, takes_sheets
from printshop.memo import Reads, noting
from printshop.project.paths import output_name  # noqa: F401 - (serve.py imports it from here)
from printshop.render.booklet import booklet_pages, render_booklet
from printshop.render.calibration import render_calibration
from printshop.render.colour import ColourMode, Paints
from printshop.render.gutterfold import render_gutterfold
from printshop.render.how_to_print import TEMPLATE as HOW_TO_TEMPLATE
from printshop.render.how_to_print import (
    KitFile,
    TooLong,
    deck_kind,
    render_how_to_print,
    sheet_kind,
)
from printshop.render.sheet_pages import press_pages, render_sheet
from printshop.render.sheets import SheetSettings, render_card_sheets
from printshop.typeset.richtext import RichTextError
from printshop.typeset.templating import TemplateFailure, template_location

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
class Options:
    """Build options that change what a job draws."""

    flip: str = "long-edge"
    back_offset: tuple[float, float] = (0.0, 0.0)
    gutterfold: bool = False
    low_ink: bool = False


@dataclass(frozen=True)
class Job:
    target: str  # "pnp", "calibration", "shop", or one of EXPORTS
    lang: str
    game: str | None = None
    variant: str | None = None
    paper: str | None = None  # pnp and calibration
    profile: str | None = None  # shop: the profile; cut: the cutter; preview: the image set
    extras: bool = False  # pnp: also the files that need no paper (the A5 rules, press sheets)

    @property
    def label(self) -> str:
        parts = [self.game or "calibration", self.lang, self.variant, self.profile, self.paper]
        return " ".join(part for part in parts if part)


@dataclass
class JobResult:
    outputs: list[Output] = field(default_factory=list)
    diagnostics: list = field(default_factory=list)


def plan(
    layouts: list[GameLayout], target: str, papers: list[str], profiles: list[str]
) -> list[Job]:
    """Every job of a build, in a fixed order (so `--shard` slices are stable)."""
    jobs = []
    for layout in layouts:
        variant = layout.localized.variant
        if target == "shop":
            jobs.extend(
                Job("shop", layout.lang, layout.game_id, variant, profile=name) for name in profiles
            )
        elif target == "tts":
            jobs.append(Job("tts", layout.lang, layout.game_id, variant, profile="tts"))
        elif target == "cut":
            jobs.extend(
                Job("cut", layout.lang, layout.game_id, variant, paper, profile=name)
                for name in _chosen(layout, "cut", profiles)
                for paper in papers
            )
        elif target == "preview":
            jobs.extend(
                Job("preview", layout.lang, layout.game_id, variant, profile=name)
                for name in _chosen(layout, "images", profiles)
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
    """The cutters (`kind` "cut") or image sets ("images") of data/print/targets/<kind>/ that were asked for
    (build's `profiles`, which the command line fills from --cutter), or all of them. Read from the folder
    names, so planning stays cheap; the loader has read and checked the files themselves."""
    from printshop.project.layers import layer_dirs, names_in

    available = names_in(f"print/targets/{kind}", layer_dirs(layout.localized.data.dir.parent))
    return [name for name in available if name in asked] or available


_noted_motifs: contextvars.ContextVar[list | None] = contextvars.ContextVar(
    "noted_motifs", default=None
)


def noting_motifs():
    """Note the names of the motifs each job run meanwhile looks up, in the list yielded (as colour.noting_colours
    notes colours): what a session's job reads of the motifs, so that it runs again only when one changes."""
    return noting(_noted_motifs)


def _as_seen(project, game):
    """The project as `game` sees it (Project.view); its motifs noting their reads while `noting_motifs`."""
    project = project.view(game)
    log = _noted_motifs.get()
    if log is None:
        return project
    return replace(
        project,
        motifs=project.motifs.model_copy(update={"motifs": Reads(project.motifs.motifs, log=log)}),
    )


def run(job: Job, checked, options: Options, env, say=lambda message: None) -> JobResult:
    """Render one job's files. `checked` is build.Checked; `env` the templates' Jinja environment."""
    result = JobResult()
    report = Report()
    if job.target == "calibration":
        _calibration(job, checked.project, result)
    else:
        layout = next(
            layout
            for layout in checked.layouts
            if (layout.game_id, layout.lang, layout.localized.variant)
            == (job.game, job.lang, job.variant)
        )
        project = _as_seen(checked.project, layout.localized.data)
        if job.target == "shop":
            _Press(project, layout, job.profile, report, result, say).run()
        elif job.target in EXPORTS:
            _Export(project, layout, job, report, result, say).run()
        else:
            _Kit(project, layout, job, options, env, report, result, say).run()
    result.diagnostics = list(report.items)
    return result


def _render_failed(report: Report, layout: GameLayout, path: Path, error: Exception) -> None:
    from printshop.render.booklet_pages import BookletTooLarge

    if isinstance(
        error, BookletTooLarge
    ):  # the data's sizes, said at them: not a fault of printshop
        report.add(
            "text-overflow",
            error.where,
            f"{error} ({path.name})",
            hint="lower the type size, leading or spaces of booklet.yaml's styles (print/booklet.yaml), or "
            "split the paragraph",
        )
        return
    report.add(
        "internal",
        Location.of(layout.localized.data.dir),
        f"rendering {path} failed: {type(error).__name__}: {error}",
    )


class _Kit:
    """A print-and-play kit on one paper: card sheets, sheets, the rules imposed as a booklet and the
    how-to-print page; with `extras`, also the A5 rules and press sheets, which need no paper."""

    def __init__(
        self,
        project,
        layout: GameLayout,
        job: Job,
        options: Options,
        env,
        report: Report,
        result: JobResult,
        say,
    ):
        self.project, self.layout, self.job, self.options = project, layout, job, options
        self.env, self.report, self.result, self.say = env, report, result, say
        self.kit: list[Output] = []  # this paper's files and the A5 rules, for the how-to page

    def render(
        self,
        what: str,
        paper_id: str,
        draw,
        where: Location,
        description: str,
        kind: str = "",
        keep: bool = True,
    ) -> None:
        """Render one file; a failure is reported against the data (`where`) or the game, never raised."""
        media, options, layout = self.project.media, self.options, self.layout
        # a press page is the shop's, in its colours whatever the home prints use: not named low-ink (it is the file
        # a build without --low-ink writes, byte for byte)
        suffix = ("-lowink" if options.low_ink and paper_id != "press" else "") + (
            "-draft" if layout.localized.draft else ""
        )
        path = output_name(
            layout.game_id, layout.lang, what + suffix, paper_id, layout.localized.variant
        )
        self.say(f"rendering {path}")
        paper = media.papers.get(paper_id) or media.papers[self.job.paper]
        paints = Paints(self.project.colours.palette, ColourMode(low_ink=options.low_ink))
        settings = SheetSettings(
            paper_id,
            paper,
            media,
            paints,
            self.project.motifs.motifs,
            path.name,
            options.flip,
            options.back_offset,
        )
        try:
            data, pages = draw(settings)
        except ImpositionError as error:
            self.report.add("paper-too-small", where, f"{what} on {paper_id}: {error}")
            return
        except TooLong as error:
            self.report.add(
                "text-overflow",
                where,
                f"{error}: shorten the how-to labels of '{layout.lang}' (data/languages/{layout.lang}.yaml "
                f"holds a project's own, over printshop's; the page is set in the booklet's styles: a "
                f"size raised in print/booklet.yaml takes room too)",
            )
            return
        except TemplateFailure as failure:
            self.report.add(
                "template", failure.location, f"{failure} ({what}, language {layout.lang})"
            )
            return
        except (
            RichTextError
        ) as error:  # markup a template made (the how-to page's): at the template, not a bug
            self.report.add("template", where, f"{error} ({what}, language {layout.lang})")
            return
        except Exception as error:  # noqa: BLE001 - e.g. a table too large for a page
            _render_failed(self.report, layout, path, error)
            return
        output = Output(path, data, pages, description.format(paper=paper.label), kind)
        self.kit.append(output)
        if keep:
            self.result.outputs.append(output)

    def press_sheet(self, sheet) -> tuple[bytes, int]:
        """The kit's press pages follow one named profile (media.yaml's print_and_play.press_profile):
        its bleed, colours and PDF/X, so the file is what that shop takes, as the README says."""
        from printshop.render.pdfx import make_pdfx
        from printshop.render.press import press_art, press_paints, render_press_sheet
        from printshop.render.press_art import icc_file

        project = self.project
        profile = project.profiles[project.media.print_and_play.press_profile]
        data, pages = render_press_sheet(
            self.layout,
            press_pages(sheet, profile.page_order),
            profile,
            press_paints(project.colours.palette, profile),
            project.motifs.motifs,
            press_art(profile),
        )
        return (
            make_pdfx(data, profile.pdfx, icc_file(profile.colour.icc))
            if profile.pdfx is not None
            else data
        ), pages

    def _tasks(self) -> list[tuple[bool, Callable[[], None]]]:
        """The kit's files but the how-to page, in order: (whether a helper may take it, what renders it). A
        helper takes the rules, A5 and imposed (the second is quick once the first has measured the booklet):
        independent of the rest, and a third to a half of a kit's time."""
        layout, paper_id, options = self.layout, self.job.paper, self.options
        project, motifs = self.project, self.project.motifs.motifs
        tasks: list[tuple[bool, Callable[[], None]]] = []
        for deck in layout.decks:
            tasks.append(
                (
                    False,
                    partial(
                        self.render,
                        deck.id,
                        paper_id,
                        lambda s, deck=deck: render_card_sheets(layout, deck, s),
                        deck.deck.where("card_size"),
                        f"{deck.id} on {{paper}}",
                        deck_kind(deck),
                    ),
                )
            )
            if options.gutterfold:
                tasks.append(
                    (
                        False,
                        partial(
                            self.render,
                            f"{deck.id}-gutterfold",
                            paper_id,
                            lambda s, deck=deck: render_gutterfold(layout, deck, s),
                            deck.deck.where("card_size"),
                            f"{deck.id}, gutterfold on {{paper}}: fold, glue, cut",
                            "gutterfold",
                        ),
                    )
                )
        for sheet in layout.sheets:
            kind = "tiled" if sheet.spec.tiled else "sheet"
            tasks.append(
                (
                    False,
                    partial(
                        self.render,
                        sheet.id,
                        paper_id,
                        lambda s, sheet=sheet: render_sheet(layout, sheet, s),
                        sheet.spec.where(),
                        f"{sheet.id} {kind} on {{paper}}",
                        sheet_kind(sheet),
                    ),
                )
            )
            if sheet.spec.press and self.job.extras:
                tasks.append(
                    (
                        False,
                        partial(
                            self.render,
                            sheet.id,
                            "press",
                            lambda s, sheet=sheet: self.press_sheet(sheet),
                            sheet.spec.where("press"),
                            f"{sheet.id}, one press page with bleed",
                        ),
                    )
                )
        if layout.booklet is not None:
            booklet_paper = project.booklet.paper
            page = project.media.papers[booklet_paper]
            where = project.booklet.where("paper")
            from printshop.render.imposed_booklet import (
                impose_saddle_stitch,
            )  # pikepdf: only for a booklet

            # the A5 rules: written by one paper's job, listed on every paper's how-to page (the others
            # only count its pages)
            tasks.append(
                (
                    True,
                    partial(
                        self.render,
                        "rules",
                        booklet_paper,
                        (
                            lambda s: render_booklet(
                                layout, layout.booklet, s.paper, s.paints, motifs, s.file_name
                            )
                        )
                        if self.job.extras
                        else (
                            lambda s: (
                                b"",
                                booklet_pages(layout, layout.booklet, s.paper, s.paints, motifs),
                            )
                        ),
                        where,
                        "rules booklet, {paper}",
                        "rules",
                        keep=self.job.extras,
                    ),
                )
            )
            tasks.append(
                (
                    True,
                    partial(
                        self.render,
                        "rules-booklet",
                        paper_id,  # the same booklet imposed for saddle stitching at home
                        lambda s: impose_saddle_stitch(
                            render_booklet(
                                layout,
                                layout.booklet,
                                page,
                                s.paints,
                                motifs,
                                s.file_name,
                                pad_to=4,
                            )[0],
                            s.paper,
                            f"{layout.title}: {layout.localized.label('rules')}",
                        ),
                        where,
                        "rules as a saddle-stitched booklet on {paper}: print double-sided, flip on the short edge, "
                        "fold, staple",
                        "rules-booklet",
                    ),
                )
            )
        return tasks

    def _run_tasks(self, tasks: list[tuple[bool, Callable[[], None]]]) -> None:
        """Render the tasks, in order; where the build allows a helper (render/helper.py) and there is work on
        both sides, a forked helper renders those it may take while this process renders the others. The
        files, the how-to page's list and the diagnostics come out in the tasks' order either way."""
        from printshop.render.helper import Helper, allowing_helpers, helpers_allowed

        theirs = [index for index, (movable, _) in enumerate(tasks) if movable]
        if not helpers_allowed.get() or not theirs or len(theirs) == len(tasks):
            for _, task in tasks:
                task()
            return
        done: dict[int, tuple] = {}
        before = len(self.kit), len(self.result.outputs), len(self.report.items)

        def captured(index: int) -> tuple:
            """(kit files, kept files, diagnostics) that task `index` adds."""
            marks = len(self.kit), len(self.result.outputs), len(self.report.items)
            tasks[index][1]()
            return (
                self.kit[marks[0] :],
                self.result.outputs[marks[1] :],
                self.report.items[marks[2] :],
            )

        self.say(f"rendering {len(theirs)} of the kit's files in a second process")
        say, self.say = (
            self.say,
            lambda message: None,
        )  # (the helper's messages would interleave with these)
        try:
            helper = Helper(theirs, lambda indices: {index: captured(index) for index in indices})
        finally:
            self.say = say
        try:
            with allowing_helpers(
                False
            ):  # a card sheets' helper would make three processes on two cores
                for index in range(len(tasks)):
                    if index not in theirs:
                        done[index] = captured(index)
            answer = helper.answer()
        finally:
            helper.close()
        for index in theirs:  # a helper that failed: its tasks rendered here
            found = answer.get(index) if isinstance(answer, dict) else None
            done[index] = found if found is not None else captured(index)
        del self.kit[before[0] :], self.result.outputs[before[1] :], self.report.items[before[2] :]
        for index in range(len(tasks)):
            kit, outputs, diagnostics = done[index]
            self.kit.extend(kit)
            self.result.outputs.extend(outputs)
            self.report.items.extend(diagnostics)

    def run(self) -> None:
        self._run_tasks(self._tasks())
        layout, paper_id, options = self.layout, self.job.paper, self.options
        project, motifs = self.project, self.project.motifs.motifs
        files = [
            KitFile(output.path.name, output.pages, output.kind)
            for output in self.kit
            if output.kind
        ]
        calibration = f"duplex-calibration-{layout.lang}-{paper_id}.pdf"
        self.render(
            "how-to-print",
            paper_id,
            lambda s: render_how_to_print(
                layout,
                files,
                s.paper,
                project.booklet,
                s.paints,
                motifs,
                self.env,
                s.file_name,
                flip=options.flip,
                calibration=calibration,
                low_ink=options.low_ink,
            ),
            template_location(self.env, HOW_TO_TEMPLATE),
            "how to print and cut, {paper}",
        )  # (printshop's
        # own page unless the project has its own: the file that is there)


def _calibration(job: Job, project, result: JobResult) -> None:
    media, language = project.media, project.languages[job.lang]
    paper = media.papers[job.paper]
    path = Path("calibration") / f"duplex-calibration-{job.lang}-{job.paper}.pdf"
    from printshop.language.texts import apply_typography

    words = {
        name: apply_typography(
            language.labels.get(name, default), language.typography
        )  # French : and « »
        for name, default in (("calibration_title", "Duplex calibration"), ("calibration", ""))
    }
    data, pages = render_calibration(
        paper,
        media,
        Paints(project.colours.palette),
        words["calibration_title"],
        words["calibration"],
        job.lang,
    )
    result.outputs.append(Output(path, data, pages, f"duplex calibration, {paper.label}"))


class _Press:
    """Press files for one print-shop profile: decks (one PDF per deck or per card size, or one image
    per face), press sheets, the booklet balanced to a multiple of four pages, in the profile's colours."""

    def __init__(
        self, project, layout: GameLayout, profile_name: str, report: Report, result: JobResult, say
    ):
        from printshop.render.press import press_art, press_paints

        self.project, self.layout, self.name = project, layout, profile_name
        self.profile = project.profiles[profile_name]
        self.report, self.result, self.say = report, result, say
        self.paints = press_paints(project.colours.palette, self.profile)
        self.art = press_art(self.profile)
        self.manifest: list[dict] = []  # one entry per file written, for manifest.json
        self.base = Path(layout.game_id) / layout.lang / "press" / profile_name
        variant = layout.localized.variant
        self.stem = f"{layout.game_id}-{layout.lang}" + (f"-{variant}" if variant else "")

    def trim(self, deck):
        return self.project.media.card_sizes[self.profile.product(deck.deck.card_size).trim]

    def emit(self, file: str, draw, description: str, product: dict) -> None:
        path = self.base / f"{self.stem}-{file}.pdf"
        self.say(f"rendering {path}")
        from printshop.render.pdfx import make_pdfx
        from printshop.render.press_art import icc_file

        try:
            data, pages = draw()
            if self.profile.pdfx is not None:
                data = make_pdfx(data, self.profile.pdfx, icc_file(self.profile.colour.icc))
        except Exception as error:  # noqa: BLE001 - reported against the game, never a traceback
            _render_failed(self.report, self.layout, path, error)
            return
        self.result.outputs.append(Output(path, data, pages, description))
        self.manifest.append({"file": path.name, **product, "pages": pages})

    def run(self) -> None:
        from printshop.render.press import (
            render_face_images,
            render_press_cards,
            render_press_sheet,
        )

        project, layout, profile, paints = self.project, self.layout, self.profile, self.paints
        media, motifs = project.media, project.motifs.motifs
        skipped = left_out(layout.localized.data.game, profile)
        for item in (
            skipped
        ):  # validate has warned (press-left-out); the log says it again where it happens
            if item.warn:
                self.say(
                    f"{layout.game_id}: {item.what} left out of {profile.label}'s files: {item.why}"
                )
        decks = [deck for deck in layout.decks if takes_deck(profile, deck.deck.card_size)]
        if profile.files == "png-per-face":
            for deck in decks:
                self.say(f"rendering {self.base / deck.id} images")
                try:
                    images = render_face_images(
                        layout, deck, profile, self.trim(deck), paints, motifs
                    )
                except Exception as error:  # noqa: BLE001
                    _render_failed(self.report, layout, self.base / deck.id, error)
                    continue
                self.result.outputs.extend(
                    Output(
                        self.base / f"{self.stem}-{file_name}",
                        data,
                        1,
                        f"{deck.id}: {profile.label}",
                    )
                    for file_name, data in images
                )
                self.manifest.extend(
                    {
                        "file": f"{self.stem}-{file_name}",
                        **self.card_product([deck]),
                        "pages": 1,
                        "pixels": [profile.pixels.width, profile.pixels.height],
                    }
                    for file_name, _ in images
                )
            self.write_manifest(skipped)
            return  # image shops take card faces only
        groups: dict[str, list] = {}
        for deck in decks:
            key = (
                deck.id
                if profile.files in ("pdf-per-deck", "pdf-fronts-backs")
                else deck.deck.card_size
            )
            groups.setdefault(key, []).append(deck)
        for key, group in groups.items():
            if profile.files != "pdf-fronts-backs":
                self.emit(
                    key,
                    lambda group=group, key=key: render_press_cards(
                        layout, group, profile, self.trim(group[0]), paints, motifs, key, self.art
                    ),
                    f"{key}: {profile.label}",
                    self.card_product(group),
                )
                continue
            # a file of fronts and one of backs, card n on page n of each; one-sided decks have fronts only
            two_sided = any(back for deck in group for _, back in deck.cards)
            for side in ("front", "back") if two_sided else ("front",):
                self.emit(
                    f"{key}-{side}s",
                    lambda group=group, key=key, side=side: render_press_cards(
                        layout,
                        group,
                        profile,
                        self.trim(group[0]),
                        paints,
                        motifs,
                        f"{key}, {side}s",
                        self.art,
                        side,
                    ),
                    f"{key}, {side}s: {profile.label}",
                    {**self.card_product(group), "side": side},
                )
        for sheet in layout.sheets:
            if sheet.spec.press and takes_sheets(
                profile
            ):  # too little bleed is an error validate has reported
                self.emit(
                    sheet.id,
                    lambda sheet=sheet: render_press_sheet(
                        layout,
                        press_pages(sheet, profile.page_order),
                        profile,
                        paints,
                        motifs,
                        self.art,
                    ),
                    f"{sheet.id}: {profile.label}",
                    {
                        "product": "sheet",
                        "items": [sheet.id],
                        "trim_mm": _mm(sheet.spec.width, sheet.spec.height),
                    },
                )
        if layout.booklet is not None:
            paper = media.papers[project.booklet.paper]
            self.emit(
                "rules",
                lambda: render_booklet(
                    layout,
                    layout.booklet,
                    paper,
                    paints,
                    motifs,
                    f"{self.stem}-rules.pdf",
                    pad_to=4,
                    bleed=profile.bleed,
                ),
                f"rules booklet, pages balanced to a multiple of 4: {profile.label}",
                {
                    "product": "booklet",
                    "items": ["rules"],
                    "trim_mm": _mm(paper.width, paper.height),
                },
            )
        self.write_manifest(skipped)

    def card_product(self, decks) -> dict:
        """What the shop makes of these decks: its product (a card size) and that size's trim."""
        trim_name = self.profile.product(decks[0].deck.card_size).trim
        trim = self.project.media.card_sizes[trim_name]
        return {
            "product": trim_name,
            "items": [deck.id for deck in decks],
            "trim_mm": _mm(trim.width, trim.height),
        }

    def write_manifest(self, skipped) -> None:
        """manifest.json in the profile's folder: every file with its product, pages and trim, and
        everything of the game this shop's files leave out, with why. Same input, same bytes."""
        profile = self.profile
        document = {
            "profile": self.name,
            "label": profile.label,
            "game": self.layout.game_id,
            "lang": self.layout.lang,
            "variant": self.layout.localized.variant,
            "bleed_mm": round(profile.bleed * 25.4 / 72, 3),
            "files": self.manifest,
            "left_out": [
                {
                    "kind": item.kind,
                    "id": item.id,
                    "why": item.why,
                    **(
                        {"acknowledged": profile.leaves_out[item.key]}
                        if item.key in profile.leaves_out
                        else {}
                    ),
                }
                for item in skipped
            ],
        }
        data = (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
        self.result.outputs.append(
            Output(self.base / "manifest.json", data, 0, f"list of the files: {profile.label}")
        )


def _mm(width: float, height: float) -> list[float]:
    return [round(width * 25.4 / 72, 2), round(height * 25.4 / 72, 2)]


class _Export:
    """Files from the laid-out faces that are no paper kit: Tabletop Simulator, print-and-cut pages with
    their cut files, image sets. In RGB, as screens and home printers take them."""

    def __init__(
        self, project, layout: GameLayout, job: Job, report: Report, result: JobResult, say
    ):
        self.project, self.layout, self.job = project, layout, job
        self.report, self.result, self.say = report, result, say
        self.paints = Paints(project.colours.palette)
        self.motifs = project.motifs.motifs
        variant = layout.localized.variant
        self.stem = f"{layout.game_id}-{layout.lang}" + (f"-{variant}" if variant else "")
        self.base = Path(layout.game_id) / layout.lang

    def add(self, folder: Path, file_name: str, data: bytes, pages: int, description: str) -> None:
        self.result.outputs.append(Output(folder / file_name, data, pages, description))

    def run(self) -> None:
        target = self.job.target
        where = self.base / (self.job.profile if target != "cut" else f"cut/{self.job.profile}")
        self.say(f"rendering {where}")
        try:
            if target == "tts":
                self.tts()
            elif target == "cut":
                self.cut()
            else:
                self.images()
        except TemplateFailure as failure:
            self.report.add(
                "template", failure.location, f"{failure} ({target}, language {self.layout.lang})"
            )
        except Exception as error:  # noqa: BLE001 - reported against the game, never a traceback
            _render_failed(self.report, self.layout, where, error)

    def missing(self, relative: str, what: str) -> None:
        self.report.add(
            "file-missing",
            Location.of(Path(self.project.data_dir) / relative),
            f"{what}: there is no {relative}",
        )

    def tts(self) -> None:
        from printshop.render.tts import render_tts

        target = self.project.targets.tts
        if target is None:
            self.missing("print/targets/tts.yaml", "--target tts")
            return
        folder = self.base / "tts"
        for name, data, description in render_tts(
            self.layout, target, self.paints, self.motifs, self.stem
        ):
            self.add(
                folder,
                name,
                data,
                1 if name.endswith(".png") else 0,
                f"{description}: {target.label}",
            )

    def cut(self) -> None:
        from printshop.render.cut import cut_svg, page_images, render_cut_pages

        name, paper_id = self.job.profile, self.job.paper
        target = self.project.targets.cutters.get(name)
        if target is None:
            self.missing(f"print/targets/cut/{name}.yaml", f"--cutter {name}")
            return
        if paper_id not in target.papers:
            return  # this cutter's pages are not laid out for this paper (its `papers`)
        paper = self.project.media.papers[paper_id]
        folder = self.base / "cut" / name
        for deck in self.layout.decks:
            stem = f"{self.stem}-{deck.id}-{paper_id}"
            try:
                data, pages, trims, grid, fronts = render_cut_pages(
                    self.layout, deck, paper, target, self.paints, self.motifs, f"{stem}.pdf"
                )
            except (
                ImpositionError
            ) as error:  # (validate said so: cut-left-out, a warning; the other decks are cut)
                self.report.add(
                    "cut-left-out",
                    deck.deck.where("card_size"),
                    f"deck '{deck.id}', {name}: {error} on {paper.label or paper_id}: its cut files "
                    f"leave the deck out",
                )
                continue
            self.add(
                folder,
                f"{stem}.pdf",
                data,
                pages,
                f"{deck.id}: pages to print and cut, {target.label}, {paper.label}",
            )
            for number, page_trims in enumerate(trims, start=1):
                self.add(
                    folder,
                    f"{stem}-{number:02d}.svg",
                    cut_svg(
                        page_trims,
                        grid,
                        deck.size.corner_radius,
                        target.outline_colour,
                        f"{stem}.pdf, page {fronts[number - 1] + 1}: cut lines",
                    ),
                    0,
                    f"{deck.id}: cut lines of page {fronts[number - 1] + 1}, {target.label}",
                )
            if target.image_dpi:
                for number, image in enumerate(
                    page_images(data, fronts, target.image_dpi), start=1
                ):
                    self.add(
                        folder,
                        f"{stem}-{number:02d}.png",
                        image,
                        1,
                        f"{deck.id}: page {number} as an image to upload, {target.label}",
                    )

    def images(self) -> None:
        from printshop.render.preview import render_image_set

        name = self.job.profile
        target = self.project.targets.images.get(name)
        if target is None:
            self.missing(f"print/targets/images/{name}.yaml", f"image set {name}")
            return
        folder = self.base / name
        for file_name, data, description in render_image_set(
            self.layout, target, self.paints, self.motifs, self.stem
        ):
            self.add(folder, file_name, data, 1, description)
