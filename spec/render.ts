/**
 * Renders every generated artefact of spec/: JSON Schemas of all wire objects and wire-protocol
 * messages, the invariant clauses, the decision record and the digest vectors. `spec/generate.ts`
 * writes them; `spec/generated.test.ts` fails when a committed copy is stale.
 */
import { z } from "zod";
import { INVARIANTS, type Invariant } from "./catalog.ts";
import { CHECKS } from "./checks.ts";
import { renderChecksJson, renderChecksMarkdown } from "./checks-render.ts";
import { DECISIONS, decisionsRefining } from "./decisions.ts";
import { EXAMPLES } from "./examples.ts";
import { SPEC_SCHEMAS } from "./registry.ts";
import { renderVectors } from "./vectors.ts";
import { renderRules } from "./rules.ts";
import { renderTablesJson, renderTablesMd } from "./tables.ts";
import { WIRE_SCHEMAS } from "./wire/schemas.ts";
import { REVIEW_ROWS, renderReview } from "./review/index.ts";
import { ADJACENT_ROWS } from "./adjacent/rows.ts";
import { renderAdjacent } from "./adjacent/render.ts";

export const JSON_SCHEMA_DIR = "spec/json-schema";

/**
 * A `format` that zod exports beside the `pattern` stating the same constraint (an ISO date-time)
 * is left out: the pattern is what zod checks, and the adapters' validators (adapters/js/schema.mjs,
 * adapters/python/srk_adapter/schema.py) implement exactly the keyword subset the export uses, which
 * has `pattern` and not `format`.
 */
const dropFormatWithPattern = (ctx: { jsonSchema: Record<string, unknown> }): void => {
  if (ctx.jsonSchema["format"] !== undefined && typeof ctx.jsonSchema["pattern"] === "string")
    delete ctx.jsonSchema["format"];
};

const jsonSchemaOf = (name: string, schema: z.ZodType, examples: readonly unknown[]): string => {
  const js = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    unrepresentable: "any",
    io: "input",
    override: dropFormatWithPattern,
  }) as Record<string, unknown>;
  const out = { $id: `${name}.schema.json`, title: name, ...js, ...(examples.length > 0 ? { examples } : {}) };
  return `${JSON.stringify(out, null, 2)}\n`;
};

/** path (relative to the repository root) -> file content. */
export const renderSpecArtefacts = (): Map<string, string> => {
  const files = new Map<string, string>();
  for (const [name, { schema }] of Object.entries(SPEC_SCHEMAS)) {
    files.set(`${JSON_SCHEMA_DIR}/${name}.schema.json`, jsonSchemaOf(name, schema, EXAMPLES[name]?.valid ?? []));
  }
  for (const [name, schema] of Object.entries(WIRE_SCHEMAS)) {
    files.set(`${JSON_SCHEMA_DIR}/wire/${name}.schema.json`, jsonSchemaOf(name, schema, []));
  }
  const invalid = Object.fromEntries(Object.entries(EXAMPLES).map(([n, e]) => [n, e.invalid]));
  files.set(`${JSON_SCHEMA_DIR}/invalid-examples.json`, `${JSON.stringify(invalid, null, 2)}\n`);
  files.set(`${JSON_SCHEMA_DIR}/rules.json`, renderRules());
  files.set("spec/vectors/digests.json", renderVectors());
  files.set("spec/INVARIANTS.md", renderInvariantClauses());
  files.set("spec/DECISIONS.md", renderDecisions());
  files.set("spec/TABLES.md", renderTablesMd());
  files.set("spec/tables.json", renderTablesJson());
  files.set("spec/CHECKS.md", renderChecksMarkdown());
  files.set("spec/checks.json", renderChecksJson());
  files.set("spec/REVIEW-1.md", renderReview(REVIEW_ROWS));
  files.set("spec/ADJACENT-1.md", renderAdjacent(ADJACENT_ROWS));
  return files;
};

const GENERATED =
  "<!-- Generated from spec/catalog.ts and spec/decisions.ts by `npm run spec:generate`. Do not edit. -->";

/**
 * An invariant's guarded operations, derived from spec/checks.ts (G-3): the checks that reject
 * with its code, then the operations that maintain it by construction and why.
 */
const guardLines = (inv: Invariant): string[] => {
  const rejecting = inv.rejectedBy.map((op) => {
    const ids = CHECKS.filter((c) => c.op === op && c.targets.includes(inv.id)).map((c) => c.id);
    return `\`${op}\` (${ids.join(", ")})`;
  });
  const lines = [
    rejecting.length > 0
      ? `- Guards (checks that reject with it, \`spec/CHECKS.md\`): ${rejecting.join(", ")}.`
      : "- Guards: no check rejects with this code; no command is ever rejected with it.",
  ];
  const bc = inv.byConstruction;
  if (bc !== undefined) {
    lines.push(`- Guaranteed by construction in ${bc.ops.map((o) => `\`${o}\``).join(", ")}: ${bc.note}.`);
  }
  return lines;
};

/** The normative invariant clauses, numbered INV-<id>, straight from the catalog. */
export const renderInvariantClauses = (): string => {
  const lines = [
    GENERATED,
    "# Invariants — normative clauses",
    "",
    "The key words MUST, MUST NOT, SHOULD and MAY are to be read as in RFC 2119. Each clause is the",
    "catalog entry of one invariant; its error code is also in the error-code table (`spec/TABLES.md`,",
    "TAB-3, and `spec/tables.json`); its refinements are the decisions listed under it",
    "(`spec/DECISIONS.md`) and the operation clauses of `spec/OPERATIONS.md` that name it.",
    "",
  ];
  for (const inv of INVARIANTS) {
    lines.push(
      `## INV-${inv.id} ${inv.name}`,
      "",
      `**${inv.id}.** ${inv.statement}`,
      "",
      `- Protocol: ${inv.protocol}; kind: ${inv.kind} property.`,
      `- Source: ${inv.source.paper} paper, "${inv.source.title}", ${inv.source.section}.`,
      ...guardLines(inv),
      `- Error code: \`${inv.errorCode}\`.`,
      `- Refined by: ${
        decisionsRefining(inv.id)
          .map((d) => d.id)
          .join(", ") || "none"
      }.`,
      "",
    );
  }
  return lines.join("\n");
};

export const renderDecisions = (): string => {
  const lines = [
    GENERATED,
    "# Decision record",
    "",
    "Every point the papers leave open, settled once. Each decision states what was decided, why, what the",
    "paper says, the alternatives weighed, and the invariants it refines.",
    "",
  ];
  for (const d of DECISIONS) {
    lines.push(
      `## ${d.id} ${d.title}`,
      "",
      `- **Decision.** ${d.decision}`,
      `- **Why.** ${d.why}`,
      `- **What the paper says.** ${d.paper}`,
      `- **Alternatives.** ${d.alternatives}`,
      `- **Refines.** ${d.kit === true ? "no invariant (a decision about the kit itself)" : d.refines.join(", ")}`,
      "",
    );
  }
  return lines.join("\n");
};
