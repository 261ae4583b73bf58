"""Bad input at the edges never crashes: typed text, seeds, seat names, settings, --size."""

from __future__ import annotations

import math
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest
import yaml

from game.app import fit_window, parse, window_size
from game.engine import IllegalAction, Match, SaveError
from game.engine.text import clean_text, showable, unprintable, visible
from game.ui import widgets
from game.ui.scenes.setup import SEED_MAX, SetupScene, parse_seed
from game.ui.settings import Settings
from game.ui.widgets import TextEntry, draw_text, fit, render_text, wrap_text

from uidriver import Driver

ROOT = Path(__file__).resolve().parents[1]
#: Zero width space, zero width joiner, right-to-left override, soft hyphen, byte order mark,
#: a variation selector, the combining grapheme joiner, a tag character.
INVISIBLE = ["\u200b", "\u200d", "\u202e", "\u00ad", "\ufeff", "\ufe0f", "\u034f", "\U000e0041"]
CONTROLS = ["\x00", "\x1b", "\t", "\n", "\x7f"]


# -- cleaning ------------------------------------------------------------------------------
@pytest.mark.parametrize("char", INVISIBLE + CONTROLS)
def test_hidden_characters_are_cleaned_out(char):
    assert not showable(char)
    assert clean_text(f"{char}Mi{char}ra{char}").replace(" ", "") == "Mira"
    assert not visible(char * 3)


def test_clean_text_composes_and_keeps_what_shows():
    assert clean_text("Zoe\u0301") == "Zoé"
    assert clean_text("Ünal 李 Ørjan ☃") == "Ünal 李 Ørjan ☃"
    assert clean_text("a\tb\nc") == "a b c"
    assert clean_text("x" * 50, 24) == "x" * 24
    assert unprintable("Mi\x00ra") == "\x00" and unprintable("Mi\u200bra") is None


@pytest.mark.parametrize("text", ["", *INVISIBLE, "\x00", "a\x00b", "\u200b" * 5, "\ufeff\u202e"])
def test_drawing_helpers_never_raise(text):
    pygame.init()
    surface = pygame.Surface((200, 60))
    for shadow in (False, True):
        rect = draw_text(surface, text, (10, 10), 16, shadow=shadow)
        assert rect.height > 0
    assert render_text(text).get_height() > 0
    assert "\x00" not in fit(text, 100)
    assert all("\x00" not in line for line in wrap_text(text, 16, 100))


# -- text fields ---------------------------------------------------------------------------
def _type(driver: Driver, entry: TextEntry, text: str) -> None:
    driver.top.controls.focus_widget(entry)
    driver.app.step([pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in text])
    driver.pump()


def test_invisible_character_typed_first_into_every_setup_field():
    """Repro: U+200B & co. typed first raised 'Text has zero width' in pygame_gui."""
    driver = Driver()
    driver.app.push(SetupScene(driver.app))
    driver.pump()
    entries = [w for w, _ in driver.top.controls.items if isinstance(w, TextEntry)]
    assert len(entries) >= 3  # the seed and every seat name
    for char in INVISIBLE + ["\x00", "\t"]:
        for entry in entries if char == "\u200b" else entries[:3]:
            entry.set_text("")
            _type(driver, entry, char)
            assert entry.get_text() == "", repr(char)
            _type(driver, entry, char + "7" + char)
            assert entry.get_text() == "7", repr(char)
        driver.app.draw()


def test_set_and_paste_are_cleaned(monkeypatch):
    driver = Driver()
    driver.app.push(SetupScene(driver.app))
    driver.pump()
    entry = driver.top.name_entries[0]
    entry.set_text("\u200bTe\x00ss\u202e")
    assert entry.get_text() == "Tess"
    entry.set_text("")
    monkeypatch.setattr(widgets, "clipboard_paste", lambda: "\ufeffBo\u00ad\x00b")
    driver.top.controls.focus_widget(entry)
    driver.app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_v, mod=pygame.KMOD_CTRL,
                                        unicode="", scancode=0)])
    driver.pump(2)
    assert entry.get_text() == "Bob"


def test_a_name_of_only_invisible_characters_is_refused_with_a_message():
    driver = Driver()
    driver.app.push(SetupScene(driver.app))
    driver.pump()
    driver.top.seats[1]["name"] = "\u200b\u200d"
    driver.top.rebuild()
    driver.pump()
    driver.press("Start")
    assert driver.scene_name == "SetupScene"
    assert any("Seat 2 needs a name" in message for message, *_ in driver.app.toasts)


# -- seeds ---------------------------------------------------------------------------------
BAD_SEEDS = ["--5", "-5", "²", "12³", "1" * 4301, "٣", "１２", "1.5", "1e9", "0x10", "5 5",
             str(SEED_MAX + 1), "9" * 20]


@pytest.mark.parametrize("text", BAD_SEEDS)
def test_bad_seeds_are_refused(text):
    with pytest.raises(ValueError, match="whole number from 0 to"):
        parse_seed(text)


def test_seed_range():
    assert parse_seed("") is None and parse_seed("  ") is None
    assert parse_seed("0") == 0 and parse_seed(" 007 ") == 7
    assert parse_seed(str(SEED_MAX)) == SEED_MAX


