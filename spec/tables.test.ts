/**
 * The language-neutral tables (review G-4, G-47): every list of every view and event has an
 * order in the list-order table, stated identically in the JSON Schemas; the tables agree with the
 * prose; and no normative document sends its reader to a TypeScript file for normative content.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DOMAIN } from "./digest.ts";
import { ALL_ERROR_CODES } from "./errors.ts";
import { LIST_ORDERS, listOrder } from "./list-orders.ts";
import { JSON_SCHEMA_DIR } from "./render.ts";
import { COMMAND_OPS } from "./schemas/commands.ts";
import { RESERVED_LABEL_KEYS } from "./schemas/ripa.ts";
import { OPERATION_CLAUSES, specTables } from "./tables.ts";
import { WIRE_ERROR_CODE_LIST } from "./wire/errors.ts";

type Js = Record<string, unknown>;

interface ArrayField {
  readonly owner: string;
  readonly field: string;
  readonly description: string | undefined;
}

/**
 * Every array-typed member reachable from a JSON Schema file, named by the nearest `$defs` entry
 * (or `event <type>` for a member of one Event variant) and the dotted member path from it.
 */
const arrayFields = (file: string): ArrayField[] => {
  const root = JSON.parse(readFileSync(file, "utf8")) as Js;
  const defs = (root["$defs"] ?? {}) as Record<string, Js>;
  const out: ArrayField[] = [];
  const visited = new Set<string>();
  const visit = (s: unknown, owner: string, path: readonly string[]): void => {
    if (typeof s !== "object" || s === null) return;
    const node = s as Js;
    const ref = node["$ref"];
    if (typeof ref === "string") {
      const name = ref.replace("#/$defs/", "");
      if (!visited.has(name)) {
        visited.add(name);
        visit(defs[name], name, []);
      }
      return;
    }
    for (const k of ["anyOf", "oneOf", "allOf"] as const) {
      const alts = node[k];
      if (Array.isArray(alts))
        for (const alt of alts) {
          // An Event variant is named by its `type` constant, so each event's own members have an owner.
          const typeConst = ((alt as Js)["properties"] as Record<string, Js> | undefined)?.["type"]?.["const"];
          visit(
            alt,
            owner === "Event" && typeof typeConst === "string" ? `event ${typeConst}` : owner,
            owner === "Event" && typeof typeConst === "string" ? [] : path,
          );
        }
    }
    const props = node["properties"];
    if (typeof props === "object" && props !== null)
      for (const [k, v] of Object.entries(props as Record<string, Js>)) {
        const p = [...path, k];
        if (v["type"] === "array") {
          out.push({
            owner,
            field: p.join("."),
            description: typeof v["description"] === "string" ? v["description"] : undefined,
          });
          visit(v["items"], owner, p);
        } else visit(v, owner, p);
      }
    const addl = node["additionalProperties"];
    if (typeof addl === "object") visit(addl, owner, [...path, "*"]);
  };
  visit(root, String(root["title"]), []);
  return out;
};

const VIEW_AND_EVENT_FILES = [`${JSON_SCHEMA_DIR}/WorldView.schema.json`, `${JSON_SCHEMA_DIR}/Event.schema.json`];

describe("list orders (OP-0.6, W-6; review G-47)", () => {
  const fields = VIEW_AND_EVENT_FILES.flatMap(arrayFields);

  it("the walk finds the lists it must (it is not vacuous)", () => {
    const names = fields.map((f) => `${f.owner}#${f.field}`);
    for (const n of [
      "WorldView#agents",
      "MemoryState#task_ids",
      "BodyState#lineage",
      "BundleManifest#task_ids",
      "ProviderGrant#capabilities",
      "MigrationView#target.providers",
      "event store.merged#added",
      "StoreEntry#contributors",
      "RipaView#live_attempts",
    ])
      expect(names).toContain(n);
  });

  it("every array of every view and event has a list order, stated as its JSON Schema description", () => {
    const missing: string[] = [];
    for (const f of fields) {
      let order: string | undefined;
      try {
        order = listOrder(f.owner, f.field);
      } catch {
        missing.push(`${f.owner}.${f.field}`);
        continue;
      }
      expect(f.description, `${f.owner}.${f.field}`).toBe(order);
    }
    expect(missing).toEqual([]);
  });

  it("every list-order entry names a list that exists (no stale rows)", () => {
    const names = new Set(fields.map((f) => `${f.owner}#${f.field}`));
    for (const l of LIST_ORDERS) expect(names.has(`${l.owner}#${l.field}`), `${l.owner}.${l.field}`).toBe(true);
  });

  it("the check fails for a list without an entry", () => {
    expect(() => listOrder("WorldView", "no_such_list")).toThrow(/no list order/);
  });

  it("the orders the first review found unwritten are decided as the lead and the review require", () => {
    expect(listOrder("MemoryState", "task_ids")).toMatch(/order the tasks were started/);
    expect(listOrder("BodyState", "lineage")).toMatch(/order the revisions were installed/);
    expect(listOrder("BundleManifest", "task_ids")).toMatch(/memory order/);
    expect(listOrder("BundleManifest", "required_capabilities")).toMatch(/sorted, each once/);
    expect(listOrder("ProviderGrant", "capabilities")).toMatch(/sorted, each once/);
    expect(listOrder("RipaView", "providers")).toBe("sorted by provider_id");
    const decided = LIST_ORDERS.filter((l) => l.decided === "G-47").map((l) => `${l.owner}.${l.field}`);
    expect(decided).toEqual(
      expect.arrayContaining([
        "MemoryState.task_ids",
        "BodyState.lineage",
        "ProviderGrant.capabilities",
        "BundleManifest.task_ids",
        "BundleManifest.required_capabilities",
      ]),
    );
  });
});

