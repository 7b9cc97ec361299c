import { describe, expect, test } from "bun:test";
import {
  byteRate,
  cpuUsagePercent,
  diskFromStatfs,
  parseLoadavg,
  parseMeminfo,
  parseNetDev,
  parseProcStat,
  parseUptime,
  sumCounters,
} from "../../../appliance/ops/sysinfo/index.ts";

const STAT = `cpu  7401 2 4354 63817 1062 0 219 112 50 0
cpu0 3134 1 1765 33210 268 0 64 53 0 0
intr 366418 0 0
ctxt 751340
`;

const MEMINFO = `MemTotal:       24683656 kB
MemFree:        22671604 kB
MemAvailable:   20000000 kB
Buffers:          100000 kB
Cached:          1000000 kB
HugePages_Total:       0
`;

const NETDEV = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:    3193      29    0    0    0     0          0         0     3193      29    0    0    0     0       0          0
  eth0: 1000000    900    0    0    0     0          0         0   250000     800    0    0    0     0       0          0
wlan0:500 5 0 0 0 0 0 0 700 7 0 0 0 0 0 0
`;

describe("sysinfo parsers", () => {
  test("/proc/stat: idle includes iowait, guest is not counted twice", () => {
    expect(parseProcStat(STAT)).toEqual({
      idle: 63817 + 1062,
      total: 7401 + 2 + 4354 + 63817 + 1062 + 0 + 219 + 112,
    });
    expect(() => parseProcStat("intr 1 2 3\n")).toThrow();
    expect(() => parseProcStat("cpu  a b c d\n")).toThrow();
  });

  test("cpu usage between two samples", () => {
    expect(cpuUsagePercent({ idle: 100, total: 200 }, { idle: 175, total: 300 })).toBe(25);
    expect(cpuUsagePercent({ idle: 0, total: 0 }, { idle: 1, total: 3 })).toBe(66.67);
    expect(cpuUsagePercent({ idle: 5, total: 10 }, { idle: 5, total: 10 })).toBe(0);
  });

  test("/proc/meminfo: used is total minus available", () => {
    const m = parseMeminfo(MEMINFO);
    expect(m.total).toBe(24683656 * 1024);
    expect(m.free).toBe(20000000 * 1024);
    expect(m.used).toBe((24683656 - 20000000) * 1024);
    expect(m.usage_percent).toBe(18.97);
    expect(() => parseMeminfo("MemFree: 1 kB\n")).toThrow();
  });

  test("/proc/meminfo without MemAvailable falls back to MemFree + Cached", () => {
    const m = parseMeminfo("MemTotal: 1000 kB\nMemFree: 200 kB\nCached: 300 kB\n");
    expect(m.free).toBe(500 * 1024);
  });

  test("/proc/loadavg", () => {
    expect(parseLoadavg("0.10 0.19 0.08 1/85 9952\n")).toEqual({
      one: 0.1,
      five: 0.19,
      fifteen: 0.08,
      running: 1,
      tasks: 85,
    });
    expect(() => parseLoadavg("garbage")).toThrow();
  });

  test("/proc/net/dev skips headers and lo, tolerates no space after the colon", () => {
    const ifaces = parseNetDev(NETDEV);
    expect(ifaces).toEqual([
      { name: "eth0", rx_bytes: 1000000, tx_bytes: 250000 },
      { name: "wlan0", rx_bytes: 500, tx_bytes: 700 },
    ]);
    expect(sumCounters(ifaces)).toEqual({ rx_bytes: 1000500, tx_bytes: 250700 });
  });

  test("byte rate, counter reset gives 0", () => {
    expect(byteRate(1000, 3000, 2)).toBe(1000);
    expect(byteRate(3000, 1000, 2)).toBe(0);
    expect(byteRate(0, 1000, 0)).toBe(0);
  });

  test("/proc/uptime", () => {
    expect(parseUptime("386.25 638.17\n")).toBe(386);
    expect(() => parseUptime("x y")).toThrow();
  });

  test("statfs: used excludes root-reserved blocks, usage like df", () => {
    const d = diskFromStatfs("/data", { bsize: 4096, blocks: 1000, bfree: 300, bavail: 250 });
    expect(d).toEqual({
      path: "/data",
      total: 4096000,
      used: 700 * 4096,
      free: 250 * 4096,
      usage_percent: 73.68,
    });
  });
});
