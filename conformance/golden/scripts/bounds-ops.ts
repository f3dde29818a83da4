/**
 * Golden session "session-bounds-ops": situations the generated sessions never build, found by
 * Stryker among the survivors of impl/core/ops/ and impl/core/views.ts (reports/stryker.md).
 * Each pinned line decides one check clause (spec/CHECKS.md); the world view the session ends
 * with pins the sorted lists of OP-5.2 in states no other session leaves behind (two quarantined
 * versions quarantined out of order, a migration stopped after its bind).
 *
 *  - OP-2.2.c5: a conceived life whose pin is quarantined before its birth is J-1.
 *  - OP-2.3.c4: a validly signed act of a dissolved life is J-3 (not accepted).
 *  - OP-2.3.c5: a signature that recomputes is not enough: identity, nonce, manifest digest and
 *    the action's tick are each compared with the projection's (AD-4; generated mutants
 *    janma.ts:64, reports/mutants-generated.md).
 *  - OP-2.6.c3: a dissolved life cannot be withdrawn (J-4; generated mutant janma.ts:132).
 *  - OP-2.8.c2: a dissolved life cannot be dissolved again (J-4; generated mutant janma.ts:141).
 *  - OP-2.7.c5: each of source.identity, source.instance_id and born_from is checked (AD-4).
 *  - OP-4.1: `store.merged.added` lists distillate ids sorted, even when the obligation ids sort
 *    the other way; the leader of a key whose contributions tie on |w|·c is the larger |w| (D-007).
 *  - OP-7.3: the capability delta's `lost` and `unchanged` are sorted (D-025); the world view sorts
 *    the target's providers and the bound surfaces of a migration in progress.
 */
import { compareCodeUnits, DOMAIN, digestOf } from "../../../spec/index.ts";
import type { ScriptContext, ScriptedGoldenSpec } from "../types.ts";
import { BASE, EVIDENCE, exec, travelDriver } from "./travel-driver.ts";

const surface = (id: string) => ({ surface_id: id, kind: "chat", account: "a", session: "1" });

