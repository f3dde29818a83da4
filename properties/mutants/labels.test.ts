/**
 * The mutants' labels are decided from the spec and cannot drift from their reasons:
 * - every label names a clause that exists in the spec (a check of spec/checks.json, an operation
 *   or store clause of spec/OPERATIONS.md, a decision of spec/DECISIONS.md, a W rule of
 *   spec/wire/PROTOCOL.md), a wire mutant a W rule and no invariant, any other one an invariant;
 * - a label whose clause is a check that rejects with invariants names one of them (the check's
 *   own invariant is the rule's);
 * - its `why` names both the invariant (a wire mutant: the W rule) and the clause;
 * - the lock (labels.lock.json) is current, and the lock logic refuses a label changed without its
 *   reason, reports a new, a removed or a re-reasoned mutant, and says how to refresh.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MUTANTS, type LabelledMutant } from "./catalog.ts";
import { LOCK_COMMAND, LOCK_FILE, lockOf, lockProblems, whyDigest, type Lock } from "./labels.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const read = (f: string): string => readFileSync(join(root, f), "utf8");

const checks = (
  JSON.parse(read("spec/checks.json")) as {
    checks: { id: string; clause: string; outcomes: { invariant: string | null }[] }[];
  }
).checks;
const opClauses = new Set(
  [...read("spec/OPERATIONS.md").matchAll(/^(?:#+ |- \*\*)(OP-[0-9.]+[a-z]?)\b/gm)].map((m) =>
    m[1]?.replace(/\.$/, ""),
  ),
);
const decisions = new Set([...read("spec/DECISIONS.md").matchAll(/^## (D-\d{3}) /gm)].map((m) => m[1]));
const wireRules = new Set([...read("spec/wire/PROTOCOL.md").matchAll(/\*\*(W-\d+\.\d+)\b/g)].map((m) => m[1]));

type ClauseKind = "check" | "operation" | "decision" | "wire";
const kindOf = (clause: string): ClauseKind | null =>
  checks.some((c) => c.id === clause)
    ? "check"
    : opClauses.has(clause)
      ? "operation"
      : decisions.has(clause)
        ? "decision"
        : wireRules.has(clause)
          ? "wire"
          : null;

describe("each mutant's label names a rule of the spec", () => {
  it("the spec's clause lists were read (a parse that found nothing would pass everything)", () => {
    expect(checks.length).toBeGreaterThan(80);
    expect(opClauses.has("OP-1.9") && opClauses.has("OP-7.6") && opClauses.has("OP-1.2a")).toBe(true);
    expect(decisions.has("D-042") && wireRules.has("W-1.8") && wireRules.has("W-5.3")).toBe(true);
  });

  for (const m of MUTANTS) {
    it(`${m.id}: ${m.invariant ?? "wire"} (${m.clause})`, () => {
      const kind = kindOf(m.clause);
      expect(kind, `${m.id}: clause ${m.clause} is not a check, clause, decision or W rule of the spec`).not.toBeNull();
      expect(
        m.invariant === null,
        `${m.id}: a wire mutant (impl/wire) has no invariant and a W rule for clause, any other mutant an invariant and no W rule`,
      ).toBe(kind === "wire");
      expect(m.invariant === null, `${m.id}: only a mutant of impl/wire is a wire mutant`).toBe(
        m.file.startsWith("impl/wire/"),
      );
      const check = checks.find((c) => c.id === m.clause);
      const invariants = (check?.outcomes ?? []).map((o) => o.invariant).filter((i): i is string => i !== null);
      if (invariants.length > 0)
        expect(invariants, `${m.id}: ${m.clause} rejects with ${invariants.join("/")}`).toContain(m.invariant);
      expect(m.why, `${m.id}: why names the invariant`).toContain(m.invariant ?? m.clause);
      expect(m.why, `${m.id}: why names the clause`).toContain(m.clause);
    });
  }

  it("no entry says its label follows the runner's answer", () => {
    expect(read("properties/mutants/catalog.ts")).not.toMatch(
      /must follow|what the runner attributes|the invariant the kill matrix expects/,
    );
  });
});

describe(`the labels are locked with their reasons (${LOCK_FILE})`, () => {
  const lock = JSON.parse(read(LOCK_FILE)) as Lock;

  it(`the lock is current (else: ${LOCK_COMMAND})`, () => {
    expect(lockProblems(MUTANTS, lock).map((p) => p.message)).toEqual([]);
  });

  const one: LabelledMutant = {
    id: "S-1.example",
    invariant: "S-1",
    clause: "OP-2.7.c9",
    why: "removes OP-2.7.c9, which rejects with S-1",
    description: "d",
    file: "impl/x.ts",
    find: "a",
    replace: "b",
  };
  const locked = lockOf([one]);

  it("refuses a label changed while its why stayed the same, and says how to proceed", () => {
    const p = lockProblems([{ ...one, invariant: "J-4" }], locked);
    expect(p.map((x) => x.kind)).toEqual(["unreasoned"]);
    expect(p[0]?.message).toContain("invariant S-1 → J-4");
    expect(p[0]?.message).toContain(LOCK_COMMAND);
    expect(lockProblems([{ ...one, clause: "OP-2.7" }], locked).map((x) => x.kind)).toEqual(["unreasoned"]);
  });

  it("a label changed with its why is a re-reasoned entry to record, not a refusal", () => {
    expect(
      lockProblems([{ ...one, invariant: "J-4", why: "a new reason naming J-4 and OP-2.7.c9" }], locked).map(
        (x) => x.kind,
      ),
    ).toEqual(["reason-changed"]);
    expect(lockProblems([{ ...one, why: "reworded: removes OP-2.7.c9 (S-1)" }], locked).map((x) => x.kind)).toEqual([
      "reason-changed",
    ]);
  });

  it("a mutant missing from the lock and a lock entry without a mutant are both reported", () => {
    expect(lockProblems([one, { ...one, id: "S-1.other" }], locked).map((x) => [x.id, x.kind])).toEqual([
      ["S-1.other", "not-locked"],
    ]);
    expect(lockProblems([], locked).map((x) => [x.id, x.kind])).toEqual([["S-1.example", "no-mutant"]]);
  });

  it("the digest is of the why text itself", () => {
    expect(locked["S-1.example"]?.why).toBe(whyDigest(one.why));
    expect(whyDigest("a")).not.toBe(whyDigest("a "));
  });
});
