/**
 * The JavaScript examples of the implementer's path (README.md, "Examples"), certified by `srk
 * certify` over the wire exactly as an implementer runs it:
 *
 * - each step reaches exit 0: every stage passes or is not applicable, and the invariants that
 *   pass are exactly those D-049 says its profile certifies (`certifiedBy`), the others not
 *   applicable;
 * - each step with one planted bug (one line of a copy changed) fails under the invariant the bug
 *   breaks, with a trace file that `srk replay` still fails on the broken copy and passes on the
 *   example itself, so the trace pins that bug and nothing else.
 *
 * The runs are shorter than srk's defaults (`RUNS` generated runs instead of 300); the README
 * quotes a run with the defaults.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ALL_PROFILES, certifiedBy, isCertifiable, type Family } from "../../spec/profiles.ts";
import { canonical, digestOf, identityOf, DOMAIN_TAGS } from "./examples/canonical.mjs";

const run = promisify(execFile);
const KIT = resolve(import.meta.dirname, "..", "..");
const ADAPTER = import.meta.dirname;
const RUNS = "40";
const README = readFileSync(join(import.meta.dirname, "README.md"), "utf8");

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

interface Counterexample {
  invariant: string;
  stage: string;
  summary: string;
  trace_file: string | null;
}
interface Cert {
  result: string;
  exit_code: number;
  implementation: { name: string; profile: { families: string[]; crash_hook: boolean } };
  stages: { stage: string; verdict: string; reason: string }[];
  invariants: { invariant: string; verdict: string; reason: string; counterexamples: Counterexample[] }[];
  implementation_faults: unknown[];
  harness_faults: unknown[];
}

/** Runs srk (the kit's CLI) from the kit's root; resolves with its exit code and output, whatever the code. */
const srk = async (args: string[]): Promise<{ code: number; output: string }> => {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "conformance/cli/main.ts", ...args], {
      cwd: KIT,
      maxBuffer: 64 << 20,
    });
    return { code: 0, output: `${stdout}\n${stderr}` };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === "number" ? x.code : -1, output: `${x.stdout ?? ""}\n${x.stderr ?? ""}` };
  }
};

const certify = async (
  impl: string,
  extra: string[] = [],
  runs = RUNS,
): Promise<{ code: number; output: string; cert: Cert; out: string }> => {
  const out = tempDir("js-example-cert-");
  const { code, output } = await srk(["certify", "--impl", impl, "--out", out, "--runs", runs, ...extra]);
  const cert = JSON.parse(readFileSync(join(out, "certificate.json"), "utf8")) as Cert;
  return { code, output, cert, out };
};

/**
 * A copy of the adapter in which `file` of examples/ has `line` replaced by `planted`: examples/ is
 * copied, everything else of the adapter linked, so the copy runs the adapter itself (its spec
 * copy and tokeniser included). The line must occur exactly once, so the bug is the one intended.
 */
const withBug = (file: string, line: string, planted: string): string => {
  const root = tempDir("js-example-bug-");
  for (const entry of readdirSync(ADAPTER))
    if (entry !== "examples") symlinkSync(join(ADAPTER, entry), join(root, entry));
  cpSync(join(ADAPTER, "examples"), join(root, "examples"), { recursive: true });
  const path = join(root, "examples", file);
  const text = readFileSync(path, "utf8");
  expect(text.split(line).length - 1, `${file} holds the line to break exactly once: ${line}`).toBe(1);
  writeFileSync(path, text.replace(line, planted));
  return root;
};

