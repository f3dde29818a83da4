"""W-1.8 and W-1.9: one RFC 8259 value that is also I-JSON in two respects, numbers by their binary64 value."""

import math
import unittest

from srk_adapter.strict_json import JsonDefect, number, parse


class Grammar(unittest.TestCase):
    def test_a_json_value_is_read(self):
        self.assertEqual(parse(' {"a":[1,"x",true,null,{}]} \t'), {"a": [1, "x", True, None, {}]})

    def test_what_is_not_json_is_refused(self):
        for text in ["nope", "{", "[1,]", "01", "1.", ".5", "+1", "'a'", '{"a" 1}', "1 2", '"\x01"', '"\\x"', '"\\u12"']:
            with self.subTest(text=text), self.assertRaises(JsonDefect) as e:
                parse(text)
            self.assertEqual(e.exception.rule, "syntax")

    def test_nan_and_infinity_are_not_json(self):
        for text in ["NaN", "Infinity", "-Infinity", '{"a":NaN}']:
            with self.subTest(text=text), self.assertRaises(JsonDefect) as e:
                parse(text)
            self.assertEqual(e.exception.rule, "not-json")

    def test_digits_other_than_ascii_are_not_numbers(self):
        with self.assertRaises(JsonDefect):
            parse("\u0661")  # ARABIC-INDIC DIGIT ONE

    def test_only_space_tab_cr_and_lf_are_whitespace(self):
        # W-1.9: a BOM, NBSP, U+2028 or U+3000 around a value is not JSON whitespace.
        self.assertEqual(parse(" \t\r1\r"), 1)
        for text in ["\ufeff{}", "\u00a0{}", "{}\u2028", "\u3000"]:
            with self.subTest(text=ascii(text)), self.assertRaises(JsonDefect):
                parse(text)

    def test_noncharacters_are_scalar_values_and_accepted(self):
        self.assertEqual(parse('"\\ufffe\ufdd0"'), "\ufffe\ufdd0")


class DuplicateNames(unittest.TestCase):
    def test_a_name_twice_in_one_object_is_refused(self):
        with self.assertRaises(JsonDefect) as e:
            parse('{"id":1,"id":2}')
        self.assertEqual(e.exception.rule, "duplicate-name")

    def test_names_are_compared_after_unescaping(self):
        with self.assertRaises(JsonDefect):
            parse('{"id":1,"\\u0069d":2}')

    def test_a_duplicate_in_a_nested_object_is_refused(self):
        with self.assertRaises(JsonDefect):
            parse('{"a":[{"b":1,"c":2,"b":3}]}')

    def test_the_same_name_in_different_objects_is_fine(self):
        self.assertEqual(parse('{"a":{"a":1},"b":{"a":2}}'), {"a": {"a": 1}, "b": {"a": 2}})

    def test_names_differing_by_case_are_different(self):
        self.assertEqual(parse('{"id":1,"ID":2}'), {"id": 1, "ID": 2})


class LoneSurrogates(unittest.TestCase):
    def test_an_escaped_pair_is_one_character(self):
        self.assertEqual(parse('"\\ud83d\\ude80"'), "\U0001f680")
        self.assertEqual(parse('{"\\uD83D\\uDE80":1}'), {"\U0001f680": 1})

    def test_a_lone_surrogate_anywhere_is_refused(self):
        cases = {
            "a high one alone": '"\\ud800"',
            "a low one alone": '"\\udc00"',
            "a high one before a non-surrogate escape": '"\\ud83d\\u0041"',
            "a high one before a plain character": '"\\ud83dx"',
            "a pair in the wrong order": '"\\ude80\\ud83d"',
            "two high ones": '"\\ud800\\ud800"',
            "in a member name": '{"\\ud800":1}',
            "in a value inside an array": '{"a":["ok","\\udfff"]}',
            "upper-case hex digits": '"\\uDBFF"',
        }
        for what, text in cases.items():
            with self.subTest(what), self.assertRaises(JsonDefect) as e:
                parse(text)
            self.assertEqual(e.exception.rule, "lone-surrogate")

    def test_an_escaped_backslash_before_u_is_not_an_escape(self):
        self.assertEqual(parse('"\\\\ud800"'), "\\ud800")

    def test_the_edges_of_the_surrogate_range(self):
        self.assertEqual(parse('"\\ud7ff\\ue000"'), "\ud7ff\ue000")


class Numbers(unittest.TestCase):
    def test_an_integral_number_is_that_integer_whatever_its_spelling(self):
        for text, value in [("1.0", 1), ("1e0", 1), ("10E-1", 1), ("1.00000000000000001", 1), ("1e2", 100), ("-0", 0), ("-0.0", 0), ("100", 100)]:
            with self.subTest(text=text):
                got = parse(text)
                self.assertIs(type(got), int)
                self.assertEqual(got, value)

    def test_a_number_is_its_nearest_binary64(self):
        self.assertEqual(parse("9007199254740991"), 2**53 - 1)
        self.assertEqual(parse("9007199254740993"), 2**53)  # ties to even: 2^53 + 1 is not a binary64
        self.assertEqual(parse("9007199254740991.4"), 2**53 - 1)
        self.assertEqual(parse("18446744073709551617"), 2**64)

    def test_a_fraction_stays_a_float(self):
        self.assertEqual(parse("1.5"), 1.5)
        self.assertIs(type(parse("1.5")), float)
        self.assertIs(type(parse("-0.25")), float)

    def test_a_number_beyond_the_binary64_range_is_not_finite(self):
        self.assertEqual(parse("1e400"), math.inf)
        self.assertEqual(parse("-1e400"), -math.inf)

    def test_integer_literals_of_thousands_of_digits_are_numbers_not_errors(self):
        # Python's int() refuses more than 4300 digits; the wire reads the literal's binary64 value.
        self.assertEqual(parse("1" + "0" * 5000), math.inf)
        self.assertEqual(parse('{"tick":' + "9" * 100_000 + "}"), {"tick": math.inf})
        self.assertEqual(parse("1" + "0" * 300), int(1e300))
        self.assertEqual(parse("0." + "0" * 5000 + "1"), 0.0)  # underflows to 0: integral
        self.assertIs(type(parse("0." + "0" * 5000 + "1")), int)

    def test_number_reads_a_literal(self):
        self.assertEqual(number("2.50e1"), 25)
        self.assertEqual(number("-5"), -5)


if __name__ == "__main__":
    unittest.main()
