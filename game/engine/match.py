"""A match: a game's controller plus its seed and the list of actions taken.

The match is the single API that the client, the bots, the saves and the
tests use.  Because all chance comes from the seeded generator, a match is
exactly its seed plus its actions: undo and loading both replay them.

>>> m = Match.new("fantasy_expedition", [{"name": f"P{i}", "kind": "bot"} for i in range(9)], seed=1)
>>> m.to_act()
[0]
>>> _ = m.act(0, {"type": "pass"})
>>> m.to_act()
[1]
"""

from __future__ import annotations

import copy
import secrets
from pathlib import Path
from typing import Any

from .controller import Action, Controller, View
from .errors import IllegalAction, TabletopError
from .events import Event, MalformedEvent, check_event, event, reveals, visible_to
from .registry import controller_class
from .rng import Rng
from .text import unprintable, visible

SEAT_KINDS = ("human", "bot")
#: How strongly a computer seat plays (see ``bots.py``); a person's seat has no level.
LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
#: The recorded "asked for a hint" entry in a match's actions: no game's action (no game's
#: action type starts with "@"); the match logs it and never hands it to the controller.
HINT = {"type": "@hint"}
_PLAIN = (str, int, float, bool, type(None))


def plain(value: Any, where: str = "action") -> Any:
    """A deep copy of ``value`` if it is plain data (what a save can hold).

    >>> plain({"type": "move", "to": [1, 2]})
    {'type': 'move', 'to': [1, 2]}
    """
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, (list, tuple)):
        return [v if isinstance(v, _PLAIN) else plain(v, where) for v in value]
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if type(key) is not str and (not isinstance(key, int) or isinstance(key, bool)):
                raise IllegalAction(f"The {where} has a key of an unexpected kind: {key!r}.")
            out[key] = item if isinstance(item, _PLAIN) else plain(item, where)
        return out
    raise IllegalAction(f"The {where} holds something that is not plain data: {value!r}.")


def check_seats(cls: type[Controller], seats: Any) -> list[dict[str, str]]:
    """Validate a seat list for ``cls``; returns a clean copy or raises ValueError."""
    if not isinstance(seats, list):
        raise ValueError("Seats must be a list.")
    if not cls.min_seats <= len(seats) <= cls.max_seats:
        span = (f"exactly {cls.min_seats}" if cls.min_seats == cls.max_seats
                else f"{cls.min_seats} to {cls.max_seats}")
        raise ValueError(f"{cls.title} needs {span} seats, not {len(seats)}.")
    clean = []
    for number, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise ValueError(f"Seat {number + 1} is not a name and a kind.")
        name, kind = seat.get("name"), seat.get("kind", "human")
        if not isinstance(name, str) or not visible(name):
            raise ValueError(f"Seat {number + 1} needs a name.")
        control = unprintable(name.strip())
        if control is not None:
            raise ValueError(f"Seat {number + 1}'s name holds a control character "
                             f"(U+{ord(control):04X}) that cannot be shown.")
        if kind not in SEAT_KINDS:
            raise ValueError(f"Seat {number + 1} must be human or bot, not {kind!r}.")
        entry = {"name": name.strip()[:24], "kind": kind}
        if kind == "bot":
            level = seat.get("level", DEFAULT_LEVEL)
            if level not in LEVELS:
                raise ValueError(f"Seat {number + 1}'s level must be one of "
                                 f"{', '.join(LEVELS)}, not {level!r}.")
            entry["level"] = level
        clean.append(entry)
    names = [s["name"] for s in clean]
    if len(set(names)) != len(names):
        raise ValueError("Two seats have the same name; give every player their own.")
    return clean


