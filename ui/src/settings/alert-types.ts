/** The alert API's shapes (docs/api.md "Alerts"). */

export type AlertLanguage = "en" | "ru" | "zh-CN";

export interface AlertRules {
  device_offline: boolean;
  offline_grace_s: number;
  hashrate_drop: number;
  fee_drift_pp: number;
  disk_percent: number;
  cert_days: number;
  pool_failover: boolean;
  lang: AlertLanguage;
  /** the ServerChan SendKey, "" = off; "********" when one is set */
  push_key: string;
  /** ServerChan's address, "" = the service */
  push_url: string;
}

export interface AlertChannels {
  webhook: { enabled: boolean; url: string; secret: string };
  telegram: { enabled: boolean; base_url: string; token: string; chat_id: string };
  email: {
    enabled: boolean;
    host: string;
    port: number;
    starttls: boolean;
    tls_fingerprint: string;
    user: string;
    password: string;
    from: string;
    to: string;
  };
}

export interface AlertEntry {
  id: number;
  kind: string;
  state: "firing" | "resolved";
  key: string;
  vars: Record<string, string | number>;
  fired_at: number;
  resolved_at: number | null;
}

export interface AlertHistory {
  items: AlertEntry[];
  queue: { pending: number; last_error: string };
}

export interface TestResult {
  channel: keyof AlertChannels | "serverchan";
  ok: boolean;
  error?: string;
}
