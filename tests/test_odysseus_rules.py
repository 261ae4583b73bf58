"""Odysseus: Winds of Fate: every rule, ruling and worked example of the rule text."""

from __future__ import annotations

import pytest

from game.engine import IllegalAction, Rng
from game.engine.events import audience, reveals
from game.odysseus.data import CARDS, CREW, LINKS, OLYMPUS, REWARDS, TILES
from game.odysseus.rules import (OdysseusController, adventure_outcome, bet_payout,
                                 bet_stack_size)

NAMES = ["Tom", "Ann", "Bea", "Cal", "Dee"]


def new(n: int = 3, seed: int = 1) -> OdysseusController:
    return OdysseusController([{"name": NAMES[i], "kind": "human"} for i in range(n)], {},
                              Rng(seed))


def act(c: OdysseusController, action: dict, seat: int | None = None) -> list[dict]:
    seat = c.to_act()[0] if seat is None else seat
    return c.apply(seat, action)


def after_setup(n: int = 3, seed: int = 1) -> OdysseusController:
    """Every seat has put its first chip on Destiny card 0; Troy's bets are next."""
    c = new(n, seed)
    for _ in range(n):
        act(c, {"type": "destiny", "slot": 0})
    return c


def card(deck: str, value: int | None = None, special: str | None = None,
         skip: tuple[str, ...] = ()) -> str:
    """Some card id of that deck and value (or special kind)."""
    return next(cid for cid, info in sorted(CARDS.items()) if info["deck"] == deck
                and cid not in skip
                and (info["special"] == special if special else info["value"] == value
                     and not info["special"]))


def olympus(god: str, value: int) -> str:
    return next(o["id"] for o in OLYMPUS if o["god"] == god and o["value"] == value)


def space_of(c: OdysseusController, tile: str) -> str:
    return next(sp for sp, t in c.tiles.items() if t == tile)


def force_tile(c: OdysseusController, tile: str, space: str = "sea1") -> str:
    """Put ``tile`` face up on ``space`` (swapping with wherever it was)."""
    where = space_of(c, tile) if tile in c.tiles.values() else None
    if where is None:  # it was the leftover
        c.leftover, c.tiles[space] = c.tiles[space], tile
    else:
        c.tiles[where], c.tiles[space] = c.tiles[space], tile
    c.up[space] = True
    return space


def encounter_at(c: OdysseusController, tile: str, space: str = "sea1") -> list[dict]:
    """Move Odysseus onto ``tile`` (face up) and run its Encounter phase."""
    if tile not in ("troy", "ithaca"):
        space = force_tile(c, tile, space)
    else:
        space = tile
    c.prompts = []
    c.pos = space
    c.step = "encounter"
    c._events = []
    c._run()
    return c._events


def skip_prompts(c: OdysseusController) -> None:
    """Answer every pending prompt in the plainest way (skip, draw Help, claim first)."""
    while c.prompts:
        kind = c.prompts[0]["kind"]
        legal = c.legal_actions(c.to_act()[0])
        if kind in ("bet", "circe", "destiny"):
            act(c, {"type": "skip"})
        else:
            act(c, legal[0])


def answer(c: OdysseusController) -> None:
    """Answer the pending prompt plainly, or pass if it is a play turn."""
    if not c.prompts:
        act(c, {"type": "pass"})
    elif c.prompts[0]["kind"] in ("bet", "circe", "destiny"):
        act(c, {"type": "skip"})
    else:
        act(c, c.legal_actions(c.to_act()[0])[0])


def settle(c: OdysseusController) -> None:
    """Answer prompts until a card must be played (or the game is over)."""
    while c.prompts and not c.is_over():
        answer(c)


def everyone_passes(c: OdysseusController) -> None:
    """Everyone passes (answering prompts plainly) until this adventure is resolved."""
    start = len(c.history)
    while len(c.history) == start and not c.is_over():
        answer(c)


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


# ------------------------------------------------------------------ pure rules
def test_bet_payout_worked_example():
    # "a stack of 8 Bet Chips is on round 9, and the game ends in round 7: 8-3-3=2"
    assert bet_payout(8, 9, 7) == 2
    assert bet_payout(8, 9, 9) == 8
    assert bet_payout(8, 9, 11) == 2
    assert bet_payout(4, 5, 7) == 0          # never below zero
    assert bet_payout(1, 12, 1) == 0


def test_adventure_outcome_tie_is_a_win():
    assert adventure_outcome(7, 7) == "won"
    assert adventure_outcome(7, 8) == "lost"
    assert adventure_outcome(9, 2) == "won"


def test_toms_bet_example():
    """Round 2, Tom already bets on round 10, so he bets on 9: 1 chip + 7 from the supply."""
    assert bet_stack_size(2, 9) == 8
    c = after_setup()
    tom = 0
    skip_prompts(c)
    c.round = 2
    c.bets = [{"id": 99, "seat": tom, "round": 10, "stack": 9}]
    c.chips[tom] = 1
    c.supply -= 9  # the chips that stack holds
    c.prompts = [{"seat": tom, "kind": "bet"}]
    before_supply = c.supply
    assert {"type": "bet", "round": 10} not in c.legal_actions(tom)
    with pytest.raises(IllegalAction, match="already have a bet on round 10"):
        c.apply(tom, {"type": "bet", "round": 10})
    c.apply(tom, {"type": "bet", "round": 9})
    bet = next(b for b in c.bets if b["round"] == 9)
    assert bet["stack"] == 8 and bet["seat"] == tom
    assert c.supply == before_supply - 7 and c.chips[tom] == 0
    assert c.chips_in_play() == 50


# ----------------------------------------------------------------------- setup
@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup(n):
    c = new(n)
    assert c.crew == CREW[n] == {3: 25, 4: 30, 5: 35}[n]
    assert c.round == 1 and c.pos == "troy"
    assert sorted(c.order) == list(range(n))
    sea = [c.tiles[f"sea{i}"] for i in range(1, 10)]
    assert sorted(sea + [c.leftover]) == sorted(TILES) and len(TILES) == 10
    assert all(c.up[f"sea{i}"] for i in range(1, 10))
    for seat in range(n):
        decks = sorted(CARDS[x]["deck"] for x in c.hands[seat])
        assert decks == ["help"] * 3 + ["hinder"] * 3
        assert sorted(c.destiny[seat]) == ["dead", "safe", "stranded"]
    assert sum(len(h) for h in c.hands) + sum(len(p) for p in c.piles.values()) == 54
    assert len(c.olympus) == 6 and len(REWARDS) == 12
    assert c.chips == [2] * n and c.chips_in_play() == 50
    # The first chip goes on a Destiny card, in turn order.
    assert c.to_act() == [c.order[0]]
    assert c.legal_actions(c.order[0]) == [{"type": "destiny", "slot": i} for i in range(3)]
    act(c, {"type": "destiny", "slot": 2})
    assert c.destiny_chips[c.order[0]] == [0, 0, 1] and c.chips[c.order[0]] == 1


