/** Static facts about the host and this process: names, CPU model, kernel, uptimes, RSS. */
import os from "node:os";

export interface HostInfo {
  hostname: string;
  arch: string;
  platform: string;
  kernel: string;
  cpu_model: string;
  cpu_count: number;
}

export function readHost(): HostInfo {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    arch: os.arch(),
    platform: os.platform(),
    kernel: os.release(),
    // arm64 kernels often report no model name; say so rather than leave an empty cell
    cpu_model: cpus[0]?.model?.trim() || "unknown",
    cpu_count: cpus.length || os.availableParallelism(),
  };
}

/** Seconds since boot, the first field of /proc/uptime ("386.25 638.17"). */
export function parseUptime(text: string): number {
  const seconds = Number(text.trim().split(/\s+/)[0]);
  if (!Number.isFinite(seconds) || seconds < 0) throw new Error("/proc/uptime: malformed");
  return Math.floor(seconds);
}

export interface ProcessInfo {
  pid: number;
  uptime_seconds: number;
  rss_bytes: number;
}

export function readProcess(): ProcessInfo {
  return {
    pid: process.pid,
    uptime_seconds: Math.floor(process.uptime()),
    rss_bytes: process.memoryUsage.rss(),
  };
}
