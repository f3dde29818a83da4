/**
 * A distillation obligation (J-4, D-018) and the distillate it carries until it is merged or
 * otherwise discharged (then the content is dropped).
 */
import type { CustodyOutcome, ObligationKind } from "../../spec/index.ts";
import type { HeldDistillate } from "./store.ts";

export class Obligation {
  attempts = 0;
  status: "pending" | "discharged" = "pending";
  outcome: CustodyOutcome | null = null;

  constructor(
    readonly obligationId: string,
    readonly instanceId: string,
    readonly kind: ObligationKind,
    readonly distillateId: string,
    readonly distillateDigest: string,
    readonly bornFrom: string,
    readonly createdTick: number,
    readonly deadlineTick: number,
    readonly maxRetries: number,
    /** The distillate awaiting merge; null once discharged. */
    public held: HeldDistillate | null,
  ) {}

  discharge(outcome: CustodyOutcome): void {
    this.status = "discharged";
    this.outcome = outcome;
    this.held = null;
  }
}
