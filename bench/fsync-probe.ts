/**
 * A child process for bench/durable.ts: opens the implementation on a fresh data directory,
 * mints one agent and applies `count` accepted `ripa.task_start` commands, then exits. Run twice
 * under `strace -c` (count 0 and count K), the difference of the system-call counts divided by K
 * is what one accepted command costs the filesystem.
 *
 *   node --import tsx bench/fsync-probe.ts <data dir> <count>
 */
import { openImplementation } from "../impl/api.ts";
import { LineageBuilder, must } from "./lineage.ts";

const [dir, countText] = process.argv.slice(2);
const count = Number(countText);
if (dir === undefined || !Number.isSafeInteger(count) || count < 0) {
  process.stderr.write("usage: fsync-probe.ts <data dir> <count>\n");
  process.exit(64);
}
const impl = openImplementation({ dataDir: dir });
const apply = (c: Parameters<typeof impl.apply>[0]) => impl.apply(c);
const b = LineageBuilder.mint(apply);
for (let i = 0; i < count; i++) must(apply, b.taskStartCommand());
impl.close();
