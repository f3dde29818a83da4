/**
 * test-support/needs.ts, the gate of the tests that need what only CI provides (../shared, Chromium),
 * both ways: missing without CI → skipped with one line; missing under CI=true → failed with a
 * message naming what is missing; present → run. The decision and the lines directly; then end to
 * end, real vitest runs of a small gated test file in a temporary folder with no ../shared beside it.
 * (The gated files of the suite itself are not run from here: quotes and review need most of the
 * kit, the browser test needs Chromium.)
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHROMIUM,
  chromiumPath,
  decide,
  failLine,
  failMessage,
  isCI,
  isExecutable,
  needs,
  type Resource,
  SHARED_DIR,
  SHARED_PAPERS,
  SHARED_REVIEWS,
  skipLine,
} from "../test-support/needs.ts";
import { REPO_ROOT } from "./paths.ts";
import { fullTitle, testsOf } from "./tests-index.ts";

const missing: Resource = { name: "../shared/nothing", why: "a thing only CI provides", available: () => false };
const present: Resource = { name: "the repository", why: "always there", available: () => true };

describe("needs: the decision", () => {
  it("present: the tests run, CI or not", () => {
    for (const env of [{}, { CI: "true" }, { CI: "1" }, { CI: "false" }]) expect(decide(true, env)).toBe("run");
  });

  it("missing without CI: skipped; missing under CI=true (or CI=1): failed", () => {
    expect(decide(false, {})).toBe("skip");
    expect(decide(false, { CI: "" })).toBe("skip");
    expect(decide(false, { CI: "false" })).toBe("skip");
    expect(decide(false, { CI: "true" })).toBe("fail");
    expect(decide(false, { CI: "1" })).toBe("fail");
    expect([isCI({ CI: "true" }), isCI({ CI: "1" }), isCI({}), isCI({ CI: "0" })]).toEqual([true, true, false, false]);
  });

  it("needs() decides from the resource and the environment it is given", () => {
    const lines: string[] = [];
    const write = (l: string): void => void lines.push(l);
    expect(needs(missing, { env: {}, write })).toMatchObject({ mode: "skip", skip: true });
    expect(needs(missing, { env: { CI: "true" }, write })).toMatchObject({ mode: "fail", skip: false });
    expect(needs(present, { env: {}, write })).toMatchObject({ mode: "run", skip: false });
    expect(needs(present, { env: { CI: "true" }, write })).toMatchObject({ mode: "run", skip: false });
    // availability given overrides the resource's own check
    expect(needs(present, { env: {}, available: false, write }).mode).toBe("skip");
    expect(lines, "deciding prints nothing; a gated block prints its line").toEqual([]);
  });
});

describe("needs: the lines", () => {
  it("a skipped block says in one line what it skipped and why", () => {
    const line = skipLine(SHARED_PAPERS, "reports/quotes.test.ts", 23);
    expect(line).toBe(
      "skipped 23 tests in reports/quotes.test.ts: needs ../shared/papers (the papers' text, which only the kit's CI provides, as a copy of shared/ beside the repository)",
    );
    expect(line).not.toContain("\n");
    expect(skipLine(missing, "f.test.ts", 1)).toBe(
      "skipped 1 test in f.test.ts: needs ../shared/nothing (a thing only CI provides)",
    );
    expect(skipLine(missing, "f.test.ts", 2, 1)).toBe(
      "skipped 2 tests and 1 group in f.test.ts: needs ../shared/nothing (a thing only CI provides)",
    );
  });

  it("under CI the failure names what is missing and says CI promises it", () => {
    expect(failMessage(SHARED_REVIEWS)).toMatch(
      /^\.\.\/shared\/reviews\/spec-review-1\.md is missing, and CI=true promises it: /,
    );
    expect(failMessage(CHROMIUM)).toContain(`Chromium at ${chromiumPath()} is missing`);
    expect(failMessage(CHROMIUM)).toContain("apt-get install chromium");
    expect(failLine(missing, "f.test.ts", 3)).toBe(`failing 3 tests in f.test.ts: ${failMessage(missing)}`);
  });
});

describe("needs: the resources", () => {
  it("../shared is the folder beside the repository; the papers and the review are looked for there", () => {
    expect(SHARED_DIR).toBe(join(REPO_ROOT, "..", "shared"));
    expect([SHARED_PAPERS.name, SHARED_REVIEWS.name]).toEqual([
      "../shared/papers",
      "../shared/reviews/spec-review-1.md",
    ]);
  });

  it("Chromium: $CHROMIUM_PATH, else /usr/bin/chromium, available when executable", () => {
    expect(chromiumPath({})).toBe("/usr/bin/chromium");
    expect(chromiumPath({ CHROMIUM_PATH: "/opt/chrome/chrome" })).toBe("/opt/chrome/chrome");
    const dir = mkdtempSync(join(tmpdir(), "needs-exe-"));
    try {
      const file = join(dir, "chromium");
      expect(isExecutable(file)).toBe(false);
      writeFileSync(file, "#!/bin/sh\n");
      chmodSync(file, 0o644);
      expect(isExecutable(file)).toBe(false);
      chmodSync(file, 0o755);
      expect(isExecutable(file)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("needs: a present resource's tests run", () => {
  let ran = 0;
  const gate = needs(present);
  gate.describe("a gated describe", () => {
    it("runs", () => void ran++);
  });
  gate.it("a gated it runs", () => void ran++);
  it("both gated tests ran", () => expect(ran).toBe(2));
});

describe("needs: the docs' test index reads gated tests as tests", () => {
  it("needs(X).describe is a describe, needs(X).it a test (reports/tests-index.ts)", () => {
    const browser = testsOf("conformance/reporters/browser.test.ts");
    expect(browser.length).toBe(8); // the eight it() of its one gated describe
    for (const t of browser) expect(t.describes).toEqual(["report.html in headless Chromium"]);
    expect(browser.find((t) => t.invariants.includes("S-4"))?.title).toMatch(
      /^a failing certificate \(mutant S-4\.replay-claim-miscounts\)/,
    );
    expect(testsOf("conformance/review.test.ts").map(fullTitle)).toContain(
      "spec review 1 is closed item by item › the item list is the review's (every G-n heading of the review, no more)",
    );
  });
});

// End to end: a fresh clone's layout (root/kit, with no root/shared beside it), a gated file, real vitest runs.
let root = "";
let kit = "";

const FIXTURE = `import { existsSync } from "node:fs";
import { expect, it } from "vitest";
import { needs, SHARED_DIR, SHARED_PAPERS, SHARED_REVIEWS } from "../test-support/needs.ts";

needs(SHARED_PAPERS).describe("needs the papers", () => {
  it("one", () => expect(existsSync(SHARED_DIR + "/papers")).toBe(true));
  it("two", () => expect(existsSync(SHARED_DIR + "/papers")).toBe(true));
});
needs(SHARED_REVIEWS).it("needs the review", () => expect(existsSync(SHARED_DIR + "/reviews/spec-review-1.md")).toBe(true));
it("needs nothing", () => expect(1).toBe(1));
`;

const vitest = (env: Record<string, string>): { status: number | null; out: string } => {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith("VITEST") && k !== "CI" && k !== "NODE_ENV" && k !== "TEST",
    ),
  );
  const r = spawnSync(
    process.execPath,
    [join(REPO_ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--no-cache", "reports/fixture.test.ts"],
    {
      cwd: kit,
      env: { ...clean, NO_COLOR: "1", ...env },
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
};

describe("needs end to end: vitest in a folder with no ../shared beside it", () => {
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "needs-e2e-"));
    kit = join(root, "kit");
    mkdirSync(join(kit, "reports"), { recursive: true });
    mkdirSync(join(kit, "test-support"));
    copyFileSync(join(REPO_ROOT, "test-support", "needs.ts"), join(kit, "test-support", "needs.ts"));
    writeFileSync(join(kit, "reports", "fixture.test.ts"), FIXTURE);
    writeFileSync(join(kit, "package.json"), JSON.stringify({ type: "module", private: true }));
    symlinkSync(join(REPO_ROOT, "node_modules"), join(kit, "node_modules"));
  });
  afterAll(() => {
    if (root !== "") rmSync(root, { recursive: true, force: true });
  });

  it("CI unset: exit 0, the gated tests skipped (not passed), one line per gated block", () => {
    const { status, out } = vitest({});
    expect(status, out).toBe(0);
    expect(out).toContain(`skipped 2 tests in reports/fixture.test.ts: needs ../shared/papers (${SHARED_PAPERS.why})`);
    expect(out).toContain(
      `skipped 1 test in reports/fixture.test.ts: needs ../shared/reviews/spec-review-1.md (${SHARED_REVIEWS.why})`,
    );
    expect(out.match(/^skipped \d+ tests? in /gm)?.length, out).toBe(2);
    expect(out).toMatch(/Tests\s+1 passed \| 3 skipped \(4\)/);
  });

  it("CI=true: nonzero exit, every gated test failed with a message naming what is missing", () => {
    const { status, out } = vitest({ CI: "true" });
    expect(status, out).toBe(1);
    expect(out).toContain(failMessage(SHARED_PAPERS));
    expect(out).toContain(failMessage(SHARED_REVIEWS));
    expect(out).toContain(
      "failing 2 tests in reports/fixture.test.ts: ../shared/papers is missing, and CI=true promises it",
    );
    expect(out).not.toMatch(/^skipped /m);
    expect(out).toMatch(/Tests\s+3 failed \| 1 passed \(4\)/);
  });

  it("../shared present, CI=true: every test runs and passes, no line", () => {
    mkdirSync(join(root, "shared", "papers"), { recursive: true });
    mkdirSync(join(root, "shared", "reviews"));
    writeFileSync(join(root, "shared", "reviews", "spec-review-1.md"), "# review\n");
    try {
      const { status, out } = vitest({ CI: "true" });
      expect(status, out).toBe(0);
      expect(out).not.toMatch(/^(skipped|failing) /m);
      expect(out).toMatch(/Tests\s+4 passed \(4\)/);
    } finally {
      rmSync(join(root, "shared"), { recursive: true, force: true });
    }
  });
});
