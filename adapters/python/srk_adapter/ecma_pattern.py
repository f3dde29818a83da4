"""ECMA-262 regular expressions, as JSON Schema's ``pattern`` means them, translated for Python's ``re``.

A JSON Schema ``pattern`` is an ECMA-262 regular expression, searched (not anchored) in the string.
Written as is for ``re``, the same text means something else in places; the one that matters most
here: ``$`` in ECMA-262 (without the m flag) matches only at the end of the input, while ``re``'s
``$`` also matches before a final "\\n", so ``re.search("^[a-z]+$", "t\\n")`` succeeds where the
schema refuses "t\\n" (W-2.3: a command holding ``"root": "t-1\\n"`` is MALFORMED). The translation:

========================  ===============================  ======================================
ECMA-262                  Python ``re``                    why
========================  ===============================  ======================================
``$``                     ``\\Z``                           end of input only
``^``                     ``\\A``                           start of input only (the same; explicit)
``.``                     ``[^\\n\\r\\u2028\\u2029]``          ECMA's line terminators, not only "\\n"
``\\d`` ``\\w``             ``[0-9]`` ``[A-Za-z0-9_]``        ``re`` matches any Unicode digit or letter
``\\s``                    ECMA's WhiteSpace and             ``re``'s set differs (it lacks U+FEFF,
                          LineTerminator, listed            has U+001C..U+001F)
``\\b`` ``\\B``             look-arounds over ``[A-Za-z0-9_]``  ASCII word characters, as ECMA's
``[]`` ``[^]``             nothing / any character           ``re`` reads ``]`` there as a literal
``{`` not a quantifier    ``\\{``                           ``re`` reads ``{,5}`` as ``{0,5}``
``(?<name>``              ``(?P<name>``                     Python's spelling of a named group
========================  ===============================  ======================================

Strings are matched by code point, as JSON Schema 2020-12 asks ("u" flag semantics): no pattern in
spec/json-schema tells the two apart, since every class there is ASCII. What this small translator
does not handle it refuses with ``PatternError`` naming the construct (back-references,
look-behind, ``\\p{…}``, ``\\u{…}``, ``\\D``/``\\W``/``\\S`` inside a class), rather than guessing.
"""

from __future__ import annotations

import re

_WORD = "A-Za-z0-9_"
# ECMA-262 WhiteSpace (TAB, VT, FF, SP, NBSP, ZWNBSP, Zs) and LineTerminator (LF, CR, LS, PS).
_SPACE = "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_LINE_TERMINATORS = "\\n\\r\\u2028\\u2029"
_CLASS_ESCAPES = {"d": "0-9", "w": _WORD, "s": _SPACE}
_ESCAPES = {
    "d": "[0-9]", "D": "[^0-9]", "w": f"[{_WORD}]", "W": f"[^{_WORD}]", "s": f"[{_SPACE}]", "S": f"[^{_SPACE}]",
    "b": f"(?:(?<=[{_WORD}])(?![{_WORD}])|(?<![{_WORD}])(?=[{_WORD}]))",
    "B": f"(?:(?<=[{_WORD}])(?=[{_WORD}])|(?<![{_WORD}])(?![{_WORD}]))",
}
_CONTROL = {"t": "\\t", "n": "\\n", "r": "\\r", "f": "\\x0c", "v": "\\x0b"}
_QUANTIFIER = re.compile(r"\{[0-9]+(?:,[0-9]*)?\}")
_HEX2 = re.compile(r"[0-9A-Fa-f]{2}")
_HEX4 = re.compile(r"[0-9A-Fa-f]{4}")


class PatternError(ValueError):
    """A pattern this translator does not read; the message names the construct and where it is."""


