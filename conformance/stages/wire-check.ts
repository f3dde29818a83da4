/**
 * The wire stage's checkers (issue 22): pure functions of a recorded history (wire-history.ts) and
 * the catalog (wire-catalog.ts), no session, no I/O. `checkPass` judges one pass (the replies to
 * the catalog, the data directory, liveness and the world), `pipelinedNeedsRerun` is what the
 * driver asks to decide whether to send the catalog again line by line, and `checkWire` composes
 * the passes into the stage's outcome (the line-by-line findings first, the pipelined batch-level
 * symptoms kept as notes when the line-by-line pass explains them).
 */
import { bracketedPath, firstDifferenceOf } from "../../properties/json-diff.ts";
import type { Reply } from "../../spec/wire/index.ts";
import { partOf } from "../core/history.ts";
import { describeExit } from "../transport/process.ts";
import { outcome, type Finding, type StageOutcome } from "./types.ts";
import { describeExpectation, describeReply, judge, repliesExpected, type CatalogEntry } from "./wire-catalog.ts";
import {
  STEP_SETUP_MINT,
  STEP_WORLD_AFTER,
  STEP_WORLD_BEFORE,
  type Exit,
  type Mode,
  type SeenViolation,
  type WireEvent,
  type WireHistory,
} from "./wire-history.ts";

const finding = (check: string, summary: string): Finding => ({
  invariant: null,
  stage: "wire",
  check,
  summary,
  trace: null,
});

const lineName = (i: number, e: CatalogEntry): string => `line ${i + 1} (${e.label})`;

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

/** One finding per protocol rule the client saw broken (unparsable stdout, a reply not matching Reply...), with the first instance. */
const violationFindings = (violations: readonly SeenViolation[], where: string): Finding[] => {
  const byRule = new Map<string, { n: number; first: string }>();
  for (const v of violations) {
    const seen = byRule.get(v.rule);
    if (seen === undefined) byRule.set(v.rule, { n: 1, first: `${v.message}: ${v.raw}` });
    else seen.n++;
  }
  return [...byRule].map(([rule, { n, first }]) =>
    finding(`wire/${rule}`, `${where}: ${n === 1 ? "" : `${n} times, first: `}${first}`),
  );
};

const crashSummary = (exit: Exit | null, tail: string, what: string): string =>
  `${what}: hostile input must not crash the implementation (W-4), but it ${exit === null ? "ended" : describeExit({ code: exit.code, signal: exit.signal as NodeJS.Signals | null })}${tail === "" ? "" : `; last stderr lines:\n${tail}`}`;

const describeWanted = (e: CatalogEntry): string =>
  `${describeExpectation(e.expect)}${e.expect.kind === "error" ? " (definite, invariant null)" : ""}`;

// --- One pass ------------------------------------------------------------------------------------

/** What the checker decides about one pass of the catalog. */
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

type Batch = Extract<WireEvent, { kind: "wire-batch" }>;

/** Records which reading an implementation chose where the spec allows several (informative). */
const notice = (e: CatalogEntry, replies: readonly Reply[], pass: Pass): void => {
  const [r] = replies;
  if (e.expect.kind === "either" && r !== undefined && judge(e.expect, replies) === null) {
    pass.notes.push(`${e.label}: answered ${describeReply(r)} (the spec allows either reading)`);
  }
};

const entryAt = (catalog: readonly CatalogEntry[], i: number | undefined): CatalogEntry => {
  const e = i === undefined ? undefined : catalog[i];
  if (e === undefined) throw new Error(`runner bug: a wire batch names catalog line ${i} of ${catalog.length}`);
  return e;
};

/**
 * The catalog sent in one write: one reply per non-empty line, in order (W-1.6), then matched 1:1
 * with the lines when that holds and nothing broke the protocol; otherwise the batch-level problem,
 * and `rerun`. Returns false when the pass stopped here (a hang).
 */
