/**
 * Advaita wire objects: identity, projection and signed action.
 * Samsara paper, "Advaita: Substrate Identity".
 */
import { z } from "zod";
import { CapabilityId, DigestText, Id, Text, Tick } from "./common.ts";

/** An agent's single identity and what it is computed from (AD-1, D-005). */
export const AdvaitaIdentity = z
  .strictObject({
    identity: DigestText,
    base_digest: DigestText,
    lineage_root: DigestText,
    root: Id,
  })
  .meta({
    id: "AdvaitaIdentity",
    description: "identity = H(base digest || lineage root); lineage root = genesis version.",
  });
export type AdvaitaIdentity = z.infer<typeof AdvaitaIdentity>;

/** A projection: a running instance, distinguished by a nonce that carries attribution, not identity (AD-2). */
export const Projection = z
  .strictObject({
    identity: DigestText,
    nonce: Id,
    manifest_digest: DigestText,
    instance_id: Id,
  })
  .meta({ id: "Projection" });
export type Projection = z.infer<typeof Projection>;

/** One act of a life: the tool and capability used, its outcome, and the episode text it produced. */
export const Action = z
  .strictObject({
    tool: Id,
    capability: CapabilityId,
    outcome: z.enum(["ok", "failed"]),
    tick: Tick,
    trace: z.array(Text(4000)).max(16),
  })
  .meta({ id: "Action" });
export type Action = z.infer<typeof Action>;

/**
 * A signed action (AD-4, D-021): signature = H("advaita/action/v1", {identity, nonce,
 * manifest_digest, action}).
 */
export const SignedAction = z
  .strictObject({
    identity: DigestText,
    nonce: Id,
    manifest_digest: DigestText,
    action: Action,
    signature: DigestText,
  })
  .meta({ id: "SignedAction", description: "An action bound to (identity, nonce, manifest digest)." });
export type SignedAction = z.infer<typeof SignedAction>;
