"""Encoding damage in texts: mojibake, UTF-8 read as Latin-1 or Windows-1252 ("polÃ­tico" for
"político", "lâ€™" for "l’"), found with ftfy, the library made for it. The repaired text is the
hint. On the project's own 1,500 texts (French, English, German with ß, names in Cyrillic) it
finds nothing: ftfy changes a text only where the pattern of a misread is unmistakable.

A PO file's charset header is checked against its bytes here too (`po_charset_problem`): a header
that says ISO-8859-1 over UTF-8 bytes makes every "é" an "Ã©" when the file is read by its header.
"""

from __future__ import annotations

import codecs
import re

import ftfy

_CHARSET = re.compile(rb'^"Content-Type:[^"\n]*charset=([A-Za-z0-9._:-]+)', re.MULTILINE)


def repaired(text: str) -> str | None:
    """The text with its encoding damage undone, or None where there is none."""
    if text.isascii():
        return None
    fixed = ftfy.fix_encoding(text)
    return fixed if fixed != text else None


def declared_charset(data: bytes) -> tuple[str, int] | None:
    """The charset a PO file's header names, with the header line's number; None without one."""
    match = _CHARSET.search(data)
    if match is None:
        return None
    return match.group(1).decode("ascii"), data.count(b"\n", 0, match.start()) + 1


def po_charset_problem(data: bytes) -> tuple[int, str, str] | None:
    """(line, message, hint) where a PO file's bytes do not match its charset header; None where
    they do (or the header names none and the bytes are UTF-8, the PO default of every editor)."""
    declared = declared_charset(data)
    name, line = declared if declared else ("UTF-8", 1)
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        return (
            line,
            f"the header names the charset '{name}', which is not an encoding",
            "write charset=UTF-8 in the Content-Type header",
        )
    try:
        data.decode("utf-8")
        utf8 = True
    except UnicodeDecodeError as error:
        utf8, bad = False, error.start
    if codec == "utf-8" and not utf8:
        where = data.count(b"\n", 0, bad) + 1
        return (
            where,
            f"the file says charset={name}, but its bytes are not UTF-8 from line {where} on (saved "
            "in another encoding, Windows-1252 say)",
            "save the file as UTF-8 in your editor (Poedit does), or correct the header's charset",
        )
    if codec != "utf-8" and utf8 and not data.isascii():
        return (
            line,
            f"the file says charset={name}, but its bytes are UTF-8: read as {name}, every accented "
            "letter would be imported garbled ('é' as 'Ã©')",
            "write charset=UTF-8 in the Content-Type header (Poedit: Catalogue, Properties)",
        )
    return None


def decoded(data: bytes) -> str:
    """The text of PO bytes whose charset matched (po_charset_problem gave None)."""
    declared = declared_charset(data)
    return data.decode(declared[0] if declared else "utf-8")
