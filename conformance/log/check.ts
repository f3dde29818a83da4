/**
 * Checks a wire log against the reference model (spec/LOG.md L-2, D-050): every request the log
 * holds is applied to the model in the order the implementation received it (W-1.6), and every
 * reply the log holds is compared with what the model answers there, by the comparison and the
 * attribution a certification uses (W-9, D-032, D-035). A log is read once, front to back; the
 * checker keeps the model's world, the requests still waiting for their reply (replies come in
 * request order, W-1.6, so that queue stays short) and the counts, never the log itself.
 *
 * What the log does not hold is not invented (L-2.2): a request without its reply still changes the
 * model (the command was received; what it answered is unknown), a world query missing is simply
 * not compared, and an agent the log never mints is reported as a gap, its commands left
 * unchecked. After a violation the implementation's state and the model's have parted, so the
 * rest of that session (up to the next reset) is counted but not judged.
 *
 * With --unlogged k > 0 (L-2.4, D-066) a disagreement is first searched for an explanation by at
 * most k unlogged commands at a seq gap (search.ts); for that the checker also keeps the requests
 * it judged since the oldest gap still a candidate (at most SEARCH_WINDOW of them), never more.
 */
import type { InvariantId } from "../../spec/catalog.ts";
import { INVARIANT_IDS } from "../../spec/catalog.ts";
import type { Command, WorldView } from "../../spec/index.ts";
import type { LogEntry, LogHeader } from "../../spec/log.ts";
import { PROFILE_FAMILIES } from "../../spec/wire/limits.ts";
import { WIRE_ERROR_CODE_LIST } from "../../spec/wire/errors.ts";
import { initialWorld, view, type World } from "../../model/index.ts";
import { compareReply, compareWorld, type Mismatch } from "../oracle/compare.ts";
import { guardsOf, opAllowed, type Family } from "../oracle/families.ts";
import { expect1 } from "../oracle/model.ts";
import type { ExpectedReply } from "../core/reply.ts";
import { readFileSync } from "node:fs";
import { LogFileError, openLogBatches, type Numbered } from "./read.ts";
import {
  DEFAULT_SEARCH_BUDGET,
  SEARCH_WINDOW,
  applyItems,
  parseAlphabet,
  searchUnlogged,
  type Explanation,
  type InsertionPoint,
  type SearchOptions,
  type SearchStats,
  type SegmentItem,
} from "./search.ts";

export { DEFAULT_SEARCH_BUDGET, type Explanation, type SearchOptions, type SearchStats };

export interface LogViolation {
  /** The log line of the reply that no behaviour of the model explains. */
  readonly line: number;
  /** The log line of its request. */
  readonly request_line: number;
  readonly id: unknown;
  readonly op: string;
  readonly invariant: InvariantId;
  readonly summary: string;
  /** What the model answers there (a reply's normative part, or the world view). */
  readonly expected: unknown;
  /** The log lines of the session that leads to it: from its start (the log's start or the last reset) to the reply. */
  readonly context: { readonly from_line: number; readonly to_line: number; readonly requests: number };
  /**
   * With --unlogged (L-2.4): how the search for unlogged commands ended before this was reported:
   * "unexplained" (every sequence of at most k alphabet commands at every candidate gap was tried),
   * "gave-up" (the state budget ran out first), "no-gap" (no seq gap to insert at). Absent without the search.
   */
  readonly search?: "unexplained" | "gave-up" | "no-gap";
}

export interface InvariantTally {
  readonly invariant: InvariantId;
  readonly accepted: number;
  readonly rejected: number;
  readonly violations: number;
}

