/**
 * One life (projection) of an agent: its manifest, lifecycle state, act counters and, until it is
 * distilled, its episode trace (D-029). Mutable; operation handlers change it after their checks.
 */
import type { InstanceState, JanmaManifest, WithdrawalReason } from "../../spec/index.ts";

export class Instance {
  state: InstanceState = "conceived";
  bornTick: number | null = null;
  acts = 0;
  failures = 0;
  consecutiveFailures = 0;
  readonly toolsUsed = new Set<string>();
  /** Episode trace entries; emptied (and never persisted again) when the life is distilled (S-1). */
  trace: string[] = [];
  grants: string[] = [];
  tools: string[] = [];
  withdrawal: WithdrawalReason | null = null;
  withdrawnTick: number | null = null;
  obligationId: string | null = null;

  constructor(
    readonly instanceId: string,
    readonly nonce: string,
    readonly manifest: JanmaManifest,
    readonly manifestDigest: string,
    readonly bornFrom: string,
  ) {}

  withdraw(reason: WithdrawalReason, tick: number): void {
    this.state = "withdrawn";
    this.withdrawal = reason;
    this.withdrawnTick = tick;
  }
}
