/**
 * Worker thread entry: decodes an uploaded port file (JSON or xlsx). Parsing a spreadsheet is CPU
 * and memory the proxy's event loop must never pay: a hostile file here costs a worker, which the
 * appliance stops at its time limit, and never a miner's share. appliance/workers.ts makes it an
 * entry of its own in every build.
 */
import { serveWorker } from "../workers.ts";
import type { ImportFormat } from "./detect.ts";
import type { ImportResult } from "./format.ts";
import { decodeImportJson } from "./json.ts";
import { decodeXlsx } from "./xlsx.ts";

export interface ImportJob {
  format: ImportFormat;
  bytes: Uint8Array;
}

serveWorker<ImportJob, ImportResult>(({ format, bytes }) =>
  format === "json" ? decodeImportJson(new TextDecoder().decode(bytes)) : decodeXlsx(bytes),
);
