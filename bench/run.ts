/**
 * `make bench`: every benchmark in its own process (so one's memory and sockets do not skew the next),
 * in sequence, each bounded in time. Figures and budgets are recorded in docs/benchmarks.md.
 * Usage: bun bench/run.ts [name-filter]
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const BENCHES = [
  "bench/ui-size.ts",
  "bench/api/port-list.ts",
  "bench/api/device-list.ts",
  "bench/api/cold-start.ts",
  "bench/engine/index.ts",
  "bench/engine/fee-matrix.ts",
];
const LIMIT_MS = 10 * 60_000;

const filter = process.argv[2] ?? "";
let failed = 0;
for (const rel of BENCHES) {
  if (!rel.includes(filter)) continue;
  if (!existsSync(join(ROOT, rel))) {
    console.log(`\n== ${rel}: not present, skipped`);
    continue;
  }
  console.log(`\n== ${rel}`);
  const proc = Bun.spawn([process.execPath, join(ROOT, rel)], {
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  });
  const timer = setTimeout(() => proc.kill("SIGKILL"), LIMIT_MS);
  const code = await proc.exited;
  clearTimeout(timer);
  if (code !== 0) {
    failed++;
    console.log(`== ${rel} exited with ${code}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
