"""Computer levels' figures: ``python -m game.bench --bots [GAME ...] [--games N]``.

Seeded tournaments (``game/engine/tournament.py``) for every game, as issue 17 asks:

- **Hard vs Normal**: one Hard seat among Normal ones, moving round the table from game to
  game; Hard's win share against its fair share (target: at least 1.4 times);
- **Normal vs Easy**: the same with one Normal seat among Easy ones (target: 1.2 times);
- **Hard decision time**: 95th percentile (target under 1.5 s) and maximum (under 4 s) of the
  Hard player's choices that had more than one legal action, on this machine;
- for the cooperative **Mothership**, a crew all at one level on Medium instead of a duel: the
  part of games a Hard crew escapes against a Normal crew (target: 15 points more), and a Normal
  crew against an Easy one.

Every game is seeded, so the shares are the same on every run; only the times vary (these
machines are shared: compare times from one run).  The defaults are small, for a run of a few
minutes; the figures the issue asks for need more games (``--games 40`` and patience).  The
settings used are printed first, and everything is also written to ``bench-bots.yaml``.

Run it on its own too: ``python -m game.bench_bots --help``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

#: Hard games per figure by default (a Hard game takes from seconds to a minute).
HARD_GAMES = 2
#: Games per figure without a Hard player (Normal vs Easy, Normal and Easy crews): cheap.
PLAIN_GAMES = 20
SEED = 1
#: Cooperative games: compared crew against crew, with these options.
CREW_GAMES = {"mothership": {"difficulty": "medium"}}
#: Targets (issue 17).
HARD_RATIO, NORMAL_RATIO, CREW_POINTS, P95_S, MAX_S = 1.4, 1.2, 15.0, 1.5, 4.0


def _mark(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def duel_figures(game: str, hard_games: int, plain_games: int, seed: int,
                 seats: int | None, say) -> dict[str, Any]:
    """Hard vs Normal and Normal vs Easy duels of ``game`` (plain data)."""
    from game.engine.tournament import duel
    started = time.perf_counter()
    say(f"  {game}: Hard vs Normal, {hard_games} games ...")
    hard = duel(game, "hard", "normal", games=hard_games, seats=seats, seed=seed,
                progress=lambda i, f: say(f"    game {i + 1}/{hard_games}: "
                                          f"{f.actions} actions so far, "
                                          f"{len(f.times)} Hard decisions"))
    say(f"  {game}: Normal vs Easy, {plain_games} games ...")
    normal = duel(game, "normal", "easy", games=plain_games, seats=seats, seed=seed)
    return {"kind": "duel", "hard_vs_normal": hard.row(), "normal_vs_easy": normal.row(),
            "seconds": round(time.perf_counter() - started, 1)}


def crew_figures(game: str, hard_games: int, plain_games: int, seed: int,
                 seats: int | None, say) -> dict[str, Any]:
    """Crews of one level each (cooperative ``game``), on the options of CREW_GAMES."""
    from game.engine.tournament import crew
    options = CREW_GAMES[game]
    started = time.perf_counter()
    say(f"  {game}: Hard crew, {hard_games} games, {options} ...")
    hard = crew(game, "hard", games=hard_games, seats=seats, seed=seed, options=options,
                progress=lambda i, f: say(f"    game {i + 1}/{hard_games}: "
                                          f"{f.actions} actions so far"))
    say(f"  {game}: Normal and Easy crews, {plain_games} games each ...")
    normal = crew(game, "normal", games=plain_games, seats=seats, seed=seed, options=options)
    easy = crew(game, "easy", games=plain_games, seats=seats, seed=seed, options=options)
    return {"kind": "crew", "options": dict(options), "hard_crew": hard.row(),
            "normal_crew": normal.row(), "easy_crew": easy.row(),
            "seconds": round(time.perf_counter() - started, 1)}


def table(results: dict[str, dict[str, Any]]) -> str:
    """The figures as a table for people, with the targets."""
    lines = [f"{'game':18} {'Hard vs Normal':30} {'Normal vs Easy':30} "
             f"{'Hard p95 s':>11} {'max s':>7}  games"]
    for game, r in results.items():
        if r["kind"] == "duel":
            h, n = r["hard_vs_normal"], r["normal_vs_easy"]
            hard = f"{h['share']:.2f}/{h['fair']:.2f} = {h['ratio']:.2f}x"
            normal = f"{n['share']:.2f}/{n['fair']:.2f} = {n['ratio']:.2f}x"
            hard += f"  {_mark(h['ratio'] >= HARD_RATIO)}"
            normal += f"  {_mark(n['ratio'] >= NORMAL_RATIO)}"
            games = f"{h['games']}+{n['games']}, {h['seats']} seats"
        else:
            h, n, e = r["hard_crew"], r["normal_crew"], r["easy_crew"]
            up = 100 * (h["share"] - n["share"])
            down = 100 * (n["share"] - e["share"])
            hard = f"{100 * h['share']:.0f}% vs {100 * n['share']:.0f}%: {up:+.0f} pt"
            normal = f"{100 * n['share']:.0f}% vs {100 * e['share']:.0f}%: {down:+.0f} pt"
            hard += f"  {_mark(up >= CREW_POINTS)}"
            normal += f"  {_mark(down > 0)}"
            games = f"{h['games']}+{n['games']}+{e['games']} crews of {h['seats']}"
        times = f"{h['p95_s']:11.2f} {h['max_s']:7.2f}"
        ok = h["decisions"] == 0 or (h["p95_s"] < P95_S and h["max_s"] < MAX_S)
        lines.append(f"{game:18} {hard:30} {normal:30} {times}  {games}"
                     + ("" if ok else "  (time MISSED)"))
    lines.append(f"targets: Hard >= {HARD_RATIO}x fair share, Normal >= {NORMAL_RATIO}x; "
                 f"crews (Mothership, Medium): Hard escapes >= {CREW_POINTS:.0f} points more "
                 f"than Normal; Hard decision p95 < {P95_S} s, max < {MAX_S} s")
    return "\n".join(lines)


def run(games: list[str] | None = None, hard_games: int | None = None,
        plain_games: int | None = None, seed: int = SEED, seats: int | None = None,
        out: Path | None = Path("bench-bots.yaml"), quiet: bool = False) -> dict[str, Any]:
    """Play the tournaments and print the table; returns the figures (plain data)."""
    from game.engine.registry import game_ids
    known = game_ids()
    chosen = list(games or known)
    unknown = [g for g in chosen if g not in known]
    if unknown:
        raise SystemExit(f"No such game: {', '.join(unknown)} (games: {', '.join(known)})")
    hard_games = hard_games or HARD_GAMES
    plain_games = plain_games or max(PLAIN_GAMES, hard_games)

    def say(text: str) -> None:
        if not quiet:
            print(text, flush=True)

    last = seed + max(hard_games, plain_games) - 1
    say(f"computer levels: games {', '.join(chosen)}; {hard_games} games with a Hard player "
        f"per figure, {plain_games} without; seeds {seed}..{last}"
        f"; seats: {seats or 'two, or the fewest the game allows'}; crews: "
        + "; ".join(f"{g} {o}" for g, o in CREW_GAMES.items() if g in chosen))
    results: dict[str, dict[str, Any]] = {}
    started = time.perf_counter()
    for game in chosen:
        figures = crew_figures if game in CREW_GAMES else duel_figures
        results[game] = figures(game, hard_games, plain_games, seed, seats, say)
    say("")
    print(table(results))
    print(f"({time.perf_counter() - started:.0f} s in all: "
          + ", ".join(f"{g} {r['seconds']:.0f} s" for g, r in results.items()) + ")")
    report = {"settings": {"games": chosen, "hard_games": hard_games,
                           "plain_games": plain_games, "seed": seed, "seats": seats,
                           "crews": {g: o for g, o in CREW_GAMES.items() if g in chosen}},
              "results": results}
    if out is not None:
        import yaml
        out.write_text(yaml.safe_dump(report, sort_keys=False))
        say(f"(written to {out})")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.bench_bots",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help="games (default: all)")
    parser.add_argument("--games", dest="count", type=int, default=None,
                        help=f"games per figure with a Hard player (default {HARD_GAMES})")
    parser.add_argument("--plain-games", type=int, default=None,
                        help=f"games per figure without one (default {PLAIN_GAMES})")
    parser.add_argument("--seed", type=int, default=SEED, help="first game's seed")
    parser.add_argument("--seats", type=int, default=None,
                        help="seats per game (default: two, or the game's fewest)")
    args = parser.parse_args(argv)
    run(args.games or None, args.count, args.plain_games, args.seed, args.seats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
