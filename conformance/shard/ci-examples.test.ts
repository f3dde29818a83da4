/**
 * The CI examples, checked with the tools' own parsers where they ship one, and the action's shell
 * run here with a fake srk:
 *
 * - every workflow under docs/ (docs/sharding/github-actions.yml, docs/ci/*.yml) passes GitHub's
 *   workflow parser (@actions/workflow-parser) and a copy with `runs-on` misspelt does not;
 * - action.yml passes the same package's action parser (the action metadata schema) and the rules
 *   of GitHub's metadata syntax the schema leaves out (input descriptions, every `${{ inputs.X }}`
 *   declared, every input used, no expression inside a `run:` body, the scripts' variables set by
 *   the steps' env:), each rule seen to reject a mutated copy;
 * - the workflows use the action with declared inputs only, the sharded one as the merge expects;
 * - the Kubernetes Jobs pass kubernetes-models' schema validation, and a mutated copy does not;
 * - action/certify.sh maps srk's exit codes 0/1/2/64/70 to the step's as documented, passes every
 *   input as one argument (no shell injection), and writes its outputs; action/install.sh installs
 *   the kit from the action's checkout or from an npm spec (npm faked).
 *
 * Nothing here runs GitHub Actions or a cluster (docs/SHARDING.md says what is not tested).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { register } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { Job } from "kubernetes-models/batch/v1/Job";
import { parse, parseAllDocuments, parseDocument } from "yaml";
import { parseShard } from "./shard.ts";

// @actions/workflow-parser's compiled modules import their schema JSON without the
// `with { type: "json" }` attribute Node requires (the package is built for bundlers); vitest loads
// node_modules natively, so a loader hook adds the attribute for that package's JSON files alone.
const jsonHook = `export async function load(url, context, next) {
  if (url.endsWith(".json") && url.includes("/@actions/workflow-parser/") && context.importAttributes?.type === undefined)
    return next(url, { ...context, importAttributes: { ...context.importAttributes, type: "json" } });
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(jsonHook)}`);
const { parseWorkflow, convertWorkflowTemplate, NoOperationTraceWriter } = await import("@actions/workflow-parser");
const { parseAction } = await import("@actions/workflow-parser/actions/index");

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const read = (p: string): string => readFileSync(join(ROOT, p), "utf8");
const tmp = mkdtempSync(join(tmpdir(), "srk-ci-examples-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const WORKFLOWS = [
  "docs/sharding/github-actions.yml",
  ...readdirSync(join(ROOT, "docs", "ci"))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => `docs/ci/${f}`),
];

/** GitHub's parser's errors for a workflow: schema errors, then the model conversion's. */
const workflowErrors = async (name: string, content: string): Promise<string[]> => {
  const r = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  const errors = r.context.errors.getErrors().map((e) => e.message);
  if (r.value === undefined || errors.length > 0) return errors.length > 0 ? errors : ["no workflow"];
  const template = await convertWorkflowTemplate(r.context, r.value);
  return [...errors, ...(template.errors ?? []).map((e) => e.Message)];
};

const actionSchemaErrors = (content: string): string[] =>
  parseAction({ name: "action.yml", content }, new NoOperationTraceWriter())
    .context.errors.getErrors()
    .map((e) => e.message);

interface Input {
  readonly description?: unknown;
  readonly required?: unknown;
  readonly default?: unknown;
}
interface Step {
  readonly name?: string;
  readonly id?: string;
  readonly if?: string;
  readonly run?: string;
  readonly shell?: string;
  readonly uses?: string;
  readonly with?: Record<string, unknown>;
  readonly env?: Record<string, unknown>;
}
interface Action {
  readonly name?: unknown;
  readonly description?: unknown;
  readonly inputs?: Record<string, Input>;
  readonly runs?: { readonly using?: unknown; readonly steps?: Step[] };
}
interface Workflow {
  readonly env?: Record<string, string>;
  readonly jobs: Record<
    string,
    {
      readonly needs?: string;
      readonly if?: string;
      readonly strategy?: { matrix: { shard: number[] } };
      readonly steps: Step[];
    }
  >;
}

