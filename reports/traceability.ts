/**
 * Gathers the traceability maps the other layers export, for the generated reports.
 * Each layer adds its map here as it lands (model guards, implementation checks, properties, mutants).
 */
import type { Traceability } from "./render.ts";

export const currentTraceability = (): Traceability => ({});