const script = (ctx: ScriptContext): void => {
  const { send, mint, headOf, conceive, birth, act, lived, disposition, distillate, distil } = travelDriver(ctx);
  const A = mint("bo-a", [{ provider_id: "prov-a", capabilities: ["fare.search"] }]);
  const B = mint("bo-b", [{ provider_id: "prov-a", capabilities: ["fare.search"] }]);
  const h0 = headOf("bo-a");

  // OP-2.7.c5 (AD-4): every source field is compared, each on its own.
  const w = lived(A, "bo-a");
  const ok = distillate(w, "d-w", [disposition("k.w", "prefer aisle", 500_000)], 500_000, 1_000_000);
  distil(w, "ob-w", { ...ok, source: { ...ok.source, identity: B } }, "OP-2.7.c5");
  distil(w, "ob-w", { ...ok, source: { ...ok.source, instance_id: "i-other" } }, "OP-2.7.c5");
  distil(w, "ob-w", { ...ok, born_from: EVIDENCE }, "OP-2.7.c5");
  distil(w, "ob-w", ok, "OP-2.7.c5");

  // A life conceived on the genesis pin, born only after that pin is quarantined (below).
  const late = conceive(A, "bo-a");
  // A life that signs the acts of OP-2.3.c5 below, born while the genesis pin is still usable.
  const s = conceive(A, "bo-a");
  birth(s);

  // Two corrective lessons: one pinned on the genesis version now, one on the merged head later.
  const lesson = [disposition("k.c", "avoid night trains", -300_000)];
  const c1 = lived(A, "bo-a");
  distil(c1, "ob-c1", distillate(c1, "d-c1", lesson, -300_000, 1_000_000));

  // OP-4.1: obligation ids sort ob-m1 < ob-m2, their distillate ids the other way (d-z > d-a);
  // `added` is sorted by distillate id. Both weigh on key k.t with equal |w|·c (300000·200000 =
  // 200000·300000): D-007 makes d-z, the larger |w|, the leader, whatever the confidence.
  const m1 = lived(A, "bo-a");
  distil(m1, "ob-m1", distillate(m1, "d-z", [disposition("k.t", "book early", 300_000)], 300_000, 200_000));
  const m2 = lived(A, "bo-a");
  distil(m2, "ob-m2", distillate(m2, "d-a", [disposition("k.t", "book late", 200_000)], 200_000, 300_000));
  send((t) => ({ op: "samskara.merge", tick: t, agent: A, obligation_ids: ["ob-m1", "ob-m2"] }), "OP-4.1.c4");
  const h1 = headOf("bo-a");

  const c2 = lived(A, "bo-a");
  distil(c2, "ob-c2", distillate(c2, "d-c2", lesson, -300_000, 1_000_000));
  // Declined corrective obligations quarantine their pins (J-4, D-019), here in the order that is
  // NOT sorted, so the world view's sorted `quarantined` differs from the insertion order.
  const [first, second] = compareCodeUnits(h0, h1) > 0 ? ["ob-c1", "ob-c2"] : ["ob-c2", "ob-c1"];
  for (const ob of [first, second])
    send((t) => ({ op: "custody.attempt", tick: t, agent: A, obligation_id: ob, ack: "declined" }));

  // OP-2.2.c5: the genesis version is still in the chain but quarantined: the birth is J-1.
  birth(late, "OP-2.2.c5");

  // OP-2.3.c4: m1's obligation was applied, so m1 dissolves; a validly signed act within its TTL
  // is then J-3, not accepted.
  send((t) => ({ op: "janma.dissolve", tick: t, agent: A, instance_id: m1.instance_id }));
  act(m1, "OP-2.3.c4");
  // OP-2.6.c3: withdrawing a dissolved life is J-4, as withdrawing a withdrawn one is.
  send(
    (t) => ({ op: "janma.withdraw", tick: t, agent: A, instance_id: m1.instance_id, reason: "principal" }),
    "OP-2.6.c3",
  );
  // OP-2.8.c2: a dissolved life does not dissolve again (its obligation stays discharged, so only
  // the state check refuses it: J-4).
  send((t) => ({ op: "janma.dissolve", tick: t, agent: A, instance_id: m1.instance_id }), "OP-2.8.c2");

  // OP-2.3.c5 (AD-4, D-021): each binding of a signed act is compared on its own. Every act below
  // carries a signature that recomputes over what it says, and differs from the projection in one
  // field only (identity, nonce, manifest digest, the action's tick), so a check that compared
  // only the signature, or only some of the fields, accepts it. The last one, all fields right, is
  // accepted.
  const signedAct = (over: {
    identity?: string;
    nonce?: string;
    manifest_digest?: string;
    actionTick?: (t: number) => number;
  }) =>
    send((t) => {
      const action = {
        tool: "search",
        capability: "fare.search",
        outcome: "ok" as const,
        tick: over.actionTick?.(t) ?? t,
        trace: ["looked up fares"],
      };
      const identity = over.identity ?? s.agent;
      const nonce = over.nonce ?? s.nonce;
      const manifest_digest = over.manifest_digest ?? digestOf(DOMAIN.manifest, s.manifest);
      const signature = digestOf(DOMAIN.action, { identity, nonce, manifest_digest, action });
      return {
        op: "janma.act",
        tick: t,
        agent: A,
        instance_id: s.instance_id,
        signed: { identity, nonce, manifest_digest, action, signature },
      };
    }, "OP-2.3.c5");
  signedAct({ identity: B });
  signedAct({ nonce: m1.nonce });
  signedAct({ manifest_digest: digestOf(DOMAIN.manifest, { ...s.manifest, mission: "another mission" }) });
  signedAct({ actionTick: (t) => t - 1 });
  signedAct({});

  // OP-7.3: the source capabilities, in provider order, are fare.search x.lost z.keep a.keep b.lost;
  // the delta sorts them (lost: b.lost x.lost; unchanged: a.keep fare.search z.keep).
  const C = mint("bo-c", [
    { provider_id: "prov-a", capabilities: ["fare.search", "x.lost", "z.keep"] },
    { provider_id: "prov-b", capabilities: ["a.keep", "b.lost"] },
  ]);
  send((t) => ({ op: "ripa.migration_fence", tick: t, agent: C, migration_id: "m-c", token: "tok-c2" }));
  const cp = send((t) => ({ op: "ripa.migration_checkpoint", tick: t, agent: C, migration_id: "m-c" }));
  const bundle_digest = cp.ok && cp.events[0]?.type === "migration.checkpointed" ? cp.events[0].bundle_digest : BASE;
  send(
    (t) => ({
      op: "ripa.migration_validate",
      tick: t,
      agent: C,
      migration_id: "m-c",
      bundle_digest,
      target: {
        execution: exec("exec-c-new"),
        body_revision: "rev-0",
        providers: [
          { provider_id: "prov-z", kind: "service", contract_version: "v1", capabilities: ["z.keep", "fare.search"] },
          { provider_id: "prov-c", kind: "service", contract_version: "v1", capabilities: ["a.keep"] },
        ],
      },
      gain_authorization: null,
    }),
    "OP-7.3.c8",
  );
  // The migration stays bound: the final world view shows its target providers and surfaces sorted.
  send((t) => ({
    op: "ripa.migration_bind",
    tick: t,
    agent: C,
    migration_id: "m-c",
    surfaces: [surface("s-b"), surface("s-a")],
    labels: {},
  }));
};

export const BOUNDS_OPS_SESSION: ScriptedGoldenSpec = { name: "session-bounds-ops", script };
