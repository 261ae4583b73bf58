"""Odysseus's hooks for the Hard computer player (issue 17): what a determinization redraws
and keeps, that it never depends on another seat's secrets, the estimate of an unfinished
game, and a whole game with a Hard seat."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from game.engine import Match, Rng
from game.engine.bots import choose_action, play_out
from game.engine.search import SearchSettings, search
from game.odysseus import hard
from game.odysseus.data import CARDS, OLYMPUS
from game.odysseus.rules import OdysseusController

QUICK = SearchSettings(iterations=12, rollout_actions=8)


def _match(seed: int, seats: int = 4) -> Match:
    return Match.new("odysseus", [{"name": f"P{i}", "kind": "bot", "level": "normal"}
                                  for i in range(seats)], seed=seed)


def _advance(match: Match, until) -> OdysseusController:
    """Play Normal moves until ``until(controller)`` holds."""
    for _ in range(2000):
        game = match.controller
        if until(game):
            return game
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    raise AssertionError("the game never reached the wanted moment")


def _mid_adventure(game: OdysseusController) -> bool:
    """Cards lie face down on the table from at least two seats, one of them the next to
    act, and nobody has passed yet."""
    adv = game.adv
    if game.step != "play" or adv is None or adv["resolved"] or game.prompts:
        return False
    played = [s for s in range(game.n) if any(not CARDS[c]["special"] for c in adv["played"][s])]
    return len(played) >= 2 and adv["turn"] in played and not adv["passed"]


def _states() -> list[tuple[OdysseusController, int]]:
    """(game, seat): some seeded moments, from the blind first chip to late in the voyage."""
    out = []
    for seed in range(4):
        match = _match(seed)
        out.append((copy.deepcopy(match.controller), match.to_act()[0]))
        game = _advance(match, _mid_adventure)
        out.append((copy.deepcopy(game), game.adv["turn"]))
        game = _advance(match, lambda g: g.round >= 5 and g.to_act())
        out.append((copy.deepcopy(game), game.to_act()[0]))
    return out


STATES = _states()


def _every_card(game: OdysseusController) -> Counter:
    cards = Counter(c for d in game.piles.values() for c in d)
    cards += Counter(c for d in game.discards.values() for c in d)
    cards += Counter(c for h in game.hands for c in h)
    if game.adv is not None and not game.adv["resolved"]:
        cards += Counter(c for p in game.adv["played"] for c in p)
    return cards


@pytest.mark.parametrize("index", range(len(STATES)))
def test_determinize_keeps_the_seats_view_and_every_card(index):
    game, seat = STATES[index]
    for salt in range(3):
        world = copy.deepcopy(game)
        world.determinize(seat, Rng(salt))
        assert world.view(seat) == game.view(seat)
        assert _every_card(world) == _every_card(game) == Counter(list(CARDS))
        assert world.cards_in_play() == 54
        assert sorted(world.olympus) == sorted(game.olympus)
        assert all(sorted(d) == sorted(g) for d, g in zip(world.destiny, game.destiny))
        for d in ("help", "hinder"):
            assert all(CARDS[c]["deck"] == d for c in world.piles[d])
        adv = world.adv
        if adv is not None and not adv["resolved"]:
            for s in range(world.n):
                plain = [c for c in adv["played"][s] if not CARDS[c]["special"]]
                assert len({CARDS[c]["deck"] for c in plain}) <= 1
                assert adv["types"][s] == (CARDS[plain[0]]["deck"] if plain else None)
                assert [p["card"] for p in adv["sequence"] if p["seat"] == s] == \
                    adv["played"][s]
        # The seat's own things are untouched.
        assert sorted(world.hands[seat]) == sorted(game.hands[seat])
        if game.looked[seat]:
            assert world.destiny[seat] == game.destiny[seat]


def test_determinize_redraws_what_the_seat_cannot_see():
    game, seat = next((g, s) for g, s in STATES if _mid_adventure(g))
    others = [s for s in range(game.n) if s != seat]
    changed = Counter()
    for salt in range(10):
        world = copy.deepcopy(game)
        world.determinize(seat, Rng(salt))
        changed["hands"] += any(sorted(world.hands[s]) != sorted(game.hands[s]) for s in others)
        changed["piles"] += world.piles != game.piles
        changed["plays"] += any(world.adv["played"][s] != game.adv["played"][s] for s in others)
        changed["destiny"] += any(world.destiny[s] != game.destiny[s] for s in others)
        changed["olympus"] += world.olympus != game.olympus
    assert min(changed.values()) >= 3, changed


def _perturbed(game: OdysseusController, seat: int, rng: Rng) -> OdysseusController:
    """The same game as ``seat`` sees it with every other seat's secrets changed: hands
    traded with the decks card for card of the same deck, face-down plays exchanged for
    other cards of the same deck, Destiny cards reordered, the decks reshuffled."""
    other = copy.deepcopy(game)
    others = [s for s in range(other.n) if s != seat]
    for s in others:
        for deck in ("help", "hinder"):
            pile = other.piles[deck]
            for i, card in enumerate(other.hands[s]):
                if CARDS[card]["deck"] == deck and pile:
                    j = rng.randbelow(len(pile))
                    other.hands[s][i], pile[j] = pile[j], card
        other.destiny[s] = other.destiny[s][1:] + other.destiny[s][:1]
    adv = other.adv
    if adv is not None and not adv["resolved"]:
        for s in others:
            for i, card in enumerate(adv["played"][s]):
                deck = CARDS[card]["deck"]
                if CARDS[card]["special"]:
                    continue
                pile = other.piles[deck]
                spare = [j for j, c in enumerate(pile) if not CARDS[c]["special"]]
                if spare:
                    j = spare[rng.randbelow(len(spare))]
                    adv["played"][s][i], pile[j] = pile[j], card
                    for play in adv["sequence"]:
                        if play["seat"] == s and play["card"] == card:
                            play["card"] = adv["played"][s][i]
    for deck in ("help", "hinder"):
        rng.shuffle(other.piles[deck])
    rng.shuffle(other.olympus)
    if not other.looked[seat]:
        other.destiny[seat] = other.destiny[seat][::-1]
    return other


@pytest.mark.parametrize("index", range(len(STATES)))
def test_determinize_ignores_every_other_seats_secrets(index):
    game, seat = STATES[index]
    other = _perturbed(game, seat, Rng(99 + index))
    assert other.view(seat) == game.view(seat)
    assert other.snapshot() != game.snapshot()
    for salt in range(3):
        a, b = copy.deepcopy(game), copy.deepcopy(other)
        a.determinize(seat, Rng(salt))
        b.determinize(seat, Rng(salt))
        assert a.snapshot() == b.snapshot()


def test_the_hard_choice_ignores_every_other_seats_secrets():
    for game, seat in STATES[1::3]:
        other = _perturbed(game, seat, Rng(7))
        for salt in range(2):
            assert search(game, seat, Rng(salt), QUICK) == search(other, seat, Rng(salt), QUICK)


def test_the_estimate_is_a_share_that_follows_the_points():
    game, _seat = STATES[-1]
    shares = [game.evaluate(s) for s in range(game.n)]
    assert all(0.0 < v < 1.0 for v in shares)
    richer = copy.deepcopy(game)
    richer.vp[0] += 20
    assert richer.evaluate(0) > shares[0] and richer.evaluate(1) < shares[1]
    assert hard.standing(richer)[0] > 0.7


def test_the_olympus_deck_is_redrawn_from_the_unseen_cards_only():
    game, seat = STATES[-1]
    world = copy.deepcopy(game)
    world.determinize(seat, Rng(3))
    assert sorted(world.olympus + world.olympus_discard) == sorted(o["id"] for o in OLYMPUS)


def test_a_game_with_a_hard_seat_plays_to_the_end(monkeypatch):
    monkeypatch.setattr(OdysseusController, "search_settings", QUICK)
    match = Match.new("odysseus", [{"name": "H", "kind": "bot", "level": "hard"}] + [
        {"name": f"N{i}", "kind": "bot", "level": "normal"} for i in range(2)], seed=5)
    play_out(match)
    assert match.is_over() and match.result()["winners"]
    replay = Match.new("odysseus", match.seats, seed=5)
    for seat, action in [(a["seat"], a["action"]) for a in match.actions]:
        replay.act(seat, action)
    assert replay.result() == match.result()


@pytest.mark.slow
def test_normal_beats_easy_and_hard_beats_normal_in_seeded_voyages():
    from game.engine.tournament import duel
    assert duel("odysseus", "normal", "easy", games=200).ratio >= 1.2
    assert duel("odysseus", "hard", "normal", games=40, seed=21).ratio >= 1.2
