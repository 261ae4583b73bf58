"""Seeded tournaments between computer levels, for ``python -m game.bench --bots``.

Two kinds of figures, as issue 17 asks:

- :func:`duel` — one *strong* seat among *weak* ones, the strong seat moving round the table
  from game to game (seat 0 in the first game, seat 1 in the second, ...), so no seat order
  favours either level.  The strong level's **share** is its mean win share (a win shared by
  ``k`` winners counts ``1/k``, as ``search.outcome`` scores it); its **fair share** is what an
  equal player would get in the same games: the part of games that had any winner, over the
  number of seats.  ``ratio = share / fair``; 1.0 is no better than the others.
- :func:`crew` — every seat at one level (cooperative games: Mothership's crew): the part of
  games the crew won.

Every game is seeded (``seed + index``) and every computer choice is seeded from its match, so a
tournament gives the same figures on every run; only the decision times vary.  The times are
those of the *strong* level's decisions that had a real choice (more than one legal action).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from .bots import choose_action
from .match import Match
from .registry import controller_class

NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]


@dataclass
class Figures:
    game: str
    seats: int
    games: int = 0
    share: float = 0.0          # duel: the strong seat's summed win share; crew: games won
    with_winner: int = 0
    times: list[float] = field(default_factory=list)
    actions: int = 0

    @property
    def mean_share(self) -> float:
        return self.share / self.games if self.games else 0.0

    @property
    def fair(self) -> float:
        return self.with_winner / self.games / self.seats if self.games else 0.0

    @property
    def ratio(self) -> float:
        return self.mean_share / self.fair if self.fair else 0.0

    @property
    def p50(self) -> float:
        return statistics.median(self.times) if self.times else 0.0

    @property
    def p95(self) -> float:
        if not self.times:
            return 0.0
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]

    @property
    def max_time(self) -> float:
        return max(self.times) if self.times else 0.0

    def row(self) -> dict[str, Any]:
        return {"game": self.game, "seats": self.seats, "games": self.games,
                "share": round(self.mean_share, 3), "fair": round(self.fair, 3),
                "ratio": round(self.ratio, 2), "decisions": len(self.times),
                "p50_s": round(self.p50, 3), "p95_s": round(self.p95, 3),
                "max_s": round(self.max_time, 3)}


def default_seats(game: str) -> int:
    """Two seats where the game allows it (the clearest duel), else its smallest table."""
    cls = controller_class(game)
    return max(2, cls.min_seats)


def play(game: str, levels: list[str], seed: int, options: dict[str, Any] | None = None,
         timed: str | None = None, times: list[float] | None = None,
         max_actions: int = 20_000) -> Match:
    """One game with a computer at every seat, ``levels[i]`` at seat ``i``; the decision times
    of seats at level ``timed`` are appended to ``times``."""
    seats = [{"name": NAMES[i], "kind": "bot", "level": level} for i, level in enumerate(levels)]
    match = Match.new(game, seats, seed=seed, options=options or {})
    for _ in range(max_actions):
        if match.is_over():
            return match
        seat = match.to_act()[0]
        timing = timed is not None and levels[seat] == timed and len(match.legal_actions(seat)) > 1
        start = time.perf_counter()
        action = choose_action(match, seat)
        if timing and times is not None:
            times.append(time.perf_counter() - start)
        match.act(seat, action)
    raise RuntimeError(f"{game} seed {seed} did not end in {max_actions} actions")


def duel(game: str, strong: str = "hard", weak: str = "normal", games: int = 20,
         seats: int | None = None, seed: int = 1, options: dict[str, Any] | None = None,
         progress: Callable[[int, Figures], None] | None = None) -> Figures:
    """``games`` games of one ``strong`` seat against ``seats - 1`` ``weak`` ones."""
    seats = seats or default_seats(game)
    figures = Figures(game, seats)
    for index in range(games):
        where = index % seats
        levels = [strong if s == where else weak for s in range(seats)]
        match = play(game, levels, seed + index, options, timed=strong, times=figures.times)
        figures.games += 1
        figures.actions += len(match.actions)
        winners = (match.result() or {}).get("winners") or []
        figures.with_winner += bool(winners)
        figures.share += 1 / len(winners) if where in winners else 0.0
        if progress is not None:
            progress(index, figures)
    return figures


def crew(game: str, level: str = "hard", games: int = 20, seats: int | None = None,
         seed: int = 1, options: dict[str, Any] | None = None,
         progress: Callable[[int, Figures], None] | None = None) -> Figures:
    """``games`` games with every seat at ``level``; ``mean_share`` is the part won."""
    seats = seats or default_seats(game)
    figures = Figures(game, seats)
    for index in range(games):
        match = play(game, [level] * seats, seed + index, options, timed=level,
                     times=figures.times)
        figures.games += 1
        figures.actions += len(match.actions)
        won = bool((match.result() or {}).get("winners"))
        figures.with_winner += won
        figures.share += won
        if progress is not None:
            progress(index, figures)
    return figures


__all__ = ["Figures", "crew", "default_seats", "duel", "play"]
