"""Odysseus privacy: no view of another seat, no event not addressed to it, no status line,
handover card or public board frame reveals a seat's hand, face-down plays, type in the
current adventure or Destiny order before the reveal.

The proof is by indistinguishability: take the game at some moment, change one seat's
secrets only (rotate its Destiny cards, swap its hand for other cards, swap its face-down
plays for cards of the other deck, which flips its type), and check that everything any
other seat (or the public) can see is exactly the same in both games, and stays the same
after the next action of another seat.
"""

from __future__ import annotations

import copy

import pygame
import pytest

from game.engine import Match, Rng
from game.engine.bots import choose_action
from game.engine.events import audience, visible_to
from game.odysseus.data import CARDS
from game.odysseus.rules import OdysseusController
from game.ui.scenes.handover import HandoverScene
from game.ui.scenes.play import PlayScene

from uidriver import Driver

#: Events after which the secrets are legitimately public (the resolve, the end).
REVEALING = ("resolve", "over")


def seats(n: int, kind: str = "bot") -> list[dict]:
    return [{"name": f"P{i + 1}", "kind": kind} for i in range(n)]


def scramble(c: OdysseusController, seat: int, piles: bool = True) -> OdysseusController:
    """A copy of ``c`` that differs only in ``seat``'s secrets.

    ``piles``: also swap the seat's hand cards with cards from the draw piles (the piles are
    secret too, but a later draw by another seat would then legitimately differ).
    """
    g = copy.deepcopy(c)
    g.destiny[seat] = g.destiny[seat][1:] + g.destiny[seat][:1]
    hand = g.hands[seat]
    adv = g.adv
    if adv is not None and not adv["resolved"] and adv["types"][seat] is not None:
        fixed = adv["types"][seat]
        other = "hinder" if fixed == "help" else "help"
        faced = [card for card in adv["played"][seat] if not CARDS[card]["special"]]
        spare = [card for card in hand if CARDS[card]["deck"] == other
                 and not CARDS[card]["special"]]
        if len(spare) >= len(faced):  # the seat could have played the other deck all along
            swap = dict(zip(faced, spare))
            adv["types"][seat] = other
        else:  # same deck, other cards: different values
            spare = [card for card in hand if CARDS[card]["deck"] == fixed
                     and not CARDS[card]["special"]]
            swap = dict(zip(faced, spare))
        for old, new in swap.items():
            hand[hand.index(new)] = old
            played = adv["played"][seat]
            played[played.index(old)] = new
            for entry in adv["sequence"]:
                if entry["card"] == old:
                    entry["card"] = new
    if piles:
        for i, card in enumerate(hand):
            pile = g.piles[CARDS[card]["deck"]]
            if pile:
                j = i % len(pile)
                hand[i], pile[j] = pile[j], hand[i]
    return g


def differs(a: OdysseusController, b: OdysseusController, seat: int) -> bool:
    """Whether the scramble changed anything secret for ``seat`` (a useful comparison)."""
    return (a.destiny[seat] != b.destiny[seat] or sorted(a.hands[seat]) != sorted(b.hands[seat])
            or (a.adv is not None and a.adv["played"][seat] != b.adv["played"][seat]))


def public_part(events: list[dict], viewer: int | None) -> list[dict]:
    """The events ``viewer`` may read, up to the first one that reveals secrets by rule."""
    out = []
    for ev in events:
        if ev["type"] in REVEALING:
            break
        if visible_to(ev, viewer):
            out.append(ev)
    return out


def check_moment(c: OdysseusController, rng: Rng) -> int:
    """Compare every other seat's view, status and next events in a scrambled copy."""
    compared = 0
    if c.is_over():
        return 0
    for seat in range(c.n):
        others = [None, *[v for v in range(c.n) if v != seat]]
        twin = scramble(c, seat)
        if not differs(c, twin, seat):
            continue
        for viewer in others:
            assert twin.view(viewer) == c.view(viewer), (seat, viewer)
        assert twin.status() == c.status()
        compared += 1
        # The next action: the same events for everyone else.  Another seat takes the same
        # action in both games; the seat itself plays a face-down card in both (another card,
        # perhaps of the other deck) or takes the same public action.
        actor = c.to_act()[0]
        a, b = copy.deepcopy(c), scramble(c, seat, piles=False)
        action = rng.choice(a.legal_actions(actor))
        twin_action = action
        if actor == seat and action["type"] == "play":
            if CARDS[action["card"]]["special"]:
                continue
            hidden = [x for x in b.legal_actions(actor) if x["type"] == "play"
                      and not CARDS[x["card"]]["special"]]
            if not hidden:
                continue
            twin_action = hidden[-1]
        elif action not in b.legal_actions(actor):
            assert actor == seat
            continue
        ea, eb = a.apply(actor, action), b.apply(actor, twin_action)
        for viewer in others:
            assert public_part(eb, viewer) == public_part(ea, viewer), (
                seat, viewer, action, twin_action)
        if not any(ev["type"] in REVEALING for ev in ea):
            for viewer in others:
                assert b.view(viewer) == a.view(viewer), (seat, viewer, action)
    return compared


