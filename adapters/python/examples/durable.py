"""Durable state (W-7): the whole state as one JSON file, replaced atomically, with the crash hook.

Each accepted command is one durable write (W-7.1, D-027): the new state is written to a temporary
file and fsynced, then renamed over ``state.json`` and the directory fsynced. A crash before the
rename leaves the previous state; a crash after it leaves the new one; nothing in between is
visible. Recovery (``load``) removes a temporary file an interrupted write left behind.

Because the file is rewritten whole, nothing a later command removed survives in it: once a life's
trace is destroyed or a distillate excised, its bytes are in no file under the data directory
(W-7.2). An append-only log of commands could not promise that.

The crash hook (W-7.3): ``arm(writes, at)`` makes the process kill itself with SIGKILL at the
``writes``-th durable write from now, just before the rename (``before_commit``) or just after the
rename is durable (``after_commit``). It lives in memory only, so a restart disarms it.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

STATE_FILE = "state.json"
TEMP_FILE = "state.json.tmp"


class SnapshotFile:
    """One JSON value kept in ``<directory>/state.json``; with no directory, kept in memory only."""

    def __init__(self, directory: str | None) -> None:
        self.directory = Path(directory) if directory is not None else None
        self._armed: tuple[int, str] | None = None  # (writes still to go, "before_commit" | "after_commit")
        if self.directory is None:
            print("no --data-dir given: the state lives in memory only", file=sys.stderr)
        else:
            self.directory.mkdir(parents=True, exist_ok=True)

    def load(self) -> Any | None:
        """The last committed value (None if nothing was ever written), after removing an uncommitted write."""
        if self.directory is None:
            return None
        temp = self.directory / TEMP_FILE
        if temp.exists():
            temp.unlink()  # a write that crashed before its commit: it never happened
            self._fsync_directory()
        path = self.directory / STATE_FILE
        if not path.exists():
            return None
        return json.loads(path.read_text("utf-8"))

    def save(self, text: str) -> None:
        """One durable write of the JSON ``text`` (W-7.1); the crash hook fires here when armed (W-7.3)."""
        if self.directory is None:
            return
        fire = self._count_write()
        temp = self.directory / TEMP_FILE
        with open(temp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if fire == "before_commit":
            self._die()
        os.replace(temp, self.directory / STATE_FILE)  # the commit: atomic on POSIX
        self._fsync_directory()
        if fire == "after_commit":
            self._die()

    def arm(self, writes: int, at: str) -> None:
        """W-7.3: crash at the ``writes``-th durable write from now, ``before_commit`` or ``after_commit``."""
        self._armed = (writes, at)

    def _count_write(self) -> str | None:
        if self._armed is None:
            return None
        left, at = self._armed
        if left > 1:
            self._armed = (left - 1, at)
            return None
        self._armed = None  # it fires once, then it is disarmed
        return at

    def _fsync_directory(self) -> None:
        assert self.directory is not None
        fd = os.open(self.directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    @staticmethod
    def _die() -> None:
        sys.stderr.flush()
        os.kill(os.getpid(), signal.SIGKILL)
