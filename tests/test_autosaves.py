"""No game is ever lost: one autosave per match, Continue and Load, Save as asks before
replacing, a damaged replay can be loaded partly, and a failing autosave stays on screen."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pygame_gui
import pytest
import yaml

from game.engine import Match
from game.ui import paths
from game.ui.scenes.play import PlayScene

from savedates import date
from uidriver import Driver

RACERS = [{"name": "Mira", "kind": "human"}, {"name": "Bo", "kind": "human"},
          {"name": "Tess", "kind": "bot"}]


def start(d: Driver, seed: int) -> PlayScene:
    """A new Fantasy Racing game from the setup screen's way of starting one."""
    d.press("New game")
    match = Match.new("fantasy_racing", [dict(s) for s in RACERS], seed=seed)
    d.app.replace(PlayScene(d.app, match))
    d.pump(3)
    return d.app.stack.find(PlayScene)


def move(d: Driver, play: PlayScene) -> None:
    """The person to act takes their first legal action."""
    while d.scene_name == "HandoverScene":
        d.key(pygame.K_SPACE)
    seat = play.match.to_act()[0]
    assert play.perform(seat, play.match.legal_actions(seat)[0])
    d.pump(3)


def autosaves() -> list[Path]:
    return sorted(paths.saves_dir().glob("autosave-fantasy_racing-*.yaml"))


def load_rows(d: Driver) -> list:
    d.app.to_menu()
    d.pump()
    d.press("Load")
    assert d.scene_name == "LoadScene"
    return d.top.saves


def test_a_second_game_of_the_same_kind_keeps_the_first():
    d = Driver()
    first = start(d, 111)
    move(d, first)
    move(d, first)
    first_actions = list(first.match.actions)
    d.app.to_menu()
    d.pump()
    second = start(d, 112)
    move(d, second)
    assert first.match.match_id != second.match.match_id
    files = autosaves()
    assert len(files) == 2
    by_id = {Match.load(f).match_id: Match.load(f) for f in files}
    assert by_id[first.match.match_id].actions == first_actions
    assert by_id[second.match.match_id].actions == second.match.actions
    # Load lists both unfinished games, newest first, with players and turn.
    date(files[0], 1_000_000)
    date(files[1], 2_000_000)
    saves = load_rows(d)
    assert [info.path for info in saves] == [files[1], files[0]]
    for info in saves:
        assert info.unfinished and info.autosave
        assert info.seats == [("Mira", "human"), ("Bo", "human"), ("Tess", "bot")]
        lines = [text for text, _style in d.top.row_lines(info)]
        assert lines[0] == "Fantasy Racing" and lines[1]
        assert "Mira, Bo, Tess (computer)" in lines[2]
    # Continue resumes the one played last.
    d.app.to_menu()
    d.pump()
    d.press("Continue")
    resumed = d.app.stack.find(PlayScene).match
    assert resumed.match_id == Match.load(files[1]).match_id


def test_loading_an_earlier_save_and_moving_keeps_the_later_game():
    d = Driver()
    play = start(d, 7)
    move(d, play)
    d.key(pygame.K_ESCAPE)
    d.press("Save")
    (named,) = paths.saves_dir().glob("fantasy_racing-*.yaml")
    d.pump()
    move(d, play)
    move(d, play)
    (auto,) = autosaves()
    later = Match.load(auto).actions
    d.app.to_menu()
    from game.ui.scenes.menu import open_match
    assert open_match(d.app, named)
    move(d, d.app.stack.find(PlayScene))
    assert Match.load(auto).actions == later
    assert len(autosaves()) == 2
    # and the person is told where their game now goes, once
    told = [text for text, _until, _error in d.app.toasts if "new autosave" in text]
    assert len(told) == 1 and "that file is kept" in told[0]
    move(d, d.app.stack.find(PlayScene))
    assert len([text for text, _u, _e in d.app.toasts if "new autosave" in text]) == 1


