/**
 * Golden session "session-model-advaita": a situation the generated sessions never build, found by
 * Stryker among the survivors of the model's model/samskara/store.ts (reports/stryker.md).
 *
 *  - OP-4.1: one merge of three pending obligations listed out of order (ob-c, ob-a, ob-b): the
 *    `custody.discharged` events come one per obligation sorted by obligation id (ob-a, ob-b, ob-c),
 *    not in the order the command lists them; `store.merged.added` is sorted by distillate id.
 *    A re-merge of the same ids, again out of order, is the no-op of D-008 with the ids sorted.
 *  - OP-3.1.c1, OP-3.2.c1, OP-4.4.c1: an attempt, an expiry and a projection write naming an
 *    obligation or instance the agent does not have are NOT_FOUND.
 */
import type { Disposition } from "../../../spec/index.ts";
import type { ScriptContext, ScriptedGoldenSpec } from "../types.ts";
import { type Life, travelDriver } from "./travel-driver.ts";

const script = (ctx: ScriptContext): void => {
  const driver = travelDriver(ctx);
  const { send, disposition, distillate } = driver;
  const root = "ma-a";
  const A = driver.mint(root, [{ provider_id: "prov-a", capabilities: ["fare.search"] }]);
  /** A life conceived on the current head, born, acted once and withdrawn: ready to distil. */
  const lived = (): Life => driver.lived(A, root);
  const distil = (life: Life, obligation_id: string, distillate_id: string, d: Disposition, valence: number) =>
    driver.distil(life, obligation_id, distillate(life, distillate_id, [d], valence, 1_000_000));
  // Three lessons (two reinforcing, one corrective) whose obligation ids sort ob-a < ob-b < ob-c and
  // whose distillate ids sort the other way.
  distil(lived(), "ob-c", "d-a", disposition("k.c", "prefer aisle seats", 400_000), 400_000);
  distil(lived(), "ob-a", "d-c", disposition("k.a", "book early", 300_000), 300_000);
  distil(lived(), "ob-b", "d-b", disposition("k.b", "avoid night trains", -200_000), -200_000);

  // OP-4.1: listed ob-c, ob-a, ob-b; discharged ob-a, ob-b, ob-c; added d-a, d-b, d-c.
  send((t) => ({ op: "samskara.merge", tick: t, agent: A, obligation_ids: ["ob-c", "ob-a", "ob-b"] }), "OP-4.1.c4");
  // D-008: every listed obligation is applied, so the re-merge is a no-op with the ids sorted.
  send(
    (t) => ({ op: "samskara.merge", tick: t, agent: A, obligation_ids: ["ob-b", "ob-c", "ob-a", "ob-b"] }),
    "OP-4.1.c3",
  );

  // Lookups of what the agent does not have.
  send((t) => ({ op: "custody.attempt", tick: t, agent: A, obligation_id: "ob-none", ack: "declined" }), "OP-3.1.c1");
  send((t) => ({ op: "custody.expire", tick: t, agent: A, obligation_id: "ob-none" }), "OP-3.2.c1");
  send(
    (t) => ({
      op: "advaita.project_write",
      tick: t,
      agent: A,
      instance_id: "i-none",
      disposition: disposition("k.w", "write directly", 1),
    }),
    "OP-4.4.c1",
  );
  // OP-4.4.c2: an existing projection still cannot write the store (AD-2).
  send(
    (t) => ({
      op: "advaita.project_write",
      tick: t,
      agent: A,
      instance_id: "i1",
      disposition: disposition("k.w", "write directly", 1),
    }),
    "OP-4.4.c2",
  );
};

export const MODEL_ADVAITA_SESSION: ScriptedGoldenSpec = { name: "session-model-advaita", script };
