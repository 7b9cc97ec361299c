/**
 * Excel (.xlsx) export and import of ports: one row per port, the export's fields as columns, the
 * setting object as JSON text, and fee wallets flattened to wallet1_addr … wallet10_ratio so the sheet
 * stays editable by hand.
 */
import * as XLSX from "@e965/xlsx";
import { MAX_FEE_WALLETS, type Port } from "../domain/port.ts";
import {
  ERR_LIMITS,
  IMPORT_LIMITS,
  type ImportResult,
  type ImportRow,
  isPlainObject,
  NUMERIC_FIELDS,
  PORT_FIELDS,
  type RawPort,
  toExportPort,
  WALLET_FIELDS,
} from "./format.ts";

const SHEET_NAME = "ports";
/** Excel refuses longer cell text; a port whose replace list is that long cannot be exported to xlsx. */
const MAX_CELL_CHARS = 32767;

function walletColumn(n: number, field: string): string {
  return `wallet${n}_${field}`;
}

export const XLSX_COLUMNS: readonly string[] = [
  ...PORT_FIELDS,
  "setting",
  ...Array.from({ length: MAX_FEE_WALLETS }, (_, i) =>
    WALLET_FIELDS.map((f) => walletColumn(i + 1, f)),
  ).flat(),
];

export type Cell = string | number | null;

export function encodeXlsx(ports: readonly Port[]): Uint8Array {
  const rows: Cell[][] = [[...XLSX_COLUMNS]];
  for (const p of ports.map(toExportPort)) {
    if (p.wallets.length > MAX_FEE_WALLETS) {
      throw new RangeError(`port ${p.port}: more than ${MAX_FEE_WALLETS} wallets cannot be exported`);
    }
    const row: Cell[] = PORT_FIELDS.map((f) => p[f]);
    row.push(JSON.stringify(p.setting));
    for (let i = 0; i < MAX_FEE_WALLETS; i++) {
      const w = p.wallets[i];
      for (const f of WALLET_FIELDS) row.push(w ? w[f] : null);
    }
    for (const cell of row) {
      if (typeof cell === "string" && cell.length > MAX_CELL_CHARS) {
        throw new RangeError(`port ${p.port}: a field is longer than an Excel cell allows`);
      }
    }
    rows.push(row);
  }
  return encodeSheet(SHEET_NAME, rows);
}

/** One sheet of rows (the first is the header) as an .xlsx workbook; numbers stay numbers. */
export function encodeSheet(name: string, rows: readonly (readonly Cell[])[]): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows as Cell[][]), name);
  const out: ArrayBuffer = XLSX.write(book, { type: "array", bookType: "xlsx", compression: true });
  return new Uint8Array(out);
}

export function decodeXlsx(bytes: Uint8Array): ImportResult {
  let sheet: XLSX.WorkSheet | undefined;
  try {
    // sheetRows stops the reader after the rows an import may hold; the first sheet is the only one read
    const book = XLSX.read(bytes, {
      type: "array",
      cellDates: false,
      dense: false,
      sheets: 0,
      sheetRows: IMPORT_LIMITS.rows + 1,
    });
    const first = book.SheetNames[0];
    sheet = first === undefined ? undefined : book.Sheets[first];
  } catch {
    return { ok: false, key: "lang.import.err_format", message: "The file is not a readable .xlsx workbook" };
  }
  if (!sheet?.["!ref"]) {
    return { ok: false, key: "lang.import.err_params", message: "The workbook's first sheet is empty" };
  }
  // the size the sheet declares, before sheetRows cut it: what reading every cell would cost
  const declared = XLSX.utils.decode_range(sheet["!fullref"] ?? sheet["!ref"]);
  if (
    declared.e.r - declared.s.r + 1 > IMPORT_LIMITS.rows + 1 ||
    declared.e.c - declared.s.c + 1 > IMPORT_LIMITS.columns
  )
    return { ok: false, ...ERR_LIMITS };
  const firstRow = XLSX.utils.decode_range(sheet["!ref"]).s.r + 1;
  const table = XLSX.utils.sheet_to_json<Cell[]>(sheet, {
    header: 1,
    raw: true,
    defval: null,
    blankrows: true,
  });
  const header = (table[0] ?? []).map((h) => (h === null ? "" : String(h).trim().toLowerCase()));
  if (!header.includes("port") || !header.includes("currency")) {
    return {
      ok: false,
      key: "lang.import.err_params",
      message: "The first row must be the header of an export (with port and currency columns)",
    };
  }
  const rows: ImportRow[] = [];
  table.slice(1).forEach((cells, i) => {
    if (cells.every((c) => c === null || (typeof c === "string" && c.trim() === ""))) return;
    rows.push(decodeRow(header, cells, firstRow + 1 + i));
  });
  return { ok: true, rows };
}

function decodeRow(header: readonly string[], cells: readonly Cell[], row: number): ImportRow {
  const byName = new Map<string, Cell>();
  header.forEach((name, i) => {
    if (name !== "") byName.set(name, cells[i] ?? null);
  });
  const port: RawPort = {};
  for (const f of PORT_FIELDS) {
    // a column the sheet does not have stays absent, so the schema's default applies
    if (!byName.has(f)) continue;
    const v = cellValue(f, byName.get(f) ?? null);
    if (v !== undefined) port[f] = v;
  }
  const settingText = byName.get("setting");
  if (settingText !== undefined && settingText !== null && String(settingText).trim() !== "") {
    const setting = parseObject(String(settingText));
    if (!setting) {
      return {
        row,
        ok: false,
        key: "lang.import.err_params",
        message: `Row ${row}: setting is not a JSON object`,
      };
    }
    port.setting = setting;
  }
  const wallets: NonNullable<RawPort["wallets"]> = [];
  for (let n = 1; n <= MAX_FEE_WALLETS; n++) {
    const wallet: Record<string, unknown> = {};
    for (const f of WALLET_FIELDS) {
      if (!byName.has(walletColumn(n, f))) continue;
      const cell = byName.get(walletColumn(n, f)) ?? null;
      const v = cellValue(f, cell);
      if (v === undefined) continue;
      // a number column holding words is a broken wallet, not something zod should guess about
      if (NUMERIC_FIELDS.has(f) && typeof v !== "number") {
        return {
          row,
          ok: false,
          key: "lang.import.err_wallet",
          message: `Row ${row}: wallet ${n} ${f} is not a number`,
        };
      }
      wallet[f] = v;
    }
    if (Object.values(wallet).some((v) => v !== "")) wallets.push(wallet);
  }
  port.wallets = wallets;
  return { row, ok: true, port };
}

/**
 * A cell as the JSON form would hold it. Numeric columns: numbers stay, numeric text becomes a number,
 * other text is passed on for the schema to refuse; empty is absent so the schema's default applies.
 * Text columns: always a string (Excel turns "123" into a number), empty is "".
 */
function cellValue(field: string, cell: Cell): unknown {
  if (NUMERIC_FIELDS.has(field)) {
    if (cell === null) return undefined;
    if (typeof cell === "number") return cell;
    const t = cell.trim();
    if (t === "") return undefined;
    return Number.isFinite(Number(t)) ? Number(t) : t;
  }
  return cell === null ? "" : String(cell);
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return isPlainObject(v) ? v : null;
  } catch {
    return null;
  }
}
