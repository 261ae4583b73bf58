"""A small Markdown reader for the rules screen (no pygame here, so it is testable).

It turns the subset our rules documents use (``#`` headings, paragraphs,
``-`` and ``1.`` lists, ``**bold**``, ``*italic*``, ``code``, fenced code,
``>`` quotes and simple ``|`` tables) into the HTML subset that pygame_gui's
``UITextBox`` understands: ``<b>``, ``<i>``, ``<br>`` and ``<font>`` with
``pixel_size``, ``color`` and ``face``.  Anything else is shown as plain text.

>>> markdown_to_html("Roll **two** dice.")
'Roll <b>two</b> dice.'
>>> [title for title, _ in split_sections("# Game\\nIntro.\\n## Setup\\nDeal.")]
['Overview', 'Setup']
"""

from __future__ import annotations

import html
import re
import textwrap

from .look import px

BODY_SIZE = 16
HEADING_SIZES = {1: 28, 2: 22, 3: 18}
HEADING_COLOURS = {1: "#ffd36b", 2: "#ffd36b", 3: "#deb04a"}
CODE_COLOUR = "#f0c890"
MUTED_COLOUR = "#aaa091"
BULLET_COLOUR = "#deb04a"
MONO_FACE = "fira_code_symbols"
#: Font sizes of the thin blank lines between blocks and between list items.
GAP_SIZE = 12
ITEM_GAP_SIZE = 5
NBSP = "\u00a0"
#: Spaces between table columns.
COLUMN_GAP = 3

#: Fonts the HTML may ask for, as pygame_gui's ``preload_fonts`` wants them.
FONTS = [
    {"name": "noto_sans", "point_size": BODY_SIZE, "style": "bold"},
    {"name": "noto_sans", "point_size": BODY_SIZE, "style": "italic"},
    {"name": "noto_sans", "point_size": BODY_SIZE, "style": "bold_italic"},
    {"name": "noto_sans", "point_size": GAP_SIZE, "style": "regular"},
    {"name": "noto_sans", "point_size": ITEM_GAP_SIZE, "style": "regular"},
    {"name": MONO_FACE, "point_size": BODY_SIZE, "style": "regular"},
    {"name": MONO_FACE, "point_size": BODY_SIZE, "style": "bold"},
    *({"name": "noto_sans", "point_size": size, "style": "bold"}
      for size in HEADING_SIZES.values()),
]

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^(\s*)(\d+)[.)]\s+(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_TABLE_DIVIDER = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])"
                     r"|(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])")


def font(text: str, size: int | None = None, colour: str | None = None,
         face: str | None = None) -> str:
    """Wrap ``text`` in a ``<font>`` tag with the given attributes.

    >>> font("Hi", 22, "#ffd36b")
    '<font pixel_size=22 color=#ffd36b>Hi</font>'
    """
    attrs = []
    if face:
        attrs.append(f"face={face}")
    if size:
        attrs.append(f"pixel_size={px(size)}")
    if colour:
        attrs.append(f"color={colour}")
    return f"<font {' '.join(attrs)}>{text}</font>" if attrs else text


def gap(size: int) -> str:
    """End the line, then add an empty line ``size`` pixels tall (less than a text line)."""
    return font("<br><br>", size)


def inline(text: str) -> str:
    """Escape ``text`` and convert its code spans, bold and italics.

    >>> inline("a *b* `c<d` **e**")
    'a <i>b</i> <font face=fira_code_symbols color=#f0c890>c&lt;d</font> <b>e</b>'
    """
    pieces = []
    last = 0
    for match in _CODE.finditer(text):  # code spans first: no emphasis inside them
        pieces.append(_emphasis(html.escape(text[last:match.start()], quote=False)))
        pieces.append(font(html.escape(match.group(1), quote=False), colour=CODE_COLOUR,
                           face=MONO_FACE))
        last = match.end()
    pieces.append(_emphasis(html.escape(text[last:], quote=False)))
    return "".join(pieces)


