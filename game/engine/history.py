"""A match's history: the game as it stood after any number of its actions.

A match is its seed plus its actions, so step ``n`` is a replay of the first ``n`` actions.
Replaying from the start at every step would make stepping through a long game slow, so a
:class:`History` replays the match once (a little at a time, see :meth:`History.prepare`;
its last step is a copy of the match, ready at once) and keeps on the way, after Ludii's and
boardgame.io's replays:

- the whole log, and where each step's log ends (a step's log is the start of the whole
  log: actions only ever add events), so a step's events need no replay at all;
- the rules' state every ``every`` steps, pickled (a few kB; the controllers' state is plain
  data), so reaching any step is one unpickling and at most ``every - 1`` actions;
- the last few steps reached, so stepping to a neighbour is one copy and one action.

No step ever deep-copies a whole match (its log and actions too) or replays from the start.

Each step is a private copy: looking at history never changes the live match.  What a seat may
see at a step is that copy's ``view(seat)`` and ``log_for(seat)``, the same per-seat views the
game uses live, so history shows no secret that the seat could not see at the time.
"""

from __future__ import annotations

import copy
import pickle
from collections import OrderedDict
from typing import Any

from .controller import Controller
from .match import Match

#: Keep the rules' state every this many steps (a step replays at most ``EVERY - 1`` actions).
EVERY = 8
#: How many recently shown steps are kept as they are.
RECENT = 4


