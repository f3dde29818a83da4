/**
 * What each certification stage is about, as plain data: the invariants it concerns and one line
 * saying what it does. The rest of a stage's definition (its shard gate and its run) is in its own
 * file (conformance/stages/<name>.ts) and conformance/stages/registry.ts puts them together.
 *
 * Kept apart from the runners on purpose: the verdict rules (conformance/verdicts/decide.ts), the
 * reporters, `srk list` and the generated reports read this without loading the driver, the model
 * and every stage's campaign; and the stages themselves import the verdicts layer (witnesses), so
 * decide.ts importing the runners would tie the two layers into a circle.
 *
 * The order of the stages is the spec's (spec/names.ts STAGES, normative), not this file's.
 */
import { INVARIANT_IDS, type InvariantId } from "../../spec/catalog.ts";
import { STAGES, type StageName } from "../../spec/names.ts";

export interface StageEntry<N extends StageName = StageName> {
  readonly name: N;
  /**
   * The invariants the stage's inability to finish leaves undecided (decide.ts), the stages
   * `--only` runs (certify.ts stagesFor), the invariants a reporter lists under the stage.
   * Empty for a stage that checks only the wire protocol (no invariant).
   */
  readonly concerns: readonly InvariantId[];
  /** What the stage does, in one line (reports/invariants.md "Checked by"). */
  readonly description: string;
  /** What it checks, by rule, as `srk list` prints it under the stage's name. */
  readonly listed: string;
}

/** One entry per stage, keyed by name: `satisfies` makes a missing or misspelt stage a type error. */
export const STAGE_CATALOG = {
  handshake: {
    name: "handshake",
    concerns: INVARIANT_IDS,
    description: "version negotiation and the declared profile (W-5)",
    listed:
      "W-5: NOT_HANDSHAKEN before hello, UNSUPPORTED_VERSION, version choice, HelloResult, a second hello refused; reads the profile",
  },
  golden: {
    name: "golden",
    concerns: INVARIANT_IDS,
    description:
      "the golden sessions replayed, every reply compared (W-9), the implementation restarted on its data directory every 40 lines and at the end (W-7.1)",
    listed: "W-9: the committed golden sessions, every normative reply part compared, for the families in the profile",
  },
  wire: {
    name: "wire",
    concerns: [],
    description: "hostile input (W-1, W-4)",
    listed:
      "W-1, W-2.1, W-4: the hostile-input catalog, each line's wire code in W-4 order, one reply per line, data directory unchanged",
  },
  exhaustive: {
    name: "exhaustive",
    concerns: INVARIANT_IDS,
    description:
      "every edge (state, command) of a small scope of the model explored breadth first, driven over the wire from the initial world, every reply and world view compared (D-074)",
    listed:
      "every edge (state, command) of a scope of the model (quick; --exhaustive <scope>), explored breadth first with the profile's operations, driven over the wire from the initial world; every reply and every distinct state's world view compared",
  },
  differential: {
    name: "differential",
    concerns: INVARIANT_IDS,
    description: "generated runs compared step by step with the reference model, failures shrunk over the wire (D-037)",
    listed:
      "generated runs (swarm testing) with the reference model as oracle: every reply and the world view at checkpoints; failures shrunk over the wire",
  },
  algebra: {
    name: "algebra",
    concerns: ["AD-3", "S-4", "S-5"],
    description:
      "merge orders, batchings and duplicates (AD-3), replay claims (S-4), excision against never merging (S-5)",
    listed:
      "AD-3 merge order-independence over orders, batchings and duplicates; S-4 replay claims; S-5 excision equals never having merged",
  },
  crash: {
    name: "crash",
    concerns: INVARIANT_IDS,
    description:
      "crash hook before and after every durable write, SIGKILL with requests in flight; the recovered world must equal the model's (W-7)",
    listed:
      "W-7: crash hook at every durable write (before and after commit) and SIGKILL with requests in flight; recovery to the right prefix",
  },
  forgetting: {
    name: "forgetting",
    concerns: ["S-1", "S-5"],
    description: "byte scans of the data directory for destroyed traces and excised distillates (W-7.2)",
    listed:
      "W-7.2: no trace byte after distillation (S-1), no excised content after excision (S-5), in any file under the data directory",
  },
} as const satisfies { readonly [N in StageName]: StageEntry<N> };

/** A table of one field of every entry, keyed by stage (the spec's order). */
const column = <T>(pick: (e: StageEntry) => T): Readonly<Record<StageName, T>> =>
  Object.fromEntries(STAGES.map((s) => [s, pick(STAGE_CATALOG[s])])) as Record<StageName, T>;

/** Which invariants a stage's inability to finish leaves undecided (derived: the catalog's concerns). */
export const STAGE_CONCERNS: Readonly<Record<StageName, readonly InvariantId[]>> = column((e) => e.concerns);

/** What each stage does, in one line (derived: the catalog's descriptions). */
export const STAGE_WHAT: Readonly<Record<StageName, string>> = column((e) => e.description);
