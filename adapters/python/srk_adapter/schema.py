"""A validator for exactly the JSON Schema (2020-12) subset that spec/json-schema/ uses, plus its rules.

The kit's schemas use these keywords, and this module knows no others: ``type`` (a name or a list),
``const``, ``enum``, ``anyOf``, ``oneOf``, ``$ref`` (to ``#/$defs/…`` of the same file),
``minLength``/``maxLength`` (in code points, D-041), ``pattern`` (ECMA-262, see ``ecma_pattern``),
``minimum``/``maximum``, ``minItems``/``maxItems``, ``items``, ``properties``, ``required``,
``additionalProperties`` (``false`` or a schema), ``propertyNames``, and the annotations
``$schema``, ``$id``, ``$defs``, ``title``, ``description``, ``examples`` and ``x-rules``. A schema
holding any other keyword is refused when its file is loaded (``SchemaError``), so a newer spec
can never be validated half-way in silence.

``x-rules`` lists rules of spec/json-schema/rules.json that JSON Schema cannot express; each applies
wherever its definition is reached and is checked once the value passed the schema (``rules.py``).

Values are JSON as ``strict_json.parse`` returns them. Types are JSON's, not Python's: ``True`` is
a boolean, never the integer 1; ``integer`` is a number whose value is integral (``1.0`` is one,
D-043); ``number`` is a finite number (a literal beyond the binary64 range is none, as for the
kit's own validator).

``check`` returns the first ``Issue`` (its path, the keyword that failed, a message) or ``None``.
"First" follows the schema: properties in the schema's order, then the value's extra members.
A ``oneOf`` whose branches are objects told apart by one ``const`` member (``op`` of a command,
``name`` of a query, ``type`` of an event) is read as a discriminated union: the branch the value
names decides, and a value naming none fails at that member.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from .ecma_pattern import compile_pattern
from .rules import Rule, load_rules, rule_issue

KEYWORDS = frozenset({
    "type", "const", "enum", "anyOf", "oneOf", "$ref", "minLength", "maxLength", "pattern", "minimum", "maximum",
    "minItems", "maxItems", "items", "properties", "required", "additionalProperties", "propertyNames",
    "$schema", "$id", "$defs", "title", "description", "examples", "x-rules",
})
TYPES = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})

Path_ = tuple[Any, ...]


class SchemaError(ValueError):
    """A schema file this validator cannot read faithfully; the message names the file and the place."""


@dataclass(frozen=True)
class Issue:
    """Why a value fails a schema: where (a path of member names and indices), which keyword, and a message."""

    path: Path_
    rule: str
    message: str

    def at(self) -> str:
        return ".".join(str(p) for p in self.path) or "(the value itself)"

    def __str__(self) -> str:
        return f"{self.message} at {self.at()} ({self.rule})"


def json_type(value: Any) -> str:
    """The JSON type of a value, as the ``type`` keyword names it (an integral number is ``integer``)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if math.isfinite(value) and value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def _has_type(value: Any, name: str) -> bool:
    actual = json_type(value)
    if name == "number":
        return actual == "integer" or (actual == "number" and math.isfinite(value))
    return actual == name


