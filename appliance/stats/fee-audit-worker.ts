/**
 * Worker thread entry: builds one fee audit file. An xlsx of 31 days × 11 targets takes ~170 ms of
 * CPU (SheetJS), which on the main thread would hold every share of every port for that long; here
 * it costs the proxy nothing. The worker opens its own read-only connection (WAL lets it read while
 * the appliance writes). appliance/workers.ts makes it an entry of its own in every build.
 */
import { Database } from "bun:sqlite";
import { encodeCsv } from "../io/csv.ts";
import { feeAuditTable } from "../io/fee-audit.ts";
import { encodeSheet } from "../io/xlsx.ts";
import { serveWorker } from "../workers.ts";
import type { FeeAuditJob } from "./fee-audit-export.ts";
import { readFeeAudit } from "./fee-audit-store.ts";

function build(job: FeeAuditJob): Uint8Array {
  const db = new Database(job.dbFile, { readonly: true, strict: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const table = feeAuditTable(readFeeAudit(db, job.portId, job.fromHour, job.toHour));
    return job.format === "xlsx"
      ? encodeSheet("fee audit", table)
      : new TextEncoder().encode(encodeCsv(table));
  } finally {
    db.close();
  }
}

serveWorker(build, (bytes) => [bytes.buffer as ArrayBuffer]);
