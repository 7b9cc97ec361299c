/**
 * The fee achieved on a port straying from its target (configured ratios with device and wallet
 * overrides weighted in) by more than the operator's threshold in percentage points. Clears once the
 * gap is back under 80 % of the threshold, so a gap that hovers at the line does not flap.
 */
import { type OpenEpisode, type Rule, type RuleResult, silenced } from "./alert-change.ts";
import { percent } from "./format.ts";
import { portSubject } from "./hashrate-rule.ts";
import type { AlertRules } from "./rule-settings.ts";
import type { AlertSources } from "./sources.ts";

export class FeeDriftRule implements Rule<AlertRules> {
  readonly kind = "fee_drift";

  constructor(private readonly sources: AlertSources) {}

  check(_now: number, settings: AlertRules, open: ReadonlyMap<string, OpenEpisode>): RuleResult {
    if (settings.fee_drift_pp === 0) return silenced(open);
    const limit = settings.fee_drift_pp / 100;
    const result: RuleResult = { firing: [], resolved: [], quiet: [] };
    const seen = new Set<string>();
    for (const p of this.sources.runningPorts()) {
      const fee = this.sources.portStats(p.id).fee;
      if (fee.configured <= 0 || fee.totalWork <= 0) continue;
      const subject = portSubject(p.id);
      seen.add(subject);
      const gap = Math.abs(fee.gap);
      if (open.has(subject)) {
        if (gap < limit * 0.8) result.resolved.push(subject);
      } else if (gap > limit) {
        result.firing.push({
          subject,
          portId: p.id,
          vars: { port: p.port, achieved: percent(fee.achieved), target: percent(fee.target) },
        });
      }
    }
    for (const subject of open.keys()) if (!seen.has(subject)) result.quiet.push(subject);
    return result;
  }
}
