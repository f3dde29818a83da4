#!/usr/bin/env python3
"""The smallest implementation srk can certify: the wire protocol of spec/wire/PROTOCOL.md (version "1") with an
empty profile, no protocol family and no crash hook. srk reports all 19 invariants not applicable, sends no operation,
and checks the protocol itself (W-1..W-5). Python 3.9+, standard library only; docs/IMPLEMENTING.md walks through it. In the kit:
    npx srk certify --impl "python3 docs/examples/empty_profile.py" """
import json, os, re, sys
from itertools import accumulate

MAX_LINE, MAX_DEPTH = 1_048_576, 64  # W-1.4, W-1.5
SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spec", "json-schema")  # the kit's JSON Schemas
load = lambda *path: json.load(open(os.path.join(SCHEMAS, *path), encoding="utf-8"))
COMMAND, QUERY = load("Command.schema.json"), load("wire", "Query.schema.json")
ENVELOPE = {t: load("wire", f"{n}Request.schema.json") for t, n in [("hello", "Hello"), ("reset", "Reset"), ("crash_after", "CrashAfter"), ("shutdown", "Shutdown")]}
TYPES = {"hello", "command", "query", "reset", "crash_after", "shutdown"}  # W-2.2
QUERY_NAMES = {QUERY["$defs"][r["$ref"].split("/")[-1]]["properties"]["name"]["const"] for r in QUERY["$defs"]["Query"]["oneOf"]}
KINDS = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
is_int = lambda v: type(v) is int or (type(v) is float and v.is_integer())
length = len  # D-041: string bounds count code points, as Python's len and JSON Schema's maxLength do

def valid(s, v, root):  # the JSON Schema keywords that the kit's published schemas (spec/json-schema/) use
    if "$ref" in s: return valid(root["$defs"][s["$ref"].split("/")[-1]], v, root)
    t = s.get("type")
    if t == "integer" and not is_int(v) or t == "number" and type(v) not in (int, float) or t in KINDS and type(v) is not KINDS[t]: return False
    if "const" in s and v != s["const"] or "enum" in s and v not in s["enum"]: return False
    if "anyOf" in s or "oneOf" in s: return any(valid(o, v, root) for o in s.get("anyOf", s.get("oneOf")))
    p = s.get("pattern", "")  # every pattern there is anchored with ^…$
    if type(v) is str and not (s.get("minLength", 0) <= length(v) <= s.get("maxLength", length(v)) and re.search(p[:-1] + r"\Z" if p else p, v)): return False
    if type(v) in (int, float) and not s.get("minimum", v) <= v <= s.get("maximum", v): return False
    if type(v) is list:
        return s.get("minItems", 0) <= len(v) <= s.get("maxItems", len(v)) and all(valid(s.get("items", {}), x, root) for x in v)
    if type(v) is dict:
        props, extra = s.get("properties", {}), s.get("additionalProperties", True)
        if any(k not in v for k in s.get("required", [])) or extra is False and any(k not in props for k in v): return False
        return all(valid(props[k], x, root) if k in props else valid(s.get("propertyNames", {}), k, root)
                   and (extra is True or valid(extra, x, root)) for k, x in v.items())
    return True

def too_deep(text):  # W-1.5: {} has depth 1; strings are skipped (an unterminated one runs to the end of the line)
    return max(accumulate((c in "[{") - (c in "]}") for c in re.sub(r'"(?:[^"\\]|\\.)*"?', "", text)), default=0) > MAX_DEPTH
def not_json(constant): raise ValueError(f"{constant} is not JSON")
def number(s): v = float(s); return int(v) if v.is_integer() else v  # W-1.8: the nearest double, any length (inf is not an integer)
def members(pairs): return dict(pairs) if len({k for k, _ in pairs}) == len(pairs) else not_json("a duplicate member name")  # W-1.8

def fail(id, code, message, definite=True):  # W-3.2; no code this program sends protects an invariant
    return {"type": "reply", "id": id, "ok": False, "error": {"code": code, "invariant": None, "message": message, "definite": definite}}

