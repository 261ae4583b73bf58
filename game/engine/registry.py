"""Which games exist: game id -> rule controller class, imported on demand."""

from __future__ import annotations

from importlib import import_module

from .controller import Controller
from .errors import UnknownGame

#: game id -> "module:Class".  A new game is one line here and one folder.
GAMES: dict[str, str] = {
    "fantasy_expedition": "game.fantasy_expedition.rules:ExpeditionController",
    "fantasy_racing": "game.fantasy_racing.rules:RacingController",
    "mothership": "game.mothership.rules:MothershipController",
    "monster_fandango": "game.monster_fandango.rules:FandangoController",
    "odysseus": "game.odysseus.rules:OdysseusController",
}


def game_ids() -> list[str]:
    """The installed games, in menu order."""
    return list(GAMES)


def controller_class(game_id: str) -> type[Controller]:
    """The controller class of ``game_id``; raises UnknownGame for anything else."""
    try:
        target = GAMES[game_id]
    except (KeyError, TypeError):
        raise UnknownGame(f"There is no game called {game_id!r}.") from None
    module_name, class_name = target.split(":")
    return getattr(import_module(module_name), class_name)
