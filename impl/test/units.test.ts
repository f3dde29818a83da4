/** Unit checks of the pieces that carry exact arithmetic or hostile input, and of query/world agreement. */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { QUERY_RESULTS } from "../../spec/wire/index.ts";
import { openImplementation } from "../api.ts";
import { divRoundHalfEven } from "../core/rounding.ts";
import { grantCovers, isGrantable } from "../core/capabilities.ts";
import { mayPersist, sensitivityOf } from "../core/consent.ts";
import { holds, type ActCounters } from "../core/termination.ts";
import { TraceRuns } from "../core/leakage.ts";
import { KeyAccumulator, type Contribution } from "../core/accumulator.ts";
import { nestsDeeperThan } from "../wire/depth.ts";
import { LineFramer } from "../wire/framing.ts";
import { AGENT, fullSession } from "./scenario.ts";

describe("units", () => {
  it("rounds half to even, symmetric in sign (D-002)", () => {
    const cases: [bigint, bigint, bigint][] = [
      [5n, 2n, 2n],
      [7n, 2n, 4n],
      [-5n, 2n, -2n],
      [-7n, 2n, -4n],
      [10n, 4n, 2n],
      [11n, 4n, 3n],
      [1n, 3n, 0n],
      [-2n, 3n, -1n],
    ];
    for (const [n, d, want] of cases) expect(divRoundHalfEven(n, d), `${n}/${d}`).toBe(want);
    expect(() => divRoundHalfEven(1n, 0n)).toThrow();
  });

  it("implements the capability algebra (D-016)", () => {
    expect(grantCovers("fare.*", "fare.search")).toBe(true);
    expect(grantCovers("fare.*", "fare")).toBe(false);
    expect(grantCovers("fare.*", "farex.search")).toBe(false);
    expect(isGrantable("fare.book.*", ["fare.*"])).toBe(true);
    expect(isGrantable("fare.*", ["fare.*"])).toBe(true);
    expect(isGrantable("fa.*", ["fare.*"])).toBe(false);
    expect(isGrantable("mail.send", ["fare.*"])).toBe(false);
  });

  it("flags 4-token runs after NFKC and case folding, across entries too (D-010, spec review G-51)", () => {
    const runs = new TraceRuns(["The Customer prefers WINDOW seats", "on long flights"]);
    expect(runs.leaks("customer, prefers window; seats!")).toBe(true);
    expect(runs.leaks("ｃｕｓｔｏｍｅｒ prefers window seats")).toBe(true);
    expect(runs.leaks("window seats on long")).toBe(true); // the run spans the two entries
    expect(runs.leaks("seats on long")).toBe(false); // three tokens across the boundary
    expect(runs.leaks("flights the customer prefers")).toBe(false); // entries are read in order, not cyclically
    expect(runs.leaks("prefers window seats")).toBe(false);
  });

  it("splits identifiers at `_` (D-010, spec review G-50)", () => {
    const runs = new TraceRuns(["traveler_profile: PII_x7k2m9q4 PII_n8p1v6r3"]);
    expect(runs.leaks("remember traveler_profile PII_x7k2m9q4")).toBe(true);
    expect(runs.leaks("check PII_x7k2m9q4 PII_n8p1v6r3")).toBe(true);
    expect(runs.leaks("greet PII_x7k2m9q4 politely")).toBe(false);
  });

  it("frames lines, discarding overlong ones without buffering them", () => {
    const fr = new LineFramer(8);
    expect(fr.push(Buffer.from("abc\ndefghijklmnop"))).toEqual([{ kind: "line", bytes: Buffer.from("abc") }]);
    expect(fr.push(Buffer.from("qr\nxy"))).toEqual([{ kind: "too_long", length: 15 }]);
    expect(fr.push(Buffer.from("z\n"))).toEqual([{ kind: "line", bytes: Buffer.from("xyz") }]);
    expect(fr.pending).toBe(0);
  });

  // The cases below were found by Stryker (reports/stryker.md): the generated sequences never
  // reach them (an exact or unrelated offered grant, consent rows other than training cells,
  // tokens that collide when joined, a negative denominator, most of the predicate language).
  it("grants an exact capability offered exactly, and nothing from an unrelated exact offer (D-016)", () => {
    expect(isGrantable("mail.send", ["mail.send"])).toBe(true);
    expect(isGrantable("mail.send", ["mail.read"])).toBe(false);
    expect(isGrantable("mail.*", ["mail.send"])).toBe(false);
  });

  it("resolves storage and training sensitivity by exact cell, then the category default, then low (D-011, D-058)", () => {
    const grant = {
      grant_id: "g",
      principal: "p",
      persist_ceiling: "medium" as const,
      cells: [
        { category: "health" as const, dimension: "access" as const, sensitivity: "low" as const },
        { category: "financial" as const, dimension: "training" as const, sensitivity: "low" as const },
        { category: "financial" as const, dimension: "storage" as const, sensitivity: "high" as const },
        { category: "location" as const, dimension: "storage" as const, sensitivity: "low" as const },
        { category: "location" as const, dimension: "training" as const, sensitivity: "high" as const },
      ],
      category_defaults: [
        { category: "operational" as const, sensitivity: "high" as const },
        { category: "health" as const, sensitivity: "medium" as const },
      ],
    } as unknown as Parameters<typeof sensitivityOf>[0];
    // An access cell says nothing about storage or training: the category default decides.
    expect(sensitivityOf(grant, "health", "training")).toBe("medium");
    expect(sensitivityOf(grant, "health", "storage")).toBe("medium");
    expect(sensitivityOf(grant, "operational", "training")).toBe("high");
    expect(sensitivityOf(grant, "biometric", "storage")).toBe("low");
    expect(mayPersist(grant, "operational")).toBe(false);
    expect(mayPersist(grant, "health")).toBe(true);
    // D-058: either dimension above the ceiling refuses persistence.
    expect(mayPersist(grant, "financial")).toBe(false);
    expect(mayPersist(grant, "location")).toBe(false);
    expect(mayPersist(grant, "biometric")).toBe(true);
  });

  it("never joins two tokens into one when looking for 4-token runs (D-010)", () => {
    const runs = new TraceRuns(["ab c d e"]);
    expect(runs.leaks("a bc d e")).toBe(false);
    expect(runs.leaks("ab c d e")).toBe(true);
  });

  it("refuses a non-positive denominator (D-002)", () => {
    expect(() => divRoundHalfEven(1n, -2n)).toThrow();
  });

  it("evaluates every termination predicate at its boundary (D-015)", () => {
    const c: ActCounters = {
      acts: 3,
      failures: 2,
      consecutiveFailures: 1,
      bornTick: 10,
      toolsUsed: new Set(["search"]),
    };
    const at = (p: unknown, now = 15) => holds(p as Parameters<typeof holds>[0], c, now);
    expect(at({ op: "failures_at_least", n: 2 })).toBe(true);
    expect(at({ op: "failures_at_least", n: 3 })).toBe(false);
    expect(at({ op: "ticks_since_birth_at_least", n: 5 })).toBe(true);
    expect(at({ op: "ticks_since_birth_at_least", n: 6 })).toBe(false);
    expect(at({ op: "ticks_since_birth_at_least", n: 5 }, 14)).toBe(false);
    const yes = { op: "acts_at_least", n: 3 };
    const no = { op: "acts_at_least", n: 4 };
    expect(at({ op: "all", of: [yes, yes] })).toBe(true);
    expect(at({ op: "all", of: [yes, no] })).toBe(false);
    expect(at({ op: "any", of: [no, yes] })).toBe(true);
    expect(at({ op: "any", of: [no, no] })).toBe(false);
    expect(at({ op: "not", of: no })).toBe(true);
    expect(at({ op: "not", of: yes })).toBe(false);
  });

  it("folds case by lower-casing, so ß and ς are not read as ss and σ (D-010)", () => {
    // Upper-casing would map ß to SS and ς to Σ, making these guidances leak; lower-casing keeps them apart.
    const runs = new TraceRuns(["the straße was closed", "οδός του λόγος εδώ"]);
    expect(runs.leaks("the strasse was closed")).toBe(false);
    expect(runs.leaks("οδός του λόγοσ εδώ")).toBe(false);
    expect(runs.leaks("THE STRAßE WAS CLOSED")).toBe(true);
  });

  it("picks the leader of a key by |w|·c, then |w|, then c, then distillate id, in either order of arrival (D-007)", () => {
    const c = (distillateId: string, weight: number, confidence: number): Contribution => ({
      distillateId,
      weight,
      confidence,
      guidance: distillateId,
      category: "operational",
    });
    const leader = (...cs: Contribution[]): string => {
      const acc = new KeyAccumulator("k");
      for (const x of cs) acc.add(x);
      return acc.entry().guidance;
    };
    // |w|·c ties (300000·200000 = 200000·300000): the larger |w| leads, whichever came first.
    expect(leader(c("d-b", 300_000, 200_000), c("d-a", -200_000, 300_000))).toBe("d-b");
    expect(leader(c("d-a", -200_000, 300_000), c("d-b", 300_000, 200_000))).toBe("d-b");
    // |w|·c and |w| tie (weights 0, valence 0): the larger confidence leads, before the id.
    expect(leader(c("d-b", 0, 900_000), c("d-a", 0, 100_000))).toBe("d-b");
    expect(leader(c("d-a", 0, 100_000), c("d-b", 0, 900_000))).toBe("d-b");
    // Everything ties but the id: the smaller id leads.
    expect(leader(c("d-b", 0, 100_000), c("d-a", 0, 100_000))).toBe("d-a");
  });

  it("re-elects the leader of a key from every remaining contribution when the leader is excised (D-007, S-5)", () => {
    const acc = new KeyAccumulator("k");
    const c = (distillateId: string, weight: number): Contribution => ({
      distillateId,
      weight,
      confidence: 1_000_000,
      guidance: distillateId,
      category: "operational",
    });
    acc.add(c("d-top", 900_000));
    acc.add(c("d-mid", 500_000));
    acc.add(c("d-low", 100_000));
    acc.remove("d-top");
    expect(acc.entry().guidance).toBe("d-mid");
    acc.remove("d-low");
    expect(acc.entry().guidance).toBe("d-mid");
  });

  it("refuses a second contribution of one distillate to one key (AD-3)", () => {
    const acc = new KeyAccumulator("k");
    const x: Contribution = { distillateId: "d-1", weight: 1, confidence: 1, guidance: "g", category: "operational" };
    acc.add(x);
    expect(() => acc.add(x)).toThrow(/contributes twice/);
    expect(acc.weight()).toBe(1);
  });

  it("measures nesting outside strings only", () => {
    expect(nestsDeeperThan("[[[]]]", 3)).toBe(false);
    expect(nestsDeeperThan("[[[[]]]]", 3)).toBe(true);
    expect(nestsDeeperThan('{"a":"[[[[[[\\"[[[["}', 1)).toBe(false);
  });

  it("answers every query with a schema-valid slice equal to the world view", async () => {
    const impl = openImplementation();
    await fullSession({ apply: async (c) => impl.apply(c), world: async () => impl.world() });
    const w = impl.world();
    const a = w.agents.find((x) => x.identity.identity === AGENT);
    if (a === undefined) throw new Error("agent missing");
    const results = {
      world: impl.query({ name: "world" }),
      agent: impl.query({ name: "agent", agent: AGENT }),
      store: impl.query({ name: "store", agent: AGENT }),
      lineage: impl.query({ name: "lineage", agent: AGENT }),
      instances: impl.query({ name: "instances", agent: AGENT }),
      instance_state: impl.query({ name: "instance_state", agent: AGENT, instance_id: "i1" }),
      obligations: impl.query({ name: "obligations", agent: AGENT }),
      identity: impl.query({ name: "identity", agent: AGENT }),
      substrate: impl.query({ name: "substrate", agent: AGENT }),
      authority: impl.query({ name: "authority", agent: AGENT }),
      migration: impl.query({ name: "migration", agent: AGENT }),
    };
    for (const [name, out] of Object.entries(results)) {
      if (!out.ok) throw new Error(`${name}: ${out.error.message}`);
      expect(QUERY_RESULTS[name as keyof typeof QUERY_RESULTS].safeParse(out.result).success, name).toBe(true);
    }
    const r = (n: keyof typeof results): unknown => (results[n].ok ? results[n].result : null);
    expect(r("world")).toEqual(w);
    expect(r("agent")).toEqual(a);
    expect(r("store")).toEqual(a.store);
    expect(r("lineage")).toMatchObject({
      head: a.store.head,
      chain: a.store.chain,
      batches: a.store.batches,
      excisions: a.store.excisions,
    });
    expect(r("instances")).toEqual(a.instances);
    expect(r("instance_state")).toEqual({ instance_id: "i1", state: "dissolved" });
    expect(r("obligations")).toEqual(a.obligations);
    expect(r("substrate")).toEqual(a.substrate);
    expect(r("authority")).toEqual({
      authority: a.ripa.authority,
      execution: a.ripa.execution,
      replicas: a.ripa.replicas,
    });
    expect(r("migration")).toEqual({
      fences: a.ripa.fences,
      marker: a.ripa.marker,
      migration: a.ripa.migration,
      reports: a.ripa.reports,
    });
    const missing = impl.query({ name: "store", agent: `sha256:${"0".repeat(64)}` });
    expect(missing.ok ? "ok" : missing.error.code).toBe("NOT_FOUND");
  });
});

