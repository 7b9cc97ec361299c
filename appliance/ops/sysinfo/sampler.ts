/**
 * System readings for GET /api/sysinfo (spec §7) without making the call wait: CPU usage and network
 * rates need two samples, so the sampler keeps the previous one and every read answers from the delta
 * since then. Reads closer together than `minIntervalMs` reuse the last rates, because a window of a
 * few milliseconds (two dashboards polling at once) gives noise, not a reading.
 */
import { readFileSync } from "node:fs";
import { type CpuTimes, cpuUsagePercent, parseProcStat } from "./cpu.ts";
import { type DiskInfo, readDisk } from "./disk.ts";
import { type HostInfo, type ProcessInfo, parseUptime, readHost, readProcess } from "./host.ts";
import { type LoadInfo, parseLoadavg } from "./load.ts";
import { type MemoryInfo, parseMeminfo } from "./memory.ts";
import { byteRate, type InterfaceCounters, type NetworkTotals, parseNetDev, sumCounters } from "./network.ts";

export interface NetworkInfo extends NetworkTotals {
  /** bytes per second over the last sampling window */
  rx_rate: number;
  tx_rate: number;
  interfaces: InterfaceCounters[];
}

export interface SystemInfo {
  cpu: { usage_percent: number; count: number; model: string };
  memory: MemoryInfo;
  disk: DiskInfo;
  load: LoadInfo;
  network: NetworkInfo;
  uptime: { system_seconds: number; process_seconds: number };
  process: ProcessInfo;
  host: HostInfo;
  /** epoch ms of this reading */
  sampled_at: number;
  /** length of the window the CPU and rate figures cover, ms (0 = since boot / no window yet) */
  window_ms: number;
}

export interface SamplerOptions {
  /** file system to report (the data directory) */
  diskPath: string;
  /** reads a /proc file; injectable so the delta logic can be tested on fixed text */
  readText?: (path: string) => string;
  /** epoch ms; injectable for the same reason */
  now?: () => number;
  minIntervalMs?: number;
}

interface Sample {
  at: number;
  cpu: CpuTimes;
  net: NetworkTotals;
}

interface Rates {
  cpu: number;
  rx: number;
  tx: number;
  windowMs: number;
}

const readProc = (path: string): string => readFileSync(path, "utf8");

export class SysinfoSampler {
  readonly #diskPath: string;
  readonly #read: (path: string) => string;
  readonly #now: () => number;
  readonly #minIntervalMs: number;
  #prev: Sample;
  #rates: Rates;

  constructor(options: SamplerOptions) {
    this.#diskPath = options.diskPath;
    this.#read = options.readText ?? readProc;
    this.#now = options.now ?? Date.now;
    this.#minIntervalMs = options.minIntervalMs ?? 1000;
    this.#prev = this.#sample();
    // Before a second sample exists, report CPU usage averaged since boot rather than a made-up 0.
    this.#rates = {
      cpu: cpuUsagePercent({ idle: 0, total: 0 }, this.#prev.cpu),
      rx: 0,
      tx: 0,
      windowMs: 0,
    };
  }

  /**
   * Takes a sample and moves the window forward when enough time has passed. The server may call this
   * on a timer so the figures stay fresh even when nobody reads them; read() calls it too.
   */
  tick(): void {
    const cur = this.#sample();
    const elapsed = cur.at - this.#prev.at;
    if (elapsed < this.#minIntervalMs) return;
    const seconds = elapsed / 1000;
    this.#rates = {
      cpu: cpuUsagePercent(this.#prev.cpu, cur.cpu),
      rx: byteRate(this.#prev.net.rx_bytes, cur.net.rx_bytes, seconds),
      tx: byteRate(this.#prev.net.tx_bytes, cur.net.tx_bytes, seconds),
      windowMs: elapsed,
    };
    this.#prev = cur;
  }

  read(): SystemInfo {
    this.tick();
    const interfaces = parseNetDev(this.#read("/proc/net/dev"));
    const host = readHost();
    const proc = readProcess();
    return {
      cpu: { usage_percent: this.#rates.cpu, count: host.cpu_count, model: host.cpu_model },
      memory: parseMeminfo(this.#read("/proc/meminfo")),
      disk: readDisk(this.#diskPath),
      load: parseLoadavg(this.#read("/proc/loadavg")),
      network: { ...sumCounters(interfaces), rx_rate: this.#rates.rx, tx_rate: this.#rates.tx, interfaces },
      uptime: {
        system_seconds: parseUptime(this.#read("/proc/uptime")),
        process_seconds: proc.uptime_seconds,
      },
      process: proc,
      host,
      sampled_at: this.#now(),
      window_ms: this.#rates.windowMs,
    };
  }

  #sample(): Sample {
    return {
      at: this.#now(),
      cpu: parseProcStat(this.#read("/proc/stat")),
      net: sumCounters(parseNetDev(this.#read("/proc/net/dev"))),
    };
  }
}
