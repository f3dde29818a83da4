/** What the interpreter looks for in an agent's view: its instances by state. */
import type { AgentView } from "../../spec/index.ts";

export const instancesIn = (a: AgentView, states: readonly string[]) =>
  a.instances.filter((i) => states.includes(i.state));

/** Withdrawn lives that have not been distilled yet (no obligation): the ones a distil can name. */
export const withdrawnUndistilled = (agent: AgentView) =>
  agent.instances.filter((x) => x.state === "withdrawn" && x.obligation_id === null);
