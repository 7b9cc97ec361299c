import { FEE_AUDIT_WORKER, runInWorker } from "../workers.ts";

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

/** A month of a port with ten wallets builds in well under a second; anything slower is a fault. */
const EXPORT_TIMEOUT_MS = 60_000;

export function exportFeeAudit(job: FeeAuditJob): Promise<Uint8Array> {
  return runInWorker<FeeAuditJob, Uint8Array>(FEE_AUDIT_WORKER, job, EXPORT_TIMEOUT_MS);
}
