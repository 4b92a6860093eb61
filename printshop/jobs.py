"""A build as a list of independent jobs, and how each job renders its files.

A job is one game in one language (and naming variant) for one target and one paper or print-shop
profile: `comrade fr pnp a4`, `kremlin en shop drivethrucards`; plus one calibration job per
language and paper. Jobs share nothing but the checked project they read, so they run in any order,
in any process (build.py runs them across processes and serves unchanged ones from the cache).
A job never raises for bad data: what goes wrong is reported against the data or the game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from printshop.colour import ColourMode, Paints
from printshop.diagnostics import Location, Report
from printshop.imposition import ImpositionError
from printshop.layout import GameLayout
from printshop.render.booklet import render_booklet
from printshop.render.calibration import render_calibration
from printshop.render.gutterfold import render_gutterfold
from printshop.render.how_to_print import TEMPLATE as HOW_TO_TEMPLATE
from printshop.render.how_to_print import KitFile, TooLong, render_how_to_print
from printshop.render.imposed_booklet import impose_saddle_stitch
from printshop.render.pdfx import make_pdfx
from printshop.render.press import render_face_images, render_press_cards
from printshop.render.sheet_pages import render_press_sheet, render_sheet
from printshop.render.sheets import SheetSettings, render_card_sheets
from printshop.templating import TemplateFailure


@dataclass
class Output:
    path: Path  # relative to the output folder
    data: bytes
    pages: int
    description: str
    kind: str = ""  # what the kit's how-to-print sheet says to do with it (see render/how_to_print.py)


@dataclass(frozen=True)
class Options:
    """Build options that change what a job draws."""
    flip: str = "long-edge"
    back_offset: tuple[float, float] = (0.0, 0.0)
    gutterfold: bool = False
    low_ink: bool = False


@dataclass(frozen=True)
class Job:
    target: str  # "pnp", "calibration" or "shop"
    lang: str
    game: str | None = None
    variant: str | None = None
    paper: str | None = None  # pnp and calibration
    profile: str | None = None  # shop
    extras: bool = False  # pnp: also the files that need no paper (the A5 rules, press sheets)

    @property
    def label(self) -> str:
        parts = [self.game or "calibration", self.lang, self.variant, self.profile or self.paper]
        return " ".join(part for part in parts if part)


@dataclass
class JobResult:
    outputs: list[Output] = field(default_factory=list)
    diagnostics: list = field(default_factory=list)


def plan(layouts: list[GameLayout], target: str, papers: list[str], profiles: list[str]) -> list[Job]:
    """Every job of a build, in a fixed order (so `--shard` slices are stable)."""
    jobs = []
    for layout in layouts:
        variant = layout.localized.variant
        if target == "shop":
            jobs.extend(Job("shop", layout.lang, layout.game_id, variant, profile=name) for name in profiles)
        else:
            jobs.extend(Job("pnp", layout.lang, layout.game_id, variant, paper, extras=index == 0)
                        for index, paper in enumerate(papers))
    if target != "shop":
        for lang in sorted({layout.lang for layout in layouts}):
            jobs.extend(Job("calibration", lang, paper=paper) for paper in papers)
    return jobs


def output_name(game_id: str, lang: str, what: str, paper: str, variant: str | None = None) -> Path:
    """Deterministic names: output/<game>/<lang>/<game>-<lang>[-<variant>]-<what>-<paper>.pdf"""
    middle = f"{lang}-{variant}" if variant else lang
    return Path(game_id) / lang / f"{game_id}-{middle}-{what}-{paper}.pdf"


def run(job: Job, checked, options: Options, env, say=lambda message: None) -> JobResult:
    """Render one job's files. `checked` is build.Checked; `env` the templates' Jinja environment."""
    result = JobResult()
    report = Report()
    if job.target == "calibration":
        _calibration(job, checked.project, result)
    else:
        layout = next(layout for layout in checked.layouts if (layout.game_id, layout.lang, layout.localized.variant)
                      == (job.game, job.lang, job.variant))
        if job.target == "shop":
            _Press(checked.project, layout, job.profile, report, result, say).run()
        else:
            _Kit(checked.project, layout, job, options, env, report, result, say).run()
    result.diagnostics = list(report.items)
    return result


def _render_failed(report: Report, layout: GameLayout, path: Path, error: Exception) -> None:
    report.add("internal", Location.of(layout.localized.data.dir),
               f"rendering {path} failed: {type(error).__name__}: {error}")


class _Kit:
    """A print-and-play kit on one paper: card sheets, sheets, the rules imposed as a booklet and the
    how-to-print page; with `extras`, also the A5 rules and press sheets, which need no paper."""

    def __init__(self, project, layout: GameLayout, job: Job, options: Options, env, report: Report,
                 result: JobResult, say):
        self.project, self.layout, self.job, self.options = project, layout, job, options
        self.env, self.report, self.result, self.say = env, report, result, say
        self.kit: list[Output] = []  # this paper's files and the A5 rules, for the how-to page

    def render(self, what: str, paper_id: str, draw, where: Location, description: str, kind: str = "",
               keep: bool = True) -> None:
        """Render one file; a failure is reported against the data (`where`) or the game, never raised."""
        media, options, layout = self.project.media, self.options, self.layout
        path = output_name(layout.game_id, layout.lang, what + ("-lowink" if options.low_ink else ""), paper_id,
                           layout.localized.variant)
        self.say(f"rendering {path}")
        paper = media.papers.get(paper_id) or media.papers[self.job.paper]
        paints = Paints(self.project.colours.palette, ColourMode(low_ink=options.low_ink))
        settings = SheetSettings(paper_id, paper, media, paints, self.project.motifs.motifs, path.name, options.flip,
                                 options.back_offset)
        try:
            data, pages = draw(settings)
        except ImpositionError as error:
            self.report.add("unknown-reference", where, f"{what} on {paper_id}: {error}")
            return
        except TooLong as error:
            self.report.add("text-overflow", where,
                            f"{error}: shorten the how-to labels in data/languages/{layout.lang}.yaml")
            return
        except TemplateFailure as failure:
            self.report.add("template", failure.location, f"{failure} ({what}, language {layout.lang})")
            return
        except Exception as error:  # noqa: BLE001 - e.g. a table too large for a page
            _render_failed(self.report, layout, path, error)
            return
        output = Output(path, data, pages, description.format(paper=paper.label), kind)
        self.kit.append(output)
        if keep:
            self.result.outputs.append(output)

    def run(self) -> None:
        layout, paper_id, options = self.layout, self.job.paper, self.options
        project, motifs = self.project, self.project.motifs.motifs
        for deck in layout.decks:
            self.render(deck.id, paper_id, lambda s, deck=deck: render_card_sheets(layout, deck, s),
                        deck.deck.where("card_size"), f"{deck.id} on {{paper}}",
                        "cards" if deck.deck.back or any(back for _, back in deck.cards) else "cards-one-sided")
            if options.gutterfold:
                self.render(f"{deck.id}-gutterfold", paper_id,
                            lambda s, deck=deck: render_gutterfold(layout, deck, s), deck.deck.where("card_size"),
                            f"{deck.id}, gutterfold on {{paper}}: fold, glue, cut", "gutterfold")
        for sheet in layout.sheets:
            kind = "tiled" if sheet.spec.tiled else "sheet"
            self.render(sheet.id, paper_id, lambda s, sheet=sheet: render_sheet(layout, sheet, s),
                        sheet.spec.where(), f"{sheet.id} {kind} on {{paper}}",
                        "tiled" if sheet.spec.tiled else "sheet-pairs" if sheet.spec.per_page == 2 else "sheet")
            if sheet.spec.press and self.job.extras:
                self.render(sheet.id, "press", lambda s, sheet=sheet: render_press_sheet(layout, sheet, s),
                            sheet.spec.where("press"), f"{sheet.id}, one press page with bleed")
        if layout.booklet is not None:
            booklet_paper = project.booklet.paper
            page = project.media.papers[booklet_paper]
            where = project.booklet.where("paper")
            # the A5 rules: written by one paper's job, listed on every paper's how-to page
            self.render("rules", booklet_paper,
                        lambda s: render_booklet(layout, layout.booklet, s.paper, s.paints, motifs, s.file_name),
                        where, "rules booklet, {paper}", "rules", keep=self.job.extras)
            self.render("rules-booklet", paper_id,  # the same booklet imposed for saddle stitching at home
                        lambda s: impose_saddle_stitch(
                            render_booklet(layout, layout.booklet, page, s.paints, motifs, s.file_name, pad_to=4)[0],
                            s.paper, f"{layout.title}: {layout.localized.label('rules')}"),
                        where,
                        "rules as a saddle-stitched booklet on {paper}: print double-sided, flip on the short edge, "
                        "fold, staple", "rules-booklet")
        files = [KitFile(output.path.name, output.pages, output.kind) for output in self.kit if output.kind]
        calibration = f"duplex-calibration-{layout.lang}-{paper_id}.pdf"
        self.render("how-to-print", paper_id,
                    lambda s: render_how_to_print(layout, files, s.paper, project.booklet, s.paints, motifs, self.env,
                                                  s.file_name, flip=options.flip, calibration=calibration,
                                                  low_ink=options.low_ink),
                    Location.of(Path(project.templates_dir) / HOW_TO_TEMPLATE), "how to print and cut, {paper}")


def _calibration(job: Job, project, result: JobResult) -> None:
    media, language = project.media, project.languages[job.lang]
    paper = media.papers[job.paper]
    path = Path("calibration") / f"duplex-calibration-{job.lang}-{job.paper}.pdf"
    data, pages = render_calibration(paper, media, Paints(project.colours.palette),
                                     language.labels.get("calibration_title", "Duplex calibration"),
                                     language.labels.get("calibration", ""), job.lang)
    result.outputs.append(Output(path, data, pages, f"duplex calibration, {paper.label}"))


class _Press:
    """Press files for one print-shop profile: decks (one PDF per deck or per card size, or one image
    per face), press sheets, the booklet padded to a multiple of four pages, in the profile's colours."""

    def __init__(self, project, layout: GameLayout, profile_name: str, report: Report, result: JobResult, say):
        self.project, self.layout, self.name = project, layout, profile_name
        self.profile = project.profiles[profile_name]
        self.report, self.result, self.say = report, result, say
        colour = self.profile.colour
        mode = ColourMode(colour.space, colour.ink_limit, tuple(colour.rich_black) if colour.rich_black else None)
        self.paints = Paints(project.colours.palette, mode)
        self.base = Path(layout.game_id) / layout.lang / "press" / profile_name
        variant = layout.localized.variant
        self.stem = f"{layout.game_id}-{layout.lang}" + (f"-{variant}" if variant else "")

    def trim(self, deck):
        return self.project.media.card_sizes[self.profile.product(deck.deck.card_size).trim]

    def emit(self, file: str, draw, description: str) -> None:
        path = self.base / f"{self.stem}-{file}.pdf"
        self.say(f"rendering {path}")
        try:
            data, pages = draw()
            if self.profile.pdfx is not None:
                data = make_pdfx(data, self.profile.pdfx)
        except Exception as error:  # noqa: BLE001 - reported against the game, never a traceback
            _render_failed(self.report, self.layout, path, error)
            return
        self.result.outputs.append(Output(path, data, pages, description))

    def run(self) -> None:
        project, layout, profile, paints = self.project, self.layout, self.profile, self.paints
        media, motifs = project.media, project.motifs.motifs
        decks = []
        for deck in layout.decks:
            if profile.product(deck.deck.card_size) is None:
                self.say(f"{layout.game_id}: {profile.label} makes no {deck.deck.card_size}: '{deck.id}' left out")
            else:
                decks.append(deck)
        if profile.files == "png-per-face":
            for deck in decks:
                self.say(f"rendering {self.base / deck.id} images")
                try:
                    images = render_face_images(layout, deck, profile, self.trim(deck), paints, motifs)
                except Exception as error:  # noqa: BLE001
                    _render_failed(self.report, layout, self.base / deck.id, error)
                    continue
                self.result.outputs.extend(Output(self.base / f"{self.stem}-{file_name}", data, 1,
                                                  f"{deck.id}: {profile.label}") for file_name, data in images)
            return  # image shops take card faces only
        groups: dict[str, list] = {}
        for deck in decks:
            key = deck.id if profile.files == "pdf-per-deck" else deck.deck.card_size
            groups.setdefault(key, []).append(deck)
        for key, group in groups.items():
            self.emit(key, lambda group=group, key=key: render_press_cards(layout, group, profile, self.trim(group[0]),
                                                                           paints, motifs, key),
                      f"{key}: {profile.label}")
        for sheet in layout.sheets:
            if sheet.spec.press and sheet.spec.bleed + 0.01 >= profile.bleed:
                settings = SheetSettings("press", media.papers[media.print_and_play.papers[0]], media, paints,
                                         motifs, f"{self.stem}-{sheet.id}.pdf")
                self.emit(sheet.id, lambda sheet=sheet, settings=settings: render_press_sheet(layout, sheet, settings,
                                                                                               profile.bleed),
                          f"{sheet.id}: {profile.label}")
        if layout.booklet is not None:
            paper = media.papers[project.booklet.paper]
            self.emit("rules", lambda: render_booklet(layout, layout.booklet, paper, paints, motifs,
                                                      f"{self.stem}-rules.pdf", pad_to=4, bleed=profile.bleed),
                      f"rules booklet, pages padded to a multiple of 4: {profile.label}")
