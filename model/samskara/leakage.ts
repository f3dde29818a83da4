/**
 * D-010 leakage validator (S-1): guidance must not reproduce 4 consecutive tokens of the trace.
 * The trace is one token sequence, the tokens of its entries in order, so a run may span two
 * entries (spec review G-51): how a harness splits one episode into entries cannot decide the
 * verdict. Normalisation is NFKC then default lower-casing; tokens are maximal runs of letters,
 * marks and numbers, so punctuation (including `_`, spec review G-50), spacing and case cannot be
 * used to evade the check.
 */
const TOKEN = /[\p{L}\p{M}\p{N}]+/gu;
export const LEAK_RUN = 4;

export const tokens = (text: string): string[] => text.normalize("NFKC").toLowerCase().match(TOKEN) ?? [];

const grams = (ts: readonly string[]): string[] => {
  const out: string[] = [];
  for (let i = 0; i + LEAK_RUN <= ts.length; i++) out.push(ts.slice(i, i + LEAK_RUN).join(" "));
  return out;
};

/** True iff `guidance` repeats a run of 4 consecutive tokens of the trace (runs may span entries). */
export const leaks = (guidance: string, traceEntries: readonly string[]): boolean => {
  const g = grams(tokens(guidance));
  if (g.length === 0) return false;
  const wanted = new Set(g);
  return grams(traceEntries.flatMap(tokens)).some((x) => wanted.has(x));
};
