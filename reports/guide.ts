/**
 * The implementer's guide, docs/IMPLEMENTING.md, rendered from its source
 * (docs/guide/IMPLEMENTING.src.md) so that every number and every sample output in it comes from
 * the kit itself (issue 20, point 2):
 *
 * - `{{count:NAME}}`: a figure computed at render time from the spec and the runner (COUNTS below);
 * - `{{certifies:janma,advaita}}`: the invariants D-049 says that profile certifies;
 * - `{{profiles}}`: the table of every profile and what it certifies;
 * - `{{run:ID}}`: what `srk` printed when the step's command ran (docs/guide/runs.json);
 * - `{{sample:ID}}`: invariant ID's entry in the committed sample certificate
 *   (docs/examples/certificate/certificate.json, rewritten by npm run docs:sample).
 *
 *   npx tsx reports/guide.ts          render docs/IMPLEMENTING.md from the source and runs.json
 *   npx tsx reports/guide.ts --run    run every step's command again first (a few minutes), then render
 *
 * runs.json records the inputs it was made from (conformance/evidence/inputs.ts, artifact "guide"), and
 * reports/guide.test.ts fails when the rendered guide differs from the committed one or when an
 * input of the runs has changed since they were recorded: then run this script with --run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { INVARIANTS } from "../spec/catalog.ts";
import { ALL_PROFILES, certifiedBy, isCertifiable, type Family } from "../spec/profiles.ts";
import { GOLDEN_SESSIONS } from "../conformance/golden/session.ts";
import { readWireSession, WIRE_SESSION_PATH } from "../conformance/golden/wire-session.ts";
import { buildCatalog } from "../conformance/stages/wire-catalog.ts";
import { inputsOf, type Inputs } from "../conformance/evidence/inputs.ts";
import { REPO_ROOT } from "./paths.ts";

export const GUIDE = "docs/IMPLEMENTING.md";
export const GUIDE_SOURCE = "docs/guide/IMPLEMENTING.src.md";
export const GUIDE_RUNS = "docs/guide/runs.json";
const SAMPLE = "docs/examples/certificate/certificate.json";

/** One command the guide shows with its output: run from the kit's root, as a reader would. */
export interface GuideStep {
  readonly id: string;
  /** What the reader types (after `npx srk`). */
  readonly shown: string;
  /** The srk arguments actually run (the same, with the runner's own entry point). */
  readonly args: readonly string[];
}

const py = (example: string): string => `python3 adapters/python/examples/${example}`;
const kitAs = (families: readonly Family[]): string =>
  `node --import tsx impl/main.ts --families=${families.join(",")}`;

export const STEPS: readonly GuideStep[] = [
  { id: "empty-golden", shown: `golden --impl "${py("empty.py")}"`, args: ["golden", "--impl", py("empty.py")] },
  { id: "empty-certify", shown: `certify --impl "${py("empty.py")}"`, args: ["certify", "--impl", py("empty.py")] },
  {
    id: "advaita-certify",
    shown: `certify --impl "${py("advaita.py")}"`,
    args: ["certify", "--impl", py("advaita.py")],
  },
  { id: "janma-certify", shown: `certify --impl "${py("janma.py")}"`, args: ["certify", "--impl", py("janma.py")] },
  {
    id: "samskara-certify",
    shown: `certify --impl "${py("samskara.py")}"`,
    args: ["certify", "--impl", py("samskara.py")],
  },
  {
    id: "full-certify",
    shown: `certify --impl "${kitAs(["janma", "samskara", "advaita", "ripa"])}"`,
    args: ["certify", "--impl", kitAs(["janma", "samskara", "advaita", "ripa"])],
  },
];

export interface RecordedRun {
  readonly id: string;
  readonly command: string;
  readonly exit_code: number;
  readonly stdout: string;
}

export interface GuideRuns {
  readonly generated_by: string;
  readonly inputs: Inputs;
  readonly runs: readonly RecordedRun[];
}

/** The figures the guide quotes, each computed from what it counts. */
export const COUNTS = (): Readonly<Record<string, number>> => {
  const rules = (
    JSON.parse(readFileSync(join(REPO_ROOT, "spec/json-schema/rules.json"), "utf8")) as { rules: unknown[] }
  ).rules.length;
  const wire = readWireSession(readFileSync(join(REPO_ROOT, WIRE_SESSION_PATH), "utf8"));
  return {
    invariants: INVARIANTS.length,
    "golden-sessions": GOLDEN_SESSIONS.length,
    "wire-session-lines": wire.length,
    "hostile-lines": buildCatalog().length,
    "cross-field-rules": rules,
    "certifiable-profiles": ALL_PROFILES.filter(isCertifiable).length,
  };
};

const familiesOf = (text: string): Family[] =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "") as Family[];

