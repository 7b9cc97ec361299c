/**
 * The fee matrix of the fee issue over real sockets: the real engine in a proxy child process, fake
 * miners that hash at a fixed rate (Fleet.hashAt), a main pool and a fee pool that trust shares and
 * tally accepted work, the fee pool refusing 1 % of its shares. Each cell runs until the pools have
 * answered SHARES shares and reports achieved − configured at the pools, the time to the first fee
 * share and the fee switches per device-hour.
 *
 * Time is scaled so that every cell sends about WALL_RATE shares a second whatever its real rate:
 * the child's fee scheduler (EngineDeps.clock) and the miners' pacing read the same scaled clock
 * (scaled-clock.ts), and the engine timers that act on the fee (the fee tick, the idle fee session
 * sweep) are shortened by the same factor. docs/benchmarks.md says what stays on real time.
 *
 * `node_modules/.bin/bun bench/engine/fee-sockets.ts [--full] [--shares N] [--rate N]`: by default
 * the corners of miners × share rate in both modes, each with (2× difficulty, one wallet) and (0.5×,
 * ten wallets), 16 cells; --full runs all 96.
 */
import { type Port, ProxyMode } from "../../appliance/domain/port.ts";
import { feeWallet, makePort } from "../../test/support/stratum/port-fixture.ts";
import { TestPool } from "../../test/support/stratum/test-pool.ts";
import { Fleet, percentile } from "./fake-miner.ts";
import { ProxyProcess } from "./proxy-process.ts";
import { type TimeScale, wallNow } from "./scaled-clock.ts";

const MINERS = [200, 1000, 5000];
const RATES = [0.05, 0.2, 1, 10];
const FEE_DIFFICULTY = [0.5, 2];
const WALLETS = [1, 10];
const MODES = ["Efficient", "Pool"] as const;
const CONFIGURED = 0.02;
/** production values of the timers that act on the fee (engine.ts DEFAULT_TIMING) */
const FEE_TICK_MS = 1_000;
const FEE_IDLE_MS = 120_000;
/** a cell that has not reached its shares after this long (wall) stops and says so */
const CELL_LIMIT_MS = 120_000;

export interface SocketFeeCell {
  mode: (typeof MODES)[number];
  miners: number;
  sharesPerSecond: number;
  feeDifficulty: number;
  wallets: number;
}

export interface SocketFeeResult extends SocketFeeCell {
  /** scaled seconds per wall second */
  scale: number;
  /** shares the pools answered (accepted and refused) */
  shares: number;
  errorPercentagePoints: number;
  /** the proxy's own achieved figure minus the pools' */
  reportGapPp: number;
  firstFeeShareS: number;
  switchesPerDeviceHour: number;
  /** p99 of a share's round trip through the proxy, in scaled seconds */
  p99AnswerS: number;
  scaledHours: number;
  wallS: number;
  complete: boolean;
}

export function cells(full: boolean): SocketFeeCell[] {
  const out: SocketFeeCell[] = [];
  for (const mode of MODES)
    for (const miners of MINERS)
      for (const sharesPerSecond of RATES)
        for (const feeDifficulty of FEE_DIFFICULTY)
          for (const wallets of WALLETS) {
            const corner =
              (miners === MINERS[0] || miners === MINERS.at(-1)) &&
              (sharesPerSecond === RATES[0] || sharesPerSecond === RATES.at(-1)) &&
              // two of the four (difficulty, wallets) pairs, so that every value of every axis runs
              (feeDifficulty === 2) === (wallets === 1);
            if (full || corner) out.push({ mode, miners, sharesPerSecond, feeDifficulty, wallets });
          }
  return out;
}

/** The bench pools of scenarios.ts: trusted shares, a new job a second, four merkle branches. */
const pool = (difficulty: number, extra: Parameters<typeof TestPool.start>[0] = {}) =>
  TestPool.start({
    trustShares: true,
    difficulty,
    extranonce2Size: 8,
    jobIntervalMs: 1000,
    merkleBranches: 4,
    ...extra,
  });

