/**
 * Every check clause of OPERATIONS.md as data, in document order: the table the model's
 * rejections name (`Rejection.check`), the property suite counts witnesses for, and the invariant
 * catalog derives its guarded operations from (G-3). `spec/CHECKS.md` and `spec/checks.json` are
 * rendered from it; `spec/checks.test.ts` parses OPERATIONS.md and fails when the prose and this
 * table disagree on the number of checks of a clause or on the code of any check.
 *
 * Ids: `OP-2.3.c5` is the 5th item of the "Checks:" list of clause OP-2.3 (1-based, items
 * separated by ";" in document order; an item with several outcomes is one check). The common
 * checks of OP-0.2 are `OP-0.2.c1` (schema), `.c2` (tick) and `.c3` (agent lookup, every
 * operation that names an agent); `OP-7.c1` is the migration lookup of the OP-7 preamble.
 */
import type { InvariantId } from "./invariant-ids.ts";
import type { CommandOp } from "./schemas/commands.ts";
import type { GenericErrorCode } from "./generic-errors.ts";

/** What a failing check rejects with: an invariant (its catalog code) or a generic code. */
export type CheckTarget = InvariantId | GenericErrorCode;

export interface CheckClause {
  /** `OP-2.3.c5`. */
  readonly id: string;
  /** The OPERATIONS.md clause the check belongs to: `OP-2.3`, `OP-0.2`, `OP-7`. */
  readonly clause: string;
  /** 1-based position in the clause's list. */
  readonly index: number;
  /** The operation whose list it is; null for the shared checks of OP-0.2 and OP-7. */
  readonly op: CommandOp | null;
  /** The operations the check applies to (one for an operation's own check). */
  readonly ops: readonly CommandOp[];
  /** The check's words, as OPERATIONS.md states them (the condition; the outcome is `targets`). */
  readonly text: string;
  /**
   * What a failure rejects with, one per outcome ("a tool acquisition → J-1, a capability
   * acquisition → J-2" has two). Empty for the one item that branches without rejecting
   * (OP-6.6: a repeated effect id is accepted as a no-op).
   */
  readonly targets: readonly CheckTarget[];
  /**
   * Set when no command can fail the check against a conforming system: the reason. Such a
   * check has no first-fail witness (the property suite requires one from every other check).
   */
  readonly unreachable?: string;
  /** Set on the checks that reject every command reaching them (nothing is acquired, D-017). */
  readonly alwaysRejects?: true;
  /**
   * Set on a check that rejects with a generic code (no invariant on the wire, D-032) whose subject
   * one invariant owns: the invariant a disagreement at this check is attributed to (D-035 rule 1),
   * and why. Generic checks whose subject no invariant owns (a lookup, the schema, the tick) have none.
   */
  readonly protects?: { readonly invariant: InvariantId; readonly why: string };
}

interface ItemOptions {
  readonly unreachable?: string;
  readonly alwaysRejects?: true;
}
type Item = readonly [text: string, target: CheckTarget | readonly CheckTarget[] | null, options?: ItemOptions];

const clause = (name: string, op: CommandOp, items: readonly Item[]): CheckClause[] =>
  items.map(([text, t, options], k) => ({
    id: `${name}.c${k + 1}`,
    clause: name,
    index: k + 1,
    op,
    ops: [op],
    text,
    targets: t === null ? [] : typeof t === "string" ? [t as CheckTarget] : [...(t as readonly CheckTarget[])],
    ...(options?.unreachable === undefined ? {} : { unreachable: options.unreachable }),
    ...(options?.alwaysRejects === true ? { alwaysRejects: true as const } : {}),
  }));

/**
 * OP-0.4: the operations a quiesced agent refuses with I4, right after the agent lookup. The
 * spec owns this list; the model and the catalog read it from here, and each of these
 * operations' "Checks:" lists starts with "quiescence".
 */
export const QUIESCED_OPS: readonly CommandOp[] = [
  "janma.conceive",
  "janma.birth",
  "janma.act",
  "samskara.merge",
  "samskara.excise",
  "ripa.task_start",
  "ripa.task_resume",
  "ripa.request",
  "ripa.evolve",
  "ripa.identity_update",
  "ripa.replicate",
  "ripa.descend",
  "ripa.restart",
];

