/**
 * The adapter's wire face (wire.mjs), in process: the W-4 checks in their order (each row against
 * the next one it could be confused with), request ids (W-2.1), the handshake and profile (W-5),
 * the envelope and query checks of W-4.1, command validation (W-2.3), dispatch to the handler table
 * with refusals checked against TAB-3, definite and indefinite INTERNAL (W-3.4), the crash hook and
 * reset envelopes, shutdown (W-2.2), and the start-up checks of the configuration.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createWire,
  LineFramer,
  MAX_LINE_BYTES,
  QUERY_NAMES,
  Refusal,
  type Handlers,
  type Profile,
  type Reply,
  type Wire,
} from "./index.mjs";

const j = (v: unknown): string => JSON.stringify(v);
const DIGEST = `sha256:${"0".repeat(64)}`;
const HELLO = { type: "hello", id: "h", protocol_versions: ["1"], settings: {} };
const MINT = {
  op: "advaita.mint",
  tick: 1,
  base_digest: `sha256:${"a".repeat(64)}`,
  root: "root-1",
  designation: "travel agent",
  body_revision: "body-1",
  custodians: ["alice"],
  execution: { execution_id: "exec-1", reasoner: "r", harness: "h", host: "host-1" },
  providers: [],
  required_capabilities: [],
  authority_token: "tok-1",
};
/** The events of W-8's first mint. */
const MINT_EVENTS = [
  { type: "agent.minted", identity: `sha256:${"1".repeat(64)}`, genesis: `sha256:${"2".repeat(64)}` },
  { type: "epoch.advanced", generation: 1, holder: "exec-1" },
];

const make = (profile: Profile = { families: [], crash_hook: false }, handlers: Handlers = {}, checkReplies = true) => {
  const logs: string[] = [];
  const wire = createWire({
    implementation: { name: "adapter-test", version: "1.0.0" },
    profile,
    handlers,
    checkReplies,
    log: (s) => logs.push(s),
  });
  return { wire, logs };
};
const send = (w: Wire, line: string | Buffer): Promise<Reply | null> =>
  w.handle({ kind: "line", bytes: Buffer.isBuffer(line) ? line : Buffer.from(line, "utf8") });
const code = (r: Reply | null): string => (r === null ? "no reply" : r.ok ? "ok" : r.error.code);
const shaken = async (profile?: Profile, handlers?: Handlers, checkReplies?: boolean) => {
  const m = make(profile, handlers, checkReplies);
  expect(code(await send(m.wire, j(HELLO)))).toBe("ok");
  return m;
};
const err = (r: Reply | null) => {
  if (r === null || r.ok) throw new Error(`expected an error reply, got ${j(r)}`);
  return { id: r.id, ...r.error };
};

