/**
 * What the KawPow end-to-end tests share: test pools, an engine with the test timings, hashing test
 * miners and a port of the kawpow category, each closed in reverse order by `closeAll` (afterEach).
 */
import type { Port } from "../../../appliance/domain/port.ts";
import { makeEngine, makePort, type TestEngine } from "../stratum/port-fixture.ts";
import { TestKawMiner, type TestKawMinerOptions } from "./test-miner.ts";
import { TestKawPool, type TestKawPoolOptions } from "./test-pool.ts";

const cleanup: Array<() => Promise<void> | void> = [];

export async function closeAll(): Promise<void> {
  for (const c of cleanup.splice(0).reverse()) await c();
}

export async function pool(opts: TestKawPoolOptions = {}): Promise<TestKawPool> {
  const p = await TestKawPool.start(opts);
  cleanup.push(() => p.stop());
  return p;
}

export function engine(): TestEngine {
  const t = makeEngine();
  cleanup.push(() => t.engine.shutdown());
  return t;
}

export function miner(port: number, opts: Omit<TestKawMinerOptions, "port">): TestKawMiner {
  const m = TestKawMiner.start({ port, ...opts });
  cleanup.push(() => m.stop());
  return m;
}

export const kawPort = (over: Parameters<typeof makePort>[0]): Port =>
  makePort({ currency: "RVN", category: "kawpow", ...over });
