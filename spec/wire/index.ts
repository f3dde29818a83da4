/** The wire protocol: messages, queries, limits and wire error codes (spec/wire/PROTOCOL.md). */
export * from "./errors.ts";
export * from "./limits.ts";
export * from "./messages.ts";
export * from "./queries.ts";
export * from "./schemas.ts";
