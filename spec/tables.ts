/**
 * The spec's normative tables, in a language-neutral form (review G-4): the domain tags, the
 * reserved label keys, every error code with its invariant and definiteness, every operation, and
 * the order of every list in a view or event (review G-47). Rendered into spec/TABLES.md (for
 * people) and spec/tables.json (for programs) by `npm run spec:generate`; the prose refers to
 * those files, never to TypeScript. Each table is computed from the TypeScript the kit itself runs
 * on, so the tables cannot drift from it; spec/generated.test.ts fails when a file is stale.
 */
import { familyOfOp } from "./profiles.ts";
import { z } from "zod";
import { DOMAIN } from "./digest.ts";
import { ERROR_CODES } from "./errors.ts";
import { LIST_ORDERS } from "./list-orders.ts";
import { Command, COMMAND_OPS, type CommandOp } from "./schemas/commands.ts";
import { RESERVED_LABEL_KEYS } from "./schemas/ripa.ts";
import { WIRE_ERROR_CODES, isDefiniteCode } from "./wire/errors.ts";

/** What each domain tag hashes (ENC-4, ENC-5), keyed like the tag constants. */
const DOMAIN_ROWS: {
  readonly [K in keyof typeof DOMAIN]: {
    readonly object: string;
    readonly hashed: string;
    readonly clauses: readonly string[];
  };
} = {
  manifest: { object: "manifest", hashed: "the JanmaManifest", clauses: ["ENC-4", "OP-2.1"] },
  distillate: { object: "distillate", hashed: "the SamskaraDistillate, as parsed", clauses: ["ENC-4", "OP-1.1"] },
  batch: {
    object: "merge batch",
    hashed: '{ "distillates": [the batch\'s distillate digests, sorted, each once] }',
    clauses: ["ENC-4", "OP-1.6"],
  },
  storeState: {
    object: "store state",
    hashed: '{ "entries": [StoreEntry, sorted by key] }',
    clauses: ["ENC-4", "OP-1.3"],
  },
  version: {
    object: "version (seq ≥ 1)",
    hashed: '{ "parent", "batch", "state" }: the previous version id, the batch digest, the state digest',
    clauses: ["ENC-4", "ENC-7", "OP-1.6"],
  },
  genesis: {
    object: "genesis version (seq 0)",
    hashed: '{ "base_digest", "root" }',
    clauses: ["ENC-4", "ENC-7", "OP-1.4"],
  },
  identity: {
    object: "Advaita identity",
    hashed: "not a JSON value: UTF8(tag) ‖ 0x00 ‖ UTF8(base_digest) ‖ 0x00 ‖ UTF8(lineage_root)",
    clauses: ["ENC-5", "OP-1.5"],
  },
  action: {
    object: "action signature",
    hashed: '{ "identity", "nonce", "manifest_digest", "action" }',
    clauses: ["ENC-4", "OP-2.3"],
  },
  trace: {
    object: "evidence (informative)",
    hashed: "a life's trace entries; how a distiller MAY compute a disposition's evidence digest",
    clauses: ["ENC-4"],
  },
  memorySnapshot: {
    object: "memory snapshot",
    hashed: '{ "prev", "cause", "store_head", "task_ids" }',
    clauses: ["ENC-4", "OP-1.10"],
  },
  identityRecord: { object: "identity record", hashed: "the IdentityRecord", clauses: ["ENC-4", "OP-1.11"] },
  bundle: { object: "bundle manifest", hashed: "the BundleManifest", clauses: ["ENC-4", "OP-7.2"] },
};

/** The clause of OPERATIONS.md that specifies each operation. */
export const OPERATION_CLAUSES: { readonly [Op in CommandOp]: string } = {
  "advaita.mint": "OP-5.1",
  "advaita.project_write": "OP-4.4",
  "janma.conceive": "OP-2.1",
  "janma.birth": "OP-2.2",
  "janma.act": "OP-2.3",
  "janma.acquire": "OP-2.4",
  "janma.expire": "OP-2.5",
  "janma.withdraw": "OP-2.6",
  "janma.distil": "OP-2.7",
  "janma.dissolve": "OP-2.8",
  "custody.attempt": "OP-3.1",
  "custody.expire": "OP-3.2",
  "samskara.merge": "OP-4.1",
  "samskara.excise": "OP-4.2",
  "samskara.replay": "OP-4.3",
  "ripa.restart": "OP-6.1",
  "ripa.task_start": "OP-6.2",
  "ripa.task_resume": "OP-6.3",
  "ripa.request": "OP-6.4",
  "ripa.reply": "OP-6.5",
  "ripa.effect": "OP-6.6",
  "ripa.evolve": "OP-6.7",
  "ripa.identity_update": "OP-6.8",
  "ripa.bind_surface": "OP-6.9",
  "ripa.replicate": "OP-6.10",
  "ripa.descend": "OP-6.11",
  "ripa.task_pause": "OP-6.12",
  "ripa.migration_fence": "OP-7.1",
  "ripa.migration_checkpoint": "OP-7.2",
  "ripa.migration_validate": "OP-7.3",
  "ripa.migration_bind": "OP-7.4",
  "ripa.migration_rehydrate": "OP-7.5",
  "ripa.migration_resume": "OP-7.6",
  "ripa.migration_cancel": "OP-7.7",
};

const commandDescription = (op: CommandOp): string => {
  const option = Command.options.find((c) => c.shape.op.value === op);
  const meta =
    option === undefined ? undefined : (z.globalRegistry.get(option) as { description?: string } | undefined);
  return meta?.description ?? "";
};