describe("W-4: the checks in their order, each row before the next", () => {
  it("row 1 before row 2: an over-long line is LINE_TOO_LONG with id null, whatever its bytes", async () => {
    const { wire } = make();
    expect(err(await wire.handle({ kind: "too_long", length: MAX_LINE_BYTES + 1 }))).toMatchObject({
      id: null,
      code: "LINE_TOO_LONG",
      definite: true,
      invariant: null,
    });
  });
  it("rows 2, 3, 4 with id null: BAD_ENCODING, NESTING_TOO_DEEP, BAD_JSON", async () => {
    const { wire } = make();
    expect(err(await send(wire, Buffer.from([0x7b, 0xff, 0x7d])))).toMatchObject({ id: null, code: "BAD_ENCODING" });
    expect(err(await send(wire, `{"id":"x","d":${"[".repeat(64)}`))).toMatchObject({
      id: null,
      code: "NESTING_TOO_DEEP",
    });
    expect(err(await send(wire, '{"type":"hello","id":"x","id":"y"}'))).toMatchObject({ id: null, code: "BAD_JSON" });
  });
  it("row 4 before row 5: a lone surrogate in a line that is also no object is BAD_JSON", async () => {
    const { wire } = make();
    expect(code(await send(wire, '["\\ud800"]'))).toBe("BAD_JSON");
    expect(code(await send(wire, '["\\ud83d\\ude80"]'))).toBe("BAD_REQUEST");
  });
  it("row 5, id null: not an object; no id; an id that is no RequestId (empty, 129 characters, -1, 1.5, 2^53, 1e400, true, null, {})", async () => {
    const { wire } = make();
    for (const line of ["42", '"hello"', "null", "[]", j({ type: "query", query: { name: "world" } })])
      expect(err(await send(wire, line)), line).toMatchObject({ id: null, code: "BAD_REQUEST" });
    for (const id of ['""', j("x".repeat(129)), "-1", "1.5", "9007199254740992", "1e400", "true", "null", "{}"]) {
      expect(err(await send(wire, `{"type":"query","id":${id},"query":{"name":"world"}}`)), id).toMatchObject({
        id: null,
        code: "BAD_REQUEST",
        path: ["id"],
      });
    }
  });
  it("row 5 before row 7: an invalid id with an unknown type is BAD_REQUEST with id null", async () => {
    const { wire } = make();
    expect(err(await send(wire, j({ type: "teleport", id: -5 })))).toMatchObject({ id: null, code: "BAD_REQUEST" });
  });
  it("row 6 before row 7 and row 9: a reused id is DUPLICATE_REQUEST_ID, whatever its type or fields", async () => {
    const { wire } = await shaken();
    expect(code(await send(wire, j({ type: "teleport", id: "t" })))).toBe("UNKNOWN_OP");
    expect(err(await send(wire, j({ type: "teleport", id: "t" })))).toMatchObject({
      id: "t",
      code: "DUPLICATE_REQUEST_ID",
    });
    expect(code(await send(wire, j({ type: "query", id: "q", query: { name: "world" }, extra: 1 })))).toBe(
      "BAD_REQUEST",
    );
    expect(code(await send(wire, j({ type: "query", id: "q", query: { name: "world" }, extra: 1 })))).toBe(
      "DUPLICATE_REQUEST_ID",
    );
  });
  it("row 7: a type absent or not a string is BAD_REQUEST; a string naming no type is UNKNOWN_OP (case matters; reply is no request)", async () => {
    const { wire } = await shaken();
    for (const [i, t] of [undefined, 5, null, ["hello"]].entries())
      expect(err(await send(wire, j({ type: t, id: `b${i}` }))), j(t)).toMatchObject({
        code: "BAD_REQUEST",
        id: `b${i}`,
      });
    for (const [i, t] of ["Hello", "reply", "__proto__", "constructor", ""].entries())
      expect(err(await send(wire, j({ type: t, id: `u${i}` }))), t).toMatchObject({ code: "UNKNOWN_OP", id: `u${i}` });
  });
  it("row 7 before row 8: before the handshake an unknown type is UNKNOWN_OP, a missing one BAD_REQUEST", async () => {
    const { wire } = make();
    expect(code(await send(wire, j({ type: "Hello", id: 1, protocol_versions: ["1"], settings: {}, extra: 1 })))).toBe(
      "UNKNOWN_OP",
    );
    expect(code(await send(wire, j({ id: 2 })))).toBe("BAD_REQUEST");
  });
  it("row 8 before row 9: before the handshake a request with invalid fields is NOT_HANDSHAKEN", async () => {
    const { wire } = make();
    expect(err(await send(wire, j({ type: "query", id: 1, query: { name: "world" }, extra: true })))).toMatchObject({
      code: "NOT_HANDSHAKEN",
      id: 1,
    });
    expect(code(await send(wire, j({ type: "crash_after", id: 2, writes: 0, at: "never" })))).toBe("NOT_HANDSHAKEN");
    expect(code(await send(wire, j({ type: "shutdown", id: 3 })))).toBe("NOT_HANDSHAKEN");
    expect(wire.stopped).toBe(false);
  });
  it("row 9 before row 10: a hello with invalid fields that also offers no common version is BAD_REQUEST", async () => {
    const { wire } = make();
    expect(code(await send(wire, j({ ...HELLO, id: 1, protocol_versions: ["9"], extra: 1 })))).toBe("BAD_REQUEST");
    expect(code(await send(wire, j({ ...HELLO, id: 2, protocol_versions: ["9"] })))).toBe("UNSUPPORTED_VERSION");
  });
  it("row 9 before row 10: crash_after with writes 0 or an unknown at is BAD_REQUEST even without the hook; a valid one is UNSUPPORTED", async () => {
    const { wire } = await shaken();
    expect(code(await send(wire, j({ type: "crash_after", id: 1, writes: 0, at: "after_commit" })))).toBe(
      "BAD_REQUEST",
    );
    expect(code(await send(wire, j({ type: "crash_after", id: 2, writes: 1, at: "whenever" })))).toBe("BAD_REQUEST");
    expect(code(await send(wire, j({ type: "crash_after", id: 3, writes: 1.5, at: "after_commit" })))).toBe(
      "BAD_REQUEST",
    );
    expect(code(await send(wire, j({ type: "crash_after", id: 4, writes: 1, at: "after_commit" })))).toBe(
      "UNSUPPORTED",
    );
  });
  it("an ignored line gets no reply: empty, blank, a lone \\r", async () => {
    const { wire } = make();
    for (const l of ["", "  \t", "\r", " \t\r \r"]) expect(await send(wire, l)).toBeNull();
  });
});

