/** The 19 invariant ids (spec/INVARIANTS.md): the spine every layer names them by. */
export const INVARIANT_IDS = [
  "J-1",
  "J-2",
  "J-3",
  "J-4",
  "S-1",
  "S-2",
  "S-3",
  "S-4",
  "S-5",
  "AD-1",
  "AD-2",
  "AD-3",
  "AD-4",
  "I1",
  "I2",
  "I3",
  "I4",
  "I5",
  "I6",
] as const;
export type InvariantId = (typeof INVARIANT_IDS)[number];
