/**
 * The forgetting stage (spec/wire/PROTOCOL.md W-7.2): after distillation no trace text, after
 * excision no excised content, in any byte of any file under the data directory.
 *
 * A scripted life carries seeded marker words that occur nowhere else: one in its trace, others in
 * its distillate's guidance and key. The runner greps the data directory's bytes (UTF-8 and
 * JSON-escaped) at each point where the protocol says the content must be gone:
 *
 * - after `janma.distil`: the trace marker must be absent (S-1, check `forgetting/trace`);
 * - after `samskara.excise` of the merged distillate: its guidance and key markers must be absent
 *   (S-5, check `forgetting/excision`);
 * - after a restart on the same directory: still absent (recovery must not resurrect them).
 *
 * Each absence is only evidence if the content was on disk before it had to go, so the stage also
 * checks that the trace marker is present after the act and the guidance marker after the merge;
 * when not, it notes why and counts no witness (the scan would prove nothing). Every command is
 * checked with the reference model first (a rejection there is a runner bug) and every reply must
 * equal the model's normative reply (a difference is a finding), else the scans would be
 * meaningless.
 */
import { DOMAIN, digestOf, type Command, type JanmaManifest, type WorldView } from "../../spec/index.ts";
import type { InvariantId } from "../../spec/catalog.ts";
import type { PortableTrace, TraceStep } from "../../spec/certificate.ts";
import type { Reply } from "../../spec/wire/index.ts";
import { initialWorld, view, type World } from "../../model/index.ts";
import { describeDifference, firstDifferenceOf } from "../../properties/json-diff.ts";
import { normativePart } from "../core/reply.ts";
import { attribute } from "../oracle/attribution.ts";
import { expect1 } from "../oracle/model.ts";
import type { Session } from "../driver/target.ts";
import { describeOccurrences, occurrences } from "./data-dir.ts";
import { seededRandom } from "../oracle/prng.ts";
import { STAGE_CATALOG } from "../core/stage-catalog.ts";
import { ONE_UNIT, type StageDefinition } from "./definition.ts";
import { outcome, Undrivable, WireBreak, type Finding, type StageContext, type StageOutcome } from "./types.ts";

/** Seeded words that appear nowhere else: lowercase letters and digits, one token each (D-010 tokens). */
export interface Markers {
  readonly trace: string;
  readonly guidance: string;
  readonly key: string;
}

export const markersFor = (seed: number): Markers => {
  const rnd = seededRandom(Math.imul(seed, 0x2c1b3c6d) ^ 0x5eed);
  const word = (tag: string): string =>
    `zq${seed >>> 0}x${tag}${Array.from({ length: 14 }, () => "abcdefghijklmnopqrstuvwxyz0123456789"[Math.floor(rnd() * 36)] ?? "q").join("")}`;
  return { trace: word("t"), guidance: word("g"), key: word("k") };
};

// The scripted life, built like properties/generators/situations.ts `materialize` builds valid commands.
const BASE = `sha256:${"ab".repeat(32)}` as const;
const EVIDENCE = `sha256:${"cd".repeat(32)}` as const;
const CUSTODIAN = "custodian-1";
const INSTANCE = "i-forget";
const NONCE = "n-forget";
const OBLIGATION = "ob-forget";
// Stays in the excision record (ids and digests only, S-5), so it is not one of the markers.
const DISTILLATE = "d-forget";

const manifest = (pin: string): JanmaManifest => ({
  manifest_version: 1,
  substrate: { base_digest: BASE, store_version: pin },
  mission: "travel",
  capability_grants: ["fare.*"],
  tool_bindings: [{ tool: "search", capabilities: ["fare.search", "fare.book"] }],
  consent_scope: {
    grant_id: "g",
    principal: "p",
    cells: [{ category: "health", dimension: "training", sensitivity: "high" }],
    category_defaults: [],
    persist_ceiling: "low",
  },
  ttl_ticks: 20,
  termination_conditions: [],
  distillation_policy: { deadline_ticks: 10, max_retries: 1, satisfaction_model: null },
});

const ENVIRONMENT = { tools: [{ tool: "search", capabilities: ["fare.search", "fare.book"] }], grantable: ["fare.*"] };

type Json = TraceStep["expected"];
type Msg = { type: string; id: string; [k: string]: unknown };

