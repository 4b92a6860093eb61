"""`printshop i18n ACTION`: the translators' tools (new, status, sync, confirm, PO export and import)
over printshop.language.i18n; one function per action, after the checks every action shares."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from printshop.commands import i18n_glossary as glossary_command
from printshop.commands.arguments import add_data, add_game_option, folder
from printshop.commands.common import UsageError, known_games, load_or_report, print_report
from printshop.commands.i18n_glossary import add_glossary_parser
from printshop.diagnostics import display_path
from printshop.project.paths import PACKAGE_DEFAULTS_DIR, discover_games

if TYPE_CHECKING:
    from printshop.project.loader import Project


def add_parser(commands: argparse._SubParsersAction) -> None:
    i18n = commands.add_parser(
        "i18n",
        help="translators' tools: status, sync, PO export and import, the glossary",
        description="Tools for translators. Texts live in data/<game>/text/<lang>.yaml; see TRANSLATING.md.",
    )
    actions = i18n.add_subparsers(dest="action", metavar="ACTION", required=True)
    starting = actions.add_parser(
        "new",
        help="start a language: write data/languages/LANG.yaml",
        description="Write data/languages/LANG.yaml for a new language: its name, the language its "
        "translations are made from (--from), typography defaults for it (quotation marks, French "
        "spacing, hyphenation patterns where pyphen has them) and every label printshop prints, "
        "copied from the reference language and marked '# TODO: translate'. Then translate the "
        "labels and run 'printshop i18n sync LANG' for the games' texts.",
        epilog="Example: printshop i18n new de --from en",
    )
    starting.add_argument("lang", metavar="LANG", help="the language's code: de, pt-br, sr_latn")
    starting.add_argument(
        "--from",
        dest="reference",
        default="en",
        metavar="REF",
        help="the language its translations are made from (default: en)",
    )
    starting.add_argument(
        "--force", action="store_true", help="replace data/languages/LANG.yaml if it exists"
    )
    add_data(starting)
    stat = actions.add_parser(
        "status",
        help="per game and language: translated, missing, stale, untranslated",
        description="Count, per game and language, the texts that are translated, "
        "missing, stale (the source changed since) or untranslated (a copy "
        "still marked '# TODO: translate', or a sentence identical to its "
        "source), and the share done (stale texts count as done).",
    )
    stat.add_argument("games", nargs="*", metavar="GAME")
    add_game_option(stat)
    add_data(stat)
    stat.add_argument(
        "--verbose", "-v", action="store_true", help="also list every text that is not translated"
    )
    syncing = actions.add_parser(
        "sync",
        help="bring a translation in line with its source",
        description="Add the ids a translation lacks (with the source text and a '# TODO: translate' mark), "
        "move texts the source dropped to an 'obsolete:' section, keep comments and order, and "
        "record which source text each translation was made from (<lang>.sources.yaml). "
        "A new language starts here: its file is created.",
    )
    syncing.add_argument("lang", metavar="LANG")
    syncing.add_argument("games", nargs="*", metavar="GAME", help="default: all games")
    add_game_option(syncing)
    add_data(syncing)
    confirming = actions.add_parser(
        "confirm",
        help="confirm that stale (or kept-as-is) translations are still right",
        description="Record that the translation of each text named is right as it stands: a stale text "
        "(its source changed since) is recorded against the current source, and a copy still "
        "marked '# TODO: translate' loses the mark and counts as translated. What removing "
        "'fuzzy' does in Poedit, for those who edit the YAML.",
        epilog="Example: printshop i18n confirm fr card.informer.goal --game comrade",
    )
    confirming.add_argument("lang", metavar="LANG")
    confirming.add_argument(
        "ids", nargs="*", metavar="ID", help="text ids, e.g. card.informer.goal"
    )
    confirming.add_argument(
        "--game", action="append", metavar="GAME", help="only this game (repeatable; default: all)"
    )
    confirming.add_argument(
        "--all-stale", action="store_true", help="every stale text (instead of naming ids)"
    )
    add_data(confirming)
    exporting = actions.add_parser(
        "export",
        help="write a PO or XLIFF file per game for Poedit, Weblate or a CAT tool",
        description="Write <game>-<lang>.po (or .xlf with --format xliff/xliff2, for CAT tools): msgctxt "
        "is the text id, msgid the source text, msgstr the "
        "translation; stale texts are fuzzy with the previous source. '#:' gives the text's line "
        "in the YAML files, '#.' the cards and frames that print it and about how many characters "
        "fit there.",
    )
    exporting.add_argument("lang", metavar="LANG")
    exporting.add_argument("games", nargs="*", metavar="GAME", help="default: all games")
    add_game_option(exporting)
    add_data(exporting)
    exporting.add_argument(
        "--out", type=folder, default=Path("."), metavar="DIR", help="where to write (default: .)"
    )
    exporting.add_argument(
        "--format",
        choices=("po", "xliff", "xliff2"),
        default="po",
        help="po (default: Poedit, Weblate), xliff (XLIFF 1.2: Trados, memoQ, Phrase, Crowdin) or "
        "xliff2 (XLIFF 2.0); each unit has its id, the room its frame leaves and its state",
    )
    exporting.add_argument(
        "--force",
        action="store_true",
        help="replace PO or XLIFF files there that printshop did not write (or that were edited "
        "since)",
    )
    importing = actions.add_parser(
        "import",
        help="read a translated PO or XLIFF file back into the game's text file",
        description="Read a PO or XLIFF file written by 'i18n export' (and edited in Poedit, Weblate "
        "or a CAT tool) back into data/<game>/text/<lang>.yaml, keeping comments and order. Fuzzy "
        "entries and units still to review stay stale. Each text it changes or confirms is checked "
        "as validate checks it; problems are shown at the file's line, and an error means nothing "
        "is written.",
    )
    importing.add_argument("po", type=Path, metavar="FILE", help="a .po, .xlf or .xliff file")
    importing.add_argument("--game", required=True, metavar="GAME")
    importing.add_argument("--lang", required=True, metavar="LANG")
    add_data(importing)
    add_glossary_parser(actions)


def run(args: argparse.Namespace) -> int:
    _refuse_unsafe_language(args)
    if args.action == "new":
        return _new(args)
    _refuse_game_for_language(args)
    if args.action == "glossary":
        return glossary_command.run(args)
    if args.action == "import":
        games = known_games(args.data, [args.game])
    elif args.action == "confirm":
        games = known_games(args.data, args.game or [])
    else:
        games = known_games(args.data, args.games)
    project = load_or_report(args.data, games)
    if project is None:
        return 1
    if args.action != "status" and _sources_missing(project):
        return 1
    return _ACTIONS[args.action](args, project, games)


def _new(args: argparse.Namespace) -> int:
    """`i18n new LANG`: the starter language file (language/starter.py), never over one that
    exists without --force."""
    from printshop.language.starter import StarterError, starter_file
    from printshop.project.loader import load_project
    from printshop.write.commit import write_atomically

    project = load_project(args.data, games=[])
    reference = project.languages.get(args.reference)
    if reference is None:
        known = ", ".join(sorted(project.languages))
        raise UsageError(f"--from {args.reference}: no such language (the project has {known})")
    if args.lang in discover_games(args.data) if args.data.is_dir() else False:
        raise UsageError(f"'{args.lang}' is a game, not a language")
    try:
        text = starter_file(args.lang, args.reference, dict(reference.labels))
    except StarterError as error:
        raise UsageError(str(error)) from error
    path = args.data / "languages" / f"{args.lang}.yaml"
    if path.exists() and not args.force:
        raise UsageError(f"{display_path(path)} exists: edit it, or add --force to start it again")
    write_atomically(path, text.encode("utf-8"))
    print(
        f"wrote {display_path(path)}: translate its {len(reference.labels)} labels, then run "
        f"'printshop i18n sync {args.lang}' to start the games' texts"
    )
    return 0


def _sources_missing(project: Project) -> bool:
    """Whether a game read lacks its source language's text file (printed as validate says it):
    sync, confirm, export and import all compare a translation with that file."""
    from printshop.diagnostics import Report

    report = Report()
    for game in project.games.values():
        if game.source is None:
            source = game.game.source_language
            report.add(
                "file-missing",
                game.game.where("source_language"),
                f"the source language '{source}' of {game.id} has no text file "
                f"{display_path(game.dir / 'text' / (source + '.yaml'))}: translations are made "
                "from it",
                hint="put the source texts back (git restore, or copy them from a backup), or name "
                "the language whose file the game has",
            )
    print_report(report)
    return report.has_errors


def _refuse_unsafe_language(args: argparse.Namespace) -> None:
    """A language code names files (text/<lang>.yaml, <game>-<lang>.po): a plain id only, never a
    path (`i18n export ../../x` wrote a PO file outside the project)."""
    from printshop.pipeline.scope import SAFE_ID

    lang = getattr(args, "lang", None)
    if isinstance(lang, str) and not SAFE_ID.match(lang):
        raise UsageError(
            f"{lang!r} is not a language code: use lower-case letters, digits, '-' and '_' "
            "(en, fr, pt-br), as the game's text/<lang>.yaml files are named"
        )


def _refuse_game_for_language(args: argparse.Namespace) -> None:
    """`i18n sync comrade de`: the game named where the language goes."""
    lang = getattr(args, "lang", None)
    if not (
        args.action in ("sync", "confirm", "export")
        and args.data.is_dir()
        and lang in discover_games(args.data)
    ):
        return
    if args.action == "confirm":  # (its games are named with --game, its texts after the language)
        example = f"printshop i18n confirm LANG ID… --game {lang}"
    else:
        after = (args.games or ["LANG"])[0]
        example = f"printshop i18n {args.action} {after} {lang}"
    raise UsageError(f"'{lang}' is a game, not a language: the language comes first ({example})")


def _status(args: argparse.Namespace, project: Project, games: list[str] | None) -> int:
    from printshop.language import i18n

    rows = i18n.status(project, games)
    print(i18n.format_status(rows))
    if args.verbose:
        for row in rows:
            untracked = set(row.untracked)
            for text in row.texts:
                state = "untracked" if text.id in untracked else text.state
                if state != "translated":
                    where = text.translation.location if text.translation else text.source.location
                    print(f"{where}: {row.lang} {state}: {text.id}")
    return 0


def _sync(args: argparse.Namespace, project: Project, games: list[str] | None) -> int:
    from printshop.language import i18n, translation_file

    if args.lang not in project.languages:
        raise UsageError(
            f"no language '{args.lang}': first describe it in {args.data / 'languages'}/"
            f"{args.lang}.yaml (start from printshop's {PACKAGE_DEFAULTS_DIR / 'languages' / 'en.yaml'} "
            "and translate its labels; TRANSLATING.md says how)"
        )
    for game in project.games.values():
        if args.lang == game.game.source_language:
            continue
        try:
            result = i18n.sync(game, args.lang)
        except translation_file.SyncError as error:
            print_report(error.report)
            return 1
        print(
            f"{display_path(result.path)}: {len(result.added)} added (marked TODO), {len(result.obsoleted)} moved to "
            f"obsolete, {result.recorded} recorded as translated"
        )
    return 0


def _export(args: argparse.Namespace, project: Project, games: list[str] | None) -> int:
    """Every game's PO file made first, then written, none if one would replace a file printshop
    did not write (a PO file saved by Poedit since, a file of the user's own), unless --force."""
    from printshop.language import po
    from printshop.pipeline.build import check
    from printshop.write.commit import not_ours, refusal, write_atomically

    made: list[tuple[Path, bytes]] = []
    for game in project.games.values():
        if args.lang == game.game.source_language:
            continue
        suffix = "po" if args.format == "po" else "xlf"
        target = args.out / f"{game.id}-{args.lang}.{suffix}"
        # the `#.` comments: where each text prints, from the game laid out in its source language
        _, checked = check(
            args.data, games=[game.id], langs=[game.game.source_language], variant=None
        )
        printed = po.where_printed(checked, game.id) if checked is not None else {}
        if args.format == "po":
            made.append((target, po.export_po(game, args.lang, printed)))
        else:
            from printshop.language.xliff import VERSIONS, export_xliff

            made.append((target, export_xliff(game, args.lang, printed, VERSIONS[args.format])))
    refused = [] if args.force else not_ours(made, "po" if args.format == "po" else "xliff")
    if refused:
        print(f"error: {refusal(refused, 'printshop i18n export')}", file=sys.stderr)
        return 1
    for target, data in made:
        write_atomically(target, data)
        print(f"wrote {target}")
    return 0


def _import(args: argparse.Namespace, project: Project, games: list[str] | None) -> int:
    from printshop.language import po

    game = project.games[args.game]
    if not args.po.is_file():
        raise UsageError(f"{args.po} does not exist")
    result = po.import_po(game, args.lang, args.po, project=project)
    print_report(result.report)
    if result.report.has_errors:
        print(
            f"{game.id} {args.lang}: nothing imported; fix the entries shown in {args.po} and import again",
            file=sys.stderr,
        )
        return 1
    print(
        f"{game.id} {args.lang}: {len(result.changed)} text(s) changed, {len(result.confirmed)} confirmed "
        f"against a newer source"
    )
    return 0


def _confirm(args: argparse.Namespace, project: Project, _named: list[str] | None) -> int:
    from printshop.language import i18n

    if bool(args.ids) == bool(args.all_stale):
        raise UsageError("name the text ids to confirm, or give --all-stale")
    games = [
        game
        for game in project.games.values()
        if args.lang in game.catalogues and args.lang != game.game.source_language
    ]
    if not games:
        raise UsageError(f"no game here has a '{args.lang}' translation")
    # (reference() is None only for a game without its source text file, refused in `run`)
    known = {text_id for game in games for text_id in game.reference(args.lang).entries}  # type: ignore[union-attr]
    unknown = [text_id for text_id in args.ids if text_id not in known]
    if unknown:
        raise UsageError(
            f"no text {', '.join(unknown)} in {', '.join(game.id for game in games)} "
            f"('printshop i18n status --verbose' lists the texts to confirm)"
        )
    for game in games:
        ids = (
            None
            if args.all_stale
            else [
                text_id
                for text_id in args.ids
                if text_id in game.reference(args.lang).entries  # type: ignore[union-attr]
            ]
        )
        if ids == []:
            continue
        result = i18n.confirm(game, args.lang, ids)
        for text_id in result.missing:
            print(
                f"{game.id} {args.lang}: '{text_id}' has no translation to confirm", file=sys.stderr
            )
        print(
            f"{display_path(result.path)}: {len(result.confirmed)} stale text(s) confirmed, "
            f"{len(result.unmarked)} kept as they are (TODO mark removed), {len(result.unchanged)} already up to date"
        )
    return 0


_ACTIONS = {
    "status": _status,
    "confirm": _confirm,
    "sync": _sync,
    "export": _export,
    "import": _import,
}
