"""The computer player for Odysseus: Winds of Fate.

It sees only its own view.  It backs one of its Destiny cards (its *aim*) and
steers Odysseus toward that ending with the cards it plays and draws, bets on
the rounds the voyage is likely to end in, and grabs points on the way (Turn
Order tiles, rewards, top contribution).

The aim is not fixed: whenever it decides, the bot looks at the voyage as it
stands (crew, round, Odysseus's position and the tiles still face up) and
estimates how likely each ending is with a few hundred quick imaginary voyages
(:func:`forecast`).  It then backs the card where likelihood times chips is
largest, so a voyage that turns (a storm, a lost adventure, a jump toward
Ithaca) turns its aim too.  The same forecast gives the rounds the game may
end in, from which it values a bet, a move of a bet (at Circe's), a chip kept
or a Destiny bet.
"""

from __future__ import annotations

import zlib
from collections import Counter
from functools import lru_cache
from typing import Any

from game.engine import Rng

from .data import CARDS, ENCOUNTERS, LINKS, REWARDS

Action = dict[str, Any]
ENDINGS = ("safe", "dead", "stranded")
#: Crew at or below which a seat aiming at Stranded at Sea starts helping (to avoid death).
STRANDED_CAREFUL = 9
#: Cards a bot plays in one adventure at most before passing (for a better Turn Order tile).
MAX_CARDS = 3
#: Imaginary voyages per forecast.
ROLLOUTS = 160
#: Chance (in %) that an imaginary adventure is won before the encounter's modifiers (the
#: computers win a little under half of their adventures).
WIN_CHANCE = 50
#: Chance (in %) that an Advance card is played in an imaginary adventure (four of the 54
#: cards are Advance cards, and a seat steering toward Stranded at Sea plays them).
ADVANCE_CHANCE = 15
#: Mean red number of a Reward tile (crew lost per revealed tile when an adventure fails).
MEAN_RED = sum(r["red"] for r in REWARDS.values()) / len(REWARDS)
#: A chip kept is worth a little more than one chip at the end (Aeolia and Scheria pay
#: 2 VP per unused chip, and it can still be bet later).
KEEP_CHIP = 1.15
#: The chance of its ending a Destiny card needs before the bot bets on it.
SURE = 0.5


@lru_cache(maxsize=None)
def calm_distance(space: str) -> int:
    """Journeys from ``space`` to Ithaca along calm paths."""
    steps, here = 0, space
    while here != "ithaca" and steps < 20:
        here = LINKS[here]["calm"]
        steps += 1
    return steps


# ------------------------------------------------------------------- forecast
def _key(view: dict[str, Any]) -> tuple[Any, ...]:
    spaces = tuple(sorted((sp, info["tile"] if info["up"] else None, bool(info["up"]))
                          for sp, info in view["spaces"].items()))
    return (view["round"], view["position"], view["crew"], len(view["seats"]), spaces)


def forecast(view: dict[str, Any]) -> dict[str, Any]:
    """How the voyage may end from here: ``{"p": {ending: share}, "rounds": {round:
    share}}``, from :data:`ROLLOUTS` imaginary voyages that use only public things."""
    return _forecast(_key(view))


@lru_cache(maxsize=4096)
def _forecast(key: tuple[Any, ...]) -> dict[str, Any]:
    rng = Rng(zlib.crc32(repr(key).encode()))
    endings: Counter[str] = Counter()
    rounds: Counter[int] = Counter()
    for _ in range(ROLLOUTS):
        ending, final = _voyage(key, rng)
        endings[ending] += 1
        rounds[final] += 1
    return {"p": {e: endings[e] / ROLLOUTS for e in ENDINGS},
            "rounds": {r: c / ROLLOUTS for r, c in rounds.items()}}


def _won(rng: Rng, help_: int = 0, hinder: int = 0) -> bool:
    """An imaginary adventure: :data:`WIN_CHANCE`, shifted by the encounter's modifiers."""
    chance = min(90, max(10, WIN_CHANCE + 8 * (help_ - hinder)))
    return rng.randbelow(100) < chance


def _voyage(key: tuple[Any, ...], rng: Rng) -> tuple[str, int]:
    """One imaginary voyage from the state in ``key``: (ending, final round)."""
    rnd, pos, crew, seats, spaces = key
    tiles = {sp: tile for sp, tile, _up in spaces}
    up = {sp: is_up for sp, _tile, is_up in spaces}
    red = max(1, round(seats * MEAN_RED))
    for _ in range(40):
        if pos == "ithaca":
            for _ in range(2):
                if not _won(rng, help_=3):
                    crew -= 2 * red
                    if crew <= 0:
                        return "dead", rnd
            return "safe", rnd
        e = ENCOUNTERS.get(tiles.get(pos) or "troy", {})
        crew -= e.get("lose_crew", 0)
        if crew <= 0:
            return "dead", rnd
        crew += e.get("return_crew", 0)
        rnd = min(12, rnd + e.get("advance", 0))
        if rng.randbelow(100) < ADVANCE_CHANCE:  # someone plays an Advance card
            rnd = min(12, rnd + 1)
        won = _won(rng, e.get("help", 0), e.get("hinder", 0))
        if not won:
            crew -= red
            if crew <= 0:
                return "dead", rnd
        else:
            crew += e.get("win_return", 0)
        if rnd >= 12:
            return "stranded", 12
        crew -= 1  # the journey
        if crew <= 0:
            return "dead", rnd
        target = LINKS[pos]["calm" if won else "stormy"]
        jump = e.get("jump") if won else None
        if jump == "ithaca":
            target = "ithaca"
        elif jump:
            target = next((sp for sp, t in tiles.items() if t == jump and up.get(sp)), target)
        up[pos] = False
        rnd += 1
        pos = target
        if pos != "ithaca" and not up.get(pos, True):  # wandering among face-down tiles
            rnd = min(12, rnd + 1)
            via, seen = ("calm" if won else "stormy"), []
            while pos != "ithaca" and not up.get(pos, True):
                if via == "stormy":
                    crew -= 1
                    if crew <= 0:
                        return "dead", rnd
                seen.append(pos)
                via = "calm" if seen.count(pos) >= 2 or rng.randbelow(2) == 0 else "stormy"
                pos = LINKS[pos][via]
            if rnd >= 12 and pos != "ithaca":
                return "stranded", 12
    return "stranded", rnd


