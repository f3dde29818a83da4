/**
 * Every named wire object of the spec, by name. The JSON Schema export, the example tests and
 * the generated docs all iterate over this one registry. The `conformance` family is what the
 * conformance runner writes (`certificate.json` and its portable traces) and the wire log that
 * `srk record` writes and `srk check-log` reads (spec/LOG.md), not what an implementation speaks.
 */
import type { z } from "zod";
import { Authorization } from "./schemas/common.ts";
import {
  ConsentGrant,
  Disposition,
  ExcisionRecord,
  LineageReplayClaim,
  MergeBatch,
  SamskaraDistillate,
  SatisfactionSignal,
  StoreEntry,
  StoreState,
  StoreVersion,
} from "./schemas/samskara.ts";
import {
  BirthEnvironment,
  CustodyAck,
  CustodyOutcome,
  DistillationObligation,
  DistillationPolicy,
  InstanceState,
  JanmaManifest,
  ObligationKind,
  TerminationCondition,
  TerminationPredicate,
  ToolBinding,
  WithdrawalReason,
} from "./schemas/janma.ts";
import { Action, AdvaitaIdentity, Projection, SignedAction } from "./schemas/advaita.ts";
import {
  AuthorityEpoch,
  BodyState,
  BundleManifest,
  CapabilityDelta,
  ExecutionBinding,
  IdentityRecord,
  InteractionSurface,
  Labels,
  MemoryState,
  MigrationReport,
  PersistentSubstrate,
  ProviderGrant,
  SourceFence,
  TargetMarker,
} from "./schemas/ripa.ts";
import { Command } from "./schemas/commands.ts";
import { Event } from "./schemas/events.ts";
import { WorldView } from "./schemas/views.ts";
import { RejectionSchema } from "./errors.ts";
import {
  Certificate,
  CounterexampleRef,
  InvariantVerdict,
  PortableTrace,
  StageResult,
  TraceStep,
  Witnesses,
} from "./certificate.ts";
import { LogExit, LogHeader, LogLine } from "./log.ts";

export interface RegisteredSchema {
  readonly family: "common" | "janma" | "samskara" | "advaita" | "ripa" | "operations" | "conformance";
  readonly schema: z.ZodType;
}

const r = (family: RegisteredSchema["family"], schema: z.ZodType): RegisteredSchema => ({ family, schema });

export const SPEC_SCHEMAS: Readonly<Record<string, RegisteredSchema>> = {
  Authorization: r("common", Authorization),
  JanmaManifest: r("janma", JanmaManifest),
  ToolBinding: r("janma", ToolBinding),
  TerminationPredicate: r("janma", TerminationPredicate),
  TerminationCondition: r("janma", TerminationCondition),
  DistillationPolicy: r("janma", DistillationPolicy),
  InstanceState: r("janma", InstanceState),
  WithdrawalReason: r("janma", WithdrawalReason),
  BirthEnvironment: r("janma", BirthEnvironment),
  ObligationKind: r("janma", ObligationKind),
  CustodyOutcome: r("janma", CustodyOutcome),
  CustodyAck: r("janma", CustodyAck),
  DistillationObligation: r("janma", DistillationObligation),
  ConsentGrant: r("samskara", ConsentGrant),
  Disposition: r("samskara", Disposition),
  SatisfactionSignal: r("samskara", SatisfactionSignal),
  SamskaraDistillate: r("samskara", SamskaraDistillate),
  StoreEntry: r("samskara", StoreEntry),
  StoreState: r("samskara", StoreState),
  MergeBatch: r("samskara", MergeBatch),
  StoreVersion: r("samskara", StoreVersion),
  ExcisionRecord: r("samskara", ExcisionRecord),
  LineageReplayClaim: r("samskara", LineageReplayClaim),
  AdvaitaIdentity: r("advaita", AdvaitaIdentity),
  Projection: r("advaita", Projection),
  Action: r("advaita", Action),
  SignedAction: r("advaita", SignedAction),
  IdentityRecord: r("ripa", IdentityRecord),
  MemoryState: r("ripa", MemoryState),
  BodyState: r("ripa", BodyState),
  PersistentSubstrate: r("ripa", PersistentSubstrate),
  ExecutionBinding: r("ripa", ExecutionBinding),
  InteractionSurface: r("ripa", InteractionSurface),
  Labels: r("ripa", Labels),
  ProviderGrant: r("ripa", ProviderGrant),
  CapabilityDelta: r("ripa", CapabilityDelta),
  AuthorityEpoch: r("ripa", AuthorityEpoch),
  BundleManifest: r("ripa", BundleManifest),
  SourceFence: r("ripa", SourceFence),
  TargetMarker: r("ripa", TargetMarker),
  MigrationReport: r("ripa", MigrationReport),
  Command: r("operations", Command),
  Event: r("operations", Event),
  WorldView: r("operations", WorldView),
  Rejection: r("operations", RejectionSchema),
  Witnesses: r("conformance", Witnesses),
  TraceStep: r("conformance", TraceStep),
  PortableTrace: r("conformance", PortableTrace),
  CounterexampleRef: r("conformance", CounterexampleRef),
  InvariantVerdict: r("conformance", InvariantVerdict),
  StageResult: r("conformance", StageResult),
  Certificate: r("conformance", Certificate),
  LogHeader: r("conformance", LogHeader),
  LogLine: r("conformance", LogLine),
  LogExit: r("conformance", LogExit),
};
