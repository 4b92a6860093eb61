"""Game-rule arithmetic declared in game.yaml: the board's offices and succession, the goal deck
for every roster, and the setup's needs for every player count.
"""

from __future__ import annotations

from printshop.diagnostics import Report
from printshop.project.expressions import ExpressionError, evaluate, need_count
from printshop.project.loader import GameData
from printshop.project.models.game import Board, CardEntry, GoalDeck, Phase


def check_board(game: GameData, report: Report) -> None:
    """Offices are unique; each phase's acting office and succession name real offices, once each;
    the promotion order names every office but the top one exactly once; phases run 1, 2, 3, ..."""
    board = game.game.board
    if board is None:
        return
    ids = [office.id for office in board.offices]
    for office in board.offices:
        if ids.count(office.id) > 1:
            report.add("duplicate-id", office.where("id"), f"office '{office.id}' is listed twice")
    numbers = [phase.number for phase in board.phases]
    if numbers != list(range(1, len(numbers) + 1)):
        report.add(
            "succession",
            board.where("phases"),
            f"phases should be numbered 1–{len(numbers)} in order: {numbers}",
        )
    for phase in board.phases:
        _check_phase(phase, ids, report)
    if board.promotions:
        _check_promotions(board, ids, report)


def _check_phase(phase: Phase, ids: list[str], report: Report) -> None:
    """A phase's acting office and succession name real offices, once each."""
    order = ([phase.acts] if phase.acts else []) + phase.succession
    for index, name in enumerate(order):
        where = phase.where("acts") if phase.acts and index == 0 else phase.where("succession")
        if name not in ids:
            report.add(
                "unknown-reference",
                where,
                f"phase {phase.number} ({phase.id}): no office '{name}' "
                f"(offices: {', '.join(ids)})",
            )
        elif order.index(name) != index:
            report.add(
                "succession",
                where,
                f"phase {phase.number} ({phase.id}): '{name}' appears twice",
            )
    if phase.succession and not phase.acts:
        report.add(
            "succession",
            phase.where(),
            f"phase {phase.number} ({phase.id}) has a succession but no acting office",
        )


def _check_promotions(board: Board, ids: list[str], report: Report) -> None:
    """The promotion order names every office but the top one exactly once."""
    expected = ids[1:]
    for name in board.promotions:
        if name not in ids:
            report.add(
                "unknown-reference",
                board.where("promotions"),
                f"promotions: no office '{name}'",
            )
    missing = [office for office in expected if office not in board.promotions]
    repeated = sorted({name for name in board.promotions if board.promotions.count(name) > 1})
    if missing or repeated or ids[0] in board.promotions:
        report.add(
            "succession",
            board.where("promotions"),
            f"promotions should fill every office below '{ids[0]}' once: missing {missing or 'none'}, "
            f"repeated {repeated or 'none'}",
        )


def check_goal_deck(game: GameData, report: Report) -> None:
    """For every roster (the `always` roles plus any allowed number of others): the goal cards each
    dealt role needs exist, the pool divides by `discard`, exactly `remain` cards are left after
    dealing, and the roster's starting tokens fit the kit's tokens."""
    rule = game.game.goal_deck
    if rule is None:
        return
    deck = game.game.decks.get(rule.deck)
    if deck is None:
        report.add("unknown-reference", rule.where("deck"), f"no deck '{rule.deck}'")
        return
    roles = {
        card.vars["role"]: card
        for card in deck.cards
        if card.kind == "role" and "role" in card.vars
    }
    goals = {
        (str(card.vars.get("rank")), card.vars.get("suit"))
        for card in deck.cards
        if card.kind == "goal"
        for _ in range(card.count)
    }
    for name in rule.always + rule.no_goal_cards:
        if name not in roles:
            report.add("unknown-reference", rule.where(), f"goal deck: no role card for '{name}'")
            return
    others = [name for name in roles if name not in rule.always]
    missing: dict[tuple[str, str], str] = {}
    for suit in rule.suits:
        if (rule.extra_rank, suit) not in goals:
            missing[(rule.extra_rank, suit)] = "every game"
    wrong, tokens_over = _check_rosters(rule, roles, goals, others, missing)
    _report_goal_deck(rule, missing, wrong, tokens_over, report)


