/** The update log shown in the console: one JSON object per line in DATA/ota/update.log. */
import { appendFile, mkdir, readFile } from "node:fs/promises";
import { otaPaths } from "./layout.ts";

export type UpdateEvent =
  | "verified"
  | "refused"
  | "installed"
  | "switched"
  | "healthy"
  | "rolled_back"
  | "restart_requested";

export interface UpdateLogEntry {
  time: string;
  event: UpdateEvent;
  from?: string;
  to?: string;
  message: string;
}

export async function logUpdate(dataDir: string, entry: Omit<UpdateLogEntry, "time">): Promise<void> {
  const p = otaPaths(dataDir);
  await mkdir(p.ota, { recursive: true });
  await appendFile(p.log, `${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
}

/** Newest first, at most `limit` entries. */
export async function readUpdateLog(dataDir: string, limit = 100): Promise<UpdateLogEntry[]> {
  let text: string;
  try {
    text = await readFile(otaPaths(dataDir).log, "utf8");
  } catch {
    return [];
  }
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const out: UpdateLogEntry[] = [];
  for (const line of lines.slice(-limit).reverse()) {
    try {
      out.push(JSON.parse(line) as UpdateLogEntry);
    } catch {
      // a line cut by power loss is skipped, not fatal
    }
  }
  return out;
}
