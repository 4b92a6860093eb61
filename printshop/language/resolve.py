"""Stage 2, resolve the language: one game's data and texts in one language, ready for templates.

The template context holds the text accessor `t`, the game's facts and the setup table that
the game's rules give for each player count (computed here, once, for every template).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from markupsafe import Markup

from printshop.language.text_tree import TextTree
from printshop.language.texts import apply_typography, to_markup
from printshop.project.expressions import ExpressionError, need_count
from printshop.project.loader import GameData, Project
from printshop.project.models.language import Language
from printshop.project.yaml_safety import MAX_TEXT


@dataclass
class LocalizedGame:
    data: GameData
    lang: str
    language: Language
    texts: dict[str, Markup]
    variant: str | None = None
    # a draft build of an incomplete translation: the mark every page prints ("DRAFT, 63 % …")
    draft: str = ""

    @cached_property
    def tree(self) -> TextTree:
        return TextTree(self.texts, self.lang)  # its index of ids is built once

    @cached_property
    def hyphenation(self) -> str | None:
        """How this game's texts in this language are hyphenated (typeset.hyphenation.setting): the
        language's patterns and rules, and its glossary terms in this language never broken."""
        from printshop.typeset.hyphenation import setting

        typography = self.language.typography
        glossary = self.data.glossary
        terms = [
            term.renderings[self.lang]
            for term in (glossary.terms.values() if glossary is not None else ())
            if self.lang in term.renderings
        ]
        return setting(
            typography.hyphenation,
            typography.hyphen_min,
            typography.break_capitalised,
            [*typography.unbroken, *terms],
        )

    @cached_property
    def setting(self) -> str:
        """What setting a text in a frame reads of the language (its hyphenation and ties) and of
        the fonts registered, as one string: a part of what layout remembers a set text by
        (layout.lay_out_frame), made once (a game's texts are laid out after the fonts are
        registered, and a session localizes them again after)."""
        from printshop.typeset.fonts import state as fonts_state

        typography = self.language.typography
        return repr(
            (
                self.hyphenation,
                tuple(typography.keep_with_next),
                typography.numbers_with_next,
                fonts_state(),
            )
        )

    def label(self, name: str, **values) -> str:
        text = self.language.labels.get(name, name)
        for key, value in values.items():
            text = text.replace("{" + key + "}", str(value))
        return apply_typography(text, self.language.typography)

    def plain(self, text_id: str) -> str:
        from printshop.typeset.richtext import plain_text

        return plain_text(str(self.texts.get(text_id, text_id)))


def localize(
    project: Project,
    game: GameData,
    lang: str,
    variant: str | None = None,
    *,
    draft_percent: int | None = None,
) -> LocalizedGame:
    """The game's texts in `lang`: a naming variant's texts replace the ids they name, then each
    {text variable} is replaced by the text it stands for, then markup and typography are applied.
    `draft_percent` (the share translated) makes a draft of an incomplete translation: a text it
    lacks is taken from the language it is made from (`game.reference(lang)`), and every page is
    marked."""
    language = project.languages.get(lang) or Language(name=lang, native_name=lang, labels={})
    catalogue = game.catalogues.get(lang)
    raw = {entry.id: entry.text for entry in catalogue.entries.values()} if catalogue else {}
    reference = game.reference(lang) if draft_percent is not None else None
    if reference is not None and reference.lang != lang:
        raw = {**{entry.id: entry.text for entry in reference.entries.values()}, **raw}
    if variant is not None:
        prefix = f"variant.{variant}."
        raw.update(
            {
                text_id[len(prefix) :]: text
                for text_id, text in raw.items()
                if text_id.startswith(prefix)
            }
        )
    variables = {
        name: raw[target] for name, target in game.game.text_variables.items() if target in raw
    }
    raw = with_variables(raw, variables)
    texts = {text_id: to_markup(text, language.typography) for text_id, text in raw.items()}
    localized = LocalizedGame(game, lang, language, texts, variant)
    if draft_percent is not None:
        localized.draft = localized.label("draft", percent=draft_percent)
    return localized


