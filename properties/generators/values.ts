/**
 * The fixed values generated commands are built from: digests, authorisations, executions and the
 * words traces, keys and guidance are drawn from.
 */
export const BASE = `sha256:${"ab".repeat(32)}` as const;
export const EVIDENCE = `sha256:${"cd".repeat(32)}` as const;
export const AUTH = { custodian: "custodian-1", decision_id: "decision-1" };
export const ROGUE = { custodian: "mallory", decision_id: "decision-x" };
export const exec = (id: string) => ({ execution_id: id, reasoner: "r", harness: "h", host: "host" });

export const WORDS = ["fare", "lisbon", "tuesday", "cheapest", "window", "seat", "refund", "late", "train", "hotel"];
export const KEYS = ["k.a", "k.b", "k.c", "k.d", "tool.search"];
export const GUIDANCE = [
  "prefer early departures",
  "avoid overnight layovers",
  "ask before booking",
  "check refund terms",
];
/** One code point, two UTF-16 code units: strings of it sit on a length bound in one unit only (D-041). */
export const ASTRAL = "\u{1F680}";
