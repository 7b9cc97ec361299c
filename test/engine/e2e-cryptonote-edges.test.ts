/**
 * CryptoNote edges end to end: hostile miners (malformed JSON, unknown methods, oversize lines, bad
 * nonce hex, submit before login, a miner that ignores its reserved nonce byte) and the main pool
 * failing over to the standby and back while miners keep mining.
 */
import { afterAll, afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { ProxyMode } from "../../appliance/domain/port.ts";
import { CryptoNoteE2E, SEED } from "../support/cryptonote/e2e-fixture.ts";
import { NONCE_OFFSET, testHashingBlob } from "../support/cryptonote/hashing-blob.ts";
import { LineReader, parseRpcLine } from "../support/cryptonote/json-lines.ts";
import { closeSharedRandomX } from "../support/cryptonote/randomx.ts";
import { REJECT_MESSAGES } from "../support/cryptonote/share-check.ts";
import { targetHexForDifficulty } from "../support/cryptonote/target.ts";
import { feeWallet, until } from "../support/stratum/port-fixture.ts";
import { RawClient } from "../support/stratum/raw-client.ts";

setDefaultTimeout(90_000);

let env: CryptoNoteE2E | null = null;
afterEach(async () => {
  await env?.close();
  env = null;
});
afterAll(() => closeSharedRandomX());

const send = (c: RawClient, id: number, method: string, params: unknown): void =>
  c.send(`${JSON.stringify({ id, jsonrpc: "2.0", method, params })}\n`);
const errorOf = (c: RawClient, id: number) => c.answer(id)?.error as { code: number; message: string } | null;

async function loggedIn(
  listen: number,
): Promise<{ c: RawClient; rpcId: string; jobId: string; blob: string }> {
  const c = await RawClient.connect(listen);
  send(c, 1, "login", { login: "4Raw", pass: "x", agent: "raw/1.0" });
  await until(() => c.answer(1) !== undefined);
  const r = c.answer(1)?.result as { id: string; job: { job_id: string; blob: string } };
  return { c, rpcId: r.id, jobId: r.job.job_id, blob: r.job.blob };
}

describe("hostile miners", () => {
  test("malformed JSON, unknown methods, bad nonce hex and submit before login are answered; strikes close", async () => {
    env = new CryptoNoteE2E();
    const pool = await env.pool();
    const listen = await env.t.start(env.port({ pool_address: pool.address }));
    const c = await RawClient.connect(listen);
    c.send("this is not json\n");
    send(c, 2, "submit", { id: "x", job_id: "1", nonce: "00000000", result: "00".repeat(32) });
    send(c, 3, "mining.teleport", {});
    await until(() => c.answer(3) !== undefined);
    expect(JSON.parse(c.lines[0] as string).error.code).toBe(-1);
    expect(errorOf(c, 2)).toEqual({ code: -1, message: "Unauthenticated" });
    expect(errorOf(c, 3)?.message).toBe("Unsupported method");
    expect(env.t.logs.some((l) => l.includes("unknown method mining.teleport"))).toBe(true);

    const m = await loggedIn(listen);
    send(m.c, 2, "submit", { id: m.rpcId, job_id: m.jobId, nonce: "zz00000g", result: "00".repeat(32) });
    send(m.c, 3, "submit", { id: "not-mine", job_id: m.jobId, nonce: "00000000", result: "00".repeat(32) });
    send(m.c, 4, "keepalived", { id: m.rpcId });
    await until(() => m.c.answer(4) !== undefined);
    expect(errorOf(m.c, 2)?.message).toContain("Invalid nonce");
    expect(errorOf(m.c, 3)?.message).toBe("Unauthenticated");
    expect(m.c.answer(4)?.result).toEqual({ status: "KEEPALIVED" });
    // the pool never saw any of it
    expect(pool.accepted + pool.rejects.size).toBe(0);

    for (let i = 0; i < 30; i++) c.send("{broken\n");
    await until(() => c.closed);
    expect(env.t.logs.some((l) => l.includes("too many bad requests"))).toBe(true);
    expect(m.c.closed).toBe(false);
  });

  test("a line above the maximum length and a login timeout close the socket", async () => {
    env = new CryptoNoteE2E({ loginTimeoutMs: 150 });
    const pool = await env.pool();
    const listen = await env.t.start(env.port({ pool_address: pool.address }));
    const long = await RawClient.connect(listen);
    long.send(`{"id":1,"method":"login","params":{"login":"${"a".repeat(40_000)}`);
    await until(() => long.closed);
    expect(env.t.logs.some((l) => l.includes("line too long"))).toBe(true);
    const idle = await RawClient.connect(listen);
    await until(() => idle.closed);
    expect(env.t.logs.some((l) => l.includes("login timeout"))).toBe(true);
  });

  test("a miner that ignores its reserved nonce byte is refused locally and closed after repeated strikes", async () => {
    env = new CryptoNoteE2E();
    const pool = await env.pool();
    const port = env.port({ pool_address: pool.address, mode: ProxyMode.POOL, proxy_addr: "4Farm" });
    const listen = await env.t.start(port);
    // a well-behaved miner takes byte 00 of the shared job; the raw one gets another byte
    const good = env.miner({ port: listen, login: "4Good" });
    await until(() => good.report.accepted >= 1);
    const m = await loggedIn(listen);
    const byte = m.blob.slice(84, 86);
    expect(byte).not.toBe("00");
    // nonce top byte 00: the well-behaved miner's byte; the pool would see its work twice
    for (let i = 0; i < 30 && !m.c.closed; i++)
      send(m.c, 10 + i, "submit", {
        id: m.rpcId,
        job_id: m.jobId,
        nonce: `${i.toString(16).padStart(6, "0")}00`,
        result: "00".repeat(32),
      });
    await until(() => m.c.closed);
    expect(errorOf(m.c, 10)?.message).toBe("Invalid nonce; is miner not compatible with NiceHash?");
    expect(env.t.logs.some((l) => l.includes("outside the reserved nonce byte"))).toBe(true);
    const r = await good.finish();
    expect(r.rejected.size).toBe(0);
    // nothing of the raw miner reached the pool: its only submissions are the good miner's
    expect(pool.accepted).toBe(r.accepted);
    expect(pool.rejects.size).toBe(0);
  });

  test("the pool's own refusals reach the miner as xmrig reads them", async () => {
    env = new CryptoNoteE2E();
    const pool = await env.pool();
    const port = env.port({ pool_address: pool.address });
    const listen = await env.t.start(port);
    const r = await env.miner({ port: listen, login: "4Bad", misbehave: "wrong-result", maxShares: 2 }).done;
    expect(r.accepted).toBe(0);
    expect(r.rejected.get(REJECT_MESSAGES["invalid-result"])).toBe(2);
    expect(pool.rejectCount("invalid-result")).toBe(2);
    // counted against the device as invalid, not as stale and not as accepted work
    const [device] = env.t.engine.live.workers(port.id);
    expect(device?.invalid).toBe(2);
    expect(device?.valid).toBe(0);
  });
});

describe("sessions", () => {
  test("Pool mode: the 257th miner opens a second pool session; each session's miners hold distinct bytes", async () => {
    env = new CryptoNoteE2E();
    // no new jobs during the test, so every miner keeps the byte it logged in with
    const pool = await env.pool({ jobIntervalMs: 0 });
    const port = env.port({ pool_address: pool.address, mode: ProxyMode.POOL, proxy_addr: "4Farm" });
    const listen = await env.t.start(port);
    const clients: Array<Awaited<ReturnType<typeof loggedIn>>> = [];
    for (let i = 0; i < 257; i++) clients.push(await loggedIn(listen));
    env.cleanup.push(() => {
      for (const c of clients) c.c.close();
    });
    expect(pool.connectionsOpened).toBe(2);
    expect(env.t.engine.running(port.id)?.sessionCounts().main).toBe(2);
    // a pool job is shared by all miners of a session: a job id, and the blob without byte 42
    const bySession = new Map<string, Set<string>>();
    for (const c of clients) {
      const key = c.blob.slice(0, 84) + c.blob.slice(86);
      const bytes = bySession.get(key) ?? new Set<string>();
      bytes.add(c.blob.slice(84, 86));
      bySession.set(key, bytes);
    }
    expect([...bySession.values()].map((b) => b.size).sort((a, b) => a - b)).toEqual([1, 256]);
  });

  test("Efficient mode: a miner's own pool session is counted while it is connected and closes when it leaves", async () => {
    env = new CryptoNoteE2E();
    const pool = await env.pool({ jobIntervalMs: 0 });
    const port = env.port({ pool_address: pool.address, mode: ProxyMode.EFFICIENT });
    const listen = await env.t.start(port);
    const mainSessions = () => env?.t.engine.running(port.id)?.sessionCounts().main;
    const a = await loggedIn(listen);
    const b = await loggedIn(listen);
    env.cleanup.push(() => b.c.close());
    expect(pool.connections).toBe(2);
    expect(mainSessions()).toBe(2);
    a.c.close();
    await until(() => pool.connections === 1);
    expect(mainSessions()).toBe(1);
    b.c.close();
    await until(() => pool.connections === 0);
    expect(mainSessions()).toBe(0);
  });

  test("Efficient mode: a login the pool refuses is answered with the pool's reason at once", async () => {
    env = new CryptoNoteE2E();
    const pool = await env.pool();
    const listen = await env.t.start(env.port({ pool_address: pool.address }));
    // "." is a wallet and a worker name, both empty: the proxy logs in with "" and the pool refuses it
    const r = await env.miner({ port: listen, login: "." }).done;
    expect(r.loggedIn).toBe(false);
    expect(r.loginError).toBe("login refused: Missing login");
    expect(pool.rejects.get("Missing login")).toBe(1);
  });

  test("a pool that offers keepalive is sent keepalived at the engine's period, while the session mines", async () => {
    env = new CryptoNoteE2E({ keepaliveMs: 150 });
    const pool = await env.pool();
    const listen = await env.t.start(env.port({ pool_address: pool.address }));
    const miner = env.miner({ port: listen, login: "4Keep" });
    await until(() => miner.report.accepted >= 1);
    const since = performance.now();
    const before = pool.keepalives;
    await until(() => pool.keepalives >= before + 3);
    // three periods of 150 ms, each up to one 250-ms sweep late
    expect(performance.now() - since).toBeGreaterThanOrEqual(300);
    // one session all along: the keepalives kept it, nothing reconnected
    expect(pool.connections).toBe(1);
    const r = await miner.finish();
    expect(r.rejected.size).toBe(0);
    expect(r.disconnects).toBe(0);
  });
});

/**
 * A minimal upstream in the role of a NiceHash-style splitter: its blobs come with blob[42] = 0xab
 * already reserved, and it accepts any share, recording the nonces, so the test can look at them.
 */
function fixedBytePool(): {
  port: number;
  nonces: string[];
  logins: number;
  /** each login's algo param, as the pool received it */
  algos: unknown[];
  stop: () => void;
} {
  const nonces: string[] = [];
  const algos: unknown[] = [];
  const state = { logins: 0 };
  const blob = Buffer.from(testHashingBlob(randomBytes(32)));
  blob[NONCE_OFFSET + 3] = 0xab;
  const job = {
    blob: blob.toString("hex"),
    job_id: "j1",
    target: targetHexForDifficulty(2, 4),
    algo: "rx/0",
    height: 1,
    seed_hash: SEED,
  };
  const listener = Bun.listen<LineReader>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open: (s) => {
        s.data = new LineReader(
          (line) => {
            const m = parseRpcLine(line);
            if (m === null || m.kind !== "request") return;
            if (m.method === "submit") nonces.push((m.params as { nonce: string }).nonce);
            if (m.method === "login") {
              state.logins++;
              algos.push((m.params as { algo?: unknown }).algo);
            }
            const result =
              m.method === "login"
                ? { id: "r1", job, extensions: ["algo", "nicehash", "keepalive"], status: "OK" }
                : { status: "OK" };
            s.write(`${JSON.stringify({ id: m.id, jsonrpc: "2.0", error: null, result })}\n`);
          },
          () => s.end(),
        );
      },
      data: (s, chunk) => s.data.push(chunk),
    },
  });
  return {
    port: listener.port,
    nonces,
    algos,
    get logins() {
      return state.logins;
    },
    stop: () => listener.stop(true),
  };
}