def _emphasis(text: str) -> str:
    text = _BOLD.sub(lambda m: f"<b>{m.group(1) or m.group(2)}</b>", text)
    return _ITALIC.sub(lambda m: f"<i>{m.group(1) or m.group(2)}</i>", text)


def _plain(text: str) -> str:
    """Cell text without Markdown marks (tables are shown in a fixed-width font)."""
    return re.sub(r"\*\*|__|`|(?<!\w)[*_]|[*_](?!\w)", "", text).strip()


def _indent(spaces: str) -> str:
    return NBSP * (4 * (len(spaces.expandtabs(4)) // 2))


def _column_widths(cells: list[list[str]], room: int | None) -> list[int]:
    """Each column's width in characters: its longest cell, narrowed (widest column first)
    until the row fits ``room`` characters, but never below 6 or its longest word."""
    count = len(cells[0])
    widths = [max(len(row[i]) for row in cells) for i in range(count)]
    floors = [max([6] + [len(word) for row in cells for word in row[i].split()])
              for i in range(count)]
    floors = [min(f, w) for f, w in zip(floors, widths)]
    if room is None:
        return widths
    while sum(widths) + COLUMN_GAP * (count - 1) > room:
        column = max(range(count), key=lambda i: widths[i] - floors[i])
        if widths[column] <= floors[column]:
            break
        widths[column] -= 1
    return widths


def _table_as_list(cells: list[list[str]]) -> str:
    """A table too wide for the page, as one line per row: "Name: Header value, ..."."""
    header, *body = cells
    lines = []
    for row in body:
        pairs = [f"{html.escape(h, quote=False)} {html.escape(v, quote=False)}"
                 for h, v in zip(header[1:], row[1:]) if v]
        mark = font("\u2022", colour=BULLET_COLOUR)
        lines.append(f"{NBSP * 2}{mark}{NBSP}<b>{html.escape(row[0], quote=False)}</b>: "
                     + ", ".join(pairs))
    return gap(ITEM_GAP_SIZE).join(lines)


def _table(rows: list[str], room: int | None = None) -> str:
    """A table in the fixed-width font; cells wrap within their column when the table
    would be wider than ``room`` characters, with a blank line between wrapped rows."""
    cells = [[_plain(cell) for cell in row.strip().strip("|").split("|")]
             for row in rows if not _TABLE_DIVIDER.match(row)]
    count = max(len(row) for row in cells)
    cells = [row + [""] * (count - len(row)) for row in cells]
    widths = _column_widths(cells, room)
    if room is not None and sum(widths) + COLUMN_GAP * (count - 1) > room and len(cells) > 1:
        return _table_as_list(cells)
    wrapped = [[textwrap.wrap(cell, width) or [""] for cell, width in zip(row, widths)]
               for row in cells]
    spaced = any(len(part) > 1 for row in wrapped for part in row)
    lines = []
    for number, row in enumerate(wrapped):
        if spaced and number > 1:
            lines.append(NBSP)
        for depth in range(max(len(part) for part in row)):
            text = (" " * COLUMN_GAP).join(
                (part[depth] if depth < len(part) else "").ljust(width)
                for part, width in zip(row, widths)).rstrip()
            text = html.escape(text, quote=False).replace(" ", NBSP) or NBSP
            text = font(text, colour=None if number else HEADING_COLOURS[3], face=MONO_FACE)
            lines.append(f"<b>{text}</b>" if number == 0 else text)
    return "<br>".join(lines)


def _blocks(text: str, room: int | None = None) -> list[str]:
    """The document as HTML blocks (headings, paragraphs, lists, code, tables)."""
    blocks: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    index = 0

    def flush() -> None:
        if paragraph:
            blocks.append(inline(" ".join(part.strip() for part in paragraph)))
            paragraph.clear()
        if items:
            blocks.append(gap(ITEM_GAP_SIZE).join(items))
            items.clear()

    while index < len(lines):
        line = lines[index]
        index += 1
        if _FENCE.match(line):
            flush()
            code = []
            while index < len(lines) and not _FENCE.match(lines[index]):
                code.append(html.escape(lines[index].rstrip(), quote=False).replace(" ", NBSP))
                index += 1
            index += 1  # the closing fence
            blocks.append(font("<br>".join(code) or NBSP, colour=CODE_COLOUR, face=MONO_FACE))
            continue
        if not line.strip():
            flush()
            continue
        heading = _HEADING.match(line)
        if heading:
            flush()
            level = min(len(heading.group(1)), 3)
            title = font(inline(heading.group(2)), HEADING_SIZES[level], HEADING_COLOURS[level])
            blocks.append(f"<b>{title}</b>")
            continue
        if _RULE.match(line):
            flush()
            blocks.append(font("\u2014" * 12, colour=MUTED_COLOUR))
            continue
        if line.lstrip().startswith("|"):
            flush()
            rows = [line]
            while index < len(lines) and lines[index].lstrip().startswith("|"):
                rows.append(lines[index])
                index += 1
            blocks.append(_table(rows, room))
            continue
        if line.lstrip().startswith(">"):
            flush()
            quote = [line.lstrip()[1:].strip()]
            while index < len(lines) and lines[index].lstrip().startswith(">"):
                quote.append(lines[index].lstrip()[1:].strip())
                index += 1
            blocks.append(font(f"<i>{inline(' '.join(quote))}</i>", colour=MUTED_COLOUR))
            continue
        bullet, numbered = _BULLET.match(line), _NUMBERED.match(line)
        if bullet or numbered:
            if paragraph:
                flush()
            if bullet:
                mark = font("\u2022", colour=BULLET_COLOUR)
                items.append(f"{_indent(bullet.group(1))}{NBSP * 2}{mark}{NBSP}"
                             f"{inline(bullet.group(2).strip())}")
            else:
                mark = font(f"{numbered.group(2)}.", colour=BULLET_COLOUR)
                items.append(f"{_indent(numbered.group(1))}{NBSP * 2}{mark}{NBSP}"
                             f"{inline(numbered.group(3).strip())}")
            continue
        if items:  # a continuation line of the last list item
            items[-1] += " " + inline(line.strip())
            continue
        paragraph.append(line)
    flush()
    return blocks


def markdown_to_html(text: str, table_room: int | None = None) -> str:
    """Convert Markdown ``text`` to pygame_gui's HTML subset (no newlines in the result).

    ``table_room``: how many fixed-width characters fit across the page; wider tables
    wrap their cells instead of running off (or being broken mid-word by) the text box.

    >>> markdown_to_html("## Setup\\n\\n- one\\n- *two*")  # doctest: +ELLIPSIS
    '<b><font pixel_size=22 color=#ffd36b>Setup</font></b><font pixel_size=12><br><br>...'
    """
    return gap(GAP_SIZE).join(_blocks(text, table_room))


def split_sections(text: str) -> list[tuple[str, str]]:
    """Split a document at its ``## `` headings into ``(title, markdown)`` pairs.

    Each section's markdown starts with its heading line.  Text before the
    first ``## `` heading becomes an "Overview" section when it holds more than
    the document's ``# `` title; a document without ``## `` headings is one
    section named after its title (or "Rules").  Headings inside fenced code
    do not count.

    >>> split_sections("## A\\nx\\n## B\\ny")
    [('A', '## A\\nx'), ('B', '## B\\ny')]
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    starts: list[int] = []
    fenced = False
    for number, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and re.match(r"^##\s+\S", line):
            starts.append(number)
    preamble = lines[:starts[0]] if starts else lines
    title = next((m.group(2) for m in map(_HEADING.match, preamble)
                  if m and len(m.group(1)) == 1), None)
    sections: list[tuple[str, str]] = []
    if not starts:
        body = "\n".join(preamble).strip()
        return [(title or "Rules", body)] if body else []
    if any(line.strip() and not re.match(r"^#\s", line) for line in preamble):
        sections.append(("Overview", "\n".join(preamble).strip()))
    for first, end in zip(starts, starts[1:] + [len(lines)]):
        heading = _HEADING.match(lines[first])
        name = _plain(heading.group(2)) if heading else lines[first][2:].strip()
        sections.append((name, "\n".join(lines[first:end]).strip()))
    return sections
