/**
 * Engine benchmarks for `make bench` (bench/run.ts calls runEngineBenchmarks). Run alone with
 * `node_modules/.bin/bun bench/engine/index.ts`. Bounded: about a minute and a half on 2 cores.
 */
import {
  addedLatency,
  type FeeResult,
  feeAccuracy,
  type LatencyResult,
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

/** Pool mode holds one socket per miner, Efficient two; 9,000 keeps Efficient under 20,000 descriptors. */
const stallText = (s: StallSummary): string =>
  `proxy stalled over 1 ms ${s.stalls} times in ${s.ticks} ticks of 5 ms (max ${s.maxMs} ms): of those ${s.stalledWallMs} ms, ` +
  (s.onCpuMs === null
    ? "no scheduler statistics"
    : `${s.onCpuMs} ms on a CPU, ${s.waitingForCpuMs} ms waiting for one`);

export async function runEngineBenchmarks(
  log: (line: string) => void = console.log,
): Promise<EngineBenchmarks> {
  const memory: MemoryResult[] = [];
  memory.push(await memoryPerMiner("bare Bun socket server", 10_000));
  log(`memory baseline: ${JSON.stringify(memory[0])}`);
  memory.push(await memoryPerMiner("Pool", 10_000));
  log(`memory Pool: ${JSON.stringify(memory[1])}`);
  memory.push(await memoryPerMiner("Efficient", 9_000));
  log(`memory Efficient: ${JSON.stringify(memory[2])}`);
  const latency = [await addedLatency(5000, 5000, 1000), await addedLatency(5000, 5000, 30_000)];
  log(`latency: ${JSON.stringify(latency)}`);
  const throughput = [await sharesPerSecond("Efficient"), await sharesPerSecond("Pool")];
  log(`throughput: ${JSON.stringify(throughput)}`);
  const fee = await feeAccuracy(100_000, 0.02);
  log(`fee: ${JSON.stringify(fee)}`);
  const rows = [
    ...memory.map((m) => [
      m.mode === "bare Bun socket server"
        ? `memory per connection, bare Bun socket server (baseline), ${m.miners} connections`
        : `memory per miner, ${m.mode} mode, ${m.miners} miners`,
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
