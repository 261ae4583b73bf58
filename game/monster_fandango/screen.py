"""Monster Fandango on screen: counters on the hex map, dice, quests and the action panel.

Screen code only: it reads views, events and the legal actions of the seat
at the screen, and hands actions to the play scene.  A board click does the
obvious thing: select your unit, move to a highlighted hex, attack or shoot
the enemy there, or place a starting hex or a flag.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import pygame

from game.ui import paths
from game.ui.gamescreen import GameScreen, Tween, art
from game.ui.look import interface_size, px, scale
from game.ui.marks import draw_highlight, draw_kind_badge, draw_seat_mark, ink_on
from game.ui.widgets import (ALERT, GOLD, MUTED, SEAT_COLOURS, TEXT, draw_text, font, panel_fill,
                             wrap_text)

from game.board.hexgrid import Hex

from .data import ITEMS, MAP, MONSTERS, RALLY, lookup
from .kernel import distance, step, within, zone
from .rules import a as with_article, rng_text

ART = paths.ASSETS / "monster_fandango"
WILD = (150, 150, 150)
MOVE_FILL = (110, 240, 110, 105)
#: Direction names on the pointy-topped map (axial direction order).
FACINGS = ("east", "north-east", "north-west", "west", "south-west", "south-east")
ROLL_EVENTS = {"attack", "defend", "search", "open", "table", "rally"}
#: The letters on a counter: each kind is readable without hovering at 1280x720.
LETTERS = {"villager": "V", "lizardman": "Lz", "horror": "Ho", "elf": "E", "orc": "O",
           "dwarf": "Dw", "ratman": "R", "war_dog": "WD", "horse": "Hs", "black_death": "BD",
           "wolf": "W", "troll": "T", "death_beast": "DB"}
#: At most this many buttons show at once; more actions go on further pages.
PAGE_SIZE = 14
#: What a success on each kind of roll is called, and its failure.
OUTCOMES = {"attack": ("a hit", "a miss"), "defense": ("survives", "fails"),
            "search": ("finds something", "finds nothing"), "opening": ("opens", "springs the trap"),
            "Rally Cry": ("a monster answers", "nobody comes")}


def colour(owner: int | None) -> tuple[int, int, int]:
    return WILD if owner is None else SEAT_COLOURS[owner % len(SEAT_COLOURS)]


@lru_cache(maxsize=256)
def icon(name: str, size: int) -> pygame.Surface:
    """A counter icon scaled to ``size`` pixels (cached)."""
    return art(ART / f"{name}.png", size)


def cell_of(value: list[int]) -> tuple[int, int]:
    return (value[0], value[1])


def unit_words(unit: dict[str, Any], ability: bool = True) -> str:
    """A unit's statistics in plain words (and its ability, unless ``ability`` is False)."""
    m = MONSTERS[unit["kind"]]
    search = "cannot search" if m["search"] == 0 else f"search {rng_text(m['search'])}"
    state = []
    if unit.get("starting"):
        state.append("Starting Villager")
    if unit.get("down"):
        state.append("knocked down")
    if unit.get("burrowed"):
        state.append("burrowed")
    if unit.get("acted"):
        state.append("has acted")
    extra = f" [{', '.join(state)}]" if state else ""
    text = (f"{m['name']}{extra}: attack {rng_text(unit['attack'])}, defense "
            f"{rng_text(unit['defense'])}, move {m['move']}, stack {m['stack']}, {search}.")
    return f"{text} {m['ability']}: {m['text']}" if ability else text


