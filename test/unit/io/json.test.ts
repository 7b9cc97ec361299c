import { describe, expect, test } from "bun:test";
import {
  decodeImportJson,
  encodeExportJson,
  type ImportResult,
  toExportPort,
} from "../../../appliance/io/index.ts";
import { PORTS } from "./fixtures.ts";

function rows(result: ImportResult) {
  if (!result.ok) throw new Error(result.message);
  return result.rows;
}

describe("JSON export/import", () => {
  test("export document has the format header and no ids or timestamps", () => {
    const doc = JSON.parse(encodeExportJson(PORTS, new Date("2026-11-22T10:00:00Z")));
    expect(doc).toMatchObject({
      format: "pithead-ports",
      version: 1,
      exported_at: "2026-11-22T10:00:00.000Z",
    });
    expect(doc.ports).toHaveLength(3);
    expect(doc.ports[0].id).toBeUndefined();
    expect(doc.ports[0].created_at).toBeUndefined();
    expect(doc.ports[0].wallets[0]).toEqual({
      addr: "bc1qfee1",
      device: "fee1",
      pool_address: "btc.f2pool.com:1314",
      pool_protocol: 0,
      ratio: 0.02,
    });
  });

  test("round trip: decode(encode(ports)) gives the exported ports, numbered from 1", () => {
    const decoded = rows(decodeImportJson(encodeExportJson(PORTS)));
    expect(decoded.map((r) => r.row)).toEqual([1, 2, 3]);
    const expected: unknown[] = PORTS.map(toExportPort);
    expect(decoded.map((r): unknown => (r.ok ? r.port : null))).toEqual(expected);
  });

  test("a broken port is reported with its row number; the others still decode", () => {
    const doc = JSON.parse(encodeExportJson(PORTS));
    doc.ports[1].wallets[3] = "not a wallet";
    doc.ports[2].setting = [1, 2];
    const decoded = rows(decodeImportJson(JSON.stringify(doc)));
    expect(decoded[0]?.ok).toBe(true);
    expect(decoded[1]).toMatchObject({ row: 2, ok: false, key: "lang.import.err_wallet" });
    expect(decoded[2]).toMatchObject({ row: 3, ok: false, key: "lang.import.err_params" });
    const nonObject = rows(decodeImportJson('{"format":"pithead-ports","version":1,"ports":[{},42]}'));
    expect(nonObject[1]).toMatchObject({ row: 2, ok: false, key: "lang.import.err_params" });
    const walletsNotList = rows(decodeImportJson('[{"port":1,"wallets":{}}]'));
    expect(walletsNotList[0]).toMatchObject({ row: 1, ok: false, key: "lang.import.err_wallet" });
  });

  test("decoding keeps raw values for the schemas to judge and drops unknown fields", () => {
    const decoded = rows(decodeImportJson('[{"port":"abc","currency":"BTC","id":7,"evil":true}]'));
    expect(decoded[0]).toEqual({ row: 1, ok: true, port: { port: "abc", currency: "BTC" } });
  });

  test("takes a bare array and the GET /api/ports body, with a BOM", () => {
    const bare = rows(decodeImportJson(`\uFEFF${JSON.stringify([{ port: 1, currency: "BTC" }])}`));
    expect(bare[0]).toMatchObject({ ok: true, port: { port: 1, currency: "BTC" } });
    const api = {
      items: [
        { server: { id: 5, port: 2, currency: "LTC" }, setting: { sd: "*" }, wallets: [{ addr: "x" }] },
      ],
    };
    expect(rows(decodeImportJson(JSON.stringify(api)))[0]).toEqual({
      row: 1,
      ok: true,
      port: { port: 2, currency: "LTC", setting: { sd: "*" }, wallets: [{ addr: "x" }] },
    });
  });

  test("file-level errors: not JSON, not a port export, a newer version", () => {
    expect(decodeImportJson("{nope")).toMatchObject({ ok: false, key: "lang.import.err_format" });
    expect(decodeImportJson('{"hello":1}')).toMatchObject({ ok: false, key: "lang.import.err_format" });
    expect(decodeImportJson('{"format":"pithead-ports","version":2,"ports":[]}')).toMatchObject({
      ok: false,
      key: "lang.import.err_format",
    });
  });
});
