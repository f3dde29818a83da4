/**
 * The validation rules of the spec that JSON Schema cannot express (review G-5). Rendered into
 * `spec/json-schema/rules.json`; each rule's schema carries the rule's id in its `x-rules` keyword
 * in the exported JSON Schemas, so a validator built from the JSON Schemas knows exactly where to
 * apply it. "The JSON Schemas plus these rules" accept and reject exactly what the zod schemas do
 * (spec/rules.test.ts proves it on every example). The zod schemas implement the rules in their
 * own `superRefine`s; this module is plain data, deliberately not shared with them, so the test
 * compares two independent statements of each rule.
 */
import type { InvariantId } from "./catalog.ts";
import { EXAMPLE_DIGESTS, consentGrant, distillate, disposition, manifest } from "./examples.ts";

/** Uniqueness of one member (or a tuple of members) of the elements of one array. */
export interface SchemaRule {
  /** `<schema>.<name>`, stable; cited from the schema's `x-rules` keyword. */
  readonly id: string;
  /** The `$defs` name of the schema the rule belongs to. */
  readonly schema: string;
  readonly kind: "unique";
  /** The member of the schema's object that holds the array. */
  readonly array: string;
  /** The members of each element whose values, taken together, no two elements may share. */
  readonly unique_by: readonly string[];
  /**
   * Where a violation is reported, relative to the schema's value: `<i>` is the index of every
   * element that repeats an earlier one (the first occurrence is never reported).
   */
  readonly path: string;
  readonly statement: string;
  /** The clauses, decisions and review items that settle the rule. */
  readonly settled_by: readonly string[];
  /**
   * The invariant a disagreement over this rule is attributed to (D-035 rule 1): a MALFORMED
   * rejection protects no invariant in general, but one of these rules protects the invariant
   * that reads the array it keeps unique. The zod schema's issue names the rule (`params.rule`).
   */
  readonly protects: InvariantId;
  /** One value of `schema` that breaks only this rule, and the path its rejection names. */
  readonly invalid: { readonly value: unknown; readonly path: string };
}

const { a: DA } = EXAMPLE_DIGESTS;

