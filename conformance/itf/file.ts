/**
 * Trace files for `srk replay` and `srk itf`: a portable trace is read from either of its two
 * forms, the kit's JSON (spec/certificate.ts) or ITF (trace.ts), told apart by content — an ITF
 * trace has top-level `vars` and `states` — or, when the content is not even an object, by the
 * `.itf.json` extension ADR-015 recommends, so the error speaks of the format the user meant.
 */
import { readFileSync } from "node:fs";
import type { PortableTrace } from "../../spec/certificate.ts";
import { readTrace, TraceFileError, writeJsonAtomic } from "../trace/trace.ts";
import { looksLikeItf } from "./document.ts";
import { itfOfPortableTrace, portableTraceOfItf } from "./trace.ts";

export const isItfPath = (path: string): boolean => path.endsWith(".itf.json");

/** The portable trace in `path`, written as the kit's JSON or as ITF; TraceFileError otherwise. */
export const readAnyTrace = (path: string): PortableTrace => {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new TraceFileError(`${path}: not a readable JSON file (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!looksLikeItf(json) && !isItfPath(path)) return readTrace(path);
  try {
    return portableTraceOfItf(json);
  } catch (e) {
    throw new TraceFileError(`${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
};

/** Writes `trace` as ITF to `path` (atomically, as every trace file). */
export const writeItfTrace = (path: string, trace: PortableTrace): void =>
  writeJsonAtomic(path, itfOfPortableTrace(trace));
