"""Speech (issue 28, part 3): the Speaker's queue (deduplicated, interruptible, never in the
loop's way), what each game's play says -- only what the person at the screen may read, a
handover card only its public words -- the keyboard cursor's place and tooltip, the focused
control, the recap, and a Speak setting that says why it stays off without an engine."""

from __future__ import annotations

import threading
import time

import pygame
import pygame_gui
import pytest

from game.engine import game_ids
from game.engine.events import audience, visible_to
from game.ui.cues import place_words
from game.ui.scenes.play import PlayScene
from game.ui.speech import Backend, Pyttsx3, Silent, Speaker, clean

from cueplay import CuePlay, Recorder
from uidriver import Driver


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Held(Backend):
    """Speaks only when let go, so the queue can be looked at while it waits."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.go = threading.Event()
        self.stopped = 0

    def speak(self, text: str) -> None:
        self.go.wait(10)
        self.said.append(text)

    def stop(self) -> None:
        self.stopped += 1


def test_the_speaker_queues_drops_repeats_and_is_interrupted():
    clock = Clock()
    backend = Held()
    speaker = Speaker(backend=lambda: backend, clock=clock)
    speaker.say("Not yet")                       # off: nothing
    assert speaker.enable(True) is None and speaker.enabled
    for text in ("Bo moves right.", "Bo moves right.", "Bo rolls 4.", "", None):
        speaker.say(text)
    clock.now += 5
    speaker.say("Bo rolls 4.")                   # a repeat long after counts again
    assert speaker.spoken == ["Bo moves right.", "Bo rolls 4.", "Bo rolls 4."]
    speaker.say("Hex A1: forest", interrupt=True)
    assert speaker.waiting == ["Hex A1: forest"] and backend.stopped == 1
    backend.go.set()
    for _ in range(500):
        if not speaker.waiting and "Hex A1: forest" in backend.said:
            break
        time.sleep(0.01)
    assert backend.said[-1] == "Hex A1: forest"
    assert "Bo rolls 4." not in backend.said[1:], "what waited was dropped"
    speaker.enable(False)
    speaker.say("Anything")
    assert speaker.spoken[-1] == "Hex A1: forest"


def test_say_never_waits_for_the_engine():
    backend = Held()                             # never lets go
    speaker = Speaker(backend=lambda: backend)
    speaker.enable(True)
    for number in range(40):
        speaker.say(f"Line {number}")            # returns at once: the engine is blocked
    assert len(speaker.spoken) == 40
    assert len(speaker.waiting) <= 12            # the oldest are dropped, not piled up
    backend.go.set()


def test_clean_leaves_out_the_marks_drawn_on_buttons():
    assert clean("‹   1280 × 720   ›") == "1280 × 720"
    assert clean("Start line.\nHere: Mira") == "Start line. Here: Mira"


def test_without_pyttsx3_speak_says_why_and_stays_off(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "pyttsx3", None)
    assert "pyttsx3" in Pyttsx3().start()
    from game.ui.scenes.settings import SettingsScene
    d = Driver()
    d.app.cues.speech = Speaker(backend=Pyttsx3)
    d.app.settings.speak = True
    d.app.cues.apply(d.app.settings)
    assert not d.app.cues.speech.enabled and "pyttsx3" in d.app.cues.speech_problem
    scene = d.app.push(SettingsScene(d.app))
    d.pump()
    speak = next(b for b, c in scene.value_buttons.items() if c.field == "speak")
    assert not speak.is_enabled and "Off" in speak.text
    assert "pip install" in speak.tool_tip_text
    assert scene.explain(scene.value_buttons[speak]).startswith("Off: it needs pyttsx3")
    d.press("Save")
    assert d.app.settings.speak is False


def test_speak_turns_on_and_off_from_settings():
    from game.ui.scenes.settings import SettingsScene
    d = Driver()
    d.app.cues.speech = Speaker(backend=Recorder)
    scene = d.app.push(SettingsScene(d.app))
    d.pump()
    speak = next(b for b, c in scene.value_buttons.items() if c.field == "speak")
    assert speak.is_enabled
    d.app.step([pygame.event.Event(pygame.USEREVENT)])  # nothing: still off
    d.app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=speak)])
    assert "On" in speak.text
    d.press("Save")
    assert d.app.settings.speak and d.app.cues.speech.enabled
    d.app.toast("Saved to game.yaml.")
    assert d.app.cues.speech.spoken[-1] == "Saved to game.yaml."


def test_the_focused_control_is_said_with_its_tooltip():
    from game.ui.scenes.settings import SettingsScene
    d = Driver()
    d.app.cues.speech = Speaker(backend=Recorder)
    d.app.cues.speech.enable(True)
    d.app.push(SettingsScene(d.app))
    d.pump()
    d.key(pygame.K_DOWN)
    assert d.app.cues.speech.spoken[-1] == \
        "Animations. Off. Click or Enter: next value; Left/Right: step"
    d.key(pygame.K_RIGHT)
    assert d.app.cues.speech.spoken[-1] == "Animations: Slow"


def private_texts(match, viewer) -> set[str]:
    """Log words only another seat may read (not also in a line ``viewer`` may read)."""
    mine = {clean(ev["text"]) for ev in match.log if ev.get("text") and visible_to(ev, viewer)}
    return {clean(ev["text"]) for ev in match.log
            if ev.get("text") and not visible_to(ev, viewer)} - mine


@pytest.mark.parametrize("game_id", game_ids())
def test_speech_says_only_what_the_person_at_the_screen_may_read(game_id):
    play = CuePlay(game_id, seed=7, people=2)
    play.run(lambda p: len(p.shown) >= 80)
    match = play.match
    assert len(play.said) >= 10
    # A new log line is said when shown, if and only if the viewer may read it.
    hidden = 0
    for viewer, event, _sounds, said in play.shown:
        if event.get("text") and visible_to(event, viewer):
            assert said in ([clean(event["text"])], []), said   # [] only for a repeat
        else:
            hidden += not visible_to(event, viewer)
            assert said == [], f"{event['text']!r} is not for {viewer}"
    if game_id == "odysseus":
        assert hidden, "the game showed events only another seat may see (drawn cards)"
    # Nothing said is a line only another seat may read.
    for scene, viewer, line in play.said:
        assert line not in private_texts(match, viewer), (scene, viewer, line)


@pytest.mark.parametrize("game_id", ["odysseus", "fantasy_expedition"])
def test_a_handover_card_says_only_public_words(game_id):
    play = CuePlay(game_id, seed=7, people=2)
    cards = []
    for _ in range(3000):
        if play.d.scene_name == "HandoverScene":
            before = len(play.d.app.cues.speech.spoken)
            card = play.d.top
            play.d.pump()
            cards.append((card, play.d.app.cues.speech.spoken[before - 1:]))
        if len(cards) >= 4 or play.match.is_over():
            break
        play.step()
    assert len(cards) >= 4
    match = play.match
    public = match.view(None)
    secrets = [clean(ev["text"]) for ev in match.log
               if ev.get("text") and audience(ev) is not None and len(audience(ev)) == 1]
    if game_id == "odysseus":
        assert secrets, "someone saw their own cards"
    for scene, viewer, line in play.said:
        if scene != "HandoverScene":
            continue
        assert viewer is None
        assert not any(secret in line for secret in secrets)
        assert line.startswith("Pass to ")
        assert match.seats[0]["name"] in line or match.seats[1]["name"] in line
    assert public is not None


def test_the_keyboard_cursor_says_the_place_and_its_tooltip():
    play = CuePlay("monster_fandango", seed=7, people=2)
    play.run(lambda p: p.play.viewer is not None and not p.play.showing
             and p.play.viewer in p.match.to_act() and p.d.scene_name == "PlayScene")
    spoken = play.d.app.cues.speech.spoken
    play.d.key(pygame.K_RIGHT)
    scene = play.play
    cell = scene.cursor
    tip = scene.screen.hover_text(cell, scene.view())
    assert tip.startswith("Hex ")
    assert spoken[-1].startswith(clean(tip)), spoken[-1]
    play.d.key(pygame.K_RIGHT)
    assert scene.cursor != cell and spoken[-1].startswith("Hex ")
    # Fantasy racing names a square from the viewer's racer, as its texts do.
    racing = CuePlay("fantasy_racing", seed=7, people=1)
    racing.run(lambda p: p.play.viewer == 0 and not p.play.showing
               and 0 in p.match.to_act() and p.d.scene_name == "PlayScene")
    racing.d.key(pygame.K_DOWN)
    racing.d.key(pygame.K_DOWN)
    x, y = racing.play.cursor
    said = racing.d.app.cues.speech.spoken[-1]
    name = racing.play.screen.place_name([x, y])      # where it lies from your racer
    assert name.startswith("the square ")
    assert said.startswith(name[:1].upper() + name[1:]), said
    ship = CuePlay("mothership", seed=7, people=1)
    ship.run(lambda p: p.play.viewer == 0 and not p.play.showing
             and 0 in p.match.to_act() and p.d.scene_name == "PlayScene")
    ship.d.key(pygame.K_RIGHT)
    x, y = ship.play.cursor
    name = ship.play.screen.place_name([x, y])
    said = ship.d.app.cues.speech.spoken[-1]
    assert said.startswith(name[:1].upper() + name[1:] + ". "), said
    assert clean(ship.play.screen.hover_text((x, y), ship.play.view())) in said
    # A board that names its places only by numbers: column and row.

    class Numbers:
        def place_name(self, value):
            return f"{value[0]},{value[1]}"

    assert place_words(Numbers(), (3, 4)) == "Column 3, row 4"
    assert place_words(Numbers(), "troy") is None        # a place with a name of its own


def test_the_recap_is_said_line_by_line():
    play = CuePlay("odysseus", seed=7, people=2, recap=True)
    recaps = []
    for _ in range(3000):
        if play.d.scene_name == "RecapScene":
            recaps.append(play.d.top)
        if len(recaps) >= 2 or play.match.is_over():
            break
        play.step()
    assert recaps
    recap = recaps[-1]
    spoken = play.d.app.cues.speech.spoken
    title = spoken.index(f"While you were away, {recap.name}")
    lines = [clean(ev["text"]) for ev in recap.events]
    assert spoken[title + 1:title + 1 + len(lines)] == lines
    assert all(visible_to(ev, recap.seat) for ev in recap.events)


def test_speech_off_queues_nothing():
    play = CuePlay("fantasy_racing", seed=7, people=2, speak=False)
    play.run(lambda p: len(p.shown) >= 20)
    assert play.d.app.cues.speech.spoken == []


def test_no_engine_means_no_speech_and_no_error():
    speaker = Speaker(backend=lambda: Silent("no speech engine (install espeak-ng)"))
    assert speaker.enable(True) == "no speech engine (install espeak-ng)"
    assert not speaker.enabled
    speaker.say("Hello")
    assert speaker.spoken == []

    def broken() -> Backend:
        raise OSError("libespeak-ng.so.1: cannot open shared object file")

    speaker = Speaker(backend=broken)
    assert speaker.enable(True) == "the speech engine failed"


def test_the_real_engine_speaks_or_says_why_not():
    """pyttsx3 with espeak-ng (where installed): an utterance is made and played through the
    (dummy) audio device; elsewhere the reason is words, and nothing fails."""
    speaker = Speaker()
    problem = speaker.enable(True)
    if problem is not None:
        assert isinstance(problem, str) and problem
        pytest.skip(f"no speech here: {problem}")
    speaker.say("Hex A1: open ground")
    for _ in range(1000):
        if not speaker.waiting:
            break
        time.sleep(0.01)
    assert speaker.spoken == ["Hex A1: open ground"]
    assert isinstance(speaker._backend, Pyttsx3)
    speaker.enable(False)
    assert PlayScene  # the play scene module imports with speech present