# ------------------------------------------------------------------------ Save as
def open_save_as(d: Driver):
    d.key(pygame.K_ESCAPE)
    assert d.scene_name == "PauseScene"
    d.press("Save as...")
    pause = d.top
    assert pause.entry is not None and pause.entry.is_focused
    labels = [w.text for w in pause.controls.others if hasattr(w, "text")]
    assert any("Name of the save" in text for text in labels)
    return pause


def type_and_enter(d: Driver, pause, text: str) -> None:
    pause.entry.set_text(text)
    pygame.event.clear()
    d.app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"),
                pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0)])
    d.app.step(pygame.event.get())  # the text box posts "finished" to the real queue


def test_save_as_saves_on_enter_and_asks_before_replacing():
    d = Driver()
    play = start(d, 5)
    move(d, play)
    target = paths.saves_dir() / "friday.yaml"
    type_and_enter(d, open_save_as(d), "friday")
    assert d.scene_name == "PlayScene" and target.exists()
    assert Match.load(target).actions == play.match.actions
    before = target.read_bytes()
    move(d, play)
    # the same name again: asked, and "Keep it" keeps the file
    pause = open_save_as(d)
    type_and_enter(d, pause, "friday")
    assert d.scene_name == "ConfirmScene"
    assert "friday.yaml already exists" in d.top.message
    d.press("Keep it")
    assert d.scene_name == "PauseScene" and pause.entry.get_text() == "friday"
    assert target.read_bytes() == before
    # Escape answers no as well
    type_and_enter(d, pause, "friday")
    d.key(pygame.K_ESCAPE)
    assert d.scene_name == "PauseScene" and target.read_bytes() == before
    # Replace replaces
    type_and_enter(d, pause, "friday")
    d.press("Replace")
    assert d.scene_name == "PlayScene"
    assert Match.load(target).actions == play.match.actions


@pytest.mark.parametrize("existing", ["other-game", "notes"])
def test_save_as_asks_before_replacing_any_file(existing):
    d = Driver()
    play = start(d, 5)
    move(d, play)
    folder = paths.saves_dir()
    target = folder / f"{existing}.yaml"
    if existing == "other-game":
        Match.new("odysseus", [{"name": n, "kind": "bot"} for n in "ABC"], seed=1).save(target)
    else:
        target.write_text("my shopping list\n")
    before = target.read_bytes()
    type_and_enter(d, open_save_as(d), existing)
    assert d.scene_name == "ConfirmScene"
    assert "Odysseus" in d.top.message if existing == "other-game" else "cannot be opened" \
        in d.top.message
    d.press("Keep it")
    assert target.read_bytes() == before


def test_save_as_refuses_autosave_names():
    d = Driver()
    play = start(d, 5)
    move(d, play)
    (auto,) = autosaves()
    before = auto.read_bytes()
    type_and_enter(d, open_save_as(d), auto.stem)
    assert d.scene_name == "PauseScene"
    assert "autosave" in d.app.toasts[-1][0] and d.app.toasts[-1][2]
    assert auto.read_bytes() == before


# -------------------------------------------------------------- failing autosave
def test_failing_autosave_shows_a_lasting_warning_until_it_works_again(tmp_path):
    d = Driver()
    play = start(d, 5)
    move(d, play)
    folder = paths.saves_dir()
    os.rename(folder, tmp_path / "moved")
    folder.write_text("a file where the saves folder should be")
    move(d, play)
    assert play.save_problem is not None
    assert str(folder) in play.save_problem and "not a folder" in play.save_problem
    toasts = len(d.app.toasts)
    move(d, play)
    assert play.save_problem is not None and len(d.app.toasts) == toasts  # no toast per action
    # drawn on the board, readable
    from game.ui.saving import warning_rect
    box = warning_rect(play.board_rect(), play.save_problem)
    assert play.board_rect().contains(box)
    d.app.screenshot(tmp_path / "warning.png")
    shot = pygame.image.load(str(tmp_path / "warning.png"))
    from game.ui.widgets import ALERT
    assert tuple(shot.get_at((box.x + 1, box.centery)))[:3] == ALERT
    folder.unlink()
    move(d, play)
    assert play.save_problem is None
    assert Match.load(autosaves()[0]).actions == play.match.actions


