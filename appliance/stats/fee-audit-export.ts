import { FEE_AUDIT_WORKER, workerUrl } from "../workers.ts";

/**
 * Runs fee audit exports in a worker thread (fee-audit-worker.ts), one at a time: a second request
 * waits for the first instead of taking a second core from the proxy. A worker lives for one export.
 */
export interface FeeAuditJob {
  dbFile: string;
  portId: number;
  /** epoch hours, inclusive */
  fromHour: number;
  toHour: number;
  format: "csv" | "xlsx";
}

export type FeeAuditReply = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

function runOne(job: FeeAuditJob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl(FEE_AUDIT_WORKER));
    worker.onmessage = (e: MessageEvent<FeeAuditReply>) => {
      worker.terminate();
      if (e.data.ok) resolve(e.data.bytes);
      else reject(new Error(e.data.error));
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(e.message));
    };
    worker.postMessage(job);
  });
}

/** never rejects: each export's failure goes to its own caller */
let queue: Promise<unknown> = Promise.resolve();

export function exportFeeAudit(job: FeeAuditJob): Promise<Uint8Array> {
  const next = queue.then(() => runOne(job));
  queue = next.catch(() => undefined);
  return next;
}
