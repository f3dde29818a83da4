/**
 * Stage 1, handshake and profile (W-5): on a fresh process, a request before `hello` is refused
 * with NOT_HANDSHAKEN; a `hello` offering no version the implementation speaks gets
 * UNSUPPORTED_VERSION and leaves it un-handshaken; a `hello` offering an unknown version first and
 * "1" second negotiates "1" with a valid HelloResult whose `protocol_versions` include it; a
 * second `hello` is refused (BAD_REQUEST). The profile itself was read by the runner's first
 * handshake; here it is checked for consistency.
 */
import { HelloResult, PROTOCOL_VERSION, type Reply } from "../../spec/wire/index.ts";
import { Session } from "../driver/target.ts";
import { exchangesOf, newHistory, type History, type SentRequest } from "../core/history.ts";
import { STAGE_CATALOG } from "../core/stage-catalog.ts";
import { ONE_UNIT, type StageDefinition } from "./definition.ts";
import { outcome, type Finding, type StageContext, type StageOutcome } from "./types.ts";

const code = (r: Reply): string => (r.ok ? "ok" : r.error.code);

/** The handshake's requests, in the order the driver sends them (the part `handshake` of its history). */
const REQUESTS = [
  { type: "query", id: "early", query: { name: "world" } },
  { type: "hello", id: "h-unknown", protocol_versions: ["0.unknown"], settings: {} },
  { type: "query", id: "still", query: { name: "world" } },
  { type: "hello", id: "h-ok", protocol_versions: ["0.unknown", PROTOCOL_VERSION], settings: { "srk.ignored": true } },
  { type: "hello", id: "h-again", protocol_versions: [PROTOCOL_VERSION], settings: {} },
] as const satisfies readonly SentRequest[];
const PART = "handshake";

/**
 * The handshake's driver: a fresh process, not handshaken, offered "0.unknown" by the runner's
 * client; each request of REQUESTS in turn (the first within the startup time), the last only when
 * the hello before it succeeded (what the driver needs to know to go on). Every exchange is
 * recorded; nothing is judged.
 */
export const driveHandshake = async (ctx: StageContext, history: History): Promise<void> => {
  const dir = ctx.target.freshDir();
  const client = ctx.target.spawnRaw(dir, ["0.unknown"]);
  const session = new Session(client, dir);
  try {
    for (const [step, request] of REQUESTS.entries()) {
      const reply = await session.reply(request, step === 0 ? ctx.settings.startupTimeoutMs : undefined);
      history.events.push({ kind: "exchange", part: PART, step, request, expected: null, reply });
      if (request.id === "h-ok" && !reply.ok) break;
    }
  } finally {
    await session.close();
  }
};

/** The handshake's checker: W-5's rules over the recorded replies, and the profile against the runner's first handshake's. */
export const checkHandshake = (
  history: History,
  first: StageContext["hello"],
): { readonly checks: number; readonly findings: Finding[] } => {
  const findings: Finding[] = [];
  let checks = 0;
  const expectThat = (ok: boolean, rule: string, summary: string): void => {
    checks++;
    if (!ok) findings.push({ invariant: null, stage: "handshake", check: `handshake/${rule}`, summary, trace: null });
  };
  const replies = new Map(exchangesOf(history, PART).map((e) => [e.request.id, e.reply]));
  const replyTo = (id: (typeof REQUESTS)[number]["id"]): Reply | undefined => replies.get(id);
  const early = replyTo("early");
  const unknown = replyTo("h-unknown");
  const still = replyTo("still");
  const hello = replyTo("h-ok");
  if (early === undefined || unknown === undefined || still === undefined || hello === undefined)
    throw new Error("runner bug: the handshake's history lacks a reply the driver always waits for");
  expectThat(
    code(early) === "NOT_HANDSHAKEN",
    "W-5.1",
    `a query before hello was answered ${code(early)}, expected NOT_HANDSHAKEN`,
  );
  expectThat(
    code(unknown) === "UNSUPPORTED_VERSION",
    "W-5.1",
    `hello offering only version "0.unknown" was answered ${code(unknown)}, expected UNSUPPORTED_VERSION`,
  );
  expectThat(
    code(still) === "NOT_HANDSHAKEN",
    "W-5.1",
    `after a refused hello a query was answered ${code(still)}, expected NOT_HANDSHAKEN (it must stay un-handshaken)`,
  );
  expectThat(
    hello.ok,
    "W-5.1",
    `hello offering ["0.unknown", "${PROTOCOL_VERSION}"] (with an unknown setting, W-2.5) was refused with ${code(hello)}`,
  );
  if (hello.ok) {
    const parsed = HelloResult.safeParse(hello.result);
    expectThat(
      parsed.success,
      "W-5.1",
      `the hello result is not a HelloResult: ${parsed.error?.issues[0]?.message ?? ""}`,
    );
    if (parsed.success) {
      const h = parsed.data;
      expectThat(
        h.protocol_version === PROTOCOL_VERSION,
        "W-5.1",
        `chose protocol version "${h.protocol_version}", expected "${PROTOCOL_VERSION}" (the first offered version it speaks)`,
      );
      expectThat(
        h.protocol_versions.includes(h.protocol_version),
        "W-5.1",
        `protocol_versions ${JSON.stringify(h.protocol_versions)} does not list the chosen "${h.protocol_version}"`,
      );
      expectThat(
        new Set(h.profile.families).size === h.profile.families.length,
        "W-5.2",
        `the profile lists a family twice: ${JSON.stringify(h.profile.families)}`,
      );
      expectThat(
        JSON.stringify(h.profile) === JSON.stringify(first.profile) &&
          h.implementation.name === first.implementation.name,
        "W-5.2",
        `two processes of the same implementation declared different profiles or names: ${JSON.stringify(h)} vs ${JSON.stringify(first)}`,
      );
    }
    const again = replyTo("h-again");
    if (again === undefined) throw new Error("runner bug: the handshake's history lacks the second hello");
    expectThat(
      code(again) === "BAD_REQUEST",
      "W-5.1",
      `a second hello was answered ${code(again)}, expected BAD_REQUEST (hello succeeds at most once per process)`,
    );
  }
  return { checks, findings };
};

export const handshakeStage = async (ctx: StageContext): Promise<StageOutcome> => {
  const history = newHistory(PART);
  await driveHandshake(ctx, history);
  const { checks, findings } = checkHandshake(history, ctx.hello);
  const profile = `${ctx.hello.implementation.name} ${ctx.hello.implementation.version}, families [${ctx.hello.profile.families.join(", ")}], crash hook ${ctx.hello.profile.crash_hook ? "yes" : "no"}`;
  if (findings.length > 0)
    return outcome("fail", `${findings.length} handshake rule(s) broken`, checks, findings, [profile]);
  return outcome("pass", "version negotiation and profile as W-5 requires", checks, [], [profile]);
};

/** The handshake stage: one unit, run by one shard. */
export const handshake: StageDefinition<"handshake"> = {
  ...STAGE_CATALOG.handshake,
  shard: ONE_UNIT,
  run: handshakeStage,
};
