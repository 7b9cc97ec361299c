/** The data directory's disk nearly full (SQLite stops writing when it is full); clears 2 points below. */
import { readDisk } from "../ops/sysinfo/index.ts";
import { type OpenEpisode, type Rule, type RuleResult, silenced } from "./alert-change.ts";
import { formatBytes } from "./format.ts";
import type { AlertRules } from "./rule-settings.ts";
import type { AlertSources } from "./sources.ts";

const SUBJECT = "disk";

export class DiskRule implements Rule<AlertRules> {
  readonly kind = "disk_full";

  constructor(private readonly sources: AlertSources) {}

  check(_now: number, settings: AlertRules, open: ReadonlyMap<string, OpenEpisode>): RuleResult {
    if (settings.disk_percent === 0) return silenced(open);
    const disk = readDisk(this.sources.dataDir);
    const used = disk.usage_percent;
    if (open.has(SUBJECT)) {
      return { firing: [], resolved: used < settings.disk_percent - 2 ? [SUBJECT] : [], quiet: [] };
    }
    if (used < settings.disk_percent) return { firing: [], resolved: [], quiet: [] };
    return {
      firing: [
        { subject: SUBJECT, portId: null, vars: { percent: Math.round(used), free: formatBytes(disk.free) } },
      ],
      resolved: [],
      quiet: [],
    };
  }
}
