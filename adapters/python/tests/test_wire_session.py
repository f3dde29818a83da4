"""The golden wire session (spec/wire/PROTOCOL.md W-9.1), replayed through the adapter end to end.

conformance/golden/wire-session.jsonl pins raw lines, wire errors, MALFORMED commands, hello
variations and check orders; the expected replies of its wire errors are stated from the W-4 table.
All of that is the adapter's alone. Five lines need an implementation's content: three accepted
``advaita.mint`` commands and two ``world`` queries. For those the handlers here are an oracle that
hands back the reference model's answers from the file, in order, and checks what the adapter gave
them (the ticks ``1.0``, ``20E-1`` and ``0.3e1`` must reach the handler as the integers 1, 2, 3).
Every agent query of the session names an agent that was never minted: NOT_FOUND.
"""

import io
import json
import unittest

from srk_adapter import Refusal, Spec, serve
from tests.kit import GOLDEN_DIR, SPEC_DIR

SESSION = GOLDEN_DIR / "wire-session.jsonl"


def raw_bytes(send):
    out = bytearray()
    for segment in send:
        if "text" in segment:
            out += segment["text"].encode("utf-8")
        elif "hex" in segment:
            out += bytes.fromhex(segment["hex"])
        else:
            out += segment["repeat"].encode("utf-8") * segment["times"]
    return bytes(out) + b"\n"


def normative(reply, hello):
    """W-9: the compared part of a reply; of a successful hello only result.protocol_version."""
    if not reply["ok"]:
        e = reply["error"]
        return {"id": reply["id"], "ok": False, "error": {"code": e["code"], "invariant": e["invariant"], "definite": e["definite"]}}
    if hello:
        return {"id": reply["id"], "ok": True, "events": reply["events"], "result": {"protocol_version": reply["result"]["protocol_version"]}}
    kept = {"id": reply["id"], "ok": True, "events": reply["events"]}
    if "result" in reply:
        kept["result"] = reply["result"]
    return kept


class WireSession(unittest.TestCase):
    def test_every_line_gets_the_pinned_reply_in_order_and_nothing_else(self):
        with SESSION.open(encoding="utf-8") as f:
            lines = [json.loads(l) for l in f if l.strip()]
        self.assertGreater(len(lines), 90)
        expected = [l for l in lines if l["reply"] is not None]
        mints = [l for l in expected if l["reply"]["ok"] and '"op":"advaita.mint"' in raw_bytes(l["send"]).decode("utf-8", "replace")]
        worlds = [l for l in expected if l["reply"]["ok"] and '"name":"world"' in raw_bytes(l["send"]).decode("utf-8", "replace")]
        self.assertEqual((len(mints), len(worlds)), (3, 2))
        events = iter(l["reply"]["events"] for l in mints)
        results = iter(l["reply"]["result"] for l in worlds)
        ticks = []

        def mint(state, command):
            ticks.append(command["tick"])
            return next(events)

        def not_found(state, query):
            raise Refusal("NOT_FOUND", f"no agent {query['agent']}", path=["agent"])

        handlers = {name: not_found for name in Spec(SPEC_DIR).query_names}
        handlers["world"] = lambda state, query: next(results)
        handlers["advaita.mint"] = mint
        handlers["advaita.project_write"] = lambda state, command: self.fail("the wire session sends no advaita.project_write")

        out = io.BytesIO()
        status = serve(name="wire-session-oracle", version="1", profile=["advaita"], handlers=handlers, reset=lambda state: None,
                       spec_dir=SPEC_DIR, stdin=io.BytesIO(b"".join(raw_bytes(l["send"]) for l in lines)), stdout=out, log=lambda m: None)
        self.assertEqual(status, 0)
        replies = [json.loads(l) for l in out.getvalue().decode("utf-8").splitlines()]
        self.assertEqual(len(replies), len(expected), "one reply per line with a non-null reply, and nothing else")
        for line, reply in zip(expected, replies):
            hello = '"type":"hello"' in raw_bytes(line["send"]).decode("utf-8", "replace") and line["reply"]["ok"]
            with self.subTest(step=line["step"], what=line["what"]):
                self.assertEqual(normative(reply, hello), line["reply"])
        self.assertEqual(ticks, [1, 2, 3])
        self.assertTrue(all(type(t) is int for t in ticks))


if __name__ == "__main__":
    unittest.main()
