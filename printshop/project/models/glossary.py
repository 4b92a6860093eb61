"""The schema of data/<game>/glossary.yaml: the game's terms (phases, resources, card types, roles),
each declared once with its rendering in every language.

A translation whose reference text (the text it is made from) holds a term's rendering in the
reference language must hold the term's rendering in its own language, or one of its `forms`
(checks/glossary.py, `glossary-term`). Renderings are found as printshop/language/glossary.py says:
accents and case aside, each word of the rendering begins a word of the text, in order; a word of
eight letters or more needs all but its last two, one of five to seven all but its last
("Remplacement" finds "remplacements", "Sustitución" finds "sustituciones"), shorter words are
whole words; an irregular form goes in `forms`.
"""

from __future__ import annotations

from pydantic import Field

from printshop.project.models.values import Identifier
from printshop.project.schema import Node


class Term(Node):
    """One term of the game and how each language renders it."""

    kind: str = ""
    """What the term names (phase, resource, card type, role), shown to translators."""
    note: str = ""
    """What the term means in the game, for translators (exported as the TBX definition)."""
    renderings: dict[str, str] = Field(min_length=1)
    """The term in each language, by language code (fr: Remplacement, en: Replacement); the source
    language's is required."""
    forms: dict[str, list[str]] = {}
    """Other forms a language may use for the term (irregular plurals, a short form), by language
    code; exported as admitted terms."""
    case_sensitive: bool = False
    """Whether the term is found only with its capitals, in every language (a phase "Guérison",
    not the common word "guérison")."""


class GlossaryFile(Node):
    terms: dict[Identifier, Term] = {}
    """The terms by id."""
