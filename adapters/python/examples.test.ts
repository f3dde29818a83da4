/**
 * The Python examples of the implementer's path (adapters/python/examples, issue 20 item 4), one per
 * certifiable step of D-049 beyond the empty profile:
 *
 * - step 1, `advaita.py`, profile [advaita];
 * - step 2, `janma.py`, profile [janma, advaita], built on step 1;
 * - step 3, `samskara.py`, profile [janma, samskara, advaita], built on step 2;
 * - step 4, `ripa.py`, the full profile [janma, samskara, advaita, ripa], built on step 3.
 *
 * Each is certified by `srk certify` (the command line a user runs) and must reach exit 0 with every
 * stage passing or not applicable, and exactly the invariants D-049 says its profile certifies
 * passing (`certifiedBy`, computed from the guards, not written here). Then one bug is planted in a
 * copy of each example (one line changed, the rest of the examples and the adapter as they are), and
 * the certificate must fail under the invariant that line protects, with a portable trace whose
 * `srk replay` still fails on the broken copy and passes on the example. Before all that, the
 * examples' digest code reproduces the spec's digest vectors, and says so when a vector is altered.
 * Steps 3 and 4 also declare smaller profiles (`--families`): every certifiable profile the steps do
 * not declare is certified too, with fewer runs, so each of D-049's certifiable profiles has a Python example.
 */
import { execFile } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { INVARIANT_IDS, type InvariantId } from "../../spec/catalog.ts";
import { Certificate } from "../../spec/certificate.ts";
import { ALL_PROFILES, certifiedBy, isCertifiable, type Family } from "../../spec/profiles.ts";
import { needs, PYTHON3 } from "../../test-support/needs.ts";
import { REPO_ROOT } from "../../conformance/transport/local.ts";

const run = promisify(execFile);
const EXAMPLES = join(REPO_ROOT, "adapters", "python", "examples");
const ADAPTER = join(REPO_ROOT, "adapters", "python", "srk_adapter");
/** Fewer generated runs than the default 300, to stay within minutes; the default certifies too (README). */
const RUNS = "40";

/** Exit code and output of a process that may fail (execFile rejects on a non-zero exit). */
const outcome = async (file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const r = await run(file, args, { cwd: REPO_ROOT, maxBuffer: 64 << 20 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: x.code ?? -1, stdout: x.stdout ?? "", stderr: x.stderr ?? "" };
  }
};
const srk = (...args: string[]) => outcome(process.execPath, ["bin/srk.mjs", ...args]);

/** One line of one example file, changed so that the example breaks one rule. */
interface PlantedBug {
  readonly file: string;
  readonly find: string;
  readonly replace: string;
  /** The invariant whose rule the line enforces: the certificate must fail under it. */
  readonly invariant: InvariantId;
  readonly why: string;
}

interface Step {
  readonly example: string;
  readonly name: string;
  readonly families: readonly Family[];
  readonly bug: PlantedBug;
}

const STEPS: readonly Step[] = [
  {
    example: "advaita.py",
    name: "python-example-advaita",
    families: ["advaita"],
    bug: {
      file: "advaita.py",
      find: `    if command["root"] in world.state["roots_used"]:  # OP-5.1.c1`,
      replace: `    if False:  # planted bug: OP-5.1.c1 skipped, a used root mints again`,
      invariant: "AD-1",
      why: "a second mint with a used root is accepted (OP-5.1.c1)",
    },
  },
  {
    example: "janma.py",
    name: "python-example-janma",
    families: ["janma", "advaita"],
    bug: {
      file: "janma.py",
      find: `    if tick >= view["born_tick"] + manifest["ttl_ticks"]:  # c6 (D-014)`,
      replace: `    if False:  # planted bug: OP-2.3.c6 skipped, an act after the TTL is accepted`,
      invariant: "J-3",
      why: "an act at or after born_tick + ttl_ticks is accepted (OP-2.3.c6)",
    },
  },
  {
    example: "samskara.py",
    name: "python-example-samskara",
    families: ["janma", "samskara", "advaita"],
    bug: {
      file: "samskara.py",
      find: `    lineage = derive(store["chain"][0], recorded_batches(agent, leave_out=gone))  # OP-1.8`,
      replace: `    lineage = derive(store["chain"][0], recorded_batches(agent))  # planted bug: the excised distillates are replayed too`,
      invariant: "S-5",
      why: "an excision replays the recorded batches with the excised distillates, so the chain is not re-derived (OP-1.8)",
    },
  },
  {
    example: "ripa.py",
    name: "python-example-ripa",
    families: ["janma", "samskara", "advaita", "ripa"],
    bug: {
      file: "continuity.py",
      find: `    if command["token"] != authority["token"] or command["execution_id"] != authority["holder"]:  # c1`,
      replace: `    if False:  # planted bug: OP-6.6.c1 skipped, an effect with a stale token or by a non-holder is accepted`,
      invariant: "I4",
      why: "an effect under a stale epoch's token, or by an execution that does not hold it, is accepted (OP-6.6.c1)",
    },
  },
];

