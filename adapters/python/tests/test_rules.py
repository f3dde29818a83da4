"""spec/json-schema/rules.json: the rules JSON Schema cannot express, applied where their definition is reached."""

import copy
import json
import tempfile
import unittest
from pathlib import Path

from srk_adapter.rules import load_rules, rule_issue
from srk_adapter.schema import Schemas
from tests.kit import SCHEMA_DIR, golden_lines, read_json

RULES = read_json(SCHEMA_DIR / "rules.json")["rules"]


class EachRule(unittest.TestCase):
    schemas = Schemas(SCHEMA_DIR)

    def test_the_rules_file_is_read(self):
        self.assertEqual(set(load_rules(SCHEMA_DIR / "rules.json")), {r["id"] for r in RULES})
        self.assertGreaterEqual(len(RULES), 5)

    def test_each_rules_invalid_example_breaks_it_at_its_path(self):
        for rule in RULES:
            with self.subTest(rule=rule["id"]):
                got = self.schemas.check(rule["invalid"]["value"], rule["schema"])
                self.assertIsNotNone(got)
                self.assertEqual(got.rule, rule["id"])
                self.assertEqual(".".join(map(str, got.path)), rule["invalid"]["path"])

    def test_each_rule_holds_once_the_repeated_element_differs(self):
        for rule in RULES:
            with self.subTest(rule=rule["id"]):
                value = copy.deepcopy(rule["invalid"]["value"])
                items = value[rule["array"]]
                index = next(int(p) for p in rule["invalid"]["path"].split(".") if p.isdigit())
                # Change one member the rule compares: the elements are no longer equal under it.
                member = rule["unique_by"][0]
                first = items[index][member]
                items[index][member] = next(v for v in self._alternatives(rule["schema"], rule["array"], member, first))
                got = self.schemas.check(value, rule["schema"])
                self.assertTrue(got is None or got.rule != rule["id"], str(got))

    def _alternatives(self, schema, array, member, current):
        # Another value the schema allows for the member: an enum's other value, or a changed id.
        d = self.schemas.document(schema)
        node = d.definition(None)
        while "$ref" in node:
            node = d.defs[node["$ref"].split("/")[-1]]
        item = node["properties"][array]["items"]
        while "$ref" in item:
            item = d.defs[item["$ref"].split("/")[-1]]
        prop = item["properties"][member]
        while "$ref" in prop:
            prop = d.defs[prop["$ref"].split("/")[-1]]
        for option in prop.get("enum", []):
            if option != current:
                yield option
        yield current + "-other"

    def test_a_rule_applies_where_its_definition_is_reached_through_a_ref(self):
        # janma.conceive carries a ConsentGrant; a duplicate cell in it makes the command MALFORMED.
        conceive = next(l["request"]["command"] for _, l in golden_lines()
                        if l["request"]["type"] == "command" and l["request"]["command"]["op"] == "janma.conceive" and l["reply"]["ok"])
        self.assertIsNone(self.schemas.check(conceive, "Command"))
        broken = copy.deepcopy(conceive)
        path = _find(broken, "cells")
        self.assertIsNotNone(path, "no consent grant with cells in a golden janma.conceive")
        holder = broken
        for p in path:
            holder = holder[p]
        holder["cells"].append(copy.deepcopy(holder["cells"][0]))
        got = self.schemas.check(broken, "Command")
        self.assertEqual(got.rule, "ConsentGrant.unique-cells")
        self.assertEqual(list(got.path), [*path, "cells", len(holder["cells"]) - 1])

    def test_equal_means_equal_json_values(self):
        rule = load_rules(SCHEMA_DIR / "rules.json")["SamskaraDistillate.unique-disposition-keys"]
        self.assertIsNone(rule_issue(rule, {"dispositions": [{"key": "a"}, {"key": "b"}]}))
        self.assertEqual(rule_issue(rule, {"dispositions": [{"key": "a"}, {"key": "b"}, {"key": "a"}]})[0], ("dispositions", 2, "key"))
        self.assertIsNone(rule_issue(rule, {"dispositions": [{"key": 1}, {"key": True}]}))

    def test_a_rule_of_an_unknown_kind_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            f = Path(d) / "rules.json"
            f.write_text(json.dumps({"rules": [{"id": "X.y", "kind": "sorted", "schema": "X"}]}))
            with self.assertRaises(ValueError) as e:
                load_rules(f)
            self.assertIn("sorted", str(e.exception))


def _find(value, key, path=()):
    """The path of the first object holding a non-empty list under ``key``."""
    if isinstance(value, dict):
        if isinstance(value.get(key), list) and value[key]:
            return list(path)
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for k, v in items:
        found = _find(v, key, path + (k,))
        if found is not None:
            return found
    return None


if __name__ == "__main__":
    unittest.main()
