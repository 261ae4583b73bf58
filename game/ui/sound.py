"""Short sounds for what the board shows: dice, cards, moves, fights, traps, a handover and
"your turn".  Never the only channel: each sound goes with something already on screen (the
event's animation and log line, the handover card, the panel's "At the screen" line).

The files are made by ``game/tools/make_sounds.py`` and live in ``assets/sounds/``.  With no
audio device (pygame.mixer fails to start) the player stays silent without an error; it
still records what it would have played in ``played``, which the tests read.
"""

from __future__ import annotations

import logging
from typing import Any

import pygame

from game.resources import assets_dir

log = logging.getLogger(__name__)

#: Every sound's name (its file is ``assets/sounds/<name>.wav``).
NAMES = ("dice", "card", "move", "fight", "trap", "handover", "your_turn")

#: Per game, the events the screen animates (each screen's ``animate``) and their sound.
EVENT_SOUNDS: dict[str, dict[str, str]] = {
    "fantasy_expedition": {"move": "move", "climb": "move", "place": "card",
                           "reveal": "card", "communal": "card"},
    "fantasy_racing": {"dice": "dice", "step": "move", "tactical": "move",
                       "shortcut": "move", "recoil": "fight", "fight": "fight",
                       "hit": "fight", "destroy": "fight", "fall": "trap", "hole": "trap",
                       "trap_sprung": "trap", "rock": "trap"},
    "mothership": {"move": "move", "flip": "card", "trap": "trap", "escape": "move"},
    "monster_fandango": {"move": "move", "wander": "move", "escape": "move",
                         "attack": "fight", "defend": "dice", "search": "dice",
                         "open": "dice", "table": "dice", "rally": "dice",
                         "slain": "fight", "appear": "card"},
    "odysseus": {"draw": "card", "reveal": "card", "special": "card", "olympus": "card",
                 "resolve": "card", "sail": "move", "looked": "card",
                 "destiny_reveal": "card"},
}


def sound_for(game_id: str, event: dict[str, Any]) -> str | None:
    """The sound for ``event`` of ``game_id`` when the screen shows it, or None.

    >>> sound_for("fantasy_racing", {"type": "dice"}), sound_for("odysseus", {"type": "pass"})
    ('dice', None)
    """
    kind = event.get("type")
    if game_id == "fantasy_expedition" and kind == "trade":
        return "move" if event.get("accepted") else None   # the pieces swap places
    if game_id == "mothership" and kind == "move" and event.get("how") == "thrown":
        return "trap"
    return EVENT_SOUNDS.get(game_id, {}).get(kind)


class SoundPlayer:
    """Plays the named sounds at the settings' volume unless muted; silent without a device.

    ``played`` lists every sound asked for while not muted (device or not), in order.
    """

    def __init__(self, volume: float = 0.8, mute: bool = False, start: bool = True) -> None:
        self.volume = volume
        self.mute = mute
        self.played: list[str] = []
        self.sounds: dict[str, Any] = {}
        #: Why nothing can be heard (no device, no files), or None when sound works.
        self.problem: str | None = "not started"
        if start:
            self.start()

    def start(self) -> None:
        """Open the audio device and load the sounds; any failure leaves the player silent."""
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(22050, -16, 1, 512)
            pygame.mixer.set_num_channels(max(pygame.mixer.get_num_channels(), len(NAMES)))
        except pygame.error as exc:
            self.problem = f"no sound device ({exc})"
            log.info("sound off: %s", self.problem)
            return
        folder = assets_dir() / "sounds"
        for name in NAMES:
            try:
                self.sounds[name] = pygame.mixer.Sound(str(folder / f"{name}.wav"))
            except (pygame.error, FileNotFoundError) as exc:
                log.warning("sound %s not loaded: %s", name, exc)
        self.problem = None if self.sounds else f"no sound files in {folder}"
        self.apply(self.volume, self.mute)

    def apply(self, volume: float, mute: bool) -> None:
        """Use a new volume (0..1) and mute setting."""
        self.volume, self.mute = volume, mute
        for sound in self.sounds.values():
            sound.set_volume(0.0 if mute else volume)

    def play(self, name: str | None) -> None:
        """Play sound ``name`` (None: nothing).  Each sound has a channel of its own: the same
        sound again restarts it instead of piling up (twenty steps shown at once stay one
        knock), while different sounds overlap."""
        if name is None or self.mute:
            return
        self.played.append(name)
        sound = self.sounds.get(name)
        if sound is None or self.volume <= 0:
            return
        try:
            pygame.mixer.Channel(NAMES.index(name)).play(sound)
        except pygame.error:   # the device went away: stay silent
            pass
