/**
 * The Node version check `bin/srk.mjs` makes before loading anything (bin/engine.mjs): a version
 * whose major is at least the one package.json "engines" names passes; an older one, or one that
 * cannot be read, gets one line naming the minimum and the version. End to end, a child Node whose
 * `process.versions.node` a preload (`--import`) replaces shows `srk` printing exactly that line
 * on stderr, nothing on stdout, and exiting 1 — with no test-only switch in the shipped bin.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { KIT_ROOT } from "../kit-root.ts";

// bin/engine.mjs is plain JavaScript with no declaration file (it runs before tsx is loaded): typed here.
const { engineProblem: check, MIN_NODE_MAJOR } = (await import(
  pathToFileURL(join(KIT_ROOT, "bin", "engine.mjs")).href
)) as {
  engineProblem: (version: string, min?: number) => string | null;
  MIN_NODE_MAJOR: number;
};
const SRK = join(KIT_ROOT, "bin", "srk.mjs");

/** `node --import <preload making process.versions.node = version> bin/srk.mjs args`. */
const srkOnNode = (version: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } => {
  const preload = `Object.defineProperty(process, "versions", { value: { ...process.versions, node: ${JSON.stringify(version)} } });`;
  const r = spawnSync(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(preload)}`, SRK, ...args],
    { encoding: "utf8", cwd: KIT_ROOT, timeout: 30_000 },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe("engineProblem: the Node version srk needs", () => {
  it("the minimum is the major of package.json engines.node (>=20)", () => {
    const engines = (JSON.parse(readFileSync(join(KIT_ROOT, "package.json"), "utf8")) as { engines: { node: string } })
      .engines.node;
    expect(engines).toBe(`>=${MIN_NODE_MAJOR}`);
    expect(MIN_NODE_MAJOR).toBe(20);
  });

  for (const version of ["20.0.0", "v20.20.2", "22.1.0", "v24.0.0", process.versions.node]) {
    it(`${version}: new enough, no problem`, () => {
      expect(check(version)).toBeNull();
    });
  }

  for (const version of ["18.19.0", "v16.20.2", "19.9.9", "v19.99.99", "0.12.18"]) {
    it(`${version}: one line naming 20 and ${version}`, () => {
      const line = check(version);
      expect(line).toBe(`srk: needs Node.js 20 or later (package.json "engines"); this is Node.js ${version}`);
      expect(line).not.toContain("\n");
    });
  }

  for (const version of ["abc", "", "v", "twenty.0.0", "-20.0.0"]) {
    it(`unreadable ${JSON.stringify(version)}: a line, not a pass`, () => {
      const line = check(version);
      expect(line).toBe(`srk: needs Node.js 20 or later (package.json "engines"); this is Node.js ${version}`);
    });
  }

  it("the minimum is a parameter: the boundary moves with it both ways", () => {
    expect(check("21.0.0", 21)).toBeNull();
    expect(check("20.99.0", 21)).toBe(
      'srk: needs Node.js 21 or later (package.json "engines"); this is Node.js 20.99.0',
    );
  });
});

describe("bin/srk.mjs on an old Node", () => {
  it("prints exactly the one line on stderr, nothing on stdout, and exits 1", () => {
    const r = srkOnNode("18.19.0", "--help");
    expect(r.stderr).toBe(`${check("18.19.0") as string}\n`);
    expect(r.stdout).toBe("");
    expect(r.status).toBe(1);
  });

  it("boundary: the same preload with a new enough version runs srk (--help, exit 0)", () => {
    const r = srkOnNode("20.0.0", "--help");
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/Usage: srk/);
    expect(r.status).toBe(0);
  });
});
