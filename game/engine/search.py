"""Information-set Monte Carlo tree search for any game (the "Hard" computer player).

The model is OpenSpiel's ``ismcts.py`` (single-observer ISMCTS, Cowling, Powley & Whitehouse
2012): every iteration

1. copies the live controller and *determinizes* the copy from the searching seat's point of
   view: the game's ``determinize(seat, rng)`` hook redraws everything that seat may not see
   (face-down tiles, other hands, teams, destiny orders), and the copy's generator is reseeded so
   that no future die is known;
2. walks one shared tree of actions, choosing by UCB among the actions legal in this
   determinization (children count how often they were available, so rarely legal actions are
   not over-explored);
3. expands one new action, then plays on with the game's Normal policy for at most
   ``rollout_actions`` actions; a finished game scores from its ``result``, an unfinished one
   from the game's ``evaluate(seat)`` hook when it has one (else one half);
4. backs the score up, each node from the point of view of the seat that chose it.

A game that can value every legal action of a determinized state at once, exactly and
quickly, says so with an ``action_values(seat, legal)`` hook (None where it cannot): the
search then averages those values over ``SearchSettings.worlds`` determinizations and keeps
the best (perfect-information Monte Carlo; Fantasy Expedition's secret choice, whose 81 to
324 combinations are worked out row by row).

A decision's budget is counted in work (``SearchSettings.work``: actions played, copies,
worlds), never in time, and each game sets it so that a decision fits about a second of CPU.

Everything is deterministic for a given generator: the same match and seed give the same
choice, so a replay or a save reproduces a game played by Hard players exactly.  The search
never reads the live state beyond the controller copy it determinizes; a game with secrets and
no ``determinize`` hook cannot be searched (``can_search``).
"""

from __future__ import annotations

import copy
import math
import statistics
from dataclasses import dataclass, field
from typing import Callable

from .controller import Action, Controller
from .rng import Rng

Policy = Callable[[Controller, int, list[Action], Rng], Action]


#: Work units spent by every search in this process so far (``SearchSettings.work``): the
#: bench divides CPU time by it to fit each game's budget.  Only counted, never read by a
#: search.
WORK_DONE = [0]


def action_key(action: Action) -> str:
    """A stable, hashable name for an action (its items, sorted)."""
    return repr(sorted(action.items()))


def can_search(controller: Controller) -> bool:
    """Whether the search may be used for this game without seeing hidden information: the
    game has a ``determinize`` hook.  (An open game may still hide things from everyone, such
    as face-down tiles, so even open games must say how to redraw what nobody has seen.)"""
    return _hook(controller, "determinize") is not None


def _hook(controller: Controller, name: str) -> Callable | None:
    method = getattr(controller, name, None)
    return method if callable(method) else None


def outcome(controller: Controller, seat: int) -> float:
    """How well ``seat`` did in a finished game, from 0 to 1: a share of the win (winners split
    one point), plus a small part for its score rank so that losses are not all alike."""
    result = controller.result() or {}
    winners = result.get("winners") or []
    n = len(controller.seats)
    win = (1.0 / len(winners)) if seat in winners else 0.0
    scores = result.get("scores")
    rank = 0.5
    if isinstance(scores, list) and len(scores) == n and n > 1:
        mine = scores[seat]
        try:
            below = sum(1 for s in scores if s < mine)
            equal = sum(1 for s in scores if s == mine) - 1
            rank = (below + equal / 2) / (n - 1)
        except TypeError:
            rank = 0.5
    return 0.9 * win + 0.1 * rank


def normal_policy(controller: Controller, seat: int, legal: list[Action], rng: Rng) -> Action:
    """The game's heuristic ("Normal") player, from ``seat``'s own view."""
    choice = type(controller).policy(controller.view(seat), legal, rng)
    return choice if choice is not None else rng.choice(legal)


def random_policy(controller: Controller, seat: int, legal: list[Action], rng: Rng) -> Action:
    return rng.choice(legal)


def own_policy(controller: Controller) -> Callable[..., Action | None]:
    """The heuristic the searching seat starts from and plays its own playouts by: the game's
    ``hard_policy(view, legal, rng)`` class method where it has one (a Normal player with
    numbers tuned to win, Fantasy Racing's), else its Normal ``policy``.  The other seats'
    playouts are always played by ``SearchSettings.policy``."""
    return _hook(controller, "hard_policy") or type(controller).policy


