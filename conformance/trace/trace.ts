/**
 * Portable traces (spec/certificate.ts `PortableTrace`): a counterexample as the requests sent,
 * the model's expected normative replies and the implementation's actual ones. Written next to
 * the certificate, re-run on any implementation by `srk replay`.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { PortableTrace, type TraceStep } from "../../spec/certificate.ts";
import type { ExpectedReply } from "../golden/session.ts";

export class TraceFileError extends Error {
  override readonly name = "TraceFileError";
}

/** A trace step for a request, its expected reply and the actual normative part (null if none came). */
export const traceStep = (request: Record<string, unknown>, expected: ExpectedReply | unknown, actual: unknown): TraceStep =>
  ({ request, expected, actual: actual === undefined ? null : actual }) as TraceStep;

/** Writes JSON atomically: a temporary file renamed over the target, so a reader never sees half a file. */
export const writeJsonAtomic = (path: string, value: unknown): void => {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, path);
};

export const readTrace = (path: string): PortableTrace => {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new TraceFileError(`${path}: not a readable JSON file (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = PortableTrace.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new TraceFileError(`${path}: not a portable trace: ${i?.message ?? "invalid"} at ${i?.path.join(".") ?? "?"}`);
  }
  return parsed.data;
};
