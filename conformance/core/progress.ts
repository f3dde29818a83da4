/**
 * Live progress of a certification, on stderr (stdout carries the final summary only; nothing
 * ever goes to the implementation). On a terminal one status line is redrawn in place: stage,
 * runs done, witnesses, violations so far. Elsewhere (CI logs) plain lines are printed, at most
 * one per stage event and one every few seconds.
 */
export interface Progress {
  /** A stage starts. */
  stage(name: string, detail?: string): void;
  /** Progress inside a stage: `done` of `total` units, with counters. */
  tick(done: number, total: number, counters: { readonly witnesses: number; readonly violations: number }): void;
  /** A line that must stay in the log (a violation found, a stage result). */
  line(text: string): void;
  done(): void;
}

export const silentProgress: Progress = { stage() {}, tick() {}, line() {}, done() {} };

export const streamProgress = (stream: NodeJS.WriteStream = process.stderr, plainEveryMs = 5_000): Progress => {
  const tty = stream.isTTY === true;
  let current = "";
  let lastPlain = 0;
  let status = "";
  const clear = (): void => {
    if (tty && status !== "") stream.write("\r\x1b[2K");
  };
  return {
    stage(name, detail) {
      current = name;
      clear();
      status = "";
      stream.write(`srk: stage ${name}${detail === undefined ? "" : ` — ${detail}`}\n`);
    },
    tick(done, total, c) {
      const text = `srk: ${current} ${done}/${total} runs, ${c.witnesses} witnesses, ${c.violations} violations`;
      if (tty) {
        clear();
        status = text;
        stream.write(text.slice(0, (stream.columns ?? 120) - 1));
      } else if (Date.now() - lastPlain >= plainEveryMs || done === total) {
        lastPlain = Date.now();
        stream.write(`${text}\n`);
      }
    },
    line(text) {
      clear();
      stream.write(`${text}\n`);
      if (tty && status !== "") stream.write(status);
    },
    done() {
      clear();
      status = "";
    },
  };
};
