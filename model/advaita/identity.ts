/**
 * Advaita identity (AD-1, OP-1.4/1.5) and the digests that bind an agent's records: the action
 * signature (AD-4, D-021), memory snapshots (I2, OP-1.10) and the identity record digest (OP-1.11).
 */
import {
  DOMAIN,
  digestOf,
  identityOf,
  type Action,
  type AdvaitaIdentity,
  type Digest,
  type IdentityRecord,
} from "../../spec/index.ts";
import { genesisVersion } from "../samskara/lineage.ts";

/** AD-1: identity = H(base digest || lineage root), lineage root = genesis version id. */
export const advaitaIdentityOf = (baseDigest: Digest, root: string): AdvaitaIdentity => {
  const genesis = genesisVersion(baseDigest, root).version_id as Digest;
  return { identity: identityOf(baseDigest, genesis), base_digest: baseDigest, lineage_root: genesis, root };
};

/** AD-4 (D-021): the signature an action must carry to be attributed to its projection. */
export const actionSignature = (identity: string, nonce: string, manifestDigest: string, action: Action): Digest =>
  digestOf(DOMAIN.action, { identity, nonce, manifest_digest: manifestDigest, action });

export type SnapshotCause = "install" | "merge" | "excise" | "task_start";

/** I2 (OP-1.10): one memory snapshot, chained to the previous one. */
export const memorySnapshot = (
  prev: string | null,
  cause: SnapshotCause,
  storeHead: string,
  taskIds: readonly string[],
): Digest => digestOf(DOMAIN.memorySnapshot, { prev, cause, store_head: storeHead, task_ids: [...taskIds] });

/** OP-1.11. */
export const identityRecordDigest = (record: IdentityRecord): Digest => digestOf(DOMAIN.identityRecord, record);
