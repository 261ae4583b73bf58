"""The per-game part of the play screen, and the registry of game screens.

A game screen draws the board's pieces from a view and its own display
state, animates events, builds the side panel's action controls, and turns
clicks on board cells into actions.  It reads only the scene's table (one seat's view,
legal actions and log: game/engine/table.py), never a match or its controller, and hands
actions to the play scene, which sends them through the table.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from game.board.render import BoardRenderer
from game.board.tmxmap import load_board
from game.engine.bots import LEVEL_NAMES

from . import paths

if TYPE_CHECKING:
    from .scenes.play import PlayScene

@lru_cache(maxsize=512)
def art(path: Path, size: int, tint: tuple[int, int, int, int] | None = None) -> pygame.Surface:
    """The picture at ``path`` scaled to ``size`` x ``size`` pixels, optionally multiplied by
    an RGBA ``tint`` (a colour, or white with a lower alpha to fade it); cached."""
    image = pygame.image.load(str(path))
    if pygame.display.get_surface() is not None:
        image = image.convert_alpha()
    image = pygame.transform.smoothscale(image, (size, size))
    if tint is not None:
        image = image.copy()
        image.fill(tint, special_flags=pygame.BLEND_RGBA_MULT)
    return image


SCREENS = {
    "fantasy_expedition": "game.fantasy_expedition.screen:ExpeditionScreen",
    "fantasy_racing": "game.fantasy_racing.screen:RacingScreen",
    "mothership": "game.mothership.screen:MothershipScreen",
    "monster_fandango": "game.monster_fandango.screen:FandangoScreen",
    "odysseus": "game.odysseus.screen:OdysseusScreen",
}


def screen_for(scene: "PlayScene") -> "GameScreen":
    module_name, class_name = SCREENS[scene.table.game_id].split(":")
    return getattr(import_module(module_name), class_name)(scene)


class Tween:
    """A piece moving from one map point to another, optionally hopping."""

    def __init__(self, start: tuple[float, float], end: tuple[float, float], duration: float,
                 hop: float = 0.0) -> None:
        self.start, self.end, self.duration, self.hop = start, end, max(duration, 1e-6), hop
        self.elapsed = 0.0

    def step(self, dt: float) -> bool:
        self.elapsed = min(self.elapsed + dt, self.duration)
        return self.elapsed < self.duration

    @property
    def point(self) -> tuple[float, float]:
        t = self.elapsed / self.duration
        t = t * t * (3 - 2 * t)  # ease in and out
        x = self.start[0] + (self.end[0] - self.start[0]) * t
        y = self.start[1] + (self.end[1] - self.start[1]) * t
        return x, y - self.hop * 4 * t * (1 - t)


class GameScreen:
    """Base of the game screens: board loading, tweens, picking."""

    #: Events that only add a log line: they never hide the viewer's controls.
    QUIET_EVENTS: frozenset[str] = frozenset()
    #: Events that step mode pauses before.
    STEP_EVENTS: frozenset[str] = frozenset()
    #: The rules section for each phase of the game (the view's ``phase`` -> a heading of
    #: the game's rules document), opened by F1 or the "?" button.
    RULES_SECTIONS: dict[str, str] = {}

    def __init__(self, scene: "PlayScene") -> None:
        self.scene = scene
        path = paths.BOARDS / self.table.cls.board
        self.board = load_board(path)
        self.renderer = BoardRenderer(path)
        self.tweens: dict[Any, Tween] = {}
        #: Where the board's own status lines (turn, round, objectives...) were last drawn,
        #: in window pixels: messages keep clear of them (PlayScene.toast_area).
        self.status_boxes: list[pygame.Rect] = []
        #: Things (seats, cells...) briefly highlighted, with the seconds left.
        self.flash: dict[Any, float] = {}

    @property
    def table(self) -> Any:
        """The scene's table (History swaps it step by step)."""
        return self.scene.table

    # to override ------------------------------------------------------------------
    def reset(self, view: dict[str, Any]) -> None:
        """Set the display state from a view, with no animation."""

    def animate(self, event: dict[str, Any], view: dict[str, Any]) -> float:
        """Start showing ``event``; return its duration in seconds at normal speed."""
        return 0.0

    def finish(self) -> None:
        """Jump every running animation to its end."""
        for tween in self.tweens.values():
            tween.elapsed = tween.duration
        self.flash.clear()

    def draw_pieces(self, surface: pygame.Surface, transform: Any, view: dict[str, Any]) -> None:
        """Draw items, pieces and highlights over the board."""

    def build_panel(self, rect: pygame.Rect, view: dict[str, Any]) -> int:
        """Create the action controls in ``rect`` for the viewer; return the height used."""
        return 0

    def panel_text(self, view: dict[str, Any]) -> list[str]:
        """Lines telling the viewer who they are and what to do."""
        return []

    def click_cell(self, cell: Any, view: dict[str, Any]) -> None:
        """A board cell was clicked (or chosen with the keyboard)."""

    def highlighted(self, view: dict[str, Any]) -> set[Any]:
        """Cells worth pointing out to the viewer now (legal targets)."""
        return set()

    def hover_text(self, cell: Any, view: dict[str, Any]) -> str | None:
        """A tooltip explaining ``cell`` (what stands or lies there), or None."""
        return None

    def cell_action(self, cell: Any, view: dict[str, Any]) -> dict[str, Any] | None:
        """The action a click on ``cell`` would mean for the viewer now, legal or not (so a
        hover can say why it may not be taken: "why not?"), or None when a click there means
        nothing (the default)."""
        return None

    def turn_reason(self) -> str | None:
        """Why the person at the screen may do nothing at all now: nobody is there, the game
        is over, or it is someone else's turn ("Not your turn: ..."); None when they may act."""
        match, viewer = self.table, self.scene.viewer
        if viewer is None:
            return "Nobody is at the screen yet."
        if match.is_over():
            return "The game is over."
        to_act = match.to_act()
        if viewer not in to_act:
            names = [match.seats[s]["name"] for s in to_act]
            who = " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + \
                " and " + names[-1]
            return f"Not your turn: {who} {'is' if len(names) == 1 else 'are'} to play."
        return None

    def what_now(self, view: dict[str, Any]) -> str:
        """What the person whose turn it is may do instead of clicking a place that means
        nothing now (the end of an idle place's "why nothing happens")."""
        if self.highlighted(view):
            return "click one of the marked places, or use the buttons on the right."
        return "choose with the buttons on the right."

    def idle_reason(self, cell: Any, view: dict[str, Any]) -> str | None:
        """Why a click on ``cell`` does nothing now, when ``cell_action`` gives no action for
        it: whose turn it is, or what to do instead ("Roll first: ..."); None when a click
        there does something of the screen's own (choosing a slot before confirming)."""
        return self.turn_reason() or "Nothing to do there now: " + self.what_now(view)

    def cell_from(self, value: Any, cells: set[Any] | None = None) -> Any:
        """The board cell an event or action names with ``value`` (a pair of numbers such
        as ``[3, 4]``, or a cell's own name), or None.  ``cells``: the set of ``cells()``."""
        if isinstance(value, list):
            value = tuple(value)
        try:
            hash(value)
        except TypeError:
            return None
        if isinstance(value, bool) or value is None:
            return None
        return value if value in (cells if cells is not None else set(self.cells())) else None

    def place_name(self, value: Any) -> str:
        """How the screen names the board place ``value`` (a pair of numbers) in words."""
        from .hints import coordinates
        return coordinates(value)

    def place_words(self, cell: Any, view: dict[str, Any]) -> str | None:
        """What the board shows at ``cell`` for ``view``, in words: a handover's recap
        outlines the places whose words differ from those at the seat's last action.  The
        place's tooltip by default."""
        return self.hover_text(cell, view)

    def hint_label(self, cell: Any) -> str | None:
        """The name a hint gives ``cell`` when the board does not show it (drawn beside the
        hinted place, so the hint's words can be found on the board), or None."""
        return None

    #: Event fields that name a place where something happened or arrived (for the recap).
    EVENT_PLACES = ("target", "to", "cell", "hex", "at")

    def event_cells(self, event: dict[str, Any], view: dict[str, Any]) -> set[Any]:
        """The board places ``event`` changed (outlined in a handover's recap)."""
        cells = set(self.cells())
        out = {self.cell_from(event.get(key), cells) for key in self.EVENT_PLACES}
        out.discard(None)
        return out

    def ready_for(self, action: dict[str, Any], view: dict[str, Any]) -> None:
        """Set the panel so that a click on ``action``'s place takes ``action`` (a screen
        whose clicks depend on a chosen kind of action chooses its kind).  The Hint calls
        it before marking the places; the caller rebuilds the panel."""

    def alike(self, action: dict[str, Any], other: dict[str, Any],
              view: dict[str, Any]) -> bool:
        """Whether two actions are the same choice for the player at the screen (two copies
        of one card): a lesson takes either for the one its script names."""
        return action == other

    def action_cells(self, action: dict[str, Any], view: dict[str, Any]) -> set[Any]:
        """The board places whose click means ``action`` (a hint marks them)."""
        cells = self.cells()
        out = {c for c in cells if self.cell_action(c, view) == action}
        known = set(cells)
        out |= {self.cell_from(v, known) for k, v in action.items() if k != "type"}
        out.discard(None)
        return out

    def outline(self, surface: pygame.Surface, transform: Any, cell: Any,
                colour: tuple[int, int, int], width: int) -> pygame.Rect | None:
        """Mark ``cell`` (hover, keyboard cursor, hint, recap); a ring by default.  Returns
        the rectangle the mark covers (None: nothing drawn), where the play scene puts the
        ring's badge (``marks.draw_ring_badge``)."""
        x, y = transform.to_screen(*self.cell_center(cell))
        radius = max(10, int(26 * transform.scale))
        return pygame.draw.circle(surface, colour, (round(x), round(y)), radius, width)

    def side_room(self) -> int:
        """The window pixels this screen keeps free left and right of the board (at zoom 1)
        for boxes it draws there at the interface's size; 0: the board fills its area."""
        return 0

    def bottom_room(self) -> int:
        """The same below the board (a box of status lines along the area's foot)."""
        return 0

    def status_rects(self) -> list[pygame.Rect]:
        """The board's own status lines, as last drawn (messages never cover them)."""
        return list(self.status_boxes)

    def rules_section(self, view: dict[str, Any]) -> str | None:
        """The heading of the rules section about what is happening now, or None."""
        return self.RULES_SECTIONS.get(str(view.get("phase")))

    def results_table(self, result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
        return [], []

    def results_summary(self, result: dict[str, Any]) -> list[str]:
        return []

    # shared ------------------------------------------------------------------------
    def seat_level(self, seat: int) -> str | None:
        """A computer seat's level as the setup screen names it ("Easy", "Normal", "Hard"),
        shown beside its name on the seat cards; None for a person's seat."""
        seats = self.table.seats
        if not 0 <= seat < len(seats) or seats[seat].get("kind") != "bot":
            return None
        return LEVEL_NAMES.get(seats[seat].get("level", "normal"), "Normal")

    def seat_who(self, seat: int, name: str) -> str:
        """A seat's name, with a computer's level: "Bo, Hard computer"."""
        level = self.seat_level(seat)
        return f"{name}, {level} computer" if level else name

    def update(self, dt: float) -> bool:
        moving = False
        for tween in self.tweens.values():
            moving |= tween.step(dt)
        for key in list(self.flash):
            self.flash[key] -= dt
            if self.flash[key] <= 0:
                del self.flash[key]
        return moving or bool(self.flash)

    def cells(self) -> list[Any]:
        return list(self.board.cells())

    def cell_center(self, cell: Any) -> tuple[float, float]:
        return self.board.cell_center(cell)

    def cell_at(self, point: tuple[float, float]) -> Any:
        return self.board.cell_at(*point)

    def act(self, action: dict[str, Any]) -> bool:
        return self.scene.perform(self.scene.viewer, action)
