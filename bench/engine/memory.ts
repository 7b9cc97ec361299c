/**
 * The memory scenario alone (docs/benchmarks.md): memory per miner for one mode and fleet size.
 * Usage: bun bench/engine/memory.ts [Pool|Efficient|bare] [miners=10000]
 * With SNAP=/path/name, the proxy writes heap snapshots name-a.json (200 miners) and name-b.json (all),
 * whose difference per miner shows which objects a miner costs.
 */
import { type MemoryResult, memoryPerMiner } from "./scenarios.ts";

const modes: Record<string, MemoryResult["mode"]> = {
  Pool: "Pool",
  Efficient: "Efficient",
  bare: "bare Bun socket server",
};
const mode = modes[process.argv[2] ?? "Pool"];
if (mode === undefined) throw new Error(`mode must be one of ${Object.keys(modes).join(", ")}`);
console.log(JSON.stringify(await memoryPerMiner(mode, Number(process.argv[3] ?? 10_000))));
