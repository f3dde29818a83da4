/**
 * Scenario helpers shared by the model's tests: drive `transition` and fail loudly with the
 * rejection when a step that should be accepted is not (and vice versa).
 */
import { Result } from "effect";
import type { Command, Event, JanmaManifest } from "../spec/index.ts";
import { initialWorld, transition } from "./world.ts";
import type { World } from "./state.ts";
import type { Rejection } from "./rejection.ts";
import * as K from "./testkit.ts";

export const accept = (w: World, c: Command): { world: World; events: Event[] } => {
  const r = transition(w, c);
  if (Result.isFailure(r)) throw new Error(`expected ${c.op} to be accepted, got ${r.failure.code}: ${r.failure.message}`);
  return r.success;
};

export const rejection = (w: World, c: unknown): Rejection => {
  const r = transition(w, c);
  if (Result.isSuccess(r)) throw new Error(`expected ${(c as Command).op} to be rejected, it was accepted`);
  return r.failure;
};

/** Apply commands in order, all of which must be accepted. */
export const acceptAll = (w: World, cs: readonly Command[]): World => cs.reduce((acc, c) => accept(acc, c).world, w);

export const ROOT = "root-1";
export const AGENT = K.identityFor(ROOT);
export const PIN = K.genesisFor(ROOT);

export const minted = (): World => accept(initialWorld(), K.mintCmd(1, ROOT)).world;

export interface Life {
  readonly id: string;
  readonly nonce: string;
  readonly manifest: JanmaManifest;
}

export const life = (id: string, pin: string = PIN, over: Partial<JanmaManifest> = {}): Life => ({
  id,
  nonce: `nonce-${id}`,
  manifest: K.manifest(pin, over),
});

/** conceive + birth at `tick`. */
export const born = (w: World, l: Life, tick: number, agent: string = AGENT): World =>
  acceptAll(w, [
    { op: "janma.conceive", tick, agent, instance_id: l.id, nonce: l.nonce, manifest: l.manifest },
    { op: "janma.birth", tick, agent, instance_id: l.id, environment: K.ENV },
  ]);

export const distilCmd = (
  l: Life,
  tick: number,
  distillateId: string,
  valence: number,
  confidence: number,
  dispositions: readonly ReturnType<typeof K.disposition>[],
  agent: string = AGENT,
): Command => ({
  op: "janma.distil",
  tick,
  agent,
  instance_id: l.id,
  obligation_id: `ob-${distillateId}`,
  distillate: K.distillate({
    id: distillateId,
    agent,
    nonce: l.nonce,
    instanceId: l.id,
    bornFrom: l.manifest.substrate.store_version,
    valence,
    confidence,
    dispositions,
  }),
});

/** A full life up to a pending obligation `ob-<distillateId>`. */
export const distilled = (
  w: World,
  l: Life,
  tick: number,
  distillateId: string,
  valence: number,
  confidence: number,
  dispositions: readonly ReturnType<typeof K.disposition>[],
): World =>
  acceptAll(born(w, l, tick), [
    K.actCmd(tick, AGENT, l.id, l.nonce, l.manifest, { trace: ["searched fares to lisbon on tuesday morning"] }),
    { op: "janma.withdraw", tick, agent: AGENT, instance_id: l.id, reason: "principal" },
    distilCmd(l, tick, distillateId, valence, confidence, dispositions),
  ]);

export { K };
