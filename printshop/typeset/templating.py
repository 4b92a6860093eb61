"""Jinja templates that turn a localized game into text markup, one block per layout frame.

Autoescape is on (values from data are escaped for ReportLab's XML-like markup; texts from the
catalogues arrive already sanitized as Markup) and undefined names are errors. Templates are
files under `templates/`; data is never compiled as a template.
"""

from __future__ import annotations

import os
import re
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import jinja2
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

from printshop import memos
from printshop.diagnostics import Location, did_you_mean
from printshop.language.text_tree import MissingText, TextGroupPrinted, TextTree
from printshop.language.texts import PlaceholderError, fill
from printshop.project.source import place_of
from printshop.typeset.template_limits import (
    BoundedCode,
    Buffer,
    Steps,
    TemplateLimit,
    before_any_call,
    before_binop,
    bounded_concat,
    bounded_filter,
    checked_format,
    counted_loop,
    sized,
)


class TemplateFailure(Exception):
    """A template could not be rendered; `location` points into the template when known."""

    def __init__(
        self,
        message: str,
        location: Location,
        cause: Exception | None = None,
        hint: str = "",
        missing: str | None = None,
    ):
        super().__init__(message)
        self.location = location
        self.cause = cause
        self.hint = (
            hint  # what to do, when it is not the catalogue's "fix the template at the place shown"
        )
        # a template that does not exist, by its name: its caller may say where it was named
        self.missing = missing
        self.called_from: Location | None = (
            None  # the face's template line, when it failed in a macro or include
        )


HOW_TO_PRINT_TEMPLATE = (
    "common/how-to-print.xml.j2"  # the kit's first page (render/how_to_print.py)
)


def template_folders(templates_dir: Path) -> list[Path]:
    """Where an environment finds templates, in order: the project's folder, then printshop's own
    common/."""
    from printshop.project.paths import COMMON_TEMPLATES_DIR

    return [Path(templates_dir), COMMON_TEMPLATES_DIR]


def template_file(folders: list[Path], name: str) -> Path | None:
    """The file the loader reads for the template `name`: the first of `folders` that has it."""
    try:
        pieces = jinja2.loaders.split_template_path(name)
    except jinja2.TemplateNotFound:  # a name leading out of the folders
        return None
    for folder in folders:
        path = Path(folder, *pieces)
        if path.is_file():
            return path
    return None


_REFERENCE_TAG = re.compile(r"\{%[-+]?\s*(?:extends|include|import|from)\b(.*?)[-+]?%\}", re.S)
_NAMED = re.compile(
    r"""\s*("[^"\\]*"|'[^'\\]*')(?:\s+(?:import\b|ignore\s+missing\b|with\s+context\b|"""
    r"""without\s+context\b|as\s+\w).*)?\s*""",
    re.S,
)


def referenced_templates(source: str) -> list[str | None]:
    """The templates a template's source names in its extends, include, import and from tags; None
    for one named by an expression (a variable, a list, a name joined with ~), known only while it
    renders. Read from the text, not parsed: a tag inside a comment or a raw block counts too, which
    adds a template that is not read, never leaves out one that is (a test checks the names against
    Jinja's own jinja2.meta)."""
    found: list[str | None] = []
    for match in _REFERENCE_TAG.finditer(source):
        named = _NAMED.fullmatch(match.group(1))
        found.append(named.group(1)[1:-1] if named else None)
    return found


def make_environment(templates_dir: Path) -> Environment:
    """Templates from `templates_dir`; what it lacks of printshop's own (common/, such as the
    how-to-print page) comes from the package (printshop/defaults/templates/), so a project need not
    copy them, and may override one by writing its own templates/common/<name>.

    An environment reads each template once (`auto_reload` off: Jinja would otherwise look at the
    file's time on every use, a thousand times for a thousand cards); a session makes a new one for
    each refresh, so an edited template is read again."""
    paths = [str(folder) for folder in template_folders(templates_dir)]
    env = _Sandbox(
        loader=_Loader(paths),
        autoescape=True,
        undefined=_Undefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        bytecode_cache=_bytecode_cache(),
        auto_reload=False,
    )
    env.filters["fill"] = fill
    env.filters = {name: bounded_filter(name, function) for name, function in env.filters.items()}
    return env


