"""The D-010 leakage tokeniser (S-1), computed from the kit's Unicode 17.0 table (D-045).

Python's ``unicodedata`` carries the Unicode version of its interpreter (14.0 in Python 3.11), and
``str.lower`` and ``unicodedata.normalize`` differ from Unicode 17.0 on every character assigned
since. This module uses neither: NFKC, the default lower-casing with its final-sigma condition, and
the letter/mark/number classes all come from ``spec/unicode/tokeniser-17.0.json``, read by the
steps of its ``algorithm`` member, so the tokens are the kit's on any Python 3.10 or later.
Standard library only; the module imports nothing else of the adapter, so it can be copied alone.

    from srk_adapter.tokeniser import load_tokeniser
    tokeniser = load_tokeniser()                  # or load_tokeniser("/path/to/tokeniser-17.0.json")
    tokeniser.tokens("ΟΔΥΣΣΕΥΣ, the traveler_profile")   # ['οδυσσευς', 'the', 'traveler', 'profile']

Where the table is, first found wins: the ``path`` argument; ``$SRK_SPEC_DIR/unicode/``; the kit this
file sits in (``adapters/python/srk_adapter`` → ``spec/unicode``).

As a program (``python3 -m srk_adapter.tokeniser tokens [table]``) it reads a JSON array of strings on
stdin and writes the JSON array of their token lists; ``digest`` prints the vectors' ``everyCodePoint``
digest (the tokens of every one-code-point string, hashed).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

TABLE_FILE = "tokeniser-17.0.json"
_SIZE = 0x110000
_CASED, _IGNORABLE = 1, 2
_HEX = re.compile(r"(?:[0-9A-F]{4,5}|10[0-9A-F]{4})")


def table_path(path: str | os.PathLike[str] | None = None) -> Path:
    """The table to read (see the module's docstring)."""
    if path is not None:
        return Path(path)
    if os.environ.get("SRK_SPEC_DIR"):
        return Path(os.environ["SRK_SPEC_DIR"]) / "unicode" / TABLE_FILE
    return Path(__file__).resolve().parents[3] / "spec" / "unicode" / TABLE_FILE


def _cp(text: Any, where: str) -> int:
    if not isinstance(text, str) or _HEX.fullmatch(text) is None:
        raise ValueError(f"{where}: {text!r} is not a code point in uppercase hex of 4 to 6 digits")
    return int(text, 16)


def _seq(text: Any, where: str) -> list[int]:
    if not isinstance(text, str) or text == "":
        raise ValueError(f"{where}: not a sequence of code points")
    return [_cp(h, f"{where}[{i}]") for i, h in enumerate(text.split(" "))]


def _ranges(value: Any, where: str) -> list[tuple[int, int]]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: not an array of ranges")
    out = []
    for i, r in enumerate(value):
        parts = r.split("..") if isinstance(r, str) else []
        if not 1 <= len(parts) <= 2:
            raise ValueError(f"{where}[{i}]: {r!r} is not a range 'first..last'")
        a = _cp(parts[0], f"{where}[{i}]")
        b = _cp(parts[-1], f"{where}[{i}]")
        if b < a:
            raise ValueError(f"{where}[{i}]: range {r} ends before it starts")
        out.append((a, b))
    return out


def _runs(cps: list[int]) -> list[tuple[int, int]]:
    """Sorted code points as ranges."""
    out: list[tuple[int, int]] = []
    for c in cps:
        if out and out[-1][1] + 1 == c:
            out[-1] = (out[-1][0], c)
        else:
            out.append((c, c))
    return out


def _class_of(ranges: list[tuple[int, int]]) -> str:
    """A regular expression class of exactly these ranges."""
    return "[" + "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges) + "]"


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{where}: not an object")
    return value


