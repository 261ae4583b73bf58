"""The rule-controller interface every game implements.

A controller is pure Python: it never imports pygame, never reads a clock or
a file, and draws chance only from the :class:`~game.engine.rng.Rng` it is
given.  The :class:`~game.engine.match.Match` owns the controller, records
every action and is the only thing the client, the bots, the saves and the
tests talk to.
"""

from __future__ import annotations

import copy
import pickle
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import IllegalAction
from .events import Event
from .rng import Rng

Action = dict[str, Any]
View = dict[str, Any]


@dataclass(frozen=True)
class Option:
    """A game option shown on the setup screen and stored in the match."""

    key: str
    label: str
    default: int | bool | str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = field(default_factory=tuple)
    help: str = ""

    def validate(self, value: Any) -> Any:
        """Return ``value`` checked against this option, or raise ValueError."""
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"{self.label} must be yes or no.")
            return value
        if isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{self.label} must be a whole number.")
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"{self.label} must be at least {self.minimum}.")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"{self.label} must be at most {self.maximum}.")
            return value
        if value not in self.choices:
            raise ValueError(f"{self.label} must be one of {', '.join(self.choices)}.")
        return value


class Controller(ABC):
    """One game's rules.  Subclasses set the class attributes and the methods.

    Contract:
    - ``__init__`` sets the game up, drawing any chance from ``rng``;
    - ``apply`` validates the WHOLE action before changing anything and raises
      :class:`IllegalAction` with a readable reason if it is refused;
    - ``view(seat)`` holds only what that seat may see (``None``: the public);
    - every value returned is plain data that ``yaml.safe_dump`` accepts.
    """

    game_id: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[int] = 1
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    #: True when the game hides anything from some players: a handover card comes between
    #: two different people at the screen.  An open game can still ask for one at a given
    #: moment with ``"handover": True`` in its view (another seat's mid-turn decision).
    has_secrets: ClassVar[bool] = True
    options: ClassVar[tuple[Option, ...]] = ()
    #: The board map, relative to the top-level ``boards/`` folder.
    board: ClassVar[str] = ""
    #: The rules document, relative to the game's package folder.
    rules_document: ClassVar[str] = "rules.md"
    #: Optional hooks for the Hard computer player's search (``search.py``), set by a game as
    #: methods: ``determinize(self, seat, rng)`` redraws, in a copy of the state, everything
    #: ``seat`` may not see (consistently with what it saw); ``evaluate(self, seat)`` scores an
    #: unfinished game for ``seat`` from 0 to 1, so rollouts may stop early.
    determinize: ClassVar[Any] = None
    evaluate: ClassVar[Any] = None

    def __init__(self, seats: list[dict[str, str]], options: dict[str, Any], rng: Rng) -> None:
        self.seats = seats
        self.opts = options
        self.rng = rng

    def __deepcopy__(self, memo: dict[int, Any]) -> "Controller":
        """A whole copy, as ``copy.deepcopy`` makes it, four to six times quicker: a game's
        state is plain lists, dicts and numbers, which a pickle round trip in memory copies
        in C (the Hard player's search copies the game for every playout).  The generator
        goes through ``memo``, so a copied match and its copied controller still share one.
        State that cannot be pickled is deep-copied as usual."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        state = dict(self.__dict__)
        rng = state.pop("rng", None)
        try:
            state = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
        except (pickle.PicklingError, TypeError, AttributeError):
            state = copy.deepcopy(state, memo)
        new.__dict__.update(state)
        if "rng" in self.__dict__:
            new.rng = copy.deepcopy(rng, memo)
        return new

    def name(self, seat: int) -> str:
        """The seat's player name, for event texts."""
        return self.seats[seat]["name"]

    @abstractmethod
    def to_act(self) -> list[int]:
        """Seats whose input is awaited now (several for secret simultaneous choices)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not to act)."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and carry out ``action``; return what happened."""

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: what everyone may see)."""

    def opening(self) -> list[Event]:
        """What the setup itself did (dealt or rolled in ``__init__``), for the log from the
        start; events with secrets carry an ``audience`` (see ``events.event``)."""
        return []

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def result(self) -> dict[str, Any] | None:
        """Scores, winners and game-specific outcome once over, else None."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data, used to check that a save replays exactly."""

    @abstractmethod
    def status(self) -> str:
        """A short public line: phase and whose turn ("Trading, round 2: Mira")."""

    @classmethod
    def policy(cls, view: View, legal: list[Action], rng: Rng) -> Action | None:
        """A computer player's choice from its own view; None: a random legal action."""
        return None

    @staticmethod
    def refuse(reason: str) -> IllegalAction:
        """Shorthand so rule code reads ``raise self.refuse("...")``."""
        return IllegalAction(reason)
