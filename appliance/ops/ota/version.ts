/**
 * Release versions are dotted numbers with an optional pre-release tag ("1.2.0", "1.3.0-rc.1").
 * Comparison follows semver precedence, which is all an updater needs to refuse a downgrade.
 */
import pkg from "../../../package.json" with { type: "json" };

declare const PITHEAD_VERSION: string | undefined;

/** The version built into this executable (set by scripts/dist.ts; package.json when run from source). */
export const BUILT_IN_VERSION: string = typeof PITHEAD_VERSION === "string" ? PITHEAD_VERSION : pkg.version;

const VERSION_RE = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;

export function isVersion(v: string): boolean {
  return VERSION_RE.test(v);
}

/** Negative when a < b, 0 when equal, positive when a > b. */
export function compareVersions(a: string, b: string): number {
  const ma = VERSION_RE.exec(a);
  const mb = VERSION_RE.exec(b);
  if (!ma || !mb) throw new Error(`not a version: ${ma ? b : a}`);
  for (let i = 1; i <= 3; i++) {
    const d = Number(ma[i]) - Number(mb[i]);
    if (d !== 0) return d;
  }
  const pa = ma[4];
  const pb = mb[4];
  if (pa === pb) return 0;
  if (pa === undefined) return 1; // a release outranks its pre-releases
  if (pb === undefined) return -1;
  return comparePre(pa.split("."), pb.split("."));
}

function comparePre(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x === y) continue;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) return Number(x) - Number(y);
    if (nx) return -1;
    if (ny) return 1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}
