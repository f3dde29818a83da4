/** Capability algebra (D-016), used by J-1 (birth resolution) and J-2 (scoped acts). */

const isWildcard = (grant: string): boolean => grant.endsWith(".*");
const prefixOf = (wildcard: string): string => wildcard.slice(0, -2);

/** J-2: does `grant` cover the exact capability `cap`? */
export const grantCovers = (grant: string, cap: string): boolean =>
  isWildcard(grant) ? cap.startsWith(`${prefixOf(grant)}.`) : grant === cap;

/** J-1: can `wanted` be granted from the `offered` grants of a birth environment? */
export const isGrantable = (wanted: string, offered: readonly string[]): boolean =>
  offered.some((h) => {
    if (h === wanted) return true;
    if (!isWildcard(h)) return false;
    const q = prefixOf(h);
    if (!isWildcard(wanted)) return grantCovers(h, wanted);
    const p = prefixOf(wanted);
    return p === q || p.startsWith(`${q}.`);
  });
