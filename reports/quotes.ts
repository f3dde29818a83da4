/**
 * The papers' own wording behind each invariant, for the generated docs: one or two short quotes
 * (a sentence at most), each with the paper's title and the section it stands in. The normative
 * statements in spec/catalog.ts are in the kit's own words; these quotes show where they come from.
 *
 * Every quote is verbatim (up to whitespace) from the paper's text in ../shared/papers/, and stands
 * inside the section it names: reports/quotes.test.ts checks both against the text files.
 */
import type { InvariantId } from "../spec/catalog.ts";

export type PaperName = "Samsara" | "RIPA";

export interface Paper {
  readonly title: string;
  /** The paper's text file in the shared papers folder (../shared/papers relative to the repository). */
  readonly file: string;
  /** The paper's section headings, exactly as lines of the text file, in order. */
  readonly sections: readonly string[];
}

export const PAPERS: Readonly<Record<PaperName, Paper>> = {
  Samsara: {
    title:
      "Samsara: Born With It. Dispositional Continuity, Turnkey Instantiation, and Substrate Identity for Ephemeral Agent Instances",
    file: "000_9e8b4afa334c44a7.txt",
    sections: [
      "Abstract",
      "Introduction",
      "The Samsara Layer",
      "Janma: Turnkey Instantiation",
      "Samskara: Dispositional Continuity",
      "Advaita: Substrate Identity",
      "Unlearning by Replay",
      "Bounded Lifetimes",
      "Reference Implementation",
      "Evaluation",
      "Results",
      "Convergence and Portability",
      "Where Capability Lives",
      "Limitations",
      "Availability and Reproducibility",
      "Conclusion",
      "References",
    ],
  },
  RIPA: {
    title: "Runtime-Independent Persistent Agents",
    file: "002_92d4824371d68d3a.txt",
    sections: [
      "1 Introduction",
      "2 System Model",
      "2.1 Persistent substrate, execution substrate, and interaction surfaces",
      "2.2 Continuity is not bitwise immutability",
      "2.3 Lifecycle operations",
      "3 Architecture",
      "3.1 Provider-neutral binding",
      "3.2 Storage and custody boundaries",
      "3.3 Execution reliability across replacement",
      "4 Authorized Migration Protocol",
      "5 Reference Implementation",
      "5.1 Reusable body and installed agent instance",
      "5.2 Provider contracts and runtime adapters",
      "5.3 Mechanism evidence and its scope",
      "6 Evaluation",
      "7 Discussion",
      "7.1 Agent execution is not the longitudinal agent",
      "7.2 Copying memory does not copy authority",
      "7.3 Safety and governance",
      "8 Related Work",
      "9 Limitations",
    ],
  },
};

export interface Quote {
  readonly paper: PaperName;
  /** One of the paper's `sections`. */
  readonly section: string;
  /** Verbatim from the paper (whitespace aside); at most one sentence. */
  readonly text: string;
}

const samsara = (section: string, text: string): Quote => ({ paper: "Samsara", section, text });
const ripa = (section: string, text: string): Quote => ({ paper: "RIPA", section, text });

const JANMA = "Janma: Turnkey Instantiation";
const SAMSKARA = "Samskara: Dispositional Continuity";
const ADVAITA = "Advaita: Substrate Identity";
const UNLEARNING = "Unlearning by Replay";
const MIGRATION = "4 Authorized Migration Protocol";

export const QUOTES: Readonly<Record<InvariantId, readonly Quote[]>> = {
  "J-1": [
    samsara(
      JANMA,
      "Birth resolves every declared dependency before the instance may become READY, and nothing is acquired after that.",
    ),
  ],
  "J-2": [samsara(JANMA, "J-2 scoped capabilities, so what an instance can do never exceeds what it was granted")],
  "J-3": [
    samsara(
      "Bounded Lifetimes",
      "the manifest declares termination conditions alongside the TTL, the implementation binds a predicate to each and evaluates it after every act, and J-3 is met by whichever arrives first.",
    ),
  ],
  "J-4": [
    samsara(JANMA, "J-4 shutdown emits exactly one distillation obligation."),
    samsara(
      JANMA,
      "A corrective distillate therefore travels under custody, its outcome always reported back as applied, declined or escalated rather than lost silently, while a reinforcing distillate travels best-effort",
    ),
  ],
  "S-1": [
    samsara(
      SAMSKARA,
      "A validator blocks any run of four or more tokens from the trace surviving into guidance, so the store holds rules rather than records.",
    ),
    samsara(
      "The Samsara Layer",
      "the working life leaves no trace but its distillate, because the episodes are destroyed at withdrawal (S-1)",
    ),
  ],
  "S-2": [
    samsara(
      SAMSKARA,
      "Valence runs in [-1,1] and is computed under the principal’s satisfaction model where one exists, so the distiller cannot substitute its own judgement of how the life went; a zero-confidence signal is inadmissible.",
    ),
  ],
  "S-3": [
    samsara(
      UNLEARNING,
      "This amends S-3: history is append-only except through excision, and the excision is itself appended.",
    ),
  ],
  "S-4": [samsara(SAMSKARA, "S-4 the lineage replays deterministically and can be attested as a typed claim")],
  "S-5": [
    samsara(
      UNLEARNING,
      "S-5 (Excisable Lineage) therefore defines deletion as re-derivation: replay the merge history with the forgotten distillates left out.",
    ),
    samsara(
      UNLEARNING,
      "The re-derived chain is bit-identical to the chain the remaining distillates would have produced, and the reference implementation verifies that as a runtime test.",
    ),
  ],
  "AD-1": [
    samsara(
      ADVAITA,
      "two stores created from the same base model with a shared default root compute the same digest, so minting an identity requires a unique root such as a UUID.",
    ),
  ],
  "AD-2": [
    samsara(
      ADVAITA,
      "Running instances are projections, distinguished by nonces that carry attribution but no identity",
    ),
    samsara(UNLEARNING, "A life’s entire influence on the store arrives through one object, its distillate."),
  ],
  "AD-3": [samsara(ADVAITA, "so any two nodes merging the same distillate set compute the identical store version.")],
  "AD-4": [
    samsara(ADVAITA, "actions are signed (identity, nonce, manifest)."),
    samsara(
      "Where Capability Lives",
      "attributable, since per-key weights carry evidence digests and a lineage (S-3, S-4, AD-4)",
    ),
  ],
  I1: [
    ripa(
      MIGRATION,
      "Migration preserves installed identity version and attributable lineage; updates require declared governance.",
    ),
  ],
  I2: [
    ripa(
      MIGRATION,
      "Memory and continuity-relevant workflow state extend or validly migrate their recorded ancestry; they are not silently reset.",
    ),
  ],
  I3: [
    ripa(MIGRATION, "The target executes the same body revision unless a separately governed evolution is declared."),
  ],
  I4: [
    ripa(
      MIGRATION,
      "Within the governed deployment boundary, at most one cooperating execution can hold continuation authority and produce authoritative external effects for the migrated instance.",
    ),
  ],
  I5: [ripa(MIGRATION, "Environmental capability deltas are visible and do not masquerade as identity changes.")],
  I6: [
    ripa(
      MIGRATION,
      "Execution, process, interaction-surface, and deployment labels remain environment metadata and do not overwrite the installed identity.",
    ),
  ],
};