/** A smaller profile of an example that declares it with `--families` (few runs: the crash stage dominates). */
interface Profile {
  readonly example: string;
  readonly name: string;
  readonly families: readonly Family[];
  readonly runs: string;
}

const key = (f: readonly Family[]): string => [...f].sort().join(",");
const NAMED: readonly Profile[] = [
  { example: "samskara.py", name: "python-example-samskara", families: ["janma", "samskara"], runs: "10" },
  { example: "ripa.py", name: "python-example-ripa", families: ["advaita", "ripa"], runs: "10" },
];
/**
 * Every other certifiable profile (D-049), on step 4's program (it declares any subset): so each
 * certifiable profile has a Python example srk certifies to exit 0. Five runs each: the steps and the
 * full profile exercise the operations, these the profile's own applicability and refusals.
 */
const PROFILES: readonly Profile[] = [
  ...NAMED,
  ...ALL_PROFILES.filter(isCertifiable)
    .filter((f) => ![...STEPS.map((s) => s.families), ...NAMED.map((p) => p.families)].some((g) => key(g) === key(f)))
    .map((families) => ({ example: "ripa.py", name: "python-example-ripa", families, runs: "5" })),
];

it("every certifiable profile is certified by one of the steps or profiles below", () => {
  const covered = new Set([...STEPS.map((s) => key(s.families)), ...PROFILES.map((p) => key(p.families))]);
  expect(
    ALL_PROFILES.filter(isCertifiable)
      .map(key)
      .filter((k) => !covered.has(k)),
  ).toEqual([]);
  expect(covered.size).toBe(ALL_PROFILES.filter(isCertifiable).length);
});

