"""The JSON Schema subset of spec/json-schema: each keyword where it holds and where it breaks, then the spec's own data."""

import math
import unittest

from srk_adapter.schema import Document, Schemas, SchemaError, json_equal
from srk_adapter.strict_json import parse
from tests.kit import SCHEMA_DIR, golden_lines, read_json


def doc(schema, defs=None):
    root = dict(schema)
    if defs:
        root["$defs"] = defs
    return Document("test.schema.json", root, {})


def issue(schema, value, defs=None):
    d = doc(schema, defs)
    return d.check(value, d.root)


class Types(unittest.TestCase):
    def test_integer_is_an_integral_number_never_a_boolean(self):
        s = {"type": "integer"}
        for v in [0, -3, 2**60, 1.0, parse("1e2")]:
            self.assertIsNone(issue(s, v), v)
        for v in [1.5, True, False, "1", None, math.inf]:
            self.assertEqual(issue(s, v).rule, "type", v)

    def test_number_is_finite(self):
        s = {"type": "number"}
        for v in [0, 1.5, -2.25e-300]:
            self.assertIsNone(issue(s, v))
        for v in [math.inf, -math.inf, True, "1"]:
            self.assertEqual(issue(s, v).rule, "type", v)

    def test_the_other_types(self):
        for t, good, bad in [("string", "x", 1), ("boolean", False, 0), ("null", None, 0), ("array", [], {}), ("object", {}, [])]:
            self.assertIsNone(issue({"type": t}, good), t)
            self.assertEqual(issue({"type": t}, bad).rule, "type", t)

    def test_a_list_of_types(self):
        s = {"type": ["string", "null"]}
        self.assertIsNone(issue(s, None))
        self.assertIsNone(issue(s, "x"))
        self.assertEqual(issue(s, 1).rule, "type")


class Values(unittest.TestCase):
    def test_const_compares_json_values(self):
        self.assertIsNone(issue({"const": 1}, 1))
        self.assertIsNone(issue({"const": 1}, 1.0))
        self.assertEqual(issue({"const": 1}, True).rule, "const")
        self.assertEqual(issue({"const": True}, 1).rule, "const")
        self.assertEqual(issue({"const": "a"}, "A").rule, "const")

    def test_enum(self):
        s = {"enum": ["before_commit", "after_commit"]}
        self.assertIsNone(issue(s, "after_commit"))
        self.assertEqual(issue(s, "during_commit").rule, "enum")
        self.assertEqual(issue({"enum": [0]}, False).rule, "enum")

    def test_json_equal_on_structures(self):
        self.assertTrue(json_equal({"a": [1, {"b": None}]}, {"a": [1.0, {"b": None}]}))
        self.assertFalse(json_equal({"a": [1]}, {"a": [True]}))
        self.assertFalse(json_equal({"a": 1}, {"a": 1, "b": 2}))
        self.assertFalse(json_equal([1, 2], [2, 1]))


class Strings(unittest.TestCase):
    def test_lengths_count_code_points(self):
        s = {"type": "string", "minLength": 1, "maxLength": 3}
        self.assertIsNone(issue(s, "\U0001f680\U0001f680\U0001f680"))  # 3 code points, 6 UTF-16 units
        self.assertEqual(issue(s, "abcd").rule, "maxLength")
        self.assertEqual(issue(s, "").rule, "minLength")
        self.assertIsNone(issue(s, "a"))

    def test_pattern_is_searched_with_ecma_semantics(self):
        s = {"type": "string", "pattern": "^t-[0-9]$"}
        self.assertIsNone(issue(s, "t-1"))
        self.assertEqual(issue(s, "t-1\n").rule, "pattern")
        self.assertIsNone(issue({"pattern": "b"}, "abc"))  # not anchored unless the pattern is
        self.assertIsNone(issue({"pattern": "^a"}, 5))  # a string keyword ignores other types


class Numbers(unittest.TestCase):
    def test_minimum_and_maximum_are_inclusive(self):
        s = {"type": "integer", "minimum": 0, "maximum": 9007199254740991}
        self.assertIsNone(issue(s, 0))
        self.assertIsNone(issue(s, 9007199254740991))
        self.assertEqual(issue(s, -1).rule, "minimum")
        self.assertEqual(issue(s, 9007199254740992).rule, "maximum")
        self.assertEqual(issue(s, parse("9007199254740993")).rule, "maximum")  # 2^53 once read (W-1.8)
        self.assertIsNone(issue(s, parse("9007199254740991.4")))


