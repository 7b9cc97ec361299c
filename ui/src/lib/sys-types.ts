/** Wire shapes of the system calls (appliance/web/api/system.ts, live.ts). */
export interface SysStat {
  cpu: number;
  memory: { total: number; used: number; usage_percent: number };
  disk: { total: number; used: number; usage_percent: number };
  load: { one: number; five: number; fifteen: number };
  network: { rx_rate: number; tx_rate: number; rx: number; tx: number };
  uptime_seconds: number;
  ports: { total: number; active: number };
  online: number;
}
export interface DeviceStats {
  online: number;
  offline: number;
  total: number;
}
export interface LogEntry {
  id: number;
  at: string;
  address: string;
  message: string;
}
export type { HashrateView } from "../../../appliance/domain/engine.ts";

import type { CurrencyStatsView } from "../../../appliance/domain/engine.ts";
export interface CurrencyStats extends CurrencyStatsView {
  /** optional time series (unix seconds, H/s) when the server keeps one */
  series?: { t: number[]; h: number[] };
}
