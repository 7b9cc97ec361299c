/** JSON export and import of ports (spec §2 "Import/Export proxy config"). */
import type { Port } from "../domain/port.ts";
import {
  ERR_LIMITS,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportDocument,
  IMPORT_LIMITS,
  type ImportResult,
  type ImportRow,
  isPlainObject,
  PORT_FIELDS,
  type RawPort,
  toExportPort,
  WALLET_FIELDS,
} from "./format.ts";

export function encodeExportJson(ports: readonly Port[], now: Date = new Date()): string {
  const doc: ExportDocument = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: now.toISOString(),
    ports: ports.map(toExportPort),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * Reads our export format. Also takes a bare array of ports and the body of GET /api/ports
 * ({items: [{server, setting, wallets}]}), because operators save whatever they have at hand.
 */
export function decodeImportJson(text: string): ImportResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return { ok: false, key: "lang.import.err_format", message: "The file is not valid JSON" };
  }
  const list = portList(doc);
  if (!list.ok) return list;
  if (list.ports.length > IMPORT_LIMITS.rows) return { ok: false, ...ERR_LIMITS };
  return { ok: true, rows: list.ports.map((p, i) => decodePort(p, i + 1)) };
}

function portList(doc: unknown): { ok: true; ports: unknown[] } | Extract<ImportResult, { ok: false }> {
  if (Array.isArray(doc)) return { ok: true, ports: doc };
  if (isPlainObject(doc)) {
    if (doc.format === EXPORT_FORMAT) {
      if (typeof doc.version !== "number" || doc.version > EXPORT_VERSION) {
        return {
          ok: false,
          key: "lang.import.err_format",
          message: `Export version ${String(doc.version)} is newer than this appliance understands`,
        };
      }
      if (Array.isArray(doc.ports)) return { ok: true, ports: doc.ports };
    }
    if (Array.isArray(doc.items)) {
      return {
        ok: true,
        ports: doc.items.map((it) =>
          isPlainObject(it) && isPlainObject(it.server)
            ? { ...it.server, setting: it.setting, wallets: it.wallets }
            : it,
        ),
      };
    }
  }
  return { ok: false, key: "lang.import.err_format", message: "The file is not a port export" };
}

function decodePort(value: unknown, row: number): ImportRow {
  if (!isPlainObject(value)) {
    return { row, ok: false, key: "lang.import.err_params", message: `Row ${row}: not a port object` };
  }
  const port: RawPort = {};
  for (const f of PORT_FIELDS) if (value[f] !== undefined && value[f] !== null) port[f] = value[f];
  if (value.setting !== undefined && value.setting !== null) {
    if (!isPlainObject(value.setting)) {
      return {
        row,
        ok: false,
        key: "lang.import.err_params",
        message: `Row ${row}: setting is not an object`,
      };
    }
    port.setting = { ...value.setting };
  }
  if (value.wallets !== undefined && value.wallets !== null) {
    if (!Array.isArray(value.wallets)) {
      return { row, ok: false, key: "lang.import.err_wallet", message: `Row ${row}: wallets is not a list` };
    }
    const wallets: NonNullable<RawPort["wallets"]> = [];
    for (const [i, w] of value.wallets.entries()) {
      if (!isPlainObject(w)) {
        return {
          row,
          ok: false,
          key: "lang.import.err_wallet",
          message: `Row ${row}: wallet ${i + 1} is not an object`,
        };
      }
      const wallet: Record<string, unknown> = {};
      for (const f of WALLET_FIELDS) if (w[f] !== undefined && w[f] !== null) wallet[f] = w[f];
      wallets.push(wallet);
    }
    port.wallets = wallets;
  }
  return { row, ok: true, port };
}