def _check_rosters(
    rule: GoalDeck,
    roles: dict[str | int, CardEntry],
    goals: set[tuple[str, str | int | None]],
    others: list[str | int],
    missing: dict[tuple[str, str], str],
) -> tuple[list[str], list[str]]:
    """Every roster the rule allows, in turn: the goal cards its dealt roles need (added to
    `missing`), and the rosters that leave the wrong number of goal cards or start with too many
    tokens."""
    from itertools import combinations

    wrong, tokens_over = [], []
    for size in range(rule.others.min, rule.others.max + 1):
        for chosen in combinations(others, size):
            roster: list[str | int] = [*rule.always, *chosen]
            named = ", ".join(str(name) for name in roster)
            with_goals = [name for name in roster if name not in rule.no_goal_cards]
            for name in with_goals:
                for suit in rule.suits:
                    key = (str(roles[name].vars.get("rank")), suit)
                    if key not in goals:
                        missing.setdefault(key, f"rosters with the {name}")
            pool = len(rule.suits) * len(with_goals)
            left = pool - pool // rule.discard + len(rule.suits) - rule.deal * len(with_goals)
            if pool % rule.discard or left != rule.remain:
                wrong.append(f"{named}: {left} left")
            tokens = sum(int(roles[name].vars.get("tokens", 0)) for name in roster)
            if rule.tokens is not None and tokens > rule.tokens:
                tokens_over.append(f"{named}: {tokens}")
    return wrong, tokens_over


def _report_goal_deck(
    rule: GoalDeck,
    missing: dict[tuple[str, str], str],
    wrong: list[str],
    tokens_over: list[str],
    report: Report,
) -> None:
    for (rank, suit), who in sorted(missing.items()):
        report.add(
            "setup-impossible",
            rule.where("suits"),
            f"the goal deck needs the {rank} of {suit} for {who}, but deck '{rule.deck}' has none",
        )
    if wrong:
        report.add(
            "setup-impossible",
            rule.where("remain"),
            f"{len(wrong)} roster(s) do not leave exactly {rule.remain} goal cards, e.g. {wrong[0]}",
        )
    if tokens_over:
        report.add(
            "setup-impossible",
            rule.where("tokens"),
            f"{len(tokens_over)} roster(s) start with more than the kit's {rule.tokens} tokens, "
            f"e.g. {tokens_over[0]}",
        )


def check_setup(game: GameData, report: Report) -> None:
    setup = game.game.setup
    if setup is None:
        return
    players = game.game.players
    for need in setup.needs:
        deck = game.game.decks.get(need.deck)
        if deck is None:
            report.add("unknown-reference", need.where("deck"), f"no deck '{need.deck}'")
            continue
        available = sum(card.count for card in deck.cards if card.kind == need.kind)
        short = []
        for n in range(players.min, players.max + 1):
            try:
                wanted = need_count(need.count, setup.variable, n)
            except ExpressionError as error:
                report.add("rule-expression", need.where("count"), str(error))
                break
            if wanted < 0 or wanted > available:
                short.append(f"{n} players need {wanted}")
            limit = setup.limits.get(need.kind)
            if limit is not None and wanted > limit:
                report.add(
                    "setup-impossible",
                    need.where("count"),
                    f"{n} players need {wanted} '{need.kind}' but the material holds {limit} "
                    f"(setup.limits)",
                )
        if short:
            report.add(
                "setup-impossible",
                need.where("count"),
                f"deck '{need.deck}' has {available} '{need.kind}' card(s): {'; '.join(short)}",
            )
    if setup.total is not None:
        for n in range(players.min, players.max + 1):
            try:
                total = evaluate(setup.total, {setup.variable: n})
                parts = sum(need_count(need.count, setup.variable, n) for need in setup.needs)
            except ExpressionError:
                continue  # reported above
            if parts != total:
                report.add(
                    "setup-impossible",
                    setup.where("total"),
                    f"for {n} players the needs add up to {parts}, not {total}",
                )
