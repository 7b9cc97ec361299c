import type { SysStat } from "./sys-types.ts";

/** What a remote reports of its farm besides the system readings (appliance/web/api/fleet-readings.ts). */
export interface FleetStat extends SysStat {
  hashrate?: { coin: string; current: number; m15: number }[];
  devices?: { online: number; offline: number; total: number };
  /** alert episodes firing on the remote now, by kind, and two of its rules */
  alerts?: { firing?: number; kinds?: string[]; device_offline: boolean; hashrate_drop: number };
}

/** A remote instance as GET /api/remote/list answers it (token never included). */
export interface RemoteClient {
  id: number;
  address: string;
  remark: string;
  /** the pinned certificate's SHA-256 fingerprint; "" = not pinned */
  fingerprint: string;
  pinned: boolean;
  pinned_at: string;
  state: "pending" | "online" | "offline" | "unpinned" | "refused";
  /** when the current state began (offline: since when it has not answered) */
  since: string | null;
  last_seen: string | null;
  error_key?: string;
  error?: string;
  /** the fingerprint presented instead of the pinned one */
  presented?: string;
  version?: { version: string };
  stat?: FleetStat;
}

/** The certificate a remote presents, as POST /api/remote/inspect reads it. */
export interface PresentedCert {
  address: string;
  fingerprint: string;
  subject: string;
  notAfter: string;
}
