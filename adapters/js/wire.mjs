/**
 * The wire face: one framed line in, at most one reply out (spec/wire/PROTOCOL.md).
 *
 * The checks of the W-4 table run in its order and the first failing one decides the code:
 *   1 LINE_TOO_LONG (the framer), 2 BAD_ENCODING, 3 NESTING_TOO_DEEP, 4 BAD_JSON (strict-json.mjs),
 *   5 BAD_REQUEST with id null (not an object; id missing or not a RequestId),
 *   6 DUPLICATE_REQUEST_ID, 7 BAD_REQUEST (type absent or not a string) / UNKNOWN_OP (unknown type),
 *   8 NOT_HANDSHAKEN, 9 BAD_REQUEST (envelope; a second hello) / UNKNOWN_OP (unknown query name),
 *   10 UNSUPPORTED_VERSION (hello) / UNSUPPORTED (crash_after without the crash hook);
 * then the request itself: a command failing the Command schema is MALFORMED (W-2.3, with the
 * path), a query failing the Query schema BAD_REQUEST (W-4.1 d), and the rest goes to the
 * implementer's handler. Nothing here throws out: every failure is a reply, and a failure of the
 * handler or of this file is INTERNAL (W-3.4).
 */
import { decodeLine } from "./strict-json.mjs";
import { MAX_LINE_BYTES } from "./framing.mjs";
import { Refusal } from "./refusal.mjs";
import {
  ENVELOPE_SCHEMA,
  ERROR_CODES,
  OPERATION_FAMILY,
  QUERY_NAMES,
  QUERY_RESULT,
  REQUEST_TYPES,
  envelopeMembers,
  validate,
} from "./spec-data.mjs";

/** The protocol versions this adapter speaks (W-5.1), most preferred first. */
export const SPOKEN_VERSIONS = ["1"];

const HANDLER_KINDS = ["command", "query", "reset", "crash_after"];

/** The empty world (W-2.4), which is the whole world of an implementation with no family. */
const EMPTY_WORLD = () => ({ tick: 0, roots_used: [], agents: [] });

const where = (path) => (path.length === 0 ? "" : ` at ${path.join(".")}`);

const wireError = (id, code, detail, path, definite = code !== "INTERNAL") => {
  const error = { code, invariant: null, message: `${code}: ${detail}`, definite };
  if (path !== undefined) error.path = path;
  return { type: "reply", id, ok: false, error };
};

const ok = (id, result) =>
  result === undefined
    ? { type: "reply", id, ok: true, events: [] }
    : { type: "reply", id, ok: true, events: [], result };

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/** W-2.1: ids are kept for the process lifetime, strings and integers apart (`"1"` is not 1). */
class IdSet {
  constructor() {
    this.strings = new Set();
    this.numbers = new Set();
  }
  /** false when the id was already used */
  add(id) {
    const set = typeof id === "string" ? this.strings : this.numbers;
    if (set.has(id)) return false;
    set.add(id);
    return true;
  }
}

/**
 * @param {object} options
 * @param {{ name: string, version: string }} options.implementation
 * @param {{ families: string[], crash_hook: boolean }} options.profile
 * @param {object} [options.handlers] `{ command: { [op]: fn }, query: { [name]: fn }, reset: fn, crash_after: fn }`
 * @param {boolean} [options.checkReplies] validate events and query results before sending them (default true)
 * @param {(line: string) => void} [options.log] diagnostics (default: stderr, W-1.3)
 */
