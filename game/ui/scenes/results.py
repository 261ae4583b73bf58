"""The end of a match: who won, a table of everyone's results, and where to go next.

The game's screen object turns the result into words and a table, so this
scene knows nothing of any game's rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import pygame

from ..backdrop import backdrop
from .. import look
from ..look import px
from ..scene import Scene
from ..widgets import GOLD, MUTED, PANEL, TEXT, draw_text, font, panel_edge, panel_fill

#: Vertical sizes at full scale; a short window squeezes all but TITLE_BLOCK (see Layout).
PAD = 26
TITLE_BLOCK = 86
SUMMARY_LINE = 28
HEADER_ROW = 36
TABLE_ROW = 32
SECTION_GAP = 16
MIN_SCALE = 0.75
CELL_SIZE = 17
COLUMN_GAP = (12, 32)
BUTTON = (200, 50)
BUTTON_GAP = 24
BORDER = (107, 86, 64)
STRIPE = (255, 255, 255, 12)
HEADER_BG = (222, 176, 74, 34)


class ResultsScreen(Protocol):
    """What a game's screen offers this scene."""

    def results_table(self, result: Any) -> tuple[list[str], list[list[str]]]: ...

    def results_summary(self, result: Any) -> list[str]: ...


@dataclass(frozen=True)
class Layout:
    """Where everything goes for one window size (shared by build and draw)."""

    panel: pygame.Rect
    scale: float
    gap: int  # between table columns
    #: The table's text size (at 100%: smaller than CELL_SIZE only when a large interface
    #: would make the table wider than the window, never smaller than at 100%) and the
    #: widths of its columns at that size.
    cell: int
    widths: list[int]
    #: The buttons stand in a column right of the panel (else in a row under it).
    side: bool = False

    def size(self, base: int) -> int:
        """A vertical size at this layout's scale."""
        return round(base * self.scale)

    @property
    def summary_y(self) -> int:
        return self.panel.y + self.size(PAD) + px(TITLE_BLOCK)

    @property
    def buttons_y(self) -> int:
        return self.panel.bottom + self.size(BUTTON_GAP)


def numeric(text: str) -> bool:
    """Whether a cell reads as a number (numbers are right-aligned).

    >>> numeric("-3"), numeric("2.5"), numeric("Mira")
    (True, True, False)
    """
    return text.strip().lstrip("+-\u2212").replace(".", "", 1).isdigit()


