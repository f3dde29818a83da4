"""Canonical JSON and the domain-separated digests of spec/ENCODING.md (ENC-1 … ENC-5, OP-0.7).

Every identity, version id and batch id of the protocols is one of these digests, so this module is
the first thing to get right: run it as a program and it checks itself against every vector of
``spec/vectors/digests.json`` (exit status 0 when all agree).

    python3 adapters/python/examples/encoding.py            # the kit's vectors
    python3 adapters/python/examples/encoding.py FILE.json  # another copy of them
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # adapters/python, where srk_adapter is

from srk_adapter.spec import find_spec_dir  # noqa: E402  (the kit's spec/, as the adapter finds it)

SAFE_INTEGER = 2**53 - 1  # ENC-1: integers in the IEEE-754 safe range only

# TAB-1 (spec/tables.json, domain_tags): the tag of each kind of hashed object, by the name
# OPERATIONS.md writes in digestOf(name, v). Read from the kit's table rather than copied, so a
# renamed tag cannot go unnoticed.
SPEC_DIR = find_spec_dir()
TAGS: dict[str, str] = {row["name"]: row["tag"] for row in json.loads((SPEC_DIR / "tables.json").read_text("utf-8"))["domain_tags"]}

# ENC-2: the short escapes RFC 8785 (ECMAScript JSON.stringify) writes; every other control
# character is \u00xx in lowercase hex, and every other character is written as itself.
_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _string(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch in _SHORT:
            out.append(_SHORT[ch])
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _utf16_key(name: str) -> bytes:
    # RFC 8785 sorts member names by UTF-16 code units; big-endian UTF-16 bytes compare the same way.
    return name.encode("utf-16-be", "surrogatepass")


def canonical(value: Any) -> str:
    """The canonical text of ENC-2 (RFC 8785 over the integer-only subset of ENC-1)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        if abs(value) > SAFE_INTEGER:
            raise ValueError(f"ENC-1: {value} is outside the safe integer range")
        return str(value)
    if isinstance(value, float):
        raise ValueError(f"ENC-1: the fraction {value!r} is not encodable (quantities are integer millionths)")
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, dict):
        names = sorted(value, key=_utf16_key)
        return "{" + ",".join(_string(k) + ":" + canonical(value[k]) for k in names) + "}"
    raise ValueError(f"ENC-1: a {type(value).__name__} is not a JSON value")


def _hex_digest(preimage: bytes) -> str:
    return "sha256:" + hashlib.sha256(preimage).hexdigest()  # ENC-3


def tagged(tag: str, value: Any) -> str:
    """ENC-4: H(tag, v) = SHA-256(UTF8(tag) ‖ 0x00 ‖ canonical bytes of v)."""
    return _hex_digest(tag.encode("utf-8") + b"\x00" + canonical(value).encode("utf-8"))


def digest_of(name: str, value: Any) -> str:
    """OP-0.7: digestOf(name, v), with the tag TAB-1 gives for ``name`` (``manifest``, ``genesis``…)."""
    if name == "identity":
        raise ValueError("the identity is not a JSON digest: use identity_of (ENC-5)")
    return tagged(TAGS[name], value)


def identity_of(base_digest: str, lineage_root: str) -> str:
    """ENC-5: SHA-256(UTF8("advaita/identity/v1") ‖ 0x00 ‖ UTF8(base_digest) ‖ 0x00 ‖ UTF8(lineage_root))."""
    return _hex_digest(TAGS["identity"].encode("utf-8") + b"\x00" + base_digest.encode("utf-8") + b"\x00" + lineage_root.encode("utf-8"))


def genesis_version_of(base_digest: str, root: str) -> str:
    """OP-1.4: the genesis version id, which is also the lineage root."""
    return digest_of("genesis", {"base_digest": base_digest, "root": root})


EMPTY_STATE_DIGEST = digest_of("storeState", {"entries": []})  # OP-1.3 of the empty store state


def check_vectors(path: Path) -> list[str]:
    """Every disagreement with the digest vectors, as one sentence each (empty when all agree)."""
    vectors = json.loads(path.read_text("utf-8"))
    problems = []
    for v in vectors["digests"]:
        text = canonical(v["value"])
        if text != v["canonical"]:
            problems.append(f"{v['name']}: canonical text {text!r}, expected {v['canonical']!r}")
        preimage = v["tag"].encode("utf-8") + b"\x00" + text.encode("utf-8")
        if preimage.hex() != v["preimage_hex"]:
            problems.append(f"{v['name']}: preimage differs")
        if tagged(v["tag"], v["value"]) != v["digest"]:
            problems.append(f"{v['name']}: digest {tagged(v['tag'], v['value'])}, expected {v['digest']}")
    for v in vectors["identities"]:
        got = identity_of(v["base_digest"], v["lineage_root"])
        if got != v["identity"]:
            problems.append(f"{v['name']}: identity {got}, expected {v['identity']}")
    return problems


if __name__ == "__main__":
    file = Path(sys.argv[1]) if len(sys.argv) > 1 else SPEC_DIR / "vectors" / "digests.json"
    found = check_vectors(file)
    for p in found:
        print(p, file=sys.stderr)
    data = json.loads(file.read_text("utf-8"))
    total = len(data["digests"]) + len(data["identities"])
    print(f"{len(found)} of {total} digest vectors disagree" if found else f"all {total} digest vectors agree")
    raise SystemExit(1 if found else 0)