describe("W-2.1: request ids", () => {
  it("every id that was read counts as used, whatever became of its request", async () => {
    const { wire } = make();
    expect(code(await send(wire, j({ type: "query", id: "early", query: { name: "world" } })))).toBe("NOT_HANDSHAKEN");
    expect(code(await send(wire, j({ ...HELLO, id: "v", protocol_versions: ["9"] })))).toBe("UNSUPPORTED_VERSION");
    expect(code(await send(wire, j({ ...HELLO, id: "h" })))).toBe("ok");
    expect(code(await send(wire, j({ type: "query", id: "early", query: { name: "world" } })))).toBe(
      "DUPLICATE_REQUEST_ID",
    );
    expect(code(await send(wire, j({ ...HELLO, id: "v" })))).toBe("DUPLICATE_REQUEST_ID");
  });
  it("an id on a line that was never read (BAD_JSON, an over-long line) stays unused", async () => {
    const { wire } = await shaken();
    expect(code(await send(wire, '{"type":"query","id":"unread","query":'))).toBe("BAD_JSON");
    expect(code(await send(wire, '{"type":"query","id":"dup","query":{"name":"world"},"id":"dup2"}'))).toBe("BAD_JSON");
    expect(code(await send(wire, j({ type: "query", id: "unread", query: { name: "world" } })))).toBe("ok");
    expect(code(await send(wire, j({ type: "query", id: "dup2", query: { name: "world" } })))).toBe("ok");
  });
  it('integer ids are read by value (1e2 is 100, -0 is 0, echoed as read); the string "1" is not the integer 1', async () => {
    const { wire } = await shaken();
    const q = (id: string) => `{"type":"query","id":${id},"query":{"name":"world"}}`;
    expect((await send(wire, q("100")))?.id).toBe(100);
    expect(err(await send(wire, q("1e2")))).toMatchObject({ code: "DUPLICATE_REQUEST_ID", id: 100 });
    const zero = await send(wire, q("-0"));
    expect(Object.is(zero?.id, 0)).toBe(true);
    expect(err(await send(wire, q("0")))).toMatchObject({ code: "DUPLICATE_REQUEST_ID", id: 0 });
    expect((await send(wire, q("5.0E0")))?.id).toBe(5);
    expect(code(await send(wire, q("5")))).toBe("DUPLICATE_REQUEST_ID");
    expect(code(await send(wire, q("1")))).toBe("ok");
    expect(code(await send(wire, q('"1"')))).toBe("ok");
    expect(code(await send(wire, q('"1"')))).toBe("DUPLICATE_REQUEST_ID");
  });
  it("boundaries: 2^53-1 and 128 code points (astral included) are ids; the reply echoes an id with escapes as the same string", async () => {
    const { wire } = await shaken();
    for (const id of [Number.MAX_SAFE_INTEGER, 0, "🚀".repeat(128), 'w-esc-\n\u0000"\\', "x"]) {
      expect((await send(wire, j({ type: "query", id, query: { name: "world" } })))?.id, j(id)).toBe(id);
    }
  });
});

describe("W-5: the handshake and the profile", () => {
  it("a query before hello is NOT_HANDSHAKEN; an unsupported version leaves the process un-handshaken; the first spoken version is chosen", async () => {
    const { wire } = make(
      { families: ["advaita"], crash_hook: false },
      { command: { "advaita.mint": () => MINT_EVENTS } },
    );
    expect(code(await send(wire, j({ type: "query", id: 0, query: { name: "world" } })))).toBe("NOT_HANDSHAKEN");
    expect(code(await send(wire, j({ ...HELLO, id: 1, protocol_versions: ["0.unknown"] })))).toBe(
      "UNSUPPORTED_VERSION",
    );
    expect(code(await send(wire, j({ type: "query", id: 2, query: { name: "world" } })))).toBe("NOT_HANDSHAKEN");
    const r = await send(
      wire,
      j({
        ...HELLO,
        id: 3,
        protocol_versions: ["0.unknown", "1"],
        settings: { "srk.ignored": true, other: [1, { x: null }] },
      }),
    );
    expect(r).toEqual({
      type: "reply",
      id: 3,
      ok: true,
      events: [],
      result: {
        implementation: { name: "adapter-test", version: "1.0.0" },
        protocol_version: "1",
        protocol_versions: ["1"],
        profile: { families: ["advaita"], crash_hook: false },
      },
    });
  });
  it("every hello after a successful one is BAD_REQUEST, whatever its fields or versions", async () => {
    const { wire } = await shaken();
    expect(code(await send(wire, j({ ...HELLO, id: 1 })))).toBe("BAD_REQUEST");
    expect(code(await send(wire, j({ ...HELLO, id: 2, protocol_versions: ["9"] })))).toBe("BAD_REQUEST");
    expect(code(await send(wire, j({ type: "hello", id: 3 })))).toBe("BAD_REQUEST");
  });
  it("hello fields (W-5.3): exactly type, id, protocol_versions (1 to 16 of 1 to 32 characters), settings (names of at most 64)", async () => {
    const { wire } = make();
    const bad = [
      { ...HELLO, id: 1, extra: 1 },
      { type: "hello", id: 2, settings: {} },
      { type: "hello", id: 3, protocol_versions: ["1"] },
      { ...HELLO, id: 4, protocol_versions: [] },
      { ...HELLO, id: 5, protocol_versions: Array(17).fill("1") },
      { ...HELLO, id: 6, protocol_versions: [""] },
      { ...HELLO, id: 7, protocol_versions: ["1", 1] },
      { ...HELLO, id: 8, settings: [] },
      { ...HELLO, id: 9, settings: { ["k".repeat(65)]: 1 } },
    ];
    for (const h of bad) expect(code(await send(wire, j(h))), j(h)).toBe("BAD_REQUEST");
    expect(
      code(
        await send(
          wire,
          j({
            ...HELLO,
            id: 10,
            protocol_versions: [...Array(15).fill("x".repeat(32)), "1"],
            settings: { ["k".repeat(64)]: null },
          }),
        ),
      ),
    ).toBe("ok");
  });
});

