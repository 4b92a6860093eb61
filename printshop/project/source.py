"""Reading YAML data files so that every value keeps its file, line and column.

`read_yaml` never raises for bad input: syntax errors and duplicate keys become diagnostics.
`locate` turns a path of keys and indices inside a document into a `Location`, which is how
schema errors and later checks point at the exact place in the file.
"""

from __future__ import annotations

import collections
import re
from pathlib import Path
from typing import Any, Iterable

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq, LineCol, merge_attrib
from ruamel.yaml.compat import ordereddict
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from printshop import memo, memos
from printshop.diagnostics import Location, Report
from printshop.project.yaml_safety import (
    ANY_UNREADABLE,
    CONTROL_SAYS,
    MAX_TEXT,
    RAW_CONTROL,
    UNSAFE_RAW,
    character_name,
    may_be_deep_or_aliased,
    string_is_safe,
    structure_is_safe,
)
from printshop.project.yaml_wording import plainly, unclosed_quote


class _Constructor(RoundTripConstructor):
    """Keeps the first of two duplicate keys and records the second instead of aborting."""

    duplicates: list[
        tuple[Any, Any, Any]
    ]  # (key, its mark, the first's line and column): set before each load

    def check_mapping_key(self, node, key_node, mapping, key, value) -> bool:  # noqa: D102
        if key in mapping:
            first = mapping.lc.key(key) if key in mapping.lc.data else None
            self.duplicates.append((key, key_node.start_mark, first))
            return False
        return True


LINE_COL = LineCol.attrib


class Document:
    """A loaded YAML file: its root node and where it came from."""

    def __init__(self, path: Path, root: Any):
        self.path = path
        self.root = root
        self.values_checked = False  # True: every key and value is known to pass `_values_are_safe`

    def where(self, keys: Iterable[Any] = ()) -> Location:
        return locate(self.path, self.root, tuple(keys))


def _yaml(preserve_quotes: bool = False) -> YAML:
    yaml = YAML(typ="rt")
    yaml.Constructor = _Constructor
    yaml.preserve_quotes = preserve_quotes
    return yaml


# Limits a data file must keep, so that a hostile or broken file is refused with a diagnostic rather
# than crashing or stalling the reader: libyaml's C composer recurses once per level of nesting
# (about 25,000 levels overflow the C stack: a segfault, no message), and checks over a text cost
# time with its length. Real data stays far below each of them.
MAX_FILE_BYTES = 4_000_000  # (the limits on depth and length: yaml_safety.py)


def read_yaml(path: Path, report: Report, *, preserve_quotes: bool = False) -> Document | None:
    """Parse `path`; on failure add diagnostics to `report` and return None."""
    try:
        size = path.stat().st_size
    except OSError:
        size = 0  # reading says why
    if size > MAX_FILE_BYTES:
        report.add(
            "too-large",
            Location.of(path, 1, 1),
            f"{path.name} is {size / 1e6:.1f} MB; a data file may hold at most {MAX_FILE_BYTES / 1e6:.0f} MB",
        )
        return None
    document = _read_yaml(path, report, preserve_quotes)
    if (
        document is not None
        and not getattr(document, "values_checked", False)
        and not _values_are_safe(document, report)
    ):
        return None
    return document


# What reading a text gave, by the text, for the texts read without a diagnostic: a process that
# reads the same file again (a session after an edit, `i18n` commands, a build after a check) or a
# copy of it gets the same maps and lists without parsing. Nothing changes a document once read (the
# loader, layers and faces' `extends` build new maps), so they are shared; tests/test_source.py
# checks that a check and a build leave them as they were.
_PARSED = memos.PARSED_DOCUMENTS
_PARSED_MAX_CHARS = 1_000_000  # a text longer than this is not kept
_PARSED_BUDGET = 32_000_000  # the texts kept, in characters: the least recently read go first
_parsed_chars = 0
# The text each file last gave: when a file is saved with another, the old text's document goes. A
# session (watch, serve) reads the file it is edited in after every save, and kept every version: a
# parsed document holds about twelve times its text in memory, so a day of saves in Kremlin's French
# grew by hundreds of MB before the budget above let any go.
_LAST_TEXT = memos.LAST_TEXT