const judgePipelined = (b: Batch, catalog: readonly CatalogEntry[], pass: Pass): boolean => {
  const expected = repliesExpected(catalog);
  pass.checks++; // W-1.6: one reply per non-empty line, in order
  // Kept for the end: the line-by-line pass, if it runs, names the lines.
  pass.deferred.push(...violationFindings(b.violations, "while answering the pipelined catalog"));
  if (b.end === "timeout") {
    // A hang is inconclusive (a slow implementation and a stuck one look alike); the line-by-line pass may name the line.
    pass.undrivable = `after ${b.replies.length} of ${expected} replies to the pipelined catalog, ${b.why ?? ""}`;
    pass.rerun = true;
    return false;
  }
  if (b.end === "exited") {
    pass.batchProblem = finding(
      "wire/W-4",
      crashSummary(
        b.exit,
        b.stderrTail ?? "",
        `while answering the pipelined catalog of ${catalog.length} lines, after ${b.replies.length} of ${expected} replies`,
      ),
    );
    pass.rerun = true;
    return true;
  }
  if (b.replies.length !== expected) {
    pass.batchProblem = finding(
      "wire/W-1.6",
      `the ${expected} non-empty lines of the catalog, sent in one write, got ${b.replies.length} replies before the reply to the request after them (W-1.6: exactly one reply per non-empty line, in order; W-1.2: none to an empty line)`,
    );
    pass.rerun = true;
    return true;
  }
  if (pass.deferred.length > 0) {
    pass.rerun = true; // the count is right, but something on stdout broke the protocol: find which line caused it
    return true;
  }
  let next = 0;
  for (const i of b.lines) {
    const e = entryAt(catalog, i);
    pass.checks++;
    const mine = e.expect.kind === "none" ? [] : b.replies.slice(next, ++next);
    const wrong = judge(e.expect, mine);
    if (wrong !== null)
      pass.findings.push(finding(`wire/${e.rule}`, `${lineName(i, e)}: expected ${describeWanted(e)}, ${wrong}`));
    notice(e, mine, pass);
  }
  return true;
};

/**
 * One line sent on its own: its replies judged, the protocol breaks named after it, a crash (the
 * driver sent no more lines) or a hang (the pass stopped). Returns false when the pass stopped.
 */
const judgeLine = (b: Batch, catalog: readonly CatalogEntry[], pass: Pass): boolean => {
  const i = b.lines[0] ?? -1;
  const e = entryAt(catalog, i);
  pass.checks++;
  const broke = violationFindings(b.violations, `${lineName(i, e)}: what came back broke the protocol`);
  pass.findings.push(...broke);
  if (b.end === "exited") {
    pass.findings.push(
      finding(
        "wire/W-4",
        crashSummary(
          b.exit,
          b.stderrTail ?? "",
          `${lineName(i, e)}${b.replies.length === 0 ? "" : `, after replying ${b.replies.map(describeReply).join(", ")}`}`,
        ),
      ),
    );
    pass.explainsBatch = true;
    if (i + 1 < catalog.length)
      pass.notes.push(`lines ${i + 2}..${catalog.length} of the catalog were not sent after the crash`);
    return true;
  }
  if (b.end === "timeout") {
    pass.undrivable = `${lineName(i, e)}: ${b.why ?? ""}`;
    return false;
  }
  const wrong = judge(e.expect, b.replies);
  if (wrong !== null && broke.length === 0) {
    pass.findings.push(finding(`wire/${e.rule}`, `${lineName(i, e)}: expected ${describeWanted(e)}, ${wrong}`));
  }
  // A reply too many or too few (or one dropped as a protocol break) explains a pipelined count mismatch.
  if (broke.length > 0 || (wrong !== null && b.replies.length !== (e.expect.kind === "none" ? 0 : 1)))
    pass.explainsBatch = true;
  notice(e, b.replies, pass);
  return true;
};

/**
 * One pass, from its part of the history: the setup, the catalog in `mode`, then the data
 * directory (W-4: its bytes unchanged, whether or not the process survived), liveness and the world
 * (W-4: alive, and the world is the world before, the catalog being all refused or read-only).
 */
