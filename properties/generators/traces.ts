/**
 * Trace text: how an act's trace is cut into entries, and how a guidance quotes it.
 *
 * Spec review situations (Janma / Samskara, spec/review/janma-samskara.ts). Each helper makes one
 * reading observable, so a mutant taking the other reading diverges from the model:
 * - G-32, G-51: an act carries one to three trace entries, so trace.destroyed counts entries, not
 *   acts, and a 4-word run may cross an entry boundary;
 * - G-50: a snake_case word (two tokens) appears in some traces;
 * - G-27: a tool may be offered twice, a partial entry first (manifests.ts `offeredTools`);
 * - G-24: a redelivery names applied obligations out of order and repeated (makers-custody.ts).
 */
import type { Choice } from "./choice.ts";

export const traceEntriesOf = (words: readonly string[], c: Choice): string[] => {
  // fast-check favours small and edge values of each field, so the shape mixes two fields.
  const ws =
    (c.x + c.op) % 4 === 1 ? [words[0] ?? "x", `${words[1] ?? "x"}_${words[2] ?? "x"}`, ...words.slice(3)] : [...words];
  const cut = (c.y + c.op) % 3;
  if (cut === 0) return [ws.join(" ")];
  if (cut === 1) return [ws.slice(0, 2).join(" "), ws.slice(2).join(" ")];
  return [ws.slice(0, 1).join(" "), ws.slice(1, 3).join(" "), ws.slice(3).join(" ")];
};
/** The words of a life's whole trace, across its entries, in order. */
export const traceWords = (trace: readonly string[]): string[] =>
  trace
    .join(" ")
    .split(" ")
    .filter((w) => w.length > 0);

/** Full-width letters: the same token after NFKC (D-010). */
export const fullWidth = (t: string) =>
  [...t].map((ch) => (/[a-z]/.test(ch) ? String.fromCodePoint((ch.codePointAt(0) ?? 0) + 0xfee0) : ch)).join("");
