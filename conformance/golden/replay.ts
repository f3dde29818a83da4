/**
 * Replays a golden session against an implementation in process and reports the first reply
 * whose normative part differs (spec/wire/PROTOCOL.md W-9). Used by the golden tests, by the
 * mutation suite, and by the spec-review test that checks each review mutant first fails on a line
 * pinning its own item (conformance/review.test.ts).
 */
import { readFileSync } from "node:fs";
import type { Implementation } from "../../impl/api.ts";
import { normativePart } from "../core/reply.ts";
import type { GoldenLine } from "./types.ts";

export const readGolden = (path: string): GoldenLine[] =>
  readFileSync(path, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as GoldenLine);

/** Where a replay first went wrong: the line (1-based), its request id, and what differed or was thrown. */
export interface GoldenMismatch {
  readonly line: number;
  readonly id: string;
  readonly expected: string;
  /** The normative part of the actual reply, or null when the implementation threw (then `threw` says what). */
  readonly actual: string | null;
  readonly threw: string | null;
}

/** The first line whose reply differs (or whose request throws), or null when every reply matches. */
export const firstGoldenMismatchAt = (lines: readonly GoldenLine[], impl: Implementation): GoldenMismatch | null =>
  replay(lines, impl, true);

const replay = (lines: readonly GoldenLine[], impl: Implementation, catchThrows: boolean): GoldenMismatch | null => {
  for (const [n, line] of lines.entries()) {
    const expected = JSON.stringify(line.reply);
    let actual: unknown;
    try {
      if (line.request.type === "command") {
        const o = impl.apply(line.request.command);
        actual = normativePart(
          o.ok ? { ok: true, events: o.events } : { ok: false, error: { ...o.error, definite: true } },
        );
      } else {
        actual = normativePart({ ok: true, events: [], result: impl.world() });
      }
    } catch (e) {
      if (!catchThrows) throw e;
      // A throw is a mismatch at this line too: it names the line, so a caller can tell where the replay broke.
      return { line: n + 1, id: line.request.id, expected, actual: null, threw: String(e) };
    }
    const a = JSON.stringify(actual);
    if (a !== expected) return { line: n + 1, id: line.request.id, expected, actual: a, threw: null };
  }
  return null;
};

/** A mismatch as one line of text: "line N (id): expected … got …" (or "… threw …"). */
export const describeMismatch = (m: GoldenMismatch): string =>
  m.threw !== null
    ? `line ${m.line} (${m.id}): threw ${m.threw.slice(0, 300)}`
    : `line ${m.line} (${m.id}): expected ${m.expected.slice(0, 300)} got ${(m.actual ?? "").slice(0, 300)}`;

/**
 * The first mismatch as "line N (id): expected … got …", or null when every reply matches. An
 * implementation that throws still throws out of this function (the mutation harness reports it
 * as such); use `firstGoldenMismatchAt` to learn at which line.
 */
export const firstGoldenMismatch = (lines: readonly GoldenLine[], impl: Implementation): string | null => {
  const m = replay(lines, impl, false);
  return m === null ? null : describeMismatch(m);
};