def test_deck_recipe_and_specials():
    specials = [x for x in CARDS.values() if x["special"]]
    assert len(CARDS) == 54
    assert {x["special"] for x in specials} == {"draw2", "vp2", "advance"}
    assert sum(1 for x in CARDS.values() if x["deck"] == "help") == 27
    assert {o["god"] for o in OLYMPUS} == {"athena", "poseidon"}


# ------------------------------------------------------------------- encounters
def test_troy_each_player_may_place_one_bet_in_turn_order():
    c = after_setup()
    assert [p["kind"] for p in c.prompts] == ["bet"] * 3
    assert [p["seat"] for p in c.prompts] == c.order
    first = c.order[0]
    act(c, {"type": "bet", "round": 4})
    assert c.bets[0] == {"id": 1, "seat": first, "round": 4, "stack": 4}
    act(c, {"type": "bet", "destiny": 1})  # on a Destiny card: 1 chip + 2 from the supply
    assert c.destiny_chips[c.order[1]][1] == 3
    act(c, {"type": "skip"})
    assert c.step == "play" and c.chips_in_play() == 50


def test_aeolia_scores_unused_chips_and_destiny_actions_and_jump():
    c = after_setup()
    skip_prompts(c)
    c.chips = [1, 0, 1]
    c.supply += 1  # keep the count honest: seat 1's chip went back
    vp = list(c.vp)
    encounter_at(c, "aeolia", "sea4")
    assert [c.vp[s] - vp[s] for s in range(3)] == [2, 0, 2]
    assert [p["kind"] for p in c.prompts] == ["destiny"] * 3
    act(c, {"type": "destiny", "slot": 2})
    assert c.destiny_chips[c.order[0]][2] == 1
    skip_prompts(c)
    scheria = force_tile(c, "scheria", "sea2")
    win_adventure(c)
    assert c.pos == scheria  # straight to Scheria, not along the calm path (sea6)


def test_aeolia_jump_falls_back_to_calm_path_when_scheria_is_not_face_up():
    c = after_setup()
    skip_prompts(c)
    encounter_at(c, "aeolia", "sea4")
    skip_prompts(c)
    force_tile(c, "scheria", "sea2")
    c.up["sea2"] = False  # Scheria has been visited: face down
    win_adventure(c)
    assert c.pos == LINKS["sea4"]["calm"]


def test_scheria_win_sails_straight_to_ithaca():
    c = after_setup()
    skip_prompts(c)
    encounter_at(c, "scheria", "sea1")
    skip_prompts(c)
    win_adventure(c)
    assert c.pos == "ithaca"


def win_adventure(c: OdysseusController) -> None:
    """Everyone passes; Athena 3 comes up: Help 3 against 0 (plus modifiers) wins."""
    c.olympus.append(olympus("athena", 3))
    everyone_passes(c)


def lose_adventure(c: OdysseusController) -> None:
    c.olympus.append(olympus("poseidon", 3))
    everyone_passes(c)


def test_calypso_advances_the_round_twice_and_gives_destiny_actions():
    c = after_setup()
    skip_prompts(c)
    c.round = 3
    encounter_at(c, "calypso")
    assert c.round == 5
    assert [p["kind"] for p in c.prompts] == ["destiny"] * 3


def test_charybdis_doubles_the_olympus_card():
    c = after_setup()
    skip_prompts(c)
    encounter_at(c, "charybdis")
    skip_prompts(c)
    c.olympus.append(olympus("poseidon", 2))
    c._events = []
    everyone_passes(c)
    ev = next(e for e in c.log_events if e["type"] == "olympus")
    assert ev["value"] == 4 and ev["side"] == "hinder"
    assert c.history[-1]["hinder"] == 4 and c.history[-1]["outcome"] == "lost"


@pytest.fixture(autouse=True)
def keep_log(monkeypatch):
    """Record every event the controller emits on ``c.log_events``."""
    original = OdysseusController.apply

    def apply(self, seat, action):
        events = original(self, seat, action)
        self.__dict__.setdefault("log_events", []).extend(events)
        return events

    monkeypatch.setattr(OdysseusController, "apply", apply)


def test_circe_place_move_or_take_a_chip():
    c = after_setup()
    skip_prompts(c)
    c.bets = []
    encounter_at(c, "circe")
    assert [p["kind"] for p in c.prompts] == ["circe"] * 3
    a, b, d = c.order
    c.bets.append({"id": 50, "seat": b, "round": 6, "stack": 1})
    c.chips[b] -= 1
    act(c, {"type": "take_chip"})
    assert c.chips[a] == 2
    assert {"type": "move_bet", "bet": 50, "to": 7} in c.legal_actions(b)
    with pytest.raises(IllegalAction, match="neighbouring"):
        act(c, {"type": "move_bet", "bet": 50, "to": 8})
    act(c, {"type": "move_bet", "bet": 50, "to": 5})
    assert c.bets[0]["round"] == 5
    act(c, {"type": "bet", "round": 3})
    assert c.chips_in_play() == 50


def test_moving_a_bet_may_put_two_bets_on_one_round():
    c = after_setup()
    skip_prompts(c)
    encounter_at(c, "circe")
    a = c.order[0]
    c.bets = [{"id": 7, "seat": a, "round": 5, "stack": 1}, {"id": 8, "seat": a, "round": 6,
                                                             "stack": 2}]
    act(c, {"type": "move_bet", "bet": 8, "to": 5})
    assert [b["round"] for b in c.bets] == [5, 5]


def test_cyclops_loses_one_crew_and_adds_three_to_hinder():
    c = after_setup()
    skip_prompts(c)
    crew = c.crew
    encounter_at(c, "cyclops")
    assert c.crew == crew - 1
    c.olympus.append(olympus("athena", 3))
    everyone_passes(c)
    assert c.history[-1]["help"] == 3 and c.history[-1]["hinder"] == 3
    assert c.history[-1]["outcome"] == "won"  # a tie is a win


def test_laestrygonians_lose_three_crew():
    c = after_setup()
    skip_prompts(c)
    crew = c.crew
    encounter_at(c, "laestrygonians")
    assert c.crew == crew - 3


