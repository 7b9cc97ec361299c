import { Database } from "bun:sqlite";
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import * as XLSX from "@e965/xlsx";
import type { Port } from "../../appliance/domain/port.ts";
import { feeKey } from "../../appliance/engine/fee/targets.ts";
import { encodeCsv } from "../../appliance/io/csv.ts";
import { FEE_AUDIT_COLUMNS, feeAuditTable } from "../../appliance/io/fee-audit.ts";
import { DeviceRegistry } from "../../appliance/stats/device-registry.ts";
import { exportFeeAudit } from "../../appliance/stats/fee-audit-export.ts";
import { readFeeAudit } from "../../appliance/stats/fee-audit-store.ts";
import { SeriesStore } from "../../appliance/stats/series-store.ts";
import { targetsInForce } from "../../appliance/stats/targets-in-force.ts";
import { openDatabase } from "../../appliance/store/db.ts";
import { tempDir } from "../support/appliance.ts";
import { feeWallet, makePort } from "../support/stratum/port-fixture.ts";

const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const H0 = T0 / 3_600_000;
const MIN = 60_000;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The registry and the series store over a real database file, with `port` as the configuration. */
function rig(initial: Port) {
  const dir = tempDir();
  dirs.push(dir);
  const db = openDatabase(dir);
  let port = initial;
  const store = new SeriesStore(db, (id) => (id === port.id ? targetsInForce(port, null, false) : null));
  const reg = new DeviceRegistry();
  const device = reg.connect(port.id, "w", "rig", "10.0.0.1", "sha256", T0);
  return {
    db,
    reg,
    device,
    store,
    setPort: (p: Port) => {
      port = p;
    },
    /** closes the minute that `at` lies in and writes it */
    flushMinute: (at: number) => {
      reg.tick(Math.floor(at / MIN) * MIN + MIN, store);
      store.flush(at + MIN);
    },
  };
}

describe("fee audit store", () => {
  test("pool answers are counted per hour and target; local verdicts are not rejections", () => {
    const fee = feeWallet(3, "bc1qfee", "fee.pool:3333", 0.05, "rigfee");
    const port = makePort({ pool_address: "main.pool:3333", wallets: [fee] });
    const r = rig(port);
    const key = feeKey(fee);
    r.reg.result(r.device, "valid", "main", 900, 1, true, T0 + 1000);
    r.reg.result(r.device, "valid", "main", 100, 1, false, T0 + 2000); // protected: still the pool's work
    r.reg.result(r.device, "valid", key, 60, 1, true, T0 + 3000);
    r.reg.result(r.device, "invalid", key, 20, 1, true, T0 + 4000); // the fee pool rejected it
    r.reg.result(r.device, "stale", "main", 0, 0, false, T0 + 5000); // answered locally, no pool saw it
    r.flushMinute(T0);
    r.reg.result(r.device, "valid", "main", 40, 1, true, T0 + 61_000); // the next minute, same hour
    r.flushMinute(T0 + 61_000);
    const rows = readFeeAudit(r.db, port.id, H0, H0);
    expect(
      rows.map((x) => [x.target, x.acceptedWork, x.rejectedWork, x.acceptedShares, x.rejectedShares]),
    ).toEqual([
      ["main", 1040, 0, 3, 0],
      [key, 60, 20, 1, 1],
    ]);
    expect(rows[1]).toMatchObject({ walletId: 3, addr: "bc1qfee", worker: "rigfee", pool: "fee.pool:3333" });
    expect(rows[1]?.configured).toBeCloseTo(0.05, 12);
    expect(rows[0]).toMatchObject({ walletId: null, addr: "", pool: "main.pool:3333" });
    expect(rows[0]?.configured).toBeCloseTo(0.95, 12);
    r.db.close();
  });

  test("a wallet edit keeps the old address on the old hours; an owed wallet without work shows", () => {
    const before = feeWallet(1, "oldaddr", "fee.pool:1", 0.02);
    const port = makePort({ pool_address: "main.pool:1", wallets: [before] });
    const r = rig(port);
    r.reg.result(r.device, "valid", feeKey(before), 10, 1, true, T0 + 1000);
    r.reg.result(r.device, "valid", "main", 490, 1, true, T0 + 1000);
    r.flushMinute(T0);
    // the operator edits the wallet an hour later; the fee pool is down, only main gets work
    const after = { ...before, addr: "newaddr", ratio: 0.04 };
    r.setPort({ ...port, wallets: [after] });
    r.reg.result(r.device, "valid", "main", 500, 1, true, T0 + 3_600_000 + 1000);
    r.flushMinute(T0 + 3_600_000);
    const rows = readFeeAudit(r.db, port.id, H0, H0 + 1);
    expect(rows.map((x) => [x.hour - H0, x.addr, x.configured, x.acceptedWork])).toEqual([
      [0, "", 0.98, 490],
      [0, "oldaddr", 0.02, 10],
      [1, "", 0.96, 500],
      [1, "newaddr", 0.04, 0],
    ]);
    const table = feeAuditTable(rows);
    expect(table[0]).toEqual([...FEE_AUDIT_COLUMNS]);
    expect(table[1]).toEqual([
      "2026-01-01T10:00:00Z",
      "main pool",
      null,
      "main.pool:1",
      490,
      0,
      1,
      0,
      0.98,
      0.98,
      0.98,
      0,
    ]);
    expect(table[4]?.slice(1, 5)).toEqual(["newaddr", "fee", "fee.pool:1", 0]);
    expect(table[4]?.slice(8)).toEqual([0.04, 0.04, 0, -0.04]);
    // totals: the old wallet was owed 2 % of the first hour's work, the new one 4 % of the second's
    const totals = table.filter((row) => row[0] === "total");
    expect(totals.map((row) => [row[1], row[4], row[8]])).toEqual([
      ["main pool", 990, Number(((0.98 * 500 + 0.96 * 500) / 1000).toPrecision(10))],
      ["oldaddr", 10, 0.01],
      ["newaddr", 0, 0.02],
    ]);
    r.db.close();
  });

  test("hours older than 30 days are pruned like series_hour", () => {
    const port = makePort({ pool_address: "main.pool:1" });
    const r = rig(port);
    r.reg.result(r.device, "valid", "main", 5, 1, true, T0 + 1000);
    r.flushMinute(T0);
    expect(readFeeAudit(r.db, port.id, H0, H0).length).toBe(1);
    r.store.flush(T0 + 31 * 24 * 3_600_000);
    expect(readFeeAudit(r.db, port.id, H0, H0).length).toBe(0);
    r.db.close();
  });

  test("the file survives a reopen (a real SQLite file, migration 003)", () => {
    const port = makePort({ pool_address: "main.pool:1" });
    const r = rig(port);
    r.reg.result(r.device, "valid", "main", 7, 1, true, T0 + 1000);
    r.flushMinute(T0);
    const file = r.db.filename;
    r.db.close();
    const again = new Database(file, { readonly: true });
    expect(readFeeAudit(again, port.id, H0, H0)[0]?.acceptedWork).toBe(7);
    again.close();
  });
});