def test_start_with_a_bad_seed_says_why_and_stays():
    driver = Driver()
    driver.app.push(SetupScene(driver.app))
    driver.pump()
    for text in ["--5", "²", "12³", "1" * 4301]:
        driver.app.toasts.clear()
        driver.top.seed_entry.set_text_length_limit(len(text))
        driver.top.seed_entry.set_text(text)
        driver.press("Start")
        driver.pump()
        assert driver.scene_name == "SetupScene", text[:10]
        assert any("seed must be a whole number" in message
                   for message, *_ in driver.app.toasts), text[:10]


def test_start_with_a_good_seed_deals_that_game():
    driver = Driver()
    driver.app.push(SetupScene(driver.app))
    driver.pump()
    _type(driver, driver.top.seed_entry, "\u200b4\u00ad2")
    driver.press("Start")
    driver.pump()
    assert driver.scene_name == "PlayScene"
    assert driver.top.match.seed == 42


# -- seat names from saves -----------------------------------------------------------------
def _save_with_name(tmp_path: Path, name: str) -> Path:
    match = Match.new("fantasy_racing", [{"name": "Mira", "kind": "human"},
                                         {"name": "Bo", "kind": "bot"}], seed=3)
    path = tmp_path / "named.yaml"
    match.save(path)
    doc = yaml.safe_load(path.read_text())
    doc["seats"][0]["name"] = name
    path.write_text(yaml.safe_dump(doc))
    return path


def test_a_nul_in_a_saved_seat_name_is_refused_with_a_message(tmp_path):
    path = _save_with_name(tmp_path, "Mi\x00ra")
    with pytest.raises(SaveError) as caught:
        Match.load(path)
    assert "control character" in str(caught.value) and "named.yaml" in str(caught.value)


def test_new_match_refuses_unshowable_names():
    seats = [{"name": "Mira", "kind": "human"}, {"name": "\ufeff", "kind": "bot"}]
    with pytest.raises(IllegalAction, match="Seat 2 needs a name"):
        Match.new("fantasy_racing", seats, seed=1)
    seats[1]["name"] = "B\x1bo"
    with pytest.raises(IllegalAction, match="control character"):
        Match.new("fantasy_racing", seats, seed=1)


# -- settings ------------------------------------------------------------------------------
BAD_SETTINGS = {
    "bot_delay": [".nan", ".inf", "-.inf", "-1", "3.5", "1.0e+300", "abc", "true", "[1, 2]",
                  "{a: 1}", "null"],
    "window": ["300x200", "12", "true", "[1280, 720]", "null", "1280x720x2"],
    "animation": ["warp", "0", "true", "[fast]", "null"],
    "handover": ["yes please", "1", "0", "[]", "null"],
}


@pytest.mark.parametrize("key,value", [(k, v) for k, vs in BAD_SETTINGS.items() for v in vs])
def test_every_bad_setting_falls_back_to_its_default_with_a_note(tmp_path, key, value):
    path = tmp_path / "settings.yaml"
    path.write_text(f"{key}: {value}\n")
    settings = Settings.load(path)
    assert getattr(settings, key) == getattr(Settings(), key)
    assert len(settings.notes) == 1 and settings.notes[0].startswith(key)
    assert math.isfinite(settings.bot_delay) and 0 <= settings.bot_delay <= 3
    settings.size  # noqa: B018 - must not raise


def test_good_settings_are_kept(tmp_path):
    path = tmp_path / "settings.yaml"
    path.write_text("bot_delay: 2\nwindow: 1600x900\nanimation: fast\nhandover: false\n")
    settings = Settings.load(path)
    assert (settings.bot_delay, settings.window, settings.animation, settings.handover) == \
        (2.0, "1600x900", "fast", False)
    assert settings.notes == []


def test_computers_still_move_after_a_nan_delay_setting(tmp_path):
    """Repro: bot_delay: .nan stopped the computer players for good."""
    path = tmp_path / "settings.yaml"
    path.write_text("bot_delay: .nan\nanimation: 'off'\n")
    settings = Settings.load(path)
    assert settings.bot_delay == 0.6 and settings.animation == "off"
    driver = Driver()
    driver.app.settings = settings
    match = Match.new("fantasy_racing", [{"name": "A", "kind": "bot"},
                                         {"name": "B", "kind": "bot"}], seed=5)
    from game.ui.scenes.play import PlayScene
    driver.app.push(PlayScene(driver.app, match))
    for _ in range(1000):  # the computers wait 0.6 s before each move
        driver.pump()
        if len(match.actions) >= 2:
            break
        time.sleep(0.01)
    assert len(match.actions) >= 2


# -- command line --------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["abc", "100", "1280x", "x720", "-5x-5", "0x0", "1280x720x3",
                                  "99999x99999", "9000x9000", "１２８０x720", "12.5x9", "", "x"])
def test_bad_window_sizes_are_usage_errors(text, capsys):
    with pytest.raises(SystemExit) as caught:
        parse([f"--size={text}"])
    assert caught.value.code == 2
    assert "--size" in capsys.readouterr().err


def test_window_size_below_the_minimum_is_grown_with_a_note():
    assert window_size("300x200") == (300, 200)
    size, note = fit_window((300, 200))
    assert size == (960, 600) and "960x600" in note
    assert fit_window((1280, 720)) == ((1280, 720), None)
    assert fit_window((2000, 500))[0] == (2000, 600)


def test_size_abc_prints_usage_not_a_traceback():
    run = subprocess.run([sys.executable, "main.py", "--size", "abc"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr and "WIDTHxHEIGHT" in run.stderr