class _Sandbox(SandboxedEnvironment):
    """Jinja's sandbox: a template reads the values it is given and their public attributes, never
    Python's internals (`''.__class__.__mro__`), so a games folder from elsewhere cannot run code
    through its templates; `range` stops at 100,000 items, and `*` and `**` at MAX_MADE (`"x" *
    100000000` ran a build for minutes).

    Every render is bounded in size and time: one expression makes at most MAX_MADE characters or
    items (`~`, `+`, `%`, a filter such as `join`, `replace` or `center`, a string method: checked
    before they run where small values make a large one, and their results after), one render
    prints at most MAX_OUTPUT (`concat`: macros, `set` blocks and the whole output), and its loops
    take at most MAX_STEPS turns together (`counted_loop`; a loop doubling a string ran until the
    memory was gone). Each is a TemplateLimit at the template's line."""

    code_generator_class = BoundedCode
    intercepted_binops = frozenset({"*", "**", "+", "%"})
    counted = staticmethod(counted_loop)
    new_buffer = Buffer

    bounded = staticmethod(sized)
    concat = staticmethod(bounded_concat)

    def wrap_str_format(self, value):
        """Jinja's `str.format` made safe, its widths and result bounded too."""
        wrapped = super().wrap_str_format(value)
        return checked_format(wrapped, value) if wrapped is not None else None

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - as Jinja names them
        args = before_any_call(__obj, args, kwargs)
        return sized(super().call(__context, __obj, *args, **kwargs))

    def call_binop(self, context, operator, left, right):
        before_binop(operator, left, right)
        return sized(super().call_binop(context, operator, left, right))

    def getattr(self, obj, attribute):
        """`obj.attribute`, as Jinja's sandbox gives it. The two kinds of value templates read most
        (a data map's key, a text of the catalogue: 13,000 reads in a check of the catalogue) are
        answered without its general path, which looks the attribute up first and, for a map, raises
        and catches an AttributeError before reading the item: a tenth of laying out a deck. The
        answer is the same: a plain dict has no attributes but its methods, and a TextTree's names
        are its texts, none starting with '_'."""
        kind = type(obj)
        if kind is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except (TypeError, LookupError):
                return self.undefined(obj=obj, name=attribute)
        if (
            kind is TextTree
            and attribute not in _TEXT_TREE_ATTRIBUTES
            and not attribute.startswith("_")
        ):
            return obj._child(attribute)
        return super().getattr(obj, attribute)


_DICT_ATTRIBUTES = frozenset(dir(dict))
_TEXT_TREE_ATTRIBUTES = frozenset(dir(TextTree))


class _Loader(FileSystemLoader):
    """Jinja's loader, with a template that is not UTF-8 text reported at its file, line and column
    (Jinja raised a UnicodeDecodeError that named neither, and a build called it a bug in
    printshop)."""

    def get_source(self, environment, template):
        try:
            return super().get_source(environment, template)
        except UnicodeDecodeError as error:
            path = template_file([Path(folder) for folder in self.searchpath], template)
            if path is None:
                raise
            raw = path.read_bytes()
            before = raw[: error.start].decode("utf-8", "replace")
            raise TemplateFailure(
                f"template '{template}' is not UTF-8 text: byte 0x{raw[error.start]:02x} here is "
                f"not a character",
                Location.of(path, *place_of(before, len(before))),
                hint="save the template as UTF-8 in your editor",
            ) from None


KEPT_TEMPLATES = (
    1_000  # compiled templates kept; past that, the least recently used go, down to 750
)
# the compiled templates this process read from the folder or compiled, by the template's file and a
# hash of its source, as the folder keeps them: a process that builds again (a session's every
# refresh makes a new environment) takes them from memory, without reading, unmarshalling and
# marking the file again
_COMPILED = memos.COMPILED_TEMPLATES
_pruned: set[str] = set()  # cache folders this process has kept within KEPT_TEMPLATES