const expressions = (text: string): string[] => [...text.matchAll(/\$\{\{([\s\S]*?)\}\}/g)].map((m) => m[1] ?? "");
const strings = (v: unknown): string[] =>
  typeof v === "string"
    ? [v]
    : Array.isArray(v)
      ? v.flatMap(strings)
      : typeof v === "object" && v !== null
        ? Object.values(v).flatMap(strings)
        : [];
/** The variables a script of the action reads (SRK_*): the action's contract with its steps. */
const scriptVariables = (script: string): string[] =>
  [...new Set([...script.matchAll(/\$\{?(SRK_[A-Z_]+)/g)].map((m) => m[1] ?? ""))].sort();

/**
 * The rules of GitHub's action metadata syntax (docs.github.com, "Metadata syntax for GitHub
 * Actions") for a composite action that the schema does not check, and the action's own contract
 * with its scripts. One message per broken rule, each starting with the rule's name.
 */
const actionProblems = (content: string): string[] => {
  const a = parse(content) as Action;
  const problems: string[] = [];
  if (typeof a.name !== "string" || a.name.trim() === "") problems.push("name: missing");
  if (typeof a.description !== "string" || a.description.trim() === "") problems.push("description: missing");
  const inputs = a.inputs ?? {};
  for (const [id, input] of Object.entries(inputs)) {
    if (typeof input.description !== "string" || input.description.trim() === "")
      problems.push(`input description: ${id} has none`);
    if (input.required === true && input.default !== undefined) problems.push(`required input: ${id} has a default`);
  }
  if (a.runs?.using !== "composite") problems.push(`runs.using: ${String(a.runs?.using)}, not composite`);
  const steps = a.runs?.steps ?? [];
  const used = new Set<string>();
  for (const expr of expressions(strings(a).join("\n"))) {
    for (const m of expr.matchAll(/\binputs\.([A-Za-z0-9_-]+)/g)) {
      const id = m[1] ?? "";
      used.add(id);
      if (!(id in inputs)) problems.push(`declared input: inputs.${id} is not declared`);
    }
  }
  for (const id of Object.keys(inputs))
    if (!used.has(id)) problems.push(`used input: ${id} is declared but never used`);
  for (const [k, s] of steps.entries()) {
    const step = s.id ?? s.name ?? `step ${k + 1}`;
    if (s.run === undefined) continue;
    if (typeof s.shell !== "string" || s.shell === "") problems.push(`shell: ${step} has a run without shell`);
    if (s.run.includes("${{"))
      problems.push(`injection: ${step} has an expression in its run body (pass it through env:)`);
    for (const m of s.run.matchAll(/\$GITHUB_ACTION_PATH\/(action\/[\w.-]+\.sh)/g)) {
      const file = m[1] ?? "";
      if (!existsSync(join(ROOT, file))) {
        problems.push(`script: ${step} runs ${file}, which does not exist`);
        continue;
      }
      const reads = scriptVariables(read(file));
      const set = Object.keys(s.env ?? {})
        .filter((v) => v.startsWith("SRK_"))
        .sort();
      if (JSON.stringify(reads) !== JSON.stringify(set))
        problems.push(`env: ${step} sets ${set.join(",")} but ${file} reads ${reads.join(",")}`);
    }
  }
  const upload = steps.find((s) => s.uses?.startsWith("actions/upload-artifact@") === true);
  if (upload === undefined) problems.push("upload: no actions/upload-artifact step");
  else {
    if (upload.uses !== "actions/upload-artifact@v4")
      problems.push(`upload: ${upload.uses}, not actions/upload-artifact@v4`);
    if (upload.if !== "always()") problems.push(`upload: if is ${String(upload.if)}, not always()`);
    if (upload.with?.["path"] !== "${{ inputs.out }}") problems.push("upload: path is not the out input");
  }
  return problems;
};

/** action.yml with one change: `edit` gets the parsed document. */
const mutate = (content: string, edit: (doc: ReturnType<typeof parseDocument>) => void): string => {
  const doc = parseDocument(content);
  edit(doc);
  const out = doc.toString();
  expect(out).not.toBe(content);
  return out;
};

const ACTION = read("action.yml");
const stepIndex = (id: string): number => ((parse(ACTION) as Action).runs?.steps ?? []).findIndex((s) => s.id === id);

describe("workflows under docs/ (GitHub's workflow parser)", () => {
  it.each(WORKFLOWS)("%s parses without errors", async (file) => {
    expect(await workflowErrors(file, read(file))).toEqual([]);
  });

  it.each(WORKFLOWS)("%s with runs-on misspelt is rejected, naming the key", async (file) => {
    const original = read(file);
    for (const typo of ["runs_on", "run-on"]) {
      const broken = original.replace(/^(\s+)runs-on:/m, `$1${typo}:`);
      expect(broken).not.toBe(original);
      const errors = await workflowErrors(file, broken);
      expect(
        errors.some((e) => e.includes(`Unexpected value '${typo}'`)),
        errors.join("\n"),
      ).toBe(true);
      expect(
        errors.some((e) => e.includes("Required property is missing: runs-on")),
        errors.join("\n"),
      ).toBe(true);
    }
  });
});

describe("action.yml (the composite action)", () => {
  it("passes GitHub's action metadata schema (parseAction), which rejects a run step without shell and an unknown runs.using", () => {
    expect(actionSchemaErrors(ACTION)).toEqual([]);
    const noShell = mutate(ACTION, (d) => d.deleteIn(["runs", "steps", stepIndex("certify"), "shell"]));
    expect(actionSchemaErrors(noShell).join("\n")).toContain("Required property is missing: shell");
    const using = mutate(ACTION, (d) => d.setIn(["runs", "using"], "composit"));
    expect(actionSchemaErrors(using).join("\n")).toContain("Unexpected value 'composit'");
    const noName = mutate(ACTION, (d) => d.delete("name"));
    expect(actionSchemaErrors(noName).join("\n")).toContain("Required property is missing: name");
  });

  it("follows the metadata syntax rules the schema leaves out, and its scripts' contract", () => {
    expect(actionProblems(ACTION)).toEqual([]);
  });

  const install = (): number => stepIndex("kit");
  const certify = (): number => stepIndex("certify");
  const mutations: readonly (readonly [rule: string, edit: (d: ReturnType<typeof parseDocument>) => void])[] = [
    ["name:", (d) => d.set("name", "")],
    ["description:", (d) => d.delete("description")],
    ["input description:", (d) => d.deleteIn(["inputs", "seed", "description"])],
    ["required input:", (d) => d.setIn(["inputs", "impl", "default"], "python3 impl.py")],
    ["runs.using:", (d) => d.setIn(["runs", "using"], "node20")],
    ["shell:", (d) => d.deleteIn(["runs", "steps", certify(), "shell"])],
    ["declared input:", (d) => d.setIn(["runs", "steps", certify(), "env", "SRK_RUNS"], "${{ inputs.run }}")],
    ["used input:", (d) => d.setIn(["inputs", "verbose"], { description: "never passed on", default: "false" })],
    [
      "injection:",
      (d) =>
        d.setIn(
          ["runs", "steps", certify(), "run"],
          'SRK_IMPL="${{ inputs.impl }}" bash "$GITHUB_ACTION_PATH/action/certify.sh"',
        ),
    ],
    [
      "injection:",
      (d) => d.setIn(["runs", "steps", install(), "run"], 'bash "${{ github.action_path }}/action/install.sh"'),
    ],
    ["script:", (d) => d.setIn(["runs", "steps", certify(), "run"], 'bash "$GITHUB_ACTION_PATH/action/certfy.sh"')],
    [
      "env:",
      (d) => {
        d.deleteIn(["runs", "steps", certify(), "env", "SRK_RUNS"]);
        d.setIn(["runs", "steps", certify(), "env", "SRK_RUN"], "${{ inputs.runs }}");
      },
    ],
    ["env:", (d) => d.deleteIn(["runs", "steps", install(), "env", "SRK_KIT_VERSION"])],
    ["upload:", (d) => d.setIn(["runs", "steps", stepIndex("upload"), "if"], "success()")],
    ["upload:", (d) => d.setIn(["runs", "steps", stepIndex("upload"), "uses"], "actions/upload-artifact@v3")],
    ["upload:", (d) => d.setIn(["runs", "steps", stepIndex("upload"), "with", "path"], "reports")],
  ];
  it.each(mutations.map(([rule, edit], k) => [`${rule} (${k + 1})`, rule, edit] as const))(
    "a copy breaking rule %s is rejected",
    (_label, rule, edit) => {
      const problems = actionProblems(mutate(ACTION, edit));
      expect(
        problems.some((p) => p.startsWith(rule)),
        problems.join("\n"),
      ).toBe(true);
    },
  );

  it("declares the documented inputs and defaults", () => {
    const inputs = (parse(ACTION) as Action).inputs ?? {};
    expect(inputs["impl"]?.required).toBe(true);
    for (const id of ["seed", "runs", "time-budget", "shard", "expected-failures", "kit-version"])
      expect(inputs[id]?.default, id).toBe("");
    expect(inputs["out"]?.default).toBe("srk-reports");
    expect(inputs["node-version"]?.default).toBe("20");
    expect(inputs["fail-on-violations"]?.default).toBe("true");
    expect(inputs["fail-on-inconclusive"]?.default).toBe("true");
    // Every input is in the table of docs/SHARDING.md.
    const doc = read("docs/SHARDING.md");
    for (const id of Object.keys(inputs)) expect(doc, id).toContain(`| \`${id}\``);
  });
});

describe("the workflows use the action as it is declared", () => {
  const declared = (parse(ACTION) as Action).inputs ?? {};
  const actionSteps = (wf: Workflow): Step[] =>
    Object.values(wf.jobs)
      .flatMap((j) => j.steps)
      .filter((s) => s.uses === "./" || s.uses?.startsWith("your-org/samsara-ripa-kit@") === true);

  it.each(WORKFLOWS)("%s: every step using the action passes declared inputs only, and impl", (file) => {
    const steps = actionSteps(parse(read(file)) as Workflow);
    expect(steps.length).toBeGreaterThan(0);
    for (const s of steps) {
      expect(Object.keys(s.with ?? {}).filter((k) => !(k in declared))).toEqual([]);
      expect(typeof s.with?.["impl"]).toBe("string");
    }
    // The check above fails on a misspelt input.
    const misspelt = read(file).replace(/^(\s+)impl:/m, "$1implementation:");
    const bad = actionSteps(parse(misspelt) as Workflow).flatMap((s) =>
      Object.keys(s.with ?? {}).filter((k) => !(k in declared)),
    );
    expect(bad).toEqual(["implementation"]);
  });

  it("sharded: one matrix job per shard certifying shard i/n with the action, and a merge job deciding the campaign", () => {
    const wf = parse(read("docs/sharding/github-actions.yml")) as Workflow;
    const certify = wf.jobs["certify"];
    const merge = wf.jobs["merge"];
    if (certify === undefined || merge === undefined) throw new Error("jobs certify and merge expected");
    const [step] = actionSteps({ jobs: { certify } });
    if (step === undefined) throw new Error("the certify job uses the action");
    const m = /^\$\{\{ matrix\.shard \}\}\/(\d+)$/.exec(String(step.with?.["shard"]));
    expect(m, String(step.with?.["shard"])).not.toBeNull();
    const n = Number(m?.[1]);
    const shards = certify.strategy?.matrix.shard ?? [];
    expect(shards).toEqual(Array.from({ length: n }, (_, k) => k + 1));
    for (const i of shards) expect(() => parseShard(`${i}/${n}`)).not.toThrow();
    // Same campaign in every shard: seed and runs from the workflow's env.
    expect(step.with?.["seed"]).toBe("${{ env.SEED }}");
    expect(step.with?.["runs"]).toBe("${{ env.RUNS }}");
    expect(wf.env?.["SEED"]).toMatch(/^\d+$/);
    expect(wf.env?.["RUNS"]).toMatch(/^\d+$/);
    // Each shard's artifact is one the merge downloads; the merge, not a shard, decides.
    expect(step.with?.["artifact-name"]).toBe("shard-${{ matrix.shard }}");
    expect(step.with?.["fail-on-violations"]).toBe("false");
    expect(step.with?.["fail-on-inconclusive"]).toBe("false");
    expect(merge.needs).toBe("certify");
    expect(merge.if).toBe("always()");
    const download = merge.steps.find((s) => s.uses?.startsWith("actions/download-artifact@") === true);
    expect(download?.with?.["pattern"]).toBe("shard-*");
    expect(download?.with?.["path"]).toBe("shards");
    const mergeRun = merge.steps.map((s) => s.run ?? "").find((r) => r.includes("srk merge")) ?? "";
    expect(mergeRun).toMatch(/srk merge \.\.\/shards\/shard-\*\/certificate\.json --out \.\.\/merged/);
    // The merge runs the same kit as the action (srk merge refuses another spec digest).
    const kit = merge.steps.find((s) => s.with?.["repository"] !== undefined);
    expect(`${String(kit?.with?.["repository"])}@${String(kit?.with?.["ref"])}`).toBe(step.uses);
    const uploads = JSON.stringify(merge.steps.filter((s) => s.uses?.startsWith("actions/upload-artifact") === true));
    for (const f of ["certificate.json", "junit.xml", "report.html"]) expect(uploads).toContain(`merged/${f}`);
  });
});

describe("Kubernetes Jobs (kubernetes-models)", () => {
  const jobs = (): Record<string, unknown>[] =>
    parseAllDocuments(read("docs/sharding/k8s-indexed-job.yaml")).map((d) => d.toJS() as Record<string, unknown>);

  it("both Jobs of docs/sharding/k8s-indexed-job.yaml validate against the batch/v1 Job schema", () => {
    const docs = jobs();
    expect(docs.map((d) => (d["metadata"] as { name: string }).name)).toEqual(["srk-certify", "srk-merge"]);
    for (const d of docs) expect(() => new Job(d as never).validate()).not.toThrow();
  });

  it.each([
    [
      "completionMode",
      (j: { spec: Record<string, unknown> }) => {
        j.spec["completionMode"] = "Sideways";
      },
      /completionMode must be equal to one of the allowed values/,
    ],
    [
      "parallelism",
      (j: { spec: Record<string, unknown> }) => {
        j.spec["parallelism"] = "4";
      },
      /parallelism must be integer/,
    ],
    [
      "restartPolicy",
      (j: { spec: { template: { spec: Record<string, unknown> } } }) => {
        j.spec.template.spec["restartPolicy"] = "Sometimes";
      },
      /restartPolicy must be equal to one of the allowed values/,
    ],
  ] as const)("a Job with a wrong %s is rejected", (_field, edit, message) => {
    const job = structuredClone(jobs()[0]) as never;
    edit(job);
    expect(() => new Job(job).validate()).toThrow(message);
  });
});

describe("action/certify.sh and action/install.sh (bash, srk and npm faked)", () => {
  // A fake srk: records its arguments, writes a report folder like srk's, exits with FAKE_EXIT.
  const fakeSrk = join(tmp, "fake-srk.mjs");
  writeFileSync(
    fakeSrk,
    [
      'import { mkdirSync, writeFileSync } from "node:fs";',
      "const args = process.argv.slice(2);",
      "writeFileSync(process.env.FAKE_ARGS, JSON.stringify(args));",
      'const out = args.find((a) => a.startsWith("--out="))?.slice(6);',
      'if (out && process.env.FAKE_EXIT !== "64") { mkdirSync(out, { recursive: true }); writeFileSync(`${out}/certificate.json`, "{}"); writeFileSync(`${out}/report.md`, "# fake report\\n"); }',
      "process.exit(Number(process.env.FAKE_EXIT ?? 0));",
    ].join("\n"),
  );

  let runNo = 0;
  const certify = (env: Record<string, string>, exit: number) => {
    const dir = join(tmp, `certify-${++runNo}`);
    mkdirSync(dir);
    for (const f of ["outputs", "summary"]) writeFileSync(join(dir, f), "");
    const r = spawnSync("bash", [join(ROOT, "action", "certify.sh")], {
      cwd: dir,
      encoding: "utf8",
      env: {
        PATH: process.env["PATH"] ?? "",
        HOME: dir,
        SRK_ENTRY: fakeSrk,
        FAKE_EXIT: String(exit),
        FAKE_ARGS: join(dir, "args.json"),
        GITHUB_OUTPUT: join(dir, "outputs"),
        GITHUB_STEP_SUMMARY: join(dir, "summary"),
        ...env,
      },
    });
    const outputs = Object.fromEntries(
      readFileSync(join(dir, "outputs"), "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    const args = existsSync(join(dir, "args.json"))
      ? (JSON.parse(readFileSync(join(dir, "args.json"), "utf8")) as string[])
      : null;
    return {
      status: r.status,
      stdout: r.stdout,
      outputs,
      args,
      summary: readFileSync(join(dir, "summary"), "utf8"),
      dir,
    };
  };
  const impl = { SRK_IMPL: "python3 impl.py" };

  it.each([
    [0, {}, 0, "certified"],
    [1, {}, 1, "violations"],
    [1, { SRK_FAIL_ON_VIOLATIONS: "false" }, 0, "violations"],
    [2, {}, 2, "inconclusive"],
    [2, { SRK_FAIL_ON_INCONCLUSIVE: "false" }, 0, "inconclusive"],
    [64, { SRK_FAIL_ON_VIOLATIONS: "false", SRK_FAIL_ON_INCONCLUSIVE: "false" }, 64, "usage-error"],
    [70, { SRK_FAIL_ON_VIOLATIONS: "false", SRK_FAIL_ON_INCONCLUSIVE: "false" }, 70, "runner-bug"],
    [137, { SRK_FAIL_ON_VIOLATIONS: "false", SRK_FAIL_ON_INCONCLUSIVE: "false" }, 137, "error"],
  ] as const)("srk exit %i with %j: the step exits %i, result %s", (srkExit, env, stepExit, result) => {
    const r = certify({ ...impl, ...env }, srkExit);
    expect(r.status, r.stdout).toBe(stepExit);
    expect(r.outputs["exit-code"]).toBe(String(srkExit));
    expect(r.outputs["result"]).toBe(result);
    if (srkExit === 1 || srkExit === 2) expect(r.stdout).toContain(stepExit === 0 ? "::warning" : "::error");
  });

  it("passes each input as one argument, literally (no word splitting, no command substitution)", () => {
    const r = certify(
      {
        SRK_IMPL: 'python3 "my impl.py" $(touch pwned) `touch pwned2`; touch pwned3',
        SRK_SEED: "7",
        SRK_RUNS: "--fail-fast",
        SRK_TIME_BUDGET: "900",
        SRK_SHARD: "2/4",
        SRK_ONLY: "S-5,AD-3",
        SRK_OUT: "out dir",
        SRK_EXPECTED_FAILURES: "base line.txt",
      },
      0,
    );
    expect(r.status, r.stdout).toBe(0);
    expect(r.args).toEqual([
      "certify",
      '--impl=python3 "my impl.py" $(touch pwned) `touch pwned2`; touch pwned3',
      "--out=out dir",
      "--seed=7",
      "--runs=--fail-fast",
      "--time-budget=900",
      "--shard=2/4",
      "--only=S-5,AD-3",
      "--expected-failures=base line.txt",
    ]);
    for (const f of ["pwned", "pwned2", "pwned3"]) expect(existsSync(join(r.dir, f)), f).toBe(false);
    expect(r.outputs["artifact-name"]).toBe("srk-reports-shard-2-of-4");
    expect(r.outputs["certificate"]).toBe("out dir/certificate.json");
    expect(r.summary).toBe("# fake report\n");
  });

  it("defaults: out srk-reports, srk's own defaults for the rest; artifact-name as given; no job summary when off", () => {
    const r = certify({ ...impl, SRK_ARTIFACT_NAME: "shard-3", SRK_JOB_SUMMARY: "false" }, 0);
    expect(r.args).toEqual(["certify", "--impl=python3 impl.py", "--out=srk-reports"]);
    expect(r.outputs["artifact-name"]).toBe("shard-3");
    expect(r.summary).toBe("");
  });

  it.each([
    ["no impl", {}],
    ["a fail-on-inconclusive that is not a boolean", { ...impl, SRK_FAIL_ON_INCONCLUSIVE: "yes" }],
    ["no srk entry point", { ...impl, SRK_ENTRY: "" }],
  ] as const)("%s: exit 64 without running srk", (_what, env) => {
    const r = certify(env, 0);
    expect(r.status).toBe(64);
    expect(r.args).toBeNull();
    expect(r.outputs["result"]).toBe("usage-error");
    expect(r.outputs["artifact-name"]).toBe("srk-reports");
  });

  // install.sh with npm replaced by a script that logs its arguments and lays out what npm would.
  const fakeBin = join(tmp, "bin");
  mkdirSync(fakeBin);
  writeFileSync(
    join(fakeBin, "npm"),
    [
      "#!/usr/bin/env bash",
      'echo "$PWD $*" >> "$NPM_LOG"',
      'if [[ "$1" == ci ]]; then mkdir -p node_modules && touch node_modules/.package-lock.json; fi',
      'if [[ "$1" == install ]]; then mkdir -p "$3/node_modules/samsara-ripa-kit/bin" && echo "process.exit(0)" > "$3/node_modules/samsara-ripa-kit/bin/srk.mjs"; fi',
    ].join("\n"),
    { mode: 0o755 },
  );
  const installRun = (env: Record<string, string>, srkStarts = true) => {
    const dir = join(tmp, `install-${++runNo}`);
    const actionPath = join(dir, "action-path");
    mkdirSync(join(actionPath, "bin"), { recursive: true });
    writeFileSync(join(actionPath, "package-lock.json"), "{}");
    writeFileSync(join(actionPath, "bin", "srk.mjs"), `process.exit(${srkStarts ? 0 : 3})`);
    writeFileSync(join(dir, "outputs"), "");
    writeFileSync(join(dir, "npm.log"), "");
    const r = spawnSync("bash", [join(ROOT, "action", "install.sh")], {
      cwd: dir,
      encoding: "utf8",
      env: {
        PATH: `${fakeBin}:${process.env["PATH"] ?? ""}`,
        HOME: dir,
        GITHUB_ACTION_PATH: actionPath,
        GITHUB_OUTPUT: join(dir, "outputs"),
        RUNNER_TEMP: dir,
        NPM_LOG: join(dir, "npm.log"),
        ...env,
      },
    });
    return {
      status: r.status,
      stdout: r.stdout,
      actionPath,
      dir,
      outputs: readFileSync(join(dir, "outputs"), "utf8"),
      npm: readFileSync(join(dir, "npm.log"), "utf8")
        .split("\n")
        .filter((l) => l !== ""),
    };
  };

  it("install.sh without kit-version: npm ci in the action's checkout, entry bin/srk.mjs there; an installed checkout is reused", () => {
    const r = installRun({});
    expect(r.status, r.stdout).toBe(0);
    expect(r.npm).toEqual([`${r.actionPath} ci --no-audit --no-fund`]);
    expect(r.outputs).toBe(`entry=${r.actionPath}/bin/srk.mjs\n`);
    // (the fake npm ci left node_modules/.package-lock.json, as npm ci does)
    expect(existsSync(join(r.actionPath, "node_modules", ".package-lock.json"))).toBe(true);
    const again = spawnSync("bash", [join(ROOT, "action", "install.sh")], {
      encoding: "utf8",
      env: {
        PATH: `${fakeBin}:${process.env["PATH"] ?? ""}`,
        GITHUB_ACTION_PATH: r.actionPath,
        NPM_LOG: join(r.dir, "npm2.log"),
      },
    });
    expect(again.status, again.stdout).toBe(0);
    expect(existsSync(join(r.dir, "npm2.log"))).toBe(false);
  });

  it("install.sh with kit-version: npm install samsara-ripa-kit@<spec> into a fresh temporary folder, entry there", () => {
    const r = installRun({ SRK_KIT_VERSION: "0.1.0" });
    expect(r.status, r.stdout).toBe(0);
    expect(r.npm).toHaveLength(1);
    const m = /^(\S+) install --prefix (\S+) --no-save --no-audit --no-fund samsara-ripa-kit@0\.1\.0$/.exec(
      r.npm[0] ?? "",
    );
    expect(m, r.npm[0]).not.toBeNull();
    expect(m?.[2]?.startsWith(join(r.dir, "srk-kit."))).toBe(true);
    expect(r.outputs).toBe(`entry=${m?.[2]}/node_modules/samsara-ripa-kit/bin/srk.mjs\n`);
  });

  it("install.sh fails (64) when the installed srk does not start, and writes no entry", () => {
    const r = installRun({}, false);
    expect(r.status).toBe(64);
    expect(r.stdout).toContain("::error");
    expect(r.outputs).toBe("");
  });
});

describe("the implementer's guide quotes the CI example as it is", () => {
  /** The lines of a YAML text without comments and blank lines, as written (indentation kept). */
  const lines = (yaml: string): string[] =>
    yaml
      .split("\n")
      .map((l) => l.replace(/\s+#.*$/, "").replace(/^\s*#.*$/, ""))
      .filter((l) => l.trim() !== "");
  const quoted = (guide: string): string => {
    const heading = /^## \d+\. `srk certify` in CI$/m.exec(guide);
    if (heading === null) throw new Error('docs/IMPLEMENTING.md has no section "`srk certify` in CI"');
    const m = /```yaml\n([\s\S]*?)```/.exec(guide.slice(heading.index));
    if (m?.[1] === undefined) throw new Error("docs/IMPLEMENTING.md's CI section has no yaml block");
    return m[1];
  };
  it("every line of the CI section's job is a line of docs/ci/certify.yml, in the same order", () => {
    const file = lines(read("docs/ci/certify.yml"));
    let at = 0;
    for (const l of lines(quoted(read("docs/IMPLEMENTING.md")))) {
      const i = file.indexOf(l, at);
      expect(i, `CI section line not in docs/ci/certify.yml (after line ${at}): ${l}`).toBeGreaterThanOrEqual(0);
      at = i + 1;
    }
  });
  it("a quoted line the file does not have is caught", () => {
    const file = lines(read("docs/ci/certify.yml"));
    const broken = lines(
      quoted(read("docs/IMPLEMENTING.md")).replace("impl: python3 impl.py", "impl: python3 other.py"),
    );
    expect(broken.every((l) => file.includes(l))).toBe(false);
  });
});
