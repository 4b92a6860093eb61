"""A game's glossary checked: its languages and source renderings (`glossary`), and every
translation against it (`glossary-term`): where the text a translation is made from holds a term's
rendering in its language, the translation must hold the term's rendering in its own language or
one of the term's forms there (found as printshop/language/glossary.py says: by stem, case and
accents aside). A translation still marked TODO is not checked: it is untranslated already.
"""

from __future__ import annotations

from printshop import memos
from printshop.diagnostics import Report
from printshop.language import glossary as terms
from printshop.language.translation import statuses
from printshop.project.layers import layer_dirs, names_in
from printshop.project.loader import GameData, Project

# (term id, kind, the reference rendering's stems, the translation's renderings' stems, the
# rendering the message names, whether case counts)
Compiled = tuple[str, str, tuple[str, ...], tuple[tuple[str, ...], ...], str, bool]


def check_glossary(project: Project, game: GameData, report: Report) -> None:
    glossary = game.glossary
    if glossary is None:
        return
    source_lang = game.game.source_language
    # every language described, whether or not this run read its file (build --lang de reads a few)
    described = set(project.languages) | set(names_in("languages", layer_dirs(project.data_dir)))
    for term_id, term in glossary.terms.items():
        for lang in sorted({*term.renderings, *term.forms}):
            if lang not in described:
                report.add(
                    "glossary",
                    term.where("renderings" if lang in term.renderings else "forms"),
                    f"term '{term_id}': no language '{lang}' in data/languages",
                    hint="use the language codes of data/languages (fr, en…), or describe the "
                    "language there first",
                )
        if source_lang not in term.renderings:
            report.add(
                "glossary",
                term.where("renderings"),
                f"term '{term_id}' has no rendering in the game's source language '{source_lang}'",
                hint=f"add {source_lang}: and the term as the {source_lang} texts write it",
            )
    for lang, catalogue in game.catalogues.items():
        reference, source = game.reference(lang), game.source
        if lang == source_lang or reference is None or source is None:
            continue
        compiled = _compiled(game, reference.lang, lang)
        if not compiled:
            continue
        names = {code: language.name for code, language in project.languages.items()}
        for status in statuses(
            source, catalogue, game.records.get(lang, {}), game.game.untranslatable
        ):
            if status.state not in ("translated", "stale") or status.translation is None:
                continue
            made_from = reference.entries.get(status.id)
            if made_from is None:
                continue
            for term_id, kind, rendering in term_findings(
                made_from.text, status.translation.text, compiled
            ):
                wanted = glossary.terms[term_id].renderings[lang]
                said = glossary.terms[term_id].renderings[reference.lang]
                language = names.get(lang, lang)
                report.add(
                    "glossary-term",
                    status.translation.location,
                    f"'{status.id}': the {names.get(reference.lang, reference.lang)} says "
                    f"\"{said}\" (glossary term '{term_id}'{', a ' + kind if kind else ''}), which "
                    f'the {language} renders as "{wanted}": this text has no "{rendering}"',
                    hint=f'write "{wanted}" (an inflected form is fine), or add the form this '
                    f"text uses to the term's forms for {lang} in {game.id}/glossary.yaml",
                )


def _compiled(game: GameData, reference_lang: str, lang: str) -> tuple[Compiled, ...]:
    glossary = game.glossary
    assert glossary is not None
    found = []
    for term_id, term in glossary.terms.items():
        if reference_lang not in term.renderings or lang not in term.renderings:
            continue
        wanted = [term.renderings[lang], *term.forms.get(lang, [])]
        case = term.case_sensitive
        found.append(
            (
                term_id,
                term.kind,
                terms.stems(term.renderings[reference_lang], case),
                tuple(terms.stems(text, case) for text in wanted),
                term.renderings[lang],
                case,
            )
        )
    return tuple(found)


@memos.GLOSSARY_FINDINGS
def term_findings(
    source: str, translated: str, compiled: tuple[Compiled, ...]
) -> tuple[tuple[str, str, str], ...]:
    """(term id, kind, rendering wanted) for each term `source` holds and `translated` lacks."""
    words = {
        case: (terms.words_of(source, case), terms.words_of(translated, case))
        for case in (False, True)
    }
    return tuple(
        (term_id, kind, rendering)
        for term_id, kind, said, wanted, rendering, case in compiled
        if terms.found(said, words[case][0])
        and not any(terms.found(stems, words[case][1]) for stems in wanted)
    )
