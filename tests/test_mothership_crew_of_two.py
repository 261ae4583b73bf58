"""How a crew of two computer players explores TRAP: Mothership Fantasia (rules.md, ruling 27).

A crew of two steps straight onto face-down tiles, but while exploring peeks at a face-down
tile beside it that leads to no other face-down tile (stepping there would only mean
stepping back); a crew of three peeks before it steps while a trap that would stop it is
likely, and on its way to a goal.
"""

from __future__ import annotations

from game.engine import Match, Rng
from game.mothership.bot import choose
from game.mothership.data import LAYOUT

S = LAYOUT.start
SOUTH, DEAD_END = (4, 7), (4, 8)      # south of the start; (4, 8) leads nowhere else
GENERATOR = (9, 9)


#: Eight face-up Corrode tiles out of the way: every trap of an Easy set-up seen.
SEEN_TRAPS = {(8, 4), (8, 5), (8, 6), (8, 7), (9, 3), (10, 4), (9, 8), (10, 8)}


def crew(chars: tuple[str, ...], down: set, here=S, traps: set = frozenset(),
         generator=GENERATOR) -> Match:
    """Seat 0's turn in round 1; every tile is safe (Corrode on ``traps``) and face up
    except ``down`` (the generator at GENERATOR lies face down too, so there is something
    to find; one elsewhere lies face up)."""
    m = Match.new("mothership", [{"name": f"P{i}", "kind": "bot"} for i in range(len(chars))],
                  seed=1, options={"difficulty": "easy"})
    for seat, char in enumerate(chars):
        m.act(seat, {"type": "choose", "character": char})
    c = m.controller
    for cell in LAYOUT.tile_spaces:
        kind = "corrode" if cell in traps else "safe"
        c.tiles[cell] = {"kind": "objective" if cell == generator else kind,
                         "up": cell not in down | {GENERATOR}, "done": False,
                         "disarmed_until": None}
    c.objectives_total = 1
    c.pos[0] = here
    return m


def bot_action(m: Match) -> dict:
    legal = m.legal_actions(0)
    action = choose(m.view(0), legal, Rng(0))
    assert action in legal
    return action


def test_a_crew_of_two_peeks_at_a_tile_beside_it_that_leads_nowhere_else():
    # Every trap seen, so stepping on is safe; still, stepping there only means stepping back.
    m = crew(("knight", "mage"), {DEAD_END}, here=SOUTH, traps=SEEN_TRAPS)
    assert bot_action(m) == {"type": "peek", "at": list(DEAD_END)}


def test_a_crew_of_two_steps_onto_a_tile_that_leads_on_a_larger_crew_peeks_first():
    two = crew(("knight", "mage"), {SOUTH, DEAD_END})
    assert bot_action(two) == {"type": "move", "to": list(SOUTH)}
    # Three seats: with every tile seen safe, the traps of the set-up must lie among the
    # few still face down, so a trap that stops you is likely: look first.
    three = crew(("knight", "mage", "thief"), {SOUTH, DEAD_END})
    assert bot_action(three) == {"type": "peek", "at": list(SOUTH)}


def test_on_the_way_to_a_generator_a_crew_of_two_steps_on_a_larger_crew_peeks_first():
    north, generator = (4, 5), (4, 4)
    two = crew(("knight", "mage"), {north}, generator=generator)
    assert bot_action(two) == {"type": "move", "to": list(north)}
    three = crew(("knight", "mage", "thief"), {north}, generator=generator)
    assert bot_action(three) == {"type": "peek", "at": list(north)}
