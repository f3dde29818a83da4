"""The lexical nesting depth of a decoded line (spec/wire/PROTOCOL.md W-1.5, review G-17).

The count is taken before any parsing, valid JSON or not, so that "[[[[…" never reaches a
recursive parser. Scanning left to right: a '"' outside a string opens one, inside which "\\" skips
the next character and '"' closes it (an unterminated string runs to the end of the line);
outside strings each "[" or "{" adds one and each "]" or "}" subtracts one, matched or not, so the
count can go below zero and is never reset. The line is too deep iff the count ever exceeds the
maximum.
"""

from __future__ import annotations

import re
from itertools import accumulate

from .limits import MAX_NESTING_DEPTH

# A string token: the opening quote, then runs of ordinary characters and escape pairs (the
# unrolled form, which never backtracks), then the closing quote, or a lone final backslash, or
# nothing at all when the string is unterminated.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\)?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def max_depth(text: str) -> int:
    """The highest value the W-1.5 count reaches over ``text`` (0 when it never goes above 0)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(0, max(accumulate(map(_STEP.__getitem__, brackets)), default=0))


def nests_deeper_than(text: str, limit: int = MAX_NESTING_DEPTH) -> bool:
    """True iff the W-1.5 count over ``text`` ever exceeds ``limit``."""
    return max_depth(text) > limit
