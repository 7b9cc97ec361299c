import { describe, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { SysinfoSampler } from "../../../appliance/ops/sysinfo/index.ts";

/** A fake /proc whose counters the test advances, with a fake clock. */
function fakeProc() {
  const state = { at: 1_000_000, busy: 1000, idle: 9000, rx: 10_000, tx: 5_000 };
  const files = (path: string): string => {
    switch (path) {
      case "/proc/stat":
        return `cpu  ${state.busy} 0 0 ${state.idle} 0 0 0 0 0 0\n`;
      case "/proc/net/dev":
        return `Inter-|\n face |\n    lo: 99999 1 0 0 0 0 0 0 99999 1 0 0 0 0 0 0\n  eth0: ${state.rx} 1 0 0 0 0 0 0 ${state.tx} 1 0 0 0 0 0 0\n`;
      case "/proc/meminfo":
        return "MemTotal: 1000 kB\nMemAvailable: 250 kB\n";
      case "/proc/loadavg":
        return "1.50 1.00 0.50 2/100 123\n";
      case "/proc/uptime":
        return "3600.5 100.0\n";
      default:
        throw new Error(`unexpected read ${path}`);
    }
  };
  return { state, files };
}

describe("SysinfoSampler", () => {
  test("first read reports CPU since boot and no rates yet", () => {
    const { state, files } = fakeProc();
    const s = new SysinfoSampler({ diskPath: tmpdir(), readText: files, now: () => state.at });
    const info = s.read();
    expect(info.cpu.usage_percent).toBe(10);
    expect(info.network.rx_rate).toBe(0);
    expect(info.window_ms).toBe(0);
    expect(info.memory.usage_percent).toBe(75);
    expect(info.load.one).toBe(1.5);
    expect(info.uptime.system_seconds).toBe(3600);
  });

  test("later reads answer from the delta since the previous sample", () => {
    const { state, files } = fakeProc();
    const s = new SysinfoSampler({ diskPath: tmpdir(), readText: files, now: () => state.at });
    state.at += 2000;
    state.busy += 150;
    state.idle += 50;
    state.rx += 4000;
    state.tx += 1000;
    const info = s.read();
    expect(info.cpu.usage_percent).toBe(75);
    expect(info.network.rx_rate).toBe(2000);
    expect(info.network.tx_rate).toBe(500);
    expect(info.network.rx_bytes).toBe(state.rx);
    expect(info.network.interfaces.map((i) => i.name)).toEqual(["eth0"]);
    expect(info.window_ms).toBe(2000);
  });

  test("reads closer than the minimum interval keep the last figures", () => {
    const { state, files } = fakeProc();
    const s = new SysinfoSampler({ diskPath: tmpdir(), readText: files, now: () => state.at });
    state.at += 1000;
    state.busy += 100;
    state.idle += 100;
    expect(s.read().cpu.usage_percent).toBe(50);
    state.at += 10;
    state.busy += 10;
    expect(s.read().cpu.usage_percent).toBe(50);
    state.at += 990;
    state.idle += 90;
    // the window runs from the last accepted sample, so the 10 busy jiffies above are counted here
    expect(s.read().cpu.usage_percent).toBe(10);
  });

  test("reads the real /proc with sane values", () => {
    const s = new SysinfoSampler({ diskPath: tmpdir() });
    s.tick();
    const info = s.read();
    expect(info.cpu.usage_percent).toBeGreaterThanOrEqual(0);
    expect(info.cpu.usage_percent).toBeLessThanOrEqual(100);
    expect(info.cpu.count).toBeGreaterThanOrEqual(1);
    expect(info.cpu.model.length).toBeGreaterThan(0);
    expect(info.memory.total).toBeGreaterThan(16 * 1024 * 1024);
    expect(info.memory.used + info.memory.free).toBe(info.memory.total);
    expect(info.disk.total).toBeGreaterThan(0);
    expect(info.disk.free).toBeLessThanOrEqual(info.disk.total);
    expect(info.disk.usage_percent).toBeWithin(0, 100.01);
    expect(info.load.one).toBeGreaterThanOrEqual(0);
    expect(info.load.tasks).toBeGreaterThanOrEqual(1);
    expect(info.network.rx_bytes).toBeGreaterThanOrEqual(0);
    expect(info.network.interfaces.some((i) => i.name === "lo")).toBe(false);
    expect(info.uptime.system_seconds).toBeGreaterThan(0);
    expect(info.uptime.process_seconds).toBeGreaterThanOrEqual(0);
    expect(info.uptime.process_seconds).toBeLessThanOrEqual(info.uptime.system_seconds);
    expect(info.process.rss_bytes).toBeGreaterThan(1024 * 1024);
    expect(info.process.pid).toBe(process.pid);
    expect(info.host.hostname.length).toBeGreaterThan(0);
    expect(["x64", "arm64"]).toContain(info.host.arch);
    expect(info.host.kernel).toMatch(/^\d+\.\d+/);
  });
});
