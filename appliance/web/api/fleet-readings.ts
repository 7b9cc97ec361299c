import { readAlertRules } from "../../alerts/rule-settings.ts";
import { AlertHistoryStore } from "../../store/alert-history.ts";
import type { AppContext } from "../app-context.ts";

/**
 * What a central instance's fleet view shows of this one beside the system readings of /api/sys/stat
 * (which the group-control token may read): hashrate per coin of the running ports (each coin counts in
 * its own unit, so they are not summed), devices online and offline, and the alert state — the
 * episodes firing now (by kind) and the two rules the first settings page had.
 */
export async function fleetReadings(app: AppContext) {
  const running = app.ports.list().filter((p) => app.engine.runState(p.id) === "active");
  const coins = [...new Set(running.map((p) => p.currency))].sort();
  const rules = readAlertRules(app.settings);
  const firing = new AlertHistoryStore(app.db).firing();
  const [perCoin, devices] = await Promise.all([
    Promise.all(coins.map((coin) => app.engine.live.currencyStats(coin))),
    app.engine.live.deviceStats(),
  ]);
  return {
    hashrate: perCoin.map(({ hashrate }, i) => ({
      coin: coins[i],
      current: hashrate.current,
      m15: hashrate.m15,
    })),
    devices,
    alerts: {
      firing: firing.length,
      kinds: [...new Set(firing.map((a) => a.kind))].sort(),
      device_offline: rules.device_offline,
      hashrate_drop: rules.hashrate_drop,
    },
  };
}