def _keep(text: str, root: Any, path: Path | None = None) -> None:
    global _parsed_chars
    if not memo.ON:  # PRINTSHOP_MEMO=off: nothing is kept (nor counted against the budget)
        return
    if not _PARSED:  # (a new process, or the memos cleared: memo.clear_all)
        _parsed_chars = 0
    if path is not None:
        before = _LAST_TEXT.get(str(path))
        _LAST_TEXT[str(path)] = text
        if before is not None and before != text and before in _PARSED:
            del _PARSED[before]
            _parsed_chars -= len(before)
    if text in _PARSED:
        _PARSED.move_to_end(text)
        return
    _PARSED[text] = root
    _parsed_chars += len(text)
    while _parsed_chars > _PARSED_BUDGET and _PARSED:
        dropped, _ = _PARSED.popitem(last=False)
        _parsed_chars -= len(dropped)


MAX_DIGITS = 4300  # sys.get_int_max_str_digits(): longer integers raise ValueError when read
_TOO_MANY_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


def _read_yaml(path: Path, report: Report, preserve_quotes: bool) -> Document | None:
    text = _read_text(path, report)
    if text is None:
        return None
    if not preserve_quotes:
        kept = _PARSED.get(text)
        if (
            kept is not None
        ):  # the same text read before in this process, and found sound (the checks below too)
            _keep(text, kept, path)
            document = Document(path, kept)
            document.values_checked = True
            return document
    if _text_is_refused(path, text, report):
        return None
    if may_be_deep_or_aliased(text) and not structure_is_safe(path, text, report):
        return None
    if not preserve_quotes:  # reading, not editing: libyaml's C parser, ten times quicker
        before = len(report.items)
        fast = _fast_load(path, text, report)
        if isinstance(fast, _Refused):
            return None
        if fast is not None:
            if (
                fast.values_checked
                and len(report.items) == before
                and len(text) <= _PARSED_MAX_CHARS
            ):
                _keep(text, fast.root, path)
            return fast
    return _load_round_trip(path, text, report, preserve_quotes)


