"""What a handler returns, made into reply JSON (spec/wire/PROTOCOL.md W-1.2, W-1.8; ENC-1).

A handler may return Python values that are JSON in spirit but not in form: a tuple for an array,
``2.0`` for an integer. ``plain`` turns them into JSON values the way the spec writes them (an
integral number as an integer, "shortest form", W-1.8) and refuses what has no JSON form, naming
the place: a non-finite float, a ``set``, a non-string member name, a string holding a lone
surrogate (it has no UTF-8 encoding). ``encode`` writes one reply line.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")


class NotJson(ValueError):
    """A handler's value that has no JSON form; the message says where it is (a path from the result)."""


def _where(path: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in path) or "the value itself"


def plain(value: Any, path: tuple[Any, ...] = ()) -> Any:
    """``value`` as plain JSON data (dict, list, str, int, float, bool, None), or ``NotJson``."""
    if value is None or value is True or value is False:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotJson(f"{value} at {_where(path)} is not a JSON number")
        return int(value) if value.is_integer() else value
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise NotJson(f"the string at {_where(path)} holds a lone surrogate, which has no UTF-8 encoding")
        return value
    if isinstance(value, (list, tuple)):
        return [plain(v, path + (n,)) for n, v in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise NotJson(f"member name {k!r} at {_where(path)} is not a string")
            out[plain(k, path)] = plain(v, path + (k,))
        return out
    raise NotJson(f"a {type(value).__name__} at {_where(path)} is not a JSON value")


def encode(reply: dict[str, Any]) -> bytes:
    """One reply line: compact JSON in UTF-8, and the "\\n" that ends it (W-1.2)."""
    return json.dumps(reply, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8") + b"\n"
