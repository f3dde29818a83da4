/** The certification's defaults, one place for the command line (`srk certify`) and the library (`certify`). */
export const DEFAULTS = {
  seed: 1,
  runs: 300,
  timeBudgetSeconds: 600,
  requestTimeoutMs: 15_000,
  startupTimeoutMs: 30_000,
} as const;
