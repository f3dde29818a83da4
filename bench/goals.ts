/**
 * Goals: every goal is a ratio against a baseline measured in the same run (or, for growth, the
 * fitted log-log exponent, whose baseline is the smallest N), reported as met or short, and when
 * short by how much and why. The one exception is a `rate`: a goal an issue states as an absolute
 * rate (the model's steps/s, the exhaustive merge check's cases/s), for which nothing measured in
 * the same run is a meaningful baseline; the report's load average says how much to trust it.
 * Pure; tested in reports/bench.test.ts.
 */
import { sig } from "./stats.ts";

export type Comparator = ">=" | "<=" | ">";

/** A quantity as reported: its value, unit and what it is. */
export interface Quantity {
  readonly value: number;
  readonly unit: string;
  readonly label: string;
}

export interface GoalSpec {
  readonly comparator: Comparator;
  readonly target: number;
  /**
   * What `ratio` is: measured ÷ baseline, a fitted exponent, a speedup (baseline time ÷ measured
   * time), or a rate (the measured figure itself, in `unit`).
   */
  readonly kind: "ratio" | "exponent" | "speedup" | "rate";
  /** The rate's unit (kind "rate" only), e.g. "steps/s". */
  readonly unit?: string;
}

export type GoalStatus = "met" | "short" | "not measured";

export interface Goal {
  readonly name: string;
  readonly section: string;
  readonly measured: Quantity | null;
  readonly baseline: Quantity | null;
  /** The figure compared with the goal (see GoalSpec.kind); null when not measured. */
  readonly ratio: number | null;
  readonly goal: GoalSpec & { readonly text: string };
  readonly met: boolean;
  readonly status: GoalStatus;
  /** How far from the goal, in words, when short; null otherwise. */
  readonly short_by: string | null;
  /** Context when met; why, when short or not measured. */
  readonly note: string;
}

const symbol: Record<Comparator, string> = { ">=": "≥", "<=": "≤", ">": ">" };

export const goalText = (g: GoalSpec): string =>
  g.kind === "exponent"
    ? `exponent ${symbol[g.comparator]} ${g.target}`
    : g.kind === "rate"
      ? `${symbol[g.comparator]} ${g.target.toLocaleString("en-US")} ${g.unit ?? "/s"}`
      : `${symbol[g.comparator]} ${g.target}×`;

export const meets = (ratio: number, g: GoalSpec): boolean =>
  g.comparator === ">=" ? ratio >= g.target : g.comparator === "<=" ? ratio <= g.target : ratio > g.target;

/** The shortfall in words: how far the figure is from the goal, and what it would take. */
export const shortfall = (ratio: number, g: GoalSpec): string => {
  if (g.kind === "exponent") {
    return `exponent ${sig(ratio)} is ${sig(ratio - g.target)} above ${g.target}: the time grows about ${sig(10 ** ratio)}× per 10× N instead of at most ${sig(10 ** g.target)}×`;
  }
  if (g.kind === "rate") {
    const unit = g.unit ?? "/s";
    return g.comparator === "<="
      ? `${sig(ratio)} ${unit} is ${sig(ratio - g.target)} above ${g.target.toLocaleString("en-US")} ${unit}`
      : `${sig(ratio)} ${unit} is ${sig(g.target - ratio)} below ${g.target.toLocaleString("en-US")} ${unit} (${sig((ratio / g.target) * 100)}% of the goal; ${sig(g.target / ratio)}× faster would meet it)`;
  }
  if (g.comparator === ">") {
    return `${sig(ratio)}× is not above ${g.target}× (${ratio < g.target ? `${sig((g.target / ratio - 1) * 100)}% slower than the baseline` : "no faster than the baseline"})`;
  }
  if (g.comparator === ">=") {
    return `${sig(ratio)}× is ${sig(g.target - ratio)} below ${g.target}× (${sig((ratio / g.target) * 100)}% of the goal; ${sig(g.target / ratio)}× faster would meet it)`;
  }
  return `${sig(ratio)}× is ${sig(ratio - g.target)} above ${g.target}×`;
};

export interface GoalInput {
  readonly name: string;
  readonly section: string;
  readonly measured: Quantity;
  readonly baseline: Quantity | null;
  readonly ratio: number;
  readonly goal: GoalSpec;
  /** Said when the goal is met (context). */
  readonly whenMet: string;
  /** Said when it is short: why, from what was measured. */
  readonly whenShort: string;
}

export const evaluate = (i: GoalInput): Goal => {
  if (!Number.isFinite(i.ratio)) throw new Error(`goal "${i.name}": the ratio is not a finite number (${i.ratio})`);
  const met = meets(i.ratio, i.goal);
  const note = met ? i.whenMet : i.whenShort;
  if (note.trim() === "") throw new Error(`goal "${i.name}": ${met ? "met" : "short"} without a note`);
  return {
    name: i.name,
    section: i.section,
    measured: i.measured,
    baseline: i.baseline,
    ratio: i.ratio,
    goal: { ...i.goal, text: goalText(i.goal) },
    met,
    status: met ? "met" : "short",
    short_by: met ? null : shortfall(i.ratio, i.goal),
    note,
  };
};

/** A goal whose measurement could not be made (a section failed or was skipped), with the reason. */
export const notMeasured = (name: string, section: string, goal: GoalSpec, reason: string): Goal => ({
  name,
  section,
  measured: null,
  baseline: null,
  ratio: null,
  goal: { ...goal, text: goalText(goal) },
  met: false,
  status: "not measured",
  short_by: null,
  note: reason,
});
