"""Fantasy Expedition's rule controller.

Phases, in order: ``trading`` (seats in turn propose position swaps or
pass), ``choice`` (every seat chooses in secret, all at once), then the
reveal and resolution happen in one step, then ``vote`` when the lowest score
is tied, then ``over``.  The kernel functions live in :mod:`.kernel` and are
re-exported here.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from game.engine import Action, Controller, Event, Option, Rng, View, event
from game.engine.search import SearchSettings, normal_policy

from . import bot
from .kernel import (DIRECTIONS, POSITIONS, TEAM_ITEM, TEAMS, communal_choice, fear_groups,
                     majority, place_fears, resolve_expedition, score,
                     trace_expedition)

__all__ = ["ExpeditionController", "resolve_expedition", "score", "trace_expedition"]

TEAM_NAMES = {"dwarf": "Dwarves", "magician": "Magicians", "werewolf": "Werewolves"}
ITEM_NAMES = {"mine": "Mine", "portal": "Portal", "fear": "Fear Marker"}
ROW_NAMES = {"mine": "mine row", "portal": "portal row", "fear": "fear row"}
WORDS = {"L": "left", "R": "right"}
#: The keys of ``items`` that are the placement itself (the rest explains it).
CORE_ITEMS = ("mines", "portals", "fears", "failed_fears", "communal", "communal_direction")


def names_list(names: list[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class ExpeditionController(Controller):
    """Nine seats, three hidden teams, one expedition."""

    game_id = "fantasy_expedition"
    title = "Fantasy Expedition"
    rules_version = 1
    min_seats = max_seats = 9
    has_secrets = True
    board = "fantasy_expedition.tmx"
    options = (
        Option("trade_rounds", "Trading rounds", 3, minimum=0, maximum=9,
               help="How many rounds of position trading at most (0: no trading)."),
    )

    def __init__(self, seats: list[dict[str, str]], options: dict[str, Any], rng: Rng) -> None:
        super().__init__(seats, options, rng)
        teams = [team for team in TEAMS for _ in range(3)]
        rng.shuffle(teams)
        positions = list(POSITIONS)
        rng.shuffle(positions)
        self.teams: list[str] = teams
        self.start: list[int] = positions
        self.phase = "trading" if options["trade_rounds"] > 0 else "choice"
        self.trade_round = 1
        self.trade_turn = 0
        self.round_had_offer = False
        self.pending: dict[str, int] | None = None
        self.trades: list[dict[str, Any]] = []
        #: Every trading turn in order, as everyone saw it: [seat, the seat it asked] or
        #: [seat, None] for a pass (the computers' public moves hint at their teams).
        self.turns: list[list[int | None]] = []
        self.choices: dict[int, dict[str, Any]] = {}
        self.items: dict[str, Any] | None = None
        self.final: list[int] | None = None
        self.scores: list[int] | None = None
        self.winners: dict[str, int] = {}
        self.tied: list[int] = []
        self.votes: dict[int, int] = {}
        self.candidate: int | None = None
        self.tie_break: list[int] | None = None

    # ------------------------------------------------------------- whose turn
    def to_act(self) -> list[int]:
        if self.phase == "trading":
            return [self.pending["to"]] if self.pending else [self.trade_turn]
        if self.phase == "choice":
            return [s for s in range(9) if s not in self.choices]
        if self.phase == "vote":
            return [s for s in self.winners.values() if s not in self.votes]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act():
            return []
        if self.phase == "trading":
            if self.pending:
                return [{"type": "accept"}, {"type": "decline"}]
            return [{"type": "pass"}] + [{"type": "propose", "to": other}
                                         for other in range(9) if other != seat]
        if self.phase == "choice":
            base = [{"type": "choose", "slot": s, "communal": c}
                    for s in POSITIONS for c in POSITIONS]
            if self.teams[seat] != "werewolf":
                return base
            return [{**a, "direction": d, "vote": v}
                    for a in base for d in DIRECTIONS for v in DIRECTIONS]
        return [{"type": "vote", "candidate": c} for c in self.tied]

    # ----------------------------------------------------------------- actions
    def apply(self, seat: int, action: Action) -> list[Event]:
        kind = action["type"]
        if self.phase == "trading" and (kind in ("accept", "decline")) != bool(self.pending):
            raise self.refuse(self._wrong_action(kind))
        handler = {
            ("trading", "pass"): self._pass,
            ("trading", "propose"): self._propose,
            ("trading", "accept"): self._answer,
            ("trading", "decline"): self._answer,
            ("choice", "choose"): self._choose,
            ("vote", "vote"): self._vote,
        }.get((self.phase, kind))
        if handler is None:
            raise self.refuse(self._wrong_action(kind))
        return handler(seat, action)

    def _wrong_action(self, kind: str) -> str:
        if self.phase == "trading" and self.pending and kind in ("pass", "propose"):
            return "First answer the offer: accept or decline."
        if self.phase == "trading" and not self.pending and kind in ("accept", "decline"):
            return "There is no offer to answer."
        expected = {"trading": "trading (propose a swap or pass)",
                    "choice": "secret choices", "vote": "the Elimination vote",
                    "over": "nothing: the game is over"}[self.phase]
        return f"'{kind}' is not possible now; the game is waiting for {expected}."

    def _pass(self, seat: int, action: Action) -> list[Event]:
        self.turns.append([seat, None])
        return [event("pass", f"{self.name(seat)} passes.", seat=seat), *self._next_trader()]

    def _propose(self, seat: int, action: Action) -> list[Event]:
        other = action.get("to")
        if not _is_int(other) or not 0 <= other < 9:
            raise self.refuse("Choose a player to trade with.")
        if other == seat:
            raise self.refuse("You cannot trade with yourself.")
        self.pending = {"from": seat, "to": other}
        self.turns.append([seat, other])
        self.round_had_offer = True
        return [event("propose", f"{self.name(seat)} offers to swap Position {self.start[seat]} "
                                 f"for {self.name(other)}'s Position {self.start[other]}.",
                      seat=seat, to_seat=other)]

    def _answer(self, seat: int, action: Action) -> list[Event]:
        offer = self.pending
        assert offer is not None
        proposer = offer["from"]
        self.pending = None
        accepted = action["type"] == "accept"
        self.trades.append({"from": proposer, "to": seat, "accepted": accepted})
        if accepted:
            self.start[proposer], self.start[seat] = self.start[seat], self.start[proposer]
            text = (f"{self.name(seat)} accepts: {self.name(proposer)} now starts at Position "
                    f"{self.start[proposer]} and {self.name(seat)} at {self.start[seat]}.")
            ev = event("trade", text, seat=seat, proposer=proposer, accepted=True, reveal=True,
                       positions={proposer: self.start[proposer], seat: self.start[seat]})
        else:
            ev = event("trade", f"{self.name(seat)} declines {self.name(proposer)}'s offer.",
                       seat=seat, proposer=proposer, accepted=False, reveal=True)
        # The answer is news to the proposer (ruling 24): no undo past it, so an offer cannot
        # be taken back and made again elsewhere until somebody says yes.
        return [ev, *self._next_trader()]

    def _next_trader(self) -> list[Event]:
        if self.trade_turn < 8:
            self.trade_turn += 1
            return []
        if not self.round_had_offer or self.trade_round >= self.opts["trade_rounds"]:
            self.phase = "choice"
            rounds = self.trade_round
            why = ("everyone passed" if not self.round_had_offer
                   else f"the last of {rounds} round{'s' if rounds > 1 else ''} is over")
            return [event("phase", f"Trading is over ({why}). Everyone now chooses in secret.",
                          phase="choice")]
        self.trade_round += 1
        self.trade_turn = 0
        self.round_had_offer = False
        return [event("phase", f"Trading round {self.trade_round} begins.", phase="trading")]

    def _choose(self, seat: int, action: Action) -> list[Event]:
        choice = self._check_choice(seat, action)
        self.choices[seat] = choice
        events = [event("chose", f"{self.name(seat)} has made their choices.", seat=seat)]
        if len(self.choices) == 9:
            events += self._reveal_and_resolve()
        return events

    def _check_choice(self, seat: int, action: Action) -> dict[str, Any]:
        slot, communal = action.get("slot"), action.get("communal")
        item = ITEM_NAMES[TEAM_ITEM[self.teams[seat]]]
        if not _is_int(slot) or slot not in POSITIONS:
            raise self.refuse(f"Choose a slot from 1 to 9 for your {item}.")
        if not _is_int(communal) or communal not in POSITIONS:
            raise self.refuse("Choose a communal number from 1 to 9.")
        choice = {"slot": slot, "communal": communal}
        if self.teams[seat] == "werewolf":
            direction, vote = action.get("direction"), action.get("vote")
            if direction not in DIRECTIONS:
                raise self.refuse("Choose which way your Fear Marker points: left or right.")
            if vote not in DIRECTIONS:
                raise self.refuse("Vote which way the communal Fear Marker points.")
            choice.update(direction=direction, vote=vote)
        elif "direction" in action or "vote" in action:
            raise self.refuse("Only Werewolves choose directions.")
        return choice

    # --------------------------------------------------------------- resolution
    def _place_items(self) -> dict[str, Any]:
        by_team = {team: [s for s in range(9) if self.teams[s] == team] for team in TEAMS}
        owners: dict[str, dict[int, list[int]]] = {"mine": {}, "portal": {}, "fear": {}}
        for team in TEAMS:
            for s in by_team[team]:
                owners[TEAM_ITEM[team]].setdefault(self.choices[s]["slot"], []).append(s)
        mines = set(owners["mine"])
        portals = set(owners["portal"])
        fears, failed = place_fears((self.choices[s]["slot"], self.choices[s]["direction"])
                                    for s in by_team["werewolf"])
        failed_markers = {slot: [[s, self.choices[s]["direction"]] for s in owners["fear"][slot]]
                          for slot in failed}
        for slot in failed:
            del owners["fear"][slot]
        communal, info = {}, {}
        for team, row in (("dwarf", mines), ("magician", portals), ("werewolf", fears)):
            numbers = [[s, self.choices[s]["communal"]] for s in by_team[team]]
            why = communal_choice(row, (n for _s, n in numbers))
            communal[TEAM_ITEM[team]] = why["slot"]
            info[TEAM_ITEM[team]] = {"team": team, "numbers": numbers, **why,
                                     "failed_here": why["slot"] in failed}
        mines.add(communal["mine"])
        portals.add(communal["portal"])
        votes = [[s, self.choices[s]["vote"]] for s in by_team["werewolf"]]
        communal_direction = majority(v for _s, v in votes)
        info["fear"].update(votes=votes, direction=communal_direction)
        fears[communal["fear"]] = communal_direction
        for row, record in info.items():
            record["why"] = self._communal_why(row, record)
        return {"mines": sorted(mines), "portals": sorted(portals),
                "fears": dict(sorted(fears.items())), "failed_fears": failed,
                "communal": communal, "communal_direction": communal_direction,
                "owners": {row: dict(sorted(by_slot.items())) for row, by_slot in owners.items()},
                "failed_markers": failed_markers, "communal_info": info}

    def _communal_why(self, row: str, info: dict[str, Any]) -> str:
        """Why the communal item went where it did, in words (cause before effect)."""
        item, slot = ITEM_NAMES[row], info["slot"]
        numbers = ", ".join(f"{self.name(s)} {n}" for s, n in info["numbers"])
        text = (f"The {TEAM_NAMES[info['team']]} sent {numbers}: average "
                f"{info['average']:.2f}".rstrip("0").rstrip(".") + ". ")
        taken, why = info["taken"], ""
        if taken:
            why = (f"{'Slot' if len(taken) == 1 else 'Slots'} "
                   f"{names_list([str(t) for t in taken])} already "
                   f"{'has' if len(taken) == 1 else 'have'} a {item}, so ")
        if info["tied"] is not None:
            why += (f"{'the nearest empty slots are' if taken else 'the nearest slots are'} "
                    f"{min(slot, info['tied'])} and {max(slot, info['tied'])}, equally near; "
                    f"the lower one, {slot}, gets the communal {item}")
        else:
            why += f"the nearest empty slot, {slot}, gets the communal {item}"
        if info.get("failed_here"):
            why += " (the markers chosen for it had failed, so it was empty)"
        text += why[0].upper() + why[1:] + "."
        if row == "fear":
            votes = ", ".join(f"{self.name(s)} {WORDS[v]}" for s, v in info["votes"])
            text += f" Votes: {votes}, so it points {WORDS[info['direction']]}."
        return text

    def _reveal_and_resolve(self) -> list[Event]:
        self.items = items = self._place_items()
        roster = "; ".join(f"{TEAM_NAMES[t]}: " + ", ".join(self.name(s) for s in range(9)
                                                           if self.teams[s] == t) for t in TEAMS)
        events = [event("reveal", f"All choices are in. The teams were — {roster}.",
                        reveal=True, teams=list(self.teams))]
        events += self._placement_events(items)
        at = {self.start[s]: s for s in range(9)}  # position -> seat
        for row, moves in trace_expedition(items["mines"], items["portals"], items["fears"]):
            events.append(event("climb", f"Everyone climbs to the {ROW_NAMES[row]}.", row=row))
            if row == "fear":
                events += self._fear_events(at, items["fears"])
            else:
                for src, dst in sorted(moves.items()):
                    events.append(self._move_event(row, at[src], src, dst))
            at = {moves.get(p, p): s for p, s in at.items()}
        events.append(event("climb", "Everyone climbs to the final row.", row="final"))
        self.final = [0] * 9
        for position, seat in at.items():
            self.final[seat] = position
        return events + self._score()

    def _placement_events(self, items: dict[str, Any]) -> list[Event]:
        events = []
        for row, key in (("mine", "mines"), ("portal", "portals"), ("fear", "fears")):
            owners, communal = items["owners"][row], items["communal"][row]
            parts = []
            for slot, seats in owners.items():
                where = f"{names_list([self.name(s) for s in seats])} at {slot}"
                if row == "fear":
                    where += f" pointing {WORDS[items['fears'][slot]]}"
                parts.append(where)
            text = f"{ITEM_NAMES[row]}s: " + ("; ".join(parts) if parts else "none stands") + "."
            if row == "fear":
                for slot, markers in items["failed_markers"].items():
                    chose = names_list([f"{self.name(s)} ({WORDS[d]})" for s, d in markers])
                    text += (f" {chose} chose {slot} but pointed different ways, so those "
                             f"markers fail.")
            info = items["communal_info"][row]
            events.append(event("place", text, row=row, slots=list(items[key]),
                                communal=communal,
                                failed=list(items["failed_fears"]) if row == "fear" else []))
            events.append(event("communal", info["why"], row=row, slot=communal))
        return events

    def _move_event(self, row: str, seat: int, src: int, dst: int) -> Event:
        who = self.name(seat)
        if row == "mine":
            wraps = ", wraps round" if dst > src else ""
            text = f"{who} steps on the Mine at {src}{wraps} and tunnels left to the Mine at {dst}."
        else:
            wraps = ", wraps round" if dst < src else ""
            text = (f"{who} steps into the Portal at {src}{wraps} and comes out of the Portal "
                    f"at {dst}.")
        return event("move", text, row=row, seat=seat, origin=src, target=dst)

    def _fear_events(self, at: dict[int, int], fears: dict[int, str]) -> list[Event]:
        """The fear row run by run: each run's markers (the cause) before whom they move."""
        events = []
        for group in fear_groups(fears):
            i, j, way = group["start"], group["end"], WORDS[group["direction"]]
            markers = f"The Fear Marker at {i}" if i == j else f"The Fear Markers at {i}-{j}"
            if group["facing"]:
                markers = f"The Fear Markers at {i} and {group['target']} face each other"
                if i != j:
                    markers = f"The Fear Markers at {i}-{j} point {way} at the one at " \
                              f"{group['target']}, which faces back"
            else:
                markers += f" point{'s' if i == j else ''} {way}"
            outcome, target = group["outcome"], group["target"]
            if outcome == "edge":
                events.append(event("fear", f"{markers}, off the board: nobody moves.",
                                    row="fear", start=i, end=j))
                continue
            if outcome == "blocked":
                events.append(event("fear", f"{markers} at Position {target}, whose climber has "
                                            f"already moved: nobody moves.",
                                    row="fear", start=i, end=j))
                continue
            moves = group["moves"]
            runners = [p for p in range(i, j + 1)]
            pushed = self.name(at[target])
            for src in runners:
                dst, who = moves[src], self.name(at[src])
                if outcome == "swap":
                    text = f"{markers}: {who} swaps with {pushed}, moving to {dst}."
                else:
                    text = f"{markers} in a chain: {who} moves {way} to {dst}."
                events.append(event("move", text, row="fear", seat=at[src], origin=src,
                                    target=dst))
            dst = moves[target]
            if outcome == "swap":
                text = f"{pushed} swaps with {self.name(at[i])}, moving to {dst}."
            else:
                text = (f"{pushed}, pointed at by the chain, goes to its far end, "
                        f"Position {dst}.")
            events.append(event("move", text, row="fear", seat=at[target], origin=target,
                                target=dst))
        return events

    def _score(self) -> list[Event]:
        assert self.final is not None
        self.scores = [score(self.teams[s], self.final[s]) for s in range(9)]
        events = []
        for team in TEAMS:
            members = [s for s in range(9) if self.teams[s] == team]
            best = max(members, key=lambda s: self.scores[s])
            self.winners[team] = best
            events.append(event("winner", f"{self.name(best)} is the best of the "
                                          f"{TEAM_NAMES[team]} with {self.scores[best]} points "
                                          f"and earns a Token of Life.", seat=best, team=team))
        low = min(self.scores)
        self.tied = [s for s in range(9) if self.scores[s] == low]
        if len(self.tied) == 1:
            return events + self._finish(self.tied[0], "has the lowest score")
        self.phase = "vote"
        names = ", ".join(self.name(s) for s in self.tied)
        return events + [event("phase", f"{names} tie for the lowest score ({low}). The three "
                                        f"winners vote for the Elimination Candidate.",
                               phase="vote", tied=list(self.tied))]

    def _vote(self, seat: int, action: Action) -> list[Event]:
        candidate = action.get("candidate")
        if candidate not in self.tied or not _is_int(candidate):
            names = ", ".join(self.name(s) for s in self.tied)
            raise self.refuse(f"Vote for one of the tied players: {names}.")
        self.votes[seat] = candidate
        events = [event("vote", f"{self.name(seat)} has voted.", seat=seat)]
        if len(self.votes) < 3:
            return events
        counts = Counter(self.votes.values())
        top = max(counts.values())
        leaders = sorted(c for c, n in counts.items() if n == top)
        listed = "; ".join(f"{self.name(v)} for {self.name(c)}" for v, c in self.votes.items())
        events.append(event("votes", f"The votes: {listed}.", reveal=True,
                            votes=dict(self.votes)))
        if len(leaders) == 1:
            return events + self._finish(leaders[0], "receives the most votes")
        self.tie_break = leaders
        chosen = self.rng.choice(leaders)
        return events + self._finish(chosen, "is chosen by fate from a three-way split")

    def _finish(self, candidate: int, why: str) -> list[Event]:
        self.candidate = candidate
        self.phase = "over"
        return [event("over", f"{self.name(candidate)} {why} and is the Elimination Candidate.",
                      seat=candidate)]

    # ------------------------------------------------------------------- views
    def _garnets(self) -> list[int]:
        assert self.scores is not None
        winners = set(self.winners.values())
        return [(s in winners) + (self.scores[s] == 9) for s in range(9)]

    def revealed(self) -> bool:
        return self.items is not None

    def view(self, seat: int | None) -> View:
        revealed = self.revealed()
        seats = []
        for s in range(9):
            seats.append({
                "seat": s, "name": self.name(s), "kind": self.seats[s]["kind"],
                "level": self.seats[s].get("level", "normal")
                if self.seats[s]["kind"] == "bot" else None,
                "start": self.start[s], "chosen": s in self.choices,
                "team": self.teams[s] if revealed or s == seat else None,
                "final": self.final[s] if self.final else None,
                "score": self.scores[s] if self.scores else None,
            })
        out: View = {
            "game": self.game_id, "phase": self.phase, "viewer": seat, "seats": seats,
            "to_act": self.to_act(),
            "trading": {"round": self.trade_round, "rounds": self.opts["trade_rounds"],
                        "turn": self.trade_turn if self.phase == "trading" else None,
                        "pending": dict(self.pending) if self.pending else None,
                        "history": [dict(t) for t in self.trades],
                        "turns": [list(t) for t in self.turns]},
            "items": self._public_items(),
            "choice": dict(self.choices[seat]) if seat in self.choices and seat is not None
            else None,
            "vote": {"tied": list(self.tied), "voters": sorted(self.winners.values()),
                     "voted": sorted(self.votes)} if self.phase in ("vote", "over") else None,
            "result": self.result(),
        }
        return out

    def _public_items(self) -> dict[str, Any] | None:
        """The items as everyone sees them after the reveal, with who chose each one."""
        if self.items is None:
            return None
        return copy.deepcopy(self.items)

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> dict[str, Any] | None:
        if self.phase != "over":
            return None
        assert self.scores is not None and self.final is not None
        return {
            "scores": list(self.scores),
            "teams": list(self.teams),
            "start": list(self.start),
            "final": list(self.final),
            "winners": [self.winners[t] for t in TEAMS],
            "tokens_of_life": [int(s in self.winners.values()) for s in range(9)],
            "garnets": self._garnets(),
            "elimination_candidate": self.candidate,
            "tied": list(self.tied),
            "votes": dict(self.votes),
            "tie_break": list(self.tie_break) if self.tie_break else None,
        }

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": self.phase, "teams": list(self.teams), "start": list(self.start),
            "trade_round": self.trade_round, "trade_turn": self.trade_turn,
            "round_had_offer": self.round_had_offer,
            "pending": dict(self.pending) if self.pending else None,
            "trades": [dict(t) for t in self.trades],
            "choices": {s: dict(c) for s, c in sorted(self.choices.items())},
            "items": ({k: copy.deepcopy(self.items[k]) for k in CORE_ITEMS}
                      if self.items else None),
            "final": self.final, "scores": self.scores,
            "winners": dict(self.winners), "tied": list(self.tied), "votes": dict(self.votes),
            "candidate": self.candidate,
        }

    def status(self) -> str:
        if self.phase == "trading":
            if self.pending:
                return (f"Trading, round {self.trade_round}: {self.name(self.pending['to'])} "
                        f"answers {self.name(self.pending['from'])}'s offer")
            return f"Trading, round {self.trade_round}: {self.name(self.trade_turn)}'s turn"
        if self.phase == "choice":
            return f"Secret choices: {len(self.choices)} of 9 made"
        if self.phase == "vote":
            return f"Elimination vote: {len(self.votes)} of 3 cast"
        assert self.candidate is not None
        return f"Over: {self.name(self.candidate)} is the Elimination Candidate"

    # -------------------------------------------------------------------- bots
    def __deepcopy__(self, memo: dict[int, Any]) -> "ExpeditionController":
        """The engine's quick copy, without ``evaluate``'s remembered figures (a redrawn copy
        has other teams)."""
        new = super().__deepcopy__(memo)
        new.__dict__.pop("_evaluated", None)
        return new

    def determinize(self, seat: int, rng: Rng) -> None:
        """Redraw everything ``seat`` may not see, for the Hard player's search (ruling 26).

        Before the reveal: the other eight seats' teams, drawn from the 560 deals of two more
        of the seat's own team and three of each other team, each as likely as the
        computers' public trading moves (offers, answers and passes) make it: every move is
        checked against what the Normal player of each team would have done in its place
        (``bot.team_likelihoods``, ``bot.draw_deal``); and the secret choices of those who
        have already chosen (each a choice the Normal player makes for its redrawn team and
        start).  In
        the Elimination vote: the votes the others have cast (a random tied player).  Nothing
        here reads the hidden values it replaces, so two states that look the same to
        ``seat`` come out the same for the same ``rng``."""
        if not self.revealed():
            others = [s for s in range(9) if s != seat]
            own = self.teams[seat]
            view = self.view(seat)
            likely = bot.team_likelihoods(view["seats"], view["trading"], seat)
            deal = bot.draw_deal(own, tuple(others), likely, rng)
            for s, team in zip(others, deal):
                self.teams[s] = team
            for s in sorted(self.choices):
                if s != seat:
                    self.choices[s] = self._imagined_choice(s, rng)
        if self.phase == "vote":
            for s in sorted(self.votes):
                if s != seat:
                    self.votes[s] = self.tied[rng.randbelow(len(self.tied))]

    def _imagined_choice(self, seat: int, rng: Rng) -> dict[str, Any]:
        """A secret choice the Normal player would make from ``seat``'s team and start: its
        part of its team's plan when its whole team is shown by the trading and has that
        team here (``bot.shown_plans``), else one of its own choices."""
        team = self.teams[seat]
        plans = self._shown_plans()
        planned = plans.get(seat)
        if planned is not None and all(self.teams[s] == t for s, (t, _part) in plans.items()
                                       if t == planned[0]) and planned[0] == team:
            slot, number, direction, vote = planned[1]
        else:
            computers = 0
            for s in range(9):
                if s != seat and self.seats[s].get("kind") == "bot":
                    computers |= 1 << self.start[s]
            slot, number, direction, vote = bot.normal_choice(
                team, self.start[seat], computers, rng.randbelow(bot.VARIANTS))
        choice: dict[str, Any] = {"slot": slot, "communal": number}
        if team == "werewolf":
            choice.update(direction=direction, vote=vote)
        return choice

    def _shown_plans(self) -> dict[int, tuple[str, tuple[int, int, str, str]]]:
        seats = [{"seat": s, "kind": self.seats[s]["kind"], "start": self.start[s],
                  "level": self.seats[s].get("level", "normal")
                  if self.seats[s]["kind"] == "bot" else None} for s in range(9)]
        return bot.shown_plans(seats, {"history": self.trades, "turns": self.turns})

    def action_values(self, seat: int, legal: list[Action]) -> list[float] | None:
        """For the Hard player's secret choice, on a table the search has redrawn (teams and
        the choices already made): what each choice in ``legal`` is worth, with the seats yet
        to choose choosing as the Normal player would, worked out exactly for every
        candidate (``bot.choice_values``).  None in the other phases (the search proper)."""
        if self.phase != "choice" or seat in self.choices:
            return None
        choices: list[dict[str, Any] | None] = [
            None if s == seat else self.choices[s] if s in self.choices
            else self._imagined_choice(s, self.rng) for s in range(9)]
        return bot.choice_values(self.teams, self.start, choices, seat, legal)

    def evaluate(self, seat: int) -> float:
        """How well ``seat`` is doing, 0..1, scored as the search scores a finished game (0.9
        shared among the three winners, 0.1 for the rank of one's score): the mean over
        :data:`EVALUATE_SAMPLES` quick finishes in which nobody trades any more and the
        secret choices not yet made are ones the Normal player makes (``bot.normal_choice``),
        climbed with ``bot.finals``.  Worked out once for all nine seats per state."""
        key = (self.phase, len(self.trades), self.trade_round, self.trade_turn,
               self.pending is not None, len(self.choices), len(self.votes))
        cached = getattr(self, "_evaluated", None)
        if cached is None or cached[0] != key:
            cached = (key, self._evaluate_all())
            self._evaluated = cached
        return cached[1][seat]

    def _evaluate_all(self) -> list[float]:
        if self.scores is not None:
            return [self._outcome_value(self.scores, s) for s in range(9)]
        rng = Rng.derive(self.rng.state & ((1 << 63) - 1), 0xE7A)
        totals = [0.0] * 9
        for _sample in range(EVALUATE_SAMPLES):
            choices = [self.choices[s] if s in self.choices else self._imagined_choice(s, rng)
                       for s in range(9)]
            final = bot.finals(self.teams, self.start, choices)
            points = [score(self.teams[s], final[s]) for s in range(9)]
            for s in range(9):
                totals[s] += self._outcome_value(points, s)
        return [t / EVALUATE_SAMPLES for t in totals]

    def _outcome_value(self, points: list[int], seat: int) -> float:
        """search.outcome's score for ``seat`` if the game ended with these points."""
        return bot.outcome_value(self.teams, points, seat)

    @classmethod
    def policy(cls, view: View, legal: list[Action], rng: Rng) -> Action | None:
        """The computer player (see :mod:`.bot`): it plays for its team from its own view."""
        return bot.choose(view, legal, rng)


def rollout_policy(controller: ExpeditionController, seat: int, legal: list[Action],
                   rng: Rng) -> Action:
    """The Normal player, quick enough for search rollouts: its secret choice is one it has
    already worked out for that team, start and table (``bot.normal_choice``)."""
    if controller.phase == "choice":
        return {"type": "choose", **controller._imagined_choice(seat, rng)}
    return normal_policy(controller, seat, legal, rng)


#: Quick finishes ``evaluate`` averages.
EVALUATE_SAMPLES = 8
#: The Hard player's budget per decision in the search's work units (``SearchSettings.work``,
#: counted, never timed): a trading move's 400 playouts spent about 3,000 units, 0.42 s of
#: CPU on average and up to 0.82 s (its estimate is dear: about 0.14 ms a unit); the secret
#: choice's 200 imagined tables cost four units each and are never cut (issue 27).
WORK_BUDGET = 3600
#: The Hard player's search: each move is followed by one more action (the answer to an
#: offer, the next seat's move) and then judged by ``evaluate``.
ExpeditionController.search_settings = SearchSettings(iterations=400, rollout_actions=1,
                                                      work=WORK_BUDGET,
                                                      worlds=200, policy=rollout_policy)
