/**
 * A smaller profile (impl/main.ts --families, D-049): hello declares exactly the families given,
 * a well-formed command of another family is refused UNSUPPORTED, and a malformed one is still
 * MALFORMED (W-2.3 comes first, whatever the op's family). The bootstrap advaita.mint is always served.
 */
import { describe, expect, it } from "vitest";
import { MAX_LINE_BYTES, type Reply } from "../../spec/wire/index.ts";
import type { Family } from "../../spec/profiles.ts";
import { openEngine } from "../api.ts";
import { LineFramer } from "../wire/framing.ts";
import { WireServer } from "../wire/server.ts";
import * as f from "./fixtures.ts";

const serve = (families?: readonly Family[]): { hello: Reply; send: (o: unknown) => Reply } => {
  const server = new WireServer(openEngine({}), ...(families === undefined ? [] : [families]));
  const framer = new LineFramer(MAX_LINE_BYTES);
  const line = (text: string): Reply => {
    const replies = framer
      .push(Buffer.from(`${text}\n`))
      .map((fr) => server.handle(fr))
      .filter((r): r is Reply => r !== null);
    expect(replies).toHaveLength(1);
    return replies[0] as Reply;
  };
  const hello = line('{"type":"hello","id":"h","protocol_versions":["1"],"settings":{}}');
  return { hello, send: (o) => line(JSON.stringify(o)) };
};
const familiesOf = (r: Reply): unknown =>
  r.ok ? (r.result as { profile: { families: unknown } }).profile.families : null;
const codeOf = (r: Reply): string => (r.ok ? "ok" : r.error.code);

describe("a smaller profile (D-049)", () => {
  it("declares all four families by default and exactly those given otherwise, in catalog order", () => {
    expect(familiesOf(serve().hello)).toEqual(["janma", "samskara", "advaita", "ripa"]);
    expect(familiesOf(serve(["advaita"]).hello)).toEqual(["advaita"]);
    expect(familiesOf(serve([]).hello)).toEqual([]);
  });

  it("serves the bootstrap and its own families; refuses a well-formed command of another family with UNSUPPORTED, naming the family", () => {
    const { send } = serve(["advaita"]);
    expect(codeOf(send({ type: "command", id: "m", command: f.mint(1, "r-1") }))).toBe("ok");
    const life: f.Life = {
      agent: f.identityOfRoot("r-1"),
      instance_id: "i-1",
      nonce: "n-1",
      manifest: f.manifest(f.genesisOf("r-1")),
    };
    const conceive = send({ type: "command", id: "c", command: f.conceive(2, life) });
    expect(codeOf(conceive)).toBe("UNSUPPORTED");
    expect(conceive.ok ? "" : conceive.error.message).toMatch(/janma\.conceive belongs to the janma family/);
    // The same command with every family declared is served (the boundary: the refusal is the profile's).
    const full = serve();
    expect(codeOf(full.send({ type: "command", id: "m", command: f.mint(1, "r-1") }))).toBe("ok");
    expect(codeOf(full.send({ type: "command", id: "c", command: f.conceive(2, life) }))).toBe("ok");
  });

  it("a command of an undeclared family that fails the Command schema is MALFORMED, as W-2.3 says for every op", () => {
    const { send } = serve(["advaita"]);
    expect(
      codeOf(
        send({
          type: "command",
          id: "t",
          command: { op: "ripa.task_start", tick: "soon", agent: `sha256:${"0".repeat(64)}`, task_id: "task-1" },
        }),
      ),
    ).toBe("MALFORMED");
  });
});
