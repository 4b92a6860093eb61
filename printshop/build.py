"""The pipeline, end to end: load -> resolve the language -> validate -> lay out -> render -> write.

`check` runs the stages up to layout and returns the diagnostics (what `printshop validate`
prints). `build` runs them all, and writes nothing unless every game in every requested
language laid out without errors and rendered.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from printshop.colour import ColourMode, Paints
from printshop.render.pdfx import make_pdfx
from printshop.render.press import render_face_images, render_press_cards
from printshop.diagnostics import Location, Report, StageFailed
from printshop.fonts import FontSet, register_fonts
from printshop.imposition import ImpositionError
from printshop.layout import GameLayout, lay_out_game
from printshop.loader import DEFAULT_DATA_DIR, Project, load_project
from printshop.render.booklet import render_booklet
from printshop.render.calibration import render_calibration
from printshop.render.gutterfold import render_gutterfold
from printshop.render.how_to_print import TEMPLATE as HOW_TO_TEMPLATE, KitFile, TooLong, render_how_to_print
from printshop.render.imposed_booklet import impose_saddle_stitch
from printshop.render.sheet_pages import render_press_sheet, render_sheet
from printshop.render.sheets import SheetSettings, render_card_sheets
from printshop.resolve import localize
from printshop.templating import TemplateFailure, make_environment
from printshop.validate import validate_project
from printshop.write import write_atomically

Progress = Callable[[str], None]
ALL_VARIANTS = "*"


@dataclass
class Output:
    path: Path  # relative to the output folder
    data: bytes
    pages: int
    description: str
    kind: str = ""  # what the kit's how-to-print sheet says to do with it (see render/how_to_print.py)


@dataclass
class Result:
    report: Report
    outputs: list[Output] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Checked:
    project: Project
    fonts: FontSet
    layouts: list[GameLayout]


def check(data_dir: Path = DEFAULT_DATA_DIR, *, games: list[str] | None = None, langs: list[str] | None = None,
          templates_dir: Path | None = None, report: Report | None = None,
          variant: str | None = ALL_VARIANTS) -> tuple[Report, Checked | None]:
    """Load, validate and lay out; never raises for bad data. By default every naming variant of every
    game is laid out too (names change lengths); `variant=None` lays out the default names only, and
    a name lays out that variant for the games that have it."""
    report = report if report is not None else Report()
    try:
        project = load_project(Path(data_dir), templates_dir, games=games, report=report)
    except StageFailed:
        return report, None
    except Exception as error:  # noqa: BLE001 - an unforeseen failure is still reported, not thrown
        report.add("internal", Location.of(data_dir), f"loading failed unexpectedly: {type(error).__name__}: {error}")
        return report, None
    try:
        validate_project(project, report)
    except Exception as error:  # noqa: BLE001
        report.add("internal", Location.of(data_dir), f"validation failed unexpectedly: {type(error).__name__}: {error}")
        return report, None
    fonts = register_fonts(project.fonts, project.font_dirs(), report)
    env = make_environment(project.templates_dir)
    layouts = []
    for game in project.games.values():
        if variant == ALL_VARIANTS:
            chosen = [None, *game.game.variants]
        else:
            chosen = [variant if variant in game.game.variants else None]
        for lang in game.languages:
            for name in (chosen if langs is None or lang in langs else []):
                try:
                    layouts.append(lay_out_game(project, localize(project, game, lang, name), fonts, env, report))
                except Exception as error:  # noqa: BLE001 - a diagnostic naming the game, never a traceback
                    report.add("internal", Location.of(game.dir),
                               f"laying out {game.id} ({lang}) failed unexpectedly: {type(error).__name__}: {error}")
    return report, Checked(project, fonts, layouts)


def output_name(game_id: str, lang: str, what: str, paper: str, variant: str | None = None) -> Path:
    """Deterministic names: output/<game>/<lang>/<game>-<lang>[-<variant>]-<what>-<paper>.pdf"""
    middle = f"{lang}-{variant}" if variant else lang
    return Path(game_id) / lang / f"{game_id}-{middle}-{what}-{paper}.pdf"


def render_all(checked: Checked, papers: list[str] | None, report: Report, progress: Progress,
               flip: str = "long-edge", back_offset: tuple[float, float] = (0.0, 0.0),
               gutterfold: bool = False, low_ink: bool = False) -> list[Output]:
    project = checked.project
    media, palette, motifs = project.media, project.colours.palette, project.motifs.motifs
    chosen = papers or media.print_and_play.papers
    outputs: list[Output] = []
    env = make_environment(project.templates_dir)

    def render(layout: GameLayout, what: str, paper_id: str, draw, where: Location, description: str,
               kind: str = "") -> None:
        """Render one file; a failure is reported against the data (`where`) or the game, never raised."""
        path = output_name(layout.game_id, layout.lang, what + ("-lowink" if low_ink else ""), paper_id,
                           layout.localized.variant)
        progress(f"rendering {path}")
        paper = media.papers.get(paper_id) or media.papers[chosen[0]]
        settings = SheetSettings(paper_id, paper, media, Paints(palette, ColourMode(low_ink=low_ink)), motifs,
                                 path.name, flip, back_offset)
        try:
            data, pages = draw(settings)
        except ImpositionError as error:
            report.add("unknown-reference", where, f"{what} on {paper_id}: {error}")
            return
        except TooLong as error:
            report.add("text-overflow", where, f"{error}: shorten the how-to labels in data/languages/{layout.lang}.yaml")
            return
        except TemplateFailure as failure:
            report.add("template", failure.location, f"{failure} ({what}, language {layout.lang})")
            return
        except Exception as error:  # noqa: BLE001 - e.g. a table too large for a page
            _render_failed(report, layout, path, error)
            return
        outputs.append(Output(path, data, pages, description.format(paper=paper.label), kind))

    for layout in checked.layouts:
        first_output = len(outputs)
        for deck in layout.decks:
            for paper_id in chosen:
                render(layout, deck.id, paper_id, lambda s, deck=deck: render_card_sheets(layout, deck, s),
                       deck.deck.where("card_size"), f"{deck.id} on {{paper}}",
                       "cards" if deck.deck.back or any(back for _, back in deck.cards) else "cards-one-sided")
                if gutterfold:
                    render(layout, f"{deck.id}-gutterfold", paper_id,
                           lambda s, deck=deck: render_gutterfold(layout, deck, s), deck.deck.where("card_size"),
                           f"{deck.id}, gutterfold on {{paper}}: fold, glue, cut", "gutterfold")
        for sheet in layout.sheets:
            kind = "tiled" if sheet.spec.tiled else "sheet"
            for paper_id in chosen:
                render(layout, sheet.id, paper_id, lambda s, sheet=sheet: render_sheet(layout, sheet, s),
                       sheet.spec.where(), f"{sheet.id} {kind} on {{paper}}",
                       "tiled" if sheet.spec.tiled else "sheet-pairs" if sheet.spec.per_page == 2 else "sheet")
            if sheet.spec.press:
                render(layout, sheet.id, "press", lambda s, sheet=sheet: render_press_sheet(layout, sheet, s),
                       sheet.spec.where("press"), f"{sheet.id}, one press page with bleed")
        if layout.booklet is not None:
            paper_id = project.booklet.paper
            render(layout, "rules", paper_id, lambda s: render_booklet(layout, layout.booklet, s.paper, s.paints,
                                                                        motifs, s.file_name),
                   project.booklet.where("paper"), "rules booklet, {paper}", "rules")
            page = media.papers[paper_id]
            for sheet_paper in chosen:  # the same booklet imposed for saddle stitching at home
                render(layout, "rules-booklet", sheet_paper,
                       lambda s: impose_saddle_stitch(
                           render_booklet(layout, layout.booklet, page, s.paints, motifs, s.file_name, pad_to=4)[0],
                           s.paper, f"{layout.title}: {layout.localized.label('rules')}"),
                       project.booklet.where("paper"),
                       "rules as a saddle-stitched booklet on {paper}: print double-sided, flip on the short edge, fold, staple",
                       "rules-booklet")
        kit = outputs[first_output:]
        for paper_id in chosen:  # the how-to-print sheet: what to do with each file of this kit on this paper
            files = [KitFile(o.path.name, o.pages, o.kind) for o in kit
                     if o.kind and (o.path.stem.endswith(f"-{paper_id}") or o.kind == "rules")]
            calibration = f"duplex-calibration-{layout.lang}-{paper_id}.pdf"
            render(layout, "how-to-print", paper_id,
                   lambda s, files=files, calibration=calibration: render_how_to_print(
                       layout, files, s.paper, project.booklet, s.paints, motifs, env, s.file_name, flip=flip,
                       calibration=calibration, low_ink=low_ink),
                   Location.of(Path(project.templates_dir) / HOW_TO_TEMPLATE), "how to print and cut, {paper}")
    for lang in sorted({layout.lang for layout in checked.layouts}):  # one calibration page per language
        language = project.languages[lang]
        for paper_id in chosen:
            path = Path("calibration") / f"duplex-calibration-{lang}-{paper_id}.pdf"
            progress(f"rendering {path}")
            data, pages = render_calibration(media.papers[paper_id], media, Paints(palette),
                                             language.labels.get("calibration_title", "Duplex calibration"),
                                             language.labels.get("calibration", ""), lang)
            outputs.append(Output(path, data, pages, f"duplex calibration, {media.papers[paper_id].label}"))
    return outputs


def render_press(checked: Checked, profiles: list[str], report: Report, progress: Progress) -> list[Output]:
    """Press files for each profile: decks (one PDF per deck or per card size), press sheets, booklets
    padded to a multiple of four pages, all in the profile's colours."""
    project = checked.project
    media, motifs = project.media, project.motifs.motifs
    outputs: list[Output] = []
    for name in profiles:
        profile = project.profiles[name]
        mode = ColourMode(profile.colour.space, profile.colour.ink_limit,
                          tuple(profile.colour.rich_black) if profile.colour.rich_black else None)
        paints = Paints(project.colours.palette, mode)

        def trim(deck, profile=profile):
            return media.card_sizes[profile.product(deck.deck.card_size).trim]
        for layout in checked.layouts:
            base = Path(layout.game_id) / layout.lang / "press" / name
            stem = f"{layout.game_id}-{layout.lang}" + (f"-{layout.localized.variant}" if layout.localized.variant else "")

            def emit(file: str, draw, description: str) -> None:
                path = base / f"{stem}-{file}.pdf"
                progress(f"rendering {path}")
                try:
                    data, pages = draw()
                    if profile.pdfx is not None:
                        data = make_pdfx(data, profile.pdfx)
                except Exception as error:  # noqa: BLE001 - reported against the game, never a traceback
                    _render_failed(report, layout, path, error)
                    return
                outputs.append(Output(path, data, pages, description))

            decks = []
            for deck in layout.decks:
                if profile.product(deck.deck.card_size) is None:
                    progress(f"{layout.game_id}: {profile.label} makes no {deck.deck.card_size}: '{deck.id}' left out")
                else:
                    decks.append(deck)
            if profile.files == "png-per-face":
                for deck in decks:
                    progress(f"rendering {base / deck.id} images")
                    try:
                        images = render_face_images(layout, deck, profile, trim(deck), paints, motifs)
                    except Exception as error:  # noqa: BLE001
                        _render_failed(report, layout, base / deck.id, error)
                        continue
                    for file_name, data in images:
                        outputs.append(Output(base / f"{stem}-{file_name}", data, 1, f"{deck.id}: {profile.label}"))
                continue  # image shops take card faces only
            groups: dict[str, list] = {}
            for deck in decks:
                key = deck.id if profile.files == "pdf-per-deck" else deck.deck.card_size
                groups.setdefault(key, []).append(deck)
            for key, group in groups.items():
                emit(key, lambda group=group, key=key: render_press_cards(layout, group, profile, trim(group[0]), paints,
                                                                          motifs, key),
                     f"{key}: {profile.label}")
            for sheet in layout.sheets:
                if sheet.spec.press and sheet.spec.bleed + 0.01 >= profile.bleed:
                    settings = SheetSettings("press", media.papers[media.print_and_play.papers[0]], media, paints,
                                             motifs, f"{stem}-{sheet.id}.pdf")
                    emit(sheet.id, lambda sheet=sheet, settings=settings: render_press_sheet(layout, sheet, settings,
                                                                                              profile.bleed),
                         f"{sheet.id}: {profile.label}")
            if layout.booklet is not None:
                paper = media.papers[project.booklet.paper]
                emit("rules", lambda paper=paper: render_booklet(layout, layout.booklet, paper, paints, motifs,
                                                                 f"{stem}-rules.pdf", pad_to=4,
                                                                 bleed=profile.bleed),
                     f"rules booklet, pages padded to a multiple of 4: {profile.label}")
    return outputs


