"""New-game setup: the game, seats (names, people or computers and how well each computer
plays), options, seed."""

from __future__ import annotations

from typing import Any

import pygame

from game.engine import IllegalAction, Match, controller_class, game_ids
from game.engine.bots import LEVEL_NAMES
from game.engine.text import clean_text

from ..backdrop import backdrop
from ..look import px
from ..scene import Scene
from ..marks import draw_seat_mark
from ..widgets import MUTED, draw_text, wrap_text

#: Seeds are whole numbers in this range, typed with the digits 0-9.
SEED_MAX = 2**63 - 1
SEED_DIGITS = len(str(SEED_MAX))
SEED_HELP = f"The seed must be a whole number from 0 to {SEED_MAX} (or left empty)."
NAME_LIMIT = 24

NAMES = ["Mira", "Bo", "Tess", "Ugo", "Lin", "Rafe", "Ivy", "Oskar", "Nell", "Pim"]
KIND_LABELS = {"human": "Person", "bot": "Computer"}
#: A computer seat's level (game/engine/bots.py), in the order the level button cycles.
LEVELS = tuple(LEVEL_NAMES)
LEVEL_HELP = ("How well this computer plays (press to change): Easy makes mistakes, for "
              "learning; Normal plays sensibly; Hard looks ahead and takes a moment to think.")
#: Widths in a seat's row: its colour dot, the kind and level buttons, and the gaps.
DOT_WIDTH, KIND_WIDTH, LEVEL_WIDTH, GAP = 28, 112, 96, 8


def parse_seed(text: str) -> int | None:
    """The seed typed in ``text`` (None when empty); ValueError with a readable reason.

    Only the ASCII digits 0-9 count (not "²" or other digits Python's ``int``
    reads), so no sign, and at most :data:`SEED_MAX`.

    >>> parse_seed(" 42 "), parse_seed("")
    (42, None)
    >>> parse_seed("--5")
    Traceback (most recent call last):
    ValueError: The seed must be a whole number from 0 to 9223372036854775807 (or left empty).
    """
    text = text.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > SEED_DIGITS:
        raise ValueError(SEED_HELP)
    seed = int(text)
    if seed > SEED_MAX:
        raise ValueError(SEED_HELP)
    return seed