interface Step {
  program: string;
  args: string;
  name: string;
  families: Family[];
  runs?: string;
}
const STEPS: Step[] = [
  { program: "advaita.mjs", args: "", name: "js-example-advaita", families: ["advaita"] },
  { program: "janma.mjs", args: "", name: "js-example-janma", families: ["janma", "advaita"] },
  { program: "samskara.mjs", args: "", name: "js-example-samskara", families: ["janma", "samskara", "advaita"] },
  // Step 3's program declaring a smaller profile: with steps 1 and 2, every certifiable profile without ripa.
  ...([["janma"], ["janma", "samskara"], ["samskara", "advaita"]] as Family[][]).map((families) => ({
    program: "samskara.mjs",
    args: ` --families ${families.join(",")}`,
    name: "js-example-samskara",
    families,
  })),
  { program: "ripa.mjs", args: "", name: "js-example-ripa", families: ["janma", "samskara", "advaita", "ripa"] },
  // Step 4's program declaring a few profiles with ripa, with fewer runs (the full profile's run covers the operations).
  ...([["ripa"], ["advaita", "ripa"], ["janma", "ripa"]] as Family[][]).map((families) => ({
    program: "ripa.mjs",
    args: ` --families ${families.join(",")}`,
    name: "js-example-ripa",
    families,
    runs: "10",
  })),
];
const key = (f: readonly Family[]): string => [...f].sort().join(",");
// Every other certifiable profile (D-049) on step 4's program, five runs each: each certifiable profile has a JavaScript example.
STEPS.push(
  ...ALL_PROFILES.filter(isCertifiable)
    .filter((f) => !STEPS.some((s) => key(s.families) === key(f)))
    .map((f) => ({
      program: "ripa.mjs",
      args: ` --families ${f.join(",")}`,
      name: "js-example-ripa",
      families: [...f],
      runs: "5",
    })),
);

it("every certifiable profile is certified by one of the steps", () => {
  expect(new Set(STEPS.map((s) => key(s.families))).size).toBe(ALL_PROFILES.filter(isCertifiable).length);
});

describe("the examples' digests (spec/ENCODING.md) reproduce spec/vectors/digests.json", () => {
  const vectors = JSON.parse(readFileSync(join(KIT, "spec", "vectors", "digests.json"), "utf8")) as {
    digests: { name: string; tag: string; value: unknown; canonical: string; digest: string }[];
    identities: { name: string; base_digest: string; lineage_root: string; identity: string }[];
  };
  const nameOf = new Map([...DOMAIN_TAGS].map(([name, tag]) => [tag, name]));
  it.each(vectors.digests.map((v) => [v.name, v] as const))("%s", (_, v) => {
    expect(canonical(v.value)).toBe(v.canonical);
    expect(digestOf(nameOf.get(v.tag) ?? "", v.value)).toBe(v.digest);
  });
  it.each(vectors.identities.map((v) => [v.name, v] as const))("%s", (_, v) => {
    expect(identityOf(v.base_digest, v.lineage_root)).toBe(v.identity);
  });
  it("canonical JSON refuses what ENC-1 excludes instead of rounding it", () => {
    expect(() => canonical({ w: 0.5 })).toThrow(/\$\.w is 0\.5/);
    expect(() => canonical([2 ** 53])).toThrow(/safe range/);
    expect(() => canonical({ u: undefined })).toThrow(/undefined/);
    expect(canonical({ z: -0 })).toBe('{"z":0}');
  });
});

describe.each(STEPS)("step $program$args, profile [$families]", (step) => {
  it("srk certify: every stage passes or is not applicable, exactly D-049's invariants pass, exit 0", async () => {
    const { code, output, cert } = await certify(
      `node adapters/js/examples/${step.program}${step.args}`,
      [],
      step.runs,
    );
    expect(cert.implementation.name).toBe(step.name);
    expect(cert.implementation.profile).toEqual({ families: step.families, crash_hook: false });
    for (const s of cert.stages) expect(["pass", "not-applicable"], `${s.stage}: ${s.reason}`).toContain(s.verdict);
    const expected = certifiedBy(step.families);
    expect(expected.length).toBeGreaterThan(0);
    expect(cert.invariants.filter((i) => i.verdict === "pass").map((i) => i.invariant)).toEqual(expected);
    const certified = new Set<string>(expected);
    for (const i of cert.invariants.filter((x) => !certified.has(x.invariant)))
      expect(i.verdict, `${i.invariant}: ${i.reason}`).toBe("not-applicable");
    expect(cert.implementation_faults).toEqual([]);
    expect(cert.harness_faults).toEqual([]);
    expect([cert.result, cert.exit_code, code], output).toEqual(["certified", 0, 0]);
    // README.md quotes this run's summary (its counts do not depend on the number of runs).
    const summary = output.split("\n").filter((l) => l.startsWith("invariants: ") || l.startsWith("result: "));
    expect(summary).toHaveLength(2);
    for (const line of summary) expect(README).toContain(line);
  }, 300_000);
});

