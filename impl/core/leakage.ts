/**
 * S-1 leakage validator (D-010): a guidance leaks iff 4 consecutive tokens of it occur as 4
 * consecutive tokens of the trace, read as one token sequence across its entries (a run may span
 * two entries, spec review G-51). Text is NFKC-normalised then lower-cased; tokens are maximal
 * runs of Unicode letters, marks and numbers, so `_` separates tokens (spec review G-50).
 */
const TOKEN = /[\p{L}\p{M}\p{N}]+/gu;
const RUN = 4;
/** Tokens never contain a control character, so it separates them unambiguously in a key. */
const SEP = "\u0001";

export const tokensOf = (text: string): string[] => text.normalize("NFKC").toLowerCase().match(TOKEN) ?? [];

const runsOf = (tokens: readonly string[]): string[] => {
  const out: string[] = [];
  for (let i = 0; i + RUN <= tokens.length; i++) out.push(tokens.slice(i, i + RUN).join(SEP));
  return out;
};

/** Index of a trace: every 4-token run of its token sequence, entries concatenated in order. */
export class TraceRuns {
  private readonly runs = new Set<string>();
  constructor(entries: readonly string[]) {
    for (const r of runsOf(entries.flatMap(tokensOf))) this.runs.add(r);
  }
  /** S-1: does this guidance contain a 4-token run of the trace? */
  leaks(guidance: string): boolean {
    return runsOf(tokensOf(guidance)).some((r) => this.runs.has(r));
  }
}
