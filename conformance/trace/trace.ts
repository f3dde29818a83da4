/**
 * Portable traces (spec/certificate.ts `PortableTrace`): a counterexample as the requests sent,
 * the model's expected normative replies and the implementation's actual ones. Written next to
 * the certificate, re-run on any implementation by `srk replay`.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { z } from "zod";
import { PortableTrace, type TraceStep } from "../../spec/certificate.ts";
import type { ExpectedReply } from "../core/reply.ts";

export class TraceFileError extends Error {
  override readonly name = "TraceFileError";
}

/** A trace step for a request, its expected reply and the actual normative part (null if none came). */
export const traceStep = (
  request: Record<string, unknown>,
  expected: ExpectedReply | unknown,
  actual: unknown,
): TraceStep => ({ request, expected, actual: actual === undefined ? null : actual }) as TraceStep;

/** Writes JSON atomically: a temporary file renamed over the target, so a reader never sees half a file. */
export const writeJsonAtomic = (path: string, value: unknown): void => {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, path);
};

/**
 * Reads a JSON file and checks it against `schema`; any failure is an error (made by `fail`)
 * that names the file and, for a schema mismatch, the first issue and where it is.
 */
export const readJsonFile = <T>(
  path: string,
  schema: z.ZodType<T>,
  what: string,
  fail: (message: string) => Error,
): T => {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw fail(`${path}: not a readable JSON file (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw fail(`${path}: not ${what}: ${i?.message ?? "invalid"} at ${i?.path.join(".") ?? "?"}`);
  }
  return parsed.data;
};

export const readTrace = (path: string): PortableTrace =>
  readJsonFile(path, PortableTrace, "a portable trace", (m) => new TraceFileError(m));