def answer(raw, state):  # the reply to one line (None for an empty line): the W-4 checks in their order, then the request
    try: text = raw.decode("utf-8").removesuffix("\r")  # W-1.2: a trailing \r before \n is ignored
    except UnicodeDecodeError: return fail(None, "BAD_ENCODING", "the line is not UTF-8")
    if not text.strip(" \t\r"): return None  # W-1.9: JSON whitespace only (not U+00A0, U+2028, a BOM...)
    if too_deep(text): return fail(None, "NESTING_TOO_DEEP", f"nested deeper than {MAX_DEPTH}")
    try: msg = json.loads(text, parse_constant=not_json, object_pairs_hook=members, parse_int=number, parse_float=number)
    except ValueError as e: return fail(None, "BAD_JSON", str(e))
    if re.search("[\ud800-\udfff]", json.dumps(msg, ensure_ascii=False)): return fail(None, "BAD_JSON", "a lone surrogate")  # W-1.8
    if type(msg) is not dict or not valid({"$ref": "#/$defs/RequestId"}, msg.get("id"), ENVELOPE["hello"]):
        return fail(None, "BAD_REQUEST", "a request is an object with a valid id")
    id = int(msg["id"]) if type(msg["id"]) is float else msg["id"]
    if (type(id), id) in state["ids"]: return fail(id, "DUPLICATE_REQUEST_ID", "id already used")
    state["ids"].add((type(id), id))  # W-2.1: every id that could be read counts as used
    kind = msg.get("type")
    if type(kind) is not str: return fail(id, "BAD_REQUEST", "no type")
    if kind not in TYPES: return fail(id, "UNKNOWN_OP", f"unknown type {json.dumps(kind)[:40]}")
    if kind != "hello" and not state["hello"]: return fail(id, "NOT_HANDSHAKEN", "send hello first")
    if kind == "hello" and state["hello"]: return fail(id, "BAD_REQUEST", "hello succeeds once per process")
    if kind in ("command", "query") and set(msg) != {"type", "id", kind} or kind in ENVELOPE and not valid(ENVELOPE[kind], msg, ENVELOPE[kind]):
        return fail(id, "BAD_REQUEST", "invalid envelope")
    ok = {"type": "reply", "id": id, "ok": True, "events": []}
    if kind == "hello":  # W-5: the profile declares no family, so srk sends no operation
        if "1" not in msg["protocol_versions"]: return fail(id, "UNSUPPORTED_VERSION", 'this implementation speaks "1"')
        state["hello"] = True
        return {**ok, "result": {"implementation": {"name": "empty-profile-example", "version": "1.0.0"}, "protocol_version": "1",
                                 "protocol_versions": ["1"], "profile": {"families": [], "crash_hook": False}}}
    if kind == "query":  # W-6
        q = msg["query"]
        if type(q) is dict and type(q.get("name")) is str and q["name"] not in QUERY_NAMES: return fail(id, "UNKNOWN_OP", "unknown query")
        if not valid(QUERY, q, QUERY): return fail(id, "BAD_REQUEST", "invalid query")
        if q["name"] != "world": return fail(id, "NOT_FOUND", "no such agent: the world is empty")
        return {**ok, "result": {"tick": 0, "roots_used": [], "agents": []}}
    if kind == "command":  # W-2.3: the schema first (MALFORMED); then: no declared family has this operation
        if not valid(COMMAND, msg["command"], COMMAND): return fail(id, "MALFORMED", "the command does not match its schema")
        return fail(id, "UNSUPPORTED", "this implementation declares no protocol family")
    if kind == "crash_after": return fail(id, "UNSUPPORTED", "no crash hook")
    state["shutdown"] = kind == "shutdown"
    return ok  # shutdown, or reset: the world is always empty, there is nothing to write

def main():
    state, stdin = {"ids": set(), "hello": False, "shutdown": False}, sys.stdin.buffer
    while not state["shutdown"]:
        line, reply = stdin.readline(MAX_LINE + 1), None
        if len(line) > MAX_LINE and not line.endswith(b"\n"):  # W-1.4: discard the rest unread, then one reply with id null
            while (line := stdin.readline(65536)) and not line.endswith(b"\n"): pass
            reply = fail(None, "LINE_TOO_LONG", f"longer than {MAX_LINE} bytes")
        elif line.endswith(b"\n"):
            try: reply = answer(line[:-1], state)
            except Exception as e: reply = fail(None, "INTERNAL", repr(e), definite=False)  # never crash on input (W-4)
        if not line.endswith(b"\n"): return  # end of input (W-1.7): an unterminated last line is ignored
        if reply is not None: sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n"); sys.stdout.flush()

main()
