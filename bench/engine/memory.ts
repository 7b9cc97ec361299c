/**
 * The memory scenario alone (docs/benchmarks.md): memory per miner for one mode and fleet size.
 * Usage: bun bench/engine/memory.ts [Pool|Efficient|bare|relay] [miners=10000] [stateBytes=0]
 * `bare` and `relay` are Bun's baselines (bare-child.ts), holding stateBytes of JavaScript per
 * connection. With SNAP=/path/name, the proxy writes heap snapshots name-a.json (200 miners) and
 * name-b.json (all), whose difference per miner shows which objects a miner costs.
 */
import { type MemoryMode, memoryPerMiner } from "./scenarios.ts";

const modes: Record<string, MemoryMode> = {
  Pool: "Pool",
  Efficient: "Efficient",
  bare: "bare Bun socket server",
  relay: "bare Bun relay",
};
const mode = modes[process.argv[2] ?? "Pool"];
if (mode === undefined) throw new Error(`mode must be one of ${Object.keys(modes).join(", ")}`);
const result = await memoryPerMiner(mode, Number(process.argv[3] ?? 10_000), Number(process.argv[4] ?? 0));
console.log(JSON.stringify(result));
