"""TRAP: Mothership Fantasia on screen: the floor, the crew, the tracker and the panel.

Screen code only: it reads views and events and hands actions to the play
scene.  The panel offers the action kinds the player at the screen may take;
choosing one highlights its targets on the board (moves are chosen by
default), and clicking a highlighted space acts.  Nothing is secret in this
game, so every player sees the same board.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pygame
from pygame_gui.elements import UIButton

from game.ui.gamescreen import GameScreen, Tween
from game.ui.look import px, scale as interface_scale
from game.ui.marks import draw_highlight, draw_seat_mark, readable_on, rect_points
from game.ui.widgets import GOLD, SEAT_COLOURS, TEXT, fit, font, panel_fill, wrap_text

from .art import (AP_GOLD, KIND_COLOURS, TRACKER, ap_token, character_token, effect_token,
                  symbol, tile_face)
from .data import CHARACTER_IDS, CHARACTERS, DIFFICULTIES, LAYOUT, TILES
from game.engine.events import reveals

Cell = tuple[int, int]
#: Action kinds that need a target on the board, in panel order, with their target key.
TARGETED = {"move": "to", "peek": "at", "skip": "to", "far_peek": "at", "sneak": "to",
            "disarm": "at", "assist": "seat"}
LABELS = {"move": "Move", "peek": "Peek", "skip": "Skip", "far_peek": "Far peek",
          "sneak": "Sneak", "disarm": "Disarm", "deactivate": "Deactivate", "defer": "Defer",
          "break_free": "Break free", "end": "End turn", "assist": "Assist"}
#: What to click once an action with a target is chosen.
#: The highlight each kind of targeted action gets (``game.ui.marks.HIGHLIGHTS``).
HIGHLIGHT_KINDS = {"move": "move", "skip": "move", "sneak": "move", "peek": "peek",
                   "far_peek": "peek", "disarm": "deactivate", "assist": "assist"}
INSTRUCTIONS = {
    "move": "Move: click a highlighted space next to you.",
    "peek": "Peek: click a highlighted face-down tile next to you.",
    "skip": "Skip: click a highlighted space two steps away.",
    "far_peek": "Far peek: click a highlighted face-down tile.",
    "sneak": "Sneak: click the highlighted tile to sneak onto.",
    "disarm": "Disarm: click the highlighted trap to disarm.",
    "assist": "Assist: click a highlighted companion.",
}
HELP = {
    "move": "Step onto a space next to you (1 AP; more to leave Corrode)",
    "peek": "Turn over a face-down tile next to you without setting it off (1 AP)",
    "skip": "Mage: jump two spaces over any one space: a tile, a gap, the start tile or the "
            "pod (2 AP, once a round)",
    "far_peek": "Ranger: peek at a face-down tile up to 3 steps away (1 AP, once a round)",
    "sneak": "Thief: step onto a tile without setting off its trap (2 AP, once a round)",
    "disarm": "Tinkerer: disarm a face-up trap next to you until the end of next round "
              "(3 AP, once a round)",
    "deactivate": "Switch off the generator you stand on (1 AP)",
    "defer": "Keep your other AP for after everyone else this round (1 AP)",
    "break_free": "Knight: break out of the ice (1 AP)",
    "end": "End your turn; unspent AP are lost",
    "assist": "Free a companion on your space or next to you from Freeze, Confuse and "
              "Fear (1 AP)",
}
#: Panel buttons, in their fixed order: the same for the whole turn.
ACTION_ORDER = ("move", "peek", "ability", "assist", "deactivate", "defer")
EFFECT_WORDS = {"freeze": "frozen", "confuse": "confused", "fear": "afraid", "blind": "blind",
                "sever": "severed", "corrode": "stuck in Corrode"}


@lru_cache(maxsize=512)
def _label(text: str, size: int, colour: tuple[int, int, int], bold: bool,
           shadow: bool) -> pygame.Surface:
    """A rendered line of board text (cached: the board redraws every frame)."""
    face = font(size, bold)
    ink = face.render(text, True, colour)
    if not shadow:
        return ink
    out = pygame.Surface((ink.get_width() + 1, ink.get_height() + 2), pygame.SRCALPHA)
    out.blit(face.render(text, True, (0, 0, 0)), (1, 2))
    out.blit(ink, (0, 0))
    return out


def draw_text(surface: pygame.Surface, text: str, pos: tuple[float, float], size: int = 16,
              colour: tuple[int, int, int] = TEXT, bold: bool = False,
              anchor: str = "topleft", shadow: bool = False) -> pygame.Rect:
    """Like :func:`game.ui.widgets.draw_text`, from a cache of rendered lines."""
    image = _label(text, size, tuple(colour), bold, shadow)
    rect = image.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    surface.blit(image, rect)
    return rect


def _cell(value: Any) -> Cell:
    return (int(value[0]), int(value[1]))


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def token_offsets(cell: Cell, count: int, shows: bool) -> list[tuple[float, float]]:
    """Where ``count`` character tokens sit on ``cell``, in tile widths from its centre.

    On the start tile and the pod they keep to the corners, clear of the START / POD
    label in the middle; elsewhere one token leaves a face-up trap's symbol visible.
    """
    if cell in (LAYOUT.start, LAYOUT.finish):
        return [(-0.3, 0.3), (0.3, 0.3), (-0.3, -0.3), (0.3, -0.3)][:count]
    if count == 1:
        return [(0.2, 0.2) if shows else (0.0, 0.0)]
    return [(-0.22, -0.22), (0.22, -0.22), (-0.22, 0.22), (0.22, 0.22)][:count]


def name_lines(name: str, room: int, size: int, least: int) -> tuple[int, list[str]]:
    """A seat's name for its card: the font size and one or two lines, each at most
    ``room`` pixels wide (shrunk to ``least``, then wrapped, then shortened)."""
    while size > least and font(size, True).size(name)[0] > room:
        size -= 1
    lines = wrap_text(name, size, room, bold=True)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    return size, [fit(line, room + 12, size, True) for line in lines]


def card_words(seat: dict[str, Any]) -> str:
    """The words beside a seat card's effect icons: one for every icon."""
    words = [EFFECT_WORDS[e] for e in dict.fromkeys(effects_of(seat))]
    return ", ".join(words) if words else ("" if seat["lifted"] else "no effects")