/** The phase commands after the fence, which look their migration up first (OP-7 preamble). */
export const MIGRATION_PHASE_OPS: readonly CommandOp[] = [
  "ripa.migration_checkpoint",
  "ripa.migration_validate",
  "ripa.migration_bind",
  "ripa.migration_rehydrate",
  "ripa.migration_resume",
];

/** The operation clauses' own checks, in OPERATIONS.md order. */
const OPERATION_CHECKS: readonly CheckClause[] = [
  ...clause("OP-2.1", "janma.conceive", [
    ["quiescence (I4)", "I4"],
    ["`instance_id` unused in the agent", "DUPLICATE_ID"],
    ["`nonce` unused by any instance of the agent", "AD-2"],
    ["`manifest.substrate.base_digest` equals the agent's base digest", "J-1"],
    ["the pinned `store_version` is quarantined", "J-4"],
  ]),
  ...clause("OP-2.2", "janma.birth", [
    ["quiescence (I4)", "I4"],
    ["instance exists", "NOT_FOUND"],
    ["state is `conceived`", "J-1"],
    ["the pin is a version of the current chain", "J-1"],
    ["the pin is not quarantined", "J-1"],
    ["every manifest tool binding names an offered tool whose capabilities include all of the binding's", "J-1"],
    ["every manifest grant is grantable from `environment.grantable`", "J-1"],
  ]),
  ...clause("OP-2.3", "janma.act", [
    ["quiescence (I4)", "I4"],
    ["instance exists", "NOT_FOUND"],
    ["state `conceived`", "J-1"],
    ["state `withdrawn` or `dissolved`", "J-3"],
    [
      "the signature (D-021): `signed.identity` = agent identity, `signed.nonce` = instance nonce, `signed.manifest_digest` = instance manifest digest, `signed.action.tick` = `tick`, and `signed.signature = digestOf(action, { identity, nonce, manifest_digest, action })`",
      "AD-4",
    ],
    ["`tick ≥ born_tick + ttl_ticks`", "J-3"],
    ["the tool is bound, the capability is one of that binding's, and some held grant covers it", "J-2"],
  ]),
  ...clause("OP-2.4", "janma.acquire", [
    ["instance exists", "NOT_FOUND"],
    [
      "always rejected: a tool acquisition → J-1, a capability acquisition → J-2",
      ["J-1", "J-2"],
      { alwaysRejects: true },
    ],
  ]),
  ...clause("OP-2.5", "janma.expire", [["instance exists", "NOT_FOUND"]]),
  ...clause("OP-2.6", "janma.withdraw", [
    ["instance exists", "NOT_FOUND"],
    ["state `conceived`", "J-1"],
    ["state `withdrawn` or `dissolved`", "J-4"],
  ]),
  ...clause("OP-2.7", "janma.distil", [
    ["instance exists", "NOT_FOUND"],
    ["state is `withdrawn` with no obligation yet", "J-4"],
    ["`obligation_id` unused in the agent", "DUPLICATE_ID"],
    ["`distillate` parses with the strict `SamskaraDistillate` schema", "S-1"],
    ["`source.identity`, `source.nonce`, `source.instance_id` and `born_from` match the instance", "AD-4"],
    [
      "the signal is the principal's: its `model_version` is the manifest's `distillation_policy.satisfaction_model`, and a confidence of 0 comes only with valence 0 and no dispositions",
      "S-2",
    ],
    [
      "every disposition's weight has the sign of the valence — so a weight of 0 is accepted only when the valence is 0 — and `|weight| ≤ |valence|`",
      "S-2",
    ],
    ["every disposition's category is authorised by the manifest's consent grant for both storage and training", "S-1"],
    ["no disposition's guidance leaks 4 consecutive trace tokens", "S-1"],
    [
      "the `distillate_id` has never been used in the agent (pending or discharged obligations, retained or excised distillates)",
      "AD-3",
    ],
  ]),
  ...clause("OP-2.8", "janma.dissolve", [
    ["instance exists", "NOT_FOUND"],
    ["state is `withdrawn`", "J-4"],
    ["it has an obligation and that obligation is discharged", "J-4"],
  ]),
  ...clause("OP-3.1", "custody.attempt", [
    ["obligation exists", "NOT_FOUND"],
    ["status `pending`", "J-4"],
    ["`tick < deadline_tick`", "J-4"],
    [
      "`attempts < max_retries + 1`",
      "J-4",
      {
        unreachable:
          "the attempt that reaches max_retries + 1 discharges the obligation (a reinforcing one at its first attempt, a corrective one at attempts = max_retries + 1), so a pending obligation always has an attempt left and the status check OP-3.1.c2 fails first; the check states the bound, it never decides",
      },
    ],
  ]),
  ...clause("OP-3.2", "custody.expire", [
    ["obligation exists", "NOT_FOUND"],
    ["status `pending`", "J-4"],
    ["`tick ≥ deadline_tick`", "J-4"],
  ]),
  ...clause("OP-4.1", "samskara.merge", [
    ["quiescence (I4)", "I4"],
    ["every listed obligation exists", "NOT_FOUND"],
    ["for every obligation: discharged with outcome other than `applied`", "J-4"],
    ["pending with `tick ≥ deadline_tick`", "J-4"],
  ]),
  ...clause("OP-4.2", "samskara.excise", [
    ["quiescence (I4)", "I4"],
    ["`excision_id` unused", "DUPLICATE_ID"],
    ["authorisation valid", "I2"],
    ["every listed distillate (de-duplicated) is retained by the store", "NOT_FOUND"],
  ]),
  ...clause("OP-4.3", "samskara.replay", [
    [
      "replay (OP-1.7) reproduces the chain",
      "S-4",
      {
        unreachable:
          "merge and excision build the chain by OP-1.6 and OP-1.8, the same steps replay repeats, so a conforming store always reproduces it (S-4 holds by construction); only a faulty implementation fails this check",
      },
    ],
  ]),
  ...clause("OP-4.4", "advaita.project_write", [
    ["instance exists", "NOT_FOUND"],
    ["always rejected with AD-2", "AD-2", { alwaysRejects: true }],
  ]),
  ...clause("OP-5.1", "advaita.mint", [
    ["`root` never used", "AD-1"],
    ["provider ids unique", "DUPLICATE_ID"],
  ]),
  ...clause("OP-6.1", "ripa.restart", [
    ["quiescence (I4, a fenced source cannot start)", "I4"],
    ["`execution_id` is the bound execution", "I4"],
    ["token fresh", "I4"],
  ]),
  ...clause("OP-6.2", "ripa.task_start", [
    ["quiescence", "I4"],
    ["task id unused", "DUPLICATE_ID"],
  ]),
  ...clause("OP-6.3", "ripa.task_resume", [
    ["quiescence", "I4"],
    ["task recorded", "I2"],
  ]),
  ...clause("OP-6.4", "ripa.request", [
    ["quiescence", "I4"],
    ["task recorded", "I2"],
    ["attempt nonce never used by this agent", "I4"],
  ]),
  ...clause("OP-6.5", "ripa.reply", [
    ["task recorded", "I2"],
    ["the nonce is the task's live attempt", "I4"],
  ]),
  ...clause("OP-6.6", "ripa.effect", [
    ["`token` is the current token and `execution_id` its holder", "I4"],
    ["the provider is bound", "I5"],
    ["it grants the capability", "I5"],
    ["then, if `effect_id` was performed before, accepted as a no-op with `effect.duplicate`", null],
  ]),
  ...clause("OP-6.7", "ripa.evolve", [
    ["quiescence", "I4"],
    ["authorisation", "I3"],
    ["revision not already in the body lineage", "I3"],
  ]),
  ...clause("OP-6.8", "ripa.identity_update", [
    ["quiescence", "I4"],
    ["authorisation", "I1"],
  ]),
  ...clause("OP-6.9", "ripa.bind_surface", [["no label key is reserved (TAB-2)", "I6"]]),
  ...clause("OP-6.10", "ripa.replicate", [
    ["quiescence", "I4"],
    ["execution id differs from the bound execution and every replica", "DUPLICATE_ID"],
  ]),
  ...clause("OP-6.11", "ripa.descend", [
    ["quiescence", "I4"],
    ["the store head is quarantined", "J-4"],
    ["`root` never used", "AD-1"],
  ]),
  ...clause("OP-6.12", "ripa.task_pause", [
    ["task recorded", "I2"],
    ["`attempt_nonce` is the task's live attempt (a stale recovery must not revoke a newer attempt)", "I4"],
  ]),
  ...clause("OP-7.1", "ripa.migration_fence", [
    ["no migration in progress", "I4"],
    ["migration id unused", "DUPLICATE_ID"],
    ["no live request attempt (export refuses while a task is running)", "I4"],
    ["token fresh", "I4"],
  ]),
  ...clause("OP-7.2", "ripa.migration_checkpoint", [["phase `fenced`", "I4"]]),
  ...clause("OP-7.3", "ripa.migration_validate", [
    ["phase `checkpointed`", "I4"],
    ["`bundle_digest` equals the recorded one", "I2"],
    [
      "bundle identity and identity version equal the installed ones",
      "I1",
      {
        unreachable:
          "the state it compares is changed only by operations that quiescence refuses while a migration is in progress (OP-0.4): the identity never changes and its version only by `ripa.identity_update`, and the bundle is taken after the fence; so no command sequence can fail it, and it guards a corrupted or tampered state",
      },
    ],
    ["`target.body_revision` equals the bundle's", "I3"],
    ["target execution id differs from the source's", "DUPLICATE_ID"],
    ["target provider ids unique", "DUPLICATE_ID"],
    ["every required capability of the bundle is granted by some target provider", "I5"],
    ["if the delta gains capabilities, `gain_authorization` is present and valid", "I5"],
  ]),
  ...clause("OP-7.4", "ripa.migration_bind", [
    ["phase `validated`", "I4"],
    ["no label key reserved", "I6"],
    ["surface ids unique", "DUPLICATE_ID"],
  ]),
  ...clause("OP-7.5", "ripa.migration_rehydrate", [["phase `bound`", "I4"]]),
  ...clause("OP-7.6", "ripa.migration_resume", [
    ["phase `rehydrated`", "I4"],
    ["token fresh", "I4"],
    [
      "installed identity record digest equals the bundle's",
      "I1",
      {
        unreachable:
          "the state it compares is changed only by operations that quiescence refuses while a migration is in progress (OP-0.4): the identity record changes only by `ripa.identity_update`; so no command sequence can fail it, and it guards a corrupted or tampered state",
      },
    ],
    [
      "memory head and store head equal the bundle's",
      "I2",
      {
        unreachable:
          "the state it compares is changed only by operations that quiescence refuses while a migration is in progress (OP-0.4): memory extends only by install, merge, excision and task start, and the store head moves only by merge and excision; so no command sequence can fail it, and it guards a corrupted or tampered state",
      },
    ],
    [
      "body revision equals the bundle's",
      "I3",
      {
        unreachable:
          "the state it compares is changed only by operations that quiescence refuses while a migration is in progress (OP-0.4): the body revision changes only by `ripa.evolve`; so no command sequence can fail it, and it guards a corrupted or tampered state",
      },
    ],
  ]),
  ...clause("OP-7.7", "ripa.migration_cancel", [
    ["the named migration is in progress", "NOT_FOUND"],
    ["`no_target_active` is true", "I4"],
    ["authorisation valid", "I4"],
  ]),
];

