/**
 * Capability algebra (OP-2 preamble, D-016), enforcing J-2 (scoped capabilities) and the grant
 * part of J-1. A wildcard `p.*` covers every capability strictly below `p`, never `p` itself.
 */
const wildcardPrefix = (grant: string): string | null => (grant.endsWith(".*") ? grant.slice(0, -2) : null);

/** covers(grant, c): grant = c, or grant = p.* and c starts with `p.`. */
export const covers = (grant: string, capability: string): boolean => {
  if (grant === capability) return true;
  const p = wildcardPrefix(grant);
  return p !== null && capability.startsWith(`${p}.`);
};

/** Is grant `g` obtainable from what the environment offers (J-1)? */
export const grantable = (g: string, offered: readonly string[]): boolean =>
  offered.some((h) => {
    if (h === g) return true;
    const q = wildcardPrefix(h);
    if (q === null) return false;
    const p = wildcardPrefix(g);
    return p === null ? covers(h, g) : p === q || p.startsWith(`${q}.`);
  });

/** Is an exercised capability covered by some held grant (J-2)? */
export const heldGrantCovers = (grants: readonly string[], capability: string): boolean =>
  grants.some((g) => covers(g, capability));
