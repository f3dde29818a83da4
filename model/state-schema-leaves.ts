/**
 * Building blocks of the World schema: spec wire objects reused as Effect Schema leaves, and
 * canonical codecs for the Maps and Sets of the model's state.
 *
 * The spec's zod schemas are pure validators (strict objects, no transforms, no defaults), so a
 * wire object held in the state is validated by the very schema the spec publishes instead of a
 * mirror that could drift. zod's output has its keys in schema order, so running the leaf on
 * encode also puts every wire object's keys in one canonical order.
 */
import { Effect, Schema, SchemaIssue, SchemaTransformation } from "effect";
import type { z } from "zod";
import { DIGEST_PATTERN, type Digest } from "../spec/index.ts";
import { sortStrings } from "./state.ts";

/** Key-sorted copy of a plain record: zod keeps a record's input key order, JSON needs one order. */
const sortRecord = (r: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(sortStrings(Object.keys(r)).map((k) => [k, r[k]]));

/**
 * A spec zod schema as an Effect Schema whose type and encoded form are both the wire type. Each
 * zod issue becomes an Effect issue at the same path, prefixed by the wire object's name so the
 * message says what was expected where. `sortKeys` canonicalises a record's key order (Labels).
 */
export const fromZod = <Z extends z.ZodType>(
  name: string,
  zod: Z,
  options: { readonly sortKeys?: boolean } = {},
): Schema.declareConstructor<z.output<Z>, z.output<Z>, readonly []> =>
  Schema.declareConstructor<z.output<Z>, z.output<Z>>()(
    [],
    () => (input, ast, parseOptions) => {
      const r = zod.safeParse(input);
      if (r.success) {
        const data =
          options.sortKeys === true ? (sortRecord(r.data as Record<string, unknown>) as z.output<Z>) : r.data;
        return Effect.succeed(data);
      }
      const issues = r.error.issues.map(
        (i) =>
          new SchemaIssue.Pointer(
            i.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
            new SchemaIssue.InvalidValue({ message: `${name}: ${i.message}` }, input, parseOptions),
          ),
      );
      const [first, ...rest] = issues;
      if (first === undefined)
        return Effect.fail(new SchemaIssue.InvalidValue({ message: `not a valid ${name}` }, input));
      return Effect.fail(
        rest.length === 0 ? first : new SchemaIssue.Composite(ast, [first, ...rest], input, parseOptions),
      );
    },
    { title: name },
  );

/** A digest typed as the model types it (`sha256:…`), with the spec's pattern and message. */
export const DigestSchema: Schema.Codec<Digest> = Schema.TemplateLiteral(["sha256:", Schema.String]).check(
  Schema.isPattern(DIGEST_PATTERN, { message: "expected a digest: 'sha256:' followed by 64 lowercase hex digits" }),
);

const isStrictlyAscending = (xs: readonly string[]): boolean =>
  xs.every((x, i) => i === 0 || (xs[i - 1] as string) < x);

/**
 * A string array the model keeps sorted and duplicate-free. Decoding refuses any other order:
 * the model's rules assume it (OP-0.6), and a canonical encoding has exactly one spelling.
 */
export const SortedStrings = <T extends string>(item: Schema.Codec<T>) =>
  Schema.Array(item).check(
    Schema.makeFilter((xs: readonly string[]) => isStrictlyAscending(xs), {
      message: "expected strictly ascending strings (sorted, no duplicates)",
    }),
  );

/** A ReadonlySet<string> encoded as its elements in ascending order. */
export const SortedSet = <T extends string>(item: Schema.Codec<T>) =>
  SortedStrings(item).pipe(
    Schema.decodeTo(
      Schema.declare((u): u is ReadonlySet<T> => u instanceof Set, { title: "ReadonlySet" }),
      SchemaTransformation.transform({
        decode: (xs: readonly T[]): ReadonlySet<T> => new Set(xs),
        encode: (s: ReadonlySet<T>): readonly T[] => sortStrings(s) as T[],
      }),
    ),
  );

/**
 * A ReadonlyMap<string, V> encoded as `[key, value]` entries in ascending key order. Entries, not
 * a record: JSON objects reorder integer-like keys, entries keep exactly one order. `keyOf`
 * names the id inside a value that its key must repeat (the model keys agents by identity,
 * lives by instance id...): a decoded entry whose key and value disagree would be a world the
 * model can never build, so it fails at that entry's key.
 */
export const SortedMap = <V, VE>(
  key: Schema.Codec<string>,
  value: Schema.Codec<V, VE>,
  keyOf?: { readonly field: string; readonly of: (v: V) => string },
) => {
  type Entries = readonly (readonly [string, V])[];
  const entry: Schema.Codec<readonly [string, V], readonly [string, VE]> = Schema.Tuple([key, value]);
  const keysMatch = (es: Entries) =>
    keyOf === undefined
      ? []
      : es.flatMap(([k, v], i) =>
          keyOf.of(v) === k
            ? []
            : [
                {
                  path: [i, 0],
                  issue: `key ${JSON.stringify(k)} differs from the value's ${keyOf.field} ${JSON.stringify(keyOf.of(v))}`,
                },
              ],
        );
  return Schema.Array(entry)
    .check(
      Schema.makeFilter((es: Entries) => isStrictlyAscending(es.map((e) => e[0])), {
        message: "expected entries in strictly ascending key order (sorted, no duplicate keys)",
      }),
      Schema.makeFilter(keysMatch),
    )
    .pipe(
      Schema.decodeTo(
        Schema.declare((u): u is ReadonlyMap<string, V> => u instanceof Map, { title: "ReadonlyMap" }),
        SchemaTransformation.transform({
          decode: (es: Entries): ReadonlyMap<string, V> => new Map(es),
          encode: (m: ReadonlyMap<string, V>): Entries => sortStrings(m.keys()).map((k) => [k, m.get(k) as V] as const),
        }),
      ),
    );
};
