/**
 * Memory from /proc/meminfo. "Used" is MemTotal − MemAvailable: page cache the kernel can drop on demand
 * is not used memory, and MemFree alone would make a healthy box look full.
 */

export interface MemoryInfo {
  /** bytes */
  total: number;
  used: number;
  /** MemAvailable: what new work can still get without swapping */
  free: number;
  usage_percent: number;
}

export function parseMeminfo(text: string): MemoryInfo {
  const kb = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^(\w+):\s+(\d+)(?:\s+kB)?$/.exec(line.trim());
    if (m?.[1] && m[2]) kb.set(m[1], Number(m[2]));
  }
  const totalKb = kb.get("MemTotal");
  if (totalKb === undefined || totalKb <= 0) throw new Error("/proc/meminfo: no MemTotal");
  // Kernels before 3.14 have no MemAvailable; MemFree + Cached is the usual approximation there.
  const availKb = kb.get("MemAvailable") ?? (kb.get("MemFree") ?? 0) + (kb.get("Cached") ?? 0);
  const total = totalKb * 1024;
  const free = Math.min(availKb * 1024, total);
  const used = total - free;
  return { total, used, free, usage_percent: percent(used, total) };
}

export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 10000) / 100 : 0;
}
