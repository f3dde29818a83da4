/**
 * The search for unlogged commands (spec/LOG.md L-2.4, D-066). A log that leaves entries out (a
 * seq gap, L-1.2) may have left out commands that moved the implementation: a reply that then
 * disagrees with the model may be explained by a few commands the log does not hold. Given the
 * model's world just before each gap, the logged requests from there up to the disagreeing one and
 * an alphabet of candidate commands, the search looks breadth-first for the shortest sequence of
 * at most `unlogged` alphabet commands which, inserted at one gap, makes the model answer every
 * logged reply from that gap up to and including the disagreeing one exactly as the normal
 * comparison demands (compareReply, compareWorld: W-9, D-032). It never weakens the comparison:
 * an explanation is a model run in which every compared reply agrees, so a real disagreement
 * (a mutant's reply no model state reached by the alphabet gives) stays a violation.
 *
 * Pure: worlds, commands and logged replies in, an explanation and statistics out; no I/O.
 */
import { createHash } from "node:crypto";
import { Command as CommandSchema, type Command } from "../../spec/index.ts";
import { encodeWorld, view, type World } from "../../model/index.ts";
import { compareReply, compareWorld } from "../oracle/compare.ts";
import { expect1 } from "../oracle/model.ts";
import type { ExpectedReply } from "../core/reply.ts";
import { LogFileError } from "./lines.ts";

/** D-066: the state budget of one search when --search-budget is not given. */
export const DEFAULT_SEARCH_BUDGET = 100_000;

/**
 * D-066: how many logged requests back a gap stays a candidate insertion point. It bounds the
 * checker's memory (it keeps the requests since the oldest candidate gap) and the cost of
 * verifying one candidate state (a replay of those requests).
 */
export const SEARCH_WINDOW = 1_000;

/** A command of the alphabet: a wire command, whose tick may be left for the search to choose. */
export type AlphabetCommand = Readonly<Record<string, unknown>> & { readonly op: string; readonly tick?: number };

/** The search's options (srk check-log --unlogged, --alphabet, --search-budget). */
export interface SearchOptions {
  /** At most this many unlogged commands at one gap; 0 turns the search off. */
  readonly unlogged: number;
  readonly alphabet: readonly AlphabetCommand[];
  /** States one search may visit before it gives up. */
  readonly budget: number;
}

/**
 * A logged request the checker judged, as the search replays it: a command (with its logged
 * reply, when the log holds one) or a world query (compared after `lastOp`, D-035 rule 2).
 */
export type SegmentItem =
  | {
      readonly kind: "command";
      readonly line: number;
      readonly op: string;
      readonly command: Command;
      readonly reply: unknown;
    }
  | { readonly kind: "world"; readonly line: number; readonly lastOp: string; readonly reply: unknown };

/** A place where the log shows entries were left out: before the logged request at `line`. */
export interface InsertionPoint {
  /** The log line of the first logged request after the seq gap. */
  readonly line: number;
  /** The model's world before that request (without any unlogged command). */
  readonly world: World;
  /** The items from that request on, the disagreeing one last. */
  readonly items: readonly SegmentItem[];
}

export interface Explanation {
  /** The log line of the first logged request after the gap: the unlogged commands come just before it. */
  readonly line: number;
  /** The log line of the reply (or request, when it has none) that disagreed and is now explained. */
  readonly explains_line: number;
  /** The inserted commands, in order, each with the tick the search chose. */
  readonly inserted: readonly Command[];
}

export interface SearchOutcome {
  /** Null when no sequence of at most `unlogged` commands explains the disagreement (or the budget ran out). */
  readonly explanation: Explanation | null;
  /** The model's world just before the disagreeing item, on the explanation's run. */
  readonly worldBefore: World | null;
  /** The model's world just after the inserted commands, before the gap's first logged request. */
  readonly worldAfterInsert: World | null;
  readonly visited: number;
  readonly gaveUp: boolean;
}

/** The statistics the check reports (LogCheck.search). */
export interface SearchStats {
  readonly unlogged: number;
  readonly alphabet: number;
  readonly budget: number;
  /** Disagreements searched for an explanation. */
  readonly searches: number;
  /** Distinct model states reached by inserting alphabet commands, over every search. */
  readonly states_visited: number;
  readonly explained: number;
  /** Searches that visited every state up to `unlogged` commands and found no explanation. */
  readonly unexplained: number;
  /** Searches that stopped at the budget: the disagreement stays a violation, undecided. */
  readonly gave_up: number;
  /** The longest explanation kept (0 when none). */
  readonly max_depth: number;
  /** The explanations kept, by gap; a later search at the same gap replaces its explanation. */
  readonly explanations: readonly Explanation[];
}

const obj = (x: unknown): Record<string, unknown> | null =>
  typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : null;

/**
 * A structural key of the whole world: its canonical encoding (model/state-schema.ts, equal worlds
 * encode to identical JSON), hashed to keep the seen-set small. Deduplicating on the full state,
 * not the view, never merges two states the model could tell apart later.
 */
export const fingerprint = (world: World): string =>
  createHash("sha256")
    .update(JSON.stringify(encodeWorld(world)))
    .digest("base64");

/**
 * Replays `items` from `world` as the checker compares them (L-2.2): every command is applied, and
 * every logged command reply and world view must be the model's. The world before the last item
 * when all agree, else null.
 */
