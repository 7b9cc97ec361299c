/**
 * Where OTA state lives in the data directory. The installed executable is the "built-in" release;
 * every OTA release is unpacked into releases/<version>, and `current` (a symlink) names the active
 * one. No `current` means the built-in release is active.
 *
 *   DATA/pithead.db                 the database (owned by the store)
 *   DATA/releases/<version>/        manifest.json, app/main.js, console/**, optional pithead executable
 *   DATA/current -> releases/<v>    switched atomically (symlink + rename)
 *   DATA/ota/pending.json           an update under trial until its health check passes
 *   DATA/ota/update.log             JSON lines, newest last
 *   DATA/ota/backups/               database copies taken before each update
 */
import { join } from "node:path";

export function otaPaths(dataDir: string) {
  return {
    db: join(dataDir, "pithead.db"),
    releases: join(dataDir, "releases"),
    release: (version: string) => join(dataDir, "releases", version),
    current: join(dataDir, "current"),
    ota: join(dataDir, "ota"),
    pending: join(dataDir, "ota", "pending.json"),
    log: join(dataDir, "ota", "update.log"),
    backups: join(dataDir, "ota", "backups"),
  };
}

/** What the supervisor needs to finish or undo an update after the restart. */
export interface Pending {
  from: string;
  to: string;
  /** previous value of `current` (a releases/<v> path), or null when the built-in release was active */
  previous: string | null;
  /** database copy to restore on rollback; null when there was no database yet */
  db_backup: string | null;
  started_at: string;
}
