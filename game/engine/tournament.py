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
the CPU seconds (``time.process_time``) of the *strong* level's decisions that had a real
choice (more than one legal action); ``overruled`` counts those that differ from the Normal
player's choice in the same position.  :func:`wilson` gives a share's 95% interval, and
:func:`decision_times` samples a level's decision times for a game and table size.
"""

from __future__ import annotations

import math
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
    #: First and last seed played.
    seeds: tuple[int, int] = (0, -1)
    #: The timed level's decisions that had a real choice, and how many of them differed
    #: from the Normal player's choice in the same position (Hard "overruled" Normal).
    overruled: int = 0

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

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The share's 95% confidence interval (Wilson score interval over the games; a
        tied win counts its fraction)."""
        return wilson(self.share, self.games, z)

    def row(self) -> dict[str, Any]:
        low, high = self.interval()
        return {"game": self.game, "seats": self.seats, "games": self.games,
                "share": round(self.mean_share, 3), "fair": round(self.fair, 3),
                "share_low": round(low, 3), "share_high": round(high, 3),
                "ratio": round(self.ratio, 2),
                "ratio_low": round(low / self.fair, 2) if self.fair else 0.0,
                "ratio_high": round(high / self.fair, 2) if self.fair else 0.0,
                "seeds": list(self.seeds), "overruled": self.overruled,
                "decisions": len(self.times),
                "p50_s": round(self.p50, 3), "p95_s": round(self.p95, 3),
                "max_s": round(self.max_time, 3)}


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (``z`` 1.96: 95%); (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def default_seats(game: str) -> int:
    """Two seats where the game allows it (the clearest duel), else its smallest table."""
    cls = controller_class(game)
    return max(2, cls.min_seats)


def play(game: str, levels: list[str], seed: int, options: dict[str, Any] | None = None,
         timed: str | None = None, times: list[float] | None = None,
         max_actions: int = 20_000, figures: "Figures | None" = None) -> Match:
    """One game with a computer at every seat, ``levels[i]`` at seat ``i``; the decision times
    (CPU seconds) of seats at level ``timed`` are appended to ``times``, and ``figures``
    counts those that differ from the Normal player's choice."""
    from .bots import normal_action
    seats = [{"name": NAMES[i], "kind": "bot", "level": level} for i, level in enumerate(levels)]
    match = Match.new(game, seats, seed=seed, options=options or {})
    for _ in range(max_actions):
        if match.is_over():
            return match
        seat = match.to_act()[0]
        timing = timed is not None and levels[seat] == timed and len(match.legal_actions(seat)) > 1
        start = time.process_time()
        action = choose_action(match, seat)
        if timing and times is not None:
            times.append(time.process_time() - start)
        if timing and figures is not None and timed != "normal":
            figures.overruled += action != normal_action(match, seat)
        match.act(seat, action)
    raise RuntimeError(f"{game} seed {seed} did not end in {max_actions} actions")


#: One game of a tournament as plain data (a line of ``bench_bots``' journal): its index in
#: the block, seed, each seat's level, the winners, its actions, the timed level's decision
#: times and how many of them overruled Normal.
GameRecord = dict[str, Any]


def play_record(game: str, levels: list[str], index: int, seed: int,
                options: dict[str, Any] | None, timed: str) -> GameRecord:
    """Play game ``index`` of a block (seed ``seed + index``) and return its record."""
    counter = Figures(game, len(levels))
    match = play(game, levels, seed + index, options, timed=timed, times=counter.times,
                 figures=counter)
    return {"index": index, "seed": seed + index, "levels": list(levels),
            "winners": [int(w) for w in (match.result() or {}).get("winners") or []],
            "actions": len(match.actions), "times": [round(t, 4) for t in counter.times],
            "overruled": counter.overruled}


def _tournament(game: str, games: int, seats: int, seed: int, options: dict[str, Any] | None,
                timed: str, levels_of: Callable[[int], list[str]],
                score: Callable[[GameRecord], float],
                progress: Callable[[int, Figures], None] | None,
                known: dict[int, GameRecord] | None, on_game: Callable[[GameRecord], None] | None,
                part: tuple[int, int]) -> Figures:
    """Games ``0 .. games - 1`` of the block from ``seed`` (only those with ``index % parts ==
    which`` for ``part = (which, parts)``), each taken from ``known`` when it holds it (a
    journal of an earlier run: every game is seeded, so it would end the same), else played
    and given to ``on_game``."""
    which, parts = part
    figures = Figures(game, seats)
    for index in range(games):
        if index % parts != which:
            continue
        record = (known or {}).get(index)
        if record is None:
            record = play_record(game, levels_of(index), index, seed, options, timed)
            if on_game is not None:
                on_game(record)
        figures.seeds = (seed, seed + index)
        figures.games += 1
        figures.actions += record["actions"]
        figures.with_winner += bool(record["winners"])
        figures.share += score(record)
        figures.times.extend(record["times"])
        figures.overruled += record["overruled"]
        if progress is not None:
            progress(index, figures)
    return figures


def duel(game: str, strong: str = "hard", weak: str = "normal", games: int = 20,
         seats: int | None = None, seed: int = 1, options: dict[str, Any] | None = None,
         progress: Callable[[int, Figures], None] | None = None,
         known: dict[int, GameRecord] | None = None,
         on_game: Callable[[GameRecord], None] | None = None,
         part: tuple[int, int] = (0, 1)) -> Figures:
    """``games`` games of one ``strong`` seat against ``seats - 1`` ``weak`` ones (the strong
    seat is seat ``index % seats``).  ``known``, ``on_game`` and ``part``: see
    :func:`_tournament`."""
    seats = seats or default_seats(game)

    def levels_of(index: int) -> list[str]:
        return [strong if s == index % seats else weak for s in range(seats)]

    def score(record: GameRecord) -> float:
        winners = record["winners"]
        return 1 / len(winners) if record["index"] % seats in winners else 0.0

    return _tournament(game, games, seats, seed, options, strong, levels_of, score, progress,
                       known, on_game, part)


def crew(game: str, level: str = "hard", games: int = 20, seats: int | None = None,
         seed: int = 1, options: dict[str, Any] | None = None,
         progress: Callable[[int, Figures], None] | None = None,
         known: dict[int, GameRecord] | None = None,
         on_game: Callable[[GameRecord], None] | None = None,
         part: tuple[int, int] = (0, 1)) -> Figures:
    """``games`` games with every seat at ``level``; ``mean_share`` is the part won."""
    seats = seats or default_seats(game)
    return _tournament(game, games, seats, seed, options, level, lambda index: [level] * seats,
                       lambda record: float(bool(record["winners"])), progress, known, on_game,
                       part)


def seat_counts(game: str) -> list[int]:
    """Every table size ``game`` allows."""
    cls = controller_class(game)
    return list(range(cls.min_seats, cls.max_seats + 1))


def decision_times(game: str, seats: int, decisions: int = 100, seed: int = 1,
                   options: dict[str, Any] | None = None, settings: Any = None,
                   max_games: int = 200, times_out: list[float] | None = None,
                   stride: int = 4) -> dict[str, Any]:
    """CPU seconds (``time.process_time``) of ``decisions`` Hard decisions with a real choice
    (more than one legal action), from seeded games (``seed``, ``seed + 1``, ...) of one
    Hard seat among Normal ones (moving round the table); also the work units each spent
    (``search.SearchSettings.work``) and how many chose differently from Normal.  Only every
    ``stride``-th decision of the Hard seat is searched and timed (the others are Normal's
    choice), so the sample spreads over whole games, from the opening to the end."""
    from .bots import normal_action
    from .search import WORK_DONE
    clock = time.process_time
    times: list[float] = []
    work: list[int] = []
    overruled = 0
    turn = 0
    for index in range(max_games):
        if len(times) >= decisions:
            break
        where = index % seats
        levels = ["hard" if s == where else "normal" for s in range(seats)]
        names = [{"name": NAMES[i], "kind": "bot", "level": level}
                 for i, level in enumerate(levels)]
        match = Match.new(game, names, seed=seed + index, options=options or {})
        for _ in range(20_000):
            if match.is_over() or len(times) >= decisions:
                break
            seat = match.to_act()[0]
            real = seat == where and len(match.legal_actions(seat)) > 1
            turn += real
            if real and (turn - 1) % stride == 0:
                done, start = WORK_DONE[0], clock()
                action = choose_action(match, seat, None, settings)
                times.append(clock() - start)
                work.append(WORK_DONE[0] - done)
                overruled += action != normal_action(match, seat)
            elif real:
                action = normal_action(match, seat)
            else:
                action = choose_action(match, seat)
            match.act(seat, action)
    if times_out is not None:
        times_out.extend(times)
    ordered = sorted(times)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0

    return {"game": game, "seats": seats, "count": len(times), "p50_s": round(at(0.5), 3),
            "p95_s": round(at(0.95), 3), "max_s": round(ordered[-1], 3) if ordered else 0.0,
            "mean_work": round(statistics.mean(work), 1) if work else 0.0,
            "ms_per_kwork": round(1e6 * sum(times) / max(1, sum(work)), 2),
            "overruled": overruled}


__all__ = ["Figures", "GameRecord", "crew", "decision_times", "wilson", "default_seats", "duel",
           "play", "play_record", "seat_counts"]
