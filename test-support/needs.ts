/**
 * Tests that need something only the kit's CI provides: the copy of shared/ beside the repository
 * (../shared: the papers' text, the spec review) or Debian's Chromium. A user's fresh clone has
 * neither, and `npm ci && npm test` must still pass there; CI has both, and there these tests must
 * run, never skip.
 *
 *     const papers = needs(SHARED_PAPERS);
 *     papers.describe("papers' quotes …", () => { it(…); … });   // or papers.it(name, fn) for one test
 *
 * - the resource is there: the tests run as written;
 * - it is missing and CI is unset: the tests are skipped (vitest shows them as skipped, not
 *   passed) and one line on stderr says which and why:
 *   `skipped 23 tests in reports/quotes.test.ts: needs ../shared/papers (the papers' text, …)`;
 * - it is missing and CI=true (or CI=1): CI promises it, so every gated test fails with a message
 *   naming what is missing (and the line says so too).
 *
 * The line is printed once per gated block (one `describe` or one `it`): gate a file's tests as one
 * block to get one line per resource per file.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, it, TestRunner, type TestFunction } from "vitest";

/** Something a test needs that a fresh clone may lack. */
export interface Resource {
  /** What is missing, as a user would look for it: a path, or a program and its path. */
  readonly name: string;
  /** What it is and who provides it: the reason in the skip line and in the CI failure. */
  readonly why: string;
  readonly available: () => boolean;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** What happens to the tests that need a resource: they run, are skipped, or fail (missing under CI). */
export type Mode = "run" | "skip" | "fail";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The copy of shared/ beside the repository, where CI puts it. */
export const SHARED_DIR = join(REPO_ROOT, "..", "shared");
const FROM_CI = "which only the kit's CI provides, as a copy of shared/ beside the repository";

export const SHARED_PAPERS: Resource = {
  name: "../shared/papers",
  why: `the papers' text, ${FROM_CI}`,
  available: () => existsSync(join(SHARED_DIR, "papers")),
};

export const SHARED_REVIEWS: Resource = {
  name: "../shared/reviews/spec-review-1.md",
  why: `the first spec review's text, ${FROM_CI}`,
  available: () => existsSync(join(SHARED_DIR, "reviews", "spec-review-1.md")),
};

/** The Chromium the report browser test drives: $CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export const chromiumPath = (env: Env = process.env): string => env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
export const CHROMIUM_PATH = chromiumPath();

export const isExecutable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

export const CHROMIUM: Resource = {
  name: `Chromium at ${CHROMIUM_PATH}`,
  why: "Debian's chromium, which .ci/run installs; apt-get install chromium, or set CHROMIUM_PATH to a Chromium executable",
  available: () => isExecutable(CHROMIUM_PATH),
};

/**
 * The Python the Python adapter's tests run (adapters/python): `python3` on PATH, version 3.10 or
 * later (the adapter's floor). Asked once, when a test file gates on it.
 */
export const PYTHON3: Resource = {
  name: "python3 (3.10 or later) on PATH",
  why: "the interpreter of adapters/python; apt-get install python3, or put a python3 of 3.10 or later on PATH",
  available: () =>
    spawnSync("python3", ["-c", "import sys; sys.exit(sys.version_info < (3, 10))"], {
      stdio: "ignore",
      timeout: 30_000,
    }).status === 0,
};

/** CI=true (or CI=1) means CI, which promises every resource. */
export const isCI = (env: Env): boolean => env["CI"] === "true" || env["CI"] === "1";

export const decide = (available: boolean, env: Env): Mode => (available ? "run" : isCI(env) ? "fail" : "skip");

/** "23 tests", "1 test", "2 tests and 1 group" (a describe nested in the block, its tests not counted). */
const tests = (n: number, groups = 0): string =>
  `${n} test${n === 1 ? "" : "s"}${groups > 0 ? ` and ${groups} group${groups === 1 ? "" : "s"}` : ""}`;

/** The one line a skipped block prints. */
export const skipLine = (resource: Resource, file: string, count: number, groups = 0): string =>
  `skipped ${tests(count, groups)} in ${file}: needs ${resource.name} (${resource.why})`;

/** The error every gated test fails with when the resource is missing under CI. */
export const failMessage = (resource: Resource): string =>
  `${resource.name} is missing, and CI=true promises it: ${resource.why}. Under CI these tests run; they are never skipped`;

/** The line a failing block prints (its tests fail with failMessage). */
export const failLine = (resource: Resource, file: string, count: number, groups = 0): string =>
  `failing ${tests(count, groups)} in ${file}: ${failMessage(resource)}`;

export interface Gate {
  readonly resource: Resource;
  readonly mode: Mode;
  /** True when the gated tests are skipped (missing, and not CI). */
  readonly skip: boolean;
  /** A describe whose tests all need the resource. */
  readonly describe: (name: string, fn: () => void) => void;
  /** One test that needs the resource. */
  readonly it: (name: string, fn: TestFunction, timeout?: number) => void;
}

export interface NeedsOptions {
  /** Defaults to process.env. */
  readonly env?: Env;
  /** Defaults to resource.available(). */
  readonly available?: boolean;
  /** Where the one line goes; defaults to stderr. */
  readonly write?: (line: string) => void;
}

/** The test file being collected, as vitest names it: relative to its root, the repository. */
const currentFile = (): string => {
  const suite = TestRunner.getCurrentSuite() as { file?: { name?: string } } | undefined;
  return suite?.file?.name ?? "this file";
};

export const needs = (resource: Resource, options: NeedsOptions = {}): Gate => {
  const mode = decide(options.available ?? resource.available(), options.env ?? process.env);
  const write = options.write ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const say = (file: string, count: number, groups = 0): void => {
    if (mode === "skip") write(skipLine(resource, file, count, groups));
    if (mode === "fail") write(failLine(resource, file, count, groups));
  };
  return {
    resource,
    mode,
    skip: mode === "skip",
    describe: (name, fn) => {
      const collector = describe.skipIf(mode === "skip")(name, () => {
        if (mode === "fail") {
          beforeEach(() => {
            throw new Error(failMessage(resource));
          });
        }
        fn();
        if (mode === "run") return;
        const direct = collector.tasks.filter((t) => t.type === "test").length;
        say(collector.file.name, direct, collector.tasks.length - direct);
      });
    },
    it: (name, fn, timeout) => {
      if (mode === "run") return void it(name, fn, timeout);
      say(currentFile(), 1);
      if (mode === "skip") return void it.skip(name, fn, timeout);
      it(
        name,
        () => {
          throw new Error(failMessage(resource));
        },
        timeout,
      );
    },
  };
};
