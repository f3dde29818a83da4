/**
 * The normative, machine-readable spec: catalog, encoding, wire objects, commands, views, errors,
 * and the conformance certificate. The wire protocol's messages are in `spec/wire/index.ts`.
 */
export * from "./catalog.ts";
export * from "./certificate.ts";
export * from "./digest.ts";
export * from "./errors.ts";
export * from "./schemas/common.ts";
export * from "./schemas/samskara.ts";
export * from "./schemas/janma.ts";
export * from "./schemas/advaita.ts";
export * from "./schemas/ripa.ts";
export * from "./schemas/commands.ts";
export * from "./schemas/events.ts";
export * from "./schemas/views.ts";
