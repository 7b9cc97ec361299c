/**
 * The memory scenario alone (docs/benchmarks.md): memory per miner for one mode and fleet size.
 * Usage: bun bench/engine/memory.ts [Pool|Efficient|bare] [miners=10000]
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
