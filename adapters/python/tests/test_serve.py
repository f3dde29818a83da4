"""The process: one reply line per non-empty line, in order, flushed; exit 0 at end of input and after shutdown (W-1, W-2.2)."""

import io
import json
import subprocess
import sys
import unittest
from pathlib import Path

from srk_adapter import ConfigurationError, data_dir, serve
from srk_adapter.limits import MAX_LINE_BYTES
from tests.kit import SPEC_DIR

EMPTY = Path(__file__).resolve().parents[1] / "examples" / "empty.py"
HELLO = b'{"type":"hello","id":"h","protocol_versions":["1"],"settings":{}}\n'


def run_example(data: bytes) -> tuple[int, list[dict], str]:
    p = subprocess.run([sys.executable, str(EMPTY), "--data-dir", "/nonexistent-never-read"], input=data, capture_output=True, timeout=60)
    return p.returncode, [json.loads(l) for l in p.stdout.decode("utf-8").splitlines()], p.stderr.decode("utf-8", "replace")


class Process(unittest.TestCase):
    def test_replies_come_in_order_one_per_non_empty_line(self):
        data = HELLO + b"\n  \n" + b'{"type":"query","id":1,"query":{"name":"world"}}\n' + b"nope\n" + b'{"type":"reset","id":2}\r\n'
        status, replies, _ = run_example(data)
        self.assertEqual(status, 0)
        self.assertEqual([(r["id"], r["ok"]) for r in replies], [("h", True), (1, True), (None, False), (2, True)])

    def test_the_line_bound_over_a_real_pipe(self):
        at = b'"' + b"x" * (MAX_LINE_BYTES - 2) + b'"'  # exactly 1 MiB: a JSON string, so BAD_REQUEST (not an object)
        data = HELLO + at + b"\n" + at + b"x\n" + b" " * (MAX_LINE_BYTES + 1) + b"\n" + at[:-1] + b"\r\r\n" + b'{"type":"reset","id":"after"}\n'
        status, replies, _ = run_example(data)
        self.assertEqual(status, 0)
        self.assertEqual([r["ok"] or r["error"]["code"] for r in replies], [True, "BAD_REQUEST", "LINE_TOO_LONG", "LINE_TOO_LONG", "LINE_TOO_LONG", True])
        self.assertEqual(replies[2]["id"], None)

    def test_nothing_after_shutdown_is_answered_and_the_exit_status_is_zero(self):
        data = HELLO + b'{"type":"shutdown","id":"s"}\n{"type":"reset","id":"late"}\nnope\n'
        status, replies, _ = run_example(data)
        self.assertEqual(status, 0)
        self.assertEqual([r["id"] for r in replies], ["h", "s"])

    def test_an_unterminated_last_line_is_ignored_and_end_of_input_exits_zero(self):
        status, replies, _ = run_example(HELLO + b'{"type":"reset","id":"cut"}')
        self.assertEqual(status, 0)
        self.assertEqual([r["id"] for r in replies], ["h"])

    def test_replies_are_utf8_json_lines(self):
        p = subprocess.run([sys.executable, str(EMPTY)], input=HELLO + '{"type":"reset","id":"é\U0001f680"}\n'.encode(), capture_output=True, timeout=60)
        self.assertIn('"id":"é\U0001f680"'.encode(), p.stdout)
        self.assertTrue(p.stdout.endswith(b"\n"))


class ServeInProcess(unittest.TestCase):
    def test_serve_reads_and_writes_the_given_streams(self):
        out = io.BytesIO()
        status = serve(name="t", version="1", profile=[], handlers={}, spec_dir=SPEC_DIR, stdin=io.BytesIO(HELLO + b'{"type":"reset","id":1}\n'), stdout=out, log=lambda m: None)
        self.assertEqual(status, 0)
        self.assertEqual([json.loads(l)["id"] for l in out.getvalue().splitlines()], ["h", 1])

    def test_a_bad_configuration_fails_before_reading(self):
        stdin = io.BytesIO(HELLO)
        with self.assertRaises(ConfigurationError):
            serve(name="t", version="1", profile=["nirvana"], handlers={}, spec_dir=SPEC_DIR, stdin=stdin, stdout=io.BytesIO())
        self.assertEqual(stdin.tell(), 0)

    def test_a_missing_spec_folder_is_named(self):
        with self.assertRaises(FileNotFoundError) as e:
            serve(name="t", version="1", profile=[], handlers={}, spec_dir="/no/such/spec", stdin=io.BytesIO(), stdout=io.BytesIO())
        self.assertIn("/no/such/spec", str(e.exception))


class DataDir(unittest.TestCase):
    def test_the_command_line_then_the_environment(self):
        self.assertEqual(data_dir(["--data-dir", "/d"], {}), "/d")
        self.assertEqual(data_dir(["x", "--data-dir=/e"], {"IMPL_DATA_DIR": "/env"}), "/e")
        self.assertEqual(data_dir([], {"IMPL_DATA_DIR": "/env"}), "/env")
        self.assertIsNone(data_dir([], {}))
        with self.assertRaises(SystemExit):
            data_dir(["--data-dir"], {})


if __name__ == "__main__":
    unittest.main()
