/**
 * A validator for exactly the JSON Schema subset that spec/json-schema/ uses (draft 2020-12), and for
 * the cross-field rules of spec/json-schema/rules.json that JSON Schema cannot express.
 *
 * Keywords: `$ref` (to `#/$defs/<name>` of the same file), `type` (one name or a list), `const`,
 * `enum`, `anyOf`, `oneOf`, `pattern`, `minLength`, `maxLength`, `minimum`, `maximum`, `items`,
 * `minItems`, `maxItems`, `properties`, `required`, `additionalProperties` (false or a schema),
 * `propertyNames`, and the annotation `x-rules` (the ids of the rules that apply to a value
 * validated against that schema). Annotations (`description`, `title`, `examples`, `$id`,
 * `$schema`, `$defs`) are ignored. Any other keyword makes construction fail: a schema this
 * validator would misread is refused, not half-applied.
 *
 * Semantics that differ between languages, decided as the schemas intend:
 * - `pattern` is an ECMA-262 regular expression, compiled with the `u` flag: `$` matches at the end
 *   of the string only (not before a trailing newline, as Python's `re` does), and `.` or a class
 *   matches a whole code point;
 * - `minLength`/`maxLength` count Unicode code points, not UTF-16 code units (D-041);
 * - `integer` is a number whose value is integral (W-1.8, D-043: `1.0` is the integer 1), and
 *   `const`/`enum` compare JSON values (member order does not matter).
 *
 * A failure is reported as `{ path, message, keyword }`: `path` is the JSON path from the validated
 * value (member names and array indices), `keyword` the keyword (or rule id) that failed.
 */

const ANNOTATIONS = new Set(["description", "title", "examples", "$id", "$schema", "$defs"]);
const KEYWORDS = new Set([
  "$ref",
  "type",
  "const",
  "enum",
  "anyOf",
  "oneOf",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "items",
  "minItems",
  "maxItems",
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "x-rules",
]);
const TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);
const RULE_KINDS = new Set(["unique"]);

/** @typedef {{ path: (string|number)[], message: string, keyword: string }} SchemaFailure */

/**
 * @param {{ schemas: Record<string, object>, rules: { rules: object[] } }} data
 *   `schemas`: each schema file's root, by its `title`; `rules`: the content of rules.json.
 */
