/**
 * LiveStats: the read side the HTTP API calls, assembled from the device registry and the running
 * ports. Everything is computed on request from in-memory counters.
 */
import type {
  CurrencyStatsView,
  DeviceList,
  DeviceQuery,
  DeviceStatsView,
  DeviceView,
  HashrateView,
  IpView,
  LiveStats,
  OnlineStatView,
  PortLogEntry,
  PortStatsView,
  WalletView,
} from "../domain/engine.ts";
import type { Port } from "../domain/port.ts";
import { pageDevices } from "../stats/device-page.ts";
import type { DeviceRegistry } from "../stats/device-registry.ts";
import { addRates, zeroRates } from "../stats/hashrate-window.ts";
import type { ProxyPort } from "./port.ts";

export class EngineLiveStats implements LiveStats {
  constructor(
    private readonly ports: ReadonlyMap<number, ProxyPort>,
    private readonly configs: ReadonlyMap<number, Port>,
    private readonly registry: DeviceRegistry,
  ) {}

  workers(portId: number): DeviceView[] {
    const now = Date.now();
    return this.registry.devices(portId).map((d) => d.view(now));
  }

  workerList(portId: number, query: DeviceQuery | null): DeviceList {
    return pageDevices(this.workers(portId), query);
  }

  portLog(portId: number): PortLogEntry[] {
    return this.ports.get(portId)?.portLog.list() ?? [];
  }

  portIps(portId: number): IpView[] {
    const p = this.ports.get(portId);
    if (!p) return [];
    const devices = new Map<string, number>();
    for (const d of this.registry.devices(portId)) devices.set(d.ip, (devices.get(d.ip) ?? 0) + 1);
    return [...p.ips].map(([ip, r]) => ({
      ip,
      connections: r.connections,
      devices: devices.get(ip) ?? 0,
      lastSeen: r.lastSeen,
    }));
  }

  groupWorkers(portId: number): WalletView[] {
    return this.walletList(portId);
  }

  walletList(portId: number): WalletView[] {
    const now = Date.now();
    const by = new Map<string, WalletView>();
    for (const d of this.registry.devices(portId)) {
      const v = by.get(d.wallet) ?? {
        wallet: d.wallet,
        devices: 0,
        online: 0,
        hashrate: zeroRates(),
        valid: 0,
        invalid: 0,
        stale: 0,
      };
      v.devices++;
      if (d.connections > 0) v.online++;
      v.hashrate = addRates(v.hashrate, d.work.rates(now));
      v.valid += d.valid;
      v.invalid += d.invalid;
      v.stale += d.stale;
      by.set(d.wallet, v);
    }
    return [...by.values()];
  }

  worker(workerId: string): DeviceView | null {
    return this.registry.get(workerId)?.view(Date.now()) ?? null;
  }

  portStats(portId: number): PortStatsView {
    const now = Date.now();
    const p = this.ports.get(portId);
    const t = this.registry.tally(portId, now);
    const devices = this.registry.devices(portId);
    const sessions = p?.sessionCounts() ?? { main: 0, fee: 0 };
    return {
      portId,
      online: p?.online ?? 0,
      devices: devices.length,
      hashrate: t.work.rates(now),
      pumped: t.pumped.rates(now),
      valid: t.valid,
      invalid: t.invalid,
      stale: t.stale,
      latencyMs: Math.round(t.latencyMs * 100) / 100,
      work: { accepted: t.acceptedWork, feeAccepted: t.feeAcceptedWork, rejected: t.rejectedWork },
      upstream: p?.onStandby ? "standby" : "main",
      upstreamSessions: sessions.main,
      feeSessions: sessions.fee,
      fee: p?.feeView() ?? {
        configured: 0,
        target: 0,
        achieved: 0,
        gap: 0,
        totalWork: t.split.total,
        wallets: [],
      },
    };
  }

  private portsOf(coin: string): number[] {
    const ids: number[] = [];
    for (const [id, c] of this.configs) if (c.currency.toUpperCase() === coin.toUpperCase()) ids.push(id);
    return ids;
  }

  currencyStats(coin: string): CurrencyStatsView {
    const now = Date.now();
    let hashrate: HashrateView = zeroRates();
    let online = 0;
    let devices = 0;
    let valid = 0;
    let invalid = 0;
    let stale = 0;
    const ids = this.portsOf(coin);
    for (const id of ids) {
      const t = this.registry.tally(id, now);
      hashrate = addRates(hashrate, t.work.rates(now));
      valid += t.valid;
      invalid += t.invalid;
      stale += t.stale;
      online += this.ports.get(id)?.online ?? 0;
      devices += this.registry.devices(id).length;
    }
    return { coin, ports: ids.length, online, devices, hashrate, valid, invalid, stale };
  }

  deviceStats(): DeviceStatsView {
    let online = 0;
    let total = 0;
    for (const d of this.registry.all()) {
      total++;
      if (d.connections > 0) online++;
    }
    return { online, offline: total - online, total };
  }

  onlineStat(coin: string): OnlineStatView {
    const ports = this.portsOf(coin).map((portId) => {
      let online = 0;
      let offline = 0;
      for (const d of this.registry.devices(portId)) {
        if (d.connections > 0) online++;
        else offline++;
      }
      return { portId, online, offline };
    });
    return {
      coin,
      online: ports.reduce((s, p) => s + p.online, 0),
      offline: ports.reduce((s, p) => s + p.offline, 0),
      ports,
    };
  }
}