describe("pools whose jobs cannot be split (blob[42] already set)", () => {
  test("Efficient: the miner gets the pool's byte unchanged, is never moved, and the log says why", async () => {
    env = new CryptoNoteE2E({ jobTimeoutMs: 60_000 });
    const upstream = fixedBytePool();
    env.cleanup.push(() => upstream.stop());
    const fee = await env.pool();
    const port = env.port({
      pool_address: `127.0.0.1:${upstream.port}`,
      wallets: [feeWallet(1, "4FeeWallet", fee.address, 0.5)],
    });
    const listen = await env.t.start(port);
    const r = await env.miner({ port: listen, login: "4W", maxShares: 6 }).done;
    expect(r.accepted).toBe(6);
    expect([...r.nonceTopBytes]).toEqual([0xab]);
    expect(upstream.nonces.map((n) => n.slice(6))).toEqual(Array(6).fill("ab"));
    // half of its work was owed to the fee wallet, yet none went there: it cannot be moved
    expect(fee.connectionsOpened).toBe(0);
    expect(env.t.logs.some((l) => l.includes("cannot be switched; no fee is taken from it"))).toBe(true);
  });

  test("Efficient: each miner's own pool login carries the algorithms that miner listed", async () => {
    env = new CryptoNoteE2E({ jobTimeoutMs: 60_000 });
    const upstream = fixedBytePool();
    env.cleanup.push(() => upstream.stop());
    const listen = await env.t.start(env.port({ pool_address: `127.0.0.1:${upstream.port}` }));
    const lists = [["rx/0", "cn/r"], ["rx/0"], ["rx/0", "cn/r"], ["rx/wow", "rx/0"]];
    for (const [i, algo] of lists.entries()) {
      const c = await RawClient.connect(listen);
      env.cleanup.push(() => c.close());
      send(c, 1, "login", { login: `4Algo${i}`, pass: "x", agent: "raw/1.0", algo });
      await until(() => c.answer(1) !== undefined);
      expect(c.answer(1)?.error).toBeNull();
    }
    expect(upstream.algos).toEqual(lists);
  });

  test("Pool: the pool is not shared (logged) and miners are refused rather than given colliding work", async () => {
    env = new CryptoNoteE2E({ jobTimeoutMs: 60_000 });
    const upstream = fixedBytePool();
    env.cleanup.push(() => upstream.stop());
    const port = env.port({
      pool_address: `127.0.0.1:${upstream.port}`,
      mode: ProxyMode.POOL,
      proxy_addr: "4F",
    });
    const listen = await env.t.start(port);
    const r = await env.miner({ port: listen, login: "4W" }).done;
    expect(r.loggedIn).toBe(false);
    expect(r.loginError).toBe("No pool available");
    expect(upstream.nonces).toEqual([]);
    expect(env.t.logs.some((l) => l.includes("its jobs cannot be shared between miners"))).toBe(true);
  });
});