export const createValidator = ({ schemas, rules }) => {
  const ruleById = new Map();
  for (const r of rules.rules) {
    if (!RULE_KINDS.has(r.kind))
      throw new Error(
        `rules.json: rule ${r.id} has kind ${JSON.stringify(r.kind)}, which this validator does not know`,
      );
    ruleById.set(r.id, r);
  }
  /** Each `$defs` name, to the file holding it (definitions shared by several files are identical copies). */
  const defHome = new Map();
  for (const [title, root] of Object.entries(schemas)) {
    checkSubset(root, root, title, ruleById);
    for (const name of Object.keys(root.$defs ?? {})) if (!defHome.has(name)) defHome.set(name, root);
  }

  /**
   * Validates `value` against the schema file titled `name` (e.g. "Command", "Query",
   * "SamskaraDistillate") or, failing that, the `$defs` entry of that name in any file
   * (e.g. "AgentView"). Returns null when the value is valid, else the first failure.
   * @param {string} name @param {unknown} value @returns {SchemaFailure | null}
   */
  const validate = (name, value) => {
    if (Object.hasOwn(schemas, name)) return check(schemas[name], value, schemas[name], []);
    const root = defHome.get(name);
    if (root === undefined) throw new Error(`no schema or definition named ${JSON.stringify(name)}`);
    return check(root.$defs[name], value, root, []);
  };

  /** @returns {SchemaFailure | null} */
  const check = (s, v, root, path) => {
    if (s.$ref !== undefined) {
      const e = check(deref(root, s.$ref), v, root, path);
      if (e !== null) return e;
    }
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? s.type : [s.type];
      if (!types.some((t) => hasType(t, v)))
        return fail(path, "type", `expected ${types.map(article).join(" or ")}, got ${describe(v)}`);
    }
    if (s.const !== undefined && !jsonEqual(s.const, v))
      return fail(path, "const", `expected ${short(s.const)}, got ${short(v)}`);
    if (s.enum !== undefined && !s.enum.some((x) => jsonEqual(x, v)))
      return fail(path, "enum", `expected one of ${list(s.enum)}, got ${short(v)}`);
    if (s.anyOf !== undefined || s.oneOf !== undefined) {
      const e = alternatives(s, v, root, path);
      if (e !== null) return e;
    }
    if (typeof v === "string") {
      if (s.minLength !== undefined || s.maxLength !== undefined) {
        const n = codePoints(v);
        if (s.minLength !== undefined && n < s.minLength)
          return fail(path, "minLength", `expected at least ${s.minLength} character(s) (code points), got ${n}`);
        if (s.maxLength !== undefined && n > s.maxLength)
          return fail(path, "maxLength", `expected at most ${s.maxLength} character(s) (code points), got ${n}`);
      }
      if (s.pattern !== undefined && !regex(s.pattern).test(v))
        return fail(path, "pattern", `${short(v)} does not match the pattern ${s.pattern}`);
    }
    if (typeof v === "number") {
      if (s.minimum !== undefined && !(v >= s.minimum))
        return fail(path, "minimum", `expected at least ${s.minimum}, got ${v}`);
      if (s.maximum !== undefined && !(v <= s.maximum))
        return fail(path, "maximum", `expected at most ${s.maximum}, got ${v}`);
    }
    if (Array.isArray(v)) {
      if (s.minItems !== undefined && v.length < s.minItems)
        return fail(path, "minItems", `expected at least ${s.minItems} item(s), got ${v.length}`);
      if (s.maxItems !== undefined && v.length > s.maxItems)
        return fail(path, "maxItems", `expected at most ${s.maxItems} item(s), got ${v.length}`);
      if (s.items !== undefined) {
        for (let i = 0; i < v.length; i++) {
          const e = check(s.items, v[i], root, [...path, i]);
          if (e !== null) return e;
        }
      }
    }
    if (isObject(v)) {
      const e = object(s, v, root, path);
      if (e !== null) return e;
    }
    if (s["x-rules"] !== undefined) {
      for (const id of s["x-rules"]) {
        const e = applyRule(ruleById.get(id), v, path);
        if (e !== null) return e;
      }
    }
    return null;
  };

  const object = (s, v, root, path) => {
    const props = s.properties ?? {};
    for (const k of s.required ?? [])
      if (!Object.hasOwn(v, k)) return fail([...path, k], "required", `required member ${short(k)} is missing`);
    for (const [k, x] of Object.entries(v)) {
      if (s.propertyNames !== undefined) {
        const e = check(s.propertyNames, k, root, [...path, k]);
        if (e !== null) return { ...e, message: `member name: ${e.message}` };
      }
      if (Object.hasOwn(props, k)) {
        const e = check(props[k], x, root, [...path, k]);
        if (e !== null) return e;
      } else if (s.additionalProperties === false) {
        return fail(
          [...path, k],
          "additionalProperties",
          `unknown member ${short(k)}${Object.keys(props).length > 0 ? `; the members are ${list(Object.keys(props))}` : ""}`,
        );
      } else if (s.additionalProperties !== undefined) {
        const e = check(s.additionalProperties, x, root, [...path, k]);
        if (e !== null) return e;
      }
    }
    return null;
  };

  /**
   * anyOf: at least one alternative holds; oneOf: exactly one. When none holds, the failure reported
   * is the one of the alternative the value was evidently meant for: the one whose discriminating
   * `const` member (e.g. `op` or `name`) it carries, or the only one of its JSON type.
   */
  const alternatives = (s, v, root, path) => {
    const alts = s.oneOf ?? s.anyOf;
    const passing = alts.filter((a) => check(a, v, root, path) === null).length;
    if (s.oneOf !== undefined && passing > 1)
      return fail(path, "oneOf", `the value matches ${passing} alternatives of a oneOf, expected exactly one`);
    if (passing > 0) return null;
    const key = discriminator(alts, root);
    if (key !== null && isObject(v)) {
      const tag = v[key];
      const meant = alts.filter((a) => jsonEqual(resolve(a, root).properties[key].const, tag));
      if (meant.length === 1) return check(meant[0], v, root, path);
      const tags = alts.map((a) => resolve(a, root).properties[key].const);
      if (!Object.hasOwn(v, key))
        return fail([...path, key], "required", `required member ${short(key)} is missing (one of ${list(tags)})`);
      return fail([...path, key], "const", `expected one of ${list(tags)}, got ${short(tag)}`);
    }
    const sameType = alts.filter((a) => {
      const t = resolve(a, root).type;
      return t !== undefined && (Array.isArray(t) ? t : [t]).some((x) => hasType(x, v));
    });
    if (sameType.length === 1) return check(sameType[0], v, root, path);
    return fail(
      path,
      s.oneOf !== undefined ? "oneOf" : "anyOf",
      `${describe(v)} matches none of the ${alts.length} alternatives`,
    );
  };

  const applyRule = (rule, v, path) => {
    const arr = isObject(v) ? v[rule.array] : undefined;
    if (!Array.isArray(arr)) return null;
    const seen = new Set();
    for (let i = 0; i < arr.length; i++) {
      const el = arr[i];
      const key = canonical(rule.unique_by.map((m) => (isObject(el) && Object.hasOwn(el, m) ? el[m] : { absent: m })));
      if (seen.has(key)) {
        const at = String(rule.path)
          .split(".")
          .map((seg) => (seg === "<i>" ? i : seg));
        return fail(
          [...path, ...at],
          rule.id,
          `${rule.statement} (rule ${rule.id}: ${rule.array}[${i}] repeats an earlier element's ${list(rule.unique_by)})`,
        );
      }
      seen.add(key);
    }
    return null;
  };

  return { validate };
};

