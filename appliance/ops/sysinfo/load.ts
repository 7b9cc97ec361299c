/** Load average and task counts from /proc/loadavg ("0.10 0.19 0.08 1/85 9952"). */

export interface LoadInfo {
  one: number;
  five: number;
  fifteen: number;
  /** runnable tasks right now */
  running: number;
  /** tasks that exist */
  tasks: number;
}

export function parseLoadavg(text: string): LoadInfo {
  const m = /^\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\/(\d+)/.exec(text);
  if (!m) throw new Error("/proc/loadavg: malformed");
  return {
    one: Number(m[1]),
    five: Number(m[2]),
    fifteen: Number(m[3]),
    running: Number(m[4]),
    tasks: Number(m[5]),
  };
}