def _escape(pattern: str, i: int, in_class: bool) -> tuple[str, int]:
    """The translation of the escape at ``pattern[i]`` (a backslash), and the index after it."""
    if i + 1 >= len(pattern):
        raise PatternError(f"pattern {pattern!r} ends with a lone backslash")
    c = pattern[i + 1]
    where = f"in pattern {pattern!r} at index {i}"
    if in_class and c in _CLASS_ESCAPES:
        return _CLASS_ESCAPES[c], i + 2
    if in_class and c in "DWS":
        raise PatternError(f"\\{c} inside a character class is not supported, {where}")
    if in_class and c == "b":
        return "\\x08", i + 2  # in a class, \b is the backspace character
    if c in _ESCAPES:
        return _ESCAPES[c], i + 2
    if c in _CONTROL:
        return _CONTROL[c], i + 2
    if c == "0" and not pattern[i + 2 : i + 3].isdigit():
        return "\\x00", i + 2
    if c.isdigit():
        raise PatternError(f"back-reference \\{c} is not supported, {where}")
    if c == "x" and _HEX2.fullmatch(pattern, i + 2, i + 4):
        return "\\x" + pattern[i + 2 : i + 4], i + 4
    if c == "u" and _HEX4.fullmatch(pattern, i + 2, i + 6):
        return "\\u" + pattern[i + 2 : i + 6], i + 6
    if c == "c" and pattern[i + 2 : i + 3].isascii() and pattern[i + 2 : i + 3].isalpha():
        return re.escape(chr(ord(pattern[i + 2]) % 32)), i + 3
    if c in "upPk":
        raise PatternError(f"\\{c} (a Unicode-mode or named escape) is not supported, {where}")
    return re.escape(c), i + 2  # an identity escape: \. \$ \/ \- …


def _class(pattern: str, i: int) -> tuple[str, int]:
    """The translation of the character class opening at ``pattern[i]`` ("["), and the index after it."""
    j = i + 1
    negated = pattern.startswith("^", j)
    if negated:
        j += 1
    if pattern.startswith("]", j):
        return ("[\\s\\S]" if negated else "(?!)"), j + 1  # ECMA's [^] and []
    out = ["[^" if negated else "["]
    while j < len(pattern) and pattern[j] != "]":
        c = pattern[j]
        if c == "\\":
            piece, j = _escape(pattern, j, in_class=True)
            out.append(piece)
            continue
        # Literal in ECMA; re would warn about nested sets and set operations, or read them.
        out.append("\\" + c if c in "[&~|^" else c)
        j += 1
    if j >= len(pattern):
        raise PatternError(f"pattern {pattern!r} has an unterminated character class at index {i}")
    out.append("]")
    return "".join(out), j + 1


def translate(pattern: str) -> str:
    """The Python ``re`` text that matches what the ECMA-262 ``pattern`` matches."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            piece, i = _escape(pattern, i, in_class=False)
        elif c == "[":
            piece, i = _class(pattern, i)
        elif c == "$":
            piece, i = "\\Z", i + 1
        elif c == "^":
            piece, i = "\\A", i + 1
        elif c == ".":
            piece, i = f"[^{_LINE_TERMINATORS}]", i + 1
        elif c == "(":
            if pattern.startswith("(?<=", i) or pattern.startswith("(?<!", i):
                raise PatternError(f"look-behind is not supported, in pattern {pattern!r} at index {i}")
            if pattern.startswith("(?<", i):
                piece, i = "(?P<", i + 3
            elif pattern.startswith("(?", i) and not pattern.startswith(("(?:", "(?=", "(?!"), i):
                raise PatternError(f"group syntax {pattern[i:i + 3]!r} is not ECMA-262, in pattern {pattern!r} at index {i}")
            else:
                piece, i = "(", i + 1
        elif c == "{":
            m = _QUANTIFIER.match(pattern, i)
            piece, i = (m.group(), m.end()) if m else ("\\{", i + 1)
        elif c in "*+?|)":
            piece, i = c, i + 1
        else:
            piece, i = re.escape(c), i + 1  # "}" and every other literal
        out.append(piece)
    return "".join(out)


def compile_pattern(pattern: str) -> re.Pattern[str]:
    """``translate`` then compile; a pattern ``re`` cannot compile is a ``PatternError`` naming it."""
    text = translate(pattern)
    try:
        return re.compile(text)
    except re.error as e:
        raise PatternError(f"pattern {pattern!r} (as {text!r}) does not compile: {e}") from None
