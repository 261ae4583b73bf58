"""A match's history: the game as it stood after any number of its actions.

A match is its seed plus its actions, so step ``n`` is a replay of the first ``n`` actions.
Replaying from the start at every step would make stepping through a long game slow, so a
:class:`History` keeps a copy of the match every ``every`` steps (and the last few steps it showed)
and replays at most ``every - 1`` actions from the nearest copy before the step asked for.

Each step is a private copy: looking at history never changes the live match.  What a seat may
see at a step is that copy's ``view(seat)`` and ``log_for(seat)``, the same per-seat views the
game uses live, so history shows no secret that the seat could not see at the time.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from typing import Any

from .match import Match

#: Keep a copy of the match every this many steps.
EVERY = 24
#: How many recently shown steps are kept as they are.
RECENT = 4


class History:
    """Every step of ``match`` (its actions as they are now; later actions are not added)."""

    def __init__(self, match: Match, every: int = EVERY) -> None:
        self.every = max(1, int(every))
        self.actions: list[dict[str, Any]] = copy.deepcopy(match.actions)
        self.seats = copy.deepcopy(match.seats)
        start = Match(match.game_id, copy.deepcopy(match.seats), match.seed,
                      dict(match.options))
        self._kept: dict[int, Match] = {0: start}
        #: The last few steps reached, newest last (stepping to a neighbour replays one action).
        self._recent: OrderedDict[int, Match] = OrderedDict()
        self.live_barrier = match.barrier
        self.over = match.is_over()

    def __len__(self) -> int:
        """The number of actions: the steps are ``0 .. len(self)``."""
        return len(self.actions)

    def at(self, step: int, private_copy: bool = True) -> Match:
        """The match as it stood after its first ``step`` actions.  A private copy by default
        (change it freely); with ``private_copy=False`` the history's own, to read only."""
        match = self._reach(step)
        return copy.deepcopy(match) if private_copy else match

    def _reach(self, step: int) -> Match:
        if not 0 <= step <= len(self.actions):
            raise IndexError(f"There is no step {step}; the match has {len(self.actions)}.")
        if step in self._recent:
            self._recent.move_to_end(step)
            return self._recent[step]
        base = max([k for k in self._kept if k <= step] + [k for k in self._recent if k < step])
        match = copy.deepcopy(self._recent[base] if base in self._recent else self._kept[base])
        for index in range(base, step):
            record = self.actions[index]
            match._apply(record["seat"], record["action"])
            if (index + 1) % self.every == 0 and index + 1 not in self._kept:
                self._kept[index + 1] = copy.deepcopy(match)
        self._recent[step] = match
        while len(self._recent) > RECENT:
            self._recent.popitem(last=False)
        return match

    def events_of(self, step: int) -> list[dict[str, Any]]:
        """The events the action that led to ``step`` made (none for step 0)."""
        if step <= 0:
            return []
        before, after = len(self._reach(step - 1).log), self._reach(step)
        return after.log[before:]

    def actor(self, step: int) -> int | None:
        """The seat whose action led to ``step``."""
        return self.actions[step - 1]["seat"] if step > 0 else None

    def can_branch(self, step: int) -> bool:
        """Whether a new game may continue from ``step``: once the game is over, from any
        step ("what if"); during play only where undo could reach (nothing revealed or rolled
        since), so a branch never lets a player see again what chance or a reveal decided."""
        if not 0 <= step <= len(self.actions):
            return False
        return self.over or step >= self.live_barrier

    def branch_refusal(self, step: int, seat: int | None = None) -> str | None:
        """Why a new game may not continue from ``step`` (None: it may), naming the later
        step that undo cannot reach past and what it decided or showed, in words ``seat``
        (None: everyone) may read."""
        if self.can_branch(step):
            return None
        if not 0 <= step <= len(self.actions):
            return f"There is no step {step}."
        barrier = self.live_barrier
        before, after = self._reach(barrier - 1), self._reach(barrier)
        events = after.log[len(before.log):]
        from .events import reveals, visible_to
        shown = [ev for ev in events if ev.get("text") and visible_to(ev, seat)]
        revealing = [ev for ev in shown if reveals(ev)]
        name = self.seats[self.actions[barrier - 1]["seat"]]["name"]

        def said(ev: dict[str, Any]) -> str:
            return str(ev["text"]).rstrip(".")
        if revealing:
            what = f"“{said(revealing[0])}” was news to the others"
        elif any(reveals(ev) for ev in events):
            what = f"it showed {name} something in secret"
        elif after.rng.state != before.rng.state:
            what = "chance decided it" + (f" ({said(shown[0])})" if shown else "")
        else:  # not reached: only chance or a reveal sets the barrier
            what = "undo stops there"
        later = "the next step" if barrier == step + 1 else f"step {barrier}"
        return (f"No undo reaches back past {later}: {what}. Play from here is possible "
                f"from step {barrier} on, or once the game is over.")

    def branch(self, step: int) -> Match:
        """A new match continuing from ``step`` (refused where ``can_branch`` is false)."""
        if not self.can_branch(step):
            raise ValueError("Play from here is possible only where undo could reach, or once "
                             "the game is over.")
        match = self.at(step)
        match.match_id = None   # a branch is a new match, with its own autosave
        return match
