/**
 * The hourly fee audit end to end: hashing miners mine through the real appliance (engine, registry,
 * series store, SQLite file) to two test pools that verify every share, the appliance restarts (its
 * shutdown closes the minute and writes it), and the export fetched over HTTP, as CSV and as xlsx,
 * holds per target exactly the work each pool accepted and the shares each pool rejected. The pools'
 * tallies are the truth.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import * as XLSX from "@e965/xlsx";
import { FEE_AUDIT_COLUMNS } from "../../appliance/io/fee-audit.ts";
import { freePort, portBody, startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

setDefaultTimeout(120_000);

const DIFFICULTY = 2e-8;
/** hashes per second of a device finding `sharesPerSecond` shares at the pools' difficulty */
const hashrate = (sharesPerSecond: number) => Math.round((sharesPerSecond * DIFFICULTY * 2 ** 48) / 0xffff);

let t: TestAppliance;
let main: TestPool;
let fee: TestPool;
let portId = 0;
const started = Date.now();

type Row = (string | number | null)[];

async function download(path: string): Promise<Response> {
  return fetch(`${t.client.base}${path}`, { headers: { authorization: `Bearer ${t.client.token}` } });
}

/** Our CSV has no quoted fields (no commas or quotes in these names); numbers come back as numbers. */
function parseCsv(text: string): Row[] {
  expect(text).not.toContain('"');
  expect(text.endsWith("\r\n")).toBe(true);
  return text
    .slice(0, -2)
    .split("\r\n")
    .map((line) => line.split(",").map((f) => (f === "" ? null : Number.isNaN(Number(f)) ? f : Number(f))));
}

function parseXlsx(bytes: ArrayBuffer): Row[] {
  const book = XLSX.read(new Uint8Array(bytes), { type: "array" });
  const sheet = book.Sheets[book.SheetNames[0] as string] as XLSX.WorkSheet;
  return XLSX.utils.sheet_to_json<Row>(sheet, { header: 1, raw: true, defval: null });
}

/** equal but for the float rounding of sums taken in another order */
function near(got: Row[number], want: number): void {
  expect(Math.abs((got as number) - want)).toBeLessThanOrEqual(Math.abs(want) * 1e-9);
}

const col = (name: (typeof FEE_AUDIT_COLUMNS)[number]) => FEE_AUDIT_COLUMNS.indexOf(name);

beforeAll(async () => {
  main = await TestPool.start({ difficulty: DIFFICULTY, extranonce2Size: 8 });
  fee = await TestPool.start({ difficulty: DIFFICULTY, extranonce2Size: 8 });
  t = await startTestAppliance();
  const created = await t.client.post<{ id: number }>(
    "/api/port/new",
    portBody({
      port: freePort(),
      pool_address: main.address,
      status: 1,
      wallets: [{ addr: "feeaddr", device: "fee", pool_address: fee.address, pool_protocol: 0, ratio: 0.05 }],
    }),
  );
  expect(created.status).toBe(200);
  portId = created.body.id;
  const { body: port } = await t.client.get<{ server: { port: number } }>(`/api/port/${portId}`);
  const reports = await Promise.all(
    [1, 2, 3, 4].map(
      (i) =>
        TestMiner.start({
          port: port.server.port,
          user: `wal.rig${i}`,
          hashesPerSecond: hashrate(60),
          lowDifficultyShares: 10,
          maxShares: 400,
          maxMs: 60_000,
        }).done,
    ),
  );
  for (const r of reports) expect(r.accepted + (r.rejected.get(23) ?? 0)).toBe(400);
  // Shutting down closes the open minute into the database; the export is read after a restart.
  const dataDir = t.dataDir;
  await t.close(true);
  t = await startTestAppliance(dataDir);
});

afterAll(async () => {
  await t?.close();
  main?.stop();
  fee?.stop();
});

const range = () => `from=${started - 3_600_000}&to=${Date.now()}`;

