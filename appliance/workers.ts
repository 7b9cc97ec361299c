/**
 * Worker thread entry points, relative to appliance/. A bundle holds one entry per file, so the
 * compiled executable (scripts/dist.ts) and the OTA release (ops/ota/stage.ts) build each of these as
 * its own entry beside main, keeping its path: stats/fee-audit-worker.ts becomes
 * stats/fee-audit-worker.js next to the bundled main.
 */
export const FEE_AUDIT_WORKER = "stats/fee-audit-worker.ts";

export const WORKER_ENTRIES: readonly string[] = [FEE_AUDIT_WORKER];

/**
 * The URL to start a worker entry from. This file sits in appliance/ beside main.ts, and bundled
 * every module's import.meta.url is the bundle's entry, so one relative path serves both; only the
 * extension differs.
 */
export function workerUrl(entry: string): string {
  const fromSource = import.meta.url.endsWith(".ts");
  return new URL(`./${fromSource ? entry : entry.replace(/\.ts$/, ".js")}`, import.meta.url).href;
}