/** Every table, as plain data (the content of spec/tables.json). */
export const specTables = () => ({
  domain_tags: (Object.keys(DOMAIN) as (keyof typeof DOMAIN)[]).map((k) => ({
    name: k,
    tag: DOMAIN[k],
    ...DOMAIN_ROWS[k],
  })),
  reserved_label_keys: [...RESERVED_LABEL_KEYS],
  error_codes: [
    ...ERROR_CODES.map((r) => ({
      code: r.code,
      kind: "operation" as const,
      invariant: r.invariant,
      definite: true,
      meaning: r.meaning,
    })),
    ...WIRE_ERROR_CODES.map((r) => ({
      code: r.code,
      kind: "wire" as const,
      invariant: r.invariant,
      definite: isDefiniteCode(r.code),
      meaning: r.meaning,
    })),
  ],
  // The family of D-034, as a profile declares it: custody.* is janma's (its prefix is not a family).
  operations: COMMAND_OPS.map((op) => ({
    op,
    family: familyOfOp(op),
    clause: OPERATION_CLAUSES[op],
    summary: commandDescription(op),
  })),
  list_orders: LIST_ORDERS.map((l) => ({
    owner: l.owner,
    field: l.field,
    order: l.order,
    clauses: l.clauses,
    decided: l.decided ?? null,
  })),
});

const HEADER =
  "<!-- Generated from the spec's TypeScript source (informative: spec/tables.ts, spec/list-orders.ts) by `npm run spec:generate`. Do not edit. -->";

const cell = (s: string | null | boolean): string => (s === null ? "—" : String(s).replace(/\|/g, "\\|"));
const code = (s: string): string => `\`${s}\``;

/** The committed text of spec/tables.json. */
export const renderTablesJson = (): string =>
  `${JSON.stringify({ description: "The normative tables of spec/TABLES.md, machine-readable (generated by npm run spec:generate).", ...specTables() }, null, 2)}\n`;

/** The committed text of spec/TABLES.md. */
export const renderTablesMd = (): string => {
  const t = specTables();
  const lines: string[] = [
    HEADER,
    "# Tables — normative",
    "",
    "The tables the clauses refer to, each also in `spec/tables.json` under the key given in its",
    "heading, so that an implementation in any language can read them (review G-4).",
    "",
    "## TAB-1 Domain tags (`domain_tags`)",
    "",
    "Every digest is `H(tag, v)` of ENC-4 except the identity (ENC-5). A tag names one kind of object;",
    "the name is how OPERATIONS.md writes it: `digestOf(name, v)` = `H(tag of name, v)` (OP-0.7).",
    "",
    "| Name | Tag | Object | Hashed value | Clauses |",
    "|---|---|---|---|---|",
    ...t.domain_tags.map(
      (r) => `| ${code(r.name)} | ${code(r.tag)} | ${cell(r.object)} | ${cell(r.hashed)} | ${r.clauses.join(", ")} |`,
    ),
    "",
    "## TAB-2 Reserved label keys (`reserved_label_keys`)",
    "",
    "A label key that is one of these names an identity field; `ripa.bind_surface` (OP-6.9) and",
    "`ripa.migration_bind` (OP-7.4) reject it with I6 (D-033):",
    "",
    ...t.reserved_label_keys.map((k) => `- ${code(k)}`),
    "",
    "## TAB-3 Error codes (`error_codes`)",
    "",
    "Operation codes are the `code` of a rejected command (one per invariant, then the generic codes);",
    "wire codes are the protocol's (W-4). `definite` says whether the request certainly had no effect",
    "(W-3.2).",
    "",
    "| Code | Kind | Invariant | Definite | Meaning |",
    "|---|---|---|---|---|",
    ...t.error_codes.map(
      (r) =>
        `| ${code(r.code)} | ${r.kind} | ${cell(r.invariant)} | ${r.definite ? "yes" : "no"} | ${cell(r.meaning)} |`,
    ),
    "",
    "## TAB-4 Operations (`operations`)",
    "",
    "Every `op` a command may carry (the `Command` schema), with the clause that specifies it.",
    "",
    "| Operation | Family | Clause | Summary |",
    "|---|---|---|---|",
    ...t.operations.map((r) => `| ${code(r.op)} | ${r.family} | ${r.clause} | ${cell(r.summary)} |`),
    "",
    "## TAB-5 List orders (`list_orders`)",
    "",
    'The order of every list in a view or an event (OP-0.6, W-6). "Sorted" means ascending by',
    "UTF-16 code units, which for the kit's ASCII ids and digests is byte order. The owner is the",
    "`$defs` name in `WorldView.schema.json` or `Event.schema.json` (`event <type>` for an event's own",
    "field); the same text is the list's `description` there. A query result has the orders of the",
    '`WorldView` slice it equals (W-6). "Decided" names the review item that wrote an order down:',
    "G-47 for orders written nowhere before (all but `ProviderGrant.capabilities` record what the",
    "reference model and the implementation already did; that one is newly decided), G-48 for orders",
    "OP-1.2 stated that the schemas did not.",
    "",
    "| Owner | List | Order | Clauses | Decided |",
    "|---|---|---|---|---|",
    ...t.list_orders.map(
      (r) => `| ${r.owner} | ${code(r.field)} | ${cell(r.order)} | ${r.clauses.join(", ")} | ${cell(r.decided)} |`,
    ),
    "",
  ];
  return lines.join("\n");
};
