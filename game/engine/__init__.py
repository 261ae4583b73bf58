"""The pure engine: matches, rule controllers, chance, events, errors, saves.

Nothing here imports pygame, reads a clock inside the rules, or uses the
module-level ``random``.
"""

from .controller import Action, Controller, Option, View
from .errors import IllegalAction, SaveError, TabletopError, UnknownGame
from .events import Event, MalformedEvent, audience, event, reveals, visible_to
from .match import Match
from .registry import controller_class, game_ids
from .rng import Rng

__all__ = [
    "Action", "Controller", "Event", "IllegalAction", "Match", "Option", "Rng",
    "MalformedEvent", "SaveError", "TabletopError", "UnknownGame", "View", "audience",
    "controller_class", "event", "game_ids", "reveals", "visible_to",
]
