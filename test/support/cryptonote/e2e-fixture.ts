/**
 * What the CryptoNote end-to-end tests share: verifying test pools on one RandomX seed (a new seed
 * costs a 256 MiB cache fill, so every pool of a test file uses the same key unless a test is about
 * seeds), a port of the randomx category, and cleanup in reverse order.
 */
import type { Port } from "../../../appliance/domain/port.ts";
import { makeEngine, makePort, type TestEngine } from "../stratum/port-fixture.ts";
import { type CryptoNoteMinerOptions, CryptoNoteTestMiner } from "./test-miner.ts";
import { CryptoNoteTestPool, type CryptoNoteTestPoolOptions } from "./test-pool.ts";

/** The RandomX key of every pool unless a test says otherwise. */
export const SEED = "5eed".repeat(16);

/**
 * Pools send a new job this often: the engine's test job timeout is 5 s, and CryptoNote pools (like
 * real ones between blocks) otherwise stay silent after the login's job.
 */
const JOB_INTERVAL_MS = 1_500;

export class CryptoNoteE2E {
  readonly cleanup: Array<() => Promise<void> | void> = [];
  readonly t: TestEngine;

  constructor(timing: Parameters<typeof makeEngine>[0] = {}) {
    this.t = makeEngine(timing);
    this.cleanup.push(() => this.t.engine.shutdown());
  }

  async pool(opts: CryptoNoteTestPoolOptions = {}): Promise<CryptoNoteTestPool> {
    const p = await CryptoNoteTestPool.start({
      difficulty: 4,
      seedHash: SEED,
      jobIntervalMs: JOB_INTERVAL_MS,
      ...opts,
    });
    this.cleanup.push(() => p.stop());
    return p;
  }

  port(over: Parameters<typeof makePort>[0]): Port {
    return makePort({ currency: "XMR", category: "randomx", ...over });
  }

  miner(opts: CryptoNoteMinerOptions): CryptoNoteTestMiner {
    const m = CryptoNoteTestMiner.start(opts);
    this.cleanup.push(() => m.stop());
    return m;
  }

  async close(): Promise<void> {
    for (const c of this.cleanup.splice(0).reverse()) await c();
  }
}
