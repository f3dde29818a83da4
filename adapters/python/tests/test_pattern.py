"""ECMA-262 pattern semantics, as JSON Schema's ``pattern`` means them, under Python's ``re``."""

import re
import unittest

from srk_adapter.ecma_pattern import PatternError, compile_pattern, translate
from tests.kit import SCHEMA_DIR, read_json

ID = "^[A-Za-z0-9][A-Za-z0-9._:@/+-]{0,127}$"
DIGEST = "^sha256:[0-9a-f]{64}$"


def matches(pattern: str, text: str) -> bool:
    return compile_pattern(pattern).search(text) is not None


def spec_patterns():
    found = set()

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "pattern" and isinstance(v, str):
                    found.add(v)
                elif k not in ("examples", "const", "enum"):
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for path in SCHEMA_DIR.rglob("*.schema.json"):
        walk(read_json(path))
    return found


class EndOfInput(unittest.TestCase):
    def test_python_dollar_would_accept_a_trailing_newline(self):
        # The reason for the translation: re's "$" also matches before a final "\n".
        self.assertIsNotNone(re.search(ID, "t-1\n"))

    def test_dollar_matches_only_at_the_end(self):
        self.assertTrue(matches(ID, "t-1"))
        self.assertFalse(matches(ID, "t-1\n"))
        self.assertFalse(matches(DIGEST, "sha256:" + "a" * 64 + "\n"))

    def test_caret_matches_only_at_the_start(self):
        self.assertFalse(matches(ID, "\nt-1"))


class Classes(unittest.TestCase):
    def test_d_and_w_are_ascii(self):
        self.assertTrue(matches(r"^\d+$", "0123456789"))
        self.assertFalse(matches(r"^\d$", "\u0661"))  # ARABIC-INDIC DIGIT ONE: re's \d matches it
        self.assertTrue(matches(r"^\w+$", "aZ_9"))
        self.assertFalse(matches(r"^\w$", "é"))
        self.assertFalse(matches(r"^[\w]$", "é"))
        self.assertTrue(matches(r"^\D$", "x"))
        self.assertFalse(matches(r"^\D$", "5"))
        self.assertTrue(matches(r"^\W$", "é"))

    def test_s_is_ecma_whitespace_and_line_terminators(self):
        for c in "\t\n\x0b\x0c\r \xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff":
            with self.subTest(c=ascii(c)):
                self.assertTrue(matches(r"^\s$", c))
                self.assertTrue(matches(r"^[\s]$", c))
        for c in "\x1c\x1f\x85\u200b":  # re's \s has U+001C..U+001F and U+0085; ECMA's has none of them
            with self.subTest(c=ascii(c)):
                self.assertFalse(matches(r"^\s$", c))
                self.assertTrue(matches(r"^\S$", c))

    def test_dot_excludes_the_four_line_terminators(self):
        for c in "\n\r\u2028\u2029":
            self.assertFalse(matches("^.$", c))
        self.assertTrue(matches("^.$", "\x85"))
        self.assertTrue(matches("^.$", "\U0001f680"))  # one code point ("u" flag semantics)

    def test_empty_and_negated_empty_classes(self):
        self.assertFalse(matches("[]", "anything"))
        self.assertTrue(matches("^[^]$", "\n"))

    def test_word_boundary_is_ascii(self):
        self.assertTrue(matches(r"\bab\b", "x ab y"))
        self.assertTrue(matches(r"\bab\b", "éabé"))  # é is not an ECMA word character, so both are boundaries
        self.assertFalse(matches(r"\Bab", "x ab"))
        self.assertTrue(matches(r"[\b]", "\x08"))  # inside a class, \b is the backspace

    def test_class_characters_re_would_read_as_set_syntax_are_literals(self):
        self.assertTrue(matches("^[a&&b]+$", "a&b"))
        self.assertTrue(matches("^[~|]+$", "~|"))
        self.assertTrue(matches("^[[]$", "["))
        self.assertTrue(matches("^[a^]$", "^"))
        self.assertTrue(matches("^[^a]$", "b"))
        self.assertFalse(matches("^[^a]$", "a"))


class Syntax(unittest.TestCase):
    def test_braces_that_are_no_quantifier_are_literals(self):
        self.assertTrue(matches("^a{,2}$", "a{,2}"))  # re alone reads {,2} as {0,2}
        self.assertFalse(matches("^a{,2}$", "aa"))
        self.assertTrue(matches("^a{2}$", "aa"))
        self.assertTrue(matches("^a{1,}$", "aaaa"))
        self.assertTrue(matches("^a{1,2}?$", "aa"))
        self.assertTrue(matches("^}$", "}"))

    def test_escapes(self):
        self.assertTrue(matches(r"^\.\*\$\/\-$", ".*$/-"))
        self.assertTrue(matches(r"^\x41\u0042$", "AB"))
        self.assertTrue(matches(r"^\cJ$", "\n"))
        self.assertTrue(matches(r"^\0$", "\x00"))
        self.assertTrue(matches(r"^\t\n\r\f\v$", "\t\n\r\x0c\x0b"))

    def test_groups_and_look_ahead(self):
        self.assertTrue(matches(r"^(?:ab)+(?=c)", "ababc"))
        self.assertFalse(matches(r"^a(?!b)", "ab"))
        self.assertEqual(compile_pattern(r"^(?<x>a)$").search("a").group("x"), "a")

    def test_the_spec_patterns(self):
        self.assertTrue(matches(ID, "a" * 128))
        self.assertFalse(matches(ID, "a" * 129))
        self.assertFalse(matches(ID, "-a"))
        self.assertTrue(matches(DIGEST, "sha256:" + "0" * 64))
        self.assertFalse(matches(DIGEST, "sha256:" + "A" * 64))
        self.assertFalse(matches(DIGEST, "sha256:" + "0" * 63))
        dotted = r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*(\.\*)?$"
        self.assertTrue(matches(dotted, "fare.search.*"))
        self.assertFalse(matches(dotted, "fare..search"))

    def test_every_pattern_of_the_spec_translates_and_compiles(self):
        found = spec_patterns()
        self.assertGreater(len(found), 3)
        for p in found:
            with self.subTest(pattern=p):
                self.assertTrue(translate(p).endswith("\\Z"))
                compile_pattern(p)


class Refused(unittest.TestCase):
    def test_what_the_translator_does_not_read_is_refused_by_name(self):
        for p, word in [(r"(a)\1", "back-reference"), ("(?<=a)b", "look-behind"), (r"\p{L}", "Unicode-mode"),
                        (r"\u{1F680}", "Unicode-mode"), (r"[\D]", "inside a character class"), ("[ab", "unterminated"),
                        ("a\\", "lone backslash"), ("(?i)a", "not ECMA-262")]:
            with self.subTest(pattern=p), self.assertRaises(PatternError) as e:
                compile_pattern(p)
            self.assertIn(word, str(e.exception))


if __name__ == "__main__":
    unittest.main()
