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
import type { TraceStep } from "../../spec/certificate.ts";
import type { Reply } from "../../spec/wire/index.ts";
import { initialWorld, view, type World } from "../../model/index.ts";
import { describeDifference, type Difference, firstDifferenceOf } from "../../properties/json-diff.ts";
import { newHistory, partOf, type History, type SentRequest } from "../core/history.ts";
import type { ExpectedReply } from "../core/reply.ts";
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

const PART = "forgetting";

/** The scans whose absence of markers the checker judges: what they prove, under which invariant and check. */
const GONE: Readonly<
  Record<string, { invariant: InvariantId; check: string; when: string; evidence: "trace" | "guidance" }>
> = {
  "gone:trace": { invariant: "S-1", check: "forgetting/trace", when: "after janma.distil", evidence: "trace" },
  "gone:excised": {
    invariant: "S-5",
    check: "forgetting/excision",
    when: "after samskara.excise",
    evidence: "guidance",
  },
  "gone:trace:restarted": {
    invariant: "S-1",
    check: "forgetting/trace",
    when: "after a restart on the same directory (after distillation)",
    evidence: "trace",
  },
  "gone:excised:restarted": {
    invariant: "S-5",
    check: "forgetting/excision",
    when: "after a restart on the same directory (after excision)",
    evidence: "guidance",
  },
};

/** How a command's reply differs from the model's, or null (what the driver needs to know to stop, and the checker reports). */
const replyDifference = (expected: unknown, r: Reply): Difference | null =>
  firstDifferenceOf(expected, normativePart(r));

/**
 * The forgetting stage's driver: the scripted life (reset, mint, conceive, birth, act, withdraw,
 * distil, and with samskara merge and excise) on one process, each command's expected reply the
 * model's; byte scans of the data directory for the markers where the checker will need them (that
 * they were on disk before they had to be gone, that they are gone after, also after a restart).
 * It stops at a refused reset, at the first reply that differs from the model's (the scans after
 * it would prove nothing), at a break of the wire protocol and when the implementation cannot be
 * driven; everything is recorded in `history`.
 */
export const driveForgetting = async (
  session: Session,
  m: Markers,
  samskara: boolean,
  history: History,
): Promise<void> => {
  const events = history.events;
  let world: World = initialWorld();
  let n = 0;
  const scan = (label: string, markers: readonly string[]): void => {
    const found = markers.flatMap((marker) => {
      const o = occurrences(session.dataDir, marker);
      return o.length === 0 ? [] : [{ marker, where: describeOccurrences(marker, o) }];
    });
    events.push({ kind: "scan", part: PART, label, markers, found });
  };
  const gone = (label: string, markers: readonly string[]): void => {
    // The runner's own guarantee: the model's view never holds what must be forgotten.
    for (const marker of markers)
      if (JSON.stringify(view(world)).includes(marker))
        throw new Error(`runner bug: ${marker} is in the model's world view ${GONE[label]?.when ?? label}`);
    scan(label, markers);
  };
  /** Sends a request; false when the driver cannot go on (the reply breaks the protocol, or none came). */
  const send = async (msg: SentRequest, expected: ExpectedReply): Promise<Reply | null> => {
    const step = n++;
    try {
      const reply = await session.reply(msg);
      events.push({ kind: "exchange", part: PART, step, request: msg, expected, reply });
      return reply;
    } catch (e) {
      if (e instanceof WireBreak) {
        events.push({ kind: "break", part: PART, step, rule: e.rule, message: e.message, raw: e.raw });
        return null;
      }
      if (e instanceof Undrivable) {
        events.push({ kind: "stopped", part: PART, reason: e.message });
        return null;
      }
      throw e;
    }
  };
  const reset = async (): Promise<boolean> => {
    const r = await send({ type: "reset", id: `f${n + 1}` }, { ok: true, events: [] });
    if (r === null || !r.ok) return false;
    world = initialWorld();
    return true;
  };
  const run = async (command: Command): Promise<boolean> => {
    const e = expect1(world, command);
    if (!e.reply.ok)
      throw new Error(
        `runner bug: the forgetting stage's scripted ${command.op} is rejected by the reference model (${e.reply.error.code})`,
      );
    const r = await send({ type: "command", id: `f${n + 1}`, command }, e.reply);
    if (r === null || replyDifference(e.reply, r) !== null) return false;
    world = e.world;
    return true;
  };
  const traceText = `${m.trace} window seat lisbon`;
  const c = lifeCommands(m, traceText);
  const v = () => view(world);
  if (!(await reset()) || !(await run(c.mint()))) return;
  for (const step of [c.conceive, c.birth, c.act]) if (!(await run(step(v())))) return;
  scan("present:trace", [m.trace]);
  for (const step of [c.withdraw, c.distil]) if (!(await run(step(v())))) return;
  gone("gone:trace", [m.trace]);
  let excised: string[] = [];
  if (samskara) {
    if (!(await run(c.merge(v())))) return;
    scan("present:guidance", [m.guidance]);
    if (!(await run(c.excise(v())))) return;
    // Only content the model no longer shows must be gone (ids and digests stay in the excision record).
    excised = [m.guidance, m.key].filter((x) => !JSON.stringify(v()).includes(x));
    if (!excised.includes(m.guidance)) throw new Error("runner bug: the model still shows the excised guidance");
    gone("gone:excised", excised);
  }
  try {
    await session.restart();
  } catch (e) {
    if (!(e instanceof Undrivable)) throw e;
    events.push({ kind: "restart-failed", part: PART, reason: e.message });
    events.push({ kind: "stopped", part: PART, reason: e.message });
    return;
  }
  events.push({ kind: "restart", part: PART });
  gone("gone:trace:restarted", [m.trace]);
  if (samskara) gone("gone:excised:restarted", excised);
};

