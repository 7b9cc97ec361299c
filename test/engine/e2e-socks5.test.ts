import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Socket } from "bun";
import { SocksClient } from "socks";
import { ListenProtocol, type Port, type PortSetting } from "../../appliance/domain/port.ts";
import { feeWallet, makeEngine, makePort, type TestEngine, until } from "../support/stratum/port-fixture.ts";
import { PACED_HASHES_PER_SECOND, TestMiner } from "../support/stratum/test-miner.ts";
import { TestPool } from "../support/stratum/test-pool.ts";

setDefaultTimeout(60_000);

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A port with SOCKS5 (spec §4: protocol TCP, et_mode 2) in front of its stratum. */
async function socksPort(wallets: Port["wallets"] = [], credentials: Partial<PortSetting> = {}) {
  const pool = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
  const t: TestEngine = makeEngine();
  cleanup.push(
    () => pool.stop(),
    () => t.engine.shutdown(),
  );
  const port = makePort({
    pool_address: pool.address,
    protocol: ListenProtocol.TCP,
    wallets,
    setting: { et_mode: 2, ...credentials },
  });
  return { pool, t, port, listen: await t.start(port) };
}

/**
 * What a miner whose firmware has a SOCKS5 proxy set does: each connection it makes goes through a
 * real SOCKS client (the `socks` package) to the port, asking for the pool by name.
 */
async function throughSocks(
  proxyPort: number,
  auth: { userId: string; password: string } | null = null,
): Promise<number> {
  const relay = Bun.listen<{
    up: Awaited<ReturnType<typeof SocksClient.createConnection>>["socket"] | null;
    early: Uint8Array[];
  }>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open: (s) => {
        s.data = { up: null, early: [] };
        SocksClient.createConnection({
          proxy: { host: "127.0.0.1", port: proxyPort, type: 5, ...auth },
          command: "connect",
          destination: { host: "stratum.pool.example", port: 3333 },
        }).then(
          ({ socket }) => {
            s.data.up = socket;
            for (const b of s.data.early) socket.write(b);
            socket.on("data", (d: Buffer) => s.write(d));
            socket.on("close", () => s.end());
          },
          () => s.end(),
        );
      },
      data: (s, chunk) => {
        if (s.data.up) s.data.up.write(chunk);
        else s.data.early.push(new Uint8Array(chunk));
      },
      close: (s) => {
        s.data.up?.destroy();
      },
    },
  });
  cleanup.push(() => relay.stop(true));
  return relay.port;
}

/** A raw TCP client for the handshake's refusals. */
async function raw(
  port: number,
): Promise<{ sock: Socket<undefined>; got: () => Uint8Array; closed: () => boolean }> {
  let buf = new Uint8Array(0);
  let closed = false;
  const sock = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data: (_s, d) => {
        const n = new Uint8Array(buf.length + d.length);
        n.set(buf);
        n.set(d, buf.length);
        buf = n;
      },
      close: () => {
        closed = true;
      },
    },
  });
  cleanup.push(() => {
    sock.end();
  });
  return { sock, got: () => buf, closed: () => closed };
}

describe("SOCKS5 listener", () => {
  test("a hashing miner behind a real SOCKS5 client mines through the port; the pool verifies every share", async () => {
    const { pool, t, port, listen } = await socksPort();
    const relay = await throughSocks(listen);
    const r = await TestMiner.start({ port: relay, user: "wal.rig1", maxShares: 10, maxMs: 20_000 }).done;
    expect(r.accepted).toBe(10);
    expect(pool.workers.get("wal.rig1")?.shares).toBe(10);
    expect(pool.rejects.size).toBe(0);
    expect(t.engine.live.workers(port.id)[0]?.valid).toBe(10);
  });

  test("the fee still goes to the fee pool through SOCKS5", async () => {
    const fee = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
    cleanup.push(() => fee.stop());
    const { listen } = await socksPort([feeWallet(1, "feew", fee.address, 0.3)]);
    const relay = await throughSocks(listen);
    await TestMiner.start({
      port: relay,
      user: "wal.rig2",
      maxShares: 60,
      maxMs: 40_000,
      hashesPerSecond: PACED_HASHES_PER_SECOND,
    }).done;
    expect(fee.workers.get("feew.fee")?.shares ?? 0).toBeGreaterThan(0);
    expect(fee.rejects.size).toBe(0);
  });

  test("only CONNECT with no authentication: other methods, commands and address types get the RFC's codes", async () => {
    const { listen } = await socksPort();
    // a client offering only username/password: X'FF', no acceptable methods, then closed
    const a = await raw(listen);
    a.sock.write(Uint8Array.of(5, 1, 2));
    await until(() => a.closed());
    expect([...a.got()]).toEqual([5, 0xff]);
    // BIND (0x02): command not supported (0x07)
    const b = await raw(listen);
    b.sock.write(Uint8Array.of(5, 1, 0));
    b.sock.write(Uint8Array.of(5, 2, 0, 1, 127, 0, 0, 1, 0x0d, 0x05));
    await until(() => b.closed());
    expect([...b.got()].slice(0, 4)).toEqual([5, 0, 5, 7]);
    // an address type that does not exist (0x05): 0x08
    const c = await raw(listen);
    c.sock.write(Uint8Array.of(5, 1, 0, 5, 1, 0, 5, 9, 9));
    await until(() => c.closed());
    expect([...c.got()].slice(0, 4)).toEqual([5, 0, 5, 8]);
    // a plain stratum miner on a SOCKS port is not spoken to as a miner
    const d = await raw(listen);
    d.sock.write(new TextEncoder().encode('{"id":1,"method":"mining.subscribe","params":[]}\n'));
    await until(() => d.closed());
    expect([...d.got()]).toEqual([5, 0xff]);
  });

  test("no authentication remains offered when the port has no credentials", async () => {
    const { listen } = await socksPort();
    const a = await raw(listen);
    a.sock.write(Uint8Array.of(5, 2, 0, 2));
    await until(() => a.got().length >= 2);
    expect([...a.got()]).toEqual([5, 0]);
  });
});

