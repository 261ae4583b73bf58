"""Typed errors shared by the engine, the games and the client.

Every error carries a message written for a player, so the screen can show
``str(error)`` as it is.
"""

from __future__ import annotations


class TabletopError(Exception):
    """Base of every error the program raises on purpose."""


class IllegalAction(TabletopError, ValueError):
    """An action the rules refuse; ``reason`` says why in plain words.

    >>> str(IllegalAction("Position 12 is off the board."))
    'Position 12 is off the board.'
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnknownGame(TabletopError, KeyError):
    """A game id that no installed game answers to."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "Unknown game."


class SaveError(TabletopError):
    """A save that cannot be written or read; names the file and the problem."""

    def __init__(self, path: object, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = str(path)
        self.problem = problem
