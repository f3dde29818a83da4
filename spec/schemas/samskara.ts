/**
 * Samskara wire objects: dispositions, satisfaction signals, distillates, consent grants,
 * merge batches, store versions, excision records and the lineage-replay claim.
 * Samsara paper, "Samskara: Dispositional Continuity" and "Unlearning by Replay".
 */
import { z } from "zod";
import { listOrder } from "../list-orders.ts";
import { Authorization, Count, DigestText, Id, SignedMicro, Text, Tick, UnitMicro } from "./common.ts";

/** The nine data categories of the consent grid (D-011). */
export const DATA_CATEGORIES = [
  "biometric",
  "health",
  "financial",
  "location",
  "behavioral",
  "identity",
  "communications",
  "minor_or_dependent",
  "operational",
] as const;
export const DataCategory = z.enum(DATA_CATEGORIES).meta({ id: "DataCategory" });
export type DataCategory = z.infer<typeof DataCategory>;

/** The eight usage dimensions of the consent grid; persisting a disposition is `storage` and `training` (D-011, D-058). */
export const USAGE_DIMENSIONS = [
  "storage",
  "access",
  "third_party_sharing",
  "automated_decision",
  "training",
  "aggregation",
  "cross_context_use",
  "deletion_or_portability",
] as const;
export const UsageDimension = z.enum(USAGE_DIMENSIONS).meta({ id: "UsageDimension" });

export const SENSITIVITIES = ["low", "medium", "high"] as const;
export const Sensitivity = z.enum(SENSITIVITIES).meta({ id: "Sensitivity" });
export type Sensitivity = z.infer<typeof Sensitivity>;

export const ConsentCell = z.strictObject({
  category: DataCategory,
  dimension: UsageDimension,
  sensitivity: Sensitivity,
});

export const ConsentDefault = z.strictObject({
  category: DataCategory,
  sensitivity: Sensitivity,
});

/**
 * The principal's consent grant (D-011). Sensitivity resolves per (category, dimension) as:
 * the exact cell, else the category's default row, else `low`. A disposition of category C may
 * persist iff the resolved sensitivities of (C, storage) and (C, training) are both at or below
 * `persist_ceiling` (D-058).
 * Cells are unique per (category, dimension) and default rows per category (D-042), so each
 * lookup finds at most one row; JSON Schema cannot say so, hence the `x-rules` of the export.
 */
export const ConsentGrant = z
  .strictObject({
    grant_id: Id,
    principal: Id,
    cells: z.array(ConsentCell).max(72),
    category_defaults: z.array(ConsentDefault).max(9),
    persist_ceiling: z.enum(["low", "medium"]),
  })
  .superRefine((g, ctx) => {
    const seen = new Set<string>();
    g.cells.forEach((c, i) => {
      const k = `${c.category}/${c.dimension}`;
      if (seen.has(k))
        ctx.addIssue({
          code: "custom",
          path: ["cells", i],
          message: `duplicate consent cell ${k}`,
          params: { rule: "ConsentGrant.unique-cells" },
        });
      seen.add(k);
    });
    const cats = new Set<string>();
    g.category_defaults.forEach((d, i) => {
      if (cats.has(d.category))
        ctx.addIssue({
          code: "custom",
          path: ["category_defaults", i],
          message: `duplicate default row for ${d.category}`,
          params: { rule: "ConsentGrant.unique-category-defaults" },
        });
      cats.add(d.category);
    });
  })
  .meta({
    id: "ConsentGrant",
    description: "Consent grid authorising which categories of disposition may persist.",
    // Rules of spec/json-schema/rules.json that JSON Schema cannot express (G-5).
    "x-rules": ["ConsentGrant.unique-cells", "ConsentGrant.unique-category-defaults"],
  });
export type ConsentGrant = z.infer<typeof ConsentGrant>;

/** A behavioural key: lowercase ASCII so every language orders keys the same way (D-003). */
export const DispositionKey = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._:-]{0,199}$/, {
    error: "expected a disposition key: 1-200 lowercase ASCII letters, digits or ._:- (e.g. 'tool.fare_search')",
  })
  .meta({ id: "DispositionKey" });

/**
 * A disposition: one typed, weighted rule. The four fields of the Samsara paper (key, guidance,
 * weight, evidence digest) plus the consent category it falls under (D-011).
 */
export const Disposition = z
  .strictObject({
    key: DispositionKey,
    guidance: Text(1000, 1, "guidance must not be empty"),
    weight: SignedMicro,
    evidence_digest: DigestText,
    category: DataCategory,
  })
  .meta({
    id: "Disposition",
    description: "A typed behavioural rule: key, guidance, signed weight, evidence digest, consent category.",
  });
export type Disposition = z.infer<typeof Disposition>;

/**
 * The principal's satisfaction signal (D-012). Confidence 0 is well-formed; S-2 accepts it only in
 * the no-feedback distillate (valence 0, no dispositions, D-057) and rejects it otherwise, so that
 * the rejection names the invariant rather than the schema.
 */
