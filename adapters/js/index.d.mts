/**
 * Types of the adapter's public API (index.mjs), for implementers who write TypeScript or want
 * their editor to check calls. The adapter itself is plain JavaScript and needs none of this.
 */

export type Family = "janma" | "samskara" | "advaita" | "ripa";
export type RequestId = string | number;
export type Path = (string | number)[];

export interface Implementation {
  /** 1 to 128 characters */
  name: string;
  /** 1 to 64 characters */
  version: string;
}

export interface Profile {
  families: Family[];
  crash_hook: boolean;
}

export interface HandlerContext {
  /** The request's id, as read (W-2.1). */
  id: RequestId;
}

/** A validated command (Command schema) in; its events out, `[]` when it has none (W-3.1). Throw a Refusal to reject it. */
export type CommandHandler = (
  // biome-ignore lint/suspicious/noExplicitAny: a handler reads the validated command's members without casts (the schema checked them)
  command: { op: string; tick: number; [member: string]: any },
  ctx: HandlerContext,
) => unknown[] | Promise<unknown[]>;
/** A validated query (Query schema) in; its result out (W-6). Throw `new Refusal("NOT_FOUND")` for an unknown agent. */
export type QueryHandler = (
  // biome-ignore lint/suspicious/noExplicitAny: a handler reads the validated query's members without casts (the schema checked them)
  query: { name: string; [member: string]: any },
  ctx: HandlerContext,
) => unknown;

export interface Handlers {
  /** By op, e.g. "advaita.mint". */
  command?: Record<string, CommandHandler>;
  /** By query name, e.g. "world". */
  query?: Record<string, QueryHandler>;
  /** W-2.4: replace the state by the empty world, in one durable write. */
  reset?: (arg: undefined, ctx: HandlerContext) => void | Promise<void>;
  /** W-7.3: arm the crash hook (only with `crash_hook: true`). */
  crash_after?: (
    arm: { writes: number; at: "before_commit" | "after_commit" },
    ctx: HandlerContext,
  ) => void | Promise<void>;
}

export interface WireOptions {
  implementation: Implementation;
  profile: Profile;
  handlers?: Handlers;
  /** Validate events and query results against their schemas and report failures on stderr (default true). */
  checkReplies?: boolean;
  /** Where diagnostics go (default: stderr). */
  log?: (line: string) => void;
}

export interface ServeOptions extends WireOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** process.exit(0) when serving ends (default: true when `input` is stdin). */
  exit?: boolean;
}

export interface WireError {
  code: string;
  invariant: string | null;
  message: string;
  path?: Path;
  definite: boolean;
}

export type Reply =
  | { type: "reply"; id: RequestId; ok: true; events: unknown[]; result?: unknown }
  | { type: "reply"; id: RequestId | null; ok: false; error: WireError };

export type Frame = { kind: "line"; bytes: Buffer } | { kind: "too_long"; length: number };

export interface Wire {
  handle(frame: Frame): Promise<Reply | null>;
  readonly stopped: boolean;
}

export function serve(options: ServeOptions): Promise<"shutdown" | "end">;
export function createWire(options: WireOptions): Wire;
export const SPOKEN_VERSIONS: readonly string[];

export class Refusal extends Error {
  constructor(code: string, invariant?: string | null, message?: string, path?: Path);
  readonly code: string;
  readonly invariant: string | null | undefined;
  readonly path: Path | undefined;
}

export function dataDir(argv?: string[], env?: Record<string, string | undefined>): string;

export interface SchemaFailure {
  path: Path;
  message: string;
  /** The keyword that failed, or the id of the rules.json rule. */
  keyword: string;
}

export function validate(name: string, value: unknown): SchemaFailure | null;
export function createValidator(data: { schemas: Record<string, object>; rules: { rules: object[] } }): {
  validate(name: string, value: unknown): SchemaFailure | null;
};

export const ERROR_CODES: ReadonlyMap<
  string,
  { kind: "operation" | "wire"; invariant: string | null; definite: boolean }
>;
export const OPERATION_FAMILY: ReadonlyMap<string, Family>;
export const QUERY_NAMES: readonly string[];
export const FAMILIES: readonly Family[];

export type Decoded =
  | { kind: "empty" }
  | { kind: "error"; code: "BAD_ENCODING" | "NESTING_TOO_DEEP" | "BAD_JSON"; message: string }
  | { kind: "value"; value: unknown };

export function decodeLine(bytes: Uint8Array): Decoded;
export function parseStrict(text: string): unknown;
export function nestsDeeperThan(text: string, max: number): boolean;
export class StrictJsonError extends Error {
  constructor(message: string, column: number);
  readonly column: number;
}
export const MAX_NESTING_DEPTH: 64;
export const MAX_LINE_BYTES: 1048576;

export class LineFramer {
  constructor(maxLineBytes?: number);
  push(chunk: Uint8Array): Frame[];
  readonly pending: number;
}
