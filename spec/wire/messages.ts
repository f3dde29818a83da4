/**
 * Wire messages (spec/wire/PROTOCOL.md is the normative prose).
 *
 * Runner -> implementation: one request per line, discriminated by `type`.
 * Implementation -> runner: one reply per request, `type: "reply"`, echoing the request id.
 */
import { z } from "zod";
import { INVARIANT_IDS } from "../catalog.ts";
import { ALL_ERROR_CODES } from "../errors.ts";
import { Command } from "../schemas/commands.ts";
import { Event } from "../schemas/events.ts";
import { WIRE_ERROR_CODE_LIST } from "./errors.ts";
import { PROFILE_FAMILIES } from "./limits.ts";
import { Query } from "./queries.ts";
import { Text } from "../schemas/common.ts";

/** A request id: a non-empty string of at most 128 code points (D-041), or a non-negative safe integer. */
export const RequestId = z
  .union([Text(128, 1), z.int().min(0).max(Number.MAX_SAFE_INTEGER)])
  .meta({ id: "RequestId", description: "Chosen by the runner; unique per connection; echoed in the reply." });
export type RequestId = z.infer<typeof RequestId>;

const ProtocolVersion = Text(32, 1);

// --- Requests --------------------------------------------------------------------------------

export const HelloRequest = z
  .strictObject({
    type: z.literal("hello"),
    id: RequestId,
    protocol_versions: z
      .array(ProtocolVersion)
      .min(1)
      .max(16)
      .describe("versions the runner speaks, most preferred first"),
    settings: z
      .record(Text(64), z.json())
      .describe("runner settings; keys an implementation does not know are ignored"),
  })
  .meta({ id: "HelloRequest", description: "First message of every connection: version negotiation." });
export type HelloRequest = z.infer<typeof HelloRequest>;

export const CommandRequest = z.strictObject({ type: z.literal("command"), id: RequestId, command: Command }).meta({
  id: "CommandRequest",
  description:
    "Apply one operation. A command failing the Command schema is the operation rejection MALFORMED, not a wire error.",
});
export type CommandRequest = z.infer<typeof CommandRequest>;

export const QueryRequest = z
  .strictObject({ type: z.literal("query"), id: RequestId, query: Query })
  .meta({ id: "QueryRequest", description: "A read-only query; never changes state." });
export type QueryRequest = z.infer<typeof QueryRequest>;

export const ResetRequest = z.strictObject({ type: z.literal("reset"), id: RequestId }).meta({
  id: "ResetRequest",
  description: "Replace the whole state by the empty world (tick 0), durably, on the same process.",
});
export type ResetRequest = z.infer<typeof ResetRequest>;

export const CrashAfterRequest = z
  .strictObject({
    type: z.literal("crash_after"),
    id: RequestId,
    writes: z.int().min(1).max(1_000_000).describe("the process dies at the writes-th durable write from now"),
    at: z
      .enum(["before_commit", "after_commit"])
      .describe(
        "before_commit: killed with the write prepared but not committed; after_commit: killed right after it is durable, before replying",
      ),
  })
  .meta({
    id: "CrashAfterRequest",
    description: "Optional crash-cut hook: arm an abrupt exit (SIGKILL) at a durable write.",
  });
export type CrashAfterRequest = z.infer<typeof CrashAfterRequest>;

export const ShutdownRequest = z
  .strictObject({ type: z.literal("shutdown"), id: RequestId })
  .meta({ id: "ShutdownRequest", description: "Reply, then exit with status 0." });
export type ShutdownRequest = z.infer<typeof ShutdownRequest>;

export const Request = z
  .discriminatedUnion("type", [
    HelloRequest,
    CommandRequest,
    QueryRequest,
    ResetRequest,
    CrashAfterRequest,
    ShutdownRequest,
  ])
  .meta({ id: "Request", description: "Any runner-to-implementation message." });
export type Request = z.infer<typeof Request>;
export type RequestType = Request["type"];
export const REQUEST_TYPES: readonly RequestType[] = Request.options.map((o) => o.shape.type.value);

// --- Replies ---------------------------------------------------------------------------------

export const WireError = z
  .strictObject({
    code: z.enum([...ALL_ERROR_CODES, ...WIRE_ERROR_CODE_LIST] as [string, ...string[]]),
    invariant: z.union([z.enum(INVARIANT_IDS), z.null()]),
    message: z.string(),
    path: z.array(z.union([z.string(), z.number()])).optional(),
    definite: z.boolean().describe("true: the request certainly had no effect; false: it may or may not have"),
  })
  .meta({ id: "WireError", description: "An operation rejection or a wire-level error." });
export type WireError = z.infer<typeof WireError>;

export const OkReply = z
  .strictObject({
    type: z.literal("reply"),
    id: RequestId,
    ok: z.literal(true),
    events: z.array(Event).describe("events of an accepted command, in order; [] for every other request"),
    result: z.json().optional().describe("hello: HelloResult; query: the query's result; absent otherwise"),
  })
  .meta({ id: "OkReply" });
export type OkReply = z.infer<typeof OkReply>;

export const ErrorReply = z
  .strictObject({
    type: z.literal("reply"),
    id: z.union([RequestId, z.null()]).describe("null when the request's id could not be read"),
    ok: z.literal(false),
    error: WireError,
  })
  .meta({ id: "ErrorReply" });
export type ErrorReply = z.infer<typeof ErrorReply>;

export const Reply = z
  .union([OkReply, ErrorReply])
  .meta({ id: "Reply", description: "Any implementation-to-runner message." });
export type Reply = z.infer<typeof Reply>;

export const CapabilityProfile = z
  .strictObject({
    families: z
      .array(z.enum(PROFILE_FAMILIES))
      .describe("protocol families implemented; invariants of other families are reported not-applicable"),
    crash_hook: z.boolean().describe("whether crash_after is supported"),
  })
  .meta({ id: "CapabilityProfile" });
export type CapabilityProfile = z.infer<typeof CapabilityProfile>;

export const HelloResult = z
  .strictObject({
    implementation: z.strictObject({ name: Text(128, 1), version: Text(64, 1) }),
    protocol_version: ProtocolVersion.describe("the version chosen for this connection"),
    protocol_versions: z.array(ProtocolVersion).min(1).describe("every version the implementation speaks"),
    profile: CapabilityProfile,
  })
  .meta({ id: "HelloResult", description: "The `result` of the reply to hello." });
export type HelloResult = z.infer<typeof HelloResult>;
