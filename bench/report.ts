/**
 * The shape of reports/bench.json: what was measured, on what machine, and the goals.
 */
import type { DigestResult } from "./digest.ts";
import type { DurableResult } from "./durable.ts";
import type { Goal } from "./goals.ts";
import type { GrowthResult } from "./growth.ts";
import type { LogResult } from "./log.ts";
import type { ExploreBenchResult } from "./explore.ts";
import type { Inputs } from "../conformance/evidence/inputs.ts";
import type { ModelResult } from "./model.ts";
import type { RunnerResult } from "./runner.ts";
import type { ShardingResult } from "./sharding.ts";
import type { StartupResult } from "./startup.ts";
import type { SuiteResult } from "./suite.ts";

/** A section that could not be measured, and why (the rest of the report is still written). */
export interface SectionError {
  readonly error: string;
}

export type Section<T> = T | SectionError;

export const isError = <T>(s: Section<T> | undefined): s is SectionError =>
  s !== undefined &&
  typeof s === "object" &&
  s !== null &&
  "error" in s &&
  typeof (s as SectionError).error === "string";

export interface Machine {
  readonly cpus: number;
  readonly cpu_model: string;
  readonly total_memory_bytes: number;
  readonly node: string;
  readonly platform: string;
  /** 1, 5 and 15-minute load averages when the run started and ended (other processes' load). */
  readonly load_start: readonly number[];
  readonly load_end: readonly number[];
}

export interface BenchReport {
  readonly bench_version: 1;
  readonly generated_at: string;
  readonly quick: boolean;
  readonly duration_s: number;
  readonly machine: Machine;
  readonly kit: { readonly name: string; readonly version: string; readonly commit: string | null };
  /**
   * What was measured (conformance/evidence/inputs.ts `inputsOf("bench")`, taken when the run started): the
   * commit, the digest of every input and the inputs not as committed. Absent from reports made
   * before it was recorded.
   */
  readonly inputs?: Inputs;
  readonly sections: {
    readonly durable: Section<DurableResult>;
    readonly growth: Section<GrowthResult>;
    readonly runner: Section<RunnerResult>;
    readonly model: Section<ModelResult>;
    readonly digest: Section<DigestResult>;
    readonly suite: Section<SuiteResult>;
    readonly sharding: Section<ShardingResult>;
    /** Absent from reports made before the section existed. */
    readonly startup?: Section<StartupResult>;
    /** Wire logs: check-log's rate and record's round trip. Absent from reports made before the section existed. */
    readonly log?: Section<LogResult>;
    /** Exhaustive exploration of the default scope. Absent from reports made before the section existed. */
    readonly explore?: Section<ExploreBenchResult>;
  };
  readonly goals: readonly Goal[];
  /** Peak RSS of the benchmark's own process (the in-process sections), bytes. */
  readonly bench_peak_rss_bytes: number;
}