describe("W-4.1 row 9 for queries, in order (a) to (e)", () => {
  it("(a) the envelope: an extra member or a missing query is BAD_REQUEST", async () => {
    const { wire } = await shaken();
    expect(err(await send(wire, j({ type: "query", id: 1, query: { name: "world" }, extra: 1 })))).toMatchObject({
      code: "BAD_REQUEST",
      path: ["extra"],
    });
    expect(err(await send(wire, j({ type: "query", id: 2 })))).toMatchObject({ code: "BAD_REQUEST", path: ["query"] });
  });
  it("(b) a query that is no object, or whose name is absent or not a string, is BAD_REQUEST", async () => {
    const { wire } = await shaken();
    for (const [i, q] of [null, "world", ["world"], {}, { name: 5 }, { name: null }].entries())
      expect(code(await send(wire, j({ type: "query", id: i, query: q }))), j(q)).toBe("BAD_REQUEST");
  });
  it("(c) a name that names no query is UNKNOWN_OP, whatever the other members; constructor and __proto__ name none", async () => {
    const { wire } = await shaken();
    for (const [i, name] of ["secrets", "constructor", "__proto__", "toString", "World"].entries()) {
      expect(
        code(await send(wire, j({ type: "query", id: i, query: { name, agent: "not-a-digest", x: 1 } }))),
        name,
      ).toBe("UNKNOWN_OP");
    }
  });
  it("(d) parameters failing the Query schema are BAD_REQUEST with the path under query", async () => {
    const { wire } = await shaken();
    expect(
      err(await send(wire, j({ type: "query", id: 1, query: { name: "store", agent: "not-a-digest" } }))),
    ).toMatchObject({ code: "BAD_REQUEST", path: ["query", "agent"] });
    expect(
      err(await send(wire, j({ type: "query", id: 2, query: { name: "store", agent: DIGEST, x: 1 } }))),
    ).toMatchObject({ code: "BAD_REQUEST", path: ["query", "x"] });
    expect(
      err(await send(wire, j({ type: "query", id: 3, query: { name: "instance_state", agent: DIGEST } }))),
    ).toMatchObject({ code: "BAD_REQUEST", path: ["query", "instance_id"] });
    expect(code(await send(wire, j({ type: "query", id: 4, query: { name: "world", agent: DIGEST } })))).toBe(
      "BAD_REQUEST",
    );
  });
  it("(e) a well-formed query naming no agent is NOT_FOUND: with an empty profile the adapter answers every query itself", async () => {
    const { wire } = await shaken();
    expect(await send(wire, j({ type: "query", id: 1, query: { name: "world" } }))).toEqual({
      type: "reply",
      id: 1,
      ok: true,
      events: [],
      result: { tick: 0, roots_used: [], agents: [] },
    });
    for (const [i, name] of [
      "agent",
      "store",
      "lineage",
      "instances",
      "obligations",
      "identity",
      "substrate",
      "authority",
      "migration",
    ].entries()) {
      expect(err(await send(wire, j({ type: "query", id: `q${i}`, query: { name, agent: DIGEST } })))).toMatchObject({
        code: "NOT_FOUND",
        invariant: null,
        definite: true,
      });
    }
    expect(
      code(
        await send(
          wire,
          j({ type: "query", id: "qs", query: { name: "instance_state", agent: DIGEST, instance_id: "i-1" } }),
        ),
      ),
    ).toBe("NOT_FOUND");
  });
});