@dataclass
class Node:
    visits: int = 0
    total: float = 0.0          # summed score of the seat that chose the action into this node
    available: int = 0          # how often this action was legal when its parent was reached
    children: dict[str, "Node"] = field(default_factory=dict)


@dataclass
class SearchSettings:
    """How a game is searched.

    ``method``: ``"rollouts"`` (the default: the Normal player's choice and a few rivals, each
    tried in the same determinized worlds with Normal play after it, the best kept by
    sequential halving) or ``"ismcts"`` (a tree over every legal action).  ``iterations`` is
    the number of playouts in all; ``candidates`` caps the actions compared by ``rollouts``;
    ``margin`` is how much better (on the 0..1 score) a rival must do than the Normal choice
    to be preferred, and ``confidence`` how many standard errors of the paired differences
    the gain must exceed, so that noise alone never overrules the heuristic."""
    iterations: int = 200
    rollout_actions: int = 60
    exploration: float = 0.7
    policy: Policy = normal_policy
    method: str = "rollouts"
    candidates: int = 8
    margin: float = 0.02
    confidence: float = 1.5
    #: Imagined tables averaged where the game values every action at once (``action_values``).
    worlds: int = 64
    #: The decision's budget in *work units* (None: only ``iterations`` and ``worlds``
    #: bound it): an action played in a playout is one unit, a playout's copy and final
    #: estimate ``playout_cost`` more, a redrawn world ``world_cost`` (also where the game
    #: values every action of a world at once).  The search is anytime: sequential halving
    #: spreads the budget over its rounds and stops a round when its share is spent.  Work is
    #: counted, never time, so the same match gives the same choice on every machine and under
    #: any load; each game sets its budget (its ``hard.py``) so that a decision fits the CPU
    #: time it is given.
    work: int | None = None
    playout_cost: int = 4
    world_cost: int = 4


def settings_for(controller: Controller) -> SearchSettings:
    """The game's own search settings (a ``search_settings`` class attribute), else defaults."""
    own = getattr(type(controller), "search_settings", None)
    return own if isinstance(own, SearchSettings) else SearchSettings()


def _next_turn(state: Controller) -> tuple[int, list[Action]] | None:
    """Who acts next in ``state`` and what they may do, or None when nobody can."""
    if state.is_over():
        return None
    seats = state.to_act()
    options = state.legal_actions(seats[0]) if seats else []
    return (seats[0], options) if options else None


def _score(state: Controller, seats: int) -> list[float]:
    if state.is_over():
        return [outcome(state, s) for s in range(seats)]
    evaluate = _hook(state, "evaluate")
    if evaluate is None:
        return [0.5] * seats
    return [min(1.0, max(0.0, float(evaluate(s)))) for s in range(seats)]


def _determinized(live: Controller, seat: int, rng: Rng) -> Controller:
    state = copy.deepcopy(live)
    determinize = _hook(state, "determinize")
    if determinize is None:
        raise ValueError(f"{type(state).title} has no determinize hook: it cannot be searched.")
    determinize(seat, rng)
    state.rng.state = rng.next64()          # no future die or shuffle is known
    return state


def search(live: Controller, seat: int, rng: Rng,
           settings: SearchSettings | None = None,
           cancelled: Callable[[], bool] | None = None) -> Action:
    """The action the search prefers for ``seat`` now.

    A game whose ``trusts_policy(legal)`` hook says so for these legal actions gets its own
    heuristic's choice (:func:`own_policy`) with no search: a decision that heuristic plans
    further ahead than a short playout sees.  ``live`` is never changed.  ``cancelled`` is
    polled between playouts (a window that closes or an undo stops a search in progress); a
    cancelled search returns its best so far.
    """
    settings = settings or SearchSettings()
    legal = live.legal_actions(seat)
    if not legal:
        raise ValueError(f"Seat {seat} has nothing to do.")
    if len(legal) == 1:
        return legal[0]
    trusts = _hook(live, "trusts_policy")
    if trusts is not None and trusts(legal):
        pick = own_policy(live)(live.view(seat), legal, rng)
        if pick is not None:
            return pick
    if _hook(live, "action_values") is not None:
        chosen = _by_worlds(live, seat, legal, rng, settings, cancelled)
        if chosen is not None:
            return chosen
    if settings.method == "rollouts":
        return _rollouts(live, seat, legal, rng, settings, cancelled)
    return _ismcts(live, seat, legal, rng, settings, cancelled)


