"""Computer players: each sees only its own seat's view.

A computer seat plays at its seat's level:

- ``normal``: the game's heuristic ``policy`` (a random legal action where it has none);
- ``easy``: the same player, forgiving: about one choice in three is a random legal action;
- ``hard``: information-set search (``search.py``) with the Normal player for its rollouts,
  where the game can be searched without seeing hidden information; else Normal.

Its randomness comes from a generator derived from the match's seed and the number of actions
so far, so it never moves the match's own generator and a replay needs only the recorded
actions: the same save gives the same choices at every level.
"""

from __future__ import annotations

from typing import Callable

from .controller import Action
from .rng import Rng

#: The levels as players read them (setup, seat cards, "Bo (Hard) is thinking").
LEVEL_NAMES = {"easy": "Easy", "normal": "Normal", "hard": "Hard"}

#: How often an Easy player plays a random legal action instead of the heuristic's choice.
EASY_SLIP = 0.3


def bot_rng(match, seat: int) -> Rng:
    """The generator a bot uses for its next choice: from the match's seed and the number of
    game actions so far (a hint asked for is no game action, so it changes no later choice)."""
    played = sum(1 for record in match.actions if not match.is_hint(record))
    return Rng.derive(match.seed, played, seat, 0xB07)


def level_of(match, seat: int) -> str:
    """The level of a computer seat (``normal`` for a person's seat asked for a hint)."""
    return match.seats[seat].get("level", "normal")


def choose_action(match, seat: int, cancelled: Callable[[], bool] | None = None,
                  settings=None) -> Action:
    """The action the computer player at ``seat`` takes now, at its seat's level.

    ``cancelled`` is polled by a Hard player's search (undo or quit stop it early);
    ``settings`` replaces the game's own search settings (``search.settings_for``)."""
    legal = match.legal_actions(seat)
    if not legal:
        raise ValueError(f"Seat {seat} has nothing to do.")
    rng = bot_rng(match, seat)
    if len(legal) == 1:
        return legal[0]
    level = level_of(match, seat)
    if level == "hard":
        from .search import can_search, search, settings_for
        if can_search(match.controller):
            return search(match.controller, seat, rng,
                          settings or settings_for(match.controller), cancelled)
    if level == "easy" and rng.randbelow(1000) < EASY_SLIP * 1000:
        return rng.choice(legal)
    return _policy_choice(match, seat, legal, rng)


def _policy_choice(match, seat: int, legal: list[Action], rng) -> Action:
    """The game's heuristic choice from ``seat``'s own view (a random legal action when it
    has none)."""
    choice = match.cls.policy(match.view(seat), legal, rng)
    return choice if choice is not None else rng.choice(legal)


def searches(match, seat: int) -> bool:
    """Whether the computer at ``seat`` thinks with the search (a Hard seat in a game that
    can be searched) rather than with the quick heuristic alone."""
    if level_of(match, seat) != "hard":
        return False
    from .search import can_search
    return can_search(match.controller)


def normal_action(match, seat: int) -> Action:
    """The Normal player's choice for ``seat`` now (what a Hard player falls back to when its
    search cannot finish), from the same generator as :func:`choose_action`."""
    legal = match.legal_actions(seat)
    if not legal:
        raise ValueError(f"Seat {seat} has nothing to do.")
    if len(legal) == 1:
        return legal[0]
    return _policy_choice(match, seat, legal, bot_rng(match, seat))


def play_out(match, max_actions: int = 100_000) -> None:
    """Let computer players take every seat's actions until the game ends."""
    for _ in range(max_actions):
        if match.is_over():
            return
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    raise RuntimeError("The game did not end.")
