/**
 * The wire decisions of spec review 1 (G-7 … G-18), checked on the wire face in process: one line
 * in, one reply out (impl/wire/server.ts), without a process, so every boundary is cheap to try.
 * The same points are pinned over the wire by conformance/golden/wire-session.jsonl.
 */
import { describe, expect, it } from "vitest";
import { MAX_LINE_BYTES, MAX_NESTING_DEPTH, type Reply } from "../../spec/wire/index.ts";
import { openEngine } from "../api.ts";
import type { Engine } from "../engine.ts";
import { LineFramer } from "../wire/framing.ts";
import { WireServer } from "../wire/server.ts";
import { ijsonDefect } from "../wire/strict-json.ts";
import * as f from "./fixtures.ts";

/** A handshaken server on volatile storage, fed whole raw lines (`\n` added) through the real framer. */
const serve = (handshake = true): ((line: string | Buffer) => Reply[]) => {
  const server = new WireServer(openEngine({}));
  const framer = new LineFramer(MAX_LINE_BYTES);
  const send = (line: string | Buffer): Reply[] =>
    framer
      .push(Buffer.concat([typeof line === "string" ? Buffer.from(line, "utf8") : line, Buffer.from("\n")]))
      .flatMap((fr) => {
        const r = server.handle(fr);
        return r === null ? [] : [r];
      });
  if (handshake) expect(send('{"type":"hello","id":"h","protocol_versions":["1"],"settings":{}}')[0]?.ok).toBe(true);
  return send;
};

const one = (replies: Reply[]): Reply => {
  expect(replies.length, JSON.stringify(replies)).toBe(1);
  return replies[0] as Reply;
};
const code = (r: Reply): string => (r.ok ? "ok" : r.error.code);
const world = (id: string | number): string => JSON.stringify({ type: "query", id, query: { name: "world" } });
const NO_AGENT = `sha256:${"0".repeat(64)}`;

describe("ijsonDefect (W-1.8, D-044)", () => {
  it("accepts I-JSON: distinct names per object, the same name in sibling and nested objects, escaped pairs, noncharacters", () => {
    for (const t of [
      '{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}',
      '"\\ud83d\\ude80"',
      '{"k":"\\uffff\\ufdd0"}',
      '{"a\\\\":1,"a":2}',
      '{"\\"":1,"\\\\":2}',
      "[]",
      "{}",
      '{"a":"}","b":"{"}',
    ])
      expect(ijsonDefect(t), t).toBeNull();
  });

  it("finds a duplicate name, also when spelled with escapes, and says which and where", () => {
    expect(ijsonDefect('{"id":1,"type":"x","id":2}')).toMatchObject({ rule: "duplicate-name", column: 20 });
    expect(ijsonDefect('{"id":1,"type":"x","id":2}')?.message).toMatch(/duplicate member name "id" at column 20/);
    expect(ijsonDefect('{"id":1,"\\u0069d":2}')?.rule).toBe("duplicate-name");
    expect(ijsonDefect('[{"x":{"a":1,"a":1}}]')?.rule).toBe("duplicate-name");
    // A value equal to a name is not a name.
    expect(ijsonDefect('{"a":"a","b":"a"}')).toBeNull();
  });

  it("finds a lone high surrogate, a lone low one, and a high one followed by a non-surrogate escape", () => {
    expect(ijsonDefect('"\\ud800"')).toMatchObject({ rule: "lone-surrogate", column: 2 });
    expect(ijsonDefect('"x\\udc00"')?.message).toMatch(/lone surrogate \\udc00 in a string at column 3/);
    expect(ijsonDefect('"\\ud800\\u0041"')?.rule).toBe("lone-surrogate");
    expect(ijsonDefect('"\\ude80\\ud83d"')?.rule).toBe("lone-surrogate");
    expect(ijsonDefect('{"\\ud800":1}')?.rule).toBe("lone-surrogate");
    expect(ijsonDefect('"\\ud800" ')?.rule).toBe("lone-surrogate");
  });
});

