"""A game's texts: the source language's file, markup and each language's own checks, variants'
and text variables' ids, and lengths once text variables are filled in.
"""

from __future__ import annotations

from printshop import memos
from printshop.checks import encoding, glossary, language_identity, translation_checks
from printshop.checks.translations import (
    check_translation,
)
from printshop.diagnostics import Location, Report, did_you_mean
from printshop.language.resolve import too_long_with_variables
from printshop.language.texts import markup_problems
from printshop.project.loader import GameData, Project
from printshop.project.yaml_safety import MAX_TEXT
from printshop.typeset.icons import IconSet, written_icons


def check_texts(project: Project, game: GameData, report: Report) -> None:
    source = game.source
    if source is None:
        report.add(
            "file-missing",
            game.game.where("source_language"),
            f"the source language '{game.game.source_language}' has no text file "
            f"{game.dir / 'text' / (game.game.source_language + '.yaml')}",
        )
        return
    if game.game.title not in source.entries:
        report.add(
            "missing-text",
            game.game.where("title"),
            f"the title id '{game.game.title}' has no source text",
        )
    icons: IconSet | None = None  # the game's, made at the first text with an icon
    for catalogue in game.catalogues.values():
        if catalogue.lang not in project.languages:
            report.add(
                "unknown-reference",
                catalogue.document.where(),
                f"no language '{catalogue.lang}' in {project.data_dir / 'languages'}: add "
                f"{catalogue.lang}.yaml there to describe it",
            )
        language = project.languages.get(catalogue.lang)
        identity = language_identity.checker(project, game, catalogue.lang)
        for entry in catalogue.entries.values():
            for problem in markup_problems_once(entry.text):
                report.add("markup", entry.location, f"'{entry.id}': {problem}")
            fixed = encoding.repaired(entry.text)
            if fixed is not None:
                report.add(
                    "mojibake",
                    entry.location,
                    f"'{entry.id}' holds encoding damage (UTF-8 read as another encoding): "
                    f"{entry.text[:60]!r}",
                    hint=f'it most likely reads "{fixed[:80]}": write it so, and save the file as '
                    "UTF-8",
                )
            if "<icon" in entry.text:
                icons = icons or game_icons(project, game)
                check_icons(entry.id, entry.text, entry.location, icons, report)
            for found in identity(entry.id, entry.text):
                report.add(found.code, entry.location, found.message, hint=found.hint)
            for finding in (
                translation_checks.check_text(entry.id, entry.text, language) if language else ()
            ):
                report.add(
                    finding.code,
                    entry.location,
                    finding.message,
                    acknowledged=translation_checks.accepted(
                        entry.location.path, entry.location.line
                    ).get(finding.code, ""),
                )
        if catalogue is not source:
            check_translation(project, game, game.reference(catalogue.lang), catalogue, report)
        for name, variant in game.game.variants.items():
            for text_id in variant.overrides:
                if f"variant.{name}.{text_id}" not in catalogue.entries:
                    report.add(
                        "missing-text",
                        catalogue.where_missing(f"variant.{name}.{text_id}"),
                        f"naming variant '{name}' gives no '{text_id}' in {catalogue.lang} "
                        f"(write it as variant.{name}.{text_id})",
                    )
    glossary.check_glossary(project, game, report)
    for name, variant in game.game.variants.items():
        for text_id in variant.overrides:
            if text_id not in source.entries:
                report.add(
                    "unknown-reference",
                    variant.where("overrides"),
                    f"variant '{name}' overrides '{text_id}', which the source does not have",
                )
        if variant.reconstructed:
            report.add(
                "reconstructed",
                variant.where("reconstructed"),
                f"naming variant '{name}': {variant.reconstructed}",
            )
    for name, target in game.game.text_variables.items():
        if target not in source.entries:
            report.add(
                "unknown-reference",
                game.game.where("text_variables"),
                f"text variable {{{name}}} stands for '{target}', which the source does not have",
            )
    for catalogue in game.catalogues.values():
        variables = {
            name: catalogue.entries[target].text
            for name, target in game.game.text_variables.items()
            if target in catalogue.entries
        }
        for text_id, length in too_long_with_variables(
            {i: e.text for i, e in catalogue.entries.items()}, variables
        ).items():
            report.add(
                "too-large",
                catalogue.entries[text_id].location,
                f"'{text_id}' would be {length:,} characters long with its text variables in place; printshop "
                f"reads at most {MAX_TEXT:,}",
                hint="use fewer placeholders, or a shorter text for them",
            )


def game_icons(project: Project, game: GameData) -> IconSet:
    """The icons `game`'s texts may name (typeset.icons)."""
    return IconSet(project.view(game).motifs.motifs, game.dir / "images")


def check_icons(text_id: str, text: str, where: Location, icons: IconSet, report: Report) -> None:
    """Each icon `text` names is a motif or an image of the game's (an unknown name, with the
    nearest there is); a name both a motif and an image draws the motif (a warning)."""
    for name in dict.fromkeys(written_icons(text)):
        if icons.unreadable(name):
            report.add(
                "wrong-type",
                where,
                f"'{text_id}': the icon '{name}' is {icons.image(name)}, which cannot be read "
                "as an image",
                hint="save it again as PNG or JPEG inside the game's folder",
            )
        elif icons.art(name) is None:
            report.add(
                "unknown-reference",
                where,
                f"'{text_id}': <icon name=\"{name}\">: no motif or image '{name}'"
                f"{did_you_mean(name, icons.names())}",
                hint="name a motif of motifs.yaml (the project's or the game's print/motifs.yaml) "
                "or an image of the game's images/ folder (images/<name>.png)",
            )
        elif icons.ambiguous(name):
            report.add(
                "ambiguous-icon",
                where,
                f"'{text_id}': '{name}' is both a motif and {icons.image(name)}: the icon draws "
                "the motif",
                hint="rename the image (or the motif) so that the name says which is meant",
            )


@memos.MARKUP_PROBLEMS
def markup_problems_once(text: str) -> tuple[str, ...]:
    """`markup_problems`, once per text (a session checks every text again after each edit)."""
    return tuple(markup_problems(text))
