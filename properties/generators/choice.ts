/**
 * The generator's draws. fast-check generates a list of small "choices"; the interpreter
 * (commands.ts `materialize`) turns each into a command. Their shape and ranges fix the draws
 * fast-check makes, so any change here changes every generated run (and the golden sessions).
 */
import fc from "fast-check";

export interface Choice {
  readonly op: number;
  readonly x: number;
  readonly y: number;
  readonly bad: number;
}

export const choiceArb: fc.Arbitrary<Choice> = fc.record({
  op: fc.nat(1000),
  x: fc.nat(1000),
  y: fc.nat(1000),
  bad: fc.nat(15),
});

export const choicesArb = (min: number, max: number): fc.Arbitrary<Choice[]> =>
  fc.array(choiceArb, { minLength: min, maxLength: max });

/** The `n`-th element of `xs`, cyclically (a choice's field picks among whatever the view offers), or undefined when empty. */
export const pick = <T>(xs: readonly T[], n: number): T | undefined =>
  xs.length === 0 ? undefined : xs[n % xs.length];