class Arrays(unittest.TestCase):
    def test_item_counts_and_items(self):
        s = {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string"}}
        self.assertIsNone(issue(s, ["a", "b"]))
        self.assertEqual(issue(s, []).rule, "minItems")
        self.assertEqual(issue(s, ["a", "b", "c"]).rule, "maxItems")
        i = issue(s, ["a", 2])
        self.assertEqual((i.rule, i.path), ("type", (1,)))


class Objects(unittest.TestCase):
    S = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"], "additionalProperties": False}

    def test_required_and_properties_in_the_schemas_order(self):
        self.assertIsNone(issue(self.S, {"a": "x"}))
        self.assertIsNone(issue(self.S, {"a": "x", "b": 2}))
        self.assertEqual(issue(self.S, {"b": 2}).path, ("a",))
        self.assertEqual(issue(self.S, {"b": 2}).rule, "required")
        i = issue(self.S, {"b": "no", "a": 1})
        self.assertEqual((i.rule, i.path), ("type", ("a",)))

    def test_additional_properties_false(self):
        i = issue(self.S, {"a": "x", "backdoor": True})
        self.assertEqual((i.rule, i.path), ("additionalProperties", ("backdoor",)))

    def test_additional_properties_schema_and_property_names(self):
        s = {"type": "object", "propertyNames": {"type": "string", "maxLength": 2}, "additionalProperties": {"type": "integer"}}
        self.assertIsNone(issue(s, {"ab": 1}))
        self.assertEqual(issue(s, {"abc": 1}).rule, "propertyNames")
        self.assertEqual(issue(s, {"ab": "1"}).path, ("ab",))

    def test_no_additional_properties_keyword_allows_any_member(self):
        self.assertIsNone(issue({"type": "object", "properties": {"a": {}}}, {"z": 1}))


class Unions(unittest.TestCase):
    DEFS = {
        "A": {"type": "object", "properties": {"op": {"const": "a"}, "n": {"type": "integer"}}, "required": ["op", "n"], "additionalProperties": False},
        "B": {"type": "object", "properties": {"op": {"const": "b"}, "s": {"type": "string"}}, "required": ["op", "s"], "additionalProperties": False},
    }

    def test_any_of(self):
        s = {"anyOf": [{"type": "string", "pattern": "^x$"}, {"type": "null"}]}
        self.assertIsNone(issue(s, None))
        self.assertIsNone(issue(s, "x"))
        self.assertEqual(issue(s, "y").rule, "pattern")  # the branch of the right type is the one reported

    def test_one_of_needs_exactly_one(self):
        s = {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]}
        self.assertIsNone(issue(s, -1))
        self.assertIsNone(issue(s, 0.5))
        self.assertEqual(issue(s, 1).rule, "oneOf")  # both match
        self.assertEqual(issue(s, "1").rule, "type")

    def test_a_discriminated_one_of_reports_inside_the_named_branch(self):
        s = {"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}
        self.assertIsNone(issue(s, {"op": "a", "n": 1}, self.DEFS))
        self.assertIsNone(issue(s, {"op": "b", "s": "x"}, self.DEFS))
        i = issue(s, {"op": "a", "n": "1"}, self.DEFS)
        self.assertEqual((i.rule, i.path), ("type", ("n",)))
        i = issue(s, {"op": "c"}, self.DEFS)
        self.assertEqual((i.rule, i.path), ("oneOf", ("op",)))
        i = issue(s, {"n": 1}, self.DEFS)
        self.assertEqual((i.rule, i.path), ("required", ("op",)))
        self.assertEqual(issue(s, [1], self.DEFS).rule, "type")

    def test_ref_and_its_siblings_both_apply(self):
        s = {"$ref": "#/$defs/A", "description": "annotated"}
        self.assertIsNone(issue(s, {"op": "a", "n": 1}, self.DEFS))
        self.assertEqual(issue(s, {"op": "a"}, self.DEFS).rule, "required")


class Audit(unittest.TestCase):
    def test_a_keyword_outside_the_subset_is_refused_when_loaded(self):
        for schema in [{"type": "string", "format": "email"}, {"properties": {"a": {"exclusiveMinimum": 0}}}, {"anyOf": [{"if": {}}]}]:
            with self.subTest(schema=schema), self.assertRaises(SchemaError):
                doc(schema)

    def test_a_ref_outside_the_file_or_to_nothing_is_refused(self):
        for ref in ["Other.schema.json#/$defs/X", "#/$defs/Missing"]:
            with self.subTest(ref=ref), self.assertRaises(SchemaError):
                doc({"$ref": ref})

    def test_unknown_types_and_rules_are_refused(self):
        with self.assertRaises(SchemaError):
            doc({"type": "int"})
        with self.assertRaises(SchemaError):
            doc({"x-rules": ["No.such-rule"]})

    def test_a_missing_schema_file_is_named(self):
        with self.assertRaises(SchemaError) as e:
            Schemas(SCHEMA_DIR).check({}, "NoSuchThing")
        self.assertIn("NoSuchThing", str(e.exception))


class SpecData(unittest.TestCase):
    """The spec's own examples, independent of this validator: what they say is valid or invalid, it must find so."""

    schemas = Schemas(SCHEMA_DIR)

    def test_every_schema_file_loads_with_only_known_keywords(self):
        names = [p.name[: -len(".schema.json")] for p in SCHEMA_DIR.rglob("*.schema.json")]
        self.assertGreater(len(names), 60)
        for name in names:
            self.schemas.document(name)

    def test_every_invalid_example_is_refused_at_or_below_its_stated_path(self):
        examples = read_json(SCHEMA_DIR / "invalid-examples.json")
        count = 0
        for name, cases in examples.items():
            for case in cases:
                count += 1
                with self.subTest(schema=name, why=case["why"]):
                    got = self.schemas.check(case["value"], name)
                    self.assertIsNotNone(got, "accepted")
                    stated = [p for p in case["path"].split(".") if p != ""]
                    self.assertEqual([str(p) for p in got.path[: len(stated)]], stated, str(got))
        self.assertGreater(count, 50)

    def test_every_example_a_schema_gives_is_valid(self):
        count = 0
        for path in SCHEMA_DIR.rglob("*.schema.json"):
            d = self.schemas.document(path.name[: -len(".schema.json")])
            stack = [d.root]
            while stack:
                node = stack.pop()
                if isinstance(node, dict):
                    for example in node.get("examples", []):
                        count += 1
                        self.assertIsNone(d.check(example, node), f"{path.name}: {example}")
                    stack.extend(v for k, v in node.items() if k not in ("examples", "const", "enum"))
                elif isinstance(node, list):
                    stack.extend(node)
        self.assertGreater(count, 20)

    def test_the_golden_commands_are_well_formed_exactly_when_the_model_did_not_answer_malformed(self):
        # W-9 golden sessions: the reference model's replies. MALFORMED is OP-0.2 step 1, the schema.
        commands = 0
        for where, line in golden_lines():
            request, reply = line["request"], line["reply"]
            if request["type"] == "command":
                commands += 1
                malformed = not reply["ok"] and reply["error"]["code"] == "MALFORMED"
                got = self.schemas.check(request["command"], "Command")
                self.assertEqual(got is not None, malformed, f"{where}: {got}")
            elif request["type"] == "query":
                self.assertIsNone(self.schemas.check(request["query"], "Query"), where)
        self.assertGreater(commands, 500)

    def test_the_golden_replies_match_the_event_and_result_schemas(self):
        from srk_adapter.session import QUERY_RESULTS

        checked = 0
        for where, line in golden_lines():
            request, reply = line["request"], line["reply"]
            if not reply["ok"]:
                continue
            for event in reply.get("events", []):
                checked += 1
                self.assertIsNone(self.schemas.check(event, "Event"), where)
            if request["type"] == "query":
                file, definition, many = QUERY_RESULTS[request["query"]["name"]]
                for item in reply["result"] if many else [reply["result"]]:
                    checked += 1
                    self.assertIsNone(self.schemas.check(item, file, definition), where)
        self.assertGreater(checked, 500)


if __name__ == "__main__":
    unittest.main()
