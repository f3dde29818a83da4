import { describe, expect, it } from "vitest";
import type { Command } from "../../spec/index.ts";
import { check } from "../../spec/checks.ts";
import { initialWorld, type World } from "../../model/index.ts";
import { expect1 } from "../oracle/model.ts";
import { commandsAt } from "./commands.ts";
import { loadScope, parseScope, partsOf, type Scope } from "./scope.ts";

const samsara = parseScope({ ...(partsOf(loadScope("default"))[0] as Scope), parts: undefined, name: "rare" });

/** Follow the scope's own valid makers: at each step the first command `pick` names, which must be accepted. */
const walk = (scope: Scope, picks: ReadonlyArray<(c: Command) => boolean>, from: World = initialWorld()): World => {
  let w = from;
  for (const [k, pick] of picks.entries()) {
    const t = commandsAt(scope, w).find((x) => pick(x.command) && expect1(w, x.command).reply.ok);
    if (t === undefined) throw new Error(`step ${k}: no accepted command`);
    w = expect1(w, t.command).world;
  }
  return w;
};
const op = (name: string, instance?: string) => (c: Command) =>
  c.op === name && (instance === undefined || ("instance_id" in c && c.instance_id === instance));
const ack = (a: string) => (c: Command) => c.op === "custody.attempt" && c.ack === a;

/** The checks the commands of `maker` fail at in `w`, each refused (a rare maker never adds a state). */
const firedBy = (maker: string, w: World): string[] => {
  const scope = parseScope({ ...samsara, makers: [maker] });
  return commandsAt(scope, w).map((t) => {
    const e = expect1(w, t.command);
    expect(e.reply.ok, `${t.command.op} accepted`).toBe(false);
    return e.rejectedAt?.check ?? "(none)";
  });
};

describe("rare makers", () => {
  it("generic: a schema failure, a regressed tick and an unknown agent, each at its OP-0.2 check", () => {
    const minted = walk(samsara, [op("advaita.mint")]);
    expect(firedBy("generic", minted)).toEqual(["OP-0.2.c1", "OP-0.2.c2", "OP-0.2.c3"]);
    // At tick 0 no tick is below the world's: no regressed command.
    expect(firedBy("generic", initialWorld())).toEqual(["OP-0.2.c1", "OP-0.2.c3"]);
  });
  it("rare_samsara: each refusal fails the check it is made for, only where its state is", () => {
    // A conceived life, nothing else: the conception and birth refusals, and those needing no life.
    const conceived = walk(samsara, [op("advaita.mint"), op("janma.conceive", "i1")]);
    expect(firedBy("rare_samsara", conceived)).toEqual([
      "OP-5.1.c2", // mint: one provider id twice
      "OP-2.1.c3",
      "OP-2.1.c4", // conceive: a life's nonce again; another base digest
      "OP-2.2.c6",
      "OP-2.2.c7", // birth: the bound tool not offered; "far.*" grants nothing of fare.*
      "OP-3.1.c1",
      "OP-3.2.c1",
      "OP-4.1.c2", // no such obligation
      "OP-4.2.c3",
      "OP-4.2.c4", // excise: a non-custodian; a distillate not retained
    ]);
    // A first life distilled, delivery declined (discharged, not applied); a second withdrawn, not yet distilled.
    const w = walk(samsara, [
      op("advaita.mint"),
      op("janma.conceive", "i1"),
      op("janma.birth", "i1"),
      op("janma.act", "i1"),
      op("janma.withdraw", "i1"),
      op("janma.distil", "i1"),
      ack("declined"),
      op("janma.conceive", "i2"),
      op("janma.birth", "i2"),
      op("janma.act", "i2"),
      op("janma.withdraw", "i2"),
    ]);
    expect(firedBy("rare_samsara", w)).toEqual([
      "OP-5.1.c2",
      "OP-2.1.c3",
      "OP-2.1.c4",
      // distil of i2: obligation id in use, not strict, another nonce, another model, a weight
      // against the valence, a health lesson, 4 words of the act's trace, a distillate id in use.
      "OP-2.7.c3",
      "OP-2.7.c4",
      "OP-2.7.c5",
      "OP-2.7.c6",
      "OP-2.7.c7",
      "OP-2.7.c8",
      "OP-2.7.c9",
      "OP-2.7.c10",
      "OP-3.1.c1",
      "OP-3.2.c1",
      "OP-4.1.c2",
      "OP-3.1.c2",
      "OP-3.2.c2",
      "OP-4.1.c3", // the declined obligation: attempted, expired, merged
      "OP-4.2.c3",
      "OP-4.2.c4",
    ]);
    // Each check named is one whose rejection the clause states (not a generic fallback).
    for (const id of firedBy("rare_samsara", w)) expect(check(id).targets.length).toBeGreaterThan(0);
  });
  it("rare_samsara: a living life's forged act and an act outside its binding", () => {
    const born = walk(samsara, [op("advaita.mint"), op("janma.conceive", "i1"), op("janma.birth", "i1")]);
    const fired = firedBy("rare_samsara", born);
    expect(fired).toContain("OP-2.3.c5");
    expect(fired).toContain("OP-2.3.c7");
    expect(firedBy("rare_samsara", walk(samsara, [op("advaita.mint")]))).not.toContain("OP-2.3.c5");
  });
  it("rare_ripa: a restart by another execution and an effect through an unbound provider; a descent only when the head is quarantined", () => {
    const minted = walk(samsara, [op("advaita.mint")]);
    expect(firedBy("rare_ripa", minted)).toEqual(["OP-6.1.c2", "OP-6.6.c2"]);
    // A corrective distillate whose custody deadline passes quarantines the pinned head (D-019).
    const ripa = parseScope({ ...samsara, distillates: [samsara.distillates[1]] });
    const q = walk(ripa, [
      op("advaita.mint"),
      op("janma.conceive", "i1"),
      op("janma.birth", "i1"),
      op("janma.withdraw", "i1"),
      op("janma.distil", "i1"),
      op("samskara.replay"),
      op("samskara.replay"),
      op("custody.expire"),
    ]);
    expect([...q.agents.values()][0]?.store.quarantined.length).toBe(1);
    expect(firedBy("rare_ripa", q)).toEqual(["OP-6.1.c2", "OP-6.6.c2", "OP-6.11.c2"]);
  });
});
