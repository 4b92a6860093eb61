"""Laying out the games, each language a unit (a game x language x naming variant): `lay_out_units`
runs `LayOut` on each, in processes when the layouts need not be kept (validate), and says each
diagnostic once; a game's errors hold back no other game's measuring (`games_with_errors`)."""

from __future__ import annotations

import os

from printshop.diagnostics import Location, Report, Severity
from printshop.language.resolve import localize
from printshop.layout.game import lay_out_game
from printshop.layout.plan import GameLayout
from printshop.layout.problems import LAYOUT_CODES
from printshop.pipeline.workers import in_processes
from printshop.project.loader import Project
from printshop.project.paths import discover_games
from printshop.render.booklet import check_booklet_sets
from printshop.render.how_to_print import check_how_to_print
from printshop.typeset.fonts import FontSet
from printshop.typeset.templating import make_environment
from printshop.write import fitstore


class LayOut:
    """Lays out one unit (game, language, variant, draft percent) and checks its how-to-print page,
    into a report; a failure is a diagnostic naming the game, never a traceback."""

    def __init__(
        self,
        project: Project,
        fonts: FontSet,
        papers,
        *,
        unmeasured: frozenset[str],
        measure_booklets: bool = False,
    ):
        self.project, self.fonts, self.papers = project, fonts, papers
        self.env = make_environment(project.templates_dir)
        # the games whose kit pages are not measured (their data fails; ALL_GAMES: shared data)
        self.unmeasured = unmeasured
        # validate's: each booklet set as the build sets it (its covers' text, a block no page holds)
        self.measure_booklets = measure_booklets

    def __call__(self, unit, into: Report) -> GameLayout | None:
        game, lang, name, draft_percent = unit
        project, papers = self.project, self.papers
        try:
            seen = project.view(game)
            layout = lay_out_game(
                seen,
                localize(project, game, lang, name, draft_percent=draft_percent),
                self.fonts,
                self.env,
                into,
            )
            kit = [
                (paper, seen.media.papers[paper])
                for paper in (papers if papers is not None else seen.media.print_and_play.papers)
                if paper in seen.media.papers
            ]
            # the template, and each kit's page set (not when the data has errors already: the
            # booklet's styles or the labels it is set from are then what to mend, said once)
            measured = game.id not in self.unmeasured and ALL_GAMES not in self.unmeasured
            check_how_to_print(layout, seen, kit if measured else [], self.env, into)
            if self.measure_booklets and measured:
                check_booklet_sets(layout, seen, into)
            return layout
        except Exception as error:  # noqa: BLE001 - a diagnostic naming the game, never a traceback
            into.add(
                "internal",
                Location.of(game.dir),
                f"laying out {game.id} ({lang}) failed unexpectedly: {type(error).__name__}: {error}",
            )
            return None


ALL_GAMES = (
    "*"  # in games_with_errors: an error outside every game's folder, which all of them read
)


def games_with_errors(project: Project, report: Report) -> frozenset[str]:
    """The games whose own folder holds an error of loading or validation, and ALL_GAMES when one
    stands outside every game's folder (the shared print data, a language's file): their how-to-print
    pages are not measured, as the booklet's styles or the labels they are set from are then what to
    mend, said once. A game's error holds back no other game's page."""
    folders = [
        (game_id, Location.of(project.data_dir / game_id).path + os.sep)
        for game_id in discover_games(project.data_dir)
    ]
    return frozenset(
        next(
            (game_id for game_id, folder in folders if item.location.path.startswith(folder)),
            ALL_GAMES,
        )
        for item in report.errors
    )


def lay_out_units(units: list, lay_out, report: Report, keep_layouts: bool, jobs: int) -> list:
    """The lay-out step: each unit laid out, what it says added to `report`; the layouts (when
    `keep_layouts`). Without layouts to keep, the units are laid out in up to `jobs` processes
    (`_apart`)."""
    found = _apart(units, lay_out, report, jobs) if not keep_layouts else None
    if found is not None:
        for items in found:
            report.extend(items)
        return []
    layouts = []
    for unit in units:
        layout = lay_out(unit, report)
        if layout is not None and keep_layouts:
            layouts.append(layout)
    return layouts


def _apart(units: list, lay_out, report: Report, jobs: int) -> list | None:
    """What each unit's layout says, laid out in processes; None when they must be laid out one
    after the other (one process, or findings that shape what later units report)."""
    if not (jobs > 1 and len(units) > 1):
        return None
    store = fitstore.ACTIVE  # (validate) each process sends back the fits it added to the store

    def work(unit):
        items = _diagnostics_of(lay_out, unit, report.items)
        return items, store.take_new() if store is not None else {}

    answers = in_processes(
        units,
        work,
        jobs,
        weight=lambda unit: len(getattr(unit[0].catalogues.get(unit[1]), "entries", ())) or 1,
    )
    found = [items for items, _ in answers]
    if store is not None:
        for _, fits in answers:
            store.merge(fits)
    if any(_reaches_other_units(item) for items in found for item in items):
        return None  # laid out one after the other, as each unit's findings shape the next ones'
    return found


def _diagnostics_of(lay_out, unit, before: list) -> list:
    """What laying out `unit` adds to a report that holds `before` (what loading and validation
    found: a layout skips what an error in the data already explains, and reports a template's fault
    once)."""
    found = Report(list(before))
    lay_out(unit, found)
    return found.items[len(before) :]


def _reaches_other_units(item) -> bool:
    """Whether a layout's diagnostic changes what the layouts after it report: a template's fault or
    an unknown reference is reported once for all languages (layout.problems.report_once), and an
    error in the data that is not the layout's own (layout.DataErrors) holds back what later layouts
    would say about it. When one appears, the layouts laid out apart are laid out again one after
    the other, so the report is that of one process."""
    return item.code in ("template", "unknown-reference") or (
        item.severity is Severity.ERROR and item.code not in LAYOUT_CODES
    )
