"""The W-4 checks in their order, the handshake (W-5), the envelopes, dispatch to handlers and the handler contract."""

import json
import unittest

from srk_adapter import ConfigurationError, Internal, Refusal, Session, Spec
from srk_adapter.framing import TooLong
from srk_adapter.limits import MAX_LINE_BYTES
from srk_adapter.session import EMPTY_WORLD
from tests.kit import SPEC_DIR, golden_lines

SPEC = Spec(SPEC_DIR)
AGENT = "sha256:" + "a" * 64
HELLO = {"type": "hello", "id": "h", "protocol_versions": ["1"], "settings": {}}


def line(value) -> bytes:
    return (value if isinstance(value, str) else json.dumps(value)).encode("utf-8")


def session(handshake=True, **options):
    logs = []
    options.setdefault("name", "test")
    options.setdefault("version", "1")
    options.setdefault("profile", [])
    options.setdefault("handlers", {})
    s = Session(spec=SPEC, log=logs.append, **options)
    s.logs = logs
    if handshake:
        assert s.handle(line(HELLO))["ok"]
    return s


def code(reply):
    return None if reply is None else ("ok" if reply["ok"] else reply["error"]["code"])


class Check:
    """Mixin: ``expect(session, line, code, id)`` with id omitted meaning any."""

    def expect(self, s, raw, expected, id=..., msg=None):
        reply = s.handle(raw if isinstance(raw, (bytes, TooLong)) else line(raw))
        self.assertEqual(code(reply), expected, msg or f"{raw!r:.120}: {reply}")
        if id is not ... and reply is not None:
            self.assertEqual(reply["id"], id)
            self.assertIs(type(reply["id"]), type(id))
        return reply


class Rows1To4(unittest.TestCase, Check):
    def test_row_1_an_over_long_line_even_all_whitespace(self):
        self.expect(session(), TooLong(MAX_LINE_BYTES + 1), "LINE_TOO_LONG", None)

    def test_row_2_bytes_that_are_not_utf8(self):
        s = session()
        for raw in [b"\xff", b'{"id":"\xc0\xaf"}', b'"\xed\xa0\x80"', b'"\xf4\x90\x80\x80"', b" \xff ", b"\xe2\x82"]:
            self.expect(s, raw, "BAD_ENCODING", None)
        self.expect(s, '"\U0010ffff"', "BAD_REQUEST", None)  # the last code point is valid UTF-8

    def test_blank_lines_get_no_reply_and_other_unicode_space_is_bad_json(self):
        s = session()
        for raw in [b"", b" \t ", b"\r", b" \r\r"]:
            self.expect(s, raw, None)
        for raw in ["\u00a0", "\ufeff", "\u2028", "\u3000", '\ufeff{"type":"reset","id":1}']:
            self.expect(s, raw, "BAD_JSON", None)

    def test_one_trailing_carriage_return_is_dropped(self):
        s = session()
        self.expect(s, b'{"type":"reset","id":"r"}\r', "ok", "r")

    def test_row_3_before_row_4(self):
        s = session()
        self.expect(s, "[" * 65, "NESTING_TOO_DEEP", None)
        self.expect(s, "[" * 64, "BAD_JSON", None)
        self.expect(s, "]" + "[" * 65, "BAD_JSON", None)

    def test_row_4_duplicate_names_and_lone_surrogates_even_with_a_readable_id(self):
        s = session()
        self.expect(s, '{"type":"reset","id":"d1","id":"d2"}', "BAD_JSON", None)
        self.expect(s, '{"type":"reset","id":"\\ud800"}', "BAD_JSON", None)
        self.expect(s, '{"type":"reset","id":"\\ud83d\\ude80"}', "ok", "\U0001f680")


