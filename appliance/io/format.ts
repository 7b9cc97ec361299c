/**
 * The port export/import format: what a file holds, what a decoder hands back, and the errors it can
 * report. Decoders only check structure (is this a port object, is the setting JSON, are wallets a
 * list); the HTTP layer's zod schemas apply the business rules of spec §5 to the raw rows.
 */
import { PORT_SCALAR_FIELDS, type Port, type PortSetting } from "../domain/port.ts";

export const EXPORT_FORMAT = "pithead-ports";
export const EXPORT_VERSION = 1;

/** The scalar port fields an export carries, in column order. No ids or timestamps: imports make new ports. */
export const PORT_FIELDS = PORT_SCALAR_FIELDS;
export type PortField = (typeof PORT_FIELDS)[number];

export const WALLET_FIELDS = ["addr", "device", "pool_address", "pool_protocol", "ratio"] as const;
export type WalletField = (typeof WALLET_FIELDS)[number];

/** Fields that hold numbers; everything else is text. Used to type spreadsheet cells back. */
export const NUMERIC_FIELDS: ReadonlySet<string> = new Set<string>([
  "port",
  "nc",
  "limit_connections",
  "connect_mode",
  "connect_mode2",
  "mode",
  "protocol",
  "status",
  "pool_protocol",
  "ratio",
]);

export type ExportWallet = Pick<Port["wallets"][number], WalletField>;

export type ExportPort = Pick<Port, PortField> & { setting: PortSetting; wallets: ExportWallet[] };

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  /** ISO 8601 */
  exported_at: string;
  ports: ExportPort[];
}

/** A port as read from a file: known fields only, values not yet validated. */
export type RawPort = Partial<Record<PortField, unknown>> & {
  setting?: Record<string, unknown>;
  wallets?: Partial<Record<WalletField, unknown>>[];
};

export type ImportErrorKey =
  | "lang.import.err_format"
  | "lang.import.err_params"
  | "lang.import.err_wallet"
  | "lang.import.err_limits";

export interface ImportError {
  key: ImportErrorKey;
  message: string;
}

/**
 * One port of the file with its 1-based row number: the position in `ports` for JSON, the spreadsheet
 * row as Excel shows it (header = row 1) for xlsx, so the operator can find the row the error names.
 */
export type ImportRow = { row: number; ok: true; port: RawPort } | ({ row: number; ok: false } & ImportError);

/** A whole file: rows (some may carry errors), or a file-level error when it is not a port file at all. */
export type ImportResult = { ok: true; rows: ImportRow[] } | ({ ok: false } & ImportError);

/**
 * What one import may hold. A spreadsheet declares its size itself (a 1.7 KB file can claim
 * A1:XFD1048576), so the declared range is checked before a single cell is read; no appliance has
 * more ports than a machine has port numbers, and an export has fewer than 100 columns.
 */
export const IMPORT_LIMITS = { bytes: 8 * 1024 * 1024, rows: 10_000, columns: 200 } as const;

export const ERR_LIMITS: ImportError = {
  key: "lang.import.err_limits",
  message: `The file is too large to import: at most ${IMPORT_LIMITS.rows} ports, ${IMPORT_LIMITS.columns} columns and ${IMPORT_LIMITS.bytes / 1024 / 1024} MB`,
};

export const ERR_FORMAT: ImportError = {
  key: "lang.import.err_format",
  message: "Unsupported file format: only .json and .xlsx files can be imported",
};

export function toExportPort(p: Port): ExportPort {
  return {
    port: p.port,
    name: p.name,
    currency: p.currency,
    nc: p.nc,
    limit_connections: p.limit_connections,
    pool_address: p.pool_address,
    connect_mode: p.connect_mode,
    pool_address2: p.pool_address2,
    connect_mode2: p.connect_mode2,
    mode: p.mode,
    proxy_addr: p.proxy_addr,
    proxy_device: p.proxy_device,
    pattern_addr: p.pattern_addr,
    replace_addr: p.replace_addr,
    protocol: p.protocol,
    category: p.category,
    status: p.status,
    setting: { ...p.setting },
    wallets: p.wallets.map((w) => ({
      addr: w.addr,
      device: w.device,
      pool_address: w.pool_address,
      pool_protocol: w.pool_protocol,
      ratio: w.ratio,
    })),
  };
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