def _render_failed(report: Report, layout: GameLayout, path: Path, error: Exception) -> None:
    report.add("internal", Location.of(layout.localized.data.dir),
               f"rendering {path} failed: {type(error).__name__}: {error}")


def build(data_dir: Path = DEFAULT_DATA_DIR, out_dir: Path = Path("output"), *, games: list[str] | None = None,
          langs: list[str] | None = None, papers: list[str] | None = None, templates_dir: Path | None = None,
          variant: str | None = None, target: str = "pnp", profiles: list[str] | None = None,
          flip: str = "long-edge", back_offset: tuple[float, float] = (0.0, 0.0), gutterfold: bool = False,
          low_ink: bool = False, progress: Progress = lambda message: None) -> Result:
    """Build print-and-play files (`target="pnp"`) or press files for print-shop `profiles`
    (`target="shop"`; all profiles when None). Nothing is written unless everything rendered."""
    started = time.monotonic()
    progress("checking data and laying out")
    report, checked = check(data_dir, games=games, langs=langs, templates_dir=templates_dir, variant=variant)
    result = Result(report)
    if checked is None or report.has_errors:
        return result
    if papers:
        for paper in papers:
            if paper not in checked.project.media.papers:
                report.add("unknown-reference", checked.project.media.where("papers"), f"no paper '{paper}'")
        if report.has_errors:
            return result
    if target == "shop":
        chosen = profiles or sorted(checked.project.profiles)
        unknown = [name for name in chosen if name not in checked.project.profiles]
        if unknown:
            report.add("unknown-reference", Location.of(Path(data_dir) / "print" / "profiles"),
                       f"no print-shop profile {', '.join(unknown)} (profiles: {', '.join(checked.project.profiles)})")
            return result
        result.outputs = render_press(checked, chosen, report, progress)
    else:
        result.outputs = render_all(checked, papers, report, progress, flip, back_offset, gutterfold, low_ink)
    if report.has_errors:
        return result
    for output in result.outputs:  # only now, with every file rendered, does anything reach the disk
        target = Path(out_dir) / output.path
        write_atomically(target, output.data)
        result.written.append(target)
    result.seconds = time.monotonic() - started
    return result
