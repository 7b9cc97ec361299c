/**
 * CPU usage from /proc/stat. Usage is a ratio of two samples, so one reading alone means nothing: the
 * sampler (sampler.ts) keeps the previous sample and the API answers from the delta without waiting.
 */

export interface CpuTimes {
  /** jiffies spent idle or waiting for I/O */
  idle: number;
  /** all jiffies (user, nice, system, idle, iowait, irq, softirq, steal) */
  total: number;
}

/**
 * Reads the aggregate "cpu " line. guest and guest_nice are left out because the kernel already counts
 * them inside user and nice; adding them would count guest time twice.
 */
export function parseProcStat(text: string): CpuTimes {
  const line = text.split("\n").find((l) => l.startsWith("cpu "));
  if (!line) throw new Error("/proc/stat: no aggregate cpu line");
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (fields.length < 4 || fields.some((n) => !Number.isFinite(n))) {
    throw new Error("/proc/stat: malformed cpu line");
  }
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  return { idle: idle + iowait, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

/** Busy share between two samples in percent (0–100, two decimals); 0 when no time has passed. */
export function cpuUsagePercent(prev: CpuTimes, cur: CpuTimes): number {
  const total = cur.total - prev.total;
  const idle = cur.idle - prev.idle;
  if (total <= 0) return 0;
  const busy = Math.min(Math.max((total - idle) / total, 0), 1);
  return Math.round(busy * 10000) / 100;
}
