"""The bounds on what one template render may make, for the sandbox (typeset/templating.py): one
expression at most MAX_MADE characters or items (`~`, `+`, `%`, a filter such as `join`, `replace`
or `center`, a string method: checked before they run where small values make a large one, and
their results after); one render at most MAX_OUTPUT printed (its output, macros', `set` and `call`
blocks': `Buffer`, `concat`), and at most MAX_STEPS loop turns and calls (`Steps`, `counted_loop`),
so that a template shared from elsewhere cannot fill the memory or run for hours (a `~` doubling a
string in a loop reached 2.7 GB). Each is a TemplateLimit, which the sandbox reports at the
template's line. `BoundedCode` compiles templates with these checks in.
"""

from __future__ import annotations

import contextvars
import math
import re

import jinja2

MAX_MADE = 1_000_000  # items or characters one expression (`*`, `~`, a filter...) may make
MAX_OUTPUT = 20_000_000  # characters one render (a face, a booklet) may print
MAX_STEPS = 2_000_000  # loop turns one render may take, all its loops together; a call is 20
BUDGET: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("steps", default=None)
# a width or precision of 7 digits or more, or given as `*`, in a format string (`%` and `format`)
WIDE_PERCENT = re.compile(r"%[-+ #0]*(?:\*|\d{7,})|%[-+ #0]*\d*\.(?:\*|\d{7,})")
WIDE_BRACES = re.compile(r"\{[^{}]*:[^{}]*(?:\d{7,}|\{)")


class TemplateLimit(Exception):
    """A template asked for more than printshop lets one expression make."""


def too_big(size: int, what: str) -> None:
    if size > MAX_MADE:
        raise TemplateLimit(
            f"{what} would make {size:,} characters or items; a template may make at most "
            f"{MAX_MADE:,} at once"
        )


_SIZED = (str, list, tuple, bytes, dict)


def sized(value):
    """`value`, if it is not longer than a template may make."""
    if isinstance(value, _SIZED) and len(value) > MAX_MADE:
        too_big(len(value), "this expression")
    return value


def before_call(name: str, text, args: tuple, kwargs: dict) -> None:
    """Refuse, before it runs, a call that would make more than MAX_MADE from small values: a
    string method or filter (`name`) of `text`, such as `"x".center(10**10)`."""
    first = args[0] if args else None
    if name in ("center", "ljust", "rjust", "zfill") and isinstance(first, int):
        too_big(first, f"{name}({first})")
    elif name == "expandtabs":
        too_big(len(text) * (first if isinstance(first, int) else 8), "expandtabs")
    elif name == "indent":
        width = first if first is not None else kwargs.get("width", 4)
        lines = text.count("\n") + 1 if isinstance(text, str) else 1
        too_big(len(text) + lines * (width if isinstance(width, int) else len(str(width))), name)
    elif name == "replace" and len(args) >= 2 and isinstance(text, str):
        old, new = str(args[0]), str(args[1])
        times = text.count(old) if old else len(text) + 1
        too_big(len(text) + times * len(new), "replace")
    elif name in ("format", "format_map") and isinstance(text, str):
        if WIDE_BRACES.search(text) or WIDE_PERCENT.search(text):
            raise TemplateLimit("a width or precision this large is more than a template may make")


def join_size(items, separator) -> int:
    size = 0
    for index, item in enumerate(items):
        size += len(item) if isinstance(item, str) else 16
        size += len(separator) if index else 0
        if size > MAX_MADE:
            break
    return size


# the filters that make a large value from small ones: checked before they run
_GROWING = frozenset({"join", "format", "center", "indent", "replace"})


def bounded_filter(name: str, function):
    """Jinja's filter `name`, refusing what would make more than MAX_MADE (`before_call`, for the
    filters that can: _GROWING) and any result longer than that."""
    skip = 1 if getattr(function, "jinja_pass_arg", None) is not None else 0

    def bounded(*args, **kwargs):
        return sized(function(*args, **kwargs))

    def checked(*args, **kwargs):
        values = args[skip:]
        if values:
            text, rest = values[0], values[1:]
            if name == "join":
                items = list(text) if not isinstance(text, (list, tuple, str)) else text
                separator = rest[0] if rest else kwargs.get("d", "")
                too_big(join_size(items, str(separator)), "join")
                args = (*args[:skip], items, *rest)
            elif name == "format" and isinstance(text, str) and WIDE_PERCENT.search(text):
                raise TemplateLimit(
                    "a width or precision this large is more than a template may make"
                )
            else:
                before_call(name, text, rest, kwargs)
        return sized(function(*args, **kwargs))

    wrapper = checked if name in _GROWING else bounded
    wrapper.__dict__.update(
        getattr(function, "__dict__", {})
    )  # (jinja_pass_arg, as Jinja reads it)
    return wrapper