export const checkPass = (history: WireHistory, catalog: readonly CatalogEntry[], mode: Mode): Pass => {
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
  let worldBefore: unknown;
  let dirBefore: ReadonlyMap<string, string> | null = null;
  let afterCatalog = false; // the data directory was read after the catalog: what follows is the world after
  for (const e of partOf(history, mode)) {
    switch (e.kind) {
      case "wire-open-failed":
        if (e.cause === "undrivable")
          pass.undrivable = `could not start a session for the ${mode} catalog: ${e.message}`;
        else pass.findings.push(finding(`wire/${e.rule ?? ""}`, `the handshake broke the protocol: ${e.message}`));
        return pass;
      case "exchange": {
        if (e.step === STEP_WORLD_AFTER) pass.checks++;
        const r = e.reply;
        if (e.step === STEP_SETUP_MINT) {
          // Setup: some state, so that a data directory that must not change is not trivially empty.
          if (!r.ok)
            pass.notes.push(
              `the setup advaita.mint was refused (${describeReply(r)}); the catalog ran on an empty world`,
            );
          break;
        }
        if (!r.ok) {
          pass.findings.push(
            finding(
              "wire/W-3",
              `outside the catalog: ${e.request.type} was refused with ${r.error.code}: ${r.error.message}`,
            ),
          );
          return pass;
        }
        if (e.step === STEP_WORLD_BEFORE) worldBefore = r.result;
        else {
          const worldDiff = worldChange(worldBefore, r.result);
          if (worldDiff !== null)
            pass.findings.push(
              finding(
                "wire/W-4",
                `the world changed during the hostile-input catalog (${mode}), which was all refused or read-only: ${worldDiff}`,
              ),
            );
        }
        break;
      }
      case "break":
        if (e.step === STEP_WORLD_AFTER) pass.checks++;
        pass.findings.push(finding(`wire/${e.rule}`, `outside the catalog: ${e.message}`));
        return pass;
      case "stopped":
        if (afterCatalog) pass.checks++;
        pass.undrivable = e.reason;
        return pass;
      case "wire-dir":
        if (e.label === "before") dirBefore = new Map(e.entries);
        else {
          pass.checks++;
          afterCatalog = true;
          const dirDiff = dirDifference(dirBefore ?? new Map(), new Map(e.entries));
          if (dirDiff !== null)
            pass.findings.push(
              finding(
                "wire/W-4",
                `the data directory changed during the hostile-input catalog (${mode}): ${dirDiff}; input, however hostile, must not change it (W-4)`,
              ),
            );
        }
        break;
      case "wire-batch":
        if (!(mode === "pipelined" ? judgePipelined(e, catalog, pass) : judgeLine(e, catalog, pass))) return pass;
        break;
      case "wire-exited":
        // Gone before the world query: the crash is already a finding (or the batch problem).
        if (e.when === "after-catalog") return pass;
        // It answered the whole catalog, then died: still a crash caused by hostile input.
        pass.checks++;
        pass.findings.push(
          finding(
            "wire/W-4",
            crashSummary(
              e.exit,
              e.stderrTail,
              `after answering the ${mode} catalog, before answering the world query after it`,
            ),
          ),
        );
        return pass;
      default:
        break;
    }
  }
  return pass;
};

/** What the driver asks after the pipelined pass: whether its replies could not be matched to lines. */
export const pipelinedNeedsRerun = (history: WireHistory, catalog: readonly CatalogEntry[]): boolean =>
  checkPass(history, catalog, "pipelined").rerun;

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

/** The stage's outcome from its whole history: the pipelined pass, and the line-by-line one when it ran. */
export const checkWire = (history: WireHistory, catalog: readonly CatalogEntry[]): StageOutcome => {
  const notes: string[] = [];
  const first = checkPass(history, catalog, "pipelined");
  const ranSecond = partOf(history, "sequential").some((e) => e.kind !== "wire-budget-ended");
  const second = ranSecond ? checkPass(history, catalog, "sequential") : undefined;
  if (history.events.some((e) => e.kind === "wire-budget-ended"))
    notes.push("the time budget ended before the catalog could be sent again line by line to name the failing line");
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
