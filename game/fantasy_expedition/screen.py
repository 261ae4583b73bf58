"""Fantasy Expedition on screen: pawns, items, the climb, and the action panel.

Screen code only: it reads views and events and hands actions to the play
scene.  A seat's own team and half-made choices are drawn only while that
seat is the viewer.
"""

from __future__ import annotations

from typing import Any

import pygame

from game.ui import paths
from game.ui.gamescreen import GameScreen, Tween, art
from game.ui.look import interface_size, px, scale
from game.ui.marks import circle_points, draw_highlight, draw_seat_mark
from game.ui.widgets import (ALERT, GOLD, SEAT_COLOURS, draw_text, font, panel_fill,
                             render_text)

from .kernel import TEAM_ITEM, TEAMS
from .rules import ITEM_NAMES, TEAM_NAMES

ART = paths.ASSETS / "expedition"
GOALS = {
    "dwarf": "Finish as far RIGHT as you can: you score your position.",
    "magician": "Finish as far LEFT as you can: you score 10 minus your position.",
    "werewolf": "Finish as near the CENTRE as you can: Position 5 scores 9.",
}
SINGULAR = {"dwarf": "Dwarf", "magician": "Magician", "werewolf": "Werewolf"}
ROW_OF_TEAM = {team: TEAM_ITEM[team] for team in TEAMS}
ROW_NAMES = {"start": "Starting row", "mine": "Mine row", "portal": "Portal row",
             "fear": "Fear row", "final": "Final row"}
ROW_HINTS = {
    "mine": "A Mine tunnels its climber to the nearest other Mine to the left (wrapping round).",
    "portal": "A Portal sends its climber to the nearest other Portal to the right (wrapping round).",
    "fear": "A Fear Marker swaps its climber with the neighbour it points at (a run of markers "
             "pointing the same way moves together).",
}
#: Width of a compact choice row's label.
COMPACT_LABEL = 66
#: The chip on a computer's pawn, by level.
LEVEL_CHIPS = {"Easy": (60, 140, 80), "Normal": (70, 100, 160), "Hard": (170, 50, 50)}
ITEM_WORDS = {"mine": "A Mine", "portal": "A Portal", "fear_left": "A Fear Marker pointing left",
              "fear_right": "A Fear Marker pointing right"}


def sprite(name: str, size: int, tint: tuple[int, int, int] | None = None) -> pygame.Surface:
    """An art file scaled to ``size`` pixels (and tinted), cached."""
    return art(ART / f"{name}.png", size, None if tint is None else (*tint, 255))


#: A part of the secret choice, as the "Confirm" button's reason names it.
PART_WORDS = {"slot": "your slot", "communal": "a communal number",
              "direction": "where your marker points", "vote": "your communal marker vote"}


