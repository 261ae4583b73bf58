"""Play a seeded game through the real play scene and record its cues (sounds and speech):
what each sound and utterance went with, and whose view the screen was in at the time."""

from __future__ import annotations

from typing import Any

import pygame

from game.engine import Match, controller_class
from game.engine.bots import choose_action
from game.ui.scenes.play import PlayScene
from game.ui.speech import Backend, Speaker

from uidriver import Driver


class Recorder(Backend):
    """A speech engine that only writes down what it is asked to say."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def speak(self, text: str) -> None:
        self.said.append(text)


def seats_for(game_id: str, people: int) -> list[dict[str, str]]:
    cls = controller_class(game_id)
    count = cls.min_seats if cls.min_seats > 4 else min(cls.max_seats, 4)
    names = ["Mira", "Tess", "Bo", "Ugo", "Lin", "Rafe", "Ivy", "Oskar", "Nell"]
    return [{"name": names[i], "kind": "human" if i < people else "bot"}
            for i in range(count)]


class CuePlay:
    """A driver playing ``game_id`` (seed ``seed``, ``people`` people and computers), with
    speech on through a recording engine and every cue written down with its context."""

    def __init__(self, game_id: str, seed: int = 7, people: int = 2, speak: bool = True,
                 recap: bool = False, animation: str = "off") -> None:
        self.d = Driver(animation=animation, recap=recap)
        app = self.d.app
        app.cues.speech = Speaker(backend=Recorder)
        app.settings.speak = speak
        app.cues.apply(app.settings)
        self.match = Match.new(game_id, seats_for(game_id, people), seed=seed)
        self.play = app.push(PlayScene(app, self.match))
        #: (viewer, event, new sounds, new utterances) for each event the screen showed.
        self.shown: list[tuple[Any, dict[str, Any], list[str], list[str]]] = []
        #: (scene name, viewer, utterance) for everything said, in order.
        self.said: list[tuple[str, Any, str]] = []
        cues = app.cues
        shown, say = cues.shown, cues.say

        def record_shown(play: Any, event: dict[str, Any]) -> None:
            sounds, spoken = len(cues.sound.played), len(cues.speech.spoken)
            shown(play, event)
            self.shown.append((play.viewer, event, cues.sound.played[sounds:],
                               cues.speech.spoken[spoken:]))

        def record_say(text: Any, interrupt: bool = False) -> None:
            spoken = len(cues.speech.spoken)
            say(text, interrupt)
            for line in cues.speech.spoken[spoken:]:
                self.said.append((self.d.scene_name, self.play.viewer, line))

        cues.shown = record_shown
        cues.say = record_say

    @property
    def sounds(self) -> list[str]:
        return self.d.app.cues.sound.played

    def step(self) -> None:
        """What a person would do now: confirm a card, or make the computer's choice for the
        person at the screen; otherwise let the loop run."""
        d, play, match = self.d, self.play, self.match
        if d.scene_name in ("HandoverScene", "RecapScene"):
            d.key(pygame.K_SPACE)
            return
        seat = play.viewer
        if d.top is play and play.passing_to is not None:
            d.press(next(t for t in d.labels() if t.startswith("Done: pass")))
            return
        if (d.top is play and seat is not None and not play.showing and not match.is_over()
                and seat in match.to_act() and match.seats[seat]["kind"] == "human"):
            play.perform(seat, choose_action(match, seat))
        d.pump()

    def run(self, until, most: int = 3000) -> None:
        for _ in range(most):
            if until(self) or self.match.is_over() and not self.play.queue:
                return
            self.step()
