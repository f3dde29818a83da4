/** `outOfTime`: out of time when the budget's clock has run out or the stage's signal fired, not before either. */
import { describe, expect, it } from "vitest";
import { outOfTime } from "./budget.ts";

const fired = (): AbortSignal => {
  const c = new AbortController();
  c.abort();
  return c.signal;
};

describe("outOfTime", () => {
  it("is false with budget left and no signal, or a signal that has not fired", () => {
    expect(outOfTime({ deadline: Date.now() + 60_000 })).toBe(false);
    expect(outOfTime({ deadline: Date.now() + 60_000, signal: new AbortController().signal })).toBe(false);
  });
  it("is true once the deadline is reached, with or without a signal", () => {
    expect(outOfTime({ deadline: Date.now() })).toBe(true);
    expect(outOfTime({ deadline: Date.now() - 1, signal: new AbortController().signal })).toBe(true);
  });
  it("is true once the signal fired, with budget left", () => {
    expect(outOfTime({ deadline: Date.now() + 60_000, signal: fired() })).toBe(true);
  });
});
