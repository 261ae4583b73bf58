"""A computer player's choice, worked out away from the drawing loop.

The play scene starts a :class:`Thinker` when a computer seat is to act and polls it from its
``update``.  Two ways of thinking:

- a **Hard** seat's search (seconds of CPU) runs in a *worker process* (``multiprocessing``,
  spawn start method: safe on every platform, nothing of pygame or of the window is inherited).
  A thread would share Python's interpreter lock with the drawing: while Hard thought, a loop
  turn went from 16 ms to about 83 ms.  The match goes to the worker as plain data (game,
  seats, seed, options and the actions so far); the worker keeps the last match it rebuilt and
  replays only the actions it has not seen, works out the choice with ``choose_action`` (the
  same function, settings and seeded generator as a direct call) and sends it back.  The
  scene polls the pipe without blocking, so the frame rate holds.  The worker is kept for the
  next decision (starting one costs about 0.3 s plus the imports); stopping a search
  (:meth:`Thinker.cancel`: undo, leaving the game, closing the window) terminates its worker
  at once and starts a fresh one for later.  Workers are daemon processes, stopped by
  :func:`shutdown` (also at exit); one whose app died ends at the pipe's end or at its next
  playout (it watches its parent).
- an **Easy** or **Normal** choice (milliseconds) runs on a worker thread with a deep copy of
  the match, as before: it is too quick to be worth a process.

The choice depends only on the match, never on timing: a Hard choice that cannot be had --
the worker died or raised, or it ran past :data:`HARD_CAP` seconds of wall time (a safety net
only: the search's budget is counted in playouts, ``search.py``) -- falls back to the Normal
player's choice and says so in :attr:`Thinker.note`, which the scene shows in the log.

A result is used only if the match is still where it was when the thinking began: the same
number of actions and the same *epoch* (the scene's counter, bumped by an undo or anything
else that replaces the position).
"""

from __future__ import annotations

import atexit
import copy
import itertools
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
import types
from typing import Any, Callable

from game.engine.bots import choose_action, normal_action, searches

Chooser = Callable[..., dict[str, Any]]

log = logging.getLogger(__name__)

#: Wall-clock seconds after which a Hard search is given up for the Normal choice.  The
#: search's own budget (work units, deterministic) keeps a decision near 1 s of CPU; this
#: only guards against a stuck worker on a machine far busier than expected.
HARD_CAP = 30.0
#: The start method: spawn works the same everywhere and inherits no window or thread.
START_METHOD = "spawn"
#: How much lower the worker's scheduling priority is than the app's (``os.nice``): on a
#: busy machine the drawing loop gets the CPU first.  The search's budget is counted in work,
#: not time, so this changes when a choice comes, never which.
WORKER_NICENESS = 5
#: Hard searches run in a worker process (False: on a thread, as before issue 27; the bench
#: sets it to compare the loop's turn both ways).
HARD_IN_PROCESS = True


def private_copy(match: Any) -> Any:
    """A deep copy of ``match`` for a worker thread: everything a choice reads (controller,
    its generator, seats, actions), nothing shared.  The log is left out (a choice never
    reads it; a long game's log would only make the copy slower)."""
    return copy.deepcopy(match, {id(match.log): []})


def match_spec(match: Any) -> dict[str, Any]:
    """The match as plain data for the worker process: enough to replay it exactly."""
    return {"game": match.game_id, "seats": copy.deepcopy(match.seats), "seed": match.seed,
            "options": copy.deepcopy(match.options), "actions": copy.deepcopy(match.actions)}


# ------------------------------------------------------------------ the worker process
def _rebuild(cached: Any, spec: dict[str, Any]) -> Any:
    """The match of ``spec``: ``cached`` brought up to date when it is the same match a few
    actions behind, else replayed from its seed."""
    from game.engine import Match
    actions = spec["actions"]
    same = (cached is not None and cached.game_id == spec["game"]
            and cached.seed == spec["seed"] and cached.seats == spec["seats"]
            and cached.options == spec["options"] and len(cached.actions) <= len(actions)
            and cached.actions == actions[:len(cached.actions)])
    match = cached if same else Match(spec["game"], spec["seats"], spec["seed"],
                                      spec["options"])
    for record in actions[len(match.actions):]:
        match._apply(record["seat"], record["action"])
    return match


