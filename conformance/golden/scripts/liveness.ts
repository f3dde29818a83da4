/**
 * Golden session "session-liveness": pins review items G-53 (a dead worker's attempt can be
 * revoked, OP-6.12, D-046) and G-54 (the migration report's memory flag, OP-7.6, D-047).
 *
 * The story is the RIPA paper's fault case F (Section 6.4): worker A publishes attempt att-a and
 * is killed before replying; the export is refused while att-a is live; native recovery pauses the
 * task, revoking att-a; A's late reply is rejected; the agent is fenced and migrated; on the target
 * worker B uses a fresh nonce and completes. Lines that only set the scene carry no pin.
 */
import { genesisVersionOf, identityOf, type Command, type Digest } from "../../../spec/index.ts";
import type { ScriptedGoldenSpec } from "../types.ts";

const BASE: Digest = `sha256:${"ab".repeat(32)}`;
const ROOT = "root-liveness";
const A = identityOf(BASE, genesisVersionOf(BASE, ROOT));
const exec = (id: string) => ({ execution_id: id, reasoner: "r", harness: "h", host: "host" });

const task = (
  op: "ripa.request" | "ripa.reply" | "ripa.task_pause",
  tick: number,
  nonce: string,
  task_id = "task-1",
): Command => ({ op, tick, agent: A, task_id, attempt_nonce: nonce });
const fence = (tick: number, migration_id: string, token: string): Command => ({
  op: "ripa.migration_fence",
  tick,
  agent: A,
  migration_id,
  token,
});

export const LIVENESS_SESSION: ScriptedGoldenSpec = {
  name: "session-liveness",
  script: ({ send, view, query }) => {
    send({
      op: "advaita.mint",
      tick: 1,
      base_digest: BASE,
      root: ROOT,
      designation: "enoch",
      body_revision: "rev-1",
      custodians: ["custodian-1"],
      execution: exec("exec-source"),
      providers: [
        { provider_id: "prov-a", kind: "service", contract_version: "v1", capabilities: ["fare.search", "mail.send"] },
      ],
      required_capabilities: ["fare.search"],
      authority_token: "tok-1",
    });
    send({ op: "ripa.task_start", tick: 2, agent: A, task_id: "task-1" });
    // Worker A publishes its attempt and is killed (SIGKILL) before replying.
    send(task("ripa.request", 3, "att-a"));

    // G-53 (b): while the dead attempt is live the export is refused (OP-7.1, I4).
    send(fence(4, "m-1", "tok-fence-1"), "G-53");
    // Recovery checks in order: an unknown task (I2) before a nonce that is not the live attempt (I4).
    send(task("ripa.task_pause", 5, "att-a", "task-ghost"), "G-53");
    send(task("ripa.task_pause", 5, "att-never"), "G-53");
    // Native recovery pauses the task: att-a is revoked (task.paused).
    send(task("ripa.task_pause", 6, "att-a"), "G-53");
    // G-53 (a): A's late reply arrives after recovery and before the next attempt: stale (I4).
    send(task("ripa.reply", 7, "att-a"), "G-53");
    // The revoked nonce is never published again, and it is no longer live to pause (I4, I4).
    send(task("ripa.request", 7, "att-a"), "G-53");
    send(task("ripa.task_pause", 7, "att-a"), "G-53");
    // With nothing live the export is accepted: the agent is migratable again.
    send(fence(8, "m-1", "tok-fence-1"), "G-53");
    // Quiesced: a pause is not refused by quiescence but by its own check (nothing can be live).
    send(task("ripa.task_pause", 8, "att-a"), "G-53");

    send({ op: "ripa.migration_checkpoint", tick: 9, agent: A, migration_id: "m-1" });
    const bundle = view().agents[0]?.ripa.migration?.bundle_digest ?? BASE;
    send({
      op: "ripa.migration_validate",
      tick: 10,
      agent: A,
      migration_id: "m-1",
      bundle_digest: bundle,
      target: {
        execution: exec("exec-target"),
        providers: [
          {
            provider_id: "prov-muse",
            kind: "runtime",
            contract_version: "v2",
            capabilities: ["fare.search", "mail.send"],
          },
        ],
        body_revision: "rev-1",
      },
      gain_authorization: null,
    });
    send({
      op: "ripa.migration_bind",
      tick: 11,
      agent: A,
      migration_id: "m-1",
      surfaces: [{ surface_id: "chat", kind: "chat", account: "acct", session: "s-2" }],
      labels: { region: "eu" },
    });
    send({ op: "ripa.migration_rehydrate", tick: 12, agent: A, migration_id: "m-1" });
    // G-54: the report's memory flag is memory_ancestry_preserved (the migration appends no memory).
    send({ op: "ripa.migration_resume", tick: 13, agent: A, migration_id: "m-1", token: "tok-resume-1" }, "G-54");
    // D-051 (OP-7.6): the old source execution did not become a replica: enlisting it as one is
    // accepted (a source made a replica at resume would make this DUPLICATE_ID, OP-6.10). Before
    // G-54's query, so that each reading fails on its own line (the replicate reply shows no memory).
    send({ op: "ripa.replicate", tick: 13, agent: A, execution: exec("exec-source") }, "D-051");
    // … and the world shows the memory the bundle carried, nothing appended.
    query("G-54");

    // On the target, worker B continues the same task with a fresh nonce.
    send({ op: "ripa.task_resume", tick: 14, agent: A, task_id: "task-1" });
    send(task("ripa.request", 14, "att-b"));
    // A stale recovery that names the old attempt does not revoke B's live attempt (I4) …
    send(task("ripa.task_pause", 15, "att-a"), "G-53");
    // … A's nonce is still stale, and B's reply is accepted: exactly one completion.
    send(task("ripa.reply", 15, "att-a"), "G-53");
    send(task("ripa.reply", 16, "att-b"), "G-53");
    // Boundary: resume is not recovery. A resume leaves a live attempt live, and its reply is accepted.
    send(task("ripa.request", 17, "att-c"));
    send({ op: "ripa.task_resume", tick: 17, agent: A, task_id: "task-1" }, "G-53");
    send(task("ripa.reply", 18, "att-c"), "G-53");
    // Nothing is live after the reply: a second export is accepted at once.
    send(fence(19, "m-2", "tok-fence-2"), "G-53");
  },
};
