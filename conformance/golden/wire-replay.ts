/**
 * Replays the wire golden session (spec/wire/PROTOCOL.md W-9.1) against an implementation's
 * process: every raw line is written at once to a fresh process on an empty data directory, stdin
 * is closed, and the replies read until the process exits (the session ends with `shutdown`). The
 * replies must be exactly the expected ones, in order: one per line whose `reply` is not null, and
 * nothing else. Used by the golden tests, the runner's golden stage and the wire-mutant test.
 */
import { isDeepStrictEqual } from "node:util";
import {
  ImplementationProcess,
  describeExit,
  type ExitInfo,
  type SpawnSpec,
  type StdoutLine,
} from "../transport/process.ts";
import { lineBytes, type WireExpected, type WireStep } from "./wire-session.ts";
import { throwIfCut } from "../core/abort.ts";

/** Is this raw line a `hello` request (of whose successful reply only `protocol_version` is normative)? */
const isHello = (step: WireStep): boolean => {
  const [first] = step.send;
  if (step.send.length !== 1 || first === undefined || !("text" in first)) return false;
  try {
    return (JSON.parse(first.text) as { type?: unknown }).type === "hello";
  } catch {
    return false;
  }
};

/** The normative part of an actual reply, shaped like WireExpected (W-9, W-9.1). */
export const wireNormative = (reply: unknown, hello: boolean): unknown => {
  if (typeof reply !== "object" || reply === null) return reply;
  const r = reply as {
    id?: unknown;
    ok?: unknown;
    events?: unknown;
    result?: unknown;
    error?: { code?: unknown; invariant?: unknown; definite?: unknown };
  };
  if (r.ok === true) {
    const result =
      hello && typeof r.result === "object" && r.result !== null
        ? { protocol_version: (r.result as { protocol_version?: unknown }).protocol_version }
        : r.result;
    return { id: r.id, ok: true, events: r.events, ...(result === undefined ? {} : { result }) };
  }
  return {
    id: r.id,
    ok: r.ok,
    error: { code: r.error?.code, invariant: r.error?.invariant, definite: r.error?.definite },
  };
};

const short = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
};

/**
 * null when `stdout` (the process's reply lines, in order) is exactly what the session expects;
 * otherwise the first difference, naming the step, the clause that decides it and what the line is.
 */
export const firstWireMismatch = (steps: readonly WireStep[], stdout: readonly string[]): string | null => {
  const expecting = steps.filter((s): s is WireStep & { reply: WireExpected } => s.reply !== null);
  for (const [i, step] of expecting.entries()) {
    const raw = stdout[i];
    const where = `step ${step.step} (${step.what}; ${step.clause})`;
    if (raw === undefined)
      return `${where}: expected ${short(step.reply)}, got no reply (${stdout.length} replies in all for ${expecting.length} expected)`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return `${where}: stdout line ${i + 1} is not JSON: ${short(raw)}`;
    }
    const actual = wireNormative(parsed, isHello(step));
    if (!isDeepStrictEqual(actual, step.reply)) {
      // Replies are matched in order: one missing or extra earlier shifts all that follow. An id names the line a reply really answers.
      const id = (actual as { id?: unknown } | null)?.id;
      const owner =
        id === null || id === undefined || isDeepStrictEqual(id, step.reply.id)
          ? undefined
          : expecting.find((s) => isDeepStrictEqual(s.reply.id, id));
      const shifted =
        owner === undefined
          ? ""
          : ` (that is the id of step ${owner.step}: a reply before this one is missing or extra)`;
      return `${where}: expected ${short(step.reply)}, got ${short(actual)}${shifted}`;
    }
  }
  if (stdout.length > expecting.length)
    return `${stdout.length - expecting.length} reply line(s) too many after the last expected one; the first: ${short(stdout[expecting.length])}`;
  return null;
};

export interface WireReplay {
  readonly mismatch: string | null;
  readonly replies: number;
  readonly exit: ExitInfo | null;
}

/** Starts `spec` (whose data directory must be fresh), sends the whole session, and compares the replies. */
export const replayWireSession = async (
  spec: SpawnSpec,
  steps: readonly WireStep[],
  timeoutMs = 60_000,
  signal?: AbortSignal,
): Promise<WireReplay> => {
  const lines: StdoutLine[] = [];
  // Under `signal` (a stage's, an interrupt's) the process is stopped when it fires, and the replay
  // rejects with its CutShort instead of judging the replies of a process it stopped.
  const proc = new ImplementationProcess(
    spec,
    (l) => lines.push(l),
    () => {},
    signal,
  );
  proc.write(Buffer.concat(steps.map((s) => lineBytes(s.send))));
  proc.endInput();
  let timer: NodeJS.Timeout | undefined;
  const exit = await Promise.race([
    proc.exited,
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (exit === null) {
    proc.kill("SIGKILL");
    await proc.exited;
  }
  throwIfCut(signal);
  const invalid = lines.find((l) => !l.validUtf8);
  const mismatch =
    invalid !== undefined
      ? `a reply line is not valid UTF-8: ${short(invalid.text)}`
      : firstWireMismatch(
          steps,
          lines.map((l) => l.text),
        );
  const ended =
    exit === null
      ? `no exit within ${timeoutMs} ms (killed)`
      : exit.code === 0
        ? null
        : `the process ${describeExit(exit)}`;
  const tail = (): string => `stderr: ${short(proc.stderrTail(5))}`;
  const why =
    mismatch !== null
      ? `${mismatch}${ended === null ? "" : ` (${ended}; ${tail()})`}`
      : ended !== null
        ? `every reply matched, but ${ended} (W-2.2: status 0 after shutdown; ${tail()})`
        : null;
  return { mismatch: why, replies: lines.length, exit };
};
