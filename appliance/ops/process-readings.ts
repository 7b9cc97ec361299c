import { readdirSync } from "node:fs";

/** What the process costs right now: read by /api/metrics, and through it by the soak run. */
export interface ProcessReadings {
  residentBytes: number;
  heapUsedBytes: number;
  /** -1 where /proc is not mounted */
  openFds: number;
  cpuSeconds: number;
}

export function readProcess(): ProcessReadings {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    residentBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    openFds: openFds(),
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

function openFds(): number {
  try {
    // the listing holds the descriptor readdir itself opened
    return readdirSync("/proc/self/fd").length - 1;
  } catch {
    return -1;
  }
}
