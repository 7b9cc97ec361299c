/**
 * Worker thread entry: the work per address in a PPLNS window — a matured block's, or the current
 * one for one address (address/info) — the one sum over a window, 200,000 shares in ~50 ms
 * (docs/benchmarks.md), which on the pool's thread would hold every miner's share answer that long. The worker opens its own read-only connection (WAL lets it read
 * while the pool writes the share log); the window's shares do not change while its block waits to be
 * credited, since pruning keeps every uncredited round's window. appliance/workers.ts makes it an
 * entry of its own in every build.
 */
import { Database } from "bun:sqlite";
import { PoolLedgerStore, type WindowWork } from "../../store/poolnode-ledger.ts";
import { serveWorker } from "../../workers.ts";

export interface WindowJob {
  dbFile: string;
  lastShareId: number;
  window: number;
  /** only this address's work (address/info) */
  address?: string;
}

function sum(job: WindowJob): WindowWork[] {
  const db = new Database(job.dbFile, { readonly: true, strict: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    return new PoolLedgerStore(db).windowWork(job.lastShareId, job.window, job.address).work;
  } finally {
    db.close();
  }
}

serveWorker(sum);