describe("commands: envelope, MALFORMED (W-2.3), profile and dispatch", () => {
  const advaita: Profile = { families: ["advaita"], crash_hook: false };

  it("the envelope holds exactly type, id, command; an absent command is BAD_REQUEST, a present one of any value goes to the schema", async () => {
    const { wire } = await shaken();
    expect(err(await send(wire, j({ type: "command", id: 1 })))).toMatchObject({
      code: "BAD_REQUEST",
      path: ["command"],
    });
    expect(err(await send(wire, j({ type: "command", id: 2, command: MINT, extra: 1 })))).toMatchObject({
      code: "BAD_REQUEST",
      path: ["extra"],
    });
    for (const [i, c] of [null, "advaita.mint", [], 5, {}].entries())
      expect(err(await send(wire, j({ type: "command", id: `m${i}`, command: c }))), j(c)).toMatchObject({
        code: "MALFORMED",
        invariant: null,
        definite: true,
      });
  });

  it("a command failing the Command schema is MALFORMED with the path, before the profile is looked at", async () => {
    const { wire } = await shaken();
    expect(
      err(await send(wire, j({ type: "command", id: 1, command: { op: "janma.teleport", tick: 1 } }))),
    ).toMatchObject({ code: "MALFORMED", path: ["op"] });
    expect(err(await send(wire, j({ type: "command", id: 2, command: { ...MINT, tick: "soon" } })))).toMatchObject({
      code: "MALFORMED",
      path: ["tick"],
    });
    expect(err(await send(wire, j({ type: "command", id: 3, command: { ...MINT, backdoor: true } })))).toMatchObject({
      code: "MALFORMED",
      path: ["backdoor"],
    });
    expect(err(await send(wire, j({ type: "command", id: 4, command: { ...MINT, tick: 2 ** 53 } })))).toMatchObject({
      code: "MALFORMED",
      path: ["tick"],
    });
    expect(
      err(
        await send(
          wire,
          `{"type":"command","id":5,"command":${j({ ...MINT, tick: 0 }).replace('"tick":0', '"tick":1.5')}}`,
        ),
      ),
    ).toMatchObject({ code: "MALFORMED", path: ["tick"] });
  });

  it("a well-formed command of a family outside the profile is UNSUPPORTED; advaita.mint too when the profile is empty (D-034)", async () => {
    const { wire } = await shaken();
    expect(err(await send(wire, j({ type: "command", id: 1, command: MINT })))).toMatchObject({
      code: "UNSUPPORTED",
      invariant: null,
      definite: true,
    });
    const ripa = { op: "ripa.task_start", tick: 1, agent: DIGEST, task_id: "t-1" };
    const advaitaOnly = await shaken(advaita, { command: { "advaita.mint": () => MINT_EVENTS } });
    expect(code(await send(advaitaOnly.wire, j({ type: "command", id: 2, command: ripa })))).toBe("UNSUPPORTED");
  });

  it("custody.* belongs to janma (D-034; TAB-4's family column says custody): dispatched to a janma profile, UNSUPPORTED without janma", async () => {
    const attempt = { op: "custody.attempt", tick: 1, agent: DIGEST, obligation_id: "o-1", ack: "declined" };
    const seen: unknown[] = [];
    const janma = await shaken(
      { families: ["janma"], crash_hook: false },
      {
        command: {
          "custody.attempt": (c) => {
            seen.push(c);
            return [];
          },
        },
      },
    );
    expect(await send(janma.wire, j({ type: "command", id: 1, command: attempt }))).toEqual({
      type: "reply",
      id: 1,
      ok: true,
      events: [],
    });
    expect(seen).toEqual([attempt]);
    const advaitaOnly = await shaken(advaita, { command: { "advaita.mint": () => MINT_EVENTS } });
    expect(code(await send(advaitaOnly.wire, j({ type: "command", id: 2, command: attempt })))).toBe("UNSUPPORTED");
  });

  it("advaita.mint is dispatched to any profile with a family (D-034), even janma alone", async () => {
    const seen: unknown[] = [];
    const { wire } = await shaken(
      { families: ["janma"], crash_hook: false },
      {
        command: {
          "advaita.mint": (c) => {
            seen.push(c);
            return MINT_EVENTS;
          },
        },
      },
    );
    expect(await send(wire, j({ type: "command", id: 1, command: MINT }))).toEqual({
      type: "reply",
      id: 1,
      ok: true,
      events: MINT_EVENTS,
    });
    expect(seen).toEqual([MINT]);
  });

  it("the handler gets the validated command, its integers by value (tick 1.0 is 1), and the request id", async () => {
    const calls: { command: unknown; id: unknown }[] = [];
    const { wire } = await shaken(advaita, {
      command: {
        "advaita.mint": (command, ctx) => {
          calls.push({ command, id: ctx.id });
          return MINT_EVENTS;
        },
      },
    });
    const text = j({ type: "command", id: "c1", command: MINT }).replace('"tick":1', '"tick":1.0');
    expect(code(await send(wire, text))).toBe("ok");
    expect(calls).toEqual([{ command: MINT, id: "c1" }]);
    expect(Number.isInteger((calls[0]!.command as { tick: number }).tick)).toBe(true);
  });

  it("async handlers are awaited", async () => {
    const { wire } = await shaken(advaita, {
      command: {
        "advaita.mint": async () => {
          await new Promise((r) => setTimeout(r, 5));
          return MINT_EVENTS;
        },
      },
    });
    expect(await send(wire, j({ type: "command", id: 1, command: MINT }))).toMatchObject({
      ok: true,
      events: MINT_EVENTS,
    });
  });

  it("a Refusal is the rejection: its code, the invariant TAB-3 gives it (filled in when omitted), definite, message and path", async () => {
    let refusal: Refusal = new Refusal("ADVAITA_IDENTITY_NOT_SINGLE", "AD-1", "root root-1 was already used", ["root"]);
    const { wire } = await shaken(advaita, {
      command: {
        "advaita.mint": () => {
          throw refusal;
        },
      },
    });
    expect(await send(wire, j({ type: "command", id: 1, command: MINT }))).toEqual({
      type: "reply",
      id: 1,
      ok: false,
      error: {
        code: "ADVAITA_IDENTITY_NOT_SINGLE",
        invariant: "AD-1",
        message: "root root-1 was already used",
        path: ["root"],
        definite: true,
      },
    });
    refusal = new Refusal("ADVAITA_IDENTITY_NOT_SINGLE");
    expect(err(await send(wire, j({ type: "command", id: 2, command: MINT })))).toMatchObject({
      code: "ADVAITA_IDENTITY_NOT_SINGLE",
      invariant: "AD-1",
      definite: true,
    });
    refusal = new Refusal("TICK_REGRESSED", null, "tick 1 is before the world tick 2", ["tick"]);
    expect(err(await send(wire, j({ type: "command", id: 3, command: MINT })))).toMatchObject({
      code: "TICK_REGRESSED",
      invariant: null,
    });
  });

  it("a Refusal that contradicts TAB-3 (wrong invariant, a wire code, an unknown code) is the handler's bug: INTERNAL, naming it", async () => {
    let refusal = new Refusal("ADVAITA_IDENTITY_NOT_SINGLE", "AD-2");
    const { wire, logs } = await shaken(advaita, {
      command: {
        "advaita.mint": () => {
          throw refusal;
        },
      },
    });
    expect(err(await send(wire, j({ type: "command", id: 1, command: MINT })))).toMatchObject({
      code: "INTERNAL",
      invariant: null,
    });
    expect(logs.join("\n")).toContain('TAB-3 gives ADVAITA_IDENTITY_NOT_SINGLE the invariant "AD-1"');
    refusal = new Refusal("TICK_REGRESSED", "AD-1");
    expect(code(await send(wire, j({ type: "command", id: 2, command: MINT })))).toBe("INTERNAL");
    refusal = new Refusal("UNSUPPORTED");
    expect(code(await send(wire, j({ type: "command", id: 3, command: MINT })))).toBe("INTERNAL");
    refusal = new Refusal("NO_SUCH_CODE");
    expect(code(await send(wire, j({ type: "command", id: 4, command: MINT })))).toBe("INTERNAL");
    expect(logs.join("\n")).toContain("not an operation code of TAB-3");
  });

  it("a handler that throws anything else is INTERNAL, indefinite for a command (W-3.4), with its message; the process goes on", async () => {
    let fail = true;
    const { wire, logs } = await shaken(advaita, {
      command: {
        "advaita.mint": () => {
          if (fail) throw new Error("disk full");
          return MINT_EVENTS;
        },
      },
    });
    expect(err(await send(wire, j({ type: "command", id: 1, command: MINT })))).toMatchObject({
      code: "INTERNAL",
      definite: false,
      invariant: null,
    });
    expect(logs.join("\n")).toContain("disk full");
    fail = false;
    expect(code(await send(wire, j({ type: "command", id: 2, command: MINT })))).toBe("ok");
  });

  it("a command handler must return its events: anything but an array is INTERNAL, saying so", async () => {
    const { wire, logs } = await shaken(advaita, {
      command: { "advaita.mint": () => undefined as unknown as unknown[] },
    });
    expect(code(await send(wire, j({ type: "command", id: 1, command: MINT })))).toBe("INTERNAL");
    expect(logs.join("\n")).toContain("a command handler returns its events, [] when there are none");
  });

  it("an operation the profile declares without a handler is a definite INTERNAL (nothing ran), announced at start", async () => {
    const { wire, logs } = await shaken(advaita, {});
    expect(logs.join("\n")).toMatch(/no handler yet for advaita\.mint, advaita\.project_write, query world/);
    expect(err(await send(wire, j({ type: "command", id: 1, command: MINT })))).toMatchObject({
      code: "INTERNAL",
      definite: true,
    });
    expect(err(await send(wire, j({ type: "query", id: 2, query: { name: "world" } })))).toMatchObject({
      code: "INTERNAL",
      definite: true,
    });
    expect(err(await send(wire, j({ type: "reset", id: 3 })))).toMatchObject({ code: "INTERNAL", definite: true });
  });

  it("checkReplies: an event that is no Event is reported on stderr with its path, and sent as returned; off, nothing is checked", async () => {
    const bad = [{ type: "agent.minted", identity: "not-a-digest", genesis: DIGEST }];
    const on = await shaken(advaita, { command: { "advaita.mint": () => bad } });
    expect(await send(on.wire, j({ type: "command", id: 1, command: MINT }))).toMatchObject({ ok: true, events: bad });
    expect(on.logs.join("\n")).toMatch(/event 0 that is not a valid Event at identity/);
    const off = await shaken(advaita, { command: { "advaita.mint": () => bad } }, false);
    await send(off.wire, j({ type: "command", id: 1, command: MINT }));
    expect(off.logs.filter((l) => l.includes("not a valid"))).toEqual([]);
    const good = await shaken(advaita, { command: { "advaita.mint": () => MINT_EVENTS } });
    await send(good.wire, j({ type: "command", id: 1, command: MINT }));
    expect(good.logs.filter((l) => l.includes("not a valid"))).toEqual([]);
  });
});

