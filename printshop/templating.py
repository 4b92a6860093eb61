"""Jinja templates that turn a localized game into text markup, one block per layout frame.

Autoescape is on (values from data are escaped for ReportLab's XML-like markup; texts from the
catalogues arrive already sanitized as Markup) and undefined names are errors. Templates are
files under `templates/`; data is never compiled as a template.
"""
from __future__ import annotations

import traceback
from pathlib import Path

import jinja2
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from printshop.diagnostics import Location
from printshop.texts import MissingText, PlaceholderError, fill


class TemplateFailure(Exception):
    """A template could not be rendered; `location` points into the template when known."""

    def __init__(self, message: str, location: Location, cause: Exception | None = None):
        super().__init__(message)
        self.location = location
        self.cause = cause


def make_environment(templates_dir: Path) -> Environment:
    """Templates from `templates_dir`; what it lacks of printshop's own (templates/common/, such as
    the how-to-print page) comes from the default folder, so another project need not copy them."""
    from printshop.paths import DEFAULT_TEMPLATES_DIR

    paths = [str(templates_dir)]
    if Path(templates_dir).resolve() != DEFAULT_TEMPLATES_DIR.resolve():
        paths.append(str(DEFAULT_TEMPLATES_DIR))
    env = Environment(loader=FileSystemLoader(paths), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False)
    env.filters["fill"] = fill
    return env


def render_blocks(env: Environment, name: str, context: dict) -> dict[str, str]:
    """Render every block of template `name` separately: {block name: markup}."""
    template = _get(env, name)
    try:
        ctx = template.new_context(context)
        for _ in template.root_render_func(ctx):  # defines top-level {% set %} and macros for the blocks
            pass
        return {block: "".join(render(ctx)) for block, render in template.blocks.items()}
    except Exception:  # noqa: BLE001 - any failure inside a template becomes a diagnostic
        raise _failure(_with_template_lines(env), template) from None


def render_template(env: Environment, name: str, context: dict) -> str:
    template = _get(env, name)
    try:
        return template.render(context)
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
    root = Path(env.loader.searchpath[0])
    try:
        return env.get_template(name)
    except jinja2.TemplateNotFound:
        raise TemplateFailure(f"template '{name}' not found in {root}", Location.of(root / name)) from None
    except jinja2.TemplateSyntaxError as error:
        path = Path(error.filename) if error.filename else root / name
        raise TemplateFailure(f"template syntax: {error.message}", Location.of(path, error.lineno or 0, 1)) from None


def _failure(error: Exception, template: jinja2.Template) -> TemplateFailure:
    path = Path(template.filename)
    line = 0
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename and Path(frame.filename) == path:
            line = frame.lineno or 0
    if isinstance(error, (MissingText, PlaceholderError)):
        message = str(error)
    elif isinstance(error, jinja2.UndefinedError):
        message = f"the template uses something undefined: {error.message}"
    else:
        message = f"the template failed: {type(error).__name__}: {error}"
    return TemplateFailure(message, Location.of(path, line, 1 if line else 0), error)
