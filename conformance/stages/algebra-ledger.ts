/**
 * The algebra stage's bookkeeping: findings (the first per check and invariant, later ones
 * counted in a note so one systematic fault does not flood the certificate), witnesses, checks,
 * progress, the time budget, and the final outcome.
 */
import type { InvariantId } from "../../spec/catalog.ts";
import { outOfTime } from "./budget.ts";
import { outcome, type Finding, type StageContext, type StageOutcome } from "./types.ts";

export class AlgebraLedger {
  private readonly kept = new Map<string, Finding>();
  private readonly repeats = new Map<string, number>();
  private readonly witnessed = new Map<InvariantId, number>();
  readonly notes: string[] = [];
  checks = 0;
  done = 0;
  /** Why the stage stopped early without a verdict (time budget, an undrivable implementation). */
  stopped: string | null = null;

  constructor(
    private readonly ctx: StageContext,
    private readonly total: number,
  ) {}

  finding(f: Finding): void {
    const key = `${f.check}|${f.invariant ?? "wire"}`;
    if (this.kept.has(key)) {
      this.repeats.set(key, (this.repeats.get(key) ?? 0) + 1);
      return;
    }
    this.kept.set(key, f);
    this.ctx.progress.line(`srk: algebra: ${f.invariant ?? "wire"} ${f.check}: ${f.summary.slice(0, 300)}`);
  }

  witness(id: InvariantId): void {
    this.ctx.witnesses.add(id, "algebra");
    this.witnessed.set(id, (this.witnessed.get(id) ?? 0) + 1);
  }

  witnesses(id: InvariantId): number {
    return this.witnessed.get(id) ?? 0;
  }

  get findings(): Finding[] {
    return [...this.kept.values()];
  }

  /** One run finished. */
  tick(): void {
    this.done++;
    const witnesses = [...this.witnessed.values()].reduce((a, b) => a + b, 0);
    this.ctx.progress.tick(this.done, this.total, { witnesses, violations: this.kept.size });
  }

  /** False (and a reason recorded) once the time budget is spent. */
  timeLeft(): boolean {
    if (!outOfTime(this.ctx)) return true;
    this.stopped = `the time budget ran out after ${this.done} of ${this.total} runs`;
    return false;
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