/** The shared checks; `ops` is filled in by `withOps` once the operation list is known. */
const shared = (
  name: string,
  index: number,
  text: string,
  target: CheckTarget,
  ops: readonly CommandOp[],
): CheckClause => ({
  id: `${name}.c${index}`,
  clause: name,
  index,
  op: null,
  ops,
  text,
  targets: [target],
});

const OPS_IN_ORDER: readonly CommandOp[] = [
  "advaita.mint",
  ...new Set(OPERATION_CHECKS.map((c) => c.op as CommandOp).filter((op) => op !== "advaita.mint")),
];
const AGENT_OPS = OPS_IN_ORDER.filter((op) => op !== "advaita.mint");

/**
 * D-035 rule 1: the invariant each generic-code check protects, where one invariant owns what the
 * check looks at. A lookup of an instance, an agent or a migration (every RIPA invariant concerns a
 * migration), the schema (whose uniqueness rules carry
 * their own, spec/rules.ts) and the tick protect none: a disagreement there is attributed by rule 3.
 */
export const GENERIC_PROTECTS: Readonly<Record<string, { readonly invariant: InvariantId; readonly why: string }>> = {
  "OP-2.7.c3": {
    invariant: "J-4",
    why: "the obligation id names the one distillation obligation of a life, which J-4 counts and carries under custody",
  },
  "OP-3.1.c1": { invariant: "J-4", why: "a custody attempt is made on an obligation, whose custody J-4 states" },
  "OP-3.2.c1": { invariant: "J-4", why: "a custody expiry ends an obligation's custody, which J-4 bounds" },
  "OP-4.2.c2": {
    invariant: "S-5",
    why: "an excision id names one excision, S-5's operation (unlearning by replay without the excised lives)",
  },
  "OP-4.2.c4": { invariant: "S-5", why: "the excision's targets are the distillates S-5 re-derives the chain without" },
  "OP-5.1.c2": {
    invariant: "I5",
    why: "the provider grants are the capabilities I5 keeps from changing provider silently (D-025)",
  },
  "OP-6.2.c2": { invariant: "I2", why: "task ids are continuity-relevant workflow state, which I2 names" },
  "OP-6.10.c2": {
    invariant: "I4",
    why: "a replica's execution id must differ from the one holding continuation authority, I4's subject",
  },
  "OP-7.3.c5": {
    invariant: "I4",
    why: "the target execution is the one that takes continuation authority at resume (I4)",
  },
  "OP-7.3.c6": {
    invariant: "I5",
    why: "the target's provider grants are the capabilities I5 compares with the source's",
  },
  "OP-7.4.c3": { invariant: "I6", why: "surfaces are interaction-surface labels, I6's subject" },
};

