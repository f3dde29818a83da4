/**
 * The kit as a user meets it (issue 19): `npm pack`, then `npm install <tarball>` into a fresh
 * empty project (from the npm registry, as a user's machine would), and from that project:
 * `npx srk --help`, `npx srk list`, `npx srk golden` and a short `npx srk certify` of the bundled
 * implementation (which stays in the kit's clone: it is not in the package, D-048), the library
 * imported from an `.mjs` file, every documented API example run, and the examples type-checked
 * by `tsc` against the installed `.d.ts` files. Then the project's tree must hold only what those
 * steps write.
 *
 * Long (a pack, an install from the registry, a certification): run by `npm run test:long`,
 * which `.ci/run` runs after `npm test`.
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KIT_ROOT } from "../kit-root.ts";
import { apiExamples, emptyProfileShim } from "./examples.ts";
import { packKit } from "./pack.ts";

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const TSX = import.meta.resolve("tsx");
/** The bundled implementation, run from the kit's clone with the clone's tsx. */
const BUNDLED = `${process.execPath} --import ${TSX} ${join(KIT_ROOT, "impl", "main.ts")}`;

let root = "";
let project = "";
let tarball = "";
let kitCopy = "";
let installSeconds = 0;
const wrote: string[] = [];

const run = (command: string, args: readonly string[], timeout = 600_000): SpawnSyncReturns<string> =>
  spawnSync(command, args, {
    cwd: project,
    encoding: "utf8",
    timeout,
    env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" },
  });
const srk = (...args: string[]): SpawnSyncReturns<string> => run(NPM, ["exec", "--no", "--", "srk", ...args]);
const write = (name: string, text: string): void => {
  writeFileSync(join(project, name), text);
  wrote.push(name);
};

/** Every path under `dir`, relative, folders ending in "/", skipping node_modules. */
const tree = (dir: string, base = dir): string[] =>
  readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      if (n === "node_modules") return [];
      return statSync(p).isDirectory() ? [`${relative(base, p)}/`, ...tree(p, base)] : [relative(base, p)];
    });

const filesUnder = (dir: string, pred: (f: string) => boolean): string[] =>
  !existsSync(dir) ? [] : readdirSync(dir, { recursive: true, encoding: "utf8" }).filter(pred);

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "srk-package-"));
  project = join(root, "user-project");
  mkdirSync(project);
  // `npm pack` runs prepack (the build into dist/) and postpack (dist/ removed), in a copy of the clone.
  const packed = packKit(root);
  kitCopy = packed.copy;
  tarball = packed.tarball;
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify({ name: "user-project", version: "1.0.0", private: true, type: "module" }, null, 2)}\n`,
  );
  const t0 = Date.now();
  const r = run(NPM, ["install", "--no-audit", "--no-fund", tarball]);
  installSeconds = (Date.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`npm install ${tarball} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  process.stderr.write(`package test: npm install of the tarball took ${installSeconds.toFixed(1)} s\n`);
}, 600_000);

afterAll(() => {
  if (root !== "") rmSync(root, { recursive: true, force: true });
});