/** A reply that differs from the model's: the scans after it would prove nothing. */
class Disagreement extends Error {}

/** Drives the scripted commands, keeping the model's world in step and the trace of what was sent. */
class Script {
  private world: World = initialWorld();
  private n = 0;
  readonly steps: TraceStep[] = [];

  constructor(
    readonly ctx: StageContext,
    readonly session: Session,
    private readonly onFinding: (f: Finding) => void,
  ) {}

  get view(): WorldView {
    return view(this.world);
  }

  private record(msg: Msg, expected: unknown, actual: Reply): void {
    this.steps.push({
      request: msg as unknown as TraceStep["request"],
      expected: expected as Json,
      actual: normativePart(actual) as Json,
    });
  }

  async reset(): Promise<void> {
    const msg: Msg = { type: "reset", id: `f${++this.n}` };
    const r = await this.session.reply(msg);
    this.record(msg, { ok: true, events: [] }, r);
    if (!r.ok) throw new WireBreak("W-7.1", `reset was refused with ${r.error.code}`, JSON.stringify(r));
    this.world = initialWorld();
  }

  /** Sends a command the model accepts; the implementation's reply must be the model's. */
  async run(command: Command): Promise<void> {
    const e = expect1(this.world, command);
    if (!e.reply.ok)
      throw new Error(
        `runner bug: the forgetting stage's scripted ${command.op} is rejected by the reference model (${e.reply.error.code})`,
      );
    const msg: Msg = { type: "command", id: `f${++this.n}`, command };
    const r = await this.session.reply(msg);
    this.record(msg, e.reply, r);
    const diff = firstDifferenceOf(e.reply, normativePart(r));
    if (diff !== null) {
      const d = describeDifference(diff, "$reply");
      const invariant = attribute({
        op: command.op,
        modelRejected: null,
        implRejected: r.ok ? null : { code: r.error.code, invariant: r.error.invariant },
        path: r.ok ? { in: "reply", path: diff.path } : null,
      });
      this.onFinding(
        this.finding(
          invariant,
          "forgetting/reply",
          `the reply to the scripted ${command.op} differs from the model's (${d}), so the byte scans that follow would prove nothing`,
          d,
        ),
      );
      throw new Disagreement();
    }
    this.world = e.world;
  }

  finding(invariant: InvariantId | null, check: string, summary: string, difference: string | null): Finding {
    const trace: PortableTrace = {
      trace_version: 1,
      invariant,
      stage: "forgetting",
      check,
      summary,
      seed: this.ctx.settings.seed,
      path: null,
      steps: [...this.steps],
      failing_step: this.steps.length - 1,
      difference,
      shrink: null,
    };
    return { invariant, stage: "forgetting", check, summary, trace };
  }
}

const agentOf = (v: WorldView) => {
  const a = v.agents[0];
  if (a === undefined) throw new Error("runner bug: the scripted mint left no agent");
  return a;
};

const instanceOf = (v: WorldView) => {
  const i = agentOf(v).instances.find((x) => x.instance_id === INSTANCE);
  if (i === undefined) throw new Error(`runner bug: no instance ${INSTANCE} in the model's world`);
  return i;
};

