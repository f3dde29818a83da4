"""W-1.5 (review G-17): the lexical nesting count, valid JSON or not."""

import unittest

from srk_adapter.depth import max_depth, nests_deeper_than
from srk_adapter.limits import MAX_NESTING_DEPTH


class Depth(unittest.TestCase):
    def test_the_limit_is_64_and_an_empty_object_has_depth_one(self):
        self.assertEqual(MAX_NESTING_DEPTH, 64)
        self.assertEqual(max_depth("{}"), 1)
        self.assertEqual(max_depth("1"), 0)

    def test_64_levels_pass_65_do_not(self):
        self.assertFalse(nests_deeper_than("[" * 64 + "]" * 64))
        self.assertTrue(nests_deeper_than("[" * 65 + "]" * 65))
        self.assertFalse(nests_deeper_than('{"a":' * 63 + "[]" + "}" * 63))
        self.assertTrue(nests_deeper_than('{"a":' * 64 + "[]" + "}" * 64))

    def test_an_unterminated_run_of_brackets_counts(self):
        self.assertTrue(nests_deeper_than("[" * 65))
        self.assertTrue(nests_deeper_than("[" * 100_000))

    def test_brackets_inside_strings_do_not_count(self):
        self.assertFalse(nests_deeper_than('["' + "[" * 200 + '"]'))

    def test_an_escaped_quote_does_not_close_the_string(self):
        self.assertFalse(nests_deeper_than('["\\"' + "[" * 200 + '"]'))
        # An escaped backslash does not escape the quote after it: the string closes, the brackets count.
        self.assertTrue(nests_deeper_than('["\\\\"' + "," + "[" * 65))

    def test_brackets_after_an_unterminated_string_never_count(self):
        self.assertFalse(nests_deeper_than('["abc' + "[" * 200))
        self.assertFalse(nests_deeper_than('"\\' + "[" * 200))  # a lone final backslash inside it

    def test_the_count_may_go_below_zero_and_is_never_reset(self):
        # "]" then 65 "[": the count goes to -1 and reaches 64 only.
        self.assertEqual(max_depth("]" + "[" * 65), 64)
        self.assertFalse(nests_deeper_than("]" + "[" * 65))
        self.assertTrue(nests_deeper_than("]" + "[" * 66))

    def test_closing_brackets_need_not_match(self):
        self.assertEqual(max_depth("[}" * 100), 1)
        self.assertEqual(max_depth("{[" * 32 + "]" + "[["), 65)


if __name__ == "__main__":
    unittest.main()
