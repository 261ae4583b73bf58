"""The rules reader: pick a game, then a section of its rules document."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UITextBox

from game.engine import controller_class, game_ids

from .. import paths
from ..backdrop import backdrop
from ..markdown import BODY_SIZE, FONTS, MONO_FACE, markdown_to_html, split_sections
from ..look import px
from ..scene import Scene
from ..widgets import GOLD, MUTED, draw_text
from ..widgets import fit
from .load import ScrollArea

COLUMN_WIDTH = 270
GAME_BUTTON = 46
SECTION_BUTTON = (32, 38)  # least and most: shorter buttons before a scroll bar
GAP = 6
CAPTION = 30
#: Keys that scroll the text (arrows move between the buttons).
SCROLL_KEYS = {pygame.K_PAGEUP: -0.8, pygame.K_PAGEDOWN: 0.8, pygame.K_HOME: -99.0,
               pygame.K_END: 99.0}


def rules_path(game_id: str) -> Path:
    """Where ``game_id``'s rules document lives (beside its rule controller)."""
    cls = controller_class(game_id)
    module = sys.modules[cls.__module__]
    return Path(module.__file__ or ".").parent / cls.rules_document


def shown(path: Path) -> str:
    """``path`` relative to the project when it is inside it (shorter to read)."""
    try:
        return str(path.relative_to(paths.ROOT))
    except ValueError:
        return str(path)