def test_lotophagi_advances_round_and_a_win_returns_three_crew():
    c = after_setup()
    skip_prompts(c)
    crew, rnd = c.crew, c.round
    encounter_at(c, "lotophagi")
    assert c.round == rnd + 1
    c.olympus.append(olympus("athena", 1))
    c.__dict__["log_events"] = []
    everyone_passes(c)
    changes = [e["change"] for e in c.log_events if e["type"] == "crew"]
    assert changes[:2] == [3, -1]  # +3 for the win, then -1 for the journey
    assert crew == c.history[-1]["red"] + crew


def test_scylla_loses_six_crew_then_bets():
    c = after_setup()
    skip_prompts(c)
    crew = c.crew
    encounter_at(c, "scylla")
    assert c.crew == crew - 6
    assert [p["kind"] for p in c.prompts] == ["bet"] * 3


def test_sirens_each_draws_two_and_two_crew_return():
    c = after_setup()
    skip_prompts(c)
    crew = c.crew
    encounter_at(c, "sirens")
    assert c.crew == crew + 2
    assert [(p["kind"], p["count"]) for p in c.prompts] == [("draw", 2)] * 3
    seat = c.order[0]
    hand = len(c.hands[seat])
    help_pile, hinder_pile = len(c.piles["help"]), len(c.piles["hinder"])
    events = act(c, {"type": "draw", "help": 1})  # one from each deck, chosen first
    assert len(c.hands[seat]) == hand + 2
    assert len(c.piles["help"]) == help_pile - 1 and len(c.piles["hinder"]) == hinder_pile - 1
    private = [e for e in events if e["type"] == "drew"]
    assert private and audience(private[0]) == [seat]
    public = next(e for e in events if e["type"] == "draw")
    assert "to" not in public and "cards" not in public


# -------------------------------------------------------------------- adventure
def playing(c: OdysseusController) -> OdysseusController:
    skip_prompts(c)
    assert c.step == "play"
    return c


def test_reward_tiles_one_per_player():
    for n in (3, 4, 5):
        c = playing(after_setup(n))
        assert len(c.adv["rewards"]) == n


def test_first_card_fixes_the_type_and_specials_do_not():
    c = playing(after_setup())
    seat = c.order[0]
    h1, h2 = card("help", 1), card("help", 2)
    x1 = card("hinder", 3)
    vp2 = card("hinder", special="vp2")
    c.hands[seat] = [vp2, h1, h2, x1]
    act(c, {"type": "play", "card": vp2})  # face up, does not fix the type
    assert c.adv["types"][seat] is None and c.vp[seat] == 2
    for other in c.order[1:]:
        act(c, {"type": "pass"}, other)
        while c.prompts:
            answer(c)
    assert c.to_act() == [seat]
    act(c, {"type": "play", "card": x1})
    assert c.adv["types"][seat] == "hinder"
    assert {"type": "play", "card": h1} not in c.legal_actions(seat)
    with pytest.raises(IllegalAction, match="Hinder cards"):
        act(c, {"type": "play", "card": h1})


def test_passing_takes_the_highest_tile_and_its_reward():
    c = playing(after_setup(5))
    order = list(c.order)
    vp = list(c.vp)
    for n, seat in enumerate(order):
        assert c.to_act() == [seat]
        act(c, {"type": "pass"})
        tile = 5 - n
        assert c.adv["tiles"][seat] == tile
        draws = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4}[tile]
        if draws:
            assert c.prompts[0] == {"seat": seat, "kind": "draw", "count": draws,
                                    "why": "turn tile"}
            act(c, {"type": "draw", "help": 0})
        assert c.vp[seat] - vp[seat] == {1: 4, 2: 2}.get(tile, 0)
    # The new turn order follows the tiles: the last to pass goes first.
    assert c.order == list(reversed(order))
    # Rewards are claimed in the new turn order.
    assert c.prompts[0] == {"seat": order[-1], "kind": "claim"}


def test_claims_in_new_order_and_last_tile_is_automatic():
    c = playing(after_setup())
    order = list(c.order)
    c.olympus.append(olympus("athena", 1))
    for seat in order:
        act(c, {"type": "pass"})
        while c.prompts and c.prompts[0]["kind"] == "draw":
            act(c, {"type": "draw", "help": 1})
    new_order = list(reversed(order))
    rewards = list(c.adv["rewards"])
    assert c.to_act() == [new_order[0]]
    # A chip reward could bring a follow-up; claim and answer follow-ups.
    act(c, {"type": "claim", "tile": rewards[0]})
    while c.prompts and c.prompts[0]["kind"] != "claim":
        act(c, c.legal_actions(c.to_act()[0])[0])
    with pytest.raises(IllegalAction, match="already claimed"):
        act(c, {"type": "claim", "tile": rewards[0]})
    assert c.to_act() == [new_order[1]]
    act(c, {"type": "claim", "tile": rewards[1]})
    c.__dict__["log_events"] = []
    while not c.history:
        answer(c)
    claims = [(e["tile"], e["seat"]) for e in c.log_events if e["type"] == "claim"]
    # The last seat gets the last tile without being asked.
    assert (rewards[2], new_order[2]) in claims


def test_resolve_contributions_top_contributor_ties_and_crew_loss():
    c = playing(after_setup())
    a, b, d = c.order
    h3, h1 = card("help", 3), card("help", 1)
    x2, x2b = card("hinder", 2), card("hinder", 2, skip=(card("hinder", 2),))
    adv_card = card("help", special="advance")
    c.hands[a] = [h3, h1]
    c.hands[b] = [x2, x2b]
    c.hands[d] = [adv_card]
    c.olympus.append(olympus("poseidon", 1))
    act(c, {"type": "play", "card": h3})
    act(c, {"type": "play", "card": x2})
    act(c, {"type": "play", "card": adv_card})  # face up: round +1, counts -2
    act(c, {"type": "play", "card": h1})
    act(c, {"type": "play", "card": x2b})
    for _ in range(3):  # d, a, b pass (answering their tile's draws)
        act(c, {"type": "pass"})
        while c.prompts and c.prompts[0]["kind"] == "draw":
            answer(c)
    vp = list(c.vp)
    crew = c.crew
    red = sum(REWARDS[t]["red"] for t in c.adv["rewards"])
    c.__dict__["log_events"] = []
    everyone_passes(c)
    # a and b both contributed 4: both score 2 VP; d (-2) does not.
    top = next(e for e in c.log_events if e["type"] == "top")
    assert top["contribution"][a] == 4 and top["contribution"][b] == 4
    assert top["contribution"][d] == -2 and sorted(top["seats"]) == sorted([a, b])
    # Help 4 against Hinder 4 + Poseidon 1 = 5: lost; crew loss = every revealed red number.
    assert c.history[-1] == {"round": 2, "encounter": "troy", "help": 4, "hinder": 5,
                             "outcome": "lost", "red": red}
    assert c.crew == crew - red - 1  # plus the journey's crew
    gained = [c.vp[s] - vp[s] for s in (a, b, d)]
    assert gained[0] >= 2 and gained[1] >= 2