export const replayAgrees = (world: World, items: readonly SegmentItem[]): World | null => {
  let w = world;
  let before = w;
  for (const item of items) {
    before = w;
    if (item.kind === "command") {
      const e = expect1(w, item.command);
      if (item.reply !== undefined && compareReply(item.op, e.reply, item.reply as never, e.rejectedAt) !== null)
        return null;
      w = e.world;
    } else if (item.reply !== undefined) {
      const expected = view(w);
      const r = obj(item.reply);
      const m =
        r?.["ok"] === true
          ? compareWorld(item.lastOp, expected, r["result"])
          : compareReply(item.lastOp, { ok: true, events: [], result: expected } as ExpectedReply, item.reply as never);
      if (m !== null) return null;
    }
  }
  return before;
};

/** Applies the logged commands of `items` to `world`, comparing nothing (the run of an explanation, already verified). */
export const applyItems = (world: World, items: readonly SegmentItem[]): World =>
  items.reduce((w, item) => (item.kind === "command" ? expect1(w, item.command).world : w), world);

/**
 * D-066: the ticks an alphabet command is tried at. A command with a tick keeps it; one without is
 * tried at the world's current tick (the earliest tick the model accepts, OP-0.3) and at the tick
 * of the first logged command after the gap (the latest an unlogged command before it could carry
 * without making that command a regression), in that order, once each.
 */
export const ticksFor = (c: AlphabetCommand, world: World, nextLoggedTick: number | null): number[] => {
  if (typeof c.tick === "number") return [c.tick];
  const ticks = [world.tick];
  if (nextLoggedTick !== null && nextLoggedTick !== world.tick) ticks.push(nextLoggedTick);
  return ticks;
};

interface Node {
  readonly world: World;
  readonly inserted: readonly Command[];
}

interface Frontier {
  readonly point: InsertionPoint;
  readonly seen: Set<string>;
  nodes: Node[];
  readonly nextTick: number | null;
}

/**
 * Breadth-first over the depth (the number of inserted commands), then over the points from the
 * latest gap back: the first explanation found is a shortest one, and among the shortest the one
 * nearest the disagreement. Each new state (an alphabet command the model accepted, leading to a
 * world not seen at that point before) counts against the budget and is verified by replaying the
 * logged requests from the gap; a rejected command leaves the world as it was (OP-0.3) and is not
 * a new state.
 */
export const searchUnlogged = (points: readonly InsertionPoint[], options: SearchOptions): SearchOutcome => {
  const frontiers: Frontier[] = [...points].reverse().map((point) => {
    const first = point.items.find((i) => i.kind === "command");
    const tick = first?.kind === "command" ? obj(first.command)?.["tick"] : undefined;
    return {
      point,
      seen: new Set([fingerprint(point.world)]),
      nodes: [{ world: point.world, inserted: [] }],
      nextTick: typeof tick === "number" ? tick : null,
    };
  });
  let visited = 0;
  for (let depth = 1; depth <= options.unlogged; depth++) {
    for (const f of frontiers) {
      const next: Node[] = [];
      for (const node of f.nodes) {
        for (const a of options.alphabet) {
          for (const tick of ticksFor(a, node.world, f.nextTick)) {
            const command = { ...a, tick } as unknown as Command;
            const e = expect1(node.world, command);
            if (!e.reply.ok) continue;
            const key = fingerprint(e.world);
            if (f.seen.has(key)) continue;
            if (visited >= options.budget)
              return { explanation: null, worldBefore: null, worldAfterInsert: null, visited, gaveUp: true };
            f.seen.add(key);
            visited++;
            const inserted = [...node.inserted, command];
            const before = replayAgrees(e.world, f.point.items);
            const last = f.point.items.at(-1);
            if (before !== null && last !== undefined) {
              return {
                explanation: { line: f.point.line, explains_line: last.line, inserted },
                worldBefore: before,
                worldAfterInsert: e.world,
                visited,
                gaveUp: false,
              };
            }
            next.push({ world: e.world, inserted });
          }
        }
      }
      f.nodes = next;
    }
  }
  return { explanation: null, worldBefore: null, worldAfterInsert: null, visited, gaveUp: false };
};

/**
 * Parses an alphabet file's text (D-066): a JSON array of wire commands (spec/wire), each of which
 * may omit `tick`. A bad one is an input error naming the file and the command's index (0-based),
 * so the user can find it, exit 64 like a broken log.
 */
export const parseAlphabet = (file: string, text: string): AlphabetCommand[] => {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    throw new LogFileError(file, null, `the alphabet is not JSON (${(e as Error).message}) (L-2.4)`);
  }
  if (!Array.isArray(value))
    throw new LogFileError(file, null, "the alphabet must be a JSON array of commands (L-2.4)");
  return value.map((c, i) => {
    const o = obj(c);
    if (o === null) throw new LogFileError(file, null, `alphabet command ${i}: not a JSON object (L-2.4)`);
    if ("tick" in o && (typeof o["tick"] !== "number" || !Number.isSafeInteger(o["tick"]) || o["tick"] < 0)) {
      throw new LogFileError(
        file,
        null,
        `alphabet command ${i}: tick must be a non-negative integer or absent (L-2.4)`,
      );
    }
    // A command without its tick is checked with a placeholder tick: every other member must be the wire's.
    const parsed = CommandSchema.safeParse({ tick: 0, ...o });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue === undefined || issue.path.length === 0 ? "" : `${issue.path.map(String).join(".")}: `;
      throw new LogFileError(
        file,
        null,
        `alphabet command ${i} (op ${JSON.stringify(o["op"] ?? null)}): not a wire command: ${where}${issue?.message ?? "invalid"} (L-2.4)`,
      );
    }
    return o as AlphabetCommand;
  });
};
