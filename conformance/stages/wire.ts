/**
 * The wire-robustness stage: hostile and malformed input over the wire (spec/wire/PROTOCOL.md W-1,
 * W-2.1, W-2.3, W-3, W-4). On a fresh session holding some state (one `advaita.mint`), the stage
 * snapshots the world and the bytes of every file under the data directory, sends the catalog of
 * `wire-catalog.ts` as raw lines, checks each line's reply (code, id, `definite: true`,
 * `invariant: null`), then checks that the process is alive, the world unchanged and the data
 * directory byte-for-byte unchanged ("Input, however hostile, MUST NOT crash the implementation
 * or change its data directory", W-4).
 *
 * The catalog is first sent pipelined, in one write, followed by a sentinel request: the replies
 * before the sentinel's must be exactly one per non-empty line, in order (W-1.6), and are then
 * matched 1:1 with the lines. When that fails (a reply too many or missing, something on stdout that
 * is not a Reply, or the process died) the replies cannot be attributed, so the catalog is sent
 * again on a new session line by line, each line followed by a sentinel, which names the exact line
 * that went wrong; the batch-level symptom is then kept as a note. A hang is inconclusive, a crash
 * is a W-4 finding.
 *
 * Driver and checker (issue 22): this file drives. `drivePass` sends, receives, reads the data
 * directory and records all of it in a history (wire-history.ts); it decides only what it needs to
 * go on (stop a pass at a crash or a hang, and whether to send the catalog again line by line,
 * which it asks the checker). The checkers of wire-check.ts read the history and decide the
 * findings, notes, check counts and the outcome; the stage is drive, then check.
 *
 * The stage concerns no invariant: it records no witnesses, and its findings have `invariant: null`.
 */
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { Reply } from "../../spec/wire/index.ts";
import type { SentRequest } from "../core/history.ts";
import { newHistory } from "../core/history.ts";
import { explain, type Session } from "../driver/target.ts";
import type { WireClient } from "../transport/client.ts";
import { outOfTime } from "./budget.ts";
import { STAGE_CATALOG } from "../core/stage-catalog.ts";
import { ONE_UNIT, type StageDefinition } from "./definition.ts";
import { Undrivable, WireBreak, type StageContext, type StageOutcome } from "./types.ts";
import {
  buildCatalog,
  sentinelId,
  setupMint,
  SETUP_MINT_ID,
  WORLD_AFTER_ID,
  WORLD_BEFORE_ID,
  type CatalogEntry,
} from "./wire-catalog.ts";
import { checkPass, checkWire, pipelinedNeedsRerun, type Pass } from "./wire-check.ts";
import {
  rawBytes,
  STEP_SETUP_MINT,
  STEP_WORLD_AFTER,
  STEP_WORLD_BEFORE,
  WIRE_UNIT,
  type Exit,
  type Mode,
  type WireEvent,
  type WireHistory,
} from "./wire-history.ts";

export { checkPass, checkWire, dirDifference, pipelinedNeedsRerun, type Pass } from "./wire-check.ts";
export type { Mode, WireEvent, WireHistory } from "./wire-history.ts";

/** After the process exits, how long its last stdout bytes may still be on their way (Node reports exit before the pipe is drained). */
const EXIT_DRAIN_MS = 250;

// --- The data directory, as bytes ---------------------------------------------------------------

/** Every entry under `dir`, recursively: relative path -> SHA-256 of the file (or the link target, or "dir"). */
export const snapshotDir = (dir: string): Map<string, string> => {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    let names: string[];
    try {
      names = readdirSync(join(dir, rel));
    } catch {
      return; // removed while we looked: the comparison reports it missing
    }
    for (const name of names.sort()) {
      const r = rel === "" ? name : join(rel, name);
      const abs = join(dir, r);
      try {
        const st = lstatSync(abs);
        if (st.isSymbolicLink()) out.set(r, `link:${readlinkSync(abs)}`);
        else if (st.isDirectory()) {
          out.set(`${r}/`, "dir");
          walk(r);
        } else out.set(r, createHash("sha256").update(readFileSync(abs)).digest("hex"));
      } catch {
        // A file that vanished between the listing and the read (a temporary file) is not there.
      }
    }
  };
  walk("");
  return out;
};

// --- Sending lines and collecting their replies ---------------------------------------------------