describe("queries with handlers", () => {
  const profile: Profile = { families: ["advaita"], crash_hook: false };
  it("the handler gets the validated query; its result is the reply's result; a NOT_FOUND refusal is definite", async () => {
    const { wire } = await shaken(profile, {
      query: {
        world: () => ({ tick: 0, roots_used: [], agents: [] }),
        agent: (q) => {
          throw new Refusal("NOT_FOUND", null, `no agent ${q.agent}`, ["agent"]);
        },
      },
    });
    expect(await send(wire, j({ type: "query", id: 1, query: { name: "world" } }))).toMatchObject({
      ok: true,
      result: { tick: 0, roots_used: [], agents: [] },
    });
    expect(err(await send(wire, j({ type: "query", id: 2, query: { name: "agent", agent: DIGEST } })))).toMatchObject({
      code: "NOT_FOUND",
      path: ["agent"],
      definite: true,
    });
  });
  it("a query handler that throws is a definite INTERNAL (a query writes nothing, W-3.4); one that returns nothing is INTERNAL", async () => {
    const { wire } = await shaken(profile, {
      query: {
        world: () => {
          throw new Error("boom");
        },
        agent: () => undefined,
      },
    });
    expect(err(await send(wire, j({ type: "query", id: 1, query: { name: "world" } })))).toMatchObject({
      code: "INTERNAL",
      definite: true,
    });
    expect(code(await send(wire, j({ type: "query", id: 2, query: { name: "agent", agent: DIGEST } })))).toBe(
      "INTERNAL",
    );
  });
  it("checkReplies: a result failing its W-6 schema is reported with its path", async () => {
    const { wire, logs } = await shaken(profile, {
      query: { world: () => ({ tick: -1, roots_used: [], agents: [] }), instances: () => ({}) },
    });
    expect(await send(wire, j({ type: "query", id: 1, query: { name: "world" } }))).toMatchObject({ ok: true });
    expect(logs.join("\n")).toMatch(/not a valid WorldView at tick: expected at least 0/);
    await send(wire, j({ type: "query", id: 2, query: { name: "instances", agent: DIGEST } }));
    expect(logs.join("\n")).toMatch(/not an array of InstanceView/);
  });
});

