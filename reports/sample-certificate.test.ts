/**
 * The committed sample certificate of the bundled implementation (docs/examples/certificate/,
 * written by `npm run docs:sample`) is current. No certification runs here: each thing the sample
 * is made from is checked directly, in well under a minute.
 *
 * (a) Its reports (report.md, report.html, junit.xml) are byte for byte what the current reporters
 *     render from its certificate.json: they are pure functions of it (and of its traces; the
 *     diagrams are drawn by a deterministic Graphviz, nothing records the time of rendering).
 * (b) Its `kit.spec_digest` is the current spec's (conformance/certificate/spec-digest.ts): the
 *     normative files (the spec's Markdown, tables, JSON Schemas, vectors, wire protocol).
 * (c) It was made from the current inputs: inputs.json, beside it, holds the SHA-256 of each, and
 *     they are computed again (conformance/evidence/inputs.ts, INPUT_SETS["sample-certificate"]). The inputs are what can change the
 *     certificate's verdicts, witnesses, checks and coverage:
 *     - the implementation's modules (impl/main.ts and every module it imports): it gives the replies;
 *     - the runner's modules (conformance/certify.ts and every module it imports, which takes in the
 *       stages, the oracle, the golden-session list and scripts, the model, the generators under
 *       properties/ and the spec's schemas): it decides what is sent, what is expected and how
 *       verdicts are counted. Its reporters are left out (they are checked exactly by (a)), and so
 *       are the output folder and progress modules (they never reach the certificate);
 *     - the golden transcripts conformance/golden/*.jsonl, read at run time;
 *     - the installed version of each package those modules import (fast-check draws the
 *       generated runs, better-sqlite3 stores the implementation's data).
 *     `import type` (erased), tests, scripts and docs are not inputs. So any change to the runner or to
 *     the implementation fails this test until the sample is written again in the same commit:
 *     that is the point, since the committed sample must be what the committed kit produces.
 * (d) Its golden stage ran every golden transcript that exists now (the count in the stage's
 *     reason), which (c) implies; checked apart because its message is plain.
 * Also: it is the certificate the invariant pages cite (reports/evidence.ts), made with the
 * defaults of `srk certify` (seed, runs, time budget, request timeout) by the kit's own name and
 * version, and the implementer's guide quotes its S-5 entry as it is.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Certificate } from "../spec/certificate.ts";
import { specDigest } from "../conformance/certificate/spec-digest.ts";
import { DEFAULTS } from "../conformance/cli/defaults.ts";
import { SRK_ENTRIES } from "../conformance/reporters/out-dir.ts";
import { BUNDLED_CERTIFICATE } from "./evidence.ts";
import { REPO_ROOT } from "./paths.ts";
import { currentInputs, staleInputs } from "../conformance/evidence/inputs.ts";
import {
  readSampleRecord,
  REGENERATE,
  renderSampleReports,
  SAMPLE_ARTIFACT,
  SAMPLE_CERTIFICATE,
  SAMPLE_DIR,
  SAMPLE_IMPL,
  SAMPLE_INPUTS,
} from "./sample-inputs.ts";

const certificate = JSON.parse(readFileSync(join(REPO_ROOT, SAMPLE_CERTIFICATE), "utf8")) as Certificate;
const stale = (what: string): string =>
  `${SAMPLE_DIR}/ is stale (${what}): run ${REGENERATE} and commit the sample with the change`;

describe(`the sample certificate (${SAMPLE_DIR}/) is current`, () => {
  it("is the certificate the invariant pages cite, of the bundled implementation, made with the srk certify defaults", () => {
    expect(BUNDLED_CERTIFICATE).toBe(SAMPLE_CERTIFICATE);
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { name: string; version: string };
    expect(
      { kit: [certificate.kit.name, certificate.kit.version], impl: certificate.implementation.command_line },
      stale("another kit version or command line"),
    ).toEqual({ kit: [pkg.name, pkg.version], impl: SAMPLE_IMPL });
    const s = certificate.settings;
    expect(
      {
        seed: s.seed,
        runs: s.runs,
        time_budget_ms: s.time_budget_ms,
        request_timeout_ms: s.request_timeout_ms,
        only: s.only,
      },
      stale("the defaults of srk certify changed"),
    ).toEqual({
      seed: DEFAULTS.seed,
      runs: DEFAULTS.runs,
      time_budget_ms: DEFAULTS.timeBudgetSeconds * 1000,
      request_timeout_ms: DEFAULTS.requestTimeoutMs,
      only: [],
    });
    expect(certificate.result).toBe("certified");
    const foreign = readdirSync(join(REPO_ROOT, SAMPLE_DIR)).filter((e) => !SRK_ENTRIES.has(e) && e !== "inputs.json");
    expect(foreign, `${SAMPLE_DIR}/ holds only what ${REGENERATE} writes`).toEqual([]);
  });

  it("(a) its reports are byte for byte what the current reporters render from its certificate.json", async () => {
    const rendered = await renderSampleReports(certificate);
    for (const [file, text] of Object.entries(rendered)) {
      const committed = readFileSync(join(REPO_ROOT, SAMPLE_DIR, file), "utf8");
      // Not toBe: a diff of two 40 kB pages is no help; the message says what to do.
      expect(
        committed === text,
        `${SAMPLE_DIR}/${file} differs from what the reporters render from certificate.json: run npx tsx reports/sample-certificate.ts --reports-only (or ${REGENERATE})`,
      ).toBe(true);
    }
  });

  it("(b) it was issued against the current spec (kit.spec_digest)", () => {
    expect(certificate.kit.spec_digest, stale("the spec's normative files changed since it was certified")).toBe(
      specDigest(),
    );
  });

  it("(c) it was made from the current inputs (inputs.json: the runner's and the implementation's modules, the golden transcripts, package versions)", () => {
    const record = readSampleRecord();
    expect(record, `${SAMPLE_INPUTS} is missing: run ${REGENERATE}`).not.toBeNull();
    if (record === null) return;
    expect(record.settings, stale("inputs.json records other settings")).toEqual({
      impl: SAMPLE_IMPL,
      seed: DEFAULTS.seed,
      runs: DEFAULTS.runs,
      time_budget_seconds: DEFAULTS.timeBudgetSeconds,
    });
    expect(staleInputs(SAMPLE_ARTIFACT, record)).toBeNull();
  });

  it("(d) its golden stage ran every golden transcript there is now", () => {
    const transcripts = readdirSync(join(REPO_ROOT, "conformance/golden")).filter((f) => f.endsWith(".jsonl"));
    const golden = certificate.stages.find((s) => s.stage === "golden");
    const ran = Number(/^(\d+) golden session\(s\)/.exec(golden?.reason ?? "")?.[1] ?? NaN);
    expect(
      ran,
      stale(
        `its golden stage says "${golden?.reason ?? "no golden stage"}", there are ${transcripts.length} transcripts`,
      ),
    ).toBe(transcripts.length);
  });

  it("is quoted as it is by the implementer's guide (its S-5 entry)", () => {
    const guide = readFileSync(join(REPO_ROOT, "docs/IMPLEMENTING.md"), "utf8");
    const block = /For example S-5 in the sample:\n\n\s*```json\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(block, "docs/IMPLEMENTING.md quotes the sample's S-5 entry").toBeDefined();
    expect(
      JSON.parse(block ?? "null"),
      `docs/IMPLEMENTING.md ("Reading a certificate") quotes another S-5 entry than ${SAMPLE_CERTIFICATE}'s: copy it from there`,
    ).toEqual(certificate.invariants.find((i) => i.invariant === "S-5"));
  });
});

describe("the inputs of the sample (conformance/evidence/inputs.ts)", () => {
  const now = currentInputs(SAMPLE_ARTIFACT);
  it("are the modules the certification runs, the golden transcripts and the packages they import; not tests, reporters or scripts", () => {
    const files = Object.keys(now.file_digests);
    for (const f of [
      "conformance/certify.ts",
      "conformance/stages/differential.ts",
      "conformance/golden/session.ts",
      "impl/main.ts",
      "impl/durable/storage.ts",
      "model/step.ts",
      "properties/generators/commands.ts",
      "spec/schemas/commands.ts",
      "conformance/golden/session-1.jsonl",
      "conformance/golden/wire-session.jsonl",
    ]) {
      expect(files, f).toContain(f);
    }
    expect(
      files.filter(
        (f) =>
          f.endsWith(".test.ts") ||
          f.startsWith("reports/") ||
          f.startsWith("conformance/reporters/") ||
          f.startsWith("conformance/cli/main"),
      ),
    ).toEqual([]);
    expect(Object.keys(now.packages)).toEqual(expect.arrayContaining(["better-sqlite3", "fast-check", "zod"]));
  });
});
