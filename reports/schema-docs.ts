/**
 * A zod schema as a person reads it in the API docs: the fields of an object (name, type, whether
 * required, description), the values of an enum, or the variants of a union, from the schema's JSON
 * Schema (`z.toJSONSchema`, the same form as `spec/json-schema/`). TypeDoc would otherwise print the
 * schema constant's TypeScript type, a page of nested `ZodObject<…>`.
 *
 * The output is a list of parts: Markdown text, and references by name to other schemas (which
 * reports/site.ts turns into links to their pages).
 */
import { z } from "zod";

export type SchemaPart =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "ref"; readonly name: string };

type Json = { readonly [k: string]: unknown };

const text = (t: string): SchemaPart => ({ kind: "text", text: t });
const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
const refName = (ref: string): string => ref.slice(ref.lastIndexOf("/") + 1);
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

const range = (min: unknown, max: unknown, what: string): string => {
  const lo = typeof min === "number" ? min : null;
  const hi = typeof max === "number" && max !== MAX_SAFE ? max : null;
  if (lo === null && hi === null) return "";
  if (lo !== null && hi !== null) return lo === hi ? ` (${what} ${lo})` : ` (${what} ${lo}–${hi})`;
  return lo !== null ? ` (${what} ≥ ${lo})` : ` (${what} ≤ ${hi})`;
};

/** The type of a JSON Schema node as table-cell text (pipes escaped), references kept apart. */
export const typeParts = (s: Json, depth = 0): SchemaPart[] => {
  if (typeof s["$ref"] === "string") return [{ kind: "ref", name: refName(s["$ref"]) }];
  if ("const" in s) return [text(`\`${JSON.stringify(s["const"])}\``)];
  if (Array.isArray(s["enum"])) {
    const values = s["enum"] as unknown[];
    return [
      text(
        values.length > 12
          ? `one of ${values.length} strings`
          : values.map((v) => `\`${JSON.stringify(v)}\``).join(" \\| "),
      ),
    ];
  }
  const alternatives = (s["anyOf"] ?? s["oneOf"]) as Json[] | undefined;
  if (Array.isArray(alternatives))
    return alternatives.flatMap((a, i) => [...(i === 0 ? [] : [text(" \\| ")]), ...typeParts(a, depth)]);
  const t = s["type"];
  if (Array.isArray(t))
    return t.flatMap((x, i) => [...(i === 0 ? [] : [text(" \\| ")]), ...typeParts({ ...s, type: x }, depth)]);
  switch (t) {
    case "string": {
      const pattern = typeof s["pattern"] === "string" ? ` matching \`${cell(s["pattern"])}\`` : "";
      return [text(`string${pattern}${range(s["minLength"], s["maxLength"], "length")}`)];
    }
    case "integer":
      return [text(`integer${range(s["minimum"], s["maximum"], "")}`.replace("( ", "("))];
    case "number":
    case "boolean":
    case "null":
      return [text(String(t))];
    case "array": {
      const items = (s["items"] ?? {}) as Json;
      return [text("array of "), ...typeParts(items, depth + 1), text(range(s["minItems"], s["maxItems"], "items"))];
    }
    case "object": {
      const props = s["properties"] as Record<string, Json> | undefined;
      if (props !== undefined && Object.keys(props).length > 0) {
        if (depth > 0)
          return [
            text(
              `object with ${Object.keys(props)
                .map((k) => `\`${k}\``)
                .join(", ")}`,
            ),
          ];
        const required = new Set((s["required"] ?? []) as string[]);
        return [
          text("{ "),
          ...Object.entries(props).flatMap(([k, v], i) => [
            text(`${i === 0 ? "" : "; "}${k}${required.has(k) ? "" : "?"}: `),
            ...typeParts(v, depth + 1),
          ]),
          text(" }"),
        ];
      }
      const extra = s["additionalProperties"];
      if (typeof extra === "object" && extra !== null)
        return [text("record of "), ...typeParts(extra as Json, depth + 1)];
      return [text("object")];
    }
    default:
      return [text("any JSON value")];
  }
};

/** The root definition of a schema's JSON Schema (following a top-level `$ref` into `$defs`). */
const rootOf = (js: Json): Json => {
  const ref = js["$ref"];
  const defs = (js["$defs"] ?? {}) as Record<string, Json>;
  return typeof ref === "string" ? (defs[refName(ref)] ?? js) : js;
};

/** Table rows for an object's fields; an inline object field is followed by rows of its own fields (`a.b`). */
const fieldRows = (obj: Json, prefix: string): SchemaPart[] => {
  const props = (obj["properties"] ?? {}) as Record<string, Json>;
  const required = new Set((obj["required"] ?? []) as string[]);
  return Object.entries(props).flatMap(([k, v]) => {
    const nested =
      v["type"] === "object" &&
      typeof v["properties"] === "object" &&
      Object.keys(v["properties"] as object).length > 0;
    return [
      text(`| \`${prefix}${k}\` | `),
      ...(nested ? [text("object")] : typeParts(v, 1).map((p) => (p.kind === "text" ? text(cell(p.text)) : p))),
      text(
        ` | ${required.has(k) ? "yes" : "no"} | ${typeof v["description"] === "string" ? cell(v["description"]) : ""} |\n`,
      ),
      ...(nested ? fieldRows(v, `${prefix}${k}.`) : []),
    ];
  });
};

/** The Markdown parts describing a zod schema: a field table, enum values or union variants. */
export const describeSchema = (schema: z.ZodType): SchemaPart[] => {
  let js: Json;
  try {
    js = z.toJSONSchema(schema, { unrepresentable: "any" }) as Json;
  } catch {
    return [];
  }
  const root = rootOf(js);
  const props = root["properties"] as Record<string, Json> | undefined;
  if (root["type"] === "object" && props !== undefined) {
    const strict = root["additionalProperties"] === false ? " Any other field is refused." : "";
    return [
      text(`**Fields** (an object).${strict}\n\n| field | type | required | description |\n|---|---|---|---|\n`),
      ...fieldRows(root, ""),
    ];
  }
  const alternatives = (root["oneOf"] ?? root["anyOf"]) as Json[] | undefined;
  if (Array.isArray(alternatives)) {
    return [text("**One of:**\n\n"), ...alternatives.flatMap((a) => [text("- "), ...typeParts(a, 1), text("\n")])];
  }
  return [text("**Type:** "), ...typeParts(root, 1), text("\n")];
};

/** A constant that maps names to zod schemas (e.g. each query's result schema), as a table. */
export const describeSchemaMap = (map: Readonly<Record<string, z.ZodType>>): SchemaPart[] => [
  text("**Schemas, by name:**\n\n| name | schema |\n|---|---|\n"),
  ...Object.entries(map).flatMap(([k, schema]) => {
    let js: Json;
    try {
      js = z.toJSONSchema(schema, { unrepresentable: "any" }) as Json;
    } catch {
      return [text(`| \`${k}\` | |\n`)];
    }
    const root = typeof js["$ref"] === "string" ? { $ref: js["$ref"] } : js;
    return [
      text(`| \`${k}\` | `),
      ...typeParts(root, 1).map((p) => (p.kind === "text" ? text(cell(p.text)) : p)),
      text(" |\n"),
    ];
  }),
];
