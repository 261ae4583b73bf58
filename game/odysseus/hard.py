"""Odysseus's hooks for the Hard computer player (``game/engine/search.py``).

:func:`determinize` redraws, in a copy of the game, everything one seat cannot see: the
other seats' hands, the cards they played face down in the adventure on the table (and so
which deck each of them is playing), the order of the Help, Hinder and Olympus decks, the
other seats' Destiny cards, and the seat's own Destiny cards while it has not yet looked at
them.  Played cards already revealed (the discards), the face-up tiles, Reward tiles, bets
and chips are public and stay.  Every pool is sorted before it is shuffled, and the sizes
it is dealt into are public, so two games that look alike to the seat are redrawn alike.

:func:`standing` estimates, for a game not yet over, each seat's share of the win: a seat's
worth is its final score if the voyage ended as the Normal player's forecast expects (its
VP, plus two per chip: chips in hand, the expected pay of its round bets, and the chips on
each Destiny card times the chance of that ending), and a softmax over the worths, whose
temperature shrinks as the voyage nears its end, gives the shares.  The constants were
fitted by maximum likelihood to 400 seeded games of Normal players (3 to 5 seats), at the
start of every adventure: log-loss 0.99 against 1.24 for "everyone alike".
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from game.engine import Rng

from .bot import ENDINGS, _forecast, payout_value
from .data import CARDS

#: The softmax temperature in points: ``SPREAD * sqrt(rounds left) + FLOOR``.
SPREAD = 0.75
FLOOR = 2.25
#: What a card in hand is worth at the end (it may still win a reward or a top share).
CARD_WORTH = 0.7
#: How ``search.outcome`` scores a finished game: 0.9 for a win, 0.1 for the rank.
WIN_PART = 0.9
LAST_ROUND = 12


def determinize(game: Any, seat: int, rng: Rng) -> None:
    """Redraw everything ``seat`` may not see in ``game`` (a copy), consistently with what
    it saw (see the module's docstring)."""
    n = game.n
    others = [s for s in range(n) if s != seat]
    adv = game.adv
    live = adv is not None and not adv["resolved"]
    # Cards the seat has not seen: the decks, other hands, others' face-down plays.
    hidden_plays = {s: [c for c in adv["played"][s] if not CARDS[c]["special"]]
                    for s in others} if live else {s: [] for s in others}
    pool = [c for d in ("help", "hinder") for c in game.piles[d]]
    for s in others:
        pool += game.hands[s] + hidden_plays[s]
    by_deck = {d: sorted(c for c in pool if CARDS[c]["deck"] == d) for d in ("help", "hinder")}
    plain = {d: sum(1 for c in by_deck[d] if not CARDS[c]["special"]) for d in by_deck}
    need = {d: len(game.piles[d]) for d in by_deck}
    players = [s for s in others if hidden_plays[s]]
    # Which deck each seat that played face down is playing: any choice the pools allow.
    choices = []
    for combo in itertools.product(("help", "hinder"), repeat=len(players)):
        use = {d: sum(len(hidden_plays[s]) for s, c in zip(players, combo) if c == d)
               for d in by_deck}
        if all(use[d] <= plain[d] and use[d] + need[d] <= len(by_deck[d]) for d in by_deck):
            choices.append(combo)
    combo = choices[rng.randbelow(len(choices))] if choices else tuple(
        game.adv["types"][s] for s in players)
    for d in by_deck:
        rng.shuffle(by_deck[d])
    new_plays: dict[int, list[str]] = {}
    for s, d in zip(players, combo):
        cards = [c for c in by_deck[d] if not CARDS[c]["special"]][: len(hidden_plays[s])]
        for c in cards:
            by_deck[d].remove(c)
        new_plays[s] = cards
    for d in by_deck:
        game.piles[d] = by_deck[d][: need[d]]
        by_deck[d] = by_deck[d][need[d]:]
    rest = sorted(by_deck["help"] + by_deck["hinder"])
    rng.shuffle(rest)
    for s in others:
        size = len(game.hands[s])
        game.hands[s], rest = sorted(rest[:size]), rest[size:]
    if live:
        for s in others:
            if not hidden_plays[s]:
                continue
            fresh = iter(new_plays[s])
            adv["played"][s] = [c if CARDS[c]["special"] else next(fresh)
                                for c in adv["played"][s]]
            adv["types"][s] = CARDS[new_plays[s][0]]["deck"]
            fresh = iter(new_plays[s])
            for play in adv["sequence"]:
                if play["seat"] == s and not CARDS[play["card"]]["special"]:
                    play["card"] = next(fresh)
    for s in range(n):
        if s != seat or not game.looked[s]:
            cards = sorted(ENDINGS)
            rng.shuffle(cards)
            game.destiny[s] = cards
    olympus = sorted(game.olympus)
    rng.shuffle(olympus)
    game.olympus = olympus


def forecast_key(game: Any) -> tuple[Any, ...]:
    """The key the Normal player's forecast uses (``bot._key``), from the state itself."""
    spaces = tuple(sorted((sp, game.tiles[sp] if game.up[sp] else None, bool(game.up[sp]))
                          for sp in game.tiles))
    return (game.round, game.pos, game.crew, game.n, spaces)


def worths(game: Any) -> list[float]:
    """Each seat's expected final score if the voyage ends as the forecast expects."""
    cast = _forecast(forecast_key(game))
    p, rounds = cast["p"], cast["rounds"]
    out = []
    for s in range(game.n):
        chips = float(game.chips[s])
        chips += sum(payout_value(b["stack"], b["round"], rounds) for b in game.bets
                     if b["seat"] == s)
        chips += sum(p[game.destiny[s][i]] * game.destiny_chips[s][i] for i in range(3))
        out.append(game.vp[s] + 2 * chips + CARD_WORTH * len(game.hands[s]))
    return out


def standing(game: Any) -> list[float]:
    """Every seat's expected score (0..1, as ``search.outcome`` gives it) in an unfinished
    game, from :func:`worths`."""
    n = game.n
    values = worths(game)
    left = max(0, LAST_ROUND - game.round)
    temperature = SPREAD * math.sqrt(left) + FLOOR
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    out = []
    for s in range(n):
        rank = sum(weights[s] / (weights[s] + weights[o]) for o in range(n) if o != s)
        out.append(WIN_PART * weights[s] / total + (1 - WIN_PART) * rank / (n - 1))
    return out


#: The Hard player's budget per decision in the search's work units (``game/engine/search.py``,
#: ``SearchSettings.work``: an action played in a playout is one, a playout's copy and estimate
#: four, a redrawn world four).  Counted, never timed: the same save gives the same choices on
#: any machine.  Fitted (issue 27) so that a decision takes at most about 1 s of CPU at the 95th
#: percentile and 2.5 s at most on the 2-core development machine under load, every table size:
#: before, 200 playouts spent about 4,500 units (0.19 s median, 0.22 s p95); the cap keeps the
#: rare long decision in bounds.
WORK_BUDGET = 9000