describe("export worker", () => {
  test("a month of eleven targets as xlsx is built off the main thread, which keeps turning", async () => {
    const port = makePort({ pool_address: "main.pool:1" });
    const r = rig(port);
    const insert = r.db.prepare("INSERT INTO fee_audit_hour VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
    const HOURS = 31 * 24 + 1;
    r.db.transaction(() => {
      for (let h = 0; h < HOURS; h++)
        for (let k = 0; k <= 10; k++)
          insert.run(
            port.id,
            H0 + h,
            k === 0 ? "main" : `${k}|bc1q${k}|fee|pool:${k}|0`,
            k || null,
            k ? `bc1q${k}` : "",
            k ? "fee" : "",
            `pool:${k}`,
            0.01,
            0.01,
            1e15 + h,
            1e9,
            100,
            1,
          );
    })();
    // Timer turns while the export is pending: a workbook built inline, in the promise chain, allows
    // none before it is done; built in a worker, the main thread keeps turning meanwhile.
    let turns = 0;
    const beat = setInterval(() => turns++, 1);
    const bytes = await exportFeeAudit({
      dbFile: r.db.filename,
      portId: port.id,
      fromHour: H0,
      toHour: H0 + HOURS,
      format: "xlsx",
    });
    const turnsWhileBuilding = turns;
    clearInterval(beat);
    const book = XLSX.read(bytes, { type: "array" });
    const sheet = book.Sheets[book.SheetNames[0] as string] as XLSX.WorkSheet;
    // header, every hour of every target, one total per target
    expect(XLSX.utils.sheet_to_json(sheet, { header: 1 }).length).toBe(1 + HOURS * 11 + 11);
    expect(turnsWhileBuilding).toBeGreaterThan(0);
    r.db.close();
  });
});

describe("CSV (RFC 4180)", () => {
  test("CRLF records, quoted fields with doubled quotes, formula text defused, numbers as they are", () => {
    const csv = encodeCsv([
      ["a", "b,c", 'say "hi"', "line\nbreak"],
      ["=SUM(A1)", "-x", -0.5, null],
    ]);
    expect(csv).toBe('a,"b,c","say ""hi""","line\nbreak"\r\n\'=SUM(A1),\'-x,-0.5,\r\n');
  });
});
