/**
 * `make bench`: every benchmark in its own process (so one's memory and sockets do not skew the next),
 * in sequence, each bounded in time. Figures and budgets are recorded in docs/benchmarks.md.
 * Usage: bun bench/run.ts [name-filter]
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
/** a script and its arguments; the other families run one per process, as the Bitcoin one does */
const BENCHES = [
  "bench/ui-size.ts",
  "bench/api/port-list.ts",
  "bench/api/device-list.ts",
  "bench/api/cold-start.ts",
  "bench/api/hostile-latency.ts",
  "bench/engine/index.ts",
  // objects the proxy makes per login, share and job (the garbage behind the memory figures)
  "bench/engine/allocations.ts Pool",
  "bench/engine/allocations.ts Efficient",
  "bench/engine/fee-matrix.ts",
  "bench/engine/fee-sockets.ts",
  "bench/engine/family.ts ethereum",
  "bench/engine/family.ts cryptonote",
  "bench/engine/family.ts kaspa",
  "bench/engine/family.ts alephium",
  "bench/engine/family.ts equihash",
  "bench/engine/family.ts kawpow",
  "bench/engine/family.ts passthrough",
  // objects a pool job makes per miner in each family's Efficient mode (a pool session per miner)
  "bench/engine/family-allocations.ts",
  "bench/tunnel/wire-bytes.ts",
  "bench/tunnel/wire-bytes.ts 100 40 0",
  // 1,000 miners at a farm's pace through RMS3 and its batch window: Pool mode at 500 ms, Efficient at 1 s
  "bench/tunnel/wire-bytes.ts 1000 6 2 1 tcp,rms3 500 Pool",
  "bench/tunnel/wire-bytes.ts 1000 6 2 1 tcp,rms3 1000 Efficient",
  "bench/tunnel/share-bytes.ts",
  "bench/tunnel/share-latency.ts",
  "bench/tunnel/template-memory.ts",
  "bench/poolnode/ledger.ts",
];
const LIMIT_MS = 10 * 60_000;

const filter = process.argv[2] ?? "";
let failed = 0;
for (const bench of BENCHES) {
  if (!bench.includes(filter)) continue;
  const [rel = "", ...args] = bench.split(" ");
  if (!existsSync(join(ROOT, rel))) {
    console.log(`\n== ${rel}: not present, skipped`);
    continue;
  }
  console.log(`\n== ${bench}`);
  const proc = Bun.spawn([process.execPath, join(ROOT, rel), ...args], {
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  });
  const timer = setTimeout(() => proc.kill("SIGKILL"), LIMIT_MS);
  const code = await proc.exited;
  clearTimeout(timer);
  if (code !== 0) {
    failed++;
    console.log(`== ${bench} exited with ${code}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
