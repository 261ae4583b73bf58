"""Odysseus: Winds of Fate on screen.

Screen code only: it reads views and events and hands actions to the play
scene.  The sea map, the round track, the score board, the supply and the
reward tiles are drawn over the map's areas; the hand area at the bottom
shows the seat at the screen's hand and Destiny cards (only after the
handover, when that seat is the viewer).  The Resolve step is animated as an
overlay with two growing totals, Help against Hinder.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pygame

from game.ui import paths
from game.engine.events import audience
from game.ui.gamescreen import GameScreen, Tween, art
from game.ui.look import interface_size, px, scale
from game.ui.marks import draw_highlight, draw_seat_mark, ink_on, readable_on, rect_points
from game.ui.widgets import ALERT, GOLD, MUTED, SEAT_COLOURS, TEXT, draw_text, font, panel_fill

from .data import CARDS, DESTINIES, ENCOUNTERS, OLYMPUS_BY_ID, REWARDS
from .rules import (GOD_NAMES, SPECIAL_NAMES, bet_payout, bet_stack_size, card_text,
                    reward_text, short_place)

ART = paths.ASSETS / "odysseus"
HELP_BLUE = (56, 110, 196)
HINDER_RED = (186, 52, 46)
INK = (52, 36, 22)
PARCH = (240, 226, 190)
#: The hand area's brown, behind the name of the seat at the screen (from the board's art).
HAND_BG = (67, 43, 28)
AREA = {"scoreboard": (896, 16, 368, 300), "supply": (896, 326, 368, 124),
        "rewards": (896, 460, 368, 172), "hand": (16, 800, 1248, 208)}
CARD_W, CARD_H = 88, 104
#: Smallest font size drawn on the board (pixels); text that must fit a box may go to
#: :data:`FLOOR_PX` instead.
MIN_PX, FLOOR_PX = 11, 8
#: From a 1280x720 window up (board scale >= :data:`BIG_SCALE`), no text under
#: :data:`RULE_PX` (the project's rule): what does not fit is shortened instead.
BIG_SCALE, RULE_PX = 0.6, 12
SHORT_FATES = {"safe": "Safe Return", "dead": "Dead", "stranded": "Stranded"}
#: The Destiny cards' names on a card in a small window (the tooltip has the whole name).
TINY_FATES = {"safe": "Safe", "dead": "Dead", "stranded": "At Sea"}
#: The score board's rows start this far under its top (two lines of column labels).
SCORE_HEAD = 54
DESTINY_X = 984
#: At a larger interface the hand is laid out in window pixels (see
#: :meth:`OdysseusScreen.hand_box`): a box from where the map's hand area starts (map y
#: ``HAND_TOP``, under the round track) to the score strip, holding the hand's map layout
#: (``AREA["hand"]``, ``HAND_H`` tall from ``HAND_Y``) at the hand's own scale.
HAND_TOP, HAND_Y, HAND_H = 792, 796, 186
#: In that box the cards (and the table's row under them) sit this much higher than in
#: the map's hand area: a new card's tab goes inside its top, not above it.
HAND_SHIFT = 22
#: Where the board's area cannot hold both at the interface's size, the score strip shrinks
#: first, by this much of the scale at most and never below 100% (then the hand gets what
#: room is left).
STRIP_GIVES = 0.4
#: At a larger interface the Supply and Reward tiles go in window pixels into a box over
#: the map's right column (from map x ``SIDE_X``, y ``SIDE_TOP`` to ``SIDE_BOTTOM``, above
#: the round track) reaching the board area's right edge, laid out ``SIDE_GAP`` apart at
#: their own scale (see :meth:`OdysseusScreen.side_box`).
SIDE_X, SIDE_TOP, SIDE_BOTTOM, SIDE_GAP = 896, 16, 642, 10
#: A Reward tile's step across and down, and the room above the first row of tiles (in
#: the side box the red line goes under the title, over the tiles: ``SIDE_TILES_TOP``).
TILE_STEP_X, TILE_STEP_Y, TILES_TOP, SIDE_TILES_TOP = 71, 68, 32, 50
#: The hand's box never takes the board's zoom below this (below it a Reward tile's word,
#: "card", does not fit the tile at the least text size).
LEAST_ZOOM = 0.48
#: The Destiny cards' width and the step from one to the next.
DESTINY_W, DESTINY_STEP = 86, 92
KIND_WORDS = {
    "setup": "put your first Bet Chip on one of your Destiny cards",
    "bet": "you may place a bet",
    "circe": "Circe: place or move a bet, or take a Bet Chip",
    "destiny": "you may take a Destiny action",
    "reward_destiny": "your reward: a Destiny action",
    "claim": "claim a Reward tile",
    "play": "play a card or pass",
}


#: Bet stacks on a round's space: top of the first, height, gap, and how many are drawn.
STACK_TOP, STACK_H, STACK_STEP, STACKS_SHOWN = 40, 14, 16, 4
#: Face-up special cards on the table: a row of small cards under the hand.
TABLE_Y, TABLE_H, TABLE_W = 966, 32, 170


def marker_rect(space: Any) -> tuple[float, float, float, float]:
    """The round marker: a frame just outside its round's space, so it covers neither the
    round's number nor the bet stacks and their labels."""
    return space.x - 5, space.y - 5, space.width + 10, space.height + 10


def stack_offset(i: int) -> tuple[int, int]:
    """(top, height) of the ``i``-th bet stack on a round's space, relative to its top."""
    return STACK_TOP + i * STACK_STEP, STACK_H


def sprite(name: str, size: int) -> pygame.Surface:
    return art(ART / f"{name}.png", size)


@lru_cache(maxsize=2048)
def rendered(text: str, size: int, colour_: tuple[int, ...], bold: bool) -> pygame.Surface:
    """One line of text, rendered once (the board redraws every frame)."""
    return font(size, bold).render(text, True, colour_)


def short_title(tile: str) -> str:
    """'Laestrygonians' for 'Isle of the Laestrygonians', and so on."""
    return short_place(tile)


def tile_words(tile: int) -> tuple[str, str]:
    """A Reward tile's reward in two short lines ('+2', 'chips')."""
    r = REWARDS[tile]
    n = r["amount"]
    return {"vp": (str(n), "VP"), "draw": (f"+{n}", "cards" if n > 1 else "card"),
            "chip": (f"+{n}", "chips" if n > 1 else "chip"),
            "destiny": (f"{n}x", "Destiny")}[r["kind"]]


def cards_named(cards: list[str], short: bool = False) -> str:
    """The cards' names in a list; ``short``: a special card without its deck.

    >>> cards_named(["help-03", "help-24"]), cards_named(["help-24"], short=True)
    ('Help 1, Draw 2 (Help deck)', 'Draw 2')
    """
    return ", ".join(SPECIAL_NAMES[CARDS[c]["special"]] if short and CARDS[c]["special"]
                     else card_text(c) for c in cards)


def cards_counted(count: int) -> str:
    """'1 card', '3 cards' (the whole list is in the log)."""
    return f"{count} card{'s' if count != 1 else ''}"


def cards_played(count: int) -> str:
    """'1 card played', '3 cards played', 'no card played'."""
    if not count:
        return "no card played"
    return f"{count} card{'s' if count != 1 else ''} played"


def lost_preview(crew: int, red: int) -> str:
    """What losing the adventure would cost, for the Reward box.

    >>> lost_preview(14, 5), lost_preview(3, 6)
    ('if lost: crew 14 -> 9', 'if lost: crew 3 -> 0 (Dead)')
    """
    after = max(0, crew - red)
    return f"if lost: crew {crew} -> {after}" + (" (Dead)" if after == 0 else "")


def colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def deck_colour(card: str) -> tuple[int, int, int]:
    return HELP_BLUE if CARDS[card]["deck"] == "help" else HINDER_RED


