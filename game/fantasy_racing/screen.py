"""Fantasy Racing on screen: racers, track state, dice, the race table and the action panel.

Screen code only: it reads views and events and hands actions to the play
scene.  The track's taken objects, broken barriers and traps are display
state updated event by event, so the board changes when the log says so.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import pygame

from game.ui import paths
from game.ui.gamescreen import GameScreen, Tween, art
from game.ui.look import interface_size, px, scale
from game.ui.marks import draw_highlight, draw_seat_mark, readable_on, rect_points
from game.ui.widgets import (ALERT, GOLD, MUTED, SEAT_COLOURS, TEXT, draw_name, draw_text, fit,
                             font, panel_fill, render_text, wrap_text)

from .data import CHARACTERS, MOOD_HELP, OBJECTS, TRACK, character_card

ART = paths.ASSETS / "fantasy_racing"
W, H = TRACK["width"], TRACK["height"]
MOOD_WORDS = {"bonus": "bonus chests (behind in the race)", "even": "even chests",
              "malus": "malus chests (leading the race)"}
OBSTACLE_TEXT = {
    "barrier": "Barrier: cannot be crossed; stops recoils. Spears, axes and fire destroy it.",
    "rock": "Rock: cannot be crossed; stops recoils and spears. Fireballs fly over it.",
    "hole": "Hole: jumped with a run-up of two squares; otherwise it stops you just after it."
            " Ending on it: -2 points.",
    "shortcut": "Shortcut: stop here to roll 1D10: 40% back (1-4), 60% ahead (1-5 squares).",
}
ITEM_TEXT = {"clover": "Clover: spend it at a chest to roll again.",
             "shield": "Shield: cancels a shock for 2 points.",
             "coin": "Gold coin: 2 points.", "chest": "Chest: roll the object die."}
STEP_LABELS = {-1: "Down-left", 0: "Down", 1: "Down-right"}
FACE_WORDS = {"defeat": "Defeat", "simple": "Victory", "overwhelming": "Overwhelming!",
              "successful theft": "Stolen!", "failed theft": "Failed"}


def sprite(name: str, size: int, alpha: int = 255) -> pygame.Surface:
    """An art file scaled to ``size`` pixels (and faded), cached."""
    return art(ART / f"{name}.png", size, None if alpha >= 255 else (255, 255, 255, alpha))


@lru_cache(maxsize=64)
def grey(name: str, size: int) -> pygame.Surface:
    image = sprite(name, size).copy()
    image.fill((120, 120, 120, 150), special_flags=pygame.BLEND_RGBA_MULT)
    return image


def group_label(names: list[str], width: int, size: int) -> list[str]:
    """The label lines for racers sharing a square: their names on one or two lines if they
    fit ``width`` pixels, else shortened names, else their initials.

    Hovering the square lists them in full.
    """
    half = (len(names) + 1) // 2
    for short in (lambda n: n, lambda n: n[:4], lambda n: n[:1]):
        cut = [short(n) for n in names]
        for lines in ([", ".join(cut)], [", ".join(cut[:half]), ", ".join(cut[half:])]):
            if all(font(size, True).size(line)[0] <= width for line in lines):
                return lines
    return [f"{len(names)} racers"]


class RacingScreen(GameScreen):
    """Draws and drives one Fantasy Racing match."""

    QUIET_EVENTS = frozenset({"order", "turn", "note", "pick", "move", "blocked", "protect",
                              "gain", "shock_coming", "stop", "jump", "clover", "use", "hit",
                              "steal", "over", "lap", "shield"})
    STEP_EVENTS = frozenset({"recoil", "shortcut", "fight", "fall", "tactical", "hole",
                             "trap_sprung", "destroy"})
    RULES_SECTIONS = {"pick": "Characters", "objects": "Chest objects", "move": "Movement",
                      "steps": "Movement", "resolve": "Fights", "over": "Points",
                      "done": "Points"}

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.where: dict[int, list[int]] = {}
        self.taken: set[tuple[int, int]] = set()
        self.destroyed: set[tuple[int, int]] = set()
        self.traps: set[tuple[int, int]] = set()
        self.dice: dict[str, Any] | None = None
        self.floats: list[list[Any]] = []  # [text, (mx, my), seconds left, colour]
        self.shots: list[list[Any]] = []   # [(mx, my), [(mx, my)...], seconds left, fire]
        self.marks: list[list[Any]] = []   # [[cells], seconds left, colour]: recoil paths
        self.aim: str | None = None
        self.aim_turn: tuple[int, int] | None = None
        #: Screen rectangles of the race table's rows and chest icons -> ("racer"/"mood", seat).
        self.info_rects: list[tuple[pygame.Rect, tuple[str, int]]] = []

    # display state -----------------------------------------------------------------
    def reset(self, view: dict[str, Any]) -> None:
        self.tweens.clear()
        self.where = {r["seat"]: list(r["pos"]) for r in view["racers"]}
        self.taken = {tuple(c) for c in view["taken"]}
        self.destroyed = {tuple(c) for c in view["destroyed"]}
        self.traps = {(c[0], c[1]) for c in view["traps"]}
        self.dice = dict(view["dice"], faces=[], face=None, spin=0.0) if view["dice"] else None
        self.floats.clear()
        self.shots.clear()
        self.marks.clear()

    def centre(self, cell: Any) -> tuple[float, float]:
        return self.board.cell_center((int(cell[0]) % W, int(cell[1]) % H))

    def _slide(self, seat: int, origin: list[int], target: list[int], seconds: float,
               hop: float = 0.0, shift: tuple[int, int] | None = None) -> None:
        """Move a racer, taking the short way across a wrapped edge."""
        start = self.tweens[seat].point if seat in self.tweens else self.centre(origin)
        if shift is None:
            dx = (target[0] - origin[0] + W // 2) % W - W // 2
            dy = (target[1] - origin[1] + H // 2) % H - H // 2
        else:
            dx, dy = shift
        end = (start[0] + dx * self.board.tilewidth, start[1] + dy * self.board.tileheight)
        self.where[seat] = list(target)
        self.tweens[seat] = Tween(start, end, seconds, hop)

    def _float(self, text: str, cell: Any, colour=GOLD, seconds: float = 1.2) -> None:
        x, y = self.centre(cell)
        self.floats.append([text, (x, y - 20), seconds, colour])

    def animate(self, event: dict[str, Any], view: dict[str, Any]) -> float:
        kind = event["type"]
        seat = event.get("seat")
        if kind == "dice":
            self.dice = {"die": event["die"], "value": event["value"], "faces": event["faces"],
                         "face": event.get("face"), "seat": seat, "spin": 0.6}
            return 0.75
        if kind == "step":
            self._slide(seat, event["origin"], event["target"], 0.22)
            return 0.24
        if kind in ("recoil", "fall", "hole"):
            if event.get("target") is None:
                return 0.1
            origin = event.get("origin", self.where[seat])
            if kind == "recoil" and event.get("path"):
                self.marks.append([[tuple(c) for c in event["path"]], 1.0, (235, 80, 60)])
            self._slide(seat, origin, event["target"], 0.5 if kind == "recoil" else 0.4,
                        hop=12 if kind == "recoil" else 0)
            if kind == "fall":
                self._float("-2 hole", event["origin"], ALERT)
            return 0.55
        if kind == "shortcut":
            self._slide(seat, event["origin"], event["target"], 0.7, hop=50,
                        shift=(0, event["shift"] if event["shift"] > 0 else
                               event["target"][1] - event["origin"][1]))
            self._float("shortcut!", event["origin"], (200, 160, 255))
            return 0.8
        if kind == "tactical":
            if event.get("dx"):
                self._slide(seat, event["origin"], event["target"], 0.35, hop=10)
            return 0.4
        if kind == "fight":
            self._float("Fight!", event["cell"], ALERT, 1.0)
            gain = 5 if event["face"] == "overwhelming" else 3
            self.floats.append([f"+{gain}", self._point(event["winner"]), 1.4, GOLD])
            return 0.8
        if kind == "shock":
            self.floats.append([f"{event['size']} shock", self._point(seat), 1.0, ALERT])
            return 0.3
        if kind == "collect":
            self.taken.add(tuple(event["cell"]))
            if event["item"] == "coin":
                self.floats.append(["+coin", self._point(seat), 1.0, GOLD])
            return 0.2
        if kind == "lap":
            self.floats.append(["LAP! +10", self._point(seat), 1.6, GOLD])
            return 0.5
        if kind == "respawn":
            self.taken.clear()
            return 0.5
        if kind == "destroy":
            self.destroyed.add(tuple(event["cell"])) if event["thing"] == "barrier" else \
                self.traps.discard(tuple(event["cell"]))
            self._float("smash!", event["cell"], ALERT)
            return 0.4
        if kind == "trap":
            self.traps.add(tuple(event["cell"]))
            return 0.3
        if kind == "trap_sprung":
            self.traps.discard(tuple(event["cell"]))
            self._float("trap!", event["cell"], ALERT)
            return 0.4
        if kind == "use" and event.get("hits"):
            self.shots.append([self.centre(event["origin"]),
                               [self.centre(h) for h in event["hits"]], 0.5, event["fire"]])
            return 0.5
        if kind == "shield":
            self.floats.append(["shield!", self._point(seat), 1.0, (150, 190, 255)])
            return 0.3
        return 0.0

    def _point(self, seat: int) -> tuple[float, float]:
        tween = self.tweens.get(seat)
        return tween.point if tween else self.centre(self.where[seat])

    def update(self, dt: float) -> bool:
        moving = super().update(dt)
        for seat, tween in list(self.tweens.items()):
            if tween.elapsed >= tween.duration:
                del self.tweens[seat]
        if self.dice and self.dice.get("spin", 0) > 0:
            self.dice["spin"] = max(0.0, self.dice["spin"] - dt)
            moving = True
        for group in (self.floats, self.shots):
            for item in group:
                item[2] -= dt
            group[:] = [i for i in group if i[2] > 0]
        for mark in self.marks:
            mark[1] -= dt
        self.marks[:] = [m for m in self.marks if m[1] > 0]
        return moving or bool(self.floats) or bool(self.shots) or bool(self.marks)

    def finish(self) -> None:
        super().finish()
        self.tweens.clear()
        if self.dice:
            self.dice["spin"] = 0.0
        self.floats.clear()
        self.shots.clear()
        self.marks.clear()

    # panel --------------------------------------------------------------------------
    def me(self, view: dict[str, Any]) -> dict[str, Any] | None:
        viewer = view["viewer"]
        return None if viewer is None else view["racers"][viewer]

    def my_turn(self, view: dict[str, Any]) -> bool:
        return view["viewer"] is not None and view["viewer"] in view["to_act"]

    def panel_text(self, view: dict[str, Any]) -> list[str]:
        if view["phase"] == "over":
            return ["The race is over."]
        if not self.my_turn(view):
            return ["Waiting for the next racer."]
        me, pending = self.me(view), view["pending"]
        if view["phase"] == "pick":
            if self.table.options["characters"] == "random":
                return ["Deal the characters at random to start the race."]
            return ["Pick your character (hover a button for strengths and weakness)."]
        if pending:
            if pending["kind"] == "shield":
                return [f"A {pending['size']} shock from {pending['why']} is coming. Raise a "
                        f"shield ({pending['cost']} point{'s' if pending['cost'] != 1 else ''}) "
                        f"or take it?"]
            if pending["kind"] == "clover":
                return [f"The chest gives you a {OBJECTS[pending['object']]['name'].lower()}. "
                        f"Keep it, or spend a clover to roll again?"]
            return ["You won the fight: make your tactical move (skid left or right, or stay)."]
        who = f"You race as {me['character_name']} ({me['points']} points)."
        if view["phase"] == "objects":
            if me["objects"]:
                return [who, "Use one object (Aim shows its reach on the board), or roll."]
            return [who, "Roll the movement die."]
        if view["phase"] == "move":
            return [who, "Roll the movement die."]
        left = view["move"].get("left", 0)
        text = f"{left} step{'s' if left != 1 else ''} left: click a highlighted square."
        if view.get("can_stop"):
            text += " You may stop on this shortcut."
        return [who, text]

    #: Buttons the play scene adds after this panel (Menu, ?, Undo, Hint, Step).
    SCENE_BUTTONS = 5

    def build_panel(self, rect: pygame.Rect, view: dict[str, Any]) -> int:
        if not self.my_turn(view):
            return 0
        pending = view["pending"]
        if view["phase"] == "pick":
            used = self._pick_panel(rect, view)
        elif pending:
            used = self._pending_panel(rect, view, pending)
        elif view["phase"] in ("objects", "move"):
            used = self._objects_panel(rect, view)
        else:
            used = self._steps_panel(rect, view)
        self._fresh_decision(view)
        return used

    def _fresh_decision(self, view: dict[str, Any]) -> None:
        """A new decision starts with no button focused, so none looks chosen in advance
        (the scene would otherwise put the keyboard focus back on the same index after the
        rebuild, e.g. on "Use shield" for the next person).  The focus is parked past the
        end of the list such that Tab still goes to the first button."""
        key = (view["viewer"], view["turn"], view["index"], view["phase"],
               (view["pending"] or {}).get("kind"), view["move"].get("left"))
        if key == getattr(self, "_decision", None):
            return
        self._decision = key
        total = len(self.scene.controls.items) + self.SCENE_BUTTONS
        self.scene.controls.focus = 2 * total - 1

    def _row(self, rect: pygame.Rect, y: int, items: list[tuple[str, Any, str | None]],
             height: int = 36, primary: int | None = None) -> int:
        controls = self.scene.controls
        n = max(1, len(items))
        width = (rect.width - 6 * (n - 1)) // n
        for i, (text, callback, tip) in enumerate(items):
            widget = controls.button((rect.x + i * (width + 6), y, width, px(height)), text,
                                     callback, tooltip=tip,
                                     object_id="#primary" if i == primary else None)
            if tip and len(tip) > 80:  # a character card: wider than pygame_gui's 170 px
                widget.set_tooltip(tip, wrap_width=px(380))
        return y + px(height) + 6

    def _pick_panel(self, rect: pygame.Rect, view: dict[str, Any]) -> int:
        y = rect.y
        if self.table.options["characters"] == "random":
            y = self._row(rect, y, [("Deal characters", lambda: self.act({"type": "deal"}),
                                     "Give every racer a character at random")], 40, primary=0)
            return y - rect.y
        free = view["free_characters"]
        for i in range(0, len(free), 2):
            pair = free[i:i + 2]
            y = self._row(rect, y, [(CHARACTERS[k]["name"].split(" the ")[-1],
                                     lambda k=k: self.act({"type": "pick", "character": k}),
                                     character_card(k)) for k in pair])
        return y - rect.y

    def _pending_panel(self, rect: pygame.Rect, view: dict[str, Any],
                       pending: dict[str, Any]) -> int:
        if pending["kind"] == "shield":
            items = [(f"Use shield (-{pending['cost']})", lambda: self.act({"type": "shield"}),
                      "Ignore the shock"),
                     ("Take the shock", lambda: self.act({"type": "take"}), "Keep the shield")]
        elif pending["kind"] == "clover":
            name = OBJECTS[pending["object"]]["name"]
            items = [(f"Keep: {name}", lambda: self.act({"type": "keep"}), None),
                     ("Spend clover: reroll", lambda: self.act({"type": "reroll"}),
                      "Roll the object die again; the new object stands")]
        else:
            words = {-2: "2 left", -1: "Skid left", 0: "Stay", 1: "Skid right", 2: "2 right"}
            items = [(words[dx], lambda dx=dx: self.act({"type": "tactical", "dx": dx}),
                      "Or click the square on the board" if dx else "Stay on this square")
                     for dx in pending["options"]]
        # Equal choices: none is drawn as chosen or focused (Tab reaches them by key).
        y = self._row(rect, rect.y, items, 40)
        return y - rect.y

    def _aimed(self, view: dict[str, Any]) -> str | None:
        key = (view["viewer"], view["turn"])
        if self.aim_turn != key or view["phase"] != "objects":
            self.aim, self.aim_turn = None, key
        me = self.me(view)
        if self.aim and (me is None or self.aim not in me["objects"]):
            self.aim = None
        return self.aim

    def _set_aim(self, key: str | None) -> None:
        self.aim = None if self.aim == key else key
        self.scene.rebuild()

    def _objects_panel(self, rect: pygame.Rect, view: dict[str, Any]) -> int:
        me = self.me(view)
        die = "DRAPID" if "rapid" in CHARACTERS[me["character"]]["abilities"] else "D6"
        only = view["phase"] != "objects" or not me["objects"]
        y = self._row(rect, rect.y, [(f"Roll {die} and move", lambda: self.act({"type": "roll"}),
                                      "Roll the movement die")], 40,
                      primary=0 if only else None)
        if view["phase"] != "objects":
            return y - rect.y
        aim = self._aimed(view)
        legal = self.table.legal_actions(view["viewer"])
        usable = []
        why_not = view.get("unusable", {})
        for key in sorted(set(me["objects"])):
            obj = OBJECTS[key]
            actions = [a for a in legal if a.get("object") == key]
            count = me["objects"].count(key)
            name = obj["name"] + (f" x{count}" if count > 1 else "")
            if obj["target"] in ("none", "area"):
                usable.append((f"Use {name}", (lambda a=actions: self.act(a[0]))
                               if actions else None, obj["text"]))
            else:
                usable.append(((f"Aiming: {name}" if aim == key else f"Aim {name}"),
                               (lambda k=key: self._set_aim(k)) if actions else None,
                               obj["text"]))
            if not actions:  # greyed: its tooltip (and a click) says why
                text, _callback, tip = usable[-1]
                usable[-1] = (text, None, tip + "\nNot now: " + (
                    why_not.get(key) or "there is nothing to use it on now."))
        controls = self.scene.controls
        half = (rect.width - 6) // 2
        col = 0
        for text, callback, tip in usable:
            # Two to a row while the labels fit; a longer one gets the whole row.
            wide = font(16, True).size(text)[0] > half - 20
            if wide and col:
                y, col = y + px(38), 0
            box = (rect.x, y, rect.width, px(34)) if wide else \
                (rect.x + col * (half + 6), y, half, px(34))
            controls.button(box, text, callback, tooltip=tip, enabled=callback is not None,
                            object_id="#chosen" if text.startswith("Aiming") else None)
            if wide or col:
                y, col = y + px(38), 0
            else:
                col = 1
        if col:
            y += px(38)
        # A disabled button shows no tooltip: say under the buttons why it cannot be used.
        for key in sorted(why_not):
            for line in wrap_text(why_not[key], 16, rect.width - 12):
                controls.label((rect.x, y, rect.width, px(22)), line, object_id="#muted")
                y += px(22)
            y += px(4)
        if aim:
            targets = [a for a in legal if a.get("object") == aim]
            for i, action in enumerate(targets[:6]):
                words = self._target_words(action, view)
                controls.button((rect.x + (i % 2) * (half + 6), y + (i // 2) * px(34), half,
                                 px(30)),
                                fit("Hit " + self._target_words(action, view, short=True),
                                    half - 12, 16, bold=True),
                                lambda a=action: self.act(a), tooltip="Hit " + words)
            y += ((min(6, len(targets)) + 1) // 2) * px(34)
        return y - rect.y

    def _target_words(self, action: dict[str, Any], view: dict[str, Any],
                      short: bool = False) -> str:
        """The target of an object: a racer's name, or a trap or barrier by where it lies
        from the racer ("the barrier two down of you"; short: "2 down")."""
        if "seat" in action:
            return view["racers"][action["seat"]]["name"]
        x, y = action["cell"]
        thing = "trap" if (x, y) in {(t[0], t[1]) for t in view["traps"]} else "barrier"
        if short:
            dx, dy = self.offset(action["cell"])
            return ", ".join(f"{abs(n)} {less if n < 0 else more}" for n, less, more in
                             ((dy, "up", "down"), (dx, "left", "right")) if n) or "here"
        return self.place_name(action["cell"], thing)

    def offset(self, value: Any) -> tuple[int, int]:
        """Columns right and rows down from the viewer's racer to ``value`` (the track wraps
        round both ways)."""
        x, y = self.scene.view()["racers"][self.scene.viewer]["pos"]
        return ((int(value[0]) - x + W // 2) % W - W // 2,
                (int(value[1]) - y + H // 2) % H - H // 2)

    def place_name(self, value: Any, what: str = "square") -> str:
        """A square as the board shows it: where it lies from the viewer's own racer ("the
        square two down and one left of you"); the board draws no coordinates."""
        from game.ui.hints import relative
        viewer = self.scene.viewer
        if viewer is None:
            return super().place_name(value)
        return relative(*self.offset(value), what)

    def _steps_panel(self, rect: pygame.Rect, view: dict[str, Any]) -> int:
        legal = self.table.legal_actions(view["viewer"])
        items = [(STEP_LABELS[a["dx"]], lambda a=a: self.act(a), "Or click the square")
                 for a in legal if a["type"] == "step"]
        y = self._row(rect, rect.y, items, 36) if items else rect.y
        if {"type": "stop"} in legal:
            y = self._row(rect, y, [("Stop on the shortcut", lambda: self.act({"type": "stop"}),
                                     "End the move here and roll the shortcut's D10")], 36)
        return y - rect.y

    # board clicks -----------------------------------------------------------------------
    def _click_actions(self, view: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
        """Square -> the action clicking it performs now."""
        if not self.my_turn(view):
            return {}
        out: dict[tuple[int, int], dict[str, Any]] = {}
        pending = view["pending"]
        me = self.me(view)
        if pending and pending["kind"] == "tactical":
            x, y = me["pos"]
            for dx in pending["options"]:
                if dx:
                    out[((x + dx) % W, y)] = {"type": "tactical", "dx": dx}
            return out
        if pending or view["phase"] == "pick":
            return out
        if view["phase"] == "steps":
            for x, y, dx in view.get("steps", []):
                out[(x, y)] = {"type": "step", "dx": dx}
            if view.get("can_stop"):
                out[tuple(me["pos"])] = {"type": "stop"}
            return out
        aim = self._aimed(view) if view["phase"] == "objects" else None
        if aim:
            for action in self.table.legal_actions(view["viewer"]):
                if action.get("object") != aim:
                    continue
                cell = tuple(view["racers"][action["seat"]]["pos"]) if "seat" in action \
                    else tuple(action["cell"])
                out.setdefault(cell, action)
        return out

    def click_cell(self, cell: Any, view: dict[str, Any]) -> None:
        action = self._click_actions(view).get(tuple(cell))
        if action is not None:
            self.act(action)

    def highlighted(self, view: dict[str, Any]) -> set[Any]:
        return set(self._click_actions(view))

    @staticmethod
    def highlight_kind(action: dict[str, Any]) -> str:
        """How a square a click acts on is marked (``game.ui.marks.HIGHLIGHTS``)."""
        if action["type"] in ("step", "tactical"):
            return "move"
        if action["type"] == "stop":
            return "choose"
        return "attack" if "seat" in action else "shoot"

    def cell_action(self, cell: Any, view: dict[str, Any]) -> dict[str, Any] | None:
        """The action a click on ``cell`` takes now (hints mark it); while stepping, a
        square ahead of the racer means that step even when it is refused ("why not?")."""
        if not isinstance(cell, (list, tuple)):
            return None
        cell = tuple(cell)
        action = self._click_actions(view).get(cell)
        if action is not None or not self.my_turn(view) or view["phase"] != "steps" \
                or view["pending"]:
            return action
        x, y = self.me(view)["pos"]
        for dx in (-1, 0, 1):
            if ((x + dx) % W, (y + 1) % H) == cell:
                return {"type": "step", "dx": dx}
        return None

    def what_now(self, view: dict[str, Any]) -> str:
        """What the racer at the screen has to do before a square can mean anything."""
        me, pending = self.me(view), view["pending"]
        if view["phase"] == "pick":
            return "Pick first: choose your character with the buttons on the right."
        if pending:
            if pending["kind"] == "shield":
                return "Answer first: raise your shield or take the shock (buttons on the right)."
            if pending["kind"] == "clover":
                return "Answer first: keep what the chest gave or spend a clover to roll again."
            return "Make your tactical move first: a marked square beside you, or stay."
        if view["phase"] == "steps":
            left = view["move"].get("left", 0)
            return (f"Out of reach: you move one row at a time, {left} step"
                    f"{'s' if left != 1 else ''} left; click a marked square just ahead.")
        die = "DRAPID" if me and "rapid" in CHARACTERS[me["character"]]["abilities"] else "D6"
        if view["phase"] == "objects" and self._aimed(view):
            return ("Not a target: click a marked square or racer to use the "
                    f"{OBJECTS[self._aimed(view)]['name'].lower()}, or aim again to stop.")
        return f"Roll first: press Roll {die} and move (or use an object before rolling)."

    def idle_reason(self, cell: Any, view: dict[str, Any]) -> str | None:
        return self.turn_reason() or self.what_now(view)

    def cell_at(self, point: tuple[float, float]) -> Any:
        """A board square, or a row or chest icon of the race table drawn over the board."""
        sx, sy = self.scene.transform().to_screen(*point)
        for rect, key in self.info_rects:
            if rect.collidepoint(sx, sy):
                return key
        return super().cell_at(point)

    def _racer_text(self, r: dict[str, Any]) -> str:
        held = ["a clover"] * r["clover"] + ["a shield"] * r["shield"] + [
            OBJECTS[k]["name"].lower() for k in r["objects"]]
        return (f"{r['name']}: {r['points']} point{'s' if r['points'] not in (1, -1) else ''},"
                f" lap {r['laps']}" + (", protected (not yet started or in a cloak of mist)"
                                       if r["protected"] else "")
                + (f"; holds {', '.join(held)}" if held else "; holds nothing"))

    def hover_text(self, cell: Any, view: dict[str, Any]) -> str | None:
        if cell and isinstance(cell[0], str):
            r = view["racers"][cell[1]]
            if not r["character"]:
                return None
            if cell[0] == "mood":
                ch = CHARACTERS[r["character"]]
                shift = ""
                if ch["weakness"] == "unlucky":
                    shift = f" {ch['name']} is unlucky: always one column nearer the malus."
                elif "scrounger" in ch["abilities"]:
                    shift = f" {ch['name']} is a scrounger: always one column nearer the bonus."
                return f"{r['name']}'s chest icon. " + MOOD_HELP[r["mood"]] + shift + \
                    " Compared each time a chest is opened."
            return self._racer_text(r) + "\n" + character_card(r["character"]) + "\n" + \
                MOOD_HELP[r["mood"]]
        cell = tuple(cell)
        lines = []
        kind = TRACK["terrain"].get(cell)
        if kind == "barrier" and cell in self.destroyed:
            lines.append("A broken barrier: the way is open.")
        elif kind:
            lines.append(OBSTACLE_TEXT[kind])
        item = TRACK["items"].get(cell)
        if item:
            state = " (taken: it comes back at the next respawn turn)" if cell in self.taken else ""
            lines.append(ITEM_TEXT[item] + state)
        if cell in self.traps:
            lines.append("A trap: a big shock for the first racer to arrive.")
        for r in view["racers"]:
            if tuple(self.where.get(r["seat"], r["pos"])) == cell and r["character"]:
                ch = CHARACTERS[r["character"]]
                win = ch["combat"]["simple"] + ch["combat"]["overwhelming"]
                lines.append(f"{r['name']}: {r['character_name']} (wins {win}% of attacks), "
                             f"{r['points']} point{'s' if r['points'] not in (1, -1) else ''}, "
                             f"lap {r['laps']}, {MOOD_WORDS[r['mood']]}"
                             + (", protected" if r["protected"] else "")
                             + (f"; holds {', '.join(self._held(r))}" if self._held(r) else ""))
                lines.append(f"  {ch['strengths']} Weakness: {ch['weakness_text']}")
        if cell[1] == 0:
            lines.append("Start line.")
        if cell[1] == H - 1:
            lines.append("Last row before the finish line.")
        return "\n".join(lines) or None

    def _held(self, r: dict[str, Any]) -> list[str]:
        return ["a clover"] * r["clover"] + ["a shield"] * r["shield"] + [
            OBJECTS[k]["name"].lower() for k in r["objects"]]

    def outline(self, surface: pygame.Surface, transform: Any, cell: Any,
                colour: tuple[int, int, int], width: int) -> pygame.Rect | None:
        if isinstance(cell[0], str):  # a row of the race table, not a square
            return None
        rect = self._cell_rect(transform, cell)
        return pygame.draw.rect(surface, colour, rect, width)

    def _cell_rect(self, transform: Any, cell: Any) -> pygame.Rect:
        x, y = transform.to_screen(cell[0] * self.board.tilewidth, cell[1] * self.board.tileheight)
        size = self.board.tilewidth * transform.scale
        return pygame.Rect(round(x), round(y), math.ceil(size), math.ceil(size))

    # drawing --------------------------------------------------------------------------
    def draw_pieces(self, surface: pygame.Surface, transform: Any, view: dict[str, Any]) -> None:
        size = max(8, int(self.board.tilewidth * transform.scale))
        self._draw_track(surface, transform, size)
        self._draw_reach(surface, transform, view, size)
        for cells, left, colour in self.marks:
            tint = pygame.Surface((size, size), pygame.SRCALPHA)
            tint.fill((*colour, int(110 * min(1.0, left * 2))))
            for cell in cells:
                surface.blit(tint, self._cell_rect(transform, cell))
        if view["phase"] == "steps" and self.my_turn(view) and not view["pending"]:
            for cell in self.end_squares(view):
                x, y = transform.to_screen(*self.centre(cell))
                pygame.draw.circle(surface, GOLD, (round(x), round(y)), max(3, size // 7))
        for cell, action in self._click_actions(view).items():
            rect = self._cell_rect(transform, cell).inflate(-2, -2)
            draw_highlight(surface, self.highlight_kind(action), rect_points(rect), 3,
                           badge_radius=max(7, size // 6))
        self._draw_racers(surface, transform, view, size)
        self._draw_effects(surface, transform, size)
        self._draw_info(surface, view)
        self._draw_dice(surface, view)

    def end_squares(self, view: dict[str, Any]) -> set[tuple[int, int]]:
        """Where the mover could end this move (dots on the board), following the steps,
        barriers, rocks, traps and holes as the rules do."""
        me = view["racers"][view["active"]]
        short_legs = CHARACTERS[me["character"]]["weakness"] == "short_legs"
        destroyed = {tuple(c) for c in view["destroyed"]}
        traps = {(c[0], c[1]) for c in view["traps"]}
        terrain = TRACK["terrain"]

        def blocked(cell):
            kind = terrain.get(cell)
            return kind == "rock" or (kind == "barrier" and cell not in destroyed)

        ends: set[tuple[int, int]] = set()
        seen: set[tuple[tuple[int, int], int, int]] = set()
        todo = [(tuple(me["pos"]), view["move"].get("left", 0), view["move"].get("taken", 0))]
        while todo:
            cell, left, taken = todo.pop()
            if (cell, left, taken) in seen:
                continue
            seen.add((cell, left, taken))
            if left == 0:
                ends.add(cell)
                continue
            if terrain.get(cell) == "shortcut" and taken > 0:
                ends.add(cell)
            moved = False
            for dx in (-1, 0, 1):
                nxt = ((cell[0] + dx) % W, (cell[1] + 1) % H)
                if blocked(nxt):
                    continue
                moved = True
                if nxt in traps:
                    ends.add(nxt)
                elif terrain.get(nxt) == "hole" and left > 1 and (taken + 1 < 3 or short_legs):
                    below = (nxt[0], (nxt[1] + 1) % H)
                    ends.add(nxt if blocked(below) else below)
                else:
                    todo.append((nxt, left - 1, min(taken + 1, 3)))
            if not moved:
                ends.add(cell)
        return ends

    def _draw_track(self, surface, transform, size) -> None:
        veil = pygame.Surface((size, size), pygame.SRCALPHA)
        veil.fill((40, 40, 40, 140))
        for cell in self.taken:
            rect = self._cell_rect(transform, cell)
            surface.blit(veil, rect)
            surface.blit(grey(TRACK["items"][cell], size), rect)
        for cell in self.destroyed:
            rect = self._cell_rect(transform, cell)
            pygame.draw.rect(surface, (82, 134, 62), rect)
            surface.blit(sprite("rubble", size), rect)
        for cell in self.traps:
            surface.blit(sprite("trap", size), self._cell_rect(transform, cell))

    def _draw_reach(self, surface, transform, view, size) -> None:
        aim = self._aimed(view) if view["phase"] == "objects" and self.my_turn(view) else None
        if not aim or aim not in view.get("reach", {}):
            return
        reach = view["reach"][aim]
        tint = pygame.Surface((size, size), pygame.SRCALPHA)
        tint.fill((255, 120, 60, 60) if OBJECTS[aim]["target"] in ("range", "area")
                  else (120, 170, 255, 70))
        for cell in reach["cells"]:
            surface.blit(tint, self._cell_rect(transform, cell))
        for cell in reach["blocked"]:
            rect = self._cell_rect(transform, cell).inflate(-size // 4, -size // 4)
            pygame.draw.line(surface, ALERT, rect.topleft, rect.bottomright, 4)
            pygame.draw.line(surface, ALERT, rect.topright, rect.bottomleft, 4)

    def _draw_racers(self, surface, transform, view, size) -> None:
        """Racers on the track.  Racers sharing a square shrink into a ring inside it and
        share one label under it, so their names never print over each other."""
        groups: dict[tuple[int, int], list[int]] = {}
        for r in view["racers"]:
            if r["seat"] not in self.tweens and r["character"]:
                groups.setdefault(tuple(self.where[r["seat"]]), []).append(r["seat"])
        label = max(12, int(size * 0.28))
        bottom = self.scene.board_rect().bottom
        active = view["active"]
        for r in view["racers"]:
            s = r["seat"]
            if not r["character"]:
                continue
            x, y = transform.to_screen(*self._point(s))
            group = groups.get(tuple(self.where[s]), [s]) if s not in self.tweens else [s]
            piece = max(8, int(size * 0.82))
            if len(group) > 1:
                piece = max(8, int(size * (0.56 if len(group) == 2 else 0.46)))
                angle = 2 * math.pi * group.index(s) / len(group) - math.pi * 0.75
                x += math.cos(angle) * size * 0.22
                y += math.sin(angle) * size * 0.22
            image = sprite(f"char_{r['character']}", piece, 110 if r["protected"] else 255)
            rect = image.get_rect(center=(round(x), round(y)))
            colour = SEAT_COLOURS[s % len(SEAT_COLOURS)]
            pygame.draw.circle(surface, colour, rect.center, piece // 2 + 2,
                               3 if s != active else 0)
            if s == active:
                pygame.draw.circle(surface, GOLD, rect.center, piece // 2 + 4, 2)
            surface.blit(image, rect)
            draw_seat_mark(surface, s, (rect.left + 2, rect.top + 2), max(11, piece // 3))
            if piece >= 24:
                icon = sprite(f"mood_{r['mood']}", max(12, piece // 3))
                surface.blit(icon, icon.get_rect(center=(rect.right - 2, rect.top + 4)))
            if len(group) == 1:
                # Under the piece, or above it on the last row (never cut by the area's edge).
                below = rect.bottom - 3 + label + 6 <= bottom
                draw_text(surface, fit(r["name"], int(size * 1.1) + 12, label, bold=True),
                          (rect.centerx, rect.bottom - 3 if below else rect.top + 3), label,
                          (255, 250, 235), bold=True, anchor="midtop" if below else "midbottom",
                          shadow=True)
        for cell, group in groups.items():
            if len(group) > 1:
                cx, cy = transform.to_screen(*self.centre(cell))
                names = [view["racers"][s]["name"] for s in group]
                small = max(12, label - 2)
                lines = group_label(names, int(size * 1.1) + 12, small)
                ty = cy + size * 0.5 - 1
                if ty + len(lines) * (small + 4) > bottom:
                    ty = cy - size * 0.5 - len(lines) * (small + 4)
                for line in lines:
                    ty = draw_text(surface, line, (cx, ty), small, (255, 250, 235), bold=True,
                                   anchor="midtop", shadow=True).bottom - 2

    def _draw_effects(self, surface, transform, size) -> None:
        for origin, hits, left, fire in self.shots:
            t = 1 - left / 0.5
            ox, oy = transform.to_screen(*origin)
            for hit in hits:
                hx, hy = transform.to_screen(*hit)
                px, py = ox + (hx - ox) * t, oy + (hy - oy) * t
                if fire:
                    pygame.draw.circle(surface, (255, 160, 40), (round(px), round(py)),
                                       max(4, size // 6))
                    pygame.draw.circle(surface, (255, 240, 120), (round(px), round(py)),
                                       max(2, size // 12))
                else:
                    pygame.draw.line(surface, (220, 220, 240), (ox, oy), (px, py), 3)
        area = self.scene.board_rect()
        for text, (mx, my), left, colour in self.floats:
            x, y = transform.to_screen(mx, my)
            big = max(14, size // 3)
            half_w, half_h = font(big, True).size(text)[0] // 2 + 2, big // 2 + 4
            # Kept inside the board area, so a label over the top row is never cut off.
            x = min(max(x, area.left + half_w), area.right - half_w)
            y = min(max(y - (1.4 - left) * 30, area.top + half_h), area.bottom - half_h)
            draw_text(surface, text, (x, y), big, colour, bold=True, anchor="center",
                      shadow=True)

    #: The slim race table's least and greatest width and the dice box's, at 100%.
    SLIM_LEAST, SLIM_WIDTH, DICE_WIDTH = 84, 100, 124

    def side_room(self) -> int:
        """At a larger interface, room left of the track for the slim race table and right
        of it for the dice box (as wide as their text needs): the board gives way to them
        rather than have them cover squares.
        At 100% the board keeps the whole area (as before: a narrow window's table covers
        the track's edge)."""
        return px(self.SLIM_LEAST) + px(8) + 4 if scale() > 1.0 else 0

    def _draw_info(self, surface, view) -> None:
        """Top left of the board area: turn counter, respawn turns and the race table, at
        the interface's size (window pixels, not the board's).

        Each row remembers where it is drawn, so hovering a racer's row explains its
        character and hovering its chest icon explains the bonus or malus."""
        with interface_size():
            self._draw_info_table(surface, view)

    def _draw_info_table(self, surface, view) -> None:
        area = self.scene.board_rect()
        x, y = area.x + 8, area.y + 8
        fitted = self.scene.board_fit()
        room = (area.width - int(fitted.scale * self.board.pixel_size[0])) // 2
        rows = [r for r in view["racers"] if r["character"]]
        self.info_rects = []
        # The full table needs 140 px at 100% (160 at a larger interface, whose respawn
        # line is shortened below that).
        least = px(140) if scale() <= 1.0 else px(160)
        if room - 12 < least or getattr(self.scene, "zoom", 1.0) > 1.0:
            # A narrow window, or a zoomed board that fills the whole area: a slim column
            # that hides as little of the track as it can.
            slim = max(px(self.SLIM_LEAST), min(px(self.SLIM_WIDTH), room - 12))
            self._draw_info_compact(surface, view, rows, x, y, slim)
            return
        width = min(px(236), room - 12)
        p = px
        height = p(76) + p(60) * len(rows)
        box = pygame.Surface((width, height), pygame.SRCALPHA)
        box.fill(panel_fill((20, 18, 26, 215)))
        surface.blit(box, (x, y))
        self.status_boxes = [pygame.Rect(x, y, width, height)]
        turn = view["turn"]
        title = f"Turn {turn} / {view['turns']}" if turn else "Picking"
        draw_text(surface, fit(title, width - p(12), 18, bold=True), (x + p(8), y + p(4)), 18,
                  GOLD, bold=True)
        respawns = view["respawns"]
        nxt = next((t for t in respawns if t > turn), None)
        draw_text(surface, "Objects come back:", (x + p(8), y + p(28)), 13, TEXT)
        text = "turns " + (", ".join(str(t) for t in respawns) or "never")
        if nxt:
            text += f" (next {nxt})"
        draw_text(surface, fit(text, width - p(14), 13), (x + p(8), y + p(46)), 13, MUTED)
        y += p(72)
        order = view["order"]
        for r in sorted(rows, key=lambda r: order.index(r["seat"]) if r["seat"] in order
                        else r["seat"]):
            s = r["seat"]
            colour = SEAT_COLOURS[s % len(SEAT_COLOURS)]
            row = pygame.Rect(x + 2, y - 2, width - 4, p(58))
            if s == view["active"]:
                pygame.draw.rect(surface, (70, 60, 40), row, border_radius=5)
            surface.blit(sprite(f"char_{r['character']}", p(28), 110 if r["protected"] else 255),
                         (x + p(5), y + 1))
            draw_seat_mark(surface, s, (x + p(19), y + p(40)), p(13), on_piece=False)
            mood = pygame.Rect(x + width - p(30), y, p(24), p(24))
            surface.blit(sprite(f"mood_{r['mood']}", p(24)), mood)
            draw_name(surface, r["name"], self.seat_level(s), (x + p(37), y),
                      mood.left - x - p(29), 15, readable_on(colour, (20, 18, 26)))
            draw_text(surface, fit(f"{r['points']} points, lap {r['laps']}", width - p(40), 13),
                      (x + p(37), y + p(20)), 13, GOLD)
            ix = x + p(37)
            held = ["clover"] * min(r["clover"], 3) + ["shield"] * min(r["shield"], 3) + \
                [f"obj_{k}" for k in r["objects"]]
            for name in held:
                if ix + p(17) > x + width - 4:
                    draw_text(surface, "+", (ix, y + p(37)), 13, TEXT)
                    break
                surface.blit(sprite(name, p(17)), (ix, y + p(38)))
                ix += p(18)
            self.info_rects.append((mood, ("mood", s)))
            self.info_rects.append((row, ("racer", s)))
            y += p(60)

    def _draw_info_compact(self, surface, view, rows, x, y, width) -> None:
        """The same as a slim column (racers in playing order), for small windows and a
        zoomed board."""
        p = px
        box = pygame.Surface((width, p(62) + p(30) * len(rows)), pygame.SRCALPHA)
        box.fill(panel_fill((20, 18, 26, 215)))
        surface.blit(box, (x, y))
        self.status_boxes = [box.get_rect(topleft=(x, y))]
        title = f"Turn {view['turn']}/{view['turns']}" if view["turn"] else "Picking"
        draw_text(surface, title, (x + p(5), y + p(3)), 15, GOLD, bold=True)
        draw_text(surface, "Objects back:", (x + p(5), y + p(23)), 12, MUTED)
        draw_text(surface, fit(", ".join(str(t) for t in view["respawns"]) or "never",
                               width - p(8), 12), (x + p(5), y + p(38)), 12, TEXT)
        y += p(62)
        order = view["order"]
        for r in sorted(rows, key=lambda r: order.index(r["seat"]) if r["seat"] in order
                        else r["seat"]):
            s = r["seat"]
            row = pygame.Rect(x + 2, y - 2, width - 4, p(28))
            if s == view["active"]:
                pygame.draw.rect(surface, (70, 60, 40), row, border_radius=4)
            surface.blit(sprite(f"char_{r['character']}", p(22), 110 if r["protected"] else 255),
                         (x + p(4), y))
            draw_seat_mark(surface, s, (x + p(6), y + p(21)), p(10), on_piece=False)
            draw_text(surface, str(r["points"]), (x + p(30), y + p(2)), 14,
                      readable_on(SEAT_COLOURS[s % len(SEAT_COLOURS)], (20, 18, 26)), bold=True)
            mood = pygame.Rect(x + width - p(24), y + 1, p(20), p(20))
            surface.blit(sprite(f"mood_{r['mood']}", p(20)), mood)
            self.info_rects.append((mood, ("mood", s)))
            self.info_rects.append((row, ("racer", s)))
            y += p(30)

    def _draw_dice(self, surface, view) -> None:
        if not self.dice:
            return
        with interface_size():  # window pixels: it grows with the interface
            self._draw_dice_box(surface, view)

    def _draw_dice_box(self, surface, view) -> None:
        p = px
        area = self.scene.board_rect()
        d = self.dice
        # As wide as the room right of the track allows (never over its squares at zoom 1).
        fitted = self.scene.board_fit()
        room = (area.width - int(fitted.scale * self.board.pixel_size[0])) // 2
        width = max(p(self.SLIM_LEAST), min(p(self.DICE_WIDTH), room - p(8) - 4))
        box = pygame.Rect(area.right - width - p(8), area.y + p(8), width, p(112))
        panel = pygame.Surface(box.size, pygame.SRCALPHA)
        panel.fill(panel_fill((20, 18, 26, 215)))
        surface.blit(panel, box)
        self.status_boxes.append(box)
        draw_text(surface, d["die"], (box.centerx, box.y + p(4)), 14, MUTED, bold=True,
                  anchor="midtop")
        face = pygame.Rect(0, 0, p(58), p(58))
        face.center = (box.centerx, box.y + p(56))
        spinning = d.get("spin", 0) > 0
        value = d["value"]
        if spinning:
            numbers = d["faces"] if d["faces"] and not isinstance(d["faces"][0], str) else None
            tick = int(d["spin"] * 20)
            value = numbers[tick % len(numbers)] if numbers else (tick * 37) % 100 + 1
        pygame.draw.rect(surface, (250, 244, 226), face, border_radius=10)
        pygame.draw.rect(surface, (90, 72, 52), face, 3, border_radius=10)
        angle = (d.get("spin", 0) * 900) % 360 if spinning else 0
        glyph = pygame.transform.rotate(render_text(str(value), 28, (40, 28, 20), True), angle)
        surface.blit(glyph, glyph.get_rect(center=face.center))
        if not spinning and d.get("face"):
            words = FACE_WORDS.get(d["face"]) or OBJECTS.get(d["face"], {}).get("name", d["face"])
            draw_text(surface, words, (box.centerx, box.bottom - p(20)), 13, GOLD, bold=True,
                      anchor="midtop")
        elif not spinning and d.get("seat") is not None:
            name = view["racers"][d["seat"]]["name"]
            draw_text(surface, name, (box.centerx, box.bottom - p(20)), 13, TEXT,
                      anchor="midtop")

    # results --------------------------------------------------------------------------
    def results_table(self, result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
        names = [s["name"] for s in self.table.seats]
        rows = []
        for s in result["ranking"]:
            t = result["tally"][s]
            rows.append([names[s] + ("  (winner)" if s in result["winners"] else ""),
                         CHARACTERS[result["characters"][s]]["name"], str(result["scores"][s]),
                         str(result["laps"][s]), str(t["fights"]), str(t["coins"] + t["purses"]),
                         str(t.get("special", 0)), str(t["holes"] + t["shields"])])
        header = ["Racer", "Character", "Points", "Laps", "Fight pts", "Gold pts",
                  "Special pts", "Hole+shield pts"]
        return header, rows

    def results_summary(self, result: dict[str, Any]) -> list[str]:
        names = [s["name"] for s in self.table.seats]
        winners = " and ".join(names[s] for s in result["winners"])
        best = result["scores"][result["winners"][0]]
        lines = [f"{winners} win{'s' if len(result['winners']) == 1 else ''} the race with "
                 f"{best} points after {result['turns']} turns."]
        if result["tie_break"] == "progress":
            lines.append("Equal points: the racer farthest along the track takes it.")
        elif result["tie_break"] == "shared":
            lines.append("Equal points and equally far along: the victory is shared.")
        return lines
