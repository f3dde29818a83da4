"""The pure rules step 2 (janma.py) decides with: no state, no I/O, one function per rule.

- the capability algebra of OP-2 (D-016): ``covers`` and ``grantable``;
- the tool resolution of birth (OP-2.2, review G-27): ``tool_offered``;
- the termination-predicate language (D-015): ``holds``;
- the consent grid (D-011, D-042, D-058): ``may_persist``;
- the leakage validator (D-010, D-045): ``Leakage``, on the kit's Unicode 17.0 tokeniser;
- the S-2 mechanics: the principal's signal (D-053, D-057), ``signal_refusal``, and the weights
  (D-012), ``weight_valid``.
"""

from __future__ import annotations

from typing import Any

# -- capabilities (OP-2, D-016) ---------------------------------------------------------------------


def covers(grant: str, capability: str) -> bool:
    """``grant = c``, or ``grant = p.*`` and ``c`` starts with ``p.``."""
    if grant.endswith(".*"):
        return capability.startswith(grant[:-1])  # grant[:-1] is "p."
    return grant == capability


def grantable(grant: str, offered: list[str]) -> bool:
    """Some offered ``h`` equals ``g``, or ``h = q.*`` and (``g = c`` covered by ``h``, or ``g = p.*``
    with ``p = q`` or ``p`` starting with ``q.``)."""
    for h in offered:
        if h == grant:
            return True
        if h.endswith(".*"):
            q = h[:-2]
            if grant.endswith(".*"):
                p = grant[:-2]
                if p == q or p.startswith(q + "."):
                    return True
            elif covers(h, grant):
                return True
    return False


def tool_offered(binding: dict[str, Any], offered: list[dict[str, Any]]) -> bool:
    """One offered entry of the binding's tool has all of the binding's capabilities; two entries of
    one name are not united (OP-2.2, review G-27)."""
    return any(o["tool"] == binding["tool"] and set(binding["capabilities"]) <= set(o["capabilities"]) for o in offered)


# -- termination predicates (D-015) -----------------------------------------------------------------


def holds(predicate: dict[str, Any], view: dict[str, Any], now: int) -> bool:
    """Whether a predicate holds of an instance's counters (its InstanceView) at tick ``now``."""
    op = predicate["op"]
    if op == "acts_at_least":
        return view["acts"] >= predicate["n"]
    if op == "failures_at_least":
        return view["failures"] >= predicate["n"]
    if op == "consecutive_failures_at_least":
        return view["consecutive_failures"] >= predicate["n"]
    if op == "ticks_since_birth_at_least":
        return now - view["born_tick"] >= predicate["n"]  # the boundary fires (OP-2.3)
    if op == "tool_used":
        return predicate["tool"] in view["tools_used"]  # which already includes this act's tool (review G-28)
    if op == "all":
        return all(holds(p, view, now) for p in predicate["of"])
    if op == "any":
        return any(holds(p, view, now) for p in predicate["of"])
    if op == "not":
        return not holds(predicate["of"], view, now)
    raise ValueError(f"unknown termination predicate {op!r}")  # the Command schema admits no other


# -- consent (D-011, D-042, D-058) -----------------------------------------------------------------

_SENSITIVITY = {"low": 0, "medium": 1, "high": 2}

# Persisting a disposition keeps it beyond its life and shapes every later life: both the
# ``storage`` and the ``training`` usage of its category (D-058; D-011 first read training alone).
PERSIST_DIMENSIONS = ("storage", "training")


def sensitivity_of(category: str, dimension: str, consent: dict[str, Any]) -> str:
    """The resolved sensitivity of (category, dimension): the exact cell, else the category's one
    default row, else ``low``."""
    cell = [c for c in consent["cells"] if c["category"] == category and c["dimension"] == dimension]
    if cell:
        return cell[0]["sensitivity"]  # at most one per pair (ConsentGrant.unique-cells)
    default = [d for d in consent["category_defaults"] if d["category"] == category]
    if default:
        return default[0]["sensitivity"]  # at most one per category (D-042)
    return "low"


def may_persist(category: str, consent: dict[str, Any]) -> bool:
    """A disposition of ``category`` may persist iff the resolved sensitivity of both (category,
    storage) and (category, training) is at or below the grant's ceiling (D-011, D-058)."""
    ceiling = _SENSITIVITY[consent["persist_ceiling"]]
    return all(_SENSITIVITY[sensitivity_of(category, dim, consent)] <= ceiling for dim in PERSIST_DIMENSIONS)


# -- S-2 (D-012, D-053, D-057) ----------------------------------------------------------------------


def signal_refusal(signal: dict[str, Any], dispositions: list[Any], satisfaction_model: str | None) -> tuple[str, list[str]] | None:
    """OP-2.7.c6, the signal is the principal's: computed under the manifest's
    ``distillation_policy.satisfaction_model`` (D-053; ``None`` for the reference formula, compared
    exactly), and a confidence of 0 only with valence 0 and no dispositions, the no-feedback
    distillate (D-057). The first failure in that order, as (message, path inside the distillate)."""
    if signal["model_version"] != satisfaction_model:
        return "the signal was not computed under the principal's declared satisfaction model (D-053)", ["signal", "model_version"]
    if signal["confidence"] == 0 and signal["valence"] != 0:
        return "a zero-confidence signal carries no valence (D-057)", ["signal", "valence"]
    if signal["confidence"] == 0 and dispositions:
        return "a zero-confidence signal backs no disposition (D-057)", ["dispositions"]
    return None


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def weight_valid(weight: int, valence: int) -> bool:
    """The weight has the valence's sign (0 only with valence 0) and no larger magnitude (D-012)."""
    return _sign(weight) == _sign(valence) and abs(weight) <= abs(valence)


# -- leakage (D-010, D-045) -------------------------------------------------------------------------

RUN = 4  # a guidance leaks iff 4 consecutive tokens of it occur consecutively in the trace


class Leakage:
    """The S-1 leakage validator. The tokeniser reads the kit's Unicode 17.0 table, loaded on first use
    (it takes a moment, and most processes the runner starts never distil)."""

    def __init__(self) -> None:
        self._tokeniser: Any = None

    def tokens(self, text: str) -> list[str]:
        if self._tokeniser is None:
            from srk_adapter.tokeniser import load_tokeniser

            self._tokeniser = load_tokeniser()
        return self._tokeniser.tokens(text)

    def runs(self, trace: list[str]) -> set[tuple[str, ...]]:
        """Every run of 4 tokens of the trace read as one token sequence, entry after entry, so a run
        may span entries (review G-51)."""
        sequence = [t for entry in trace for t in self.tokens(entry)]
        return {tuple(sequence[i : i + RUN]) for i in range(len(sequence) - RUN + 1)}

    def leaks(self, guidance: str, trace_runs: set[tuple[str, ...]]) -> bool:
        words = self.tokens(guidance)
        return any(tuple(words[i : i + RUN]) in trace_runs for i in range(len(words) - RUN + 1))
