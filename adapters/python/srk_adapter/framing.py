"""JSON Lines framing with the line bound (spec/wire/PROTOCOL.md W-1.2, W-1.4, W-1.7).

A line is the bytes before a "\\n". One longer than the bound is never held in memory: it is read
in small pieces, counted and dropped up to its "\\n", and reported once as a ``TooLong`` frame, so a
hostile peer cannot make the implementation buffer unbounded input. An unterminated last line (end
of input without "\\n") yields nothing, whatever its length (W-1.7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import BinaryIO, Iterator, Union

from .limits import MAX_LINE_BYTES

#: How much of an over-long line is read at a time while it is being discarded.
DISCARD_CHUNK = 65_536


@dataclass(frozen=True)
class TooLong:
    """A line longer than the bound, already discarded; ``length`` is its size in bytes before the "\\n"."""

    length: int


#: A complete line (its bytes, without the "\\n") or an over-long one.
Frame = Union[bytes, TooLong]


def frames(stream: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[Frame]:
    """The frames of ``stream`` in order, as they arrive; ends at end of input.

    ``stream.readline(n)`` returns as soon as it has a "\\n" or ``n`` bytes, so a line is handed on
    when it is complete (the runner may wait for its reply before it writes the next one), and no
    read asks for more than ``limit + 1`` bytes.
    """
    while True:
        line = stream.readline(limit + 1)
        if line.endswith(b"\n"):
            yield line[:-1]
            continue
        if len(line) <= limit:
            return  # end of input; a non-empty rest is an unterminated last line, ignored (W-1.7)
        length = len(line)
        while True:
            piece = stream.readline(DISCARD_CHUNK)
            if not piece:
                return  # the over-long line was the unterminated last one: ignored too
            length += len(piece)
            if piece.endswith(b"\n"):
                yield TooLong(length - 1)
                break
