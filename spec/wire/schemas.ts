/**
 * Wire-protocol message schemas (JSON Lines between the conformance runner and an
 * implementation). Filled in by the wire-protocol work (spec/wire/PROTOCOL.md); every schema
 * listed in WIRE_SCHEMAS is exported as JSON Schema by spec/generate.ts.
 */
import type { z } from "zod";

export const WIRE_SCHEMAS: Readonly<Record<string, z.ZodType>> = {};
