/**
 * The wire face: turns one framed line into exactly one reply (spec/wire/PROTOCOL.md).
 *
 * Validation order for a line (the first failure decides the wire code, like OP-0.2 does for
 * commands): LINE_TOO_LONG, BAD_ENCODING, NESTING_TOO_DEEP, BAD_JSON, BAD_REQUEST (not an object,
 * unreadable id), DUPLICATE_REQUEST_ID, BAD_REQUEST (no type) / UNKNOWN_OP (unknown type),
 * NOT_HANDSHAKEN, BAD_REQUEST (envelope fields) / UNKNOWN_OP (unknown query name), then the
 * request itself. Nothing in this file can throw out to the process: every failure is a reply.
 */
import { z } from "zod";
import type { Reply, RequestId, WireError, WireErrorCode } from "../../spec/wire/index.ts";
import {
  CrashAfterRequest,
  HelloRequest,
  MAX_LINE_BYTES,
  MAX_NESTING_DEPTH,
  PROTOCOL_VERSION,
  QUERY_NAMES,
  Query,
  REQUEST_TYPES,
  RequestId as RequestIdSchema,
  ResetRequest,
  ShutdownRequest,
} from "../../spec/wire/index.ts";
import { IMPLEMENTATION_NAME, IMPLEMENTATION_VERSION } from "../api.ts";
import type { Engine, OutcomeError } from "../engine.ts";
import { nestsDeeperThan } from "./depth.ts";
import { ijsonDefect } from "./strict-json.ts";
import { RequestIdSet } from "./ids.ts";
import type { Frame } from "./framing.ts";
import { PROTOCOLS } from "../../spec/catalog.ts";
import { BOOTSTRAP_OP, familyOfOp, type Family } from "../../spec/profiles.ts";
import { COMMAND_OP_NAMES } from "../../spec/names.ts";
import { Command } from "../../spec/schemas/commands.ts";

export const SPOKEN_VERSIONS = [PROTOCOL_VERSION] as const;

/** The command envelope, with the command itself left to the operation's schema check (MALFORMED). */
const CommandEnvelope = z.strictObject({ type: z.literal("command"), id: RequestIdSchema, command: z.unknown() });
const QueryEnvelope = z.strictObject({ type: z.literal("query"), id: RequestIdSchema, query: z.unknown() });

// ignoreBOM: a leading U+FEFF is kept in the text (the default strips it silently), so that a
// line starting with a byte-order mark is BAD_JSON as W-1.9 says, not read as if it were absent.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * W-1.9 (review G-16): a line is ignored iff it holds only JSON whitespace (space, tab, CR; LF
 * cannot occur inside a line). Unicode White_Space beyond those (U+00A0, a BOM, U+2028, U+3000...)
 * is not JSON whitespace: `String.prototype.trim` would ignore such a line, but JSON.parse
 * refuses it, and the spec answers it BAD_JSON.
 */
const JSON_WHITESPACE_ONLY = /^[ \t\r]*$/;

type Id = RequestId | null;

const wireError = (id: Id, code: WireErrorCode, detail: string, path?: (string | number)[]): Reply => {
  const error: WireError = { code, invariant: null, message: `${code}: ${detail}`, definite: code !== "INTERNAL" };
  if (path !== undefined) error.path = path;
  return { type: "reply", id, ok: false, error };
};

const fromOutcome = (id: RequestId, e: OutcomeError): Reply => ({ type: "reply", id, ok: false, error: { ...e } });

const zodPath = (err: z.ZodError): { path: (string | number)[]; message: string } => {
  const issue = err.issues[0];
  const path = (issue?.path ?? []).map((p) => (typeof p === "number" ? p : String(p)));
  return { path, message: `${issue?.message ?? "invalid"}${path.length > 0 ? ` at ${path.join(".")}` : ""}` };
};

export class WireServer {
  private handshaken = false;
  /** W-2.1: every id read counts as used for the process lifetime (compact, exact: D-039). */
  private readonly seenIds = new RequestIdSet();
  private stopped = false;

