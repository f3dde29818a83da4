/**
 * The operations-to-codes map of reports/error-codes.md is read from spec/OPERATIONS.md's prose;
 * this checks the reading: every operation of the command schema is found, and every rejection in
 * the golden sessions (computed by the reference model) is one the map says its operation raises.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMAND_OPS } from "../spec/schemas/commands.ts";
import { INVARIANTS } from "../spec/catalog.ts";
import { WIRE_ERROR_CODE_LIST } from "../spec/wire/errors.ts";
import { readGolden } from "../conformance/golden/replay.ts";
import { GOLDEN_SESSIONS, goldenPath } from "../conformance/golden/session.ts";
import { readOperations, readWireTable } from "./operations.ts";
import { REPO_ROOT } from "./paths.ts";

const ops = readOperations();

describe("operations and their error codes (spec/OPERATIONS.md)", () => {
  it("finds every operation of the command schema exactly once, with its clause", () => {
    expect(ops.map((o) => o.op).sort()).toEqual([...COMMAND_OPS].sort());
    for (const o of ops) expect(o.clause).toMatch(/^OP-\d+\.\d+$/);
  });

  it("every rejection in the golden sessions is one its operation is read to raise", () => {
    let seen = 0;
    for (const g of GOLDEN_SESSIONS) {
      for (const l of readGolden(join(REPO_ROOT, goldenPath(g)))) {
        if (l.request.type !== "command" || l.reply.ok) continue;
        const { op } = l.request.command;
        expect(
          ops.find((o) => o.op === op)?.codes,
          `${op} rejected with ${l.reply.error.code} (${g.name} ${l.request.id})`,
        ).toContain(l.reply.error.code);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(100);
  });

  it("every operation an invariant guards raises some code, and the quiescence rule adds I4 to the quiesced operations", () => {
    for (const inv of INVARIANTS)
      for (const g of inv.guards) expect(ops.find((o) => o.op === g)?.codes.length ?? 0, g).toBeGreaterThan(2);
    expect(ops.find((o) => o.op === "janma.birth")?.codes).toContain("RIPA_AUTHORITY_CONFLICT");
    expect(ops.find((o) => o.op === "janma.withdraw")?.codes).not.toContain("RIPA_AUTHORITY_CONFLICT");
    expect(ops.find((o) => o.op === "advaita.project_write")?.codes).toContain("ADVAITA_PROJECTION_STATEFUL");
  });

  it("reads a row of the W-4 table for every wire code", () => {
    const rows = readWireTable();
    expect([...new Set(rows.map((r) => r.code))].sort()).toEqual([...WIRE_ERROR_CODE_LIST].sort());
  });
});
