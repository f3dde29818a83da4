/**
 * Real wire transcripts for the generated docs: for each invariant, an accepted and a rejected
 * example taken from the golden sessions (conformance/golden/session-*.jsonl, spec/wire/PROTOCOL.md
 * W-9). Each golden line is a request and the normative part of the reply the reference model gives;
 * the golden tests check that the kit's implementation answers every line exactly so, in process
 * and over the wire, and reports/examples.test.ts replays each chosen example's session up to it.
 *
 * The choice is mechanical: the accepted example is the first accepted command, over the sessions in
 * order, whose operation the invariant guards; the rejected example is the first command rejected
 * under the invariant. S-3, S-4 and S-5 have no rejected example: no well-formed command is refused
 * for them (NO_REJECTION says what witnesses them instead).
 */
import { join } from "node:path";
import { INVARIANTS, type InvariantId } from "../spec/catalog.ts";
import { readGolden } from "../conformance/golden/replay.ts";
import { GOLDEN_SESSIONS, goldenPath } from "../conformance/golden/session.ts";
import type { GoldenLine } from "../conformance/golden/types.ts";
import { REPO_ROOT } from "./paths.ts";

export interface GoldenExample {
  /** The golden file, relative to the repository root. */
  readonly file: string;
  /** 1-based line number in the file. */
  readonly line: number;
  readonly golden: GoldenLine;
}

export interface InvariantExamples {
  readonly accepted: GoldenExample | null;
  readonly rejected: GoldenExample | null;
}

const goldenFiles = (): { file: string; lines: GoldenLine[] }[] =>
  GOLDEN_SESSIONS.map((g) => ({ file: goldenPath(g), lines: readGolden(join(REPO_ROOT, goldenPath(g))) }));

const first = (
  files: readonly { file: string; lines: readonly GoldenLine[] }[],
  pick: (l: GoldenLine) => boolean,
): GoldenExample | null => {
  for (const { file, lines } of files) {
    const i = lines.findIndex(pick);
    const golden = lines[i];
    if (golden !== undefined) return { file, line: i + 1, golden };
  }
  return null;
};

export const goldenExamples = (): Readonly<Record<InvariantId, InvariantExamples>> => {
  const files = goldenFiles();
  return Object.fromEntries(
    INVARIANTS.map((inv) => [
      inv.id,
      {
        accepted: first(
          files,
          (l) => l.request.type === "command" && l.reply.ok && inv.guards.includes(l.request.command.op),
        ),
        rejected: first(
          files,
          (l) => l.request.type === "command" && !l.reply.ok && l.reply.error.invariant === inv.id,
        ),
      },
    ]),
  ) as Record<InvariantId, InvariantExamples>;
};

/**
 * The invariants no well-formed command is rejected under, and what checks them instead. The
 * reference model never refuses a command for them: they constrain what accepted merges,
 * excisions and replays produce, which the runner compares with the model.
 */
export const NO_REJECTION: Readonly<Partial<Record<InvariantId, string>>> = {
  "S-3":
    "No command is refused for S-3: it constrains what an accepted merge or excision appends. The runner checks it by comparing every accepted merge's and excision's reply (the new version id digests its parent link) and the chain in the world view with the reference model (golden, exhaustive and differential stages, and the world after each crash cut); a wrong parent link is attributed to S-3 (D-035). The killed mutant below is such a counterexample.",
  "S-4":
    "No well-formed command is refused for S-4: `samskara.replay` on a correct store always reproduces its chain, so its rejection (`SAMSKARA_REPLAY_DIVERGED`, OP-4.3) only reports a corrupted store. The algebra stage checks it: every one of its runs ends with `samskara.replay`, whose `lineage.replayed` claim (versions, batch digests, head state digest) must equal the model's, and the golden, exhaustive and differential stages compare every replay and the momentum series.",
  "S-5":
    "No command is refused for S-5: it constrains what an accepted excision leaves. The algebra stage checks it by excising distillates (one case empties a whole batch, D-009) and comparing the result with a run that distilled the same lives but never merged the excised ones, on every field the model shows to be equal; the forgetting stage then scans every byte of the data directory for the excised content (W-7.2).",
};
