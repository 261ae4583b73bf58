"""Computer players: each sees only its own seat's view.

A bot asks the game's ``policy`` first and otherwise takes a random legal
action.  Its randomness comes from a generator derived from the match's seed
and the number of actions so far, so it never moves the match's own
generator and a replay needs only the recorded actions.
"""

from __future__ import annotations

from .controller import Action
from .rng import Rng


def bot_rng(match, seat: int) -> Rng:
    """The generator a bot uses for its next choice."""
    return Rng.derive(match.seed, len(match.actions), seat, 0xB07)


def choose_action(match, seat: int) -> Action:
    """The action the computer player at ``seat`` takes now."""
    legal = match.legal_actions(seat)
    if not legal:
        raise ValueError(f"Seat {seat} has nothing to do.")
    rng = bot_rng(match, seat)
    choice = match.cls.policy(match.view(seat), legal, rng)
    return choice if choice is not None else rng.choice(legal)


def play_out(match, max_actions: int = 100_000) -> None:
    """Let computer players take every seat's actions until the game ends."""
    for _ in range(max_actions):
        if match.is_over():
            return
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    raise RuntimeError("The game did not end.")