class _QuietBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's compiled templates kept between runs (keyed by the template's file and a hash of its
    source, so an edited template is compiled again); a cache that cannot be written is only slower,
    never an error.

    A template in another folder is another entry (its path is in the compiled code, for the lines
    errors name): a publisher's projects, copies and temporary folders would add entries for ever.
    The folder keeps about KEPT_TEMPLATES: an entry is marked used each time it is read, and when
    there are more, the first compile of a process removes the least recently used, down to three
    quarters of that."""

    def dump_bytecode(self, bucket) -> None:
        _COMPILED[bucket.key, bucket.checksum] = bucket.code
        try:
            super().dump_bytecode(bucket)
        except OSError:
            return
        if self.directory not in _pruned:
            _pruned.add(self.directory)
            from printshop.project.paths import keep_newest

            keep_newest(Path(self.directory), self.pattern % ("*",), KEPT_TEMPLATES)

    def load_bytecode(self, bucket) -> None:
        code = _COMPILED.get((bucket.key, bucket.checksum))
        if code is not None:  # read from the folder (or compiled) before in this process
            bucket.code = code
            return
        try:
            super().load_bytecode(bucket)
        except (
            OSError,
            EOFError,
            ValueError,
            TypeError,
        ):  # a truncated or foreign file: compile instead
            bucket.reset()
            return
        if bucket.code is not None:
            _COMPILED[bucket.key, bucket.checksum] = bucket.code
            try:
                os.utime(self._get_cache_filename(bucket))  # used now: the last to go
            except OSError:
                pass


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled templates in the user's cache folder (paths.user_cache_dir); None (compile every
    run) when it is turned off or cannot be used."""
    from printshop.project.paths import user_cache_dir

    folder = user_cache_dir("templates")
    # (their own names: code compiled outside the sandbox, by printshop before it had one, did `*`
    # unchecked)
    # (and "bounded-": code compiled before `~` and loops were bounded)
    return _QuietBytecodeCache(str(folder), "bounded-%s.cache") if folder is not None else None


class RenderedBlocks(dict):
    """{block name: markup}, and `reads`: {block name: the text ids the block printed, in order}."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: dict[str, list[str]] = {}


def render_blocks(env: Environment, name: str, context: dict) -> RenderedBlocks:
    """`_render_blocks`, its loops counted (`Steps`)."""
    with Steps():
        return _render_blocks(env, name, context)


def _render_blocks(env: Environment, name: str, context: dict) -> RenderedBlocks:
    """Render every block of template `name` separately, noting which texts of `context['t']` each
    reads.

    The template's top level runs once, for the {% set %} names and macros the blocks use; it calls
    each block where the block stands, and that call is the block's rendering (the one Jinja's own
    `render` would print): kept, with the texts read meanwhile, not rendered a second time. A block
    the top level does not call (in a false {% if %}) is rendered on its own afterwards. A block
    printed again (`self.title()`) or from inside another block renders as Jinja renders it, its
    reads counted as the outer block's."""
    template = _get(env, name)
    tree: Any = context.get("t")  # the texts, which note what a block reads when they can
    logs = hasattr(tree, "start_log")
    found = RenderedBlocks()
    inside = [0]  # blocks being kept, one inside another
    ctx = None
    try:
        ctx = template.new_context(context)

        def kept(block: str, render):
            def run(called) -> Iterator[str]:
                if block in found or inside[0] or called is not ctx:
                    yield from render(called)
                    return
                inside[0] += 1
                reads = tree.start_log() if logs else []
                try:
                    text = env.concat(render(called))
                finally:
                    inside[0] -= 1
                    if logs:
                        tree.stop_log()
                found[block], found.reads[block] = text, list(dict.fromkeys(reads))
                yield text

            return run

        ctx.blocks = {
            block: [kept(block, stack[0]), *stack[1:]] for block, stack in ctx.blocks.items()
        }
        for _ in template.root_render_func(ctx):
            pass
        rendered = RenderedBlocks()  # in the template's order of blocks
        for block, render in template.blocks.items():
            if block not in found:
                reads = tree.start_log() if logs else []
                found[block], found.reads[block] = (
                    env.concat(render(ctx)),
                    list(dict.fromkeys(reads)),
                )
            rendered[block], rendered.reads[block] = found[block], found.reads[block]
        return rendered
    except Exception:  # noqa: BLE001 - any failure inside a template becomes a diagnostic
        raise _failure(_with_template_lines(env), template) from None
    finally:
        if logs:
            tree.stop_log()
        if ctx is not None:
            # the context holds the blocks' wrappers and the template's macros, which hold it:
            # cycles the collector had to find, 25,000 objects a check of the catalogue; emptied,
            # they go at once
            ctx.blocks.clear()
            ctx.vars.clear()
            ctx.exported_vars.clear()


