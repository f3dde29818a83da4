/**
 * Every ordered comparison of spec/CHECKS.md (issue 21, item 2: "every boundary driven from every
 * operation that has it"): for each operation that applies one, the side d ∈ {−1, 0, +1} of its
 * boundary a generated command was at — one below the boundary value, at it, one above. The
 * witness book (properties/witness.ts) counts each (operation, check, side) cell and
 * `properties/witness.property.test.ts` fails on a zero cell, as for the check clauses and the
 * boundaries. A side that no command sequence can reach is listed with its reason, not counted.
 *
 * The comparisons (spec/checks.ts, spec/OPERATIONS.md):
 * - OP-0.2.c2 `tick` not below the world tick, on every operation (every command carries a tick);
 * - OP-2.3.c6 act: `tick ≥ born_tick + ttl_ticks` fails (J-3);
 * - OP-2.7.c6 distil: the confidence 0 boundary (D-053, D-057: confidence 0 only for the no-feedback
 *   distillate, valence 0 and no dispositions);
 * - OP-2.7.c7 distil: `|weight| ≤ |valence|` (D-012), in millionths;
 * - OP-2.7.c9 distil: a run of 4 consecutive trace tokens leaks (D-010): runs of 3, 4, 5;
 * - OP-3.1.c3 attempt: `tick < deadline_tick` (strict, D-060);
 * - OP-3.1.c4 attempt: `attempts < max_retries + 1` (unreachable as a failure, spec/checks.ts);
 * - OP-3.2.c3 custody expiry: `tick ≥ deadline_tick`;
 * - OP-4.1.c4 merge: a pending obligation at `tick ≥ deadline_tick` fails (D-060);
 * - OP-2.5 (effects) expire: the instance is withdrawn iff `tick ≥ born_tick + ttl_ticks`.
 *
 * Not ordered comparisons although they read numbers: "token fresh" (OP-6.1.c3, OP-7.1.c4,
 * OP-7.6.c2) is a set membership (the token never used by the agent), and OP-2.7.c7's sign clause
 * is an equality of signs. The D-015 termination thresholds are effects with their own witnesses
 * in BOUNDARIES.
 */
import { COMMAND_OPS, type CommandOp } from "../spec/schemas/commands.ts";
import { failedAt, field, passedAt, signalOf, type StepContext } from "./step-reads.ts";

export type Side = -1 | 0 | 1;

export interface ComparisonCell {
  /** `janma.act OP-0.2.c2 -1`: the operation, the check (or effect rule) and the side. */
  readonly id: string;
  readonly op: CommandOp;
  readonly check: string;
  readonly side: Side;
  readonly what: string;
  /** Counted by its own predicate, or read from the count of a boundary of BOUNDARIES. */
  readonly hit?: (s: StepContext) => boolean;
  readonly sameAs?: string;
  /** Why no command sequence reaches this side (then it is not counted and not a zero). */
  readonly impossible?: string;
}

const reached = (s: StepContext, id: string) => passedAt(s, id) || failedAt(s, id);

const weightsOf = (s: StepContext): number[] => {
  const d = field(s, "distillate") as { dispositions?: unknown } | undefined;
  return Array.isArray(d?.dispositions)
    ? d.dispositions.flatMap((x) =>
        typeof (x as { weight?: unknown }).weight === "number" ? [(x as { weight: number }).weight] : [],
      )
    : [];
};
/** The largest |weight| − |valence| of a distillate whose weights all have the valence's sign (so only the magnitude decides OP-2.7.c7). */
const weightExcess = (s: StepContext): number | null => {
  const sig = signalOf(s);
  const ws = weightsOf(s);
  if (
    sig === undefined ||
    ws.length === 0 ||
    sig.valence === 0 ||
    ws.some((w) => Math.sign(w) !== Math.sign(sig.valence))
  )
    return null;
  return Math.max(...ws.map((w) => Math.abs(w))) - Math.abs(sig.valence);
};

const sides: readonly Side[] = [-1, 0, 1];
const cell = (
  op: CommandOp,
  check: string,
  side: Side,
  what: string,
  rest: Pick<ComparisonCell, "hit" | "sameAs" | "impossible">,
): ComparisonCell => ({
  id: `${op} ${check} ${side < 0 ? "-1" : side > 0 ? "+1" : "0"}`,
  op,
  check,
  side,
  what,
  ...rest,
});

const tickCells: ComparisonCell[] = COMMAND_OPS.flatMap((op) =>
  sides.map((d) =>
    cell(
      op,
      "OP-0.2.c2",
      d,
      d < 0
        ? "tick one below the world tick: TICK_REGRESSED"
        : d === 0
          ? "tick equal to the world tick passes"
          : "tick one above the world tick passes",
      {
        hit: (s) =>
          s.cmd.op === op &&
          s.cmd.tick === s.pre.tick + d &&
          (d < 0 ? failedAt(s, "OP-0.2.c2") : passedAt(s, "OP-0.2.c2")),
      },
    ),
  ),
);

const UNREACHABLE_RETRIES =
  "unreachable (spec/checks.ts): the attempt that reaches max_retries + 1 discharges the obligation, so a pending obligation never has attempts ≥ max_retries + 1 and OP-3.1.c2 fails first";

