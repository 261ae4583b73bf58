"""A computer player's choice, worked out on a worker thread so the window stays live.

The play scene starts a :class:`Thinker` when a computer seat is to act and polls it from its
``update``.  The worker gets its own deep copy of the match, made on the calling (drawing)
thread before the worker starts, so the two never share mutable state; the worker only reads
its copy and writes its own result.  The choice is the one ``choose_action`` makes on the live
match (it is seeded from the match's seed and actions), so a game played through a thinker is
the game played directly.

A result is used only if the match is still where it was when the thinking began: the same
number of actions and the same *epoch* (the scene's counter, bumped by an undo or anything
else that replaces the position).  :meth:`Thinker.cancel` asks a search in progress to stop
(undo, quit, load, leaving the game); a cancelled thinker's result is never used.
"""

from __future__ import annotations

import copy
import threading
from typing import Any, Callable

from game.engine.bots import choose_action

Chooser = Callable[..., dict[str, Any]]


def private_copy(match: Any) -> Any:
    """A deep copy of ``match`` for a worker: everything a choice reads (controller, its
    generator, seats, actions), nothing shared.  The log is left out (a choice never reads
    it; a long game's log would only make the copy slower)."""
    return copy.deepcopy(match, {id(match.log): []})


class Thinker:
    """One computer decision, in the background."""

    def __init__(self, match: Any, seat: int, epoch: int = 0,
                 choose: Chooser | None = None) -> None:
        self.seat = seat
        self.epoch = epoch
        #: How many actions the match had when the thinking began.
        self.at = len(match.actions)
        self.result: dict[str, Any] | None = None
        self.error: BaseException | None = None
        #: Seconds spent thinking so far (advanced by the scene, for the cue).
        self.elapsed = 0.0
        self._cancel = threading.Event()
        self._done = threading.Event()
        self._choose = choose or choose_action
        self._match = private_copy(match)
        self.thread = threading.Thread(target=self._run, name=f"thinker-seat-{seat}",
                                       daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.result = self._choose(self._match, self.seat, self._cancel.is_set)
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread by take()
            self.error = exc
        finally:
            self._match = None
            self._done.set()

    # the main thread's side --------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self._done.is_set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        """Ask the search to stop; its result will not be used."""
        self._cancel.set()

    def wait(self, seconds: float | None = None) -> bool:
        """Wait up to ``seconds`` (None: until done) for the choice; True once it is made."""
        return self._done.wait(seconds)

    def fits(self, match: Any, epoch: int) -> bool:
        """Whether the choice is still for the position ``match`` is in now."""
        return not self.cancelled and epoch == self.epoch and len(match.actions) == self.at

    def take(self) -> dict[str, Any]:
        """The finished choice (a fault in the worker is raised here, on the main thread)."""
        if not self.done:
            raise RuntimeError("The computer player has not chosen yet.")
        if self.error is not None:
            raise self.error
        assert self.result is not None
        return self.result


__all__ = ["Thinker", "private_copy"]
