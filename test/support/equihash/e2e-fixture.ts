/**
 * What the Equihash end-to-end tests share: test pools, an engine with the test timings, solving test
 * miners and a port of the equihash category, each closed in reverse order by `closeAll` (afterEach).
 * The port's currency, EQT, is not in the engine's Equihash parameter table (stratum/equihash/
 * params.ts), so the engine checks a solution only against its compactSize length there: the pools
 * and miners use the reduced Equihash parameters of the tests, which no coin has.
 */
import type { Port } from "../../../appliance/domain/port.ts";
import { makeEngine, makePort, type TestEngine } from "../stratum/port-fixture.ts";
import { TestEqMiner, type TestEqMinerOptions } from "./test-miner.ts";
import { TestEqPool, type TestEqPoolOptions } from "./test-pool.ts";

const cleanup: Array<() => Promise<void> | void> = [];

export async function closeAll(): Promise<void> {
  for (const c of cleanup.splice(0).reverse()) await c();
}

export async function pool(opts: TestEqPoolOptions = {}): Promise<TestEqPool> {
  const p = await TestEqPool.start(opts);
  cleanup.push(() => p.stop());
  return p;
}

export function engine(
  extra: Parameters<typeof makeEngine>[1] = {},
  timing: Parameters<typeof makeEngine>[0] = {},
): TestEngine {
  const t = makeEngine(timing, extra);
  cleanup.push(() => t.engine.shutdown());
  return t;
}

export function miner(port: number, opts: Omit<TestEqMinerOptions, "port">): TestEqMiner {
  const m = TestEqMiner.start({ port, ...opts });
  cleanup.push(() => m.stop());
  return m;
}

export const eqPort = (over: Parameters<typeof makePort>[0]): Port =>
  makePort({ currency: "EQT", category: "equihash", ...over });
