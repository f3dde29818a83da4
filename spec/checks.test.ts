import { describe, expect, it } from "vitest";
import {
  CHECKS,
  GENERIC_PROTECTS,
  MIGRATION_PHASE_OPS,
  QUIESCED_OPS,
  check,
  checksOf,
  quiescenceCheckOf,
} from "./checks.ts";
import { INVARIANTS } from "./catalog.ts";
import {
  parseCommonChecks,
  parseOperationChecks,
  parseQuiescedOps,
  readOperations,
  targetsOf,
} from "./checks-prose.ts";
import { COMMAND_OPS } from "./schemas/commands.ts";

const md = readOperations();

describe("spec/checks.ts matches the Checks lists of OPERATIONS.md item by item", () => {
  const prose = parseOperationChecks(md);
  const table = CHECKS.filter((c) => c.op !== null);

  it("the same clauses, operations and number of checks per clause", () => {
    const count = (xs: readonly { clause: string; op: string | null }[]) => {
      const m = new Map<string, number>();
      for (const x of xs) m.set(`${x.clause} ${x.op}`, (m.get(`${x.clause} ${x.op}`) ?? 0) + 1);
      return [...m];
    };
    expect(count(table)).toEqual(count(prose));
  });

  it("each check rejects with the code or invariant its prose item names, in order", () => {
    expect(table.map((c) => `${c.id} → ${c.targets.join(",")}`)).toEqual(
      prose.map((p) => `${p.clause}.c${p.index} → ${p.targets.join(",")}`),
    );
  });

  it("OP-0.2's common checks are the table's OP-0.2 checks", () => {
    expect(parseCommonChecks(md).map((p) => `${p.clause}.c${p.index} → ${p.targets.join(",")}`)).toEqual(
      CHECKS.filter((c) => c.clause === "OP-0.2").map((c) => `${c.id} → ${c.targets.join(",")}`),
    );
  });

  it("the OP-7 migration lookup is stated in the prose with its code", () => {
    expect(md.replace(/\s+/g, " ")).toMatch(
      /Phase commands after the fence, and `ripa.migration_cancel`, naming a migration that is not the one in progress → `NOT_FOUND`/,
    );
    expect(check("OP-7.c1").targets).toEqual(["NOT_FOUND"]);
  });

  it("OP-0.4's quiescence list is QUIESCED_OPS, and exactly those operations start their list with quiescence", () => {
    expect(parseQuiescedOps(md)).toEqual([...QUIESCED_OPS]);
    const starting = CHECKS.filter((c) => c.index === 1 && c.op !== null && c.text.startsWith("quiescence")).map(
      (c) => c.op,
    );
    expect([...starting].sort()).toEqual([...QUIESCED_OPS].sort());
    for (const op of QUIESCED_OPS) expect(quiescenceCheckOf(op).targets).toEqual(["I4"]);
  });

  it("every operation has its checks, ids are unique, and indices count from 1 per clause", () => {
    expect(new Set(CHECKS.map((c) => c.id)).size).toBe(CHECKS.length);
    for (const op of COMMAND_OPS) {
      const own = checksOf(op).filter((c) => c.op === op);
      expect(own.length, op).toBeGreaterThan(0);
      expect(
        own.map((c) => c.index),
        op,
      ).toEqual(own.map((_, k) => k + 1));
      expect(checksOf(op)[0]?.id, op).toBe("OP-0.2.c1");
    }
    for (const op of MIGRATION_PHASE_OPS)
      expect(
        checksOf(op)
          .map((c) => c.id)
          .slice(0, 4),
      ).toEqual(["OP-0.2.c1", "OP-0.2.c2", "OP-0.2.c3", "OP-7.c1"]);
    expect(
      checksOf("advaita.mint")
        .map((c) => c.id)
        .slice(0, 3),
    ).toEqual(["OP-0.2.c1", "OP-0.2.c2", "OP-5.1.c1"]);
  });

  it("the prose reader sees a changed target (the comparison can fail)", () => {
    expect(targetsOf("state `conceived` → J-1")).toEqual(["J-1"]);
    expect(targetsOf("x → else `NOT_FOUND`")).toEqual(["NOT_FOUND"]);
    expect(targetsOf("a → J-1, b → J-2")).toEqual(["J-1", "J-2"]);
    const edited = md.replace(/(unused by any\s+instance of the agent →) AD-2/, "$1 AD-1");
    expect(parseOperationChecks(edited).find((p) => p.clause === "OP-2.1" && p.index === 3)?.targets).toEqual(["AD-1"]);
  });
});

describe("GENERIC_PROTECTS (D-035 rule 1): the invariant a generic-code check protects", () => {
  it("names only checks that reject with a generic code, each with a reason, and an invariant of the check's own protocol", () => {
    const generic = new Set(["MALFORMED", "NOT_FOUND", "DUPLICATE_ID", "TICK_REGRESSED"]);
    for (const [id, p] of Object.entries(GENERIC_PROTECTS)) {
      const c = check(id);
      expect(
        c.targets.every((t) => generic.has(t)),
        id,
      ).toBe(true);
      expect(c.protects).toEqual(p);
      expect(p.why.length, id).toBeGreaterThan(20);
      const family = INVARIANTS.find((i) => i.id === p.invariant)?.protocol;
      expect(family, id).toBeDefined();
    }
  });
  it("leaves the lookups of an agent, an instance and a migration, the schema and the tick unowned", () => {
    for (const id of ["OP-0.2.c1", "OP-0.2.c2", "OP-0.2.c3", "OP-7.c1", "OP-2.3.c2", "OP-4.4.c1", "OP-7.7.c1"])
      expect(check(id).protects, id).toBeUndefined();
  });
  it("no check that rejects under an invariant carries a protects entry (its invariant is on the wire)", () => {
    for (const c of CHECKS)
      if (c.targets.some((t) => !["MALFORMED", "NOT_FOUND", "DUPLICATE_ID", "TICK_REGRESSED"].includes(t)))
        expect(c.protects, c.id).toBeUndefined();
  });
});