def test_reveal_events_come_one_card_at_a_time_then_olympus_then_totals():
    c = playing(after_setup())
    a, b, d = c.order
    c.hands[a] = [card("help", 2)]
    c.hands[b] = [card("hinder", 1)]
    c.olympus.append(olympus("athena", 2))
    act(c, {"type": "play", "card": c.hands[a][0]})
    act(c, {"type": "play", "card": c.hands[b][0]})
    c.__dict__["log_events"] = []
    everyone_passes(c)
    kinds = [e["type"] for e in c.log_events]
    i = kinds.index("resolve")
    assert kinds[i + 1:i + 3] == ["reveal", "reveal"]
    assert kinds.index("olympus") < kinds.index("totals")
    reveals = [e for e in c.log_events if e["type"] == "reveal"]
    assert [(e["help"], e["hinder"]) for e in reveals] == [(2, 0), (2, 1)]
    totals = next(e for e in c.log_events if e["type"] == "totals")
    assert (totals["help"], totals["hinder"], totals["outcome"]) == (4, 1, "won")


def test_draw_two_special_and_no_top_contributor_without_cards():
    c = playing(after_setup())
    a = c.order[0]
    d2 = card("hinder", special="draw2")
    c.hands[a] = [d2]
    act(c, {"type": "play", "card": d2})
    assert c.prompts[0] == {"seat": a, "kind": "draw", "count": 2, "why": "card"}
    act(c, {"type": "draw", "help": 2})
    assert len(c.hands[a]) == 2
    c.__dict__["log_events"] = []
    everyone_passes(c)
    top = next(e for e in c.log_events if e["type"] == "top")
    assert top["seats"] == []  # -2 is no top contribution


# ---------------------------------------------------------------------- journey
def test_journey_loses_crew_follows_calm_path_flips_tile_and_advances_round():
    c = playing(after_setup())
    crew, rnd = c.crew, c.round
    leftover = c.leftover
    win_adventure(c)
    assert c.pos == LINKS["troy"]["calm"] and c.round == rnd + 1
    assert c.crew == crew - 1
    assert c.tiles["troy"] == leftover and c.up["troy"] is False  # leftover face down on Troy


def test_lost_adventure_takes_the_stormy_path():
    c = playing(after_setup())
    c.adv["rewards"] = [t for t in c.adv["rewards"]]
    lose_adventure(c)
    assert c.pos == LINKS["troy"]["stormy"]


def test_journey_leaves_the_tile_face_down():
    c = after_setup()
    skip_prompts(c)
    encounter_at(c, "laestrygonians", "sea3")
    skip_prompts(c)
    win_adventure(c)
    assert c.up["sea3"] is False and c.pos == LINKS["sea3"]["calm"]


# ------------------------------------------------------------- face-down tiles
def at_sea3_before_journey(c: OdysseusController) -> None:
    encounter_at(c, "laestrygonians", "sea3")
    skip_prompts(c)


def test_face_down_calm_arrival_everyone_draws_then_olympus_moves_and_round_once():
    c = after_setup()
    skip_prompts(c)
    c.crew = 30
    at_sea3_before_journey(c)
    c.up["sea5"] = False  # sea3 calm -> sea5 (face down) -> ...
    c.up["sea8"] = False  # sea5 calm -> sea8 (face down)
    rnd = c.round
    # Olympus: Athena wins the adventure, then Athena twice more while wandering.
    c.olympus += [olympus("athena", 1), olympus("athena", 2), olympus("athena", 3)]
    c.__dict__["log_events"] = []
    everyone_passes(c)
    settle(c)
    kinds = types(c.log_events)
    wandering = c.log_events[kinds.index("wander"):]
    draws = [e for e in wandering if e["type"] == "draw"]
    assert len(draws) == 2 * 3 and all(e["count"] == 1 for e in draws)  # at sea5 and sea8
    assert sum(e["type"] == "round" for e in wandering) == 0  # advanced once, before
    # Journey (+1) and one wander (+1), no matter how many face-down tiles.
    # Two calm arrivals: each seat drew a card at sea5 and at sea8.
    assert c.pos == "ithaca" and c.round == rnd + 2
    assert c.step == "play" and c.adv["double"]


def test_face_down_stormy_arrival_loses_one_crew():
    c = after_setup()
    skip_prompts(c)
    at_sea3_before_journey(c)
    c.up["sea4"] = False  # sea3 stormy -> sea4 (face down), whose calm path is sea6
    crew = c.crew
    c.olympus += [olympus("athena", 1), olympus("poseidon", 3)]  # wander: Athena (calm)
    everyone_passes(c)
    # -1 journey, -1 stormy arrival at a face-down tile; the adventure lost its red numbers.
    lost = c.history[-1]["red"]
    assert c.pos == "sea6" and c.crew == crew - 1 - 1 - lost
    assert c.step == "encounter" or c.prompts or c.step == "play"


def test_a_face_down_tile_reached_twice_sends_odysseus_along_its_calm_path():
    c = after_setup()
    skip_prompts(c)
    c.crew = 30
    at_sea3_before_journey(c)
    for sp in ("sea4", "sea1", "sea2"):
        c.up[sp] = False
    # sea3 lost -> stormy to sea4 (down).  Poseidon: sea4 stormy -> sea1 (down).
    # Poseidon: sea1 stormy -> sea2 (down).  Poseidon: sea2 stormy -> troy (down).
    # Poseidon: troy stormy -> sea2 again: reached twice, so its calm path: sea4 (also seen
    # once before -> second visit -> calm path) -> sea6 (face up).
    c.up["troy"] = False
    c.tiles["troy"] = c.leftover
    c.olympus = [olympus("poseidon", 1)] * 4 + [olympus("poseidon", 3)]
    c.__dict__["log_events"] = []
    everyone_passes(c)
    settle(c)
    sails = [(e["origin"], e["target"]) for e in c.log_events if e["type"] == "sail"]
    assert sails[:6] == [("sea3", "sea4"), ("sea4", "sea1"), ("sea1", "sea2"),
                         ("sea2", "troy"), ("troy", "sea2"), ("sea2", "sea4")]
    assert sails[6] == ("sea4", "sea6") and c.pos == "sea6"
    assert sum(e["type"] == "olympus_skip" for e in c.log_events) == 2


