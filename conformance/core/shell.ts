/**
 * One word of a command line a person copies into a POSIX shell (the replay commands of a
 * certificate, a log check's output). Quoted by the shell-quote library the runner already uses
 * to parse `--impl` (driver/command-line.ts), so what one side writes the other reads.
 */
import { quote } from "shell-quote";

export const shellWord = (s: string): string => quote([s]);
