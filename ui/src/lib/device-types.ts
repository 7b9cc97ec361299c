/** Wire shapes of the port-inside calls (appliance/domain/engine.ts views). */
import type { HashrateView } from "./sys-types.ts";

export interface Device {
  id: string;
  portId: number;
  wallet: string;
  name: string;
  ip: string;
  agent: string;
  algorithm: string;
  online: boolean;
  valid: number;
  invalid: number;
  stale: number;
  hashrate: HashrateView;
  pumped: HashrateView;
  localHashrate: number;
  difficulty: number;
  reconnects: number;
  disconnects: number;
  feeRatio: number;
  feeAchieved: number;
  latencyMs: number;
  loginAt: number;
  lastSubmitAt: number;
  lastJobAt: number;
  concurrency: number;
  mining: string;
}

export interface WalletRowView {
  wallet: string;
  devices: number;
  online: number;
  hashrate: HashrateView;
  valid: number;
  invalid: number;
  stale: number;
  collect?: boolean;
}

export interface PortLogEntry {
  at: number;
  level: "info" | "warn" | "error";
  message: string;
}
export interface IpView {
  ip: string;
  connections: number;
  devices: number;
  lastSeen: number;
}
export interface PortStatsView {
  online: number;
  devices: number;
  hashrate: HashrateView;
  pumped: HashrateView;
  latencyMs: number;
  upstream: "main" | "standby";
  fee: {
    configured: number;
    achieved: number;
    wallets: { walletId: number; addr: string; configured: number; achieved: number }[];
  };
}
