/**
 * The algebra checker's bookkeeping: findings (the first per check and invariant, later ones
 * counted in a note so one systematic fault does not flood the certificate), witnesses, checks,
 * the runs judged, why the stage stopped, and the final outcome. Pure: the checker fills it from a
 * history; the stage reports its witnesses and findings to the context afterwards.
 */
import type { InvariantId } from "../../spec/catalog.ts";
import { outcome, type Finding, type StageOutcome } from "./types.ts";

export class AlgebraLedger {
  private readonly kept = new Map<string, Finding>();
  private readonly repeats = new Map<string, number>();
  private readonly witnessed = new Map<InvariantId, number>();
  /** Every witness, in the order the checker counted it. */
  readonly witnessOrder: InvariantId[] = [];
  readonly notes: string[] = [];
  checks = 0;
  /** Runs judged. */
  done = 0;
  /** Why the stage stopped early without a verdict (time budget, an undrivable implementation). */
  stopped: string | null = null;

  finding(f: Finding): void {
    const key = `${f.check}|${f.invariant ?? "wire"}`;
    if (this.kept.has(key)) {
      this.repeats.set(key, (this.repeats.get(key) ?? 0) + 1);
      return;
    }
    this.kept.set(key, f);
  }

  witness(id: InvariantId): void {
    this.witnessOrder.push(id);
    this.witnessed.set(id, (this.witnessed.get(id) ?? 0) + 1);
  }

  witnesses(id: InvariantId): number {
    return this.witnessed.get(id) ?? 0;
  }

  get findings(): Finding[] {
    return [...this.kept.values()];
  }

  result(passReason: string): StageOutcome {
    const notes = [...this.notes];
    for (const [key, n] of this.repeats)
      notes.push(`${n} more violation(s) of ${key.replace("|", " under ")} not listed (the first is)`);
    if (this.stopped !== null) notes.push(this.stopped);
    const findings = this.findings;
    if (findings.length > 0) {
      const what = [...new Set(findings.map((f) => `${f.invariant ?? "wire"} (${f.check})`))].join(", ");
      return outcome("fail", `${findings.length} violation(s): ${what}`, this.checks, findings, notes);
    }
    if (this.stopped !== null) return outcome("inconclusive", this.stopped, this.checks, [], notes);
    return outcome("pass", passReason, this.checks, [], notes);
  }
}