def _by_worlds(live: Controller, seat: int, legal: list[Action], rng: Rng,
               settings: SearchSettings, cancelled: Callable[[], bool] | None) -> Action | None:
    """Where the game can value every legal action of a determinized table at once, exactly
    and quickly (its ``action_values(seat, legal)`` hook: a list of 0..1 scores, or None when
    it cannot here), the action with the best mean over ``settings.worlds`` tables (perfect
    information Monte Carlo: each table redrawn as the seat's view allows).  None: not this
    time, and ``rng`` is left as it was for the search proper."""
    probe = Rng(rng.seed, rng.state)
    totals: list[float] | None = None
    spent = 0
    for _world in range(max(1, settings.worlds)):
        if totals is not None and cancelled is not None and cancelled():
            break
        if totals is not None and settings.work is not None and spent >= settings.work:
            break
        spent += settings.world_cost
        WORK_DONE[0] += settings.world_cost
        values = _determinized(live, seat, probe).action_values(seat, legal)
        if values is None:
            return None
        totals = list(values) if totals is None else [t + v for t, v in zip(totals, values)]
    rng.state, rng.draws = probe.state, rng.draws + probe.draws
    assert totals is not None
    best = max(range(len(legal)), key=lambda i: (totals[i], -i))
    return legal[best]


def _candidates(live: Controller, seat: int, legal: list[Action], rng: Rng,
                settings: SearchSettings) -> list[Action]:
    """The seat's own heuristic's choice first (:func:`own_policy`: the Normal player's, or
    the game's Hard numbers), then other choices it makes with other dice, then
    random legal actions, up to ``settings.candidates`` in all (every action when few)."""
    view = live.view(seat)
    chosen: dict[str, Action] = {}
    policy = own_policy(live)
    for attempt in range(2 * settings.candidates):
        pick = policy(view, legal, Rng.derive(rng.next64(), attempt))
        if pick is None:
            break
        chosen.setdefault(action_key(pick), pick)
        if attempt >= 2 and len(chosen) == 1:
            break                                   # a player that always says the same
    if len(legal) <= settings.candidates:
        for action in legal:
            chosen.setdefault(action_key(action), action)
        return list(chosen.values())
    others = [a for a in legal if action_key(a) not in chosen]
    rng.shuffle(others)
    for action in others[: max(0, settings.candidates - len(chosen))]:
        chosen[action_key(action)] = action
    return list(chosen.values())


def _playout(world: Controller, seat: int, first: Action, rng: Rng,
             settings: SearchSettings) -> tuple[float, int]:
    """``seat`` plays ``first`` in a copy of ``world``; then it plays on by its own heuristic
    (:func:`own_policy`) and everyone else by ``settings.policy`` (Normal).  The score, and
    the work the playout cost (``SearchSettings.work``)."""
    state = copy.deepcopy(world)
    state.apply(seat, first)
    steps = 1
    own = _hook(state, "hard_policy")
    for _step in range(settings.rollout_actions):
        if (turn := _next_turn(state)) is None:
            break
        actor, options = turn
        choice = own(state.view(actor), options, rng) if own and actor == seat else None
        state.apply(actor, choice or settings.policy(state, actor, options, rng))
        steps += 1
    return _score(state, len(state.seats))[seat], settings.playout_cost + steps