def render_template(env: Environment, name: str, context: dict) -> str:
    template = _get(env, name)
    try:
        with Steps():
            return template.render(context)
    except TemplateFailure:  # an included template that cannot be read: at its own place
        raise
    except Exception:  # noqa: BLE001
        raise _failure(_with_template_lines(env), template) from None


def _with_template_lines(env: Environment) -> Exception:
    """The exception being handled, its traceback rewritten by Jinja to point at template lines."""
    try:
        env.handle_exception()
    except Exception as rewritten:  # noqa: BLE001
        return rewritten
    raise AssertionError("handle_exception always raises")


def _get(env: Environment, name: str) -> jinja2.Template:
    try:
        return env.get_template(name)
    except jinja2.TemplateNotFound as error:
        root = Path(_folders(env)[0])
        # a template that includes or imports a missing one: point at that line, not at the first
        # file (never Undefined: get_template fails at an undefined name before it looks for it)
        missing = cast(str, error.name or name)
        if (
            not root.is_dir()
        ):  # every template is missing: the folder is, a data folder copied without it
            raise TemplateFailure(
                f"there is no templates folder {root}",
                Location.of(root),
                hint="name the templates folder with --templates (or `templates` in "
                "printshop.toml), or copy the templates beside the data folder",
            ) from None
        # the templates there are, by their names as data writes them (a misspelt one: the one it is
        # close to)
        try:
            there = env.list_templates()
        except Exception:  # noqa: BLE001 - a guess only
            there = []
        near = did_you_mean(
            missing, [t for t in there if t.split("/")[0] == missing.split("/")[0]] or there
        )
        raise TemplateFailure(
            f"template '{missing}' not found in {root}{near}",
            Location.of(root / name, 1, 1),
            hint="add the template, or correct the name faces.yaml (or game.yaml) gives it"
            if missing == name
            else "add the template, or correct the name the template includes or imports",
            missing=missing,
        ) from None
    except jinja2.TemplateSyntaxError as error:
        path = Path(error.filename) if error.filename else Path(_folders(env)[0]) / name
        line = error.lineno or 1
        unknown = _UNKNOWN_FILTER.fullmatch(error.message or "")
        if (
            unknown
        ):  # `| uper`: the filter or test it is close to, and where the ones there are are listed
            kind, written = unknown.groups()
            names = env.filters if kind == "filter" else env.tests
            raise TemplateFailure(
                f"template syntax: no {kind} named '{written}'{did_you_mean(written, sorted(names))}",
                Location.of(path, line, _column(path, line, error.message or "")),
                hint="use one of the filters a template has: printshop's, listed in "
                "docs/templates.md, and Jinja's own (upper, length, default, …)"
                if kind == "filter"
                else "use one of Jinja's tests (defined, even, odd, divisibleby, …)",
            ) from None
        unclosed = _UNCLOSED.search(error.message or "")
        tag = unclosed.group(1) if unclosed else None
        opened = _opening_left(path, tag) if tag else None
        if (
            opened is not None
        ):  # Jinja reached the end of the file: the block to close is where it opens
            raise TemplateFailure(
                f"template syntax: this {{% {tag} %}} is never closed: {{% end{tag} %}} is missing "
                "(Jinja read on to the end of the template)",
                Location.of(path, *opened),
                hint=f"add {{% end{tag} %}} where the {tag} ends",
            ) from None
        raise TemplateFailure(
            f"template syntax: {error.message}",
            Location.of(path, line, _column(path, line, error.message or "")),
        ) from None


_UNKNOWN_FILTER = re.compile(
    r"No (filter|test) named '([^']*)'\.?"
)  # Jinja's words for a name it does not know
_UNCLOSED = re.compile(
    r"Unexpected end of template\..*innermost block that needs to be closed is '(\w+)'", re.S
)
_BLOCK_TAG = re.compile(
    r"\{%[-+]?\s*(end)?(for|if|block|macro|call|filter|with|set|raw|trans)\b(?P<rest>[^%]*)%\}"
)