describe("reset, crash_after and shutdown", () => {
  it("reset: the envelope first (an extra member never resets), then the handler; a failing reset is indefinite (a durable write, W-2.4)", async () => {
    let resets = 0;
    let fail = false;
    const { wire } = await shaken(
      { families: ["advaita"], crash_hook: false },
      {
        reset: () => {
          if (fail) throw new Error("rename failed");
          resets++;
        },
      },
    );
    expect(code(await send(wire, j({ type: "reset", id: 1, extra: true })))).toBe("BAD_REQUEST");
    expect(resets).toBe(0);
    expect(await send(wire, j({ type: "reset", id: 2 }))).toEqual({ type: "reply", id: 2, ok: true, events: [] });
    expect(resets).toBe(1);
    fail = true;
    expect(err(await send(wire, j({ type: "reset", id: 3 })))).toMatchObject({ code: "INTERNAL", definite: false });
  });
  it("crash_after with the hook: the handler gets writes and at", async () => {
    const armed: unknown[] = [];
    const { wire } = await shaken(
      { families: ["advaita"], crash_hook: true },
      { crash_after: (a) => void armed.push(a) },
    );
    expect(await send(wire, j({ type: "crash_after", id: 1, writes: 3, at: "before_commit" }))).toEqual({
      type: "reply",
      id: 1,
      ok: true,
      events: [],
    });
    expect(armed).toEqual([{ writes: 3, at: "before_commit" }]);
  });
  it("shutdown: answered, then nothing more is read or executed (W-2.2, D-040); an invalid shutdown does not stop", async () => {
    const { wire } = await shaken();
    expect(code(await send(wire, j({ type: "shutdown", id: 1, extra: 1 })))).toBe("BAD_REQUEST");
    expect(wire.stopped).toBe(false);
    expect(await send(wire, j({ type: "shutdown", id: 2 }))).toEqual({ type: "reply", id: 2, ok: true, events: [] });
    expect(wire.stopped).toBe(true);
    expect(await send(wire, j({ type: "query", id: 3, query: { name: "world" } }))).toBeNull();
    expect(await send(wire, "not json")).toBeNull();
  });
});