def _rollouts(live: Controller, seat: int, legal: list[Action], rng: Rng,
              settings: SearchSettings, cancelled: Callable[[], bool] | None) -> Action:
    """A rollout player (one step of policy improvement over Normal) with sequential halving.

    Every candidate is tried in the same determinized worlds with the same dice for the play
    after it (common random numbers), so a difference in mean score is a difference the
    choice made, not luck.  Each round keeps the better half until one is left or the
    playouts are spent."""
    candidates = _candidates(live, seat, legal, rng, settings)
    if len(candidates) == 1:
        return candidates[0]
    normal = action_key(candidates[0])
    keys = [action_key(a) for a in candidates]
    by_key = dict(zip(keys, candidates))
    scores: dict[str, list[float]] = {k: [] for k in keys}
    alive = list(keys)
    rounds = max(1, math.ceil(math.log2(len(alive))))
    budget = max(settings.iterations, 2 * len(alive))
    spent = 0
    stop = False
    for round_index in range(rounds):
        per = max(1, budget // (rounds * len(alive)))
        # This round's share of the work left (anytime: every round gets at least a world).
        share = (None if settings.work is None
                 else (settings.work - spent) / (rounds - round_index))
        used = 0
        for _j in range(per):
            if cancelled is not None and cancelled():
                stop = True
                break
            if share is not None and _j > 0 and used >= share:
                break
            world = _determinized(live, seat, rng)
            dice = rng.next64()
            used += settings.world_cost
            for key in alive:
                score, cost = _playout(world, seat, by_key[key], Rng.derive(dice), settings)
                scores[key].append(score)
                used += cost
        spent += used
        WORK_DONE[0] += used
        if settings.work is not None and spent >= settings.work:
            stop = True
        if stop or len(alive) <= 2:
            break
        alive.sort(key=lambda k: (-_mean(scores[k]), keys.index(k)))
        alive = alive[: max(2, (len(alive) + 1) // 2)]
        if normal not in alive:
            alive.append(normal)      # the heuristic's choice is always kept to the end
    tried = [k for k in alive if scores[k]]
    if normal not in tried:
        return by_key[normal]
    best = max(tried, key=lambda k: (_mean(scores[k]), -keys.index(k)))
    if best == normal:
        return by_key[normal]
    # Both were played in the same worlds with the same dice: compare them pair by pair, and
    # overrule the heuristic only for a gain larger than the margin and than chance.
    diffs = [b - n for b, n in zip(scores[best], scores[normal])]
    gain = _mean(diffs)
    spread = statistics.pstdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    if gain > settings.margin and gain > settings.confidence * spread:
        return by_key[best]
    return by_key[normal]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _ismcts(live: Controller, seat: int, legal: list[Action], rng: Rng,
            settings: SearchSettings, cancelled: Callable[[], bool] | None) -> Action:
    """The tree search described at the top of the module."""
    seats = len(live.seats)
    root = Node()
    root_keys = {action_key(a): a for a in legal}
    spent = 0
    for _ in range(settings.iterations):
        if cancelled is not None and cancelled():
            break
        if settings.work is not None and spent >= settings.work:
            break
        spent += settings.world_cost + settings.playout_cost
        state = _determinized(live, seat, rng)
        node, path = root, []
        expanded = False
        while (turn := _next_turn(state)) is not None:
            actor, options = turn
            keyed = [(action_key(a), a) for a in options]
            for key, _a in keyed:
                child = node.children.get(key)
                if child is not None:
                    child.available += 1
            untried = [(k, a) for k, a in keyed if k not in node.children]
            if untried:
                key, action = untried[rng.randbelow(len(untried))]
                child = node.children[key] = Node(available=1)
                expanded = True
            else:
                log_n = math.log(max(1, sum(node.children[k].available for k, _ in keyed)))

                def ucb(item: tuple[str, Action]) -> float:
                    c = node.children[item[0]]
                    return c.total / c.visits + settings.exploration * math.sqrt(
                        log_n / c.visits) if c.visits else math.inf
                key, action = max(keyed, key=ucb)
                child = node.children[key]
            state.apply(actor, action)
            spent += 1
            path.append((child, actor))
            node = child
            if expanded:
                break
        for _step in range(settings.rollout_actions):
            if (turn := _next_turn(state)) is None:
                break
            actor, options = turn
            state.apply(actor, settings.policy(state, actor, options, rng))
            spent += 1
        scores = _score(state, seats)
        root.visits += 1
        for child, chooser in path:
            child.visits += 1
            child.total += scores[chooser]
    WORK_DONE[0] += spent
    best = max(root_keys, key=lambda k: (root.children[k].visits if k in root.children else -1,
                                         root.children[k].total if k in root.children else 0,
                                         -list(root_keys).index(k)))
    return root_keys[best]


__all__ = ["SearchSettings", "action_key", "can_search", "normal_policy", "outcome",
           "random_policy", "search", "settings_for"]

