/** OP-0.1: the world: agents by identity digest, lineage roots ever used, the latest tick. */
import type { Agent } from "./agent.ts";
import { TrackedMap, TrackedSet } from "./tracked.ts";

export class World {
  tick = 0;
  readonly rootsUsed = new TrackedSet<string>();
  readonly agents = new TrackedMap<string, Agent>();
  /**
   * Agents the current command may have changed (the one it names; a new agent is in `agents`'
   * changed keys). The store looks only at these when it commits, then clears the set.
   */
  readonly touched = new Set<Agent>();

  /** A command was rejected: nothing changed, so forget what its checks touched. */
  forgetTouches(): void {
    for (const a of this.touched) {
      a.instances.forgetChanged();
      a.obligations.forgetChanged();
    }
    this.touched.clear();
  }
}