# ---------------------------------------------------------------------- endings
def test_dead_the_moment_the_crew_runs_out():
    c = after_setup()
    skip_prompts(c)
    c.crew = 5
    events = encounter_at(c, "scylla")
    assert c.is_over() and c.ending == "dead" and c.crew == 0
    assert not c.prompts and c.to_act() == []
    assert "over" in types(events)


def test_round_marker_never_passes_twelve():
    c = after_setup()
    skip_prompts(c)
    c.round = 11
    encounter_at(c, "calypso")
    assert c.round == 12


def test_stranded_after_the_adventure_of_round_twelve():
    c = after_setup()
    skip_prompts(c)
    c.round = 12
    encounter_at(c, "laestrygonians")
    skip_prompts(c)
    win_adventure(c)
    assert c.is_over() and c.ending == "stranded"
    assert c.result()["ending"] == "stranded" and c.result()["round"] == 12


def test_safe_return_after_the_double_adventure_at_ithaca():
    c = after_setup(4)
    skip_prompts(c)
    encounter_at(c, "ithaca", "ithaca")
    assert c.step == "play" and c.adv["double"] and len(c.adv["rewards"]) == 8
    c.olympus += [olympus("athena", 1), olympus("poseidon", 3)]
    everyone_passes(c)  # first: Help 3+1 vs 0, won; each claims one of 8 tiles
    assert c.adv["number"] == 2 and len(c.adv["claimed"]) == 4 and not c.is_over()
    crew = c.crew
    red = sum(REWARDS[t]["red"] for t in c.adv["rewards"])  # all eight count
    everyone_passes(c)  # second: Help 3 vs Poseidon 3: a tie is a win
    assert len(c.adv["claimed"]) == 8
    assert c.is_over() and c.ending == "safe" and c.crew == crew
    assert red >= 0


def test_ithaca_lost_adventure_counts_every_revealed_tile():
    c = after_setup(3)
    skip_prompts(c)
    encounter_at(c, "ithaca", "ithaca")
    c.crew = 40
    c.adv["rewards"] = [2, 3, 4, 6, 7, 9]  # six tiles, all with red numbers
    red = sum(REWARDS[t]["red"] for t in c.adv["rewards"])
    assert all(REWARDS[t]["red"] > 0 for t in c.adv["rewards"])
    a = c.order[0]
    c.hands[a] = [card("hinder", 4)]
    c.olympus.append(olympus("poseidon", 3))
    act(c, {"type": "play", "card": c.hands[a][0]})
    everyone_passes(c)  # Help 3 (Ithaca) against Hinder 4 + 3: lost
    assert c.history[-1]["outcome"] == "lost"
    assert c.crew == 40 - red and c.history[-1]["red"] == red
    assert c.adv["number"] == 2 and not c.is_over()


def test_ithaca_dies_if_the_first_adventure_takes_the_last_crew():
    c = after_setup(3)
    skip_prompts(c)
    encounter_at(c, "ithaca", "ithaca")
    a = c.order[0]
    c.hands[a] = [card("hinder", 4), card("hinder", 4, skip=(card("hinder", 4),))]
    c.crew = 1
    c.olympus.append(olympus("poseidon", 3))
    c.adv["rewards"] = sorted(c.adv["rewards"], key=lambda t: -REWARDS[t]["red"])
    assert sum(REWARDS[t]["red"] for t in c.adv["rewards"]) > 0
    act(c, {"type": "play", "card": c.hands[a][0]})
    everyone_passes(c)
    assert c.is_over() and c.ending == "dead" and c.adv["number"] == 1


def finish(c: OdysseusController, ending: str) -> dict:
    c._events = []
    c._end(ending)
    return c.result()


def test_payouts_bets_destiny_and_scores():
    c = after_setup()
    skip_prompts(c)
    c.round = 7
    a, b, d = 0, 1, 2
    c.bets = [{"id": 1, "seat": a, "round": 9, "stack": 8},
              {"id": 2, "seat": b, "round": 7, "stack": 5},
              {"id": 3, "seat": d, "round": 4, "stack": 3}]
    c.destiny = [["safe", "dead", "stranded"], ["dead", "safe", "stranded"],
                 ["stranded", "dead", "safe"]]
    c.destiny_chips = [[1, 2, 0], [4, 0, 1], [0, 3, 0]]
    c.chips = [1, 0, 2]
    c.vp = [10, 6, 9]
    c.supply = 50 - (8 + 5 + 3) - (3 + 5 + 3) - 3
    assert c.chips_in_play() == 50
    r = finish(c, "dead")
    assert [p["paid"] for p in r["bet_payouts"]] == [2, 5, 0]
    assert [p["paid"] for p in r["destiny_payouts"]] == [2, 4, 3]
    assert r["chips"] == [1 + 2 + 2, 0 + 5 + 4, 2 + 0 + 3]
    assert r["scores"] == [10 + 10, 6 + 18, 9 + 10]
    assert r["winners"] == [b] and r["ending"] == "dead"
    assert c.chips_in_play() == 50 and c.bets == []


def test_tie_breaks_most_chips_then_all_tied_win():
    c = after_setup()
    c.bets, c.destiny_chips = [], [[0, 0, 0]] * 3
    c.chips, c.vp = [2, 3, 0], [10, 8, 14]
    c.supply = 50 - 5
    r = finish(c, "safe")
    assert r["scores"] == [14, 14, 14] and r["winners"] == [1]
    c = after_setup()
    c.bets, c.destiny_chips = [], [[0, 0, 0]] * 3
    c.chips, c.vp = [2, 2, 0], [10, 10, 12]
    c.supply = 46
    r = finish(c, "safe")
    assert r["winners"] == [0, 1] and "all tied" in r["tie_break"]


# ------------------------------------------------------------------ refusals
def test_refusals_have_readable_reasons():
    c = new()
    seat = c.to_act()[0]
    other = next(s for s in range(3) if s != seat)
    with pytest.raises(IllegalAction, match="not Ann's turn|not Tom's turn|not Bea's turn"):
        c.apply(other, {"type": "destiny", "slot": 0})
    with pytest.raises(IllegalAction, match="Destiny cards"):
        c.apply(seat, {"type": "destiny", "slot": 3})
    with pytest.raises(IllegalAction, match="not possible now"):
        c.apply(seat, {"type": "pass"})
    c = after_setup()
    seat = c.to_act()[0]
    with pytest.raises(IllegalAction, match="current one"):
        c.apply(seat, {"type": "bet", "round": 13})
    with pytest.raises(IllegalAction, match="current one"):
        c.apply(seat, {"type": "bet", "round": True})
    c = playing(c)
    seat = c.to_act()[0]
    with pytest.raises(IllegalAction, match="own hand"):
        c.apply(seat, {"type": "play", "card": "help-99"})
    act(c, {"type": "pass"})
    if c.prompts and c.prompts[0]["kind"] == "draw":
        with pytest.raises(IllegalAction, match="Help deck"):
            act(c, {"type": "draw", "help": 9})