class Rows5To8(unittest.TestCase, Check):
    def test_row_5_not_an_object_or_no_valid_id(self):
        s = session()
        for raw in ["[]", '"reset"', "5", "null", {"type": "reset"}]:
            self.expect(s, raw, "BAD_REQUEST", None)
        for bad in [1.5, -1, 2**53, "", "x" * 129, True, None, [1], {"n": 1}]:
            self.expect(s, {"type": "reset", "id": bad}, "BAD_REQUEST", None, msg=f"id {bad!r:.40}")
        self.expect(s, '{"type":"reset","id":1e400}', "BAD_REQUEST", None)
        self.expect(s, '{"type":"reset","id":' + "9" * 5000 + "}", "BAD_REQUEST", None)

    def test_row_5_the_largest_ids_are_valid(self):
        s = session()
        self.expect(s, {"type": "reset", "id": 2**53 - 1}, "ok", 2**53 - 1)
        self.expect(s, {"type": "reset", "id": "x" * 128}, "ok", "x" * 128)
        self.expect(s, {"type": "reset", "id": "\U0001f680" * 128}, "ok", "\U0001f680" * 128)  # code points (D-041)
        self.expect(s, {"type": "reset", "id": 0}, "ok", 0)

    def test_row_6_an_id_is_read_by_value_and_never_reused(self):
        s = session()
        self.expect(s, '{"type":"reset","id":1e2}', "ok", 100)
        self.expect(s, '{"type":"reset","id":100}', "DUPLICATE_REQUEST_ID", 100)
        self.expect(s, '{"type":"reset","id":-0}', "ok", 0)
        self.expect(s, '{"type":"reset","id":0.0}', "DUPLICATE_REQUEST_ID", 0)
        self.expect(s, '{"type":"reset","id":"100"}', "ok", "100")  # the string "100" is another id (G-14)

    def test_row_6_a_refused_request_uses_its_id(self):
        s = session(handshake=False)
        self.expect(s, {"type": "query", "id": 7, "query": {"name": "world"}}, "NOT_HANDSHAKEN", 7)
        self.expect(s, {"type": "hello", "id": "v", "protocol_versions": ["9"], "settings": {}}, "UNSUPPORTED_VERSION", "v")
        self.expect(s, {"type": "hello", "id": 7, "protocol_versions": ["1"], "settings": {}}, "DUPLICATE_REQUEST_ID", 7)
        self.expect(s, {"type": "hello", "id": "v", "protocol_versions": ["1"], "settings": {}}, "DUPLICATE_REQUEST_ID", "v")

    def test_row_7_type_missing_or_not_a_string_then_unknown(self):
        s = session(handshake=False)
        self.expect(s, {"id": "t0"}, "BAD_REQUEST", "t0")
        for n, bad in enumerate([5, None, ["hello"], {"x": 1}]):
            self.expect(s, {"type": bad, "id": f"t{n + 1}"}, "BAD_REQUEST")
        for n, name in enumerate(["Hello", "reply", "teleport", ""]):
            self.expect(s, {"type": name, "id": f"u{n}", "extra": 1}, "UNKNOWN_OP")  # row 7 before rows 8 and 9

    def test_row_8_only_hello_before_the_handshake_even_with_invalid_fields(self):
        s = session(handshake=False)
        for n, req in enumerate([{"type": "query", "query": {"name": "secrets"}, "extra": 1}, {"type": "command"}, {"type": "reset", "x": 1},
                                 {"type": "crash_after", "writes": 0}, {"type": "shutdown", "x": 1}]):
            self.expect(s, {**req, "id": n}, "NOT_HANDSHAKEN", n)
        self.assertFalse(s.stopped)