describe("the packed kit, installed into an empty project", () => {
  it("packed from a copy, leaving the kit's clone as it was: no dist/ in either after npm pack", () => {
    expect(existsSync(join(KIT_ROOT, "dist"))).toBe(false);
    expect(existsSync(join(kitCopy, "dist"))).toBe(false);
  });

  it("installed without building native code: no better-sqlite3, no compiled addon", () => {
    const modules = join(project, "node_modules");
    expect(existsSync(join(modules, "better-sqlite3"))).toBe(false);
    expect(filesUnder(modules, (f) => f.endsWith(".node"))).toEqual([]);
    expect(filesUnder(modules, (f) => f.split("/").includes("build") && f.endsWith("Makefile"))).toEqual([]);
  });

  it("ships no tests, no triage, no site, no generated certificates, no TypeScript sources", () => {
    const pkg = join(project, "node_modules", "samsara-ripa-kit");
    const files = filesUnder(pkg, () => true).filter((f) => statSync(join(pkg, f)).isFile());
    expect(
      files.filter((f) =>
        /\.test\.|(^|\/)stryker\/|reports\/site\/|srk-reports\/|reports\/certificates\/|(^|\/)impl\/.*\.js$/.test(f),
      ),
    ).toEqual([]);
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    for (const f of [
      "bin/srk.mjs",
      "dist/conformance/index.js",
      "dist/conformance/index.d.ts",
      "spec/INVARIANTS.md",
      "spec/json-schema/Command.schema.json",
      "spec/vectors/digests.json",
      "spec/wire/PROTOCOL.md",
      "conformance/golden/wire-session.jsonl",
      "README.md",
      "LICENSE",
      // What an implementer copies or reads from the installed kit: the wire adapters and the tokeniser's table (D-045).
      "adapters/js/index.mjs",
      "adapters/js/README.md",
      "adapters/python/srk_adapter/serve.py",
      "adapters/python/README.md",
      "spec/unicode/tokeniser-17.0.json",
    ]) {
      expect(files, f).toContain(f);
    }
  });

  it("npx srk --help and npx srk list answer from the compiled runner", () => {
    const help = srk("--help");
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/Usage: srk/);
    const list = srk("list");
    expect(list.status, list.stderr).toBe(0);
    for (const id of ["J-1", "S-5", "AD-3", "I6"]) expect(list.stdout).toContain(id);
    expect(list.stdout).toContain("forgetting");
  }, 120_000);

  it("npx srk golden passes the bundled implementation", () => {
    const r = srk("golden", "--impl", BUNDLED);
    expect(r.stdout, r.stderr).toMatch(/^golden: pass/);
    expect(r.status).toBe(0);
  }, 300_000);

  it("a short npx srk certify certifies the bundled implementation and writes under ./srk-reports/", () => {
    const r = srk("certify", "--impl", BUNDLED, "--runs", "10", "--time-budget", "300");
    expect(r.stdout, r.stderr).toContain("result: certified (exit 0)");
    expect(r.status).toBe(0);
    const cert = JSON.parse(
      readFileSync(join(project, "srk-reports", "samsara-ripa-kit-impl", "certificate.json"), "utf8"),
    ) as { kit: { name: string }; result: string };
    expect(cert.kit.name).toBe("samsara-ripa-kit");
    expect(cert.result).toBe("certified");
  }, 600_000);

  it("the library imports from an .mjs file", () => {
    write(
      "use.mjs",
      [
        'import assert from "node:assert/strict";',
        'import { certify, replay, transition, view, initialWorld, INVARIANTS, digestOf, DOMAIN } from "samsara-ripa-kit";',
        'import { replay as modelReplay } from "samsara-ripa-kit/model";',
        'import { INVARIANT_IDS } from "samsara-ripa-kit/spec";',
        'for (const f of [certify, replay, transition, view, initialWorld, digestOf, modelReplay]) assert.equal(typeof f, "function");',
        "assert.equal(INVARIANTS.length, 19);",
        "assert.deepEqual(INVARIANTS.map((i) => i.id), [...INVARIANT_IDS]);",
        "assert.match(digestOf(DOMAIN.trace, {}), /^sha256:[0-9a-f]{64}$/);",
        'console.log("ok");',
        "",
      ].join("\n"),
    );
    const r = run(process.execPath, ["use.mjs"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("ok\n");
  }, 60_000);

  it("every documented API example runs against the installed package", () => {
    write("empty_profile.py", emptyProfileShim());
    for (const e of apiExamples()) {
      write(`example-${e.entry}.mts`, e.code);
      const r = run(process.execPath, ["--import", TSX, `example-${e.entry}.mts`], 300_000);
      expect(r.status, `${e.entry}: ${r.stderr}`).toBe(0);
    }
  }, 600_000);

  it("the examples type-check with tsc against the installed .d.ts files (strict, library files checked too)", () => {
    const examples = apiExamples().map((e) => `example-${e.entry}.mts`);
    write(
      "tsconfig.json",
      `${JSON.stringify(
        {
          compilerOptions: {
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            strict: true,
            noEmit: true,
            exactOptionalPropertyTypes: true,
            skipLibCheck: false,
            types: ["node"],
            typeRoots: [join(KIT_ROOT, "node_modules", "@types")],
          },
          files: examples,
        },
        null,
        2,
      )}\n`,
    );
    const tsc = join(KIT_ROOT, "node_modules", "typescript", "bin", "tsc");
    const r = run(process.execPath, [tsc, "-p", "tsconfig.json"]);
    // @types/node 20 has errors of its own under TypeScript 6 once library files are checked
    // (https.d.ts: AgentOptions); they are not the kit's. Every other line must be absent: an error
    // in the kit's .d.ts files or in an example fails here.
    const errors = `${r.stdout}${r.stderr}`.split("\n").filter((l) => /error TS\d+/.test(l));
    const ours = errors.filter((l) => !/node_modules\/@types\/node\//.test(l));
    expect(ours).toEqual([]);
    expect(errors.every((l) => /node_modules\/@types\/node\//.test(l))).toBe(true);
    // And it is a real check: a wrong use of the API is refused, by the same compiler options.
    write("wrong.mts", 'import { certify } from "samsara-ripa-kit";\nawait certify({ impl: 7 });\n');
    write("tsconfig.wrong.json", `${JSON.stringify({ extends: "./tsconfig.json", files: ["wrong.mts"] }, null, 2)}\n`);
    const wrong = run(process.execPath, [tsc, "-p", "tsconfig.wrong.json"]);
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toMatch(/wrong\.mts\(2,\d+\): error TS2322/);
  }, 180_000);

  it("the project holds only what the steps wrote: its package files, the test's files and srk-reports/", () => {
    const reports = tree(join(project, "srk-reports")).map((p) => `srk-reports/${p}`);
    const expected = ["package.json", "package-lock.json", ...wrote, "srk-reports/", ...reports].sort();
    expect(tree(project)).toEqual(expected);
    // The reports are the certifications' own: the short certify's and the certify example's.
    expect(readdirSync(join(project, "srk-reports")).sort()).toEqual([
      "empty-profile-example",
      "samsara-ripa-kit-impl",
    ]);
    expect(readdirSync(join(project, "srk-reports", "samsara-ripa-kit-impl")).sort()).toEqual([
      "certificate.json",
      "junit.xml",
      "report.html",
      "report.md",
    ]);
  });
});