export const createWire = ({
  implementation,
  profile,
  handlers = {},
  checkReplies = true,
  log = (s) => process.stderr.write(`${s}\n`),
}) => {
  const helloResult = checkConfiguration(implementation, profile, handlers, log);
  const table = withDefaults(profile, handlers);
  const ids = new IdSet();
  let handshaken = false;
  let stopped = false;

  /** A handler's failure (W-3.4): definite only when the request cannot have written anything. */
  const internal = (id, what, e, definite) => {
    log(`${what} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return wireError(
      id,
      "INTERNAL",
      `${what} failed: ${e instanceof Error ? e.message : String(e)}`,
      undefined,
      definite,
    );
  };

  /** Runs a handler; a Refusal becomes its rejection, anything else thrown INTERNAL. */
  const run = async (id, what, fn, arg, definiteOnFailure) => {
    try {
      return { value: await fn(arg, { id }) };
    } catch (e) {
      if (!(e instanceof Refusal)) return { reply: internal(id, what, e, definiteOnFailure) };
      const row = ERROR_CODES.get(e.code);
      if (row === undefined || row.kind !== "operation") {
        return {
          reply: internal(
            id,
            what,
            new Error(
              `it threw a Refusal with code ${JSON.stringify(e.code)}, which is not an operation code of TAB-3 (spec/TABLES.md)`,
            ),
            definiteOnFailure,
          ),
        };
      }
      const invariant = e.invariant === undefined ? row.invariant : e.invariant;
      if (invariant !== row.invariant) {
        return {
          reply: internal(
            id,
            what,
            new Error(
              `it refused with ${e.code} under invariant ${JSON.stringify(invariant)}, but TAB-3 gives ${e.code} the invariant ${JSON.stringify(row.invariant)}`,
            ),
            definiteOnFailure,
          ),
        };
      }
      const error = { code: e.code, invariant, message: e.message, definite: true };
      if (e.path !== undefined) error.path = e.path;
      return { reply: { type: "reply", id, ok: false, error } };
    }
  };

  /** With checkReplies, a result that fails its schema is reported on stderr (and sent as returned: srk then reports it too). */
  const checkResult = (id, what, schema, value) => {
    if (!checkReplies) return;
    const [name, many] = Array.isArray(schema) ? [schema[0], true] : [schema, false];
    const items = many ? value : [value];
    if (many && !Array.isArray(value)) {
      log(
        `${what} (request ${JSON.stringify(id)}) returned ${typeof value}, not an array of ${name}; sent as returned`,
      );
      return;
    }
    for (const [i, item] of items.entries()) {
      const f = validate(name, item);
      if (f !== null) {
        log(
          `${what} (request ${JSON.stringify(id)}) returned a value that is not a valid ${name}${many ? ` at index ${i}` : ""}${where(f.path)}: ${f.message} [${f.keyword}]; sent as returned`,
        );
        return;
      }
    }
  };

  const hello = (id, msg) => {
    if (handshaken)
      return wireError(id, "BAD_REQUEST", "hello succeeds once per process, and this one already handshook (W-5.3)", [
        "type",
      ]);
    const f = validate("HelloRequest", msg);
    if (f !== null) return wireError(id, "BAD_REQUEST", `invalid hello${where(f.path)}: ${f.message}`, f.path);
    const chosen = msg.protocol_versions.find((v) => SPOKEN_VERSIONS.includes(v));
    if (chosen === undefined)
      return wireError(
        id,
        "UNSUPPORTED_VERSION",
        `no common protocol version; this implementation speaks ${SPOKEN_VERSIONS.join(", ")}`,
        ["protocol_versions"],
      );
    handshaken = true;
    return ok(id, {
      implementation: helloResult.implementation,
      protocol_version: chosen,
      protocol_versions: helloResult.protocol_versions,
      profile: helloResult.profile,
    });
  };

  /** Row 9 for command and query (W-4.1): exactly the envelope's members, all present. */
  const envelope = (id, type, msg) => {
    const { members, required } = envelopeMembers(type);
    const extra = Object.keys(msg).find((k) => !members.includes(k));
    if (extra !== undefined)
      return wireError(
        id,
        "BAD_REQUEST",
        `unknown envelope member ${JSON.stringify(extra).slice(0, 80)}; a ${type} request holds exactly ${members.join(", ")}`,
        [extra],
      );
    const missing = required.find((k) => !Object.hasOwn(msg, k));
    if (missing !== undefined)
      return wireError(id, "BAD_REQUEST", `the ${type} request has no ${missing} member`, [missing]);
    return null;
  };

  const command = async (id, msg) => {
    const bad = envelope(id, "command", msg);
    if (bad !== null) return bad;
    const cmd = msg.command;
    const f = validate("Command", cmd);
    // W-2.3, OP-0.2: a command failing its schema is the operation rejection MALFORMED, with the path.
    if (f !== null)
      return {
        type: "reply",
        id,
        ok: false,
        error: {
          code: "MALFORMED",
          invariant: null,
          message: `the command does not match its schema${where(f.path)}: ${f.message}`,
          path: f.path,
          definite: true,
        },
      };
    const family = OPERATION_FAMILY.get(cmd.op);
    if (!profile.families.includes(family) && !(cmd.op === "advaita.mint" && profile.families.length > 0)) {
      return wireError(
        id,
        "UNSUPPORTED",
        `${cmd.op} belongs to the family ${family}, which the profile does not declare (W-5.2, D-034)`,
      );
    }
    const fn = Object.hasOwn(table.command, cmd.op) ? table.command[cmd.op] : undefined;
    if (fn === undefined)
      return wireError(
        id,
        "INTERNAL",
        `no handler for ${cmd.op}, an operation the profile declares; nothing was executed`,
        undefined,
        true,
      );
    const out = await run(id, `the handler for ${cmd.op}`, fn, cmd, false);
    if (out.reply !== undefined) return out.reply;
    const events = out.value;
    if (!Array.isArray(events)) {
      return internal(
        id,
        `the handler for ${cmd.op}`,
        new Error(
          `it returned ${events === undefined ? "nothing" : typeof events}; a command handler returns its events, [] when there are none (W-3.1)`,
        ),
        false,
      );
    }
    for (const [i, e] of events.entries()) {
      const ef = checkReplies ? validate("Event", e) : null;
      if (ef !== null) {
        log(
          `the handler for ${cmd.op} (request ${JSON.stringify(id)}) returned an event ${i} that is not a valid Event${where(ef.path)}: ${ef.message} [${ef.keyword}]; sent as returned`,
        );
        break;
      }
    }
    return { type: "reply", id, ok: true, events };
  };

  const query = async (id, msg) => {
    const bad = envelope(id, "query", msg);
    if (bad !== null) return bad;
    const q = msg.query;
    // W-4.1 row 9: (b) not an object or no string name, (c) an unknown name, (d) the Query schema.
    if (!isObject(q)) return wireError(id, "BAD_REQUEST", "the query must be an object with a name", ["query"]);
    if (typeof q.name !== "string")
      return wireError(id, "BAD_REQUEST", "the query has no name, or a name that is not a string", ["query", "name"]);
    if (!QUERY_NAMES.includes(q.name))
      return wireError(
        id,
        "UNKNOWN_OP",
        `unknown query ${JSON.stringify(q.name).slice(0, 80)}; the queries are ${QUERY_NAMES.join(", ")}`,
        ["query", "name"],
      );
    const f = validate("Query", q);
    if (f !== null)
      return wireError(id, "BAD_REQUEST", `invalid ${q.name} query${where(f.path)}: ${f.message}`, [
        "query",
        ...f.path,
      ]);
    const fn = Object.hasOwn(table.query, q.name) ? table.query[q.name] : undefined;
    if (fn === undefined) return wireError(id, "INTERNAL", `no handler for the ${q.name} query`, undefined, true);
    const out = await run(id, `the handler for the ${q.name} query`, fn, q, true);
    if (out.reply !== undefined) return out.reply;
    if (out.value === undefined)
      return internal(
        id,
        `the handler for the ${q.name} query`,
        new Error("it returned nothing; a query handler returns the query's result (W-6)"),
        true,
      );
    checkResult(id, `the handler for the ${q.name} query`, QUERY_RESULT[q.name], out.value);
    return ok(id, out.value);
  };

  /** reset, crash_after, shutdown: the whole request against its schema (row 9), then the step. */
  const simple = async (id, type, msg) => {
    const f = validate(ENVELOPE_SCHEMA[type], msg);
    if (f !== null)
      return wireError(id, "BAD_REQUEST", `invalid ${type} request${where(f.path)}: ${f.message}`, f.path);
    if (type === "shutdown") {
      stopped = true; // W-2.2, D-040: nothing after this reply is read or executed
      return ok(id);
    }
    if (type === "crash_after" && !profile.crash_hook)
      return wireError(id, "UNSUPPORTED", "the profile declares no crash hook (crash_hook: false, W-7.3)");
    const fn = table[type];
    if (fn === undefined) return wireError(id, "INTERNAL", `no ${type} handler`, undefined, true);
    // reset is a durable write (W-2.4): a failure may have happened inside it. Arming the hook writes nothing.
    const out = await run(
      id,
      `the ${type} handler`,
      fn,
      type === "crash_after" ? { writes: msg.writes, at: msg.at } : undefined,
      type === "crash_after",
    );
    return out.reply ?? ok(id);
  };

  const request = async (frame) => {
    if (frame.kind === "too_long")
      return wireError(
        null,
        "LINE_TOO_LONG",
        `a line of ${frame.length} bytes is longer than ${MAX_LINE_BYTES}; discarded`,
      );
    const d = decodeLine(frame.bytes);
    if (d.kind === "empty") return null;
    if (d.kind === "error") return wireError(null, d.code, d.message);
    const msg = d.value;
    if (!isObject(msg)) return wireError(null, "BAD_REQUEST", "a request is a JSON object");
    if (!Object.hasOwn(msg, "id")) return wireError(null, "BAD_REQUEST", "the request has no id", ["id"]);
    const idf = validate("RequestId", msg.id);
    if (idf !== null)
      return wireError(
        null,
        "BAD_REQUEST",
        `invalid id (a string of 1 to 128 characters or an integer from 0 to 2^53-1): ${idf.message}`,
        ["id"],
      );
    const id = msg.id;
    if (!ids.add(id))
      return wireError(
        id,
        "DUPLICATE_REQUEST_ID",
        `the id ${JSON.stringify(id)} was already used by this process (W-2.1)`,
        ["id"],
      );
    const type = msg.type;
    if (typeof type !== "string")
      return wireError(
        id,
        "BAD_REQUEST",
        type === undefined ? "the request has no type" : "the type must be a string",
        ["type"],
      );
    if (!REQUEST_TYPES.includes(type))
      return wireError(
        id,
        "UNKNOWN_OP",
        `unknown request type ${JSON.stringify(type).slice(0, 80)}; the types are ${REQUEST_TYPES.join(", ")}`,
        ["type"],
      );
    if (type === "hello") return hello(id, msg);
    if (!handshaken) return wireError(id, "NOT_HANDSHAKEN", "send hello first");
    if (type === "command") return command(id, msg);
    if (type === "query") return query(id, msg);
    return simple(id, type, msg);
  };

  return {
    /** One frame of the LineFramer in; the reply, or null (an ignored line, or anything after shutdown). */
    async handle(frame) {
      if (stopped) return null;
      try {
        return await request(frame);
      } catch (e) {
        // A failure outside any handler: the adapter cannot tell what happened (W-3.4).
        log(`the adapter failed on a line: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        return wireError(
          null,
          "INTERNAL",
          `the adapter failed: ${e instanceof Error ? e.message : String(e)}`,
          undefined,
          false,
        );
      }
    },
    /** W-2.2: a shutdown was answered; the caller writes that reply, drops everything after it, and exits 0. */
    get stopped() {
      return stopped;
    },
  };
};