def with_variables(texts: dict[str, str], variables: dict[str, str]) -> dict[str, str]:
    """`texts` with each {text variable} replaced by the text it stands for (one pass: a variable's
    text is not searched again); a text the replacing would take past MAX_TEXT
    (`too_long_with_variables`, which validate refuses) has its placeholders left out instead: a few
    thousand placeholders for a long text made a text of millions of characters, and its layout ran
    for minutes."""
    if not variables:
        return texts
    pattern, too_long = _variables_pattern(variables), too_long_with_variables(texts, variables)
    return {
        text_id: pattern.sub("" if text_id in too_long else lambda m: variables[m.group(1)], text)
        for text_id, text in texts.items()
    }


def too_long_with_variables(texts: dict[str, str], variables: dict[str, str]) -> dict[str, int]:
    """{text id: the length it would have} for the texts their variables would take past MAX_TEXT."""
    if not variables:
        return {}
    pattern, too_long = _variables_pattern(variables), {}
    for text_id, text in texts.items():
        length = len(text) + sum(
            len(variables[m.group(1)]) - len(m.group(0)) for m in pattern.finditer(text)
        )
        if length > MAX_TEXT:
            too_long[text_id] = length
    return too_long


def _variables_pattern(variables: dict[str, str]) -> re.Pattern:
    return re.compile(r"\{(" + "|".join(map(re.escape, variables)) + r")\}")


def deck_counts(game: GameData) -> dict[str, dict[str, int]]:
    """{deck id: {kind: number of cards, ..., 'total': all cards}}."""
    result = {}
    for deck_id, deck in game.game.decks.items():
        counts: Counter[str] = Counter()
        for card in deck.cards:
            counts[card.kind] += card.count
        result[deck_id] = dict(counts, total=sum(counts.values()))
    return result


def setup_table(game: GameData) -> list[dict]:
    """For each supported player count: {'n': count, 'needs': {kind: cards}}; rows that fail are
    left out."""
    setup = game.game.setup
    if setup is None:
        return []
    rows = []
    for n in range(game.game.players.min, game.game.players.max + 1):
        try:
            needs = {need.kind: need_count(need.count, setup.variable, n) for need in setup.needs}
        except ExpressionError:
            continue
        rows.append({"n": n, "needs": needs})
    return rows


def board_view(game: GameData) -> dict | None:
    """The board as templates print it: offices in rank order with the codes of the phases in which
    each acts (2, 3B, 6A...), phases with their acting office and succession codes, the health
    table. Board, phase reference and booklet all print from this, so a number is never typed twice."""
    board = game.game.board
    if board is None:
        return None
    phases = []
    roles: dict[str, list[dict]] = {office.id: [] for office in board.offices}
    for phase in board.phases:
        order = [
            {"code": f"{phase.number}{chr(ord('A') + i)}", "office": office}
            for i, office in enumerate(phase.succession)
        ]
        if phase.number == board.promotion_phase:
            order = [
                {"code": f"{phase.number}{chr(ord('A') + i)}", "office": office}
                for i, office in enumerate(board.promotions)
            ]
        phases.append({"number": phase.number, "id": phase.id, "acts": phase.acts, "order": order})
        if phase.acts in roles:
            roles[phase.acts].append(
                {"code": str(phase.number), "phase": phase.id, "number": phase.number}
            )
        for step in order:
            if step["office"] in roles:
                roles[step["office"]].append(
                    {"code": step["code"], "phase": phase.id, "number": phase.number}
                )
    offices = [
        {
            "id": office.id,
            "level": office.level,
            "purge": office.purge,
            "rank": rank,
            "roles": sorted(roles[office.id], key=lambda role: role["number"]),
        }
        for rank, office in enumerate(board.offices, start=1)
    ]
    return {
        "offices": offices,
        "candidates": board.candidates,
        "candidate_purge": board.candidate_purge,
        "phases": phases,
        "parade_years": board.parade_years,
        "health": [
            {"from": row.low, "to": row.high, "at_work": row.at_work, "at_cure": row.at_cure}
            for row in board.health
        ],
    }


@dataclass(frozen=True)
class ContextName:
    """A name a kind of template receives: what it holds, in words, with an example of its use."""

    name: str
    kinds: tuple[str, ...]
    holds: str
    example: str = ""