describe("SOCKS5 with RFC 1929 username/password", () => {
  const credentials = { socks_user: "farm-7", socks_password: "pässwörd 7" };

  test("a hashing miner behind a real SOCKS5 client with the port's credentials mines, fee included", async () => {
    const fee = await TestPool.start({ difficulty: 2e-8, extranonce2Size: 8 });
    cleanup.push(() => fee.stop());
    const { pool, listen } = await socksPort([feeWallet(1, "feew", fee.address, 0.3)], credentials);
    const relay = await throughSocks(listen, { userId: "farm-7", password: "pässwörd 7" });
    const r = await TestMiner.start({
      port: relay,
      user: "wal.rig3",
      maxShares: 60,
      maxMs: 40_000,
      hashesPerSecond: PACED_HASHES_PER_SECOND,
    }).done;
    expect(r.accepted).toBe(60);
    expect(pool.workers.get("wal.rig3")?.shares ?? 0).toBeGreaterThan(0);
    expect(fee.workers.get("feew.fee")?.shares ?? 0).toBeGreaterThan(0);
    expect(pool.rejects.size + fee.rejects.size).toBe(0);
  });

  test("a client offering only no-auth gets X'FF'; wrong credentials get a failure status and are closed, logged once per address", async () => {
    const { t, port, listen } = await socksPort([], credentials);
    const a = await raw(listen);
    a.sock.write(Uint8Array.of(5, 1, 0));
    await until(() => a.closed());
    expect([...a.got()]).toEqual([5, 0xff]);

    const wrong = (user: string, password: string) =>
      SocksClient.createConnection({
        proxy: { host: "127.0.0.1", port: listen, type: 5, userId: user, password },
        command: "connect",
        destination: { host: "stratum.pool.example", port: 3333 },
      });
    await expect(wrong("farm-7", "pässwörd 8")).rejects.toThrow();
    await expect(wrong("farm-8", "pässwörd 7")).rejects.toThrow();

    // the sub-negotiation's reply by hand: version 1, a non-zero status, then the connection closes
    const b = await raw(listen);
    b.sock.write(Uint8Array.of(5, 1, 2));
    const user = new TextEncoder().encode("farm-7");
    const password = new TextEncoder().encode("nope");
    b.sock.write(Uint8Array.of(1, user.length, ...user, password.length, ...password));
    await until(() => b.closed());
    const got = [...b.got()];
    expect(got.slice(0, 3)).toEqual([5, 2, 1]);
    expect(got[3]).not.toBe(0);

    // three wrong credentials from one address, one line; the no-auth client's refusal is its own
    const refusals = t.logs.filter((l) => l.startsWith(`warn ${port.id} SOCKS5 127.0.0.1:`));
    expect(refusals).toHaveLength(2);
    expect(refusals[0]).toContain(
      "no acceptable authentication method (this port requires username/password)",
    );
    expect(refusals[1]).toContain("wrong username or password");
    expect(t.engine.running(port.id)?.connected).toBe(0);
  });

  test("the right credentials by hand: status 0, then CONNECT succeeds", async () => {
    const { listen } = await socksPort([], credentials);
    const c = await raw(listen);
    c.sock.write(Uint8Array.of(5, 2, 0, 2));
    const user = new TextEncoder().encode(credentials.socks_user);
    const password = new TextEncoder().encode(credentials.socks_password);
    c.sock.write(Uint8Array.of(1, user.length, ...user, password.length, ...password));
    c.sock.write(Uint8Array.of(5, 1, 0, 1, 127, 0, 0, 1, 0x0d, 0x05));
    await until(() => c.got().length >= 14);
    expect([...c.got()].slice(0, 6)).toEqual([5, 2, 1, 0, 5, 0]);
  });
});