def _opening_left(path: Path, tag: str) -> tuple[int, int] | None:
    """(line, column) of the innermost `{% tag %}` the template opens and never closes, else None."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    opened: list[tuple[str, int]] = []
    for found in _BLOCK_TAG.finditer(text):
        end, name = found.group(1), found.group(2)
        if name == "set" and "=" in found.group("rest"):
            continue  # `{% set x = … %}` closes itself; only `{% set x %}…{% endset %}` is a block
        if end:
            for index in range(len(opened) - 1, -1, -1):
                if opened[index][0] == name:
                    del opened[index:]
                    break
        else:
            opened.append((name, found.start()))
    for name, start in reversed(opened):
        if name == tag:
            return place_of(text, start)
    return None


class _Undefined(StrictUndefined):
    """StrictUndefined that names what a mapping has: `card.vars.oill` said "'dict object' has no
    attribute 'oill'"; it says "there is no 'oill'; did you mean 'oil'? (there are: oil)"."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        owner, name = self._undefined_obj, self._undefined_name
        if self._undefined_hint is None and isinstance(owner, dict) and isinstance(name, str):
            keys = [str(key) for key in owner]
            return f"there is no '{name}'{did_you_mean(name, keys)} (there are: {', '.join(keys) or 'none'})"
        return super()._undefined_message


def template_location(env: Environment, name: str) -> Location:
    """The first line of template `name`, for what concerns the whole file (a block it lacks)."""
    for folder in _folders(env):
        if (Path(folder) / name).is_file():
            return Location.of(Path(folder) / name, 1, 1)
    return Location.of(Path(_folders(env)[0]) / name, 1, 1)


def _folders(env: Environment) -> list[str]:
    """The folders `env` reads templates from, in order (make_environment gives every one a
    _Loader)."""
    return cast(FileSystemLoader, env.loader).searchpath


def _failure(error: Exception, template: jinja2.Template) -> TemplateFailure:
    """Where a template failed: the innermost template line of the traceback (inside a macro or an
    included file when the failure is there), with the face's own template line as `called_from`."""
    assert template.filename is not None  # every template is read from a file (_Loader)
    path = Path(template.filename)
    template_frames = [
        (Path(frame.filename), frame.lineno or 1)
        for frame in traceback.extract_tb(error.__traceback__)
        if frame.filename and _is_template(frame.filename)
    ]
    own = [line for frame_path, line in template_frames if frame_path == path]
    if template_frames:
        path, line = template_frames[-1]
    else:
        line = 1  # nothing better known: the file's first line, never 0:0
    if isinstance(error, (MissingText, PlaceholderError, TextGroupPrinted)):
        message = str(error)
    elif isinstance(error, TemplateLimit):
        message = str(error)
    elif isinstance(error, jinja2.sandbox.SecurityError):
        message = f"templates may read only the values they are given and their data: {error}"
    elif isinstance(error, jinja2.UndefinedError):
        message = f"the template uses something undefined: {error.message}"
    else:
        message = f"the template failed: {type(error).__name__}: {error}"
    failure = TemplateFailure(
        message, Location.of(path, line, _column(path, line, str(error))), error
    )
    if own and Path(template.filename) != path:
        failure.called_from = Location.of(template.filename, own[-1], 1)
    return failure


def _is_template(filename: str) -> bool:
    """Jinja rewrites tracebacks so a template's frames carry its file; Python's own files end in
    .py."""
    return not filename.endswith(".py") and not filename.startswith("<")


_QUOTED = re.compile(r"'([^'\s]+)'")


def _column(path: Path, line: int, message: str) -> int:
    """The column of what the message names on that line ('foo' in "has no attribute 'foo'", the
    last part of a text id), else of the line's first character that is not a space; 1 if unknown."""
    try:
        text = path.read_text(encoding="utf-8").splitlines()[line - 1]
    except (OSError, IndexError, UnicodeDecodeError):
        return 1
    names = _QUOTED.findall(message)[
        :1
    ]  # the first is the culprit; later ones are languages and the like
    if names and names[0] in (
        "}",
        "{",
        "%",
    ):  # a brace: one that is not half of Jinja's own "}}", "%}", "{{", "{%"
        lone = [
            m.start()
            for m in re.finditer(re.escape(names[0]), text)
            if text[m.start() - 1 : m.start() + 1] not in ("}}", "%}", "{{")
            and text[m.start() : m.start() + 2] not in ("}}", "{{", "{%", "%}")
        ]
        if lone:
            return lone[0] + 1
    for name in names:
        parts = name.split(
            "."
        )  # a text id: its deepest part the line writes (t.office[...] for 'office.econmy')
        for candidate in [name] + parts[::-1]:
            found = re.search(rf"(?<![\w]){re.escape(candidate)}(?![\w])", text)
            if found:
                return found.start() + 1
    return len(text) - len(text.lstrip()) + 1