describe("the configuration is checked at start", () => {
  const bad = (o: object) => () =>
    createWire({
      implementation: { name: "x", version: "1" },
      profile: { families: [], crash_hook: false },
      log: () => undefined,
      ...o,
    } as never);
  it("an invalid HelloResult: empty or over-long name, an unknown family, a family twice, no crash_hook", () => {
    expect(bad({ implementation: { name: "", version: "1" } })).toThrow(/implementation.*name/);
    expect(bad({ implementation: { name: "x".repeat(129), version: "1" } })).toThrow(/at most 128/);
    expect(bad({ profile: { families: ["karma"], crash_hook: false } })).toThrow(/families/);
    expect(bad({ profile: { families: ["ripa", "ripa"], crash_hook: false } })).toThrow(/lists a family twice/);
    expect(bad({ profile: { families: [] } })).toThrow(/crash_hook/);
    expect(bad({})).not.toThrow();
  });
  it("the handler table: unknown kinds, operations and query names, and values that are no function", () => {
    expect(bad({ handlers: { commands: {} } })).toThrow(/unknown handler kind "commands"/);
    expect(bad({ handlers: { command: { "advaita.mnit": () => [] } } })).toThrow(
      /"advaita.mnit", which is no operation/,
    );
    expect(bad({ handlers: { query: { wrld: () => ({}) } } })).toThrow(/"wrld", which is no query/);
    expect(bad({ handlers: { query: { world: {} } } })).toThrow(/is not a function/);
    expect(bad({ handlers: { reset: 1 } })).toThrow(/handlers.reset is not a function/);
  });
  it("crash_hook: true needs a crash_after handler; handlers that are never called are announced", () => {
    expect(bad({ profile: { families: ["advaita"], crash_hook: true } })).toThrow(/crash_after must arm it/);
    const logs: string[] = [];
    createWire({
      implementation: { name: "x", version: "1" },
      profile: { families: [], crash_hook: false },
      handlers: { command: { "ripa.task_start": () => [] }, crash_after: () => undefined },
      log: (s) => logs.push(s),
    });
    expect(logs.join("\n")).toMatch(/ripa\.task_start are never called/);
    expect(logs.join("\n")).toMatch(/crash_after is never called/);
  });
});

describe("the kit's golden wire sessions (W-9.1), through the adapter", () => {
  const GOLDEN = join(import.meta.dirname, "..", "..", "conformance", "golden");
  const files = readdirSync(GOLDEN).filter((n) => /^wire-session.*\.jsonl$/.test(n));
  type Segment = { text?: string; hex?: string; repeat?: string; times?: number };
  type Expected = {
    id: unknown;
    ok: boolean;
    events?: unknown[];
    result?: unknown;
    error?: { code: string; invariant: string | null; definite: boolean };
  } | null;
  type Line = { step: string; send: Segment[]; reply: Expected };
  const bytesOf = (send: Segment[]): Buffer =>
    Buffer.concat([
      ...send.map((s) =>
        s.text !== undefined
          ? Buffer.from(s.text, "utf8")
          : s.hex !== undefined
            ? Buffer.from(s.hex.replace(/ /g, ""), "hex")
            : Buffer.from((s.repeat ?? "").repeat(s.times ?? 0), "utf8"),
      ),
      Buffer.from("\n"),
    ]);
  /** The normative part (W-9), and of a successful hello only the chosen version (W-9.1). */
  const normative = (r: Reply | null | Expected): unknown => {
    if (r === null) return null;
    if (!r.ok)
      return {
        id: r.id,
        ok: false,
        error: { code: r.error?.code, invariant: r.error?.invariant, definite: r.error?.definite },
      };
    const result = r.result as { protocol_version?: string; profile?: unknown } | undefined;
    if (result?.profile !== undefined || (result?.protocol_version !== undefined && Object.keys(result).length === 1))
      return { id: r.id, ok: true, events: r.events, result: { protocol_version: result.protocol_version } };
    return { id: r.id, ok: true, events: r.events, ...(r.result === undefined ? {} : { result: r.result }) };
  };

  it("there is at least one session to replay", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const file of files) {
    it(`${file}: every reply equals the file's, where the operations and queries answer as the file expects`, async () => {
      const lines = readFileSync(join(GOLDEN, file), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Line);
      // Handlers that answer from the file's own expectations: what is left to compare is the adapter's.
      // An id's first expectation: a later line reusing it expects DUPLICATE_REQUEST_ID, which no handler sees.
      const byId = new Map<unknown, Expected>();
      for (const l of lines) if (l.reply !== null && !byId.has(l.reply.id)) byId.set(l.reply.id, l.reply);
      const scripted = (_: unknown, ctx: { id: unknown }) => {
        const want = byId.get(ctx.id);
        if (want === undefined || want === null)
          throw new Error(`request ${JSON.stringify(ctx.id)} should not have reached a handler`);
        if (!want.ok) throw new Refusal(want.error?.code ?? "", want.error?.invariant ?? null);
        return want.events !== undefined && want.events.length > 0 ? want.events : want.result;
      };
      const ticks: unknown[] = [];
      const { wire, logs } = make(
        { families: ["advaita"], crash_hook: false },
        {
          command: {
            "advaita.mint": (c, ctx) => {
              ticks.push(c.tick);
              return scripted(c, ctx) as unknown[];
            },
          },
          query: Object.fromEntries(QUERY_NAMES.map((q) => [q, scripted])),
          reset: () => undefined,
        },
      );
      const framer = new LineFramer();
      for (const l of lines) {
        const replies: (Reply | null)[] = [];
        for (const f of framer.push(bytesOf(l.send))) replies.push(await wire.handle(f));
        expect(replies, `${l.step}: one frame per line`).toHaveLength(1);
        expect(normative(replies[0] ?? null), `${l.step}`).toEqual(normative(l.reply));
      }
      expect(logs.filter((x) => !x.startsWith("serve:"))).toEqual([]);
      expect(ticks.every((t) => Number.isInteger(t))).toBe(true);
      expect(wire.stopped).toBe(true);
    });
  }
});