export interface LogCheck {
  readonly log_check_version: 1;
  readonly header: LogHeader;
  readonly entries: number;
  readonly requests: number;
  readonly replies: number;
  /** The declared families, from the hello reply; null when the log holds no successful hello. */
  readonly profile: readonly Family[] | null;
  /** Sessions of the model: the log's start, and each reset. */
  readonly sessions: number;
  /** Replies compared with the model: command replies and world views. */
  readonly checked: { readonly replies: number; readonly worlds: number };
  /** Requests the checker could not judge, by why (L-2.2). */
  readonly unchecked: {
    readonly no_reply: number;
    /** Wire-level requests and replies the model does not decide (hello, shutdown, wire errors, queries other than world, crash hooks). */
    readonly wire_level: number;
    /** Commands of an agent the log never mints. */
    readonly agent_not_in_log: number;
    /** Requests after a violation, before the next reset. */
    readonly after_violation: number;
  };
  /** Agents the log uses but never mints (the first line that names each). */
  readonly gaps: readonly { readonly agent: string; readonly line: number }[];
  /** Entries whose seq skips (entries left out of the log). */
  readonly seq_gaps: number;
  readonly invariants: readonly InvariantTally[];
  readonly violations: readonly LogViolation[];
  /**
   * The search for unlogged commands (L-2.4), present only when it was on (--unlogged > 0): an
   * additive member, so log_check_version stays 1 and a check without the search is unchanged.
   */
  readonly search?: SearchStats;
  /** consistent: every compared reply is the model's; violations: at least one is not; nothing-checked: no reply was compared. */
  readonly result: "consistent" | "violations" | "nothing-checked";
  readonly exit_code: 0 | 1 | 2;
}

interface Pending {
  readonly line: number;
  readonly msg: unknown;
  /** The request's id when it has a usable one (string or integer), else null. */
  readonly id: string | number | null;
  /** A seq gap precedes it since the previous logged request: unlogged commands may come before it (L-2.4). */
  readonly gapBefore: boolean;
}

/** A gap the search may insert at, with the requests judged from it on (kept only while the search is on). */
interface Point {
  readonly line: number;
  /** The model's world before that request (recomputed when an earlier gap's explanation changes the run). */
  world: World;
  /** Index in `segment` of the first request after the gap. */
  at: number;
}

const obj = (x: unknown): Record<string, unknown> | null =>
  typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : null;
const idOf = (msg: unknown): string | number | null => {
  const id = obj(msg)?.["id"];
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : null;
};
const WIRE_CODES: ReadonlySet<string> = new Set(WIRE_ERROR_CODE_LIST);

/** The invariants an op guards (static): computed once per op, not once per accepted command. */
const GUARDS = new Map<string, readonly InvariantId[]>();
const guardsOfOp = (op: string): readonly InvariantId[] => {
  let g = GUARDS.get(op);
  if (g === undefined) {
    g = guardsOf(op);
    GUARDS.set(op, g);
  }
  return g;
};

/** Unknown agents: the model rejects at the agent lookup (OP-0.2.c3). */
const AGENT_LOOKUP = "OP-0.2.c3";

export class LogChecker {
  private world: World = initialWorld();
  private readonly pending: Pending[] = [];
  private profile: Family[] | null = null;
  /** opAllowed(op, profile) by op, for the current profile (emptied when a hello sets another). */
  private readonly allowed = new Map<string, boolean>();
  private sessionStart = 1;
  private sessionRequests = 0;
  private violated = false;
  private crashed = false;
  private lastSeq = 0;
  /** A seq gap was seen since the last logged request. */
  private gapSeen = false;
  /** L-2.4: candidate gaps of this session, oldest first, and the requests judged since the oldest. */
  private points: Point[] = [];
  private segment: SegmentItem[] = [];
  private readonly explanations = new Map<number, Explanation>();
  private readonly stats = { searches: 0, states_visited: 0, explained: 0, unexplained: 0, gave_up: 0 };
  /** The op of the latest command: a world view that differs after it is attributed by it (D-035 rule 2). */
  private lastOp = "advaita.mint";
  private readonly unknownAgents = new Map<string, number>();
  private readonly tallies = new Map<InvariantId, { accepted: number; rejected: number; violations: number }>(
    INVARIANT_IDS.map((i) => [i, { accepted: 0, rejected: 0, violations: 0 }]),
  );
  private readonly out = {
    entries: 0,
    requests: 0,
    replies: 0,
    sessions: 1,
    seq_gaps: 0,
    checked: { replies: 0, worlds: 0 },
    unchecked: { no_reply: 0, wire_level: 0, agent_not_in_log: 0, after_violation: 0 },
    violations: [] as LogViolation[],
  };

