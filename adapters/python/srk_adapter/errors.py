"""How a handler says no, and the replies the adapter writes (spec/wire/PROTOCOL.md W-3).

A handler refuses a request by raising ``Refusal(code, message, path=...)`` with an operation code
of TAB-3 (``ADVAITA_IDENTITY_NOT_SINGLE``, ``NOT_FOUND``, ``TICK_REGRESSED``…). The adapter fills in
the invariant the table gives that code and answers with a definite error (W-3.2: a rejected
command writes nothing, D-027). Wire codes are the adapter's own; a handler never raises them.

``Internal(message, definite=...)`` is for a failure the handler caught itself: ``definite=True``
only when it knows the request had no effect (it failed before its durable write began and the
state is as it was, W-3.4). Any other exception out of a handler is answered ``INTERNAL`` too,
indefinite for a command or a reset (the adapter cannot tell whether the write happened) and
definite for a query (a query writes nothing).
"""

from __future__ import annotations

from typing import Any, Sequence

_UNSET: Any = object()


class Refusal(Exception):
    """An operation rejection: ``code`` from TAB-3 (kind ``operation``), a message, and where in the command or query."""

    def __init__(self, code: str, message: str = "", *, path: Sequence[str | int] | None = None, invariant: Any = _UNSET) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code
        self.path = list(path) if path is not None else None
        #: The invariant the handler expects the code to protect; checked against TAB-3 when given.
        self.invariant = invariant

    @property
    def states_invariant(self) -> bool:
        return self.invariant is not _UNSET


class Internal(Exception):
    """A failure of the implementation (I/O error, bug) the handler reports itself (W-3.4)."""

    def __init__(self, message: str, *, definite: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.definite = definite


def ok_reply(id: Any, events: list[Any] | None = None, result: Any = _UNSET) -> dict[str, Any]:
    """W-3.1: ``result`` is present for hello and queries only."""
    reply: dict[str, Any] = {"type": "reply", "id": id, "ok": True, "events": events if events is not None else []}
    if result is not _UNSET:
        reply["result"] = result
    return reply


def error_reply(id: Any, code: str, message: str, *, invariant: str | None = None, definite: bool = True, path: Sequence[str | int] | None = None) -> dict[str, Any]:
    """W-3.2."""
    error: dict[str, Any] = {"code": code, "invariant": invariant, "message": message}
    if path is not None:
        error["path"] = list(path)
    error["definite"] = definite
    return {"type": "reply", "id": id, "ok": False, "error": error}
