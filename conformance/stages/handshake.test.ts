/**
 * The handshake stage as a driver and a checker (issue 22): the driver records its five exchanges
 * with the kit's implementation; the checker holds W-5's rules over a history alone, each rule
 * broken by a doctored reply in turn.
 */
import { describe, expect, it } from "vitest";
import type { Reply } from "../../spec/wire/index.ts";
import { newHistory, type History, type HistoryEvent } from "../core/history.ts";
import { disposedAfterAll, KIT_COMMAND_LINE, stageContext } from "../test/stage-context.ts";
import { checkHandshake, driveHandshake } from "./handshake.ts";

const target = disposedAfterAll();
type Exchange = Extract<HistoryEvent, { kind: "exchange" }>;

let driven: Promise<{ history: History; hello: ReturnType<typeof stageContext>["hello"] }> | undefined;
const drive = () => {
  driven ??= (async () => {
    const t = target(KIT_COMMAND_LINE);
    const first = await t.openFirst();
    const hello = first.client.hello;
    await first.close();
    const history = newHistory("handshake");
    await driveHandshake(stageContext(t, { hello }), history);
    return { history, hello };
  })();
  return driven;
};
const copy = (h: History): History => JSON.parse(JSON.stringify(h)) as History;
const withReply = (h: History, id: string, reply: Reply): History => ({
  unit: h.unit,
  events: h.events.map((e) => (e.kind === "exchange" && e.request.id === id ? { ...e, reply } : e)),
});
const refused = (code: string, id: string): Reply =>
  ({
    type: "reply",
    id,
    ok: false,
    error: { code, invariant: null, definite: true, message: "m" },
  }) as unknown as Reply;

describe("the handshake's driver and checker", () => {
  it("records the five exchanges with the kit's implementation, which the checker passes: ten checks", {
    timeout: 60_000,
  }, async () => {
    const { history, hello } = await drive();
    const ids = history.events.filter((e): e is Exchange => e.kind === "exchange").map((e) => e.request.id);
    expect(ids).toEqual(["early", "h-unknown", "still", "h-ok", "h-again"]);
    expect(checkHandshake(copy(history), hello)).toEqual({ checks: 10, findings: [] });
  });

  it("each rule of W-5 fails on a history whose reply breaks it, and only there", { timeout: 60_000 }, async () => {
    const { history, hello } = await drive();
    const ok = history.events.find((e): e is Exchange => e.kind === "exchange" && e.request.id === "h-ok");
    if (ok === undefined || !ok.reply.ok) throw new Error("the kit's implementation refused the hello");
    const okReply = ok.reply as unknown as { ok: true; result: Record<string, unknown> };
    const cases: readonly [string, History, string][] = [
      [
        "early",
        withReply(history, "early", { ...okReply, id: "early" } as Reply),
        "a query before hello was answered ok",
      ],
      [
        "h-unknown",
        withReply(history, "h-unknown", { ...okReply, id: "h-unknown" } as Reply),
        'offering only version "0.unknown" was answered ok',
      ],
      [
        "still",
        withReply(history, "still", { ...okReply, id: "still" } as Reply),
        "after a refused hello a query was answered ok",
      ],
      [
        "h-again",
        withReply(history, "h-again", { ...okReply, id: "h-again" } as Reply),
        "a second hello was answered ok",
      ],
      [
        "profile",
        withReply(history, "h-ok", {
          ...okReply,
          result: { ...okReply.result, profile: { families: ["janma"], crash_hook: false } },
        } as unknown as Reply),
        "declared different profiles",
      ],
    ];
    for (const [what, h, says] of cases) {
      const r = checkHandshake(h, hello);
      expect(r.findings, what).toHaveLength(1);
      expect(r.findings[0]?.summary, what).toContain(says);
    }
    // A refused hello: the second hello was never sent (the driver stopped), and the checker asks for none.
    const stopped: History = {
      unit: "handshake",
      events: withReply(history, "h-ok", refused("BAD_REQUEST", "h-ok")).events.filter(
        (e) => !(e.kind === "exchange" && e.request.id === "h-again"),
      ),
    };
    const r = checkHandshake(stopped, hello);
    expect(r.checks).toBe(4);
    expect(r.findings.map((f) => f.summary)).toEqual([
      'hello offering ["0.unknown", "1"] (with an unknown setting, W-2.5) was refused with BAD_REQUEST',
    ]);
  });
});