/** What the forgetting stage's checker decides from the history. */
export interface ForgettingVerdict {
  readonly outcome: StageOutcome;
  /** The invariants each scan that was evidence witnessed (forgetting witnesses), in order. */
  readonly witnessed: readonly InvariantId[];
}

/**
 * The forgetting stage's checker, reading the history alone: a refused reset or a break of the
 * wire protocol is a wire finding; the first reply that differs from the model's is a finding (the
 * scenario stops there); each scan for markers that must be gone is a finding when one is found,
 * else a witness when the marker had been seen on disk before (evidence); the notes say when a
 * scan was no evidence and which markers were scanned for.
 */
export const checkForgetting = (
  history: History,
  seed: number,
  samskara: boolean,
  m: Markers,
  notes: readonly string[],
): ForgettingVerdict => {
  const findings: Finding[] = [];
  const out = [...notes];
  const witnessed: InvariantId[] = [];
  const steps: TraceStep[] = [];
  let scans = 0;
  let stop: string | null = null;
  const onDisk = { trace: false, guidance: false };
  const finding = (
    invariant: InvariantId | null,
    check: string,
    summary: string,
    difference: string | null,
  ): Finding => ({
    invariant,
    stage: "forgetting",
    check,
    summary,
    trace: {
      trace_version: 1,
      invariant,
      stage: "forgetting",
      check,
      summary,
      seed,
      path: null,
      steps: [...steps],
      failing_step: steps.length - 1,
      difference,
      shrink: null,
    },
  });
  let ended = false;
  for (const e of partOf(history, PART)) {
    if (ended) break;
    if (e.kind === "exchange") {
      steps.push({
        request: e.request as unknown as TraceStep["request"],
        expected: e.expected as Json,
        actual: normativePart(e.reply) as Json,
      });
      if (e.request.type === "reset") {
        if (!e.reply.ok) {
          const message = `reset was refused with ${e.reply.error.code}`;
          findings.push({ invariant: null, stage: "forgetting", check: "wire/W-7.1", summary: message, trace: null });
          ended = true;
        }
        continue;
      }
      const diff = replyDifference(e.expected, e.reply);
      if (diff !== null) {
        const command = e.request["command"] as Command;
        const d = describeDifference(diff, "$reply");
        const invariant = attribute({
          op: command.op,
          modelRejected: null,
          implRejected: e.reply.ok ? null : { code: e.reply.error.code, invariant: e.reply.error.invariant },
          path: e.reply.ok ? { in: "reply", path: diff.path } : null,
        });
        findings.push(
          finding(
            invariant,
            "forgetting/reply",
            `the reply to the scripted ${command.op} differs from the model's (${d}), so the byte scans that follow would prove nothing`,
            d,
          ),
        );
        stop = "the scenario stopped at the disagreeing reply";
        ended = true;
      }
    } else if (e.kind === "break") {
      findings.push({ invariant: null, stage: "forgetting", check: `wire/${e.rule}`, summary: e.message, trace: null });
      ended = true;
    } else if (e.kind === "stopped") {
      stop = `the implementation could not be driven: ${e.reason}`;
      ended = true;
    } else if (e.kind === "scan" && e.label === "present:trace") {
      onDisk.trace = e.found.length > 0;
      if (!onDisk.trace)
        out.push(
          "the trace marker was in no file after the act (trace held in memory only, or encoded): its absence after distillation is no evidence for S-1",
        );
    } else if (e.kind === "scan" && e.label === "present:guidance") {
      onDisk.guidance = e.found.length > 0;
      if (!onDisk.guidance)
        out.push(
          "the guidance marker was in no file after the merge (stored encoded?): its absence after excision is no evidence for S-5",
        );
    } else if (e.kind === "scan") {
      const g = GONE[e.label];
      if (g === undefined) throw new Error(`runner bug: an unknown scan ${e.label}`);
      scans++;
      if (e.found.length > 0) {
        const where = e.found.map((f) => f.where).join("; ");
        findings.push(
          finding(
            g.invariant,
            g.check,
            `${g.when}, the data directory still holds content that must be gone (W-7.2): ${where}`,
            where,
          ),
        );
      } else if (onDisk[g.evidence]) witnessed.push(g.invariant);
    }
  }
  const complete = !ended && stop === null && partOf(history, PART).some((e) => e.kind === "restart");
  if (complete) {
    const excised = partOf(history, PART).find((e) => e.kind === "scan" && e.label === "gone:excised");
    out.push(
      `markers (seed ${seed}): trace ${m.trace}, guidance ${m.guidance}, key ${m.key}; scanned for after excision: ${samskara && excised?.kind === "scan" ? excised.markers.join(", ") : "(not applicable)"}`,
    );
  }
  return { outcome: verdictOf(findings, scans, witnessed.length, out, stop), witnessed };
};