export const COMPARISONS: readonly ComparisonCell[] = [
  ...tickCells,
  cell("janma.act", "OP-2.3.c6", -1, "act one tick before born_tick + ttl_ticks passes", {
    sameAs: "OP-2.3.c6@deadline-1",
  }),
  cell("janma.act", "OP-2.3.c6", 0, "act at born_tick + ttl_ticks fails (J-3)", { sameAs: "OP-2.3.c6@deadline" }),
  cell("janma.act", "OP-2.3.c6", 1, "act one tick after born_tick + ttl_ticks fails (J-3)", {
    sameAs: "OP-2.3.c6@deadline+1",
  }),
  cell("janma.expire", "OP-2.5", -1, "expire one tick before the TTL deadline withdraws nothing", {
    sameAs: "OP-2.5@deadline-1",
  }),
  cell("janma.expire", "OP-2.5", 0, "expire at the TTL deadline withdraws", { sameAs: "OP-2.5@deadline" }),
  cell("janma.expire", "OP-2.5", 1, "expire after the TTL deadline withdraws", { sameAs: "OP-2.5@deadline+1" }),
  cell("janma.distil", "OP-2.7.c6", -1, "a confidence below 0", {
    impossible:
      "a negative confidence never reaches OP-2.7.c6: the strict distillate schema (OP-2.7.c4, S-1) refuses it first",
  }),
  cell(
    "janma.distil",
    "OP-2.7.c6",
    0,
    "confidence 0 reaches the check (accepted only for the no-feedback distillate, D-057)",
    {
      hit: (s) => s.cmd.op === "janma.distil" && reached(s, "OP-2.7.c6") && signalOf(s)?.confidence === 0,
    },
  ),
  cell("janma.distil", "OP-2.7.c6", 1, "confidence 1 millionth backing dispositions passes", {
    sameAs: "OP-2.7.c6@least-confidence",
  }),
  cell("janma.distil", "OP-2.7.c7", -1, "largest |weight| one millionth under |valence| passes", {
    hit: (s) => s.cmd.op === "janma.distil" && passedAt(s, "OP-2.7.c7") && weightExcess(s) === -1,
  }),
  cell("janma.distil", "OP-2.7.c7", 0, "largest |weight| equal to |valence| passes", {
    hit: (s) => s.cmd.op === "janma.distil" && passedAt(s, "OP-2.7.c7") && weightExcess(s) === 0,
  }),
  cell("janma.distil", "OP-2.7.c7", 1, "a |weight| one millionth over |valence| fails (S-2)", {
    hit: (s) => s.cmd.op === "janma.distil" && failedAt(s, "OP-2.7.c7") && weightExcess(s) === 1,
  }),
  cell("janma.distil", "OP-2.7.c9", -1, "guidance quoting a run of 3 trace tokens passes", {
    sameAs: "OP-2.7.c9@run-3",
  }),
  cell("janma.distil", "OP-2.7.c9", 0, "guidance quoting a run of exactly 4 trace tokens fails (S-1)", {
    sameAs: "OP-2.7.c9@run-4",
  }),
  cell("janma.distil", "OP-2.7.c9", 1, "guidance quoting a run of 5 or more trace tokens fails (S-1)", {
    sameAs: "OP-2.7.c9@run-5",
  }),
  cell("custody.attempt", "OP-3.1.c3", -1, "attempt one tick before deadline_tick passes", {
    sameAs: "OP-3.1.c3@deadline-1",
  }),
  cell("custody.attempt", "OP-3.1.c3", 0, "attempt at deadline_tick fails (strict, D-060)", {
    sameAs: "OP-3.1.c3@deadline",
  }),
  cell("custody.attempt", "OP-3.1.c3", 1, "attempt one tick after deadline_tick fails", {
    sameAs: "OP-3.1.c3@deadline+1",
  }),
  cell("custody.attempt", "OP-3.1.c4", -1, "the last attempt left (attempts = max_retries) passes", {
    hit: (s) =>
      s.cmd.op === "custody.attempt" &&
      passedAt(s, "OP-3.1.c4") &&
      s.obligation !== undefined &&
      s.obligation.attempts === s.obligation.max_retries,
  }),
  cell("custody.attempt", "OP-3.1.c4", 0, "attempts = max_retries + 1 on a pending obligation", {
    impossible: UNREACHABLE_RETRIES,
  }),
  cell("custody.attempt", "OP-3.1.c4", 1, "attempts = max_retries + 2 on a pending obligation", {
    impossible: UNREACHABLE_RETRIES,
  }),
  cell("custody.expire", "OP-3.2.c3", -1, "custody expiry one tick before deadline_tick fails", {
    sameAs: "OP-3.2.c3@deadline-1",
  }),
  cell("custody.expire", "OP-3.2.c3", 0, "custody expiry at deadline_tick passes", { sameAs: "OP-3.2.c3@deadline" }),
  cell("custody.expire", "OP-3.2.c3", 1, "custody expiry one tick after deadline_tick passes", {
    hit: (s) =>
      s.cmd.op === "custody.expire" &&
      passedAt(s, "OP-3.2.c3") &&
      s.obligation !== undefined &&
      s.cmd.tick === s.obligation.deadline_tick + 1,
  }),
  cell("samskara.merge", "OP-4.1.c4", -1, "merge of a pending obligation one tick before its deadline passes", {
    sameAs: "OP-4.1.c4@deadline-1",
  }),
  cell("samskara.merge", "OP-4.1.c4", 0, "merge of a pending obligation at its deadline fails (D-060)", {
    sameAs: "OP-4.1.c4@deadline",
  }),
  cell("samskara.merge", "OP-4.1.c4", 1, "merge one tick after a pending obligation's deadline fails", {
    sameAs: "OP-4.1.c4@deadline+1",
  }),
];
