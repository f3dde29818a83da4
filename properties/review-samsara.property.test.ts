/**
 * The random generator produces the situations that tell the decided readings of spec review 1
 * (Janma / Samskara / Advaita items, spec/review/janma-samskara.ts) from their alternatives, often
 * enough that the differential kills each review mutant within its default budget. Counted on the
 * reference model alone over the differential's own run shapes (60–200 choices, both profiles):
 * if a generator edit stops producing a situation, its count drops and this test names it.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Result } from "effect";
import type { Command, Event, WorldView } from "../spec/index.ts";
import { initialWorld, transition, view } from "../model/index.ts";
import { leaks, tokens } from "../model/samskara/leakage.ts";
import { choicesArb, materialize, newMemory, type GenProfile } from "./generators/commands.ts";

type Counts = Record<string, number>;

/** The per-entry reading of D-010 that spec review G-51 decided against. */
const leaksWithinOneEntry = (guidance: string, trace: readonly string[]): boolean =>
  trace.some((e) => leaks(guidance, [e]));
/** The reading of D-010 that spec review G-50 decided against: `_` inside a token. */
const underscoreTokens = (t: string): string[] =>
  t
    .normalize("NFKC")
    .toLowerCase()
    .match(/[\p{L}\p{M}\p{N}_]+/gu) ?? [];
const leaksUnderscoreJoined = (guidance: string, trace: readonly string[]): boolean => {
  const runs = (ts: string[]) => ts.slice(0, Math.max(0, ts.length - 3)).map((_, i) => ts.slice(i, i + 4).join(" "));
  const want = new Set(runs(underscoreTokens(guidance)));
  return runs(trace.flatMap(underscoreTokens)).some((r) => want.has(r));
};

interface Held {
  readonly confidence: number;
  readonly dispositions: readonly { key: string; weight: number; guidance: string }[];
}