# The kinds of template, and what each draws (docs/templates.md is generated from these two tables).
TEMPLATE_KINDS = {
    "card": "a card's face in a deck: its front, and its back when the card has its own (`front:`, `back:` of a "
    "card in game.yaml); one `{% block %}` per frame of the face",
    "back": "a deck's shared back (`back:` of a deck), drawn once for every card without its own back",
    "sheet": "a sheet (`sheets:` in game.yaml: a board, player sheets, aids), once per item of the sheet",
    "booklet": "the rules booklet (`booklet.template` in game.yaml): one document in the booklet vocabulary",
    "how-to-print": "the one-page how-to-print sheet of every kit (templates/common/how-to-print.xml.j2)",
}
_GAME = ("card", "back", "sheet", "booklet")
_FACES = ("card", "back", "sheet")

# Every name passed to templates, by kind of template: template_context() builds the game-wide ones,
# layout.py adds `card` and `face`, sheet_context() `sheet` and `item`, render/how_to_print.py the
# rest. tests/test_reference_docs.py renders each kind and fails when a passed name is not declared
# here.
TEMPLATE_CONTEXT = (
    ContextName(
        "t",
        _GAME,
        "the game's texts in the language being built, by id: `t.card.informer.name` is the "
        "text `card.informer.name` of text/<lang>.yaml; `t.card.informer` is the group, which a loop "
        "or `.keys()` walks in the source file's order. A missing id is an error",
        "{{ t.card[card.id].name }}",
    ),
    ContextName(
        "lang", _GAME, "the code of the language being built", '{% if lang == "fr" %}…{% endif %}'
    ),
    ContextName(
        "game",
        _GAME,
        "facts from game.yaml: `game.id`, `game.players.min`, `game.players.max`, `game.minutes`",
        "{{ t.game.players | fill(min=game.players.min, max=game.players.max) }}",
    ),
    ContextName(
        "decks",
        _GAME,
        "card counts: `decks.<deck>.<kind>` is how many cards of that kind the deck "
        "holds, `decks.<deck>.total` all its cards",
        "{{ decks.cards.comrade }}",
    ),
    ContextName(
        "cards",
        _GAME,
        "every card of each deck, one entry per physical card (a card with `count: 8` "
        "is there 8 times), in deck order: `cards.<deck>` is a list of {id, kind, vars}",
        '{% for c in cards.cards if c.kind == "role" %}…{% endfor %}',
    ),
    ContextName(
        "setup",
        _GAME,
        "the setup table computed from game.yaml's `setup` rule: one row per player "
        "count, {n, needs: {kind: cards}}; empty without a setup rule",
        "{% for row in setup %}{{ row.n }}: {{ row.needs.vote }}{% endfor %}",
    ),
    ContextName(
        "board",
        _GAME,
        "the board computed from game.yaml's `board` (None without one): `offices` in "
        "rank order, each {id, level, purge, rank, roles: [{code, phase, number}]}; `phases`, each {number, "
        "id, acts, order: [{code, office}]}; `candidates`, `candidate_purge`, `parade_years`, `health` "
        "(rows {from, to, at_work, at_cure})",
        "{% for office in board.offices %}…{% endfor %}",
    ),
    ContextName(
        "goal_deck",
        _GAME,
        "game.yaml's `goal_deck` as written (None without one)",
        "{{ goal_deck.suits | length }}",
    ),
    ContextName(
        "colon",
        _GAME,
        'the language\'s colon, to write after a label in a template ("\u202f:" in '
        'French, ":" in English)',
        "{{ t.label.strength }}{{ colon }}",
    ),
    ContextName(
        "card",
        _FACES,
        "the card being drawn: {id, kind, count, vars} from game.yaml (a card of a deck's "
        "`generate`: its made id, and its value of each axis in vars, `card.vars.suit`; a card "
        "of a deck's `spreadsheet`: its row's columns, the others in vars); for a "
        "sheet's item {id, kind: \"sheet\", count: 1, vars} of the item; None on a deck's shared "
        "back",
        "{{ card.vars.word }}",
    ),
    ContextName(
        "face",
        _FACES,
        "the name of the face being drawn (its key in faces.yaml)",
        '{% if face == "chairman" %}…{% endif %}',
    ),
    ContextName(
        "sheet",
        ("sheet",),
        "the sheet being drawn: {id, face, copies (pages of it in a print-and-play "
        "file), items (the ids of its items, in order), per_page, tiled, press}",
        "{{ sheet.copies }}",
    ),
    ContextName(
        "item",
        ("sheet",),
        "the item of the sheet being drawn: {id, number (1 for the first), vars}; "
        "None for a sheet without items",
        "{{ item.number }}/{{ sheet['items'] | length }}",
    ),
    ContextName(
        "title", ("how-to-print",), "the game's title in the language being built", "{{ title }}"
    ),
    ContextName(
        "paper",
        ("how-to-print",),
        'the paper\'s label ("A4")',
        '{{ label("howto_intro", paper=paper) }}',
    ),
    ContextName(
        "files",
        ("how-to-print",),
        "the kit's files, each {name, pages, kind}; kind is one of cards, "
        "cards-one-sided, gutterfold, tuck-box, sheet, sheet-pairs (these two also -two-sided), "
        "tiled, press (a sheet's page for a print shop), rules, rules-booklet",
        "{% for file in files %}{{ file.name }}{% endfor %}",
    ),
    ContextName(
        "kinds",
        ("how-to-print",),
        "the kinds of file the kit has, sorted",
        '{% if "cards" in kinds %}',
    ),
    ContextName(
        "flip",
        ("how-to-print",),
        "how the printer turns the sheet: long-edge or short-edge",
        'label("howto_cards_" ~ flip)',
    ),
    ContextName(
        "calibration",
        ("how-to-print",),
        "the file name of the duplex calibration page",
        'label("howto_step_calibrate", calibration=calibration)',
    ),
    ContextName(
        "low_ink", ("how-to-print",), "true for a low-ink build", "{% if low_ink %}…{% endif %}"
    ),
    ContextName(
        "booklet_scale",
        ("how-to-print",),
        "the percentage the rules' pages are printed at in the imposed booklet: 100, or less "
        "where they are reduced to fit half the paper (A5 on Letter)",
        "{% if booklet_scale < 100 %}…{% endif %}",
    ),
    ContextName(
        "assembly_page",
        ("how-to-print",),
        "the page of a tiled sheet's file that holds its assembly "
        "diagram (from the renderer's layout)",
        'label("howto_tiled", page=assembly_page)',
    ),
    ContextName(
        "card_sizes",
        ("how-to-print",),
        "each size of the kit's cards as the language writes a length "
        "(typography's length_units and decimal_mark), and the card files "
        "that hold it: size, files",
        "{{ card_sizes[0].size }}  {# 63 × 88 mm (2.48 × 3.46 in) #}",
    ),
    ContextName(
        "label",
        ("how-to-print",),
        "label(name, **values): the language's label `name` "
        "(data/languages/<lang>.yaml) with its {placeholders} filled",
        '{{ label("howto_title") }}',
    ),
)


