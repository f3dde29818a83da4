/**
 * The certificate `srk certify` writes is a first-class spec object (spec/registry.ts): a real,
 * small certification of the kit's own implementation writes a `certificate.json` that both the
 * zod schema and an independent JSON Schema validator (Ajv, draft 2020-12, against the exported
 * `spec/json-schema/Certificate.schema.json`) accept; it names the digest of the spec it was
 * issued against, which changes with any normative byte; and the same seed gives the same verdicts
 * and witness counts twice.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { Certificate, PortableTrace, type StageName } from "../../spec/certificate.ts";
import { JSON_SCHEMA_DIR } from "../../spec/render.ts";
import { certify, type CertifyResult } from "../certify.ts";
import { REPO_ROOT } from "../transport/local.ts";
import { NORMATIVE_ROOTS, specDigest, specFiles } from "./spec-digest.ts";

/** Three small certifications on a loaded machine: generous, but bounded. */
const TIMEOUT_MS = 300_000;

const tmp = mkdtempSync(join(tmpdir(), "srk-certificate-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = async (name: string, stages: readonly StageName[]): Promise<CertifyResult> =>
  certify({
    commandLine: `${process.execPath} --import tsx impl/main.ts`,
    cwd: REPO_ROOT,
    outDir: join(tmp, name),
    seed: 1,
    runs: 5,
    timeBudgetMs: 120_000,
    requestTimeoutMs: 15_000,
    startupTimeoutMs: 30_000,
    only: [],
    stages,
  });

/** The exported JSON Schema of a registered object, compiled as spec/json-schema.test.ts does. */
const ajvValidator = (name: string) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const schema = JSON.parse(readFileSync(join(REPO_ROOT, JSON_SCHEMA_DIR, `${name}.schema.json`), "utf8")) as Record<
    string,
    unknown
  >;
  const { examples: _examples, ...bare } = schema;
  return ajv.compile(bare);
};

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

describe("certificate.json of a real certification", () => {
  let golden: CertifyResult | undefined;
  const goldenRun = async (): Promise<CertifyResult> =>
    (golden ??= await run("golden-differential", ["golden", "differential"]));

  it(
    "validates with the zod schema and with Ajv against the exported JSON Schema",
    async () => {
      const result = await goldenRun();
      expect(result.certificatePath).toBe(join(tmp, "golden-differential", "certificate.json"));
      const written = readJson(result.certificatePath);

      const parsed = Certificate.safeParse(written);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      const validate = ajvValidator("Certificate");
      expect(validate(written), JSON.stringify(validate.errors)).toBe(true);

      const cert = parsed.data as Certificate;
      // The runner checks the certificate against its schema before writing; a mismatch would be a harness fault.
      expect(cert.harness_faults).toEqual([]);
      expect(cert.settings.stages).toEqual(["golden", "differential"]);
      expect(cert.stages.map((s) => s.stage)).toEqual(["golden", "differential"]);
      expect(cert.invariants).toHaveLength(19);
      // A real run, not a vacuous one: something was exercised and passed.
      expect(cert.invariants.some((i) => i.verdict === "pass" && i.witnesses.accepted + i.witnesses.rejected > 0)).toBe(
        true,
      );
      expect(cert.stages.every((s) => s.checks > 0)).toBe(true);

      // Any portable trace written next to it is a valid PortableTrace for both validators too.
      const validateTrace = ajvValidator("PortableTrace");
      for (const file of result.traceFiles) {
        const trace = readJson(file);
        expect(PortableTrace.safeParse(trace).success, file).toBe(true);
        expect(validateTrace(trace), `${file}: ${JSON.stringify(validateTrace.errors)}`).toBe(true);
      }
    },
    TIMEOUT_MS,
  );

  it(
    "names the digest of the spec it was issued against",
    async () => {
      const cert = Certificate.parse(readJson((await goldenRun()).certificatePath));
      expect(cert.kit.spec_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(cert.kit.spec_digest).toBe(specDigest());
    },
    TIMEOUT_MS,
  );

  it(
    "the exported JSON Schema rejects what zod rejects in a written certificate",
    async () => {
      const written = readJson((await goldenRun()).certificatePath) as Record<string, unknown>;
      const validate = ajvValidator("Certificate");
      const broken = [
        { ...written, exit_code: 3 },
        { ...written, invariants: (written["invariants"] as unknown[]).slice(1) },
        { ...written, unexpected: true },
      ];
      for (const b of broken) {
        expect(Certificate.safeParse(b).success).toBe(false);
        expect(validate(b)).toBe(false);
      }
    },
    TIMEOUT_MS,
  );
});

describe("spec digest", () => {
  it("changes when one byte of a normative file changes, and only then (computed over a copy)", () => {
    const root = mkdtempSync(join(tmp, "spec-copy-"));
    for (const r of NORMATIVE_ROOTS) {
      mkdirSync(dirname(join(root, r)), { recursive: true });
      cpSync(join(REPO_ROOT, r), join(root, r), { recursive: true });
    }
    const original = specDigest(root);
    expect(specFiles(root)).toEqual(specFiles());
    expect(original).toBe(specDigest());

    // A non-normative file next to the normative ones does not count.
    writeFileSync(join(root, "spec/README.md"), "informative\n");
    expect(specDigest(root)).toBe(original);

    // One byte of a normative file does: a Markdown clause and the exported Certificate schema.
    for (const file of ["spec/INVARIANTS.md", `${JSON_SCHEMA_DIR}/Certificate.schema.json`]) {
      const path = join(root, file);
      const bytes = readFileSync(path);
      const changed = Buffer.from(bytes);
      changed[changed.length - 2] = (changed[changed.length - 2] ?? 0) ^ 1;
      writeFileSync(path, changed);
      const digest = specDigest(root);
      expect(digest, file).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(digest, file).not.toBe(original);
      writeFileSync(path, bytes);
      expect(specDigest(root), file).toBe(original);
    }
  });
});

describe("determinism", () => {
  /** What must not depend on the run: verdicts, witnesses and checks (not durations or timestamps). */
  const decided = (c: Certificate) => ({
    invariants: c.invariants.map((i) => ({
      invariant: i.invariant,
      verdict: i.verdict,
      witnesses: i.witnesses,
      counterexamples: i.counterexamples.length,
    })),
    stages: c.stages.map((s) => ({
      stage: s.stage,
      verdict: s.verdict,
      checks: s.checks,
      findings: s.findings.length,
    })),
    result: c.result,
    exit_code: c.exit_code,
  });

  it(
    "the same seed gives the same verdicts, witness counts and checks twice",
    async () => {
      const first = await run("seed-1-a", ["differential"]);
      const second = await run("seed-1-b", ["differential"]);
      const a = decided(Certificate.parse(readJson(first.certificatePath)));
      const b = decided(Certificate.parse(readJson(second.certificatePath)));
      expect(a.stages).toEqual([expect.objectContaining({ stage: "differential", checks: 5 })]);
      expect(b).toEqual(a);
    },
    TIMEOUT_MS,
  );
});