/** The checks both formats must pass: totals per target are the pools' tallies. */
function checkAgainstPools(rows: Row[]): void {
  expect(rows[0]).toEqual([...FEE_AUDIT_COLUMNS]);
  const hourly = rows.slice(1).filter((r) => r[0] !== "total");
  const totals = rows.slice(1).filter((r) => r[0] === "total");
  expect(totals.map((r) => [r[col("target")], r[col("worker")], r[col("pool_address")]])).toEqual([
    ["main pool", null, main.address],
    ["feeaddr", "fee", fee.address],
  ]);
  const [mainTotal, feeTotal] = totals as [Row, Row];
  const mainRejected = main.rejects.get(23) ?? 0;
  const feeRejected = fee.rejects.get(23) ?? 0;
  expect(mainRejected + feeRejected).toBe(40);
  expect(main.rejects.size + fee.rejects.size).toBeLessThanOrEqual(2); // nothing but the misses
  // Accepted work: each pool's own tally (Σ difficulty) in hashes. The hashes one unit of difficulty
  // stands for is the engine's conversion (2^32 give or take 0xffff/0x10000); what must hold is that
  // one and the same factor turns every pool's tally into the export's figure.
  const factor = (mainTotal[col("accepted_work_hashes")] as number) / main.totalWork();
  expect(Math.abs(factor / 2 ** 32 - 1)).toBeLessThan(1e-4);
  near(feeTotal[col("accepted_work_hashes")], fee.workerWork("feeaddr.fee") * factor);
  expect(mainTotal[col("accepted_shares")]).toBe(main.accepted);
  expect(feeTotal[col("accepted_shares")]).toBe(fee.accepted);
  expect(fee.accepted).toBeGreaterThan(0);
  // rejected: counted for the target whose pool refused them, at the job's difficulty
  expect(mainTotal[col("rejected_shares")]).toBe(mainRejected);
  expect(feeTotal[col("rejected_shares")]).toBe(feeRejected);
  near(mainTotal[col("rejected_work_hashes")], mainRejected * DIFFICULTY * factor);
  near(feeTotal[col("rejected_work_hashes")], feeRejected * DIFFICULTY * factor);
  // ratios: configured as set, achieved as the pools' split
  expect(mainTotal[col("configured_ratio")]).toBeCloseTo(0.95, 9);
  expect(feeTotal[col("configured_ratio")]).toBeCloseTo(0.05, 9);
  const split = fee.workerWork("feeaddr.fee") / (main.totalWork() + fee.workerWork("feeaddr.fee"));
  expect(feeTotal[col("achieved_ratio")]).toBeCloseTo(split, 9);
  expect(feeTotal[col("gap")]).toBeCloseTo(split - (feeTotal[col("target_ratio")] as number), 9);
  // the hours add up to the totals
  for (const total of totals) {
    const target = total[col("target")];
    const sum = hourly
      .filter((r) => r[col("target")] === target)
      .reduce((s, r) => s + (r[col("accepted_work_hashes")] as number), 0);
    near(total[col("accepted_work_hashes")], sum);
    for (const r of hourly) expect(String(r[col("hour_utc")])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00Z$/);
  }
}

describe("fee audit export", () => {
  test("CSV: per target, the work and shares each pool accepted and rejected", async () => {
    const res = await download(`/api/stat/port/${portId}/fee-audit?${range()}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="pithead-fee-audit-\d+-/);
    checkAgainstPools(parseCsv(await res.text()));
  });

  test("xlsx: the same figures, numbers as numbers", async () => {
    const res = await download(`/api/stat/port/${portId}/fee-audit?${range()}&format=xlsx`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/\.xlsx"$/);
    checkAgainstPools(parseXlsx(await res.arrayBuffer()));
  });

  test("a range before any work has the header only; the default range is the last 24 h", async () => {
    const empty = await download(`/api/stat/port/${portId}/fee-audit?from=0&to=3600000`);
    expect(parseCsv(await empty.text())).toEqual([[...FEE_AUDIT_COLUMNS]]);
    const last24 = await download(`/api/stat/port/${portId}/fee-audit`);
    expect(parseCsv(await last24.text()).length).toBeGreaterThan(3);
  });
});

describe("fee audit export: refusals", () => {
  const refused = async (path: string) => {
    const r = await t.client.get<{ error: { key: string; field?: string } }>(path);
    return [r.status, r.body.error?.key];
  };

  test("an unknown port", async () => {
    expect(await refused("/api/stat/port/999999/fee-audit")).toEqual([404, "lang.audit.err_port"]);
    expect(await refused("/api/stat/port/abc/fee-audit")).toEqual([404, "lang.audit.err_port"]);
  });

  test("a bad range: backwards, longer than 31 days, not a number", async () => {
    const base = `/api/stat/port/${portId}/fee-audit`;
    expect(await refused(`${base}?from=2000&to=1000`)).toEqual([400, "lang.audit.err_range"]);
    expect(await refused(`${base}?from=0&to=${32 * 86_400_000}`)).toEqual([400, "lang.audit.err_range"]);
    expect(await refused(`${base}?from=yesterday`)).toEqual([400, "lang.audit.err_range"]);
    expect(await refused(`${base}?from=-5&to=10`)).toEqual([400, "lang.audit.err_range"]);
    expect((await download(`${base}?from=0&to=${31 * 86_400_000}`)).status).toBe(200);
  });

  test("a format other than csv or xlsx", async () => {
    expect(await refused(`/api/stat/port/${portId}/fee-audit?format=pdf`)).toEqual([
      400,
      "lang.audit.err_format",
    ]);
  });

  test("no session, no export", async () => {
    const r = await fetch(`${t.client.base}/api/stat/port/${portId}/fee-audit`);
    expect(r.status).toBe(401);
  });
});