def payout_value(stack: int, bet_round: int, rounds: dict[int, float]) -> float:
    """Chips a bet is expected to pay, given the chance of each final round.

    >>> payout_value(5, 8, {8: 0.5, 10: 0.5})
    2.5
    """
    return sum(p * max(0, stack - 3 * abs(bet_round - r)) for r, p in rounds.items())


# ------------------------------------------------------------------------ aim
def aim(view: dict[str, Any]) -> tuple[str, int]:
    """(ending, slot) the bot backs now: the Destiny card where the chance of its ending,
    times the chips that ending would pay it (plus one for the chips still to come), is
    largest.  Before its first chip it knows nothing: the card with most chips."""
    me = view["seats"][view["viewer"]]
    chips = me["destiny_chips"]
    if me["destiny"] is None:
        slot = max(range(3), key=lambda i: (chips[i], -i))
        return "stranded", slot
    p = forecast(view)["p"]
    slot = max(range(3), key=lambda i: (p[me["destiny"][i]] * (chips[i] + 1), chips[i], -i))
    return me["destiny"][slot], slot


def likeliest_slot(view: dict[str, Any]) -> int:
    """The Destiny card whose ending is likeliest now (more chips first on a tie)."""
    me = view["seats"][view["viewer"]]
    p = forecast(view)["p"]
    return max(range(3), key=lambda i: (p[me["destiny"][i]], me["destiny_chips"][i], -i))


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
    """The most likely final round (the forecast's), used for a quick guess."""
    rounds = forecast(view)["rounds"]
    return max(rounds, key=lambda r: (rounds[r], r)) if rounds else 12


def choose(view: dict[str, Any], legal: list[Action], rng: Rng) -> Action | None:
    decision = view["decision"]
    if decision is None or not legal:
        return None
    kind = decision["kind"]
    if kind == "setup":  # blind: the cards are seen only after this chip
        return {"type": "destiny", "slot": rng.randbelow(3)}
    ending, slot = aim(view)
    if kind in ("destiny", "reward_destiny"):
        # A chip on a card pays the chance of its ending, whatever already lies there.
        return {"type": "destiny", "slot": likeliest_slot(view)}
    if kind == "draw":
        n = decision["count"]
        side = wanted_side(view, ending)
        return {"type": "draw", "help": n if side == "help" else 0}
    if kind == "claim":
        return max(legal, key=lambda a: _reward_value(a["tile"]))
    if kind in ("bet", "circe"):
        return _bet(view, legal, ending, slot)
    return _play(view, legal, ending, rng)


def _reward_value(tile: int) -> float:
    r = REWARDS[tile]
    worth = {"vp": 1.0, "draw": 0.9, "chip": 2.0, "destiny": 1.6}[r["kind"]]
    return worth * r["amount"] - 0.01 * tile


def bet_values(view: dict[str, Any], legal: list[Action]) -> list[tuple[float, Action]]:
    """Each bet-prompt answer with the chips it is expected to gain (skip: 0)."""
    me = view["seats"][view["viewer"]]
    cast = forecast(view)
    rounds, p = cast["rounds"], cast["p"]
    supply = view["supply"]
    bets = {b["id"]: b for b in view["bets"]}
    out: list[tuple[float, Action]] = []
    for a in legal:
        if a["type"] == "skip":
            value = 0.0
        elif a["type"] == "take_chip":
            value = 1.0
        elif a["type"] == "move_bet":
            b = bets[a["bet"]]
            value = payout_value(b["stack"], a["to"], rounds) - payout_value(
                b["stack"], b["round"], rounds)
        elif "round" in a:
            stack = 1 + min(supply, a["round"] - view["round"])
            value = payout_value(stack, a["round"], rounds) - KEEP_CHIP
        else:
            fate = me["destiny"][a["destiny"]]
            # Chips on a card are locked in until the end: only on a likely ending.
            value = p[fate] * (1 + min(2, supply)) - KEEP_CHIP if p[fate] >= SURE else -1.0
        out.append((value, a))
    return out


def _bet(view, legal, ending, slot) -> Action:
    """The answer expected to gain most chips; a bet only when it beats keeping the chip."""
    values = bet_values(view, legal)
    best = max(values, key=lambda va: va[0])
    return best[1] if best[0] > 0.05 else {"type": "skip"}


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
