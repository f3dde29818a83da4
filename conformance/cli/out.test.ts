/**
 * Where `srk certify` and `srk merge` write, end to end (D-048): `srk` run from a folder outside any
 * project writes `./srk-reports/<implementation>/` there and says so, and nothing inside the kit; an
 * implementation that never answers hello is named from its command line, not `unknown`; an `--out`
 * holding something other than an earlier srk report is refused with exit 64, naming the folder and
 * the file, before anything is written; an earlier report is replaced whole.
 *
 * Each case spawns `node <kit>/bin/srk.mjs` with its own fresh temporary working directory, so the
 * cases run side by side; the implementation is the empty-profile example (no family: a whole
 * certification takes a few seconds).
 */
import { execFile } from "node:child_process";
import {
  cpSync,
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
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Certificate } from "../../spec/certificate.ts";
import { KIT_ROOT } from "../kit-root.ts";
import { REPORTS_DIR } from "../reporters/out-dir.ts";

/** A usage error (the requirement: a foreign --out is refused with exit 64); main.ts runs srk when imported, so not read from there. */
const EXIT_USAGE = 64;

const SRK = join(KIT_ROOT, "bin", "srk.mjs");
const EMPTY = `python3 ${join(KIT_ROOT, "docs", "examples", "empty_profile.py")}`;
/** The name the empty-profile example gives in hello. */
const EMPTY_NAME = "empty-profile-example";
const FAST = ["--runs", "5", "--time-budget", "60"];

const root = mkdtempSync(join(tmpdir(), "srk-out-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
/** A fresh folder outside any project (no package.json in it or above it). */
const freshDir = (label: string): string => {
  const dir = join(root, `${label}-${++n}`);
  mkdirSync(dir);
  return dir;
};

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}
const srk = (cwd: string, ...args: string[]): Promise<Run> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [SRK, ...args],
      { cwd, maxBuffer: 16 * 1024 * 1024, timeout: 110_000 },
      (err, stdout, stderr) => {
        const code =
          err === null ? 0 : typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });

/** Every file and folder under `dir`, relative with `/`, sorted. */
const listing = (dir: string): string[] =>
  (readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split("\\").join("/")).sort();

/** Path, size and modification time of everything under `dir` ("absent" when it does not exist). */
const snapshot = (dir: string): string[] =>
  !existsSync(dir)
    ? ["absent"]
    : listing(dir).map((p) => {
        const s = statSync(join(dir, p));
        return `${p} ${s.isDirectory() ? "dir" : s.size} ${s.mtimeMs}`;
      });

const readCertificate = (file: string): Certificate => JSON.parse(readFileSync(file, "utf8")) as Certificate;

/** What a report folder holds after a run: the certificate, the three reports and the certificate's traces. */
const reportFiles = (c: Certificate): string[] => {
  const traces = c.stages.flatMap((s) => s.findings.flatMap((f) => (f.trace_file === null ? [] : [f.trace_file])));
  const folders = [
    ...new Set(
      traces.flatMap((t) => {
        const parts = t.split("/");
        return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
      }),
    ),
  ];
  return ["certificate.json", "junit.xml", "report.html", "report.md", ...folders, ...traces].sort();
};

const oneLine = (stderr: string): string => {
  const lines = stderr.split("\n").filter((l) => l !== "");
  expect(lines, stderr).toHaveLength(1);
  return lines[0] as string;
};

/** The names this file's runs give their report folders, and the fallbacks srk used or uses without one. */
const RUN_NAMES = [EMPTY_NAME, "srk_out_silent", "python3", "unknown", "implementation", "jobs"];
// Inside the kit, the folders a default --out used to land in (reports/certificates/<name>/) and
// lands in when srk runs from the kit (srk-reports/<name>/), for the names of this file's runs only
// (other engineers' runs may write other names there meanwhile), as they are before any run here.
const KIT_OUT_DIRS = [REPORTS_DIR, join("reports", "certificates")].flatMap((base) =>
  RUN_NAMES.map((name) => join(KIT_ROOT, base, name)),
);
const kitBefore = KIT_OUT_DIRS.map(snapshot);