export const SatisfactionSignal = z
  .strictObject({
    valence: SignedMicro,
    confidence: UnitMicro,
    model_version: z.union([Text(128), z.null()]),
    explicit: z.boolean(),
  })
  .meta({
    id: "SatisfactionSignal",
    description:
      "Principal-declared valence in [-1,1] and confidence in [0,1] (0 only for a life without feedback, D-057), under the model the manifest declares (D-053).",
  });
export type SatisfactionSignal = z.infer<typeof SatisfactionSignal>;

/** Where a distillate came from: the projection (identity, nonce) and its instance id (AD-4). */
export const DistillateSource = z.strictObject({
  identity: DigestText,
  nonce: Id,
  instance_id: Id,
});

/**
 * A SamskaraDistillate: everything a life leaves behind. Strict: any other field (an episode,
 * a trace, a transcript) makes it invalid (S-1).
 */
export const SamskaraDistillate = z
  .strictObject({
    distillate_id: Id,
    source: DistillateSource,
    born_from: DigestText,
    signal: SatisfactionSignal,
    dispositions: z.array(Disposition).max(64, { error: "a distillate carries at most 64 dispositions" }),
  })
  .superRefine((d, ctx) => {
    const keys = new Set<string>();
    d.dispositions.forEach((disp, i) => {
      if (keys.has(disp.key))
        ctx.addIssue({
          code: "custom",
          path: ["dispositions", i, "key"],
          message: `duplicate disposition key ${disp.key}`,
          params: { rule: "SamskaraDistillate.unique-disposition-keys" },
        });
      keys.add(disp.key);
    });
  })
  .meta({
    id: "SamskaraDistillate",
    description: "The single object through which a life influences the store.",
    "x-rules": ["SamskaraDistillate.unique-disposition-keys"],
  });
export type SamskaraDistillate = z.infer<typeof SamskaraDistillate>;

/** One merged disposition as the store holds it (D-002, D-007). */
export const StoreEntry = z
  .strictObject({
    key: DispositionKey,
    guidance: Text(1000),
    weight: SignedMicro,
    category: DataCategory,
    contested: z.boolean(),
    contributors: z.array(Id).describe(listOrder("StoreEntry", "contributors")),
  })
  .meta({ id: "StoreEntry", description: "A merged disposition with the distillates that contributed it (AD-4)." });
export type StoreEntry = z.infer<typeof StoreEntry>;

/** The whole store state: entries sorted by key. Its digest is the state digest (D-006). */
export const StoreState = z
  .strictObject({ entries: z.array(StoreEntry).describe(listOrder("StoreState", "entries")) })
  .meta({ id: "StoreState" });
export type StoreState = z.infer<typeof StoreState>;

export const BatchMember = z.strictObject({ distillate_id: Id, digest: DigestText });

/** A merge batch as recorded in the lineage: its members sorted by digest (D-006). */
export const MergeBatch = z
  .strictObject({
    batch_digest: DigestText,
    members: z.array(BatchMember).min(1).describe(listOrder("MergeBatch", "members")),
  })
  .meta({ id: "MergeBatch", description: "One recorded merge: the distillates it added, sorted by digest." });
export type MergeBatch = z.infer<typeof MergeBatch>;

/** A version in the chain. Genesis has `parent: null` and `batch_digest: null` (D-006). */
export const StoreVersion = z
  .strictObject({
    version_id: DigestText,
    seq: Count,
    parent: z.union([DigestText, z.null()]),
    batch_digest: z.union([DigestText, z.null()]),
    state_digest: DigestText,
  })
  .meta({ id: "StoreVersion" });
export type StoreVersion = z.infer<typeof StoreVersion>;

/** Appended on excision: identifiers and digests only, never content (S-5, D-009). */
export const ExcisionRecord = z
  .strictObject({
    excision_id: Id,
    tick: Tick,
    excised: z.array(BatchMember).min(1).describe(listOrder("ExcisionRecord", "excised")),
    prior_head: DigestText,
    new_head: DigestText,
    authorization: Authorization,
  })
  .meta({ id: "ExcisionRecord", description: "Record of an excision: ids and digests only." });
export type ExcisionRecord = z.infer<typeof ExcisionRecord>;

/** Typed attestation that the lineage replays to its head (S-4, D-006). */
export const LineageReplayClaim = z
  .strictObject({
    claim_type: z.literal("samskara.lineage_replay/v1"),
    identity: DigestText,
    genesis: DigestText,
    head: DigestText,
    versions: Count,
    batch_digests: z.array(DigestText).describe(listOrder("LineageReplayClaim", "batch_digests")),
    state_digest: DigestText,
    excisions: Count,
  })
  .meta({
    id: "LineageReplayClaim",
    description: "Claim that replaying the batches from genesis reproduces the head.",
  });
export type LineageReplayClaim = z.infer<typeof LineageReplayClaim>;
