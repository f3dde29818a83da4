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
 * The stage concerns no invariant: it records no witnesses, and its findings have `invariant: null`.
 */
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { bracketedPath, firstDifferenceOf } from "../../properties/json-diff.ts";
import type { Reply } from "../../spec/wire/index.ts";
import { explain, type Session } from "../driver/target.ts";
import type { WireClient } from "../transport/client.ts";
import { describeExit } from "../transport/process.ts";
import { outOfTime } from "./budget.ts";
import { STAGE_CATALOG } from "../core/stage-catalog.ts";
import { ONE_UNIT, type StageDefinition } from "./definition.ts";
import { outcome, Undrivable, WireBreak, type Finding, type StageContext, type StageOutcome } from "./types.ts";
import {
  buildCatalog,
  describeExpectation,
  describeReply,
  judge,
  repliesExpected,
  sentinelId,
  setupMint,
  SETUP_MINT_ID,
  WORLD_AFTER_ID,
  WORLD_BEFORE_ID,
  type CatalogEntry,
} from "./wire-catalog.ts";

/** After the process exits, how long its last stdout bytes may still be on their way (Node reports exit before the pipe is drained). */
const EXIT_DRAIN_MS = 250;

const finding = (check: string, summary: string): Finding => ({
  invariant: null,
  stage: "wire",
  check,
  summary,
  trace: null,
});

const lineName = (i: number, e: CatalogEntry): string => `line ${i + 1} (${e.label})`;

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

/** null when equal; otherwise which entries were added, removed or changed (at most a few of each). */
export const dirDifference = (
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): string | null => {
  const added = [...after.keys()].filter((k) => !before.has(k));
  const removed = [...before.keys()].filter((k) => !after.has(k));
  const changed = [...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k));
  const list = (what: string, xs: string[]): string =>
    xs.length === 0 ? "" : `${what} ${xs.slice(0, 5).join(", ")}${xs.length > 5 ? ` and ${xs.length - 5} more` : ""}`;
  const parts = [list("added", added), list("removed", removed), list("changed", changed)].filter((s) => s !== "");
  return parts.length === 0 ? null : parts.join("; ");
};

