/**
 * What every reporter reads: the certificate, the portable traces next to it, where each
 * invariant's documentation is from the report's folder, and the few derived facts the reports
 * share (the counterexamples in order, a step in one line, the first difference between an
 * expected and an actual reply, what decided a verdict). Pure functions of their inputs; the only
 * I/O is `loadReportInput`, which reads the traces the certificate names and looks for the docs
 * (doc-links.ts).
 */
import { dirname, relative, resolve, sep } from "node:path";
import { INVARIANTS, type Invariant, type InvariantId } from "../../spec/catalog.ts";
import type {
  Certificate,
  CounterexampleRef,
  InvariantVerdict,
  PortableTrace,
  StageResult,
  TraceStep,
} from "../../spec/certificate.ts";
import { KIT_ROOT } from "../kit-root.ts";
import { readTrace } from "../trace/trace.ts";
import { countInvariants, STAGE_CONCERNS } from "../verdicts/decide.ts";
import { invariantDocLinks, type DocLinks } from "./doc-links.ts";

export interface ReportInput {
  readonly certificate: Certificate;
  /** Where certificate.json is; the reports are written next to it. */
  readonly certificatePath: string;
  /** The traces the certificate names, by trace_file (as written in the certificate). */
  readonly traces: ReadonlyMap<string, PortableTrace | { readonly error: string }>;
  /** Each invariant's documentation, relative to the reports' folder (doc-links.ts). */
  readonly docs: DocLinks;
}

/**
 * Reads the traces a certificate names (only files inside its folder), keeping a reason for each one
 * that cannot be read, and finds each invariant's documentation in the kit's folder `kitRoot`.
 */
export const loadReportInput = (
  certificate: Certificate,
  certificatePath: string,
  kitRoot: string = KIT_ROOT,
): ReportInput => {
  const dir = resolve(dirname(certificatePath));
  const traces = new Map<string, PortableTrace | { error: string }>();
  for (const ref of certificate.stages.flatMap((s) => s.findings)) {
    const file = ref.trace_file;
    if (file === null || traces.has(file)) continue;
    const path = resolve(dir, file);
    if (!path.startsWith(dir + sep)) {
      traces.set(file, { error: `${file} is outside the certificate's folder; not read` });
      continue;
    }
    try {
      traces.set(file, readTrace(path));
    } catch (e) {
      traces.set(file, { error: e instanceof Error ? e.message.replace(dir + sep, "") : String(e) });
    }
  }
  return { certificate, certificatePath, traces, docs: invariantDocLinks(dir, kitRoot) };
};

export const traceOf = (
  input: ReportInput,
  ref: CounterexampleRef,
): PortableTrace | { readonly error: string } | null =>
  ref.trace_file === null ? null : (input.traces.get(ref.trace_file) ?? { error: `${ref.trace_file} was not read` });

export const isTrace = (t: PortableTrace | { readonly error: string } | null): t is PortableTrace =>
  t !== null && !("error" in t);

export interface Counterexample {
  /** 1-based, in stage order: the anchor `cx-N` of the HTML report. */
  readonly n: number;
  readonly stage: StageResult["stage"];
  readonly ref: CounterexampleRef;
}

/** Every finding of every stage, attributed to an invariant or to the wire protocol, in stage order. */
export const counterexamples = (c: Certificate): Counterexample[] => {
  let n = 0;
  return c.stages.flatMap((s) => s.findings.map((ref) => ({ n: ++n, stage: s.stage, ref })));
};

const sameRef = (a: CounterexampleRef, b: CounterexampleRef): boolean =>
  a.stage === b.stage &&
  a.check === b.check &&
  a.summary === b.summary &&
  a.trace_file === b.trace_file &&
  a.invariant === b.invariant;

/** The counterexamples of one invariant's verdict. */
export const counterexamplesOf = (all: readonly Counterexample[], v: InvariantVerdict): Counterexample[] =>
  all.filter((x) => v.counterexamples.some((r) => sameRef(r, x.ref)));

export const invariantName = (id: InvariantId): string => INVARIANTS.find((i) => i.id === id)?.name ?? id;

const invariantOf = (id: InvariantId): Invariant | undefined => INVARIANTS.find((i) => i.id === id);

/**
 * An invariant's meaning in one line: its statement's first clause (up to the first colon,
 * semicolon or full stop), which is the rule; the rest of the statement says how it is checked.
 */