export async function runCell(c: SocketFeeCell, shares: number, wallRate: number): Promise<SocketFeeResult> {
  let firstFeeAt = 0;
  const main = await pool(1);
  const fee = await pool(c.feeDifficulty, {
    rejectEvery: 100,
    onAccepted: () => {
      if (firstFeeAt === 0) firstFeeAt = wallNow();
    },
  });
  const ratio = CONFIGURED / c.wallets;
  const port: Port = makePort({
    pool_address: main.address,
    mode: c.mode === "Pool" ? ProxyMode.POOL : ProxyMode.EFFICIENT,
    proxy_addr: "farm",
    proxy_device: "bench",
    limit_connections: 65535,
    wallets: Array.from({ length: c.wallets }, (_, i) => feeWallet(i + 1, `fee${i}`, fee.address, ratio)),
  });
  const scale = wallRate / (c.miners * c.sharesPerSecond);
  const time: TimeScale = {
    originMs: wallNow(),
    scale,
    timing: { feeTickMs: FEE_TICK_MS / scale, feeIdleMs: FEE_IDLE_MS / scale },
  };
  const proxy = await ProxyProcess.start(port, time);
  const fleet = new Fleet({ port: proxy.port, count: c.miners, user: (i) => `m${i}.r` });
  const answered = () => main.accepted + fee.accepted + (fee.rejects.get(23) ?? 0);
  try {
    await fleet.connect();
    fleet.recordLatency = true;
    const t0 = wallNow();
    // a share rate at difficulty 1 (the main pool's) in scaled time is `scale`× that in wall time
    await fleet.hashAt(
      c.sharesPerSecond * scale,
      () => answered() >= shares || wallNow() - t0 > CELL_LIMIT_MS,
    );
    const t1 = wallNow();
    while (fleet.miners.some((_, i) => fleet.outstanding(i) > 0) && wallNow() - t1 < 10_000)
      await Bun.sleep(10);
    const feeWork = fee.totalWork();
    const achieved = feeWork / (main.totalWork() + feeWork);
    const stats = await proxy.stats();
    const scaledS = ((t1 - t0) / 1000) * scale;
    const lat = [...fleet.latencies].sort((a, b) => a - b);
    return {
      ...c,
      scale: Math.round(scale * 1000) / 1000,
      shares: answered(),
      errorPercentagePoints: round((achieved - CONFIGURED) * 100, 4),
      reportGapPp: round((stats.fee.achieved - achieved) * 100, 4),
      firstFeeShareS: firstFeeAt === 0 ? Number.NaN : round(((firstFeeAt - t0) / 1000) * scale, 1),
      switchesPerDeviceHour: round(fleet.difficultyChanges() / c.miners / (scaledS / 3600), 1),
      p99AnswerS: round((percentile(lat, 99) / 1000) * scale, 3),
      scaledHours: round(scaledS / 3600, 3),
      wallS: round((wallNow() - t0) / 1000, 1),
      complete: answered() >= shares,
    };
  } finally {
    fleet.close();
    await proxy.stop();
    main.stop();
    fee.stop();
  }
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const signed = (x: number, digits: number) => `${x >= 0 ? "+" : ""}${x.toFixed(digits)}`;

export function socketFeeMarkdown(results: readonly SocketFeeResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.mode} | ${r.miners} | ${r.sharesPerSecond} | ${r.feeDifficulty}× | ${r.wallets} | ${r.shares}${r.complete ? "" : " (stopped)"} | ${signed(r.errorPercentagePoints, 4)} | ${r.firstFeeShareS} | ${r.switchesPerDeviceHour} | ${signed(r.reportGapPp, 4)} | ${r.scale} | ${r.scaledHours} | ${r.p99AnswerS} | ${r.wallS} |`,
  );
  const worst = Math.max(...results.map((r) => Math.abs(r.errorPercentagePoints)));
  const within = results.filter((r) => Math.abs(r.errorPercentagePoints) <= 0.05).length;
  return [
    "| mode | miners | shares/s per miner | fee pool difficulty | wallets | shares at the pools | achieved − configured (pp) | first fee share (s) | switches per device-hour | proxy report − pools (pp) | time scale | scaled hours | p99 answer (scaled s) | wall s |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `worst cell: ${worst.toFixed(4)} pp; cells within ±0.05 pp: ${within} of ${results.length}`,
  ].join("\n");
}

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

if (import.meta.main) {
  const full = process.argv.includes("--full");
  const shares = option("--shares", 100_000);
  const wallRate = option("--rate", 6_000);
  const started = wallNow();
  const results: SocketFeeResult[] = [];
  for (const c of cells(full)) {
    const r = await runCell(c, shares, wallRate);
    console.log(JSON.stringify(r));
    results.push(r);
  }
  console.log(socketFeeMarkdown(results));
  const [load1, load5] = (await Bun.file("/proc/loadavg").text()).split(" ");
  console.log(
    `(${results.length} cells, ${((wallNow() - started) / 1000).toFixed(0)} s, ${wallRate} shares/s of wall time per cell, load average ${load1} / ${load5})`,
  );
  process.exit(0);
}
