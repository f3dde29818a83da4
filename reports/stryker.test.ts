/**
 * reports/stryker.md and reports/stryker.json are what stryker/report.ts makes of the committed
 * Stryker results (stryker/incremental-*.json) and the triage (stryker/triage/): every
 * survivor triaged, no stale triage entry. Stryker itself is not run here (`npm run stryker`).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./paths.ts";
import {
  buildSummary,
  generate,
  MARKDOWN_FILE,
  MUTATED_FOLDERS,
  mutatedFiles,
  nothingToMutate,
  readTriage,
  renderMarkdown,
  scoresOf,
  SUMMARY_FILE,
  textAt,
  type MutantResult,
  type StrykerReport,
  type TriageEntry,
} from "../stryker/report.ts";

describe("reports/stryker.md (run `npm run stryker -- report` after editing stryker/triage/)", () => {
  const current = generate(REPO_ROOT);

  it("is current: the committed Stryker results and triage give exactly these reports, every survivor triaged", () => {
    expect(readFileSync(join(REPO_ROOT, SUMMARY_FILE), "utf8") === current.json, `${SUMMARY_FILE} is stale`).toBe(true);
    expect(readFileSync(join(REPO_ROOT, MARKDOWN_FILE), "utf8") === current.markdown, `${MARKDOWN_FILE} is stale`).toBe(
      true,
    );
    expect(
      readFileSync(join(REPO_ROOT, "README.md"), "utf8") === current.readme,
      "the README's stryker block is stale",
    ).toBe(true);
  });

  it("names, for every survivor triaged (a), the test that now kills it, and that test exists", () => {
    for (const s of current.summary.scopes) {
      for (const t of s.survivorTriage.filter((x) => x.category === "a")) {
        const [file, name] = (t.test ?? "").split(" > ");
        expect(file, JSON.stringify(t)).toMatch(/\.test\.ts$/);
        expect(readFileSync(join(REPO_ROOT, file!), "utf8"), `${t.test}`).toContain(name!);
      }
    }
  });
});

describe("the triage files (stryker/triage/<source>.json)", () => {
  const entry = (file: string): TriageEntry => ({ file, category: "b", reason: "equivalent" });
  const withTriage = (files: Record<string, readonly TriageEntry[]>, f: (root: string) => void): void => {
    const root = mkdtempSync(join(tmpdir(), "triage-"));
    try {
      for (const [path, entries] of Object.entries(files)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), JSON.stringify({ entries }));
      }
      f(root);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };

  it("are read together, each file holding its own source file's entries", () => {
    withTriage(
      {
        "stryker/triage/impl/core/a.json": [entry("impl/core/a.ts")],
        "stryker/triage/model/b.json": [entry("model/b.ts")],
      },
      (root) => expect(readTriage(root).map((t) => t.file)).toEqual(["impl/core/a.ts", "model/b.ts"]),
    );
  });

  it("refuse an entry filed under another source file, naming both", () => {
    withTriage({ "stryker/triage/impl/core/a.json": [entry("impl/core/b.ts")] }, (root) =>
      expect(() => readTriage(root)).toThrow(
        "stryker/triage/impl/core/a.json: entry for impl/core/b.ts belongs in stryker/triage/impl/core/b.json",
      ),
    );
  });
});

describe("the Stryker configuration", () => {
  it("mutates exactly the files the report accounts for: impl/core, impl/durable and model/, no tests or test helpers", async () => {
    // A computed specifier: the .mjs config has no type declarations, and needs none here.
    const spec: string = "../stryker/base.mjs";
    const { MUTATE } = (await import(spec)) as { MUTATE: Record<string, readonly string[]> };
    expect(MUTATE["impl"]).toEqual(MUTATED_FOLDERS.impl.map((d) => `${d}/**/*.ts`));
    expect(MUTATE["model"]).toEqual(["model/**/*.ts", "!model/**/*.test.ts", "!model/testkit.ts", "!model/fixture.ts"]);
    const model = mutatedFiles(REPO_ROOT, "model");
    expect(model).toContain("model/world.ts");
    expect(model.filter((f) => f.endsWith(".test.ts") || f === "model/testkit.ts" || f === "model/fixture.ts")).toEqual(
      [],
    );
    expect(mutatedFiles(REPO_ROOT, "impl")).toContain("impl/durable/storage.ts");
  });
  it("does not expect results for a file with nothing to mutate (imports, re-exports and types alone), and does for any other", () => {
    expect(
      nothingToMutate(
        'import { a } from "./a.ts";\nexport { a, b as c } from "./b.ts";\nexport type { T } from "./t.ts";\ntype U = number;\ninterface V { readonly x: U }\n',
      ),
    ).toBe(true);
    expect(nothingToMutate("export const x = 1;\n")).toBe(false);
    expect(nothingToMutate('export { a } from "./a.ts";\nconsole.log(a);\n')).toBe(false);
    expect(mutatedFiles(REPO_ROOT, "model")).not.toContain("model/index.ts");
  });
});

const loc = (line: number, c0: number, c1: number): MutantResult["location"] => ({
  start: { line, column: c0 },
  end: { line, column: c1 },
});
const SOURCE = 'if (x > 0) violates("J-1", "bad");\nreturn a + b;\n';
const report = (statuses: MutantResult["status"][]): StrykerReport => ({
  files: {
    "impl/core/x.ts": {
      source: SOURCE,
      mutants: [
        {
          id: "1",
          mutatorName: "EqualityOperator",
          replacement: "x >= 0",
          location: loc(1, 5, 10),
          status: statuses[0]!,
        },
        {
          id: "2",
          mutatorName: "ArithmeticOperator",
          replacement: "a - b",
          location: loc(2, 8, 13),
          status: statuses[1]!,
        },
        {
          id: "3",
          mutatorName: "StringLiteral",
          replacement: '""',
          location: loc(1, 28, 33),
          status: "Ignored",
          statusReason: "(c) D-032",
        },
      ],
    },
  },
});

describe("the triage join (stryker/report.ts)", () => {
  it("locates a mutant's original text and its line, without line numbers in the key", () => {
    expect(textAt(SOURCE, loc(1, 5, 10))).toBe("x > 0");
    expect(textAt("ab\ncd\nef", { start: { line: 1, column: 2 }, end: { line: 3, column: 2 } })).toBe("b\ncd\ne");
  });

  it("fails, listing it, when a survivor has no triage entry", () => {
    expect(() => buildSummary(new Map([["impl", report(["Killed", "Survived"])]]), [], [])).toThrow(
      /untriaged survivor: .*"mutator":"ArithmeticOperator","original":"a \+ b","replacement":"a - b","context":"return a \+ b;"/,
    );
  });

  it("fails on a stale entry, one that matches no survivor", () => {
    const stale: TriageEntry = {
      file: "impl/core/x.ts",
      mutator: "EqualityOperator",
      category: "b",
      reason: "x is never 0",
    };
    expect(() => buildSummary(new Map([["impl", report(["Killed", "Killed"])]]), [stale], [])).toThrow(
      /stale triage entry/,
    );
  });

  it("an entry without some fields covers a group; (b) and (c) leave the killable score", () => {
    const group: TriageEntry = {
      file: "impl/core/x.ts",
      context: "return a + b;",
      category: "b",
      reason: "a is 0 here",
    };
    const s = buildSummary(new Map([["impl", report(["Killed", "Survived"])]]), [group], []);
    const impl = s.scopes[0]!;
    expect(impl.triaged).toEqual({ a: 0, b: 1, c: 0 });
    expect(impl.counts).toMatchObject({ total: 3, killed: 1, survived: 1, ignored: 1 });
    expect(impl.scores).toMatchObject({ mutationScore: 50, coveredScore: 50, killableScore: 100 });
    expect(renderMarkdown(s)).toContain(
      "| `impl/core/x.ts:2` | ArithmeticOperator | `a + b` → `a - b` | a is 0 here |",
    );
  });

  it("keeps an (a) entry whose mutants are all killed now as a closed gap; one that matches no mutant at all is stale", () => {
    const gap: TriageEntry = {
      file: "impl/core/x.ts",
      context: "return a + b;",
      category: "a",
      reason: "no check added",
      test: "impl/test/x.test.ts > adds",
    };
    const s = buildSummary(new Map([["impl", report(["Killed", "Killed"])]]), [gap], []);
    expect(s.scopes[0]!.closedGaps).toEqual([gap]);
    expect(renderMarkdown(s)).toContain("gaps closed");
    const typo: TriageEntry = { ...gap, context: "return a * b;" };
    expect(() => buildSummary(new Map([["impl", report(["Killed", "Killed"])]]), [typo], [])).toThrow(
      /stale triage entry/,
    );
  });

  it("counts an (a) survivor the confirmation run detects, only for the same mutant of the same source", () => {
    const gap: TriageEntry = {
      file: "impl/core/x.ts",
      context: "return a + b;",
      category: "a",
      reason: "no check",
      test: "impl/test/x.test.ts > adds",
    };
    const full = new Map([["impl", report(["Killed", "Survived"])]] as const);
    const confirm = (status: MutantResult["status"], source = SOURCE): StrykerReport => ({
      files: {
        "impl/core/x.ts": {
          source,
          mutants: [
            { id: "9", mutatorName: "ArithmeticOperator", replacement: "a - b", location: loc(2, 8, 13), status },
          ],
        },
      },
    });
    const killed = buildSummary(full, [gap], [], {}, new Map([["impl", confirm("Killed")]])).scopes[0]!;
    expect(killed.survivors[0]!.retest).toBe("Killed");
    expect(killed.scores).toMatchObject({ killableScore: 50, confirmed: 1, killableScoreConfirmed: 100 });
    expect(renderMarkdown(buildSummary(full, [gap], [], {}, new Map([["impl", confirm("Killed")]])))).toContain(
      "Counting the detected (a) survivors, the **score on killable mutants is 100.00 %**",
    );
    // Still surviving: shown, not counted; another source (the code changed since): not a re-test of this mutant.
    expect(buildSummary(full, [gap], [], {}, new Map([["impl", confirm("Survived")]])).scopes[0]!.scores).toMatchObject(
      { confirmed: 0, killableScoreConfirmed: 50 },
    );
    expect(
      buildSummary(full, [gap], [], {}, new Map([["impl", confirm("Killed", `${SOURCE}// changed\n`)]])).scopes[0]!
        .survivors[0]!.retest,
    ).toBeNull();
  });

  it("fails when the confirmation run kills a survivor triaged (b) or (c): that triage was wrong", () => {
    const equivalent: TriageEntry = {
      file: "impl/core/x.ts",
      context: "return a + b;",
      category: "b",
      reason: "a is 0 here",
    };
    const confirm: StrykerReport = {
      files: {
        "impl/core/x.ts": {
          source: SOURCE,
          mutants: [
            {
              id: "9",
              mutatorName: "ArithmeticOperator",
              replacement: "a - b",
              location: loc(2, 8, 13),
              status: "Killed",
            },
          ],
        },
      },
    };
    expect(() =>
      buildSummary(
        new Map([["impl", report(["Killed", "Survived"])]]),
        [equivalent],
        [],
        {},
        new Map([["impl", confirm]]),
      ),
    ).toThrow(/triaged \(b\) but killed by the confirmation run/);
  });

  it("counts what the confirmation run re-tested by triage: (a) survivors, and (b)/(c) ones that survived again or timed out", () => {
    const equivalent: TriageEntry = {
      file: "impl/core/x.ts",
      context: "return a + b;",
      category: "b",
      reason: "a is 0 here",
    };
    const again = (status: MutantResult["status"]): StrykerReport => ({
      files: {
        "impl/core/x.ts": {
          source: SOURCE,
          mutants: [
            { id: "9", mutatorName: "ArithmeticOperator", replacement: "a - b", location: loc(2, 8, 13), status },
          ],
        },
      },
    });
    const full = new Map([["impl", report(["Killed", "Survived"])]] as const);
    expect(
      buildSummary(full, [equivalent], [], {}, new Map([["impl", again("Survived")]])).scopes[0]!.retested,
    ).toEqual({ a: 0, notKillable: 1, notKillableSurvived: 1, notKillableTimeout: 0 });
    expect(buildSummary(full, [equivalent], [], {}, new Map([["impl", again("Timeout")]])).scopes[0]!.retested).toEqual(
      { a: 0, notKillable: 1, notKillableSurvived: 0, notKillableTimeout: 1 },
    );
    expect(buildSummary(full, [equivalent], []).scopes[0]!.retested).toEqual({
      a: 0,
      notKillable: 0,
      notKillableSurvived: 0,
      notKillableTimeout: 0,
    });
  });

  it("scores as Stryker does: no-coverage mutants count against the mutation score only", () => {
    const c = {
      total: 10,
      killed: 6,
      timeout: 1,
      survived: 2,
      noCoverage: 1,
      compileError: 0,
      runtimeError: 0,
      ignored: 0,
      pending: 0,
    };
    expect(scoresOf(c, 1)).toMatchObject({
      detected: 7,
      valid: 10,
      mutationScore: 70,
      coveredScore: 77.78,
      killableScore: 77.78,
    });
  });
});