def load_sections(game_id: str) -> tuple[list[tuple[str, str]], str | None]:
    """The rules' sections, or no sections and a Markdown message saying what is wrong."""
    path = rules_path(game_id)
    title = controller_class(game_id).title
    try:
        sections = split_sections(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [], (f"# Rules not found\n\nThe rules of **{title}** should be in "
                    f"`{shown(path)}`, but that file is missing.")
    except (OSError, UnicodeDecodeError) as exc:
        return [], f"# Rules unreadable\n\n`{shown(path)}` could not be read ({exc})."
    if not sections:
        return [], f"# No rules yet\n\nThe rules file of **{title}** is empty."
    return sections, None


def find_section(sections: list[tuple[str, str]], wanted: str) -> int:
    """The index of the section titled ``wanted`` (case and spacing aside; else the first
    whose title starts with it, else 0).

    >>> find_section([("Overview", ""), ("Secret choices", ""), ("Fear", "")], "secret")
    1
    """
    key = " ".join(wanted.lower().split())
    titles = [" ".join(title.lower().split()) for title, _text in sections]
    for test in (lambda t: t == key, lambda t: t.startswith(key), lambda t: key in t):
        for index, title in enumerate(titles):
            if test(title):
                return index
    return 0


def preload(manager: pygame_gui.UIManager, fonts: list[dict[str, Any]]) -> None:
    """Load the fonts the rules' HTML uses once, so pygame_gui need not warn about them."""
    known = manager.get_theme().get_font_dictionary()
    missing = [spec for spec in fonts if not known.check_font_preloaded(known.create_font_id(
        spec["point_size"], spec["name"], "bold" in spec["style"], "italic" in spec["style"]))]
    if missing:
        manager.preload_fonts(missing)


class RulesScene(Scene):
    """A column of games and their sections beside the chosen section's text."""

    def __init__(self, app: Any, game_id: str | None = None,
                 section: str | None = None) -> None:
        super().__init__(app)
        ids = game_ids()
        self.game_id = game_id if game_id in ids else (ids[0] if ids else None)
        self.section = 0
        #: A section to open at (its title, as in the rules document), e.g. for F1 in a game.
        self.wanted_section = section
        self.sections: list[tuple[str, str]] = []
        self.message: str | None = None
        self.text: UITextBox | None = None
        self.area: ScrollArea | None = None

    # building ---------------------------------------------------------------------
    def build(self) -> None:
        width, height = self.app.window_size
        preload(self.app.ui, [dict(f, point_size=px(f["point_size"])) for f in FONTS])
        if self.game_id is None:
            self.sections, self.message = [], "# No games\n\nNo game is installed."
        else:
            self.sections, self.message = load_sections(self.game_id)
        if self.wanted_section:
            self.section = find_section(self.sections, self.wanted_section)
            self.wanted_section = None
        self.section = min(self.section, max(len(self.sections) - 1, 0))
        ids = game_ids()
        column = pygame.Rect(40, px(100), px(COLUMN_WIDTH), height - px(196))
        games = px(CAPTION) + len(ids) * (px(GAME_BUTTON) + GAP)
        count = len(self.sections)
        room = (column.height - games - px(14) - px(CAPTION)) // max(count, 1) - GAP
        section_height = min(max(room, px(SECTION_BUTTON[0])), px(SECTION_BUTTON[1]))
        sections = px(14) + px(CAPTION) + count * (section_height + GAP) if count else 0
        area = ScrollArea(self.controls, column, games + sections)
        y = self.caption(area, 0, "Games")
        for game_id in ids:
            chosen = game_id == self.game_id
            self.controls.button(area.place(0, y, area.width, px(GAME_BUTTON)),
                                 fit(controller_class(game_id).title, area.width, bold=chosen),
                                 lambda g=game_id: self.choose_game(g),
                                 object_id="#chosen" if chosen else None,
                                 container=area.container)
            y += px(GAME_BUTTON) + GAP
        if self.sections:
            y = self.caption(area, y + px(14), "Sections")
            for number, (title, _text) in enumerate(self.sections):
                chosen = number == self.section
                shown_title = fit(title, area.width, bold=chosen)
                self.controls.button(area.place(0, y, area.width, section_height), shown_title,
                                     lambda n=number: self.choose_section(n),
                                     tooltip=title if shown_title != title else None,
                                     object_id="#chosen" if chosen else None,
                                     container=area.container)
                y += section_height + GAP
        self.area = area
        self.controls.button(pygame.Rect(40, height - px(80), px(COLUMN_WIDTH), px(48)), "Back",
                             self.app.pop, tooltip="Return (Esc)")
        self.controls.on_escape = self.app.pop
        page = pygame.Rect(40 + px(COLUMN_WIDTH) + 30, px(100), 0, height - px(140))
        page.width = width - page.x - 40
        self.text = self.controls.keep(UITextBox(
            markdown_to_html(self.page(), self.table_room(page.width)), page, self.app.ui,
            object_id="#rules_text"))
        if self.controls.focus < 0:  # start on the chosen game, not on another game's button
            self.controls.set_focus(ids.index(self.game_id) if self.game_id in ids else 0)

    def table_room(self, width: int) -> int:
        """How many fixed-width characters fit across a page ``width`` pixels wide."""
        mono = self.app.ui.get_theme().get_font_dictionary().find_font(px(BODY_SIZE), MONO_FACE)
        return max(20, (width - 80) // max(1, mono.size("M" * 10)[0] // 10))

    def caption(self, area: ScrollArea, y: int, text: str) -> int:
        """A small heading in the column; returns the y below it."""
        self.controls.label(area.place(2, y, area.width, px(CAPTION) - 4), text,
                            object_id="#rules_caption", container=area.container)
        return y + px(CAPTION)

    def page(self) -> str:
        """The Markdown shown now: the chosen section, or the message."""
        if self.message is not None:
            return self.message
        return self.sections[self.section][1]

    # actions ------------------------------------------------------------------------
    def choose_game(self, game_id: str) -> None:
        if game_id != self.game_id:
            self.game_id, self.section = game_id, 0
        self.rebuild()

    def choose_section(self, number: int) -> None:
        self.section = number
        self.rebuild()

    def rebuild(self) -> None:
        """Rebuild (new choice, new window size), keeping keyboard focus where it was."""
        focus = self.controls.focus
        super().rebuild()
        if 0 <= focus < len(self.controls.items) and self.area is not None:
            self.controls.set_focus(focus)
            self.area.reveal(self.controls.focused())

    def scroll(self, pages: float) -> None:
        """Scroll the text by ``pages`` of its height (negative: up)."""
        box = self.text
        if box is None or box.scroll_bar is None or box.text_box_layout is None:
            return
        full = box.text_box_layout.layout_rect.height
        step = pages * box.rect.height / max(full, 1)
        bar = box.scroll_bar
        bar.set_scroll_from_start_percentage(bar.start_percentage + step)

    # events -----------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key in SCROLL_KEYS:
            self.scroll(SCROLL_KEYS[event.key])
            return True
        used = super().handle_event(event)
        if event.type == pygame.KEYDOWN and self.area is not None:
            self.area.reveal(self.controls.focused())
        return used

    # drawing ------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        surface.blit(backdrop((width, height)), (0, 0))
        draw_text(surface, "Rules", (40, px(50)), 40, GOLD, bold=True, anchor="midleft",
                  shadow=True)
        x = 40 + px(COLUMN_WIDTH) + 30
        if self.game_id is not None:
            draw_text(surface, controller_class(self.game_id).title, (x, px(58)), 26,
                      bold=True, anchor="midleft", shadow=True)
        if self.sections:  # under the game's title: the top right corner is the moon's
            note = (f"Section {self.section + 1} of {len(self.sections)}   ·   "
                    "PgUp/PgDn scroll")
            draw_text(surface, note, (x, px(86)), 15, MUTED, anchor="midleft")