def test_a_refused_action_changes_nothing():
    c = after_setup()
    before = c.snapshot()
    with pytest.raises(IllegalAction):
        c.apply(c.to_act()[0], {"type": "bet", "round": 40})
    assert c.snapshot() == before


def test_empty_supply_rulings():
    c = after_setup()
    seat = c.to_act()[0]
    moved = c.supply - 3
    c.supply = 3
    c.vp[0] += 0
    act(c, {"type": "bet", "round": 12})  # wants 11 from the supply; gets the 3 left
    assert c.bets[-1]["stack"] == 4 and c.supply == 0
    assert c.chips_in_play() == 50 - moved
    # A Destiny action with an empty supply is skipped with a log line.
    skip_prompts(c)
    events = encounter_at(c, "calypso")
    assert not c.prompts and c.step == "play"
    assert sum(e["type"] == "skip" for e in events) == 3
    assert seat in range(3)


# ------------------------------------------------------------- board and rulings
def test_board_graph_from_the_map():
    from game.board.tmxmap import load_board
    from game.ui import paths
    board = load_board(paths.BOARDS / "odysseus.tmx")
    assert board.kind == "track"
    spaces = {n for n, s in board.track.spaces.items()
              if s.properties.get("kind") in ("troy", "sea", "ithaca")}
    assert spaces == {"troy", "ithaca", *(f"sea{i}" for i in range(1, 10))}
    for name in spaces - {"ithaca"}:
        kinds = sorted(l.kind for l in board.track.links_from(name))
        assert kinds == ["calm", "stormy"]
    assert LINKS["ithaca"] == {}

    def calm_steps(space):
        n = 0
        while space != "ithaca":
            space, n = LINKS[space]["calm"], n + 1
            assert n < 10, "calm paths never loop"
        return n
    assert calm_steps("troy") == 5
    assert {calm_steps(f"sea{i}") for i in range(1, 10)} <= {1, 2, 3, 4}
    # Stormy paths lead sideways or back: never closer to Ithaca along calm paths than
    # where Odysseus stands (from Troy, where every space is closer, never closer than the
    # calm path's target).
    for name in spaces - {"ithaca", "troy"}:
        assert calm_steps(LINKS[name]["stormy"]) >= calm_steps(name)
    assert calm_steps(LINKS["troy"]["stormy"]) == calm_steps(LINKS["troy"]["calm"])
    rounds = [s for s in board.track.spaces.values() if s.properties.get("kind") == "round"]
    assert sorted(s.properties["index"] for s in rounds) == list(range(1, 13))


def test_olympus_deck_is_reshuffled_when_empty():
    c = playing(after_setup())
    c.olympus_discard = [o for o in c.olympus]
    c.olympus = []
    c.__dict__["log_events"] = []
    everyone_passes(c)
    assert any(e["type"] == "reshuffle" and e["deck"] == "olympus" for e in c.log_events)
    assert len(c.olympus) + len(c.olympus_discard) == 6


def test_empty_adventure_deck_reshuffles_discards_then_uses_the_other_deck():
    c = playing(after_setup())
    seat = c.to_act()[0]
    c.discards["help"] = c.piles["help"][:2]
    c.piles["hinder"] += c.piles["help"][2:]
    c.piles["help"] = []
    act(c, {"type": "pass"})
    count = c.prompts[0]["count"]
    hand = len(c.hands[seat])
    events = act(c, {"type": "draw", "help": count})
    assert any(e["type"] == "reshuffle" for e in events)
    assert len(c.hands[seat]) == hand + count  # 2 from the reshuffled Help, the rest Hinder
    assert c.cards_in_play() == 54


def test_no_chip_means_no_bet_prompt():
    c = new()
    for _ in range(3):
        act(c, {"type": "destiny", "slot": 0})
    # Everyone still holds one chip at Troy; take them away and run Scylla's bets.
    skip_prompts(c)
    c.supply += sum(c.chips)
    c.chips = [0, 0, 0]
    events = encounter_at(c, "scylla")
    assert not c.prompts
    assert sum(e["type"] == "skip" for e in events) == 3


def test_a_bet_may_move_back_to_a_passed_round_and_keeps_its_stack():
    c = after_setup()
    skip_prompts(c)
    c.round = 6
    encounter_at(c, "circe")
    a = c.order[0]
    c.bets = [{"id": 4, "seat": a, "round": 6, "stack": 3}]
    c.supply -= 3
    act(c, {"type": "move_bet", "bet": 4, "to": 5})
    assert c.bets[0] == {"id": 4, "seat": a, "round": 5, "stack": 3}


def test_crew_return_has_no_limit():
    c = after_setup()
    skip_prompts(c)
    start = CREW[3]
    assert c.crew == start
    encounter_at(c, "sirens")
    assert c.crew == start + 2


def test_wander_ending_in_round_twelve_away_from_ithaca_is_stranded():
    c = after_setup()
    skip_prompts(c)
    c.crew = 30
    c.round = 11
    at_sea3_before_journey(c)
    c.up["sea5"] = False  # the calm path leads to a face-down tile
    c.olympus += [olympus("athena", 1), olympus("athena", 3)]  # win; then Athena: sea8
    everyone_passes(c)
    settle(c)
    assert c.is_over() and c.ending == "stranded" and c.round == 12 and c.pos == "sea8"


def test_wander_reaching_ithaca_in_round_twelve_still_plays_ithaca():
    c = after_setup()
    skip_prompts(c)
    c.crew = 30
    c.round = 11
    encounter_at(c, "laestrygonians", "sea5")
    skip_prompts(c)
    c.up["sea8"] = False  # sea5 calm -> sea8 (face down) -> calm -> Ithaca
    c.olympus += [olympus("athena", 1), olympus("athena", 3)]
    everyone_passes(c)
    settle(c)
    assert not c.is_over() and c.pos == "ithaca" and c.round == 12 and c.adv["double"]


def test_status_line_and_result_are_plain():
    c = after_setup()
    assert c.status().startswith("Round 1, Troy, crew 25: ")
    c.bets, c.destiny_chips = [], [[0, 0, 0]] * 3
    c.supply = 50 - sum(c.chips)
    finish(c, "stranded")
    assert c.status() == "Over: Stranded at Sea in round 1"
    import yaml
    r = c.result()
    assert yaml.safe_load(yaml.safe_dump(r)) == r
    assert {"ending", "scores", "winners", "bet_payouts", "destiny_payouts", "tie_break"} <= set(r)


