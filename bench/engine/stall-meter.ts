/**
 * The proxy's event-loop stalls while shares are timed, and where the stalled time went. A timer
 * every 5 ms records how late it fires: a share arriving meanwhile waits as long. For each late
 * tick (over 1 ms), the thread's scheduler statistics (Linux, /proc/thread-self/schedstat) split
 * the tick's wall time into time on a CPU (JavaScript, garbage collection, syscalls), time runnable
 * but waiting for a CPU (the other processes of the benchmark on the same cores), and the rest
 * (blocked). This is what says whether a latency tail is the proxy's work or the machine's.
 */
import { readFileSync } from "node:fs";

const TICK_MS = 5;
const STALL_MS = 1;

export interface StallSummary {
  ticks: number;
  /** ticks that fired over 1 ms late */
  stalls: number;
  /** the latest a tick fired, ms */
  maxMs: number;
  /** wall time of the late ticks' intervals, and its split; null where /proc has no schedstat */
  stalledWallMs: number;
  onCpuMs: number | null;
  waitingForCpuMs: number | null;
}

/** [time on a CPU, time waiting to run] of this thread so far, in ms; null off Linux. */
function schedstat(): [number, number] | null {
  try {
    const [run, wait] = readFileSync("/proc/thread-self/schedstat", "utf8").split(" ").map(Number);
    return run === undefined || wait === undefined ? null : [run / 1e6, wait / 1e6];
  } catch {
    return null;
  }
}

export class StallMeter {
  private timer: ReturnType<typeof setInterval> | null = null;
  private summary: StallSummary = StallMeter.empty();

  private static empty(): StallSummary {
    return { ticks: 0, stalls: 0, maxMs: 0, stalledWallMs: 0, onCpuMs: 0, waitingForCpuMs: 0 };
  }

  start(): void {
    this.stop();
    const s = StallMeter.empty();
    this.summary = s;
    let last = performance.now();
    let stat = schedstat();
    if (stat === null) {
      s.onCpuMs = null;
      s.waitingForCpuMs = null;
    }
    this.timer = setInterval(() => {
      const now = performance.now();
      const late = now - last - TICK_MS;
      const next = stat === null ? null : schedstat();
      s.ticks++;
      if (late > STALL_MS) {
        s.stalls++;
        s.maxMs = Math.max(s.maxMs, late);
        s.stalledWallMs += now - last;
        if (stat !== null && next !== null && s.onCpuMs !== null && s.waitingForCpuMs !== null) {
          s.onCpuMs += next[0] - stat[0];
          s.waitingForCpuMs += next[1] - stat[1];
        }
      }
      last = now;
      stat = next;
    }, TICK_MS);
  }

  stop(): StallSummary {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    const r = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100);
    const s = this.summary;
    return {
      ...s,
      maxMs: r(s.maxMs) ?? 0,
      stalledWallMs: r(s.stalledWallMs) ?? 0,
      onCpuMs: r(s.onCpuMs),
      waitingForCpuMs: r(s.waitingForCpuMs),
    };
  }
}
