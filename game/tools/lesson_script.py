"""Find a seed and write the steps of a lesson (game/<game>/lesson.yaml; format in
game/engine/lesson.py).

Plays a seeded match: the computer seats choose as they would in a game (their level, their
own view), the learner seats follow your script (a YAML list of actions) and then the Normal
player's choice (as a Hint would give it).  It prints the steps as lesson YAML, each with the
log lines the action caused (what the learner's seat may read) as a comment, and `say` /
`section` left as TODO for you to write.

    python -m game.tools.lesson_script fantasy_racing --seed 4242 \\
        --seats "You:human,Bo:bot:easy" --learner 0 --options turns=5 --actions 80
    python -m game.tools.lesson_script fantasy_racing --seats "You:human,Bo:bot:easy" \\
        --find 1-500 --want fight,recoil,chest --within 60
    python -m game.tools.lesson_script fantasy_racing --lesson   # check the game's lesson

``--script FILE`` holds the learner's first actions (a YAML list of actions, or of
``{seat, do}`` steps: a lesson file's ``steps`` can be pasted; computer steps in it are
played as written too).  ``--find A-B --want TYPES`` tries every seed from A to B and lists
those whose first ``--within`` actions produce events of every wanted type, with the action
number of each type's first appearance.  ``--lesson`` runs the checker over the game's lesson
file and prints its problems.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import yaml

from game.engine import Match
from game.engine.bots import choose_action, level_of
from game.engine.events import visible_to


def parse_seats(text: str) -> list[dict[str, Any]]:
    """"You:human,Bo:bot:easy" -> Match.new's seats."""
    seats = []
    for part in text.split(","):
        bits = part.strip().split(":")
        seat = {"name": bits[0], "kind": bits[1] if len(bits) > 1 else "human"}
        if seat["kind"] == "bot":
            seat["level"] = bits[2] if len(bits) > 2 else "easy"
        seats.append(seat)
    return seats


def parse_options(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        key, _, value = item.partition("=")
        out[key] = yaml.safe_load(value)
    return out


def learner_choice(match: Match, seat: int) -> dict[str, Any]:
    """What the Normal player would do for the learner (the Hint's choice)."""
    from game.engine.bots import bot_rng
    legal = match.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    choice = match.cls.policy(match.view(seat), legal, bot_rng(match, seat))
    return choice if choice is not None else legal[0]


def play(game: str, seats: list[dict[str, Any]], seed: int, options: dict[str, Any],
         learner: list[int], script: list[Any], count: int) -> tuple[Match, list[dict]]:
    """Play ``count`` actions; returns the match and one record per action:
    {seat, do, events}."""
    match = Match.new(game, seats, seed, options)
    records = []
    script = list(script)
    for _ in range(count):
        if match.is_over():
            break
        to_act = match.to_act()
        seat = to_act[0]
        action = None
        if script:
            head = script[0]
            if isinstance(head, dict) and "do" in head:
                if head.get("seat") in to_act:
                    seat, action = head["seat"], head["do"]
                    script.pop(0)
            elif seat in learner:
                action = script.pop(0)
        if action is None:
            if seat in learner:
                action = learner_choice(match, seat)
            else:
                action = choose_action(match, seat)
        events = match.act(seat, action)
        records.append({"seat": seat, "do": action, "events": events})
    return match, records


def as_yaml(records: list[dict], learner: list[int], start: int = 1) -> str:
    lines = []
    for number, rec in enumerate(records, start=start):
        who = "learner" if rec["seat"] in learner else "computer"
        lines.append(f"  # {number} ({who})")
        for ev in rec["events"]:
            if ev.get("text") and any(visible_to(ev, s) for s in learner):
                lines.append(f"  #   {ev['type']}: {ev['text']}")
        lines.append(f"  - seat: {rec['seat']}")
        lines.append(f"    do: {json.dumps(rec['do'])}")
        lines.append('    say: "TODO"')
        lines.append('    section: "TODO"')
    return "\n".join(lines)


def find(game: str, seats: list[dict[str, Any]], options: dict[str, Any], learner: list[int],
         script: list[Any], low: int, high: int, want: list[str], within: int,
         quiet: bool = False) -> list[tuple[int, dict[str, int]]]:
    hits = []
    for seed in range(low, high + 1):
        _match, records = play(game, seats, seed, options, learner, script, within)
        first: dict[str, int] = {}
        for number, rec in enumerate(records, start=1):
            for ev in rec["events"]:
                first.setdefault(ev["type"], number)
        if all(w in first for w in want):
            hits.append((seed, {w: first[w] for w in want}))
            if not quiet:
                print(f"seed {seed}: " + ", ".join(f"{w}@{first[w]}" for w in want)
                      + f"  (learner actions: "
                        f"{sum(1 for r in records if r['seat'] in learner)})")
    return hits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", default="You:human,Bo:bot:easy")
    parser.add_argument("--learner", default="0", help="learner seats, e.g. 0 or 0,2")
    parser.add_argument("--options", nargs="*", default=[], help="key=value ...")
    parser.add_argument("--script", help="a YAML file: the learner's first actions")
    parser.add_argument("--actions", type=int, default=60, help="how many actions to play")
    parser.add_argument("--find", help="A-B: try seeds A to B")
    parser.add_argument("--want", default="", help="event types that must happen (with --find)")
    parser.add_argument("--within", type=int, default=60, help="... within this many actions")
    parser.add_argument("--lesson", action="store_true", help="check the game's lesson file")
    args = parser.parse_args(argv)
    if args.lesson:
        from game.engine.lesson import check_lesson
        problems = check_lesson(args.game)
        print("\n".join(problems) if problems else "The lesson is good.")
        return 1 if problems else 0
    seats = parse_seats(args.seats)
    learner = [int(s) for s in args.learner.split(",")]
    options = parse_options(args.options)
    script: list[Any] = []
    if args.script:
        with open(args.script, encoding="utf-8") as handle:
            script = yaml.safe_load(handle) or []
    if args.find:
        low, _, high = args.find.partition("-")
        want = [w for w in args.want.split(",") if w]
        hits = find(args.game, seats, options, learner, script, int(low), int(high or low),
                    want, args.within)
        print(f"{len(hits)} seeds fit.")
        return 0
    match, records = play(args.game, seats, args.seed, options, learner, script, args.actions)
    print(f"# {args.game}, seed {args.seed}: {len(records)} actions, "
          f"{sum(1 for r in records if r['seat'] in learner)} by the learner; seats "
          + ", ".join(f"{s['name']} ({'learner' if n in learner else level_of(match, n)})"
                      for n, s in enumerate(match.seats)))
    print("steps:")
    print(as_yaml(records, learner))
    return 0


if __name__ == "__main__":
    sys.exit(main())
