/**
 * An implementation that answers as fast as the reference model computes: the model behind the
 * wire, for measuring the runner's own overhead (bench/runner.ts). It speaks only what the
 * differential campaign needs — `hello`, `command` (the model's `transition`), the `world` query
 * (`view`), `reset`, `shutdown` — keeps nothing on disk, and is not an implementation to certify
 * (no durability, no crash hook, no hostile-input handling beyond a reply).
 *
 * With BENCH_MODEL_IMPL_STATS=<file>, it appends one JSON line at shutdown: the requests it
 * answered after hello, the milliseconds from the first of them to the shutdown request, and the
 * milliseconds it was busy computing replies.
 *
 * The model itself takes time to answer (a transition per command, a whole world view per world
 * query), so for the runner's overhead the benchmark records one campaign's exchange and plays it
 * back, which answers instantly:
 *   BENCH_MODEL_IMPL_RECORD=<file>    also write every request (without its id) and the reply
 *   BENCH_MODEL_IMPL_PLAYBACK=<file>  answer the k-th request with the k-th recorded reply (the
 *                                     campaign is deterministic); a request that differs from the
 *                                     recorded one is answered INTERNAL, which fails the campaign
 *
 *   node --import tsx bench/model-impl.ts [--data-dir DIR]
 */
import { appendFileSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { Result } from "effect";
import { initialWorld, toRejectionData, transition, view, type World } from "../model/index.ts";
import { PROTOCOL_VERSION } from "../spec/wire/index.ts";

let world: World = initialWorld();
let requests = 0;
let first = 0;
let busy = 0;

type Json = Record<string, unknown>;

const error = (id: unknown, code: string, message: string): Json => ({
  type: "reply",
  id,
  ok: false,
  error: { code, invariant: null, message, definite: true },
});

const answer = (req: Json): Json => {
  const id = req["id"] ?? null;
  switch (req["type"]) {
    case "hello":
      return {
        type: "reply",
        id,
        ok: true,
        events: [],
        result: {
          implementation: { name: "bench-model-impl", version: "0.1.0" },
          protocol_version: PROTOCOL_VERSION,
          protocol_versions: [PROTOCOL_VERSION],
          profile: { families: ["janma", "samskara", "advaita", "ripa"], crash_hook: false },
        },
      };
    case "command": {
      const r = transition(world, req["command"]);
      if (Result.isSuccess(r)) {
        world = r.success.world;
        return { type: "reply", id, ok: true, events: r.success.events };
      }
      const d = toRejectionData(r.failure);
      return {
        type: "reply",
        id,
        ok: false,
        error: { code: d.code, invariant: d.invariant, message: d.message, definite: true },
      };
    }
    case "query": {
      const q = req["query"] as { name?: unknown } | undefined;
      if (q?.name !== "world") return error(id, "UNKNOWN_OP", "the model behind the wire answers only the world query");
      return { type: "reply", id, ok: true, events: [], result: view(world) };
    }
    case "reset":
      world = initialWorld();
      return { type: "reply", id, ok: true, events: [] };
    case "shutdown":
      return { type: "reply", id, ok: true, events: [] };
    default:
      return error(id, "UNKNOWN_OP", `unknown request type ${JSON.stringify(req["type"])}`);
  }
};

const env = (k: string): string | null => {
  const v = process.env[k];
  return v === undefined || v === "" ? null : v;
};
const recordTo = env("BENCH_MODEL_IMPL_RECORD");
const playbackFrom = env("BENCH_MODEL_IMPL_PLAYBACK");

interface Recorded {
  readonly request: string;
  /** The reply's JSON text with `"id":null` standing for the request's id. */
  readonly reply: string;
}

const recording: Recorded[] =
  playbackFrom === null
    ? []
    : readFileSync(playbackFrom, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Recorded);
let cursor = 0;

const withoutId = (req: Json): string => {
  const { id: _id, ...rest } = req;
  return JSON.stringify(rest);
};

/** The reply line to one request (recorded, played back or computed). */
const replyLine = (req: Json): string => {
  const id = req["id"] ?? null;
  const passThrough = req["type"] === "hello" || req["type"] === "shutdown";
  if (playbackFrom !== null && !passThrough) {
    const r = recording[cursor++];
    if (r === undefined || r.request !== withoutId(req))
      return JSON.stringify(error(id, "INTERNAL", "playback: the request differs from the recorded campaign"));
    return r.reply.replace('"id":null', `"id":${JSON.stringify(id)}`);
  }
  const reply = answer(req);
  if (recordTo !== null && !passThrough)
    appendFileSync(
      recordTo,
      `${JSON.stringify({ request: withoutId(req), reply: JSON.stringify({ ...reply, id: null }) })}\n`,
    );
  return JSON.stringify(reply);
};

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  const t = performance.now();
  let req: Json;
  try {
    req = JSON.parse(line) as Json;
  } catch {
    process.stdout.write(`${JSON.stringify(error(null, "BAD_JSON", "not JSON"))}\n`);
    return;
  }
  if (req["type"] !== "hello" && req["type"] !== "shutdown") {
    if (requests === 0) first = t;
    requests++;
  }
  process.stdout.write(`${replyLine(req)}\n`);
  busy += performance.now() - t;
  if (req["type"] === "shutdown") {
    const stats = process.env["BENCH_MODEL_IMPL_STATS"];
    if (stats !== undefined && stats !== "")
      appendFileSync(
        stats,
        `${JSON.stringify({ requests, window_ms: requests === 0 ? 0 : t - first, busy_ms: busy })}\n`,
      );
    lines.close();
    process.stdout.end(() => process.exit(0));
  }
});
lines.on("close", () => {
  process.stdout.end(() => process.exit(0));
});
