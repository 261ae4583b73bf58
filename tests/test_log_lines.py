"""The play log shows one line of text per row: no blank rows (pygame_gui put the break of a
line that just fit the box on a row of its own; issue 12's "stray blank line")."""

from __future__ import annotations

import pytest

from game.engine import Match
from game.engine.bots import choose_action
from game.ui.scenes.play import PlayScene

from uidriver import Driver


@pytest.mark.parametrize("game_id, seats", [("fantasy_racing", 3), ("monster_fandango", 2),
                                            ("odysseus", 3)])
@pytest.mark.parametrize("size", [(960, 600), (1280, 720)])
def test_the_log_has_no_blank_rows(game_id, seats, size):
    m = Match.new(game_id, [{"name": f"P{i}", "kind": "bot"} for i in range(seats)], seed=7)
    for _ in range(150):
        if m.is_over():
            break
        seat = m.to_act()[0]
        m.act(seat, choose_action(m, seat))
    d = Driver(size=size)
    play = d.app.push(PlayScene(d.app, m))
    d.pump(2)
    play.rebuild()
    d.pump(2)
    rows = play.log_box.text_box_layout.layout_rows
    assert len(rows) > 20
    blank = [row.y for row in rows
             if not "".join(getattr(item, "text", "") for item in row.items).strip()]
    assert blank == []
