/**
 * The scope the exhaustive stage explores when `--exhaustive` names none (D-074): a constant of its
 * own so that certify.ts can write it into a certificate's settings without loading the stage.
 */
export const DEFAULT_EXHAUSTIVE_SCOPE = "quick";