/**
 * Checks the options once, at start, so that a mistake is a clear error before any line is read:
 * the HelloResult must be valid (HelloResult schema, no family twice), the handler table may hold
 * only known kinds, operations and query names, each a function, and a crash hook needs its
 * handler. Handlers missing for what the profile declares are reported on stderr (while growing an
 * implementation one may run srk before everything is written); such a request is answered
 * INTERNAL. Returns the HelloResult without its protocol_version, which the hello chooses.
 */
const checkConfiguration = (implementation, profile, handlers, log) => {
  const result = {
    implementation,
    protocol_version: SPOKEN_VERSIONS[0],
    protocol_versions: [...SPOKEN_VERSIONS],
    profile,
  };
  const f = validate("HelloResult", result);
  if (f !== null)
    throw new TypeError(
      `serve: invalid ${f.path[0] ?? "hello result"}${where(f.path.slice(1))}: ${f.message} (HelloResult, W-5.1)`,
    );
  if (new Set(profile.families).size !== profile.families.length)
    throw new TypeError(`serve: the profile lists a family twice: ${JSON.stringify(profile.families)}`);
  if (!isObject(handlers))
    throw new TypeError("serve: handlers must be an object { command, query, reset, crash_after }");
  for (const k of Object.keys(handlers))
    if (!HANDLER_KINDS.includes(k))
      throw new TypeError(
        `serve: unknown handler kind ${JSON.stringify(k)}; the kinds are ${HANDLER_KINDS.join(", ")}`,
      );
  for (const [kind, known] of [
    ["command", [...OPERATION_FAMILY.keys()]],
    ["query", QUERY_NAMES],
  ]) {
    const group = handlers[kind] ?? {};
    if (!isObject(group))
      throw new TypeError(
        `serve: handlers.${kind} must be an object of functions by ${kind === "command" ? "op" : "query name"}`,
      );
    for (const [name, fn] of Object.entries(group)) {
      if (!known.includes(name))
        throw new TypeError(
          `serve: handlers.${kind} names ${JSON.stringify(name)}, which is no ${kind === "command" ? "operation (TAB-4)" : "query (W-6)"}; they are ${known.join(", ")}`,
        );
      if (typeof fn !== "function")
        throw new TypeError(`serve: handlers.${kind}[${JSON.stringify(name)}] is not a function`);
    }
  }
  for (const k of ["reset", "crash_after"])
    if (handlers[k] !== undefined && typeof handlers[k] !== "function")
      throw new TypeError(`serve: handlers.${k} is not a function`);
  if (profile.crash_hook && handlers.crash_after === undefined)
    throw new TypeError("serve: the profile declares crash_hook: true, so handlers.crash_after must arm it (W-7.3)");
  if (!profile.crash_hook && handlers.crash_after !== undefined)
    log(
      "serve: handlers.crash_after is never called: the profile declares crash_hook: false (crash_after is answered UNSUPPORTED)",
    );

  const commands = handlers.command ?? {};
  const sent = (op) =>
    profile.families.includes(OPERATION_FAMILY.get(op)) || (op === "advaita.mint" && profile.families.length > 0);
  const unused = Object.keys(commands).filter((op) => !sent(op));
  if (unused.length > 0)
    log(
      `serve: handlers for ${unused.join(", ")} are never called: their families are not in the profile [${profile.families.join(", ")}] (W-5.2, D-034)`,
    );
  if (profile.families.length > 0) {
    const missing = [
      ...[...OPERATION_FAMILY.keys()].filter((op) => sent(op) && !Object.hasOwn(commands, op)),
      ...QUERY_NAMES.filter((q) => !Object.hasOwn(handlers.query ?? {}, q)).map((q) => `query ${q}`),
      ...(handlers.reset === undefined ? ["reset"] : []),
    ];
    if (missing.length > 0) log(`serve: no handler yet for ${missing.join(", ")}; such requests are answered INTERNAL`);
  }
  return { implementation, protocol_versions: result.protocol_versions, profile };
};

/**
 * With an empty profile nothing can ever be accepted, so the world is always empty: the adapter
 * answers what the implementer has not written (the world query, NOT_FOUND for every agent query,
 * a reset with nothing to write). With a family declared, nothing is assumed.
 */
const withDefaults = (profile, handlers) => {
  const query = { ...(handlers.query ?? {}) };
  let reset = handlers.reset;
  if (profile.families.length === 0) {
    for (const name of QUERY_NAMES) {
      if (Object.hasOwn(query, name)) continue;
      query[name] =
        name === "world"
          ? EMPTY_WORLD
          : (q) => {
              throw new Refusal(
                "NOT_FOUND",
                null,
                `no agent ${q.agent}: the world is empty (the profile declares no family)`,
                ["agent"],
              );
            };
    }
    reset ??= () => undefined;
  }
  return { command: { ...(handlers.command ?? {}) }, query, reset, crash_after: handlers.crash_after };
};
