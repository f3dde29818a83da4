/**
 * The evidence in reports/invariants.md is the committed run output it cites: each invariant's
 * witness row equals the bundled implementation's sample certificate
 * (docs/examples/certificate/certificate.json, written by `npm run docs:sample`; whether it is
 * current is reports/sample-certificate.test.ts's concern), and the
 * kill matrix (reports/mutants.json, written by `npm run mutants`) covers the whole mutant catalog
 * with its current labels, no mutant survived, each one killed under its own invariant has a
 * counterexample, and each one killed under another is decided (conformance/mutants/decisions.json;
 * that reports/mutants.md renders the JSON is conformance/mutants/matrix-report.test.ts's concern).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INVARIANT_IDS } from "../spec/catalog.ts";
import { MUTANTS } from "../properties/mutants/catalog.ts";
import { readDecisions } from "../conformance/mutants/decisions.ts";
import { BUNDLED_CERTIFICATE, readBundledCertificate, readMatrix } from "./evidence.ts";
import { REPO_ROOT } from "./paths.ts";

const doc = readFileSync(join(REPO_ROOT, "reports/invariants.md"), "utf8");

describe("witness counts in reports/invariants.md", () => {
  const certificate = readBundledCertificate();
  it(`${BUNDLED_CERTIFICATE} is committed and certifies the bundled implementation`, () => {
    expect(certificate, `${BUNDLED_CERTIFICATE} is missing: run npm run docs:sample`).not.toBeNull();
    expect(certificate?.implementation.name).toBe("samsara-ripa-kit/impl");
    expect(certificate?.result).toBe("certified");
  });
  for (const id of INVARIANT_IDS) {
    it(`${id}: the witness row equals the certificate's`, () => {
      const v = certificate?.invariants.find((i) => i.invariant === id);
      const start = doc.indexOf(`\n## ${id}\n`);
      const end = doc.indexOf("\n## ", start + 1);
      const section = doc.slice(start, end < 0 ? undefined : end);
      const row =
        /\| verdict \| accepted steps \| agreed rejections \| crash cuts \| algebra checks \| byte scans \|\n\|[-|]+\|\n\| (\S+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|/.exec(
          section,
        );
      expect(row, `${id}: no witness row`).not.toBeNull();
      const [, verdict, accepted, rejected, crash, algebra, forgetting] = row ?? [];
      expect({
        verdict,
        accepted: Number(accepted),
        rejected: Number(rejected),
        crash_cuts: Number(crash),
        algebra: Number(algebra),
        forgetting: Number(forgetting),
      }).toEqual({ verdict: v?.verdict, ...v?.witnesses });
    });
  }
});

describe("kill matrix behind the docs (reports/mutants.json)", () => {
  const matrix = readMatrix();
  it("covers the whole mutant catalog with the labels it has now", () => {
    expect(matrix, "reports/mutants.json is missing: run npm run mutants").not.toBeNull();
    expect(matrix?.mutants.map((m) => m.id).sort()).toEqual(MUTANTS.map((m) => m.id).sort());
    for (const m of matrix?.mutants ?? []) {
      const label = MUTANTS.find((x) => x.id === m.id);
      expect(
        { invariant: m.invariant, clause: m.clause },
        `${m.id}: its label changed since the matrix ran: npm run mutants`,
      ).toEqual({ invariant: label?.invariant, clause: label?.clause });
    }
  });
  it("nothing survived; own rows failed under their label with a shrunk counterexample; every other row is decided", () => {
    const decisions = readDecisions();
    const rows = matrix?.mutants ?? [];
    expect(matrix?.counts).toEqual({
      own: rows.filter((m) => m.attribution === "own").length,
      other: rows.filter((m) => m.attribution === "other").length,
      survived: 0,
    });
    for (const m of rows) {
      expect(m.killed, m.id).toBe(true);
      expect(m.attribution, m.id).not.toBe("survived");
      if (m.attribution === "other") {
        if (m.invariant !== null) expect(m.reported, m.id).not.toContain(m.invariant);
        expect(
          decisions[m.id],
          `${m.id} was killed under another invariant and no decision says why (conformance/mutants/decisions.json)`,
        ).toBeDefined();
        continue;
      }
      if (m.invariant === null) {
        // A wire mutant breaks no invariant: killed by a wire-protocol finding, which carries no trace.
        expect(m.check, m.id).toMatch(/^(golden\/wire-session|wire\/)/);
        continue;
      }
      expect(m.reported, m.id).toContain(m.invariant);
      expect(m.counterexample?.failing, `${m.id} counterexample`).not.toBeNull();
      expect(m.counterexample?.steps_total).toBe(m.shrunk_steps);
    }
  });
});