class Tokeniser:
    """The tokeniser of one parsed table; a malformed table raises ``ValueError`` naming the member."""

    def __init__(self, table: Any, where: str = "tokeniser table") -> None:
        table = _object(table, where)
        flags = bytearray(_SIZE)
        sigma = _object(table.get("finalSigma"), f"{where}.finalSigma")
        for member, values, flag in (
            ("finalSigma.cased", sigma.get("cased"), _CASED),
            ("finalSigma.caseIgnorable", sigma.get("caseIgnorable"), _IGNORABLE),
        ):
            for a, b in _ranges(values, f"{where}.{member}"):
                for c in range(a, b + 1):
                    flags[c] |= flag
        self._flags = bytes(flags)
        # Step 5 as a regular expression whose class is the table's ranges: Python's re matches code
        # points against the listed ranges only, with no Unicode data of its own involved.
        self._token_run = re.compile(_class_of(_ranges(table.get("tokenCharacters"), f"{where}.tokenCharacters")) + "+")
        self._capital = _cp(sigma.get("capital"), f"{where}.finalSigma.capital")
        self._final = chr(_cp(sigma.get("final"), f"{where}.finalSigma.final"))

        rank = bytearray(_SIZE)
        groups = table.get("combiningClassRanks")
        if not isinstance(groups, list):
            raise ValueError(f"{where}.combiningClassRanks: not an array")
        for i, group in enumerate(groups):
            for a, b in _ranges(group, f"{where}.combiningClassRanks[{i}]"):
                rank[a : b + 1] = bytes([i + 1]) * (b + 1 - a)
        self._rank = bytes(rank)

        self._decompositions = {
            _cp(k, f"{where}.decompositions key"): _seq(v, f"{where}.decompositions.{k}")
            for k, v in _object(table.get("decompositions"), f"{where}.decompositions").items()
        }
        self._lowercase = {
            _cp(k, f"{where}.lowercase key"): "".join(map(chr, _seq(v, f"{where}.lowercase.{k}")))
            for k, v in _object(table.get("lowercase"), f"{where}.lowercase").items()
        }
        self._compositions: dict[tuple[int, int], int] = {}
        for pair, c in _object(table.get("compositions"), f"{where}.compositions").items():
            ab = _seq(pair, f"{where}.compositions key")
            if len(ab) != 2:
                raise ValueError(f"{where}.compositions: key {pair!r} is not two code points")
            self._compositions[(ab[0], ab[1])] = _cp(c, f"{where}.compositions.{pair}")

        h = _object(table.get("hangul"), f"{where}.hangul")
        self._s_base, self._l_base, self._v_base, self._t_base = (_cp(h.get(k), f"{where}.hangul.{k}") for k in ("SBase", "LBase", "VBase", "TBase"))
        counts = []
        for k in ("LCount", "VCount", "TCount"):
            n = h.get(k)
            if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
                raise ValueError(f"{where}.hangul.{k}: not a positive integer")
            counts.append(n)
        self._l_count, self._v_count, self._t_count = counts
        self._n_count = self._v_count * self._t_count
        self._s_count = self._l_count * self._n_count

        # Step 4 without the sigma, for str.translate.
        self._translate = dict(self._lowercase)
        self._sigma = chr(self._capital)

        # A shortcut, exact by construction (like Unicode's NFKC_Quick_Check, but for whole strings):
        # a code point with no decomposition, rank 0 and no part in any composition (first or second
        # code point of a pair, or Hangul) is left alone by steps 1 to 3 whatever its neighbours, so a
        # string without any other code point is its own NFKC.
        busy = set(self._decompositions)
        for pair in self._compositions:
            busy.update(pair)
        for first, n in ((self._s_base, self._s_count), (self._l_base, self._l_count), (self._v_base, self._v_count), (self._t_base + 1, self._t_count - 1)):
            busy.update(range(first, first + n))
        busy.update(c for c in range(_SIZE) if rank[c])
        self._busy = re.compile(_class_of(_runs(sorted(busy))))

    # Step 1.
    def _decompose(self, text: str) -> list[int]:
        out: list[int] = []
        s_base, s_count, n_count, t_count = self._s_base, self._s_count, self._n_count, self._t_count
        decompositions = self._decompositions
        for ch in text:
            cp = ord(ch)
            if s_base <= cp < s_base + s_count:
                i = cp - s_base
                out.append(self._l_base + i // n_count)
                out.append(self._v_base + (i % n_count) // t_count)
                if i % t_count:
                    out.append(self._t_base + i % t_count)
            else:
                d = decompositions.get(cp)
                if d is None:
                    out.append(cp)
                else:
                    out.extend(d)
        return out

    # Step 2: a stable insertion sort of each run of non-starters.
    def _reorder(self, cps: list[int]) -> list[int]:
        rank = self._rank
        for i in range(1, len(cps)):
            c = cps[i]
            k = rank[c]
            if k == 0:
                continue
            j = i
            while j > 0 and rank[cps[j - 1]] > k:
                cps[j] = cps[j - 1]
                j -= 1
            cps[j] = c
        return cps

    def _compose_pair(self, a: int, b: int) -> int | None:
        c = self._compositions.get((a, b))
        if c is not None:
            return c
        if self._l_base <= a < self._l_base + self._l_count and self._v_base <= b < self._v_base + self._v_count:
            return self._s_base + ((a - self._l_base) * self._v_count + (b - self._v_base)) * self._t_count
        if self._s_base <= a < self._s_base + self._s_count and (a - self._s_base) % self._t_count == 0 and self._t_base < b < self._t_base + self._t_count:
            return a + (b - self._t_base)
        return None

    # Step 3.
    def _compose(self, cps: list[int]) -> list[int]:
        rank = self._rank
        out: list[int] = []
        starter = -1
        last_rank = -1
        for c in cps:
            k = rank[c]
            if starter >= 0 and (last_rank == 0 or last_rank < k):
                composite = self._compose_pair(out[starter], c)
                if composite is not None:
                    out[starter] = composite
                    continue
            if k == 0:
                starter = len(out)
            last_rank = k
            out.append(c)
        return out

    def _final_sigma_at(self, cps: list[int], i: int) -> bool:
        flags = self._flags
        j = i - 1
        while j >= 0 and flags[cps[j]] & _IGNORABLE:
            j -= 1
        if j < 0 or not flags[cps[j]] & _CASED:
            return False
        k = i + 1
        while k < len(cps) and flags[cps[k]] & _IGNORABLE:
            k += 1
        return k == len(cps) or not flags[cps[k]] & _CASED

    # Step 4.
    def _lower(self, text: str) -> str:
        if self._sigma not in text:
            return text.translate(self._translate)
        cps = [ord(ch) for ch in text]
        lowercase = self._lowercase
        parts = []
        for i, cp in enumerate(cps):
            if cp == self._capital and self._final_sigma_at(cps, i):
                parts.append(self._final)
            else:
                parts.append(lowercase.get(cp) or chr(cp))
        return "".join(parts)

    def nfkc(self, text: str) -> str:
        """NFKC under Unicode 17.0 (the table's steps 1 to 3)."""
        return "".join(map(chr, self._compose(self._reorder(self._decompose(text)))))

    def normalise(self, text: str) -> str:
        """NFKC, then default lower-casing with the final-sigma condition (steps 1 to 4)."""
        return self._lower(self.nfkc(text) if self._busy.search(text) else text)

    def tokens(self, text: str) -> list[str]:
        """The D-010 tokens (steps 1 to 5): the maximal runs of token characters."""
        return self._token_run.findall(self.normalise(text))


def load_tokeniser(path: str | os.PathLike[str] | None = None) -> Tokeniser:
    """Reads the table (see ``table_path``) and returns its tokeniser."""
    file = table_path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        raise FileNotFoundError(f"the tokeniser table was not found at {file} (pass its path, or set SRK_SPEC_DIR to the kit's spec folder): {e}") from e
    return Tokeniser(json.loads(text), str(file))


def every_code_point_digest(tokeniser: Tokeniser) -> dict[str, Any]:
    """The vectors' everyCodePoint digest: per scalar value its hex, a tab before each token, a line feed; SHA-256 of the UTF-8."""
    digest = hashlib.sha256()
    count = 0
    lines: list[str] = []
    for cp in range(_SIZE):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        lines.append("%04X%s\n" % (cp, "".join("\t" + t for t in tokeniser.tokens(chr(cp)))))
        count += 1
        if len(lines) >= 4096:
            digest.update("".join(lines).encode("utf-8"))
            lines = []
    digest.update("".join(lines).encode("utf-8"))
    return {"codePoints": count, "sha256": digest.hexdigest()}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("tokens", "digest") or len(argv) > 2:
        sys.stderr.write("usage: python3 -m srk_adapter.tokeniser tokens|digest [table.json]  (tokens: a JSON array of strings on stdin)\n")
        return 64
    tokeniser = load_tokeniser(argv[1] if len(argv) == 2 else None)
    if argv[0] == "digest":
        sys.stdout.write(json.dumps(every_code_point_digest(tokeniser)) + "\n")
        return 0
    strings = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    if not isinstance(strings, list) or not all(isinstance(s, str) for s in strings):
        raise ValueError("stdin: expected a JSON array of strings")
    sys.stdout.write(json.dumps([tokeniser.tokens(s) for s in strings]) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
