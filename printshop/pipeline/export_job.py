"""An export job: Tabletop Simulator files, print-and-cut pages with their cut files, and image sets
(web previews, Tabletopia, Screentop), drawn from the laid-out faces in RGB, without a paper kit."""

from __future__ import annotations

from pathlib import Path

from printshop.diagnostics import Location, Report
from printshop.layout.imposition import ImpositionError
from printshop.layout.plan import GameLayout
from printshop.pipeline.plan import Job, JobResult, Output, render_failed
from printshop.render.colour import Paints
from printshop.typeset.templating import TemplateFailure


class ExportJob:
    """Files from the laid-out faces that are no paper kit: Tabletop Simulator, print-and-cut pages
    with their cut files, image sets. In RGB, as screens and home printers take them."""

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
        where = self.base / (
            self.job.made_for or "" if target != "cut" else f"cut/{self.job.made_for}"
        )
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
            render_failed(self.report, self.layout, where, error)

    def missing(self, relative: str, what: str) -> None:
        self.report.add(
            "file-missing",
            Location.of(Path(self.project.data_dir) / relative),
            f"{what}: there is no {relative}",
        )

    def tts(self) -> None:
        from printshop.render.tts import RulesPdf, render_tts

        target = self.project.targets.tts
        if target is None:
            self.missing("print/targets/tts.yaml", "--target tts")
            return
        folder = self.base / "tts"
        rules = None
        if target.rules and self.layout.booklet is not None:  # the booklet, to read on the table
            from printshop.render.booklet import render_booklet

            paper = self.project.media.papers[self.project.booklet.paper]
            name = f"{self.stem}-rules.pdf"
            data, pages = render_booklet(
                self.layout, self.layout.booklet, paper, self.paints, self.motifs, name
            )
            self.add(folder, name, data, pages, f"the rules, read on the table: {target.label}")
            rules = RulesPdf(name, paper.width, paper.height)
        for name, data, description in render_tts(
            self.layout, target, self.paints, self.motifs, self.stem, folder, rules
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

        name, paper_id = self.job.cutter or "", self.job.paper
        target = self.project.targets.cutters.get(name)
        if target is None:
            self.missing(f"print/targets/cut/{name}.yaml", f"--cutter {name}")
            return
        if paper_id not in target.papers:
            return  # this cutter's pages are not laid out for this paper (its `papers`)
        paper = self.project.media.papers[paper_id]
        folder = self.base / "cut" / name
        for deck in self.layout.printed_decks:
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

        name = self.job.image_set or ""
        target = self.project.targets.images.get(name)
        if target is None:
            self.missing(f"print/targets/images/{name}.yaml", f"image set {name}")
            return
        folder = self.base / name
        for file_name, data, description in render_image_set(
            self.layout, target, self.paints, self.motifs, self.stem
        ):
            self.add(folder, file_name, data, 1, description)
