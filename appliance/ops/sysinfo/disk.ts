/** Disk space of the file system holding a path (the data directory), from statfs. */
import { statfsSync } from "node:fs";
import { percent } from "./memory.ts";

export interface DiskInfo {
  path: string;
  /** bytes */
  total: number;
  used: number;
  /** space available to the (unprivileged) appliance, which is what matters for SQLite writes */
  free: number;
  usage_percent: number;
}

export interface StatfsLike {
  bsize: number;
  blocks: number;
  bfree: number;
  bavail: number;
}

/**
 * used = blocks − bfree and free = bavail, as df does; the blocks reserved for root are neither, so
 * usage is used / (used + bavail), matching df's Use% rather than understating a nearly full disk.
 */
export function diskFromStatfs(path: string, s: StatfsLike): DiskInfo {
  const total = s.blocks * s.bsize;
  const used = (s.blocks - s.bfree) * s.bsize;
  const free = s.bavail * s.bsize;
  return { path, total, used, free, usage_percent: percent(used, used + free) };
}

export function readDisk(path: string): DiskInfo {
  return diskFromStatfs(path, statfsSync(path));
}
