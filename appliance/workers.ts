/**
 * Worker thread entry points, relative to appliance/. A bundle holds one entry per file, so the
 * compiled executable (scripts/dist.ts) and the OTA release (ops/ota/stage.ts) build each of these as
 * its own entry beside main, keeping its path: stats/fee-audit-worker.ts becomes
 * stats/fee-audit-worker.js next to the bundled main.
 */
export const FEE_AUDIT_WORKER = "stats/fee-audit-worker.ts";
export const IMPORT_WORKER = "io/import-worker.ts";

export const WORKER_ENTRIES: readonly string[] = [FEE_AUDIT_WORKER, IMPORT_WORKER];

/**
 * The URL to start a worker entry from. This file sits in appliance/ beside main.ts, and bundled
 * every module's import.meta.url is the bundle's entry, so one relative path serves both; only the
 * extension differs.
 */
export function workerUrl(entry: string): string {
  const fromSource = import.meta.url.endsWith(".ts");
  return new URL(`./${fromSource ? entry : entry.replace(/\.ts$/, ".js")}`, import.meta.url).href;
}

/** What a worker entry posts back: its result, or why it failed. */
export type WorkerReply<R> = { ok: true; value: R } | { ok: false; error: string };

export class WorkerTimeout extends Error {}

/** Jobs of one entry run one after another: a second upload waits instead of taking a second core. */
const queues = new Map<string, Promise<unknown>>();

function runOne<J, R>(entry: string, job: J, timeoutMs: number, transfer: Transferable[]): Promise<R> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl(entry));
    // a job past its time is stopped, whatever it is doing (a hostile file must not hold a core)
    const timer = setTimeout(() => {
      worker.terminate();
      reject(new WorkerTimeout(`${entry} took longer than ${timeoutMs} ms`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      worker.terminate();
    };
    worker.onmessage = (e: MessageEvent<WorkerReply<R>>) => {
      done();
      if (e.data.ok) resolve(e.data.value);
      else reject(new Error(e.data.error));
    };
    worker.onerror = (e) => {
      done();
      reject(new Error(e.message));
    };
    worker.postMessage(job, transfer);
  });
}

/** Runs one job in a fresh worker of `entry`, after the entry's earlier jobs, within `timeoutMs`. */
export function runInWorker<J, R>(
  entry: string,
  job: J,
  timeoutMs: number,
  transfer: Transferable[] = [],
): Promise<R> {
  const next = (queues.get(entry) ?? Promise.resolve()).then(() =>
    runOne<J, R>(entry, job, timeoutMs, transfer),
  );
  queues.set(
    entry,
    next.catch(() => undefined),
  );
  return next;
}

/** The worker side: answers each message with `work(job)` or its error. */
export function serveWorker<J, R>(
  work: (job: J) => R,
  transferOf: (value: R) => Transferable[] = () => [],
): void {
  const scope = globalThis as unknown as Worker;
  scope.onmessage = (e: MessageEvent<J>) => {
    let reply: WorkerReply<R>;
    try {
      reply = { ok: true, value: work(e.data) };
    } catch (err) {
      reply = { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    scope.postMessage(reply, reply.ok ? transferOf(reply.value) : []);
  };
}