  /**
   * `families`: the profile this process declares in `hello` (W-5.2); all four by default. With
   * fewer (`impl/main.ts --families`), it refuses a command of an undeclared family with
   * `UNSUPPORTED` (D-049): the runner promises never to send one, so a refusal here shows a
   * runner that broke W-5.2 instead of hiding it behind a full implementation.
   */
  constructor(
    private readonly engine: Engine,
    private readonly families: readonly Family[] = PROTOCOLS,
  ) {}

  /**
   * W-2.2 (D-040): `shutdown` was answered. From then on nothing is read or executed: the caller
   * writes that reply, drops whatever input follows (even in the same chunk) and exits.
   */
  get shutDown(): boolean {
    return this.stopped;
  }

  /** One frame in, at most one reply out (null for an ignored empty line, and for anything after shutdown). */
  handle(frame: Frame): Reply | null {
    if (this.stopped) return null;
    try {
      return this.handleFrame(frame);
    } catch (e) {
      return wireError(null, "INTERNAL", e instanceof Error ? e.message : String(e));
    }
  }

  private handleFrame(frame: Frame): Reply | null {
    if (frame.kind === "too_long") {
      return wireError(null, "LINE_TOO_LONG", `line of ${frame.length} bytes exceeds ${MAX_LINE_BYTES}; discarded`);
    }
    let text: string;
    try {
      text = utf8.decode(frame.bytes);
    } catch {
      return wireError(null, "BAD_ENCODING", "line is not valid UTF-8");
    }
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (JSON_WHITESPACE_ONLY.test(text)) return null;
    if (nestsDeeperThan(text, MAX_NESTING_DEPTH))
      return wireError(null, "NESTING_TOO_DEEP", `JSON nests deeper than ${MAX_NESTING_DEPTH}`);
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      return wireError(null, "BAD_JSON", e instanceof Error ? e.message : "not JSON");
    }
    // W-1.8 (D-044): valid RFC 8259 grammar is not enough; a duplicate member name or a lone
    // surrogate makes the line BAD_JSON, as in I-JSON.
    const defect = ijsonDefect(text);
    if (defect !== null) return wireError(null, "BAD_JSON", defect.message);
    if (typeof msg !== "object" || msg === null || Array.isArray(msg))
      return wireError(null, "BAD_REQUEST", "a request must be a JSON object");
    const obj = msg as Record<string, unknown>;
    const idParse = RequestIdSchema.safeParse(obj["id"]);
    if (!idParse.success) {
      return wireError(
        null,
        "BAD_REQUEST",
        "missing or invalid id: a string of 1-128 characters or a non-negative safe integer",
        ["id"],
      );
    }
    const id = idParse.data;
    if (!this.seenIds.add(id))
      return wireError(id, "DUPLICATE_REQUEST_ID", `request id ${JSON.stringify(id)} was already used`, ["id"]);
    const type = obj["type"];
    // W-4.1 (review G-11): a `type` that is absent or not a string is a malformed envelope; only a string naming no type is UNKNOWN_OP.
    if (typeof type !== "string")
      return wireError(
        id,
        "BAD_REQUEST",
        type === undefined
          ? "missing message type"
          : `the message type must be a string, got ${JSON.stringify(type).slice(0, 40)}`,
        ["type"],
      );
    if (!(REQUEST_TYPES as readonly string[]).includes(type))
      return wireError(id, "UNKNOWN_OP", `unknown message type ${JSON.stringify(type).slice(0, 80)}`, ["type"]);
    if (type === "hello") return this.hello(id, obj);
    if (!this.handshaken) return wireError(id, "NOT_HANDSHAKEN", "send hello first");
    switch (type) {
      case "command":
        return this.command(id, obj);
      case "query":
        return this.query(id, obj);
      case "reset":
        return this.reset(id, obj);
      case "crash_after":
        return this.crashAfter(id, obj);
      case "shutdown":
        return this.shutdown(id, obj);
      default:
        return wireError(id, "UNKNOWN_OP", `unknown message type ${type}`, ["type"]);
    }
  }

  private hello(id: RequestId, obj: unknown): Reply {
    if (this.handshaken)
      return wireError(id, "BAD_REQUEST", "already handshaken; hello is accepted once per process", ["type"]);
    const p = HelloRequest.safeParse(obj);
    if (!p.success) {
      const { path, message } = zodPath(p.error);
      return wireError(id, "BAD_REQUEST", message, path);
    }
    const chosen = p.data.protocol_versions.find((v) => (SPOKEN_VERSIONS as readonly string[]).includes(v));
    if (chosen === undefined) {
      return wireError(
        id,
        "UNSUPPORTED_VERSION",
        `no common protocol version; this implementation speaks ${SPOKEN_VERSIONS.join(", ")}`,
        ["protocol_versions"],
      );
    }
    this.handshaken = true;
    return {
      type: "reply",
      id,
      ok: true,
      events: [],
      result: {
        implementation: { name: IMPLEMENTATION_NAME, version: IMPLEMENTATION_VERSION },
        protocol_version: chosen,
        protocol_versions: [...SPOKEN_VERSIONS],
        profile: { families: [...this.families], crash_hook: this.engine.supportsCrash },
      },
    };
  }

  private command(id: RequestId, obj: unknown): Reply {
    const p = CommandEnvelope.safeParse(obj);
    if (!p.success) {
      const { path, message } = zodPath(p.error);
      return wireError(id, "BAD_REQUEST", message, path);
    }
    // A command failing the Command schema is MALFORMED whatever its family (W-2.3; the engine
    // says so): only a well-formed command of an undeclared family is refused here.
    const cmd = p.data.command;
    const op =
      typeof cmd === "object" && cmd !== null && !Array.isArray(cmd) ? (cmd as { op?: unknown }).op : undefined;
    const undeclared =
      typeof op === "string" &&
      (COMMAND_OP_NAMES as readonly string[]).includes(op) &&
      op !== BOOTSTRAP_OP &&
      !this.families.includes(familyOfOp(op));
    if (undeclared && Command.safeParse(cmd).success) {
      return wireError(
        id,
        "UNSUPPORTED",
        `${op} belongs to the ${familyOfOp(op)} family, which this process does not declare (profile: ${this.families.join(", ") || "empty"}; D-049)`,
        ["command", "op"],
      );
    }
    const out = this.engine.apply(p.data.command);
    return out.ok ? { type: "reply", id, ok: true, events: out.events } : fromOutcome(id, out.error);
  }

  private query(id: RequestId, obj: unknown): Reply {
    const env = QueryEnvelope.safeParse(obj);
    if (!env.success) {
      const { path, message } = zodPath(env.error);
      return wireError(id, "BAD_REQUEST", message, path);
    }
    const raw = env.data.query;
    const name = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>)["name"] : undefined;
    if (typeof name === "string" && !(QUERY_NAMES as readonly string[]).includes(name)) {
      return wireError(id, "UNKNOWN_OP", `unknown query ${JSON.stringify(name).slice(0, 80)}`, ["query", "name"]);
    }
    const q = Query.safeParse(raw);
    if (!q.success) {
      const { path, message } = zodPath(q.error);
      return wireError(id, "BAD_REQUEST", message, ["query", ...path]);
    }
    const out = this.engine.query(q.data);
    return out.ok
      ? { type: "reply", id, ok: true, events: [], result: out.result as z.core.util.JSONType }
      : fromOutcome(id, out.error);
  }

  private reset(id: RequestId, obj: unknown): Reply {
    const p = ResetRequest.safeParse(obj);
    if (!p.success) return wireError(id, "BAD_REQUEST", zodPath(p.error).message, zodPath(p.error).path);
    try {
      this.engine.reset();
    } catch (e) {
      return wireError(id, "INTERNAL", `reset failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    return { type: "reply", id, ok: true, events: [] };
  }

  private crashAfter(id: RequestId, obj: unknown): Reply {
    const p = CrashAfterRequest.safeParse(obj);
    if (!p.success) return wireError(id, "BAD_REQUEST", zodPath(p.error).message, zodPath(p.error).path);
    if (!this.engine.supportsCrash)
      return wireError(id, "UNSUPPORTED", "this instance has no crash hook (volatile storage)");
    this.engine.armCrash(p.data.writes, p.data.at);
    return { type: "reply", id, ok: true, events: [] };
  }

  private shutdown(id: RequestId, obj: unknown): Reply {
    const p = ShutdownRequest.safeParse(obj);
    if (!p.success) return wireError(id, "BAD_REQUEST", zodPath(p.error).message, zodPath(p.error).path);
    this.stopped = true;
    return { type: "reply", id, ok: true, events: [] };
  }
}
