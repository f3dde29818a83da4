/**
 * A portable trace (spec/certificate.ts `PortableTrace`) as an ITF trace, and back.
 *
 * One ITF state per step, in order: the variables are `step` (its index), `request`, `expected`,
 * `actual` (None when no reply came) and `model` (None when the model noted nothing), so each
 * state reads as "what was sent, what the model said, what the implementation said". Everything
 * that describes the trace as a whole (invariant, stage, check, summary, seed, path,
 * failing_step, difference, shrink) goes into the trace's `#meta`, as plain JSON: ADR-015 lets
 * `#meta` be any object, and these fields are about the trace, not states of it. Each state's
 * `#meta` holds its index, and `failing: true` on the failing step.
 *
 * `portableTraceOfItf` is the inverse: it reads the kit's own shape, checks the result against
 * the PortableTrace schema, and says which state and variable is wrong when something is.
 */
import { PortableTrace, type TraceStep } from "../../spec/certificate.ts";
import { encodeJson, type ItfExpr } from "./encode.ts";
import { ITF_FORMAT_DESCRIPTION, ItfFormatError, readItf, type ItfState, type ItfTrace } from "./document.ts";

/** The state variables of a portable trace in ITF, in the order of `vars`. */
export const TRACE_VARS = ["step", "request", "expected", "actual", "model"] as const;

/** The trace-level fields of a portable trace, kept in `#meta` as they are. */
const META_FIELDS = [
  "trace_version",
  "invariant",
  "stage",
  "check",
  "summary",
  "seed",
  "path",
  "failing_step",
  "difference",
  "shrink",
] as const;

const DESCRIPTION =
  "A portable trace of srk (spec/certificate.ts PortableTrace): one state per step; srk replay re-runs it";

/** `trace` as an ITF trace object (write it as JSON, e.g. to `<name>.itf.json`). */
export const itfOfPortableTrace = (trace: PortableTrace): ItfTrace => {
  const meta: Record<string, unknown> = {
    format: "ITF",
    "format-description": ITF_FORMAT_DESCRIPTION,
    source: "srk",
    description: DESCRIPTION,
  };
  for (const k of META_FIELDS) meta[k] = trace[k];
  const states = trace.steps.map((s, i): ItfState => {
    const where = `steps[${i}]`;
    const v: Record<string, ItfExpr> = {
      step: encodeJson(i),
      request: encodeJson(s.request, `${where}.request`),
      expected: encodeJson(s.expected, `${where}.expected`),
      actual: encodeJson(s.actual, `${where}.actual`),
      model: encodeJson(s.model ?? null, `${where}.model`),
    };
    return { "#meta": trace.failing_step === i ? { index: i, failing: true } : { index: i }, ...v };
  });
  return { "#meta": meta, vars: [...TRACE_VARS], states };
};

/**
 * The portable trace an ITF trace of the kit's shape holds. Throws ItfFormatError naming the
 * state index and variable (or the `#meta` field) that does not fit.
 */
export const portableTraceOfItf = (itf: unknown): PortableTrace => {
  const d = readItf(itf);
  const missingMeta = META_FIELDS.filter((k) => !(k in d.meta));
  if (missingMeta.length > 0) {
    throw new ItfFormatError(
      `not an ITF trace of srk's shape: #meta lacks ${missingMeta.join(", ")} (write one with srk itf <trace.json>)`,
    );
  }
  const steps = d.states.map((s, i): TraceStep => {
    for (const v of ["step", "request", "expected", "actual"] as const) {
      if (!(v in s.values)) throw new ItfFormatError(`state ${i}: variable ${v} is missing`);
    }
    if (s.values["step"] !== i)
      throw new ItfFormatError(
        `state ${i}, variable step: ${JSON.stringify(s.values["step"])}, expected ${i} (states are the steps in order)`,
      );
    const model = s.values["model"] ?? null;
    const step = { request: s.values["request"], expected: s.values["expected"], actual: s.values["actual"] ?? null };
    return (model === null ? step : { ...step, model }) as TraceStep;
  });
  const candidate: Record<string, unknown> = {};
  for (const k of META_FIELDS) candidate[k] = d.meta[k];
  candidate["steps"] = steps;
  const parsed = PortableTrace.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path ?? [];
    const where =
      path[0] === "steps" && typeof path[1] === "number"
        ? `state ${path[1]}, variable ${String(path[2] ?? "?")}${path
            .slice(3)
            .map((p) => `.${String(p)}`)
            .join("")}`
        : `#meta.${path.map(String).join(".")}`;
    throw new ItfFormatError(`not a portable trace: ${where}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
};
