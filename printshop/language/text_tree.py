"""The accessor templates read a language's texts through: `t.card.informer.name` is a TextTree
lookup, inner nodes are TextTrees and leaves are the texts' Markup (language/texts.py makes them).
A misspelt id is MissingText with the nearest id; a group of texts written out whole is
TextGroupPrinted, not Python's name for the object."""

from __future__ import annotations

from typing import Any, Iterator

from markupsafe import Markup

from printshop import memos
from printshop.diagnostics import closest
from printshop.memo import Reads


class MissingText(Exception):
    def __init__(self, text_id: str, lang: str, near: str = ""):
        super().__init__(
            f"there is no text '{text_id}' in language '{lang}'"
            + (f" (it has '{near}': is one of the two misspelt?)" if near else "")
        )
        self.text_id = text_id
        self.lang = lang


class TextGroupPrinted(Exception):
    """A group of texts (`t.card.sun`, not `t.card.sun.name`) written into a template's output:
    Python's own name for the object, with its address, went onto the card (a different one each
    run)."""

    def __init__(self, text_id: str, lang: str, children: list[str]):
        what = (
            f"'{text_id}' is a group of texts" if text_id else "'t' is every text of the language"
        )
        shown = ", ".join(children[:6]) + (", …" if len(children) > 6 else "")
        example = f"t.{text_id}.{children[0]}" if text_id and children else "t.<text id>"
        super().__init__(
            f"{what} ({shown}), not one text, in language '{lang}': print one of them, for example "
            f"{{{{ {example} }}}}, or loop over the group"
        )
        self.text_id = text_id
        self.lang = lang


def _child_index(texts) -> dict[str, dict[str, None]]:
    """prefix -> its child names in source order; the same ids in the same order (a language's
    catalogue laid out again: every check and build, each refresh of a session) give the same index,
    made once per process. Never changed once made."""
    ids = tuple(texts)
    known = _CHILD_INDEXES.get(ids)
    if known is None:
        known = _CHILD_INDEXES[ids] = _index_children(ids)
    return known


_CHILD_INDEXES = memos.CHILD_INDEXES


def _index_children(texts) -> dict[str, dict[str, None]]:
    children: dict[str, dict[str, None]] = {}
    for key in texts:
        parts = key.split(".")
        for depth in range(len(parts)):
            prefix = "".join(part + "." for part in parts[:depth])
            children.setdefault(prefix, {}).setdefault(parts[depth], None)
    return children


class TextTree:
    """`t.card.informer.name` in a template: inner nodes are TextTrees, leaves are Markup.

    Every text handed to a template is noted in the tree's read log (`start_log`), so layout knows
    which text ids each frame prints: an overflow is then reported at the translation that caused
    it."""

    def __init__(
        self,
        texts: dict[str, Markup],
        lang: str,
        prefix: str = "",
        children: dict[str, dict[str, None]] | None = None,
        log: list | None = None,
    ):
        self._texts = texts
        self._lang = lang
        self._prefix = prefix
        # prefix ("" or "card.informer.") -> its child names in source order; built once per
        # catalogue, so a lookup costs the same in a deck of ten cards or ten thousand
        self._children = children if children is not None else _child_index(texts)
        # shared by every node of one tree: [the current list], or [None] when nobody is listening
        # (booklets)
        self._log = log if log is not None else [None]
        # this node's inner nodes by their ids, each made when first read (`t.card` on every card is
        # one node; kept by their parent only, so a tree holds no cycle and goes as soon as it is
        # dropped)
        self._nodes: dict[str, TextTree] = {}

    def stop_log(self) -> None:
        """Record nothing more (until the next `start_log`)."""
        self._log[0] = None

    def start_log(self) -> list[str]:
        """A new, empty list that records the ids of the texts read from now on."""
        log: list[str] = []
        self._log[0] = log
        return log

    def _child(self, name: str) -> "TextTree | Markup":
        text_id = f"{self._prefix}{name}"
        if text_id in self._texts:
            if self._log[0] is not None:
                self._log[0].append(text_id)
            return self._texts[text_id]
        node = self._nodes.get(text_id)
        if node is not None:
            return node
        if text_id + "." in self._children:
            node = self._nodes[text_id] = TextTree(
                self._texts, self._lang, text_id + ".", self._children, self._log
            )
            return node
        near = closest(name, self._children.get(self._prefix, ()), cutoff=0.75)
        raise MissingText(text_id, self._lang, f"{self._prefix}{near}" if near else "")

    def __str__(self) -> str:  # (Jinja writes a value out with str(), or escape() that calls it)
        raise TextGroupPrinted(self._prefix[:-1], self._lang, self.keys())

    def __getattr__(self, name: str) -> "TextTree | Markup":
        if name.startswith("_"):
            raise AttributeError(name)
        return self._child(name)

    def __getitem__(self, name: str) -> "TextTree | Markup":
        return self._child(str(name))

    def keys(self) -> list[str]:
        """The child names, in the order the source file gives them."""
        return list(self._children.get(self._prefix, ()))

    def __iter__(self) -> Iterator["TextTree | Markup"]:
        return (self._child(name) for name in self.keys())

    def __len__(self) -> int:
        return len(self.keys())


def texts_of(tree: TextTree) -> dict[str, Any]:
    """The texts a tree looks its ids up in (a TextTree answers templates by attribute, so it has no
    public attribute of its own a text id could collide with)."""
    return tree._texts


def note_reads(tree: TextTree) -> Reads:
    """Make the tree note every text it looks up (a live session lays a face out again only when a
    text it read changed), and return the noting mapping."""
    tree._texts = Reads(tree._texts)
    return tree._texts
