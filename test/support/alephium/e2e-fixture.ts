/**
 * What the Alephium end-to-end tests share: test pools, an engine with the test timings, hashing test
 * miners and a port of the blake3 category, each closed in reverse order by `closeAll` (afterEach).
 */
import type { Port } from "../../../appliance/domain/port.ts";
import { makeEngine, makePort, type TestEngine } from "../stratum/port-fixture.ts";
import { TestAlphMiner, type TestAlphMinerOptions } from "./test-miner.ts";
import { TestAlphPool, type TestAlphPoolOptions } from "./test-pool.ts";

const cleanup: Array<() => Promise<void> | void> = [];

export async function closeAll(): Promise<void> {
  for (const c of cleanup.splice(0).reverse()) await c();
}

export function pool(opts: TestAlphPoolOptions = {}): TestAlphPool {
  const p = TestAlphPool.start(opts);
  cleanup.push(() => p.stop());
  return p;
}

/** Miners and pools hash on this one thread: a test machine's connect and job timeouts. */
export function engine(): TestEngine {
  const t = makeEngine({ connectTimeoutMs: 10_000, jobTimeoutMs: 30_000 });
  cleanup.push(() => t.engine.shutdown());
  return t;
}

export function miner(port: number, opts: Omit<TestAlphMinerOptions, "port">): TestAlphMiner {
  const m = TestAlphMiner.start({ port, ...opts });
  cleanup.push(() => m.stop());
  return m;
}

export const alphPort = (over: Parameters<typeof makePort>[0]): Port =>
  makePort({ currency: "ALPH", category: "blake3", ...over });

/** Accepted shares of a worker at a pool. */
export const sharesOf = (p: TestAlphPool, worker: string): number => p.workers.get(worker)?.shares ?? 0;
