/**
 * Added share latency through the RMS tunnel (docs/benchmarks.md, "RMS tunnel"): one miner submits
 * shares one at a time and times each answer, straight to the port and through `pithead client
 * --tunnel` (RMS2, RMS3) on loopback; the difference of the percentiles is what the tunnel adds (its
 * two extra hops, KENC, records and compression). With `farm` > 0, that many hashing miners share the
 * path at a farm's pace meanwhile (a share every 15 s each, a new job every 30 s), so the timed
 * shares cross a tunnel that carries a farm's jobs and shares. With `batch` > 0 the tunnel ports'
 * RMS settings have that batch window (ms), which both ends of the tunnel keep to.
 * Usage: bun bench/tunnel/share-latency.ts [shares=2000] [farm=0] [batch=0]
 */
import type { Socket } from "bun";
import { ListenProtocol } from "../../appliance/domain/port.ts";
import { RMS_DEFAULTS } from "../../appliance/domain/rms.ts";
import { DEFAULT_TIMING } from "../../appliance/engine/engine.ts";
import { startKencPort } from "../../test/support/kenc/kenc-port.ts";
import { until } from "../../test/support/stratum/port-fixture.ts";
import { TestMiner } from "../../test/support/stratum/test-miner.ts";
import { localTunnelClient } from "../../test/support/tunnel/local-client.ts";
import { percentile } from "../engine/fake-miner.ts";

const SHARES = Number(process.argv[2] ?? 2000);
const FARM = Number(process.argv[3] ?? 0);
const BATCH_MS = Number(process.argv[4] ?? 0);
const FARM_SHARE_S = 15;
const FARM_JOB_MS = 30_000;
/** the test pool's difficulty: 2^32 × 2e-8 ≈ 86 hashes per share */
const HASHES_PER_SHARE = 2 ** 32 * 2e-8;
const KEY = "bench latency key";

/** A miner that logs in, then sends each share when the previous one is answered, timing each. */
async function timedShares(port: number): Promise<number[]> {
  let buffer = "";
  let answered: ((line: string) => void) | null = null;
  const lines: string[] = [];
  const socket: Socket<undefined> = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data: (_s, d) => {
        buffer += new TextDecoder().decode(d);
        const parts = buffer.split("\n");
        buffer = parts.pop() ?? "";
        for (const l of parts) {
          lines.push(l);
          if (answered && l.includes('"id":1000')) answered(l);
        }
      },
    },
  });
  socket.write('{"id":1,"method":"mining.subscribe","params":["bench/1.0"]}\n');
  socket.write('{"id":2,"method":"mining.authorize","params":["wal.lat","x"]}\n');
  await until(() => lines.some((l) => l.includes(`"method":"mining.notify"`)));
  const notify = JSON.parse(lines.find((l) => l.includes(`"method":"mining.notify"`)) as string) as {
    params: string[];
  };
  const subscribed = JSON.parse(lines.find((l) => l.startsWith('{"id":1,')) as string) as {
    result: [unknown, string, number];
  };
  const en2Hex = subscribed.result[2] * 2;
  const job = notify.params[0] as string;
  const ntime = notify.params[7] as string;
  const times: number[] = [];
  for (let i = 0; i < SHARES; i++) {
    const nonce = i.toString(16).padStart(8, "0");
    const got = new Promise<string>((r) => {
      answered = r;
    });
    const t0 = performance.now();
    socket.write(
      `{"id":1000,"method":"mining.submit","params":["wal.lat","${job}","${i.toString(16).padStart(en2Hex, "0")}","${ntime}","${nonce}"]}\n`,
    );
    await got;
    times.push(performance.now() - t0);
  }
  socket.end();
  return times.sort((a, b) => a - b);
}

const rows: string[] = [];
let direct: number[] = [];
for (const [name, protocol] of [
  ["straight to the port (TCP)", ListenProtocol.TCP],
  ["through an RMS2 tunnel", ListenProtocol.RMS2],
  ["through an RMS3 tunnel", ListenProtocol.RMS3],
] as const) {
  const cleanup: Array<() => Promise<void> | void> = [];
  // with a farm, jobs come at its pace (below) instead of the test pool's job a second
  const {
    listen,
    pool,
    t,
    port: config,
  } = await startKencPort(
    cleanup,
    KEY,
    [],
    { protocol, limit_connections: FARM + 1 },
    {
      rms: () => ({ ...RMS_DEFAULTS, batch_ms: BATCH_MS }),
      ...(FARM > 0 ? { poolJobIntervalMs: 0, timing: { jobTimeoutMs: DEFAULT_TIMING.jobTimeoutMs } } : {}),
    },
  );
  const port =
    protocol === ListenProtocol.TCP ? listen : localTunnelClient(cleanup, listen, KEY, protocol).port;
  const farm = Array.from({ length: FARM }, (_, i) =>
    TestMiner.start({
      port,
      user: `wal.rig${i}`,
      hashesPerSecond: HASHES_PER_SHARE / FARM_SHARE_S,
      // one hash at a time from the miner's own moment: shares at random times, not the fleet's bursts
      batch: 1,
      paceOffsetMs: (Math.random() * 1000 * FARM_SHARE_S) / HASHES_PER_SHARE,
    }),
  );
  cleanup.push(() => {
    for (const m of farm) m.stop();
  });
  await until(() => t.engine.running(config.id)?.online === FARM, 50);
  const jobs = setInterval(() => pool.newJob(), FARM_JOB_MS);
  cleanup.push(() => clearInterval(jobs));
  const times = await timedShares(port);
  if (protocol === ListenProtocol.TCP) direct = times;
  const p50 = percentile(times, 50);
  const p99 = percentile(times, 99);
  const added =
    protocol === ListenProtocol.TCP
      ? "—"
      : `${(p50 - percentile(direct, 50)).toFixed(3)} / ${(p99 - percentile(direct, 99)).toFixed(3)}`;
  rows.push(`| ${name} | ${p50.toFixed(3)} / ${p99.toFixed(3)} | ${added} |`);
  for (const c of cleanup.reverse()) await c();
}
console.log(
  `${SHARES} shares, one at a time, share round trip in ms${FARM > 0 ? `, beside ${FARM} miners at a share per ${FARM_SHARE_S} s each` : ""}${BATCH_MS > 0 ? `, tunnels' batch window ${BATCH_MS} ms` : ""}`,
);
console.log("| path | p50 / p99 | added p50 / p99 |");
console.log("| --- | --- | --- |");
for (const r of rows) console.log(r);
