/**
 * Wire-protocol message schemas (JSON Lines between the conformance runner and an
 * implementation; spec/wire/PROTOCOL.md). Every schema listed in WIRE_SCHEMAS is exported as
 * JSON Schema by spec/generate.ts.
 */
import type { z } from "zod";
import {
  CapabilityProfile,
  CommandRequest,
  CrashAfterRequest,
  ErrorReply,
  HelloRequest,
  HelloResult,
  OkReply,
  QueryRequest,
  Reply,
  Request,
  RequestId,
  ResetRequest,
  ShutdownRequest,
  WireError,
} from "./messages.ts";
import {
  AuthorityResult,
  IdentityResult,
  InstanceStateResult,
  LineageResult,
  MigrationResult,
  Query,
} from "./queries.ts";

export const WIRE_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  RequestId,
  HelloRequest,
  CommandRequest,
  QueryRequest,
  ResetRequest,
  CrashAfterRequest,
  ShutdownRequest,
  Request,
  OkReply,
  ErrorReply,
  Reply,
  WireError,
  HelloResult,
  CapabilityProfile,
  Query,
  LineageResult,
  InstanceStateResult,
  IdentityResult,
  AuthorityResult,
  MigrationResult,
};
