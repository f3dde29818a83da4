/**
 * The implementation's command line, as the user gives it to `--impl "<command line>"`: split into
 * argv with shell quoting rules (the shell-quote library, never `shell: true`), `{data_dir}`
 * replaced by the data directory, or `--data-dir DIR` appended when the placeholder is absent
 * (issue #7; spec/wire/PROTOCOL.md W-1.1).
 */
import { parse } from "shell-quote";
import type { SpawnSpec } from "../transport/process.ts";

export class UsageError extends Error {
  override readonly name: string = "UsageError";
}

export const DATA_DIR_PLACEHOLDER = "{data_dir}";

/** Splits a command line into argv. Shell operators, globs and comments are refused, not run. */
export const splitCommandLine = (line: string): string[] => {
  const parts = parse(line, (name) => process.env[name] ?? "");
  const argv: string[] = [];
  for (const p of parts) {
    if (typeof p === "string") argv.push(p);
    else if ("op" in p && p.op === "glob") argv.push(p.pattern);
    else
      throw new UsageError(
        `--impl: "${line}" contains a shell construct (${JSON.stringify(p)}); give one program and its arguments (wrap pipelines in a script)`,
      );
  }
  if (argv.length === 0) throw new UsageError("--impl: the command line is empty");
  return argv;
};

/** The spawn spec for `commandLine` with its data directory. */
export const implSpawnSpec = (commandLine: string, dataDir: string, cwd = process.cwd()): SpawnSpec => {
  const argv = splitCommandLine(commandLine);
  const substituted = argv.map((a) => a.split(DATA_DIR_PLACEHOLDER).join(dataDir));
  const hasPlaceholder = argv.some((a) => a.includes(DATA_DIR_PLACEHOLDER));
  const full = hasPlaceholder ? substituted : [...substituted, "--data-dir", dataDir];
  const [command, ...args] = full;
  if (command === undefined) throw new UsageError("--impl: the command line is empty");
  return { command, args, cwd };
};
