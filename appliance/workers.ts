/**
 * Worker thread entry points, relative to appliance/. A bundle holds one entry per file, so the
 * compiled executable (scripts/dist.ts) and the OTA release (ops/ota/stage.ts) build each of these as
 * its own entry beside main, keeping its path: stats/fee-audit-worker.ts becomes
 * stats/fee-audit-worker.js next to the bundled main.
 */
export const FEE_AUDIT_WORKER = "stats/fee-audit-worker.ts";
export const IMPORT_WORKER = "io/import-worker.ts";
export const CAPTCHA_WORKER = "auth/captcha-worker.ts";
export const ENGINE_WORKER = "engine/engine-worker.ts";
export const POOL_WINDOW_WORKER = "poolnode/accounting/window-worker.ts";

export const WORKER_ENTRIES: readonly string[] = [
  FEE_AUDIT_WORKER,
  IMPORT_WORKER,
  CAPTCHA_WORKER,
  ENGINE_WORKER,
  POOL_WINDOW_WORKER,
];

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

export class WorkerBusy extends Error {}

/**
 * One worker of `entry` kept running for small, frequent jobs (a captcha image), where starting a
 * worker per job would cost more than the job. Jobs are answered in order; at most `maxPending`
 * wait, so a flood is refused at once instead of queueing without bound. A worker that fails is
 * dropped with its pending jobs and the next job starts a new one. It does not keep the process
 * alive.
 */
export class ResidentWorker<J, R> {
  private worker: Worker | null = null;
  private readonly pending: Array<{ resolve: (r: R) => void; reject: (e: Error) => void }> = [];

  constructor(
    private readonly entry: string,
    private readonly maxPending: number,
  ) {}

  get full(): boolean {
    return this.pending.length >= this.maxPending;
  }

  run(job: J): Promise<R> {
    if (this.full) return Promise.reject(new WorkerBusy(`${this.entry} has ${this.maxPending} jobs waiting`));
    const worker = this.worker ?? this.start();
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ resolve, reject });
      worker.postMessage(job);
    });
  }

  private start(): Worker {
    const worker = new Worker(workerUrl(this.entry));
    // Bun's Worker has unref (the DOM typings this project compiles with do not know it)
    (worker as Worker & { unref(): void }).unref();
    worker.onmessage = (e: MessageEvent<WorkerReply<R>>) => {
      const head = this.pending.shift();
      if (head === undefined) return;
      if (e.data.ok) head.resolve(e.data.value);
      else head.reject(new Error(e.data.error));
    };
    worker.onerror = (e) => {
      this.worker = null;
      worker.terminate();
      for (const p of this.pending.splice(0)) p.reject(new Error(e.message));
    };
    this.worker = worker;
    return worker;
  }
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
