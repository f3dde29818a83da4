/** OP-0.1: the world: agents by identity digest, lineage roots ever used, the latest tick. */
import type { Agent } from "./agent.ts";

export class World {
  tick = 0;
  readonly rootsUsed = new Set<string>();
  readonly agents = new Map<string, Agent>();
}