@pytest.mark.parametrize("kind", ["vp", "draw", "chip", "destiny"])
def test_reward_tiles_give_their_reward(kind):
    c = playing(after_setup())
    tile = next(t for t, r in REWARDS.items() if r["kind"] == kind and r["amount"] == 2)
    c.adv["rewards"] = [tile] + [t for t in REWARDS if t != tile][:2]
    first = c.order[-1]  # the first to pass ends last; the last to pass claims first
    for _ in range(3):
        act(c, {"type": "pass"})
        while c.prompts and c.prompts[0]["kind"] == "draw":
            answer(c)
    claimer = c.order[0]
    assert claimer == first
    vp, chips, hand = c.vp[claimer], c.chips[claimer], len(c.hands[claimer])
    destiny = sum(c.destiny_chips[claimer])
    act(c, {"type": "claim", "tile": tile})
    if kind == "vp":
        assert c.vp[claimer] == vp + 2
    elif kind == "chip":
        assert c.chips[claimer] == chips + 2
    elif kind == "draw":
        assert c.prompts[0] == {"seat": claimer, "kind": "draw", "count": 2, "why": "reward"}
        act(c, {"type": "draw", "help": 1})
        assert len(c.hands[claimer]) == hand + 2
    else:
        assert [p["kind"] for p in c.prompts[:2]] == ["reward_destiny"] * 2
        assert {"type": "skip"} not in c.legal_actions(claimer)
        act(c, {"type": "destiny", "slot": 1})
        act(c, {"type": "destiny", "slot": 1})
        assert sum(c.destiny_chips[claimer]) == destiny + 2
    assert c.chips_in_play() == 50


def test_advance_special_moves_the_round_marker_at_once():
    c = playing(after_setup())
    a = c.order[0]
    adv = card("help", special="advance")
    c.hands[a] = [adv]
    events = act(c, {"type": "play", "card": adv})
    assert c.round == 2 and c.adv["types"][a] is None
    assert any(e["type"] == "special" and audience(e) is None for e in events)


# ------------------------------------------------------------- properties
from hypothesis import given, strategies as st  # noqa: E402

@given(st.integers(1, 40), st.integers(1, 12), st.integers(1, 12))
def test_bet_payout_properties(stack, bet_round, final_round):
    paid = bet_payout(stack, bet_round, final_round)
    assert 0 <= paid <= stack
    assert (paid == stack) == (bet_round == final_round or stack == 0)
    assert paid == max(0, stack - 3 * abs(bet_round - final_round))


@given(st.integers(0, 60), st.integers(0, 60))
def test_adventure_outcome_properties(help_total, hinder_total):
    outcome = adventure_outcome(help_total, hinder_total)
    assert outcome == ("lost" if hinder_total > help_total else "won")


def test_rules_document_states_the_designed_values_and_numbered_rulings():
    """rules.md must say what cards.yaml holds (the in-game rules viewer shows it)."""
    import re
    from pathlib import Path
    from game.odysseus.data import DATA
    text = (Path(__file__).resolve().parents[1] / "game" / "odysseus" / "rules.md").read_text()
    rulings = text[text.index("## Rulings"):]
    numbers = [int(n) for n in re.findall(r"^(\d+)\. \*\*", rulings, re.M)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 25
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
             8: "eight"}
    for deck in ("help", "hinder"):
        recipe = DATA["adventure"][deck]
        counts = ", ".join(f"{words[c]} {v}s" for v, c in sorted(recipe["numbers"].items()))
        assert counts in rulings
    for god in ("athena", "poseidon"):
        values = sorted(o["value"] for o in DATA["olympus"] if o["god"] == god)
        assert f"{god.title()} {', '.join(map(str, values[:-1]))} and {values[-1]}" in rulings
    for r in DATA["rewards"]:
        n, red = r["amount"], r["red"]
        label = {"vp": f"{n} VP", "draw": f"draw {n}",
                 "chip": f"{n} Bet Chip{'s' if n > 1 else ''}",
                 "destiny": f"{n} Destiny action{'s' if n > 1 else ''}"}[r["kind"]]
        assert f"{label} ({red})" in rulings, label


def test_the_first_destiny_chip_is_placed_blind():
    c = new()
    seat = c.to_act()[0]
    assert c.view(seat)["seats"][seat]["destiny"] is None  # not looked yet
    events = c.apply(seat, {"type": "destiny", "slot": 1})
    assert c.view(seat)["seats"][seat]["destiny"] == c.destiny[seat]
    private = next(e for e in events if e["type"] == "looked")
    assert audience(private) == [seat] and reveals(private)
    other = c.to_act()[0]
    assert c.view(other)["seats"][other]["destiny"] is None
    assert c.view(other)["seats"][seat]["destiny"] is None


def test_log_lines_read_as_plain_english():
    """Names of places take their article, lists of names end in 'and', plurals agree,
    and nothing is said twice or about nothing (no '0 VP for 0 unused Bet Chips')."""
    import doctest
    import re

    from game.engine import Match
    from game.engine.bots import choose_action
    from game.odysseus import rules as rules_module

    assert doctest.testmod(rules_module).failed == 0
    texts = []
    for seed in range(4):
        match = Match.new("odysseus", [{"name": n, "kind": "bot"} for n in NAMES[:4]],
                          seed=seed)
        while not match.is_over():
            seat = match.to_act()[0]
            match.act(seat, choose_action(match, seat))
        texts += [e["text"] for e in match.log]
    assert any(" cards from the " in t for t in texts)
    assert any(t.startswith("Encounter at the Isle of ") for t in texts)
    for t in texts:
        assert t[0].isupper() and t.rstrip(")'").endswith((".", "!")), t
        assert not re.search(r"\b(at|to) (Isle|Cliff|The)\b", t), t
        assert " 0 VP for" not in t and "(the Suitors)" not in t, t
        assert not re.search(r"\b1 (cards|Bet Chips|chips|crew return)\b", t), t
        assert not re.search(r"\): \w+, \w+ scores? ", t), t  # 'Mira and Bo score'
        assert "Help (" not in t and "Hinder (" not in t, t  # 'draws 2 Help (2 cards)'


