/**
 * Engine benchmarks for `make bench` (bench/run.ts calls runEngineBenchmarks). Run alone with
 * `node_modules/.bin/bun bench/engine/index.ts`. Bounded: about 3.5 minutes on 2 cores, most of it
 * the memory scenarios with their baselines.
 */
import {
  addedLatency,
  type FeeResult,
  feeAccuracy,
  type LatencyResult,
  type MemoryMode,
  type MemoryResult,
  memoryPerMiner,
  sharesPerSecond,
  type ThroughputResult,
} from "./scenarios.ts";
import type { StallSummary } from "./stall-meter.ts";

export interface EngineBenchmarks {
  memory: MemoryResult[];
  latency: LatencyResult[];
  throughput: ThroughputResult[];
  fee: FeeResult;
  /** the same figures as a markdown table */
  markdown: string;
}

const memoryRowName = (m: MemoryResult): string => {
  if (m.mode === "Pool" || m.mode === "Efficient")
    return `memory per miner, ${m.mode} mode, ${m.miners} miners`;
  const what =
    m.mode === "bare Bun relay"
      ? "bare Bun relay (two sockets a miner, as in Efficient mode)"
      : "bare Bun socket server (one socket a miner, as in Pool mode)";
  const held = m.stateBytes > 0 ? `, holding ${m.stateBytes} B of objects a connection` : "";
  return `memory per miner, baseline: ${what}${held}, ${m.miners} miners`;
};
const stallText = (s: StallSummary): string =>
  `proxy stalled over 1 ms ${s.stalls} times in ${s.ticks} ticks of 5 ms (max ${s.maxMs} ms): of those ${s.stalledWallMs} ms, ` +
  (s.onCpuMs === null
    ? "no scheduler statistics"
    : `${s.onCpuMs} ms on a CPU, ${s.waitingForCpuMs} ms waiting for one`);

export async function runEngineBenchmarks(
  log: (line: string) => void = console.log,
): Promise<EngineBenchmarks> {
  const memory: MemoryResult[] = [];
  const measure = async (mode: MemoryMode, miners: number, stateBytes = 0): Promise<MemoryResult> => {
    const m = await memoryPerMiner(mode, miners, stateBytes);
    log(`memory ${mode}: ${JSON.stringify(m)}`);
    memory.push(m);
    return m;
  };
  // Each mode beside Bun alone: the bare baseline, then the baseline holding the proxy's live heap
  // per miner in long-lived objects and nothing else (what the runtime would take for that heap).
  // Pool mode holds one socket per miner, Efficient two: 9,000 keeps those under 20,000 descriptors.
  const server = await measure("bare Bun socket server", 10_000);
  const pool = await measure("Pool", 10_000);
  await measure(
    "bare Bun socket server",
    10_000,
    Math.max(0, pool.heapBytesPerMiner - server.heapBytesPerMiner),
  );
  const relay = await measure("bare Bun relay", 9_000);
  const efficient = await measure("Efficient", 9_000);
  await measure("bare Bun relay", 9_000, Math.max(0, efficient.heapBytesPerMiner - relay.heapBytesPerMiner));
  const latency = [await addedLatency(5000, 5000, 1000), await addedLatency(5000, 5000, 30_000)];
  log(`latency: ${JSON.stringify(latency)}`);
  const throughput = [await sharesPerSecond("Efficient"), await sharesPerSecond("Pool")];
  log(`throughput: ${JSON.stringify(throughput)}`);
  const fee = await feeAccuracy(100_000, 0.02);
  log(`fee: ${JSON.stringify(fee)}`);
  const rows = [
    ...memory.map((m) => [
      memoryRowName(m),
      `${(m.bytesPerMiner / 1024).toFixed(2)} KB, live heap ${(m.heapBytesPerMiner / 1024).toFixed(2)} KB (process RSS ${m.rssMiB} MiB)`,
    ]),
    ...latency.map((l) => [
      `added share latency at ${l.sharesPerSecond}/s, a new job every ${l.jobIntervalMs / 1000} s (p50 / p99)`,
      `${l.addedP50} ms / ${l.addedP99} ms (direct ${l.directP50}/${l.directP99}, via proxy ${l.proxyP50}/${l.proxyP99}); ${stallText(l.proxyStalls)}`,
    ]),
    ...throughput.map((t) => [
      `shares per second, one port, ${t.mode}`,
      `${t.proxySharesPerSecond} (straight to the test pool: ${t.directSharesPerSecond})`,
    ]),
    [
      `fee achieved vs configured, ${fee.shares} shares`,
      `${(fee.achievedAtPools * 100).toFixed(4)} % vs ${(fee.configured * 100).toFixed(2)} % (error ${fee.errorPercentagePoints} pp; proxy reports ${(fee.achievedReported * 100).toFixed(4)} %)`,
    ],
  ];
  const markdown = ["| what | measured |", "|---|---|", ...rows.map(([a, b]) => `| ${a} | ${b} |`)].join(
    "\n",
  );
  return { memory, latency, throughput, fee, markdown };
}

if (import.meta.main) {
  const r = await runEngineBenchmarks();
  console.log(r.markdown);
  process.exit(0);
}