const withProtects = (c: CheckClause): CheckClause => {
  const p = GENERIC_PROTECTS[c.id];
  return p === undefined ? c : { ...c, protects: p };
};

/** Every check clause: OP-0.2's common checks, the OP-7 migration lookup, then each operation's. */
export const CHECKS: readonly CheckClause[] = [
  shared("OP-0.2", 1, "the command parses with its schema", "MALFORMED", OPS_IN_ORDER),
  shared("OP-0.2", 2, "`tick` is not below the world tick", "TICK_REGRESSED", OPS_IN_ORDER),
  shared("OP-0.2", 3, "the named `agent` exists", "NOT_FOUND", AGENT_OPS),
  shared("OP-7", 1, "the named migration is the one in progress", "NOT_FOUND", MIGRATION_PHASE_OPS),
  ...OPERATION_CHECKS,
].map(withProtects);

const byId: ReadonlyMap<string, CheckClause> = new Map(CHECKS.map((c) => [c.id, c]));

/** Look a check up by id; throws on an unknown id (a typo in a rejection site is a bug). */
export const check = (id: string): CheckClause => {
  const c = byId.get(id);
  if (c === undefined) throw new Error(`no check clause ${id} in spec/checks.ts`);
  return c;
};

/**
 * The checks a command of `op` passes through, in the order they apply (OP-0.2): schema, tick,
 * agent lookup, the migration lookup for phase commands, then the operation's own list.
 */
export const checksOf = (op: CommandOp): readonly CheckClause[] => CHECKS.filter((c) => c.ops.includes(op));

/** The quiescence check of a quiesced operation (the first item of its own list). */
export const quiescenceCheckOf = (op: CommandOp): CheckClause => {
  const c = CHECKS.find((x) => x.op === op && x.index === 1 && x.text.startsWith("quiescence"));
  if (c === undefined) throw new Error(`${op} has no quiescence check`);
  return c;
};

/** The operations with a check that rejects with `target`, in OPERATIONS.md order. */
export const opsRejectingWith = (target: CheckTarget): CommandOp[] => [
  ...new Set(CHECKS.filter((c) => c.op !== null && c.targets.includes(target)).map((c) => c.op as CommandOp)),
];
