/**
 * J-3: the termination-predicate language (D-015), evaluated after every accepted act.
 * Total and side-effect free: every predicate evaluates to a boolean.
 */
import type { TerminationPredicate } from "../../spec/index.ts";

/** The counters a predicate can observe. */
export interface ActCounters {
  readonly acts: number;
  readonly failures: number;
  readonly consecutiveFailures: number;
  readonly bornTick: number;
  readonly toolsUsed: ReadonlySet<string>;
}

export const holds = (p: TerminationPredicate, c: ActCounters, now: number): boolean => {
  switch (p.op) {
    case "acts_at_least":
      return c.acts >= p.n;
    case "failures_at_least":
      return c.failures >= p.n;
    case "consecutive_failures_at_least":
      return c.consecutiveFailures >= p.n;
    case "ticks_since_birth_at_least":
      return now - c.bornTick >= p.n;
    case "tool_used":
      return c.toolsUsed.has(p.tool);
    case "all":
      return p.of.every((q) => holds(q, c, now));
    case "any":
      return p.of.some((q) => holds(q, c, now));
    case "not":
      return !holds(p.of, c, now);
  }
};
