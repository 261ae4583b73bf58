"""Sounds (issue 28, part 4): the shipped files are what the tool makes, each game's seeded
play gives its sounds in order when the screen shows the events (never alone: each goes with
a line in the viewer's log, a handover card or the viewer's turn), Mute and Volume are applied
and kept, and with no audio device the program stays silent without an error."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import pygame
import pytest
import yaml

from game.engine import game_ids
from game.engine.events import visible_to
from game.resources import assets_dir
from game.tools import make_sounds
from game.ui.scenes.play import PlayScene
from game.ui.settings import Settings
from game.ui.sound import EVENT_SOUNDS, NAMES, SoundPlayer, sound_for

from cueplay import CuePlay
from uidriver import Driver

ROOT = Path(__file__).resolve().parents[1]


def test_the_shipped_sounds_are_what_the_tool_makes(tmp_path):
    make_sounds.main([str(tmp_path)])
    assert tuple(make_sounds.SOUNDS) == NAMES
    shipped = assets_dir() / "sounds"
    total = 0
    for name in NAMES:
        made = (tmp_path / f"{name}.wav").read_bytes()
        assert (shipped / f"{name}.wav").read_bytes() == made, \
            f"{name}.wav differs from what game/tools/make_sounds.py makes: run it again"
        total += len(made)
    assert sorted(p.name for p in shipped.iterdir()) == sorted(f"{n}.wav" for n in NAMES)
    assert total < 500 * 1024
    import wave
    with wave.open(str(shipped / "dice.wav")) as sound:
        assert (sound.getframerate(), sound.getnchannels(), sound.getsampwidth()) == \
            (22050, 1, 2)
        assert 0.05 < sound.getnframes() / 22050 < 0.6


def test_the_sounds_are_packaged():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "game.assets.sounds" in data["packages"]
    patterns = data["package-data"]["game.assets.sounds"]
    assert all(any(fnmatch.fnmatch(f"{n}.wav", p) for p in patterns) for n in NAMES)


def test_every_mapped_event_is_one_the_game_makes():
    """The map names event types each game's rules really make (a typo would never sound)."""
    assert set(EVENT_SOUNDS) == set(game_ids())
    for game_id, table in EVENT_SOUNDS.items():
        rules = (ROOT / "game" / game_id / "rules.py").read_text(encoding="utf-8")
        for kind in table:
            assert f'"{kind}"' in rules, f"{game_id} makes no {kind!r} event"
    assert {n for table in EVENT_SOUNDS.values() for n in table.values()} <= set(NAMES)


#: The first sounds of each game's seeded hot-seat play (seed 7, two people and computers).
FIRST_SOUNDS = {
    "fantasy_expedition": ["handover", "your_turn", "handover", "your_turn", "handover",
                           "your_turn", "move", "move", "your_turn", "move"],
    "fantasy_racing": ["your_turn", "your_turn", "fight", "dice", "move", "move", "dice",
                       "move", "move", "move"],
    "mothership": ["your_turn", "your_turn", "your_turn", "move", "move", "move", "move",
                   "your_turn", "move", "trap"],
    "monster_fandango": ["dice", "dice", "dice", "card", "your_turn", "dice", "your_turn",
                         "dice", "dice", "card"],
    "odysseus": ["handover", "your_turn", "card", "handover", "your_turn", "card",
                 "handover", "your_turn", "handover", "your_turn"],
}


@pytest.mark.parametrize("game_id", game_ids())
def test_a_seeded_game_plays_its_sounds_in_order_with_what_the_screen_shows(game_id):
    play = CuePlay(game_id, seed=7, people=2, speak=False)
    play.run(lambda p: len(p.shown) >= 60)
    assert play.sounds[:10] == FIRST_SOUNDS[game_id]
    # Each event's sound came as the screen showed it, only for events the person at the
    # screen may see, and with its line in their log (the sound is never the only channel).
    for viewer, event, sounds, _said in play.shown:
        expected = sound_for(game_id, event) if visible_to(event, viewer) else None
        assert sounds == ([expected] if expected else [])
        if sounds:
            assert event.get("text"), f"a sound with nothing in the log: {event}"
    assert any(sounds for _v, _e, sounds, _s in play.shown), "the board made sounds"
    # "Your turn" only when the screen says whose turn it is.
    assert "your_turn" in play.sounds


