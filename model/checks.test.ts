/**
 * Every rejection site of the model names its check clause (spec/checks.ts), with a code that
 * clause allows, and every clause that can fail has a site. The property suite checks the same
 * of every rejection the model actually produces (properties/witness.property.test.ts).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHECKS, QUIESCED_OPS, check, quiescenceCheckOf } from "../spec/checks.ts";
import { errorCodeOf, isInvariantId } from "../spec/catalog.ts";

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")
        ? [join(dir, e.name)]
        : [],
  );
const text = sources("model")
  .map((f) => readFileSync(f, "utf8"))
  .join("\n");
const codeOf = (t: string) => (isInvariantId(t) ? errorCodeOf(t) : t);

describe("model rejection sites name their check clauses", () => {
  it("each violates/generic call with a literal check id uses a code that check allows", () => {
    const calls = [...text.matchAll(/(violates|generic)\("([A-Z0-9_-]+)", "(OP-[0-9.]+c\d+)"/g)];
    expect(calls.length).toBeGreaterThan(60);
    for (const [, , target, id] of calls) {
      expect(check(id as string).targets.map(codeOf), `${id} rejects with ${target}`).toContain(
        codeOf(target as string),
      );
    }
  });

  it("every check clause that can reject is named somewhere in the model", () => {
    const named = new Set([...text.matchAll(/"(OP-[0-9.]+c\d+)"/g)].map((m) => m[1]));
    // world.ts derives the quiescence clause from the operation (quiescenceCheckOf).
    expect(text).toMatch(/quiescenceCheckOf\(cmd\.op\)/);
    for (const op of QUIESCED_OPS) named.add(quiescenceCheckOf(op).id);
    const missing = CHECKS.filter((c) => c.targets.length > 0 && !named.has(c.id)).map((c) => c.id);
    expect(missing).toEqual([]);
    for (const id of named) expect(() => check(id as string)).not.toThrow();
  });
});
