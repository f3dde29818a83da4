/**
 * The termination-predicate language (D-015), evaluated after every act (J-3). Total and pure:
 * it reads only the instance's counters and the current tick.
 */
import type { InstanceView, TerminationCondition, TerminationPredicate } from "../../spec/index.ts";

export const holds = (p: TerminationPredicate, inst: InstanceView, now: number): boolean => {
  switch (p.op) {
    case "acts_at_least":
      return inst.acts >= p.n;
    case "failures_at_least":
      return inst.failures >= p.n;
    case "consecutive_failures_at_least":
      return inst.consecutive_failures >= p.n;
    case "ticks_since_birth_at_least":
      return inst.born_tick !== null && now - inst.born_tick >= p.n;
    case "tool_used":
      return inst.tools_used.includes(p.tool);
    case "all":
      return p.of.every((q) => holds(q, inst, now));
    case "any":
      return p.of.some((q) => holds(q, inst, now));
    case "not":
      return !holds(p.of, inst, now);
  }
};

/** The first condition, in declaration order, that holds (J-3, D-015). */
export const firedCondition = (
  conditions: readonly TerminationCondition[],
  inst: InstanceView,
  now: number,
): TerminationCondition | undefined => conditions.find((c) => holds(c.when, inst, now));