class Handshake(unittest.TestCase, Check):
    def test_invalid_fields_come_before_the_version_row_9_before_10(self):
        s = session(handshake=False)
        for n, req in enumerate([
            {"protocol_versions": ["9"], "settings": []},
            {"protocol_versions": [], "settings": {}},
            {"protocol_versions": ["1"] * 17, "settings": {}},
            {"protocol_versions": [""], "settings": {}},
            {"protocol_versions": ["x" * 33], "settings": {}},
            {"protocol_versions": ["1"]},
            {"protocol_versions": ["1"], "settings": {"k" * 65: 1}},
            {"protocol_versions": ["1"], "settings": {}, "extra": True},
            {"protocol_versions": "1", "settings": {}},
            {"protocol_versions": ["1"], "settings": {"x": 1e400}},
        ]):
            raw = json.dumps({"type": "hello", "id": n, **req}).replace("Infinity", "1e400")
            self.expect(s, raw, "BAD_REQUEST", n)
        self.assertFalse(s.handshaken)

    def test_no_common_version_leaves_the_process_unhandshaken(self):
        s = session(handshake=False)
        self.expect(s, {"type": "hello", "id": 1, "protocol_versions": ["0.unknown"], "settings": {}}, "UNSUPPORTED_VERSION", 1)
        self.expect(s, {"type": "reset", "id": 2}, "NOT_HANDSHAKEN", 2)
        reply = self.expect(s, {"type": "hello", "id": 3, "protocol_versions": ["0.unknown", "1"], "settings": {"srk.x": {"n": [1, None, 2.5]}, "k" * 64: False}}, "ok", 3)
        self.assertEqual(reply["result"]["protocol_version"], "1")
        self.expect(s, {"type": "reset", "id": 4}, "ok", 4)

    def test_the_result_and_every_later_hello(self):
        s = session(handshake=False, name="impl-x", version="2.0", crash_after=lambda *_: None)
        reply = self.expect(s, HELLO, "ok", "h")
        self.assertEqual(reply["events"], [])
        self.assertEqual(reply["result"], {"implementation": {"name": "impl-x", "version": "2.0"}, "protocol_version": "1",
                                           "protocol_versions": ["1"], "profile": {"families": [], "crash_hook": True}})
        self.assertIsNone(SPEC.schemas.check(reply["result"], "HelloResult"))
        self.expect(s, {**HELLO, "id": "h2"}, "BAD_REQUEST", "h2")
        self.expect(s, {"type": "hello", "id": "h3", "protocol_versions": ["9"], "settings": []}, "BAD_REQUEST", "h3")