def check_options(cls: type[Controller], options: Any) -> dict[str, Any]:
    """The game's options with defaults filled in; raises ValueError on a bad one."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ValueError("The options must be a mapping of option names to values.")
    options = dict(options)
    known = {opt.key: opt for opt in cls.options}
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(f"{cls.title} has no option called {unknown[0]!r}.")
    return {key: opt.validate(options.get(key, opt.default)) for key, opt in known.items()}


class Match:
    """One game being played: seats, options, seed, actions and the live state."""

    def __init__(self, game_id: str, seats: list[dict[str, str]], seed: int,
                 options: dict[str, Any]) -> None:
        self.game_id = game_id
        self.cls = controller_class(game_id)
        self.seats = check_seats(self.cls, seats)
        self.options = check_options(self.cls, options)
        self.seed = int(seed)
        self.actions: list[dict[str, Any]] = []
        self.created: str | None = None
        #: A lesson being played (game/engine/lesson.py's LessonGuard), or None: consulted
        #: before every action, it refuses what the lesson does not ask for.
        self.guard: Any = None
        self._restart()

    # ----------------------------------------------------------------- creation
    @classmethod
    def new(cls, game_id: str, seats: list[dict[str, str]], seed: int | None = None,
            options: dict[str, Any] | None = None) -> "Match":
        """Start a match; a missing seed is drawn from the operating system."""
        if seed is None:
            seed = secrets.randbits(48)
        try:
            return cls(game_id, seats, seed, options or {})
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None

    def _restart(self) -> None:
        self.rng = Rng(self.seed)
        self.controller = self.cls(copy.deepcopy(self.seats), dict(self.options), self.rng)
        seats = len(self.seats)
        self.log: list[Event] = [dict(check_event(ev, seats)) for ev in self.controller.opening()]
        #: Actions before this index revealed something or drew chance: no undo past it.
        self.barrier = 0

    def _replay(self, actions: list[dict[str, Any]]) -> None:
        self._restart()
        self.actions = []
        for record in actions:
            self._apply(record["seat"], record["action"])

    # ------------------------------------------------------------------ queries
    def to_act(self) -> list[int]:
        """Seats whose input is awaited now."""
        return list(self.controller.to_act())

    def legal_actions(self, seat: int) -> list[Action]:
        """The actions ``seat`` may take now."""
        if seat not in self.controller.to_act():
            return []
        return self.controller.legal_actions(seat)

    def view(self, seat: int | None = None) -> View:
        """What ``seat`` may see; ``None`` is the public view (handover, previews)."""
        return self.controller.view(seat)

    def log_for(self, seat: int | None) -> list[Event]:
        """The game log as ``seat`` may read it."""
        return [ev for ev in self.log if visible_to(ev, seat)]

    def is_over(self) -> bool:
        return self.controller.is_over()

    def result(self) -> dict[str, Any] | None:
        return self.controller.result()

    def status(self) -> str:
        return self.controller.status()

    def snapshot(self) -> dict[str, Any]:
        """The full state plus the generator's position, as plain data."""
        return {"state": self.controller.snapshot(), "rng": self.rng.state}

    @property
    def title(self) -> str:
        return self.cls.title

    # ------------------------------------------------------------------ actions
    def act(self, seat: int, action: Action) -> list[Event]:
        """Carry out ``action`` for ``seat``; returns its events or raises IllegalAction."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("An action must be a mapping with a 'type'.")
        if self.is_over():
            raise IllegalAction("The game is over.")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise IllegalAction(f"There is no seat {seat!r}.")
        if seat not in self.controller.to_act():
            waiting = ", ".join(self.seats[s]["name"] for s in self.controller.to_act())
            raise IllegalAction(f"It is not {self.seats[seat]['name']}'s turn"
                                + (f"; waiting for {waiting}." if waiting else "."))
        if self.guard is not None:
            reason = self.guard.refusal(self, seat, action)
            if reason is not None:
                raise IllegalAction(reason)
        return self._apply(seat, plain(action))

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action.get("type") == HINT["type"]:
            return self._note_hint(seat, action)
        before = self.rng.state
        try:
            events = [check_event(ev, len(self.seats)) for ev in self.controller.apply(seat, action)]
        except IllegalAction:
            raise
        except Exception as exc:  # a rules bug must never corrupt the match
            self._replay(list(self.actions))
            raise IllegalAction(f"That action could not be carried out ({exc}).") from exc
        self.actions.append({"seat": seat, "action": action})
        if self.rng.state != before or any(reveals(ev) for ev in events):
            self.barrier = len(self.actions)
        self.log.extend(events)
        return events

    # -------------------------------------------------------------------- hints
    @staticmethod
    def is_hint(record: dict[str, Any]) -> bool:
        """Whether an entry of ``actions`` records a hint asked for (not a game action)."""
        return record.get("action", {}).get("type") == HINT["type"]

    def record_hint(self, seat: int) -> list[Event]:
        """Record that the person at ``seat`` (whose input is awaited) asked for a hint: a
        public log line, kept in the actions (so saves and replays keep it), never seen by
        the controller and changing nothing in the game.  Asking again with nothing done in
        between records nothing more."""
        if self.actions and self.actions[-1] == {"seat": seat, "action": HINT}:
            return []
        return self.act(seat, dict(HINT))

    def _note_hint(self, seat: int, action: Action) -> list[Event]:
        if action != HINT:
            raise IllegalAction("A hint record holds nothing but its type.")
        if self.seats[seat]["kind"] != "human":
            raise IllegalAction("Only a person asks for a hint.")
        note = event("hint", f"{self.seats[seat]['name']} asked for a hint.", seat=seat)
        self.actions.append({"seat": seat, "action": dict(HINT)})
        self.log.append(note)
        return [note]

    def why_not(self, seat: int | None, action: Action) -> str | None:
        """Why ``seat`` may not take ``action`` now, in the words a refusal would use; None
        when it may.  Tried on a copy of the game, so nothing changes (for "why not?" hints on
        disabled buttons and board places)."""
        if seat is None:
            return "Nobody is at the screen yet."
        if self.guard is not None and seat in self.to_act() and not self.is_over():
            reason = self.guard.refusal(self, seat, action)
            if reason is not None:
                return reason
        if any(action == legal for legal in self.legal_actions(seat)):
            return None
        trial = copy.copy(self)
        trial.rng = copy.deepcopy(self.rng)
        trial.controller = copy.deepcopy(self.controller)
        trial.controller.rng = trial.rng
        trial.actions, trial.log = list(self.actions), list(self.log)
        try:
            trial.act(seat, action)
        except IllegalAction as exc:
            return str(exc)
        return None

    def why_not_kind(self, seat: int | None, kind: str) -> str | None:
        """Why ``seat`` may take no action of type ``kind`` now (for a button standing for all
        its targets); None when some such action is legal.  A controller with its own
        ``why_not(seat, kind)`` gives the most telling target's refusal."""
        if seat is None:
            return "Nobody is at the screen yet."
        explain = getattr(self.controller, "why_not", None)
        if explain is not None:
            return explain(seat, kind)
        if any(a.get("type") == kind for a in self.legal_actions(seat)):
            return None
        return self.why_not(seat, {"type": kind})

    # --------------------------------------------------------------------- undo
    def undo_point(self) -> int | None:
        """Index of the action an undo would remove back to, or None.

        Undo takes back the last action made by a person, together with the
        computer players' actions that followed it.
        """
        index = len(self.actions) - 1
        while index >= 0 and (self.seats[self.actions[index]["seat"]]["kind"] == "bot"
                              or self.is_hint(self.actions[index])):
            index -= 1
        if index < 0 or index < self.barrier:
            return None
        return index

    def can_undo(self, seat: int | None = None) -> bool:
        """Whether undo is possible (for ``seat``: whether it would take back their action)."""
        index = self.undo_point()
        if index is None:
            return False
        return seat is None or self.actions[index]["seat"] == seat

    def undo(self) -> None:
        """Step back one action of a person; refused after a reveal or a roll."""
        index = self.undo_point()
        if index is None:
            if not any(self.seats[a["seat"]]["kind"] == "human" and not self.is_hint(a)
                       for a in self.actions):
                raise IllegalAction("There is nothing to undo.")
            raise IllegalAction("That can't be undone: something was revealed or rolled since.")
        hints = [a for a in self.actions[index:] if self.is_hint(a)]
        self._replay(self.actions[:index])
        for record in hints:  # a hint asked for stays on record: undo does not unask it
            if record["seat"] in self.controller.to_act() and not self.is_over():
                self.record_hint(record["seat"])

    # -------------------------------------------------------------------- saves
    def save(self, path: str | Path) -> None:
        """Write the match to ``path`` atomically (see :mod:`game.engine.saves`)."""
        from .saves import save_match
        save_match(self, path)

    @classmethod
    def load(cls, path: str | Path, partial: bool = False) -> "Match":
        """Read a match from ``path``; raises SaveError naming the file and the problem.

        A save whose actions stop replaying raises ``saves.ReplayError`` (a SaveError);
        ``partial=True`` loads it up to the last action that replays instead.
        """
        from .saves import load_match
        return load_match(path, partial=partial)


__all__ = ["Match", "TabletopError", "IllegalAction", "plain", "check_seats", "check_options"]
