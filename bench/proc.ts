/**
 * Child processes measured from the outside: wall time, and the peak memory of the whole process
 * tree (a certification spawns implementation processes, `--jobs 2` spawns runner processes),
 * sampled from /proc: every `intervalMs` the resident set sizes (VmRSS) of the child and all its
 * descendants are summed; the peak is the largest sum seen. Where /proc is missing the peak is
 * null and the report says so.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";

export interface MeasuredRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly wallMs: number;
  /** Peak of the summed RSS of the process tree, in bytes; null without /proc. */
  readonly peakRssBytes: number | null;
  /** Largest number of processes seen at once in the tree. */
  readonly peakProcesses: number;
  readonly samples: number;
  readonly stdout: string;
  readonly stderrTail: string;
}

export const PROC_AVAILABLE = existsSync("/proc/self/stat");

/** ppid of every process now (pid → ppid). */
const parents = (): Map<number, number> => {
  const out = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // Field 2 (comm) is in parentheses and may hold spaces; fields after the last ')' are: state ppid …
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(Number(name), Number(rest[1]));
    } catch {
      // the process ended between readdir and read
    }
  }
  return out;
};

const rssBytes = (pid: number): number => {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m === null ? 0 : Number(m[1]) * 1024;
  } catch {
    return 0;
  }
};

/** The summed RSS of `root` and its descendants, and how many processes that is. */
export const treeRss = (root: number): { bytes: number; processes: number } => {
  const pp = parents();
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of pp) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let bytes = 0;
  let processes = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    if (!pp.has(pid)) continue;
    bytes += rssBytes(pid);
    processes++;
    stack.push(...(children.get(pid) ?? []));
  }
  return { bytes, processes };
};

export interface RunOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly intervalMs?: number;
  /** Called with each complete stderr line (progress). */
  readonly onStderrLine?: (line: string) => void;
}

/** Runs `command args` to its end (killing its process group at the timeout), measuring wall time and peak tree RSS. */
export const runMeasured = (command: string, args: readonly string[], o: RunOptions): Promise<MeasuredRun> =>
  new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, [...args], {
      cwd: o.cwd,
      env: o.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    let partial = "";
    let peak = 0;
    let peakProcesses = 0;
    let samples = 0;
    child.stdout.on("data", (b: Buffer) => {
      stdout += b.toString("utf8");
    });
    child.stderr.on("data", (b: Buffer) => {
      const text = partial + b.toString("utf8");
      const lines = text.split("\n");
      partial = lines.pop() ?? "";
      if (o.onStderrLine !== undefined) for (const l of lines) o.onStderrLine(l);
      stderr = (stderr + b.toString("utf8")).slice(-8_000);
    });
    const sample = (): void => {
      if (!PROC_AVAILABLE || child.pid === undefined) return;
      const t = treeRss(child.pid);
      samples++;
      peak = Math.max(peak, t.bytes);
      peakProcesses = Math.max(peakProcesses, t.processes);
    };
    const timer = setInterval(sample, o.intervalMs ?? 100);
    const killer = setTimeout(() => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }, o.timeoutMs);
    child.on("error", (e) => {
      clearInterval(timer);
      clearTimeout(killer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearInterval(timer);
      clearTimeout(killer);
      resolve({
        code,
        signal,
        wallMs: performance.now() - t0,
        peakRssBytes: PROC_AVAILABLE ? peak : null,
        peakProcesses,
        samples,
        stdout,
        stderrTail: stderr.slice(-4_000),
      });
    });
  });
