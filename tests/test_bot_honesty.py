"""The computer players are honest, checked by perturbations the test makes itself (issue 27,
item 4).

``test_bot_privacy.py`` builds its second state with the game's own ``determinize``: a hidden
field that hook forgets is never changed there, so that test cannot see the leak.  Here each
game's hidden state is changed by *this file's own code* -- two face-down tiles swapped, a
card of another seat's hand swapped with one no seat has seen, another seat's Destiny cards
reordered, two other seats' teams swapped, the generator's future (the next dice) changed --
and the test checks that

1. the seat's view is the same (else the change was not hidden: it is not used);
2. something hidden did change (the full snapshot differs);
3. the choice is the same at every level (Easy, Normal, Hard with a small budget);
4. the imagined worlds the Hard search samples are the same, world for world (the snapshot of
   every determinized copy), so no hidden value survives into a world.

Two tests plant a leak -- a ``determinize`` that forgets part of what it must redraw, and a
Normal policy that peeks at the live game -- and expect the check to fail (``xfail``, strict:
a check that passes with the leak in place fails the suite).
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
from typing import Any, Callable

import pytest

from game.engine import Match
from game.engine import search as search_module
from game.engine.bots import choose_action
from game.engine.registry import controller_class
from game.engine.search import settings_for

NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]
OPTIONS = {"fantasy_expedition": {"trade_rounds": 1}}
LEVELS = ("easy", "normal", "hard")

Perturb = Callable[[Any, int], bool]


# ------------------------------------------------------------------ perturbations
def future_dice(game: Any, seat: int) -> bool:
    """Another future: the generator's state (what the next die or shuffle gives)."""
    game.rng.state = (game.rng.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return True


def swap_face_down_tiles(game: Any, seat: int) -> bool:
    """Mothership: two face-down tiles of different kinds change places."""
    down = sorted(c for c, t in game.tiles.items() if not t["up"])
    for a, b in itertools.combinations(down, 2):
        if game.tiles[a]["kind"] != game.tiles[b]["kind"]:
            game.tiles[a]["kind"], game.tiles[b]["kind"] = (game.tiles[b]["kind"],
                                                          game.tiles[a]["kind"])
            return True
    return False


def reorder_draw_pile(game: Any, seat: int) -> bool:
    """Mothership: the draw pile's order turned round."""
    if len(set(game.draw_pile)) < 2:
        return False
    game.draw_pile = list(reversed(game.draw_pile))
    return True


def hand_for_unseen(game: Any, seat: int) -> bool:
    """Odysseus: a card of another seat's hand changes places with one of the same deck
    still in its pile (neither seen by ``seat``)."""
    from game.odysseus.data import CARDS
    for other in range(game.n):
        if other == seat:
            continue
        for i, card in enumerate(game.hands[other]):
            pile = game.piles[CARDS[card]["deck"]]
            for j, unseen in enumerate(pile):
                if unseen != card:
                    game.hands[other][i], pile[j] = unseen, card
                    game.hands[other].sort()
                    return True
    return False


def hands_between_others(game: Any, seat: int) -> bool:
    """Odysseus: two other seats swap a card of the same deck."""
    from game.odysseus.data import CARDS
    others = [s for s in range(game.n) if s != seat]
    for a, b in itertools.combinations(others, 2):
        for i, x in enumerate(game.hands[a]):
            for j, y in enumerate(game.hands[b]):
                if x != y and CARDS[x]["deck"] == CARDS[y]["deck"]:
                    game.hands[a][i], game.hands[b][j] = y, x
                    return True
    return False


def others_destiny(game: Any, seat: int) -> bool:
    """Odysseus: another seat's Destiny cards in another order."""
    for other in range(game.n):
        if other != seat:
            game.destiny[other] = game.destiny[other][1:] + game.destiny[other][:1]
            return True
    return False


def swap_teams(game: Any, seat: int) -> bool:
    """Expedition: two other seats of different teams swap teams (before the reveal)."""
    if game.revealed():
        return False
    others = [s for s in range(9) if s != seat]
    for a, b in itertools.combinations(others, 2):
        if game.teams[a] != game.teams[b]:
            before = game.view(seat)
            game.teams[a], game.teams[b] = game.teams[b], game.teams[a]
            if game.view(seat) == before:
                return True
            game.teams[a], game.teams[b] = game.teams[b], game.teams[a]
    return False


#: game -> (table size, the perturbations of its hidden state, points of its games to test).
CASES: dict[str, tuple[int, list[Perturb], tuple[int, ...]]] = {
    "fantasy_expedition": (9, [swap_teams, future_dice], (3, 12, 20)),
    "fantasy_racing": (3, [future_dice], (1, 9, 30)),
    "mothership": (2, [swap_face_down_tiles, reorder_draw_pile, future_dice], (0, 10, 30)),
    "odysseus": (3, [hand_for_unseen, hands_between_others, others_destiny, future_dice],
                 (2, 12, 30)),
    "monster_fandango": (2, [future_dice], (2, 20)),
}


# ------------------------------------------------------------------ the check
def small(controller: Any) -> Any:
    """The game's own search, small enough for a test (no work cap: the budget is counted
    in playouts here)."""
    own = settings_for(controller)
    return dataclasses.replace(own, iterations=min(own.iterations, 10),
                               rollout_actions=min(own.rollout_actions, 8),
                               candidates=min(own.candidates, 3), worlds=min(own.worlds, 6),
                               work=None)


def positions(game: str, seed: int):
    """(match, seat to act) at each of the case's points of a seeded game of Normal players,
    where the seat has a real choice and the Hard player searches it (not where the game
    trusts its heuristic with no search: ``trusts_policy``)."""
    seats, _perturbs, points = CASES[game]
    match = Match.new(game, [{"name": NAMES[i], "kind": "bot"} for i in range(seats)],
                      seed=seed, options=OPTIONS.get(game))
    for point in points:
        while not match.is_over() and (len(match.actions) < point
                                       or len(match.legal_actions(match.to_act()[0])) < 2
                                       or _trusted(match)):
            seat = match.to_act()[0]
            match.act(seat, choose_action(match, seat))
        if match.is_over():
            return
        yield match, match.to_act()[0]


def _trusted(match: Match) -> bool:
    trusts = getattr(match.controller, "trusts_policy", None)
    return bool(trusts and trusts(match.legal_actions(match.to_act()[0])))


def at_level(match: Match, seat: int, level: str) -> Match:
    other = copy.deepcopy(match)
    other.seats[seat] = {**other.seats[seat], "kind": "bot", "level": level}
    return other


def worlds_and_choice(match: Match, seat: int, level: str, monkeypatch) -> tuple[Any, list]:
    """The choice at ``level`` and, for Hard, the snapshot of every world it imagined."""
    worlds: list = []
    original = search_module._determinized

    def recording(live, who, rng):
        state = original(live, who, rng)
        worlds.append(copy.deepcopy(state.snapshot()))
        return state

    monkeypatch.setattr(search_module, "_determinized", recording)
    try:
        choice = choose_action(at_level(match, seat, level), seat, None, small(match.controller))
    finally:
        monkeypatch.setattr(search_module, "_determinized", original)
    return choice, worlds


def problems(match: Match, seat: int, perturb: Perturb, monkeypatch) -> list[str] | None:
    """What differs when ``perturb`` changes the hidden state (None: it changed nothing
    hidden here, or something the seat sees, so it proves nothing at this position)."""
    other = copy.deepcopy(match)
    view = copy.deepcopy(match.view(seat))
    if not perturb(other.controller, seat):
        return None
    if other.view(seat) != view:
        return None
    if other.snapshot() == match.snapshot():
        return None
    found = []
    for level in LEVELS:
        mine, my_worlds = worlds_and_choice(match, seat, level, monkeypatch)
        theirs, their_worlds = worlds_and_choice(other, seat, level, monkeypatch)
        if level == "hard":
            assert my_worlds, "the Hard player imagined no world: the check would prove nothing"
        if mine != theirs:
            found.append(f"{level}: {mine} vs {theirs}")
        if my_worlds != their_worlds:
            index = next((i for i, (a, b) in enumerate(zip(my_worlds, their_worlds)) if a != b),
                         min(len(my_worlds), len(their_worlds)))
            found.append(f"{level}: imagined world {index} differs")
    return found


def check_game(game: str, monkeypatch, seeds=(5, 17)) -> dict[str, int]:
    """Every perturbation of ``game`` at every position: asserts none shows; returns how
    often each perturbation was tried (a perturbation never tried proves nothing)."""
    _seats, perturbs, _points = CASES[game]
    tried = {p.__name__: 0 for p in perturbs}
    for seed in seeds:
        for match, seat in positions(game, seed):
            for perturb in perturbs:
                found = problems(match, seat, perturb, monkeypatch)
                if found is None:
                    continue
                tried[perturb.__name__] += 1
                assert not found, (f"{controller_class(game).title}, seed {seed}, after "
                                   f"{len(match.actions)} actions, seat {seat}, "
                                   f"{perturb.__name__}: {found}")
    return tried


@pytest.mark.parametrize("game", sorted(CASES))
def test_changing_what_a_seat_cannot_see_changes_no_choice_and_no_imagined_world(
        game, monkeypatch):
    tried = check_game(game, monkeypatch)
    assert all(tried.values()), f"some perturbations never applied: {tried}"


# ------------------------------------------------------------------ planted leaks
def forgetful_mothership_determinize(self, seat, rng):
    """Redraws the face-down tiles on the floor but forgets the draw pile (a leak)."""
    pile = list(self.draw_pile)
    from game.mothership import hard
    hard.determinize(self, seat, rng)
    self.draw_pile = pile


def forgetful_odysseus_determinize(self, seat, rng):
    """Redraws all but the other seats' Destiny cards (a leak)."""
    kept = [list(d) for d in self.destiny]
    from game.odysseus import hard
    hard.determinize(self, seat, rng)
    for s in range(self.n):
        if s != seat:
            self.destiny[s] = kept[s]


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="a determinize that forgets the draw pile leaks it: caught")
def test_a_determinize_that_forgets_the_draw_pile_is_caught(monkeypatch):
    cls = controller_class("mothership")
    monkeypatch.setattr(cls, "determinize", forgetful_mothership_determinize)
    check_game("mothership", monkeypatch, seeds=(5,))


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="a determinize that forgets the others' Destiny leaks it: caught")
def test_a_determinize_that_forgets_the_others_destiny_is_caught(monkeypatch):
    cls = controller_class("odysseus")
    monkeypatch.setattr(cls, "determinize", forgetful_odysseus_determinize)
    check_game("odysseus", monkeypatch, seeds=(5,))


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="a Normal player that reads another seat's hand: caught")
def test_a_policy_that_peeks_at_the_live_game_is_caught(monkeypatch):
    """The Normal player is handed the live game by a leaky wrapper and lets another seat's
    hand decide."""
    import game.engine.bots as bots
    original = bots.choose_action

    def peeking(match, seat, cancelled=None, settings=None):
        legal = match.legal_actions(seat)
        if match.seats[seat].get("level") == "normal" and len(legal) > 1:
            other = match.controller.hands[(seat + 1) % match.controller.n]
            return legal[sum(map(ord, "".join(other))) % len(legal)]
        return original(match, seat, cancelled, settings)

    monkeypatch.setattr(bots, "choose_action", peeking)
    monkeypatch.setitem(globals(), "choose_action", peeking)
    check_game("odysseus", monkeypatch, seeds=(5,))