class ResultsScene(Scene):
    """A panel with the game's title, its summary lines and a results table."""

    def __init__(self, app: Any, match: Any, screen: ResultsScreen) -> None:
        super().__init__(app)
        self.match = match
        result = match.result()
        if result is None:
            self.headers, self.rows = [], []
            self.summary = ["This game is not over yet."]
        else:
            self.headers, self.rows = screen.results_table(result)
            self.summary = list(screen.results_summary(result))
        count = max([len(self.headers)] + [len(row) for row in self.rows])
        self.rows = [list(row) + [""] * (count - len(row)) for row in self.rows]
        self.headers = list(self.headers) + [""] * (count - len(self.headers))
        self._widths: dict[tuple[int, float], list[int]] = {}
        self.right = [bool(self.rows) and all(numeric(row[i]) or not row[i].strip()
                                              for row in self.rows) for i in range(count)]

    # layout -----------------------------------------------------------------------
    def layout(self, size: tuple[int, int]) -> Layout:
        """Fit the panel and buttons in the window, squeezing spacing if it is short."""
        width, height = size
        table = (HEADER_ROW + TABLE_ROW * len(self.rows)) if self.headers else 0
        natural = (2 * PAD + SUMMARY_LINE * len(self.summary) + SECTION_GAP + table
                   + BUTTON_GAP)
        ui = look.scale()
        scale = ui * min(1.0, max(MIN_SCALE, (height - 24 - px(BUTTON[1]) - px(TITLE_BLOCK))
                                  / (natural * ui)))
        room = width - 60 - 2 * px(PAD)
        cell, widths = self.cells(room - 40)
        columns = max(len(widths) - 1, 1)
        gap = int(min(px(COLUMN_GAP[1]),
                      max(px(COLUMN_GAP[0]), (room - sum(widths)) / columns)))
        panel = pygame.Rect(0, 0, 0, round((natural - BUTTON_GAP) * scale) + px(TITLE_BLOCK))
        panel.width = min(max(sum(widths) + gap * columns + 2 * px(PAD) + 40, px(640)),
                          width - 60)
        total = panel.height + round(BUTTON_GAP * scale) + px(BUTTON[1])
        if total > height - 24 and ui > 1:
            # A large interface in a short window: the buttons go in a column beside the
            # panel, which takes the whole height.
            scale = ui * min(1.0, max(MIN_SCALE, (height - 24 - px(TITLE_BLOCK))
                                      / ((natural - BUTTON_GAP) * ui)))
            panel.height = round((natural - BUTTON_GAP) * scale) + px(TITLE_BLOCK)
            panel.width = min(panel.width, width - 60 - px(BUTTON[0]) - px(16))
            group = panel.width + px(16) + px(BUTTON[0])
            panel.topleft = ((width - group) // 2, max(12, (height - panel.height) // 2))
            cell, widths = self.cells(panel.width - 2 * px(PAD) - 40)
            return Layout(panel, scale, gap, cell, widths, side=True)
        panel.midtop = (width // 2, max(12, (height - total) // 2))
        return Layout(panel, scale, gap, cell, widths)

    def widths(self, cell: int) -> list[int]:
        """Each column's width with text of ``cell`` pixels (at 100%)."""
        key = (cell, look.text_scale())
        if key not in self._widths:
            self._widths[key] = [
                max([font(cell, True).size(self.headers[i])[0]]
                    + [font(cell).size(row[i])[0] for row in self.rows])
                for i in range(len(self.headers))]
        return self._widths[key]

    def cells(self, room: int) -> tuple[int, list[int]]:
        """The largest text size (down to the 100% one) whose table fits ``room`` pixels."""
        least = max(12, -(-CELL_SIZE * 100 // round(look.scale() * 100)))
        # A larger interface in a small window: below the 100% size if it must, never
        # below 12 pixels on the screen.
        floor = min(least, max(1, -(-1200 // round(look.scale() * 100))))
        for cell in range(CELL_SIZE, floor - 1, -1):
            widths = self.widths(cell)
            if sum(widths) + px(COLUMN_GAP[0]) * max(len(widths) - 1, 1) <= room:
                return cell, widths
        return floor, self.widths(floor)

    # building -----------------------------------------------------------------------
    def build(self) -> None:
        layout = self.layout(self.app.window_size)
        entries = [("New game", self.new_game, "#primary", "Set up another game of this kind"),
                   ("Main menu", self.app.to_menu, None, "Back to the main menu (Esc)"),
                   ("View board", self.app.pop, None, "Look at the finished board")]
        gap, button = px(16), (px(BUTTON[0]), px(BUTTON[1]))
        x = layout.panel.centerx - (len(entries) * (button[0] + gap) - gap) // 2
        y = layout.buttons_y
        if layout.side:
            x, y = layout.panel.right + gap, layout.panel.y
        for text, callback, object_id, tip in entries:
            self.controls.button(pygame.Rect((x, y), button), text, callback,
                                 tooltip=tip, object_id=object_id)
            if layout.side:
                y += button[1] + gap
            else:
                x += button[0] + gap
        self.controls.on_escape = self.app.to_menu
        self.controls.move(1)

    def new_game(self) -> None:
        """Back to the menu, then straight into setting up the same game."""
        from .setup import SetupScene
        game_id = self.match.game_id
        self.app.to_menu()
        self.app.push(SetupScene(self.app, game_id=game_id))

    # drawing ----------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(backdrop(surface.get_size()), (0, 0))
        layout = self.layout(surface.get_size())
        panel, size = layout.panel, layout.size
        shade = pygame.Surface(panel.size, pygame.SRCALPHA)
        pygame.draw.rect(shade, panel_fill((*PANEL, 238)), shade.get_rect(), border_radius=14)
        surface.blit(shade, panel)
        pygame.draw.rect(surface, panel_edge(BORDER), panel, 2, border_radius=14)
        top = panel.y + size(PAD)
        draw_text(surface, "Game over", (panel.centerx, top), 15, MUTED, anchor="midtop")
        draw_text(surface, self.match.title, (panel.centerx, top + px(20)), 36, GOLD, bold=True,
                  anchor="midtop", shadow=True)
        rule_y = layout.summary_y - px(8)
        pygame.draw.line(surface, BORDER, (panel.centerx - px(120), rule_y),
                         (panel.centerx + px(120), rule_y), 2)
        line_height = size(SUMMARY_LINE)
        for number, line in enumerate(self.summary):
            y = layout.summary_y + line_height * number + line_height // 2
            draw_text(surface, line, (panel.centerx, y), 21 if number == 0 else 18,
                      TEXT if number == 0 else MUTED, bold=number == 0, anchor="center")
        if self.headers:
            table_y = layout.summary_y + line_height * len(self.summary) + size(SECTION_GAP)
            self.draw_table(surface, layout, table_y)

    def draw_table(self, surface: pygame.Surface, layout: Layout, top: int) -> None:
        """The results in aligned columns: a header band, then zebra-striped rows."""
        panel, gap = layout.panel, layout.gap
        width = sum(layout.widths) + gap * (len(layout.widths) - 1)
        band = pygame.Rect(panel.x + px(PAD), top, panel.width - 2 * px(PAD), 0)
        rows = [(self.headers, layout.size(HEADER_ROW), True)]
        rows += [(row, layout.size(TABLE_ROW), False) for row in self.rows]
        y = top
        for number, (cells, height, header) in enumerate(rows):
            strip = pygame.Rect(band.x, y, band.width, height)
            if header or number % 2 == 0:
                shade = pygame.Surface(strip.size, pygame.SRCALPHA)
                pygame.draw.rect(shade, HEADER_BG if header else STRIPE, shade.get_rect(),
                                 border_radius=6)
                surface.blit(shade, strip)
            x = panel.centerx - width // 2
            for column, cell in enumerate(cells):
                anchor, spot = (("midright", x + layout.widths[column]) if self.right[column]
                                else ("midleft", x))
                draw_text(surface, cell, (spot, strip.centery), layout.cell,
                          GOLD if header else TEXT, bold=header, anchor=anchor)
                x += layout.widths[column] + gap
            y += height
