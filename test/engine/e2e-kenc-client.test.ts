/**
 * The farm side of KENC (`pithead client`): plain hashing miners connect to the client, which
 * carries each of them to a Pithead KENC port over its own KENC connection; the pool verifies every
 * share and the fee still reaches the fee pool. The command itself is run as a process too.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ClientArgsError, parseClientArgs } from "../../appliance/client/cli.ts";
import { startKencClient } from "../../appliance/client/kenc-client.ts";
import type { Port } from "../../appliance/domain/port.ts";
import { startClientProcess } from "../support/kenc/client-process.ts";
import { startKencPort } from "../support/kenc/kenc-port.ts";
import { feeWallet, until } from "../support/stratum/port-fixture.ts";
import { PACED_HASHES_PER_SECOND, TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

setDefaultTimeout(60_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const KEY = "farm uplink 19c2";

const kencPort = (wallets: Port["wallets"] = []) => startKencPort(cleanup, KEY, wallets);

function client(serverPort: number, kencKey = KEY) {
  const logs: string[] = [];
  const c = startKencClient({
    listenHost: "127.0.0.1",
    listenPort: 0,
    server: { host: "127.0.0.1", port: serverPort },
    kencKey,
    log: (m) => logs.push(m),
  });
  cleanup.push(() => c.stop());
  return { port: c.port, logs };
}

describe("pithead client", () => {
  test("two hashing miners → client → KENC port → pool, one KENC connection each, fee included", async () => {
    const fee = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
    cleanup.push(() => fee.stop());
    const { pool, t, port, listen } = await kencPort([feeWallet(1, "feew", fee.address, 0.3)]);
    const c = client(listen);
    const miners = ["wal.rig1", "wal.rig2"].map((user) =>
      TestMiner.start({
        port: c.port,
        user,
        maxShares: 60,
        maxMs: 40_000,
        hashesPerSecond: PACED_HASHES_PER_SECOND,
      }),
    );
    await until(() => t.engine.running(port.id)?.connected === 2);
    const reports = await Promise.all(miners.map((m) => m.done));
    for (const r of reports) expect(r.accepted).toBe(60);
    expect(pool.workers.get("wal.rig1")?.shares ?? 0).toBeGreaterThan(0);
    expect(pool.workers.get("wal.rig2")?.shares ?? 0).toBeGreaterThan(0);
    expect(fee.workers.get("feew.fee")?.shares ?? 0).toBeGreaterThan(0);
    expect(pool.rejects.size + fee.rejects.size).toBe(0);
    expect(c.logs).toEqual([]);
  });

  test("with another key than the port's, the miner's connection is closed and the client says why", async () => {
    const { t, port, listen } = await kencPort();
    const c = client(listen, "not the port's key");
    const r = await TestMiner.start({ port: c.port, user: "wal.rig3", maxShares: 1, maxMs: 10_000 }).done;
    expect(r.authorized).toBe(false);
    expect(r.accepted).toBe(0);
    await until(() => c.logs.length > 0);
    expect(c.logs[0]).toContain("the port closed the link before answering: is this its KENC key");
    expect(t.logs.filter((l) => l.includes("the first frame does not authenticate"))).toHaveLength(1);
    expect(t.engine.running(port.id)?.connected).toBe(0);
  });

  test("the command: `pithead client` as a process carries a hashing miner", async () => {
    const { pool, listen } = await kencPort();
    // the key as the environment gives it, with the spaces the client trims
    const { port: local, out } = await startClientProcess(
      cleanup,
      ["--server", `127.0.0.1:${listen}`, "--listen", "127.0.0.1:0"],
      ` ${KEY} `,
    );
    expect(out).toContain(`carrying miners to 127.0.0.1:${listen} over KENC`);
    const r = await TestMiner.start({ port: local, user: "wal.rig4", maxShares: 10, maxMs: 20_000 }).done;
    expect(r.accepted).toBe(10);
    expect(pool.workers.get("wal.rig4")?.shares).toBe(10);
  });

  test("its options: a server is required, a key too, a tunnel variant is one of three, the RMS options need a tunnel", () => {
    const env = { PITHEAD_KENC_KEY: "k" };
    expect(parseClientArgs(["--server", "10.0.0.5:4000"], env)).toEqual({
      server: { host: "10.0.0.5", port: 4000 },
      listen: null,
      bind: "0.0.0.0",
      kencKey: "k",
      tunnel: null,
      password: "",
      name: null,
    });
    expect(parseClientArgs(["--server", "h:1", "--listen", "3334", "--kenc-key", "x"], {}).listen?.port).toBe(
      3334,
    );
    expect(() => parseClientArgs([], env)).toThrow(ClientArgsError);
    expect(() => parseClientArgs(["--server", "h:1"], {})).toThrow("a KENC key is required");
    expect(() => parseClientArgs(["--server", "h:1", "--password", "p"], env)).toThrow("they need --tunnel");
    const rms = parseClientArgs(
      ["--server", "h:1", "--tunnel", "rms2", "--password", "p", "--name", " rack "],
      {
        ...env,
        PITHEAD_RMS_PASSWORD: "from env",
      },
    );
    expect([rms.password, rms.name]).toEqual(["p", "rack"]);
    expect(
      parseClientArgs(["--server", "h:1", "--tunnel", "rms2"], { ...env, PITHEAD_RMS_PASSWORD: "e" })
        .password,
    ).toBe("e");
    expect(() =>
      parseClientArgs(["--server", "h:1", "--tunnel", "rms", "--listen", "1", "--bind", "::"], env),
    ).toThrow("--bind is for the mapped ports");
    expect(parseClientArgs(["--server", "h:1", "--tunnel", "RMS3"], env).tunnel).toBe(6);
    expect(() => parseClientArgs(["--server", "h:1", "--tunnel", "rms4"], env)).toThrow("--tunnel is rms");
    expect(() => parseClientArgs(["--server", "ssl://h:1"], env)).toThrow("--server needs HOST:PORT");
    expect(() => parseClientArgs(["--server", "h:1", "--listen", "h:70000"], env)).toThrow("--listen needs");
  });
});
