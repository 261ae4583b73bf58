"""What the screen shows, also as sound and speech: the one place the scenes call.

The play scene calls :meth:`Cues.shown` when it starts showing an event (not when the rules
make it: the screen shows events later, one at a time), :meth:`Cues.turn` each update,
:meth:`Cues.cursor` when the keyboard cursor moves; the handover card, the recap and the
focus order call theirs.  Speech says only what that screen shows its viewer: a log line
only if the viewer may read it (the same test as the log box), a handover card only its
public text.  Each sound goes with something on screen already (the animation and the log
line, the card, the "At the screen" line).
"""

from __future__ import annotations

from typing import Any

from game.engine.events import visible_to

from .sound import SoundPlayer, sound_for
from .speech import Speaker


class Cues:
    """The app's sound player and speaker, and what the scenes tell them."""

    def __init__(self, settings: Any, sound: SoundPlayer | None = None,
                 speech: Speaker | None = None) -> None:
        self.sound = sound or SoundPlayer(settings.volume, settings.mute)
        self.speech = speech or Speaker()
        #: (play scene, seat) whose "your turn" was last given (None: nobody's).
        self._turn: tuple[int, int] | None = None
        #: The turn whose sound a confirmed handover already gave.
        self._sounded: tuple[int, int] | None = None
        #: Why speech stays off although the settings ask for it (None: it doesn't).
        self.speech_problem: str | None = None
        self.apply(settings)

    def apply(self, settings: Any) -> None:
        """Follow the settings (volume, mute, speak)."""
        self.sound.apply(settings.volume, settings.mute)
        if settings.speak or self.speech.enabled:
            self.speech_problem = self.speech.enable(settings.speak)

    def say(self, text: str | None, interrupt: bool = False) -> None:
        self.speech.say(text, interrupt)

    # the play scene -------------------------------------------------------------------
    def shown(self, play: Any, event: dict[str, Any]) -> None:
        """The play scene starts showing ``event``: its sound, and its log line if the
        person at the screen may read it."""
        if not visible_to(event, play.viewer):
            return
        self.sound.play(sound_for(play.table.game_id, event))
        if event.get("text"):
            self.say(event["text"])

    def turn(self, play: Any) -> None:
        """"Your turn" when the person at the screen comes to act (a new person, or the same
        one after others played); once the board has shown what happened."""
        if play.showing:
            return
        seat = play.viewer
        match = play.table
        acting = (seat is not None and not match.is_over() and seat in match.to_act()
                  and match.seats[seat]["kind"] == "human")
        key = (id(play), seat) if acting else None
        if key != self._turn:
            self._turn = key
            if key is not None:
                if key != self._sounded:
                    self.sound.play("your_turn")
                self._sounded = None
                # The panel's header and advice, in the person's own view.
                self.say("\n".join([match.status(), *play.screen.panel_text(play.view())]))

    def your_turn(self, play: Any, seat: int) -> None:
        """A handover card was confirmed by ``seat``'s person: the sound now; the panel's
        words once their controls show (after the recap, if any)."""
        self._sounded = (id(play), seat)
        self.sound.play("your_turn")

    def cursor(self, play: Any) -> None:
        """The keyboard cursor is on a new place: its name as the board shows it, then the
        tooltip's words for it (what is there, and why a click would be refused)."""
        cell = play.cursor
        if cell is None or not play.keyboard_on_board:
            return
        words = [text for text in (play.screen.hover_text(cell, play.view()),) if text]
        why = play.why_not_here(cell)
        if why:
            words.append("Not now: " + why)
        name = place_words(play.screen, cell)
        if name and not (words and name.lower() in words[0].lower()):
            words.insert(0, name)
        self.say("\n".join(words) or name, interrupt=True)

    # cards and controls ----------------------------------------------------------------
    def handover(self, title: str, lines: list[str], status: str) -> None:
        """A handover card came up: its sound and its (public) text."""
        self.sound.play("handover")
        self.say("\n".join([title, *lines, status]), interrupt=True)

    def recap(self, title: str, events: list[dict[str, Any]]) -> None:
        """A recap card came up: its title and each line it lists."""
        self.say(title, interrupt=True)
        for event in events:
            self.say(event["text"])

    def focus(self, widget: Any) -> None:
        """The keyboard focus moved to ``widget``: what it is and its tooltip."""
        value = getattr(widget, "get_current_value", None)     # a slider: its percent
        parts = [getattr(widget, "speech_label", None),
                 f"{round(value())} percent" if value else getattr(widget, "text", None),
                 getattr(widget, "tool_tip_text", None)]
        if not getattr(widget, "is_enabled", True):
            parts.insert(2, "unavailable")
        self.say("\n".join(p for p in parts if p), interrupt=True)


def place_words(screen: Any, cell: Any) -> str | None:
    """The board's name for ``cell``: a pair of numbers as the screen names places in its
    texts (a hex "A1"), or None when the cell is a name of its own (its tooltip says it)."""
    if hasattr(cell, "q") and hasattr(cell, "r"):
        value: Any = [cell.q, cell.r]
    elif isinstance(cell, tuple) and len(cell) == 2 and all(isinstance(c, int) for c in cell):
        value = list(cell)
    else:
        return None
    try:
        name = screen.place_name(value)
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    if name == f"{value[0]},{value[1]}":
        return f"Column {value[0]}, row {value[1]}"
    return name[:1].upper() + name[1:]    # "The square one left of you" (fantasy racing)
