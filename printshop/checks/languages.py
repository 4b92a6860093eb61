"""Languages: each has the labels printshop prints, and a publisher's labels get the checks of
game texts (markup, the language's own checks, and against the labels they are translated from).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from ruamel.yaml.comments import CommentedMap

from printshop.checks import translation_checks
from printshop.checks.texts import markup_problems_once
from printshop.checks.translations import (
    check_entry_pair,
)
from printshop.diagnostics import Location, Report
from printshop.project.layers import origin_of
from printshop.project.loader import LABELS_REFERENCE, Project
from printshop.project.paths import PACKAGE_DEFAULTS_DIR
from printshop.project.source import locate

REQUIRED_LABELS = (
    "fronts",
    "backs",
    "page",
    "rules",
    "tile",
    "assembly",
    "assembly_title",
    "assembly_scale",  # the assembly page's note under its diagram, and its join detail's caption
    "assembly_detail",
    "calibration_title",
    "calibration",
    "calibration_back",
    "calibration_shift",
    "fold",
    # the how-to-print sheet (templates/common/how-to-print.xml.j2)
    "howto_title",
    "howto_intro",
    "howto_files",
    "howto_file",
    "howto_pages",
    "howto_how",
    "howto_cards_long-edge",
    "howto_cards_short-edge",
    "howto_cards-one-sided",
    "howto_gutterfold",
    "howto_calibration",
    "howto_sheet",
    "howto_sheet-pairs",
    "howto_tiled",
    "howto_rules",
    "howto_rules-booklet",
    "howto_rules-booklet_reduced",
    "howto_press",
    "howto_sheet-two-sided_long-edge",
    "howto_sheet-two-sided_short-edge",
    "howto_sheet-pairs-two-sided_long-edge",
    "howto_sheet-pairs-two-sided_short-edge",
    "howto_steps",
    "howto_step_test",
    "howto_card_size_for",
    "howto_step_duplex",
    "howto_step_calibrate",
    "howto_step_cut",
    "howto_step_stock",
    "howto_step_lowink",
    "draft",  # the mark on every page of a draft build of an incomplete translation
    # the reviewers' proof (printshop proof)
    "proof_title",
    "proof_translation",
    "proof_reference",
    "proof_scale",
    "proof_booklet",
    "proof_labels",
    "proof_glossary",
)


def check_languages(project: Project, report: Report) -> None:
    for lang, language in project.languages.items():
        lacking = [label for label in REQUIRED_LABELS if label not in language.labels]
        if len(lacking) == 1:
            report.add(
                "missing-field",
                language.where("labels"),
                f"language '{lang}' needs the label '{lacking[0]}'",
            )
        elif (
            lacking
        ):  # a new language with a few labels: one error listing them, not forty at one line
            report.add(
                "missing-field",
                language.where("labels"),
                f"language '{lang}' lacks {len(lacking)} of the {len(REQUIRED_LABELS)} labels printshop prints: "
                f"{', '.join(lacking)}",
                hint="copy the labels of printshop/defaults/languages/en.yaml into this file and translate them "
                "(TRANSLATING.md, 'Adding a language')",
            )
        _check_labels(project, lang, report)


def _check_labels(project: Project, lang: str, report: Report) -> None:
    """A language's labels (footers, how-to-print, calibration) get the checks of game texts:
    markup, quotes, and against the labels of the language they are made from, placeholders and
    every translation check."""
    language, document = project.languages[lang], project.language_documents.get(lang)
    if document is None:
        return
    reference_lang = language.translated_from or LABELS_REFERENCE
    reference = project.languages.get(reference_lang) if reference_lang != lang else None
    labels_node = document.root.get("labels") if isinstance(document.root, CommentedMap) else None
    # origin -> whether it is printshop's own file (resolved once per file, not per label)
    printshops: dict = {}
    for name, text in language.labels.items():
        origin = origin_of(labels_node, name, origin_of(document.root, "labels", document.path))
        own = printshops.get(origin)
        if own is None:
            own = printshops[origin] = PACKAGE_DEFAULTS_DIR in Path(origin).resolve().parents
        if own:
            # printshop's own labels: its tests check them, a publisher cannot change them there
            continue
        entry = _Label(
            f"labels.{name}",
            text,
            functools.partial(locate, document.path, document.root, ("labels", name)),
        )
        for problem in markup_problems_once(text):
            report.add("markup", entry.location, f"'{entry.id}': {problem}")
        for finding in translation_checks.check_text(entry.id, text, language):
            report.add(finding.code, entry.location, finding.message)
        if reference is not None and name in reference.labels:
            source = _Label(entry.id, reference.labels[name], _place_of(entry))
            check_entry_pair(project, source, reference_lang, entry, lang, report)


def _place_of(entry: _Label) -> Callable[[], Location]:
    """Where `entry` is, asked for only when something is said there (a source label is said at its
    translation's)."""
    return lambda: entry.location


class _Label:
    """A label read as `check_entry_pair` reads a TextEntry, its place found only when something is
    said at it: a project that copied printshop's languages in checks a few hundred labels at every
    check, nearly all right."""

    def __init__(self, text_id: str, text: str, place: Callable[[], Location]):
        self.id, self.text, self._place = text_id, text, place

    @functools.cached_property
    def location(self) -> Location:
        return self._place()