const verdictOf = (
  findings: readonly Finding[],
  scans: number,
  witnessed: number,
  notes: readonly string[],
  reason: string | null,
): StageOutcome => {
  if (findings.length > 0)
    return outcome(
      "fail",
      `${findings.length} forgetting check(s) failed${reason === null ? "" : `; then ${reason}`}`,
      scans,
      findings,
      notes,
    );
  if (reason !== null) return outcome("inconclusive", reason, scans, [], notes);
  if (witnessed === 0)
    return outcome(
      "inconclusive",
      "no scan was evidence: the markers were never found on disk before they had to be gone",
      scans,
      [],
      notes,
    );
  return outcome(
    "pass",
    `${scans} byte scans of the data directory found no trace or excised content`,
    scans,
    [],
    notes,
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
  const notes = samskara
    ? []
    : ["samskara is not in the profile: excision (S-5) is not applicable; only trace forgetting (S-1) is checked"];
  const history = newHistory(PART);
  try {
    await driveForgetting(session, m, samskara, history);
  } finally {
    await session.close().catch(() => undefined);
  }
  const v = checkForgetting(history, ctx.settings.seed, samskara, m, notes);
  for (const id of v.witnessed) ctx.witnesses.add(id, "forgetting");
  for (const f of v.outcome.findings) ctx.progress.line(`srk: forgetting: ${f.check}: ${f.summary}`);
  return v.outcome;
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
