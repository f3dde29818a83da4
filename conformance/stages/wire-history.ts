/**
 * The wire stage's history (issue 22): what its driver (wire.ts) observed, as plain JSON, for its
 * checkers (wire-check.ts) to judge. One part per pass of the catalog, named by its mode
 * ("pipelined", "sequential"). Besides the common events (the exchanges of the setup mint, step 0,
 * and of the world queries before and after the catalog, steps 1 and 2; a break or a stop on one of
 * them), a pass records these stage events, in the order the driver met them:
 *
 * - `wire-open-failed`: the session for the pass could not be opened (nothing else in the part);
 * - `wire-dir`: the data directory's entries and digests, before and after the catalog;
 * - `wire-batch`: one write of raw catalog lines followed by a sentinel request, how it ended and
 *   what came back (the replies drained, the protocol violations the client saw);
 * - `wire-exited`: the driver found the process gone after the catalog (it asked nothing more) or
 *   when asking the world after it (a crash);
 * - `wire-budget-ended`: the line-by-line pass was wanted but the time budget had ended.
 */
import type { History } from "../core/history.ts";
import type { Reply } from "../../spec/wire/index.ts";

export type Mode = "pipelined" | "sequential";

/** The unit of the stage's history: the whole catalog is one unit. */
export const WIRE_UNIT = "wire";

/** Steps of the driver's own requests around the catalog (the common exchange, break events). */
export const STEP_SETUP_MINT = 0;
export const STEP_WORLD_BEFORE = 1;
export const STEP_WORLD_AFTER = 2;

/** How a process ended, as the operating system said (ExitInfo, plain). */
export interface Exit {
  readonly code: number | null;
  readonly signal: string | null;
}

/** A break of the wire protocol the client saw in what came back (Violation, plain). */
export interface SeenViolation {
  readonly rule: string;
  readonly message: string;
  readonly raw: string;
}

/** Bytes as written: as text when they are valid UTF-8 (and read back the same), else as base64. */
export type RawBytes = { readonly text: string } | { readonly base64: string };

export type WireEvent =
  /** The pass's session could not be opened: an Undrivable (its message) or a break of the handshake. */
  | {
      readonly kind: "wire-open-failed";
      readonly part: Mode;
      readonly cause: "undrivable" | "break";
      readonly rule: string | null;
      readonly message: string;
      readonly raw: string | null;
    }
  /**
   * The data directory's entries: relative path -> SHA-256 of the file (or `link:<target>`, or
   * "dir" for `<path>/`), as pairs in the order of the walk (a JSON object would move names that
   * look like integers first, and the difference lists entries in this order).
   */
  | {
      readonly kind: "wire-dir";
      readonly part: Mode;
      readonly label: "before" | "after";
      readonly entries: readonly (readonly [string, string])[];
    }
  /**
   * One write of the catalog lines `lines` (indexes into the catalog), then the sentinel query
   * `sentinel`. `end`: the sentinel was answered (or broke the protocol), the process ended (then
   * `exit` and `stderrTail`, its last 10 lines, as seen at once) or nothing came in time; `why`
   * says how (null when the sentinel was answered). `replies`: those to the lines, drained when
   * the batch ended; `violations`: the protocol breaks the client saw meanwhile.
   */
  | {
      readonly kind: "wire-batch";
      readonly part: Mode;
      readonly lines: readonly number[];
      readonly bytes: RawBytes;
      readonly sentinel: string;
      readonly end: "sentinel" | "exited" | "timeout";
      readonly why: string | null;
      readonly replies: readonly Reply[];
      readonly violations: readonly SeenViolation[];
      readonly exit: Exit | null;
      readonly stderrTail: string | null;
    }
  /**
   * The process was found gone: `after-catalog`, when the data directory had been read after the
   * catalog (the driver asks nothing more); `world-after`, instead of a reply to the world query
   * after the catalog. `stderrTail`: its last 10 lines then.
   */
  | {
      readonly kind: "wire-exited";
      readonly part: Mode;
      readonly when: "after-catalog" | "world-after";
      readonly exit: Exit | null;
      readonly stderrTail: string;
    }
  /** The pipelined pass wanted the line-by-line pass, but the stage's time budget had ended. */
  | { readonly kind: "wire-budget-ended"; readonly part: Mode };

export type WireHistory = History<WireEvent>;

export const rawBytes = (data: Buffer): RawBytes => {
  const text = data.toString("utf8");
  return Buffer.from(text, "utf8").equals(data) ? { text } : { base64: data.toString("base64") };
};

export const bytesOf = (b: RawBytes): Buffer =>
  "text" in b ? Buffer.from(b.text, "utf8") : Buffer.from(b.base64, "base64");