describe("a distillate in the paper's formats (spec review G-49)", () => {
  // The scripted golden session sends the paper's example disposition verbatim; the rejection must
  // name the field (path) and say which format it wants (message), beyond the normative code.
  const lines = readFileSync(
    new URL("../../conformance/golden/session-decisions-samsara.jsonl", import.meta.url),
    "utf8",
  )
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { request: { id: string; command?: unknown } });
  const replayUntil = (id: string) => {
    const impl = openImplementation({});
    let last: ReturnType<typeof impl.apply> | undefined;
    for (const l of lines) {
      if (l.request.command === undefined) continue;
      last = impl.apply(l.request.command);
      if (l.request.id === id) break;
    }
    impl.close();
    return last;
  };
  it("a decimal weight is S-1 at the weight, asking for integer millionths", () => {
    const r = replayUntil("G-49.51");
    expect(r?.ok).toBe(false);
    if (r?.ok === false) {
      expect(r.error).toMatchObject({ invariant: "S-1", path: ["distillate", "dispositions", 0, "weight"] });
      expect(r.error.message).toContain("900000");
    }
  });
  it("an abbreviated digest is S-1 at the evidence digest, asking for a full digest", () => {
    const r = replayUntil("G-49.52");
    expect(r?.ok).toBe(false);
    if (r?.ok === false) {
      expect(r.error).toMatchObject({ invariant: "S-1", path: ["distillate", "dispositions", 0, "evidence_digest"] });
      expect(r.error.message).toContain("64 lowercase hex");
    }
  });
  it("a duplicate key is S-1 without a format hint", () => {
    const r = replayUntil("G-30.50");
    expect(r?.ok === false && r.error.invariant).toBe("S-1");
    expect(r?.ok === false && r.error.message.includes("D-00")).toBe(false);
  });
});
