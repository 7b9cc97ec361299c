import { describe, expect, test } from "bun:test";
import * as XLSX from "@e965/xlsx";
import {
  decodeXlsx,
  detectImportFormat,
  encodeXlsx,
  type ImportError,
  type ImportResult,
  toExportPort,
  XLSX_COLUMNS,
} from "../../../appliance/io/index.ts";
import { PORTS } from "./fixtures.ts";

function rows(result: ImportResult) {
  if (!result.ok) throw new Error(result.message);
  return result.rows;
}

/** A workbook written the way a person would: arrays of cells, first row the header. */
function sheet(table: (string | number | null)[][]): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(table), "Sheet1");
  return new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }));
}

describe("xlsx export/import", () => {
  test("columns: port fields, setting, then wallet1_* … wallet10_*", () => {
    expect(XLSX_COLUMNS.slice(0, 3)).toEqual(["port", "name", "currency"]);
    expect(XLSX_COLUMNS).toContain("setting");
    expect(XLSX_COLUMNS).toContain("wallet1_addr");
    expect(XLSX_COLUMNS.at(-1)).toBe("wallet10_ratio");
    expect(XLSX_COLUMNS).toHaveLength(17 + 1 + 50);
  });

  test("round trip: decode(encode(ports)) equals the exported ports; rows are sheet rows", () => {
    const bytes = encodeXlsx(PORTS);
    expect(detectImportFormat("ports.xlsx", bytes)).toBe("xlsx");
    const decoded = rows(decodeXlsx(bytes));
    expect(decoded.map((r) => r.row)).toEqual([2, 3, 4]);
    const expected: unknown[] = PORTS.map(toExportPort);
    expect(decoded.map((r): unknown => (r.ok ? r.port : null))).toEqual(expected);
  });

  test("a broken row is reported with its sheet row number", () => {
    const header = ["port", "currency", "pool_address", "setting", "wallet1_addr", "wallet1_ratio"];
    const decoded = rows(
      decodeXlsx(
        sheet([
          header,
          [3333, "BTC", "btc.viabtc.io:3333", "", "bc1q", 0.01],
          [null, null, null, null, null, null],
          [3334, "BTC", "btc.viabtc.io:3333", "{not json", "", null],
          [3335, "BTC", "btc.viabtc.io:3333", "", "bc1q", "two percent"],
        ]),
      ),
    );
    expect(decoded).toHaveLength(3);
    expect(decoded[0]).toMatchObject({ row: 2, ok: true });
    expect(decoded[1]).toMatchObject({ row: 4, ok: false, key: "lang.import.err_params" });
    expect(decoded[2]).toMatchObject({ row: 5, ok: false, key: "lang.import.err_wallet" });
    if (decoded[2]?.ok === false) expect(decoded[2].message).toContain("Row 5");
  });

  test("hand-made sheets: text numbers become numbers, numbers in text columns become text", () => {
    const decoded = rows(
      decodeXlsx(
        sheet([
          [
            "Port",
            "Currency",
            "name",
            "pool_address",
            "wallet2_addr",
            "wallet2_ratio",
            "wallet2_pool_protocol",
          ],
          ["3333", "BTC", 42, "btc.viabtc.io:3333", "bc1q", "0.05", 1],
        ]),
      ),
    );
    expect(decoded[0]).toEqual({
      row: 2,
      ok: true,
      port: {
        port: 3333,
        currency: "BTC",
        name: "42",
        pool_address: "btc.viabtc.io:3333",
        wallets: [{ addr: "bc1q", ratio: 0.05, pool_protocol: 1 }],
      },
    });
  });

  test("file-level errors: not a workbook, no header", () => {
    expect(decodeXlsx(new TextEncoder().encode("PK\u0003\u0004garbage"))).toMatchObject({
      ok: false,
      key: "lang.import.err_format",
    });
    expect(
      decodeXlsx(
        sheet([
          ["a", "b"],
          [1, 2],
        ]),
      ),
    ).toMatchObject({ ok: false, key: "lang.import.err_params" });
  });

  test("more than ten wallets cannot be exported", () => {
    const first = PORTS[1];
    if (!first) throw new Error("fixture");
    const tooMany = { ...first, wallets: [...first.wallets, ...first.wallets.slice(0, 1)] };
    expect(() => encodeXlsx([tooMany])).toThrow(RangeError);
  });
});

describe("detectImportFormat", () => {
  const zip = encodeXlsx([]);
  const json = new TextEncoder().encode("{}");
  const err: ImportError = {
    key: "lang.import.err_format",
    message: "Unsupported file format: only .json and .xlsx files can be imported",
  };

  test("json and xlsx by extension, case-insensitive", () => {
    expect(detectImportFormat("ports.json", json)).toBe("json");
    expect(detectImportFormat("PORTS.XLSX", zip)).toBe("xlsx");
  });

  test("anything else is refused with the message naming the allowed formats", () => {
    for (const name of ["ports.xls", "ports.csv", "ports.txt", "ports", "ports.xlsx.exe"]) {
      expect(detectImportFormat(name, zip)).toEqual(err);
    }
    // an old .xls (OLE compound file) renamed to .xlsx
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(detectImportFormat("ports.xlsx", ole)).toEqual(err);
  });
});