export const oneLineMeaning = (id: InvariantId): string => {
  const statement = invariantOf(id)?.statement ?? "";
  const cut = /[:;.](?:\s|$)/.exec(statement);
  return cut === null ? statement : `${statement.slice(0, cut.index)}.`;
};

const andList = (xs: readonly string[]): string =>
  xs.length <= 1 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1] ?? ""}`;

/**
 * What decided a verdict, in words, for the reports' reason column. Every verdict but `pass` is
 * decided by one fact the certificate's reason already names (a finding, the profile, a stage that
 * could not finish, no witness, --only); a pass is decided by the stages that check the invariant
 * having run to the end with witnesses and without a finding, which its reason (a count the witness
 * columns already show) does not say.
 */
export const decidedBy = (c: Certificate, v: InvariantVerdict): string => {
  const expected = !v.expected_failure
    ? ""
    : v.verdict === "pass"
      ? " (listed in the baseline as an expected failure: a stale entry)"
      : " (an expected failure: listed in the baseline)";
  if (v.verdict !== "pass") {
    const stage = v.verdict === "fail" ? v.counterexamples[0]?.stage : undefined;
    return `${stage === undefined ? "" : `the ${stage} stage found it: `}${v.reason}${expected}`;
  }
  const stages = c.stages
    .filter(
      (s) => s.stage !== "handshake" && s.verdict !== "not-applicable" && STAGE_CONCERNS[s.stage].includes(v.invariant),
    )
    .map((s) => s.stage);
  return `witnessed, never violated${stages.length === 0 ? "" : ` in the ${andList(stages)} stage${stages.length === 1 ? "" : "s"}`}${expected}`;
};

export const totalWitnesses = (v: InvariantVerdict): number =>
  v.witnesses.accepted + v.witnesses.rejected + v.witnesses.crash_cuts + v.witnesses.algebra + v.witnesses.forgetting;

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The invariants by verdict (the same count as every other report: conformance/verdicts/decide.ts). */
export const countVerdicts = (c: Certificate): Record<InvariantVerdict["verdict"], number> => countInvariants(c);

const obj = (x: unknown): Record<string, unknown> | null =>
  typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : null;

/** A request in a few words: `command janma.birth (c12)`, `query world (t11)`. */
export const requestLabel = (request: TraceStep["request"]): string => {
  const type = String(request["type"] ?? "request");
  const id = request["id"] === undefined ? "" : ` (${String(request["id"])})`;
  if (type === "command") return `command ${String(obj(request["command"])?.["op"] ?? "?")}${id}`;
  if (type === "query") return `query ${String(obj(request["query"])?.["name"] ?? "?")}${id}`;
  return `${type}${id}`;
};

/** A reply's normative part in a few words: `accepted: instance.born`, `rejected with CODE (J-1)`, `no reply`. */
export const replyLabel = (reply: unknown): string => {
  const r = obj(reply);
  if (r === null) return reply === null ? "no reply" : JSON.stringify(reply);
  if (r["ok"] === true) {
    const events = Array.isArray(r["events"]) ? r["events"].map((e) => String(obj(e)?.["type"] ?? "?")) : [];
    const result = "result" in r ? " (with a result)" : "";
    return `accepted${events.length > 0 ? `: ${events.join(", ")}` : ", no events"}${result}`;
  }
  const e = obj(r["error"]);
  if (r["ok"] === false && e !== null)
    return `rejected with ${String(e["code"])}${e["invariant"] === null || e["invariant"] === undefined ? "" : ` (${String(e["invariant"])})`}`;
  return JSON.stringify(reply);
};

/** What went wrong at the failing step, in one sentence. */
export const divergence = (step: TraceStep): string => {
  const [e, a] = [replyLabel(step.expected), replyLabel(step.actual)];
  return e === a
    ? `the model and the implementation both answered ${e}, but the replies differ`
    : `the model expected ${e}; the implementation answered ${a}`;
};

/** The step a trace fails at: failing_step, else the last. */
export const failingIndex = (t: PortableTrace): number => t.failing_step ?? Math.max(0, t.steps.length - 1);

/** The command line, relative to the certificate's folder when it is inside it (the replay commands are absolute). */
export const shortPath = (input: ReportInput, p: string): string => {
  const r = relative(dirname(input.certificatePath), p);
  return r.startsWith("..") ? p : r;
};
