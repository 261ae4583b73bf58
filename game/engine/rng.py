"""The match's seeded random generator.

All chance in a match comes from one :class:`Rng` whose whole state is a
single integer, so it saves as plain data and a match replays exactly from its
seed and its actions.  The generator is SplitMix64 (Steele, Lea & Flood 2014):
tiny, fast and of good statistical quality for a board game.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """A deterministic generator whose position is ``state``.

    >>> a, b = Rng(7), Rng(7)
    >>> [a.randint(1, 6) for _ in range(5)] == [b.randint(1, 6) for _ in range(5)]
    True
    >>> a.state == b.state
    True
    """

    def __init__(self, seed: int, state: int | None = None) -> None:
        self.seed = int(seed)
        self.state = (_mix(self.seed & _MASK) if state is None else int(state)) & _MASK
        self.draws = 0

    @classmethod
    def derive(cls, seed: int, *salt: int) -> "Rng":
        """A generator independent of the match's own, e.g. for a bot's choices."""
        value = _mix(seed & _MASK)
        for part in salt:
            value = _mix(((value ^ (part & _MASK)) + _GOLDEN) & _MASK)
        return cls(value)

    def next64(self) -> int:
        """The next 64 random bits."""
        self.state = (self.state + _GOLDEN) & _MASK
        self.draws += 1
        return _mix(self.state)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, like a die: ``randint(1, 8)``."""
        return low + self.randbelow(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence."""
        if not items:
            raise IndexError("cannot choose from an empty sequence")
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct elements in random order."""
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]
