/**
 * The mint (Advaita, OP-5.1): a new agent. Made before any agent is chosen (and whenever the world
 * has none yet), so its maker needs no agent.
 */
import type { Command, ProviderGrant, WorldView } from "../../spec/index.ts";
import { pick, type Choice } from "./choice.ts";
import { BASE, exec } from "./values.ts";

/**
 * Providers for a mint (spec review G-33): capability lists sometimes unsorted and with a duplicate,
 * providers sometimes listed out of provider_id order, and, when `duplicate`, one provider id twice
 * (DUPLICATE_ID, OP-5.1), so that set semantics, provider order and the duplicate check all matter.
 */
const mintProviders = (y: number, duplicate: boolean): ProviderGrant[] => {
  const a: ProviderGrant = {
    provider_id: "prov-a",
    kind: "service",
    contract_version: "v1",
    capabilities: y % 3 === 1 ? ["mail.send", "fare.search", "mail.send"] : ["fare.search", "mail.send"],
  };
  if (duplicate) return [a, { ...a, capabilities: ["mail.send"] }];
  // prov-0 never grants vcs.push, which the generator's invalid effects ask for (I5).
  return y % 3 === 2
    ? [a, { provider_id: "prov-0", kind: "vcs", contract_version: "v1", capabilities: ["vcs.tag", "vcs.read"] }]
    : [a];
};

/** What a mint needs of a step: no agent. */
export interface MintStep {
  readonly v: WorldView;
  readonly c: Choice;
  readonly bad: boolean;
  readonly tick: number;
  readonly id: (p: string) => string;
}

export const mint = ({ v, c, bad, tick, id }: MintStep): Command => {
  const duplicateProviders = bad && c.y % 2 === 1;
  const root = bad && !duplicateProviders && v.roots_used.length > 0 ? (pick(v.roots_used, c.x) ?? "r") : id("root-");
  return {
    op: "advaita.mint",
    tick,
    base_digest: BASE,
    root,
    designation: "agent",
    body_revision: "rev-0",
    custodians: ["custodian-1"],
    execution: exec(id("exec-")),
    providers: mintProviders(c.y, duplicateProviders),
    required_capabilities: ["fare.search"],
    authority_token: id("tok-"),
  };
};