def serve(conn: Any, parent: int) -> None:
    """The worker process's loop: a job in, a choice (or the fault's text) out, until the
    pipe closes or ``None`` comes.  Ctrl+C is the app's to handle, not the worker's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(WORKER_NICENESS)   # the window's loop comes first; the choice is unchanged
    except (AttributeError, OSError):
        pass
    orphaned = (lambda: os.getppid() != parent)
    cached = None
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        ident, spec, seat, settings, choose = job
        start = time.process_time()
        try:
            cached = _rebuild(cached, spec)
            action = (choose or choose_action)(cached, seat, orphaned, settings)
            reply = (ident, "ok", action, time.process_time() - start)
        except Exception as exc:  # noqa: BLE001 - handed to the app, which falls back
            cached = None
            reply = (ident, "error", f"{type(exc).__name__}: {exc}",
                     time.process_time() - start)
        if orphaned():
            return
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return


class Worker:
    """One worker process and the app's end of its pipe."""

    def __init__(self) -> None:
        context = multiprocessing.get_context(START_METHOD)
        self.conn, child = context.Pipe(duplex=True)
        self.process = context.Process(target=serve, args=(child, os.getpid()),
                                       name="tabletop-thinker", daemon=True)
        # The worker needs nothing of the program's main module: while it starts, spawn
        # sees a bare one (so main.py's window modules are not imported in the worker, and
        # a script without the ``if __name__ == "__main__"`` guard does not run again).
        main = sys.modules.get("__main__")
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            self.process.start()
        finally:
            if main is not None:
                sys.modules["__main__"] = main
        child.close()
        _ALL.add(self)

    def alive(self) -> bool:
        return self.process.is_alive()

    def stop(self, wait: float = 1.0) -> None:
        """End the process now (a search in progress is abandoned) and reap it."""
        _ALL.discard(self)
        try:
            if self.process.is_alive():
                self.process.terminate()
            self.process.join(wait)
            if self.process.is_alive():
                self.process.kill()
                self.process.join(wait)
        except (OSError, ValueError, AssertionError):
            pass
        self.conn.close()


_ALL: set[Worker] = set()
_IDLE: list[Worker] = []
_LOCK = threading.Lock()
_JOBS = itertools.count(1)


def _take_worker() -> Worker:
    with _LOCK:
        while _IDLE:
            worker = _IDLE.pop()
            if worker.alive():
                return worker
            worker.stop()
    return Worker()


def _give_back(worker: Worker) -> None:
    with _LOCK:
        if worker.alive() and not _IDLE:
            _IDLE.append(worker)
            return
    worker.stop()


def warm_up() -> None:
    """Have an idle worker ready (started in the background; the next Hard decision does
    not wait for a process to start)."""
    with _LOCK:
        if not any(w.alive() for w in _IDLE):
            _IDLE.append(Worker())


def workers() -> int:
    """How many worker processes this app has running (for tests and the bench)."""
    return sum(1 for w in list(_ALL) if w.alive())


def shutdown() -> None:
    """Stop every worker process (at exit, and in tests)."""
    with _LOCK:
        _IDLE.clear()
    for worker in list(_ALL):
        worker.stop()


atexit.register(shutdown)


