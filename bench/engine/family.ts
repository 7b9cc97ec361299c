/**
 * The engine budgets for the protocol families other than Bitcoin (whose figures come from
 * index.ts): for each family named on the command line, or every kit when none is, memory per miner
 * and the added share round trip in each mode the catalogue offers it, and the fee at the pools in
 * Efficient mode. A kit whose family is not registered in engine/stratum/families.ts is skipped.
 * `node_modules/.bin/bun bench/engine/family.ts [--memory] [ethereum] [cryptonote]` (`--memory`: the
 * memory scenarios alone); bench/run.ts runs one family per process.
 */
import { feeSupported, isCategory, modesOf } from "../../appliance/catalog/categories.ts";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { IMPLEMENTED } from "../../appliance/engine/stratum/families.ts";
import type { FamilyKit } from "./family-kit.ts";
import {
  type BenchMode,
  type FamilyFee,
  type FamilyLatency,
  type FamilyMemory,
  familyFee,
  familyLatency,
  familyMemory,
} from "./family-scenarios.ts";
import { ALEPHIUM_KIT } from "./kit-alephium.ts";
import { CRYPTONOTE_KIT } from "./kit-cryptonote.ts";
import { EQUIHASH_KIT } from "./kit-equihash.ts";
import { ETHEREUM_KIT } from "./kit-ethereum.ts";
import { KASPA_KIT } from "./kit-kaspa.ts";
import { KAWPOW_KIT } from "./kit-kawpow.ts";
import { PASSTHROUGH_KIT } from "./kit-passthrough.ts";

export const KITS: FamilyKit[] = [
  ETHEREUM_KIT,
  CRYPTONOTE_KIT,
  ALEPHIUM_KIT,
  EQUIHASH_KIT,
  KAWPOW_KIT,
  PASSTHROUGH_KIT,
  KASPA_KIT,
];
/** Pool mode holds one socket per miner, Efficient two; 9,000 keeps Efficient under 20,000 descriptors. */
const MINERS: Record<BenchMode, number> = { Pool: 10_000, Efficient: 9_000 };
/** a scenario that has not finished by then is stuck (a miner never got a job): give up on it */
const SCENARIO_LIMIT_MS = 150_000;

export interface FamilyBenchmarks {
  kit: FamilyKit;
  memory: FamilyMemory[];
  latency: FamilyLatency[];
  fee: FamilyFee | null;
}

function bounded<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no result in ${SCENARIO_LIMIT_MS / 1000} s`)),
      SCENARIO_LIMIT_MS,
    );
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

function modes(kit: FamilyKit): BenchMode[] {
  const offered = isCategory(kit.category) ? modesOf(kit.category) : [];
  const out: BenchMode[] = [];
  if (offered.includes(ProxyMode.POOL)) out.push("Pool");
  if (offered.includes(ProxyMode.EFFICIENT)) out.push("Efficient");
  return out;
}

export async function runFamily(
  kit: FamilyKit,
  log: (line: string) => void,
  memoryOnly = false,
): Promise<FamilyBenchmarks> {
  const r: FamilyBenchmarks = { kit, memory: [], latency: [], fee: null };
  for (const mode of modes(kit)) {
    const t0 = performance.now();
    r.memory.push(await bounded(`${kit.family} memory ${mode}`, familyMemory(kit, mode, MINERS[mode])));
    log(`${kit.family} memory ${mode} (${secs(t0)} s): ${JSON.stringify(r.memory.at(-1))}`);
    if (memoryOnly) continue;
    const t1 = performance.now();
    r.latency.push(await bounded(`${kit.family} latency ${mode}`, familyLatency(kit, mode)));
    log(`${kit.family} latency ${mode} (${secs(t1)} s): ${JSON.stringify(r.latency.at(-1))}`);
  }
  // a family without fee (the pass-through relay) has no fee to measure
  if (
    !memoryOnly &&
    modes(kit).includes("Efficient") &&
    isCategory(kit.category) &&
    feeSupported(kit.category)
  ) {
    const t2 = performance.now();
    r.fee = await bounded(`${kit.family} fee`, familyFee(kit, "Efficient"));
    log(`${kit.family} fee Efficient (${secs(t2)} s): ${JSON.stringify(r.fee)}`);
  }
  return r;
}

const secs = (t0: number): string => ((performance.now() - t0) / 1000).toFixed(0);

export function markdown(r: FamilyBenchmarks): string {
  const rows: string[][] = [
    ...r.memory.map((m) => [
      `memory per miner, ${m.mode} mode, ${m.miners} miners`,
      `${(m.bytesPerMiner / 1024).toFixed(2)} KB, live heap ${(m.heapBytesPerMiner / 1024).toFixed(2)} KB (proxy RSS ${m.rssMiB} MiB)`,
    ]),
    ...r.latency.map((l) => [
      `added share round trip at ${l.sharesPerSecond}/s, ${l.mode} (p50 / p99)`,
      `${l.addedP50} / ${l.addedP99} ms (direct ${l.directP50}/${l.directP99}, via proxy ${l.proxyP50}/${l.proxyP99}; ${l.accepted} of ${l.answered} accepted)`,
    ]),
  ];
  if (r.fee !== null)
    rows.push([
      `fee achieved vs configured, ${r.fee.mode}, ${r.fee.shares} shares`,
      `${(r.fee.achievedAtPools * 100).toFixed(4)} % vs ${(r.fee.configured * 100).toFixed(2)} % (error ${r.fee.errorPercentagePoints} pp; proxy reports ${(r.fee.achievedReported * 100).toFixed(4)} %)`,
    ]);
  return [
    `${r.kit.label}:`,
    "",
    "| what | measured |",
    "|---|---|",
    ...rows.map(([a, b]) => `| ${a} | ${b} |`),
  ].join("\n");
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const memoryOnly = args.includes("--memory");
  const names = args.filter((a) => a !== "--memory");
  const started = performance.now();
  for (const kit of KITS) {
    if (names.length > 0 && !names.includes(kit.family)) continue;
    if (IMPLEMENTED[kit.family] === undefined) {
      console.log(`${kit.family}: not registered in engine/stratum/families.ts, skipped`);
      continue;
    }
    try {
      const r = await runFamily(kit, console.log, memoryOnly);
      console.log(markdown(r));
    } catch (e) {
      // a stuck scenario leaves its sockets and proxy child open, which would keep this process alive
      console.error(`${kit.family}: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    }
  }
  console.log(`load average ${(await Bun.file("/proc/loadavg").text()).trim()}; ${secs(started)} s in all`);
  process.exit(0);
}
