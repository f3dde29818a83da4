"""One process's conversation with the runner: each frame in, at most one reply out (spec/wire/PROTOCOL.md).

The checks of W-4, in its order; the first that fails decides the code:

====  ==============================================  =====================================
row   check                                           code (id in the reply)
====  ==============================================  =====================================
1     line longer than MAX_LINE_BYTES (W-1.4)         LINE_TOO_LONG (null)
2     not valid UTF-8                                 BAD_ENCODING (null)
\-    JSON whitespace only, after a trailing "\\r"     no reply (W-1.2, W-1.9)
      is dropped
3     nests deeper than MAX_NESTING_DEPTH (W-1.5)     NESTING_TOO_DEEP (null)
4     not one strict JSON value (W-1.8)               BAD_JSON (null)
5     not an object, or ``id`` missing or invalid     BAD_REQUEST (null)
6     ``id`` already used by this process (W-2.1)     DUPLICATE_REQUEST_ID (the id)
7     ``type`` absent or not a string / unknown       BAD_REQUEST / UNKNOWN_OP (the id)
8     not ``hello`` before a successful handshake     NOT_HANDSHAKEN (the id)
9     envelope fields / unknown query name (W-4.1)    BAD_REQUEST / UNKNOWN_OP (the id)
10    no common version / ``crash_after``, no hook    UNSUPPORTED_VERSION / UNSUPPORTED
====  ==============================================  =====================================

then the request itself: a command is checked against the Command schema and the rules that apply
to it (``MALFORMED`` with the path inside the command, W-2.3, OP-0.2 step 1), a query against the
Query schema (``BAD_REQUEST``, W-4.1 row 9 (d)), and each goes to the implementer's handler.
Nothing raised in here reaches the process: every failure is a reply (W-4: input, however hostile,
must not crash the implementation).
"""

from __future__ import annotations

import difflib
import re
import sys
import traceback
from typing import Any, Callable, Iterable, Mapping

from . import strict_json
from .depth import nests_deeper_than
from .errors import Internal, Refusal, error_reply, ok_reply
from .framing import Frame, TooLong
from .limits import MAX_LINE_BYTES, MAX_NESTING_DEPTH, REQUEST_TYPES, SPOKEN_VERSIONS
from .output import NotJson, plain
from .spec import Spec

Handler = Callable[[Any, dict[str, Any]], Any]

_JSON_WHITESPACE = re.compile("[ \t\r]*")

#: W-6: the schema of each query's result: (schema file, definition, whether it is a list of them).
QUERY_RESULTS: dict[str, tuple[str, str | None, bool]] = {
    "world": ("WorldView", None, False),
    "agent": ("WorldView", "AgentView", False),
    "store": ("WorldView", "StoreView", False),
    "lineage": ("LineageResult", None, False),
    "instances": ("WorldView", "InstanceView", True),
    "instance_state": ("InstanceStateResult", None, False),
    "obligations": ("DistillationObligation", None, True),
    "identity": ("IdentityResult", None, False),
    "substrate": ("PersistentSubstrate", None, False),
    "authority": ("AuthorityResult", None, False),
    "migration": ("MigrationResult", None, False),
}

#: The world of an implementation that accepts no command (W-2.4: tick 0, no agents, no roots).
EMPTY_WORLD = {"tick": 0, "roots_used": [], "agents": []}


def _log_to_stderr(message: str) -> None:
    print(f"srk_adapter: {message}", file=sys.stderr, flush=True)


class ConfigurationError(ValueError):
    """``serve``'s arguments do not describe an implementation the runner could drive; the message says why."""