# ------------------------------------------------------------------ the app's side
class Thinker:
    """One computer decision, in the background (a process for Hard, a thread otherwise)."""

    def __init__(self, match: Any, seat: int, epoch: int = 0,
                 choose: Chooser | None = None, settings: Any = None,
                 process: bool | None = None, cap: float = HARD_CAP) -> None:
        self.seat = seat
        self.epoch = epoch
        #: How many actions the match had when the thinking began.
        self.at = len(match.actions)
        self.result: dict[str, Any] | None = None
        self.error: BaseException | None = None
        #: Why a Hard choice fell back to the Normal one (for the log), else None.
        self.note: str | None = None
        #: CPU seconds the worker process spent on the choice (None: not known).
        self.cpu: float | None = None
        #: Seconds spent thinking so far (advanced by the scene, for the cue).
        self.elapsed = 0.0
        self.cap = cap
        self.started = time.monotonic()
        self._cancel = threading.Event()
        self._done = threading.Event()
        self._choose = choose
        self._live = match
        self._worker: Worker | None = None
        self.process = (HARD_IN_PROCESS and searches(match, seat)) if process is None else process
        if self.process:
            if settings is None:
                from game.engine.search import settings_for
                settings = settings_for(match.controller)
            self._ident = next(_JOBS)
            try:
                self._worker = _take_worker()
                self._worker.conn.send((self._ident, match_spec(match), seat, settings,
                                        choose))
            except (OSError, ValueError) as exc:
                self._fall_back(f"its worker could not start: {exc}")
            self.thread = None
        else:
            self._settings = settings
            self._match = private_copy(match)
            self.thread = threading.Thread(target=self._run, name=f"thinker-seat-{seat}",
                                           daemon=True)
            self.thread.start()

    # the worker thread (Easy, Normal) ---------------------------------------------------
    def _run(self) -> None:
        try:
            choose = self._choose or choose_action
            self.result = choose(self._match, self.seat, self._cancel.is_set, self._settings)
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread by take()
            self.error = exc
        finally:
            self._match = None
            self._done.set()

    # the worker process (Hard) ----------------------------------------------------------
    def _fall_back(self, why: str) -> None:
        """The search cannot give its choice: the Normal player's, with a note."""
        self._release(keep=False)
        name = self._live.seats[self.seat]["name"]
        self.note = f"{name} (Hard) could not finish thinking ({why}) and plays the Normal choice."
        log.warning(self.note)
        if len(self._live.actions) == self.at and not self.cancelled:
            try:
                self.result = normal_action(self._live, self.seat)
            except Exception as exc:  # noqa: BLE001 - raised by take()
                self.error = exc
        else:
            self._cancel.set()
        self._done.set()

    def _release(self, keep: bool) -> None:
        worker, self._worker = self._worker, None
        if worker is None:
            return
        if keep:
            _give_back(worker)
        else:
            worker.stop(wait=0.2)
            warm_up()

    def poll(self, timeout: float = 0.0) -> bool:
        """Whether the choice is made; a Hard one is looked for without blocking (or for up
        to ``timeout`` seconds), an Easy or Normal one is waited for up to ``timeout``."""
        if self._done.is_set():
            return True
        if not self.process:
            return self._done.wait(timeout) if timeout > 0 else False
        worker = self._worker
        if worker is None:
            return self._done.is_set()
        try:
            ready = worker.conn.poll(timeout)
            if ready:
                ident, status, payload, cpu = worker.conn.recv()
                if ident != self._ident:
                    return False            # an answer to an older job: not ours
                self.cpu = cpu
                if status == "ok":
                    self.result = payload
                    self._release(keep=True)
                    self._done.set()
                else:
                    self._fall_back(f"its search failed: {payload}")
                return True
        except (EOFError, OSError) as exc:
            self._fall_back(f"its worker stopped: {type(exc).__name__}")
            return True
        if not worker.alive():
            self._fall_back(f"its worker stopped (exit code {worker.process.exitcode})")
            return True
        if time.monotonic() - self.started > self.cap:
            self._fall_back(f"it thought for more than {self.cap:g} s")
            return True
        return False

    # the main thread's side --------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.poll()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        """Stop the thinking now (a worker process is terminated); its result is never used."""
        self._cancel.set()
        if self.process and not self._done.is_set():
            self._release(keep=False)
            self._done.set()

    def wait(self, seconds: float | None = None) -> bool:
        """Wait up to ``seconds`` (None: until done) for the choice; True once it is made."""
        if not self.process:
            return self._done.wait(seconds)
        end = None if seconds is None else time.monotonic() + seconds
        while not self.poll(0.05 if end is None else max(0.0, min(0.05, end - time.monotonic()))):
            if end is not None and time.monotonic() >= end:
                return self.poll()
        return True

    def fits(self, match: Any, epoch: int) -> bool:
        """Whether the choice is still for the position ``match`` is in now."""
        return not self.cancelled and epoch == self.epoch and len(match.actions) == self.at

    def take(self) -> dict[str, Any]:
        """The finished choice (a fault in an Easy or Normal worker thread is raised here, on
        the main thread)."""
        if not self.poll():
            raise RuntimeError("The computer player has not chosen yet.")
        if self.error is not None:
            raise self.error
        if self.result is None:
            raise RuntimeError("The computer player's thinking was stopped.")
        return self.result


__all__ = ["HARD_CAP", "Thinker", "match_spec", "private_copy", "shutdown", "warm_up",
           "workers"]