describe("wire decisions on the wire face", () => {
  it("G-7: integral numbers are integers: id 1e2 is 100, -0 is 0, tick 1.0 is tick 1; 1.5 is not an integer", () => {
    const send = serve();
    expect(code(one(send(world(100))))).toBe("ok");
    const dup = one(send('{"type":"query","id":1e2,"query":{"name":"world"}}'));
    expect([code(dup), dup.id]).toEqual(["DUPLICATE_REQUEST_ID", 100]);
    expect(code(one(send(world(0))))).toBe("ok");
    const zero = one(send('{"type":"query","id":-0,"query":{"name":"world"}}'));
    expect([code(zero), Object.is(zero.id, 0) || Object.is(zero.id, -0)]).toEqual(["DUPLICATE_REQUEST_ID", true]);
    expect(JSON.stringify(zero)).toContain('"id":0,');
    const minted = one(
      send(
        JSON.stringify({ type: "command", id: "m", command: f.mint(1, "root-g7") }).replace('"tick":1,', '"tick":1.0,'),
      ),
    );
    expect(minted.ok, JSON.stringify(minted)).toBe(true);
    const frac = one(
      send(
        JSON.stringify({ type: "command", id: "m2", command: f.mint(2, "root-g7b") }).replace(
          '"tick":2,',
          '"tick":2.5,',
        ),
      ),
    );
    expect(code(frac)).toBe("MALFORMED");
    expect(code(one(send('{"type":"query","id":1.5,"query":{"name":"world"}}')))).toBe("BAD_REQUEST");
  });

  it("G-8 and G-9: a duplicate member name or a lone surrogate is BAD_JSON with id null, naming the problem", () => {
    const send = serve();
    const dupName = one(send('{"type":"query","id":"a","query":{"name":"world"},"id":"b"}'));
    expect([code(dupName), dupName.id]).toEqual(["BAD_JSON", null]);
    expect(dupName.ok ? "" : dupName.error.message).toMatch(/duplicate member name "id"/);
    const lone = one(send('{"type":"query","id":"c","query":{"name":"agent","agent":"\\ud800"}}'));
    expect([code(lone), lone.id]).toEqual(["BAD_JSON", null]);
    expect(lone.ok ? "" : lone.error.message).toMatch(/lone surrogate \\ud800/);
    // Neither id was read, so both are still free.
    expect(code(one(send(world("a"))))).toBe("ok");
    expect(code(one(send(world("c"))))).toBe("ok");
    expect(one(send('{"type":"query","id":"pair-\\ud83d\\ude80","query":{"name":"world"}}')).id).toBe("pair-🚀");
  });

  it("G-11: a type that is absent or not a string is BAD_REQUEST; a string naming no type is UNKNOWN_OP", () => {
    const send = serve();
    expect(code(one(send('{"id":"t1","query":{"name":"world"}}')))).toBe("BAD_REQUEST");
    expect(code(one(send('{"type":5,"id":"t2"}')))).toBe("BAD_REQUEST");
    expect(code(one(send('{"type":null,"id":"t3"}')))).toBe("BAD_REQUEST");
    expect(code(one(send('{"type":["hello"],"id":"t4"}')))).toBe("BAD_REQUEST");
    expect(code(one(send('{"type":"Hello","id":"t5"}')))).toBe("UNKNOWN_OP");
  });

  it("G-12: a command envelope without command is BAD_REQUEST; any present command failing the schema is MALFORMED", () => {
    const send = serve();
    expect(code(one(send('{"type":"command","id":"c1"}')))).toBe("BAD_REQUEST");
    for (const [i, c] of ["null", '"advaita.mint"', "[]", "{}", "1.0"].entries())
      expect(code(one(send(`{"type":"command","id":"c${i + 2}","command":${c}}`))), c).toBe("MALFORMED");
  });

  it("G-13: query checks in order: envelope, query shape and name type, unknown name, parameters (BAD_REQUEST), unknown agent", () => {
    const send = serve();
    expect(code(one(send('{"type":"query","id":"q1","query":{"name":"secrets"},"extra":1}')))).toBe("BAD_REQUEST");
    expect(code(one(send('{"type":"query","id":"q2"}')))).toBe("BAD_REQUEST");
    for (const [i, q] of ["null", "[]", '"world"', "{}", '{"name":5}'].entries())
      expect(code(one(send(`{"type":"query","id":"q3-${i}","query":${q}}`))), q).toBe("BAD_REQUEST");
    expect(code(one(send('{"type":"query","id":"q4","query":{"name":"secrets","agent":"not-a-digest","x":1}}')))).toBe(
      "UNKNOWN_OP",
    );
    expect(code(one(send('{"type":"query","id":"q5","query":{"name":"store","agent":"not-a-digest"}}')))).toBe(
      "BAD_REQUEST",
    );
    expect(code(one(send(`{"type":"query","id":"q6","query":{"name":"store","agent":"${NO_AGENT}","x":1}}`)))).toBe(
      "BAD_REQUEST",
    );
    expect(code(one(send('{"type":"query","id":"q7","query":{"name":"store"}}')))).toBe("BAD_REQUEST");
    expect(code(one(send(`{"type":"query","id":"q8","query":{"name":"store","agent":"${NO_AGENT}"}}`)))).toBe(
      "NOT_FOUND",
    );
  });

  it('G-14: the string "1" and the integer 1 are different ids; each collides only with itself', () => {
    const send = serve();
    expect(code(one(send(world(1))))).toBe("ok");
    expect(code(one(send(world("1"))))).toBe("ok");
    expect(code(one(send(world("1"))))).toBe("DUPLICATE_REQUEST_ID");
    expect(code(one(send(world(1))))).toBe("DUPLICATE_REQUEST_ID");
  });

  it("G-15: the bound counts a trailing \\r; an over-long whitespace line is LINE_TOO_LONG", () => {
    const send = serve();
    const padded = (id: string, n: number, tail = ""): string => {
      const q = world(id);
      return q + " ".repeat(n - Buffer.byteLength(q) - tail.length) + tail;
    };
    expect(Buffer.byteLength(padded("l1", MAX_LINE_BYTES))).toBe(MAX_LINE_BYTES);
    expect(code(one(send(padded("l1", MAX_LINE_BYTES))))).toBe("ok");
    expect(code(one(send(padded("l2", MAX_LINE_BYTES, "\r"))))).toBe("ok");
    expect(code(one(send(padded("l3", MAX_LINE_BYTES + 1, "\r"))))).toBe("LINE_TOO_LONG");
    expect(code(one(send(padded("l4", MAX_LINE_BYTES + 1))))).toBe("LINE_TOO_LONG");
    expect(send(" ".repeat(MAX_LINE_BYTES))).toEqual([]);
    expect(send(`${" ".repeat(MAX_LINE_BYTES - 1)}\r`)).toEqual([]);
    const long = one(send(" ".repeat(MAX_LINE_BYTES + 1)));
    expect([code(long), long.id]).toEqual(["LINE_TOO_LONG", null]);
    expect(code(one(send(`${" ".repeat(MAX_LINE_BYTES)}\r`)))).toBe("LINE_TOO_LONG");
  });

  it("G-16: only JSON whitespace makes a line empty; U+00A0, a BOM, U+2028, U+3000 lines are BAD_JSON", () => {
    const send = serve();
    for (const w of ["", " ", "\t", "\r", " \t\r ", "\r\r"]) expect(send(w), JSON.stringify(w)).toEqual([]);
    for (const w of ["\u00a0", "\ufeff", "\u2028", "\u3000", " \u00a0 ", "\u000b", "\u000c", "\u0085"]) {
      const r = one(send(w));
      expect([code(r), r.id], JSON.stringify(w)).toEqual(["BAD_JSON", null]);
    }
    expect(code(one(send(`\ufeff${world("bom")}`)))).toBe("BAD_JSON");
    expect(code(one(send(Buffer.from([0x20, 0xff, 0x20]))))).toBe("BAD_ENCODING");
  });

  it("G-17: depth is a lexical running count, valid JSON or not", () => {
    const send = serve();
    const at = (line: string): string => code(one(send(line)));
    expect(at("[".repeat(MAX_NESTING_DEPTH + 1))).toBe("NESTING_TOO_DEEP");
    expect(at("[".repeat(MAX_NESTING_DEPTH))).toBe("BAD_JSON");
    expect(at(`"${"[".repeat(MAX_NESTING_DEPTH + 5)}`)).toBe("BAD_JSON");
    expect(at(`"\\"${"[".repeat(MAX_NESTING_DEPTH + 5)}`)).toBe("BAD_JSON");
    expect(at(`"\\\\" ${"[".repeat(MAX_NESTING_DEPTH + 1)}`)).toBe("NESTING_TOO_DEEP");
    expect(at(`]${"[".repeat(MAX_NESTING_DEPTH + 1)}`)).toBe("BAD_JSON");
    expect(at(`]${"[".repeat(MAX_NESTING_DEPTH + 2)}`)).toBe("NESTING_TOO_DEEP");
    expect(at(`${"{".repeat(MAX_NESTING_DEPTH + 1)}garbage`)).toBe("NESTING_TOO_DEEP");
  });

  it("G-20: before hello a non-hello is NOT_HANDSHAKEN even when invalid; a bad hello is BAD_REQUEST before UNSUPPORTED_VERSION; unknown settings are ignored", () => {
    const send = serve(false);
    expect(code(one(send('{"type":"query","id":"e1","query":{"name":"secrets"},"x":1}')))).toBe("NOT_HANDSHAKEN");
    expect(code(one(send('{"type":"teleport","id":"e2"}')))).toBe("UNKNOWN_OP");
    expect(code(one(send('{"type":"hello","id":"e3","protocol_versions":["9"],"settings":[]}')))).toBe("BAD_REQUEST");
    expect(code(one(send('{"type":"hello","id":"e4","protocol_versions":[],"settings":{}}')))).toBe("BAD_REQUEST");
    expect(code(one(send('{"type":"hello","id":"e5","protocol_versions":["9"],"settings":{}}')))).toBe(
      "UNSUPPORTED_VERSION",
    );
    expect(code(one(send('{"type":"hello","id":"e5","protocol_versions":["1"],"settings":{}}')))).toBe(
      "DUPLICATE_REQUEST_ID",
    );
    expect(code(one(send(world("e6"))))).toBe("NOT_HANDSHAKEN");
    const ok = one(
      send(
        '{"type":"hello","id":"e7","protocol_versions":["9","1"],"settings":{"srk.x":{"deep":[1,null,"s"]},"y":false}}',
      ),
    );
    expect(ok.ok && (ok.result as { protocol_version: string }).protocol_version).toBe("1");
    expect(code(one(send('{"type":"hello","id":"e8","protocol_versions":["9"],"settings":[]}')))).toBe("BAD_REQUEST");
  });
});

