/**
 * The kit's layering, checked by dependency-cruiser with the rules of .dependency-cruiser.cjs: no
 * import circle anywhere, impl/ never importing model/, and every module importing only its own
 * layer and those below it (spec ← model, impl ← properties ← conformance ← reports, bench). The
 * second case plants each kind of break in a scratch tree and checks that the same rules name it,
 * so the first case's silence means the kit is clean, not that the rules see nothing.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./transport/local.ts";

const run = promisify(execFile);
const CONFIG = join(REPO_ROOT, ".dependency-cruiser.cjs");
const DEPCRUISE = join(REPO_ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
const LAYERS = ["spec", "model", "impl", "properties", "conformance", "reports", "bench"];

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
  readonly cycle?: readonly { readonly name: string }[];
}

/** Runs dependency-cruiser over `dirs` of `cwd` with the kit's rules; the violations it reports. */
const cruise = async (cwd: string, dirs: readonly string[]): Promise<{ violations: Violation[]; modules: number }> => {
  const r = await run(process.execPath, [DEPCRUISE, "--config", CONFIG, "--output-type", "json", ...dirs], {
    cwd,
    maxBuffer: 256 * 1024 * 1024,
  }).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? "", stderr: e.stderr ?? "" }));
  const out = JSON.parse(r.stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  return { violations: out.summary.violations, modules: out.summary.totalCruised };
};

const show = (v: Violation): string =>
  `${v.rule.name}: ${v.from} → ${v.to}${v.cycle === undefined ? "" : ` (circle: ${v.cycle.map((c) => c.name).join(" → ")})`}`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the kit's layering (.dependency-cruiser.cjs)", () => {
  it("no circle, impl never imports model, no import goes up a layer", async () => {
    const { violations, modules } = await cruise(REPO_ROOT, LAYERS);
    // Every layer's modules were read: a mistyped folder or a resolution failure would cruise few.
    expect(modules).toBeGreaterThan(400);
    expect(violations.map(show)).toEqual([]);
  }, 180_000);

  it("each rule fires on a planted break: a circle, impl importing model, spec importing model, a test of model importing reports, core importing a stage", async () => {
    const root = mkdtempSync(join(tmpdir(), "srk-layers-"));
    dirs.push(root);
    const files: Record<string, string> = {
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          allowImportingTsExtensions: true,
          noEmit: true,
        },
      }),
      "spec/a.ts": 'import { b } from "../model/b.ts";\nexport const a = b;\n',
      "model/b.ts": 'import { c } from "./c.ts";\nexport const b = 1;\nexport const bc = () => c;\n',
      "model/c.ts": 'import { b } from "./b.ts";\nexport const c = () => b;\n',
      "model/m.test.ts": 'import { r } from "../reports/r.ts";\nexport const t = r;\n',
      "impl/i.ts": 'import { b } from "../model/b.ts";\nexport const i = b;\n',
      "reports/r.ts": "export const r = 1;\n",
      "conformance/core/v.ts":
        'import { s } from "../stages/s.ts";\nimport { w } from "./w.ts";\nexport const v = s + w;\n',
      "conformance/core/w.ts": "export const w = 1;\n",
      "conformance/stages/s.ts": 'import { w } from "../core/w.ts";\nexport const s = w;\n',
    };
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, f)), { recursive: true });
      writeFileSync(join(root, f), text);
    }
    const { violations } = await cruise(root, ["spec", "model", "impl", "reports", "conformance"]);
    const fired = (rule: string, from: string, to: string) =>
      violations.some((v) => v.rule.name === rule && v.from === from && v.to === to);
    expect(
      fired("no-circular", "model/b.ts", "model/c.ts") || fired("no-circular", "model/c.ts", "model/b.ts"),
      violations.map(show).join("\n"),
    ).toBe(true);
    expect(fired("impl-never-model", "impl/i.ts", "model/b.ts"), violations.map(show).join("\n")).toBe(true);
    expect(fired("layer-impl", "impl/i.ts", "model/b.ts")).toBe(true);
    expect(fired("layer-spec", "spec/a.ts", "model/b.ts")).toBe(true);
    expect(fired("tests-below-reports", "model/m.test.ts", "reports/r.ts")).toBe(true);
    expect(fired("conformance-core-below", "conformance/core/v.ts", "conformance/stages/s.ts")).toBe(true);
    // Nothing else: model importing itself, reports standing alone, core importing core and a stage
    // importing core are allowed.
    expect(
      violations
        .filter(
          (v) =>
            ![
              "no-circular",
              "impl-never-model",
              "layer-impl",
              "layer-spec",
              "tests-below-reports",
              "conformance-core-below",
            ].includes(v.rule.name),
        )
        .map(show),
    ).toEqual([]);
  }, 60_000);
});
