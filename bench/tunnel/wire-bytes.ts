/**
 * Bytes on the wire per miner-hour: plain stratum vs the RMS2 and RMS3 tunnels (docs/rms-tunnel.md,
 * docs/benchmarks.md "RMS tunnel"). Hashing test miners on an Efficient-mode and on a Pool-mode port
 * in front of the test pool, with a new job every 30 s of farm time and about two shares per miner
 * per job; time runs `speedup` times faster than a farm's. The bytes per job do not depend on it; the
 * bytes per share do, since shares found in one event-loop turn share a tunnel record, so a speedup of
 * 1 is what a farm's uplink carries. A relay in front of the port (plain) or of the tunnel port counts
 * every byte both ways.
 * Usage: bun bench/tunnel/wire-bytes.ts [miners=100] [jobs=40] [shares per miner per job=2]
 *   [speedup=60] [transports=tcp,rms,rms2,rms3] [batch window ms=0] [modes=Efficient,Pool]
 *   (0 shares: what the jobs alone cost)
 */
import { ListenProtocol } from "../../appliance/domain/port.ts";
import { RMS_DEFAULTS } from "../../appliance/domain/rms.ts";
import { DEFAULT_TIMING } from "../../appliance/engine/engine.ts";
import { startKencPort } from "../../test/support/kenc/kenc-port.ts";
import { until } from "../../test/support/stratum/port-fixture.ts";
import { TestMiner } from "../../test/support/stratum/test-miner.ts";
import { localTunnelClient } from "../../test/support/tunnel/local-client.ts";
import { TcpRelay } from "../../test/support/tunnel/tcp-relay.ts";

const MINERS = Number(process.argv[2] ?? 100);
const JOBS = Number(process.argv[3] ?? 40);
const FARM_JOB_S = 30;
const SPEEDUP = Number(process.argv[5] ?? 60);
const TRANSPORTS = (process.argv[6] ?? "tcp,rms,rms2,rms3").split(",");
/** the RMS settings' batch window of the tunnel port (farm ms, not sped up) */
const BATCH_MS = Number(process.argv[7] ?? 0);
const JOB_MS = (FARM_JOB_S * 1000) / SPEEDUP;
/** the test pool's difficulty: 2^32 × 2e-8 ≈ 86 hashes per share */
const HASHES_PER_SHARE = 2 ** 32 * 2e-8;
const SHARES_PER_JOB = Number(process.argv[4] ?? 2);
/** spec §4 connection modes: Efficient 0 (a pool session per miner), Pool 2 (shared sessions) */
const MODES = [
  { name: "Efficient", mode: 0 },
  { name: "Pool", mode: 2 },
].filter((m) => (process.argv[8] ?? "Efficient,Pool").split(",").includes(m.name));
const KEY = "bench tunnel key";

interface Result {
  name: string;
  connections: number;
  bytes: number;
  shares: number;
}

const sum = (parts: Uint8Array[]): number => parts.reduce((n, p) => n + p.length, 0);

async function run(name: string, protocol: number, mode: number): Promise<Result> {
  const cleanup: Array<() => Promise<void> | void> = [];
  // Pool mode logs its shared sessions in as the unified wallet and device name
  // the bench sends the jobs at the farm's pace: the test pool's own timer (a job a second) is off,
  // and the engine waits for a job as long as the product does (the tests' 5 s would redial)
  const { pool, t, port, listen } = await startKencPort(
    cleanup,
    KEY,
    [],
    { protocol, mode, proxy_addr: "wal", proxy_device: "farm" },
    {
      poolJobIntervalMs: 0,
      timing: { jobTimeoutMs: DEFAULT_TIMING.jobTimeoutMs },
      rms: () => ({ ...RMS_DEFAULTS, batch_ms: BATCH_MS }),
    },
  );
  const relay = new TcpRelay(listen);
  cleanup.push(() => relay.stop());
  let minerPort = relay.port;
  if (protocol !== ListenProtocol.TCP) {
    const client = localTunnelClient(cleanup, relay.port, KEY, protocol, {
      log: (m) => console.log(`  client: ${m}`),
    });
    minerPort = client.port;
  }
  // a miner that never finds a share in the run still logs in and gets every job
  const hashesPerSecond = Math.max(0.001, (HASHES_PER_SHARE * SHARES_PER_JOB * 1000) / JOB_MS);
  // each miner hashes one at a time from its own moment on, so that shares arrive as a farm's do,
  // independently, not in bursts of the whole fleet (which would share records no farm shares)
  const miners = Array.from({ length: MINERS }, (_, i) =>
    TestMiner.start({
      port: minerPort,
      user: `wal.rig${i}`,
      hashesPerSecond,
      batch: 1,
      paceOffsetMs: (Math.random() * 1000) / hashesPerSecond,
    }),
  );
  await until(() => t.engine.running(port.id)?.online === MINERS, 50);
  // count from here: logins and the first job are not what a farm pays for every hour
  const startBytes = relay.connections.reduce((n, c) => n + sum(c.up) + sum(c.down), 0);
  const startShares = pool.accepted;
  for (let j = 0; j < JOBS; j++) {
    await Bun.sleep(JOB_MS);
    // a new block every 20 jobs (10 minutes of farm time), a new job on the same block otherwise
    if (j % 20 === 19) pool.newBlock();
    else pool.newJob();
  }
  await Bun.sleep(JOB_MS);
  const bytes = relay.connections.reduce((n, c) => n + sum(c.up) + sum(c.down), 0) - startBytes;
  const shares = pool.accepted - startShares;
  for (const m of miners) m.stop();
  for (const c of cleanup.reverse()) await c();
  return { name, connections: relay.connections.length, bytes, shares };
}

const farmHours = (JOBS * FARM_JOB_S) / 3600;
console.log(
  `${MINERS} miners, ${JOBS} jobs (${farmHours.toFixed(2)} h of farm time at a job per ${FARM_JOB_S} s), ~${SHARES_PER_JOB} shares per miner per job, ${SPEEDUP}× farm speed, tunnels' batch window ${BATCH_MS} ms`,
);
console.log("| mode | transport | connections | bytes per miner-hour | plain ÷ this | shares |");
console.log("| --- | --- | --- | --- | --- | --- |");
for (const m of MODES) {
  let plain = 0;
  for (const [name, protocol] of [
    ["plain stratum (TCP)", ListenProtocol.TCP],
    ["RMS (no compression)", ListenProtocol.RMS],
    ["RMS2 (deflate)", ListenProtocol.RMS2],
    ["RMS3 (zstd + broadcast)", ListenProtocol.RMS3],
  ] as const) {
    const key = Object.entries(ListenProtocol).find(([, code]) => code === protocol)?.[0] ?? "";
    if (!TRANSPORTS.includes(key.toLowerCase())) continue;
    const r = await run(name, protocol, m.mode);
    if (protocol === ListenProtocol.TCP) plain = r.bytes;
    const perMinerHour = r.bytes / MINERS / farmHours;
    console.log(
      `| ${m.name} | ${r.name} | ${r.connections} | ${Math.round(perMinerHour).toLocaleString("en")} | ${(plain / r.bytes).toFixed(1)}× | ${r.shares} |`,
    );
  }
}
