/**
 * A device offline: disconnected for the grace period the operator set, one episode until it
 * connects again. Devices that went down together (a switch, a power strip) are found on the same
 * tick: once one of them is past its grace, the others that dropped within `burstMs` of it join it
 * a little early, so the evaluator reports them in one message instead of one per tick.
 */
import { type Finding, type OpenEpisode, type Rule, type RuleResult, silenced } from "./alert-change.ts";
import type { AlertRules } from "./rule-settings.ts";
import type { AlertSources, DeviceState } from "./sources.ts";

export class OfflineRule implements Rule<AlertRules> {
  readonly kind = "device_offline";

  constructor(
    private readonly sources: AlertSources,
    private readonly burstMs: number,
  ) {}

  check(now: number, settings: AlertRules, open: ReadonlyMap<string, OpenEpisode>): RuleResult {
    if (!settings.device_offline) return silenced(open);
    const ports = new Map(this.sources.runningPorts().map((p) => [p.id, p]));
    const grace = settings.offline_grace_s * 1000;
    const result: RuleResult = { firing: [], resolved: [], quiet: [] };
    const due: DeviceState[] = [];
    const waiting: DeviceState[] = [];
    for (const d of this.sources.registry.all()) {
      if (d.connections > 0) {
        if (open.has(d.key)) result.resolved.push(d.key);
        continue;
      }
      // A stopped port's devices are down because the operator stopped it: not an alert, and an
      // open episode waits for the device to come back on the restarted port.
      if (!ports.has(d.portId) || open.has(d.key)) continue;
      (now - d.lastSeen >= grace ? due : waiting).push(d);
    }
    if (due.length === 0) return result;
    const lastDown = due.reduce((m, d) => Math.max(m, d.lastSeen), 0);
    for (const d of due.concat(waiting.filter((w) => w.lastSeen <= lastDown + this.burstMs))) {
      result.firing.push(finding(d, ports.get(d.portId)?.port ?? 0));
    }
    return result;
  }
}

function finding(d: DeviceState, port: number): Finding {
  return {
    subject: d.key,
    portId: d.portId,
    vars: { port, device: d.name ? `${d.wallet}.${d.name}` : d.wallet, ip: d.ip },
  };
}
