/**
 * The model-mutant campaign: for each mutant of catalog.ts, a copy of the kit with the patch
 * (copy.ts) explores the scope with its own `srk explore` in a subprocess, and the outcome is set
 * against whether the scope reaches the mutant's rule in the correct model (reach.ts):
 *
 * - found: a predicate is violated, with its shortest path and portable traces;
 * - not-reached: nothing violated, and the scope never reaches the rule (the reason says what the
 *   scope lacks);
 * - missed: the scope reaches the rule and nothing is violated: the predicates do not see the bug
 *   within the scope (a finding);
 * - found-unreached: a violation although the rule is never reached: the reach description is wrong
 *   (a finding about the catalog);
 * - error: the copy's explorer did not run to its end (the reason holds its exit and stderr); the
 *   other mutants still run, and the campaign does not hold.
 *
 * The unpatched copy is explored first (the control): it must violate nothing, so a find is never
 * an artefact of the copy. A mutant whose rule the scope never reaches is not explored by default
 * (its exploration would be the control's); a reached one is explored first only a little past the
 * depth where the rule is first reached, and over the whole scope when that finds nothing.
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { InvariantId } from "../../../spec/invariant-ids.ts";
import { INVARIANT_IDS } from "../../../spec/invariant-ids.ts";
import type { ExploreResult } from "../explore.ts";
import type { TraceFiles } from "../traces.ts";
import type { ModelMutant } from "./catalog.ts";
import { WORK, discardModel, materializeModel } from "./copy.ts";
import type { Reached } from "./reach.ts";

export type Outcome = "found" | "not-reached" | "missed" | "found-unreached" | "error";

export interface Found {
  readonly predicate: InvariantId;
  readonly violation: string;
  /** Commands on the shortest path. */
  readonly depth: number;
  /** The portable trace (and its ITF form), relative to the campaign's output folder; null when not kept. */
  readonly trace: string | null;
  readonly itf: string | null;
}

export interface MutantResult {
  readonly id: string;
  readonly invariant: InvariantId;
  readonly clause: string;
  readonly twin: string | null;
  readonly description: string;
  readonly outcome: Outcome;
  /** Every predicate the mutant's exploration violated, shallowest first (then in invariant order). */
  readonly found: readonly Found[];
  /** Whether the mutant's own invariant is among the predicates violated. */
  readonly foundUnderLabel: boolean;
  /** Where the correct model first reaches the rule (commands), or null with `reason`. */
  readonly reachedAt: number | null;
  readonly reason: string | null;
  /** How much of the scope the mutant's exploration covered (see runMutant). */
  readonly explored: "not run" | "whole scope" | `to depth ${number}`;
  readonly states: number;
  readonly elapsedMs: number;
}

type ExploreJson = ExploreResult & { readonly traces?: readonly TraceFiles[] };

/** Runs the copy's `srk explore --scope <scope> --out <out>`; resolves with its exit code and stderr. */
const exploreIn = (copy: string, scope: string, out: string): Promise<{ code: number | null; stderr: string }> =>
  new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join("conformance", "cli", "main.ts"), "explore", "--scope", scope, "--out", out],
      {
        cwd: copy,
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => {
      stderr = (stderr + b.toString()).slice(-4000);
    });
    child.on("error", fail);
    child.on("close", (code) => done({ code, stderr }));
  });

/** A scope argument the copy understands: a shipped name as is, a file as an absolute path. */
export const scopeArgument = (scope: string): string =>
  /^[a-z0-9_-]+$/.test(scope) && !existsSync(scope) ? scope : resolve(scope);

/**
 * Explores `mutant` (null: the control) in a fresh copy of `root` (default: the kit); returns the
 * copy's explore.json and its output folder.
 */
export const exploreCopy = async (
  name: string,
  mutant: ModelMutant | null,
  scope: string,
  root?: string,
): Promise<{ result: ExploreJson; out: string }> => {
  const copy = materializeModel(name, mutant, root);
  const out = join(copy, "out");
  const r = await exploreIn(copy, scopeArgument(scope), out);
  // Exit 1 is "violations found"; anything else but 0 is a fault of the copy or the scope.
  if (r.code !== 0 && r.code !== 1) throw new Error(`explore of ${name} exited ${String(r.code)}: ${r.stderr}`);
  return { result: JSON.parse(readFileSync(join(out, "explore.json"), "utf8")) as ExploreJson, out };
};

/**
 * The scope file `file` with every depth bound lowered to at most `bound` (the scope's and each
 * part's), written beside `at`. Breadth-first, the exploration up to `bound` is the full one's up
 * to that depth, so a violation it finds is one the full exploration finds, with a path as short.
 */
export const boundedScope = (
  file: string,
  bound: number,
  at: string,
): { readonly file: string; readonly depth: number } => {
  const raw = JSON.parse(readFileSync(file, "utf8")) as { max_depth: number; parts?: { max_depth?: number }[] };
  const top = Math.min(raw.max_depth, bound);
  const parts = raw.parts?.map((p) => ({ ...p, max_depth: Math.min(p.max_depth ?? raw.max_depth, bound) }));
  mkdirSync(dirname(at), { recursive: true });
  writeFileSync(at, JSON.stringify({ ...raw, max_depth: top, ...(parts === undefined ? {} : { parts }) }));
  return { file: at, depth: Math.max(top, ...(parts ?? []).map((p) => p.max_depth)) };
};