class OdysseusScreen(GameScreen):
    """Draws and drives one Odysseus match."""

    STEP_EVENTS = frozenset({"reveal", "olympus", "modifier", "totals", "sail"})
    RULES_SECTIONS = {"setup": "Setup", "over": "End of the game"}

    def rules_section(self, view: dict[str, Any]) -> str | None:
        # Encounter, adventure and journey are parts of "A round".
        return self.RULES_SECTIONS.get(str(view.get("step")), "A round")
    QUIET_EVENTS = frozenset({"play", "played", "draw", "drew", "skip", "destiny", "pass",
                              "chip", "score", "phase", "order", "reshuffle", "move_bet",
                              "claim", "bet", "top", "payout", "destiny_reveal", "winner"})

    def __init__(self, scene: Any) -> None:
        super().__init__(scene)
        self.track = self.board.track
        self.ship: str = "troy"
        self.up_shown: dict[str, bool] = {}
        self.round_shown = 1
        self.crew_shown = 0
        self.overlay: dict[str, Any] | None = None
        self._cache: dict[str, Any] = {}
        #: Where the letters of the last ``_text`` went (screen pixels), to pack a line under.
        self.last_ink = pygame.Rect(0, 0, 0, 0)
        #: The table's public counters as of the event being animated (see :meth:`shown`).
        self.tally: dict[str, Any] | None = None
        self._shown: tuple[Any, ...] = (None, None, None)
        #: What the viewer's own last action showed them (drawn cards, their Destiny cards
        #: after the blind chip), marked in their hand until they act again or leave.
        self.fresh: dict[str, Any] | None = None
        #: The seats at the table (the score strip's rows), kept for its sizes.
        self._seats = len(self.table.seats)

    # display state -----------------------------------------------------------------
    def reset(self, view: dict[str, Any]) -> None:
        self.tweens.clear()
        self.ship = view["position"]
        self.up_shown = {name: info["up"] for name, info in view["spaces"].items()}
        self.round_shown = view["round"]
        self.crew_shown = view["crew"]
        self.overlay = None
        self.flash.clear()
        self.tally = view.get("tally")

    def shown(self, view: dict[str, Any]) -> dict[str, Any]:
        """The view as of the animation: while events wait to be shown, the public counters
        (points, chips, supply, decks, the last Olympus card, bets, the adventure on the
        table) are those the last event started carried, so no panel shows an outcome
        before the board reaches it; once every event has started, the live view."""
        queue = getattr(self.scene, "queue", None)
        if not queue or self.tally is None:
            self.tally = view.get("tally")
            return view
        if self._shown[0] is view and self._shown[1] is self.tally:
            return self._shown[2]
        t = self.tally
        seats = [dict(s, vp=t["vp"][i], chips=t["chips"][i], hand_size=t["hand"][i],
                      destiny_chips=list(t["destiny_chips"][i]))
                 for i, s in enumerate(view["seats"])]
        adv, live = t["adventure"], view["adventure"]
        if adv is not None:
            same = live is not None and (live["number"], live["rewards"], live["encounter"]) \
                == (adv["number"], adv["rewards"], adv["encounter"])
            mine = live["mine"] if same else ([] if view["viewer"] is not None else None)
            adv = dict(adv, mine=mine, my_type=live["my_type"] if same else None, turn=None)
        out = dict(view, seats=seats, supply=t["supply"], decks=t["decks"],
                   discards=t["discards"], olympus=dict(view["olympus"], **t["olympus"]),
                   bets=t["bets"], order=t["order"], adventure=adv, step=t["step"],
                   decision=None, to_act=[], result=None)
        self._shown = (view, t, out)
        return out

    def space_point(self, space: str) -> tuple[float, float]:
        return self.track.space(space).center

    def animate(self, event: dict[str, Any], view: dict[str, Any]) -> float:
        kind = event["type"]
        if "tally" in event:
            self.tally = event["tally"]
        if kind in ("drew", "looked") and audience(event) == [view["viewer"]]:
            fresh = self.fresh_for(view)
            cards = (fresh["cards"] if fresh else []) + list(event.get("cards", [])
                                                           if kind == "drew" else [])
            self.fresh = {"seat": view["viewer"], "actions": self._acted(view["viewer"]),
                          "cards": cards, "looked": kind == "looked" or bool(
                              fresh and fresh["looked"])}
            return 0.8
        if kind == "sail":
            start = self.tweens["ship"].point if "ship" in self.tweens else \
                self.space_point(event["origin"])
            self.tweens["ship"] = Tween(start, self.space_point(event["target"]), 0.9, hop=30)
            self.ship = event["target"]
            if "left" in event:  # a journey turns the tile it leaves face down
                self.up_shown[event["left"]] = False
            self.overlay = None
            return 1.0
        if kind == "round":
            self.round_shown = event["round"]
            self.flash["round"] = 0.8
            return 0.5
        if kind == "crew":
            self.crew_shown = event["crew"]
            self.flash["crew"] = 0.8
            return 0.5
        if kind == "encounter":
            self.overlay = None
            self.flash["ship"] = 1.0
            return 0.9
        if kind == "resolve":
            self.overlay = {"help": 0, "hinder": 0, "shown_help": 0.0, "shown_hinder": 0.0,
                            "cards": [], "olympus": None, "mods": [], "outcome": None}
            return 0.6
        if kind == "reveal" and self.overlay is not None:
            self.overlay["cards"].append(event)
            self.overlay["help"], self.overlay["hinder"] = event["help"], event["hinder"]
            return 0.7
        if kind == "olympus":
            if self.overlay is not None and not event.get("wander"):
                self.overlay["olympus"] = event
                self.overlay["help"], self.overlay["hinder"] = event["help"], event["hinder"]
            else:
                self.overlay = {"wander": event}
            return 1.0
        if kind == "modifier" and self.overlay is not None:
            self.overlay["mods"].append(event)
            self.overlay["help"], self.overlay["hinder"] = event["help"], event["hinder"]
            return 0.7
        if kind == "totals" and self.overlay is not None:
            self.overlay["help"], self.overlay["hinder"] = event["help"], event["hinder"]
            self.overlay["outcome"] = event["outcome"]
            return 1.6
        if kind == "rewards":
            self.overlay = None
            self.flash["rewards"] = 0.8
            return 0.6
        if kind == "over":
            self.overlay = None
            return 1.0
        if kind in ("bet", "claim", "pass", "special", "top"):
            return 0.35
        return 0.12

    def finish(self) -> None:
        super().finish()
        if self.overlay and "shown_help" in self.overlay:
            self.overlay["shown_help"] = float(self.overlay["help"])
            self.overlay["shown_hinder"] = float(self.overlay["hinder"])

    def update(self, dt: float) -> bool:
        moving = super().update(dt)
        o = self.overlay
        if o and "shown_help" in o:  # the two totals grow toward their values
            for side in ("help", "hinder"):
                shown, target = o[f"shown_{side}"], o[side]
                if shown != target:
                    step = max(dt * 8, abs(target - shown) * dt * 6)
                    o[f"shown_{side}"] = min(target, shown + step) if target > shown \
                        else max(target, shown - step)
                    moving = True
        return moving or bool(self.flash)

    # geometry and cells ----------------------------------------------------------------
    def _cached(self, name: str, view: dict[str, Any], make: Any) -> Any:
        """``make()`` computed once per view (viewer and number of actions)."""
        key = (view["viewer"], self.table.step, id(view))
        if self._cache.get("key") != key:
            self._cache = {"key": key}
        cache = self._cache
        if name in cache:
            return cache[name]
        value = make()
        # ``make`` may have asked about another view (the live one, while an animation
        # shows an older table), which replaced the cache: never file this value there.
        if self._cache is cache:
            cache[name] = value
        return value

    def hand_layout(self, view: dict[str, Any]) -> dict[str, pygame.Rect]:
        """Rectangles of the viewer's hand cards and Destiny cards (in the hand's units:
        map pixels, or at a larger interface those of :meth:`hand_transform`) and of the
        Reward tiles (map pixels)."""
        area = self.hand_area()
        side = self.side_areas()["rewards"]
        return self._cached(("layout", area, side), view,
                            lambda: self._hand_layout(view, area))

    def _hand_layout(self, view: dict[str, Any], area) -> dict[str, pygame.Rect]:
        out: dict[str, pygame.Rect] = {}
        viewer = view["viewer"]
        if viewer is not None:
            me = view["seats"][viewer]
            hand = me["hand"] or []
            destiny_x = self.destiny_x(area)
            room = destiny_x - 60
            gap = min(CARD_W + 8, (room - CARD_W) / max(1, len(hand) - 1)) if hand else 0
            for i, card in enumerate(hand):
                out[f"card:{card}"] = pygame.Rect(round(36 + i * gap), self.cards_y(),
                                                  CARD_W, CARD_H)
            for slot in range(3):
                out[f"destiny:{slot}"] = pygame.Rect(destiny_x + slot * DESTINY_STEP,
                                                      self.cards_y(), DESTINY_W, CARD_H)
        adv = view["adventure"]
        if adv is not None:
            rx, ry, rw, _ = self.side_areas()["rewards"]
            per_row = self.tiles_per_row(rw)
            top = TILES_TOP if self.side_box() is None else SIDE_TILES_TOP
            for i, tile in enumerate(adv["rewards"]):
                x = rx + 12 + (i % per_row) * TILE_STEP_X
                y = ry + top + (i // per_row) * TILE_STEP_Y
                out[f"reward:{tile}"] = pygame.Rect(x, y, 64, 62)
        return out

    def cards_y(self) -> int:
        """The hand's cards' top (in the hand's units; see ``HAND_SHIFT``)."""
        return 852 - (HAND_SHIFT if self.hand_window() else 0)

    @staticmethod
    def tiles_per_row(width: float) -> int:
        """How many Reward tiles a row of the Reward box ``width`` wide holds (5 on the
        map)."""
        return max(1, int((width - 24 + TILE_STEP_X - 64) // TILE_STEP_X))

    def side_box(self) -> tuple[pygame.Rect, Any, float] | None:
        """At a larger interface (:meth:`hand_window`), the Supply's and Reward tiles' box
        in window pixels -- over the map's right column, from its left edge to the board
        area's right edge, above the round track -- the transform that puts their layout
        into it, and the layout's width (in its units); else None.  Their scale is the
        hand's (:meth:`hand_target`) as far as the box holds the two boxes' words (a row
        of tiles at least 250 units wide) and the tiles in rows; never below the board's."""
        if not self.hand_window():
            return None
        from game.board.render import ViewTransform
        area, board = self.scene.board_rect(), self.scene.transform()
        left, top = board.to_screen(SIDE_X, SIDE_TOP)
        bottom = board.to_screen(0, SIDE_BOTTOM)[1]
        box = pygame.Rect(round(left), round(top), area.right - 6 - round(left),
                          round(bottom - top))
        tiles = len((self.scene.view()["adventure"] or {}).get("rewards", ())) or 5
        factor = self.hand_target()
        while factor > board.scale:
            width = box.width / factor
            rows = -(-tiles // self.tiles_per_row(width))
            tall = AREA["supply"][3] + SIDE_GAP + SIDE_TILES_TOP + rows * TILE_STEP_Y + 6
            if width >= 250 and tall * factor <= box.height:
                break
            factor = max(board.scale, factor - 0.02)
        return box, ViewTransform(factor, box.x - SIDE_X * factor,
                                  box.y - SIDE_TOP * factor), box.width / factor

    def side_areas(self) -> dict[str, tuple[float, float, float, float]]:
        """The Supply's and the Reward tiles' boxes: the map's, or at a larger interface
        the side box's two (in its units, see :meth:`side_box`)."""
        placed = self.side_box()
        if placed is None:
            return {"supply": AREA["supply"], "rewards": AREA["rewards"]}
        box, side, width = placed
        supply = (SIDE_X, SIDE_TOP, width, AREA["supply"][3])
        rewards_y = SIDE_TOP + supply[3] + SIDE_GAP
        return {"supply": supply,
                "rewards": (SIDE_X, rewards_y, width, box.height / side.scale
                            - supply[3] - SIDE_GAP)}

    @staticmethod
    def destiny_x(area: tuple[float, float, float, float]) -> int:
        """Where the Destiny cards start in a hand area (``DESTINY_X`` in the map's)."""
        x, _, w, _ = area
        return round(x + w - (AREA["hand"][0] + AREA["hand"][2] - DESTINY_X))

    def hand_window(self) -> bool:
        """Whether the hand is laid out in window pixels (with the score strip: at a larger
        interface, the board at zoom 1), so that it grows with the interface rather than
        following the board's zoom."""
        return self.score_strip()

    def hand_target(self) -> float:
        """The hand's scale (screen pixels per map pixel) at a larger interface: the
        board's zoom in this window at 100% (a wider panel shrinks it), times the size."""
        from game.ui.scenes.play import PANEL_WIDTH
        area = self.scene.board_rect()
        wide = area.inflate(px(PANEL_WIDTH) - PANEL_WIDTH, 0)
        return scale() * self.renderer.fit(wide).scale

    def hand_box(self) -> tuple[pygame.Rect, Any] | None:
        """At a larger interface (:meth:`hand_window`), the hand's box in window pixels --
        from under the round track to the score strip, across the board's area, over the
        map's own hand area -- and the transform that puts the hand's map layout into it
        (as large as :meth:`hand_target` or as the box holds); else None."""
        if not self.hand_window():
            return None
        from game.board.render import ViewTransform
        area = self.scene.board_rect()
        board = self.scene.transform()
        factor, wanted = self.foot_sizes()
        top = max(area.y, round(board.to_screen(0, HAND_TOP)[1]))
        bottom = area.bottom - self._strip_height(factor) - 6 - 6
        box = pygame.Rect(area.x + 6, top, area.width - 12, max(1, bottom - top))
        hand_x = AREA["hand"][0]
        # As large as wanted, as the box's height holds, and wide enough for a card and the
        # three Destiny cards.
        least_w = AREA["hand"][0] + AREA["hand"][2] - DESTINY_X + 36 + CARD_W + 40
        hs = max(0.05, min(wanted, box.height / HAND_H, box.width / least_w))
        return box, ViewTransform(hs, box.x - hand_x * hs, box.y - HAND_Y * hs)

    def hand_transform(self, transform: Any) -> Any:
        """The transform of the hand's cards: the board's, or at a larger interface the
        hand box's (see :meth:`hand_box`)."""
        placed = self.hand_box()
        return transform if placed is None else placed[1]

    def hand_area(self) -> tuple[float, float, float, float]:
        """The hand area in the hand's units (x, y, width, height): the map's, or at a larger
        interface as wide as the hand box."""
        placed = self.hand_box()
        if placed is None:
            return AREA["hand"]
        box, ht = placed
        x, y, _, h = AREA["hand"]
        return x, y, round(box.width / ht.scale) - 2, h

    @staticmethod
    def in_hand(cell: Any) -> bool:
        return isinstance(cell, str) and cell.startswith(("card:", "destiny:"))

    def own_transform(self, cell: Any, board: Any) -> Any:
        """The transform ``cell``'s rectangle in :meth:`hand_layout` is in: the board's,
        or at a larger interface the hand box's (hand and Destiny cards) or the side box's
        (Reward tiles)."""
        if self.in_hand(cell):
            return self.hand_transform(board)
        if isinstance(cell, str) and cell.startswith("reward:"):
            placed = self.side_box()
            return board if placed is None else placed[1]
        return board

    def cells(self) -> list[Any]:
        view = self.scene.view()
        sea = [n for n, s in self.track.spaces.items()
               if s.properties.get("kind") in ("troy", "sea", "ithaca", "round")]
        return sea + list(self.hand_layout(view))

    def cell_center(self, cell: Any) -> tuple[float, float]:
        if isinstance(cell, str) and ":" in cell:
            rect = self.hand_layout(self.scene.view()).get(cell)
            if rect is None:
                return (640.0, 900.0)
            board = self.scene.transform()
            own = self.own_transform(cell, board)
            if own is not board:  # the hand's units -> the window -> the board's map
                return board.to_map(*own.to_screen(rect.centerx, rect.centery))
            return float(rect.centerx), float(rect.centery)
        return self.space_point(cell)

    def cell_at(self, point: tuple[float, float]) -> Any:
        view = self.scene.view()
        board = self.scene.transform()
        screen = board.to_screen(*point)
        # Each card or tile in its own units (the board's map -> the window -> a box's).
        hits = [c for c, r in self.hand_layout(view).items()
                if r.collidepoint(self.own_transform(c, board).to_map(*screen))]
        if not hits and any(placed is not None and placed[0].collidepoint(screen)
                            for placed in (self.hand_box(), self.side_box())):
            return None  # a box in window pixels, between its cards: nothing there
        if hits:
            return hits[-1]  # the topmost (hand cards overlap to the right)
        space = self.track.space_at(*point)
        if space is None or space.properties.get("kind") == "area":
            return None
        return space.name

    def outline(self, surface, transform, cell, colour_, width) -> pygame.Rect | None:
        rect = self._screen_rect(transform, cell)
        if rect is None:
            if isinstance(cell, str) and ":" in cell:
                return None  # a card that has left the hand: nothing to mark (no stray ring)
            return super().outline(surface, transform, cell, colour_, width)
        return pygame.draw.rect(surface, colour_, rect.inflate(6, 6), width, border_radius=8)

    def _screen_rect(self, transform, cell) -> pygame.Rect | None:
        if isinstance(cell, str) and ":" in cell:
            rect = self.hand_layout(self.scene.view()).get(cell)
            transform = self.own_transform(cell, transform)
        elif isinstance(cell, str) and cell in self.track.spaces:
            s = self.track.space(cell)
            rect = pygame.Rect(round(s.x), round(s.y), round(s.width), round(s.height))
        else:
            rect = None
        if rect is None:
            return None
        x, y = transform.to_screen(rect.x, rect.y)
        return pygame.Rect(round(x), round(y), round(rect.width * transform.scale),
                           round(rect.height * transform.scale))

    # actions ------------------------------------------------------------------------------
    def my_decision(self, view: dict[str, Any]) -> dict[str, Any] | None:
        d = view["decision"]
        if d is None or view["viewer"] is None or d["seat"] != view["viewer"]:
            return None
        return d

    def legal(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        if self.my_decision(view) is None:
            return []
        return self._cached("legal", view, lambda: self.table.legal_actions(view["viewer"]))

    def click_cell(self, cell: Any, view: dict[str, Any]) -> None:
        action = self.action_for(cell, view)
        if action is not None:
            self.act(action)

    def action_for(self, cell: Any, view: dict[str, Any]) -> dict[str, Any] | None:
        legal = self.legal(view)
        if not legal:
            return None
        wanted = self.cell_action(cell, view)
        return wanted if wanted in legal else None

    def event_cells(self, event: dict[str, Any], view: dict[str, Any]) -> set[Any]:
        """Where the ship sailed, and the round space the Round marker reached."""
        out = super().event_cells(event, view)
        if event.get("type") == "round" and isinstance(event.get("round"), int):
            out.add(f"round-{event['round']}")
        return out & set(self.cells())

    def alike(self, action: dict[str, Any], other: dict[str, Any],
              view: dict[str, Any]) -> bool:
        """Two copies of one card (same deck, number and special) are the same play."""
        if action == other:
            return True
        if action.get("type") != "play" or other.get("type") != "play" or set(action) != set(
                other) or action["card"] not in CARDS or other["card"] not in CARDS:
            return False
        one, two = CARDS[action["card"]], CARDS[other["card"]]
        return all(one[k] == two[k] for k in ("deck", "value", "special"))

    def cell_action(self, cell: Any, view: dict[str, Any]) -> dict[str, Any] | None:
        """What a click on ``cell`` would ask for, legal or not ("why not?", hints)."""
        if not isinstance(cell, str) or view["viewer"] is None:
            return None
        legal = self.legal(view)
        if cell.startswith("card:"):
            wanted = {"type": "play", "card": cell[5:]}
        elif cell.startswith("destiny:"):
            slot = int(cell[8:])
            wanted = {"type": "destiny", "slot": slot}
            if wanted not in legal:
                wanted = {"type": "bet", "destiny": slot}
        elif cell.startswith("reward:"):
            wanted = {"type": "claim", "tile": int(cell[7:])}
        elif cell.startswith("round-"):
            wanted = {"type": "bet", "round": int(cell[6:])}
        else:
            return None
        return wanted

    def place_name(self, value: Any) -> str:
        """A reward tile by what the board prints on it ('the "+2 chips" reward tile')."""
        if isinstance(value, str) and value.startswith("reward:"):
            big, small = tile_words(int(value[7:]))
            return f'the "{big} {small}" reward tile'
        return super().place_name(value)

    def highlighted(self, view: dict[str, Any]) -> set[Any]:
        return self._cached("highlighted", view, lambda: {
            c for c in self.cells() if self.action_for(c, view) is not None})

    # panel -----------------------------------------------------------------------------
    def panel_text(self, view: dict[str, Any]) -> list[str]:
        viewer = view["viewer"]
        if view["result"] is not None:
            r = view["result"]
            return [f"The voyage is over: {r['ending_title']} (round {r['round']}). "
                    f"Every Destiny card is now shown."]
        d = view["decision"]
        if viewer is None:
            return ["Waiting for the next player."]
        me = view["seats"][viewer]
        lines = []
        if me["destiny"]:
            fates = ", ".join(f"{DESTINIES[f]} {c}" for f, c in zip(me["destiny"],
                                                                    me["destiny_chips"]))
            lines.append(f"Your Destiny chips: {fates}.")
        else:
            lines.append("Your three Destiny cards lie face down: you see them once your "
                         "first Bet Chip is on one of them.")
        mine = self.my_decision(view)
        if mine is None:
            if d is not None:
                lines.append(f"Waiting for {view['seats'][d['seat']]['name']}.")
            return lines
        kind = mine["kind"]
        if kind == "draw":
            lines.append(f"Draw {mine['count']}: choose how many come from the Help deck "
                         f"(the rest from Hinder).")
        elif kind == "play":
            adv = view["adventure"]
            t = adv["my_type"]
            side = (f"You play {'Help' if t == 'help' else 'Hinder'} in this adventure."
                    if t else "Your first numbered card fixes Help or Hinder for you.")
            lines.append(f"Play a card (click it in your hand) or pass. {side}")
        else:
            lines.append(KIND_WORDS[kind][0].upper() + KIND_WORDS[kind][1:] + ".")
        return lines

    def build_panel(self, rect: pygame.Rect, view: dict[str, Any]) -> int:
        controls = self.scene.controls
        mine = self.my_decision(view)
        if mine is None:
            return 0
        legal = self.legal(view)
        kind = mine["kind"]
        me = view["seats"][view["viewer"]]
        y = rect.y

        def row_of(buttons: list[tuple[str, dict[str, Any], str | None]], per_row: int,
                   height: int = 32) -> None:
            nonlocal y
            width = (rect.width - 6 * (per_row - 1)) // per_row
            for i, (label, action, tip) in enumerate(buttons):
                x = rect.x + (i % per_row) * (width + 6)
                yy = y + (i // per_row) * (px(height) + 4)
                controls.button((x, yy, width, px(height)), label,
                                lambda a=action: self.act(a), tooltip=tip)
            if buttons:
                y += ((len(buttons) + per_row - 1) // per_row) * (px(height) + 4)

        fates = me["destiny"] or [None, None, None]
        if kind in ("setup", "destiny", "reward_destiny"):
            row_of([(DESTINIES[fates[s]] if fates[s] else f"Card {s + 1}",
                     {"type": "destiny", "slot": s},
                     f"Put a Bet Chip on your Destiny card {s + 1}") for s in range(3)], 3, 36)
        if kind in ("bet", "circe"):
            rounds = [a for a in legal if a["type"] == "bet" and "round" in a]
            if rounds:
                controls.label((rect.x, y, rect.width, px(22)), "Bet on a round (stack size):")
                y += px(24)
                row_of([(f"{a['round']} ({1 + a['round'] - view['round']})", a,
                         f"1 chip + {a['round'] - view['round']} from the supply")
                        for a in rounds], 6, 28)
            cards = [a for a in legal if a["type"] == "bet" and "destiny" in a]
            if cards:
                row_of([(f"On {SHORT_FATES.get(fates[a['destiny']], '?')}", a,
                         "1 chip + 2 from the supply on this Destiny card") for a in cards], 3)
            moves = [a for a in legal if a["type"] == "move_bet"]
            row_of([(f"Move bet {self._bet_round(view, a['bet'])} to {a['to']}", a, None)
                    for a in moves], 2, 28)
            extra = [("Take 1 Bet Chip", a, None) for a in legal if a["type"] == "take_chip"]
            row_of(extra, 1)
        if kind == "draw":
            n = mine["count"]
            row_of([(f"{k} Help + {n - k} Hinder", {"type": "draw", "help": k}, None)
                    for k in range(n + 1)], 2)
        if kind == "claim":
            words = {a["tile"]: reward_text(a["tile"]) for a in legal}
            row_of([(f"{words[a['tile']][0].upper()}{words[a['tile']][1:]} "
                     f"(red {REWARDS[a['tile']]['red']})", a,
                     "Red number: crew lost if the adventure fails") for a in legal], 2)
        if kind == "play":
            plays: dict[str, dict[str, Any]] = {}
            counts: dict[str, int] = {}
            for a in legal:
                if a["type"] == "play":
                    info = CARDS[a["card"]]
                    label = SPECIAL_NAMES[info["special"]] if info["special"] \
                        else card_text(a["card"])
                    plays.setdefault(label, a)
                    counts[label] = counts.get(label, 0) + 1
            order = sorted(plays, key=lambda t: (CARDS[plays[t]["card"]]["special"] is not None,
                                                 t))
            row_of([(f"Play {t}" + (f" (x{counts[t]})" if counts[t] > 1 else ""), plays[t],
                     "Face up: counts -2 for you" if CARDS[plays[t]["card"]]["special"]
                     else "Face down") for t in order], 2, 30)
            controls.button((rect.x, y, rect.width, px(36)), "Pass", lambda: self.act(
                {"type": "pass"}), object_id="#primary",
                tooltip="Take the highest free Turn Order tile and its reward")
            y += px(40)
        if {"type": "skip"} in legal:
            label = {"bet": "No bet", "circe": "Do nothing", "destiny": "No Destiny action"}[kind]
            controls.button((rect.x, y, rect.width, px(32)), label, lambda: self.act(
                {"type": "skip"}))
            y += px(36)
        return y - rect.y

    @staticmethod
    def _bet_round(view: dict[str, Any], bet_id: int) -> int:
        return next(b["round"] for b in view["bets"] if b["id"] == bet_id)

    def hover_text(self, cell: Any, view: dict[str, Any]) -> str | None:
        if not isinstance(cell, str):
            return None
        if cell.startswith("card:"):
            card = cell[5:]
            special = CARDS[card]["special"]
            more = "\nPlayed face up; counts -2 for you." if special else "\nPlayed face down."
            return card_text(card) + more
        if cell.startswith("destiny:"):
            slot = int(cell[8:])
            me = view["seats"][view["viewer"]]
            fate = DESTINIES[me["destiny"][slot]] if me["destiny"] else "face down, not seen yet"
            return (f"Your Destiny card {slot + 1}: {fate}, "
                    f"{me['destiny_chips'][slot]} Bet Chips on it.")
        if cell.startswith("reward:"):
            tile = int(cell[7:])
            owner = view["adventure"]["claimed"].get(tile)
            who = f"\nClaimed by {view['seats'][owner]['name']}." if owner is not None else ""
            return (f"Reward tile: {reward_text(tile)}.\nRed number {REWARDS[tile]['red']}: "
                    f"crew lost if the adventure fails.{who}")
        if cell.startswith("round-"):
            r = int(cell[6:])
            bets = [b for b in view["bets"] if b["round"] == r]
            lines = [f"Round {r}" + (" (now)" if r == view["round"] else "")]
            lines += [f"{view['seats'][b['seat']]['name']}: a bet of {b['stack']} chips, "
                      f"paying {bet_payout(b['stack'], r, self.round_shown)} if the voyage "
                      f"ended now" for b in bets]
            return "\n".join(lines)
        info = view["spaces"].get(cell)
        if info is None:
            return None
        if cell == "ithaca":
            name = "ithaca"
        elif info["up"]:
            name = info["tile"] or "troy"
        else:
            was = info["was"]
            return "A face-down tile" + (f" (was {ENCOUNTERS[was]['title']})" if was else "") \
                + ".\nArriving here Odysseus wanders: the Olympus card picks his path."
        e = ENCOUNTERS[name]
        here = "\nOdysseus is here." if cell == view["position"] else ""
        return f"{e['title']}\n{e['text']}{here}"

    # drawing ------------------------------------------------------------------------------
    def draw_pieces(self, surface: pygame.Surface, transform: Any, view: dict[str, Any]) -> None:
        self.t = transform
        view = self.shown(view)
        self._draw_spaces(surface, view)
        self._draw_ship(surface, view)
        self._draw_round_track(surface, view)
        self._draw_scoreboard(surface, view)
        self._draw_side(surface, view)
        self._draw_hand(surface, view)
        for cell in self.highlighted(view):
            if cell.startswith("card:"):
                continue  # drawn with each card, under the next one (see _draw_card)
            rect = self._screen_rect(transform, cell)
            if rect is not None:
                draw_highlight(surface, "choose", rect_points(rect.inflate(4, 4)), 3,
                               badge_radius=max(7, self.px(8)))
        if self.overlay:
            self._draw_overlay(surface, view)

    def px(self, size: float) -> int:
        """A map font size in screen pixels: scaled with the board, never below
        :data:`MIN_PX` so that a small window stays readable."""
        return max(self.min_px(), round(size * self.t.scale))

    def min_px(self) -> int:
        """The least size of board text in this window."""
        return RULE_PX if self.t.scale >= BIG_SCALE else MIN_PX

    def floor_px(self) -> int:
        """The least size text shrunk to fit its box may take in this window."""
        return RULE_PX if self.t.scale >= BIG_SCALE else FLOOR_PX

    def at(self, x: float, y: float) -> tuple[float, float]:
        return self.t.to_screen(x, y)

    def _text(self, surface, text, x, y, size, colour_=INK, bold=False, anchor="topleft",
              shadow=False, width: float | None = None, least: int | None = None,
              shorter: tuple[str, ...] = (), ink_top: float | None = None) -> pygame.Rect:
        """One line at map point (x, y); ``width`` (map units): shrink the font to fit it
        (down to the window's floor size, then in regular weight), else say it in the
        first of the ``shorter`` wordings that fits; ``least``: the smallest size in pixels
        (for a minor line under another); ``ink_top`` (screen y): put the letters' top
        there instead (a line packed right under another).  Only text that fits in no way
        loses its end."""
        least = max(self.floor_px(), self.min_px() if least is None else least)
        px = max(least, round(size * self.t.scale))
        image = rendered(text, px, tuple(colour_), bold)
        if width is not None:
            room = width * self.t.scale
            for wording in (text, *shorter):
                text, px, weight = wording, max(least, round(size * self.t.scale)), bold
                image = rendered(text, px, tuple(colour_), weight)
                while image.get_width() > room and px > self.floor_px():
                    px -= 1
                    image = rendered(text, px, tuple(colour_), weight)
                if image.get_width() > room and weight:
                    weight = False
                    image = rendered(text, px, tuple(colour_), weight)
                if image.get_width() <= room:
                    break
            bold = weight
            while image.get_width() > room and len(text) > 2:  # still too wide: shorten
                text = text[:-2].rstrip(" ,/(") + "\u2026"
                image = rendered(text, px, tuple(colour_), bold)
        sx, sy = self.at(x, y)
        rect = image.get_rect(**{anchor: (round(sx), round(sy))})
        if ink_top is not None:
            rect.y = round(ink_top) - image.get_bounding_rect().y
        self.last_ink = image.get_bounding_rect().move(rect.topleft)
        if shadow:
            surface.blit(rendered(text, px, (0, 0, 0), bold), rect.move(1, 2))
        surface.blit(image, rect)
        return rect

    def _rect(self, x, y, w, h) -> pygame.Rect:
        sx, sy = self.at(x, y)
        return pygame.Rect(round(sx), round(sy), max(1, round(w * self.t.scale)),
                           max(1, round(h * self.t.scale)))

    def _draw_spaces(self, surface, view) -> None:
        size = max(20, round(78 * self.t.scale))
        for name, info in view["spaces"].items():
            cx, cy = self.space_point(name)
            x, y = self.at(cx, cy - 6)
            up = self.up_shown.get(name, info["up"])
            tile = info["tile"] if info["up"] else info["was"]
            if name in ("troy", "ithaca") and up:
                label = "Troy" if name == "troy" else "Ithaca"
            elif up and tile:
                image = sprite(f"tile_{tile}", size)
                surface.blit(image, image.get_rect(center=(round(x), round(y))))
                label = short_title(tile)
            else:
                image = sprite("tile_down", size)
                surface.blit(image, image.get_rect(center=(round(x), round(y))))
                label = "face down"
            self._text(surface, label, cx, cy + 36, 17, (255, 250, 235), bold=True,
                       anchor="midtop", shadow=True)

    def _draw_ship(self, surface, view) -> None:
        point = self.tweens["ship"].point if "ship" in self.tweens else \
            self.space_point(self.ship)
        x, y = self.at(point[0] + 46, point[1] - 30)
        r = max(9, round(24 * self.t.scale))
        if "ship" in self.flash:
            pygame.draw.circle(surface, GOLD, (round(x), round(y)), r + 6, 3)
        pygame.draw.circle(surface, (20, 20, 24), (round(x), round(y)), r)
        pygame.draw.circle(surface, (230, 230, 230), (round(x), round(y)), r, 2)
        draw_text(surface, "O", (x, y), max(self.min_px(), r), (240, 240, 240), bold=True,
                  anchor="center")

    def stack_labels(self) -> bool:
        """Whether the bet stacks' labels fit on them without running into each other (in a
        smaller window the round's tooltip gives them)."""
        return rendered("12 -> 0", self.floor_px(), (255, 255, 255), True).get_height() \
            <= STACK_STEP * self.t.scale + 4

    def _draw_round_track(self, surface, view) -> None:
        """Bet stacks with what each would pay if the voyage ended now, the round marker's
        ring around the round's number (above the stacks), and, when the viewer may bet,
        the stack a click on each round would place."""
        by_round: dict[int, list[dict[str, Any]]] = {}
        for b in view["bets"]:
            by_round.setdefault(b["round"], []).append(b)
        now = self.round_shown
        bettable = {a["round"] for a in self.legal(view) if a["type"] == "bet" and "round" in a}
        for r in range(1, 13):
            space = self.track.space(f"round-{r}")
            x0, y0 = space.x, space.y
            stacks = by_round.get(r, [])
            for i, b in enumerate(stacks[:STACKS_SHOWN]):
                top, height = stack_offset(i)
                rect = self._rect(x0 + 8, y0 + top, space.width - 16, height)
                pygame.draw.rect(surface, colour(b["seat"]), rect, border_radius=4)
                pygame.draw.rect(surface, (30, 20, 10), rect, 1, border_radius=4)
                draw_seat_mark(surface, b["seat"], (rect.left + rect.height / 2, rect.centery),
                               max(9, rect.height - 6))
                paid = bet_payout(b["stack"], r, now)
                label = f"{b['stack']}" if paid == b["stack"] else f"{b['stack']} -> {paid}"
                size = self.px(14)
                room = rect.width - 4 - 2 * rect.height  # clear of the seat's shape
                while size > self.floor_px() and rendered(label, size, (255, 255, 255),
                                                   True).get_width() > room:
                    size -= 1
                if rendered(label, size, (255, 255, 255), True).get_width() > room:
                    label = str(paid)  # no room for 'stack -> pay': what it would pay
                if self.stack_labels():
                    ink = ink_on(colour(b["seat"]))  # >= 4.5:1 on the seat's colour
                    draw_text(surface, label, rect.center, size, ink,
                              bold=True, anchor="center", shadow=ink == (255, 255, 255))
            if r in bettable and len(stacks) < STACKS_SHOWN:
                top, height = stack_offset(len(stacks))
                self._text(surface, f"+{bet_stack_size(view['round'], r)}", x0 + space.width / 2,
                           y0 + top, 18, (110, 60, 16), bold=True, anchor="midtop",
                           width=space.width - 16)
            if r == now:  # the round marker: a frame around the round's whole space
                frame = self._rect(*marker_rect(space))
                pygame.draw.rect(surface, GOLD if "round" in self.flash else (20, 20, 24),
                                 frame, max(2, round(5 * self.t.scale)), border_radius=10)
        first = self.track.space("round-1")
        parts = []
        if bettable:
            parts.append("Click a round to place a bet there (+N: the stack it would make).")
        if view["bets"]:
            parts.append("Each stack shows its chips and what it would pay if the voyage "
                         "ended now." if self.stack_labels() else
                         "Hover over a round: its stacks and what each would pay now.")
        if parts and self.px(14) * 1.3 <= 24 * self.t.scale:
            # A line in the strip under the track, where it fits (in a small window the
            # '+N' marks and the tooltips say it instead).
            self._text(surface, " ".join(parts), first.x, first.y + first.height + 3, 14,
                       INK, width=1200)

    def score_strip(self) -> bool:
        """At a larger interface (and the board at zoom 1) the score board goes in window
        pixels into a strip under the board's picture, its text at the interface's size
        (in the map's own box it would follow the board's zoom, which a wider panel
        shrinks).  At 100% it stays in the map's box."""
        return scale() > 1.0 and getattr(self.scene, "zoom", 1.0) == 1.0

    def _strip_rows(self) -> tuple[int, int, int]:
        """The strip's header height, row height and whole height (window pixels; call
        within ``interface_size``)."""
        head, row = px(24), max(px(26), font(17, True).get_linesize() + 2)
        return head, row, px(8) + head + self._seats * row + px(6)

    def foot_sizes(self) -> tuple[float, float]:
        """At a larger interface, the score strip's scale and the hand's (screen pixels per
        map pixel): both the interface's (see :meth:`hand_target`) where the board's area
        holds them above the map's hand area with the board giving up at most a quarter
        of its zoom; else the strip shrinks first (by ``STRIP_GIVES`` of the scale at most,
        or to 100% if the hand would be smaller than at 100%), then the hand gets what room
        is left."""
        area, bounds = self.scene.board_rect(), self.renderer.bounds
        least = self.least_zoom(area)
        room = area.height - (HAND_TOP - bounds.y) * least - 18
        full, target = scale(), self.hand_target()
        floor = max(1.0, full - STRIP_GIVES)
        factor = full
        while factor > floor and self._strip_height(factor) + HAND_H * target > room:
            factor = max(floor, factor - 0.05)
        # Never a hand smaller than at 100% while the strip could still give (to 100%).
        while factor > 1.0 and self._strip_height(factor) + HAND_H * target / full > room:
            factor = max(1.0, factor - 0.05)
        return factor, max(0.05, min(target, (room - self._strip_height(factor)) / HAND_H))

    def least_zoom(self, area: pygame.Rect) -> float:
        """The least zoom the boxes under the board take it to: a quarter less than it
        fits its area at (the play scene's rule), never below ``LEAST_ZOOM`` (where it
        would fit at more)."""
        from game.ui.scenes.play import BOARD_GIVES
        fit = self.renderer.fit(area).scale
        return min(fit, max(fit * BOARD_GIVES, LEAST_ZOOM))

    def _strip_height(self, factor: float) -> int:
        # (The view asked for before the size changes: asking may build the panel.)
        self._seats = len(self.scene.view()["seats"])
        with interface_size(factor):
            return self._strip_rows()[2]

    def bottom_room(self) -> int:
        """The room under the board's picture above the map's hand area (map y
        ``HAND_TOP``) that the score strip and the hand's box want (see :meth:`score_strip`,
        :meth:`foot_sizes` and :meth:`hand_box`), as room below the whole picture (they
        cover its hand area)."""
        if not self.score_strip():
            return 0
        area, bounds = self.scene.board_rect(), self.renderer.bounds
        factor, hand = self.foot_sizes()
        need = self._strip_height(factor) + 18 + HAND_H * hand
        zoom = (area.height - need) / (HAND_TOP - bounds.y)
        zoom = max(zoom, self.least_zoom(area))
        return max(0, int(area.height - bounds.height * zoom))  # (down: never past that)

    def _draw_scoreboard(self, surface, view) -> None:
        if self.score_strip():  # (the side box covers the map's score board box)
            area = self.scene.board_rect()  # (the panel's width at the interface's size)
            self._seats = len(view["seats"])
            with interface_size(self.foot_sizes()[0]):  # window pixels: it grows with
                self._draw_score_strip(surface, view, area)  # the interface (foot_sizes)
            return
        x, y, w, h = AREA["scoreboard"]
        self.status_boxes = [self._rect(x, y, w, h)]  # messages keep off the score board
        d = view["decision"]
        acting = d["seat"] if d else None
        adv = view["adventure"]
        result = view["result"]
        # The last column counts the Bet Chips on each of a player's Destiny cards 1, 2, 3:
        # a caption says so above its label.  At the end the first column becomes the total
        # score (VP + 2 per chip): say so.
        self._text(surface, "chips on Destiny", x + w - 12, y + 4, 13, INK, anchor="topright",
                   width=200, least=FLOOR_PX)
        caption = self.last_ink
        header = ("total  chips  hand  1/2/3" if result else "VP  chips  hand  1/2/3")
        self._text(surface, header, x + w - 12, y + 20, 14, INK, anchor="topright", width=236,
                   least=FLOOR_PX, ink_top=caption.bottom + 3)
        labels = (self.last_ink.bottom + 3 - self.t.offset_y) / self.t.scale
        top = max(y + SCORE_HEAD, labels)  # the rows start under the column labels
        row_h = min(52, int(y + h - 4 - top) // max(1, len(view["seats"])))
        if acting in view["order"]:  # first, so that no row's text is hidden under it
            ry = top + view["order"].index(acting) * row_h
            pygame.draw.rect(surface, (255, 240, 190), self._rect(x + 6, ry - 2, w - 12,
                                                                  row_h - 4), border_radius=6)
        for n, seat in enumerate(view["order"]):
            s = view["seats"][seat]
            ry = top + n * row_h
            dot = self.at(x + 20, ry + 16)
            draw_seat_mark(surface, seat, dot, max(11, round(20 * self.t.scale)),
                           on_piece=False)
            name = self._text(surface, f"{n + 1}. {s['name']}", x + 36, ry + 2, 17, INK,
                              bold=True, width=136)
            name_ink = self.last_ink
            status = short_status = ""
            if adv is not None and view["step"] in ("play", "claim"):
                if seat in adv["passed"]:
                    status = f"passed (tile {adv['tiles'][seat]})"
                elif adv["played_count"][seat]:
                    status = cards_played(adv["played_count"][seat])
                    short_status = f"{adv['played_count'][seat]} played"
            level = self.seat_level(seat)
            if level:  # a computer: its level first ("Hard, passed (tile 3)"), where it fits
                least = max(FLOOR_PX + 1, self.floor_px(), round(13 * self.t.scale))
                # With nothing else to say: "Hard computer", or "Hard" where that is too long.
                tries = [f"{level}, {status}"] if status else [f"{level} computer", level]
                short_status = f"{level}, {short_status}" if short_status else ""
                for line in tries:
                    if rendered(line, least, INK, False).get_width() <= 136 * self.t.scale \
                            or line == level:
                        status = line
                        break
            if status:  # under the name (in a small window, right under its letters)
                sy = max(ry + 22, (name.bottom - self.t.offset_y) / self.t.scale - 3)
                packed = self.t.scale < BIG_SCALE
                self._text(surface, status, x + 36, sy, 13, (110, 80, 50), width=136,
                           least=FLOOR_PX + 1, shorter=(short_status,) if short_status else (),
                           ink_top=name_ink.bottom + 1 if packed else None)
            chips = "/".join(str(c) for c in s["destiny_chips"])
            points = result["scores"][seat] if result else s["vp"]  # the end: final score
            self._text(surface, f"{points}", x + 208, ry + 4, 17, INK, bold=True,
                       anchor="topright")
            self._text(surface, f"{s['chips']}", x + 250, ry + 4, 17, INK, anchor="topright")
            self._text(surface, f"{s['hand_size']}", x + 292, ry + 4, 17, INK,
                       anchor="topright")
            self._text(surface, chips, x + w - 12, ry + 4, 15, INK, anchor="topright",
                       width=56)

    def _draw_score_strip(self, surface, view, area: pygame.Rect) -> None:
        """The score board as a strip along the board area's foot, under the board's
        picture: a line per seat in turn order (its mark, place and name, what it did in
        this adventure, VP, chips, hand and the chips on its Destiny cards)."""
        head, row_h, height = self._strip_rows()
        box = pygame.Rect(area.x + 6, area.bottom - height - 6, area.width - 12, height)
        self.status_boxes = [box]  # messages keep off the strip
        shade = pygame.Surface(box.size, pygame.SRCALPHA)
        shade.fill(panel_fill((20, 18, 24, 225)))
        surface.blit(shade, box)
        d = view["decision"]
        acting = d["seat"] if d else None
        adv = view["adventure"]
        result = view["result"]
        right = box.right - px(12)
        cols = [right - px(235), right - px(175), right - px(118), right]  # right edges
        labels = ["total" if result else "VP", "chips", "hand", "on Destiny 1/2/3"]
        top = box.y + px(6)
        draw_text(surface, "Score board", (box.x + px(10), top), 15, GOLD, bold=True)
        for label, cx in zip(labels, cols):
            draw_text(surface, label, (cx, top + px(2)), 13, MUTED, anchor="topright")
        name_room = cols[0] - px(34) - (box.x + px(36))
        for n, seat in enumerate(view["order"]):
            s = view["seats"][seat]
            ry = box.y + px(8) + head + n * row_h
            line = pygame.Rect(box.x + px(4), ry, box.width - px(8), row_h - 2)
            turn = seat == acting
            if turn:  # the seat to act: a framed row, in gold (and its place says so)
                pygame.draw.rect(surface, (70, 60, 40), line, border_radius=6)
                pygame.draw.rect(surface, GOLD, line, 2, border_radius=6)
            ink = GOLD if turn else TEXT
            mid = ry + (row_h - 2) / 2
            draw_seat_mark(surface, seat, (box.x + px(20), mid), px(11), on_piece=False)
            name = draw_text(surface, f"{n + 1}. {s['name']}", (box.x + px(36), mid), 17, ink,
                             bold=True, anchor="midleft")
            status = self._strip_status(view, seat, adv)
            for words in status:
                if name.right + px(10) + font(13).size(words)[0] <= box.x + px(36) + name_room:
                    draw_text(surface, words, (name.right + px(10), mid), 13, MUTED,
                              anchor="midleft")
                    break
            chips = "/".join(str(c) for c in s["destiny_chips"])
            points = result["scores"][seat] if result else s["vp"]
            for value, cx, bold in ((points, cols[0], True), (s["chips"], cols[1], False),
                                    (s["hand_size"], cols[2], False), (chips, cols[3], False)):
                draw_text(surface, str(value), (cx, mid), 17, ink, bold=bold,
                          anchor="midright")

    def _strip_status(self, view, seat: int, adv) -> list[str]:
        """What a seat did in this adventure, longest wording first (and a computer's
        level), for the strip."""
        status = short = ""
        if adv is not None and view["step"] in ("play", "claim"):
            if seat in adv["passed"]:
                tile = adv["tiles"][seat]
                status, short = f"passed (tile {tile})", "passed"
            elif adv["played_count"][seat]:
                status = cards_played(adv["played_count"][seat])
                short = f"{adv['played_count'][seat]} played"
        level = self.seat_level(seat)
        if level:
            return [f"{level}, {status}", f"{level}, {short}", level] if status \
                else [f"{level} computer", level]
        return [status, short] if status else []

    def _draw_side(self, surface, view) -> None:
        """The Supply and the Reward tiles: in the map's boxes, or at a larger interface in
        the side box (window pixels, see :meth:`side_box`), drawn there in their own
        parchment boxes with their titles (the map's art has them in its boxes)."""
        placed = self.side_box()
        if placed is None:
            self._draw_supply(surface, view)
            self._draw_rewards(surface, view)
            return
        box, side, _ = placed
        pygame.draw.rect(surface, panel_fill(HAND_BG), box, border_radius=8)
        self.status_boxes = [*self.status_boxes, box]  # messages keep off it
        board, self.t = self.t, side
        try:
            for name, title in (("supply", "Supply"), ("rewards", "Reward tiles")):
                x, y, w, h = self.side_areas()[name]
                rect = self._rect(x, y, w, h)
                pygame.draw.rect(surface, PARCH, rect, border_radius=8)
                pygame.draw.rect(surface, (150, 110, 60), rect, 2, border_radius=8)
                self._text(surface, title, x + 12, y + 6, 16, INK, bold=True)
            self._draw_supply(surface, view)
            self._draw_rewards(surface, view)
        finally:
            self.t = board

    def _draw_supply(self, surface, view) -> None:
        x, y, w, h = self.side_areas()["supply"]
        crew_colour = ALERT if "crew" in self.flash else (150, 30, 30)
        crew = self._text(surface, f"Crew {self.crew_shown}", x + 14, y + 32, 26, crew_colour,
                          bold=True)
        crew_end = (crew.right - self.t.offset_x) / self.t.scale  # (map units)
        self._text(surface, f"{view['supply']} Bet Chips in supply", x + w - 14, y + 40, 16,
                   INK, anchor="topright", width=min(200, x + w - 24 - crew_end),
                   shorter=(f"{view['supply']} chips in supply", f"supply {view['supply']}"))
        d, dd = view["decks"], view["discards"]
        ol = view["olympus"]
        last = short = ""
        if ol["last"]:
            card = OLYMPUS_BY_ID[ol["last"]]
            last = f"; last card: {GOD_NAMES[card['god']]} {card['value']}"
            short = f", last {GOD_NAMES[card['god']]} {card['value']}"
        if self.px(15) * 1.25 <= 19 * self.t.scale:  # room for a line each
            self._text(surface, f"Help deck {d['help']}, {dd['help']} discarded", x + 14,
                       y + 62, 15, HELP_BLUE, bold=True, width=w - 28,
                       shorter=(f"Help deck {d['help']}, {dd['help']} used",))
            self._text(surface, f"Hinder deck {d['hinder']}, {dd['hinder']} discarded", x + 14,
                       y + 81, 15, HINDER_RED, bold=True, width=w - 28,
                       shorter=(f"Hinder deck {d['hinder']}, {dd['hinder']} used",))
            self._text(surface, f"Olympus deck {ol['deck']}{last}", x + 14, y + 100, 15, INK,
                       width=w - 28, shorter=(f"Olympus {ol['deck']}{short}",))
            return
        # A small window: the two decks share a line, the Olympus deck has the next one.
        help_ = self._text(surface, f"Help {d['help']}, {dd['help']} used", x + 14, y + 66, 15,
                           HELP_BLUE, bold=True, width=w / 2 - 24,
                           shorter=(f"Help {d['help']} ({dd['help']})",))
        help_ink = self.last_ink
        self._text(surface, f"Hinder {d['hinder']}, {dd['hinder']} used", x + w / 2 - 4,
                   y + 66, 15, HINDER_RED, bold=True, width=w / 2 - 8,
                   shorter=(f"Hinder {d['hinder']} ({dd['hinder']})",))
        below = (help_.bottom - self.t.offset_y) / self.t.scale
        self._text(surface, f"Olympus deck {ol['deck']}{last}", x + 14, below, 15, INK,
                   width=w - 28, shorter=(f"Olympus {ol['deck']}{short}",), least=FLOOR_PX,
                   ink_top=help_ink.bottom + 3)  # right under, inside the box

    def _draw_rewards(self, surface, view) -> None:
        adv = view["adventure"]
        x, y, w, h = self.side_areas()["rewards"]
        if adv is None:
            self._text(surface, "Revealed at each adventure.", x + 14, y + 40, 14, MUTED,
                       width=w - 28, shorter=("Shown at each adventure.",))
            return
        layout = self.hand_layout(view)
        # While the adventure is played: what losing it would cost; once it is being
        # resolved, just the red total (the crew on the board tells the rest).
        preview = lost_preview(self.crew_shown, adv["red"]) if view["step"] in (
            "play", "claim", "adventure") else f"red total {adv['red']}"
        side = self.side_box() is not None  # (in the side box: under its title)
        self._text(surface, preview, x + 12 if side else x + w - 12, y + 28 if side else y + 10,
                   14, HINDER_RED, bold=True, anchor="topleft" if side else "topright",
                   width=w - 24 if side else 210,
                   shorter=(preview.replace("if lost: crew", "lost: crew"),))
        for tile in adv["rewards"]:
            r = layout[f"reward:{tile}"]
            rect = self._rect(r.x, r.y, r.width, r.height)
            owner = adv["claimed"].get(tile)
            pygame.draw.rect(surface, panel_fill((34, 30, 36)), rect, border_radius=6)
            if owner is not None:
                pygame.draw.rect(surface, colour(owner), rect, 4, border_radius=6)
                draw_seat_mark(surface, owner, (rect.left + 9, rect.bottom - 10), 12,
                               on_piece=False)
            # The red badge in the top right corner (2 px in: a highlight ring stays off
            # it), the amount centred in the room left of it, the word across the tile.
            radius = max(5, round(9 * self.t.scale))
            cx, cy = rect.right - 2 - radius, rect.y + 2 + radius
            left = (cx - radius - self.t.offset_x) / self.t.scale  # the badge's left, map
            big, small = tile_words(tile)
            self._text(surface, big, (r.x + left) / 2, r.y + 4, 20, (250, 240, 210),
                       bold=True, anchor="midtop", width=left - r.x - 4)
            self._text(surface, small, r.centerx, r.y + 28, 13, (220, 210, 190),
                       anchor="midtop", width=r.width - 6,
                       shorter=("Dest.",) if small == "Destiny" else ())
            pygame.draw.circle(surface, (200, 40, 40), (cx, cy), radius)
            draw_text(surface, str(REWARDS[tile]["red"]), (cx, cy), self.px(13),
                      (255, 255, 255), bold=True, anchor="center")

    def _draw_card(self, surface, rect_map: pygame.Rect, card: str, dim: bool = False,
                   visible: float = CARD_W, new: bool = False, legal: bool = False) -> None:
        """One hand card; ``visible``: how much of its width the next card leaves showing
        (its words then sit in that strip, so a long hand never hides them)."""
        rect = self._rect(*rect_map)
        info = CARDS[card]
        base = deck_colour(card)
        pygame.draw.rect(surface, (20, 16, 12), rect.move(2, 3), border_radius=8)
        pygame.draw.rect(surface, PARCH, rect, border_radius=8)
        frame = max(2, round(5 * self.t.scale))
        pygame.draw.rect(surface, base, rect, frame, border_radius=8)
        room = min(CARD_W, visible)
        # The words' room: inside the frame, a pixel of air each side (map units).
        inner = (rect.width - 2 * frame - 2) / self.t.scale
        words = (SPECIAL_NAMES[info["special"]].split() if info["special"]
                 else ["Help" if info["deck"] == "help" else "Hinder"])
        fits = all(rendered(word, self.floor_px(), base, False).get_width()
                   <= inner * self.t.scale for word in words)
        inside = rect.inflate(-2 * frame - 2, -2 * frame - 2)
        if room < CARD_W - 2 or (not fits and not info["special"]):
            # Overlapped (or a small window too narrow for "Hinder"): a corner index, the
            # word turned along the edge.
            self._draw_index(surface, rect_map, card, room)
        elif not fits:  # a small window too narrow for "Advance": the name along the card
            if not self._draw_turned(surface, inside, " ".join(words), base):
                self._draw_index(surface, rect_map, card, room)
        elif info["special"]:
            below = None  # each word right under the letters of the one above
            for i, word in enumerate(words):
                self._text(surface, word, rect_map.centerx, rect_map.y + 24 + i * 20, 14, base,
                           bold=True, anchor="midtop", width=inner,
                           ink_top=None if below is None else below + 1)
                below = self.last_ink.bottom
            px = max(self.floor_px(), self.min_px(), round(11 * self.t.scale))
            if rendered("face up", px, INK, False).get_width() <= (CARD_W - 10) * self.t.scale:
                self._text(surface, "face up", rect_map.centerx, rect_map.bottom - 8, 11,
                           INK, anchor="midbottom")  # else its tooltip says so ("face…" did)
        else:
            self._text(surface, str(info["value"]), rect_map.centerx, rect_map.y + 14, 40,
                       base, bold=True, anchor="midtop")
            self._text(surface, words[0], rect_map.centerx, rect_map.bottom - 8, 13, base,
                       bold=True, anchor="midbottom", width=inner)
        if legal:  # before the next card is drawn, so it never crosses that card's words
            draw_highlight(surface, "choose", rect_points(rect.inflate(4, 4)), 3,
                           badge=(rect.left + 10, rect.top + 10), badge_radius=7)
        if new:  # a gold frame, and a tab above the card saying so (in the hand's box:
            # inside its top, over no word -- an overlapped card has its gold frame only)
            pygame.draw.rect(surface, GOLD, rect.inflate(4, 4), 3, border_radius=9)
            width = min(room, CARD_W) - 4
            inside = self.hand_window()
            if not inside or room >= CARD_W - 2:
                top = rect_map.y + 3 if inside else rect_map.y - 19
                tag = self._rect(rect_map.x + 2, top, width, 17 if inside else 19)
                pygame.draw.rect(surface, GOLD, tag, border_radius=5 if inside else 0,
                                 border_top_left_radius=5, border_top_right_radius=5)
                self._text(surface, "new", rect_map.x + 2 + width / 2,
                           top + (8.5 if inside else 9), 13, INK, bold=True, anchor="center",
                           width=width - 4)
        if dim:
            veil = pygame.Surface(rect.size, pygame.SRCALPHA)
            veil.fill((20, 16, 12, 120))
            surface.blit(veil, rect)

    def _draw_turned(self, surface, inside: pygame.Rect, text: str, colour_) -> bool:
        """``text`` turned a quarter and centred in ``inside`` (screen pixels), as large as
        fits from the card size down to the floor size, bold if it can; False if it
        does not fit at all (nothing drawn)."""
        for px in range(max(self.px(14), self.floor_px()), self.floor_px() - 1, -1):
            for bold in (True, False):
                image = rendered(text, px, tuple(colour_), bold)
                if image.get_width() <= inside.height and image.get_height() <= inside.width:
                    turned = pygame.transform.rotate(image, 90)
                    surface.blit(turned, turned.get_rect(center=inside.center))
                    return True
        return False

    def _draw_index(self, surface, rect_map: pygame.Rect, card: str, room: float) -> None:
        """An overlapped card's words in the strip the next card leaves showing: its value
        (or '+2'/'Adv'/'D2' style mark for a special card) at the top, then its deck or
        special name turned along the left edge, as on a fanned hand of real cards."""
        info = CARDS[card]
        base = deck_colour(card)
        head = str(info["value"]) if not info["special"] else "*"
        top = self._text(surface, head, rect_map.x + 5, rect_map.y + 6, 30, base, bold=True,
                         width=room - 8)
        word = SPECIAL_NAMES[info["special"]] if info["special"] else (
            "Help" if info["deck"] == "help" else "Hinder")
        px = self.px(13)
        bottom = self.at(0, rect_map.bottom - 6)[1]
        length = bottom - top.bottom - 2
        image = pygame.transform.rotate(rendered(word, px, base, True), 90)
        while image.get_height() > length and px > self.floor_px():
            px -= 1
            image = pygame.transform.rotate(rendered(word, px, base, True), 90)
        if image.get_height() > length:  # no room at the least size: the tooltip names it
            return
        left = self.at(rect_map.x + 6, 0)[0]
        surface.blit(image, image.get_rect(bottomleft=(round(left), round(bottom))))

    def fresh_for(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """What the viewer's own last action showed them, while it is still news."""
        f = self.fresh
        if f is None or f["seat"] != view["viewer"] or f["actions"] != self._acted(f["seat"]):
            return None
        return f

    def _acted(self, seat: int | None) -> int:
        """How many actions ``seat`` has taken (its news lasts until its next one)."""
        return 0 if seat is None else self.table.acted(seat)

    def _draw_table(self, surface, view, x: float, y: float, right: float) -> None:
        """The face-up special cards played in this adventure, on the table for everyone:
        small cards with their owner's colour, left to right in the order played."""
        adv = view["adventure"]
        face_up = adv["face_up"] if adv else []
        if not face_up:
            return
        label = self._text(surface, "Face up on the table:", x, y + TABLE_H / 2, 14,
                           (230, 210, 170), bold=True, anchor="midleft")
        cx = (label.right - self.t.offset_x) / self.t.scale + 10
        step = min(TABLE_W + 8, (right - cx - TABLE_W) / max(1, len(face_up) - 1)) \
            if len(face_up) > 1 else TABLE_W + 8
        for i, f in enumerate(face_up):
            r = pygame.Rect(round(cx + i * step), round(y), TABLE_W, TABLE_H)
            rect = self._rect(*r)
            info = CARDS[f["card"]]
            pygame.draw.rect(surface, PARCH, rect, border_radius=6)
            pygame.draw.rect(surface, deck_colour(f["card"]), rect,
                             max(2, round(4 * self.t.scale)), border_radius=6)
            dot = self.at(r.x + 12, r.centery)
            draw_seat_mark(surface, f["seat"], dot, max(10, round(14 * self.t.scale)),
                           on_piece=False)
            room = min(TABLE_W, step) - 28
            title = self._text(surface, SPECIAL_NAMES[info["special"]], r.x + 24, r.centery,
                               14, deck_colour(f["card"]), bold=True, anchor="midleft",
                               width=room * 0.6)
            after = (title.right - self.t.offset_x) / self.t.scale + 5
            self._text(surface, view["seats"][f["seat"]]["name"], after, r.centery, 13, INK,
                       anchor="midleft", width=max(10, r.x + 24 + room - after))

    def _draw_hand(self, surface, view) -> None:
        placed = self.hand_box()
        if placed is None:
            self._draw_hand_area(surface, view)
            return
        # A larger interface: the hand's box in window pixels, over the map's hand area,
        # and the hand's map layout drawn into it at the hand's scale.
        box, hand = placed
        pygame.draw.rect(surface, panel_fill(HAND_BG), box, border_radius=8)
        pygame.draw.rect(surface, (196, 160, 96), box, 2, border_radius=8)
        self.status_boxes = [*self.status_boxes, box]  # messages keep off the hand
        board, self.t = self.t, hand
        try:
            x, y, w, _ = self.hand_area()
            label = None
            if view["viewer"] is not None:  # the map's art says it in the map's hand area
                label = self._text(surface, "At the screen", x + 14, y + 7, 17, GOLD,
                                   bold=True)
            self._draw_hand_area(surface, view, label)
        finally:
            self.t = board

    def _draw_hand_area(self, surface, view, label: pygame.Rect | None = None) -> None:
        """The hand area's contents; ``label``: where the hand box's own "At the screen"
        went (the seat's mark and name go after it)."""
        x, y, w, h = self.hand_area()
        destiny_x = self.destiny_x((x, y, w, h))
        viewer = view["viewer"]
        if viewer is None and view["result"] is not None:  # the end: all is revealed
            r = view["result"]
            self._text(surface, f"{r['ending_title']}: every Destiny card is revealed.",
                       x + 190, y + 10, 16, (230, 210, 170), width=w - 200)
            for n, p in enumerate(r["destiny_payouts"]):
                fates = ", ".join(f"{DESTINIES[f]} {c}" for f, c in zip(p["cards"], p["chips"]))
                self._text(surface, f"{view['seats'][p['seat']]['name']}: {fates} "
                                    f"(paid {p['paid']})", x + 30, y + 50 + n * 28, 16,
                           (240, 230, 210), width=w - 60)
            return
        if viewer is None:
            self._text(surface, "Public view: hands and Destiny cards are hidden.", x + 190,
                       y + 10, 16, (230, 210, 170), width=w - 200,
                       shorter=("Public view: hands are hidden.",))
            adv = view["adventure"]
            if adv is not None:
                wide = w >= 1000  # the map's hand area (else the hand box: lines closer)
                first, step = (40, 24) if wide else (34, 22)
                for n, seat in enumerate(view["order"]):
                    cnt = adv["played_count"][seat]
                    self._text(surface, f"{view['seats'][seat]['name']}: "
                                        f"{cards_played(cnt)}, "
                                        f"{view['seats'][seat]['hand_size']} in hand",
                               x + 30, y + first + n * step, 16, (240, 230, 210),
                               width=min(560, w - 60))
                if wide:  # the table beside the lines
                    self._draw_table(surface, view, x + 620, y + 60, x + w - 20)
                else:  # under them
                    self._draw_table(surface, view, x + 30,
                                     y + first + 4 + len(view["order"]) * step, x + w - 20)
            return
        me = view["seats"][viewer]
        name_x = x + 178 if label is None else max(
            x + 178, (label.right + 24 - self.t.offset_x) / self.t.scale)  # (its mark: px)
        name = self._text(surface, me["name"], name_x, y + 7, 19,
                          readable_on(colour(viewer), HAND_BG), bold=True)
        draw_seat_mark(surface, viewer, (name.left - 10, name.centery), 13, on_piece=False)
        layout = self.hand_layout(view)
        legal_cells = self.highlighted(view)
        playing = self.my_decision(view) is not None and view["decision"]["kind"] == "play"
        adv = view["adventure"]
        fresh = self.fresh_for(view)
        # What the viewer just drew or played: after the name (from x + 330 on the map).
        line_x = max(x + 330 if w >= 1000 else 0,
                     (name.right - self.t.offset_x) / self.t.scale + 14)
        line_w = destiny_x - 10 - line_x
        if line_w < 60:  # no room (the log says it)
            pass
        elif fresh and fresh["cards"]:
            self._text(surface, f"You drew: {cards_named(fresh['cards'])}.", line_x, y + 10,
                       15, GOLD, bold=True, width=line_w,
                       shorter=(f"You drew: {cards_named(fresh['cards'], short=True)}.",
                                f"You drew {cards_counted(len(fresh['cards']))}."))
        elif fresh and fresh["looked"]:
            self._text(surface, "Your chip is down: now you see your Destiny cards.",
                       line_x, y + 10, 15, GOLD, bold=True, width=line_w,
                       shorter=("Now you see your Destiny cards.",))
        elif adv is not None and adv["mine"] and view["step"] in ("play", "claim"):
            self._text(surface, f"You played: {cards_named(adv['mine'])}.", line_x, y + 10,
                       14, (230, 210, 170), width=line_w,
                       shorter=(f"You played: {cards_named(adv['mine'], short=True)}.",
                                f"You played {cards_counted(len(adv['mine']))}."))
        hand = me["hand"] or []
        new = list(fresh["cards"]) if fresh else []
        for i, card in enumerate(hand):
            key = f"card:{card}"
            r = layout[key]
            visible = layout[f"card:{hand[i + 1]}"].x - r.x if i + 1 < len(hand) else CARD_W
            self._draw_card(surface, r, card, dim=playing and key not in legal_cells,
                            visible=visible, new=card in new, legal=key in legal_cells)
        if not me["hand"]:
            self._text(surface, "No cards in hand.", x + 30, y + 60, 16, (230, 210, 170))
        # (In a narrower hand box -- a larger interface -- the table goes on under the
        # Destiny cards.)
        self._draw_table(surface, view, x + 20, TABLE_Y - 852 + self.cards_y(),
                         destiny_x - 20 if w >= 1000 else
                         x + w - 20)
        for slot in range(3):
            r = layout[f"destiny:{slot}"]
            rect = self._rect(*r)
            fate = me["destiny"][slot] if me["destiny"] else None
            pygame.draw.rect(surface, (60, 50, 70), rect, border_radius=8)
            pygame.draw.rect(surface, GOLD, rect, 4 if fresh and fresh["looked"] else 2,
                             border_radius=8)
            if fate is None:  # not looked at yet
                self._text(surface, "?", r.centerx, r.y + 8, 36, GOLD, bold=True,
                           anchor="midtop")
            words = DESTINIES[fate].split() if fate else []
            px = self.px(14)  # the size the words are drawn at: their lines and widths
            step = max(18, (rendered("Ag", px, INK, True).get_height() - 2) / self.t.scale)
            crowded = len(words) * step > r.height - 34 or any(
                rendered(w, px, INK, True).get_width() > (r.width - 8) * self.t.scale
                for w in words)
            if crowded and fate:  # a small window: one short word (the tooltip has them all)
                words = [TINY_FATES[fate]]
            for i, word in enumerate(words):
                self._text(surface, word, r.centerx, r.y + 10 + i * step, 14, (250, 240, 210),
                           bold=True, anchor="midtop", width=r.width - 8)
            chips = me["destiny_chips"][slot]
            self._text(surface, f"{chips} chip{'s' if chips != 1 else ''}", r.centerx,
                       r.bottom - 8, 14, GOLD, bold=True, anchor="midbottom", width=r.width - 10)
        self._text(surface, "Your Destiny cards", destiny_x + DESTINY_STEP + DESTINY_W / 2,
                   y + 10, 14,
                   (230, 210, 170), anchor="midtop")

    def _draw_overlay(self, surface, view) -> None:
        o = self.overlay
        x0, y0, w, h = 150, 180, 580, 280
        rect = self._rect(x0, y0, w, h)
        shade = pygame.Surface(rect.size, pygame.SRCALPHA)
        shade.fill(panel_fill((14, 12, 20, 225)))
        surface.blit(shade, rect)
        pygame.draw.rect(surface, GOLD, rect, 2, border_radius=10)
        if "wander" in o:
            ev = o["wander"]
            god = GOD_NAMES[ev["god"]]
            self._text(surface, "Wandering among face-down tiles", x0 + w / 2, y0 + 30, 24,
                       GOLD, bold=True, anchor="midtop")
            self._text(surface, f"{god} sends Odysseus along the "
                                f"{'calm' if ev['god'] == 'athena' else 'stormy'} path.",
                       x0 + w / 2, y0 + 120, 20, TEXT, anchor="midtop")
            return
        self._text(surface, "Resolving the adventure", x0 + w / 2, y0 + 14, 22, GOLD, bold=True,
                   anchor="midtop")
        for side, cx, col in (("help", x0 + 140, HELP_BLUE), ("hinder", x0 + w - 140,
                                                            HINDER_RED)):
            shown = round(o[f"shown_{side}"])
            self._text(surface, "Help" if side == "help" else "Hinder", cx, y0 + 50, 20, col,
                       bold=True, anchor="midtop")
            self._text(surface, str(shown), cx, y0 + 74, 64, (250, 246, 236), bold=True,
                       anchor="midtop")
            # a bar that grows with the total
            bar = self._rect(cx - 60, y0 + 160, 120, 14)
            pygame.draw.rect(surface, (50, 46, 56), bar, border_radius=4)
            fill = bar.copy()
            fill.width = max(0, round(bar.width * min(1.0, shown / 20)))
            pygame.draw.rect(surface, col, fill, border_radius=4)
        self._text(surface, "against", x0 + w / 2, y0 + 104, 18, MUTED, anchor="midtop")
        if o["cards"]:
            last = o["cards"][-1]
            who = view["seats"][last["seat"]]["name"]
            self._text(surface, f"{who}: {card_text(last['card'])}", x0 + w / 2, y0 + 186, 18,
                       TEXT, anchor="midtop")
        extra = []
        if o["olympus"]:
            ev = o["olympus"]
            extra.append(f"Olympus: {GOD_NAMES[ev['god']]} +{ev['value']} to "
                         f"{'Help' if ev['side'] == 'help' else 'Hinder'}")
        where = ENCOUNTERS[view["adventure"]["encounter"]]["title"] if view["adventure"] else ""
        extra += [f"{where} +{m['value']} to {'Help' if m['side'] == 'help' else 'Hinder'}"
                  for m in o["mods"]]
        if extra:
            self._text(surface, "; ".join(extra), x0 + w / 2, y0 + 212, 15, GOLD,
                       anchor="midtop")
        if o["outcome"]:
            won = o["outcome"] == "won"
            self._text(surface, "Odysseus wins the adventure!" if won else
                       "Odysseus loses the adventure!", x0 + w / 2, y0 + 240, 22,
                       (120, 220, 140) if won else ALERT, bold=True, anchor="midtop")

    # results ----------------------------------------------------------------------------
    def results_table(self, result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
        names = [s["name"] for s in self.table.seats]
        rows = []
        bets: dict[int, int] = {}
        for p in result["bet_payouts"]:
            bets[p["seat"]] = bets.get(p["seat"], 0) + p["paid"]
        for s in sorted(range(len(names)), key=lambda s: (-result["scores"][s], s)):
            dp = result["destiny_payouts"][s]
            rows.append([
                names[s] + ("  (winner)" if s in result["winners"] else ""),
                str(result["vp"][s]), str(bets.get(s, 0)), str(dp["paid"]),
                str(result["chips"][s]), str(result["scores"][s]),
                ", ".join(f"{DESTINIES[f]} {c}" for f, c in zip(dp["cards"], dp["chips"])),
            ])
        return ["Player", "VP", "Bets paid", "Destiny paid", "Chips", "Score",
                "Destiny cards (chips)"], rows

    def results_summary(self, result: dict[str, Any]) -> list[str]:
        names = [s["name"] for s in self.table.seats]
        lines = [f"Ending: {result['ending_title']} in round {result['round']} "
                 f"(crew left: {result['crew']})."]
        for seat, name in enumerate(names):
            bets = [p for p in result["bet_payouts"] if p["seat"] == seat]
            if bets:
                lines.append(f"{name}'s bet{'s' if len(bets) > 1 else ''}: " + "; ".join(
                    f"a stack of {p['stack']} on round {p['round']} paid {p['paid']}"
                    for p in bets) + ".")
        lines.append(f"Winner: {' and '.join(names[s] for s in result['winners'])} "
                     f"({result['tie_break']}). Each Bet Chip is worth 2 VP.")
        return lines
