"""Make the program's short sounds: dice, card, move, fight, trap, handover and your turn.

Run from the repository root::

    python -m game.tools.make_sounds [FOLDER]

Writes one 22,050 Hz mono 16-bit WAV per sound into ``assets/sounds/`` (or ``FOLDER``).
Everything is synthesised here with the standard library -- sine tones, envelopes and a
noise generator seeded with a fixed number -- so the output is the same bytes on every run
and machine (``tests/test_sound.py`` runs the tool and compares).  No downloaded assets.
"""

from __future__ import annotations

import argparse
import math
import random
import struct
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 22050
#: Peak loudness as a share of full scale (the player's volume setting scales it further).
PEAK = 0.7
ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "assets" / "sounds"

Samples = list[float]


def silence(seconds: float) -> Samples:
    return [0.0] * int(RATE * seconds)


def envelope(samples: Samples, attack: float = 0.005, decay: float = 8.0) -> Samples:
    """A quick fade in, then an exponential fade out (``decay``: how fast, per second)."""
    rise = max(1, int(RATE * attack))
    return [s * min(1.0, i / rise) * math.exp(-decay * i / RATE)
            for i, s in enumerate(samples)]


def tone(freq: float, seconds: float, decay: float = 8.0, slide: float = 0.0,
         harmonics: tuple[float, ...] = (1.0,)) -> Samples:
    """A tone of ``freq`` Hz (gliding by ``slide`` Hz a second) with some harmonics."""
    out = []
    phase = 0.0
    for i in range(int(RATE * seconds)):
        f = freq + slide * i / RATE
        phase += math.tau * f / RATE
        out.append(sum(a * math.sin((n + 1) * phase) for n, a in enumerate(harmonics))
                   / sum(harmonics))
    return envelope(out, decay=decay)


def noise(seconds: float, rng: random.Random, decay: float = 30.0,
          smooth: float = 0.0) -> Samples:
    """A burst of noise; ``smooth`` (0..1) dulls it (a simple low-pass)."""
    out, last = [], 0.0
    for _ in range(int(RATE * seconds)):
        last = smooth * last + (1 - smooth) * rng.uniform(-1.0, 1.0)
        out.append(last)
    return envelope(out, attack=0.001, decay=decay)


def mix(*parts: tuple[float, Samples]) -> Samples:
    """Lay ``(start seconds, samples)`` parts over each other."""
    length = max(int(RATE * start) + len(s) for start, s in parts)
    out = [0.0] * length
    for start, samples in parts:
        offset = int(RATE * start)
        for i, s in enumerate(samples):
            out[offset + i] += s
    return out


def dice(rng: random.Random) -> Samples:
    """Three clicks of a die rattling on the table."""
    return mix(*[(start, noise(0.05, rng, decay=90.0, smooth=0.3))
                 for start in (0.0, 0.07, 0.16)],
               (0.16, tone(900, 0.05, decay=80.0)))


def card(rng: random.Random) -> Samples:
    """A card sliding out: a soft swish."""
    return noise(0.16, rng, decay=22.0, smooth=0.6)


def move(rng: random.Random) -> Samples:
    """A piece set down: a short wooden knock."""
    return mix((0.0, tone(220, 0.09, decay=45.0, harmonics=(1.0, 0.4, 0.2))),
               (0.0, noise(0.02, rng, decay=200.0, smooth=0.5)))


def fight(rng: random.Random) -> Samples:
    """A clash: a bright metallic hit over a thud."""
    return mix((0.0, tone(95, 0.18, decay=18.0)),
               (0.0, tone(1320, 0.22, decay=16.0, harmonics=(1.0, 0.6, 0.3, 0.2))),
               (0.0, noise(0.08, rng, decay=40.0)))


def trap(rng: random.Random) -> Samples:
    """A trap springing: a falling buzz."""
    return mix((0.0, tone(520, 0.3, decay=9.0, slide=-1100.0, harmonics=(1.0, 0.5, 0.3))),
               (0.0, noise(0.05, rng, decay=60.0, smooth=0.2)))


def handover(rng: random.Random) -> Samples:
    """The screen passes on: two soft falling notes."""
    return mix((0.0, tone(659.3, 0.22, decay=10.0, harmonics=(1.0, 0.3))),
               (0.16, tone(523.3, 0.26, decay=9.0, harmonics=(1.0, 0.3))))


def your_turn(rng: random.Random) -> Samples:
    """Your turn: two bright rising notes."""
    return mix((0.0, tone(587.3, 0.16, decay=12.0, harmonics=(1.0, 0.25))),
               (0.11, tone(880.0, 0.26, decay=9.0, harmonics=(1.0, 0.25))))


#: Every sound the program plays, by name (the file is ``<name>.wav``).
SOUNDS: dict[str, Callable[[random.Random], Samples]] = {
    "dice": dice, "card": card, "move": move, "fight": fight, "trap": trap,
    "handover": handover, "your_turn": your_turn,
}


def wav_bytes(samples: Samples) -> bytes:
    """16-bit little-endian PCM of ``samples`` scaled to PEAK (clipped to full scale)."""
    top = max((abs(s) for s in samples), default=0.0) or 1.0
    scale = PEAK * 32767 / top
    return b"".join(struct.pack("<h", max(-32768, min(32767, round(s * scale))))
                    for s in samples)


def write(name: str, folder: Path) -> Path:
    """Synthesise sound ``name`` into ``folder/<name>.wav`` (same bytes every time)."""
    samples = SOUNDS[name](random.Random(f"tabletop-{name}")) + silence(0.01)
    path = folder / f"{name}.wav"
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(wav_bytes(samples))
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=FOLDER,
                        help="where to write the WAV files (default: assets/sounds)")
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    for name in SOUNDS:
        path = write(name, args.folder)
        print(f"{path}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