def _read_text(path: Path, report: Report) -> str | None:
    """The file's text, or None (and why, in `report`) when it cannot be read as UTF-8."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        report.add("file-missing", Location.of(path), f"{path.name} is missing")
        return None
    except UnicodeDecodeError as error:
        raw = path.read_bytes()
        line = text_line_of_offset(raw, error.start)
        start = (
            raw.rfind(b"\n", 0, error.start) + 1
        )  # the column counts the characters before it on its line
        column = len(raw[start : error.start].decode("utf-8", errors="replace")) + 1
        report.add(
            "yaml-syntax",
            Location.of(path, line, column),
            f"the file is not UTF-8 text (byte 0x{raw[error.start]:02X} here): save it as UTF-8",
            hint="in your editor, save the file with the UTF-8 encoding (often under 'Save as' or "
            "'Encoding'); a file written in Latin-1 or Windows-1252 shows its accents this way",
        )
        return None
    except OSError as error:
        report.add("file-missing", Location.of(path), f"cannot read the file: {error.strerror}")
        return None
    return text


def _text_is_refused(path: Path, text: str, report: Report) -> bool:
    """Whether the text holds what no reader may see: a control character YAML refuses, or an
    integer longer than Python reads (reported)."""
    control = RAW_CONTROL.search(text)
    if control is not None:
        report.add(
            "yaml-syntax",
            Location.of(path, *place_of(text, control.start())),
            f"the file holds {character_name(control.group())} here, {CONTROL_SAYS}",
            hint="take it out (or write a space or a new line where one was meant); editors often show it as "
            "nothing",
        )
        return True
    digits = _TOO_MANY_DIGITS.search(text)
    if (
        digits is not None
    ):  # Python refuses to read an integer this long (and no count or size needs one)
        report.add(
            "too-large",
            Location.of(path, *place_of(text, digits.start())),
            f"a number of {digits.end() - digits.start():,} digits; printshop reads at most {MAX_DIGITS:,}",
            hint="write a smaller number",
        )
        return True
    return False


def _load_round_trip(
    path: Path, text: str, report: Report, preserve_quotes: bool
) -> Document | None:
    """The text read by ruamel.yaml (comments kept when editing), its syntax errors, aliases and
    duplicate keys reported."""
    yaml = _yaml(preserve_quotes)
    try:
        loader = yaml.load  # the constructor instance is created lazily; give it a list
        yaml.constructor.duplicates = []
        root = loader(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        problem = " ".join(str(p) for p in (error.context, error.problem) if p)
        opened = unclosed_quote(text, line)
        if (
            opened is not None
        ):  # the parser read on to the next line's quote: the mistake is where it opened
            report.add(
                "yaml-syntax",
                Location.of(path, *opened),
                f"YAML syntax: the text in quotes that starts here does not end on its line (the parser read on "
                f"and stopped at line {line}, column {col}: {problem})",
                hint="end the text with the quote it starts with, on the same line",
            )
            return None
        said, hint = plainly(problem)
        report.add("yaml-syntax", Location.of(path, line, col), f"YAML syntax: {said}", hint=hint)
        return None
    except YAMLError as error:
        report.add("yaml-syntax", Location.of(path, 1, 1), f"YAML syntax: {error}")
        return None
    except RecursionError:
        report.add("yaml-syntax", Location.of(path, 1, 1), "YAML nesting is too deep")
        return None
    alias = _first_alias(root)
    if alias is not None:
        report.add(
            "yaml-syntax",
            Location.of(path, *alias),
            "YAML aliases (*name) are not supported in printshop data: write the value out",
        )
        return None
    for key, mark, first in yaml.constructor.duplicates:
        also = f" (first at line {first[0] + 1})" if first else ""
        report.add(
            "duplicate-key",
            Location.of(path, mark.line + 1, mark.column + 1),
            f"the key '{key}' appears twice in one mapping{also}; the second is ignored",
        )
    return Document(path, root)


def _values_are_safe(document: Document, report: Report) -> bool:
    """Every key and value: at most MAX_TEXT characters, valid Unicode (no lone surrogates, which a
    "\\ud800" escape makes), no bidirectional controls. A file that fails is refused as a whole."""
    path, safe = document.path, True
    stack = [document.root]
    while stack:
        node = stack.pop()
        if isinstance(node, CommentedMap):
            pairs = list(items_of(node))
            members = [key for key, _ in pairs] + [value for _, value in pairs]
        elif isinstance(node, CommentedSeq):
            members = list(list.__iter__(node))
        else:
            continue
        # most maps and lists hold no text that fails: one search each, their places looked up for
        # none
        if not any(
            isinstance(member, str) and (len(member) > MAX_TEXT or ANY_UNREADABLE.search(member))
            for member in members
        ):
            stack.extend(
                member for member in members if isinstance(member, (CommentedMap, CommentedSeq))
            )
            continue
        if isinstance(node, CommentedMap):
            items = [(key, node.lc.key(key), True) for key in node] + [
                (value, node.lc.value(key), False) for key, value in node.items()
            ]
        else:
            items = [(value, node.lc.item(index), False) for index, value in enumerate(node)]
        for value, position, is_key in items:
            if position is None:  # inside a node of another tag (!!omap): its own node's place
                position = (node.lc.line or 0, node.lc.col or 0)
            if isinstance(value, (CommentedMap, CommentedSeq)):
                stack.append(value)
            elif isinstance(value, str) and not string_is_safe(
                value,
                Location.of(path, position[0] + 1, position[1] + 1),
                "key" if is_key else "value",
                report,
            ):
                safe = False
    return safe


# YAML 1.2 core schema, as ruamel.yaml reads plain scalars (libyaml's Python side would use 1.1,
# where yes/no/on/off are booleans and 1:20 is a number)
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"^[-+]?[0-9]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_SPECIAL = re.compile(
    r"^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|0o[0-7]+|0x[0-9a-fA-F]+|[0-9_]+[_:][0-9_:]*)$"
)
_STANDARD_TAGS = {
    f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "map", "seq")
}


class _Unsupported(Exception):
    """Something the quick reader leaves to ruamel.yaml (which words the diagnostic)."""


def _fast_load(path: Path, text: str, report: Report) -> Document | _Refused | None:
    """The document as ruamel.yaml's round-trip loader would give it (maps and lists with line and
    column), parsed by libyaml's C composer. None: let ruamel.yaml read it (syntax errors, tags,
    unusual scalars, or PyYAML missing)."""
    try:
        import yaml as pyyaml

        composer = _composer(
            pyyaml
        )  # no implicit tags: `_scalar` reads plain scalars as YAML 1.2 does
    except (ImportError, AttributeError):
        return None
    if "%YAML" in text:
        return None  # a version directive: ruamel.yaml reads the file as that version says
    try:
        node = pyyaml.compose(text, Loader=composer)
    except (pyyaml.YAMLError, RecursionError):
        return None
    seen: set[int] = set()
    duplicates: list = []
    too_long: list = []
    scalar_node, mapping_node = pyyaml.ScalarNode, pyyaml.MappingNode
    set_item = ordereddict.__setitem__  # what CommentedMap's own __setitem__ ends in, for a new key

    def scalar(node, what="value"):
        value = _scalar(node)
        if isinstance(value, str) and len(value) > MAX_TEXT:
            too_long.append((node, what))
        return value

    def build(node):
        if isinstance(node, scalar_node):
            return scalar(node)
        if id(node) in seen:
            raise _Alias(node.start_mark)
        seen.add(id(node))
        if node.tag not in _STANDARD_TAGS:
            raise _Unsupported(node.tag)
        # the maps and lists ruamel.yaml makes, with their line and column data written directly
        # (its setters build the same objects, a call at a time)
        where = LineCol()
        mark = node.start_mark
        where.line, where.col, where.data = mark.line, mark.column, {}
        data = where.data
        if isinstance(node, mapping_node):
            mapping = CommentedMap()
            setattr(mapping, LINE_COL, where)
            kept = mapping._ok
            for key_node, value_node in node.value:
                if not isinstance(key_node, scalar_node):
                    raise _Unsupported("a complex key")
                key = scalar(key_node, "key")
                if (
                    id(value_node) in seen
                ):  # an alias: point at its key (the node itself is the anchor's)
                    raise _Alias(key_node.start_mark)
                if key in mapping:
                    duplicates.append((key, key_node.start_mark, data[key]))
                    continue
                set_item(mapping, key, build(value_node))
                kept.add(key)
                key_mark, value_mark = key_node.start_mark, value_node.start_mark
                data[key] = [key_mark.line, key_mark.column, value_mark.line, value_mark.column]
            return mapping
        sequence = CommentedSeq()
        setattr(sequence, LINE_COL, where)
        for index, item in enumerate(node.value):
            sequence.append(build(item))
            data[index] = [item.start_mark.line, item.start_mark.column]
        return sequence

    try:
        root = build(node) if node is not None else None
    except _Alias as alias:
        report.add(
            "yaml-syntax",
            Location.of(path, alias.mark.line + 1, alias.mark.column + 1),
            "YAML aliases (*name) are not supported in printshop data: write the value out",
        )
        return _Refused()
    except (_Unsupported, RecursionError):
        return None
    for node, what in too_long:
        mark = node.start_mark
        string_is_safe(node.value, Location.of(path, mark.line + 1, mark.column + 1), what, report)
    if too_long:
        return _Refused()
    for key, mark, first in duplicates:
        report.add(
            "duplicate-key",
            Location.of(path, mark.line + 1, mark.column + 1),
            f"the key '{key}' appears twice in one mapping (first at line {first[0] + 1}); the second is ignored",
        )
    document = Document(path, root)
    # lengths were checked above; controls and surrogates can only be there if the raw text shows
    # one or an escape that could make one
    document.values_checked = UNSAFE_RAW.search(text) is None
    return document


@memos.COMPOSER
def _composer(pyyaml):
    """libyaml's composer (CBaseLoader), with the tag of every node given at once: CBaseLoader's
    resolver has no implicit or path resolvers, so it always ends in the default tag of the node's
    kind, but the C composer calls it (and its descend and ascend hooks) in Python for every node, a
    fifth of the time."""
    base = pyyaml.CBaseLoader
    if base.yaml_implicit_resolvers or base.yaml_path_resolvers:
        return base  # (another PyYAML whose base resolver resolves: keep it)
    tags = {
        pyyaml.ScalarNode: base.DEFAULT_SCALAR_TAG,
        pyyaml.SequenceNode: base.DEFAULT_SEQUENCE_TAG,
        pyyaml.MappingNode: base.DEFAULT_MAPPING_TAG,
    }

    class Composer(base):
        def resolve(self, kind, value, implicit):
            return tags[kind]

        def descend_resolver(self, current_node, current_index):
            pass

        def ascend_resolver(self):
            pass

    return Composer


class _Alias(Exception):
    def __init__(self, mark):
        super().__init__("alias")
        self.mark = mark


class _Refused:
    """read_yaml's answer when the quick reader has reported why the file cannot be used."""