def test_a_handover_sounds_and_your_turn_comes_when_it_is_confirmed():
    play = CuePlay("odysseus", seed=7, people=2, speak=False)
    play.d.pump(3)
    assert play.d.scene_name == "HandoverScene"
    assert play.sounds == ["handover"]
    play.d.key(pygame.K_SPACE)
    assert play.sounds == ["handover", "your_turn"]
    play.d.pump(3)
    assert play.sounds == ["handover", "your_turn"], "no second 'your turn' for the same turn"


def test_mute_and_volume_are_applied_and_saved(tmp_path):
    from game.ui.scenes.settings import SettingsScene
    d = Driver()
    scene = d.app.push(SettingsScene(d.app))
    d.pump()
    from game.ui.speech import Speaker
    from cueplay import Recorder
    d.app.cues.speech = Speaker(backend=Recorder)
    d.app.cues.speech.enable(True)
    while d.top.controls.focused() is not scene.volume_slider:
        d.key(pygame.K_DOWN)
    assert d.app.cues.speech.spoken[-1] == \
        "Volume. 80 percent. Left/Right: 10% quieter or louder"
    d.key(pygame.K_RIGHT)                    # 80% -> 90%
    d.key(pygame.K_LEFT)
    d.key(pygame.K_LEFT)                     # -> 70%
    assert scene.draft.volume == pytest.approx(0.7)
    assert d.app.cues.speech.spoken[-1] == "Volume 70 percent"
    assert scene.volume_slider.get_current_value() == 70
    d.press("Mute")
    assert scene.draft.mute and d.buttons("Muted")
    assert not d.app.settings.mute           # nothing applied before Save
    d.press("Save")
    saved = yaml.safe_load((tmp_path / "home" / "settings.yaml").read_text())
    assert saved["volume"] == pytest.approx(0.7) and saved["mute"] is True
    player = d.app.cues.sound
    assert (player.volume, player.mute) == (pytest.approx(0.7), True)
    assert all(sound.get_volume() == 0 for sound in player.sounds.values())
    player.play("dice")
    assert player.played == [], "a muted player plays nothing"
    # Unmuted, the sounds play at the volume chosen.
    d.app.apply_settings(Settings(volume=0.5))
    assert all(sound.get_volume() == pytest.approx(0.5, abs=0.01)
               for sound in player.sounds.values())
    player.play("dice")
    assert player.played == ["dice"]
    assert Settings.load(tmp_path / "home" / "settings.yaml").volume == 0.5


@pytest.mark.parametrize("bad", [float("nan"), 1.5, -0.1, "loud", True])
def test_a_bad_volume_in_the_file_gives_the_default(tmp_path, bad):
    path = tmp_path / "settings.yaml"
    path.write_text(yaml.safe_dump({"volume": bad, "mute": "yes", "speak": 1}))
    settings = Settings.load(path)
    assert (settings.volume, settings.mute, settings.speak) == (0.8, False, False)
    assert len(settings.notes) == 3


def test_no_audio_device_means_silence_and_no_error(monkeypatch):
    def no_device(*args, **kwargs):
        raise pygame.error("ALSA: Couldn't open audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    player = SoundPlayer()
    assert player.problem and "no sound device" in player.problem
    assert player.sounds == {}
    player.play("dice")
    player.apply(0.3, False)
    assert player.played == ["dice"]        # what would have been heard, for the tests
    # The whole program: a game plays on, silently.
    d = Driver()
    assert d.app.cues.sound.problem
    play = CuePlay("fantasy_racing", seed=7, people=1, speak=False)
    play.run(lambda p: len(p.shown) >= 30)
    assert isinstance(play.d.app.stack.find(PlayScene), PlayScene)
    assert "dice" in play.sounds