# -------------------------------------------------------------------- damaged
def damaged_save(action: int = 3) -> tuple[Path, Match]:
    match = Match.new("fantasy_racing", [dict(s) for s in RACERS], seed=9)
    for _ in range(8):
        seat = match.to_act()[0]
        match.act(seat, match.legal_actions(seat)[0])
    path = paths.saves_dir() / "damaged.yaml"
    match.save(path)
    from game.engine.saves import unpack_actions
    doc = unpack_actions(yaml.safe_load(path.read_text()))
    doc["actions"][action]["action"] = {"type": "teleport"}
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path, match


def test_load_screen_offers_to_load_up_to_the_last_good_action():
    d = Driver()
    path, match = damaged_save()
    before = path.read_bytes()
    load_rows(d)
    row = next(main for main, _ in d.top.rows if d.top.entry_of[main].path == path)
    d.app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=row)])
    assert d.scene_name == "ConfirmScene"
    assert "action 4 cannot be replayed" in d.top.message and str(path) in d.top.message
    d.press("Load 3 actions")
    play = d.app.stack.find(PlayScene)
    assert play is not None and play.match.actions[:3] == match.actions[:3]
    assert any("Loaded 3 of 8 actions" in text for text, _until, _error in d.app.toasts)
    assert path.read_bytes() == before
    move(d, play)
    assert path.read_bytes() == before
    assert Match.load(autosaves()[0]).actions == play.match.actions


def test_declining_the_partial_load_keeps_the_load_screen():
    d = Driver()
    path, _match = damaged_save()
    load_rows(d)
    row = next(main for main, _ in d.top.rows if d.top.entry_of[main].path == path)
    d.app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=row)])
    d.press("Cancel")
    assert d.scene_name == "LoadScene"


# -------------------------------------------------------------- hostile at start
def test_hostile_autosaves_and_settings_do_not_stop_the_menu(tmp_path):
    folder = paths.saves_dir()
    folder.mkdir(parents=True)
    (folder / "autosave-fantasy_racing-deep000001.yaml").write_text("[" * 25_000 + "]" * 25_000)
    (folder / "autosave-fantasy_racing-bomb000001.yaml").write_text(
        "meta: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n")
    os.mkfifo(folder / "autosave-fantasy_racing-fifo000001.yaml")
    (folder / "autosave-fantasy_racing-zero000001.yaml").symlink_to("/dev/zero")
    stale = folder / ".autosave-fantasy_racing-0123456789.yaml.abcdefgh.tmp"
    stale.write_text("x" * 100_000)
    os.utime(stale, (1_000_000, 1_000_000))
    home = Path(os.environ["TABLETOP_HOME"])
    home.mkdir(parents=True)
    (home / "settings.yaml").write_text("{a: " * 25_000 + "1" + "}" * 25_000)
    d = Driver()
    assert d.scene_name == "MainMenu"
    assert not d.buttons("Continue")[0].is_enabled
    assert not stale.exists()
    d.press("Load")
    assert len(d.top.saves) == 4 and all(info.error for info in d.top.saves)
    d.app.screenshot(tmp_path / "hostile.png")


@pytest.mark.parametrize(("code", "words"), [("ENOSPC", "No space left on device"),
                                             ("EROFS", "Read-only file system")])
def test_full_or_read_only_disk_is_named_in_the_warning(monkeypatch, code, words):
    import errno
    d = Driver()
    play = start(d, 5)
    move(d, play)
    (auto,) = autosaves()
    before = auto.read_bytes()

    def fail(_fd):
        number = getattr(errno, code)
        raise OSError(number, os.strerror(number))

    # Only fsync fails, and only inside this block: monkeypatch.undo() would also undo the
    # fixture's TABLETOP_SAVES and send the next autosave to a person's saves folder.
    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", fail)
        move(d, play)
    assert play.save_problem is not None and words in play.save_problem
    assert str(auto) in play.save_problem
    assert auto.read_bytes() == before
    assert not [p for p in auto.parent.iterdir() if p.name.endswith(".tmp")]
    move(d, play)
    assert os.environ["TABLETOP_SAVES"] == str(auto.parent)
    assert play.save_problem is None
