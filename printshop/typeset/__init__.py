"""Typesetting: templates to rich text, fonts, hyphenation, justification and fitting text into
frames."""