export const SCHEMA_RULES: readonly SchemaRule[] = [
  {
    id: "ConsentGrant.unique-cells",
    schema: "ConsentGrant",
    kind: "unique",
    array: "cells",
    unique_by: ["category", "dimension"],
    path: "cells.<i>",
    statement:
      "No two cells of a consent grant name the same (category, dimension) pair: a cell is the one sensitivity of its pair (D-011).",
    settled_by: ["D-011", "review G-5"],
    protects: "S-1",
    invalid: {
      value: { ...consentGrant, cells: [consentGrant.cells[0], { ...consentGrant.cells[0], sensitivity: "low" }] },
      path: "cells.1",
    },
  },
  {
    id: "ConsentGrant.unique-category-defaults",
    schema: "ConsentGrant",
    kind: "unique",
    array: "category_defaults",
    unique_by: ["category"],
    path: "category_defaults.<i>",
    statement:
      "No two rows of category_defaults name the same category, so 'the category's default row' of D-011 is the one row for that category, if any (D-042).",
    settled_by: ["D-042", "D-011", "review G-5", "review G-30"],
    protects: "S-1",
    invalid: {
      value: {
        ...consentGrant,
        category_defaults: [
          { category: "financial", sensitivity: "medium" },
          { category: "financial", sensitivity: "low" },
        ],
      },
      path: "category_defaults.1",
    },
  },
  {
    id: "SamskaraDistillate.unique-disposition-keys",
    schema: "SamskaraDistillate",
    kind: "unique",
    array: "dispositions",
    unique_by: ["key"],
    path: "dispositions.<i>.key",
    statement:
      "A distillate carries at most one disposition per key, so each distillate contributes at most once to a key's aggregate (OP-1.2). Inside janma.distil a violation is S-1, not MALFORMED (OP-2.7, D-028).",
    settled_by: ["OP-1.2", "OP-2.7", "D-028", "review G-5", "review G-30"],
    protects: "S-1",
    invalid: {
      value: { ...distillate, dispositions: [disposition, { ...disposition, weight: 100_000, evidence_digest: DA }] },
      path: "dispositions.1.key",
    },
  },
  {
    id: "JanmaManifest.unique-tool-bindings",
    schema: "JanmaManifest",
    kind: "unique",
    array: "tool_bindings",
    unique_by: ["tool"],
    path: "tool_bindings.<i>.tool",
    statement:
      "A manifest binds each tool at most once: a binding is the one declaration of what its tool may exercise (J-1, J-2).",
    settled_by: ["OP-2.2", "review G-5"],
    protects: "J-1",
    invalid: {
      value: {
        ...manifest,
        tool_bindings: [...manifest.tool_bindings, { tool: "fare_search", capabilities: ["fare.book"] }],
      },
      path: "tool_bindings.1.tool",
    },
  },
  {
    id: "JanmaManifest.unique-termination-condition-ids",
    schema: "JanmaManifest",
    kind: "unique",
    array: "termination_conditions",
    unique_by: ["id"],
    path: "termination_conditions.<i>.id",
    statement:
      "No two termination conditions of a manifest share an id: a withdrawal names the condition that fired by its id (OP-2.3, D-015).",
    settled_by: ["OP-2.3", "D-015", "review G-5"],
    protects: "J-3",
    invalid: {
      value: {
        ...manifest,
        termination_conditions: [
          { id: "stop", when: { op: "acts_at_least", n: 3 } },
          { id: "stop", when: { op: "failures_at_least", n: 1 } },
        ],
      },
      path: "termination_conditions.1.id",
    },
  },
];

/** The rule ids a schema carries in its `x-rules` keyword. */
export const rulesOf = (schema: string): readonly string[] =>
  SCHEMA_RULES.filter((r) => r.schema === schema).map((r) => r.id);

/** What rules.json says besides the rules: how to apply them, and what is deliberately not a rule. */
export const RULES_NOTES = {
  applies:
    'A rule applies to every JSON value validated against the schema it names: the root of that schema\'s own file, and every place another file reaches it through "$ref": "#/$defs/<schema>". That definition carries the rule\'s id in its "x-rules" keyword (an annotation JSON Schema validators ignore). A value is valid iff it validates against the JSON Schema and breaks none of the rules that apply to it; the zod schemas accept exactly those values.',
  unique:
    "kind 'unique': within the array at member `array` of the value, no two elements may have equal values of all the members in `unique_by` (compared as JSON values). Every element that repeats an earlier one is a violation, reported at `path` with <i> its index; the first occurrence is not reported.",
  distillate:
    'janma.distil carries its distillate as an arbitrary JSON value ("distillate": {} in Command.schema.json); the operation validates it against SamskaraDistillate, including its rules, and a failure is the S-1 rejection with the issue path, not MALFORMED (OP-2.7, D-028).',
  string_lengths:
    "No rule is needed for string lengths: minLength and maxLength count Unicode code points in JSON Schema, and the zod schemas count code points too (D-041, review G-6).",
  numbers_and_member_names:
    "Integral numbers written with a fraction or exponent (1.0, 1e2) and duplicate member names within one JSON object are decided in the wire protocol (spec/wire/PROTOCOL.md; review G-7, G-8), before any schema or rule is applied; they are not rules of these schemas.",
} as const;

/** The committed text of spec/json-schema/rules.json. */
export const renderRules = (): string =>
  `${JSON.stringify(
    {
      description:
        "Validation rules JSON Schema cannot express, and how to apply them (generated from the spec by npm run spec:generate).",
      notes: RULES_NOTES,
      rules: SCHEMA_RULES,
    },
    null,
    2,
  )}\n`;