export const outcomeOf = (found: boolean, reached: boolean): Outcome =>
  found ? (reached ? "found" : "found-unreached") : reached ? "missed" : "not-reached";

export interface RunOptions {
  /** The scope file (resolved once, so every copy explores the same data). */
  readonly scopeFile: string;
  /** Where the found mutants' traces go (`<tracesDir>/<mutant id>/`); null: not kept. */
  readonly tracesDir: string | null;
  /** The tree the copies are made from (a snapshot taken at the campaign's start); default the kit. */
  readonly root?: string;
  /**
   * Explore mutants whose rule the scope never reaches too (default false). Without a reached
   * step the mutant's model behaves as the correct one on every step of the scope, so its
   * exploration is the control's and violates nothing; running it only confirms the probe.
   */
  readonly runUnreached?: boolean;
  /** Depths explored past the first reached step in the first, bounded pass (default 2). */
  readonly slack?: number;
  /** Prefix of the copies' names under .tmp/model-mutants/ (a campaign's own folder, e.g. "run-123/"), so campaigns never share a copy. */
  readonly copyPrefix?: string;
}

/**
 * Runs one mutant: not at all when the scope never reaches its rule (unless runUnreached); else
 * first bounded to the depth where the rule is first reached plus `slack`, then, if nothing was
 * found, over the whole scope. The traces of its shallowest violation are copied to
 * `<tracesDir>/<mutant id>/`, and the copy is removed afterwards.
 */
export const runMutant = async (m: ModelMutant, reached: Reached, o: RunOptions): Promise<MutantResult> => {
  const common = {
    id: m.id,
    invariant: m.invariant,
    clause: m.clause,
    twin: m.twin,
    description: m.description,
    reachedAt: reached.reached ? reached.depth : null,
    reason: reached.reached ? null : reached.reason,
  };
  if (!reached.reached && o.runUnreached !== true) {
    return {
      ...common,
      outcome: "not-reached",
      found: [],
      foundUnderLabel: false,
      explored: "not run",
      states: 0,
      elapsedMs: 0,
    };
  }
  const name = `${o.copyPrefix ?? ""}${m.id}`;
  let explored: MutantResult["explored"] = "whole scope";
  let run: { result: ExploreJson; out: string } | null = null;
  if (reached.reached) {
    const bound = reached.depth + (o.slack ?? 2);
    const b = boundedScope(o.scopeFile, bound, join(WORK, `${name}.scope.json`));
    run = await exploreCopy(name, m, b.file, o.root);
    explored = `to depth ${b.depth}`;
    if (run.result.violations.length === 0) run = null;
  }
  if (run === null) {
    run = await exploreCopy(name, m, o.scopeFile, o.root);
    explored = "whole scope";
  }
  const { result, out } = run;
  const order = (id: InvariantId) => INVARIANT_IDS.indexOf(id);
  const tracesDir = o.tracesDir;
  const found = [...result.violations]
    .sort((a, b) => a.depth - b.depth || order(a.predicate) - order(b.predicate))
    .map((v, k): Found => {
      const t = result.traces?.find((x) => x.predicate === v.predicate);
      let trace: string | null = null;
      let itf: string | null = null;
      // The shallowest violation's traces are kept (the report's); the others are in the copy only.
      if (k === 0 && t !== undefined && tracesDir !== null) {
        mkdirSync(join(tracesDir, m.id), { recursive: true });
        trace = join(m.id, `explore-${v.predicate}.json`);
        itf = join(m.id, `explore-${v.predicate}.itf.json`);
        copyFileSync(join(out, t.json), join(tracesDir, trace));
        copyFileSync(join(out, t.itf), join(tracesDir, itf));
      }
      return { predicate: v.predicate, violation: v.violation, depth: v.depth, trace, itf };
    });
  discardModel(name);
  rmSync(join(WORK, `${name}.scope.json`), { force: true });
  return {
    ...common,
    outcome: outcomeOf(found.length > 0, reached.reached),
    found,
    foundUnderLabel: found.some((f) => f.predicate === m.invariant),
    explored,
    states: result.states,
    elapsedMs: result.elapsedMs,
  };
};

/** The result of a mutant whose exploration failed to run. */
export const erroredMutant = (m: ModelMutant, reached: Reached, e: unknown): MutantResult => ({
  id: m.id,
  invariant: m.invariant,
  clause: m.clause,
  twin: m.twin,
  description: m.description,
  outcome: "error",
  found: [],
  foundUnderLabel: false,
  reachedAt: reached.reached ? reached.depth : null,
  reason: `the exploration did not run: ${e instanceof Error ? e.message : String(e)}`.slice(0, 2000),
  explored: "not run",
  states: 0,
  elapsedMs: 0,
});

/** Whether the campaign holds: every reached mutant found, nothing found that the scope does not reach. */
export const campaignHolds = (rs: readonly MutantResult[]): boolean =>
  rs.every((r) => r.outcome === "found" || r.outcome === "not-reached");
