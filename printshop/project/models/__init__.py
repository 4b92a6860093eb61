"""The schema of the data files: what each file may say, with units and defaults, one module per
kind of file (media, profile, targets, art, booklet, language, faces, game) and the kinds of value
they share (values).

These models describe data only; they hold no game logic. Every model is a `Node`, so each
value can say where in which file it was written. reference.py writes docs/data-format.md and the
JSON Schemas from them, and the docstring under each field.
"""
