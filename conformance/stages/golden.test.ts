/**
 * The golden stage by profile (W-5.2, D-034, W-9.1), through `srk golden` against the kit's
 * implementation declaring a smaller profile (`impl/main.ts --families`): a command session is
 * replayed only where every operation it uses may be sent, the wire session whole to a profile
 * that declares a family and in part to the empty one. So `srk golden` is a real check for every
 * profile: the empty profile replays the wire lines that need no family and passes, and an
 * advaita-only implementation is sent no ripa operation (the wire session once sent
 * ripa.task_start, failing every profile without ripa).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Family } from "../oracle/families.ts";
import { runGolden } from "../cli/golden.ts";
import { opsOutside, sessionOps, wireStepsFor } from "../golden/applicability.ts";
import { readGolden } from "../golden/replay.ts";
import { GOLDEN_SESSIONS, goldenPath } from "../golden/session.ts";
import { readWireSession, WIRE_SESSION_PATH } from "../golden/wire-session.ts";
import { REPO_ROOT } from "../transport/local.ts";

const wire = readWireSession(readFileSync(join(REPO_ROOT, WIRE_SESSION_PATH), "utf8"));
const kitAs = (families: readonly Family[]): string =>
  `${process.execPath} --import tsx ${join(REPO_ROOT, "impl", "main.ts")} --families=${families.join(",")}`;
const applicable = (families: readonly Family[]) =>
  GOLDEN_SESSIONS.filter(
    (g) => opsOutside(sessionOps(readGolden(join(REPO_ROOT, goldenPath(g)))), families).length === 0,
  );

describe("srk golden by profile", () => {
  it("the empty profile: no command session, the wire lines that need no family, and a pass (exit 0)", async () => {
    expect(applicable([])).toEqual([]);
    const sent = wireStepsFor(wire, []);
    const r = await runGolden(kitAs([]));
    expect(r.text).toMatch(/^golden: pass — 1 golden session\(s\), every reply as expected\n/);
    for (const g of GOLDEN_SESSIONS)
      expect(r.text).toContain(`  ${g.name}: not applicable, it uses operations outside the profile (`);
    expect(r.text).toContain(
      `  wire-session: ${sent.length} of its ${wire.length} lines, those the profile may be sent; the other ${wire.length - sent.length} send advaita.mint`,
    );
    expect(r.exitCode, r.text).toBe(0);
  }, 120_000);

  it("advaita alone: the whole wire session (its only operation is the bootstrap mint) and only the sessions its operations allow, a pass", async () => {
    const sessions = applicable(["advaita"]);
    const r = await runGolden(kitAs(["advaita"]));
    expect(r.text).toMatch(
      new RegExp(`^golden: pass — ${sessions.length + 1} golden session\\(s\\), every reply as expected\\n`),
    );
    expect(r.text).not.toContain("wire-session:");
    for (const g of GOLDEN_SESSIONS.filter((x) => !sessions.includes(x)))
      expect(r.text).toContain(`  ${g.name}: not applicable`);
    expect(r.exitCode, r.text).toBe(0);
  }, 120_000);
});