class PanelButton(UIButton):
    """A panel button whose tooltip opens beside the panel, at the button's height, so it
    never covers the buttons it explains; a disabled one still shows its tooltip (the
    reason it is disabled)."""

    def __init__(self, *args: Any, tip_right: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tip_right = tip_right

    def can_hover(self) -> bool:
        return not self.is_selected and not self.held

    def on_hovered(self) -> None:
        if self.is_enabled:
            super().on_hovered()
        else:
            self.hover_time = 0.0

    def on_unhovered(self) -> None:
        super().on_unhovered()
        if not self.is_enabled and self.drawable_shape is not None:
            self.drawable_shape.set_active_state("disabled")

    def while_hovering(self, time_delta: float, mouse_pos: Any) -> None:
        if (self.tool_tip is None and self.tool_tip_text is not None
                and self.hover_time > self.tool_tip_delay):
            self.tool_tip = self.ui_manager.create_tool_tip(
                text=self.tool_tip_text, position=(self.rect.x, self.rect.y),
                hover_distance=(0, 0), parent_element=self,
                object_id=self.tool_tip_object_id, wrap_width=300)
            width, height = self.tool_tip.rect.size
            bottom = self.ui_manager.get_root_container().get_rect().bottom
            self.tool_tip.set_position((self.tip_right - 8 - width,
                                        max(0, min(self.rect.y, bottom - height))))
        self.hover_time += time_delta


def effects_of(seat: dict[str, Any]) -> list[str]:
    """The effect tokens a seat holds, in a fixed order."""
    out = [e for e, on in (("freeze", seat["frozen"]), ("confuse", seat["confused"]),
                           ("fear", seat["afraid"]), ("blind", seat["blind"]),
                           ("corrode", seat["corroded"])) if on]
    return out + ["sever"] * seat["sever"]


class MothershipScreen(GameScreen):
    """Draws and drives one Mothership Fantasia match."""

    QUIET_EVENTS = frozenset({"turn", "end", "defer", "choose", "round", "calm", "rearm",
                              "unlock"})
    STEP_EVENTS = frozenset({"move", "flip", "trap"})
    RULES_SECTIONS = {"characters": "The characters", "play": "Actions", "over": "The end"}

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.hud = {o.name: pygame.Rect(round(o.x), round(o.y), round(o.width),
                                        round(o.height))
                    for o in self.board.objects if o.layer == "hud"}
        self.where: dict[int, Cell] = {}
        self.spaces: dict[Cell, dict[str, Any]] = {}
        self.place = 1
        self.flashes: list[list[Any]] = []      # [cell, colour, kind, seconds left, total]
        self.flips: dict[Cell, float] = {}
        self.mode: str = "move"
        self.mode_owner: Any = None
        self._legal_key: Any = None
        self._legal: list[dict[str, Any]] = []

    # display state -------------------------------------------------------------------
    def reset(self, view: dict[str, Any]) -> None:
        self._legal_key = self.mode_owner = None  # after an undo the same count may recur
        self.tweens.clear()
        self.flashes.clear()
        self.flips.clear()
        self._sync(view)

    def _sync(self, view: dict[str, Any]) -> None:
        self.spaces = {_cell(s["cell"]): dict(s) for s in view["spaces"]}
        for seat in view["seats"]:
            if seat["seat"] not in self.tweens:
                self.where[seat["seat"]] = _cell(seat["cell"])
        self.place = view["tracker"]["place"]

    def settled(self) -> bool:
        return not self.scene.queue and self.scene.busy_for is None

    def point(self, cell: Cell) -> tuple[float, float]:
        return self.board.cell_center(cell)

    def seat_point(self, seat: int) -> tuple[float, float]:
        if seat in self.tweens:
            return self.tweens[seat].point
        return self.point(self.where[seat])

    def _move(self, seat: int, to: Cell, seconds: float, hop: float = 0.0) -> None:
        start = self.seat_point(seat) if seat in self.where else self.point(to)
        self.where[seat] = to
        self.tweens[seat] = Tween(start, self.point(to), seconds, hop)

    def _flash(self, cell: Cell, colour: tuple[int, int, int], kind: str | None,
               seconds: float = 0.9) -> None:
        self.flashes.append([cell, colour, kind, seconds, seconds])

    def animate(self, event: dict[str, Any], view: dict[str, Any]) -> float:
        kind = event["type"]
        if kind == "move":
            hop = {"skip": 40.0, "thrown": 70.0, "back": 16.0}.get(event.get("how"), 0.0)
            seconds = 0.7 if event.get("how") == "thrown" else 0.35
            self._move(event["seat"], _cell(event["target"]), seconds, hop)
            if reveals(event):          # the move flipped a face-down tile
                cell = _cell(event["target"])
                self.spaces[cell] = {**self.spaces.get(cell, {}), "state": "up",
                                     "kind": event["tile"], "done": False,
                                     "disarmed_until": None}
                self.flips[cell] = 0.4
                return seconds + 0.45
            return seconds + 0.05
        if kind == "flip":
            cell = _cell(event["cell"])
            self.spaces[cell] = {**self.spaces.get(cell, {}), "state": "up",
                                 "kind": event["tile"], "done": False, "disarmed_until": None}
            self.flips[cell] = 0.4
            return 0.45
        if kind == "trap":
            cell = _cell(event["cell"])
            trap = event["trap"]
            if trap == "jettison":
                self.spaces[cell] = {**self.spaces[cell], "state": "gap", "kind": None}
                for rider in event.get("riders", []):
                    self._move(rider, LAYOUT.start, 0.7, 70.0)
            elif trap == "mystery":
                self.spaces[cell] = {**self.spaces[cell], "state": "lifted",
                                     "lifted_by": event["seat"]}
            self._flash(cell, KIND_COLOURS[trap], trap, 1.0)
            return 1.0
        if kind in ("sneak", "safe"):
            self._flash(_cell(event["cell"]), (90, 230, 240), None, 0.6)
            return 0.6
        if kind == "refill":
            cell = _cell(event["cell"])
            self.spaces[cell] = {"cell": list(cell), "state": "down" if event["filled"]
                                 else "gap", "kind": None, "done": False,
                                 "disarmed_until": None}
            self._flash(cell, KIND_COLOURS["mystery"], None, 0.6)
            return 0.6
        if kind == "deactivate":
            cell = _cell(event["cell"])
            self.spaces[cell] = {**self.spaces[cell], "done": True}
            self._flash(cell, KIND_COLOURS["objective"], "objective", 0.9)
            return 0.9
        if kind == "disarm":
            cell = _cell(event["cell"])
            self.spaces[cell] = {**self.spaces[cell], "disarmed_until": event["until"]}
            self._flash(cell, (90, 230, 240), None, 0.6)
            return 0.6
        if kind == "escape":
            self._flash(LAYOUT.finish, GOLD, None, 1.2)
            return 1.0
        if kind == "assist":
            self._flash(self.where.get(event["other"], LAYOUT.start), (120, 250, 160), None, 0.6)
            return 0.6
        if kind == "tracker":
            self.place = event["place"]
            self._flash(LAYOUT.track[self.place - 1], TRACKER, None, 0.8)
            return 0.8
        if kind == "unlock":
            self._flash(LAYOUT.finish, GOLD, None, 1.2)
            return 0.6
        if kind == "over":
            return 0.5
        return 0.1 if kind in ("turn", "end", "defer") else 0.0

    def finish(self) -> None:
        super().finish()
        self.flashes.clear()
        self.flips.clear()

    def update(self, dt: float) -> bool:
        moving = super().update(dt)
        for flash in self.flashes:
            flash[3] -= dt
        self.flashes = [f for f in self.flashes if f[3] > 0]
        for cell in list(self.flips):
            self.flips[cell] -= dt
            if self.flips[cell] <= 0:
                del self.flips[cell]
        for seat in [s for s, t in self.tweens.items() if t.elapsed >= t.duration]:
            del self.tweens[seat]
        return moving or bool(self.flashes) or bool(self.flips)

    # the viewer's choices --------------------------------------------------------------
    def my_turn(self, view: dict[str, Any]) -> bool:
        viewer = view["viewer"]
        return viewer is not None and viewer in view["to_act"]

    def legal(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        """The viewer's legal actions (cached per action count: drawn every frame)."""
        if not self.my_turn(view):
            return []
        key = (view["viewer"], self.table.step)
        if self._legal_key != key:
            self._legal_key, self._legal = key, self.table.legal_actions(view["viewer"])
        return self._legal

    def current_mode(self, view: dict[str, Any]) -> str:
        """The chosen kind of action; back to Move after every action (a kind once chosen
        never lingers into the next action, where a click could do what was not meant)."""
        owner = (view["viewer"], self.table.step)
        if self.mode_owner != owner:
            self.mode_owner = owner
            self.mode = "move"
        return self.mode

    def ready_for(self, action: dict[str, Any], view: dict[str, Any]) -> None:
        """Choose the kind of a targeted action (Peek, Skip, Assist...), so that a click on
        the hinted place peeks there instead of moving onto it."""
        kind = action.get("type")
        if kind in TARGETED and view["viewer"] is not None and view["phase"] == "play":
            self.current_mode(view)
            self.mode = kind

    def choose_mode(self, mode: str) -> None:
        self.mode = mode
        self.scene.rebuild()

    def targets(self, view: dict[str, Any]) -> dict[Cell, dict[str, Any]]:
        """Board cell -> the action a click there takes, for the chosen kind."""
        mode = self.current_mode(view)
        key = TARGETED.get(mode)
        out: dict[Cell, dict[str, Any]] = {}
        for action in self.legal(view):
            if action["type"] == mode and key:
                if mode == "assist":
                    out.setdefault(_cell(view["seats"][action["seat"]]["cell"]), action)
                else:
                    out[_cell(action[key])] = action
        return out

    def panel_kinds(self, view: dict[str, Any]) -> list[str]:
        """The viewer's action buttons, in their fixed places for the whole turn."""
        char = view["seats"][view["viewer"]]["character"]
        ability = CHARACTERS[char]["ability"] if char else None
        out = []
        for kind in ACTION_ORDER:
            if kind == "ability":
                if ability and ability != "break_free":
                    out.append(ability)
            else:
                out.append(kind)
        if ability == "break_free":
            out.append("break_free")
        return out

    def reasons(self, view: dict[str, Any]) -> dict[str, str | None]:
        """Kind -> why the viewer cannot take it now (None: they can); cached per action."""
        key = ("reasons", view["viewer"], self.table.step)
        if getattr(self, "_reasons_key", None) != key:
            why = self.table.why_not_kind
            self._reasons_key = key
            self._reasons = {k: why(view["viewer"], k) for k in self.panel_kinds(view)}
        return self._reasons

    def advice(self, view: dict[str, Any]) -> list[str]:
        """What the viewer should know below the buttons: the chosen action, what holds
        them, and why only End turn is left."""
        seat = view["seats"][view["viewer"]]
        lines = []
        if seat["frozen"]:
            lines.append("You are frozen and cannot move"
                         + ("; from the round after the freeze, Break free costs 1 AP."
                            if seat["character"] == "knight"
                            else "; a companion next to you can assist."))
        if view["pull"] is not None:
            what = " and ".join(w for w, on in (("afraid", seat["afraid"]),
                                                ("confused", seat["confused"])) if on)
            goal = " and ".join(g for g, on in (("the start tile", seat["afraid"]),
                                                ("the nearest face-down tile",
                                                 seat["confused"])) if on)
            if view["pull"]:
                lines.append(f"You are {what}: only a step towards {goal}, Defer or End turn.")
            else:
                lines.append(f"You are {what} and no way leads to {goal}: Defer or End turn "
                             f"and wait for a companion to assist you.")
        kinds = {a["type"] for a in self.legal(view)}
        if kinds == {"end"}:
            why = self.reasons(view).get("move") or "no action is possible."
            lines.append(f"Only End turn is left: {why}")
        else:
            mode = self.current_mode(view)
            if self.targets(view):
                lines.append(INSTRUCTIONS[mode])
        return lines

    # panel ----------------------------------------------------------------------------
    def panel_text(self, view: dict[str, Any]) -> list[str]:
        phase, viewer = view["phase"], view["viewer"]
        names = [s["name"] for s in view["seats"]]
        if phase == "over":
            return [view["result"]["headline"]]
        if phase == "characters":
            chooser = view["to_act"][0]
            if viewer == chooser:
                return ["Choose your character. Hover a button to read its ability."]
            return [f"{names[chooser]} is choosing a character."]
        current = view["current"]
        seat = view["seats"][current]
        if viewer != current:
            return [f"{names[current]} ({CHARACTERS[seat['character']]['name']}) is taking "
                    f"their turn."]
        return [f"Your turn, {seat['name']} the {CHARACTERS[seat['character']]['name']}: "
                f"{seat['ap']} AP left" + (" (deferred)." if view["stage"] == "deferred"
                                           else ".")]

    def build_panel(self, rect: pygame.Rect, view: dict[str, Any]) -> int:
        controls = self.scene.controls
        if not self.my_turn(view):
            return 0
        legal = self.legal(view)
        if view["phase"] == "characters":
            return self._character_panel(rect, legal)
        mode = self.current_mode(view)
        reasons = self.reasons(view)
        half = (rect.width - 8) // 2
        x, y = rect.x, rect.y
        tip_right = self.scene.panel_rect().x
        kinds = self.panel_kinds(view)
        for n, kind in enumerate(kinds):
            why = reasons.get(kind)
            if kind in TARGETED:
                callback = (lambda k=kind: self.choose_mode(k))
            else:
                # The action bound whole, so the Hint (and a lesson) finds the button
                # that takes it (play.takes).
                callback = (lambda a={"type": kind}: self.act(dict(a)))
            tip = HELP[kind] + ("" if why is None else f". Not now: {why}")
            self._button((x + (n % 2) * (half + 8), y + (n // 2) * px(40), half, px(36)),
                         LABELS[kind] + self._cost_text(kind, view), callback, tip,
                         why is None, tip_right,
                         "#chosen" if kind == mode and kind in TARGETED and why is None
                         else None)
        y += ((len(kinds) + 1) // 2) * px(40)
        only_end = {a["type"] for a in legal} == {"end"}
        self._button((rect.x, y, rect.width, px(36)), "End turn", lambda: self.act({"type": "end"}),
                     HELP["end"], True, tip_right, "#primary" if only_end else None)
        y += px(42)
        for line in self.advice(view):
            for part in wrap_text(line, 16, rect.width - 4):
                controls.label((rect.x - 4, y, rect.width + 8, px(22)), part)
                y += px(22)
        return y - rect.y

    def _button(self, rect: tuple, text: str, callback: Any, tip: str, enabled: bool,
                tip_right: int, object_id: str | None) -> PanelButton:
        controls = self.scene.controls
        widget = PanelButton(pygame.Rect(rect), text, controls.manager, tool_tip_text=tip,
                             object_id=object_id, tip_right=tip_right)
        if enabled:
            controls.items.append((widget, callback))
        else:
            widget.disable()
            controls.keep(widget)
        return widget

    def _cost_text(self, kind: str, view: dict[str, Any]) -> str:
        if kind in ("skip", "far_peek", "sneak", "disarm", "break_free"):
            if not CHARACTERS[view["seats"][view["viewer"]]["character"]].get("cost"):
                return ""
            char = view["seats"][view["viewer"]]["character"]
            return f" ({CHARACTERS[char]['cost']} AP)"
        return ""

    def _character_panel(self, rect: pygame.Rect, legal: list[dict[str, Any]]) -> int:
        controls = self.scene.controls
        y = rect.y
        tip_right = self.scene.panel_rect().x
        viewer = self.scene.viewer
        # All six, always in the same places: a character already taken stays, disabled,
        # so a click never lands on the one that moved up into its place.
        for key in CHARACTER_IDS:
            char = CHARACTERS[key]
            action = {"type": "choose", "character": key}
            why = None if action in legal else self.table.why_not(viewer, action)
            tip = char["text"] + ("" if why is None else f" Not now: {why}")
            self._button((rect.x, y, rect.width, px(36)), char["name"],
                         lambda a=action: self.act(a), tip, why is None, tip_right, None)
            y += px(40)
        controls.move(1)
        return y - rect.y

    # board clicks ---------------------------------------------------------------------
    def click_cell(self, cell: Any, view: dict[str, Any]) -> None:
        if not self.my_turn(view) or view["phase"] != "play":
            return
        cell = tuple(cell)
        action = self.targets(view).get(cell)
        if action is not None:
            self.act(action)
            return
        # Clicking a companion in trouble next to you assists them.
        for other in self.legal(view):
            if other["type"] == "assist" and _cell(view["seats"][other["seat"]]["cell"]) == cell:
                self.act(other)
                return

    def cell_action(self, cell: Any, view: dict[str, Any]) -> dict[str, Any] | None:
        """What a click on ``cell`` would ask for with the chosen kind, legal or not."""
        if view["viewer"] is None or view["phase"] != "play":
            return None
        cell = tuple(cell)
        action = self.targets(view).get(cell)
        if action is not None:
            return action
        for other in self.legal(view):  # a companion in trouble next to you: assist
            if other["type"] == "assist" and _cell(view["seats"][other["seat"]]["cell"]) == cell:
                return other
        mode = self.current_mode(view)
        key = TARGETED.get(mode)
        if key is None or mode == "assist":
            return None
        return {"type": mode, key: list(cell)}

    def place_name(self, value: Any) -> str:
        """A tile as the board shows it: the start tile, the escape pod, or where it lies
        from the viewer's own pawn ("the tile left of you", "the tile two up and one right
        of you"); the board draws no coordinates."""
        from game.ui.hints import relative
        cell = _cell(value)
        if cell == LAYOUT.finish:
            return "the escape pod"
        if cell == LAYOUT.start:
            return "the start tile"
        viewer = self.scene.viewer
        here = None if viewer is None else self.scene.view()["seats"][viewer].get("cell")
        if here is None:
            return super().place_name(value)
        here = _cell(here)
        return relative(cell[0] - here[0], cell[1] - here[1], "tile")

    def what_now(self, view: dict[str, Any]) -> str:
        if view["phase"] == "characters":
            return "choose your character with the buttons on the right first."
        return super().what_now(view)

    def cells(self) -> list[Any]:
        """The spaces the keyboard cursor visits: the floor, start, pod and tracker
        (not the empty hull around them), nearest the start tile first."""
        floor = sorted([LAYOUT.start, *LAYOUT.tile_spaces, LAYOUT.finish],
                       key=lambda c: (abs(c[0] - LAYOUT.start[0]) + abs(c[1] - LAYOUT.start[1]),
                                      c))
        return floor + list(LAYOUT.track)

    def highlighted(self, view: dict[str, Any]) -> set[Any]:
        if view["phase"] != "play":
            return set()
        return set(self.targets(view))

    def outline(self, surface: pygame.Surface, transform: Any, cell: Any,
                colour: tuple[int, int, int], width: int) -> pygame.Rect | None:
        rect = self._cell_rect(transform, cell).inflate(-2, -2)
        return pygame.draw.rect(surface, colour, rect, width, border_radius=6)

    def _cell_rect(self, transform: Any, cell: Cell) -> pygame.Rect:
        x, y = transform.to_screen(cell[0] * self.board.tilewidth, cell[1] * self.board.tileheight)
        size = self.board.tilewidth * transform.scale
        return pygame.Rect(round(x), round(y), round(size), round(size))

    # tooltips ---------------------------------------------------------------------------
    def hover_text(self, cell: Any, view: dict[str, Any]) -> str | None:
        cell = tuple(cell)
        lines: list[str] = []
        space = self.spaces.get(cell) if self.spaces else None
        if cell == LAYOUT.start:
            lines.append("Start tile: everyone boards here. Fear pulls back to it.")
        elif cell == LAYOUT.finish:
            lines.append("Escape pod (finish tile): "
                         + ("open! Step in to escape." if view["finish_open"] else
                            f"locked until every generator is off "
                            f"({view['objectives']['done']} of {view['objectives']['total']})."))
        elif cell in LAYOUT.track:
            place = LAYOUT.track.index(cell) + 1
            zone = "red" if place >= LAYOUT.red_from else "green"
            lines.append(f"Round tracker, place {place} of {len(LAYOUT.track)} ({zone})."
                         + (" The hyperdrive fires when the token gets here."
                            if place == len(LAYOUT.track) else ""))
            if place == self.place:
                lines.append(f"The round token is here (round {view['round']}).")
        elif space is not None:
            state = space["state"]
            if state == "down":
                lines.append("Face-down tile: nobody knows what lies here.")
            elif state == "gap":
                lines.append("Gap: open space. Nobody can stand here.")
            elif state == "lifted":
                who = view["seats"][space.get("lifted_by", 0)]["name"]
                lines.append(f"Gap: the Mystery tile is lifted off into {who}'s area until "
                             f"the end of round {space.get('until', view['round'] + 1)}; then "
                             f"a tile from the draw pile fills it.")
            else:
                kind = space["kind"]
                lines.append(f"{TILES[kind]['name']} tile. {TILES[kind]['effect']}")
                if kind == "objective":
                    lines.append("Deactivated." if space["done"] else "Still running.")
                if space.get("disarmed_until"):
                    lines.append(f"Disarmed until the end of round {space['disarmed_until']}.")
        elif cell in LAYOUT.gaps:
            lines.append("Gap: open space between the tiles.")
        here = [s for s in view["seats"] if self.where.get(s["seat"]) == cell]
        for seat in here:
            char = CHARACTERS[seat["character"]]["name"] if seat["character"] else "?"
            state = [EFFECT_WORDS[e] for e in dict.fromkeys(effects_of(seat))]
            lines.append(f"{seat['name']} the {char}" + (": " + ", ".join(state) if state
                                                        else "") + ".")
        return "\n".join(lines) or None

    # drawing --------------------------------------------------------------------------
    def draw_pieces(self, surface: pygame.Surface, transform: Any, view: dict[str, Any]) -> None:
        if self.settled():
            self._sync(view)
        tile = self.board.tilewidth * transform.scale
        size = max(12, round(tile))
        for cell, space in self.spaces.items():
            self._draw_space(surface, transform, cell, space, view, size)
        self._draw_tracker(surface, transform, size)
        self._draw_flashes(surface, transform, size)
        self._draw_characters(surface, transform, view, size)
        glow = pygame.Surface((size, size), pygame.SRCALPHA)
        pygame.draw.rect(glow, (*GOLD, 70), glow.get_rect().inflate(-4, -4), border_radius=8)
        kind = HIGHLIGHT_KINDS.get(self.current_mode(view), "choose")
        for cell in self.highlighted(view):
            rect = self._cell_rect(transform, cell)
            surface.blit(glow, rect)
            draw_highlight(surface, kind, rect_points(rect, 2), max(3, size // 12),
                           badge_radius=max(7, size // 7))
        self._draw_info(surface, transform, view)
        for seat in view["seats"]:
            self._draw_card(surface, transform, view, seat)

    def _draw_space(self, surface, transform, cell, space, view, size) -> None:
        rect = self._cell_rect(transform, cell)
        state = space["state"]
        if state in ("gap", "lifted"):
            veil = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(veil, (6, 6, 16, 235), veil.get_rect().inflate(-4, -4),
                             border_radius=8)
            surface.blit(veil, rect)
            if state == "lifted":
                colour = seat_colour(space.get("lifted_by", 0))
                pygame.draw.rect(surface, KIND_COLOURS["mystery"], rect.inflate(-6, -6),
                                 max(1, size // 24), border_radius=8)
                symbol(surface, "mystery", rect.center, size * 0.45, colour)
                draw_seat_mark(surface, space.get("lifted_by", 0),
                               (rect.left + size * 0.2, rect.top + size * 0.2),
                               max(10, size * 0.2), on_piece=False)
            return
        kind = space["kind"] if state == "up" else None
        disarmed = bool(space.get("disarmed_until"))
        image = tile_face(kind, size, bool(space.get("done")), disarmed)
        if cell in self.flips:
            squeeze = abs(self.flips[cell] / 0.4 * 2 - 1)
            image = pygame.transform.smoothscale(image, (max(1, round(size * squeeze)), size))
        surface.blit(image, image.get_rect(center=rect.center))

    def _draw_tracker(self, surface, transform, size) -> None:
        rect = self._cell_rect(transform, LAYOUT.track[self.place - 1])
        centre = (rect.centerx + size * 0.3, rect.centery)
        pygame.draw.circle(surface, (0, 0, 0), (centre[0] + 1, centre[1] + 2), size * 0.2)
        pygame.draw.circle(surface, TRACKER, centre, size * 0.2)
        pygame.draw.circle(surface, (230, 210, 255), centre, size * 0.2, max(1, size // 24))

    def _draw_flashes(self, surface, transform, size) -> None:
        for cell, colour, kind, left, total in self.flashes:
            t = 1 - left / total
            rect = self._cell_rect(transform, cell)
            radius = size * (0.45 + 0.5 * t)
            ring = pygame.Surface((round(radius * 2 + 8), round(radius * 2 + 8)), pygame.SRCALPHA)
            alpha = round(255 * (1 - t))
            c = ring.get_width() / 2
            pygame.draw.circle(ring, (*colour, alpha), (c, c), radius, max(3, size // 10))
            surface.blit(ring, ring.get_rect(center=rect.center))
            if kind is not None:
                big = pygame.Surface((size * 2, size * 2), pygame.SRCALPHA)
                symbol(big, kind, (size, size), size * (1.0 + 0.4 * t), (*colour, alpha))
                surface.blit(big, big.get_rect(center=(rect.centerx, rect.centery - size * t)))

    def _draw_characters(self, surface, transform, view, size) -> None:
        token = max(12, round(size * 0.46))
        groups: dict[Cell, list[int]] = {}
        for seat in view["seats"]:
            if seat["seat"] in self.tweens:
                continue
            groups.setdefault(self.where[seat["seat"]], []).append(seat["seat"])
        spots: dict[int, tuple[float, float]] = {}
        for cell, members in groups.items():
            cx, cy = transform.to_screen(*self.point(cell))
            space = self.spaces.get(cell)
            shows = space is not None and space["state"] == "up" and space["kind"] != "safe"
            offsets = token_offsets(cell, len(members), shows)
            for seat, (dx, dy) in zip(members, offsets):
                spots[seat] = (cx + dx * size, cy + dy * size)
        for seat, tween in self.tweens.items():
            spots[seat] = transform.to_screen(*tween.point)
        current = view["current"]
        for seat in view["seats"]:
            s = seat["seat"]
            x, y = spots[s]
            small = self.where.get(s) in (LAYOUT.start, LAYOUT.finish) and s not in self.tweens
            image = character_token(seat["character"], seat_colour(s),
                                    round(token * 0.8) if small else token)
            rect = image.get_rect(center=(round(x), round(y)))
            if s == current and view["phase"] == "play":
                pygame.draw.circle(surface, GOLD, rect.center, token // 2 + 3, 3)
            surface.blit(image, rect)
            draw_seat_mark(surface, s, (rect.left + 3, rect.top + 3),
                           max(11, image.get_width() * 0.36))
            effects = list(dict.fromkeys(effects_of(seat)))
            for k, effect in enumerate(effects[:4]):
                effect_token(surface, effect, (rect.right - 2 - k * token * 0.36,
                                               rect.bottom - 2), max(4, token * 0.18))

    def _hud_rect(self, transform, name: str) -> pygame.Rect | None:
        box = self.hud.get(name)
        if box is None:
            return None
        x, y = transform.to_screen(box.x, box.y)
        return pygame.Rect(round(x), round(y), round(box.width * transform.scale),
                           round(box.height * transform.scale))

    def _draw_info(self, surface, transform, view) -> None:
        rect = self._hud_rect(transform, "info")
        track = [self._cell_rect(transform, cell) for cell in LAYOUT.track]
        # The info lines and the round track (its numbers tell the round).
        self.status_boxes = [track[0].unionall(track[1:])] + ([] if rect is None else [rect])
        if rect is None:
            return
        rows = self._info_rows(view)
        if interface_scale() > 1.0 and getattr(self.scene, "zoom", 1.0) == 1.0:
            # A larger interface: in window pixels at the interface's size (see info_box).
            box, lines, size = self.info_box(transform, self.scene.board_rect(), rows)
            self.status_boxes[-1] = box
            shade = pygame.Surface(box.size, pygame.SRCALPHA)
            shade.fill(panel_fill((16, 18, 26, 240)))  # (the map's art hardly shows)
            surface.blit(shade, box)
            y = box.y + px(4)
            for line, colour in lines:
                draw_text(surface, line, (box.x + px(8), y), size, colour,
                          bold=colour == GOLD, shadow=True)
                y += font(size).get_linesize()
            return
        scale = transform.scale
        text = max(10, round(17 * scale))
        x, y = rect.x + 6 * scale, rect.y + 4 * scale
        for line, colour in rows:
            draw_text(surface, line, (x, y), text, colour, bold=colour == GOLD, shadow=True)
            y += text * 1.45

    #: At a larger interface the info lines' box: from the board area's left edge to the
    #: floor's (map x), down to above the seat cards' row at most (map y).
    INFO_RIGHT, INFO_BOTTOM = 248, 636

    def info_box(self, transform, area: pygame.Rect, rows: list[tuple[str, Any]]
                 ) -> tuple[pygame.Rect, list[tuple[str, Any]], int]:
        """The info lines' box in window pixels at a larger interface: its rectangle, its
        lines (each row wrapped to the box's width) and their text size in pixels (drawn
        with the board's text, at scale 1) -- the interface's (17 at 100%) or, where the
        room left of the floor cannot hold them, as large as it can (never below the
        board's own size for them)."""
        left = area.x + 6
        right = round(transform.to_screen(self.INFO_RIGHT, 0)[0])
        top = max(area.y + 6, round(transform.to_screen(0, 8)[1]))
        bottom = min(area.bottom - 6, round(transform.to_screen(0, self.INFO_BOTTOM)[1]))
        width = max(1, right - left)
        least = max(12, round(17 * transform.scale))
        size = max(least, round(17 * interface_scale()))
        while True:
            lines = [(part, colour) for line, colour in rows
                     for part in wrap_text(line, size, width - px(16), colour == GOLD)]
            height = px(8) + len(lines) * font(size).get_linesize()
            if top + height <= bottom or size <= least:
                break
            size -= 1
        return pygame.Rect(left, top, width, min(height, bottom - top)), lines, size

    def _info_rows(self, view) -> list[tuple[str, Any]]:
        level = view["difficulty"]
        counts = DIFFICULTIES[level]
        rows = [(f"{level.capitalize()} ({counts['safe']}/{counts['trap']}/"
                 f"{counts['objective']})", GOLD),
                (f"Round {view['round']}, tracker {view['tracker']['place']}/"
                 f"{view['tracker']['places']}", TEXT),
                (f"Generators off: {view['objectives']['done']}/{view['objectives']['total']}",
                 KIND_COLOURS["objective"]),
                (f"Draw pile: {view['draw_pile']} tiles", TEXT),
                ("Escape pod: " + ("OPEN" if view["finish_open"] else "locked"),
                 GOLD if view["finish_open"] else (170, 170, 180))]
        return rows

    #: The seat cards' row at a larger interface: from the first card's left edge to the
    #: round track's (map pixels), the gap between two cards and a card's size at 100%.
    CARDS_LEFT, CARDS_RIGHT, CARD_GAP, CARD_SIZE = 4, 788, 8, 184
    #: Four seats at a larger interface: two rows of two cards, each this tall at 100%
    #: (what a card shows needs no more; a row of four would not grow at all).
    CARD_LOW = 156

    def card_rows(self, view: dict[str, Any]) -> int:
        """The seat cards' rows: two for four seats at a larger interface, else one."""
        big = interface_scale() > 1.0 and getattr(self.scene, "zoom", 1.0) == 1.0
        return 2 if big and len(view["seats"]) >= 4 else 1

    def card_growth(self, view: dict[str, Any]) -> float:
        """How much larger than the board's zoom the seat cards are drawn: 1 at 100% (and
        on a zoomed board); at a larger interface the interface's scale, as far as the
        row left of the round track holds the cards (their text is interface, not board)
        -- and for four seats in two rows, as far as the board's area holds the rows below
        the board with the board giving up at most a quarter of its zoom."""
        if interface_scale() <= 1.0 or getattr(self.scene, "zoom", 1.0) != 1.0:
            return 1.0
        rows = self.card_rows(view)
        n = -(-max(1, len(view["seats"])) // rows)  # cards in a row
        room = (self.CARDS_RIGHT - self.CARDS_LEFT) / (n * self.CARD_SIZE
                                                       + (n - 1) * self.CARD_GAP)
        if rows > 1:
            from game.ui.scenes.play import BOARD_GIVES
            box = self.hud.get("seat-0")
            if box is not None:
                area = self.scene.board_rect()
                least = self.renderer.fit(area).scale * BOARD_GIVES
                tall = rows * self.CARD_LOW + (rows - 1) * self.CARD_GAP
                room = min(room, ((area.height - 4) / least - box.y) / tall)
        return max(1.0, min(interface_scale(), room))

    def card_rect(self, transform, view, seat: int) -> pygame.Rect | None:
        """A seat card's rectangle on screen: its place in the map's card row at 100%; at
        a larger interface grown by :meth:`card_growth` (window pixels, from the row's
        top, reaching below the board's picture where it must)."""
        grow = self.card_growth(view)
        if grow == 1.0:
            return self._hud_rect(transform, f"seat-{seat}")
        box = self.hud.get(f"seat-{seat}")
        if box is None:
            return None
        cs = transform.scale * grow
        x, y = transform.to_screen(self.CARDS_LEFT, box.y)
        if self.card_rows(view) > 1:  # two rows of two, lower cards
            col, row = seat % 2, seat // 2
            return pygame.Rect(round(x + col * (self.CARD_SIZE + self.CARD_GAP) * cs),
                               round(y + row * (self.CARD_LOW + self.CARD_GAP) * cs),
                               round(self.CARD_SIZE * cs), round(self.CARD_LOW * cs))
        return pygame.Rect(round(x + seat * (self.CARD_SIZE + self.CARD_GAP) * cs), round(y),
                           round(self.CARD_SIZE * cs), round(self.CARD_SIZE * cs))

    def bottom_room(self) -> int:
        """At a larger interface the grown cards may reach below the board's picture: the
        board keeps that room under it (and gives up at most a quarter of its zoom)."""
        view = self.scene.view()
        grow = self.card_growth(view)
        if grow == 1.0 or not self.hud:
            return 0
        box = next(iter(b for n, b in self.hud.items() if n.startswith("seat-")), None)
        if box is None:
            return 0
        fit = self.renderer.fit(self.scene.board_rect())
        bounds = self.renderer.bounds
        rows = self.card_rows(view)
        tall = self.CARD_SIZE if rows == 1 else rows * self.CARD_LOW + (rows - 1) * self.CARD_GAP
        below = box.y + tall * grow - (bounds.y + bounds.height)
        return max(0, round(below * fit.scale)) + 4 if below > 0 else 0

    def _draw_card(self, surface, transform, view, seat) -> None:
        rect = self.card_rect(transform, view, seat["seat"])
        if rect is None:
            return
        s = seat["seat"]
        scale = transform.scale * self.card_growth(view)
        colour = seat_colour(s)
        card = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(card, panel_fill((16, 18, 26, 215)), card.get_rect(), border_radius=10)
        surface.blit(card, rect)
        active = view["phase"] == "play" and view["current"] == s
        pygame.draw.rect(surface, GOLD if active else colour, rect, 3 if active else 2,
                         border_radius=10)
        pad = 8 * scale
        x, y = rect.x + pad, rect.y + pad * 0.6
        big = max(10, round(19 * scale))
        small = max(9, round(15 * scale))
        room = round(rect.width - 2 * pad)
        mark = max(11, round(big * 0.7))  # the seat's shape, then its name
        name_size, lines = name_lines(seat["name"], room - mark - 4, big,
                                      max(12, round(14 * scale)))
        draw_seat_mark(surface, s, (x + mark / 2, y + name_size * 0.7), mark, on_piece=False)
        ink = readable_on(colour, (16, 18, 26))
        for n, line in enumerate(lines):
            draw_text(surface, line, (x + (mark + 4 if n == 0 else 0), y), name_size, ink,
                      bold=True, shadow=True)
            y += name_size * 1.2
        y += big * 1.35 - name_size * 1.2
        char = CHARACTERS[seat["character"]]["name"] if seat["character"] else "choosing..."
        status = ""
        if seat["escaped"]:
            status = "  - escaped!"
        elif seat["deferred"]:
            status = "  - deferred"
        level = self.seat_level(s)  # a computer seat's level, after its character
        text = char + (f" · {level}" if level else "") + status
        draw_text(surface, fit(text, room + 12, small), (x, y), small, TEXT)
        y += small * 1.6
        radius = max(4, 11 * scale)
        for k in range(max(seat["ap_per_round"], seat["ap"], 4)):
            centre = (x + radius + k * radius * 2.5, y + radius)
            if k < seat["ap_per_round"] or k < seat["ap"]:
                ap_token(surface, centre, radius, k < seat["ap"], AP_GOLD)
            else:  # lost to Sever
                pygame.draw.line(surface, KIND_COLOURS["sever"],
                                 (centre[0] - radius, centre[1] + radius),
                                 (centre[0] + radius, centre[1] - radius), 2)
        draw_text(surface, "AP", (x + 4 * radius * 2.5 + 2, y + radius), small, AP_GOLD,
                  bold=True, anchor="midleft")
        y += radius * 2 + 8 * scale
        effects = effects_of(seat)
        er = max(5, 12 * scale)
        for k, effect in enumerate(effects[:6]):
            effect_token(surface, effect, (x + er + k * er * 2.4, y + er), er)
        kx = x + er + len(effects[:6]) * er * 2.4
        if seat["lifted"]:
            pygame.draw.rect(surface, KIND_COLOURS["mystery"],
                             pygame.Rect(kx - er, y, er * 2, er * 2), border_radius=3)
            symbol(surface, "mystery", (kx, y + er), er * 1.6, (20, 20, 30))
            kx += er * 2.4
        words = card_words(seat)
        if words:
            size = max(12, round(13 * scale))  # >= 12 px: the rule's least text
            draw_text(surface, fit(words, round(rect.right - kx + er - pad + 10), size),
                      (kx - er + 2, y + er), size,
                      (200, 200, 210) if effects else (140, 140, 150), anchor="midleft")
        y += er * 2 + 6 * scale
        ability = CHARACTERS[seat["character"]]["ability"] if seat["character"] else None
        if ability and CHARACTERS[seat["character"]].get("once_per_round") \
                and not seat["escaped"]:
            used = seat["ability_used"]
            draw_text(surface, "ability used" if used else "ability ready", (x, y), small,
                      (150, 150, 160) if used else (120, 230, 160))

    # results --------------------------------------------------------------------------
    def results_table(self, result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
        rows = []
        for s, seat in enumerate(self.table.seats):
            when = result["escape_rounds"][s]
            rows.append([seat["name"], CHARACTERS[result["characters"][s]]["name"]
                         if result["characters"][s] else "",
                         f"escaped in round {when}" if when else "left aboard"])
        return ["Player", "Character", "Fate"], rows

    def results_summary(self, result: dict[str, Any]) -> list[str]:
        lines = [result["headline"],
                 f"{result['difficulty'].capitalize()} game: generators off "
                 f"{result['objectives_done']} of {result['objectives_total']}, "
                 f"{result['rounds_played']} rounds played."]
        lines += wrap_text(result["ending_text"], 18, 560)
        return lines
