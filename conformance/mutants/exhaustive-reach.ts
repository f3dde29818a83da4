/**
 * Which catalog mutants a scope reaches (issue 27 item 2): a mutant is reached when driving the
 * scope's edge cover (conformance/explore/edge-cover.ts) through the mutant in process — its API,
 * no wire, no process, no refinement — gives a reply or a world view other than the model's. The
 * exhaustive stage drives the same sessions over the wire; exhaustive-reach.test.ts holds that it
 * kills exactly the mutants reached, so the wire loses nothing the sessions can show and reports
 * nothing they cannot.
 */
import { isDeepStrictEqual } from "node:util";
import type { Implementation, OpenOptions } from "../../impl/api.ts";
import { normativePart } from "../core/reply.ts";
import type { CoverSession } from "../explore/edge-cover.ts";
import { planSession } from "../stages/exhaustive.ts";

type Opener = (opts?: OpenOptions) => Implementation;

/** The implementation's normative reply to one planned request, in process. */
const replyOf = (impl: Implementation, request: { readonly type: string; readonly [k: string]: unknown }): unknown => {
  if (request.type === "command") {
    const o = impl.apply(request["command"]);
    return normativePart(o.ok ? { ok: true, events: o.events } : { ok: false, error: { ...o.error, definite: true } });
  }
  return normativePart({ ok: true, events: [], result: impl.world() });
};

/**
 * The first difference from the model when the sessions are driven in process, as
 * "session K step I: …"; null when every reply and world view is the model's.
 */
export const firstDifferenceInProcess = (openImpl: Opener, sessions: readonly CoverSession[]): string | null => {
  const impl = openImpl({});
  try {
    for (const [k, s] of sessions.entries()) {
      impl.reset();
      for (const [i, step] of planSession(s).entries()) {
        let actual: unknown;
        try {
          actual = replyOf(impl, step.request);
        } catch (e) {
          return `session ${k + 1} step ${i + 1}: threw ${String(e).slice(0, 200)}`;
        }
        if (!isDeepStrictEqual(actual, step.expected)) {
          return `session ${k + 1} step ${i + 1} (${step.request.type}): expected ${JSON.stringify(step.expected).slice(0, 200)}, got ${JSON.stringify(actual).slice(0, 200)}`;
        }
      }
    }
    return null;
  } finally {
    impl.close();
  }
};