class FandangoScreen(GameScreen):
    """Draws and drives one Monster Fandango match."""

    STEP_EVENTS = frozenset({"move", "attack", "defend", "search", "open", "table", "wander",
                             "slain", "appear", "escape"})
    RULES_SECTIONS = {"starts": "Setting up", "flags": "Options", "play": "A round",
                      "over": "How the game ends"}
    QUIET_EVENTS = frozenset({"give", "select", "pass", "face", "decline", "lucky", "quest",
                              "round", "flag", "start", "buy", "pickup", "burrow", "heal", "declare",
                              "potion", "down", "found", "deliver", "lair", "phase", "nothing",
                              "sacrifice", "finale", "quests", "tie", "order"})

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.where: dict[int, tuple[int, int]] = {}
        self.dice: dict[str, Any] | None = None
        self.mode: str | None = None
        self.pick_index = 0
        self.page = 0
        self.layout = self.board.hex
        self.hexes = {(c.q, c.r): c for c in self.board.cells()}
        self._legal_key: tuple[Any, ...] | None = None
        self._legal: list[dict[str, Any]] = []

    # display state -------------------------------------------------------------------
    def reset(self, view: dict[str, Any]) -> None:
        self.tweens.clear()
        self.where = {u["id"]: cell_of(u["hex"]) for u in view["units"]}
        self.dice = None
        self.mode = None

    def animate(self, event: dict[str, Any], view: dict[str, Any]) -> float:
        kind = event["type"]
        if kind in ("move", "wander", "escape"):
            uid = event["unit"]
            path = [cell_of(c) for c in event["path"]]
            start = self.where.get(uid, cell_of(event["frm"]))
            seconds = 0.25 * len(path)
            self._tween_path(uid, start, path, seconds)
            if event.get("horse") is not None:
                self._tween_path(event["horse"], start, path, seconds)
            return seconds + 0.05
        if kind == "appear":
            self.where[event["unit"]] = cell_of(event["hex"])
            self.flash[cell_of(event["hex"])] = 1.0
            return 0.6
        if kind == "slain":
            self.flash[cell_of(event["hex"])] = 1.0
            self.where.pop(event["unit"], None)
            return 0.7
        if kind in ROLL_EVENTS:
            self.dice = {"text": event["text"], "roll": event.get("roll"),
                         "need": event.get("need"), "time": 1.0,
                         "good": event.get("hit", event.get("safe", event.get("ok")))}
            return 1.0
        if kind == "declare":
            return 0.3
        return 0.0

    def _tween_path(self, uid: int, start: tuple[int, int], path: list[tuple[int, int]],
                    seconds: float) -> None:
        a = self.cell_center(self._hex(start))
        b = self.cell_center(self._hex(path[-1]))
        self.tweens[uid] = Tween(a, b, seconds, hop=10)
        self.where[uid] = path[-1]

    def update(self, dt: float) -> bool:
        moving = super().update(dt)
        if self.dice is not None:
            self.dice["time"] -= dt
            moving = moving or self.dice["time"] > 0
        return moving

    def finish(self) -> None:
        super().finish()
        self.dice = None

    # helpers --------------------------------------------------------------------------
    def legal(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        viewer = view["viewer"]
        if viewer is None or viewer not in view["to_act"]:
            return []
        key = (viewer, self.table.step, self.table.is_over())
        if key != self._legal_key:
            self._legal = self.table.legal_actions(viewer)
            self._legal_key = key
        return self._legal

    def units_by_hex(self, view: dict[str, Any]) -> dict[tuple[int, int], list[dict[str, Any]]]:
        out: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for u in view["units"]:
            out.setdefault(cell_of(u["hex"]), []).append(u)
        return out

    def hex_polygon(self, cell: Any, transform: Any) -> list[tuple[float, float]]:
        col, row = self.board.tile_xy(cell)
        return [transform.to_screen(x, y) for x, y in self.layout.polygon(col, row)]

    def outline(self, surface: pygame.Surface, transform: Any, cell: Any,
                colour_: tuple[int, int, int], width: int) -> pygame.Rect | None:
        return pygame.draw.polygon(surface, colour_, self.hex_polygon(cell, transform), width)

    # panel ----------------------------------------------------------------------------
    def panel_text(self, view: dict[str, Any]) -> list[str]:
        viewer, phase = view["viewer"], view["phase"]
        names = [s["name"] for s in view["seats"]]
        if phase == "over":
            return ["The game is over."]
        lines = []
        prompt = view["prompt"]
        if viewer is None or viewer not in view["to_act"]:
            waiting = ", ".join(names[s] for s in view["to_act"])
            return [f"Waiting for {waiting}."]
        if prompt is not None:
            return self._prompt_lines(view, prompt)
        if phase == "starts":
            return ["Click a highlighted hex to choose your starting hex (at least 4 hexes "
                    "from the others)."]
        if phase == "flags":
            holder = names[view["flag_holder"]]
            return [f"Mark a flag hex for {holder}'s Capture the Flag: click a highlighted "
                    f"hex (far from them is harder for them)."]
        active = view["active"]
        if active is None:
            lines.append("Your turn: click one of your highlighted units (or a button) to "
                         "activate it.")
        else:
            unit = self._unit(view, active["unit"])
            ride = " riding a Horse" if active["horse"] else ""
            lines.append(f"{unit['name']}{ride}: {active['moves']} move left. Click a green hex "
                         f"(dashed, an arrow) to move, a red enemy (double ring, crossed swords) "
                         f"to attack, an orange one (dotted, a bull's-eye) to shoot, or use a "
                         f"button.")
        return lines

    def _unit(self, view: dict[str, Any], uid: int) -> dict[str, Any]:
        return next(u for u in view["units"] if u["id"] == uid)

    def _who(self, view: dict[str, Any], uid: int | None) -> str:
        """"Bo's Troll at E5" (or "the wild Troll at E5")."""
        unit = next((u for u in view["units"] if u["id"] == uid), None)
        if unit is None:
            return "a unit"
        owner = ("the wild" if unit["owner"] is None
                 else f"{view['seats'][unit['owner']]['name']}'s")
        return f"{owner} {unit['name']} at {self._where(unit)}"

    def _roll_result(self, prompt: dict[str, Any], value: int) -> str:
        """What a Lucky roll would give if it were ``value``."""
        table = prompt.get("table")
        if prompt.get("need") is not None:
            good, bad = OUTCOMES.get(prompt["what"], ("succeeds", "fails"))
            return good if value <= prompt["need"] else bad
        if table == "rally":
            return MONSTERS[RALLY[value - 1]]["name"]
        if table is not None:
            result = lookup(table, value)
            names = {"chest": "a chest", "monster": "a random monster", "lair": "a lair",
                     "missile": "a missile weapon", "weapon": "a weapon", "melee": "a Sword"}
            if result in names:
                return names[result]
            return with_article((MONSTERS.get(result) or ITEMS[result])["name"])
        return str(value)

    def _prompt_lines(self, view: dict[str, Any], prompt: dict[str, Any]) -> list[str]:
        """The question asked mid-turn, naming who acts against whom and what helps whom."""
        names = [s["name"] for s in view["seats"]]
        me = view["viewer"]
        if prompt["type"] == "lucky":
            what = prompt["what"]
            roller = prompt.get("roller")
            whose = "your" if roller == me else (f"{names[roller]}'s" if roller is not None
                                                 else "the wild monster's")
            unit = self._who(view, prompt.get("unit"))
            against = (f" against {self._who(view, prompt['other'])}"
                       if prompt.get("other") is not None else "")
            article = "an" if what[:1].lower() in "aeiou" else "a"
            head = (f"Lucky: {unit} makes {article} {what} roll{against}. "
                    f"It is {whose} roll: {prompt['value']}, "
                    f"{self._roll_result(prompt, prompt['value'])}")
            if prompt.get("need") is not None:
                head += f" (it needs {rng_text(prompt['need'])})."
                helps = "-1 helps you" if roller == me else "+1 helps you"
                why = ("lower rolls succeed" if roller == me
                       else f"it works against {whose} roll")
                return [head, f"Your Ratman may change it by one: {helps} ({why})."]
            return [head + ".", "Your Ratman may change it by one: see what each choice gives."]
        if prompt["type"] == "kitten":
            unit = self._unit(view, prompt["unit"])
            return [f"Kitten: {self._who(view, prompt['attacker'])} hits your {unit['name']} at "
                    f"{self._where(unit)}.",
                    f"Spend the kitten to escape: click a green hex (dashed, an arrow) up to 3 away (no defence "
                    f"roll). Or keep it and roll defence (it needs {rng_text(unit['defense'])})."]
        return [f"Dark Sacrifice: {self._who(view, prompt['attacker'])} attacks your "
                f"{self._unit(view, prompt['target'])['name']} at "
                f"{self._where(self._unit(view, prompt['target']))}.",
                "One of your Orcs within one hex may take the attack instead (it defends on "
                "its own roll), or decline."]

    def build_panel(self, rect: pygame.Rect, view: dict[str, Any]) -> int:
        controls = self.scene.controls
        legal = self.legal(view)
        if not legal:
            return 0
        y = rect.y
        if view["prompt"] is not None:
            return self._prompt_panel(rect, view, legal)
        if view["phase"] in ("starts", "flags"):
            return 0
        buttons: list[tuple[str, dict[str, Any] | None, str | None]] = []
        active = view["active"]
        if active is None:
            for a in legal:
                if a["type"] == "select":
                    u = self._unit(view, a["unit"])
                    name = "Starting Villager" if u.get("starting") else u["name"]
                    text = f"{name} {self._where(u)}"
                    if "ride" in a:
                        text = f"{name} rides {self._where(u)}"
                    buttons.append((text, a, unit_words(u)))
            buttons.append(("Pass with all", {"type": "pass_all"},
                            "Every unit you have not used this round passes"))
        else:
            names = {"search": "Search", "pickup": "Pick up items", "rally": "Rally Cry",
                     "burrow": "Burrow", "heal": "Heal", "pass": "End turn (pass)"}
            for a in legal:
                t = a["type"]
                if t in names:
                    buttons.append((names[t], a, None))
                elif t == "open":
                    buttons.append(("Open chest with key" if a.get("key") else "Open chest", a,
                                    "A failed opening roll springs the trap"))
                elif t in ("attack", "shoot"):
                    u = self._unit(view, a["target"])
                    verb = "Attack" if t == "attack" else "Shoot"
                    buttons.append((f"{verb} {u['name']} {self._where(u)}", a, unit_words(u)))
                elif t == "rampage":
                    buttons.append((f"Rampage {self._cell_name(a['hex'])}", a, None))
                elif t == "fury":
                    who = ", ".join(self._unit(view, x)["name"] for x in a["targets"])
                    buttons.append((f"Fury: {who}", a, None))
            items = {i["id"]: i for i in view["items"]}
            for a in legal:
                if a["type"] == "give":
                    mate = self._unit(view, a["to"])
                    buttons.append((f"Give {items[a['item']]['name']} to {mate['name']}", a,
                                    "Free: hand an item to a unit in the same hex"))
                if a["type"] == "face":
                    buttons.append((f"Turn {FACINGS[a['dir']]}", a,
                                    "Facing rule: turning costs 1 movement"))
        # Passing must always be reachable, however many targets are listed.
        buttons.sort(key=lambda b: b[1] is None or b[1]["type"] not in ("pass", "pass_all"))
        y = self._paged_buttons(rect, y, buttons)
        return y - rect.y + self._buy_buttons(rect, y, legal)

    def pages(self, buttons: list[Any]) -> list[list[Any]]:
        """Buttons split into pages of at most PAGE_SIZE: the first (pass) on every page and a
        "More" button when there are several, so no action is ever hidden."""
        if len(buttons) <= PAGE_SIZE:
            return [buttons]
        head, rest = buttons[:1], buttons[1:]
        per = PAGE_SIZE - 2  # the pass button and the "More" button
        return [head + rest[k:k + per] for k in range(0, len(rest), per)]

    def _paged_buttons(self, rect: pygame.Rect, y: int, buttons: list[Any]) -> int:
        controls = self.scene.controls
        pages = self.pages(buttons)
        page = self.page % len(pages)
        shown = list(pages[page])
        if len(pages) > 1:
            shown.append((f"More actions ({page + 1}/{len(pages)})", "more",
                          "Show the next page of actions"))
        cols = 2
        width = (rect.width - 8) // cols
        for n, (text, action, tip) in enumerate(shown):
            x = rect.x + (n % cols) * (width + 8)
            yy = y + (n // cols) * px(36)
            if action == "more":
                callback = self._next_page
            else:
                callback = (lambda a=action: self._do(a))
            controls.button((x, yy, width, px(32)), text[:30], callback, tooltip=tip)
        return y + px(36) * ((len(shown) + cols - 1) // cols)

    def _next_page(self) -> None:
        self.page += 1
        self.scene.rebuild()

    def _buy_buttons(self, rect: pygame.Rect, y: int, legal: list[dict[str, Any]]) -> int:
        """A row of Money Bag purchases (one's own turn, or while asked a question)."""
        controls = self.scene.controls
        buys = [a for a in legal if a["type"] == "buy"]
        top = y
        if buys:
            bag = buys[0]["bag"]
            controls.label((rect.x, y, rect.width, px(22)), "Spend a Money Bag on:")
            y += px(24)
            kinds = [a["item"] for a in buys if a["bag"] == bag]
            w4 = (rect.width - 18) // 4
            for n, kind in enumerate(kinds):
                x = rect.x + (n % 4) * (w4 + 6)
                controls.button((x, y + (n // 4) * px(32), w4, px(28)), ITEMS[kind]["name"][:9],
                                lambda k=kind, b=bag: self._do({"type": "buy", "bag": b,
                                                                "item": k}),
                                tooltip=ITEMS[kind]["text"])
            y += px(32) * ((len(kinds) + 3) // 4)
        return y - top

    def _prompt_panel(self, rect: pygame.Rect, view: dict[str, Any],
                      legal: list[dict[str, Any]]) -> int:
        controls = self.scene.controls
        prompt = view["prompt"]
        y = rect.y
        if prompt["type"] == "lucky":
            value = prompt["value"]
            labels = {c: (f"Keep {value}" if c == 0 else f"{c:+d}: {value + c}") +
                      f" ({self._roll_result(prompt, value + c)})" for c in (-1, 0, 1)}
            changes = sorted(a["change"] for a in legal if a["type"] == "lucky")
            for change in changes:
                controls.button((rect.x, y, rect.width, px(34)), labels[change][:44],
                                lambda c=change: self._do({"type": "lucky", "change": c}),
                                object_id="#primary" if change == 0 else None)
                y += px(38)
        elif prompt["type"] == "kitten":
            controls.button((rect.x, y, rect.width, px(34)), "Keep the kitten (roll defence)",
                            lambda: self._do({"type": "decline"}),
                            tooltip="Or click a green hex (dashed, an arrow): the unit escapes there "
                                    "instead")
            y += px(38)
        else:
            for a in legal:
                if a["type"] == "sacrifice":
                    orc = self._unit(view, a["orc"])
                    controls.button((rect.x, y, rect.width, px(34)),
                                    f"Orc at {self._where(orc)} takes the attack",
                                    lambda a=a: self._do(a), tooltip=unit_words(orc))
                elif a["type"] == "decline":
                    controls.button((rect.x, y, rect.width, px(34)), "Decline (the attack stands)",
                                    lambda a=a: self._do(a))
                else:
                    continue
                y += px(38)
        return y - rect.y + self._buy_buttons(rect, y, legal)

    def _where(self, unit: dict[str, Any]) -> str:
        return self._cell_name(unit["hex"])

    def _cell_name(self, cell: list[int]) -> str:
        col, row = self.board.tile_xy(self._hex(cell))
        return f"{chr(65 + row)}{col + 1}"

    def _hex(self, cell: list[int]) -> Any:
        return self.hexes[(cell[0], cell[1])]

    def _do(self, action: dict[str, Any]) -> None:
        self.mode = None
        self.page = 0
        self.act(action)

    # board clicks ---------------------------------------------------------------------
    def click_cell(self, cell: Any, view: dict[str, Any]) -> None:
        legal = self.legal(view)
        here = [cell.q, cell.r]
        if legal and view["prompt"] is not None:
            if {"type": "escape", "to": here} in legal:  # a kitten's escape
                self._do({"type": "escape", "to": here})
            return
        if not legal:
            return
        if view["phase"] in ("starts", "flags"):
            kind = "start" if view["phase"] == "starts" else "flag"
            if {"type": kind, "hex": here} in legal:
                self._do({"type": kind, "hex": here})
            return
        if {"type": "move", "to": here} in legal:
            self._do({"type": "move", "to": here})
            return
        on_hex = [u for u in view["units"] if u["hex"] == here]
        for kind in ("attack", "shoot"):
            for u in on_hex:
                if {"type": kind, "target": u["id"]} in legal:
                    self._do({"type": kind, "target": u["id"]})
                    return
        selects = [a for a in legal if a["type"] == "select" and "ride" not in a
                   and self._unit(view, a["unit"])["hex"] == here]
        if selects:
            self.pick_index = (self.pick_index + 1) % len(selects)
            self._do(selects[self.pick_index % len(selects)])

    def cell_action(self, cell: Any, view: dict[str, Any]) -> dict[str, Any] | None:
        """What a click on ``cell`` would ask for, legal or not ("why not?", hints)."""
        if not hasattr(cell, "q") or view["viewer"] is None:
            return None
        legal, here = self.legal(view), [cell.q, cell.r]
        if view["prompt"] is not None:
            return {"type": "escape", "to": here} if {"type": "escape", "to": here} in legal \
                else None
        if view["phase"] in ("starts", "flags"):
            return {"type": "start" if view["phase"] == "starts" else "flag", "hex": here}
        on_hex = [u for u in view["units"] if u["hex"] == here]
        for kind in ("attack", "shoot"):
            for u in on_hex:
                if {"type": kind, "target": u["id"]} in legal:
                    return {"type": kind, "target": u["id"]}
        if view.get("active") is None:
            selects = [a for a in legal if a["type"] == "select" and "ride" not in a
                       and self._unit(view, a["unit"])["hex"] == here]
            return selects[0] if selects else None
        foes = [u for u in on_hex if u.get("owner") != view["viewer"]]
        if foes:
            return {"type": "attack", "target": foes[0]["id"]}
        active = view["active"]["unit"]
        if any(u["id"] == active for u in on_hex):
            return None
        return {"type": "move", "to": here}

    def what_now(self, view: dict[str, Any]) -> str:
        if view["prompt"] is not None:
            return "answer the question on the right first" + (
                " (or click a green hex to escape)." if any(
                    a["type"] == "escape" for a in self.legal(view)) else ".")
        if view["phase"] in ("starts", "flags"):
            return "click one of the highlighted hexes."
        if view.get("active") is not None:
            return ("this is where the unit stands: click a green hex to move, an enemy to "
                    "attack, or use a button on the right.")
        return "click one of your highlighted units to activate it, or use a button."

    def cell_from(self, value: Any, cells: Any = None) -> Any:
        if isinstance(value, (list, tuple)) and len(value) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            return self.hexes.get((value[0], value[1]))
        return None

    def action_cells(self, action: dict[str, Any], view: dict[str, Any]) -> set[Any]:
        """Also the hex of the unit an action names (choosing one to ride, say), so the
        place a hint names is outlined and labelled."""
        out = super().action_cells(action, view)
        units = {u["id"]: u for u in view["units"]}
        for key in ("unit", "target"):
            if action.get(key) in units:
                out.add(self.cell_from(units[action[key]]["hex"]))
        out.discard(None)
        return out

    def hint_label(self, cell: Any) -> str | None:
        """Hints name hexes "E14", which the board does not show: the hinted hex says it."""
        return self._cell_name([cell.q, cell.r]) if hasattr(cell, "q") else None

    def place_name(self, value: Any) -> str:
        return self._cell_name(value) if self.cell_from(value) is not None \
            else super().place_name(value)

    def event_cells(self, event: dict[str, Any], view: dict[str, Any]) -> set[Any]:
        out = super().event_cells(event, view)
        units = {u["id"]: u for u in view["units"]}
        for uid in [event.get("unit"), *event.get("targets", [])]:
            if uid in units:
                out.add(self.cell_from(units[uid]["hex"]))
        out.discard(None)
        return out

    def highlighted(self, view: dict[str, Any]) -> set[Any]:
        return set(self._marks(view))

    def _marks(self, view: dict[str, Any]) -> dict[Any, str]:
        """Hex -> the kind of highlight it gets (``game.ui.marks.HIGHLIGHTS``)."""
        legal = self.legal(view)
        marks: dict[Any, str] = {}
        units = {u["id"]: u for u in view["units"]}
        prompt = view["prompt"]
        if prompt is not None:
            # Whoever is looking sees who acts on whom: the attacker (or roller) marked "!",
            # its target crossed swords, the Orcs that may step in a pointer, escape hexes
            # an arrow (each in its own colour and line pattern too).
            pairs = {"lucky": ("unit", "other"), "sacrifice": ("attacker", "target"),
                     "kitten": ("attacker", "unit")}[prompt["type"]]
            for key, col in zip(pairs, ("actor", "attack")):
                uid = prompt.get(key)
                if uid in units:
                    marks[self._hex(units[uid]["hex"])] = col
            for orc in prompt.get("orcs", []):
                if orc in units:
                    marks.setdefault(self._hex(units[orc]["hex"]), "select")
            for a in legal:
                if a["type"] == "escape":
                    marks[self._hex(a["to"])] = "move"
            return marks
        if not legal:
            return marks
        for a in legal:
            t = a["type"]
            if t in ("start", "flag", "move"):
                marks[self._hex(a.get("hex") or a.get("to"))] = "move"
            elif t == "attack":
                marks[self._hex(units[a["target"]]["hex"])] = "attack"
            elif t == "shoot":
                marks.setdefault(self._hex(units[a["target"]]["hex"]), "shoot")
            elif t == "select":
                marks[self._hex(units[a["unit"]]["hex"])] = "select"
        return marks

    def hover_text(self, cell: Any, view: dict[str, Any]) -> str | None:
        here = [cell.q, cell.r]
        # The map's shades of ground are scenery: no rule reads them, so none is named.
        lines = [f"Hex {self._cell_name(here)}: open ground (no effect on play)"]
        names = [s["name"] for s in view["seats"]]
        if (cell.q, cell.r) in MAP["wild"]:
            lines.append("A roaming place: a wild monster started here (no starting hex may "
                         "lie within two hexes)")
        for s in view["seats"]:
            if s["start"] == here:
                lines.append(f"{s['name']}'s starting hex")
            if here in s["flags"]:
                lines.append(f"Flag hex of {s['name']}'s Capture the Flag")
        if (cell.q, cell.r) in MAP["corners"]:
            lines.append("A corner of the map")
        for lair in view["lairs"]:
            if lair["hex"] == here:
                lines.append("Monster lair (search again and again)" +
                             (": its monster guards it" if lair["guard"] else ""))
        searched = False
        for s in view["searched"]:
            if s[:2] == here:
                searched = True
                lines.append(f"Searched by {names[s[2]] if s[2] is not None else 'someone'}: "
                             f"no more searching here")
        if not searched and not any(lair["hex"] == here for lair in view["lairs"]):
            barred = [s["name"] for s in view["seats"]
                      if s["start"] and (cell.q, cell.r) in zone(cell_of(s["start"]))]
            if barred:
                lines.append(f"{' and '.join(barred)} may not search here (at or next to "
                             f"{'their' if len(barred) > 1 else 'the'} starting hex)")
        items = {i["id"]: i for i in view["items"]}
        explained: set[str] = set()  # an ability is spelled out once per hex
        for u in view["units"]:
            if u["hex"] == here:
                owner = "Wild" if u["owner"] is None else names[u["owner"]]
                carried = ", ".join(items[i]["name"] for i in u["items"])
                words = unit_words(u, ability=u["kind"] not in explained)
                explained.add(u["kind"])
                lines.append(f"{owner}: {words}" + (f" Carries {carried}." if carried else ""))
        lying = [i["name"] + (" (trap sprung)" if i["sprung"] else "")
                 for i in view["items"] if i["lying"] and i["hex"] == here]
        if lying:
            lines.append("On the ground: " + ", ".join(lying))
        return "\n".join(lines)

    # drawing --------------------------------------------------------------------------
    def draw_pieces(self, surface: pygame.Surface, transform: Any, view: dict[str, Any]) -> None:
        area = self.scene.board_rect()
        marks = self._marks(view)
        self._draw_shading(surface, transform, area, view["searched"],
                           [cell for cell, kind in marks.items() if kind == "move"])
        scale = transform.scale
        for s in view["searched"]:  # the searcher's shape as well as its shade
            if s[2] is not None:
                x, y = transform.to_screen(*self.cell_center(self._hex(s[:2])))
                draw_seat_mark(surface, s[2], (x - 14 * scale, y - 17 * scale),
                               max(8, 8 * scale), on_piece=False)
        for s in view["seats"]:
            if s["start"]:
                x, y = transform.to_screen(*self.cell_center(self._hex(s["start"])))
                self._home(surface, x, y - 22 * scale, s["seat"], scale)
            for f in s["flags"]:
                x, y = transform.to_screen(*self.cell_center(self._hex(f)))
                self._flag(surface, x, y, s["seat"], scale)
        for lair in view["lairs"]:
            x, y = transform.to_screen(*self.cell_center(self._hex(lair["hex"])))
            size = max(12, int(30 * scale))
            img = icon("lair", size)
            surface.blit(img, img.get_rect(center=(round(x), round(y - 12 * scale))))
        self._draw_reach(surface, transform, view)
        for cell, kind in marks.items():
            draw_highlight(surface, kind, self.hex_polygon(cell, transform),
                           max(2, int(3 * scale)), with_badge=False)
        for cell in self.flash:
            self.outline(surface, transform, self._hex(cell), (255, 255, 255), 3)
        self._draw_items(surface, transform, view)
        self._draw_units(surface, transform, view)
        for cell, kind in marks.items():  # each target's icon, over the pieces
            x, y = transform.to_screen(*self.cell_center(cell))
            draw_kind_badge(surface, kind, (x + 17 * scale, y + 15 * scale), max(7, 7 * scale))
        self._draw_quests(surface, view)
        self._draw_dice(surface)

    def _draw_shading(self, surface, transform, area, searched, moves) -> None:
        """The searched hexes (their searcher's colour) and the hexes the active unit may
        move to, shaded: one see-through picture, kept while none of them changes, and
        blitted only where it shades something."""
        key = (tuple(area), transform, tuple(tuple(s) for s in searched), tuple(moves))
        if key != getattr(self, "_shading_key", None):
            overlay = pygame.Surface(area.size, pygame.SRCALPHA)
            shift = lambda pts: [(x - area.x, y - area.y) for x, y in pts]  # noqa: E731
            for s in searched:
                pygame.draw.polygon(overlay, (*colour(s[2]), 70),
                                    shift(self.hex_polygon(self._hex(s[:2]), transform)))
            for cell in moves:
                pygame.draw.polygon(overlay, MOVE_FILL, shift(self.hex_polygon(cell, transform)))
            used = overlay.get_bounding_rect()
            self._shading_key = key
            self._shading = (overlay.subsurface(used), used.move(area.topleft)) \
                if used.width and used.height else None
        if self._shading is not None:
            surface.blit(*self._shading)

    def _draw_reach(self, surface, transform, view) -> None:
        """Thin outlines: the active unit's melee reach (red, solid) and missile range
        (orange, dotted)."""
        active = view["active"]
        if active is None or view["viewer"] not in view["to_act"] or view["prompt"]:
            return
        unit = self._unit(view, active["unit"])
        here = cell_of(unit["hex"])
        for cell in within(here, max(1, unit["shoot"])):
            if cell == here:
                continue
            near = distance(cell, here) == 1
            points = self.hex_polygon(self._hex(list(cell)), transform)
            if near:
                pygame.draw.polygon(surface, (200, 70, 60), points, 1)
            else:
                for k in range(0, len(points)):  # a dot at each corner: dotted
                    pygame.draw.circle(surface, (220, 150, 60), points[k], 2)

    def _home(self, surface, x, y, seat, scale) -> None:
        """A little house marking a starting hex, in the seat's colour with its shape."""
        col = colour(seat)
        s = max(0.7, scale)
        body = pygame.Rect(0, 0, round(14 * s), round(9 * s))
        body.midtop = (round(x), round(y))
        roof = [(body.left - 3 * s, body.top), (body.centerx, body.top - 8 * s),
                (body.right + 3 * s, body.top)]
        pygame.draw.rect(surface, (30, 24, 20), body.inflate(4, 4))
        pygame.draw.rect(surface, col, body)
        pygame.draw.polygon(surface, (30, 24, 20), roof)
        draw_seat_mark(surface, seat, body.center, max(7, body.height - 1))

    def _flag(self, surface, x, y, seat, scale) -> None:
        col = colour(seat)
        s = max(0.6, scale)
        pole = (round(x + 14 * s), round(y - 20 * s))
        pygame.draw.line(surface, (40, 30, 20), pole, (pole[0], pole[1] + 18 * s), 2)
        pygame.draw.polygon(surface, col, [pole, (pole[0] + 10 * s, pole[1] + 4 * s),
                                           (pole[0], pole[1] + 8 * s)])
        draw_seat_mark(surface, seat, (pole[0] - 6 * s, pole[1] + 4 * s), max(7, 7 * s),
                       on_piece=False)

    def _draw_items(self, surface, transform, view) -> None:
        size = max(10, int(16 * transform.scale))
        by_hex: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for it in view["items"]:
            if it["lying"]:
                by_hex.setdefault(cell_of(it["hex"]), []).append(it)
        for cell, items in by_hex.items():
            x, y = transform.to_screen(*self.cell_center(self._hex(list(cell))))
            for n, it in enumerate(items[:4]):
                px = x - (len(items[:4]) - 1) * size * 0.55 + n * size * 1.1
                py = y + 17 * transform.scale
                pygame.draw.circle(surface, (246, 232, 190), (round(px), round(py)),
                                   size // 2 + 2)
                img = icon(it["kind"], size)
                surface.blit(img, img.get_rect(center=(round(px), round(py))))

    def _unit_point(self, uid: int, cell: tuple[int, int]) -> tuple[float, float]:
        if uid in self.tweens and self.tweens[uid].elapsed < self.tweens[uid].duration:
            return self.tweens[uid].point
        return self.cell_center(self._hex(list(cell)))

    def _draw_units(self, surface, transform, view) -> None:
        scale = transform.scale
        r = max(7, int(11 * scale))
        active = view["active"]["unit"] if view["active"] else None
        groups: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for u in view["units"]:
            cell = self.where.get(u["id"], cell_of(u["hex"]))
            groups.setdefault(cell, []).append(u)
        offsets = {1: [(0, 0)], 2: [(-0.55, 0), (0.55, 0)],
                   3: [(-0.55, -0.45), (0.55, -0.45), (0, 0.5)],
                   4: [(-0.55, -0.5), (0.55, -0.5), (-0.55, 0.5), (0.55, 0.5)]}
        for cell, units in groups.items():
            if len(units) > 1:  # how many units the stack holds
                bx, by = self.cell_center(self._hex(list(cell)))
                tx, ty = transform.to_screen(bx, by)
                badge = pygame.Rect(0, 0, max(22, int(r * 1.7)), 16)
                # up and to the right, clear of a starting hex's house
                badge.center = (round(tx + r * 1.7), round(ty - r * 2.3))
                pygame.draw.rect(surface, (20, 16, 12), badge, border_radius=7)
                draw_text(surface, f"×{len(units)}", badge.center, 12, (255, 250, 230),
                          bold=True, anchor="center")
            offs = offsets.get(len(units), offsets[4])
            for n, u in enumerate(units[:4]):
                bx, by = self._unit_point(u["id"], cell)
                dx, dy = offs[n]
                x, y = transform.to_screen(bx, by - 4)
                x += dx * r * 1.9
                y += dy * r * 1.9
                centre = (round(x), round(y))
                fill = colour(u["owner"])
                if u["acted"] and view["phase"] == "play":
                    fill = tuple(int(c * 0.6) for c in fill)
                pygame.draw.circle(surface, (20, 16, 12), centre, r + 2)
                pygame.draw.circle(surface, fill, centre, r)
                ink = ink_on(fill)  # the letter contrasts with the counter (>= 4.5:1)
                if r >= 18:  # big enough for the silhouette to read, with the letter under it
                    img = icon(u["kind"], int(r * 1.5))
                    surface.blit(img, img.get_rect(center=(centre[0], centre[1] - r // 5)))
                    letter = draw_text(surface, LETTERS[u["kind"]],
                                       (centre[0], centre[1] + r * 0.55), max(12, r // 2),
                                       ink, bold=True, anchor="center",
                                       shadow=ink == (255, 255, 255))
                else:  # small: a clear letter reads better than a tiny picture
                    letter = draw_text(surface, LETTERS[u["kind"]], centre,
                                       max(12, int(r * 1.15)), ink, bold=True,
                                       anchor="center", shadow=ink == (255, 255, 255))
                if u["owner"] is not None:  # the owner's shape (wild monsters have none)
                    draw_seat_mark(surface, u["owner"], (centre[0] - r * 0.85, centre[1] - r * 0.85),
                                   max(11, r * 0.8))
                if u.get("starting"):
                    pygame.draw.circle(surface, GOLD, (centre[0] + r - 2, centre[1] - r + 2),
                                       max(3, r // 4))
                if u["items"]:  # at the lower right, clear of a two-letter kind ("WD")
                    draw_text(surface, str(len(u["items"])),
                              (max(centre[0] + r - 3, letter.right), centre[1] + r - 4),
                              max(12, r), (255, 250, 230), bold=True, anchor="midleft",
                              shadow=True)
                if u["down"]:
                    pygame.draw.line(surface, ALERT, (x - r, y - r), (x + r, y + r), 3)
                if u["burrowed"]:
                    pygame.draw.circle(surface, (120, 80, 40), centre, r + 2, 3)
                if u["id"] == active:
                    pygame.draw.circle(surface, GOLD, centre, r + 4, 3)
                if view["facing"]:
                    self._facing_tick(surface, transform, cell, u["facing"], centre, r)

    def _facing_tick(self, surface, transform, cell, facing, centre, r) -> None:
        """A small pointer on the counter's rim toward the hex side it faces."""
        ahead = step(cell, facing)
        ax, ay = self.layout.hex_center(Hex(*ahead))
        bx, by = self.layout.hex_center(Hex(*cell))
        length = math.hypot(ax - bx, ay - by) or 1.0
        dx, dy = (ax - bx) / length, (ay - by) / length
        tip = (centre[0] + dx * (r + 6), centre[1] + dy * (r + 6))
        left = (centre[0] + dx * r - dy * 4, centre[1] + dy * r + dx * 4)
        right = (centre[0] + dx * r + dy * 4, centre[1] + dy * r - dx * 4)
        pygame.draw.polygon(surface, (250, 245, 225), [tip, left, right])

    def _draw_quests(self, surface: pygame.Surface, view: dict[str, Any]) -> None:
        with interface_size():  # window pixels, not the board's: it grows with the interface
            self._draw_quest_lines(surface, view)

    def _quest_lines(self, view: dict[str, Any]) -> list[tuple[int | None, int, str]]:
        """The quest box's lines, wrapped to the board area: (seat whose mark starts the
        line or None, seat, text)."""
        area = self.scene.board_rect()
        lines = []
        for s in view["seats"]:
            quests = " · ".join(q["line"] for q in s["quests"])
            units = f"{s['units']} unit" + ("s" if s["units"] != 1 else "")
            text = f"{self.seat_who(s['seat'], s['name'])} ({s['done']}/3, {units}): {quests}"
            for n, part in enumerate(wrap_text(text, 13, area.width - px(40))):
                lines.append((s["seat"] if n == 0 else None, s["seat"], part))
        return lines

    def bottom_room(self) -> int:
        """At a larger interface the quest box (text at its size) keeps the board above
        it, rather than cover the bottom row of hexes."""
        if scale() <= 1.0:
            return 0
        with interface_size():
            return px(18) * len(self._quest_lines(self.scene.view())) + px(8) + 12

    def _draw_quest_lines(self, surface: pygame.Surface, view: dict[str, Any]) -> None:
        area = self.scene.board_rect()
        lines = self._quest_lines(view)
        line_h = px(18)
        height = line_h * len(lines) + px(8)
        box = pygame.Rect(area.x + 6, area.bottom - height - 6, area.width - 12, height)
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill(panel_fill((20, 18, 24, 190)))
        surface.blit(shade, box)
        for n, (dot, seat, text) in enumerate(lines):
            if dot is not None:
                draw_seat_mark(surface, dot, (box.x + px(10), box.y + px(13) + line_h * n), px(11),
                               on_piece=False)
            draw_text(surface, text, (box.x + px(20), box.y + px(4) + line_h * n), 13,
                      GOLD if view["turn"] == seat and view["phase"] == "play" else TEXT)
        status = f"Round {view['round']}" + (f" of {view['round_limit']}"
                                             if view["round_limit"] else "")
        if view["finale"]:
            status += " — fight to the finish"
        line = draw_text(surface, status, (area.x + px(10), area.y + px(6)), 14, MUTED,
                         shadow=True)
        self.status_boxes = [box, line]

    def _draw_dice(self, surface: pygame.Surface) -> None:
        if self.dice is None or self.dice["time"] <= 0:
            return
        with interface_size():  # window pixels: it grows with the interface
            self._draw_dice_box(surface)

    def _draw_dice_box(self, surface: pygame.Surface) -> None:
        area = self.scene.board_rect()
        # The roll's words beside the die, wrapped to the board's width (never cut short).
        lines = wrap_text(self.dice["text"], 14, area.width - px(40 + 64 + 12))
        width = min(area.width - px(40),
                    px(64 + 16) + max(font(14).size(line)[0] for line in lines))
        box = pygame.Rect(0, 0, width, max(px(64), px(24) + px(20) * len(lines)))
        box.midtop = (area.centerx, area.y + px(28))
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill(panel_fill((20, 18, 24, 220)))
        surface.blit(shade, box)
        good = self.dice["good"]
        edge = (110, 210, 110) if good else ALERT if good is False else GOLD
        pygame.draw.rect(surface, edge, box, 2, border_radius=6)
        roll = self.dice["roll"]
        if roll is not None:
            shown = roll if self.dice["time"] < 0.6 else 1 + int(self.dice["time"] * 37) % 8
            die = pygame.Rect(box.x + px(10), box.y + px(10), px(44), px(44))
            pygame.draw.rect(surface, (246, 238, 220), die, border_radius=8)
            draw_text(surface, str(shown), die.center, 24, (30, 24, 20), bold=True,
                      anchor="center")
        for n, line in enumerate(lines):
            draw_text(surface, line, (box.x + px(64),
                                      box.centery - px(10) * len(lines) + px(20) * n), 14,
                      TEXT)

    # results --------------------------------------------------------------------------
    def results_table(self, result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
        names = [s["name"] for s in self.table.seats]
        rows = []
        for s in sorted(range(len(names)), key=lambda s: (s not in result["winners"],
                                                          -result["quests_done"][s], s)):
            rows.append([names[s] + ("  (winner)" if s in result["winners"] else ""),
                         str(result["quests_done"][s]), str(result["units"][s]),
                         str(result["kills"][s]), "; ".join(result["quests"][s])])
        return ["Player", "Quests", "Units", "Kills", "Quests drawn"], rows

    def results_summary(self, result: dict[str, Any]) -> list[str]:
        names = [s["name"] for s in self.table.seats]
        why = {"quests": "completed three quests",
               "last standing": "was the last player with units standing",
               "round limit": "led when the round limit was reached",
               "exhaustion": "", "wiped out": ""}[result["reason"]]
        if not result["winners"]:
            return [f"Nobody won ({result['reason']}) after {result['rounds']} rounds."]
        who = " and ".join(names[s] for s in result["winners"])
        return [f"{who} {why}.", f"The game lasted {result['rounds']} rounds."]