  constructor(
    private readonly file: string,
    private readonly header: LogHeader,
    private readonly search: SearchOptions | null = null,
  ) {}

  /** Feeds one entry of the log, in file order. */
  feed({ line, entry }: Numbered<LogEntry>): void {
    this.out.entries++;
    if (entry.seq > this.lastSeq + 1) {
      this.out.seq_gaps++;
      this.gapSeen = true;
    }
    this.lastSeq = entry.seq;
    if ("exit" in entry) return;
    if (entry.dir === "request") {
      this.out.requests++;
      const msg = entry.msg ?? null;
      // The entries left out lie between the previous logged request and this one (each direction keeps its order, L-1.2).
      this.pending.push({ line, msg, id: entry.msg === undefined ? null : idOf(entry.msg), gapBefore: this.gapSeen });
      this.gapSeen = false;
      return;
    }
    this.out.replies++;
    const reply = entry.msg;
    const rid = reply === undefined ? null : idOf(reply);
    // W-1.6: replies answer requests in order; a reply whose id is null answers a line that had no usable id (a wire error).
    const k = this.pending.findIndex((p) => (rid === null ? p.id === null : p.id === rid));
    if (k === -1) {
      const shown = rid === null ? "no id" : `id ${JSON.stringify(rid)}`;
      throw new LogFileError(
        this.file,
        line,
        `a reply with ${shown} answers no request waiting for one (L-2.1): ${this.pending.length} request(s) waiting`,
      );
    }
    // Requests before it got no reply in the log (W-1.6 says they were answered first): judged without one.
    if (k > 0) for (const p of this.pending.splice(0, k)) this.judge(p, undefined, null);
    const p = this.pending.shift();
    if (p !== undefined) this.judge(p, reply ?? null, line);
  }

  /** Ends the log: the requests still waiting got no reply. */
  finish(): LogCheck {
    for (const p of this.pending.splice(0)) this.judge(p, undefined, null);
    const invariants = INVARIANT_IDS.map((invariant) => ({
      invariant,
      ...(this.tallies.get(invariant) ?? { accepted: 0, rejected: 0, violations: 0 }),
    }));
    const compared = this.out.checked.replies + this.out.checked.worlds;
    const result = this.out.violations.length > 0 ? "violations" : compared === 0 ? "nothing-checked" : "consistent";
    return {
      log_check_version: 1,
      header: this.header,
      entries: this.out.entries,
      requests: this.out.requests,
      replies: this.out.replies,
      profile: this.profile,
      sessions: this.out.sessions,
      checked: { ...this.out.checked },
      unchecked: { ...this.out.unchecked },
      gaps: [...this.unknownAgents].map(([agent, line]) => ({ agent, line })),
      seq_gaps: this.out.seq_gaps,
      invariants,
      violations: this.out.violations,
      ...(this.searching() ? { search: this.searchStats() } : {}),
      result,
      exit_code: result === "violations" ? 1 : result === "nothing-checked" ? 2 : 0,
    };
  }

