/**
 * Every row closing an item of spec review 1, gathered from the areas where the work was done;
 * `spec/REVIEW-1.md` is rendered from them (spec/render.ts) and conformance/review.test.ts checks
 * their pins.
 */
import type { ReviewRow } from "./types.ts";
import { ROWS as JANMA_SAMSKARA } from "./janma-samskara.ts";
import { ROWS as LIVENESS } from "./liveness.ts";
import { ROWS as RIPA } from "./ripa.ts";
import { ROWS as SPEC_TEXT } from "./spec-text.ts";
import { ROWS as WIRE } from "./wire.ts";
import { ROWS as WITNESS } from "./witness.ts";

export const REVIEW_ROWS: readonly ReviewRow[] = [
  ...SPEC_TEXT,
  ...WITNESS,
  ...WIRE,
  ...JANMA_SAMSKARA,
  ...RIPA,
  ...LIVENESS,
];

export { renderReview } from "./render.ts";
export { REVIEW_ITEMS, ABSENT_FROM_REVIEW } from "./titles.ts";
export type { ReviewRow, ReviewStatus } from "./types.ts";
