/**
 * `pithead audit verify [--data-dir DIR]`: recomputes the audit log's hash chain from the file, read
 * only (a running appliance may keep writing), and exits non-zero naming the first broken entry.
 */
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AuditLog } from "../store/audit-log.ts";
import { DB_FILE } from "../store/db.ts";

export function verifyAuditLog(dataDir: string, out: (line: string) => void = console.log): number {
  const file = join(dataDir, DB_FILE);
  if (!existsSync(file)) {
    out(`pithead: no database at ${file}`);
    return 2;
  }
  const db = new Database(file, { readonly: true, strict: true });
  try {
    const table = db
      .query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'audit_log'")
      .get();
    if (!table?.n) {
      out("audit log: none yet (the appliance has not run this release); nothing to verify");
      return 0;
    }
    const result = new AuditLog(db).verify(Date.now());
    if (!result.ok) {
      out(`audit log BROKEN at entry ${result.brokenId}: ${result.reason}`);
      return 1;
    }
    out(`audit log intact: ${result.entries} entries, head ${result.head}`);
    return 0;
  } finally {
    db.close();
  }
}