class Envelopes(unittest.TestCase, Check):
    def test_command_envelope_then_the_command_schema(self):
        s = session()
        self.expect(s, {"type": "command", "id": 1}, "BAD_REQUEST", 1)
        self.expect(s, {"type": "command", "id": 2, "command": {}, "extra": 1}, "BAD_REQUEST", 2)
        for n, c in enumerate([None, "advaita.mint", [], {}, {"op": "x", "tick": 1}], start=3):
            self.expect(s, {"type": "command", "id": n, "command": c}, "MALFORMED", n)

    def test_malformed_carries_the_path_inside_the_command_and_no_invariant(self):
        s = session()
        command = {"op": "ripa.task_start", "tick": 1, "agent": AGENT, "task_id": "t-1\n"}
        reply = self.expect(s, {"type": "command", "id": 1, "command": command}, "MALFORMED", 1)
        self.assertEqual(reply["error"]["path"], ["task_id"])
        self.assertIsNone(reply["error"]["invariant"])
        self.assertTrue(reply["error"]["definite"])
        reply = self.expect(s, {"type": "command", "id": 2, "command": {**command, "task_id": "t-1", "tick": 1.5}}, "MALFORMED", 2)
        self.assertEqual(reply["error"]["path"], ["tick"])

    def test_a_well_formed_command_with_no_handler_is_unsupported(self):
        s = session()
        command = {"op": "ripa.task_start", "tick": 1.0, "agent": AGENT, "task_id": "t-1"}  # tick 1.0 is tick 1 (D-043)
        reply = self.expect(s, {"type": "command", "id": 1, "command": command}, "UNSUPPORTED", 1)
        self.assertTrue(reply["error"]["definite"])

    def test_query_checks_in_the_order_of_w_4_1(self):
        s = session()
        self.expect(s, {"type": "query", "id": 1}, "BAD_REQUEST", 1)  # (a)
        self.expect(s, {"type": "query", "id": 2, "query": {"name": "world"}, "x": 1}, "BAD_REQUEST", 2)  # (a)
        for n, q in enumerate([None, [], "world", {}, {"name": 5}], start=3):
            self.expect(s, {"type": "query", "id": n, "query": q}, "BAD_REQUEST", n)  # (b)
        for n, name in enumerate(["secrets", "constructor", "World"], start=10):
            self.expect(s, {"type": "query", "id": n, "query": {"name": name, "agent": "nope", "x": 1}}, "UNKNOWN_OP", n)  # (c)
        reply = self.expect(s, {"type": "query", "id": 20, "query": {"name": "store", "agent": "not-a-digest"}}, "BAD_REQUEST", 20)  # (d)
        self.assertEqual(reply["error"]["path"], ["query", "agent"])
        self.expect(s, {"type": "query", "id": 21, "query": {"name": "store", "agent": AGENT, "x": 1}}, "BAD_REQUEST", 21)
        self.expect(s, {"type": "query", "id": 22, "query": {"name": "instance_state", "agent": AGENT}}, "BAD_REQUEST", 22)
        self.expect(s, {"type": "query", "id": 23, "query": {"name": "store", "agent": AGENT}}, "NOT_FOUND", 23)  # (e)
        reply = self.expect(s, {"type": "query", "id": 24, "query": {"name": "world"}}, "ok", 24)
        self.assertEqual((reply["events"], reply["result"]), ([], EMPTY_WORLD))
        self.assertIsNone(SPEC.schemas.check(EMPTY_WORLD, "WorldView"))

    def test_every_agent_query_of_the_empty_world_is_not_found(self):
        s = session()
        for n, name in enumerate(SPEC.query_names):
            if name == "world":
                continue
            q = {"name": name, "agent": AGENT, **({"instance_id": "i-1"} if name == "instance_state" else {})}
            reply = self.expect(s, {"type": "query", "id": n, "query": q}, "NOT_FOUND", n)
            self.assertTrue(reply["error"]["definite"])

    def test_crash_after_envelope_then_the_hook(self):
        s = session()
        self.expect(s, {"type": "crash_after", "id": 1, "writes": 0, "at": "after_commit"}, "BAD_REQUEST", 1)  # row 9 before 10
        self.expect(s, {"type": "crash_after", "id": 2, "writes": 1, "at": "later"}, "BAD_REQUEST", 2)
        self.expect(s, {"type": "crash_after", "id": 3, "writes": 1000001, "at": "after_commit"}, "BAD_REQUEST", 3)
        self.expect(s, '{"type":"crash_after","id":4,"writes":1.0,"at":"after_commit"}', "UNSUPPORTED", 4)
        armed = []
        s = session(crash_after=lambda state, writes, at: armed.append((state, writes, at)), state="S")
        self.expect(s, '{"type":"crash_after","id":5,"writes":1e6,"at":"before_commit"}', "ok", 5)
        self.assertEqual(armed, [("S", 1_000_000, "before_commit")])
        self.assertIs(type(armed[0][1]), int)

    def test_reset_and_shutdown_envelopes(self):
        s = session()
        self.expect(s, {"type": "reset", "id": 1, "x": 1}, "BAD_REQUEST", 1)
        self.expect(s, {"type": "shutdown", "id": 2, "now": True}, "BAD_REQUEST", 2)
        self.assertFalse(s.stopped)
        self.expect(s, {"type": "reset", "id": 3}, "ok", 3)

    def test_nothing_is_read_after_shutdown(self):
        s = session()
        reply = self.expect(s, {"type": "shutdown", "id": "s"}, "ok", "s")
        self.assertEqual(reply, {"type": "reply", "id": "s", "ok": True, "events": []})
        self.assertTrue(s.stopped)
        for raw in [b"nope", line({"type": "reset", "id": "after"}), TooLong(MAX_LINE_BYTES + 9)]:
            self.assertIsNone(s.handle(raw))