def context_names(kind: str) -> list[str]:
    """The names templates of `kind` receive, as TEMPLATE_CONTEXT declares them."""
    return [entry.name for entry in TEMPLATE_CONTEXT if kind in entry.kinds]


def sheet_context(context: dict, sheet_id: str, spec, item) -> dict:
    """The game's context for a sheet's template: the sheet being drawn and, in a set, its item."""
    number = next((index for index, other in enumerate(spec.items, start=1) if other is item), None)
    return dict(
        context,
        sheet={
            "id": sheet_id,
            "face": spec.face,
            "copies": spec.copies,
            "items": [i.id for i in spec.items],
            "per_page": spec.per_page,
            "tiled": spec.tiled,
            "press": spec.press,
        },
        item={"id": item.id, "number": number, "vars": dict(item.vars)}
        if item is not None
        else None,
    )


def template_context(localized: LocalizedGame) -> dict:
    """The names every template of a game receives (declared, with the others, in TEMPLATE_CONTEXT)."""
    game = localized.data.game
    return {
        "t": localized.tree,
        "lang": localized.lang,
        "game": {
            "id": localized.data.id,
            "players": {"min": game.players.min, "max": game.players.max},
            "minutes": game.minutes,
        },
        "decks": deck_counts(localized.data),
        "setup": setup_table(localized.data),
        "goal_deck": game.goal_deck.model_dump() if game.goal_deck else None,
        "board": board_view(localized.data),
        "cards": {
            deck_id: [
                {"id": card.id, "kind": card.kind, "vars": dict(card.vars)}
                for card in deck.cards
                for _ in range(card.count)
            ]
            for deck_id, deck in game.decks.items()
        },
        # punctuation written in templates follows the language too: "Force\u202f:" but "Strength:"
        "colon": Markup(apply_typography("x:", localized.language.typography)[1:]),
    }