_STR_TAG = "tag:yaml.org,2002:str"
_NUMBER_STARTS = frozenset("0123456789+-._")


def _scalar(node) -> Any:
    """A scalar as ruamel.yaml reads it (YAML 1.2). The composer gives every scalar without a tag of
    its own the string tag; one with another tag (`!!int 3`) is left to ruamel.yaml."""
    value = node.value
    if node.tag != _STR_TAG:
        raise _Unsupported(node.tag)
    if node.style:  # quoted or a block scalar: a string
        return value
    if not value or value[0] in _NUMBER_STARTS:
        if _INT.match(value):
            return int(value)
        if _FLOAT.match(value):
            return float(value)
        if _SPECIAL.match(value):
            raise _Unsupported(value)  # rare forms: ruamel.yaml knows them
    if _NULL.match(value):
        return None
    if value in _BOOL:
        return _BOOL[value]
    return value


def _first_alias(root: Any) -> tuple[int, int] | None:
    """Where a mapping or list is reached a second time (an alias), if anywhere. Aliases could
    make a small file expand into millions of values, so data files may not use them."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if not isinstance(node, (CommentedMap, CommentedSeq)):
            continue
        if id(node) in seen:
            line, col = node_position(node)
            return line, col
        seen.add(id(node))
        stack.extend(node.values() if isinstance(node, CommentedMap) else node)
    return None


def text_line_of_offset(data: bytes, offset: int) -> int:
    return data[:offset].count(b"\n") + 1


def place_of(text: str, offset: int) -> tuple[int, int]:
    """(line, column), from 1, of the character at `offset` in `text`."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def locate(path: Path, root: Any, keys: tuple[Any, ...], *, key_itself: bool = False) -> Location:
    """The location of the value reached by `keys` from `root`, or of the deepest node reached.

    With `key_itself`, the last key's own position (for "unknown key") rather than its value's.
    """
    node = root
    line, col = node_position(root)
    for index, key in enumerate(keys):
        last = index == len(keys) - 1
        if isinstance(node, CommentedMap) and key in node:
            position = node.lc.key(key) if (last and key_itself) else node.lc.value(key)
            if (
                position is not None
            ):  # (none inside a node of another tag, !!omap: the node's own place stays)
                line, col = position[0] + 1, position[1] + 1
            origins = getattr(node, "origins", None)  # a map merged from layered files (layers.py)
            path = origins.get(key, path) if origins else path
            node = node[key]
        elif isinstance(node, CommentedSeq) and isinstance(key, int) and 0 <= key < len(node):
            position = node.lc.item(key)
            if position is not None:
                line, col = position[0] + 1, position[1] + 1
            node = node[key]
        else:
            break
    return Location.of(path, line, col)


def items_of(node: CommentedMap):
    """A map's items in its order, read in C: ruamel's own view is a Python generator that calls a
    Python `__getitem__` per key, which loading a deck asks millions of times. A map with `<<` merge
    keys is read through ruamel, which resolves them."""
    return (
        node.items() if getattr(node, merge_attrib, None) else collections.OrderedDict.items(node)
    )


def node_position(node: Any) -> tuple[int, int]:
    """(line, column), from 1, where a YAML node starts; (1, 1) when it does not say."""
    lc = getattr(node, "lc", None)
    if lc is not None and lc.line is not None:
        return lc.line + 1, lc.col + 1
    return 1, 1