class SetupScene(Scene):
    """Choose everything a match needs, then start it."""

    def __init__(self, app: Any, game_id: str | None = None) -> None:
        super().__init__(app)
        self.game_id = game_id or game_ids()[0]
        self.seats: list[dict[str, str]] = []
        self.options: dict[str, Any] = {}
        self.seed_text = ""
        self.name_entries: list[Any] = []
        self.seed_entry: Any = None
        self._choose_game(self.game_id)

    #: The page's title, the kind button's tooltip, and whether Learn to play is offered (the
    #: online host's page, game/ui/scenes/online.py, says otherwise).
    heading = "New game"
    KIND_HELP = "Press to switch between a person and a computer"
    offers_lesson = True

    def kind_label(self, seat: dict[str, Any]) -> str:
        return KIND_LABELS[seat["kind"]]

    def name_placeholder(self, index: int, seat: dict[str, Any]) -> str:
        return f"Player {index + 1}"

    def name_limit(self, seat: dict[str, Any]) -> int:
        return NAME_LIMIT

    def summary(self) -> str:
        """The line under the page: the game's one-line summary."""
        doc = (self.cls.__doc__ or "").strip()
        return doc.splitlines()[0] if doc else ""

    # model ---------------------------------------------------------------------
    @property
    def cls(self):
        return controller_class(self.game_id)

    def _choose_game(self, game_id: str) -> None:
        self.game_id = game_id
        cls = self.cls
        count = min(max(len(self.seats) or cls.max_seats, cls.min_seats), cls.max_seats)
        self._resize_seats(count)
        self.options = {opt.key: opt.default for opt in cls.options}

    def _resize_seats(self, count: int) -> None:
        while len(self.seats) < count:
            n = len(self.seats)
            self.seats.append({"name": NAMES[n % len(NAMES)], "kind": "human" if n == 0 else "bot",
                               "level": "normal"})
        del self.seats[count:]

    def _read_entries(self) -> None:
        """Keep what was typed before widgets are rebuilt."""
        for seat, entry in zip(self.seats, self.name_entries):
            if entry.alive():
                seat["name"] = clean_text(entry.get_text(), self.name_limit(seat))
        if self.seed_entry is not None and self.seed_entry.alive():
            self.seed_text = clean_text(self.seed_entry.get_text())

    def _change(self, fn) -> None:
        self._read_entries()
        fn()
        self.rebuild()

    # widgets -------------------------------------------------------------------
    def build(self) -> None:
        width, height = self.app.window_size
        cls = self.cls
        left_x, left_width, right_x, name_width = self.columns()
        left = pygame.Rect(left_x, px(130), left_width, px(40))
        ids = game_ids()
        nxt = ids[(ids.index(self.game_id) + 1) % len(ids)]
        self.controls.button(left, f"Game: {cls.title}", lambda: self._change(
            lambda: self._choose_game(nxt)), tooltip="Press to choose another game")
        row = left.move(0, px(54))
        fixed = cls.min_seats == cls.max_seats
        step = min(px(100), (row.width - px(20)) // 4)  # the - and + buttons' width
        self.controls.button(pygame.Rect(row.x, row.y, step, row.height), "-",
                             lambda: self._change(lambda: self._resize_seats(len(self.seats) - 1)),
            enabled=len(self.seats) > cls.min_seats, tooltip="One seat fewer")
        self.controls.label(pygame.Rect(row.x + step + px(10), row.y,
                                        row.width - 2 * step - px(20), px(40)),
                            f"{len(self.seats)} seats" + (" (fixed)" if fixed else ""))
        self.controls.button(pygame.Rect(row.right - step, row.y, step, row.height), "+",
                             lambda: self._change(lambda: self._resize_seats(len(self.seats) + 1)),
            enabled=len(self.seats) < cls.max_seats, tooltip="One seat more")
        y = row.y + px(54)
        for opt in cls.options:
            self._option_row(opt, pygame.Rect(left.x, y, left.width, px(40)))
            y += px(50)
        self.controls.label(pygame.Rect(left.x, y, px(160), px(40)), "Seed (optional)")
        self.seed_entry = self.controls.entry(pygame.Rect(left.x + px(170), y,
                                                          left.width - px(170), px(40)),
                                              self.seed_text, "empty: a random deal")
        self.seed_entry.set_text_length_limit(max(SEED_DIGITS, len(self.seed_text)))
        self.name_entries = []
        right = pygame.Rect(right_x, px(130), px(430), px(36))
        step = self.seat_step()
        for index, seat in enumerate(self.seats):
            rect = right.move(0, index * step)
            x = rect.x + px(DOT_WIDTH)
            entry = self.controls.entry(pygame.Rect(x, rect.y, name_width, px(36)), seat["name"],
                                        self.name_placeholder(index, seat))
            entry.set_text_length_limit(self.name_limit(seat))
            self.name_entries.append(entry)
            x += name_width + GAP
            self.controls.button(pygame.Rect(x, rect.y, px(KIND_WIDTH), px(36)),
                                 self.kind_label(seat),
                                 lambda i=index: self._change(lambda: self._toggle_kind(i)),
                                 tooltip=self.KIND_HELP)
            if seat["kind"] == "bot":
                level = self.controls.button(
                    pygame.Rect(x + px(KIND_WIDTH) + GAP, rect.y, px(LEVEL_WIDTH), px(36)),
                    LEVEL_NAMES[seat.get("level", "normal")],
                    lambda i=index: self._change(lambda: self._cycle_level(i)),
                    tooltip=LEVEL_HELP)
                level.set_tooltip(LEVEL_HELP, wrap_width=320)
        start, learn, back, (lines, _place, _anchor) = self.footer()
        if not self.offers_lesson and learn.y == start.y:  # two buttons in the middle
            start, back = start.move(px(115), 0), learn.move(px(115), 0)
        summary = self.summary()
        self.controls.button(start, "Start", self.start, object_id="#primary",
                             tooltip=None if lines else f"Start: {summary}")
        from game.engine.lesson import has_lesson
        lesson = has_lesson(self.game_id)
        if self.offers_lesson:
            self.controls.button(learn, "Learn to play", self.learn, enabled=lesson,
                                 tooltip=f"A guided first game of {cls.title}, by doing"
                                 if lesson else f"{cls.title} has no lesson yet")
        self.controls.button(back, "Back", self.app.pop)
        self.controls.on_escape = self.app.pop

    def footer(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect,
                              tuple[list[str], tuple[int, int], str]]:
        """Start, Learn to play and Back, and the game's one-line summary (its lines, where
        the first goes and how it is anchored there): across the bottom of the window, or,
        when the seats reach down there (many seats in a large interface), under the
        shorter column (Start and Back side by side, Learn to play under them)."""
        width, height = self.app.window_size
        summary = self.summary()
        left_x, left_width, right_x, _names = self.columns()
        seats_bottom = px(130) + (len(self.seats) - 1) * self.seat_step() + px(36)
        seed_bottom = px(130 + 54 + 54 + 40) + px(50) * len(self.cls.options)
        if max(seats_bottom, seed_bottom) <= height - px(134):
            start = pygame.Rect(width // 2 - px(335), height - px(90), px(210), px(52))
            return (start, start.move(px(230), 0), start.move(px(460), 0),
                    ([summary], (width // 2, height - px(120)), "center"))
        # Under the shorter column; the summary goes too if there is room for it (else it
        # is Start's tooltip).
        if seed_bottom <= seats_bottom:
            x, top, room = left_x, seed_bottom, left_width
        else:
            x, top, room = right_x, seats_bottom, min(px(440), width - 12 - right_x)
        half = (room - px(10)) // 2
        start = pygame.Rect(x, top + px(20), half, px(52))
        learn = pygame.Rect(x, start.bottom + px(10), room, px(52))
        lines = wrap_text(summary, 16, room)
        if learn.bottom + px(14) + px(22) * len(lines) > height - 8:
            lines = []
        return (start, learn, start.move(half + px(10), 0),
                (lines, (x, learn.bottom + px(14)), "topleft"))

    def name_width(self) -> int:
        return self.columns()[3]

    def columns(self) -> tuple[int, int, int, int]:
        """The match's column (its left and width), where the seats' column starts and the
        name boxes' width: what the window leaves beside the kind and level buttons, up to
        240 pixels (at 100%); a large interface narrows the match's column first."""
        width = self.app.window_size[0]
        buttons = px(DOT_WIDTH + KIND_WIDTH + LEVEL_WIDTH) + 2 * GAP
        left_width = max(px(300), min(px(420), width - 52 - px(60) - buttons - px(120)))
        left_x = max(40, min(width // 2 - px(560),
                             width - 12 - left_width - px(60) - buttons - px(240)))
        right_x = left_x + left_width + px(60)
        room = width - 12 - right_x - buttons
        return left_x, left_width, right_x, max(px(120), min(px(240), room))

    def seat_step(self) -> int:
        """From one seat's row to the next."""
        height = self.app.window_size[1]
        return max(px(36) + 2, min(px(44), (height - px(250)) // max(len(self.seats), 1)))

    def _option_row(self, opt, rect: pygame.Rect) -> None:
        value = self.options[opt.key]
        if isinstance(opt.default, bool):
            self.controls.button(rect, f"{opt.label}: {'yes' if value else 'no'}",
                                 lambda: self._change(lambda: self._set(opt.key, not value)),
                                 tooltip=opt.help or None)
        elif isinstance(opt.default, int):
            self.controls.button(pygame.Rect(rect.x, rect.y, px(50), rect.height), "-",
                                 lambda: self._change(lambda: self._set(opt.key, value - 1)),
                                 enabled=opt.minimum is None or value > opt.minimum)
            self.controls.label(pygame.Rect(rect.x + px(60), rect.y, rect.width - px(120),
                                            rect.height),
                                f"{opt.label}: {value}")
            self.controls.button(pygame.Rect(rect.right - px(50), rect.y, px(50), rect.height), "+",
                                 lambda: self._change(lambda: self._set(opt.key, value + 1)),
                                 enabled=opt.maximum is None or value < opt.maximum,
                                 tooltip=opt.help or None)
        else:
            choices = list(opt.choices)
            nxt = choices[(choices.index(value) + 1) % len(choices)]
            # A game may explain an option's choices at length (e.g. its characters).
            hook = getattr(self.cls, "option_tooltip", None)
            tip = hook(opt.key, value) if hook else None
            button = self.controls.button(rect, f"{opt.label}: {value}",
                                          lambda: self._change(lambda: self._set(opt.key, nxt)),
                                          tooltip=tip or opt.help or None)
            if tip:
                button.set_tooltip(tip, wrap_width=min(900, self.app.screen.get_width() - 40))

    def _set(self, key: str, value: Any) -> None:
        self.options[key] = value

    def _toggle_kind(self, index: int) -> None:
        seat = self.seats[index]
        seat["kind"] = "bot" if seat["kind"] == "human" else "human"
        seat.setdefault("level", "normal")

    def _cycle_level(self, index: int) -> None:
        """Easy -> Normal -> Hard -> Easy for the computer at seat ``index``."""
        seat = self.seats[index]
        level = seat.get("level", "normal")
        seat["level"] = LEVELS[(LEVELS.index(level) + 1) % len(LEVELS)]

    def learn(self) -> None:
        from .lesson import start_lesson
        start_lesson(self.app, self.game_id)

    # start -----------------------------------------------------------------------
    def start(self) -> None:
        from .play import PlayScene
        self._read_entries()
        try:
            seed = parse_seed(self.seed_text)
        except ValueError as exc:
            self.app.toast(str(exc), error=True)
            return
        try:
            match = Match.new(self.game_id, [dict(s) for s in self.seats],
                              seed=seed, options=self.options)
        except IllegalAction as exc:
            self.app.toast(str(exc), error=True)
            return
        self.app.replace(PlayScene(self.app, match))

    def draw(self, surface: pygame.Surface) -> None:
        width, height = surface.get_size()
        surface.blit(backdrop((width, height)), (0, 0))
        draw_text(surface, self.heading, (width / 2, px(60)), 40, (255, 211, 107), bold=True,
                  anchor="center", shadow=True)
        left_x, _left_width, right_x, _names = self.columns()
        draw_text(surface, "Seats", (right_x, px(100)), 18, MUTED, bold=True)
        if any(seat["kind"] == "bot" for seat in self.seats):
            level_x = right_x + px(DOT_WIDTH) + self.name_width() + GAP + px(KIND_WIDTH) + GAP
            draw_text(surface, "Level", (level_x + 4, px(104)), 15, MUTED, bold=True)
        draw_text(surface, "Match", (left_x, px(100)), 18, MUTED, bold=True)
        step = self.seat_step()
        for index in range(len(self.seats)):
            centre = (right_x + px(10), px(130) + index * step + px(18))
            draw_seat_mark(surface, index, centre, px(20), on_piece=False)  # colour and shape
        _start, _learn, _back, (lines, (x, y), anchor) = self.footer()
        for line in lines:
            draw_text(surface, line, (x, y), 16, MUTED, anchor=anchor)
            y += px(22)