  private judge(p: Pending, reply: unknown, replyLine: number | null): void {
    const req = obj(p.msg);
    const type = req?.["type"];
    if (this.crashed) {
      this.out.unchecked.wire_level++;
      return;
    }
    if (p.gapBefore) this.markGap(p.line);
    if (replyLine !== null && reply !== undefined && this.isWireError(reply)) {
      // A wire-level refusal: nothing was executed (W-4), so the model does not move.
      this.out.unchecked.wire_level++;
      return;
    }
    switch (type) {
      case "hello": {
        const families = obj(obj(obj(reply)?.["result"])?.["profile"])?.["families"];
        if (Array.isArray(families)) {
          this.profile = families.filter((f): f is Family =>
            (PROFILE_FAMILIES as readonly string[]).includes(String(f)),
          );
          this.allowed.clear();
        }
        this.out.unchecked.wire_level++;
        return;
      }
      case "reset":
        this.world = initialWorld();
        this.lastOp = "advaita.mint";
        this.violated = false;
        this.unknownAgents.clear();
        this.dropPoints();
        this.sessionStart = p.line;
        this.sessionRequests = 0;
        this.out.sessions++;
        this.out.unchecked.wire_level++;
        return;
      case "crash_after":
        // The process dies at a later write; which commands committed is for the crash stage, not a log.
        this.crashed = true;
        this.out.unchecked.wire_level++;
        return;
      case "command":
        this.sessionRequests++;
        this.command(p, req?.["command"] as Command, reply, replyLine);
        return;
      case "query":
        this.sessionRequests++;
        this.query(p, obj(req?.["query"]), reply, replyLine);
        return;
      default:
        this.out.unchecked.wire_level++;
    }
  }

  private isWireError(reply: unknown): boolean {
    const r = obj(reply);
    const code = obj(r?.["error"])?.["code"];
    return r?.["ok"] === false && typeof code === "string" && WIRE_CODES.has(code);
  }

  private command(p: Pending, command: Command, reply: unknown, replyLine: number | null): void {
    const op = String(obj(command)?.["op"] ?? "?");
    if (this.profile !== null && !this.opAllowed(op, this.profile)) {
      this.out.unchecked.wire_level++; // UNSUPPORTED by W-5.2: a wire-level answer
      return;
    }
    const agent = obj(command)?.["agent"];
    if (typeof agent === "string" && this.unknownAgents.has(agent)) {
      this.followTick(command, reply);
      this.out.unchecked.agent_not_in_log++;
      return;
    }
    let e = expect1(this.world, command);
    this.lastOp = op;
    const implCode = obj(obj(reply)?.["error"])?.["code"];
    const item: SegmentItem = {
      kind: "command",
      line: replyLine ?? p.line,
      op,
      command,
      reply: replyLine === null ? undefined : reply,
    };
    if (
      !e.reply.ok &&
      e.rejectedAt?.check === AGENT_LOOKUP &&
      typeof agent === "string" &&
      reply !== undefined &&
      implCode !== "NOT_FOUND"
    ) {
      // L-2.4: unlogged commands (a mint the log left out) may explain the agent; then it is compared as any other command.
      const explained = this.explain(item);
      if (explained !== null) e = expect1(explained, command);
    }
    if (
      !e.reply.ok &&
      e.rejectedAt?.check === AGENT_LOOKUP &&
      typeof agent === "string" &&
      reply !== undefined &&
      implCode !== "NOT_FOUND"
    ) {
      // The implementation knows an agent this log never mints (it did not answer NOT_FOUND): a gap, not a violation (L-2.2).
      this.lastSearchEnd = null;
      this.dropPoints(); // the search needs the model to hold every agent the implementation holds
      this.unknownAgents.set(agent, p.line);
      this.followTick(command, reply);
      this.out.unchecked.agent_not_in_log++;
      return;
    }
    if (this.violated) {
      this.world = e.world;
      this.out.unchecked.after_violation++;
      return;
    }
    this.keep(item);
    if (replyLine === null || reply === undefined) {
      this.world = e.world;
      this.out.unchecked.no_reply++;
      return;
    }
    this.out.checked.replies++;
    let m = compareReply(op, e.reply, reply as never, e.rejectedAt);
    if (m !== null) {
      const explained = this.explain(item);
      if (explained !== null) {
        e = expect1(explained, command);
        m = compareReply(op, e.reply, reply as never, e.rejectedAt);
      }
    }
    this.world = e.world;
    if (m !== null) {
      this.violation(p, replyLine, op, m, e.reply);
      return;
    }
    const t = (id: InvariantId) => this.tallies.get(id);
    if (e.reply.ok) for (const g of guardsOfOp(op)) (t(g) as { accepted: number }).accepted++;
    else if (e.reply.error.invariant !== null) {
      const x = t(e.reply.error.invariant as InvariantId);
      if (x !== undefined) x.rejected++;
    }
  }