# -- handlers ---------------------------------------------------------------------------------------

MINT_LINE = next(l for _, l in golden_lines() if l["request"]["type"] == "command" and l["request"]["command"]["op"] == "advaita.mint" and l["reply"]["ok"])
MINT = MINT_LINE["request"]["command"]
MINT_EVENTS = MINT_LINE["reply"]["events"]


def full_handlers(**overrides):
    """Every query and advaita's operations; the world is the empty one unless overridden."""
    handlers = {q: (lambda state, query: EMPTY_WORLD) for q in SPEC.query_names}
    handlers["advaita.mint"] = lambda state, command: (state.append(command), MINT_EVENTS)[1]
    handlers["advaita.project_write"] = lambda state, command: []
    handlers.update(overrides)
    return handlers


def advaita(**overrides):
    state = []
    s = session(profile=["advaita"], handlers=full_handlers(**overrides), state=state, reset=lambda st: st.clear())
    return s, state


class Dispatch(unittest.TestCase, Check):
    def test_the_handler_gets_the_state_and_the_validated_command_and_its_events_are_the_reply(self):
        s, state = advaita()
        raw = json.dumps({"type": "command", "id": 1, "command": MINT}).replace('"tick": 1', '"tick": 1.0')
        reply = self.expect(s, raw, "ok", 1)
        self.assertEqual(reply["events"], MINT_EVENTS)
        self.assertEqual(state, [MINT])
        self.assertIs(type(state[0]["tick"]), int)
        self.assertNotIn("result", reply)
        self.expect(s, {"type": "reset", "id": 2}, "ok", 2)
        self.assertEqual(state, [])

    def test_an_operation_outside_the_profile_is_unsupported(self):
        s, _ = advaita()
        reply = self.expect(s, {"type": "command", "id": 1, "command": {"op": "ripa.task_start", "tick": 1, "agent": AGENT, "task_id": "t"}}, "UNSUPPORTED", 1)
        self.assertIn("outside the declared profile", reply["error"]["message"])

    def test_a_refusal_gets_the_invariant_of_its_code_from_tab_3(self):
        def refuse(state, command):
            raise Refusal("ADVAITA_IDENTITY_NOT_SINGLE", "root root-0 was already used", path=["root"])

        s, _ = advaita(**{"advaita.mint": refuse})
        reply = self.expect(s, {"type": "command", "id": 1, "command": MINT}, "ADVAITA_IDENTITY_NOT_SINGLE", 1)
        self.assertEqual(reply["error"], {"code": "ADVAITA_IDENTITY_NOT_SINGLE", "invariant": "AD-1", "message": "root root-0 was already used", "path": ["root"], "definite": True})
        self.assertIsNone(SPEC.schemas.check(reply, "ErrorReply"))

    def test_generic_operation_codes_have_no_invariant(self):
        def regress(state, command):
            raise Refusal("TICK_REGRESSED", "tick 1 is before the world tick 2", path=["tick"], invariant=None)

        s, _ = advaita(**{"advaita.mint": regress})
        reply = self.expect(s, {"type": "command", "id": 1, "command": MINT}, "TICK_REGRESSED", 1)
        self.assertIsNone(reply["error"]["invariant"])

    def test_a_refusal_the_table_contradicts_is_internal(self):
        for refusal, word in [(Refusal("ADVAITA_IDENTITY_NOT_SINGLE", invariant="AD-2"), "TAB-3 gives"),
                              (Refusal("BAD_REQUEST"), "wire code"), (Refusal("NO_SUCH_CODE"), "no code of TAB-3")]:
            def refuse(state, command, r=refusal):
                raise r

            s, _ = advaita(**{"advaita.mint": refuse})
            reply = self.expect(s, {"type": "command", "id": 1, "command": MINT}, "INTERNAL", 1)
            self.assertIn(word, reply["error"]["message"])
            self.assertIn(word, s.logs[-1])

    def test_internal_definiteness(self):
        def boom(state, _):
            raise OSError("disk full")

        def rolled_back(state, _):
            raise Internal("failed before the write began; state rolled back", definite=True)

        s, _ = advaita(**{"advaita.mint": boom, "world": boom})
        self.assertFalse(self.expect(s, {"type": "command", "id": 1, "command": MINT}, "INTERNAL", 1)["error"]["definite"])
        self.assertTrue(self.expect(s, {"type": "query", "id": 2, "query": {"name": "world"}}, "INTERNAL", 2)["error"]["definite"])
        self.assertIn("disk full", s.logs[-1])
        s, _ = advaita(**{"advaita.mint": rolled_back})
        self.assertTrue(self.expect(s, {"type": "command", "id": 1, "command": MINT}, "INTERNAL", 1)["error"]["definite"])
        s = session(profile=["advaita"], handlers=full_handlers(), state=[], reset=boom)
        self.assertFalse(self.expect(s, {"type": "reset", "id": 1}, "INTERNAL", 1)["error"]["definite"])
        s = session(crash_after=boom)
        self.assertTrue(self.expect(s, {"type": "crash_after", "id": 1, "writes": 1, "at": "after_commit"}, "INTERNAL", 1)["error"]["definite"])

    def test_results_are_checked_against_their_schemas(self):
        s, _ = advaita(**{"advaita.mint": lambda st, c: [{"type": "agent.minted", "identity": "nope"}], "world": lambda st, q: {"tick": -1, "roots_used": [], "agents": []}})
        reply = self.expect(s, {"type": "command", "id": 1, "command": MINT}, "INTERNAL", 1)
        self.assertIn("event 0 does not match the Event schema", reply["error"]["message"])
        self.assertFalse(reply["error"]["definite"])
        reply = self.expect(s, {"type": "query", "id": 2, "query": {"name": "world"}}, "INTERNAL", 2)
        self.assertIn("tick", reply["error"]["message"])
        self.assertTrue(reply["error"]["definite"])
        s = session(profile=["advaita"], handlers=full_handlers(world=lambda st, q: {"tick": -1}), state=[], reset=lambda st: None, check_results=False)
        self.assertEqual(self.expect(s, {"type": "query", "id": 3, "query": {"name": "world"}}, "ok", 3)["result"], {"tick": -1})

    def test_list_results_are_checked_item_by_item(self):
        s, _ = advaita(instances=lambda st, q: [{"instance_id": "i-1"}], obligations=lambda st, q: {})
        reply = self.expect(s, {"type": "query", "id": 1, "query": {"name": "instances", "agent": AGENT}}, "INTERNAL", 1)
        self.assertIn("item 0 of the result of the instances query", reply["error"]["message"])
        reply = self.expect(s, {"type": "query", "id": 2, "query": {"name": "obligations", "agent": AGENT}}, "INTERNAL", 2)
        self.assertIn("is a list", reply["error"]["message"])

    def test_returned_values_are_made_plain_json(self):
        world = {"tick": 3.0, "roots_used": ("r",), "agents": []}
        s, _ = advaita(world=lambda st, q: world, **{"advaita.mint": lambda st, c: None})
        self.assertEqual(self.expect(s, {"type": "query", "id": 1, "query": {"name": "world"}}, "ok", 1)["result"], {"tick": 3, "roots_used": ["r"], "agents": []})
        self.assertEqual(self.expect(s, {"type": "command", "id": 2, "command": MINT}, "ok", 2)["events"], [])
        for bad in [{"tick": float("nan")}, {"tick": {1, 2}}, {1: "x"}, {"tick": "\ud800"}]:
            s, _ = advaita(world=lambda st, q, b=bad: b)
            reply = self.expect(s, {"type": "query", "id": 1, "query": {"name": "world"}}, "INTERNAL", 1)
            self.assertIn("not JSON", reply["error"]["message"])

    def test_a_declared_operation_without_a_handler_is_logged_and_unsupported(self):
        handlers = full_handlers()
        del handlers["advaita.project_write"]
        s = session(profile=["advaita"], handlers=handlers, state=[], reset=lambda st: None)
        self.assertTrue(any("advaita.project_write" in m for m in s.logs), s.logs)
        command = next(l["request"]["command"] for _, l in golden_lines() if l["request"]["type"] == "command" and l["request"]["command"]["op"] == "advaita.project_write")
        reply = self.expect(s, {"type": "command", "id": 1, "command": command}, "UNSUPPORTED", 1)
        self.assertIn("has no handler", reply["error"]["message"])

    def test_a_family_other_than_advaita_still_handles_advaita_mint(self):
        # D-034: advaita.mint is sent to every non-empty profile, so a janma-only table may (and should) handle it.
        handlers = {q: (lambda st, query: EMPTY_WORLD) for q in SPEC.query_names}
        handlers["advaita.mint"] = lambda st, c: MINT_EVENTS
        s = session(profile=["janma"], handlers=handlers, state=None, reset=lambda st: None)
        self.expect(s, {"type": "command", "id": 1, "command": MINT}, "ok", 1)
        self.assertTrue(any("janma.conceive" in m for m in s.logs))

    def test_custody_operations_are_janma_s(self):
        # D-034: custody.* belongs to janma, although TAB-4's family column says "custody".
        handlers = {q: (lambda st, query: EMPTY_WORLD) for q in SPEC.query_names}
        handlers["custody.attempt"] = lambda st, c: []
        s = session(profile=["janma"], handlers=handlers, state=None, reset=lambda st: None)
        self.assertEqual(SPEC.operations["custody.attempt"], "janma")
        self.assertEqual(SPEC.operations["custody.expire"], "janma")
        self.assertNotIn("custody", SPEC.families)
        self.assertFalse(any("custody.attempt" in m for m in s.logs), s.logs)  # handled, so not listed as unhandled
        self.assertTrue(any("custody.expire" in m for m in s.logs), s.logs)  # sendable to janma, no handler
        with self.assertRaises(ConfigurationError):
            session(profile=["advaita"], handlers={**full_handlers(), "custody.attempt": lambda st, c: []}, state=None, reset=lambda st: None)