type Batch =
  | { readonly end: "sentinel"; readonly replies: Reply[] }
  | { readonly end: "exited"; readonly replies: Reply[]; readonly why: string }
  | { readonly end: "timeout"; readonly replies: Reply[]; readonly why: string };

/** Every reply already queued as unmatched, without waiting for more. */
const drain = async (client: WireClient): Promise<Reply[]> => {
  const out: Reply[] = [];
  for (;;) {
    try {
      out.push(await client.nextUnmatched(0));
    } catch {
      return out;
    }
  }
};

/**
 * Writes `data`, then a sentinel world query through the client's matched path. Lines are answered
 * in order (W-1.6), so when the sentinel's reply arrives every reply to `data` is already queued as
 * unmatched; a crash settles the sentinel at once instead of waiting out a timeout.
 */
const sendBatch = async (client: WireClient, data: Buffer, sentinel: string): Promise<Batch> => {
  client.sendRaw(data);
  const o = await client.send({ type: "query", id: sentinel, query: { name: "world" } });
  if (o.kind === "exited") {
    await new Promise((r) => setTimeout(r, EXIT_DRAIN_MS));
    return { end: "exited", replies: await drain(client), why: explain(client, "the implementation ended") };
  }
  if (o.kind === "timeout")
    return {
      end: "timeout",
      replies: await drain(client),
      why: explain(client, `no reply within ${o.ms} ms (to the line, or to the request sent after it)`),
    };
  // A reply, or a sentinel reply that broke the protocol (recorded in client.violations): either way the batch is over.
  return { end: "sentinel", replies: await drain(client) };
};

const exitOf = (client: WireClient): Exit | null => {
  const x = client.exitInfo;
  return x === null ? null : { code: x.code, signal: x.signal };
};

/**
 * Sends the catalog lines `lines` in one write, then a sentinel, and records the batch: the bytes,
 * how it ended, the replies, the violations the client saw meanwhile, and the exit (with the last
 * stderr lines, read at once) when the process ended. Returns how it ended.
 */
const driveBatch = async (
  client: WireClient,
  catalog: readonly CatalogEntry[],
  lines: readonly number[],
  sentinel: string,
  mode: Mode,
  events: WireHistory["events"],
): Promise<Batch["end"]> => {
  const v0 = client.violations.length;
  const data = Buffer.concat(lines.map((i) => catalog[i]?.line ?? Buffer.alloc(0)));
  // Encoded before sending: recording adds no delay between the sentinel's reply and the requests after it.
  const bytes = rawBytes(data);
  const b = await sendBatch(client, data, sentinel);
  const exited = b.end === "exited";
  events.push({
    kind: "wire-batch",
    part: mode,
    lines: [...lines],
    bytes,
    sentinel,
    end: b.end,
    why: b.end === "sentinel" ? null : b.why,
    replies: b.replies,
    violations: client.violations.slice(v0).map((v) => ({ rule: v.rule, message: v.message, raw: v.raw })),
    exit: exited ? exitOf(client) : null,
    stderrTail: exited ? client.stderrTail(10) : null,
  });
  return b.end;
};

// --- One pass of the catalog on one session --------------------------------------------------------

/**
 * The driver's own request `step` around the catalog: the reply, recorded as an exchange; or a
 * break of the protocol, the process gone (at the world query after the catalog, a crash) or no
 * reply (recorded, and null: the pass cannot go on).
 */
const ask = async (
  session: Session,
  step: number,
  request: SentRequest,
  mode: Mode,
  events: WireHistory["events"],
): Promise<Reply | null> => {
  try {
    const reply = await session.reply(request);
    events.push({ kind: "exchange", part: mode, step, request, expected: null, reply });
    return reply;
  } catch (e) {
    if (e instanceof WireBreak)
      events.push({ kind: "break", part: mode, step, rule: e.rule, message: e.message, raw: e.raw });
    else if (e instanceof Undrivable && step === STEP_WORLD_AFTER && session.client.hasExited)
      events.push({
        kind: "wire-exited",
        part: mode,
        when: "world-after",
        exit: exitOf(session.client),
        stderrTail: session.client.stderrTail(10),
      });
    else if (e instanceof Undrivable) events.push({ kind: "stopped", part: mode, reason: e.message });
    else throw e;
    return null;
  }
};

const worldQuery = (id: string): SentRequest => ({ type: "query", id, query: { name: "world" } });