/** The scripted commands, each built from the model's current view. */
const lifeCommands = (m: Markers, traceText: string) => ({
  mint: (): Command => ({
    op: "advaita.mint",
    tick: 1,
    base_digest: BASE,
    root: "root-forget",
    designation: "agent",
    body_revision: "rev-0",
    custodians: [CUSTODIAN],
    execution: { execution_id: "exec-forget", reasoner: "r", harness: "h", host: "host" },
    providers: [{ provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search"] }],
    required_capabilities: ["fare.search"],
    authority_token: "tok-forget",
  }),
  conceive: (v: WorldView): Command => ({
    op: "janma.conceive",
    tick: 1,
    agent: agentOf(v).identity.identity,
    instance_id: INSTANCE,
    nonce: NONCE,
    manifest: manifest(agentOf(v).store.head),
  }),
  birth: (v: WorldView): Command => ({
    op: "janma.birth",
    tick: 1,
    agent: agentOf(v).identity.identity,
    instance_id: INSTANCE,
    environment: ENVIRONMENT,
  }),
  act: (v: WorldView): Command => {
    const A = agentOf(v).identity.identity;
    const manifest_digest = instanceOf(v).manifest_digest;
    const action = { tool: "search", capability: "fare.search", outcome: "ok" as const, tick: 2, trace: [traceText] };
    const signature = digestOf(DOMAIN.action, { identity: A, nonce: NONCE, manifest_digest, action });
    return {
      op: "janma.act",
      tick: 2,
      agent: A,
      instance_id: INSTANCE,
      signed: { identity: A, nonce: NONCE, manifest_digest, action, signature },
    };
  },
  withdraw: (v: WorldView): Command => ({
    op: "janma.withdraw",
    tick: 2,
    agent: agentOf(v).identity.identity,
    instance_id: INSTANCE,
    reason: "principal",
  }),
  // The guidance shares no word with the trace, far from the 4-token leak rule (S-1, D-010).
  distil: (v: WorldView): Command => {
    const A = agentOf(v).identity.identity;
    return {
      op: "janma.distil",
      tick: 3,
      agent: A,
      instance_id: INSTANCE,
      obligation_id: OBLIGATION,
      distillate: {
        distillate_id: DISTILLATE,
        source: { identity: A, nonce: NONCE, instance_id: INSTANCE },
        born_from: instanceOf(v).born_from,
        signal: { valence: 400_000, confidence: 1_000_000, model_version: null, explicit: true },
        dispositions: [
          {
            key: m.key,
            guidance: `${m.guidance} prefer aisle seats`,
            weight: 200_000,
            evidence_digest: EVIDENCE,
            category: "operational",
          },
        ],
      },
    };
  },
  merge: (v: WorldView): Command => ({
    op: "samskara.merge",
    tick: 3,
    agent: agentOf(v).identity.identity,
    obligation_ids: [OBLIGATION],
  }),
  excise: (v: WorldView): Command => ({
    op: "samskara.excise",
    tick: 4,
    agent: agentOf(v).identity.identity,
    excision_id: "x-forget",
    distillate_ids: [DISTILLATE],
    authorization: { custodian: CUSTODIAN, decision_id: "decision-forget" },
  }),
});

class ForgettingRun {
  readonly findings: Finding[] = [];
  readonly notes: string[] = [];
  scans = 0;
  witnessed = 0;
  script: Script;

  constructor(
    readonly ctx: StageContext,
    readonly session: Session,
  ) {
    this.script = new Script(ctx, session, (f) => this.report(f));
  }

  report(f: Finding): void {
    this.findings.push(f);
    this.ctx.progress.line(`srk: forgetting: ${f.check}: ${f.summary}`);
  }

  /** Is `marker` somewhere under the data directory? (A sanity check: the later absence must mean something.) */
  present(marker: string): boolean {
    return occurrences(this.session.dataDir, marker).length > 0;
  }

  /**
   * Scans for markers that must be gone: a finding under `invariant` if any is found, else a
   * forgetting witness (when the content had been on disk before, `evidence`).
   */
  mustBeGone(markers: readonly string[], invariant: InvariantId, check: string, when: string, evidence: boolean): void {
    for (const marker of markers) {
      // The runner's own guarantee: the model's view never holds what must be forgotten.
      if (JSON.stringify(this.script.view).includes(marker))
        throw new Error(`runner bug: ${marker} is in the model's world view ${when}`);
    }
    this.scans++;
    const found = markers.flatMap((m) => {
      const o = occurrences(this.session.dataDir, m);
      return o.length === 0 ? [] : [describeOccurrences(m, o)];
    });
    if (found.length > 0) {
      this.report(
        this.script.finding(
          invariant,
          check,
          `${when}, the data directory still holds content that must be gone (W-7.2): ${found.join("; ")}`,
          found.join("; "),
        ),
      );
    } else if (evidence) {
      this.ctx.witnesses.add(invariant, "forgetting");
      this.witnessed++;
    }
  }
}

const verdictOf = (run: ForgettingRun, reason: string | null): StageOutcome => {
  if (run.findings.length > 0)
    return outcome(
      "fail",
      `${run.findings.length} forgetting check(s) failed${reason === null ? "" : `; then ${reason}`}`,
      run.scans,
      run.findings,
      run.notes,
    );
  if (reason !== null) return outcome("inconclusive", reason, run.scans, [], run.notes);
  if (run.witnessed === 0)
    return outcome(
      "inconclusive",
      "no scan was evidence: the markers were never found on disk before they had to be gone",
      run.scans,
      [],
      run.notes,
    );
  return outcome(
    "pass",
    `${run.scans} byte scans of the data directory found no trace or excised content`,
    run.scans,
    [],
    run.notes,
  );
};

export const forgettingStage = async (ctx: StageContext): Promise<StageOutcome> => {
  const janma = ctx.families.includes("janma");
  const samskara = ctx.families.includes("samskara");
  if (!janma)
    return outcome(
      "not-applicable",
      "janma is not in the profile: no life is distilled, so neither trace forgetting (S-1) nor excision of a distillate (S-5) can be checked",
      0,
    );
  const m = markersFor(ctx.settings.seed);
  const traceText = `${m.trace} window seat lisbon`;
  let session: Session;
  try {
    session = await ctx.target.open();
  } catch (e) {
    if (e instanceof Undrivable) return outcome("inconclusive", e.message, 0);
    if (e instanceof WireBreak)
      return outcome("fail", e.message, 0, [
        { invariant: null, stage: "forgetting", check: `wire/${e.rule}`, summary: e.message, trace: null },
      ]);
    throw e;
  }
  const run = new ForgettingRun(ctx, session);
  const s = run.script;
  const c = lifeCommands(m, traceText);
  if (!samskara)
    run.notes.push(
      "samskara is not in the profile: excision (S-5) is not applicable; only trace forgetting (S-1) is checked",
    );
  try {
    await s.reset();
    await s.run(c.mint());
    for (const step of [c.conceive, c.birth, c.act]) await s.run(step(s.view));
    const traceOnDisk = run.present(m.trace);
    if (!traceOnDisk)
      run.notes.push(
        "the trace marker was in no file after the act (trace held in memory only, or encoded): its absence after distillation is no evidence for S-1",
      );
    for (const step of [c.withdraw, c.distil]) await s.run(step(s.view));
    run.mustBeGone([m.trace], "S-1", "forgetting/trace", "after janma.distil", traceOnDisk);
    let guidanceOnDisk = false;
    let excised: string[] = [];
    if (samskara) {
      await s.run(c.merge(s.view));
      guidanceOnDisk = run.present(m.guidance);
      if (!guidanceOnDisk)
        run.notes.push(
          "the guidance marker was in no file after the merge (stored encoded?): its absence after excision is no evidence for S-5",
        );
      await s.run(c.excise(s.view));
      // Only content the model no longer shows must be gone (ids and digests stay in the excision record).
      excised = [m.guidance, m.key].filter((x) => !JSON.stringify(s.view).includes(x));
      if (!excised.includes(m.guidance)) throw new Error("runner bug: the model still shows the excised guidance");
      run.mustBeGone(excised, "S-5", "forgetting/excision", "after samskara.excise", guidanceOnDisk);
    }
    await session.restart();
    run.mustBeGone(
      [m.trace],
      "S-1",
      "forgetting/trace",
      "after a restart on the same directory (after distillation)",
      traceOnDisk,
    );
    if (samskara)
      run.mustBeGone(
        excised,
        "S-5",
        "forgetting/excision",
        "after a restart on the same directory (after excision)",
        guidanceOnDisk,
      );
    run.notes.push(
      `markers (seed ${ctx.settings.seed}): trace ${m.trace}, guidance ${m.guidance}, key ${m.key}; scanned for after excision: ${samskara ? excised.join(", ") : "(not applicable)"}`,
    );
    return verdictOf(run, null);
  } catch (e) {
    if (e instanceof Disagreement) return verdictOf(run, "the scenario stopped at the disagreeing reply");
    if (e instanceof Undrivable) return verdictOf(run, `the implementation could not be driven: ${e.message}`);
    if (e instanceof WireBreak) {
      run.report({ invariant: null, stage: "forgetting", check: `wire/${e.rule}`, summary: e.message, trace: null });
      return verdictOf(run, null);
    }
    throw e;
  } finally {
    await session.close().catch(() => undefined);
  }
};

/**
 * The forgetting stage: one unit, run by one shard. Its need (janma in the profile) is checked in
 * the run, past the gate, as it always was: a shard that does not own it says "not this shard's".
 */
export const forgetting: StageDefinition<"forgetting"> = {
  ...STAGE_CATALOG.forgetting,
  shard: ONE_UNIT,
  run: forgettingStage,
};