  private opAllowed(op: string, profile: readonly Family[]): boolean {
    let a = this.allowed.get(op);
    if (a === undefined) {
      a = opAllowed(op, profile);
      this.allowed.set(op, a);
    }
    return a;
  }

  /**
   * A command of an agent the log never mints is not applied to the model, but when the
   * implementation accepted it its world tick became the command's (OP-0.2, OP-0.3): the model's
   * tick follows, so a later command at a tick below it is a regression in both (L-2.2). The tick
   * is read from the request and the acceptance from the reply; nothing else of the command is
   * taken.
   */
  private followTick(command: Command, reply: unknown): void {
    const tick = obj(command)?.["tick"];
    if (
      obj(reply)?.["ok"] !== true ||
      typeof tick !== "number" ||
      !Number.isSafeInteger(tick) ||
      tick <= this.world.tick
    )
      return;
    this.world = { ...this.world, tick };
  }

  private query(p: Pending, query: Record<string, unknown> | null, reply: unknown, replyLine: number | null): void {
    if (query?.["name"] !== "world") {
      this.out.unchecked.wire_level++; // L-2.3: only the world view is compared in version 1
      return;
    }
    if (this.violated) {
      this.out.unchecked.after_violation++;
      return;
    }
    if (this.unknownAgents.size > 0) {
      // The implementation's world holds an agent the model never saw: the views cannot agree (L-2.2).
      this.out.unchecked.agent_not_in_log++;
      return;
    }
    const item: SegmentItem = {
      kind: "world",
      line: replyLine ?? p.line,
      lastOp: this.lastOp,
      reply: replyLine === null ? undefined : reply,
    };
    this.keep(item);
    if (replyLine === null || reply === undefined) {
      this.out.unchecked.no_reply++;
      return;
    }
    this.out.checked.worlds++;
    const compare = (): { expected: WorldView; m: Mismatch | null } => {
      const expected: WorldView = view(this.world);
      const r = obj(reply);
      const m: Mismatch | null =
        r?.["ok"] === true
          ? compareWorld(this.lastOp, expected, r["result"])
          : compareReply(this.lastOp, { ok: true, events: [], result: expected } as ExpectedReply, reply as never);
      return { expected, m };
    };
    let c = compare();
    if (c.m !== null) {
      const explained = this.explain(item);
      if (explained !== null) {
        this.world = explained;
        c = compare();
      }
    }
    if (c.m !== null) this.violation(p, replyLine, "query world", c.m, c.expected);
  }

  /** The search is on, and this session can still be searched: no violation, crash or agent gap (L-2.4). */
  private searching(): boolean {
    return this.search !== null && this.search.unlogged > 0;
  }

  private searchable(): boolean {
    return this.searching() && !this.violated && !this.crashed && this.unknownAgents.size === 0;
  }

  /** A seq gap before the request at `line`: a candidate insertion point, with the model's world there. */
  private markGap(line: number): void {
    if (!this.searchable()) return;
    this.points.push({ line, world: this.world, at: this.segment.length });
  }

  /** Keeps a judged request for the search while some gap is a candidate, within SEARCH_WINDOW requests. */
  private keep(item: SegmentItem): void {
    if (this.points.length === 0 || this.segment.at(-1) === item) return;
    this.segment.push(item);
    let drop = 0;
    while (drop < this.points.length && this.segment.length - (this.points[drop] as Point).at > SEARCH_WINDOW) drop++;
    if (drop === 0) return;
    this.points = this.points.slice(drop);
    const first = this.points[0];
    if (first === undefined) {
      this.segment = [];
      return;
    }
    this.segment = this.segment.slice(first.at);
    for (const q of this.points) q.at -= first.at;
  }

  private dropPoints(): void {
    this.points = [];
    this.segment = [];
  }

