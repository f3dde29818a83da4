"""The validation rules JSON Schema cannot express (spec/json-schema/rules.json).

A rule applies wherever the definition carrying its id in ``x-rules`` is reached, once the value has
passed that definition's schema (the notes of rules.json say how). The one kind defined, ``unique``:
within the array at member ``array``, no two elements may have equal values of all the members in
``unique_by`` (compared as JSON values); the first element that repeats an earlier one is reported
at ``path``, with ``<i>`` its index. Any other kind is refused when the file is loaded, so a rule
is never skipped in silence.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KINDS = frozenset({"unique"})


@dataclass(frozen=True)
class Rule:
    id: str
    kind: str
    array: str
    unique_by: tuple[str, ...]
    path: str
    statement: str


def load_rules(file: str | Path) -> dict[str, Rule]:
    """Every rule of a rules.json, by id; a rule of an unknown kind is a ``ValueError`` naming it."""
    with open(file, encoding="utf-8") as f:
        data = json.load(f)
    rules: dict[str, Rule] = {}
    for raw in data["rules"]:
        if raw.get("kind") not in KINDS:
            raise ValueError(f"{file}: rule {raw.get('id')!r} is of kind {raw.get('kind')!r}, which this adapter does not apply")
        rules[raw["id"]] = Rule(raw["id"], raw["kind"], raw["array"], tuple(raw["unique_by"]), raw["path"], raw["statement"])
    return rules


def _key(element: Any, members: tuple[str, ...]) -> str:
    """A text equal for two elements iff their ``members`` are equal JSON values (the schema passed, so
    every number is integral or finite and no two spellings of one value reach here)."""
    return json.dumps([element.get(m) for m in members], sort_keys=True, ensure_ascii=False)


def rule_issue(rule: Rule, value: Any, at: tuple[Any, ...] = ()) -> tuple[tuple[Any, ...], str, str] | None:
    """(path, rule id, message) of the first violation of ``rule`` by ``value``, or None."""
    items = value.get(rule.array) if isinstance(value, dict) else None
    if not isinstance(items, list):
        return None
    seen: set[str] = set()
    for n, element in enumerate(items):
        if not isinstance(element, dict):
            continue
        key = _key(element, rule.unique_by)
        if key in seen:
            path = tuple(n if part == "<i>" else part for part in rule.path.split("."))
            return at + path, rule.id, rule.statement
        seen.add(key)
    return None
