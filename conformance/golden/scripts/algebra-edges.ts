/**
 * Golden session "session-algebra-edges": two readings of the Samskara algebra that the model's and
 * the implementation's unit tests check (model/samskara/algebra.test.ts) but no other golden line
 * does, so a third-party implementation would never be checked on them.
 *
 *  - D-007 (AD-3), the third tie-break of the highest-weighted contributor: with valence 0 and
 *    weight 0 (admitted by S-2, OP-2.7.c7) every contribution ties on |w|·c and on |w|, so the
 *    higher confidence leads and its guidance is the store entry's. The final world view shows the
 *    leader of three keys, each led by d-c (confidence 700000) against a 300000 contribution built
 *    so that a reading ignoring confidence picks the wrong guidance:
 *      k.one   d-b (smaller id) merged before d-c: wrong for "first arrival" and "smallest id";
 *      k.two   d-a (smaller id) merged after d-c:  wrong for "last arrival" and "smallest id";
 *      k.three d-d (larger id) merged after d-c:   wrong for "last arrival" and "largest id".
 *    The merges that bring the second contribution of a key are pinned OP-4.1.c4 (accepted).
 *  - D-007's first two tie-breaks (appended last): equal |w|·c, the larger |w| leads (k.four);
 *    equal |w| and c, the smaller distillate id leads whatever the merge order (k.five).
 *  - S-1 (D-010, spec review G-50, G-51), OP-2.7.c9: runs are compared token by token, so tokens
 *    never run together across their boundaries. Guidance "ab c d e" against the trace "a bc d e"
 *    (same letters, different tokens) does not leak and is accepted; guidance "a bc d e" against
 *    the trace "x a bc d e" leaks and is rejected with S-1.
 */
import type { Disposition } from "../../../spec/index.ts";
import type { ScriptContext, ScriptedGoldenSpec } from "../types.ts";
import { type Life, travelDriver } from "./travel-driver.ts";

const LOW = 300_000;
const HIGH = 700_000;

const script = (ctx: ScriptContext): void => {
  const driver = travelDriver(ctx);
  const { send, disposition, distillate } = driver;
  const root = "ae-a";
  const A = driver.mint(root, [{ provider_id: "prov-a", capabilities: ["fare.search"] }]);
  const lived = (trace?: readonly string[]): Life => driver.lived(A, root, trace);
  const merge = (obligation_ids: string[], pins?: string) =>
    send((t) => ({ op: "samskara.merge", tick: t, agent: A, obligation_ids }), pins);
  /** A distillate of valence 0 whose dispositions all weigh 0: only the confidence tells them apart. */
  const zero = (
    life: Life,
    obligation_id: string,
    distillate_id: string,
    confidence: number,
    keys: readonly string[],
    pins?: string,
  ) =>
    driver.distil(
      life,
      obligation_id,
      distillate(
        life,
        distillate_id,
        keys.map((k): Disposition => disposition(k, `${k} from ${distillate_id}`, 0)),
        0,
        confidence,
      ),
      pins,
    );

  // D-007: d-b (low) arrives first on k.one; OP-2.7.c7 admits weight 0 because the valence is 0.
  zero(lived(), "ob-1", "d-b", LOW, ["k.one"], "OP-2.7.c7");
  merge(["ob-1"]);
  // d-c (high) on all three keys: it must take k.one from d-b although d-b has the smaller id and came first.
  zero(lived(), "ob-2", "d-c", HIGH, ["k.one", "k.two", "k.three"]);
  merge(["ob-2"], "OP-4.1.c4");
  // d-a (smaller id) and d-d (larger id) arrive last, both low: d-c keeps k.two and k.three.
  zero(lived(), "ob-3", "d-a", LOW, ["k.two"]);
  zero(lived(), "ob-4", "d-d", LOW, ["k.three"]);
  merge(["ob-3", "ob-4"], "OP-4.1.c4");

  // S-1: the same letters in different tokens are not a run of the trace.
  const ok = lived(["a bc d e"]);
  driver.distil(
    ok,
    "ob-5",
    distillate(ok, "d-e", [disposition("k.leak", "ab c d e", 300_000)], 300_000, 1_000_000),
    "OP-2.7.c9",
  );
  const bad = lived(["x a bc d e"]);
  driver.distil(
    bad,
    "ob-6",
    distillate(bad, "d-f", [disposition("k.leak", "a bc d e", 300_000)], 300_000, 1_000_000),
    "OP-2.7.c9",
  );

  // D-007's first two tie-breaks, appended so no earlier line moves (a generated mutant of
  // impl/core/accumulator.ts that swapped them survived every line above, issue 21). k.four:
  // |w|·c ties (500000·400000 = 400000·500000), so the larger |w| leads: d-g, although d-h has the
  // higher confidence.
  const g = lived();
  driver.distil(g, "ob-7", distillate(g, "d-g", [disposition("k.four", "k.four from d-g", 500_000)], 500_000, 400_000));
  const h = lived();
  driver.distil(h, "ob-8", distillate(h, "d-h", [disposition("k.four", "k.four from d-h", 400_000)], 500_000, 500_000));
  merge(["ob-7", "ob-8"], "D-007");
  // k.five: |w| and c tie as well, so the smaller id leads: d-i, although d-j was merged first.
  const j = lived();
  driver.distil(j, "ob-9", distillate(j, "d-j", [disposition("k.five", "k.five from d-j", 300_000)], 300_000, 600_000));
  merge(["ob-9"]);
  const i = lived();
  driver.distil(
    i,
    "ob-10",
    distillate(i, "d-i", [disposition("k.five", "k.five from d-i", 300_000)], 300_000, 600_000),
  );
  merge(["ob-10"], "D-007");
};

export const ALGEBRA_EDGES_SESSION: ScriptedGoldenSpec = { name: "session-algebra-edges", script };
