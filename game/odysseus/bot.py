"""The computer player for Odysseus: Winds of Fate.

It sees only its own view.  It backs the Destiny card holding most of its
chips (its *aim*), steers Odysseus toward that ending with the cards it plays
and draws, bets on the round it expects the game to end in, and grabs points
on the way (Turn Order tiles, rewards, top contribution).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from game.engine import Rng

from .data import CARDS, LINKS, REWARDS

Action = dict[str, Any]
#: Crew at or below which a seat aiming at Stranded at Sea starts helping (to avoid death).
STRANDED_CAREFUL = 9
#: Cards a bot plays in one adventure at most before passing (for a better Turn Order tile).
MAX_CARDS = 3


@lru_cache(maxsize=None)
def calm_distance(space: str) -> int:
    """Journeys from ``space`` to Ithaca along calm paths."""
    steps, here = 0, space
    while here != "ithaca" and steps < 20:
        here = LINKS[here]["calm"]
        steps += 1
    return steps


def aim(view: dict[str, Any]) -> tuple[str, int]:
    """(ending, slot) the bot backs: its Destiny card with most chips."""
    me = view["seats"][view["viewer"]]
    chips = me["destiny_chips"]
    slot = max(range(3), key=lambda i: (chips[i], -i))
    return me["destiny"][slot], slot


def wanted_side(view: dict[str, Any], ending: str) -> str:
    """Which deck the bot wants Odysseus's fate pushed with now."""
    if ending == "safe":
        return "help"
    if ending == "dead":
        return "hinder"
    # Stranded at Sea: keep him away from Ithaca, but alive.
    if view["crew"] <= STRANDED_CAREFUL:
        return "help"
    return "hinder"


def expected_end(view: dict[str, Any], ending: str) -> int:
    """The round the bot expects the game to end in, if its aim comes true."""
    r = view["round"]
    if ending == "stranded":
        return 12
    if ending == "safe":
        return min(12, r + calm_distance(view["position"]) + 2)
    return min(12, r + max(1, view["crew"] // 5))


def choose(view: dict[str, Any], legal: list[Action], rng: Rng) -> Action | None:
    decision = view["decision"]
    if decision is None or not legal:
        return None
    kind = decision["kind"]
    if kind == "setup":  # blind: the cards are seen only after this chip
        return {"type": "destiny", "slot": rng.randbelow(3)}
    ending, slot = aim(view)
    if kind in ("destiny", "reward_destiny"):
        return {"type": "destiny", "slot": slot}
    if kind == "draw":
        n = decision["count"]
        side = wanted_side(view, ending)
        return {"type": "draw", "help": n if side == "help" else 0}
    if kind == "claim":
        return max(legal, key=lambda a: _reward_value(a["tile"]))
    if kind in ("bet", "circe"):
        return _bet(view, legal, ending, slot, rng)
    return _play(view, legal, ending, rng)


def _reward_value(tile: int) -> float:
    r = REWARDS[tile]
    worth = {"vp": 1.0, "draw": 0.9, "chip": 2.0, "destiny": 1.6}[r["kind"]]
    return worth * r["amount"] - 0.01 * tile


def _bet(view, legal, ending, slot, rng) -> Action:
    bets = [a for a in legal if a["type"] == "bet"]
    if bets:
        target = expected_end(view, ending)
        on_round = [a for a in bets if a.get("round") == target]
        # A long shot on the track pays most when the aim is sure (Stranded: round 12).
        if on_round and (ending == "stranded" or target - view["round"] <= 3):
            return on_round[0]
        on_card = [a for a in bets if a.get("destiny") == slot]
        if on_card:
            return on_card[0]
    if any(a["type"] == "take_chip" for a in legal):
        return {"type": "take_chip"}
    return {"type": "skip"}


def _play(view, legal, ending, rng) -> Action:
    adv = view["adventure"]
    me = view["viewer"]
    mine = adv["mine"] or []
    side = wanted_side(view, ending)
    fixed = adv["my_type"]
    plays = [a for a in legal if a["type"] == "play"]
    specials = [a for a in plays if CARDS[a["card"]]["special"]]
    numbers = [a for a in plays if not CARDS[a["card"]]["special"]]
    for a in specials:
        kind = CARDS[a["card"]]["special"]
        if kind == "vp2":
            return a
        if kind == "draw2" and len(view["seats"][me]["hand"]) <= 4:
            return a
        if kind == "advance" and ending == "stranded":
            return a
    if fixed is not None and fixed != side:
        # Already committed the other way: stop adding to it.
        return {"type": "pass"}
    good = sorted((a for a in numbers if CARDS[a["card"]]["deck"] == side),
                  key=lambda a: -CARDS[a["card"]]["value"])
    if good and len([c for c in mine if not CARDS[c]["special"]]) < MAX_CARDS:
        return good[0]
    return {"type": "pass"}
