import pygame, pytest
from cutcheck import Audit
from uidriver import Driver
from game.engine import Match
from game.engine.registry import game_ids
from test_layout_sizes import widget_problems, seats_for, options_for, advance
from game.ui.scenes.menu import MainMenu
from game.ui.scenes.play import PlayScene
from game.ui.scenes.handover import HandoverScene
from game.ui.scenes import play as play_module

@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("size,scale", [((1280,720),150), ((1920,1080),200)])
def test_probe_play(game_id, size, scale, monkeypatch):
    monkeypatch.setattr(play_module, "LOG_LINES", 8)
    audit = Audit(monkeypatch)
    d = Driver(size=size, ui_scale=scale)
    match = Match.new(game_id, seats_for(game_id), seed=1, options=options_for(game_id))
    found = []
    for point in (0, 24):
        advance(match, point)
        d.app.stack.reset(MainMenu(d.app))
        play = d.app.push(PlayScene(d.app, match)); d.pump(2)
        if isinstance(d.top, HandoverScene):
            found += audit.problems(d.app, f"{point} handover")
            d.app.screenshot(f"/tmp/size/play-{game_id}-{scale}-{point}-handover.png")
            d.key(pygame.K_SPACE); d.pump(2)
        found += audit.problems(d.app, f"{point} panel")
        found += [f"{point}: " + p for p, _ in widget_problems(d.app)]
        d.app.screenshot(f"/tmp/size/play-{game_id}-{scale}-{point}.png")
    print("\n".join(dict.fromkeys(found)))
    assert not found
