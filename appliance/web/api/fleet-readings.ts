import type { AppContext } from "../app-context.ts";
import { ALERT_SETTING } from "./preferences.ts";

/**
 * What a central instance's fleet view shows of this one beside the system readings of /api/sys/stat
 * (which the group-control token may read): hashrate per coin of the running ports (each coin counts in
 * its own unit, so they are not summed), devices online and offline, and the alert rules as set —
 * there is no alert state to report until something evaluates those rules.
 */
export function fleetReadings(app: AppContext) {
  const running = app.ports.list().filter((p) => app.engine.runState(p.id) === "active");
  const coins = [...new Set(running.map((p) => p.currency))].sort();
  const alert = app.settings.get<{ device_offline?: boolean; hashrate_drop?: number }>(ALERT_SETTING, {});
  return {
    hashrate: coins.map((coin) => {
      const { hashrate } = app.engine.live.currencyStats(coin);
      return { coin, current: hashrate.current, m15: hashrate.m15 };
    }),
    devices: app.engine.live.deviceStats(),
    alerts: { device_offline: alert.device_offline ?? false, hashrate_drop: alert.hashrate_drop ?? 0 },
  };
}
