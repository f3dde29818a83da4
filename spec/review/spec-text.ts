/**
 * Spec review 1, the spec-text items: escaping and the version chain (G-1, G-2), a language-neutral
 * spec (G-4), the rules JSON Schema cannot express (G-5, G-30's consent part), string length units
 * (G-6) and list orders (G-47, G-48).
 */
import type { ReviewRow } from "./types.ts";

/** Why the documents-only fixes have no golden line or mutant of their own. */
const DOCUMENTS_ONLY =
  "Documents only: the behaviour did not change, the text now says what the kit always did; the digest vectors of spec/vectors/digests.json (checked byte for byte by spec/digest.test.ts, and by the review's own implementation) pin it, not a golden line or an implementation mutant.";

export const ROWS: readonly ReviewRow[] = [
  {
    item: "G-1",
    status: "fixed",
    where: ["ENC-2"],
    summary:
      'ENC-2 now spells out RFC 8785\'s string escaping: \\" and \\\\, the short escapes \\b \\t \\n \\f \\r for those five controls, lowercase \\u00xx for the other controls below U+0020, everything else literal. A new digest vector "short escapes and other controls" holds every short escape, two other controls, U+007F and a slash; the review\'s reading (short escapes, as the vectors showed) is the rule.',
    golden: [],
    mutants: [],
    unpinned: DOCUMENTS_ONLY,
  },
  {
    item: "G-2",
    status: "fixed",
    where: ["ENC-7", "OP-1.4", "D-006"],
    summary:
      'ENC-7 and D-006 now separate the genesis version, whose id is H(genesis, {base_digest, root}) and whose record has parent and batch_digest null and the empty state\'s digest, from later versions, whose id is H(version, {parent, batch, state}); the preimage members are named parent, batch and state although the record\'s fields are batch_digest and state_digest. This is the review\'s reading (OP-1.4); the vectors "genesis version" and "version after the first batch" pin both forms.',
    golden: [],
    mutants: [],
    unpinned: DOCUMENTS_ONLY,
  },
  {
    item: "G-4",
    status: "fixed",
    where: [
      "OP-0.6",
      "OP-0.7",
      "OP-6.9",
      "OP-7.4",
      "W-2.2",
      "W-3.2",
      "W-4",
      "W-6",
      "ENC-4",
      "TAB-1",
      "TAB-2",
      "TAB-3",
      "TAB-4",
      "TAB-5",
    ],
    summary:
      "The domain tags (with the names OPERATIONS.md uses in digestOf), the reserved label keys, every operation and wire error code with its invariant and definiteness, every operation with its clause, and every list order are tables TAB-1..TAB-5 of spec/TABLES.md and keys of spec/tables.json, generated from the kit's source; the clauses cite the tables, OP-0.7 defines genesisVersionOf, identityOf, batchDigestOf and versionIdOf, and a test forbids a .ts file in normative prose outside a generated header or a line marked informative.",
    golden: [],
    mutants: [],
    unpinned:
      "Documents only: the tables are generated from the code the model and implementation already run (spec/generated.test.ts fails when they are stale, spec/tables.test.ts checks them against the prose); no behaviour changed, so no golden line or mutant can tell the old text from the new.",
  },
  {
    item: "G-5",
    status: "fixed",
    where: ["OP-0.2", "OP-2.7", "D-028", "D-042"],
    summary:
      "spec/json-schema/rules.json lists the five rules JSON Schema cannot express (unique cells and default rows in a consent grant, one disposition per key, one binding per tool, unique termination-condition ids), each with schema, path, statement and an invalid example; each schema names its rules in an x-rules keyword, and spec/rules.test.ts proves that Ajv plus a checker written from rules.json accepts and rejects exactly what zod does on every example. Duplicate default rows are now rejected too (D-042), where the review let the first row win. Line G-5.32 pins the termination-condition rule (two conditions with the id stop: MALFORMED), which nothing checked before (an independent implementer's finding); the catalog's J-3.termination-condition-ids-json-schema-only takes the other reading and fails on it.",
    golden: ["session-schema"],
    mutants: ["S-1.duplicate-disposition-keys-json-schema-only"],
  },
  {
    item: "G-6",
    status: "decided",
    where: ["D-041", "W-2.1", "OP-0.2"],
    summary:
      "Every string bound counts Unicode code points, as JSON Schema's maxLength and Python's len do; the zod schemas count them through one helper, so JSON Schema and zod agree and rules.json needs no length rule. The review guessed UTF-16 code units (zod's default); that reading is now wrong: 200 astral characters are a valid designation and 1000 a valid guidance.",
    golden: ["session-schema"],
    mutants: ["S-1.guidance-length-in-utf16-units"],
  },
  {
    item: "G-30",
    status: "decided",
    where: ["D-042", "D-011", "OP-2.7"],
    summary:
      "Only the consent part is closed here: a consent grant with two default rows for one category is MALFORMED at conception (D-042), so D-011's 'the category's default row' is the one row for that category; the review let the first row win. A repeated disposition key in a distillate is S-1, as the review read it (rules.json, pinned with G-5).",
    golden: ["session-schema"],
    mutants: ["G-30.duplicate-default-rows-first-wins"],
  },
  {
    item: "G-47",
    status: "decided",
    where: ["OP-0.6", "W-6", "OP-7.2", "TAB-5"],
    summary:
      "TAB-5 gives the order of every list of every view and event, and is the source of each list's JSON Schema description: memory task_ids and body lineage in the order added, the memory ancestry in the order appended, the bundle's task_ids in memory order and its required_capabilities sorted, each once, providers sorted by provider_id, all as the review guessed and as model and implementation did; ProviderGrant.capabilities in views is newly decided sorted, each once (the review guessed 'as given'; model and implementation follow in the operations work).",
    golden: ["session-schema"],
    mutants: ["I4.bundle-task-ids-sorted"],
  },
  {
    item: "G-48",
    status: "no-gap",
    where: ["OP-1.2", "TAB-5"],
    summary:
      "As the review found, OP-1.2 already fixed the store state's order (entries by key, contributors sorted); TAB-5 and the StoreState and StoreEntry schema descriptions now say it too, next to distillates sorted by id and quarantined sorted.",
    golden: [],
    mutants: [],
  },
];
