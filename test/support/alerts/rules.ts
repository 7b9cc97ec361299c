import type { AlertRules } from "../../../appliance/alerts/rule-settings.ts";

/**
 * Alert rules with every rule off: a test turns on the one it is about, so that each message a
 * receiver gets is the one the test waits for (the disk and certificate rules are on by default).
 */
export const QUIET_RULES: Partial<AlertRules> = {
  disk_percent: 0,
  cert_days: 0,
  pool_failover: false,
  hashrate_drop: 0,
  device_offline: false,
};
