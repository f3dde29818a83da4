"""The store algebra of step 3 (samskara.py): spec/OPERATIONS.md OP-1.1 … OP-1.9, as pure functions.

No state, no I/O: a distillate is the dict ``janma.distil`` accepted (the SamskaraDistillate), a
version is a StoreVersion, a state is a StoreState ``{"entries": [...]}``. Every digest comes from
encoding.py (OP-0.7), every list is in the order of TAB-5.

- ``distillate_digest`` (OP-1.1);
- ``aggregate`` (OP-1.2, D-002, D-007): the store state of a set of retained distillates;
- ``state_digest`` (OP-1.3); the genesis version (OP-1.4) is ``genesis_version``;
- ``merge_step`` (OP-1.6): one batch onto a head;
- ``derive`` (OP-1.7, OP-1.8): the chain, batches, state and momentum that merging a list of batches
  from genesis produces; replay is ``derive`` of the recorded batches, excision is ``derive`` of the
  recorded batches without the excised distillates (empty batches skipped);
- ``momentum`` (OP-1.9, D-023): weight-only karmic momentum between two states.
"""

from __future__ import annotations

from typing import Any, Iterable

from encoding import EMPTY_STATE_DIGEST, digest_of

Distillate = dict[str, Any]
Version = dict[str, Any]
State = dict[str, Any]

EMPTY_STATE: State = {"entries": []}


def distillate_digest(d: Distillate) -> str:
    """OP-1.1: ``digestOf(distillate, d)`` over the parsed distillate."""
    return digest_of("distillate", d)


def state_digest(state: State) -> str:
    """OP-1.3: ``digestOf(storeState, { entries })``."""
    return digest_of("storeState", {"entries": state["entries"]})


def genesis_version(genesis: str) -> Version:
    """OP-1.4: the genesis version, seq 0, whose id is the lineage root (ENC-7)."""
    return {"version_id": genesis, "seq": 0, "parent": None, "batch_digest": None, "state_digest": EMPTY_STATE_DIGEST}


# -- OP-1.2 aggregation ---------------------------------------------------------------------------


def round_half_even(numerator: int, denominator: int) -> int:
    """The integer nearest to numerator / denominator (denominator > 0), ties to the even one; exact."""
    q, r = divmod(numerator, denominator)  # floor division: numerator = q * denominator + r, 0 <= r < denominator
    if 2 * r > denominator or (2 * r == denominator and q % 2 == 1):
        return q + 1
    return q


def aggregate(retained: Iterable[Distillate]) -> State:
    """OP-1.2: one entry per disposition key of the retained set, sorted by key.

    weight = roundHalfEven(Σ w·c / Σ c) with c the distillate's signal confidence (never 0 here: OP-2.7
    accepts a zero confidence only in the no-feedback distillate, which has no disposition, D-057);
    the leader maximises |w|·c, then |w|, then c, then has the smallest distillate id (D-007), and
    gives the entry its guidance and category; contested iff some w > 0 and some w < 0. A function
    of the set only (AD-3): the input order never matters."""
    by_key: dict[str, list[tuple[Distillate, dict[str, Any]]]] = {}
    for d in retained:
        for disp in d["dispositions"]:  # one per key in a distillate (SamskaraDistillate.unique-disposition-keys)
            by_key.setdefault(disp["key"], []).append((d, disp))
    entries = []
    for key in sorted(by_key):
        contributors = by_key[key]
        total = sum(disp["weight"] * d["signal"]["confidence"] for d, disp in contributors)
        mass = sum(d["signal"]["confidence"] for d, _ in contributors)

        def rank(item: tuple[Distillate, dict[str, Any]]) -> tuple[int, int, int, str]:
            d, disp = item
            w, c = abs(disp["weight"]), d["signal"]["confidence"]
            return (-w * c, -w, -c, d["distillate_id"])

        _, leader = min(contributors, key=rank)
        weights = [disp["weight"] for _, disp in contributors]
        entries.append({
            "key": key,
            "guidance": leader["guidance"],
            "weight": round_half_even(total, mass),
            "category": leader["category"],
            "contested": any(w > 0 for w in weights) and any(w < 0 for w in weights),
            "contributors": sorted(d["distillate_id"] for d, _ in contributors),
        })
    return {"entries": entries}


# -- OP-1.9 karmic momentum -----------------------------------------------------------------------


def momentum(before: State, after: State) -> int:
    """Weight-only κ = Σ_k |w_after(k) − w_before(k)|, a key absent from a state counting 0 (D-023)."""
    w0 = {e["key"]: e["weight"] for e in before["entries"]}
    w1 = {e["key"]: e["weight"] for e in after["entries"]}
    return sum(abs(w1.get(k, 0) - w0.get(k, 0)) for k in w0.keys() | w1.keys())


# -- OP-1.6 merge step, OP-1.7 replay, OP-1.8 excision ----------------------------------------------


def merge_step(head: Version, retained: list[Distillate], new: list[Distillate]) -> tuple[Version, dict[str, Any], State]:
    """OP-1.6: merge the non-empty batch ``new`` onto ``head``, whose retained set is ``retained``.

    Returns the new version, the recorded MergeBatch (members sorted by digest) and the new state."""
    members = sorted(({"distillate_id": d["distillate_id"], "digest": distillate_digest(d)} for d in new), key=lambda m: m["digest"])
    batch_digest = digest_of("batch", {"distillates": sorted({m["digest"] for m in members})})
    state = aggregate([*retained, *new])
    sd = state_digest(state)
    version = {
        "version_id": digest_of("version", {"parent": head["version_id"], "batch": batch_digest, "state": sd}),
        "seq": head["seq"] + 1,
        "parent": head["version_id"],
        "batch_digest": batch_digest,
        "state_digest": sd,
    }
    return version, {"batch_digest": batch_digest, "members": members}, state


def derive(genesis: Version, batches: list[list[Distillate]]) -> dict[str, Any]:
    """The lineage that merging ``batches`` in order from ``genesis`` with R = ∅ produces (OP-1.7),
    skipping an empty batch (OP-1.8, D-009): ``chain``, ``batches``, ``state``, ``momentum``."""
    chain, records, momenta = [genesis], [], []
    state, retained = EMPTY_STATE, []
    for batch in batches:
        if not batch:
            continue
        version, record, after = merge_step(chain[-1], retained, batch)
        momenta.append(momentum(state, after))
        chain.append(version)
        records.append(record)
        retained = [*retained, *batch]
        state = after
    return {"chain": chain, "batches": records, "state": state, "momentum": momenta}
