/**
 * How many pool jobs a CryptoNote lane keeps for late shares, seen by a raw xmrig-style miner on an
 * Efficient port (its own lane): the newest two, older ones while the job after them is younger than
 * the grace, at most four. A share on a forgotten job is answered "Invalid job id" by the proxy and
 * never reaches the pool; one on a kept job goes to the pool, which counts it (here as a reject:
 * the share's result is not a real hash). The clock is moved forward between the pool's jobs
 * (bun:test's setSystemTime), as if they came half a minute apart.
 */
import { afterAll, afterEach, expect, setSystemTime, test } from "bun:test";
import { CryptoNoteE2E } from "../support/cryptonote/e2e-fixture.ts";
import { closeSharedRandomX } from "../support/cryptonote/randomx.ts";
import { until } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";

let env: CryptoNoteE2E | null = null;
afterEach(async () => {
  setSystemTime();
  await env?.close();
  env = null;
});
afterAll(() => closeSharedRandomX());

interface Line {
  method?: string;
  params?: { job_id?: string };
  result?: { id: string; job: { job_id: string } };
}

const send = (c: RawClient, id: number, method: string, params: unknown): void =>
  c.send(`${JSON.stringify({ id, jsonrpc: "2.0", method, params })}\n`);

test("CryptoNote: pool jobs half a minute apart leave the newest two; jobs in quick succession stay up to four; a share on a forgotten job is refused by the proxy, on a kept one it reaches the pool", async () => {
  // the session's no-job timeout must not fire while the clock jumps
  env = new CryptoNoteE2E({ jobTimeoutMs: 3_600_000 });
  const pool = await env.pool({ jobIntervalMs: 0 });
  const listen = await env.t.start(env.port({ pool_address: pool.address }));
  const c = await RawClient.connect(listen);
  send(c, 1, "login", { login: "4Raw", pass: "x", agent: "raw/1.0" });
  await until(() => c.answer(1) !== undefined);
  const login = (JSON.parse(c.lines[0] as string) as Line).result as { id: string; job: { job_id: string } };
  const jobIds = (): string[] => [
    login.job.job_id,
    ...c.lines
      .map((l) => JSON.parse(l) as Line)
      .filter((m) => m.method === "job")
      .map((m) => String(m.params?.job_id)),
  ];

  let id = 10;
  const poolSaw = () => pool.accepted + [...pool.rejects.values()].reduce((a, b) => a + b, 0);
  /** Submits a share on the job and resolves to whether the proxy forgot the job (the pool saw nothing). */
  const forgotten = async (jobId: string): Promise<boolean> => {
    const n = id++;
    const before = poolSaw();
    send(c, n, "submit", { id: login.id, job_id: jobId, nonce: "00000000", result: "00".repeat(32) });
    await until(() => c.answer(n) !== undefined);
    const local =
      JSON.stringify(c.answer(n)?.error ?? null).includes("Invalid job id") && poolSaw() === before;
    if (!local) await until(() => poolSaw() === before + 1);
    return local;
  };
  const nextJob = async () => {
    const before = jobIds().length;
    pool.newJob();
    await until(() => jobIds().length === before + 1);
  };

  let now = Date.now();
  for (let k = 0; k < 3; k++) {
    now += 30_000;
    setSystemTime(now);
    await nextJob();
  }
  const slow = jobIds();
  expect(slow).toHaveLength(4);
  for (const j of slow) expect(await forgotten(j)).toBe(slow.indexOf(j) < 2);

  // three more at once: within the grace, all are kept, up to four pool jobs in all
  for (let k = 0; k < 3; k++) await nextJob();
  const ids = jobIds().slice(-4);
  expect(ids[0]).toBe(slow[3]);
  for (const j of ids) expect(await forgotten(j)).toBe(false);
  await nextJob();
  expect(await forgotten(slow[3] as string)).toBe(true);
});
