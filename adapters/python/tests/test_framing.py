"""W-1.2, W-1.4, W-1.7: lines, the 1 MiB bound counted before the "\\n" (a trailing "\\r" included), end of input."""

import io
import os
import threading
import unittest

from srk_adapter.framing import TooLong, frames
from srk_adapter.limits import MAX_LINE_BYTES


def all_frames(data: bytes, limit: int = MAX_LINE_BYTES):
    return list(frames(io.BufferedReader(io.BytesIO(data)), limit))


class RecordingStream(io.BytesIO):
    """Remembers the largest read asked of it."""

    largest = 0

    def readline(self, size=-1):
        self.largest = max(self.largest, size)
        return super().readline(size)


class Lines(unittest.TestCase):
    def test_lines_come_in_order_without_their_newline(self):
        self.assertEqual(all_frames(b'{"a":1}\n\n  \nx\r\n'), [b'{"a":1}', b"", b"  ", b"x\r"])

    def test_an_unterminated_last_line_is_ignored(self):
        self.assertEqual(all_frames(b"one\ntwo"), [b"one"])
        self.assertEqual(all_frames(b""), [])

    def test_a_line_is_handed_on_before_the_next_one_is_written(self):
        read, write = os.pipe()
        with os.fdopen(read, "rb") as source, os.fdopen(write, "wb") as sink:
            it = frames(source)
            sink.write(b"first\n")
            sink.flush()
            got = []
            reader = threading.Thread(target=lambda: got.append(next(it)))
            reader.start()
            reader.join(timeout=5)
            self.assertEqual(got, [b"first"], "the first line was not delivered while the writer kept the pipe open")


class Bound(unittest.TestCase):
    def test_exactly_the_bound_is_a_line_one_byte_more_is_too_long(self):
        self.assertEqual(all_frames(b"a" * 8 + b"\n", 8), [b"a" * 8])
        self.assertEqual(all_frames(b"a" * 9 + b"\n", 8), [TooLong(9)])

    def test_the_trailing_carriage_return_counts(self):
        # review G-15: the bound counts every byte before the "\n".
        self.assertEqual(all_frames(b"a" * 7 + b"\r\n", 8), [b"a" * 7 + b"\r"])
        self.assertEqual(all_frames(b"a" * 8 + b"\r\n", 8), [TooLong(9)])

    def test_the_real_bound_is_one_mebibyte(self):
        self.assertEqual(MAX_LINE_BYTES, 1_048_576)
        at = b"x" * MAX_LINE_BYTES
        self.assertEqual(all_frames(at + b"\n"), [at])
        self.assertEqual(all_frames(at + b"x\n"), [TooLong(MAX_LINE_BYTES + 1)])
        self.assertEqual(all_frames(at + b"\r\n"), [TooLong(MAX_LINE_BYTES + 1)])

    def test_a_long_line_is_reported_once_with_its_length_and_the_next_line_is_read(self):
        self.assertEqual(all_frames(b"b" * 100 + b"\nok\n", 8), [TooLong(100), b"ok"])

    def test_an_unterminated_over_long_last_line_is_ignored(self):
        self.assertEqual(all_frames(b"ok\n" + b"b" * 100, 8), [b"ok"])

    def test_no_read_asks_for_more_than_the_bound_plus_one(self):
        stream = RecordingStream(b"c" * (5 * MAX_LINE_BYTES) + b"\n")
        self.assertEqual(list(frames(stream)), [TooLong(5 * MAX_LINE_BYTES)])
        self.assertLessEqual(stream.largest, MAX_LINE_BYTES + 1)


if __name__ == "__main__":
    unittest.main()
