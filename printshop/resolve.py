"""Stage 2, resolve the language: one game's data and texts in one language, ready for templates.

The template context holds the text accessor `t`, the game's facts and the setup table that
the game's rules give for each player count (computed here, once, for every template).
"""
from __future__ import annotations

import re
from collections import Counter
from functools import cached_property
from dataclasses import dataclass

from markupsafe import Markup

from printshop.expressions import ExpressionError, need_count
from printshop.loader import GameData, Project
from printshop.model import Language
from printshop.texts import TextTree, apply_typography, to_markup


@dataclass
class LocalizedGame:
    data: GameData
    lang: str
    language: Language
    texts: dict[str, Markup]
    variant: str | None = None

    @cached_property
    def tree(self) -> TextTree:
        return TextTree(self.texts, self.lang)  # its index of ids is built once

    def label(self, name: str, **values) -> str:
        text = self.language.labels.get(name, name)
        for key, value in values.items():
            text = text.replace("{" + key + "}", str(value))
        return apply_typography(text, self.language.typography)

    def plain(self, text_id: str) -> str:
        from printshop.richtext import plain_text

        return plain_text(str(self.texts.get(text_id, text_id)))


def localize(project: Project, game: GameData, lang: str, variant: str | None = None) -> LocalizedGame:
    """The game's texts in `lang`: a naming variant's texts replace the ids they name, then each
    {text variable} is replaced by the text it stands for, then markup and typography are applied."""
    language = project.languages.get(lang) or Language(name=lang, native_name=lang, labels={})
    catalogue = game.catalogues.get(lang)
    raw = {entry.id: entry.text for entry in catalogue.entries.values()} if catalogue else {}
    if variant is not None:
        prefix = f"variant.{variant}."
        raw.update({text_id[len(prefix):]: text for text_id, text in raw.items() if text_id.startswith(prefix)})
    variables = {name: raw[target] for name, target in game.game.text_variables.items() if target in raw}
    if variables:
        pattern = re.compile(r"\{(" + "|".join(map(re.escape, variables)) + r")\}")
        raw = {text_id: pattern.sub(lambda m: variables[m.group(1)], text) for text_id, text in raw.items()}
    texts = {text_id: to_markup(text, language.typography) for text_id, text in raw.items()}
    return LocalizedGame(game, lang, language, texts, variant)


def deck_counts(game: GameData) -> dict[str, dict[str, int]]:
    """{deck id: {kind: number of cards, ..., 'total': all cards}}."""
    result = {}
    for deck_id, deck in game.game.decks.items():
        counts = Counter()
        for card in deck.cards:
            counts[card.kind] += card.count
        result[deck_id] = dict(counts, total=sum(counts.values()))
    return result


def setup_table(game: GameData) -> list[dict]:
    """For each supported player count: {'n': count, 'needs': {kind: cards}}; rows that fail are left out."""
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
    each acts (2, 3B, 6A...), phases with their acting office and succession codes, the health table.
    Board, phase reference and booklet all print from this, so a number is never typed twice."""
    board = game.game.board
    if board is None:
        return None
    phases = []
    roles: dict[str, list[dict]] = {office.id: [] for office in board.offices}
    for phase in board.phases:
        order = [{"code": f"{phase.number}{chr(ord('A') + i)}", "office": office}
                 for i, office in enumerate(phase.succession)]
        if phase.number == board.promotion_phase:
            order = [{"code": f"{phase.number}{chr(ord('A') + i)}", "office": office}
                     for i, office in enumerate(board.promotions)]
        phases.append({"number": phase.number, "id": phase.id, "acts": phase.acts, "order": order})
        if phase.acts in roles:
            roles[phase.acts].append({"code": str(phase.number), "phase": phase.id, "number": phase.number})
        for step in order:
            if step["office"] in roles:
                roles[step["office"]].append({"code": step["code"], "phase": phase.id, "number": phase.number})
    offices = [{"id": office.id, "level": office.level, "purge": office.purge, "rank": rank,
                "roles": sorted(roles[office.id], key=lambda role: role["number"])}
               for rank, office in enumerate(board.offices, start=1)]
    return {"offices": offices, "candidates": board.candidates, "candidate_purge": board.candidate_purge,
            "phases": phases, "parade_years": board.parade_years,
            "health": [{"from": row.low, "to": row.high, "at_work": row.at_work, "at_cure": row.at_cure}
                       for row in board.health]}


def template_context(localized: LocalizedGame) -> dict:
    game = localized.data.game
    return {
        "t": localized.tree,
        "lang": localized.lang,
        "game": {"id": localized.data.id, "players": {"min": game.players.min, "max": game.players.max},
                 "minutes": game.minutes},
        "decks": deck_counts(localized.data),
        "setup": setup_table(localized.data),
        "goal_deck": game.goal_deck.model_dump() if game.goal_deck else None,
        "board": board_view(localized.data),
        "cards": {deck_id: [{"id": card.id, "kind": card.kind, "vars": dict(card.vars)} for card in deck.cards
                            for _ in range(card.count)] for deck_id, deck in game.decks.items()},
        # punctuation written in templates follows the language too: "Force\u202f:" but "Strength:"
        "colon": Markup(apply_typography("x:", localized.language.typography)[1:]),
    }
