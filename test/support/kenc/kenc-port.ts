/**
 * A port keyed by the operator's KENC key on a test engine, in front of a test pool: by default a
 * KENC port (spec §4: SSL with et_mode 1); `over` makes it an RMS tunnel port instead.
 */
import type { EngineDeps, EngineTiming } from "../../../appliance/domain/engine.ts";
import { ListenProtocol, type Port } from "../../../appliance/domain/port.ts";
import { makeEngine, makePort } from "../stratum/port-fixture.ts";
import { TestPool } from "../stratum/test-pool.ts";

/**
 * Starts the pool, the engine (whose KENC key `setKey` changes; `more.rms`: the RMS settings its
 * tunnel ports hand out) and the port; what must be stopped afterwards goes to `cleanup`.
 * `more.poolJobIntervalMs`: the pool's own new-job timer (the test pool's default, a job a second;
 * 0 when the caller sends the jobs, as the tunnel benches do at a farm's pace); `more.timing`: the
 * engine's (the tests' short ones by default, whose 5-s job timeout a farm's pace would trip).
 */
export async function startKencPort(
  cleanup: Array<() => Promise<void> | void>,
  key: string,
  wallets: Port["wallets"] = [],
  over: Partial<Pick<Port, "protocol" | "mode" | "proxy_addr" | "proxy_device" | "limit_connections">> & {
    setting?: Partial<Port["setting"]>;
  } = {
    protocol: ListenProtocol.SSL,
    setting: { et_mode: 1 },
  },
  more: Pick<EngineDeps, "rms"> & { poolJobIntervalMs?: number; timing?: Partial<EngineTiming> } = {},
) {
  const { poolJobIntervalMs, timing, ...rms } = more;
  const pool = await TestPool.start({
    difficulty: 2e-8,
    extranonce2Size: 8,
    ...(poolJobIntervalMs === undefined ? {} : { jobIntervalMs: poolJobIntervalMs }),
  });
  let kencKey = key;
  const t = makeEngine(timing, { kencKey: () => kencKey, ...rms });
  cleanup.push(
    () => pool.stop(),
    () => t.engine.shutdown(),
  );
  const port = makePort({
    pool_address: pool.address,
    wallets,
    ...over,
  });
  const listen = await t.start(port);
  return {
    pool,
    t,
    port,
    listen,
    setKey: (k: string) => {
      kencKey = k;
    },
  };
}
