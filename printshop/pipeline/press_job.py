"""A press job: the files one print-shop profile takes (decks, press sheets, tuck boxes, the
booklet, manifest.json), in the profile's colours and art."""

from __future__ import annotations

import json
from pathlib import Path

from printshop.diagnostics import Report
from printshop.layout.plan import GameLayout
from printshop.layout.press_plan import left_out, takes_deck, takes_sheets
from printshop.pipeline.plan import JobResult, Output, render_failed
from printshop.render.booklet import render_booklet
from printshop.render.sheet_pages import press_pages


class PressJob:
    """Press files for one print-shop profile: decks (one PDF per deck or per card size, or one
    image per face), press sheets, the booklet balanced to a multiple of four pages, in the
    profile's colours."""

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
            render_failed(self.report, self.layout, path, error)
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
        decks = [deck for deck in layout.printed_decks if takes_deck(profile, deck.deck.card_size)]
        if profile.files == "png-per-face":
            for deck in decks:
                self.say(f"rendering {self.base / deck.id} images")
                try:
                    images = render_face_images(
                        layout, deck, profile, self.trim(deck), paints, motifs
                    )
                except Exception as error:  # noqa: BLE001
                    render_failed(self.report, layout, self.base / deck.id, error)
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
            # a file of fronts and one of backs, card n on page n of each; one-sided decks have
            # fronts only
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
        for deck in decks:
            self.tuck_box(deck)
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

    def tuck_box(self, deck) -> None:
        """The deck's tuck box as a press page with its die line, when it asks for one."""
        from printshop.checks.tuck_boxes import deck_net
        from printshop.render.tuck_box import render_press_tuck_box

        net = deck_net(self.project, deck.deck)
        if net is None:
            return
        self.emit(
            f"{deck.id}-tuckbox",
            lambda: render_press_tuck_box(
                self.layout,
                deck,
                net,
                self.profile,
                self.paints,
                self.project.motifs.motifs,
                self.art,
            ),
            f"{deck.id}, tuck box with its die line: {self.profile.label}",
            {
                "product": "tuck-box",
                "items": [deck.id],
                "trim_mm": _mm(net.width, net.height),
                "dieline": {"cut": self.profile.dieline.cut, "crease": self.profile.dieline.crease},
            },
        )

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