/** The first place where the world before and after differ, with both values (short), or null. */
const worldChange = (before: unknown, after: unknown): string | null => {
  const d = firstDifferenceOf(before, after);
  if (d === null) return null;
  const show = (v: unknown): string => {
    const s = JSON.stringify(v) ?? "absent";
    return s.length > 120 ? `${s.slice(0, 120)}…` : s;
  };
  return `${bracketedPath(d.path)}: before ${show(d.expected)}, after ${show(d.actual)}`;
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

// --- One pass of the catalog on one session --------------------------------------------------------

export interface Pass {
  checks: number;
  readonly findings: Finding[];
  readonly notes: string[];
  /** Why the pass stopped before its end (a hang, a failed start): inconclusive unless there are findings. */
  undrivable: string | null;
  /** Pipelined only: what went wrong with the batch as a whole, before attribution to a line. */
  batchProblem: Finding | null;
  /** Pipelined only, when it reruns: protocol breaks seen in the batch, kept unless the line-by-line pass names them. */
  readonly deferred: Finding[];
  /** Pipelined only: the replies could not be matched to lines; send the catalog again line by line. */
  rerun: boolean;
  /** Sequential only: some line got a wrong number of replies, or killed the process. */
  explainsBatch: boolean;
}

export type Mode = "pipelined" | "sequential";

/** One finding per protocol rule the client saw broken (unparsable stdout, a reply not matching Reply...), with the first instance. */
const violationFindings = (client: WireClient, from: number, where: string): Finding[] => {
  const byRule = new Map<string, { n: number; first: string }>();
  for (const v of client.violations.slice(from)) {
    const seen = byRule.get(v.rule);
    if (seen === undefined) byRule.set(v.rule, { n: 1, first: `${v.message}: ${v.raw}` });
    else seen.n++;
  }
  return [...byRule].map(([rule, { n, first }]) =>
    finding(`wire/${rule}`, `${where}: ${n === 1 ? "" : `${n} times, first: `}${first}`),
  );
};

const crashSummary = (client: WireClient, what: string): string => {
  const exit = client.exitInfo;
  const tail = client.stderrTail(10);
  return `${what}: hostile input must not crash the implementation (W-4), but it ${exit === null ? "ended" : describeExit(exit)}${tail === "" ? "" : `; last stderr lines:\n${tail}`}`;
};

/** Sends the catalog line by line, each followed by a sentinel; stops at a crash or a hang. */
const runSequential = async (client: WireClient, catalog: readonly CatalogEntry[], pass: Pass): Promise<void> => {
  for (const [i, e] of catalog.entries()) {
    const v0 = client.violations.length;
    const b = await sendBatch(client, e.line, sentinelId(i + 1));
    pass.checks++;
    const broke = violationFindings(client, v0, `${lineName(i, e)}: what came back broke the protocol`);
    pass.findings.push(...broke);
    if (b.end === "exited") {
      pass.findings.push(
        finding(
          "wire/W-4",
          crashSummary(
            client,
            `${lineName(i, e)}${b.replies.length === 0 ? "" : `, after replying ${b.replies.map(describeReply).join(", ")}`}`,
          ),
        ),
      );
      pass.explainsBatch = true;
      if (i + 1 < catalog.length)
        pass.notes.push(`lines ${i + 2}..${catalog.length} of the catalog were not sent after the crash`);
      return;
    }
    if (b.end === "timeout") {
      pass.undrivable = `${lineName(i, e)}: ${b.why}`;
      return;
    }
    const wrong = judge(e.expect, b.replies);
    if (wrong !== null && broke.length === 0) {
      pass.findings.push(finding(`wire/${e.rule}`, `${lineName(i, e)}: expected ${describeWanted(e)}, ${wrong}`));
    }
    // A reply too many or too few (or one dropped as a protocol break) explains a pipelined count mismatch.
    if (broke.length > 0 || (wrong !== null && b.replies.length !== (e.expect.kind === "none" ? 0 : 1)))
      pass.explainsBatch = true;
    notice(e, b.replies, pass);
  }
};

/** Sends the catalog in one write; matches the replies 1:1 when there is exactly one per non-empty line. */
const runPipelined = async (client: WireClient, catalog: readonly CatalogEntry[], pass: Pass): Promise<void> => {
  const v0 = client.violations.length;
  const b = await sendBatch(client, Buffer.concat(catalog.map((e) => e.line)), sentinelId(0));
  const expected = repliesExpected(catalog);
  pass.checks++; // W-1.6: one reply per non-empty line, in order
  // Kept for the end: the line-by-line pass, if it runs, names the lines.
  pass.deferred.push(...violationFindings(client, v0, "while answering the pipelined catalog"));
  if (b.end === "timeout") {
    // A hang is inconclusive (a slow implementation and a stuck one look alike); the line-by-line pass may name the line.
    pass.undrivable = `after ${b.replies.length} of ${expected} replies to the pipelined catalog, ${b.why}`;
    pass.rerun = true;
    return;
  }
  if (b.end === "exited") {
    pass.batchProblem = finding(
      "wire/W-4",
      crashSummary(
        client,
        `while answering the pipelined catalog of ${catalog.length} lines, after ${b.replies.length} of ${expected} replies`,
      ),
    );
    pass.rerun = true;
    return;
  }
  if (b.replies.length !== expected) {
    pass.batchProblem = finding(
      "wire/W-1.6",
      `the ${expected} non-empty lines of the catalog, sent in one write, got ${b.replies.length} replies before the reply to the request after them (W-1.6: exactly one reply per non-empty line, in order; W-1.2: none to an empty line)`,
    );
    pass.rerun = true;
    return;
  }
  if (pass.deferred.length > 0) {
    pass.rerun = true; // the count is right, but something on stdout broke the protocol: find which line caused it
    return;
  }
  let next = 0;
  for (const [i, e] of catalog.entries()) {
    pass.checks++;
    const mine = e.expect.kind === "none" ? [] : b.replies.slice(next, ++next);
    const wrong = judge(e.expect, mine);
    if (wrong !== null)
      pass.findings.push(finding(`wire/${e.rule}`, `${lineName(i, e)}: expected ${describeWanted(e)}, ${wrong}`));
    notice(e, mine, pass);
  }
};

const describeWanted = (e: CatalogEntry): string =>
  `${describeExpectation(e.expect)}${e.expect.kind === "error" ? " (definite, invariant null)" : ""}`;

/** Records which reading an implementation chose where the spec allows several (informative). */
const notice = (e: CatalogEntry, replies: readonly Reply[], pass: Pass): void => {
  const [r] = replies;
  if (e.expect.kind === "either" && r !== undefined && judge(e.expect, replies) === null) {
    pass.notes.push(`${e.label}: answered ${describeReply(r)} (the spec allows either reading)`);
  }
};

/**
 * One pass: a fresh session, setup, the catalog in `mode`, then the liveness, world and
 * data-directory checks. Exported so that tests can run the line-by-line mode on its own.
 */
export const runPass = async (ctx: StageContext, catalog: readonly CatalogEntry[], mode: Mode): Promise<Pass> => {
  const pass: Pass = {
    checks: 0,
    findings: [],
    notes: [],
    undrivable: null,
    batchProblem: null,
    deferred: [],
    rerun: false,
    explainsBatch: false,
  };
  let session: Session;
  try {
    session = await ctx.target.open();
  } catch (e) {
    if (e instanceof Undrivable) pass.undrivable = `could not start a session for the ${mode} catalog: ${e.message}`;
    else if (e instanceof WireBreak)
      pass.findings.push(finding(`wire/${e.rule}`, `the handshake broke the protocol: ${e.message}`));
    else throw e;
    return pass;
  }
  const client = session.client;
  try {
    // Setup: some state, so that a data directory that must not change is not trivially empty.
    const minted = await session.reply({ type: "command", id: SETUP_MINT_ID, command: setupMint(1, "wire-root-1") });
    if (!minted.ok)
      pass.notes.push(
        `the setup advaita.mint was refused (${describeReply(minted)}); the catalog ran on an empty world`,
      );
    const worldBefore = (await session.ok({ type: "query", id: WORLD_BEFORE_ID, query: { name: "world" } })).result;
    const dirBefore = snapshotDir(session.dataDir);

    client.rawMode = true;
    if (mode === "pipelined") await runPipelined(client, catalog, pass);
    else await runSequential(client, catalog, pass);
    client.rawMode = false;
    if (pass.undrivable !== null) {
      await client.kill();
      return pass;
    }

    // W-4: the data directory's bytes are what they were, whether or not the process survived.
    pass.checks++;
    const dirDiff = dirDifference(dirBefore, snapshotDir(session.dataDir));
    if (dirDiff !== null)
      pass.findings.push(
        finding(
          "wire/W-4",
          `the data directory changed during the hostile-input catalog (${mode}): ${dirDiff}; input, however hostile, must not change it (W-4)`,
        ),
      );
    if (client.hasExited) return pass; // the crash is already a finding (or the batch problem)

    // W-4: alive, and the world is the world before.
    pass.checks++;
    let worldAfter: unknown;
    try {
      worldAfter = (await session.ok({ type: "query", id: WORLD_AFTER_ID, query: { name: "world" } })).result;
    } catch (e) {
      // It answered the whole catalog, then died: still a crash caused by hostile input.
      if (!(e instanceof Undrivable && client.hasExited)) throw e;
      pass.findings.push(
        finding(
          "wire/W-4",
          crashSummary(client, `after answering the ${mode} catalog, before answering the world query after it`),
        ),
      );
      return pass;
    }
    const worldDiff = worldChange(worldBefore, worldAfter);
    if (worldDiff !== null)
      pass.findings.push(
        finding(
          "wire/W-4",
          `the world changed during the hostile-input catalog (${mode}), which was all refused or read-only: ${worldDiff}`,
        ),
      );
    return pass;
  } catch (e) {
    client.rawMode = false;
    if (e instanceof Undrivable) pass.undrivable = e.message;
    else if (e instanceof WireBreak) pass.findings.push(finding(`wire/${e.rule}`, `outside the catalog: ${e.message}`));
    else throw e;
    return pass;
  } finally {
    await session.close().catch(() => undefined);
  }
};

// --- The stage ------------------------------------------------------------------------------------

/**
 * What remains of the pipelined pass's batch-level problems once the line-by-line pass has run: a
 * count mismatch or crash it explains, and a protocol break it reported under the same rule, become
 * notes (context); the others stay findings.
 */
const settleBatch = (first: Pass, second: Pass | undefined, notes: string[]): Finding[] => {
  const kept: Finding[] = [];
  const named = new Set(second?.findings.map((f) => f.check) ?? []);
  for (const f of first.deferred) {
    if (second !== undefined && named.has(f.check)) notes.push(`pipelined: ${f.summary}`);
    else kept.push(f);
  }
  if (first.batchProblem !== null) {
    if (second?.explainsBatch === true) notes.push(`pipelined: ${first.batchProblem.summary}`);
    else kept.push(first.batchProblem);
  }
  return kept;
};

export const wireStage = async (ctx: StageContext): Promise<StageOutcome> => {
  const catalog = buildCatalog();
  const notes: string[] = [];
  const first = await runPass(ctx, catalog, "pipelined");
  let second: Pass | undefined;
  if (first.rerun) {
    if (!outOfTime(ctx)) second = await runPass(ctx, catalog, "sequential");
    else
      notes.push("the time budget ended before the catalog could be sent again line by line to name the failing line");
  }
  const passes = second === undefined ? [first] : [first, second];
  // The line-by-line findings first: they name the line.
  const findings = [...(second?.findings ?? []), ...first.findings, ...settleBatch(first, second, notes)];
  const checks = passes.reduce((n, p) => n + p.checks, 0);
  notes.push(...passes.flatMap((p) => p.notes));
  // The last pass's reason is the most precise (the line-by-line pass names the line that hung).
  const undrivable = second?.undrivable ?? first.undrivable;
  if (findings.length > 0) {
    if (undrivable !== null) notes.push(`also: ${undrivable}`);
    const [f] = findings;
    return outcome(
      "fail",
      `${findings.length} wire finding${findings.length === 1 ? "" : "s"}; first: ${f?.summary ?? ""}`,
      checks,
      findings,
      notes,
    );
  }
  if (undrivable !== null) return outcome("inconclusive", undrivable, checks, [], notes);
  return outcome(
    "pass",
    `${catalog.length} hostile or boundary lines answered one reply per non-empty line, in order, with the W-4 codes; process alive, world and data directory unchanged`,
    checks,
    [],
    notes,
  );
};

/** The wire stage: the whole hostile catalog is one unit, run by one shard. */
export const wire: StageDefinition<"wire"> = { ...STAGE_CATALOG.wire, shard: ONE_UNIT, run: wireStage };