/**
 * The driver of one pass, recording into `history` under the part `mode`: a fresh session, the
 * setup mint, the world and the data directory before, the catalog in `mode` (pipelined: one
 * batch; sequential: one batch per line, stopping at a crash or a hang), the data directory after
 * (whether or not the process survived), then the world after, unless the process is gone. A hang
 * kills the process and ends the pass.
 */
export const drivePass = async (
  ctx: StageContext,
  catalog: readonly CatalogEntry[],
  mode: Mode,
  history: WireHistory,
): Promise<void> => {
  const events = history.events;
  let session: Session;
  try {
    session = await ctx.target.open();
  } catch (e) {
    if (e instanceof Undrivable)
      events.push({
        kind: "wire-open-failed",
        part: mode,
        cause: "undrivable",
        rule: null,
        message: e.message,
        raw: null,
      });
    else if (e instanceof WireBreak)
      events.push({
        kind: "wire-open-failed",
        part: mode,
        cause: "break",
        rule: e.rule,
        message: e.message,
        raw: e.raw,
      });
    else throw e;
    return;
  }
  const client = session.client;
  try {
    // Setup: some state, so that a data directory that must not change is not trivially empty.
    const setup: SentRequest = { type: "command", id: SETUP_MINT_ID, command: setupMint(1, "wire-root-1") };
    if ((await ask(session, STEP_SETUP_MINT, setup, mode, events)) === null) return;
    const before = await ask(session, STEP_WORLD_BEFORE, worldQuery(WORLD_BEFORE_ID), mode, events);
    if (before === null || !before.ok) return; // without the world before, nothing after can be compared
    events.push({ kind: "wire-dir", part: mode, label: "before", entries: [...snapshotDir(session.dataDir)] });

    client.rawMode = true;
    let end: Batch["end"] = "sentinel";
    if (mode === "pipelined") end = await driveBatch(client, catalog, [...catalog.keys()], sentinelId(0), mode, events);
    else
      for (const i of catalog.keys()) {
        end = await driveBatch(client, catalog, [i], sentinelId(i + 1), mode, events);
        if (end !== "sentinel") break; // a crash or a hang: the lines after it cannot be sent
      }
    client.rawMode = false;
    if (end === "timeout") {
      await client.kill();
      return;
    }

    events.push({ kind: "wire-dir", part: mode, label: "after", entries: [...snapshotDir(session.dataDir)] });
    if (client.hasExited) {
      events.push({
        kind: "wire-exited",
        part: mode,
        when: "after-catalog",
        exit: exitOf(client),
        stderrTail: client.stderrTail(10),
      });
      return;
    }
    await ask(session, STEP_WORLD_AFTER, worldQuery(WORLD_AFTER_ID), mode, events);
  } finally {
    client.rawMode = false;
    await session.close().catch(() => undefined);
  }
};

/**
 * One pass, driven on its own history and then checked. Exported so that tests can run the
 * line-by-line mode on its own.
 */
export const runPass = async (ctx: StageContext, catalog: readonly CatalogEntry[], mode: Mode): Promise<Pass> => {
  const history = newHistory<WireEvent>(WIRE_UNIT);
  await drivePass(ctx, catalog, mode, history);
  return checkPass(history, catalog, mode);
};

// --- The stage ------------------------------------------------------------------------------------

/**
 * The stage's driver: the pipelined pass, then, when the checker says its replies cannot be
 * matched to lines, the line-by-line pass on a new session (if the time budget allows).
 */
export const driveWire = async (
  ctx: StageContext,
  catalog: readonly CatalogEntry[],
  history: WireHistory,
): Promise<void> => {
  await drivePass(ctx, catalog, "pipelined", history);
  if (!pipelinedNeedsRerun(history, catalog)) return;
  if (outOfTime(ctx)) history.events.push({ kind: "wire-budget-ended", part: "sequential" });
  else await drivePass(ctx, catalog, "sequential", history);
};

export const wireStage = async (ctx: StageContext): Promise<StageOutcome> => {
  const catalog = buildCatalog();
  const history = newHistory<WireEvent>(WIRE_UNIT);
  await driveWire(ctx, catalog, history);
  return checkWire(history, catalog);
};

/** The wire stage: the whole hostile catalog is one unit, run by one shard. */
export const wire: StageDefinition<"wire"> = { ...STAGE_CATALOG.wire, shard: ONE_UNIT, run: wireStage };
