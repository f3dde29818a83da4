/**
 * The kill matrix's report: own / other / survived are decided from the label and what the
 * certificate failed; the rule that put a finding elsewhere is read from compare.ts's wording;
 * every "other" is listed with its finding and decision; the committed reports/mutants.md is the
 * rendering of the committed reports/mutants.json and conformance/mutants/decisions.json; and
 * every decision names a mutant of the catalog.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MUTANTS } from "../../properties/mutants/catalog.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { parseDecisions, readDecisions } from "./decisions.ts";
import { attributionOf, goldenPrefixOf } from "./matrix.ts";
import { MATRIX_MD, readMatrixDoc } from "./matrix-files.ts";
import { countsLine, countsOf, renderMatrix, ruleOf, type MatrixDoc, type MatrixRow } from "./matrix-report.ts";

describe("ruleOf names the D-035 rule a summary was attributed by", () => {
  it("a generic code: the model's failing check or rule, the implementation's code when its checks agree, else rule (3)", () => {
    expect(
      ruleOf(
        "advaita.mint: the model rejected with DUPLICATE_ID at OP-5.1.c2, which protects I5, the implementation accepted",
      ),
    ).toBe("rule (1): the model's rejection failed at OP-5.1.c2, which protects I5");
    expect(
      ruleOf(
        "janma.conceive: the model rejected with MALFORMED at OP-0.2.c1, rule ConsentGrant.unique-category-defaults, which protects S-1, the implementation accepted",
      ),
    ).toBe(
      "rule (1): the model's rejection failed at OP-0.2.c1 (rule ConsentGrant.unique-category-defaults), which protects S-1",
    );
    expect(
      ruleOf(
        "advaita.mint: the model accepted, the implementation rejected with DUPLICATE_ID (at advaita.mint every check rejecting with DUPLICATE_ID protects I5)",
      ),
    ).toBe("rule (1): every check of the operation that rejects with the implementation's code protects I5");
    expect(
      ruleOf(
        "janma.act: the model rejected with NOT_FOUND at OP-0.2.c3, which protects no invariant, the implementation accepted",
      ),
    ).toMatch(/so rule \(3\)/);
    expect(
      ruleOf("ripa.migration_validate: the model accepted, the implementation rejected with DUPLICATE_ID"),
    ).toMatch(/so rule \(3\)/);
  });
});

describe("own, other, survived", () => {
  it("own when the label is among the failed invariants, other when only others failed, survived when nothing did", () => {
    expect(attributionOf("J-3", ["J-3"], false)).toEqual({ killed: true, own: true, attribution: "own" });
    expect(attributionOf("J-3", ["J-1", "J-3"], false).attribution).toBe("own");
    expect(attributionOf("J-3", ["J-1"], false)).toEqual({ killed: true, own: false, attribution: "other" });
    expect(attributionOf("J-3", [], false)).toEqual({ killed: false, own: false, attribution: "survived" });
  });
  it("a wire mutant is own by a wire finding; failing only an invariant is other", () => {
    expect(attributionOf(null, [], true).attribution).toBe("own");
    expect(attributionOf(null, ["AD-1"], false).attribution).toBe("other");
    expect(attributionOf(null, [], false).attribution).toBe("survived");
  });
  it("a non-wire mutant that only broke the wire protocol is killed under another rule", () => {
    expect(attributionOf("I2", [], true)).toEqual({ killed: true, own: false, attribution: "other" });
  });
});

describe("a counterexample's steps before the failing one, by reference to a golden session", () => {
  const cmd = (id: string) => ({ request: { type: "command", id, command: { op: "janma.act" } } });
  const query = (id: string) => ({ request: { type: "query", id, query: { name: "world" } } });
  const sessions = [{ file: "g.jsonl", lines: [cmd("1"), query("q1"), cmd("2"), cmd("3"), query("q2")] }];
  const steps = (xs: { request: unknown }[]) => xs.map((x) => ({ ...x, expected: null, actual: null })) as never[];
  it("the first lines whole", () => {
    expect(goldenPrefixOf(steps([cmd("1"), query("q1"), cmd("2")]), sessions)).toEqual({ file: "g.jsonl", lines: 3 });
  });
  it("the commands of the first lines, the queries left out (what a sharper attribution replays)", () => {
    expect(goldenPrefixOf(steps([cmd("1"), cmd("2"), cmd("3")]), sessions)).toEqual({
      file: "g.jsonl",
      lines: 4,
      commands_only: true,
    });
  });
  it("no reference when the steps are not the session's, in its order, from its start", () => {
    expect(goldenPrefixOf(steps([cmd("2"), cmd("3")]), sessions)).toBeNull();
    expect(goldenPrefixOf(steps([cmd("1"), cmd("3")]), sessions)).toBeNull();
    expect(goldenPrefixOf([], sessions)).toBeNull();
  });
});

describe("which D-035 rule placed a finding, from compare.ts's summary", () => {
  it("rule (1) with an invariant on either side", () => {
    expect(
      ruleOf(
        "session-1 line 34 (c34): janma.distil: the model rejected with SAMSKARA_NON_DISPOSITIONAL (S-1), the implementation accepted",
      ),
    ).toBe("rule (1): the model's rejection names S-1");
    expect(
      ruleOf("ripa.descend: the model accepted, the implementation rejected with RIPA_AUTHORITY_CONFLICT (I4)"),
    ).toBe("rule (1): the implementation's rejection names I4");
  });
  it("generic codes: rule (3)", () => {
    expect(ruleOf("janma.conceive: the model rejected with MALFORMED, the implementation accepted")).toMatch(
      /so rule \(3\)/,
    );
    expect(
      ruleOf("samskara.excise: the model rejected with NOT_FOUND, the implementation rejected with DUPLICATE_ID"),
    ).toMatch(/so rule \(3\)/);
  });
  it("rule (2): events and world views", () => {
    expect(
      ruleOf(
        "janma.distil: the model and the implementation both accepted, but $reply.events.0.entries: expected 3, got 1",
      ),
    ).toMatch(/differing event/);
    expect(
      ruleOf("after samskara.excise the world views differ at $world.agents.0.store.momentum.0: expected 1, got 0"),
    ).toMatch(/world field/);
  });
});

const row = (
  id: string,
  attribution: MatrixRow["attribution"],
  reported: MatrixRow["reported"],
  summary: string | null,
): MatrixRow => ({
  id,
  invariant: "S-1",
  clause: "OP-2.7",
  description: "d",
  reported,
  killed: attribution !== "survived",
  own: attribution === "own",
  attribution,
  findings:
    summary === null ? [] : [{ invariant: reported[0] ?? null, stage: "golden", check: "golden/session-1", summary }],
  stage: summary === null ? null : "golden",
  check: summary === null ? null : "golden/session-1",
  summary,
  ms_to_failure: null,
  shrunk_steps: null,
  exit_code: 1,
  counterexample: null,
});
const doc = (rows: MatrixRow[]): MatrixDoc => ({
  generated_by: "test",
  inputs: null,
  settings: { seed: 1, runs: 1, time_budget_ms: 1, stages: ["golden"] },
  counts: countsOf(rows),
  mutants: rows,
});

describe("reports/mutants.md", () => {
  const rows = [
    row("a.own", "own", ["S-1"], "x"),
    row(
      "b.other",
      "other",
      ["J-4"],
      "janma.distil: the model and the implementation both accepted, but $reply.events.0.entries: expected 3, got 1",
    ),
    row("c.other", "other", ["J-1"], "janma.conceive: the model rejected with MALFORMED, the implementation accepted"),
    row("d.survived", "survived", [], null),
  ];
  const md = renderMatrix(doc(rows), {
    "c.other": { wrong: "D-035", decision: "the label stands: a generic code names no invariant" },
  });

  it("prints the three counts", () => {
    expect(countsLine(countsOf(rows))).toBe("1 killed under their own invariant, 2 killed under another, 1 survived");
    expect(md).toContain("**1 killed under their own invariant, 2 killed under another, 1 survived** (4 mutants).");
  });
  it("lists each other with what was reported, why there, and its decision or that none was taken", () => {
    const section = md.slice(md.indexOf("## Killed under another invariant"), md.indexOf("## Survived"));
    expect(section).toContain("### `b.other`");
    expect(section).toContain("- label: S-1 (OP-2.7); reported: J-4");
    expect(section).toMatch(/b\.other`[\s\S]*why there: rule \(2\)[\s\S]*\*\*not decided yet\*\*/);
    expect(section).toMatch(
      /c\.other`[\s\S]*so rule \(3\)[\s\S]*decision: D-035 as written puts the failure there; a change of D-035 is proposed\. the label stands/,
    );
    expect(section).not.toContain("a.own");
    expect(md.slice(md.indexOf("## Survived"))).toContain("`d.survived`");
  });
});

describe("the committed kill matrix", () => {
  it("reports/mutants.md is what renderMatrix makes of reports/mutants.json and decisions.json (else: npx tsx conformance/mutants/render-matrix.ts)", () => {
    const committed = readFileSync(join(REPO_ROOT, MATRIX_MD), "utf8");
    expect(
      committed === renderMatrix(readMatrixDoc(), readDecisions()),
      `${MATRIX_MD} differs from its rendering`,
    ).toBe(true);
  });
  it("every decision names a mutant of the catalog that the committed matrix killed under another invariant", () => {
    const others = readMatrixDoc()
      .mutants.filter((m) => m.attribution === "other")
      .map((m) => m.id);
    for (const id of Object.keys(readDecisions())) {
      expect(
        MUTANTS.some((m) => m.id === id),
        `${id}: no such mutant`,
      ).toBe(true);
      expect(others, `${id}: decided, but the matrix does not show it killed under another invariant`).toContain(id);
    }
  });
  it("bad decisions are refused with the file and the mutant named", () => {
    expect(() => parseDecisions('{"x": {"wrong": "nobody", "decision": "long enough to be a reason"}}')).toThrow(
      /decisions\.json: x: wrong must be/,
    );
    expect(() => parseDecisions('{"x": {"wrong": "label", "decision": "short"}}')).toThrow(/x: decision must say/);
    expect(() => parseDecisions("[]")).toThrow(/not an object/);
  });
});
