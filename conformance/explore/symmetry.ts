/**
 * Symmetry reduction (issue 27): states that differ only by a permutation of interchangeable ids
 * are one state. As in Stateright's `representative`, the explorer fingerprints a canonical
 * representative of each state's orbit instead of the state: here the least (in code-unit order)
 * of the world's canonical text under every permutation of each symmetric id set the scope
 * declares, so two states whose texts are permutations of each other get one fingerprint.
 *
 * What a permutation renames: every whole id token of the set, where a token is bounded by
 * anything but a letter, digit, `_` or `.` (so `-` bounds it): `i1` itself and the strings the
 * makers derive from it (`n-i1`, `ob-i1`, `d-i1-pos`, `x-d-i1-pos`). Digests are left as they
 * are (they are hex: an instance id starting with a letter past `f` never occurs in one). So
 * two states share a representative only when their texts are equal up to the renaming, digests
 * included, which is the case exactly when the digests do not depend on which id was taken.
 *
 * Sound for what the explorer counts when the model treats the ids of a set alike, by equality
 * only; the model sorts by id in places (a merge's obligations, lists in canonical order), which
 * may change which of two failing checks a command meets first. The scope opts in
 * (`symmetry`), and the test compares the check clauses reached and the violations found with
 * and without it.
 */
import type { Scope } from "./scope.ts";

/** Every permutation of `xs` (n! of them; the identity first). */
export const permutations = <T>(xs: readonly T[]): T[][] => {
  if (xs.length <= 1) return [[...xs]];
  const out: T[][] = [];
  xs.forEach((x, k) => {
    for (const rest of permutations([...xs.slice(0, k), ...xs.slice(k + 1)])) out.push([x, ...rest]);
  });
  return out;
};

/** At most this many ids per symmetric set (8! = 40,320 renamings of every state would be slower than no reduction). */
export const MAX_SYMMETRIC_IDS = 4;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");

/** A renaming of id tokens in a text: `from[k]` becomes `to[k]` (a permutation: all at once). */
export const renamer = (from: readonly string[], to: readonly string[]): ((text: string) => string) => {
  const map = new Map(from.map((f, k) => [f, to[k] as string]));
  const re = new RegExp(`(?<![A-Za-z0-9_.])(${from.map(escapeRegExp).join("|")})(?![A-Za-z0-9_.])`, "g");
  return (text) => text.replace(re, (m) => map.get(m) ?? m);
};

/** The id sets of a scope that are declared symmetric. */
export const symmetricSets = (scope: Scope): string[][] =>
  (scope.symmetry ?? []).map((set) => {
    switch (set) {
      case "instances":
        return [...scope.instances];
    }
  });

/**
 * The function from a world's text to its representative's text, for a scope: the identity when
 * the scope declares no symmetry (or a set of one id).
 */
export const representativeOf = (scope: Scope): ((text: string) => string) => {
  const sets = symmetricSets(scope).filter((s) => s.length > 1);
  for (const s of sets)
    if (s.length > MAX_SYMMETRIC_IDS)
      throw new Error(`symmetry: at most ${MAX_SYMMETRIC_IDS} interchangeable ids per set (${s.length} given)`);
  if (sets.length === 0) return (text) => text;
  // Every combination of one permutation per set, the identity excluded (the text itself is a candidate).
  let renamings: Array<(t: string) => string> = [(t) => t];
  for (const set of sets) {
    const perms = permutations(set).map((p) => renamer(set, p));
    renamings = renamings.flatMap((r) => perms.map((p) => (t: string) => p(r(t))));
  }
  const others = renamings.slice(1);
  return (text) => {
    let best = text;
    for (const r of others) {
      const t = r(text);
      if (t < best) best = t;
    }
    return best;
  };
};