const tmp = mkdtempSync(join(tmpdir(), "srk-python-examples-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const readCertificate = (out: string) =>
  Certificate.parse(JSON.parse(readFileSync(join(out, "certificate.json"), "utf8")));

/**
 * A copy of the examples with one line changed, beside a link to the adapter (the examples find
 * srk_adapter in their parent folder, and the adapter finds the kit's spec/ from its real path).
 */
const plant = (step: Step): string => {
  const dir = join(tmp, `bug-${step.name}`);
  mkdirSync(join(dir, "examples"), { recursive: true });
  symlinkSync(ADAPTER, join(dir, "srk_adapter"));
  for (const f of readdirSync(EXAMPLES).filter((f) => f.endsWith(".py")))
    copyFileSync(join(EXAMPLES, f), join(dir, "examples", f));
  const file = join(dir, "examples", step.bug.file);
  const text = readFileSync(file, "utf8");
  // The line must be there exactly once, so the test breaks loudly when the example is edited.
  expect(text.split(step.bug.find).length - 1, `${step.bug.file} holds the line to change once`).toBe(1);
  writeFileSync(file, text.replace(step.bug.find, step.bug.replace));
  return join(dir, "examples", step.example);
};

const python = needs(PYTHON3);

python.describe("the Python examples of the implementer's path", () => {
  it("encoding.py reproduces every digest vector of spec/vectors/digests.json, and names a vector it does not", async () => {
    const vectors = JSON.parse(readFileSync(join(REPO_ROOT, "spec", "vectors", "digests.json"), "utf8")) as {
      digests: { name: string; digest: string }[];
      identities: unknown[];
    };
    const good = await outcome("python3", [join(EXAMPLES, "encoding.py")]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout.trim()).toBe(`all ${vectors.digests.length + vectors.identities.length} digest vectors agree`);

    const target = vectors.digests[1];
    if (target === undefined) throw new Error("the vectors hold fewer than two digests");
    const last = target.digest.slice(-1);
    target.digest = target.digest.slice(0, -1) + (last === "0" ? "1" : "0");
    const altered = join(tmp, "digests-altered.json");
    writeFileSync(altered, JSON.stringify(vectors));
    const bad = await outcome("python3", [join(EXAMPLES, "encoding.py"), altered]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${target.name}: digest`);
    expect(bad.stdout.trim()).toBe(
      `1 of ${vectors.digests.length + vectors.identities.length} digest vectors disagree`,
    );
  }, 60_000);

  /** `srk certify` of one example and profile: exit 0, every stage as the profile allows, exactly `certifiedBy` passing. */
  const certifies = async (
    step: { example: string; name: string; families: readonly Family[] },
    impl: string,
    out: string,
    generated: string,
  ) => {
    const expected = certifiedBy(step.families);
    const r = await srk("certify", "--impl", impl, "--out", out, "--runs", generated, "--time-budget", "600");
    const summary = `${r.stdout.slice(-3000)}\n${r.stderr.slice(-2000)}`;
    // No certificate means srk stopped before writing one (a usage error, a runner bug, a kill): say what it printed.
    expect(
      existsSync(join(out, "certificate.json")),
      `srk certify exited ${r.code} without a certificate:\n${summary}`,
    ).toBe(true);
    const certificate = readCertificate(out);
    expect(certificate.implementation.name).toBe(step.name);
    expect(certificate.implementation.profile).toEqual({ families: [...step.families], crash_hook: true });
    for (const s of certificate.stages)
      expect(["pass", "not-applicable"], `${s.stage}: ${s.reason}`).toContain(s.verdict);
    // Which stages can run follows from the profile: the algebra needs janma and samskara, the
    // forgetting scans need janma (lives to distil); every other stage runs for a non-empty profile.
    const runs = (stage: string) =>
      stage === "algebra"
        ? step.families.includes("janma") && step.families.includes("samskara")
        : stage === "forgetting"
          ? step.families.includes("janma")
          : true;
    for (const s of certificate.stages)
      expect(s.verdict, `${s.stage}: ${s.reason}`).toBe(runs(s.stage) ? "pass" : "not-applicable");
    expect(certificate.invariants.map((i) => i.invariant)).toEqual([...INVARIANT_IDS]);
    for (const inv of certificate.invariants) {
      expect(inv.verdict, `${inv.invariant}: ${inv.reason}`).toBe(
        expected.includes(inv.invariant) ? "pass" : "not-applicable",
      );
    }
    expect(certificate.implementation_faults).toEqual([]);
    expect(certificate.harness_faults).toEqual([]);
    expect(certificate.result).toBe("certified");
    expect(certificate.exit_code).toBe(0);
    expect(r.code, summary).toBe(0);
    expect(r.stdout).toMatch(/^result: certified \(exit 0\)/m);
  };

  for (const step of STEPS) {
    const impl = `python3 adapters/python/examples/${step.example}`;
    const expected = certifiedBy(step.families);

    it(`${step.example}: srk certify exits 0 and exactly the invariants of the profile [${step.families.join(", ")}] pass (${expected.join(", ")})`, async () => {
      await certifies(step, impl, join(tmp, `cert-${step.name}`), RUNS);
    }, 900_000);

    it(`${step.example} with a planted bug (${step.bug.why}) fails under ${step.bug.invariant}, and its trace replays as failing`, async () => {
      const broken = `python3 ${plant(step)}`;
      const out = join(tmp, `bug-cert-${step.name}`);
      const r = await srk(
        "certify",
        "--impl",
        broken,
        "--out",
        out,
        "--runs",
        RUNS,
        "--time-budget",
        "600",
        "--fail-fast",
      );
      const certificate = readCertificate(out);
      expect(r.code, r.stdout.slice(-3000)).toBe(1);
      expect(certificate.exit_code).toBe(1);
      expect(certificate.result).toBe("violations");
      const failed = certificate.invariants.filter((i) => i.verdict === "fail").map((i) => i.invariant);
      expect(failed, r.stdout.slice(-3000)).toEqual([step.bug.invariant]);
      const inv = certificate.invariants.find((i) => i.invariant === step.bug.invariant);
      const cx = inv?.counterexamples[0];
      if (cx === undefined || cx.trace_file === null)
        throw new Error(`${step.bug.invariant} failed with no counterexample trace`);
      const trace = join(out, cx.trace_file);
      expect(cx.replay).toContain(`srk replay ${trace}`);
      expect(cx.replay).toContain(broken);

      const still = await srk("replay", trace, "--impl", broken);
      expect(still.code, still.stdout + still.stderr).toBe(1);
      expect(still.stdout).toMatch(new RegExp(`still fails at step \\d+: .*${step.bug.invariant}`));
      const fixed = await srk("replay", trace, "--impl", impl);
      expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
      expect(fixed.stdout).toMatch(/passes now/);
    }, 900_000);
  }

  for (const profile of PROFILES) {
    const impl = `python3 adapters/python/examples/${profile.example} --families ${profile.families.join(",")}`;
    const expected = certifiedBy(profile.families);
    it(`${profile.example} --families ${profile.families.join(",")}: srk certify exits 0 and exactly ${expected.join(", ")} pass`, async () => {
      await certifies(profile, impl, join(tmp, `cert-${profile.name}-${profile.families.join("-")}`), profile.runs);
    }, 900_000);
  }
});
