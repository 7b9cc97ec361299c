/** Pools, engines and miners for the Kaspa e2e tests, each closed after its test. */
import { afterEach } from "bun:test";
import { feeWallet, makeEngine, makePort, type TestEngine } from "../stratum/port-fixture.ts";
import { TestKaspaMiner, type TestKaspaMinerOptions } from "./test-miner.ts";
import { TestKaspaPool, type TestKaspaPoolOptions } from "./test-pool.ts";

export { feeWallet };

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

export function pool(opts: TestKaspaPoolOptions = {}): TestKaspaPool {
  const p = TestKaspaPool.start(opts);
  cleanup.push(() => p.stop());
  return p;
}

/** Miners and pools hash on this one thread: timeouts are a test machine's, not a farm's. */
export function engine(): TestEngine {
  const t = makeEngine({ connectTimeoutMs: 10_000, jobTimeoutMs: 30_000 });
  cleanup.push(() => t.engine.shutdown());
  return t;
}

export function miner(port: number, opts: Omit<TestKaspaMinerOptions, "port">): TestKaspaMiner {
  const m = TestKaspaMiner.start({ port, ...opts });
  cleanup.push(() => m.stop());
  return m;
}

export const kasPort = (over: Parameters<typeof makePort>[0]) =>
  makePort({ currency: "KAS", category: "kheavyhash", ...over });