class Steps:
    """The loop turns one render may still take (`MAX_STEPS`), shared by the templates it includes."""

    def __enter__(self):
        self._token = BUDGET.set([MAX_STEPS])
        return self

    def __exit__(self, *exc):
        BUDGET.reset(self._token)
        return False


def counted_loop(iterable):
    budget = BUDGET.get()
    if budget is None:
        return iterable
    return _counting(iterable, budget)


def _counting(iterable, budget: list[int]):
    for item in iterable:
        budget[0] -= 1
        if budget[0] < 0:
            out_of_steps()
        yield item


def out_of_steps():
    raise TemplateLimit(
        f"the template's loops and calls took more than {MAX_STEPS:,} steps; a template may take "
        "at most that many in one render"
    )


class Buffer(list):
    """What a macro, a `set` block or a `call` block prints, gathered: at most MAX_OUTPUT
    characters (the parts are kept until they are joined: a bound on the join came too late)."""

    size = 0

    def append(self, part) -> None:
        self._add(len(part))
        super().append(part)

    def extend(self, parts) -> None:
        parts = tuple(parts)
        self._add(sum(len(part) for part in parts))
        super().extend(parts)

    def _add(self, size: int) -> None:
        self.size += size
        if self.size > MAX_OUTPUT:
            raise TemplateLimit(
                f"the template printed more than {MAX_OUTPUT:,} characters; a template may "
                "print at most that many"
            )


class BoundedCode(jinja2.compiler.CodeGenerator):
    """The sandbox's compiled code, with each `~` checked (`_Sandbox.bounded`), each `for`
    loop counted (`counted_loop`) and each buffer bounded (`Buffer`)."""

    def buffer(self, frame) -> None:
        frame.buffer = self.temporary_identifier()
        self.writeline(f"{frame.buffer} = environment.new_buffer()")

    def visit_Concat(self, node, frame) -> None:
        self.write("environment.bounded(")
        super().visit_Concat(node, frame)
        self.write(")")

    def visit_For(self, node, frame) -> None:
        if not node.recursive:
            node.iter = jinja2.nodes.Call(
                jinja2.nodes.EnvironmentAttribute("counted"), [node.iter], [], None, None
            )
        super().visit_For(node, frame)


def bounded_concat(parts) -> str:
    """The sandbox's `concat`: the parts a render, a macro or a block printed, joined, at most
    MAX_OUTPUT characters. Raised inside the generator printing them, when it is one: at the line
    of the template that printed too much."""
    if type(parts) is Buffer:  # (a macro's, a block's: bounded as it was filled)
        return "".join(parts)
    pieces: list[str] = []
    append, size = pieces.append, 0
    for part in parts:
        size += len(part)
        if size > MAX_OUTPUT:
            error = TemplateLimit(
                f"the template printed more than {MAX_OUTPUT:,} characters; a template may "
                "print at most that many"
            )
            if hasattr(parts, "throw"):
                parts.throw(error)
            raise error
        append(part)
    return "".join(pieces)


def checked_format(wrapped, method):
    """The sandbox's `str.format` (`wrapped`) of `method`'s string, its widths bounded
    (`before_call`) and its result (`sized`)."""
    text, name = method.__self__, method.__name__

    def checked(*args, **kwargs):
        before_call(name, text, args, kwargs)
        return sized(wrapped(*args, **kwargs))

    return checked


def before_any_call(function, args: tuple, kwargs: dict) -> tuple:
    """Each call a template makes is 20 steps (a macro calling itself twice ran for hours); a
    string method's call checked (`before_call`; a `join` of its items' sizes). Returns the
    arguments to call it with (an iterator joined: its items, read once)."""
    budget = BUDGET.get()
    if budget is not None:
        budget[0] -= 20
        if budget[0] < 0:
            out_of_steps()
    owner, name = getattr(function, "__self__", None), getattr(function, "__name__", "")
    if not isinstance(owner, str):
        return args
    before_call(name, owner, args, kwargs)
    if name == "join" and args:
        items = list(args[0])
        too_big(join_size(items, owner), "join")
        args = (items, *args[1:])
    return args


def before_binop(operator: str, left, right) -> None:
    """`**` of numbers past 64 bits, `*` making more than MAX_MADE, `%` with a width this large:
    refused before they run."""
    numbers = isinstance(left, (int, float)) and isinstance(right, (int, float))
    if operator == "**" and numbers and abs(left) > 1 and right * math.log2(abs(left)) > 64:
        raise TemplateLimit(f"{left} ** {right} is larger than a template may compute")
    count, item = (right, left) if isinstance(right, int) else (left, right)
    if (
        operator == "*"
        and isinstance(count, int)
        and isinstance(item, (str, list, tuple))
        and count * len(item) > MAX_MADE
    ):
        raise TemplateLimit(
            f"this * would make {count * len(item):,} characters or items; a template may "
            f"make at most {MAX_MADE:,} at once"
        )
    if operator == "%" and isinstance(left, str) and WIDE_PERCENT.search(left):
        raise TemplateLimit("a width or precision this large is more than a template may make")