def _freeze(controller: Controller) -> Any:
    """The controller's state, to be thawed into fresh copies (pickled when it can be)."""
    try:
        return pickle.dumps(controller, pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return copy.deepcopy(controller)


def _thaw(frozen: Any) -> Controller:
    """A fresh controller (with its own generator) from :func:`_freeze`'s result."""
    return pickle.loads(frozen) if isinstance(frozen, bytes) else copy.deepcopy(frozen)


class History:
    """Every step of ``match`` (its actions as they are now; later actions are not added).

    The last step is a copy of ``match`` itself, so a history is ready to show its end at
    once, however long the game; the replay that finds the other steps is done a little at a
    time with :meth:`prepare` (or all at once when an earlier step is asked for first)."""

    def __init__(self, match: Match, every: int = EVERY) -> None:
        self.every = max(1, int(every))
        actions, seats, options, log = pickle.loads(pickle.dumps(
            (match.actions, match.seats, dict(match.options), match.log),
            pickle.HIGHEST_PROTOCOL))
        self.actions: list[dict[str, Any]] = actions
        self.seats = seats
        #: A match at step 0, never changed: the others are shallow copies of it.
        self._start = Match(match.game_id, copy.deepcopy(seats), match.seed, options)
        #: The whole log, read only (every step's log is the start of it: actions only add
        #: events); the live match's until the replay has found it again.
        self.log: list[dict[str, Any]] = log
        last = copy.copy(self._start)
        last.controller = copy.deepcopy(match.controller)
        last.rng = last.controller.rng
        last.actions, last.log, last.barrier = list(actions), list(log), match.barrier
        #: The last few steps reached, newest last (stepping to a neighbour replays one action).
        self._recent: OrderedDict[int, Match] = OrderedDict({len(actions): last})
        #: The replay so far: a match at step ``len(self._log_end) - 1``, where each step's
        #: log ends and its undo barrier, and the rules' state every ``every`` steps.
        self._work = copy.copy(self._start)
        self._work.controller = _thaw(_freeze(self._start.controller))
        self._work.rng = self._work.controller.rng
        self._work.actions, self._work.log = [], list(self._start.log)
        self._log_end = [len(self._work.log)]
        self._barrier = [self._work.barrier]
        self._kept: dict[int, Any] = {0: _freeze(self._work.controller)}
        self.live_barrier = self._end_barrier = match.barrier
        self.over = match.is_over()

    @property
    def ready(self) -> bool:
        """Whether the replay has found every step."""
        return self._work is None

    def prepare(self, actions: int = 64) -> bool:
        """Replay up to ``actions`` more actions; True while there is more to replay (for a
        scene to do a little at each loop turn)."""
        if self._work is not None:
            self._replay_to(min(len(self.actions), len(self._log_end) - 1 + max(1, actions)))
        return self._work is not None

    def _replay_to(self, step: int) -> None:
        """Replay until ``step`` is found."""
        work = self._work
        if work is None:
            return
        for index in range(len(self._log_end) - 1, step):
            record = self.actions[index]
            work._apply(record["seat"], record["action"])
            self._log_end.append(len(work.log))
            self._barrier.append(work.barrier)
            if (index + 1) % self.every == 0:
                self._kept[index + 1] = _freeze(work.controller)
        if len(self._log_end) - 1 == len(self.actions):
            if work.log != self.log:   # never (a match replays exactly); the replay wins
                self.log = work.log
                self._recent.clear()
            self._work = None

    def __len__(self) -> int:
        """The number of actions: the steps are ``0 .. len(self)``."""
        return len(self.actions)

    def at(self, step: int, private_copy: bool = True) -> Match:
        """The match as it stood after its first ``step`` actions.  A private copy by default
        (change it freely); with ``private_copy=False`` the history's own, to read only."""
        match = self._reach(step)
        if not private_copy:
            return match
        mine = self._made(step, copy.deepcopy(match.controller))
        mine.actions, mine.log = pickle.loads(pickle.dumps((mine.actions, mine.log),
                                                           pickle.HIGHEST_PROTOCOL))
        mine.seats = copy.deepcopy(mine.seats)
        mine.options = dict(mine.options)
        return mine

    def _made(self, step: int, controller: Controller) -> Match:
        """A match at ``step`` around ``controller`` (the rules' state at that step)."""
        match = copy.copy(self._start)
        match.controller = controller
        match.rng = controller.rng
        match.actions = self.actions[:step]
        match.log = self.log[:self.log_end(step)]
        match.barrier = (self._barrier[step] if step < len(self._barrier)
                         else self._end_barrier)
        return match

    def _reach(self, step: int) -> Match:
        if not 0 <= step <= len(self.actions):
            raise IndexError(f"There is no step {step}; the match has {len(self.actions)}.")
        if step in self._recent:
            self._recent.move_to_end(step)
            return self._recent[step]
        self._replay_to(step)
        base = step - step % self.every
        nearer = [k for k in self._recent if base < k < step]
        if nearer:
            base = max(nearer)
            controller = copy.deepcopy(self._recent[base].controller)
        else:
            controller = _thaw(self._kept[base])
        match = self._made(base, controller)
        for index in range(base, step):
            record = self.actions[index]
            match._apply(record["seat"], record["action"])
        self._recent[step] = match
        while len(self._recent) > RECENT:
            self._recent.popitem(last=False)
        return match

    def log_end(self, step: int) -> int:
        """How many events of :attr:`log` there were at ``step``."""
        if step == len(self.actions):
            return len(self.log)
        self._replay_to(step)
        return self._log_end[step]

    def events_of(self, step: int) -> list[dict[str, Any]]:
        """The events the action that led to ``step`` made (none for step 0)."""
        if step <= 0:
            return []
        return self.log[self.log_end(step - 1):self.log_end(step)]

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
        step that undo cannot reach past and what it showed or left to chance, in words
        ``seat`` (None: everyone) may read."""
        if self.can_branch(step):
            return None
        if not 0 <= step <= len(self.actions):
            return f"There is no step {step}."
        barrier = self.live_barrier
        later = "the next step" if barrier == step + 1 else f"step {barrier}"
        # Its own words once the replay has found that step (never replayed just for them).
        found = len(self._log_end) > barrier or self._work is None
        what = (self._barrier_words(seat) if found else
                "what it showed or left to chance cannot be taken back")
        return (f"No undo reaches back past {later}: {what}. Play from here is possible "
                f"from step {barrier} on, or once the game is over.")

    def _barrier_words(self, seat: int | None) -> str:
        """What the step at the undo barrier did, for ``seat``: a reveal's own words, or
        that chance decided it (only a reveal or the generator sets the barrier)."""
        from .events import reveals, visible_to
        events = self.events_of(self.live_barrier)
        shown = [ev for ev in events if ev.get("text") and visible_to(ev, seat)]
        revealing = [ev for ev in shown if reveals(ev)]

        def said(ev: dict[str, Any]) -> str:
            return str(ev["text"]).rstrip(".")
        if revealing:
            return f"“{said(revealing[0])}” was news to the others"
        if any(reveals(ev) for ev in events):
            name = self.seats[self.actions[self.live_barrier - 1]["seat"]]["name"]
            return f"it showed {name} something in secret"
        return "chance decided it" + (f" ({said(shown[0])})" if shown else "")

    def branch(self, step: int) -> Match:
        """A new match continuing from ``step`` (refused where ``can_branch`` is false)."""
        if not self.can_branch(step):
            raise ValueError("Play from here is possible only where undo could reach, or once "
                             "the game is over.")
        match = self.at(step)
        match.match_id = None   # a branch is a new match, with its own autosave
        return match
