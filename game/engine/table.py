"""What a screen may ask of a game: one seat's view, legal actions and log -- a *table*.

The play scene, the game screens and the hints draw only from a :class:`Table` and send every
input through it, so the same screen works on a hot-seat match here (:class:`LocalTable`, a thin
wrapper over :class:`~game.engine.match.Match`) and on an online table whose referee holds the
match (``game.online.remote_table.RemoteTable``, built on what the referee sends each seat).

A table never hands out the controller or the seed.  Its static data (``game_id``, ``title``,
``cls`` -- the controller *class*, for the board file, rules version, option schema and the
game's policy --, ``options``, and the public ``seats``) never changes during a match; the rest
is asked per seat.  ``step`` changes whenever anything on the screen may change (an action, an
undo, a hint asked for, an answer from a referee): screens key their caches on it.

Only :class:`LocalTable` has a ``match``, for the inherently local paths (autosave, save, the
History of a local match, lessons, the computer players run on this machine); ``local`` says
which kind a table is.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from typing import Any

from .controller import Action, View
from .errors import IllegalAction
from .events import Event
from .rng import Rng

#: Steps are drawn from one counter, so two tables (History swaps one per step shown) never
#: share a step and a cache keyed on it is never reused across them.
STEPS = itertools.count(1)
#: What a remote table's "why not?" says while the referee's answer is on its way.
ASKING = "Asking the referee why..."


class Table(ABC):
    """Everything a screen may ask about one match (see the module's text)."""

    #: Whether the match is on this machine (``match`` is then the live Match).
    local: bool = False
    #: The live match, on a LocalTable only (never read by drawing or input code).
    match: Any = None
    #: The game's id and title, the controller class (static data only) and the options.
    game_id: str
    title: str
    cls: type
    options: dict[str, Any]
    #: The public seat list: ``{"name", "kind"}`` and a computer's ``level``.
    seats: list[dict[str, Any]]

    # --------------------------------------------------------------- who is here
    @property
    def here(self) -> list[int]:
        """The seats played by people at this screen (hot-seat: every person's seat)."""
        return [s for s, seat in enumerate(self.seats) if seat["kind"] == "human"]

    @property
    def runs_bots(self) -> bool:
        """Whether this screen plays the computer seats (a referee plays them online)."""
        return False

    @property
    def pending(self) -> str | None:
        """What an action sent and not yet answered is waiting for, or None."""
        return None

    # ----------------------------------------------------------------- the state
    @property
    @abstractmethod
    def step(self) -> int:
        """A counter that changes whenever anything on the screen may change."""

    @abstractmethod
    def to_act(self) -> list[int]:
        """The seats whose input is awaited now."""

    @abstractmethod
    def status(self) -> str:
        """The one-line state of the game (whose turn, the round...)."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> dict[str, Any] | None: ...

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (None: the public view)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now ([] when it is not their turn)."""

    @abstractmethod
    def log_for(self, seat: int | None) -> list[Event]:
        """The game log as ``seat`` may read it."""

    @property
    @abstractmethod
    def log(self) -> list[Event]:
        """Every log event this screen may hold, in order, each with its audience (a screen
        shows each viewer only what ``visible_to`` allows); new events are appended."""

    @abstractmethod
    def acted(self, seat: int) -> int:
        """How many game actions (hints not counted) ``seat`` has taken."""

    def position(self, seat: int | None) -> Any:
        """What ``seat`` knows of the game's progress (a remote table: the referee's step
        in its latest update); the same while only other news came."""
        return self.step

    # ------------------------------------------------------------------- reasons
    @abstractmethod
    def why_not(self, seat: int | None, action: Action) -> str | None:
        """Why ``seat`` may not take ``action`` now, in the refusal's words; None when it may."""

    @abstractmethod
    def why_not_kind(self, seat: int | None, kind: str) -> str | None:
        """Why ``seat`` may take no action of type ``kind`` now (a button that stands for all
        its targets); None when some such action is legal."""

    # ------------------------------------------------------------------- actions
    @abstractmethod
    def act(self, seat: int, action: Action) -> list[Event] | None:
        """Take ``action`` for ``seat``: its events at once (local), or None when it was sent
        and is answered later (remote).  A refusal known at once raises IllegalAction."""

    def poll(self) -> list[str]:
        """Take in what arrived (remote); the refusals of actions sent, to show."""
        return []

    # ---------------------------------------------------------------------- undo
    def can_undo(self, seat: int | None) -> bool:
        return False

    def undo_refusal(self, seat: int | None) -> str:
        """Why ``seat`` cannot undo now."""
        return "Undo is not available here."

    def undo(self, seat: int | None = None) -> None:
        """Take back ``seat``'s last action (a remote table asks its referee: the answer
        comes with a later update)."""
        raise IllegalAction(self.undo_refusal(seat))

    # --------------------------------------------------------------------- hints
    def record_hint(self, seat: int) -> list[Event]:
        """Note that ``seat`` asked for a hint (a public log line where the table keeps one)."""
        return []

    @abstractmethod
    def hint_rng(self, seat: int) -> Rng:
        """The generator the hint for ``seat`` draws from now (the same position, the same
        hint); never one that reveals the match's seed."""


class LocalTable(Table):
    """The hot-seat table: a thin wrapper over a live :class:`Match` on this machine."""

    local = True

    def __init__(self, match: Any) -> None:
        self.match = match
        self._list: list[Any] | None = None
        self._len = -1
        self._step = 0

    # static data, read through from the match (a lesson or History may swap the match)
    @property
    def game_id(self) -> str:  # type: ignore[override]
        return self.match.game_id

    @property
    def title(self) -> str:  # type: ignore[override]
        return self.match.title

    @property
    def cls(self) -> type:  # type: ignore[override]
        return self.match.cls

    @property
    def options(self) -> dict[str, Any]:  # type: ignore[override]
        return self.match.options

    @property
    def seats(self) -> list[dict[str, Any]]:  # type: ignore[override]
        return self.match.seats

    @property
    def runs_bots(self) -> bool:
        return True

    @property
    def step(self) -> int:
        actions = self.match.actions
        if actions is not self._list or len(actions) != self._len:  # undo makes a new list
            self._list, self._len = actions, len(actions)
            self._step = next(STEPS)
        return self._step

    def to_act(self) -> list[int]:
        return self.match.to_act()

    def status(self) -> str:
        return self.match.status()

    def is_over(self) -> bool:
        return self.match.is_over()

    def result(self) -> dict[str, Any] | None:
        return self.match.result()

    def view(self, seat: int | None) -> View:
        return self.match.view(seat)

    def legal_actions(self, seat: int) -> list[Action]:
        return self.match.legal_actions(seat)

    def log_for(self, seat: int | None) -> list[Event]:
        return self.match.log_for(seat)

    @property
    def log(self) -> list[Event]:
        return self.match.log

    def acted(self, seat: int) -> int:
        return sum(1 for a in self.match.actions
                   if a["seat"] == seat and not self.match.is_hint(a))

    def why_not(self, seat: int | None, action: Action) -> str | None:
        return self.match.why_not(seat, action)

    def why_not_kind(self, seat: int | None, kind: str) -> str | None:
        return self.match.why_not_kind(seat, kind)

    def act(self, seat: int, action: Action) -> list[Event]:
        return self.match.act(seat, action)

    def can_undo(self, seat: int | None) -> bool:
        return seat is not None and self.match.can_undo(seat)

    def undo_refusal(self, seat: int | None) -> str:
        if seat is None:
            return "Nobody is at the screen yet."
        if self.match.undo_point() is None:
            try:
                self.match.undo()  # refuses before changing anything when there is no point
            except IllegalAction as exc:
                return exc.reason
        return "Your last action is not the last one made: someone else acted since."

    def undo(self, seat: int | None = None) -> None:
        self.match.undo()

    def record_hint(self, seat: int) -> list[Event]:
        return self.match.record_hint(seat)

    def hint_rng(self, seat: int) -> Rng:
        from .bots import bot_rng
        return bot_rng(self.match, seat)


def as_table(thing: Any) -> Table:
    """``thing`` if it is a Table, else a LocalTable over it (a Match)."""
    return thing if isinstance(thing, Table) else LocalTable(thing)


__all__ = ["Table", "LocalTable", "as_table", "ASKING"]