const count = (profile: GenProfile, runs: number, seed: number, c: Counts): void => {
  const add = (k: string) => (c[k] = (c[k] ?? 0) + 1);
  for (const choices of fc.sample(choicesArb(60, 200), { seed, numRuns: runs })) {
    const mem = newMemory(profile);
    let world = initialWorld();
    const traces = new Map<string, string[]>(); // agent/instance -> accepted trace entries
    const held = new Map<string, Held>(); // agent/distillate id -> content of an accepted distillate
    for (const choice of choices) {
      const before: WorldView = view(world);
      const cmd: Command = materialize(before, mem, choice);
      const r = transition(world, cmd);
      const ok = Result.isSuccess(r);
      const events: readonly Event[] = ok ? r.success.events : [];
      const code = ok
        ? null
        : (() => {
            const f = r.failure as { code: string; invariant: string | null };
            return f.invariant ?? f.code;
          })();
      const agent = "agent" in cmd ? before.agents.find((a) => a.identity.identity === cmd.agent) : undefined;
      if (ok) world = r.success.world;
      switch (cmd.op) {
        case "janma.act": {
          if (!ok) break;
          add("acts");
          if (cmd.signed.action.trace.length > 1) add("G-32 multi-entry acts");
          const k = `${cmd.agent}/${cmd.instance_id}`;
          traces.set(k, [...(traces.get(k) ?? []), ...cmd.signed.action.trace]);
          const fired = events.find((e) => e.type === "instance.withdrawn");
          const inst = agent?.instances.find((i) => i.instance_id === cmd.instance_id);
          if (
            fired?.type === "instance.withdrawn" &&
            fired.reason.kind === "termination_condition" &&
            inst?.born_tick !== null &&
            inst !== undefined
          ) {
            const cond =
              inst &&
              mem.lives
                .get(k)
                ?.manifest.termination_conditions.find(
                  (x) => x.id === (fired.reason as { condition_id: string }).condition_id,
                );
            if (cond?.when.op === "ticks_since_birth_at_least" && cmd.tick - (inst.born_tick ?? 0) === cond.when.n)
              add("G-28 ticks boundary fires");
            if (cond?.when.op === "tool_used" && !inst.tools_used.includes(cond.when.tool))
              add("G-28 tool_used fires on its first use");
          }
          const after = view(world)
            .agents.find((a) => a.identity.identity === cmd.agent)
            ?.instances.find((i) => i.instance_id === cmd.instance_id);
          if (
            after !== undefined &&
            after.tools_used.length > 1 &&
            inst?.tools_used[0] !== undefined &&
            inst.tools_used[0] !== after.tools_used[0]
          )
            add("G-28 tools_used differs from use order");
          break;
        }
        case "janma.birth": {
          const first = cmd.environment.tools.find((t) => t.tool === "search");
          if (ok && first !== undefined && !first.capabilities.includes("fare.book"))
            add("G-27 births with a partial first offer");
          break;
        }
        case "janma.distil": {
          const d = cmd.distillate as {
            distillate_id?: string;
            signal?: { confidence?: number };
            source?: { nonce?: string };
            dispositions?: { key: string; weight: number; guidance: string }[];
          };
          const trace = traces.get(`${cmd.agent}/${cmd.instance_id}`) ?? [];
          const inst = agent?.instances.find((i) => i.instance_id === cmd.instance_id);
          if (ok) {
            const destroyed = events.find((e) => e.type === "trace.destroyed");
            if (destroyed?.type === "trace.destroyed" && inst !== undefined && destroyed.entries !== inst.acts)
              add("G-32 entries differ from acts");
            held.set(`${cmd.agent}/${d.distillate_id ?? ""}`, {
              confidence: d.signal?.confidence ?? 0,
              dispositions: d.dispositions ?? [],
            });
          }
          const guidances = (d.dispositions ?? []).map((x) => x.guidance);
          if (
            code === "S-1" &&
            guidances.some((g) => leaks(g, trace)) &&
            !guidances.some((g) => leaksWithinOneEntry(g, trace))
          )
            add("G-51 leaks only across entries");
          if (
            code === "S-1" &&
            guidances.some((g) => leaks(g, trace)) &&
            !guidances.some((g) => leaksUnderscoreJoined(g, trace))
          )
            add("G-50 leaks only because _ splits");
          if (code === "AD-4" && d.signal?.confidence === 0) add("G-30 AD-4 with zero confidence");
          if (code === "S-1" && new Set((d.dispositions ?? []).map((x) => x.key)).size < (d.dispositions ?? []).length)
            add("G-30 duplicate keys");
          if (
            code === "AD-3" &&
            agent?.obligations.some(
              (o) => o.distillate_id === d.distillate_id && o.status === "discharged" && o.outcome !== "applied",
            )
          )
            add("G-31 id of a dropped distillate reused");
          break;
        }
        case "samskara.merge": {
          const obs = cmd.obligation_ids.map((id) => agent?.obligations.find((o) => o.obligation_id === id));
          const noop = events.find((e) => e.type === "store.merge_noop");
          if (
            noop?.type === "store.merge_noop" &&
            JSON.stringify(noop.obligation_ids) !== JSON.stringify(cmd.obligation_ids)
          )
            add("G-24 no-op given unsorted or repeated");
          if (
            ok &&
            noop === undefined &&
            obs.some((o) => o?.outcome === "applied") &&
            obs.some((o) => o?.status === "pending")
          )
            add("G-25 mixed applied and pending");
          const missing = cmd.obligation_ids.filter((_, i) => obs[i] === undefined);
          const dropped = obs
            .filter((o) => o?.status === "discharged" && o.outcome !== "applied")
            .map((o) => o?.obligation_id ?? "");
          if (code === "NOT_FOUND" && dropped.some((x) => missing.some((m) => x < m)))
            add("G-23 missing listed after a dropped obligation");
          if (ok && noop === undefined) {
            // G-52 / D-007: a key whose leader is decided by the distillate id alone.
            const state = view(world).agents.find((a) => a.identity.identity === cmd.agent)?.store.state.entries ?? [];
            for (const e of state) {
              const cs = e.contributors.flatMap((id) => {
                const h = held.get(`${cmd.agent}/${id}`);
                const disp = h?.dispositions.find((x) => x.key === e.key);
                return h === undefined || disp === undefined
                  ? []
                  : [
                      {
                        s: Math.abs(disp.weight) * h.confidence,
                        w: Math.abs(disp.weight),
                        c: h.confidence,
                        g: disp.guidance,
                      },
                    ];
              });
              const top = cs.filter((x) =>
                cs.every((y) => y.s < x.s || (y.s === x.s && (y.w < x.w || (y.w === x.w && y.c <= x.c)))),
              );
              if (top.length > 1 && new Set(top.map((x) => x.g)).size > 1) {
                add("G-52 leader decided by distillate id");
                break;
              }
            }
          }
          break;
        }
        case "samskara.excise": {
          const usedElsewhere = before.agents.some(
            (a) =>
              a.identity.identity !== cmd.agent && a.store.excisions.some((x) => x.excision_id === cmd.excision_id),
          );
          if (usedElsewhere && code !== "DUPLICATE_ID") add("G-39 id used by another agent");
          if (code === "DUPLICATE_ID" && cmd.authorization.custodian !== "custodian-1")
            add("G-39 reused id with a rogue custodian");
          break;
        }
        default:
          break;
      }
    }
  }
};

