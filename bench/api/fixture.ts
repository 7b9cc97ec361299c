/**
 * Shared pieces of the control-plane benchmarks: a data dir holding N ports created through the
 * real API, and the small statistics every script reports.
 */
import { type Client, portBody, startTestAppliance, tempDir } from "../../test/support/appliance.ts";

/** First port number of the generated ports; port i gets BASE_PORT + i. */
export const BASE_PORT = 20000;

/** Creates `count` closed ports (status 0: no listener) through `POST /api/port/new`. */
export async function createPorts(client: Client, count: number, concurrency = 4): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const res = await client.post("/api/port/new", portBody({ port: BASE_PORT + i, name: `bench-${i}` }));
      if (res.status !== 200)
        throw new Error(`port ${BASE_PORT + i}: ${res.status} ${JSON.stringify(res.body)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * A data dir with `count` ports configured, built by starting the appliance in-process and using the
 * API, then stopping it (the dir is kept; the caller removes it). Returns the dir and the build time.
 */
export async function portsDataDir(count: number): Promise<{ dataDir: string; buildMs: number }> {
  const started = performance.now();
  const t = await startTestAppliance(tempDir("pithead-bench-"));
  try {
    await createPorts(t.client, count);
  } finally {
    await t.close(true);
  }
  return { dataDir: t.dataDir, buildMs: performance.now() - started };
}

/** Nearest-rank percentile of already-sorted samples. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function summary(samples: number[]): { median: number; p95: number; min: number; max: number } {
  const s = [...samples].sort((a, b) => a - b);
  return {
    median: percentile(s, 50),
    p95: percentile(s, 95),
    min: s[0] ?? Number.NaN,
    max: s[s.length - 1] ?? Number.NaN,
  };
}

/** Times `fn` `runs` times after `warmup` untimed calls; returns the samples in ms. */
export async function timeRuns(runs: number, warmup: number, fn: () => unknown): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/** One GET as the console makes it, split into its client-side phases (ms). */
export interface TimedGet<T> {
  value: T;
  bytes: number;
  /** request sent → response headers (the server has built and serialized the body by then) */
  headersMs: number;
  /** headers → whole body read and decoded as text */
  bodyMs: number;
  /** JSON.parse of the body */
  parseMs: number;
  totalMs: number;
}

export async function timedGet<T>(url: string, token: string): Promise<TimedGet<T>> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const t1 = performance.now();
  const text = await res.text();
  const t2 = performance.now();
  const value = JSON.parse(text) as T;
  const t3 = performance.now();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 200)}`);
  return {
    value,
    bytes: Buffer.byteLength(text),
    headersMs: t1 - t0,
    bodyMs: t2 - t1,
    parseMs: t3 - t2,
    totalMs: t3 - t0,
  };
}

/** Calls `get` `runs` times after `warmup` untimed calls; medians of each phase and the total's spread. */
export async function timeGets<T>(
  runs: number,
  warmup: number,
  get: () => Promise<TimedGet<T>>,
): Promise<{ last: TimedGet<T>; total: number[]; headers: number[]; body: number[]; parse: number[] }> {
  for (let i = 0; i < warmup; i++) await get();
  const out = { total: [] as number[], headers: [] as number[], body: [] as number[], parse: [] as number[] };
  let last: TimedGet<T> | null = null;
  for (let i = 0; i < runs; i++) {
    last = await get();
    out.total.push(last.totalMs);
    out.headers.push(last.headersMs);
    out.body.push(last.bodyMs);
    out.parse.push(last.parseMs);
  }
  if (last === null) throw new Error("no runs");
  return { last, ...out };
}

/** Two decimals, for the JSON line and the human lines. */
export const round = (ms: number): number => Math.round(ms * 100) / 100;

export function roundAll(r: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, round(v)]));
}

export const verdict = (value: number, budget: number): string =>
  value <= budget ? `within budget (≤ ${budget} ms)` : `OVER budget (≤ ${budget} ms)`;

/** For the list calls: the budget is held only if the p95 call is within it, not just the median. */
export function listVerdict(median: number, p95: number, budget: number): string {
  if (p95 <= budget) return `within budget (≤ ${budget} ms) at p95`;
  if (median <= budget) return `median within budget, p95 OVER (≤ ${budget} ms)`;
  return `OVER budget (≤ ${budget} ms)`;
}
