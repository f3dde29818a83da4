/**
 * The generator's own memory of what it produced (never the system's internals), and the profile
 * that chooses its mix of operations.
 */
import type { JanmaManifest } from "../../spec/index.ts";

/** The generator's own memory of what it produced (never the system's internals). */
export interface GenMemory {
  seq: number;
  tick: number;
  readonly lives: Map<string, { manifest: JanmaManifest; nonce: string; trace: string[] }>;
  readonly profile: GenProfile;
  /**
   * Swarm testing: operation kinds this run never chooses (names as in `OP_KINDS`). Disabling a
   * random subset per run makes rare interleavings of the remaining kinds common.
   */
  readonly disabled: ReadonlySet<string>;
  /**
   * Attempts this generator revoked with `ripa.task_pause` (OP-6.12, review G-53) and has not yet
   * answered late, oldest first: a later reply (or a pause with nothing to recover) may carry one to
   * the agent that revoked it, as the killed worker's late reply would; a conforming system rejects
   * it as stale (I4).
   */
  readonly revoked: Array<{ readonly agent: string; readonly task_id: string; readonly attempt_nonce: string }>;
  /**
   * The store profile's own agent (the first minted). A neighbour agent may be minted later (G-39:
   * excision ids are unique per agent, which a one-agent world cannot show); views list agents by
   * identity, so the profile keeps to its own agent by remembering it.
   */
  home?: string;
  /**
   * Edge cases (`newMemory(…, { edges: true })`): the invalid commands that plain random sequences
   * never reach, found by Stryker (reports/stryker.md): commands on dissolved instances, acts whose
   * signature is valid but bound to another projection or tick, a tool used for a capability another
   * binding declares, an environment offering a tool under another name or with fewer capabilities,
   * an ungrantable grant, expiry of an instance that is not live. Off by default, so that the
   * committed golden sessions and campaigns generated from the default mix stay as they are.
   */
  readonly edges?: boolean;
  /** The edge case the last command was made as (null when none): the witness count reads it. */
  lastEdge?: string | null;
  /**
   * A life being led to a dissolution within its TTL (edges only): withdraw, distil, decline the
   * obligation's delivery, dissolve, then act. Random sequences dissolve lives only long after their
   * TTL, where the TTL check (OP-2.3.c6) rejects an act with the same J-3 as the state check
   * (OP-2.3.c4), so the state check alone was never exercised. `steps` bounds a chase whose
   * command is refused (the life then stays where it is).
   */
  chase?: { readonly agent: string; readonly instance_id: string; steps: number } | null;
  /**
   * The last act made, whose trace joins its life's remembered trace only once the view shows it
   * accepted (the instance's act count grew): a leak quoting a refused act's trace is no leak.
   */
  pendingAct?: {
    readonly agent: string;
    readonly instance_id: string;
    readonly acts: number;
    readonly trace: readonly string[];
  } | null;
}
/**
 * Which mix of operations to generate: `mixed` exercises every family; `store` concentrates on one
 * agent's lives, distillations and merges, so that many distillates share keys and per-key means,
 * contested keys and rounding ties (D-002, D-007) occur often (AD-3, S-4, S-5).
 */
export type GenProfile = "mixed" | "store";
export const newMemory = (
  profile: GenProfile = "mixed",
  disabled: ReadonlySet<string> = new Set(),
  options: { readonly edges?: boolean } = {},
): GenMemory => ({
  seq: 0,
  tick: 1,
  lives: new Map(),
  profile,
  disabled,
  revoked: [],
  ...(options.edges === true ? { edges: true, lastEdge: null } : {}),
});

/** The remembered life of `instance_id` of agent `A` (lives are keyed `agent/instance`). */
export const lifeKey = (A: string, instance_id: string): string => `${A}/${instance_id}`;