  /**
   * L-2.4: searches for unlogged commands explaining `item` (kept last in the segment). On success
   * the explanation is recorded, gaps before its own are no longer candidates (an explanation fixes
   * the history up to its gap) and the model's world before `item` on the explanation's run is
   * returned; on failure the violation that follows says why the search did not explain it.
   */
  private explain(item: SegmentItem): World | null {
    this.lastSearchEnd = null;
    if (!this.searchable() || this.search === null) return null;
    if (this.points.length === 0) {
      this.lastSearchEnd = "no-gap";
      return null;
    }
    this.keep(item); // an agent-gap command is kept here, not before (idempotent)
    const points: InsertionPoint[] = this.points.map((q) => ({
      line: q.line,
      world: q.world,
      items: this.segment.slice(q.at),
    }));
    const r = searchUnlogged(points, this.search);
    this.stats.searches++;
    this.stats.states_visited += r.visited;
    if (r.explanation === null || r.worldBefore === null || r.worldAfterInsert === null) {
      if (r.gaveUp) this.stats.gave_up++;
      else this.stats.unexplained++;
      this.lastSearchEnd = r.gaveUp ? "gave-up" : "unexplained";
      return null;
    }
    this.stats.explained++;
    // A later search at the same gap replaces its explanation; explanations at earlier gaps stay part of the run.
    this.explanations.set(r.explanation.line, r.explanation);
    const at = this.points.findIndex((q) => q.line === r.explanation?.line);
    const kept = this.points.slice(at);
    const base = kept[0]?.at ?? 0;
    this.segment = this.segment.slice(base);
    for (const q of kept) q.at -= base;
    // The gaps after it now lie on the explanation's run: their worlds are that run's.
    let w = r.worldAfterInsert;
    let done = 0;
    for (const q of kept.slice(1)) {
      w = applyItems(w, this.segment.slice(done, q.at));
      done = q.at;
      q.world = w;
    }
    this.points = kept;
    return r.worldBefore;
  }

  private lastSearchEnd: "unexplained" | "gave-up" | "no-gap" | null = null;

  private searchStats(): SearchStats {
    const explanations = [...this.explanations.values()].sort((a, b) => a.line - b.line);
    return {
      unlogged: this.search?.unlogged ?? 0,
      alphabet: this.search?.alphabet.length ?? 0,
      budget: this.search?.budget ?? 0,
      ...this.stats,
      max_depth: explanations.reduce((d, x) => Math.max(d, x.inserted.length), 0),
      explanations,
    };
  }

  private violation(p: Pending, line: number, op: string, m: Mismatch, expected: unknown): void {
    this.violated = true;
    const search = this.lastSearchEnd;
    this.lastSearchEnd = null;
    this.dropPoints();
    const x = this.tallies.get(m.invariant);
    if (x !== undefined) x.violations++;
    this.out.violations.push({
      line,
      request_line: p.line,
      id: p.id,
      op,
      invariant: m.invariant,
      summary: m.summary,
      expected,
      context: { from_line: this.sessionStart, to_line: line, requests: this.sessionRequests },
      ...(search === null ? {} : { search }),
    });
  }
}

/** Reads an alphabet file (L-2.4): a JSON array of wire commands; a bad one is a LogFileError naming the file and its index. */
export const readAlphabet = (file: string): SearchOptions["alphabet"] => {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new LogFileError(
      file,
      null,
      code === "ENOENT" ? "no such file (the --alphabet file)" : `cannot be read: ${(e as Error).message}`,
    );
  }
  return parseAlphabet(file, text);
};

/** Checks the log at `file` (spec/LOG.md): reads it once, in bounded memory; `search` turns on L-2.4. */
export const checkLog = async (file: string, search: SearchOptions | null = null): Promise<LogCheck> => {
  const { header, batches, read } = await openLogBatches(file);
  const checker = new LogChecker(file, header, search);
  for await (const { first, lines } of batches)
    for (let i = 0; i < lines.length; i++) checker.feed(read(first + i, lines[i] as Buffer));
  return checker.finish();
};