@pytest.mark.parametrize("n,seed,player", [(3, 1, "random"), (4, 2, "bot"), (5, 3, "random"),
                                           (5, 4, "bot")])
def test_no_other_seat_can_tell_a_seats_secrets(n, seed, player):
    match = Match.new("odysseus", seats(n), seed=seed)
    rng = Rng.derive(seed, 99)
    compared = 0
    while not match.is_over():
        compared += check_moment(match.controller, rng)
        seat = match.to_act()[0]
        action = (choose_action(match, seat) if player == "bot"
                  else rng.choice(match.legal_actions(seat)))
        match.act(seat, action)
    assert compared > 100


def test_the_scramble_really_changes_secrets_the_seat_itself_sees():
    """The comparison above is not vacuous: the seat's own view does change."""
    match = Match.new("odysseus", seats(4), seed=12)
    flipped = 0
    while not match.is_over() and flipped < 3:
        c = match.controller
        if c.step == "play" and c.adv["types"][c.to_act()[0]] is not None:
            seat = c.to_act()[0]
            twin = scramble(c, seat)
            mine, theirs = c.view(seat), twin.view(seat)
            assert mine != theirs
            assert mine["seats"][seat]["destiny"] != theirs["seats"][seat]["destiny"]
            assert mine["adventure"]["mine"] != theirs["adventure"]["mine"]
            if mine["adventure"]["my_type"] != theirs["adventure"]["my_type"]:
                flipped += 1
        seat = match.to_act()[0]
        match.act(seat, choose_action(match, seat))
    assert flipped >= 1


def test_public_log_never_names_a_hidden_card_or_destiny():
    """Before the end, the public log holds no drawn or face-down card and no Destiny order;
    every event with such a secret is addressed to its own seat only."""
    for n, seed in ((3, 5), (5, 6)):
        match = Match.new("odysseus", seats(n), seed=seed)
        rng = Rng(seed)
        while not match.is_over():
            seat = match.to_act()[0]
            match.act(seat, rng.choice(match.legal_actions(seat)))
        over = next(i for i, e in enumerate(match.log) if e["type"] == "over")
        for ev in match.log[:over]:
            if ev["type"] in ("drew", "played", "looked"):
                assert audience(ev) == [ev["seat"]]
            if audience(ev) is None:
                assert ev["type"] != "destiny_reveal"
                assert "cards" not in ev or ev["type"] == "rewards"
                assert "Destiny cards, in order" not in ev["text"]
                if "card" in ev:  # only face-up cards, the revealed cards and Olympus
                    assert ev["type"] in ("special", "reveal", "olympus")
        for viewer in [None, *range(n)]:
            for ev in match.log_for(viewer)[:over]:
                assert visible_to(ev, viewer)
                if audience(ev):
                    assert audience(ev) == [viewer]


def test_handover_card_and_public_board_show_nothing_secret():
    """The handover card and the board behind it are drawn from the public view: two games
    that differ only in the next person's secrets give the same pixels."""
    d = Driver(size=(1280, 720))
    people = [{"name": n, "kind": "human"} for n in ("Mira", "Bo", "Tess")]
    match = Match.new("odysseus", people, seed=21)
    rng = Rng(3)
    checked = 0
    while not match.is_over() and checked < 3:
        c = match.controller
        if c.step == "play" and c.adv["sequence"] and len(match.actions) > 30:
            seat = c.to_act()[0]
            frames = []
            for controller in (c, scramble(c, seat)):
                match.controller = controller
                play = PlayScene(d.app, match)
                d.app.push(play)
                d.pump(2)
                assert isinstance(d.top, HandoverScene) and play.viewer is None
                d.app.draw()
                frames.append(pygame.image.tobytes(pygame.display.get_surface(), "RGB"))
                d.app.pop()
                d.app.pop()
            match.controller = c
            assert frames[0] == frames[1]
            checked += 1
        seat = match.to_act()[0]
        match.act(seat, rng.choice(match.legal_actions(seat)))
    assert checked == 3