class ExpeditionScreen(GameScreen):
    """Draws and drives one Fantasy Expedition match."""

    STEP_EVENTS = frozenset({"place", "climb", "move"})
    RULES_SECTIONS = {"trading": "Trading", "choice": "Secret choices",
                      "vote": "Elimination Candidate", "over": "Scoring"}
    QUIET_EVENTS = frozenset({"chose", "vote", "pass", "propose", "phase"})

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.where: dict[int, tuple[str, int]] = {}
        self.rows_shown: set[str] = set()
        self.teams_shown = False
        self.sel: dict[str, Any] = {}
        self.sel_owner: int | None = None

    # display state -------------------------------------------------------------------
    def reset(self, view: dict[str, Any]) -> None:
        self.tweens.clear()
        revealed = view["items"] is not None
        self.rows_shown = {"mine", "portal", "fear"} if revealed else set()
        self.teams_shown = revealed
        for seat in view["seats"]:
            final = seat["final"]
            self.where[seat["seat"]] = ("final", final) if final else ("start", seat["start"])

    def point(self, row: str, index: int) -> tuple[float, float]:
        return self.board.cell_center(f"{row}-{index}")

    def _move(self, seat: int, row: str, index: int, seconds: float, hop: float = 0) -> None:
        old = self.tweens[seat].point if seat in self.tweens else self.point(*self.where[seat])
        self.where[seat] = (row, index)
        self.tweens[seat] = Tween(old, self.point(row, index), seconds, hop)

    def animate(self, event: dict[str, Any], view: dict[str, Any]) -> float:
        kind = event["type"]
        if kind == "trade" and event.get("accepted"):
            for seat, position in event["positions"].items():
                self._move(int(seat), "start", position, 0.7, hop=40)
            return 0.8
        if kind == "reveal":
            self.teams_shown = True
            return 1.0
        if kind == "place":
            self.rows_shown.add(event["row"])
            return 0.8
        if kind == "climb":
            for seat, (_row, index) in list(self.where.items()):
                self._move(seat, event["row"], index, 0.7)
            return 0.8
        if kind == "move":
            hop = 60 if event["row"] != "fear" else 24
            self._move(event["seat"], event["row"], event["target"], 0.8, hop=hop)
            return 0.9
        if kind in ("winner", "over"):
            self.flash[event["seat"]] = 1.2
            return 0.9
        return 0.15 if kind in ("chose", "vote", "pass") else 0.0

    # selection (the viewer's half-made secret choice) ----------------------------------
    def selection(self, view: dict[str, Any]) -> dict[str, Any]:
        if self.sel_owner != view["viewer"]:
            self.sel, self.sel_owner = {}, view["viewer"]
        return self.sel

    def _select(self, key: str, value: Any) -> None:
        self.sel[key] = value
        self.scene.rebuild()

    def my_team(self, view: dict[str, Any]) -> str | None:
        viewer = view["viewer"]
        return None if viewer is None else view["seats"][viewer]["team"]

    def _confirm(self, view: dict[str, Any]) -> None:
        sel = self.selection(view)
        action = {"type": "choose", "slot": sel.get("slot"), "communal": sel.get("communal")}
        if self.my_team(view) == "werewolf":
            action.update(direction=sel.get("direction"), vote=sel.get("vote"))
        if self.act(action):
            self.sel = {}

    # panel ----------------------------------------------------------------------------
    def panel_text(self, view: dict[str, Any]) -> list[str]:
        viewer, phase = view["viewer"], view["phase"]
        names = [s["name"] for s in view["seats"]]
        if phase == "over" or (viewer is None and view["items"] is not None):
            head = ("The expedition is over." if phase == "over"
                    else "The choices are revealed and the expedition resolves.")
            return [head + " Coloured seat shapes under an item show who chose it; a gold ring marks "
                           "each team's communal item (hover for more):",
                    *self.communal_lines(view)]
        if viewer is None:
            return ["Waiting for the next player."]
        team = self.my_team(view)
        lines = [f"You are a {SINGULAR[team]}. {GOALS[team]}"] if team else []
        you_act = viewer in view["to_act"]
        if phase == "trading":
            trade = view["trading"]
            pending = trade["pending"]
            header = f"Trading round {trade['round']} of {trade['rounds']}."
            if pending and pending["to"] == viewer:
                giver = pending["from"]
                lines += [header, f"{names[giver]} offers you Position "
                          f"{view['seats'][giver]['start']} for your Position "
                          f"{view['seats'][viewer]['start']}."]
            elif you_act:
                lines += [header, "Offer a swap of starting positions: click another "
                          "player's pawn or a name below. Or pass."]
            else:
                lines += [header, "Waiting for the others to trade."]
        elif phase == "choice":
            if you_act:
                item = ITEM_NAMES[TEAM_ITEM[team]]
                lines.append(f"In secret: your {item}'s slot (or click your row), "
                             + ("which way it points, your vote for the communal marker's "
                                "way, " if team == "werewolf" else "")
                             + "and a communal number 1-9.")
            elif view["choice"]:
                c = view["choice"]
                extra = (f", pointing {'left' if c['direction'] == 'L' else 'right'}, "
                         f"communal vote {'left' if c['vote'] == 'L' else 'right'}"
                         if "direction" in c else "")
                lines.append(f"Your choice is in: slot {c['slot']}{extra}; communal number "
                             f"{c['communal']}. Waiting for the others.")
        elif phase == "vote":
            tied = ", ".join(names[s] for s in view["vote"]["tied"])
            lines.append(f"Tied for the lowest score: {tied}."
                         + (" As a team winner, vote for the Elimination Candidate."
                            if you_act else " The team winners are voting."))
        return lines

    def communal_lines(self, view: dict[str, Any]) -> list[str]:
        """One short line per team: its communal numbers, their average and the slot."""
        names = [s["name"] for s in view["seats"]]
        lines = []
        for row in ("mine", "portal", "fear"):
            info = view["items"]["communal_info"][row]
            numbers = ", ".join(f"{names[s]} {n}" for s, n in info["numbers"])
            where = f"{ITEM_NAMES[row]} at {info['slot']}"
            if row == "fear":
                votes = " ".join(d for _s, d in info["votes"])
                where += f" pointing {'left' if info['direction'] == 'L' else 'right'} " \
                         f"(votes {votes})"
            why = "nearest empty slot"
            if info["taken"]:
                why = f"{', '.join(map(str, info['taken']))} taken, nearest empty slot"
            if info["tied"] is not None:
                why += f", {info['tied']} as near: lower wins"
            lines.append(f"{TEAM_NAMES[info['team']]}: {numbers}, average "
                         f"{info['average']:.3g}: {where} ({why}).")
        return lines

    def build_panel(self, rect: pygame.Rect, view: dict[str, Any]) -> int:
        viewer, phase = view["viewer"], view["phase"]
        if viewer is None or viewer not in view["to_act"]:
            return 0
        if phase == "trading":
            return self._trading_panel(rect, view)
        if phase == "choice":
            return self._choice_panel(rect, view)
        return self._vote_panel(rect, view)

    def _trading_panel(self, rect: pygame.Rect, view: dict[str, Any]) -> int:
        controls, viewer = self.scene.controls, view["viewer"]
        if view["trading"]["pending"]:
            half = (rect.width - 8) // 2
            controls.button((rect.x, rect.y, half, px(40)), "Accept", lambda: self.act(
                {"type": "accept"}), object_id="#primary")
            controls.button((rect.x + half + 8, rect.y, half, px(40)), "Decline", lambda: self.act(
                {"type": "decline"}))
            controls.move(1)
            return px(44)
        controls.button((rect.x, rect.y, rect.width, px(38)), "Pass", lambda: self.act(
            {"type": "pass"}), tooltip="Offer no swap this round")
        others = [s for s in view["seats"] if s["seat"] != viewer]
        # Two to a row, or more when the room is short (a small window at a larger size).
        cols = next((c for c in (2, 3, 4)
                     if px(44) + px(36) * -(-len(others) // c) <= rect.height), 4)
        half = (rect.width - 6 * (cols - 1)) // cols
        for n, seat in enumerate(others):
            x = rect.x + (n % cols) * (half + 6)
            y = rect.y + px(44) + (n // cols) * px(36)
            controls.button((x, y, half, px(32)), f"{seat['name']} ({seat['start']})",
                            lambda s=seat["seat"]: self.act({"type": "propose", "to": s}),
                            tooltip=f"Offer to swap your Position "
                                    f"{view['seats'][viewer]['start']} for Position "
                                    f"{seat['start']}")
        controls.move(1)
        return px(44) + px(36) * -(-len(others) // cols)

    def _number_row(self, rect: pygame.Rect, y: int, key: str, label: str,
                    sel: dict[str, Any], compact: bool) -> int:
        """A labelled row of buttons 1..9; compact: the label sits to the left."""
        controls = self.scene.controls
        if compact:
            controls.label((rect.x, y, px(COMPACT_LABEL), px(30)), label)
            x, width, top = rect.x + px(COMPACT_LABEL), rect.width - px(COMPACT_LABEL), y
        else:
            controls.label((rect.x, y, rect.width, px(22)), label)
            x, width, top = rect.x, rect.width, y + px(24)
        size = (width - 8 * 3) // 9
        for n in range(1, 10):
            controls.button((x + (n - 1) * (size + 3), top, size, px(30)), str(n),
                            lambda n=n: self._select(key, n),
                            object_id="#chosen" if sel.get(key) == n else None)
        return top + px(34)

    def _ways_row(self, rect: pygame.Rect, y: int, sel: dict[str, Any], compact: bool) -> int:
        """A Werewolf's direction and vote: Left/Right twice (compact: side by side)."""
        controls = self.scene.controls
        rows = (("direction", "Points" if compact else "Your marker points"),
                ("vote", "Vote" if compact else "Communal marker vote"))
        if compact:
            half = (rect.width - 8) // 2
            for n, (key, label) in enumerate(rows):
                x = rect.x + n * (half + 8)
                controls.label((x, y, px(54), px(30)), label)
                button = (half - px(54) - 2) // 2
                for m, (code, word) in enumerate((("L", "Left"), ("R", "Right"))):
                    controls.button((x + px(54) + m * (button + 2), y, button, px(30)), word,
                                    lambda k=key, c=code: self._select(k, c),
                                    object_id="#chosen" if sel.get(key) == code else None)
            return y + px(34)
        half = (rect.width - 8) // 2
        for key, label in rows:
            controls.label((rect.x, y, rect.width, px(22)), label)
            for n, (code, word) in enumerate((("L", "Left"), ("R", "Right"))):
                controls.button((rect.x + n * (half + 8), y + px(24), half, px(30)), word,
                                lambda k=key, c=code: self._select(k, c),
                                object_id="#chosen" if sel.get(key) == code else None)
            y += px(58)
        return y

    def _choice_panel(self, rect: pygame.Rect, view: dict[str, Any]) -> int:
        controls, sel, team = self.scene.controls, self.selection(view), self.my_team(view)
        item = ITEM_NAMES[TEAM_ITEM[team]]
        wolf = team == "werewolf"
        full = px(58) * 2 + (px(116) if wolf else 0) + px(44)
        compact = full > rect.height  # labels beside the rows, and both ways on one row
        y = self._number_row(rect, rect.y, "slot", "Slot" if compact else f"{item} slot",
                             sel, compact)
        if wolf:
            y = self._ways_row(rect, y, sel, compact)
        y = self._number_row(rect, y, "communal", "Number" if compact else "Communal number",
                             sel, compact)
        needed = ["slot", "communal"] + (["direction", "vote"] if wolf else [])
        ready = all(sel.get(k) is not None for k in needed)
        controls.button((rect.x, y + px(2), rect.width, px(36)), "Confirm in secret",
                        lambda: self._confirm(view), object_id="#primary", enabled=ready,
                        tooltip="Lock in your choices" if ready else
                        "Not now: choose " + ", ".join(
                            PART_WORDS[k] for k in needed if sel.get(k) is None) + " first.")
        return y + px(40) - rect.y

    def _vote_panel(self, rect: pygame.Rect, view: dict[str, Any]) -> int:
        controls = self.scene.controls
        y = rect.y
        for seat in view["vote"]["tied"]:
            name = view["seats"][seat]["name"]
            controls.button((rect.x, y, rect.width, px(36)), f"Vote for {name}",
                            lambda s=seat: self.act({"type": "vote", "candidate": s}))
            y += px(40)
        controls.move(1)
        return y - rect.y

    # board clicks ---------------------------------------------------------------------
    def click_cell(self, cell: Any, view: dict[str, Any]) -> None:
        if not isinstance(cell, str) or "-" not in cell:
            return
        row, index = cell.split("-")
        index = int(index)
        viewer, phase = view["viewer"], view["phase"]
        if viewer is None or viewer not in view["to_act"]:
            return
        if phase == "trading" and row == "start" and not view["trading"]["pending"]:
            other = next(s["seat"] for s in view["seats"] if s["start"] == index)
            if other != viewer:
                self.act({"type": "propose", "to": other})
        elif phase == "choice" and row == ROW_OF_TEAM[self.my_team(view)]:
            self._select("slot", index)

    def event_cells(self, event: dict[str, Any], view: dict[str, Any]) -> set[Any]:
        """A move's landing place, and the slots a placement filled."""
        row = event.get("row")
        if not isinstance(row, str):
            return set()
        places = [event.get("target"), event.get("slot"), *event.get("slots", [])]
        return {f"{row}-{n}" for n in places if isinstance(n, int) and not isinstance(n, bool)}

    def cell_action(self, cell: Any, view: dict[str, Any]) -> dict[str, Any] | None:
        """While trading, a start position means proposing a swap to whoever stands there,
        legal or not (at other times a click there means nothing)."""
        if not isinstance(cell, str) or not cell.startswith("start-") or view["viewer"] is None \
                or view["phase"] != "trading":
            return None
        index = int(cell.split("-")[1])
        other = next((s["seat"] for s in view["seats"] if s["start"] == index), None)
        return None if other in (None, view["viewer"]) else {"type": "propose", "to": other}

    def idle_reason(self, cell: Any, view: dict[str, Any]) -> str | None:
        """None for a slot of the viewer's own row while choosing (a click picks it), else
        whose turn it is or what to do instead."""
        turn = self.turn_reason()
        if turn is not None:
            return turn
        phase, team = view["phase"], self.my_team(view)
        if phase == "choice":
            row = ROW_OF_TEAM.get(team) if team else None
            if isinstance(cell, str) and row and cell.startswith(row + "-"):
                return None
            return (f"Only your own row counts now: click a slot of the {ROW_NAMES[row]} "
                    "or use the buttons on the right." if row else
                    "Make your secret choice with the buttons on the right.")
        if phase == "trading":
            if view["trading"]["pending"] and view["trading"]["pending"]["to"] == view["viewer"]:
                return "Answer the offer first: Accept or Decline on the right."
            return "Only the starting row matters while trading: click another player's pawn " \
                   "there, or Pass."
        if phase == "vote":
            return "Vote first: choose the Elimination Candidate with the buttons on the right."
        return "Nothing to do there now: " + self.what_now(view)

    def hover_text(self, cell: Any, view: dict[str, Any]) -> str | None:
        """Which position this is, who stands there, what lies there and who put it there."""
        if not isinstance(cell, str) or "-" not in cell:
            return None
        row, index = cell.split("-")
        lines = [ROW_NAMES.get(row, row.capitalize()) + f", position {index}"]
        here = [self.seat_who(seat["seat"], seat["name"]) for seat in view["seats"]
                if tuple(map(str, self.where[seat["seat"]])) == (row, index)]
        if here:
            lines.append("Here: " + ", ".join(here))
        names = [s["name"] for s in view["seats"]]
        items = view["items"]
        for item_row, item_index, name, communal in self._item_sprites(view):
            if (item_row, str(item_index)) != (row, index):
                continue
            owners = items["owners"][row].get(item_index, [])
            line = ITEM_WORDS[name]
            if owners:
                line += ", chosen by " + " and ".join(names[s] for s in owners)
            if communal:
                line += (", and " if owners else ": ") + "the team's communal item"
            lines.append(line + ".")
            if communal:
                lines.append(self.communal_lines(view)[("mine", "portal", "fear").index(row)])
        if row == "fear" and items is not None and "fear" in self.rows_shown:
            failed = items["failed_markers"].get(int(index))
            if failed:
                chose = " and ".join(f"{names[s]} ({'left' if d == 'L' else 'right'})"
                                     for s, d in failed)
                lines.append(f"Failed here: {chose} chose this slot but pointed different ways, "
                             f"so both markers failed"
                             + (" (then the communal marker landed on the empty slot)."
                                if int(index) in items["fears"] else "."))
        if row in ROW_HINTS:
            lines.append(ROW_HINTS[row])
        return "\n".join(lines)

    def highlighted(self, view: dict[str, Any]) -> set[Any]:
        viewer, phase = view["viewer"], view["phase"]
        if viewer is None or viewer not in view["to_act"]:
            return set()
        if phase == "trading" and not view["trading"]["pending"]:
            return {f"start-{s['start']}" for s in view["seats"] if s["seat"] != viewer}
        if phase == "choice":
            return {f"{ROW_OF_TEAM[self.my_team(view)]}-{n}" for n in range(1, 10)}
        return set()

    # drawing --------------------------------------------------------------------------
    def draw_pieces(self, surface: pygame.Surface, transform: Any, view: dict[str, Any]) -> None:
        size = max(16, int(54 * transform.scale))
        for cell in self.highlighted(view):
            x, y = transform.to_screen(*self.board.cell_center(cell))
            draw_highlight(surface, "choose", circle_points((x, y), size // 2 + 2), 2,
                           badge_radius=max(7, size // 7))
        self._draw_items(surface, transform, view, size)
        self._draw_pawns(surface, transform, view, size)

    def _item_sprites(self, view: dict[str, Any]) -> list[tuple[str, int, str, bool]]:
        """(row, index, sprite, communal) for each item the viewer may see now."""
        items = view["items"]
        out = []
        if items is not None:
            for row, key in (("mine", "mines"), ("portal", "portals")):
                if row in self.rows_shown:
                    out += [(row, s, row, s == items["communal"][row]) for s in items[key]]
            if "fear" in self.rows_shown:
                out += [("fear", int(s), "fear_left" if d == "L" else "fear_right",
                         int(s) == items["communal"]["fear"]) for s, d in items["fears"].items()]
        return out

    def _draw_items(self, surface, transform, view, size) -> None:
        items = view["items"]
        standing = {tuple(where) for where in self.where.values()}
        for row, index, name, communal in self._item_sprites(view):
            x, y = transform.to_screen(*self.point(row, index))
            image = sprite(name, size)
            surface.blit(image, image.get_rect(center=(round(x), round(y))))
            if communal:
                pygame.draw.circle(surface, GOLD, (round(x), round(y)), size // 2 + 4, 3)
                info = items["communal_info"][row]
                # A communal item never has owners: its foot shows the team's average.
                tag = render_text(f"avg {info['average']:.3g}", max(12, size // 4), GOLD,
                                  bold=True)
                box = tag.get_rect(center=(round(x), round(y + size * 0.4)))
                pygame.draw.rect(surface, panel_fill((30, 24, 20)), box.inflate(6, 0), border_radius=5)
                surface.blit(tag, box)
            if (row, index) not in standing:  # a climber there would cover them
                self._draw_owners(surface, (x, y + size * 0.42),
                                  items["owners"][row].get(index, []), size, None)
        for index, mark in self.failed_marks(view).items():
            markers = items["failed_markers"][index]
            x, y = transform.to_screen(*self.point("fear", int(index)))
            d = size // 3 if mark == "cross" else size // 9
            cx, cy = (x, y) if mark == "cross" else (x - size * 0.38, y)
            for sign in (1, -1):
                pygame.draw.line(surface, ALERT, (cx - d, cy - sign * d),
                                 (cx + d, cy + sign * d), 5 if d > 6 else 3)
            if ("fear", int(index)) not in standing:
                foot = y + size * (0.42 if mark == "cross" else -0.42)  # clear of the tag
                self._draw_owners(surface, (x, foot), [s for s, _d in markers], size, ALERT)
        self._draw_preview(surface, transform, view, size)

    def failed_marks(self, view: dict[str, Any]) -> dict[int, str]:
        """Slots where Fear Markers failed, as shown: "cross" over an empty slot, "corner" (a
        small cross beside it) where the communal marker landed and works."""
        items = view["items"]
        if items is None or "fear" not in self.rows_shown:
            return {}
        return {int(slot): "corner" if int(slot) in items["fears"] else "cross"
                for slot in items["failed_markers"]}

    def _draw_owners(self, surface, centre, seats, size, rim) -> None:
        """The owners' seat shapes in their colours along an item's foot (ringed in ``rim``
        for failed markers)."""
        if not seats:
            return
        radius = max(6, size // 7)
        x0 = centre[0] - (len(seats) - 1) * (radius + 1)
        for n, seat in enumerate(seats):
            at = (round(x0 + n * (2 * radius + 2)), round(centre[1]))
            pygame.draw.circle(surface, (20, 16, 12), at, radius + 1)
            if rim:
                pygame.draw.circle(surface, rim, at, radius + 1, 2)
            draw_seat_mark(surface, seat, at, 2 * radius - 2, on_piece=False)

    def _draw_preview(self, surface, transform, view, size) -> None:
        """The viewer's own secret item, faint, where they chose or are choosing to put it."""
        team = self.my_team(view)
        if team is None or view["items"] is not None or self.sel_owner != view["viewer"]:
            return
        chosen = view["choice"] or self.sel
        slot = chosen.get("slot")
        if slot is None:
            return
        row = ROW_OF_TEAM[team]
        name = row if row != "fear" else ("fear_left" if chosen.get("direction") == "L"
                                          else "fear_right")
        image = sprite(name, size).copy()
        image.set_alpha(150)
        x, y = transform.to_screen(*self.point(row, slot))
        surface.blit(image, image.get_rect(center=(round(x), round(y))))

    def _draw_pawns(self, surface, transform, view, size) -> None:
        viewer = view["viewer"]
        label = max(10, int(13 * transform.scale))
        strip = self.uses_strip()  # the names in a strip under the board (a larger interface)
        # Two climbers briefly on one position (between the moves of a row, in step mode)
        # stand side by side.
        sharing = self.sharing(view)
        points = self.pawn_points(transform, view, size)
        for seat in view["seats"]:
            s = seat["seat"]
            x, y = points[s]
            group = sharing[tuple(self.where[s])]
            colour = SEAT_COLOURS[s % len(SEAT_COLOURS)]
            image = sprite("pawn", size, colour)
            rect = image.get_rect(center=(round(x), round(y - size * 0.12)))
            if s in self.flash or s == viewer:
                pygame.draw.circle(surface, GOLD, rect.center, size // 2 + 3, 3)
            surface.blit(image, rect)
            draw_seat_mark(surface, s, (rect.left + 6, rect.top + 6), max(11, size // 4))
            team = seat["team"] if (self.teams_shown or s == viewer) else None
            if team:
                badge = (rect.right - 4, rect.top + 6)
                pygame.draw.circle(surface, (30, 24, 20), badge, max(7, size // 6))
                draw_text(surface, team[0].upper(), badge, max(9, size // 5), GOLD, bold=True,
                          anchor="center")
            # Side by side, every other name drops a line so the names never run together.
            drop = label + 2 if len(group) > 1 and group.index(s) % 2 else 0
            level = self.seat_level(s)
            if level:  # a computer: its level's initial on a chip (the tooltip says it)
                chip = (rect.left + 4, rect.bottom - max(7, size // 6) - 2)
                pygame.draw.circle(surface, LEVEL_CHIPS[level], chip, max(7, size // 6))
                draw_text(surface, level[0], chip, max(12, size // 5), (255, 250, 235),
                          bold=True, anchor="center")
            if not strip:
                draw_text(surface, seat["name"], (rect.centerx, rect.bottom - 2 + drop), label,
                          (255, 250, 235), bold=True, anchor="midtop", shadow=True)
        self._draw_item_badges(surface, transform, view, size, sharing)
        self.status_boxes = []
        if strip:
            self._draw_name_strip(surface, transform, view, size)

    # The climbers' names at a larger interface: a strip under the board ---------------
    #: Names in the strip never closer than this (window pixels at 100%).
    NAME_GAP = 6

    def name_size(self, transform: Any) -> int:
        """The names' text size in the strip, at 100% (drawn within ``interface_size``,
        which multiplies it): the board's name size grown with the interface -- at 200%
        twice what a name under a pawn is at this zoom."""
        return max(12, round(13 * transform.scale))

    def name_lines(self, transform: Any, view: dict[str, Any],
                   size: int) -> list[list[tuple[int, float, int]]]:
        """The strip's lines of (seat, x of its pawn, name width): each name centred under
        its pawn's column, in the first line where it runs into no other name."""
        points = self.pawn_points(transform, view, max(16, int(54 * transform.scale)))
        gap = px(self.NAME_GAP)
        lines: list[list[tuple[int, float, int]]] = []
        ends: list[float] = []
        with interface_size():
            for s in sorted(points, key=lambda s: (points[s][0], s)):
                name = view["seats"][s]["name"]
                # The seat's shape, then the name (and its shadow).
                width = self.mark_size(size) + px(4) + render_text(name, size,
                                                                   bold=True).get_width() + 2
                left = points[s][0] - width / 2
                n = next((n for n, end in enumerate(ends) if end + gap <= left), len(ends))
                if n == len(ends):
                    lines.append([])
                    ends.append(left)
                lines[n].append((s, points[s][0], width))
                ends[n] = left + width
        return lines

    @staticmethod
    def mark_size(size: int) -> int:
        """The seat shape before a name in the strip (window pixels)."""
        return px(round(size * 0.8))

    def line_height(self, size: int) -> int:
        with interface_size():
            return font(size, bold=True).get_linesize()

    def uses_strip(self) -> bool:
        """At a larger interface (and the board at zoom 1) the names go in window pixels
        in a strip under the board, at the interface's size; at 100% under the pawns."""
        return scale() > 1.0 and getattr(self.scene, "zoom", 1.0) == 1.0

    def bottom_room(self) -> int:
        if not self.uses_strip():
            return 0
        transform = self.renderer.fit(self.scene.board_rect())
        size = self.name_size(transform)
        lines = self.name_lines(transform, self.scene.view(), size)
        return len(lines) * self.line_height(size) + px(8) + 4

    def _draw_name_strip(self, surface, transform, view, size) -> None:
        """Each climber's name (seat shape, name in its colour's light ink) under its
        pawn's column, below the board's picture: window pixels, covering no place."""
        text = self.name_size(transform)
        lines = self.name_lines(transform, view, text)
        if not lines:
            return
        line_h = self.line_height(text)
        bounds = self.renderer.bounds
        top = round(transform.offset_y + (bounds.y + bounds.height) * transform.scale) + 4
        area = self.scene.board_rect()
        top = min(top, area.bottom - len(lines) * line_h - px(8))
        xs = [x - w / 2 for line in lines for _s, x, w in line]
        xe = [x + w / 2 for line in lines for _s, x, w in line]
        box = pygame.Rect(round(min(xs)) - px(4), top, round(max(xe) - min(xs)) + px(8),
                          len(lines) * line_h + px(8))
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill(panel_fill((30, 24, 20, 215)))
        surface.blit(shade, box)
        self.status_boxes = [box]
        with interface_size():
            for n, line in enumerate(lines):
                y = top + px(4) + n * line_h
                for s, x, w in line:
                    mark = self.mark_size(text)
                    left = round(x - w / 2)
                    draw_seat_mark(surface, s, (left + mark // 2, y + line_h // 2), mark,
                                   on_piece=False)
                    draw_text(surface, view["seats"][s]["name"], (left + mark + px(4), y),
                              text, (255, 250, 235), bold=True, shadow=True)

    def sharing(self, view: dict[str, Any]) -> dict[tuple[str, int], list[int]]:
        """Seats by the (row, position) they stand on or are heading for."""
        out: dict[tuple[str, int], list[int]] = {}
        for seat in view["seats"]:
            out.setdefault(tuple(self.where[seat["seat"]]), []).append(seat["seat"])
        return out

    def pawn_points(self, transform: Any, view: dict[str, Any],
                    size: int) -> dict[int, tuple[float, float]]:
        """Where each pawn is drawn on screen: climbers briefly sharing a position stand
        side by side, half a pawn apart."""
        points = {}
        for s, group in ((s, g) for g in self.sharing(view).values() for s in g):
            point = self.tweens[s].point if s in self.tweens else self.point(*self.where[s])
            x, y = transform.to_screen(*point)
            if len(group) > 1:
                x += (group.index(s) - (len(group) - 1) / 2) * size * 0.5
            points[s] = (x, y)
        return points

    def item_badges(self, view: dict[str, Any]) -> list[tuple[str, int, str]]:
        """(row, position, sprite) of every item a climber stands on: drawn again, small,
        over the pawn, so a pawn never hides which way a Fear Marker points."""
        standing = self.sharing(view)
        return [(row, index, name) for row, index, name, _c in self._item_sprites(view)
                if (row, index) in standing]

    def _draw_item_badges(self, surface, transform, view, size, sharing) -> None:
        """An item under a standing climber shows again, small, in the cell's corner, so
        a pawn on the Fear row never hides which way the marker points."""
        small = max(12, int(size * 0.42))
        for row, index, name in self.item_badges(view):
            x, y = transform.to_screen(*self.point(row, index))
            at = (round(x + size * 0.36), round(y + size * 0.3))
            pygame.draw.circle(surface, (30, 24, 20), at, small // 2 + 2)
            image = sprite(name, small)
            surface.blit(image, image.get_rect(center=at))

    # results --------------------------------------------------------------------------
    def results_table(self, result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
        names = [s["name"] for s in self.table.seats]
        rows = []
        for s in sorted(range(9), key=lambda s: (-result["scores"][s], s)):
            rows.append([
                names[s] + ("  (Elimination Candidate)" if s == result["elimination_candidate"]
                            else ""),
                SINGULAR[result["teams"][s]], str(result["start"][s]), str(result["final"][s]),
                str(result["scores"][s]), "yes" if result["tokens_of_life"][s] else "",
                str(result["garnets"][s]) if result["garnets"][s] else "",
            ])
        return ["Player", "Team", "Start", "Finish", "Score", "Token of Life", "Garnets"], rows

    def results_summary(self, result: dict[str, Any]) -> list[str]:
        names = [s["name"] for s in self.table.seats]
        lines = [f"Best of the {TEAM_NAMES[team]}: {names[seat]} ({result['scores'][seat]} points)"
                 for team, seat in zip(TEAMS, result["winners"])]
        candidate = result["elimination_candidate"]
        how = " after a vote of the team winners" if result["votes"] else ""
        if result["tie_break"]:
            how = " after a three-way split of the vote, settled by fate"
        lines.append(f"{names[candidate]} is the Elimination Candidate{how}.")
        return lines