class Session:
    """The state of one process's wire conversation: the handshake, the ids used, the implementer's handlers.

    ``handlers`` maps operation names (TAB-4: ``"advaita.mint"``…) and query names (W-6: ``"world"``…)
    to functions ``handler(state, params)``; see the package's README for the contract.
    """

    def __init__(
        self,
        *,
        name: str,
        version: str,
        profile: Iterable[str],
        handlers: Mapping[str, Handler],
        state: Any = None,
        reset: Callable[[Any], Any] | None = None,
        crash_after: Callable[[Any, int, str], Any] | None = None,
        spec: Spec | None = None,
        check_results: bool = True,
        log: Callable[[str], None] = _log_to_stderr,
    ) -> None:
        self.spec = spec if spec is not None else Spec()
        self.name, self.version = name, version
        self.families = list(profile)
        self.handlers = dict(handlers)
        self.state = state
        self.reset_handler = reset
        self.crash_hook = crash_after
        self.check_results = check_results
        self.log = log
        self._configure()
        schemas = self.spec.schemas
        self._request_id = schemas.checker("RequestId")
        self._envelopes = {t: schemas.checker(n) for t, n in (("hello", "HelloRequest"), ("reset", "ResetRequest"), ("crash_after", "CrashAfterRequest"), ("shutdown", "ShutdownRequest"))}
        self._command_schema = schemas.checker("Command")
        self._query_schema = schemas.checker("Query")
        self._event = schemas.checker("Event")
        self._results = {q: (schemas.checker(f, d), many) for q, (f, d, many) in QUERY_RESULTS.items()}
        self.handshaken = False
        self.stopped = False
        self.ids: set[Any] = set()

    # -- configuration ---------------------------------------------------------------------------

    def _configure(self) -> None:
        spec = self.spec
        for what, text, most in (("name", self.name, 128), ("version", self.version, 64)):
            if not isinstance(text, str) or not 1 <= len(text) <= most:
                raise ConfigurationError(f"the implementation's {what} must be a string of 1 to {most} characters (HelloResult), got {text!r}")
        unknown = [f for f in self.families if f not in spec.families]
        if unknown or len(set(self.families)) != len(self.families):
            raise ConfigurationError(f"profile {self.families!r}: families are distinct names among {', '.join(spec.families)} (W-5.2)")
        for key, fn in self.handlers.items():
            if key not in spec.operations and key not in spec.query_names:
                near = difflib.get_close_matches(key, [*spec.operations, *spec.query_names], n=1)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                raise ConfigurationError(f"handler {key!r} names no operation (TAB-4) and no query (W-6){hint}")
            if not callable(fn):
                raise ConfigurationError(f"handler {key!r} is not callable")
        operations = [k for k in self.handlers if k in spec.operations]
        for op in operations:
            if not self._sendable(op):
                raise ConfigurationError(f"handler {op!r}: family {spec.operations[op]} is not in the profile {self.families!r}, so the runner never sends it (W-5.2)")
        for hook, what in ((self.reset_handler, "reset"), (self.crash_hook, "crash_after")):
            if hook is not None and not callable(hook):
                raise ConfigurationError(f"{what} must be callable")
        if operations:
            missing = [q for q in spec.query_names if q not in self.handlers]
            if missing:
                raise ConfigurationError(f"an implementation that accepts commands answers every query (W-6); no handler for {', '.join(missing)}")
            if self.reset_handler is None:
                raise ConfigurationError("an implementation that accepts commands needs reset= (W-2.4: the empty world, durably)")
        unhandled = [op for op in spec.operations if self._sendable(op) and op not in self.handlers]
        if unhandled:
            self.log(f"the profile {self.families!r} lets the runner send {len(unhandled)} operation(s) with no handler, answered UNSUPPORTED: {', '.join(unhandled)}")

    def _sendable(self, op: str) -> bool:
        """W-5.2 and D-034: the runner sends an operation of a declared family, and advaita.mint to every non-empty profile."""
        return self.spec.operations[op] in self.families or (op == "advaita.mint" and bool(self.families))

    # -- the W-4 pipeline ------------------------------------------------------------------------

    def handle(self, frame: Frame) -> dict[str, Any] | None:
        """The reply to one frame; None for a line that gets none (blank, or anything after shutdown)."""
        if self.stopped:
            return None
        self._id: Any = None
        try:
            return self._frame(frame)
        except Exception as e:  # a bug of the adapter itself: still one reply, and the process lives
            self.log(f"internal failure: {traceback.format_exc()}")
            return error_reply(self._id, "INTERNAL", f"the adapter failed: {e!r}", definite=False)

    def _frame(self, frame: Frame) -> dict[str, Any] | None:
        if isinstance(frame, TooLong):
            return error_reply(None, "LINE_TOO_LONG", f"a line of {frame.length} bytes, longer than {MAX_LINE_BYTES}, was discarded (W-1.4)")
        try:
            text = frame.decode("utf-8")  # strict: overlong forms, surrogates and bytes past U+10FFFF fail; a BOM is kept
        except UnicodeDecodeError as e:
            return error_reply(None, "BAD_ENCODING", f"the line is not valid UTF-8: byte {e.start} (W-4 row 2)")
        if text.endswith("\r"):
            text = text[:-1]
        if _JSON_WHITESPACE.fullmatch(text):
            return None
        if nests_deeper_than(text, MAX_NESTING_DEPTH):
            return error_reply(None, "NESTING_TOO_DEEP", f"the line nests deeper than {MAX_NESTING_DEPTH} (W-1.5)")
        try:
            msg = strict_json.parse(text)
        except strict_json.JsonDefect as e:
            return error_reply(None, "BAD_JSON", str(e))
        if not isinstance(msg, dict):
            return error_reply(None, "BAD_REQUEST", "a request is a JSON object (W-2)")
        if "id" not in msg:
            return error_reply(None, "BAD_REQUEST", "the request has no id (W-2.1)", path=["id"])
        issue = self._request_id(msg["id"])
        if issue is not None:
            return error_reply(None, "BAD_REQUEST", f"invalid id: a string of 1 to 128 characters or an integer from 0 to 2^53-1 (W-2.1); {issue.message}", path=["id"])
        id = msg["id"]
        if id in self.ids:  # an int and a str are never equal: "1" and 1 are different ids (W-2.1)
            return error_reply(id, "DUPLICATE_REQUEST_ID", f"id {id!r} was already used by this process (W-2.1)", path=["id"])
        self.ids.add(id)
        self._id = id
        kind = msg.get("type")
        if not isinstance(kind, str):
            return error_reply(id, "BAD_REQUEST", "the request has no type" if "type" not in msg else "the type must be a string (W-4.1)", path=["type"])
        if kind not in REQUEST_TYPES:
            return error_reply(id, "UNKNOWN_OP", f"unknown request type {kind[:80]!r}; the types are {', '.join(REQUEST_TYPES)} (W-2.2)", path=["type"])
        if kind == "hello":
            return self._hello(id, msg)
        if not self.handshaken:
            return error_reply(id, "NOT_HANDSHAKEN", "send hello first (W-5.1)")
        return getattr(self, f"_{kind}")(id, msg)

    # -- the requests ----------------------------------------------------------------------------

    def _hello(self, id: Any, msg: dict[str, Any]) -> dict[str, Any]:
        if self.handshaken:
            return error_reply(id, "BAD_REQUEST", "hello succeeds once per process, and it already has (W-5.3)", path=["type"])
        issue = self._envelopes["hello"](msg)
        if issue is not None:
            return error_reply(id, "BAD_REQUEST", str(issue), path=list(issue.path))
        chosen = next((v for v in msg["protocol_versions"] if v in SPOKEN_VERSIONS), None)
        if chosen is None:
            return error_reply(id, "UNSUPPORTED_VERSION", f"no common protocol version; this implementation speaks {', '.join(SPOKEN_VERSIONS)} (W-5.1)", path=["protocol_versions"])
        self.handshaken = True
        return ok_reply(id, result={
            "implementation": {"name": self.name, "version": self.version},
            "protocol_version": chosen,
            "protocol_versions": list(SPOKEN_VERSIONS),
            "profile": {"families": list(self.families), "crash_hook": self.crash_hook is not None},
        })

    def _envelope(self, id: Any, msg: dict[str, Any], field: str) -> dict[str, Any] | None:
        """W-4.1 row 9: a command or query envelope holds exactly type, id and ``field``."""
        for name in msg:
            if name not in ("type", "id", field):
                return error_reply(id, "BAD_REQUEST", f"unexpected envelope member {name[:80]!r}; a {msg['type']} holds type, id and {field} (W-4.1)", path=[name])
        if field not in msg:
            return error_reply(id, "BAD_REQUEST", f"the {msg['type']} has no {field} (W-4.1)", path=[field])
        return None

    def _command(self, id: Any, msg: dict[str, Any]) -> dict[str, Any]:
        refused = self._envelope(id, msg, "command")
        if refused is not None:
            return refused
        command = msg["command"]
        issue = self._command_schema(command)
        if issue is not None:
            return error_reply(id, "MALFORMED", f"the command does not match its schema: {issue}", path=list(issue.path))
        op = command["op"]
        handler = self.handlers.get(op)
        if handler is None:
            why = "has no handler" if self._sendable(op) else f"is outside the declared profile {self.families!r}"
            return error_reply(id, "UNSUPPORTED", f"operation {op} {why}", path=["op"])
        return self._call(id, lambda: handler(self.state, command), query=None)

    def _query(self, id: Any, msg: dict[str, Any]) -> dict[str, Any]:
        refused = self._envelope(id, msg, "query")
        if refused is not None:
            return refused
        query = msg["query"]
        if not isinstance(query, dict):
            return error_reply(id, "BAD_REQUEST", "a query is a JSON object (W-4.1 row 9 (b))", path=["query"])
        name = query.get("name")
        if not isinstance(name, str):
            return error_reply(id, "BAD_REQUEST", "the query has no name, or its name is not a string (W-4.1 row 9 (b))", path=["query", "name"])
        if name not in self.spec.query_names:
            return error_reply(id, "UNKNOWN_OP", f"unknown query {name[:80]!r}; the queries are {', '.join(self.spec.query_names)} (W-6)", path=["query", "name"])
        issue = self._query_schema(query)
        if issue is not None:
            return error_reply(id, "BAD_REQUEST", f"the query does not match its schema: {issue}", path=["query", *issue.path])
        handler = self.handlers.get(name)
        if handler is None:  # only when no operation has a handler (see _configure): the world is empty
            if name != "world":
                return error_reply(id, "NOT_FOUND", f"no agent {query['agent']}: this implementation accepts no command, so its world is empty (W-6)", path=["query", "agent"])
            handler = lambda _state, _query: EMPTY_WORLD
        return self._call(id, lambda: handler(self.state, query), query=name)

    def _reset(self, id: Any, msg: dict[str, Any]) -> dict[str, Any]:
        issue = self._envelopes["reset"](msg)
        if issue is not None:
            return error_reply(id, "BAD_REQUEST", str(issue), path=list(issue.path))
        hook = self.reset_handler
        if hook is None:  # only when no operation has a handler: the world is always empty, nothing to write
            return ok_reply(id)
        return self._call(id, lambda: hook(self.state), query=None, keep=False)

    def _crash_after(self, id: Any, msg: dict[str, Any]) -> dict[str, Any]:
        issue = self._envelopes["crash_after"](msg)
        if issue is not None:
            return error_reply(id, "BAD_REQUEST", str(issue), path=list(issue.path))
        hook = self.crash_hook
        if hook is None:
            return error_reply(id, "UNSUPPORTED", "this implementation has no crash hook (W-7.3; its profile says crash_hook: false)")
        # Arming writes nothing, so a failure here is definite, as for a query.
        return self._call(id, lambda: hook(self.state, msg["writes"], msg["at"]), query="crash_after", keep=False)

    def _shutdown(self, id: Any, msg: dict[str, Any]) -> dict[str, Any]:
        issue = self._envelopes["shutdown"](msg)
        if issue is not None:
            return error_reply(id, "BAD_REQUEST", str(issue), path=list(issue.path))
        self.stopped = True  # W-2.2, D-040: nothing after this reply is read or executed
        return ok_reply(id)

    # -- calling a handler -----------------------------------------------------------------------

    def _call(self, id: Any, run: Callable[[], Any], *, query: str | None, keep: bool = True) -> dict[str, Any]:
        """Run a handler and make its outcome a reply. ``query`` is the query's name (None for a command
        or a reset: those may write, so an unexplained failure is indefinite); ``keep`` says whether
        the handler's return value is the reply's content (events or result)."""
        writes = query is None
        try:
            value = run()
        except Refusal as r:
            return self._refusal(id, r, definite_internal=not writes)
        except Internal as e:
            self.log(f"request {id!r}: INTERNAL ({'definite' if e.definite else 'indefinite'}): {e.message}")
            return error_reply(id, "INTERNAL", e.message, definite=e.definite)
        except Exception as e:
            self.log(f"request {id!r}: the handler raised:\n{traceback.format_exc()}")
            return error_reply(id, "INTERNAL", f"the handler raised {e!r}", definite=not writes)
        if not keep:
            return ok_reply(id)
        try:
            if query is None:
                events = plain([] if value is None else value)
                problem = self._check_events(events)
            else:
                result = plain(value)
                problem = self._check_result(query, result)
        except NotJson as e:
            problem = f"what the handler returned is not JSON: {e}"
        if problem is not None:
            self.log(f"request {id!r}: {problem}")
            return error_reply(id, "INTERNAL", problem, definite=not writes)
        return ok_reply(id, events) if query is None else ok_reply(id, result=result)

    def _refusal(self, id: Any, r: Refusal, *, definite_internal: bool) -> dict[str, Any]:
        row = self.spec.error_codes.get(r.code)
        problem = None
        if row is None:
            problem = f"the handler refused with {r.code!r}, which is no code of TAB-3"
        elif row.kind != "operation":
            problem = f"the handler refused with the wire code {r.code}; wire codes are the adapter's, a handler raises operation codes only"
        elif r.states_invariant and r.invariant != row.invariant:
            problem = f"the handler refused with {r.code} for invariant {r.invariant!r}, but TAB-3 gives {r.code} the invariant {row.invariant!r}"
        if problem is not None or row is None:
            self.log(f"request {id!r}: {problem}")
            return error_reply(id, "INTERNAL", f"{problem}", definite=definite_internal)
        return error_reply(id, r.code, r.message, invariant=row.invariant, definite=row.definite, path=r.path)

    def _check_events(self, events: Any) -> str | None:
        if not isinstance(events, list):
            return f"a command handler returns a list of events (W-3.1), not {type(events).__name__}"
        if not self.check_results:
            return None
        for n, event in enumerate(events):
            issue = self._event(event)
            if issue is not None:
                return f"event {n} does not match the Event schema: {issue}"
        return None

    def _check_result(self, query: str, result: Any) -> str | None:
        if not self.check_results or query not in self._results:
            return None
        check, many = self._results[query]
        items = result if many else [result]
        if many and not isinstance(result, list):
            return f"the result of the {query} query is a list (W-6), not {type(result).__name__}"
        for n, item in enumerate(items):
            issue = check(item)
            if issue is not None:
                where = f"item {n} of " if many else ""
                return f"{where}the result of the {query} query does not match its schema: {issue}"
        return None