describe("G-18: INTERNAL is definite iff no durable write began", () => {
  /** An engine on volatile storage whose durable writes fail. */
  const failingEngine = (): Engine => {
    const engine = openEngine({});
    const storage = (engine as unknown as { storage: { commit: () => void; reset: () => void } }).storage;
    storage.commit = () => {
      throw new Error("disk full");
    };
    storage.reset = () => {
      throw new Error("disk full");
    };
    return engine;
  };

  it("a failing commit and a failing reset are INTERNAL with definite false", () => {
    const server = new WireServer(failingEngine());
    const line = (s: string): Reply | null => server.handle({ kind: "line", bytes: Buffer.from(s) });
    expect(line('{"type":"hello","id":"h","protocol_versions":["1"],"settings":{}}')?.ok).toBe(true);
    const c = line(JSON.stringify({ type: "command", id: "c", command: f.mint(1, "root-int") }));
    expect(c?.ok === false && [c.error.code, c.error.definite]).toEqual(["INTERNAL", false]);
    const r = line('{"type":"reset","id":"r"}');
    expect(r?.ok === false && [r.error.code, r.error.definite]).toEqual(["INTERNAL", false]);
  });

  it("a handler failing before the commit is INTERNAL with definite true, and the state is the committed one", () => {
    const engine = openEngine({});
    const server = new WireServer(engine);
    const line = (s: string): Reply | null => server.handle({ kind: "line", bytes: Buffer.from(s) });
    expect(line('{"type":"hello","id":"h","protocol_versions":["1"],"settings":{}}')?.ok).toBe(true);
    // A command object whose `op` getter throws reaches the handler as a bug would: before any write.
    const bomb = {
      get op(): string {
        throw new Error("handler bug");
      },
    };
    const out = engine.apply(bomb);
    expect(!out.ok && [out.error.code, out.error.definite]).toEqual(["INTERNAL", true]);
    expect(engine.worldView().agents).toEqual([]);
  });

  it("a failure caught outside the request's handling is INTERNAL, definite false, id null", () => {
    const server = new WireServer(openEngine({}));
    // A frame whose length cannot be read fails while the reply is being built, outside any request.
    const r = server.handle({
      kind: "too_long",
      get length(): number {
        throw new Error("framer bug");
      },
    } as never);
    expect(r?.ok === false && [r.error.code, r.error.definite, r.id]).toEqual(["INTERNAL", false, null]);
  });
});
