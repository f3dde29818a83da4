/**
 * Sharper attribution for a reply whose outcome agrees but whose events differ (D-035 rule 2):
 * an event such as `store.merged { version_id }` digests several fields at once, so it cannot
 * tell a wrong parent link (S-3) from a wrong aggregate (AD-3). The runner resets, replays the
 * commands up to and including the diverging one, and compares the implementation's world view
 * with the model's at that point: the first differing field names the invariant. When the world
 * agrees, the event difference stands as it was.
 */
import type { Command } from "../../spec/index.ts";
import { initialWorld, view } from "../../model/index.ts";
import type { Session } from "../driver/target.ts";
import { compareWorld, type Mismatch } from "./compare.ts";
import { expect1 } from "./model.ts";
import { runPlanned, type PlannedStep } from "./planned.ts";

const commandOf = (s: PlannedStep): Command | null => (s.request.type === "command" ? (s.request["command"] as Command) : null);

export const refineMismatch = async (session: Session, steps: readonly PlannedStep[], index: number, m: Mismatch): Promise<Mismatch> => {
  if (m.path === null || !m.path.startsWith("$reply.events")) return m;
  const commands = steps.slice(0, index + 1).filter((s) => commandOf(s) !== null);
  let world = initialWorld();
  for (const s of commands) world = expect1(world, commandOf(s) as Command).world;
  const last = commandOf(steps[index] as PlannedStep);
  const worldQuery: PlannedStep = { request: { type: "query", id: "refine-world", query: { name: "world" } }, expected: { ok: true, events: [], result: view(world) } };
  await session.ok({ type: "reset" });
  const { replies } = await runPlanned(session, [...commands, worldQuery]);
  const actual = replies.at(-1);
  if (actual === undefined || !actual.ok) return m;
  const w = compareWorld(last?.op ?? "unknown", view(world), actual.result);
  return w === null ? m : { ...w, summary: `${m.summary}; the world after it differs too: ${w.summary}` };
};
