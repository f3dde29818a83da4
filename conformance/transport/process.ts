/**
 * An implementation under test as a child process: stdin for requests, stdout split into lines
 * (protocol messages only), stderr captured separately, and its exit observed (crash cuts).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";

export interface SpawnSpec {
  /** Executable, e.g. process.execPath or "npx". */
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A line longer than this on stdout is a protocol violation (replies carry at most a world view). */
const MAX_REPLY_BYTES = 64 * 1024 * 1024;

export class ImplementationProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private stdoutParts: Buffer[] = [];
  private stdoutSize = 0;
  private stderrText = "";
  private exitInfo: ExitInfo | null = null;
  readonly exited: Promise<ExitInfo>;

  constructor(
    readonly spec: SpawnSpec,
    private readonly onLine: (line: string) => void,
    private readonly onExit: (info: ExitInfo) => void,
  ) {
    this.child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdout.on("data", (chunk: Buffer) => this.onStdout(chunk));
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderrText += chunk.toString("utf8");
    });
    // Writing to a dead process must not crash the runner; exit is reported through `exited`.
    this.child.stdin.on("error", () => {});
    this.exited = new Promise((resolve) => {
      this.child.on("exit", (code, signal) => {
        this.exitInfo = { code, signal };
        this.onExit(this.exitInfo);
        resolve(this.exitInfo);
      });
      this.child.on("error", (e) => {
        this.stderrText += `spawn error: ${e.message}\n`;
        if (this.exitInfo === null) {
          this.exitInfo = { code: null, signal: null };
          this.onExit(this.exitInfo);
          resolve(this.exitInfo);
        }
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }
  get stderr(): string {
    return this.stderrText;
  }
  get hasExited(): boolean {
    return this.exitInfo !== null;
  }

  private onStdout(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) {
        this.stdoutParts.push(chunk.subarray(start));
        this.stdoutSize += chunk.length - start;
        if (this.stdoutSize > MAX_REPLY_BYTES) {
          this.stderrText += "transport: reply line exceeds 64 MiB; killing the implementation\n";
          this.kill("SIGKILL");
        }
        return;
      }
      this.stdoutParts.push(chunk.subarray(start, nl));
      const line = Buffer.concat(this.stdoutParts).toString("utf8");
      this.stdoutParts = [];
      this.stdoutSize = 0;
      this.onLine(line);
      start = nl + 1;
    }
  }

  write(data: string | Buffer): void {
    if (!this.hasExited) this.child.stdin.write(data);
  }

  /** Close stdin (an implementation exits on end of input). */
  endInput(): void {
    this.child.stdin.end();
  }

  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    if (!this.hasExited) this.child.kill(signal);
  }
}