// --- Checking that a schema stays within the subset (at construction) ---------------------------

const checkSubset = (s, root, where, ruleById) => {
  if (typeof s !== "object" || s === null || Array.isArray(s)) throw new Error(`${where}: a schema must be an object`);
  for (const [k, v] of Object.entries(s)) {
    if (ANNOTATIONS.has(k)) continue;
    if (!KEYWORDS.has(k))
      throw new Error(`${where}: keyword ${JSON.stringify(k)} is outside the subset this validator implements`);
    const at = `${where}/${k}`;
    switch (k) {
      case "$ref":
        deref(root, v, at);
        break;
      case "type":
        for (const t of Array.isArray(v) ? v : [v])
          if (!TYPES.has(t)) throw new Error(`${at}: unknown type ${JSON.stringify(t)}`);
        break;
      case "pattern":
        regex(v);
        break;
      case "anyOf":
      case "oneOf":
        v.forEach((a, i) => checkSubset(a, root, `${at}/${i}`, ruleById));
        break;
      case "items":
      case "propertyNames":
        checkSubset(v, root, at, ruleById);
        break;
      case "additionalProperties":
        if (v !== false) checkSubset(v, root, at, ruleById);
        break;
      case "properties":
        for (const [name, p] of Object.entries(v)) checkSubset(p, root, `${at}/${name}`, ruleById);
        break;
      case "x-rules":
        for (const id of v) if (!ruleById.has(id)) throw new Error(`${at}: rule ${id} is not in rules.json`);
        break;
      default:
        break;
    }
  }
  if (s === root)
    for (const [name, d] of Object.entries(root.$defs ?? {})) checkSubset(d, root, `${where}#/$defs/${name}`, ruleById);
};

// --- Helpers ----------------------------------------------------------------------------------

const fail = (path, keyword, message) => ({ path, message, keyword });

const deref = (root, ref, where = "$ref") => {
  const m = typeof ref === "string" ? /^#\/\$defs\/(.+)$/.exec(ref) : null;
  const defs = root.$defs ?? {};
  if (m === null || !Object.hasOwn(defs, m[1]))
    throw new Error(`${where}: cannot resolve ${JSON.stringify(ref)} (only #/$defs/<name> of the same file)`);
  return defs[m[1]];
};

/** An alternative with its `$ref` chain followed, for looking at its `type` and `properties`. */
const resolve = (s, root) => (s.$ref !== undefined ? resolve(deref(root, s.$ref), root) : s);

const discriminators = new WeakMap();
/** The member that every alternative fixes with a `const` (e.g. `op`), or null. */
const discriminator = (alts, root) => {
  if (discriminators.has(alts)) return discriminators.get(alts);
  const shapes = alts.map((a) => resolve(a, root).properties);
  let key = null;
  if (shapes.every((p) => p !== undefined)) {
    key =
      Object.keys(shapes[0]).find((k) => shapes.every((p) => Object.hasOwn(p, k) && p[k].const !== undefined)) ?? null;
  }
  discriminators.set(alts, key);
  return key;
};

const regexes = new Map();
/** ECMA-262 semantics with the `u` flag, as the schemas are written (see the file comment). */
const regex = (pattern) => {
  let r = regexes.get(pattern);
  if (r === undefined) {
    r = new RegExp(pattern, "u");
    regexes.set(pattern, r);
  }
  return r;
};

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

const hasType = (t, v) => {
  switch (t) {
    case "object":
      return isObject(v);
    case "array":
      return Array.isArray(v);
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number";
    case "integer":
      return Number.isInteger(v);
    case "boolean":
      return typeof v === "boolean";
    case "null":
      return v === null;
    default:
      return false;
  }
};

/** D-041: string bounds count code points; a well-formed surrogate pair is one. */
export const codePoints = (s) => {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
};

/** JSON text with object members sorted, so that equal JSON values have equal texts. */
export const canonical = (v) => {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "undefined";
};

export const jsonEqual = (a, b) =>
  a === b ||
  (typeof a === "object" && typeof b === "object" && a !== null && b !== null && canonical(a) === canonical(b));

const article = (t) =>
  t === "integer" || t === "object" || t === "array" ? `an ${t}` : t === "null" ? "null" : `a ${t}`;

const describe = (v) => {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "number") return `${Number.isInteger(v) ? "the integer" : "the number"} ${v}`;
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `the string ${short(v)}`;
  return `${typeof v} ${String(v)}`;
};

const short = (v) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
};

const list = (xs) =>
  xs.length > 12 ? `${xs.slice(0, 12).map(short).join(", ")} and ${xs.length - 12} more` : xs.map(short).join(", ");