class Configuration(unittest.TestCase):
    def refused(self, word, **options):
        with self.assertRaises(ConfigurationError) as e:
            session(handshake=False, **options)
        self.assertIn(word, str(e.exception))

    def test_what_the_runner_could_not_drive_is_refused_before_any_line(self):
        self.refused("did you mean 'advaita.mint'", handlers={"advaita.mnit": lambda s, c: []})
        self.refused("names no operation", handlers={"frobnicate": lambda s, c: []})
        self.refused("families are distinct", profile=["advaita", "advaita"])
        self.refused("families are distinct", profile=["karma"])
        self.refused("families are distinct", profile=["custody"])  # TAB-4's column, not a W-5.2 family (D-034)
        self.refused("not callable", handlers={"world": "EMPTY"})
        self.refused("is not in the profile", profile=["advaita"], handlers=full_handlers(**{"janma.birth": lambda s, c: []}), reset=lambda s: None)
        self.refused("is not in the profile", profile=[], handlers={"advaita.mint": lambda s, c: []})
        self.refused("name must be", name="")
        self.refused("version must be", version="v" * 65)

    def test_accepting_commands_needs_every_query_and_reset(self):
        handlers = full_handlers()
        del handlers["lineage"]
        self.refused("no handler for lineage", profile=["advaita"], handlers=handlers, reset=lambda s: None)
        self.refused("needs reset=", profile=["advaita"], handlers=full_handlers())

    def test_an_empty_table_needs_nothing(self):
        s = session(handshake=False)
        self.assertEqual(s.logs, [])


if __name__ == "__main__":
    unittest.main()
