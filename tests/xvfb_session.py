"""Run under a real X server: play a game through the client, then grab the X screen.

Usage: DISPLAY=:N python tests/xvfb_session.py XWD_FILE OUT_PNG [GAME_ID SECONDS]
(``XWD_FILE`` is the framebuffer file Xvfb writes with ``-fbdir``.)  With a game id, the
session picks that game on the setup screen, makes every seat a computer, and watches it
for SECONDS before grabbing the screen.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import pygame

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from uidriver import Driver  # noqa: E402


def grab(xwd: Path) -> pygame.Surface:
    """The X server's screen, read from Xvfb's XWD framebuffer file."""
    data = xwd.read_bytes()
    fields = struct.unpack(">25I", data[:100])
    header_size, width, height = fields[0], fields[4], fields[5]
    bits_per_pixel, bytes_per_line, ncolors = fields[11], fields[12], fields[19]
    assert bits_per_pixel == 32, bits_per_pixel
    start = header_size + 12 * ncolors
    pixels = data[start:start + bytes_per_line * height]
    return pygame.image.frombuffer(pixels, (width, height), "BGRA").copy()


def watch(d: Driver, game_id: str, seconds: float) -> None:
    """From the main menu, start ``game_id`` with computers in every seat and watch it."""
    import time

    from game.engine import controller_class
    title = controller_class(game_id).title
    d.press("New game")
    for _ in range(10):
        if d.buttons(f"Game: {title}"):
            break
        d.press(next(t for t in d.labels() if t.startswith("Game: ")))
    while d.buttons("Person"):
        d.press("Person")
    d.press("Start")
    assert d.scene_name == "PlayScene", d.scene_name
    start = time.monotonic()
    while time.monotonic() - start < seconds and d.scene_name == "PlayScene":
        d.app.step()
    assert len(d.top.match.actions) > 0 if d.scene_name == "PlayScene" else True


def main() -> int:
    xwd, out = Path(sys.argv[1]), Path(sys.argv[2])
    if len(sys.argv) > 3:
        d = Driver(animation="normal")
        d.app.fps = 60
        watch(d, sys.argv[3], float(sys.argv[4]))
        d.app.draw()
        pygame.display.flip()
        d.pump(2)
        pygame.image.save(grab(xwd), str(out))
        return 0
    d = Driver(animation="fast")
    d.press("New game")
    d.press("Start")
    for _ in range(20000):
        d.app.step()
        if d.scene_name == "ResultsScene":
            break
        play = d.top
        view = play.match.view(play.viewer) if play.viewer is not None else None
        if view and play.viewer in play.match.to_act() and not play.showing:
            if view["phase"] == "trading":
                # A computer may have offered this person a swap: answer it, else pass.
                d.press("Decline" if d.buttons("Decline") else "Pass")
            elif view["phase"] == "choice":
                d.press("5", 0)
                d.press("4", 1)
                if d.buttons("Left"):  # a Werewolf also picks two directions
                    d.press("Left", 0)
                    d.press("Right", 1)
                d.press("Confirm in secret")
            elif view["phase"] == "vote":
                d.press(next(t for t in d.labels() if t.startswith("Vote for")))
    assert d.scene_name == "ResultsScene", d.scene_name
    d.press("View board")
    for _ in range(30):
        d.app.step([])
    pygame.display.flip()
    pygame.image.save(grab(xwd), str(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
