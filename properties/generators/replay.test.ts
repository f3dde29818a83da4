/**
 * The failure report of `assertReplayable` is actionable: the shrunk counterexample's own error,
 * the replay command, the counterexample as the caller renders it, all within MESSAGE_CAP; and
 * `renderCommands` shows command sequences as the spec commands sent.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { choicesArb } from "./commands.ts";
import { commandsRenderer, failingStep, renderCommands } from "./render.ts";
import { assertReplayable, clip, MESSAGE_CAP, withProgress } from "./replay.ts";

const FILE = "properties/generators/replay.test.ts";

// The deliberately failing properties below must not pick up a seed, path or campaign size meant
// for another property (e.g. `FC_SEED=… npm run fuzz`).
const ENV = ["FC_SEED", "FC_PATH", "FC_RUNS", "FUZZ_RUNS", "FC_NO_SHRINK"] as const;
const saved = new Map<string, string | undefined>();
beforeEach(() => {
  ENV.forEach((k) => {
    saved.set(k, process.env[k]);
    delete process.env[k];
  });
  // The expected failures print their replay line; keep the test output quiet.
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  ENV.forEach((k) => {
    const v = saved.get(k);
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  });
  vi.restoreAllMocks();
});

const failureOf = (f: () => void): string => {
  try {
    f();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error("expected a failure");
};

const tooBig = () =>
  fc.property(fc.nat(), (n) => {
    if (n > 10) throw new Error(`n too big: ${n}`);
  });

describe("assertReplayable failure report", () => {
  it("carries the original error of the shrunk counterexample, the replay line, and stays bounded", () => {
    const msg = failureOf(() => assertReplayable(FILE, tooBig(), 100));
    expect(msg).toContain("n too big: 11");
    expect(msg).toMatch(
      /FC_SEED=-?\d+ FC_PATH=[\d:]+ npx vitest run properties\/generators\/replay\.test\.ts -t "carries the original error/,
    );
    expect(msg).toContain("Counterexample (shrunk):\n[11]");
    // Not fast-check's list of every failure met while shrinking.
    expect(msg).not.toContain("Encountered failures");
    expect(msg.length).toBeLessThanOrEqual(MESSAGE_CAP);
  });

  it("shows the counterexample through the caller's renderer, and cuts a huge rendering with a note", () => {
    const msg = failureOf(() =>
      assertReplayable(FILE, tooBig(), 100, ([n]) => `rendered: ${n}\n${"x".repeat(80)}\n`.repeat(2_000)),
    );
    expect(msg).toContain("n too big: 11");
    expect(msg).toContain("rendered: 11");
    expect(msg).toMatch(/more characters \(\d+ lines\) of the counterexample cut/);
    expect(msg.length).toBeLessThanOrEqual(MESSAGE_CAP);
  });

  it("a renderer that throws does not hide the failure", () => {
    const msg = failureOf(() =>
      assertReplayable(FILE, tooBig(), 100, () => {
        throw new Error("boom");
      }),
    );
    expect(msg).toContain("n too big: 11");
    expect(msg).toContain("renderer failed: boom");
  });

  it("FC_NO_SHRINK=1 stops at the first failure unshrunk (mutation runs), and only when set", () => {
    // Seeded so that the first failing value is far above 11: shrinking would bring it down to 11.
    process.env["FC_SEED"] = "5";
    const shrunk = failureOf(() => assertReplayable(FILE, tooBig(), 100));
    expect(shrunk).toMatch(/shrunk [1-9]\d* time/);
    process.env["FC_NO_SHRINK"] = "1";
    const unshrunk = failureOf(() => assertReplayable(FILE, tooBig(), 100));
    expect(unshrunk).toContain("shrunk 0 time(s)");
    expect(unshrunk).not.toContain("n too big: 11\n");
  });

  it("clip leaves short text alone", () => {
    expect(clip("abc", 10, "x")).toBe("abc");
  });
});

describe("progress for long campaigns", () => {
  it("writes N/M runs and elapsed time, throttled by the interval", () => {
    const lines: string[] = [];
    const p = withProgress(
      fc.property(fc.nat(), () => true),
      "t",
      50,
      0,
      (l) => lines.push(l),
    );
    expect(fc.check(p, { numRuns: 50, seed: 1 }).failed).toBe(false);
    expect(lines).toHaveLength(50);
    expect(lines[49]).toMatch(/^fuzz t: 50\/50 runs, elapsed \d+s$/);
    const quiet: string[] = [];
    fc.check(
      withProgress(
        fc.property(fc.nat(), () => true),
        "t",
        50,
        60_000,
        (l) => quiet.push(l),
      ),
      { numRuns: 50, seed: 1 },
    );
    expect(quiet).toHaveLength(0);
  });
});

describe("renderCommands", () => {
  const sample = fc.sample(choicesArb(30, 30), { numRuns: 1, seed: 3 })[0] ?? [];

  it("renders one numbered, valid JSON command per line with the model's verdict", () => {
    const lines = renderCommands(sample, "mixed").split("\n");
    expect(lines).toHaveLength(30);
    lines.forEach((line, k) => {
      const m = /^#(\d+) (ok|rejected [A-Z_]+) (\{.*\})$/.exec(line);
      expect(m, line).not.toBeNull();
      expect(Number(m?.[1])).toBe(k + 1);
      const cmd = JSON.parse(m?.[3] ?? "null") as { op?: unknown };
      expect(typeof cmd.op).toBe("string");
      expect(cmd.op).toMatch(/^(advaita|janma|samskara|custody|ripa)\./);
    });
    expect(lines[0]).toMatch(/^#1 ok \{"op":"advaita\.mint"/);
  });

  it("stops at the step the error names", () => {
    expect(failingStep(new Error("world views differ after step 7 (a -> b): x"))).toBe(7);
    expect(failingStep(new Error("J-1 violated after janma.act (step 3): y"))).toBe(3);
    expect(failingStep(new Error("no step here"))).toBeUndefined();
    const out = commandsRenderer("store")(
      [sample],
      new Error("model accepted, impl rejected with X (m) at step 5 (…)"),
    );
    const lines = out.split("\n");
    expect(lines[0]).toContain("profile store");
    expect(lines.filter((l) => l.startsWith("#"))).toHaveLength(5);
    expect(lines.at(-1)).toBe("(25 further command(s) after step 5 not shown)");
  });
});