interface Bug {
  step: string;
  what: string;
  file: string;
  line: string;
  planted: string;
  invariant: string;
  stage: string;
}
const BUGS: Bug[] = [
  {
    step: "advaita.mjs",
    what: "mint forgets the roots already used, so a second mint with one root is accepted",
    file: "world.mjs",
    line: "if (world.roots_used.includes(cmd.root)) {",
    planted: "if (false) {",
    invariant: "AD-1",
    stage: "exhaustive", // no golden line mints one root twice (the wire session is the only session of [advaita]); the quick scope mints a used root
  },
  {
    step: "janma.mjs",
    what: "dissolve accepts an instance whose obligation is still pending",
    file: "lifecycle.mjs",
    line: 'if (obligation === undefined || obligation.status !== "discharged")',
    planted: "if (obligation === undefined)",
    invariant: "J-4",
    stage: "exhaustive", // no golden session fits [janma, advaita]; the quick scope dissolves a withdrawn life before its distillation
  },
  {
    step: "samskara.mjs",
    what: "replay keeps a batch that an excision left empty, as an empty version (D-009's rejected alternative)",
    file: "store.mjs",
    line: "if (added.length === 0) continue;",
    planted: "if (added === null) continue;",
    invariant: "S-5",
    stage: "golden", // session-decisions-samsara excises the only member of a batch
  },
  {
    step: "samskara.mjs",
    what: "the highest-weighted contributor's last tie-break is arrival order, not the smallest distillate id",
    file: "store.mjs",
    line: "|| byString(a.id, b.id);",
    planted: "|| 0;",
    invariant: "AD-3",
    stage: "golden", // session-decisions-samsara, line 79 (G-52), merges contributors tied but for their ids
  },
  {
    step: "ripa.mjs",
    what: "an effect is accepted under a stale authority token or from an execution that does not hold the epoch",
    file: "continuity.mjs",
    line: "if (cmd.token !== authority.token || cmd.execution_id !== authority.holder)\n    throw",
    planted: "if (false)\n    throw",
    invariant: "I4",
    stage: "golden", // session-model-ripa, line 4 (OP-6.6.c1), sends an effect under the token a restart replaced
  },
];

describe.each(BUGS)("planted bug in $step: $what", (bug) => {
  it(`fails under ${bug.invariant} with a trace that srk replay still fails, and that the example itself passes`, async () => {
    const root = withBug(bug.file, bug.line, bug.planted);
    const broken = `node ${join(root, "examples", bug.step)}`;
    const { code, output, cert, out } = await certify(broken, ["--fail-fast"]);
    expect([cert.result, code], output).toEqual(["violations", 1]);
    const failed = cert.invariants.filter((i) => i.verdict === "fail").map((i) => i.invariant);
    expect(failed, output).toEqual([bug.invariant]);
    const inv = cert.invariants.find((i) => i.invariant === bug.invariant);
    const traced = inv?.counterexamples.find((c) => c.trace_file !== null);
    expect(traced, JSON.stringify(inv?.counterexamples)).toBeDefined();
    expect(traced?.stage).toBe(bug.stage);
    const trace = join(out, traced?.trace_file ?? "");
    const again = await srk(["replay", trace, "--impl", broken]);
    expect(again.code, again.output).toBe(1);
    const fixed = await srk(["replay", trace, "--impl", `node adapters/js/examples/${bug.step}`]);
    expect(fixed.code, fixed.output).toBe(0);
  }, 300_000);
});