describe("the generator produces the situations of the Janma / Samskara review decisions", () => {
  it("each situation occurs at the differential's budget (counted on the model)", () => {
    const c: Counts = {};
    count("mixed", 30, 11, c);
    count("store", 30, 12, c);
    const at = (k: string) => c[k] ?? 0;
    const all = JSON.stringify(c);
    // Multi-entry traces are a large share of acts, not a corner case (G-32, G-51).
    expect(at("G-32 multi-entry acts") / at("acts"), "multi-entry share").toBeGreaterThan(0.5);
    // Floors a little under what the fixed seeds give today (in brackets), so a generator edit that
    // starves a situation fails here by name.
    const floors: Record<string, number> = {
      "G-23 missing listed after a dropped obligation": 2, // [3]
      "G-24 no-op given unsorted or repeated": 8, // [13]
      "G-25 mixed applied and pending": 10, // [16]
      "G-27 births with a partial first offer": 60, // [108]
      "G-28 ticks boundary fires": 8, // [14]
      "G-28 tool_used fires on its first use": 3, // [6]
      "G-28 tools_used differs from use order": 2, // [4]
      "G-30 AD-4 with zero confidence": 2, // [4]
      "G-30 duplicate keys": 4, // [7]
      "G-31 id of a dropped distillate reused": 2, // [4]
      "G-32 entries differ from acts": 25, // [42]
      "G-39 id used by another agent": 2, // [4]
      "G-39 reused id with a rogue custodian": 1, // [2]
      "G-50 leaks only because _ splits": 3, // [5]
      "G-51 leaks only across entries": 10, // [17]
      "G-52 leader decided by distillate id": 5, // [9]
    };
    console.error(`review situations: ${all}`);
    for (const [k, n] of Object.entries(floors)) expect(at(k), `${k} (counts: ${all})`).toBeGreaterThanOrEqual(n);
  });

  it("the alternative tokenisations differ from D-010 where the counts say they do", () => {
    expect(leaks("alpha beta gamma delta", ["alpha beta", "gamma delta"])).toBe(true);
    expect(leaksWithinOneEntry("alpha beta gamma delta", ["alpha beta", "gamma delta"])).toBe(false);
    expect(tokens("fare_search window")).toHaveLength(3);
    expect(leaks("use fare_search with cheap", ["called fare_search with cheap"])).toBe(true);
    expect(leaksUnderscoreJoined("use fare_search with cheap", ["called fare_search with cheap"])).toBe(false);
    expect(leaksUnderscoreJoined("use fare_search with cheap seats", ["called fare_search with cheap seats"])).toBe(
      true,
    );
  });
});