describe("the tables agree with the prose and with the kit (review G-4)", () => {
  const t = specTables();
  const operations = readFileSync("spec/OPERATIONS.md", "utf8");
  const encoding = readFileSync("spec/ENCODING.md", "utf8");

  it("every operation is in TAB-4 once, with the clause of OPERATIONS.md that names it", () => {
    expect(t.operations.map((r) => r.op)).toEqual([...COMMAND_OPS]);
    for (const op of COMMAND_OPS) {
      const clause = OPERATION_CLAUSES[op];
      expect(operations, `${clause} ${op}`).toMatch(
        new RegExp(`${clause.replace(/\./g, "\\.")}\\s+\`${op.replace(/\./g, "\\.")}\``),
      );
    }
    expect(new Set(Object.values(OPERATION_CLAUSES)).size).toBe(COMMAND_OPS.length);
  });

  it("every domain tag is in TAB-1 and, except the identity's, in ENC-4's table", () => {
    expect(t.domain_tags.map((r) => r.tag).sort()).toEqual(Object.values(DOMAIN).sort());
    for (const r of t.domain_tags) if (r.tag !== DOMAIN.identity) expect(encoding, r.tag).toContain(`\`${r.tag}\``);
    expect(encoding).toContain(DOMAIN.identity);
    // Every digestOf(name, …) in the operations prose names a row of TAB-1.
    const names = [...operations.matchAll(/digestOf\((\w+),/g)].map((m) => m[1]).filter((n) => n !== "name"); // OP-0.7 defines digestOf(name, v)
    expect(names.length).toBeGreaterThan(5);
    for (const n of names)
      expect(
        t.domain_tags.map((r) => r.name),
        n,
      ).toContain(n);
  });

  it("TAB-2 is the reserved label keys, and D-033 names each", () => {
    expect(t.reserved_label_keys).toEqual([...RESERVED_LABEL_KEYS]);
    const decisions = readFileSync("spec/DECISIONS.md", "utf8");
    const d033 = decisions.slice(decisions.indexOf("## D-033"), decisions.indexOf("## D-034"));
    for (const k of RESERVED_LABEL_KEYS) expect(d033, k).toContain(k);
  });

  it("TAB-3 has every operation and wire code once; only INTERNAL is indefinite; operation codes name their invariant", () => {
    expect(t.error_codes.map((r) => r.code)).toEqual([...ALL_ERROR_CODES, ...WIRE_ERROR_CODE_LIST]);
    expect(t.error_codes.filter((r) => !r.definite).map((r) => r.code)).toEqual(["INTERNAL"]);
    expect(t.error_codes.filter((r) => r.invariant !== null).length).toBe(19);
    expect(t.error_codes.find((r) => r.code === "MALFORMED")?.invariant).toBeNull();
  });
});

/**
 * The rule for normative prose (review G-4): in spec/OPERATIONS.md, spec/ENCODING.md,
 * spec/wire/PROTOCOL.md and the generated spec/INVARIANTS.md, spec/DECISIONS.md and spec/TABLES.md,
 * a line that names a `.ts` file must be either the generated file's first-line header comment
 * (`<!-- Generated from … -->`) or a line that says it is informative (contains the word
 * "informative"). spec/README.md, the file index, is informative and exempt. Normative content is
 * thereby always in Markdown or JSON that any implementer can read.
 */
const tsReferences = (text: string): string[] =>
  text.split("\n").flatMap((line, i) => {
    if (!/[\w*/.-]+\.ts\b/.test(line)) return [];
    if (i === 0 && line.startsWith("<!-- Generated from")) return [];
    if (/informative/i.test(line)) return [];
    return [`${i + 1}: ${line.trim()}`];
  });

const NORMATIVE_PROSE = [
  "spec/OPERATIONS.md",
  "spec/ENCODING.md",
  "spec/wire/PROTOCOL.md",
  "spec/INVARIANTS.md",
  "spec/DECISIONS.md",
  "spec/TABLES.md",
];

describe("normative prose never sends the reader to a .ts file (review G-4)", () => {
  for (const file of NORMATIVE_PROSE) {
    it(`${file} names no .ts file outside its generated header or an informative line`, () => {
      expect(tsReferences(readFileSync(file, "utf8"))).toEqual([]);
    });
  }
  it("the rule catches what the review found, and allows the header and informative notes", () => {
    expect(tsReferences("- **OP-0.6** Every list is sorted as `views.ts` states.")).toHaveLength(1);
    expect(tsReferences("intro\ncodes from `spec/errors.ts` (`ERROR_CODES`)")).toEqual([
      "2: codes from `spec/errors.ts` (`ERROR_CODES`)",
    ]);
    expect(tsReferences("<!-- Generated from spec/catalog.ts by `npm run spec:generate`. -->\n# T")).toEqual([]);
    expect(tsReferences("x\n<!-- Generated from spec/catalog.ts -->")).toHaveLength(1);
    expect(tsReferences("(informative: the kit runs `npx tsx impl/main.ts`)")).toEqual([]);
    expect(tsReferences("sorted as OP-0.6 says; tables in spec/TABLES.md and spec/tables.json")).toEqual([]);
  });
});
