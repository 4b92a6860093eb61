"""The short docs stay short and true (issue 55, item 7): ARCHITECTURE.md lists every module and no
module that is gone, within 1,500 words; README.md stays within 150 lines and links only to docs
that exist; no line of either is over 100 characters."""

from __future__ import annotations

import re

from tests.conftest import REPO

ARCHITECTURE = REPO / "ARCHITECTURE.md"
README = REPO / "README.md"
# a module's bullet names it by its path in backticks: "- `printshop/checks/validate.py`: ..."
LISTED = re.compile(r"`(printshop/[\w/]+\.py)`")
DOCS_LINK = re.compile(r"\]\((docs/[^)#\s]+)")


def modules() -> set[str]:
    """Every module file of the package; package __init__s and __main__ are described by their
    package, not listed."""
    return {
        path.relative_to(REPO).as_posix()
        for path in (REPO / "printshop").rglob("*.py")
        if path.name not in ("__init__.py", "__main__.py")
    }


def test_every_module_is_listed_in_architecture():
    listed = set(LISTED.findall(ARCHITECTURE.read_text(encoding="utf-8")))
    assert sorted(modules() - listed) == [], "add a line for each to ARCHITECTURE.md's Modules"


def test_every_listed_module_exists():
    listed = set(LISTED.findall(ARCHITECTURE.read_text(encoding="utf-8")))
    assert sorted(path for path in listed if not (REPO / path).is_file()) == []


def test_architecture_is_at_most_1500_words():
    assert len(ARCHITECTURE.read_text(encoding="utf-8").split()) <= 1500


def test_readme_is_at_most_150_lines():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 150


def test_no_line_over_100_characters():
    long = [
        f"{doc.name}:{number}"
        for doc in (ARCHITECTURE, README)
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1)
        if len(line) > 100
    ]
    assert long == []


def test_readme_links_to_docs_that_exist():
    links = DOCS_LINK.findall(README.read_text(encoding="utf-8"))
    assert links, "the README links to its docs/ pages"
    assert sorted(link for link in links if not (REPO / link).is_file()) == []
