"""The process around a ``Session``: stdin to frames, frames to replies, replies to stdout (W-1).

``serve`` reads the runner's lines in order and writes one reply line for each that gets one,
flushed at once (the runner may wait for it before sending more, W-1.6). It returns at end of input
(W-1.7) or right after the reply to ``shutdown`` (W-2.2, D-040: what follows is not read); the
program then ends with status 0. Logs go to stderr (W-1.3). ``data_dir`` reads the data directory
the runner gives (W-1.1).
"""

from __future__ import annotations

import os
import sys
from typing import Any, BinaryIO, Callable, Iterable, Mapping, Sequence

from .errors import error_reply
from .framing import frames
from .output import encode
from .session import Handler, Session, _log_to_stderr
from .spec import Spec


def data_dir(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> str | None:
    """The data directory of W-1.1: ``--data-dir DIR`` (or ``--data-dir=DIR``) on the command line, else
    the ``IMPL_DATA_DIR`` environment variable, else None. ``srk`` appends ``--data-dir DIR`` to the
    command line unless that line holds ``{data_dir}``."""
    args = list(sys.argv[1:] if argv is None else argv)
    env = os.environ if environ is None else environ
    for n, arg in enumerate(args):
        if arg == "--data-dir":
            if n + 1 >= len(args):
                raise SystemExit("--data-dir needs a directory")
            return args[n + 1]
        if arg.startswith("--data-dir="):
            return arg[len("--data-dir="):]
    return env.get("IMPL_DATA_DIR") or None


def serve(
    *,
    name: str,
    version: str,
    profile: Iterable[str],
    handlers: Mapping[str, Handler],
    state: Any = None,
    reset: Callable[[Any], Any] | None = None,
    crash_after: Callable[[Any, int, str], Any] | None = None,
    spec_dir: str | os.PathLike[str] | None = None,
    check_results: bool = True,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    log: Callable[[str], None] = _log_to_stderr,
) -> int:
    """Answer the runner until end of input or ``shutdown``; returns the exit status, 0 (W-1.7, W-2.2).

    The arguments are those of ``Session`` (see the README's handler contract); ``stdin`` and
    ``stdout`` default to the process's binary streams. A configuration that the runner could not
    drive (an unknown handler name, a family that does not exist…) raises ``ConfigurationError``
    before any line is read, so the mistake is on stderr rather than in a certificate.
    """
    session = Session(
        name=name, version=version, profile=profile, handlers=handlers, state=state, reset=reset, crash_after=crash_after,
        spec=Spec(spec_dir), check_results=check_results, log=log,
    )
    source = sys.stdin.buffer if stdin is None else stdin
    sink = sys.stdout.buffer if stdout is None else stdout
    try:
        for frame in frames(source):
            reply = session.handle(frame)
            if reply is not None:
                try:
                    line = encode(reply)
                except (TypeError, ValueError) as e:  # the session made every value plain; this is a bug of the adapter
                    log(f"a reply could not be written: {e!r}")
                    line = encode(error_reply(reply.get("id"), "INTERNAL", f"the reply could not be written: {e!r}", definite=False))
                sink.write(line)
                sink.flush()
            if session.stopped:
                break
    except BrokenPipeError:
        pass  # the runner closed our stdout: nobody is left to answer
    return 0