# ------------------------------------------------ rulings 11 and 14 in every batch
def forced(c: OdysseusController) -> str | None:
    """Why the pending prompt leaves its seat nothing to choose (None: a real choice)."""
    d = c.decision()
    if d is None or d["kind"] in ("play", "setup"):
        return None
    seat = d["seat"]
    legal = c.legal_actions(seat)
    if len(legal) == 1:
        return f"{d['kind']} with the single answer {legal[0]}"
    if d["kind"] in ("destiny", "reward_destiny") and c.supply < 1:
        return "a Destiny action with an empty supply"
    if d["kind"] == "bet" and c.chips[seat] < 1:
        return "a bet without an unused Bet Chip"
    return None


def test_last_reward_tile_is_given_after_a_players_claim():
    """The issue's repro: seed 1, three people, everyone skips the Troy bet and passes; once
    two seats have claimed, the third gets the last tile without being asked (ruling 11)."""
    c = new(3, seed=1)
    for _ in range(3):
        act(c, {"type": "destiny", "slot": 0})
    for _ in range(3):
        act(c, {"type": "skip"})
    while c.step == "play" or (c.prompts and c.prompts[0]["kind"] == "draw"):
        act(c, {"type": "draw", "help": c.prompts[0]["count"]} if c.prompts
            else {"type": "pass"})
    first, second, last = c.order
    assert c.decision() == {"seat": first, "kind": "claim"}
    act(c, c.legal_actions(first)[0])
    while c.prompts and c.prompts[0]["seat"] == first:  # the reward's own follow-ups
        answer(c)
    events = act(c, c.legal_actions(second)[0])
    while c.prompts and c.prompts[0]["seat"] == second:  # '2 Destiny actions'
        assert forced(c) is None
        events += act(c, c.legal_actions(second)[0])
    claims = [e for e in events if e["type"] == "claim"]
    assert [e["seat"] for e in claims] == [second, last]
    assert "gets the last Reward tile" in claims[-1]["text"]
    assert all(p["kind"] != "claim" for p in c.prompts)
    assert forced(c) is None


def test_a_seat_without_chips_is_skipped_later_in_a_batch():
    """The issue's repro: seed 36; at Troy A and B bet on round 12, C skips; at Scylla in
    round 2, C skips and B and A, holding no chips, are not asked (ruling 14)."""
    c = new(3, seed=36)
    for _ in range(3):
        act(c, {"type": "destiny", "slot": 0})
    while c.prompts and c.prompts[0]["kind"] == "bet":
        seat = c.to_act()[0]
        act(c, {"type": "bet", "round": 12} if seat in (0, 1) else {"type": "skip"})
    while c.step == "play" or (c.prompts and c.prompts[0]["kind"] == "draw"):
        act(c, {"type": "draw", "help": c.prompts[0]["count"]} if c.prompts
            else {"type": "pass"})
    while c.step == "claim" and c.prompts:
        legal = c.legal_actions(c.to_act()[0])
        plain = [a for a in legal if a["type"] != "claim" or REWARDS[a["tile"]]["kind"] != "chip"]
        act(c, (plain or legal)[0])
    while c.prompts and c.prompts[0]["kind"] != "bet":
        answer(c)
    assert (c.round, c.encounter) == (2, "scylla")
    assert c.chips[0] == c.chips[1] == 0
    assert c.decision()["seat"] == 2 and c.decision()["kind"] == "bet"
    events = act(c, {"type": "skip"})
    skipped = [e["seat"] for e in events if e["type"] == "skip" and e.get("forced")]
    assert sorted(skipped) == [0, 1]
    assert c.step == "play" and forced(c) is None


def test_destiny_prompt_with_an_empty_supply_is_skipped_mid_batch():
    c = after_setup()
    skip_prompts(c)
    events = encounter_at(c, "calypso")
    first = c.to_act()[0]
    c.supply = 0  # the first Destiny action empties the supply for the others
    events = act(c, {"type": "destiny", "slot": 0}, first)
    assert not any(p["kind"] == "destiny" for p in c.prompts)
    assert sum(e["type"] == "skip" for e in events) == 2


def test_circe_with_nothing_to_do_is_answered_for_the_seat():
    c = after_setup()
    skip_prompts(c)
    c.supply += sum(c.chips)
    c.chips = [0, 0, 0]
    c.supply, spare = 0, c.supply
    events = encounter_at(c, "circe")
    assert not c.prompts and sum(e["type"] == "skip" for e in events) == 3


@pytest.mark.parametrize("seed", range(12))
def test_no_prompt_with_a_single_forced_answer_is_ever_asked(seed):
    """Random games to the end: after every action, the pending prompt is a real choice."""
    rng = Rng(1000 + seed)
    c = new(3 + seed % 3, seed)
    steps = 0
    while not c.is_over():
        assert forced(c) is None, f"step {steps}: {forced(c)}"
        seat = c.to_act()[0]
        legal = c.legal_actions(seat)
        c.apply(seat, legal[rng.randbelow(len(legal))])
        steps += 1
    assert c.chips_in_play() == 50


# ------------------------------------------- the table's counters ride on the events
TALLIED = ("vp", "chips", "hand", "destiny_chips", "supply", "bets", "crew", "round", "decks",
           "discards")


@pytest.mark.parametrize("seed", [3, 9])
def test_events_carry_the_table_as_of_their_moment(seed):
    """Every public event carries the public counters as they stand when it happens: the
    last one of an action's batch agrees with the view after it, an Olympus card is 'last'
    from its own event on, a top contributor's 2 VP appear at the 'top' event, and a
    finished adventure leaves the table with the journey (nothing lingers into the next)."""
    rng = Rng(seed)
    c = new(4, seed)
    on_table = True
    while not c.is_over():
        seat = c.to_act()[0]
        legal = c.legal_actions(seat)
        before = c.view(None)["tally"]
        events = c.apply(seat, legal[rng.randbelow(len(legal))])
        tallied = [e for e in events if "tally" in e]
        if tallied and not c.is_over():
            after = c.view(None)["tally"]
            assert {k: tallied[-1]["tally"][k] for k in TALLIED} == \
                {k: after[k] for k in TALLIED}
        last = before
        for e in tallied:
            t = e["tally"]
            if e["type"] == "olympus":
                assert t["olympus"]["last"] == e["card"]
            elif e["type"] == "reveal":
                assert t["olympus"]["last"] == last["olympus"]["last"]
            if e["type"] == "top":
                for s in e["seats"]:
                    assert t["vp"][s] == last["vp"][s] + 2
            if e["type"] == "sail":
                on_table = False
            if e["type"] == "rewards":
                on_table = True
            if not on_table:
                assert t["adventure"] is None, e["type"]
            last = t
        if not on_table and not c.is_over():
            assert c.view(None)["adventure"] is None
