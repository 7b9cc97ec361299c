/**
 * A port's hashrate dropping by the chosen percentage against the previous 15 minutes (spec §9):
 * the accepted work of the last `recentMs` against the `baselineMs` before it, both from samples of
 * the port's cumulative accepted work taken on each tick (never per share). While an episode is
 * open, the rate it fell from stays the reference, so a drop that lasts does not become the new
 * normal; it clears once the port is back above half the drop.
 */
import { type OpenEpisode, type Rule, type RuleResult, silenced } from "./alert-change.ts";
import { formatRate } from "./format.ts";
import type { AlertRules } from "./rule-settings.ts";
import type { AlertSources } from "./sources.ts";

interface Sample {
  at: number;
  work: number;
}

export interface HashrateWindows {
  recentMs: number;
  baselineMs: number;
}

export const portSubject = (portId: number): string => `port:${portId}`;

export class HashrateRule implements Rule<AlertRules> {
  readonly kind = "hashrate_drop";
  private readonly samples = new Map<number, Sample[]>();

  constructor(
    private readonly sources: AlertSources,
    private readonly windows: HashrateWindows,
  ) {}

  check(now: number, settings: AlertRules, open: ReadonlyMap<string, OpenEpisode>): RuleResult {
    const { recentMs, baselineMs } = this.windows;
    const ports = this.sources.runningPorts();
    const running = new Set(ports.map((p) => p.id));
    for (const id of this.samples.keys()) if (!running.has(id)) this.samples.delete(id);
    const result: RuleResult = { firing: [], resolved: [], quiet: [] };
    for (const [subject] of open) {
      if (!ports.some((p) => portSubject(p.id) === subject)) result.quiet.push(subject);
    }
    for (const p of ports) {
      let list = this.samples.get(p.id);
      if (list === undefined) {
        list = [];
        this.samples.set(p.id, list);
      }
      list.push({ at: now, work: this.sources.registry.tally(p.id, now).acceptedWork });
      // keep one sample older than the whole span, so the span's start can be read
      while (list.length > 2 && (list[1] as Sample).at <= now - recentMs - baselineMs) list.shift();
    }
    if (settings.hashrate_drop === 0) return silenced(open);
    const drop = settings.hashrate_drop / 100;
    for (const p of ports) {
      const list = this.samples.get(p.id) ?? [];
      const start = workAt(list, now - recentMs - baselineMs);
      const middle = workAt(list, now - recentMs);
      if (start === null || middle === null) continue;
      const latest = (list[list.length - 1] as Sample).work;
      const before = ((middle - start) * 1000) / baselineMs;
      const recent = ((latest - middle) * 1000) / recentMs;
      const subject = portSubject(p.id);
      const episode = open.get(subject);
      if (episode !== undefined) {
        const reference = Number(episode.vars.before_hs);
        if (recent >= reference * (1 - drop / 2)) result.resolved.push(subject);
        continue;
      }
      if (before > 0 && recent < before * (1 - drop)) {
        result.firing.push({
          subject,
          portId: p.id,
          vars: {
            port: p.port,
            percent: Math.round((1 - recent / before) * 100),
            now: formatRate(recent),
            before: formatRate(before),
            before_hs: before,
          },
        });
      }
    }
    return result;
  }
}

/** The cumulative work at `at`: the last sample taken at or before it; null before the first. */
function workAt(list: Sample[], at: number): number | null {
  let found: number | null = null;
  for (const s of list) {
    if (s.at > at) break;
    found = s.work;
  }
  return found;
}