describe("main ↔ standby", () => {
  for (const [name, mode] of [
    ["Efficient", ProxyMode.EFFICIENT],
    ["Pool", ProxyMode.POOL],
  ] as const) {
    test(`${name}: fails over and back with the miner connected and mining throughout`, async () => {
      env = new CryptoNoteE2E();
      const main = await env.pool();
      const standby = await env.pool();
      const port = env.port({
        pool_address: main.address,
        pool_address2: standby.address,
        mode,
        proxy_addr: "4Farm",
        proxy_device: "px",
      });
      const listen = await env.t.start(port);
      const miner = env.miner({ port: listen, login: "4Wal.rig" });
      await until(() => main.accepted >= 2);
      const mainPort = main.port;
      main.stop();
      await until(() => standby.accepted >= 2);
      expect(env.t.engine.live.portStats(port.id).upstream).toBe("standby");
      const before = main.accepted;
      main.listen(mainPort);
      await until(() => main.accepted >= before + 2);
      expect(env.t.engine.live.portStats(port.id).upstream).toBe("main");
      const r = await miner.finish();
      expect(r.disconnects).toBe(0);
      // only shares caught in the outage may fail, and only as stale ("Block expired")
      const other = [...r.rejected.keys()].filter((k) => !/expired|invalid job/i.test(k));
      expect(other).toEqual([]);
      expect(r.accepted).toBeLessThanOrEqual(main.accepted + standby.accepted);
      expect(main.rejects.size + standby.rejects.size).toBe(0);
      expect(env.t.logs.some((l) => l.includes("switching to standby"))).toBe(true);
      expect(env.t.logs.some((l) => l.includes("returning from standby"))).toBe(true);
    });
  }
});
