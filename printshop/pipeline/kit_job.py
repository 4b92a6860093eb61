"""A print-and-play kit job: card sheets, sheets, the rules imposed as a booklet and the
how-to-print page on one paper; and the duplex calibration page of a language and paper."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from printshop.diagnostics import Location, Report
from printshop.layout.imposition import ImpositionError
from printshop.layout.plan import GameLayout
from printshop.pipeline.plan import Job, JobResult, Output, render_failed
from printshop.pipeline.request import Options
from printshop.project.paths import output_name
from printshop.render.booklet import LEAVES, booklet_pages, render_booklet
from printshop.render.calibration import render_calibration
from printshop.render.colour import ColourMode, LowInkRules, Paints
from printshop.render.gutterfold import gutterfold_fault, render_gutterfold, two_sided
from printshop.render.how_to_print import TEMPLATE as HOW_TO_TEMPLATE
from printshop.render.how_to_print import (
    KitFile,
    TooLong,
    booklet_scale,
    deck_kind,
    render_how_to_print,
    sheet_kind,
)
from printshop.render.sheet_pages import press_pages, render_sheet
from printshop.render.sheets import SheetSettings, render_card_sheets
from printshop.render.tuck_box import render_tuck_box
from printshop.typeset.richtext import RichTextError
from printshop.typeset.templating import TemplateFailure, template_location


class KitJob:
    """A print-and-play kit on one paper: card sheets, sheets, the rules imposed as a booklet and
    the how-to-print page; with `extras`, also the A5 rules and press sheets, which need no paper."""

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
        """Render one file; a failure is reported against the data (`where`) or the game, never
        raised."""
        media, options, layout = self.project.media, self.options, self.layout
        # a press page is the shop's, in its colours whatever the home prints use: not named low-ink
        # (it is the file a build without --low-ink writes, byte for byte)
        suffix = ("-lowink" if options.low_ink and paper_id != "press" else "") + (
            "-draft" if layout.localized.draft else ""
        )
        path = output_name(
            layout.game_id, layout.lang, what + suffix, paper_id, layout.localized.variant
        )
        self.say(f"rendering {path}")
        paper = media.papers.get(paper_id) or media.papers[self.job.paper]
        paints = Paints(
            self.project.colours.palette,
            ColourMode(
                low_ink=options.low_ink,
                low_ink_rules=(
                    LowInkRules.of(media.print_and_play.low_ink)
                    if options.low_ink
                    else LowInkRules()  # (a plain kit's colours: the mode every other output has)
                ),
            ),
        )
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
            render_failed(self.report, layout, path, error)
            return
        output = Output(path, data, pages, description.format(paper=paper.label), kind)
        self.kit.append(output)
        if keep:
            self.result.outputs.append(output)

    def press_sheet(self, sheet) -> tuple[bytes, int]:
        """The kit's press pages follow one named profile (media.yaml's
        print_and_play.press_profile): its bleed, colours and PDF/X, so the file is what that shop
        takes, as the README says."""
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

    def press_page_count(self, sheet) -> int:
        """How many pages the sheet's press file has (one per face, as `press_sheet` draws them)."""
        profile = self.project.profiles[self.project.media.print_and_play.press_profile]
        return len(press_pages(sheet, profile.page_order).faces)

    def _folds(self, deck, paper_id: str) -> bool:
        """Whether --gutterfold makes `deck` a gutterfold file on this paper: not a one-sided deck
        (nothing to fold), and not one too large to fold on the paper, left out with a warning (as
        the cut target leaves out a deck its machine cannot hold) while the rest of the kit builds."""
        if not two_sided(deck):
            return False
        media = self.project.media
        paper = media.papers.get(paper_id) or media.papers[self.job.paper]
        fault = gutterfold_fault(deck, paper, media.print_and_play)
        if fault is not None:
            self.report.add(
                "gutterfold-left-out",
                deck.deck.where("card_size"),
                f"deck '{deck.id}' on {paper.label or paper_id}: {fault}: the kit has no gutterfold "
                f"file for it (print its card sheets double-sided)",
            )
        return fault is None

    def _tasks(self) -> list[tuple[bool, Callable[[], None]]]:
        """The kit's files but the how-to page, in order: (whether a helper may take it, what
        renders it). A helper takes the rules, A5 and imposed (the second is quick once the first
        has measured the booklet): independent of the rest, and a third to a half of a kit's time."""
        layout, paper_id, options = self.layout, self.job.paper or "", self.options
        project, motifs = self.project, self.project.motifs.motifs
        tasks: list[tuple[bool, Callable[[], None]]] = []
        for deck in layout.printed_decks:
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
            if options.gutterfold and self._folds(deck, paper_id):
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
            if deck.deck.tuck_box is not None:
                tasks.append(
                    (
                        False,
                        partial(
                            self.render,
                            f"{deck.id}-tuckbox",
                            paper_id,
                            lambda s, deck=deck: render_tuck_box(layout, deck, s, project),
                            deck.deck.where("tuck_box"),
                            f"{deck.id}, tuck box on {{paper}}: cut, fold, glue",
                            "tuck-box",  # listed on the how-to-print page
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
            if sheet.spec.press:
                # its press page: written by one paper's job, listed on every paper's how-to page
                # (the others only count its pages), as the A5 rules are
                tasks.append(
                    (
                        False,
                        partial(
                            self.render,
                            sheet.id,
                            "press",
                            (lambda s, sheet=sheet: self.press_sheet(sheet))
                            if self.job.extras
                            else (lambda s, sheet=sheet: (b"", self.press_page_count(sheet))),
                            sheet.spec.where("press"),
                            f"{sheet.id}, one press page with bleed",
                            "press",
                            keep=self.job.extras,
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

            # the A5 rules: written by one paper's job, listed on every paper's how-to page (the
            # others only count its pages)
            tasks.append(
                (
                    True,
                    partial(
                        self.render,
                        "rules",
                        booklet_paper,
                        (
                            lambda s: render_booklet(
                                layout,
                                layout.booklet,
                                s.paper,
                                s.paints,
                                motifs,
                                s.file_name,
                                pad_to=LEAVES,
                            )
                        )
                        if self.job.extras
                        else (
                            lambda s: (
                                b"",
                                booklet_pages(
                                    layout, layout.booklet, s.paper, s.paints, motifs, LEAVES
                                ),
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
        """Render the tasks, in order; where the build allows a helper (render/helper.py) and there
        is work on both sides, a forked helper renders those it may take while this process renders
        the others. The files, the how-to page's list and the diagnostics come out in the tasks'
        order either way."""
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
        layout, paper_id, options = self.layout, self.job.paper or "", self.options
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
                booklet_scale=booklet_scale(project.media.papers[project.booklet.paper], s.paper),
            ),
            template_location(self.env, HOW_TO_TEMPLATE),
            "how to print and cut, {paper}",
        )  # (printshop's
        # own page unless the project has its own: the file that is there)


def calibration(job: Job, project, result: JobResult) -> None:
    media, language = project.media, project.languages[job.lang]
    paper = media.papers[job.paper]
    path = Path("calibration") / f"duplex-calibration-{job.lang}-{job.paper}.pdf"
    from printshop.language.texts import apply_typography

    words = {
        name: apply_typography(
            language.labels.get(name, default), language.typography
        )  # French : and « »
        for name, default in (
            ("calibration_title", "Duplex calibration"),
            ("calibration", ""),
            ("calibration_back", ""),
            ("calibration_shift", ""),
        )
    }
    data, pages = render_calibration(
        paper,
        media,
        Paints(project.colours.palette),
        words["calibration_title"],
        words["calibration"],
        job.lang,
        words["calibration_back"],
        words["calibration_shift"],
    )
    result.outputs.append(Output(path, data, pages, f"duplex calibration, {paper.label}"))
