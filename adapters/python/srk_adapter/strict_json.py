"""Strict reading of one request line as JSON (spec/wire/PROTOCOL.md W-1.8, W-1.9; D-043, D-044).

Python's ``json.loads`` reads RFC 8259 grammar but is more lenient than the wire in four ways,
each closed here:

- it keeps the last of two equal member names; the wire refuses the line (RFC 7493 §2.3). Names
  are compared after unescaping, as ``object_pairs_hook`` sees them (``"id"`` equals ``"\\u0069d"``);
- it turns an escaped lone surrogate (``"\\ud800"``) into a lone surrogate in a ``str``; the wire
  refuses it (RFC 7493 §2.1). An escaped pair (``"\\ud83d\\ude80"``) is one character, as Python
  already decodes it;
- it accepts ``NaN``, ``Infinity`` and ``-Infinity``, which are not JSON;
- it reads an integer literal with ``int``, which refuses more than 4300 digits (Python 3.11's
  ``sys.set_int_max_str_digits`` guard) and keeps every digit of a shorter one. The wire reads
  every number as the IEEE 754 binary64 value nearest to it (W-1.8), so ``9007199254740993`` is
  2^53 and a literal of thousands of digits is a (non-finite) number, not an error.

Numbers come out as the spec counts them: a number whose nearest binary64 is integral is a Python
``int`` of that exact value (``1.0``, ``1e2``, ``-0`` and ``1.00000000000000001`` are ``1``, ``100``,
``0`` and ``1``); any other is a ``float`` (``1.5``; ``inf`` or ``-inf`` for a literal beyond the
binary64 range, which no schema accepts as a number or an integer).

The line must already have passed the nesting check (W-1.5, ``depth.py``): the parser is recursive.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
# A string that may hold an escaped surrogate: without one, no lone surrogate can be in the value
# (a raw one cannot survive strict UTF-8 decoding), and the walk over the value is skipped.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class JsonDefect(ValueError):
    """The line is not one strict JSON value: BAD_JSON (W-4 row 4). ``rule`` names what failed."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


def number(literal: str) -> int | float:
    """The value of a JSON number literal under W-1.8: an exact ``int`` when its nearest binary64 is integral."""
    value = float(literal)  # correctly rounded, half to even; no digit limit; inf beyond the range
    if math.isfinite(value) and value.is_integer():
        return int(value)
    return value


def _members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for name, _ in pairs:
            if name in seen:
                raise JsonDefect("duplicate-name", f"duplicate member name {json.dumps(name)[:80]}: each name may occur once per object (I-JSON, W-1.8)")
            seen.add(name)
    return obj


def _not_json(constant: str) -> Any:
    raise JsonDefect("not-json", f"{constant} is not a JSON value (RFC 8259 has no NaN or Infinity)")


def _lone_surrogate(value: Any) -> str | None:
    """The first string (member name or value) of ``value`` that holds a lone surrogate, if any."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if _SURROGATE.search(v):
                return v
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            for name, member in v.items():
                if _SURROGATE.search(name):
                    return name
                stack.append(member)
    return None


def parse(text: str) -> Any:
    """The JSON value of ``text`` (a decoded line), or ``JsonDefect`` saying why it is not one."""
    try:
        value = json.loads(text, object_pairs_hook=_members, parse_int=number, parse_float=number, parse_constant=_not_json)
    except JsonDefect:
        raise
    except json.JSONDecodeError as e:
        raise JsonDefect("syntax", f"{e.msg} at column {e.colno}") from None
    if _SURROGATE_ESCAPE.search(text):
        bad = _lone_surrogate(value)
        if bad is not None:
            unit = next(c for c in bad if _SURROGATE.match(c))
            raise JsonDefect("lone-surrogate", f"lone surrogate \\u{ord(unit):04x} in a string: a JSON string must be Unicode text (I-JSON, W-1.8)")
    return value