const profilesTable = (): string => {
  const lines = ["| profile (`families`) | certifies | not applicable: what it would need |", "|---|---|---|"];
  for (const p of ALL_PROFILES) {
    const yes = certifiedBy(p);
    const missing = INVARIANTS.filter((i) => p.includes(i.protocol) && !yes.includes(i.id)).map((i) => i.id);
    lines.push(
      `| ${p.join(", ")} | ${yes.length === 0 ? "nothing (D-036: inconclusive)" : yes.join(", ")} | ${missing.length === 0 ? "—" : missing.join(", ")} |`,
    );
  }
  return lines.join("\n");
};

/** srk's output as the guide shows it: the command, then what it printed. */
const runBlock = (r: RecordedRun): string =>
  `\`\`\`sh\nnpx srk ${r.command}\n\`\`\`\n\n\`\`\`text\n${r.stdout.trimEnd()}\n\`\`\`\n\n(exit code ${r.exit_code})`;

const PLACEHOLDER = /^\{\{([a-z-]+)(?::([^}]*))?\}\}$/;

/** The text of one placeholder; throws naming any it cannot fill. */
const fillWith =
  (counts: Readonly<Record<string, number>>, runs: GuideRuns | null) =>
  (whole: string): string => {
    const [, kind = "", arg] = PLACEHOLDER.exec(whole) ?? [];
    switch (kind) {
      case "count": {
        const n = counts[arg ?? ""];
        if (n === undefined)
          throw new Error(`${GUIDE_SOURCE}: unknown count ${whole}; known: ${Object.keys(counts).join(", ")}`);
        return String(n);
      }
      case "certifies": {
        const ids = certifiedBy(familiesOf(arg ?? ""));
        return ids.length === 0 ? "nothing" : ids.join(", ");
      }
      case "profiles":
        return profilesTable();
      case "sample": {
        const cert = JSON.parse(readFileSync(join(REPO_ROOT, SAMPLE), "utf8")) as {
          invariants: { invariant: string }[];
        };
        const entry = cert.invariants.find((i) => i.invariant === arg);
        if (entry === undefined) throw new Error(`${GUIDE_SOURCE}: ${whole}: no invariant ${arg ?? ""} in ${SAMPLE}`);
        return JSON.stringify(entry, null, 2);
      }
      case "run": {
        const r = runs?.runs.find((x) => x.id === arg);
        if (r === undefined)
          throw new Error(
            `${GUIDE_SOURCE}: no recorded run ${arg ?? ""} in ${GUIDE_RUNS}; run npx tsx reports/guide.ts --run`,
          );
        return runBlock(r);
      }
      default:
        throw new Error(`${GUIDE_SOURCE}: unknown placeholder ${whole}`);
    }
  };

/** Renders the guide from its source. */
export const renderGuide = (source: string, runs: GuideRuns | null): string => {
  const fill = fillWith(COUNTS(), runs);
  // A sample entry keeps the indentation of its line (it sits in a list item's code block).
  const indented = source.replace(/^([ \t]*)(\{\{sample:[^}]*\}\})$/gm, (_, ind: string, ph: string) =>
    fill(ph)
      .split("\n")
      .map((l) => `${ind}${l}`)
      .join("\n"),
  );
  const out = indented.replace(/\{\{[a-z-]+(?::[^}]*)?\}\}/g, fill);
  return `<!-- Generated by npx tsx reports/guide.ts from ${GUIDE_SOURCE} and ${GUIDE_RUNS}; edit the source, not this file. -->\n${out}`;
};

/** What srk prints, with what differs between runs of the same step (wall-clock times) left as it was. */
const runStep = (s: GuideStep): RecordedRun => {
  // From the kit's root, like the reader: the reports go to srk-reports/<name>/, which git ignores.
  const r = spawnSync(process.execPath, ["--import", "tsx", "conformance/cli/main.ts", ...s.args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (r.error !== undefined) throw r.error;
  return { id: s.id, command: s.shown, exit_code: r.status ?? -1, stdout: r.stdout };
};

const readRuns = (): GuideRuns | null =>
  existsSync(join(REPO_ROOT, GUIDE_RUNS))
    ? (JSON.parse(readFileSync(join(REPO_ROOT, GUIDE_RUNS), "utf8")) as GuideRuns)
    : null;

const main = (argv: readonly string[]): void => {
  let runs = readRuns();
  if (argv.includes("--run")) {
    const inputs = inputsOf("guide");
    const recorded: RecordedRun[] = [];
    for (const s of STEPS) {
      process.stderr.write(`guide: npx srk ${s.shown}\n`);
      recorded.push(runStep(s));
    }
    if (inputsOf("guide").digest !== inputs.digest)
      throw new Error("guide: an input changed while the steps ran; run again on a quiet tree");
    runs = { generated_by: "npx tsx reports/guide.ts --run; do not edit", inputs, runs: recorded };
    writeFileSync(join(REPO_ROOT, GUIDE_RUNS), `${JSON.stringify(runs, null, 2)}\n`);
  }
  writeFileSync(join(REPO_ROOT, GUIDE), renderGuide(readFileSync(join(REPO_ROOT, GUIDE_SOURCE), "utf8"), runs));
  process.stderr.write(`guide: wrote ${GUIDE}\n`);
};

if (import.meta.url === `file://${process.argv[1] ?? ""}`) main(process.argv.slice(2));
