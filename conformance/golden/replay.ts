/**
 * Replays a golden session against an implementation in process and reports the first reply
 * whose normative part differs (spec/wire/PROTOCOL.md W-9). Used by the golden tests and by the
 * mutation suite.
 */
import { readFileSync } from "node:fs";
import type { Implementation } from "../../impl/api.ts";
import { normativePart, type GoldenLine } from "./session.ts";

export const readGolden = (path: string): GoldenLine[] =>
  readFileSync(path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as GoldenLine);

/** The first mismatch as "line N (id): expected … got …", or null when every reply matches. */
export const firstGoldenMismatch = (lines: readonly GoldenLine[], impl: Implementation): string | null => {
  for (const [n, line] of lines.entries()) {
    let actual: unknown;
    if (line.request.type === "command") {
      const o = impl.apply(line.request.command);
      actual = normativePart(o.ok ? { ok: true, events: o.events } : { ok: false, error: { ...o.error, definite: true } });
    } else {
      actual = normativePart({ ok: true, events: [], result: impl.world() });
    }
    const a = JSON.stringify(actual);
    const e = JSON.stringify(line.reply);
    if (a !== e) return `line ${n + 1} (${line.request.id}): expected ${e.slice(0, 300)} got ${a.slice(0, 300)}`;
  }
  return null;
};
