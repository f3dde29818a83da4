import { describe, expect, it } from "vitest";
import { StageName } from "./certificate.ts";
import { COMMAND_OP_NAMES, STAGES } from "./names.ts";
import { COMMAND_OPS } from "./schemas/commands.ts";

describe("spec/names.ts, the zod-free lists", () => {
  it("COMMAND_OP_NAMES are the Command schema's ops, in the order of its union", () => {
    expect([...COMMAND_OP_NAMES]).toEqual([...COMMAND_OPS]);
  });
  it("STAGES are the certificate schema's stage names", () => {
    expect(StageName.options).toEqual([...STAGES]);
    expect(StageName.safeParse("exploration").success).toBe(false);
  });
});
