/** Adapts the transport client to the scenario's Driver, and small data-directory helpers. */
import { mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WireClient } from "../../conformance/transport/client.ts";
import type { Driver, Outcome } from "./scenario.ts";

export const wireDriver = (c: WireClient): Driver => ({
  apply: async (command) => {
    const r = await c.request({ type: "command", command });
    return (r.ok ? { ok: true, events: r.events } : { ok: false, error: r.error }) as Outcome;
  },
  world: () => c.world(),
});

export const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

/** Every file under a directory, recursively, with its bytes. */
export const filesUnder = (dir: string): { path: string; bytes: Buffer }[] =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [{ path: p, bytes: readFileSync(p) }];
  });

/** Does any file under `dir` contain `text` (as UTF-8 bytes, or JSON-escaped)? */
export const dirContains = (dir: string, text: string): boolean => {
  const needles = [Buffer.from(text, "utf8"), Buffer.from(JSON.stringify(text).slice(1, -1), "utf8")];
  return filesUnder(dir).some((f) => needles.some((n) => f.bytes.includes(n)));
};
