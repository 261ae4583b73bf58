"""Text that people type or files hold, made safe to show.

Pure Python (no pygame): the engine checks seat names with it and the client
cleans what is typed into text fields.  A font draws nothing for a format
character (U+200B zero width space, U+202E right-to-left override, U+00AD
soft hyphen, U+FEFF byte order mark...) and pygame refuses to render a text
of zero width or one holding a NUL, so such characters never get in.

>>> clean_text("\\u200bMi\\u00adra\\x00")
'Mira'
>>> clean_text("Zoe\\u0301\\tB")   # composed (NFC), a tab becomes a space
'Zoé B'
>>> showable("\\u202e"), showable("é")
(False, True)
"""

from __future__ import annotations

import unicodedata

#: Categories that are never drawn: controls, format characters, surrogates,
#: private use and unassigned code points.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
#: Unicode's default-ignorable code points outside those categories (variation
#: selectors, the combining grapheme joiner, Hangul fillers...): fonts give
#: them no width either.
IGNORABLE = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
             (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0x1D173, 0x1D17A),
             (0xE0000, 0xE0FFF))


def showable(char: str) -> bool:
    """Whether one character draws as something (a space counts)."""
    if char == " ":
        return True
    if unicodedata.category(char) in HIDDEN_CATEGORIES or char.isspace():
        return False
    code = ord(char)
    return not any(low <= code <= high for low, high in IGNORABLE)


def clean_text(text: str, limit: int | None = None) -> str:
    """``text`` in composed form (NFC) with only characters that can be shown.

    Whitespace of any kind (tabs, line breaks) becomes a plain space; every
    other hidden character is dropped.  ``limit`` cuts the result to that many
    characters.
    """
    if not isinstance(text, str):
        text = str(text)
    if not (text.isascii() and text.isprintable()):
        text = unicodedata.normalize("NFC", text)
        text = "".join(" " if ch.isspace() else ch for ch in text
                       if ch.isspace() or showable(ch))
    return text if limit is None else text[:limit]


def visible(text: str) -> bool:
    """Whether ``text`` shows at least one character that is not a space."""
    return bool(clean_text(text).strip())


def hidden_character(text: str) -> str | None:
    """The first character of ``text`` that cannot be shown (spaces are fine), or None."""
    for ch in text:
        if ch != " " and not showable(ch):
            return ch
    return None


def unprintable(text: str) -> str | None:
    """The first control character (NUL, escape...) or lone surrogate in ``text``, or None.

    pygame cannot draw a text holding a NUL at all; the other hidden characters
    only draw as nothing, so a name that has them besides visible letters is kept.
    """
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs"):
            return ch
    return None


__all__ = ["clean_text", "showable", "visible", "hidden_character", "unprintable"]
