"""Odysseus's computer player: it re-aims when the voyage turns, moves bets at Circe's,
and the balance report says how often its aim came true."""

from __future__ import annotations

from game.engine import Rng
from game.odysseus import balance, bot
from game.odysseus.rules import OdysseusController

NAMES = ["Tom", "Ann", "Bea", "Cal"]


def game(n: int = 3, seed: int = 2) -> OdysseusController:
    c = OdysseusController([{"name": NAMES[i], "kind": "bot"} for i in range(n)], {},
                           Rng(seed))
    for _ in range(n):  # every first chip on card 0, then nothing at Troy
        c.apply(c.to_act()[0], {"type": "destiny", "slot": 0})
    return c


def slot_of(c: OdysseusController, seat: int, ending: str) -> int:
    return c.destiny[seat].index(ending)


def test_aim_turns_with_the_crew_the_round_and_the_position():
    c = game()
    seat = 0
    c.destiny_chips[seat] = [1, 1, 1]  # no card favoured by its chips
    c.crew, c.round, c.pos = 30, 1, "troy"
    early = bot.aim(c.view(seat))[0]
    c.crew = 2  # a storm has taken nearly everyone
    assert bot.aim(c.view(seat))[0] == "dead"
    c.crew, c.round = 30, 12  # the last round, far from home
    assert bot.aim(c.view(seat))[0] == "stranded"
    c.round, c.pos = 10, "ithaca"  # home with a full crew
    assert bot.aim(c.view(seat))[0] == "safe"
    assert early in ("safe", "dead", "stranded")


def test_aim_weighs_its_chips_and_destiny_actions_go_to_the_likeliest_card():
    c = game()
    seat = 0
    dead, safe = slot_of(c, seat, "dead"), slot_of(c, seat, "safe")
    c.destiny_chips[seat] = [0, 0, 0]
    c.destiny_chips[seat][safe] = 9
    c.crew, c.round, c.pos = 12, 6, "sea8"  # one calm journey from Ithaca, crew so-so
    p = bot.forecast(c.view(seat))["p"]
    assert p["safe"] > 0.1 and p["dead"] > 0.1
    assert bot.aim(c.view(seat))[0] == "safe"  # nine chips ride on it
    c.crew = 2  # now Dead is the likeliest ending: the next Destiny chip goes there
    assert bot.forecast(c.view(seat))["p"]["dead"] > 0.5
    assert bot.likeliest_slot(c.view(seat)) == dead
    assert bot.likeliest_slot(c.view(seat)) == max(
        range(3), key=lambda i: bot.forecast(c.view(seat))["p"][c.destiny[seat][i]])


def test_forecast_is_a_pure_function_of_public_things():
    c = game()
    v0, v1 = c.view(0), c.view(1)
    assert bot.forecast(v0) == bot.forecast(v1)
    assert abs(sum(bot.forecast(v0)["p"].values()) - 1) < 1e-9
    assert abs(sum(bot.forecast(v0)["rounds"].values()) - 1) < 1e-9


def test_bot_moves_a_bet_at_circe_toward_the_likely_end():
    c = game()
    seat = 0
    c.prompts = []
    c.round, c.pos, c.crew = 11, "sea9", 40  # Circe's space is forced below; round 11
    for space, tile in list(c.tiles.items()):
        if tile == "circe":
            c.tiles[space] = c.tiles["sea9"]
    c.tiles["sea9"], c.up["sea9"] = "circe", True
    c.chips[seat] = 0
    c.supply -= 9
    c.bets = [{"id": 1, "seat": seat, "round": 10, "stack": 9}]
    c.next_bet = 2
    c.step = "encounter"
    c._events = []
    c._run()
    assert c.decision() == {"seat": c.order[0], "kind": "circe"}
    while c.to_act()[0] != seat:
        c.apply(c.to_act()[0], {"type": "skip"})
    view = c.view(seat)
    rounds = bot.forecast(view)["rounds"]
    assert rounds.get(12, 0) + rounds.get(11, 0) > 0.5  # the end is near
    action = bot.choose(view, c.legal_actions(seat), Rng(1))
    assert action == {"type": "move_bet", "bet": 1, "to": 11}


def test_bots_use_move_a_bet_in_whole_games():
    moves = circe = 0
    for seed in range(30):
        g = OdysseusController([{"name": f"P{i}", "kind": "bot"} for i in range(4)], {},
                               Rng(500 + seed))
        steps = 0
        while not g.is_over():
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            action = OdysseusController.policy(g.view(seat), legal,
                                               Rng.derive(seed, steps, seat, 1))
            moves += action["type"] == "move_bet"
            circe += g.decision()["kind"] == "circe" and any(
                a["type"] == "move_bet" for a in legal)
            g.apply(seat, action)
            steps += 1
    assert circe >= 10 and moves >= 5, (moves, circe)


def test_balance_report_says_how_often_the_aim_came_true():
    report = balance.report(6)
    for row in report["seats"].values():
        assert 0 <= row["aim_came_true"] <= 1 and 0 <= row["last_aim_true"] <= 1
    text = balance.format(report)
    assert "aim true" in text