/** `srk certify` of the empty-profile example from a fresh folder, with the default --out: run once, shared by two cases. */
let outside: Promise<{ cwd: string; r: Run }> | undefined;
const runOutside = (): Promise<{ cwd: string; r: Run }> =>
  (outside ??= (async () => {
    const cwd = freshDir("outside");
    return { cwd, r: await srk(cwd, "certify", "--impl", EMPTY, ...FAST) };
  })());

describe.concurrent("srk certify and srk merge: where reports go", { timeout: 150_000 }, () => {
  it("run outside any project: ./srk-reports/<name from hello>/ under the working directory, and the summary says where", async ({
    expect,
  }) => {
    const { cwd, r } = await runOutside();
    for (let d = cwd; ; d = dirname(d)) {
      expect(existsSync(join(d, "package.json")), d).toBe(false);
      if (dirname(d) === d) break;
    }
    const rel = join(REPORTS_DIR, EMPTY_NAME, "certificate.json");
    const c = readCertificate(join(cwd, rel));
    expect(c.implementation.name).toBe(EMPTY_NAME);
    expect(r.code, r.stderr).toBe(c.exit_code);
    const [result, where] = r.stdout.trimEnd().split("\n").slice(-2);
    expect(result).toMatch(new RegExp(`^result: ${c.result} \\(exit ${c.exit_code}\\): `));
    expect(where).toBe(`certificate: ${rel}`);
    expect(listing(cwd)).toEqual(
      [
        "srk-reports",
        `srk-reports/${EMPTY_NAME}`,
        ...reportFiles(c).map((f) => `srk-reports/${EMPTY_NAME}/${f}`),
      ].sort(),
    );
  });

  it("an implementation that never answers hello: the folder is named from its command line, not unknown", async ({
    expect,
  }) => {
    const cwd = freshDir("no-hello");
    const script = join(cwd, "srk_out_silent.py");
    writeFileSync(script, "import sys\nsys.exit(3)\n");
    const [exits, sleeps] = await Promise.all([
      // A script that exits at once: the script names it.
      srk(cwd, "certify", "--impl", `python3 ${script}`, ...FAST, "--startup-timeout", "1500"),
      // Program text that never answers: no script, so the interpreter names it (the text does not).
      srk(cwd, "certify", "--impl", 'python3 -c "import time; time.sleep(60)"', ...FAST, "--startup-timeout", "1500"),
    ]);
    for (const [r, name] of [
      [exits, "srk_out_silent"],
      [sleeps, "python3"],
    ] as const) {
      const rel = join("srk-reports", name, "certificate.json");
      expect(existsSync(join(cwd, rel)), `${name}: ${r.stdout}${r.stderr}`).toBe(true);
      const c = readCertificate(join(cwd, rel));
      expect(c.implementation.name).toBeNull();
      expect(c.stages.map((s) => [s.stage, s.verdict])).toEqual([["handshake", "inconclusive"]]);
      expect(r.code).toBe(c.exit_code);
      expect(r.stdout).toContain(`certificate: ${rel}`);
    }
    expect(readdirSync(join(cwd, "srk-reports")).sort()).toEqual(["python3", "srk_out_silent"]);
    expect(
      listing(cwd)
        .filter((p) => !p.startsWith("srk-reports/"))
        .sort(),
    ).toEqual(["srk-reports", "srk_out_silent.py"]);
  });

  it("--out a folder with a foreign file: exit 64, one line naming the folder and the file, nothing touched or written", async ({
    expect,
  }) => {
    const cwd = freshDir("foreign");
    const out = join(cwd, "mine");
    mkdirSync(out);
    writeFileSync(join(out, "notes.txt"), "my notes\n");
    // Beside it, a folder that looks like a report but has a foreign file, given as the default name.
    const named = join(cwd, "srk-reports", EMPTY_NAME);
    mkdirSync(join(named, "traces"), { recursive: true });
    writeFileSync(join(named, "certificate.json"), JSON.stringify({ certificate_version: 1 }));
    writeFileSync(join(named, "todo.md"), "mine\n");
    const before = snapshot(cwd);
    const [given, jobs, byHello] = await Promise.all([
      srk(cwd, "certify", "--impl", EMPTY, ...FAST, "--out", out),
      srk(cwd, "certify", "--impl", EMPTY, ...FAST, "--jobs", "2", "--out", out),
      // No --out: the folder is named from hello, and checked once hello is in.
      srk(cwd, "certify", "--impl", EMPTY, ...FAST),
    ]);
    for (const [r, dir, file] of [
      [given, out, "notes.txt"],
      [jobs, out, "notes.txt"],
      [byHello, join("srk-reports", EMPTY_NAME), "todo.md"],
    ] as const) {
      expect(r.code, r.stderr).toBe(EXIT_USAGE);
      const line = oneLine(
        r.stderr
          .split("\n")
          .filter((l) => !/^srk: stage |^srk: handshake: /.test(l))
          .join("\n"),
      );
      expect(line).toMatch(/^srk: --out /);
      expect(line).toContain(dir);
      expect(line).toContain(`"${file}"`);
      expect(r.stdout).toBe("");
    }
    // The folder given by name is refused before anything runs: the one line is all of stderr.
    oneLine(given.stderr);
    oneLine(jobs.stderr);
    expect(readFileSync(join(out, "notes.txt"), "utf8")).toBe("my notes\n");
    expect(snapshot(cwd)).toEqual(before);
  });

  it("--out an earlier srk report: accepted, the old report replaced whole", async ({ expect }) => {
    // The earlier report is the one the first case wrote, copied.
    const first = await runOutside();
    const cwd = freshDir("again");
    const out = join(cwd, "report");
    cpSync(join(first.cwd, REPORTS_DIR, EMPTY_NAME), out, { recursive: true });
    const old = readCertificate(join(out, "certificate.json"));
    // What an older run with a counterexample left: a trace, and leftovers of an interrupted write.
    mkdirSync(join(out, "traces"), { recursive: true });
    writeFileSync(join(out, "traces", "golden-S-4-1.json"), "{}");
    writeFileSync(join(out, "certificate.json.999.tmp"), "{");
    const again = await srk(cwd, "certify", "--impl", EMPTY, ...FAST, "--seed", "7", "--out", out);
    const c = readCertificate(join(out, "certificate.json"));
    expect(again.code, again.stderr).toBe(c.exit_code);
    expect(c.settings.seed).toBe(7);
    expect(c.started_at).not.toBe(old.started_at);
    expect(existsSync(join(out, "traces", "golden-S-4-1.json"))).toBe(false);
    expect(listing(out)).toEqual(reportFiles(c));
    expect(again.stdout).toContain(`certificate: ${join(out, "certificate.json")}`);
  });

  it("srk merge --out a folder with a foreign file: exit 64, nothing touched; a new folder: merged", async ({
    expect,
  }) => {
    const cwd = freshDir("merge");
    const shards = await Promise.all(
      [1, 2].map((i) =>
        srk(cwd, "certify", "--impl", EMPTY, ...FAST, "--shard", `${i}/2`, "--out", join(cwd, `shard-${i}`)),
      ),
    );
    const inputs = [1, 2].map((i) => join(cwd, `shard-${i}`, "certificate.json"));
    for (const [k, r] of shards.entries())
      expect(r.code, r.stderr).toBe(readCertificate(inputs[k] as string).exit_code);
    const foreign = join(cwd, "merged-here");
    mkdirSync(foreign);
    writeFileSync(join(foreign, "notes.txt"), "my notes\n");
    const before = snapshot(cwd);
    const [refused, merged] = await Promise.all([
      srk(cwd, "merge", ...inputs, "--out", foreign),
      srk(cwd, "merge", ...inputs, "--out", join(cwd, "merged")),
    ]);
    expect(refused.code, refused.stderr).toBe(EXIT_USAGE);
    const line = oneLine(refused.stderr);
    expect(line).toContain(`--out ${foreign}`);
    expect(line).toContain('"notes.txt"');
    expect(refused.stdout).toBe("");
    expect(readFileSync(join(foreign, "notes.txt"), "utf8")).toBe("my notes\n");
    const c = readCertificate(join(cwd, "merged", "certificate.json"));
    expect(c.shards).toEqual({ count: 2, indices: [1, 2] });
    expect(merged.code, merged.stderr).toBe(c.exit_code);
    expect(snapshot(cwd).filter((l) => !/^merged[ /]/.test(l))).toEqual(before);
  });
});

describe("nothing is written inside the kit", () => {
  it("srk-reports/<name>/ and reports/certificates/<name>/ of the kit, for the names of these runs, are as they were before", () => {
    expect(KIT_OUT_DIRS.map(snapshot)).toEqual(kitBefore);
  });
});
