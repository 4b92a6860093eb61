"""Arithmetic rules written in data ("n - 2", "(n + 1) // 2"), evaluated safely.

Only integers, the declared variable, + - * // % and parentheses are accepted; data is never
handed to eval().
"""

from __future__ import annotations

import ast
import operator
import re
import warnings

_OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}


class ExpressionError(ValueError):
    pass


MAX_LENGTH = 200
_NUMBER_INTO_NAME = re.compile(
    r"(?<![\w.])\d+(?:\.\d+)?[A-Za-z_]\w*"
)  # "2n", "2.5in": what Python cannot read


def evaluate(expression: str, variables: dict[str, int]) -> int:
    if len(expression) > MAX_LENGTH:
        raise ExpressionError(
            f"the expression is {len(expression)} characters long; a rule needs at most {MAX_LENGTH}"
        )
    try:
        with (
            warnings.catch_warnings()
        ):  # Python's own "SyntaxWarning: invalid decimal literal" ('2.5in') on stderr
            warnings.simplefilter("ignore", SyntaxWarning)
            tree = ast.parse(expression.strip(), mode="eval")
        return _eval(tree.body, expression, variables)
    except SyntaxError:
        run_in = _NUMBER_INTO_NAME.search(expression)
        raise ExpressionError(
            f"'{expression}' is not an arithmetic expression"
            + (
                f": '{run_in.group()}' runs a number into a name; write a product out ('2 * n', not '2n'), and no units"
                if run_in
                else ""
            )
        ) from None
    except (RecursionError, MemoryError):
        raise ExpressionError("the expression is nested too deeply") from None


def need_count(count: "str | dict[int, int]", variable: str, n: int) -> int:
    """A setup need for n players: an expression in the variable, or a value per player count."""
    if isinstance(count, dict):
        if n not in count:
            raise ExpressionError(
                f"no value for {n} players (given for {', '.join(map(str, sorted(count)))})"
            )
        return count[n]
    return evaluate(count, {variable: n})


def _eval(node: ast.AST, source: str, variables: dict[str, int]) -> int:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in variables:
            raise ExpressionError(
                f"'{source}' uses '{node.id}'; only {', '.join(variables)} may be used"
            )
        return variables[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, source, variables)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _eval(node.left, source, variables), _eval(node.right, source, variables)
        if isinstance(node.op, (ast.FloorDiv, ast.Mod)) and right == 0:
            raise ExpressionError(f"'{source}' divides by zero")
        return _OPERATORS[type(node.op)](left, right)
    raise ExpressionError(
        f"'{source}' may only use whole numbers, {', '.join(variables)}, + - * // % and parentheses"
    )