def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values: numbers by value, booleans never equal to numbers, objects by members."""
    ta, tb = json_type(a), json_type(b)
    if {ta, tb} <= {"integer", "number"}:
        return a == b
    if ta != tb:
        return False
    if ta == "array":
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if ta == "object":
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return a == b


def _show(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Document:
    """One schema file: its ``$defs`` resolve the ``$ref`` inside it."""

    def __init__(self, name: str, root: dict[str, Any], rules: dict[str, Rule]) -> None:
        self.name = name
        self.root = root
        self.defs: dict[str, Any] = root.get("$defs", {})
        self._patterns: dict[str, Any] = {}
        self._discriminators: dict[int, tuple[str, list[tuple[Any, Any]]] | None] = {}
        self._rules = rules
        self._audit(root, "#")

    def _audit(self, node: Any, where: str) -> None:
        """Refuse what this validator does not know, and compile every pattern once."""
        if not isinstance(node, dict):
            raise SchemaError(f"{self.name} {where}: a schema must be an object, not {_show(node)}")
        unknown = sorted(set(node) - KEYWORDS)
        if unknown:
            raise SchemaError(f"{self.name} {where}: keyword {unknown[0]!r} is outside the subset this validator reads")
        types = node.get("type", [])
        for t in types if isinstance(types, list) else [types]:
            if t not in TYPES:
                raise SchemaError(f"{self.name} {where}: unknown type {t!r}")
        ref = node.get("$ref")
        if ref is not None and (not ref.startswith("#/$defs/") or ref[len("#/$defs/"):] not in self.defs):
            raise SchemaError(f"{self.name} {where}: $ref {ref!r} names no definition of this file")
        for rule_id in node.get("x-rules", []):
            if rule_id not in self._rules:
                raise SchemaError(f"{self.name} {where}: x-rules names {rule_id!r}, which rules.json does not define")
        if "pattern" in node:
            self._patterns[node["pattern"]] = compile_pattern(node["pattern"])
        for key in ("anyOf", "oneOf"):
            for n, sub in enumerate(node.get(key, [])):
                self._audit(sub, f"{where}/{key}/{n}")
        for key in ("items", "propertyNames"):
            if key in node:
                self._audit(node[key], f"{where}/{key}")
        if isinstance(node.get("additionalProperties"), dict):
            self._audit(node["additionalProperties"], f"{where}/additionalProperties")
        elif node.get("additionalProperties", False) not in (True, False):
            raise SchemaError(f"{self.name} {where}: additionalProperties must be a boolean or a schema")
        for key in ("properties", "$defs"):
            for name, sub in node.get(key, {}).items():
                self._audit(sub, f"{where}/{key}/{name}")

    def definition(self, name: str | None) -> dict[str, Any]:
        if name is None:
            return self.root
        if name not in self.defs:
            raise KeyError(f"{self.name} has no definition {name!r}; it has {', '.join(sorted(self.defs))}")
        return self.defs[name]

    # -- validation -----------------------------------------------------------------------------

    def check(self, value: Any, schema: dict[str, Any], path: Path_ = ()) -> Issue | None:
        ref = schema.get("$ref")
        if ref is not None:
            name = ref[len("#/$defs/"):]
            target = self.defs[name]
            issue = self.check(value, target, path)
            if issue is not None:
                return issue
        for check in (self._type, self._const, self._unions, self._string, self._number, self._array, self._object):
            issue = check(value, schema, path)
            if issue is not None:
                return issue
        for rule_id in schema.get("x-rules", []):
            issue = rule_issue(self._rules[rule_id], value, path)
            if issue is not None:
                return Issue(*issue)
        return None

    def _type(self, value: Any, schema: dict[str, Any], path: Path_) -> Issue | None:
        if "type" not in schema:
            return None
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if any(_has_type(value, n) for n in names):
            return None
        actual = json_type(value)
        if actual == "number" and not math.isfinite(value):
            actual = "a number beyond the binary64 range"
        return Issue(path, "type", f"expected {' or '.join(names)}, got {actual} {_show(value)}")

    def _const(self, value: Any, schema: dict[str, Any], path: Path_) -> Issue | None:
        if "const" in schema and not json_equal(value, schema["const"]):
            return Issue(path, "const", f"expected {_show(schema['const'])}, got {_show(value)}")
        if "enum" in schema and not any(json_equal(value, e) for e in schema["enum"]):
            return Issue(path, "enum", f"expected one of {', '.join(_show(e) for e in schema['enum'])}; got {_show(value)}")
        return None

    def _unions(self, value: Any, schema: dict[str, Any], path: Path_) -> Issue | None:
        if "anyOf" in schema:
            issues = []
            for branch in schema["anyOf"]:
                issue = self.check(value, branch, path)
                if issue is None:
                    return None
                issues.append(issue)
            return _deepest(issues)
        if "oneOf" in schema:
            return self._one_of(value, schema["oneOf"], path)
        return None

    def _one_of(self, value: Any, branches: Sequence[dict[str, Any]], path: Path_) -> Issue | None:
        tagged = self._discriminator(branches)
        if tagged is not None and isinstance(value, dict):
            member, by_value = tagged
            tag = value.get(member)
            branch = next((b for k, b in by_value if json_equal(k, tag)), None) if member in value else None
            if branch is None:
                if member not in value:
                    return Issue(path + (member,), "required", f"missing member {member!r}, which says which of {len(branches)} kinds this is")
                return Issue(path + (member,), "oneOf", f"{_show(tag)} is none of the {len(branches)} {member}s the schema defines")
            return self.check(value, branch, path)
        passed, issues = 0, []
        for branch in branches:
            issue = self.check(value, branch, path)
            if issue is None:
                passed += 1
            else:
                issues.append(issue)
        if passed == 1:
            return None
        if passed > 1:
            return Issue(path, "oneOf", f"matches {passed} of the schemas of a oneOf, which needs exactly one")
        return _deepest(issues)

    def _discriminator(self, branches: Sequence[dict[str, Any]]) -> tuple[str, list[tuple[Any, Any]]] | None:
        """The member whose ``const`` tells every branch apart, with the branch of each value; else None."""
        key = id(branches)
        if key in self._discriminators:
            return self._discriminators[key]
        found = None
        objects = []
        for b in branches:
            target = self.defs[b["$ref"][len("#/$defs/"):]] if set(b) == {"$ref"} else b
            if target.get("type") != "object":
                break
            objects.append((b, target))
        else:
            first = objects[0][1].get("properties", {}) if objects else {}
            for member in first:
                consts = [t.get("properties", {}).get(member, {}) for _, t in objects]
                if all("const" in c and member in t.get("required", []) for c, (_, t) in zip(consts, objects)):
                    values = [c["const"] for c in consts]
                    if not any(json_equal(v, w) for n, v in enumerate(values) for w in values[n + 1 :]):
                        found = (member, [(v, b) for v, (b, _) in zip(values, objects)])
                        break
        self._discriminators[key] = found
        return found

    def _string(self, value: Any, schema: dict[str, Any], path: Path_) -> Issue | None:
        if not isinstance(value, str):
            return None
        n = len(value)  # code points (D-041)
        if "minLength" in schema and n < schema["minLength"]:
            return Issue(path, "minLength", f"expected at least {schema['minLength']} characters, got {n}")
        if "maxLength" in schema and n > schema["maxLength"]:
            return Issue(path, "maxLength", f"expected at most {schema['maxLength']} characters, got {n}")
        if "pattern" in schema and not self._patterns[schema["pattern"]].search(value):
            return Issue(path, "pattern", f"{_show(value)} does not match the pattern {schema['pattern']}")
        return None

    def _number(self, value: Any, schema: dict[str, Any], path: Path_) -> Issue | None:
        if json_type(value) not in ("integer", "number"):
            return None
        if "minimum" in schema and value < schema["minimum"]:
            return Issue(path, "minimum", f"expected at least {schema['minimum']}, got {_show(value)}")
        if "maximum" in schema and value > schema["maximum"]:
            return Issue(path, "maximum", f"expected at most {schema['maximum']}, got {_show(value)}")
        return None

    def _array(self, value: Any, schema: dict[str, Any], path: Path_) -> Issue | None:
        if not isinstance(value, list):
            return None
        if "minItems" in schema and len(value) < schema["minItems"]:
            return Issue(path, "minItems", f"expected at least {schema['minItems']} items, got {len(value)}")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            return Issue(path, "maxItems", f"expected at most {schema['maxItems']} items, got {len(value)}")
        if "items" in schema:
            for n, item in enumerate(value):
                issue = self.check(item, schema["items"], path + (n,))
                if issue is not None:
                    return issue
        return None

    def _object(self, value: Any, schema: dict[str, Any], path: Path_) -> Issue | None:
        if not isinstance(value, dict):
            return None
        properties = schema.get("properties", {})
        required = schema.get("required", [])
        for name in required:
            if name not in value and name not in properties:
                return Issue(path + (name,), "required", f"missing member {name!r}")
        for name, sub in properties.items():
            if name in value:
                issue = self.check(value[name], sub, path + (name,))
                if issue is not None:
                    return issue
            elif name in required:
                return Issue(path + (name,), "required", f"missing member {name!r}")
        extra = schema.get("additionalProperties", True)
        names = schema.get("propertyNames")
        for name, member in value.items():
            if name in properties:
                continue
            if names is not None:
                issue = self.check(name, names, path + (name,))
                if issue is not None:
                    return Issue(issue.path, "propertyNames", f"member name {issue.message}")
            if extra is False:
                return Issue(path + (name,), "additionalProperties", f"unexpected member {_show(name)}; the members are {', '.join(properties) or 'none'}")
            if isinstance(extra, dict):
                issue = self.check(member, extra, path + (name,))
                if issue is not None:
                    return issue
        return None


def _deepest(issues: list[Issue]) -> Issue:
    """Of the issues of a union's branches, the one that got furthest: the longest path, and at equal
    length one that is not a mere type or const mismatch (that branch was about the right kind of value)."""
    return max(issues, key=lambda i: (len(i.path), i.rule not in ("type", "const")))


class Schemas:
    """The schema files of a spec/json-schema directory, loaded on first use.

    ``check(value, "Command")`` validates against the root of ``Command.schema.json`` (or
    ``wire/Command.schema.json``); ``check(value, "WorldView", "AgentView")`` against one of its definitions.
    """

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        rules_file = self.directory / "rules.json"
        self.rules: dict[str, Rule] = load_rules(rules_file) if rules_file.exists() else {}
        self._documents: dict[str, Document] = {}

    def document(self, name: str) -> Document:
        if name not in self._documents:
            for candidate in (self.directory / f"{name}.schema.json", self.directory / "wire" / f"{name}.schema.json"):
                if candidate.exists():
                    with candidate.open(encoding="utf-8") as f:
                        self._documents[name] = Document(candidate.name, json.load(f), self.rules)
                    break
            else:
                raise SchemaError(f"no schema {name!r}: neither {name}.schema.json nor wire/{name}.schema.json is in {self.directory}")
        return self._documents[name]

    def check(self, value: Any, name: str, definition: str | None = None) -> Issue | None:
        document = self.document(name)
        return document.check(value, document.definition(definition))

    def checker(self, name: str, definition: str | None = None) -> Callable[[Any], Issue | None]:
        """A function validating against one schema, with its file loaded now (so a bad file fails at start)."""
        document = self.document(name)
        schema = document.definition(definition)
        return lambda value: document.check(value, schema)
